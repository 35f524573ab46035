/* timer.c: the bench scripts' wall clock (bench/lib.sh bench_timer compiles it):
 * CLOCK_MONOTONIC around fork/exec/wait, so a figure carries no extra
 * `date` spawns. */
#define _POSIX_C_SOURCE 200809L
#include <fcntl.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
/* timer OUT ERR CMD...: run CMD with stdout to OUT and stderr to ERR; print
 * its wall time in ms (CLOCK_MONOTONIC); exit with its exit status. */
int main(int argc, char **argv)
{
	struct timespec a, b;
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
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return 2;
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%.3f\n", (b.tv_sec - a.tv_sec) * 1e3 + (b.tv_nsec - a.tv_nsec) / 1e6);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}
