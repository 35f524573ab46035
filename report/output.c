/* report output: see output.h. */
#include "output.h"

#include "../common/err.h"
#include "../common/outfile.h"
#include "../common/outpath.h"
#include "../common/strbuf.h"
#include "../plot/session.h"
#include "../schema/corpus_tree.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/*
 * Names that make a folder a corpus to the importers (a manifest, the
 * built-in layouts' results tables and run folders: importers/profiles.c):
 * a report is never written into one.
 */
static const char *const corpus_signs[] = {
	"coreplan.manifest", "results.tsv", "results.csv", "system.tsv", "runs", "samples", NULL};

static int refuse_corpus(const char *dir)
{
	struct strbuf path = STRBUF_INIT;
	struct stat st;
	int rc = 0;
	for (size_t i = 0; rc == 0 && corpus_signs[i]; i++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", dir, corpus_signs[i]);
		if (lstat(strbuf_str(&path), &st) == 0)
			rc = err_set(
				"cannot write a report into '%s': it holds a corpus ('%s' is "
				"there), and its files are never touched: choose an empty or new "
				"folder",
				dir, strbuf_str(&path));
	}
	strbuf_release(&path);
	return rc;
}

/* The writer a report's entries are recorded with, and the names an old marker's entries count as its. */
static const char report_writer[] = "report";
static const char *const report_names[] = {"plots", "report.md", "report.html", NULL};

static char *joined(const char *dir, const char *name)
{
	struct strbuf path = STRBUF_INIT;
	if (strbuf_addf(&path, "%s/%s", dir, name)) {
		strbuf_release(&path);
		return NULL;
	}
	return strbuf_detach(&path);
}

int report_output_open(struct report_output *o, const char *out_dir, sqlite3 *db)
{
	char *abs_out = NULL;
	int rc;
	memset(o, 0, sizeof(*o));
	o->out_dir = out_dir;
	/* refused before anything is made: the places a report must not go */
	rc = corpus_tree_refuse(db, out_dir, "a report");
	if (rc == 0)
		rc = outpath_absolute(out_dir, &abs_out);
	if (rc == 0)
		rc = outpath_refuse_nested(abs_out, out_dir);
	free(abs_out);
	if (rc == 0)
		rc = outdir_open(out_dir, NULL, true, &o->od);
	if (rc == 0) {
		outdir_set_writer(o->od, report_writer);
		rc = refuse_corpus(out_dir);
	}
	/* everything there coreplan's (an earlier report, plots), or an error naming what is not */
	if (rc == 0 && (rc = outdir_check_all(o->od, true, NULL)) != 0)
		err_prefix("cannot write a report into '%s'", out_dir);
	/* the earlier report's folders hold nothing another command wrote */
	if (rc == 0 && (rc = outdir_check_own(o->od, report_names)) != 0)
		err_prefix("cannot write a report into '%s'", out_dir);
	if (rc == 0)
		rc = outdir_stage(o->od, &o->stage);
	if (rc == 0) {
		o->plots_dir = joined(o->stage, "plots");
		o->plots_shown = joined(out_dir, "plots");
		if (!o->plots_dir || !o->plots_shown)
			rc = err_set("out of memory");
		else if (mkdir(o->plots_dir, 0777) != 0)
			rc = err_set("cannot create '%s': %s", o->plots_shown, strerror(errno));
	}
	if (rc == 0)
		rc = plot_session_open(o->plots_dir, &o->gnuplot);
	return rc;
}

int report_output_create(struct report_output *o, const char *name, FILE **fp, char **path_shown)
{
	char *staged = joined(o->stage, name), *shown = joined(o->out_dir, name);
	char **grown = realloc(o->files, (o->nfiles + 1) * sizeof(*grown));
	int rc = 0;
	*fp = NULL;
	if (grown)
		o->files = grown;
	if (!staged || !shown || !grown || !(o->files[o->nfiles] = strdup(name)))
		rc = err_set("out of memory");
	else
		o->nfiles++;
	if (rc == 0)
		rc = outfile_create(staged, shown, fp);
	if (rc == 0 && path_shown) {
		*path_shown = shown;
		shown = NULL;
	}
	free(staged);
	free(shown);
	return rc;
}

int report_output_close(struct report_output *o, FILE *fp, const char *name)
{
	char *shown = joined(o->out_dir, name);
	int rc = outfile_close(fp, shown ? shown : name);
	free(shown);
	return rc;
}

/*
 * The written report replaces the old: the earlier report's files (the
 * report's own, checked when the folder was opened) are removed, so
 * nothing stale stays beside the new ones, while plots other commands drew
 * there stay. The marker lists the new files before they move in, so a
 * report killed between the moves leaves only files the next one knows
 * as its own (and its stage, which the next one removes).
 */
int report_output_install(struct report_output *o)
{
	int rc;
	/* every plot drawn: gnuplot ends before its folder moves */
	plot_session_close(o->gnuplot);
	o->gnuplot = NULL;
	rc = outdir_clear(o->od, report_names);
	if (rc == 0)
		rc = outdir_expect(o->od, o->stage, "plots");
	for (size_t i = 0; rc == 0 && i < o->nfiles; i++)
		rc = outdir_expect(o->od, o->stage, o->files[i]);
	if (rc == 0)
		rc = outdir_save(o->od);
	if (rc == 0)
		rc = outdir_commit(o->od, o->stage, "plots", false);
	for (size_t i = 0; rc == 0 && i < o->nfiles; i++)
		rc = outdir_commit(o->od, o->stage, o->files[i], false);
	if (rc == 0)
		rc = outdir_save(o->od);
	return rc;
}

void report_output_release(struct report_output *o)
{
	plot_session_close(o->gnuplot);
	outdir_unstage(o->stage); /* what a failure left there; empty after install */
	outdir_free(o->od);
	free(o->stage);
	free(o->plots_dir);
	free(o->plots_shown);
	for (size_t i = 0; i < o->nfiles; i++)
		free(o->files[i]);
	free(o->files);
	memset(o, 0, sizeof(*o));
}
