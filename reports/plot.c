/* plot: see plot.h. */
#include "plot.h"

#include "../common/err.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define GNUPLOT "gnuplot"
#define EXIT_NO_GNUPLOT 127

const char *plot_extension(enum plot_format format)
{
	return format == PLOT_PNG ? "png" : "svg";
}

int plot_quote(struct strbuf *sb, const char *text)
{
	/*
	 * gnuplot 5.4 reads '' right after an opening quote as an empty string,
	 * so doubling quotes breaks on a leading or repeated quote; a "'" piece
	 * would confuse gnuplot's macro scanner (it then expands @names). So a
	 * quote is made by sprintf('%c',39) and concatenated:
	 * 'it'.sprintf('%c',39).'s'. The text never leaves single quotes.
	 */
	int bad = strbuf_add(sb, "'", 1);
	for (const unsigned char *p = (const unsigned char *)text; p && *p; p++) {
		if (*p < 0x20 || *p == 0x7f)
			continue; /* a newline would end the command: drop every control byte */
		bad |= *p == '\'' ? strbuf_adds(sb, "'.sprintf('%c',39).'")
				  : strbuf_add(sb, (const char *)p, 1);
	}
	bad |= strbuf_add(sb, "'", 1);
	return bad ? err_set("out of memory") : 0;
}

void plot_data_text(FILE *fp, const char *text)
{
	for (const unsigned char *p = (const unsigned char *)text; p && *p; p++)
		fputc(*p < 0x20 || *p == 0x7f || *p == '"' ? ' ' : *p, fp);
}

int plot_begin(struct strbuf *script, enum plot_format format, const char *image,
	       const char *title, const char *xlabel, const char *ylabel)
{
	int rc = 0;
	strbuf_adds(script, format == PLOT_PNG
				    ? "set terminal pngcairo size 1000,650 noenhanced font 'sans,10'\n"
				    : "set terminal svg size 1000,650 noenhanced font 'sans,11' "
				      "background rgb 'white'\n");
	strbuf_adds(script, "set output ");
	rc |= plot_quote(script, image);
	strbuf_adds(script, "\nset title ");
	rc |= plot_quote(script, title);
	strbuf_adds(script, "\nset xlabel ");
	rc |= plot_quote(script, xlabel);
	strbuf_adds(script, "\nset ylabel ");
	rc |= plot_quote(script, ylabel);
	strbuf_adds(script, "\nset grid\nset key outside right top\nset datafile separator '\\t'\n");
	return rc;
}

static int write_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");
	int rc = 0;
	if (!fp)
		return err_set("cannot write '%s': %s", path, strerror(errno));
	if (fputs(text, fp) == EOF)
		rc = err_set("cannot write '%s': %s", path, strerror(errno));
	if (fclose(fp) != 0 && rc == 0)
		rc = err_set("cannot write '%s': %s", path, strerror(errno));
	return rc;
}

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
	char *const argv[] = {(char *)GNUPLOT, NULL};
	/* the script names its files relative to the plot folder, so it re-plots from there */
	if (chdir(dir) != 0 || dup2(script_fd, 0) < 0 || null_fd < 0 || dup2(null_fd, 1) < 0 ||
	    dup2(err_fd, 2) < 0)
		_exit(EXIT_NO_GNUPLOT - 1);
	signal(SIGPIPE, SIG_DFL);
	execvp(GNUPLOT, argv);
	_exit(EXIT_NO_GNUPLOT);
}

int plot_render(const char *script, const char *dir, const char *script_name,
		const char *image_name)
{
	char script_path[4096], image[4096];
	char errors[1024];
	char err_template[] = "/tmp/coreplan-gnuplot-XXXXXX";
	int pipe_fd[2] = {-1, -1}, err_fd = -1, status = 0;
	size_t len = strlen(script), done = 0;
	struct stat st;
	pid_t pid;
	int rc;
	snprintf(script_path, sizeof(script_path), "%s/%s", dir, script_name);
	snprintf(image, sizeof(image), "%s/%s", dir, image_name);
	rc = write_file(script_path, script);
	if (rc)
		return rc;
	unlink(image);
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
	if (WIFEXITED(status) && WEXITSTATUS(status) == EXIT_NO_GNUPLOT) {
		rc = PLOT_NOT_INSTALLED;
	} else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		rc = err_set("gnuplot failed on '%s': %s", script_path,
			     errors[0] ? errors : "no message");
		unlink(image); /* no half-written image left behind */
	} else if (stat(image, &st) != 0 || st.st_size == 0) {
		rc = err_set("gnuplot wrote no image '%s'%s%s", image, errors[0] ? ": " : "",
			     errors);
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

static const char *const style_names[] = {"points pt 7 ps 0.8", "lines lw 2",
					  "linespoints pt 7 lw 2", "yerrorbars pt 7 lw 1.5",
					  "filledcurves fs transparent solid 0.25 noborder",
					  "boxes fs solid 0.6"};

static size_t valid_points(const struct plot_series *ps)
{
	size_t n = 0;
	for (size_t i = 0; i < ps->n; i++)
		n += !isnan(ps->x[i]) && !isnan(ps->y[i]);
	return n;
}

/* Series without a point are left out: gnuplot does not count an empty block as an index. */
static int write_data(const char *path, const struct plot_series *series, size_t nseries)
{
	FILE *fp = fopen(path, "w");
	int rc = 0;
	if (!fp)
		return err_set("cannot write '%s': %s", path, strerror(errno));
	fprintf(fp, "# coreplan plot data: one block per series with points (gnuplot index)\n");
	for (size_t s = 0, written = 0; s < nseries; s++) {
		const struct plot_series *ps = &series[s];
		bool range = ps->style == PLOT_ERRORBARS || ps->style == PLOT_BAND;
		if (valid_points(ps) == 0)
			continue;
		fprintf(fp, "%s# ", written++ ? "\n\n" : "");
		plot_data_text(fp, ps->title);
		fprintf(fp, "\n");
		for (size_t i = 0; i < ps->n; i++) {
			if (isnan(ps->x[i]) || isnan(ps->y[i]))
				continue;
			fprintf(fp, "%.17g\t%.17g", ps->x[i], ps->y[i]);
			if (range)
				fprintf(fp, "\t%.17g\t%.17g", ps->y_low[i], ps->y_high[i]);
			fprintf(fp, "\n");
		}
	}
	if (fclose(fp) != 0)
		rc = err_set("cannot write '%s': %s", path, strerror(errno));
	return rc;
}

static int plot_commands(struct strbuf *sb, const struct plot_spec *spec,
			 const struct plot_series *series, size_t nseries, const char *data)
{
	size_t index = 0;
	int rc = 0;
	strbuf_adds(sb, "plot ");
	for (size_t s = 0; s < nseries; s++) {
		const struct plot_series *ps = &series[s];
		const char *using = ps->style == PLOT_ERRORBARS ? "1:2:3:4"
				    : ps->style == PLOT_BAND    ? "1:3:4"
								: "1:2";
		if (valid_points(ps) == 0)
			continue;
		strbuf_addf(sb, "%s", index ? ", \\\n     " : "");
		rc |= plot_quote(sb, data);
		strbuf_addf(sb, " index %zu using %s with %s%s title ", index++, using,
			    style_names[ps->style], ps->y2 ? " axes x1y2" : "");
		rc |= plot_quote(sb, ps->title);
	}
	if (spec->has_hline) {
		strbuf_addf(sb, ", \\\n     %.17g with lines lw 2 dt 2 lc rgb 'red' title ", spec->hline);
		rc |= plot_quote(sb, spec->hline_title ? spec->hline_title : "");
	}
	strbuf_adds(sb, "\n");
	return rc;
}

static int decorations(struct strbuf *sb, const struct plot_spec *spec)
{
	int rc = 0;
	if (spec->log2_x)
		strbuf_adds(sb, "set logscale x 2\n");
	if (spec->y2label) {
		strbuf_adds(sb, "set y2tics\nset ytics nomirror\nset y2label ");
		rc |= plot_quote(sb, spec->y2label);
		strbuf_adds(sb, "\n");
	}
	if (spec->has_shade) {
		strbuf_addf(sb,
			    "set object 1 rect from %.17g, graph 0 to %.17g, graph 1 behind "
			    "fc rgb '#dde8f8' fs solid 1.0 noborder\n",
			    spec->shade_from, spec->shade_to);
		if (spec->shade_label) {
			strbuf_addf(sb, "set label 1 ");
			rc |= plot_quote(sb, spec->shade_label);
			strbuf_addf(sb, " at %.17g, graph 0.97\n", spec->shade_from);
		}
	}
	if (spec->xtic_labels) {
		strbuf_adds(sb, "set xtics rotate by -45 (");
		for (size_t i = 0; i < spec->nxtic_labels; i++) {
			strbuf_addf(sb, "%s", i ? ", " : "");
			rc |= plot_quote(sb, spec->xtic_labels[i]);
			strbuf_addf(sb, " %zu", i);
		}
		strbuf_adds(sb, ")\nset boxwidth 0.7\nset yrange [0:*]\n");
	}
	return rc;
}

int plot_draw(const struct plot_spec *spec, const struct plot_series *series, size_t nseries,
	      char **image)
{
	struct strbuf script = STRBUF_INIT, data = STRBUF_INIT, data_path = STRBUF_INIT,
		      gp = STRBUF_INIT, img = STRBUF_INIT;
	int rc;
	*image = NULL;
	strbuf_addf(&data, "%s.tsv", spec->name);
	strbuf_addf(&data_path, "%s/%s.tsv", spec->dir, spec->name);
	strbuf_addf(&gp, "%s.gp", spec->name);
	strbuf_addf(&img, "%s.%s", spec->name, plot_extension(spec->format));
	rc = 0;
	{
		size_t drawable = 0;
		for (size_t s = 0; s < nseries; s++)
			drawable += valid_points(&series[s]) > 0;
		if (drawable == 0)
			rc = err_set("nothing to plot: no series has a point");
	}
	if (rc == 0)
		rc = write_data(strbuf_str(&data_path), series, nseries);
	if (rc == 0)
		rc = plot_begin(&script, spec->format, strbuf_str(&img), spec->title, spec->xlabel,
				spec->ylabel);
	if (rc == 0)
		rc = decorations(&script, spec);
	if (rc == 0)
		rc = plot_commands(&script, spec, series, nseries, strbuf_str(&data));
	if (rc == 0)
		strbuf_adds(&script, "unset output\n");
	if (rc == 0)
		rc = plot_render(strbuf_str(&script), spec->dir, strbuf_str(&gp), strbuf_str(&img));
	if (rc == 0)
		*image = strbuf_detach(&img);
	strbuf_release(&script);
	strbuf_release(&data);
	strbuf_release(&data_path);
	strbuf_release(&gp);
	strbuf_release(&img);
	return rc;
}
