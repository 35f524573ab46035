/*
 * progress: the one-line progress display `coreplan import` draws on a
 * terminal's standard error ("importing 'NAME': N files, M rows"), redrawn
 * at most ten times a second and cleared when a corpus is done, so that
 * only warnings and errors stay on stderr.
 *
 * progress_start() names the corpus being read, progress_draw() is the
 * importer's progress callback (import_options.progress, arg the struct
 * progress), progress_clear() wipes the line.
 */
#ifndef COREPLAN_CLI_PROGRESS_H
#define COREPLAN_CLI_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

struct progress {
	const char *corpus; /* the label of the corpus being read */
	struct timespec last;
	bool drawn_once;
	size_t shown; /* width of what is on the line now */
};

/* Start a corpus: `label` (not copied) names it on the line. */
void progress_start(struct progress *pr, const char *label);
void progress_draw(const char *what, int64_t files, int64_t rows, void *arg);
void progress_clear(struct progress *pr);

/* "a/b/corpus/" -> "corpus/": enough to tell corpora apart on one line. */
const char *progress_label(const char *path);

#endif
