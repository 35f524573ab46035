/* progress: see progress.h. */
#include "progress.h"

#include <stdio.h>
#include <string.h>

#define PROGRESS_WIDTH 79

static double seconds_since(const struct timespec *then)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - then->tv_sec) + (double)(now.tv_nsec - then->tv_nsec) / 1e9;
}

void progress_start(struct progress *pr, const char *label)
{
	pr->corpus = label;
	pr->drawn_once = false;
}

void progress_clear(struct progress *pr)
{
	if (pr->shown == 0)
		return;
	fprintf(stderr, "\r%*s\r", (int)pr->shown, "");
	fflush(stderr);
	pr->shown = 0;
}

void progress_draw(const char *what, int64_t files, int64_t rows, void *arg)
{
	struct progress *pr = arg;
	char line[PROGRESS_WIDTH + 1];
	int n;
	if (pr->drawn_once && seconds_since(&pr->last) < 0.1)
		return;
	clock_gettime(CLOCK_MONOTONIC, &pr->last);
	pr->drawn_once = true;
	(void)what; /* the phase ("files", "rows") adds nothing the counts do not say */
	n = snprintf(line, sizeof(line), "importing '%s': %lld files, %lld rows", pr->corpus,
		     (long long)files, (long long)rows);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(line))
		n = (int)sizeof(line) - 1; /* snprintf truncated it to the line width */
	fprintf(stderr, "\r%s", line);
	if ((size_t)n < pr->shown)
		fprintf(stderr, "%*s", (int)(pr->shown - (size_t)n), "");
	fflush(stderr);
	if ((size_t)n > pr->shown)
		pr->shown = (size_t)n;
}

const char *progress_label(const char *path)
{
	size_t len = strlen(path);
	while (len > 1 && path[len - 1] == '/')
		len--;
	while (len > 0 && path[len - 1] != '/')
		len--;
	return path + len;
}
