/*
 * cmd_import: `coreplan import PATH...`. All the corpora named go in one
 * transaction: either every one is imported or the database is left as it
 * was, so the summary lines are printed only after the commit.
 */
#include "cmd.h"
#include "opt.h"

#include "../common/err.h"
#include "../common/num.h"
#include "../importers/corpus.h"
#include "../schema/db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

enum { OPT_NAME, OPT_REPLACE, OPT_MANIFEST, OPT_PATCH_FLOOR, OPT_QUIET };

static const struct opt_spec specs[] = {
	[OPT_NAME] = {"name", 0, "NAME",
		      "corpus name (default: the folder or file name); one PATH only", false},
	[OPT_REPLACE] = {"replace", 0, NULL,
			 "replace a corpus of the same name whose content changed", false},
	[OPT_MANIFEST] = {"manifest", 0, "FILE",
			  "read the layout from FILE (default: coreplan.manifest in the folder, "
			  "else detect)",
			  false},
	[OPT_PATCH_FLOOR] = {"patch-floor", 0, "X",
			     "exclude runs whose patch_rate is below X (0..1, default 0.9)", false},
	[OPT_QUIET] = {"quiet", 'q', NULL, "no progress on standard error", false},
	{NULL, 0, NULL, NULL, false},
};

static const struct opt_cmd cmd = {
	"import",
	"PATH...",
	"PATH is a corpus folder or a single TSV/CSV file with one row per run.\n"
	"All PATHs are imported in one transaction: if any fails, nothing is stored.\n"
	"Importing an unchanged corpus again does nothing; a changed one needs --replace.\n"
	"Progress is drawn on standard error only when it is a terminal.\n"
	"\n"
	"examples:\n"
	"  coreplan import ../shared/corpora/sky/gomaxprocs-scaling-20260816\n"
	"  coreplan --db plan.db import results.tsv --name pilot --patch-floor 0.8\n",
	specs,
};

/* A one-line progress display on a terminal, redrawn at most ten times a second. */
struct progress {
	const char *corpus;
	struct timespec last;
	bool drawn_once;
	size_t shown; /* width of what is on the line now */
};

#define PROGRESS_WIDTH 79

static double seconds_since(const struct timespec *then)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - then->tv_sec) + (double)(now.tv_nsec - then->tv_nsec) / 1e9;
}

static void progress_clear(struct progress *pr)
{
	if (pr->shown == 0)
		return;
	fprintf(stderr, "\r%*s\r", (int)pr->shown, "");
	fflush(stderr);
	pr->shown = 0;
}

static void progress_draw(const char *what, int64_t files, int64_t rows, void *arg)
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

/* "a/b/corpus/" -> "corpus/": enough to tell corpora apart on one line. */
static const char *short_label(const char *path)
{
	size_t len = strlen(path);
	while (len > 1 && path[len - 1] == '/')
		len--;
	while (len > 0 && path[len - 1] != '/')
		len--;
	return path + len;
}

static void print_result(const struct import_result *r)
{
	if (r->status == IMPORT_UNCHANGED) {
		printf("unchanged '%s': nothing to do\n", r->name);
		return;
	}
	printf("%s '%s' (layout %s): %lld runs (%lld listed, %lld unlisted), %lld excluded, "
	       "%lld trace rows, %lld files, %lld missing files\n",
	       r->status == IMPORT_REPLACED ? "replaced" : "imported", r->name, r->layout,
	       (long long)r->runs, (long long)r->listed, (long long)r->unlisted,
	       (long long)r->excluded, (long long)r->trace_rows, (long long)r->files,
	       (long long)r->missing_files);
}

int cmd_import(int argc, char **argv, const struct global_opts *g)
{
	struct import_options opts;
	struct import_result *results = NULL;
	struct progress pr = {NULL, {0, 0}, false, 0};
	struct opt_parser p = {0};
	sqlite3 *db = NULL;
	bool quiet = false;
	bool in_transaction = false;
	const char *value;
	int which;
	int rc;

	import_options_init(&opts);
	rc = opt_parser_init(&p, &cmd, argc, argv);
	if (rc)
		goto done;
	while ((rc = opt_next(&p, &which, &value)) == OPT_FOUND) {
		switch (which) {
		case OPT_NAME:
			if (!*value) {
				rc = err_usage("--name needs a non-empty name");
				goto done;
			}
			opts.name = value;
			break;
		case OPT_REPLACE:
			opts.replace = true;
			break;
		case OPT_MANIFEST:
			opts.manifest_path = value;
			break;
		case OPT_PATCH_FLOOR:
			if (num_parse_real(value, &opts.patch_floor) || opts.patch_floor < 0 ||
			    opts.patch_floor > 1) {
				rc = err_usage(
					"--patch-floor needs a fraction from 0 to 1, got '%s'",
					value);
				goto done;
			}
			break;
		case OPT_QUIET:
			quiet = true;
			break;
		}
	}
	if (rc == OPT_HELP_SHOWN) {
		rc = 0;
		goto done;
	}
	if (rc < 0)
		goto done;
	if (p.noperands == 0) {
		rc = err_usage("import needs at least one PATH");
		goto done;
	}
	if (opts.name && p.noperands > 1) {
		rc = err_usage("--name names one corpus, but %zu PATHs were given", p.noperands);
		goto done;
	}
	results = calloc(p.noperands, sizeof(*results));
	if (!results) {
		rc = err_set("out of memory");
		goto done;
	}
	if (!quiet && isatty(STDERR_FILENO)) {
		opts.progress = progress_draw;
		opts.progress_arg = &pr;
	}

	rc = db_open(g->db_path, false, &db);
	if (rc)
		goto done;
	rc = db_begin(db);
	if (rc)
		goto done;
	in_transaction = true;
	for (size_t i = 0; i < p.noperands; i++) {
		pr.corpus = opts.name ? opts.name : short_label(p.operands[i]);
		pr.drawn_once = false;
		rc = corpus_import(db, p.operands[i], &opts, &results[i]);
		progress_clear(&pr);
		if (rc)
			goto done;
	}
	rc = db_commit(db);
	in_transaction = false;
	if (rc)
		goto done;
	for (size_t i = 0; i < p.noperands; i++)
		print_result(&results[i]);
done:
	progress_clear(&pr);
	if (in_transaction)
		db_rollback(db); /* keeps the message of the failure */
	db_close(db);
	free(results);
	opt_parser_release(&p);
	return rc;
}
