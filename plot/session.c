/* plot session: see session.h. */
#include "session.h"

#include "../common/err.h"
#include "../common/strbuf.h"
#include "render.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define MARKER "coreplan-plot-"
/* the first bytes of a plot's messages kept, as plot_render reads them */
#define MESSAGE_MAX 1023

struct plot_session {
	char *dir;
	pid_t pid; /* 0: no gnuplot running */
	int in_fd, err_fd;
	bool not_installed; /* a start found no gnuplot: the rest are not tried */
	size_t plots, started;
};

int plot_session_open(const char *dir, struct plot_session **out)
{
	struct plot_session *s = calloc(1, sizeof(*s));
	*out = NULL;
	if (!s || !(s->dir = strdup(dir))) {
		free(s);
		return err_set("out of memory");
	}
	s->in_fd = s->err_fd = -1;
	*out = s;
	return 0;
}

size_t plot_session_started(const struct plot_session *s)
{
	return s ? s->started : 0;
}

/* gnuplot in the session's folder, its input and standard error on pipes. */
static int start(struct plot_session *s)
{
	int in[2] = {-1, -1}, err[2] = {-1, -1};
	pid_t pid;
	if (pipe(in) != 0 || pipe(err) != 0) {
		int e = errno;
		for (int i = 0; i < 2; i++) {
			if (in[i] >= 0)
				close(in[i]);
			if (err[i] >= 0)
				close(err[i]);
		}
		return err_set("cannot start gnuplot: %s", strerror(e));
	}
	pid = fork();
	if (pid < 0) {
		int e = errno;
		close(in[0]);
		close(in[1]);
		close(err[0]);
		close(err[1]);
		return err_set("cannot start gnuplot: %s", strerror(e));
	}
	if (pid == 0) {
		int null_fd = open("/dev/null", O_WRONLY);
		char *const argv[] = {(char *)PLOT_GNUPLOT, NULL};
		close(in[1]);
		close(err[0]);
		if (chdir(s->dir) != 0 || dup2(in[0], 0) < 0 || null_fd < 0 ||
		    dup2(null_fd, 1) < 0 || dup2(err[1], 2) < 0)
			_exit(PLOT_EXIT_NO_GNUPLOT - 1);
		signal(SIGPIPE, SIG_DFL);
		execvp(PLOT_GNUPLOT, argv);
		_exit(PLOT_EXIT_NO_GNUPLOT);
	}
	close(in[0]);
	close(err[1]);
	fcntl(in[1], F_SETFD, FD_CLOEXEC);
	fcntl(err[0], F_SETFD, FD_CLOEXEC);
	s->pid = pid;
	s->in_fd = in[1];
	s->err_fd = err[0];
	s->started++;
	return 0;
}

/* Close gnuplot's input, wait for it; its exit status. */
static int stop(struct plot_session *s)
{
	int status = 0;
	char buf[512];
	if (s->in_fd >= 0)
		close(s->in_fd);
	/* what it still says is nobody's message now */
	while (s->err_fd >= 0 && (read(s->err_fd, buf, sizeof(buf)) > 0 || errno == EINTR))
		;
	if (s->err_fd >= 0)
		close(s->err_fd);
	while (s->pid > 0 && waitpid(s->pid, &status, 0) < 0 && errno == EINTR)
		;
	s->pid = 0;
	s->in_fd = s->err_fd = -1;
	return status;
}

/* The marker line "coreplan-plot-N E" in what gnuplot said: its start, or NULL. */
static const char *find_marker(const char *text, size_t len, const char *marker)
{
	size_t m = strlen(marker);
	for (const char *p = text; p && (size_t)(p - text) + m <= len;) {
		const char *hit = strstr(p, marker);
		if (!hit)
			return NULL;
		if ((hit == text || hit[-1] == '\n') && strchr(hit + m, '\n'))
			return hit;
		p = hit + 1;
	}
	return NULL;
}

/*
 * Send `input` and read gnuplot's standard error until the marker line (0,
 * *errno_out its GPVAL_ERRNO) or the end of it (1: gnuplot exited). said
 * gets everything read before the marker.
 */
static int exchange(struct plot_session *s, const char *input, const char *marker,
		    struct strbuf *said, int *errno_out)
{
	size_t len = strlen(input), done = 0;
	struct sigaction ignore, saved;
	int rc = 1;
	memset(&ignore, 0, sizeof(ignore));
	ignore.sa_handler = SIG_IGN;
	/* a gnuplot that exits early must not kill us with SIGPIPE: its status says why */
	sigaction(SIGPIPE, &ignore, &saved);
	for (;;) {
		struct pollfd fds[2] = {{s->err_fd, POLLIN, 0}, {s->in_fd, POLLOUT, 0}};
		const char *hit;
		char buf[4096];
		ssize_t n;
		if (poll(fds, done < len ? 2 : 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (done < len && (fds[1].revents & (POLLOUT | POLLERR | POLLHUP))) {
			n = write(s->in_fd, input + done, len - done);
			if (n > 0)
				done += (size_t)n;
			else if (n < 0 && errno != EINTR && errno != EAGAIN)
				done = len; /* gone: its standard error ends too */
		}
		if (!(fds[0].revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		n = read(s->err_fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break; /* gnuplot exited */
		if (strbuf_add(said, buf, (size_t)n)) {
			rc = err_set("out of memory");
			break;
		}
		hit = find_marker(strbuf_str(said), said->len, marker);
		if (hit) {
			*errno_out = atoi(hit + strlen(marker));
			said->len = (size_t)(hit - said->buf); /* the marker is not a message */
			said->buf[said->len] = '\0';
			rc = 0;
			break;
		}
	}
	sigaction(SIGPIPE, &saved, NULL);
	return rc;
}

/* As plot_render's read_errors: the first MESSAGE_MAX bytes, newlines as spaces, trimmed. */
static void message_of(const struct strbuf *said, char *buf, size_t size)
{
	size_t n = said->len < MESSAGE_MAX ? said->len : MESSAGE_MAX;
	if (n >= size)
		n = size - 1;
	memcpy(buf, strbuf_str(said), n);
	buf[n] = '\0';
	for (char *p = buf; *p; p++)
		if (*p == '\n' && p[1])
			*p = ' ';
	n = strlen(buf);
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
}

/* DIR/NAME with NAME a single safe component (plot_draw's stage): NAME, else NULL. */
static const char *stage_in(const struct plot_session *s, const char *dir)
{
	size_t n = strlen(s->dir);
	const char *name = dir + n + 1;
	if (strncmp(dir, s->dir, n) != 0 || dir[n] != '/' || !*name || !strcmp(name, ".") ||
	    !strcmp(name, ".."))
		return NULL;
	for (const char *p = name; *p; p++)
		if (!(*p >= 'a' && *p <= 'z') && !(*p >= 'A' && *p <= 'Z') &&
		    !(*p >= '0' && *p <= '9') && *p != '.' && *p != '-' && *p != '_')
			return NULL;
	return name;
}

int plot_session_render(struct plot_session *s, const char *script, const char *dir,
			const char *what, const char *image_name)
{
	struct strbuf input = STRBUF_INIT, said = STRBUF_INIT, image = STRBUF_INIT;
	char marker[64], errors[MESSAGE_MAX + 1];
	const char *stage = s ? stage_in(s, dir) : NULL;
	struct stat st;
	int gp_errno = 0, rc;
	if (!stage)
		return plot_render(script, dir, what, image_name);
	if (s->not_installed)
		return PLOT_NOT_INSTALLED;
	if (strbuf_addf(&image, "%s/%s", dir, image_name))
		return err_set("out of memory");
	if (lstat(strbuf_str(&image), &st) == 0) {
		rc = err_set("'%s' exists: gnuplot never draws over a file", strbuf_str(&image));
		strbuf_release(&image);
		return rc;
	}
	snprintf(marker, sizeof(marker), MARKER "%zu ", ++s->plots);
	/* the script's last line may lack its newline: the marker must start a line */
	if (strbuf_addf(&input, "reset session\ncd './%s'\n%s\ncd '..'\n", stage, script) ||
	    strbuf_addf(&input, "print sprintf('" MARKER "%zu %%d', GPVAL_ERRNO)\nreset errors\n",
			s->plots))
		rc = err_set("out of memory");
	else if ((rc = s->pid ? 0 : start(s)) == 0)
		rc = exchange(s, strbuf_str(&input), marker, &said, &gp_errno);
	if (rc == 1) { /* gnuplot exited: its status says why */
		int status = stop(s);
		message_of(&said, errors, sizeof(errors));
		if (WIFEXITED(status) && WEXITSTATUS(status) == PLOT_EXIT_NO_GNUPLOT) {
			s->not_installed = true;
			rc = PLOT_NOT_INSTALLED;
		} else if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
			rc = 0; /* it ended well: the image says whether it drew */
			gp_errno = 0;
		} else {
			rc = err_set("gnuplot failed on '%s': %s", what,
				     errors[0] ? errors : "no message");
			unlink(strbuf_str(&image)); /* no half-written image left behind */
		}
	} else if (rc == 0) {
		message_of(&said, errors, sizeof(errors));
	}
	if (rc == 0) {
		if (gp_errno != 0) {
			rc = err_set("gnuplot failed on '%s': %s", what,
				     errors[0] ? errors : "no message");
			unlink(strbuf_str(&image));
		} else if (lstat(strbuf_str(&image), &st) != 0 || !S_ISREG(st.st_mode) ||
			   st.st_size == 0) {
			rc = err_set("gnuplot drew no image for '%s'%s%s", what,
				     errors[0] ? ": " : "", errors);
			unlink(strbuf_str(&image));
		}
	}
	strbuf_release(&input);
	strbuf_release(&said);
	strbuf_release(&image);
	return rc;
}

void plot_session_close(struct plot_session *s)
{
	if (!s)
		return;
	if (s->pid)
		stop(s);
	free(s->dir);
	free(s);
}
