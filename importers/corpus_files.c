/* corpus_files: the files of a corpus: walked, hashed, read as hashed, claimed (corpus_int.h). */
#include "corpus_int.h"

#include "../common/err.h"
#include "../common/hash.h"
#include "../common/infile.h"
#include "../common/num.h"
#include "../common/strbuf.h"
#include "../schema/catalog.h"
#include "../schema/db.h"
#include "../schema/fields.h"
#include "../schema/topology.h"
#include "manifest.h"
#include "mapping.h"
#include "profiles.h"
#include "runfiles.h"
#include "table.h"
#include "tools.h"
#include "topology.h"
#include "trace.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- the files of a corpus ---- */

static int compare_files(const void *a, const void *b)
{
	return strcmp(((const struct corpus_file *)a)->path, ((const struct corpus_file *)b)->path);
}

static int add_file(struct importer *im, const char *relative)
{
	struct corpus_file *grown = realloc(im->files, (im->nfiles + 1) * sizeof(*grown));
	if (!grown)
		return err_set("out of memory");
	im->files = grown;
	memset(&grown[im->nfiles], 0, sizeof(grown[0]));
	grown[im->nfiles].path = strdup(relative);
	grown[im->nfiles].kind = "other";
	if (!grown[im->nfiles].path)
		return err_set("out of memory");
	im->nfiles++;
	return 0;
}

/*
 * Depth-first walk of the folder open as dir_fd (closed here): each entry
 * is looked at with fstatat(AT_SYMLINK_NOFOLLOW) and each subfolder opened
 * with O_NOFOLLOW below its parent's descriptor, so symbolic links are
 * recorded as warnings, never followed, even if one is swapped in for a
 * folder meanwhile.
 */
/* A control character (newline, tab, escape...) in a name: no output could show it as it is. */
static bool control_in(const char *name)
{
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return true;
	return false;
}

static int walk(struct importer *im, int dir_fd, const char *relative, int depth)
{
	DIR *dir;
	struct dirent *entry;
	int rc = 0;
	if (depth > WALK_MAX_DEPTH) {
		close(dir_fd);
		return err_set("'%s' is nested more than %d folders deep", relative,
			       WALK_MAX_DEPTH);
	}
	dir = fdopendir(dir_fd);
	if (!dir) {
		rc = err_set("cannot open folder '%s%s%s': %s", im->root, *relative ? "/" : "",
			     relative, strerror(errno));
		close(dir_fd);
		return rc;
	}
	while (rc == 0 && (entry = readdir(dir)) != NULL) {
		struct strbuf child = STRBUF_INIT;
		struct stat st;
		if (!strcmp(entry->d_name, ".") || !strcmp(entry->d_name, ".."))
			continue;
		strbuf_addf(&child, "%s%s%s", relative, *relative ? "/" : "", entry->d_name);
		if (control_in(entry->d_name)) {
			/* the message shows it escaped (err's writer): \x0A for a newline */
			rc = err_set("'%s': a control character in its name: rename it (a run's "
				     "tag or file would carry it into every table and plot)",
				     strbuf_str(&child));
		} else if (fstatat(dirfd(dir), entry->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
			rc = err_set("cannot stat '%s': %s", strbuf_str(&child), strerror(errno));
		} else if (S_ISLNK(st.st_mode)) {
			warn_add("'%s' is a symbolic link: not followed, not imported",
				 strbuf_str(&child));
		} else if (S_ISDIR(st.st_mode)) {
			int sub = openat(dirfd(dir), entry->d_name,
					 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			rc = sub >= 0 ? walk(im, sub, strbuf_str(&child), depth + 1)
				      : err_set("cannot open folder '%s': %s", strbuf_str(&child),
						strerror(errno));
		} else if (S_ISREG(st.st_mode)) {
			rc = add_file(im, strbuf_str(&child));
		} else {
			warn_add("'%s' is not a regular file: not imported", strbuf_str(&child));
		}
		strbuf_release(&child);
	}
	closedir(dir);
	return rc;
}

static int compare_path_to_file(const void *key, const void *element)
{
	return strcmp(key, ((const struct corpus_file *)element)->path);
}

struct corpus_file *im_find_file(struct importer *im, const char *relative)
{
	return bsearch(relative, im->files, im->nfiles, sizeof(im->files[0]), compare_path_to_file);
}

const char *im_display_of(int64_t file_id, void *arg)
{
	struct importer *im = arg;
	for (size_t i = 0; i < im->nfiles; i++)
		if (im->files[i].file_id == file_id)
			return im->files[i].path;
	return "(unknown file)";
}

static int changed(const char *relative)
{
	return err_set("'%s' changed during the import (its bytes differ from those hashed): "
		       "nothing stored",
		       relative);
}

/*
 * A small file's bytes are kept from its hashing and parsed from memory:
 * each is read once, and what is parsed is what was hashed by
 * construction. Larger files, and any beyond the budget, are read again
 * (and checked against the hash) when they are parsed.
 */
#define KEEP_FILE_MAX ((int64_t)256 << 10)
#define KEEP_TOTAL_MAX ((size_t)16 << 20)

static bool worth_keeping(const struct importer *im, const struct infile *in)
{
	return in->id.size <= KEEP_FILE_MAX &&
	       im->kept_total + (size_t)in->id.size <= KEEP_TOTAL_MAX;
}

/* Hash one open file to its end, keeping its bytes when worth_keeping(). */
static int hash_one(struct importer *im, struct corpus_file *f, struct infile *in)
{
	char *text = NULL;
	size_t len = 0;
	int rc = 0;
	f->id = in->id;
	if (worth_keeping(im, in))
		rc = infile_slurp(in, &text, &len);
	if (rc == 0)
		rc = infile_end(in, f->sha256, &f->size);
	if (rc == 0 && text) {
		f->kept = text;
		im->kept_total += len;
	} else {
		free(text);
	}
	return rc;
}

/*
 * Every file, opened below the folder (infile_open_below: no link, no
 * FIFO, inside the folder), hashed to its end; what it is parsed from
 * later must be this same file (im_open_hashed).
 */
static int hash_files(struct importer *im)
{
	for (size_t i = 0; i < im->nfiles; i++) {
		struct corpus_file *f = &im->files[i];
		struct infile in;
		int rc = infile_open_below(&in, &im->dirs, f->path, f->path, INFILE_NO_LIMIT);
		if (rc == 0)
			rc = hash_one(im, f, &in);
		infile_close(&in);
		if (rc == 0 && im->early_path && !strcmp(f->path, im->early_path) &&
		    strcmp(f->sha256, im->early_sha))
			rc = changed(f->path);
		if (rc)
			return rc;
	}
	return 0;
}

int im_instance_shape(const struct importer *im, const char *instance, int *vcpus,
		      int *threads_per_core, char *catalog, size_t size)
{
	if (im->opts->instance_shape)
		return im->opts->instance_shape(im->opts->instance_shape_arg, instance, vcpus,
						threads_per_core, catalog, size);
	return catalog_instance_shape(im->db, instance, vcpus, threads_per_core, catalog, size);
}

/* Open a corpus file to parse it: the very file hashed, unchanged, or an error naming it. */
int im_open_hashed(struct importer *im, const struct corpus_file *f, int64_t limit,
		   struct infile *in)
{
	int rc;
	if (f->kept)
		return infile_open_kept(in, f->kept, f->size, f->sha256, f->path, limit);
	rc = infile_open_below(in, &im->dirs, f->path, f->path, limit);
	if (rc == 0)
		rc = infile_same(in, &f->id);
	if (rc)
		infile_close(in);
	return rc;
}

/* After parsing (rc 0): the bytes parsed are exactly those hashed. Closes in. */
int im_end_hashed(const struct corpus_file *f, struct infile *in, int rc)
{
	char hex[HASH_HEX_LEN + 1];
	int64_t size = 0;
	if (rc == 0)
		rc = infile_end(in, hex, &size);
	if (rc == 0 && (size != f->size || strcmp(hex, f->sha256)))
		rc = changed(f->path);
	infile_close(in);
	return rc;
}

/* A small corpus file (run files, topology) read whole, verified as hashed. */
int im_read_hashed_text(struct importer *im, const struct corpus_file *f, char **text, size_t *len)
{
	struct infile in;
	int rc = im_open_hashed(im, f, RUNFILE_MAX_BYTES, &in);
	*text = NULL;
	*len = 0;
	if (rc)
		return rc;
	rc = im_end_hashed(f, &in, runfile_read(&in, text, len));
	if (rc) {
		free(*text);
		*text = NULL;
	}
	return rc;
}

/* A headed table of the corpus, parsed from the descriptor it is verified on. */
int im_read_hashed_table(struct importer *im, const struct corpus_file *f, struct table *t)
{
	struct infile in;
	int rc = im_open_hashed(im, f, INFILE_TABLE_MAX, &in);
	if (rc) {
		memset(t, 0, sizeof(*t));
		return rc;
	}
	rc = im_end_hashed(f, &in, table_read_infile(&in, f->path, TABLE_SNIFF, t));
	if (rc)
		table_release(t);
	return rc;
}

/* Mark a file as read by a rule; a file claimed twice keeps its first kind. */
int im_claim(struct importer *im, struct corpus_file *f, const char *kind, int64_t rows)
{
	if (strcmp(f->kind, "other") == 0)
		f->kind = kind;
	sqlite3_bind_text(im->claim_file, 1, f->kind, -1, SQLITE_STATIC);
	if (rows >= 0)
		sqlite3_bind_int64(im->claim_file, 2, rows);
	else
		sqlite3_bind_null(im->claim_file, 2);
	sqlite3_bind_int64(im->claim_file, 3, f->file_id);
	im->files_done++;
	if (im->opts->progress)
		im->opts->progress("files", im->files_done, im->rows_done, im->opts->progress_arg);
	return db_step_done(im->db, im->claim_file);
}

/* ---- statements ---- */

int im_prepare_all(struct importer *im)
{
	struct {
		sqlite3_stmt **slot;
		const char *sql;
	} stmts[] = {
		{&im->insert_run,
		 "INSERT INTO runs (corpus_id, subcorpus, tag, seq, listed,"
		 " results_file_id, results_line) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"},
		{&im->insert_attr,
		 "INSERT INTO attr_rows (run_id, source, name, file_id, line, col,"
		 " value, num) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"},
		{&im->insert_banner,
		 "INSERT INTO idle_banners (run_id, key, file_id, status, value,"
		 " num) VALUES (?1, ?2, ?3, ?4, ?5, ?6)"},
		{&im->insert_trace, "INSERT INTO traces (run_id, kind, file_id, columns, rows)"
				    " VALUES (?1, ?2, ?3, ?4, 0)"},
		{&im->finish_trace,
		 "UPDATE traces SET rows = ?1, backsteps = ?2 WHERE trace_id = ?3"},
		{&im->insert_missing, "INSERT OR IGNORE INTO missing_files (run_id, kind,"
				      " expected_path) VALUES (?1, ?2, ?3)"},
		{&im->insert_rejection, "INSERT INTO rejections (run_id, file_id, reason)"
					" VALUES (?1, ?2, ?3)"},
		{&im->claim_file, "UPDATE files SET kind = ?1, rows = ?2 WHERE file_id = ?3"},
		{&im->update_fields, mapping_update_sql()},
		{&im->insert_origin, mapping_origin_sql()},
	};
	for (size_t i = 0; i < sizeof(stmts) / sizeof(stmts[0]); i++) {
		int rc = db_prepare(im->db, stmts[i].sql, stmts[i].slot);
		if (rc)
			return rc;
	}
	return trace_writer_new(im->db, &im->traces);
}

void im_finalize_all(struct importer *im)
{
	sqlite3_stmt *stmts[] = {im->insert_run,       im->insert_attr,  im->insert_banner,
				 im->insert_trace,     im->finish_trace, im->insert_missing,
				 im->insert_rejection, im->claim_file,   im->update_fields,
				 im->insert_origin};
	for (size_t i = 0; i < sizeof(stmts) / sizeof(stmts[0]); i++)
		sqlite3_finalize(stmts[i]);
	trace_writer_free(im->traces);
}

int im_open_early(struct importer *im, const char *relative, const char *display, int64_t limit,
		  struct infile *in)
{
	im->early_path = relative;
	return infile_open_in(in, im->root_fd, im->root, relative, display, limit);
}

int im_end_early(struct importer *im, struct infile *in, int rc)
{
	if (rc == 0)
		rc = infile_end(in, im->early_sha, NULL);
	infile_close(in);
	return rc;
}

int im_collect(struct importer *im, bool is_dir)
{
	int rc;
	if (is_dir) {
		int fd = fcntl(im->root_fd, F_DUPFD_CLOEXEC, 0);
		rc = fd >= 0 ? walk(im, fd, "", 0)
			     : err_set("cannot open folder '%s': %s", im->root, strerror(errno));
	} else {
		rc = add_file(im, im->single);
	}
	if (rc == 0)
		qsort(im->files, im->nfiles, sizeof(im->files[0]), compare_files);
	return rc ? rc : hash_files(im);
}

/*
 * The hosts the corpus's runs name, for the import's row: whole names
 * while they fit, then how many more (never a name cut short).
 */
