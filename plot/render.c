/* render: see render.h. */
#include "render.h"

#include "../common/err.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* gnuplot's stderr, trimmed, for the error message. */
static void read_errors(int fd, char *buf, size_t len)
{
	ssize_t n;
	lseek(fd, 0, SEEK_SET);
	n = read(fd, buf, len - 1);
	buf[n > 0 ? n : 0] = '\0';
	for (char *p = buf; *p; p++)
		if (*p == '\n' && p[1])
			*p = ' ';
	n = (ssize_t)strlen(buf);
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
}

static void run_child(const char *dir, int script_fd, int err_fd)
{
	int null_fd = open("/dev/null", O_WRONLY);
	char *const argv[] = {(char *)PLOT_GNUPLOT, NULL};
	/* the script names its files relative to the plot folder, so it re-plots from there */
	if (chdir(dir) != 0 || dup2(script_fd, 0) < 0 || null_fd < 0 || dup2(null_fd, 1) < 0 ||
	    dup2(err_fd, 2) < 0)
		_exit(PLOT_EXIT_NO_GNUPLOT - 1);
	signal(SIGPIPE, SIG_DFL);
	execvp(PLOT_GNUPLOT, argv);
	_exit(PLOT_EXIT_NO_GNUPLOT);
}

int plot_render(const char *script, const char *dir, const char *what, const char *image_name)
{
	char image[4096];
	char errors[1024];
	char err_template[] = "/tmp/coreplan-gnuplot-XXXXXX";
	int pipe_fd[2] = {-1, -1}, err_fd = -1, status = 0;
	size_t len = strlen(script), done = 0;
	struct stat st;
	pid_t pid;
	int rc = 0;
	snprintf(image, sizeof(image), "%s/%s", dir, image_name);
	if (lstat(image, &st) == 0)
		return err_set("'%s' exists: gnuplot never draws over a file", image);
	err_fd = mkstemp(err_template);
	if (err_fd < 0 || pipe(pipe_fd) != 0) {
		rc = err_set("cannot start gnuplot: %s", strerror(errno));
		goto done;
	}
	unlink(err_template);
	pid = fork();
	if (pid < 0) {
		rc = err_set("cannot start gnuplot: %s", strerror(errno));
		goto done;
	}
	if (pid == 0) {
		close(pipe_fd[1]);
		run_child(dir, pipe_fd[0], err_fd);
	}
	close(pipe_fd[0]);
	pipe_fd[0] = -1;
	{
		/* a gnuplot that exits early must not kill us with SIGPIPE: its status says why */
		struct sigaction ignore, saved;
		memset(&ignore, 0, sizeof(ignore));
		ignore.sa_handler = SIG_IGN;
		sigaction(SIGPIPE, &ignore, &saved);
		while (done < len) {
			ssize_t n = write(pipe_fd[1], script + done, len - done);
			if (n <= 0)
				break;
			done += (size_t)n;
		}
		sigaction(SIGPIPE, &saved, NULL);
	}
	close(pipe_fd[1]);
	pipe_fd[1] = -1;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	read_errors(err_fd, errors, sizeof(errors));
	if (WIFEXITED(status) && WEXITSTATUS(status) == PLOT_EXIT_NO_GNUPLOT) {
		rc = PLOT_NOT_INSTALLED;
	} else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		rc = err_set("gnuplot failed on '%s': %s", what, errors[0] ? errors : "no message");
		unlink(image); /* no half-written image left behind */
	} else if (lstat(image, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size == 0) {
		rc = err_set("gnuplot drew no image for '%s'%s%s", what, errors[0] ? ": " : "",
			     errors);
		unlink(image);
	}
done:
	if (pipe_fd[0] >= 0)
		close(pipe_fd[0]);
	if (pipe_fd[1] >= 0)
		close(pipe_fd[1]);
	if (err_fd >= 0)
		close(err_fd);
	return rc;
}
