/* timer.c: the bench scripts' clock (bench/lib.sh bench_timer compiles it):
 * CLOCK_MONOTONIC around fork/exec/wait, so a figure carries no extra
 * `date` spawns, and the command's CPU time from wait4's rusage. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* wait4 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
/* timer OUT ERR CMD...: run CMD with stdout to OUT and stderr to ERR; print
 * its wall time in ms (CLOCK_MONOTONIC) and its CPU time in ms (user +
 * system, wait4's rusage); exit with its exit status. */
int main(int argc, char **argv)
{
	struct timespec a, b;
	struct rusage ru;
	int status, out, err;
	pid_t pid;
	if (argc < 4)
		return 2;
	out = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	err = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (out < 0 || err < 0)
		return 2;
	clock_gettime(CLOCK_MONOTONIC, &a);
	pid = fork();
	if (pid == 0) {
		dup2(out, 1);
		dup2(err, 2);
		execvp(argv[3], argv + 3);
		_exit(127);
	}
	if (pid < 0 || wait4(pid, &status, 0, &ru) < 0)
		return 2;
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%.3f %.3f\n", (b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6,
	       (ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
		       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}
