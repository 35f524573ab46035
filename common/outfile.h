/*
 * outfile: writing output files without clobbering anything.
 *
 * Every file coreplan writes (plot images, plot data and scripts,
 * report.md, a report's plots/ folder) goes into an output folder
 * through this module, in this order:
 *
 *   outdir_open     open the folder (with `create`, make it and its missing
 *                   parents) and lock it (flock on the folder: one coreplan
 *                   at a time writes into it)
 *   outdir_check    may NAME be written? Yes when nothing is there; with
 *                   `force`, also when what is there is coreplan's (below)
 *   outdir_stage    a private folder inside the output folder (mkdtemp, mode
 *                   0700, named OUTDIR_STAGE_PREFIX...) where the new files
 *                   are written, each created new by outfile_create
 *                   (O_CREAT|O_EXCL|O_NOFOLLOW)
 *   outdir_commit   move a staged file or folder to its name, on the same
 *                   filesystem: link(2) when the name is free (it never
 *                   replaces: a name that appeared meanwhile is an error),
 *                   rename(2) over coreplan's own entry with `replace`. Either
 *                   way the directory entry itself is replaced: a symbolic link
 *                   at the name is never followed, its target never written.
 *   outdir_save     write the folder's marker (a temporary file renamed over it)
 *   outdir_unstage  remove the stage and whatever is left in it
 *   outdir_free     unlock and close
 * A failure before the commits leaves the output folder as it was (the
 * stage removed).
 *
 * The marker, OUTDIR_MANIFEST (".coreplan-outputs") in the output folder,
 * lists every entry coreplan wrote there, one line each after the line
 * OUTDIR_MANIFEST_HEADER: "f<TAB>SIZE<TAB>SHA256<TAB>WRITER<TAB>NAME" for a
 * file, "d<TAB>-<TAB>-<TAB>WRITER<TAB>NAME" for a folder. WRITER is the
 * command that wrote it (outdir_set_writer: "report", "plot"), so a report
 * replaces its own files and keeps the plots `coreplan plot` drew beside
 * them; a version 1 marker (no WRITER column) is read with writer "-".
 *
 * A stage holds its own marker (.coreplan-stage). Whoever next opens the
 * folder with its lock held (so no other coreplan is writing there) removes
 * the stages a killed coreplan left, and the marker's temporary copies;
 * names like theirs without coreplan's marker stay. An entry is coreplan's while it is
 * what coreplan wrote: a regular file (not a link) of the listed size and
 * SHA-256, or a folder (not a link) whose own marker accounts for every
 * entry in it. Anything else at a name coreplan is asked to write (a file
 * it did not write, one changed since, a link, a FIFO, a folder) is an
 * error naming it, and is left untouched, with or without `force`. The
 * marker guards against accidents, not against someone who forges it;
 * links are never followed either way.
 *
 * Names (outfile_name_check): one path component, no control character,
 * not starting with '|' or '<' (gnuplot reads such file names as pipes),
 * not "." or "..", not the marker's name nor starting with the stage prefix.
 *
 * Errors are recorded with err_set() and name the path as the caller's
 * `display` spells the folder; all functions return 0 or ERR_DATA.
 */
#ifndef COREPLAN_OUTFILE_H
#define COREPLAN_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

#define OUTDIR_MANIFEST ".coreplan-outputs"
#define OUTDIR_MANIFEST_HEADER                                                                     \
	"# coreplan outputs 2: kind, size, sha256, writer, name of each file it wrote here"
#define OUTDIR_STAGE_PREFIX ".coreplan-tmp-"
/* A writer's name is at most this long (no tab, no newline). */
#define OUTDIR_WRITER_MAX 15

struct outdir;

/*
 * Open and lock folder `path` (create: make it and its parents first).
 * display: how messages spell the folder (NULL: path). A folder whose
 * marker is not coreplan's (a link, not a regular file, another header)
 * is an error.
 */
int outdir_open(const char *path, const char *display, bool create, struct outdir **out);
/* Unlock and free; NULL is fine. */
void outdir_free(struct outdir *d);

/* What this coreplan's commits record as their writer (default "-"). */
void outdir_set_writer(struct outdir *d, const char *writer);

/* The folder as messages spell it. */
const char *outdir_display(const struct outdir *d);

/*
 * May `name` be written? 0 when nothing is there, or with force when the
 * entry is coreplan's; else an error: "cannot write 'DIR/NAME': ..." saying
 * why (a link, not a regular file, not written by coreplan, changed since,
 * or coreplan's and force not given).
 */
int outdir_check(struct outdir *d, const char *name, bool force);

/*
 * outdir_check for every entry of the folder (its marker and stages
 * aside): is the folder empty, or all coreplan's? *empty: nothing but the
 * marker (and stages) there; empty may be NULL.
 */
int outdir_check_all(struct outdir *d, bool force, bool *empty);

/* Make a stage in the folder; *path gets its path (caller frees). */
int outdir_stage(struct outdir *d, char **path);

/*
 * Move STAGE/NAME (a file or a folder) to NAME in the folder and record it
 * in the marker (outdir_save writes it). Without replace the name must be
 * free; with it, it may hold coreplan's own file (checked again here). A
 * folder never replaces anything: outdir_remove the old one first.
 */
int outdir_commit(struct outdir *d, const char *stage, const char *name, bool replace);

/*
 * Remove coreplan's entry `name` (a file; a folder with the entries its
 * marker lists and the marker) and drop it from the marker. An entry that
 * is not coreplan's is an error and stays.
 */
int outdir_remove(struct outdir *d, const char *name);

/*
 * Is every entry this writer wrote coreplan's still (outdir_check with
 * force), and does each such folder hold only this writer's entries? A
 * "-" entry counts as the writer's when `legacy` (NULL-terminated) lists
 * its name; legacy NULL: every "-" entry. An error names what is not.
 */
int outdir_check_own(struct outdir *d, const char *const *legacy);

/*
 * Remove every entry this writer wrote that is still there (legacy as in
 * outdir_check_own, which runs first: on an error nothing is removed).
 * Other writers' entries stay.
 */
int outdir_clear(struct outdir *d, const char *const *legacy);

/*
 * Record STAGE/NAME in the marker before it moves in (outdir_save then
 * lists it while it is still absent), so that a coreplan killed between
 * the moves leaves only entries the marker lists as its own.
 */
int outdir_expect(struct outdir *d, const char *stage, const char *name);

/* Write the marker: the recorded entries that still exist. */
int outdir_save(struct outdir *d);

/*
 * Does folder dir's marker list `name`? *writer (caller frees) gets who
 * wrote it. No folder or no marker coreplan reads: not listed.
 */
int outdir_lists(const char *dir, const char *name, bool *listed, char **writer);

/* Remove a stage and everything in it, links not followed. NULL is fine. */
void outdir_unstage(const char *stage);

/*
 * Create `path` new for writing (O_CREAT|O_EXCL|O_NOFOLLOW): an existing
 * file or link there is an error. display names it in messages (NULL: path).
 */
int outfile_create(const char *path, const char *display, FILE **fp);

/* Close fp, reporting a write error on it as "cannot write 'display'". */
int outfile_close(FILE *fp, const char *display);

/*
 * Is `name` an output file name (see above)? what: how messages call it
 * ("--out", "the plot name").
 */
int outfile_name_check(const char *name, const char *what);

#endif
