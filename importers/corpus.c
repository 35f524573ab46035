/*
 * corpus: see corpus.h.
 *
 * One import: collect and hash every file under the folder, compare the
 * content hash with any earlier import of the same name, then for each
 * [table] of the manifest read the results table, create one run per row
 * (plus unlisted run folders and rejection markers), read each run's
 * files, map the canonical fields and finally derive the exclusions. All
 * inside the caller's transaction.
 */
#include "corpus.h"

#include "../common/err.h"
#include "../common/hash.h"
#include "../common/infile.h"
#include "../common/num.h"
#include "../common/strbuf.h"
#include "../common/strvec.h"
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

#define WALK_MAX_DEPTH 32

struct corpus_file {
	char *path; /* relative to the corpus root, '/'-separated */
	int64_t size;
	char sha256[HASH_HEX_LEN + 1];
	struct infile_id id; /* when it was hashed: what it is parsed from must be the same */
	int64_t file_id;
	const char *kind; /* static string; "other" until a rule claims the file */
};

struct run_entry {
	char *tag;
	long line;  /* results-table line, 0 for unlisted runs */
	size_t row; /* index into the table's rows, or SIZE_MAX */
	int64_t run_id;
	char *rejection_path; /* relative path of a .REJECTED marker, or NULL */
};

struct importer {
	sqlite3 *db;
	const struct import_options *opts;
	struct import_result *result;
	char *root;   /* the corpus folder's real path */
	int root_fd;  /* the corpus folder, open: every file is read below it */
	char *single; /* a single table: its name in root (the target of a link), else NULL */
	/* the file read before the others were hashed (the manifest, a single table) */
	const char *early_path;
	char early_sha[HASH_HEX_LEN + 1];
	struct manifest *manifest;
	char *manifest_origin;
	struct corpus_file *files;
	size_t nfiles;
	int64_t corpus_id;
	int64_t seq;
	int64_t files_done;
	int64_t rows_done;
	struct trace_writer *traces;
	sqlite3_stmt *insert_run;
	sqlite3_stmt *insert_attr;
	sqlite3_stmt *insert_banner;
	sqlite3_stmt *insert_trace;
	sqlite3_stmt *finish_trace;
	sqlite3_stmt *insert_missing;
	sqlite3_stmt *insert_rejection;
	sqlite3_stmt *claim_file;
	sqlite3_stmt *update_fields;
	sqlite3_stmt *insert_origin;
	/* the corpus's tie (corpus.h): given, else stored with an earlier import; NULL: none */
	char *host, *instance;
	char *stored_host, *stored_instance;
	/* instances whose host this import has made sure of, and those no catalog lists */
	struct strvec instance_hosts;
	struct unknown_instance {
		char *name;
		char *first_tag;
		size_t runs;
	} * unknown;
	size_t nunknown;
};

void import_options_init(struct import_options *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->patch_floor = IMPORT_DEFAULT_PATCH_FLOOR;
}

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
		if (fstatat(dirfd(dir), entry->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
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

static struct corpus_file *find_file(struct importer *im, const char *relative)
{
	return bsearch(relative, im->files, im->nfiles, sizeof(im->files[0]), compare_path_to_file);
}

static const char *display_of(int64_t file_id, void *arg)
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
 * Every file, opened below the folder (infile_open_in: no link, no FIFO,
 * inside the folder), hashed to its end; what it is parsed from later
 * must be this same file (open_hashed).
 */
static int hash_files(struct importer *im)
{
	for (size_t i = 0; i < im->nfiles; i++) {
		struct corpus_file *f = &im->files[i];
		struct infile in;
		int rc = infile_open_in(&in, im->root_fd, im->root, f->path, f->path,
					INFILE_NO_LIMIT);
		if (rc == 0) {
			f->id = in.id;
			rc = infile_end(&in, f->sha256, &f->size);
		}
		infile_close(&in);
		if (rc == 0 && im->early_path && !strcmp(f->path, im->early_path) &&
		    strcmp(f->sha256, im->early_sha))
			rc = changed(f->path);
		if (rc)
			return rc;
	}
	return 0;
}

/* Open a corpus file to parse it: the very file hashed, unchanged, or an error naming it. */
static int open_hashed(struct importer *im, const struct corpus_file *f, int64_t limit,
		       struct infile *in)
{
	int rc = infile_open_in(in, im->root_fd, im->root, f->path, f->path, limit);
	if (rc == 0)
		rc = infile_same(in, &f->id);
	if (rc)
		infile_close(in);
	return rc;
}

/* After parsing (rc 0): the bytes parsed are exactly those hashed. Closes in. */
static int end_hashed(const struct corpus_file *f, struct infile *in, int rc)
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
static int read_hashed_text(struct importer *im, const struct corpus_file *f, char **text,
			    size_t *len)
{
	struct infile in;
	int rc = open_hashed(im, f, RUNFILE_MAX_BYTES, &in);
	*text = NULL;
	*len = 0;
	if (rc)
		return rc;
	rc = end_hashed(f, &in, runfile_read(&in, text, len));
	if (rc) {
		free(*text);
		*text = NULL;
	}
	return rc;
}

/* A tool's output (tools.h), converted from the bytes hashed. */
static int read_hashed_tool(struct importer *im, const struct corpus_file *f, const char *format,
			    struct table *t)
{
	const struct tool_format *fmt = tool_find(format);
	const char *base = strrchr(f->path, '/');
	char *bytes = NULL;
	size_t n = 0;
	struct infile in;
	int rc = fmt ? open_hashed(im, f, INFILE_TABLE_MAX, &in)
		     : err_set("unknown format '%s' (one of %s)", format, tool_names());
	memset(t, 0, sizeof(*t));
	if (rc)
		return rc;
	rc = end_hashed(f, &in, infile_slurp(&in, &bytes, &n));
	if (rc == 0)
		rc = tool_convert(fmt, bytes, n, f->path, base ? base + 1 : f->path, t);
	free(bytes);
	return rc;
}

/* A headed table of the corpus, parsed from the descriptor it is verified on. */
static int read_hashed_table(struct importer *im, const struct corpus_file *f, const char *format,
			     struct table *t)
{
	struct infile in;
	int rc;
	if (format)
		return read_hashed_tool(im, f, format, t);
	rc = open_hashed(im, f, INFILE_TABLE_MAX, &in);
	if (rc) {
		memset(t, 0, sizeof(*t));
		return rc;
	}
	rc = end_hashed(f, &in, table_read_infile(&in, f->path, TABLE_SNIFF, t));
	if (rc)
		table_release(t);
	return rc;
}

static void content_hash(const struct importer *im, char hex[HASH_HEX_LEN + 1])
{
	struct hash_ctx *ctx = hash_new();
	char options[64];
	if (!ctx) {
		memset(hex, '0', HASH_HEX_LEN);
		hex[HASH_HEX_LEN] = '\0';
		return;
	}
	/* the manifest and options decide what is stored, so they are content too */
	snprintf(options, sizeof(options), "patch_floor=%.17g\n", im->opts->patch_floor);
	hash_update(ctx, "coreplan-corpus-v1\n", 19);
	hash_update(ctx, im->manifest->text, strlen(im->manifest->text));
	hash_update(ctx, options, strlen(options));
	/* the tie is content too; absent, the hash is what it was before ties existed */
	if (im->host) {
		hash_update(ctx, "host=", 5);
		hash_update(ctx, im->host, strlen(im->host));
		hash_update(ctx, "\n", 1);
	}
	if (im->instance) {
		hash_update(ctx, "instance=", 9);
		hash_update(ctx, im->instance, strlen(im->instance));
		hash_update(ctx, "\n", 1);
	}
	for (size_t i = 0; i < im->nfiles; i++) {
		char line[128];
		hash_update(ctx, im->files[i].path, strlen(im->files[i].path));
		snprintf(line, sizeof(line), "\t%lld\t%s\n", (long long)im->files[i].size,
			 im->files[i].sha256);
		hash_update(ctx, line, strlen(line));
	}
	hash_finish(ctx, hex);
}

/* Mark a file as read by a rule; a file claimed twice keeps its first kind. */
static int claim(struct importer *im, struct corpus_file *f, const char *kind, int64_t rows)
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

static int prepare_all(struct importer *im)
{
	struct {
		sqlite3_stmt **slot;
		const char *sql;
	} stmts[] = {
		{&im->insert_run,
		 "INSERT INTO runs (corpus_id, subcorpus, tag, seq, listed,"
		 " results_file_id, results_line) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)"},
		{&im->insert_attr,
		 "INSERT INTO run_attrs (run_id, source, name, file_id, line, col,"
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

static void finalize_all(struct importer *im)
{
	sqlite3_stmt *stmts[] = {im->insert_run,       im->insert_attr,  im->insert_banner,
				 im->insert_trace,     im->finish_trace, im->insert_missing,
				 im->insert_rejection, im->claim_file,   im->update_fields,
				 im->insert_origin};
	for (size_t i = 0; i < sizeof(stmts) / sizeof(stmts[0]); i++)
		sqlite3_finalize(stmts[i]);
	trace_writer_free(im->traces);
}

static int64_t scalar_int(sqlite3 *db, const char *sql, int64_t bind)
{
	sqlite3_stmt *stmt = NULL;
	int64_t value = -1;
	if (sqlite3_prepare_v2(db, sql, -1, &stmt, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(stmt, 1, bind);
	if (sqlite3_step(stmt) == SQLITE_ROW)
		value = sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);
	return value;
}

/* ---- the corpus row ---- */

/* 0: go on; 1: unchanged, nothing to do; <0: error. */
static int check_existing(struct importer *im, const char *hash)
{
	sqlite3_stmt *stmt = NULL;
	int rc = db_prepare(im->db, "SELECT corpus_id, content_hash FROM corpora WHERE name = ?1",
			    &stmt);
	if (rc)
		return rc;
	sqlite3_bind_text(stmt, 1, im->result->name, -1, SQLITE_STATIC);
	if (sqlite3_step(stmt) == SQLITE_ROW) {
		int64_t old_id = sqlite3_column_int64(stmt, 0);
		const char *old_hash = (const char *)sqlite3_column_text(stmt, 1);
		if (!strcmp(old_hash, hash)) {
			rc = 1;
		} else if (!im->opts->replace) {
			char tie[600] = "";
			if (im->opts->host &&
			    (!im->stored_host || strcmp(im->stored_host, im->host)))
				snprintf(tie, sizeof(tie),
					 "; --host ties it to '%s', it was %s%s%s", im->host,
					 im->stored_host ? "tied to '" : "not tied",
					 im->stored_host ? im->stored_host : "",
					 im->stored_host ? "'" : "");
			else if (im->opts->instance && (!im->stored_instance ||
							strcmp(im->stored_instance, im->instance)))
				snprintf(tie, sizeof(tie), "; --instance names '%s', it was %s%s%s",
					 im->instance, im->stored_instance ? "'" : "not given",
					 im->stored_instance ? im->stored_instance : "",
					 im->stored_instance ? "'" : "");
			rc = err_set("corpus '%s' was imported before with different content "
				     "(hash %.12s, now %.12s%s): pass --replace to replace it, or "
				     "--name to import it under another name",
				     im->result->name, old_hash, hash, tie);
		} else {
			sqlite3_stmt *del = NULL;
			rc = db_prepare(im->db, "DELETE FROM corpora WHERE corpus_id = ?1", &del);
			if (rc == 0) {
				sqlite3_bind_int64(del, 1, old_id);
				rc = db_step_done(im->db, del);
			}
			sqlite3_finalize(del);
			im->result->status = IMPORT_REPLACED;
		}
	}
	sqlite3_finalize(stmt);
	return rc;
}

/* Append `, "key": "value"` (JSON string escapes) when value is not NULL. */
static void json_member(struct strbuf *sb, const char *key, const char *value)
{
	if (!value)
		return;
	strbuf_addf(sb, ", \"%s\": \"", key);
	for (const unsigned char *p = (const unsigned char *)value; *p; p++)
		if (*p == '"' || *p == '\\')
			strbuf_addf(sb, "\\%c", *p);
		else if (*p < 0x20)
			strbuf_addf(sb, "\\u%04x", *p);
		else
			strbuf_addf(sb, "%c", *p);
	strbuf_adds(sb, "\"");
}

static int insert_corpus(struct importer *im, const char *hash)
{
	sqlite3_stmt *stmt = NULL;
	char now[32];
	struct strbuf options = STRBUF_INIT;
	time_t t = time(NULL);
	struct tm tm;
	int rc = db_prepare(im->db,
			    "INSERT INTO corpora (name, source_path, content_hash, imported_at,"
			    " layout, manifest, options) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
			    &stmt);
	if (rc)
		return rc;
	gmtime_r(&t, &tm);
	strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", &tm);
	strbuf_addf(&options, "{\"patch_floor\": %.17g", im->opts->patch_floor);
	json_member(&options, "host", im->host);
	json_member(&options, "instance", im->instance);
	strbuf_adds(&options, "}");
	sqlite3_bind_text(stmt, 1, im->result->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 2, im->root, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 3, hash, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 4, now, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 5, im->manifest->layout, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 6, im->manifest->text, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 7, strbuf_str(&options), -1, SQLITE_STATIC);
	rc = db_step_done(im->db, stmt);
	sqlite3_finalize(stmt);
	strbuf_release(&options);
	if (rc)
		return rc;
	im->corpus_id = sqlite3_last_insert_rowid(im->db);
	rc = db_prepare(im->db,
			"INSERT INTO files (corpus_id, path, size, sha256, kind)"
			" VALUES (?1, ?2, ?3, ?4, 'other')",
			&stmt);
	for (size_t i = 0; rc == 0 && i < im->nfiles; i++) {
		sqlite3_bind_int64(stmt, 1, im->corpus_id);
		sqlite3_bind_text(stmt, 2, im->files[i].path, -1, SQLITE_STATIC);
		sqlite3_bind_int64(stmt, 3, im->files[i].size);
		sqlite3_bind_text(stmt, 4, im->files[i].sha256, -1, SQLITE_STATIC);
		rc = db_step_done(im->db, stmt);
		im->files[i].file_id = sqlite3_last_insert_rowid(im->db);
	}
	sqlite3_finalize(stmt);
	return rc;
}

/* ---- one [table] section ---- */

struct table_ctx {
	struct importer *im;
	const struct manifest_table *spec;
	const char *subcorpus;
	char *host; /* the topology's host name when the table names one */
	struct table rows;
	struct corpus_file *rows_file;
	struct table join;
	struct corpus_file *join_file;
	int join_key;
	struct run_entry *runs;
	size_t nruns, runs_alloc;
	size_t *index; /* open-addressing hash of tags: run position + 1, 0 = empty */
	size_t index_cap;
};

struct run_vars {
	struct table_ctx *tc;
	const struct run_entry *run;
	char **cap_names;
	char **cap_values;
	size_t ncap;
	char *run_dir;
	char row_text[24];
};

static const char *run_var(const char *name, void *arg)
{
	struct run_vars *v = arg;
	int col;
	/* while the tag is being built, {tag} is the results column of that name */
	if (!strcmp(name, "tag") && v->run->tag)
		return v->run->tag;
	if (!strcmp(name, "run-dir"))
		return v->run_dir;
	if (!strcmp(name, "row") && v->run->row != SIZE_MAX)
		return v->row_text;
	if (v->run->row != SIZE_MAX && (col = table_col(&v->tc->rows, name)) >= 0)
		return v->tc->rows.cells[v->run->row][col];
	for (size_t i = 0; i < v->ncap; i++)
		if (!strcmp(v->cap_names[i], name))
			return v->cap_values[i];
	return NULL;
}

static void run_vars_release(struct run_vars *v)
{
	manifest_free_captures(v->cap_names, v->cap_values, v->ncap);
	free(v->run_dir);
	memset(v, 0, sizeof(*v));
}

/* FNV-1a: a corpus folder may hold 100,000 run folders, so tags are hashed, not scanned. */
static size_t tag_hash(const char *tag)
{
	uint64_t h = 1469598103934665603ULL;
	for (const unsigned char *p = (const unsigned char *)tag; *p; p++)
		h = (h ^ *p) * 1099511628211ULL;
	return (size_t)h;
}

static void index_put(struct table_ctx *tc, size_t position)
{
	size_t slot = tag_hash(tc->runs[position].tag) & (tc->index_cap - 1);
	while (tc->index[slot])
		slot = (slot + 1) & (tc->index_cap - 1);
	tc->index[slot] = position + 1;
}

/* Keep the index at most half full: rebuild it twice as large. */
static int index_grow(struct table_ctx *tc)
{
	size_t cap = tc->index_cap ? 2 * tc->index_cap : 256;
	size_t *index = calloc(cap, sizeof(*index));
	if (!index)
		return err_set("out of memory");
	free(tc->index);
	tc->index = index;
	tc->index_cap = cap;
	for (size_t i = 0; i < tc->nruns; i++)
		index_put(tc, i);
	return 0;
}

static int add_run(struct table_ctx *tc, char *tag, long line, size_t row)
{
	if (tc->nruns == tc->runs_alloc) {
		size_t want = tc->runs_alloc ? 2 * tc->runs_alloc : 64;
		struct run_entry *grown = realloc(tc->runs, want * sizeof(*grown));
		if (!grown) {
			free(tag);
			return err_set("out of memory");
		}
		tc->runs = grown;
		tc->runs_alloc = want;
	}
	memset(&tc->runs[tc->nruns], 0, sizeof(tc->runs[0]));
	tc->runs[tc->nruns].tag = tag;
	tc->runs[tc->nruns].line = line;
	tc->runs[tc->nruns].row = row;
	tc->nruns++;
	if (2 * tc->nruns > tc->index_cap)
		return index_grow(tc);
	index_put(tc, tc->nruns - 1);
	return 0;
}

static struct run_entry *find_run(struct table_ctx *tc, const char *tag)
{
	size_t slot;
	if (!tc->index_cap)
		return NULL;
	slot = tag_hash(tag) & (tc->index_cap - 1);
	for (; tc->index[slot]; slot = (slot + 1) & (tc->index_cap - 1))
		if (!strcmp(tc->runs[tc->index[slot] - 1].tag, tag))
			return &tc->runs[tc->index[slot] - 1];
	return NULL;
}

/* Linear: join tables hold one row per run, and this runs once per run. */
static const char *const *join_row(const struct table_ctx *tc, const char *tag)
{
	for (size_t i = 0; i < tc->join.nrows; i++)
		if (!strcmp(tc->join.cells[i][tc->join_key], tag))
			return (const char *const *)tc->join.cells[i];
	return NULL;
}

static int read_tables(struct table_ctx *tc)
{
	struct importer *im = tc->im;
	const struct manifest_table *spec = tc->spec;
	int rc;
	tc->rows_file = find_file(im, spec->file);
	if (!tc->rows_file)
		return err_set("results table '%s' not found in '%s'", spec->file, im->root);
	rc = read_hashed_table(im, tc->rows_file, spec->format, &tc->rows);
	if (rc)
		return rc;
	if (tc->rows.nrows == 0)
		return err_at(spec->file, 1, 0,
			      "header but no runs: a results table needs one "
			      "row per run");
	rc = claim(im, tc->rows_file, "results", (int64_t)tc->rows.nrows);
	if (rc || !spec->join_file)
		return rc;
	tc->join_file = find_file(im, spec->join_file);
	if (!tc->join_file)
		return err_set("joined table '%s' not found in '%s'", spec->join_file, im->root);
	rc = read_hashed_table(im, tc->join_file, NULL, &tc->join);
	if (rc)
		return rc;
	tc->join_key = table_col(&tc->join, spec->join_key);
	if (tc->join_key < 0)
		return err_at(spec->join_file, 1, 0, "no column '%s' to join on", spec->join_key);
	for (size_t i = 0; i < tc->join.nrows; i++)
		for (size_t j = i + 1; j < tc->join.nrows; j++)
			if (!strcmp(tc->join.cells[i][tc->join_key],
				    tc->join.cells[j][tc->join_key]))
				return err_at(spec->join_file, tc->join.lines[j], tc->join_key + 1,
					      "duplicate run '%s' (also line %ld)",
					      tc->join.cells[j][tc->join_key], tc->join.lines[i]);
	return claim(im, tc->join_file, "join", (int64_t)tc->join.nrows);
}

static int listed_runs(struct table_ctx *tc)
{
	for (size_t i = 0; i < tc->rows.nrows; i++) {
		struct run_entry probe = {.row = i};
		struct run_vars vars = {.tc = tc, .run = &probe};
		struct run_entry *other;
		char *tag = NULL;
		int rc;
		snprintf(vars.row_text, sizeof(vars.row_text), "%zu", i + 1);
		rc = manifest_expand(tc->spec->tag, run_var, &vars, &tag);
		if (rc) {
			err_prefix("%s:%ld", tc->spec->file, tc->rows.lines[i]);
			return rc;
		}
		if (!*tag || strcmp(tag, "NA") == 0) {
			free(tag);
			return err_at(tc->spec->file, tc->rows.lines[i], 0, "row has no run tag");
		}
		if ((other = find_run(tc, tag)) != NULL) {
			rc = err_at(tc->spec->file, tc->rows.lines[i], 0,
				    "duplicate run tag '%s' (also line %ld)", tag, other->line);
			free(tag);
			return rc;
		}
		rc = add_run(tc, tag, tc->rows.lines[i], i);
		if (rc)
			return rc;
	}
	return 0;
}

/*
 * Entries of a folder matching a one-`*` pattern such as "runs/<*>/" or
 * "json/<*>.REJECTED"; calls `found` with the text the `*` matched.
 */
static int glob_tags(struct table_ctx *tc, const char *pattern,
		     int (*found)(struct table_ctx *tc, const char *tag, const char *relative))
{
	struct importer *im = tc->im;
	char *copy = strdup(pattern);
	char *slash, *last, *star;
	bool want_dirs;
	DIR *dir;
	struct dirent *entry;
	int rc = 0, dir_fd = -1;
	size_t n;
	if (!copy)
		return err_set("out of memory");
	n = strlen(copy);
	want_dirs = n > 0 && copy[n - 1] == '/';
	if (want_dirs)
		copy[n - 1] = '\0';
	slash = strrchr(copy, '/');
	last = slash ? slash + 1 : copy;
	star = strchr(last, '*');
	if (!star || strchr(star + 1, '*')) {
		free(copy);
		return err_set("pattern '%s' must have exactly one '*' in its last part", pattern);
	}
	if (slash)
		*slash = '\0';
	/* the folder is opened below the corpus folder's descriptor: no link, no '..' */
	rc = infile_opendir_in(im->root_fd, slash ? copy : "", slash ? copy : ".", &dir_fd);
	dir = rc == 0 ? fdopendir(dir_fd) : NULL;
	if (!dir) {
		if (rc < 0)
			err_prefix("pattern '%s'", pattern);
		else if (rc == 0)
			rc = err_set("pattern '%s': cannot read folder '%s': %s", pattern, copy,
				     strerror(errno));
		else
			rc = 0; /* no such folder: nothing to discover */
		if (dir_fd >= 0)
			close(dir_fd);
		free(copy);
		return rc;
	}
	while (rc == 0 && (entry = readdir(dir)) != NULL) {
		size_t prefix = (size_t)(star - last), suffix = strlen(star + 1);
		size_t len = strlen(entry->d_name);
		struct strbuf relative = STRBUF_INIT;
		struct stat st;
		char *tag;
		if (entry->d_name[0] == '.' || fnmatch(last, entry->d_name, FNM_PERIOD) != 0 ||
		    len <= prefix + suffix)
			continue;
		strbuf_addf(&relative, "%s%s%s", slash ? copy : "", slash ? "/" : "",
			    entry->d_name);
		if (fstatat(dirfd(dir), entry->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    (want_dirs ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode))) {
			tag = strndup(entry->d_name + prefix, len - prefix - suffix);
			rc = tag ? found(tc, tag, strbuf_str(&relative)) : err_set("out of memory");
			free(tag);
		}
		strbuf_release(&relative);
	}
	closedir(dir);
	free(copy);
	return rc;
}

static int found_unlisted(struct table_ctx *tc, const char *tag, const char *relative)
{
	char *copy;
	(void)relative;
	if (find_run(tc, tag))
		return 0;
	copy = strdup(tag);
	return copy ? add_run(tc, copy, 0, SIZE_MAX) : err_set("out of memory");
}

static int found_rejected(struct table_ctx *tc, const char *tag, const char *relative)
{
	struct run_entry *run = find_run(tc, tag);
	int rc = 0;
	if (!run) {
		char *copy = strdup(tag);
		rc = copy ? add_run(tc, copy, 0, SIZE_MAX) : err_set("out of memory");
		run = rc ? NULL : &tc->runs[tc->nruns - 1];
	}
	if (run && !(run->rejection_path = strdup(relative)))
		rc = err_set("out of memory");
	return rc;
}

/* glob order is readdir order: sort the unlisted runs so seq is stable */
static int compare_runs(const void *a, const void *b)
{
	const struct run_entry *ra = a, *rb = b;
	if ((ra->row == SIZE_MAX) != (rb->row == SIZE_MAX))
		return ra->row == SIZE_MAX ? 1 : -1;
	if (ra->row != SIZE_MAX)
		return ra->row < rb->row ? -1 : ra->row > rb->row;
	return strcmp(ra->tag, rb->tag);
}

/* ---- one run ---- */

static int insert_attrs(struct importer *im, int64_t run_id, const struct attr_list *attrs,
			const char *idle_status)
{
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < attrs->count; i++) {
		const struct attr *a = &attrs->items[i];
		double num;
		bool numeric = a->value && num_parse_real(a->value, &num) == 0;
		bool idle = !strcmp(a->source, "idle");
		sqlite3_stmt *stmt = idle ? im->insert_banner : im->insert_attr;
		sqlite3_bind_int64(stmt, 1, run_id);
		if (idle) {
			sqlite3_bind_text(stmt, 2, a->name, -1, SQLITE_STATIC);
			sqlite3_bind_int64(stmt, 3, a->file_id);
			sqlite3_bind_text(stmt, 4, idle_status, -1, SQLITE_STATIC);
			sqlite3_bind_text(stmt, 5, a->value, -1, SQLITE_STATIC);
			if (numeric)
				sqlite3_bind_double(stmt, 6, num);
			else
				sqlite3_bind_null(stmt, 6);
		} else {
			sqlite3_bind_text(stmt, 2, a->source, -1, SQLITE_STATIC);
			sqlite3_bind_text(stmt, 3, a->name, -1, SQLITE_STATIC);
			if (a->file_id > 0)
				sqlite3_bind_int64(stmt, 4, a->file_id);
			else
				sqlite3_bind_null(stmt, 4);
			sqlite3_bind_int64(stmt, 5, a->line);
			sqlite3_bind_int64(stmt, 6, a->col);
			sqlite3_bind_text(stmt, 7, a->value, -1, SQLITE_STATIC);
			if (numeric)
				sqlite3_bind_double(stmt, 8, num);
			else
				sqlite3_bind_null(stmt, 8);
		}
		if (sqlite3_step(stmt) != SQLITE_DONE) {
			if ((sqlite3_extended_errcode(im->db) & 0xff) == SQLITE_CONSTRAINT)
				rc = err_set("run %lld: value '%s' appears twice in %s",
					     (long long)run_id, a->name, a->source);
			else
				rc = db_error(im->db, "cannot store a run attribute");
		}
		sqlite3_reset(stmt);
	}
	return rc;
}

static int record_missing(struct importer *im, int64_t run_id, const char *kind,
			  const char *expected)
{
	sqlite3_bind_int64(im->insert_missing, 1, run_id);
	sqlite3_bind_text(im->insert_missing, 2, kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(im->insert_missing, 3, expected, -1, SQLITE_STATIC);
	im->result->missing_files++;
	return db_step_done(im->db, im->insert_missing);
}

static void trace_progress(int64_t rows, void *arg)
{
	struct importer *im = arg;
	if (im->opts->progress)
		im->opts->progress("rows", im->files_done, im->rows_done + rows,
				   im->opts->progress_arg);
}

static int import_trace(struct importer *im, int64_t run_id, const char *kind,
			struct corpus_file *f, const struct manifest_table *spec)
{
	struct strbuf columns = STRBUF_INIT;
	struct trace_spec tspec = {.ncols = spec->ntrace_columns,
				   .names = (const char *const *)spec->trace_columns};
	struct trace_stats stats = {0, 0};
	struct infile in;
	int64_t trace_id;
	int rc;
	for (size_t i = 0; i < spec->ntrace_columns; i++)
		strbuf_addf(&columns, "%s%s", i ? " " : "", spec->trace_columns[i]);
	sqlite3_bind_int64(im->insert_trace, 1, run_id);
	sqlite3_bind_text(im->insert_trace, 2, kind, -1, SQLITE_STATIC);
	sqlite3_bind_int64(im->insert_trace, 3, f->file_id);
	sqlite3_bind_text(im->insert_trace, 4, strbuf_str(&columns), -1, SQLITE_TRANSIENT);
	rc = db_step_done(im->db, im->insert_trace);
	strbuf_release(&columns);
	if (rc)
		return rc;
	trace_id = sqlite3_last_insert_rowid(im->db);
	rc = open_hashed(im, f, INFILE_NO_LIMIT, &in);
	if (rc)
		return rc;
	rc = end_hashed(f, &in,
			trace_writer_import_infile(im->traces, trace_id, &in, f->path, &tspec,
						   &stats, trace_progress, im));
	if (rc)
		return rc;
	im->rows_done += stats.rows;
	im->result->trace_rows += stats.rows;
	sqlite3_bind_int64(im->finish_trace, 1, stats.rows);
	sqlite3_bind_int64(im->finish_trace, 2, stats.backsteps);
	sqlite3_bind_int64(im->finish_trace, 3, trace_id);
	rc = db_step_done(im->db, im->finish_trace);
	return rc ? rc : claim(im, f, kind, stats.rows);
}

enum run_file_kind { RF_GENERATOR, RF_IDLE, RF_ACCT, RF_TRACE, RF_WINDOW };

struct run_state {
	struct importer *im;
	struct table_ctx *tc;
	struct run_entry *run;
	struct run_vars vars;
	struct attr_list attrs;
	char *idle_status;
};

static int read_run_file(struct run_state *rs, enum run_file_kind kind, const char *template_text)
{
	static const char *const kind_names[] = {"generator", "idle", "acct", "trace", "window"};
	struct importer *im = rs->im;
	const char *name = kind_names[kind];
	struct corpus_file *f;
	char *relative = NULL;
	char *text = NULL;
	size_t len = 0;
	int rc = manifest_expand(template_text, run_var, &rs->vars, &relative);
	if (rc) {
		if (rs->run->row != SIZE_MAX)
			return rc;
		/* an unlisted run lacks the table columns the template names */
		err_clear();
		return record_missing(im, rs->run->run_id, name, template_text);
	}
	f = find_file(im, relative);
	if (!f) {
		rc = record_missing(im, rs->run->run_id, name, relative);
		free(relative);
		return rc;
	}
	free(relative);
	if (kind == RF_TRACE || kind == RF_WINDOW)
		return import_trace(im, rs->run->run_id, kind == RF_TRACE ? "sample" : "window", f,
				    rs->tc->spec);
	rc = read_hashed_text(im, f, &text, &len);
	if (rc)
		return rc;
	if (kind == RF_GENERATOR)
		rc = genrec_parse(im->db, rs->run->run_id, f->file_id, text, len, f->path,
				  &rs->attrs);
	else if (kind == RF_IDLE)
		rc = banner_parse(text, len, f->path, f->file_id, &rs->idle_status, &rs->attrs);
	else
		rc = acct_parse(text, f->path, f->file_id, &rs->attrs);
	free(text);
	return rc ? rc : claim(im, f, name, -1);
}

static int table_attrs(struct run_state *rs)
{
	struct table_ctx *tc = rs->tc;
	const char *const *joined;
	int rc = 0;
	if (rs->run->row != SIZE_MAX) {
		char **cells = tc->rows.cells[rs->run->row];
		for (size_t j = 0; rc == 0 && j < tc->rows.ncols; j++)
			rc = attr_list_add(&rs->attrs, "results", tc->rows.header[j], cells[j],
					   tc->rows_file->file_id, rs->run->line, (long)j + 1);
	}
	if (rc || !tc->spec->join_file || !(joined = join_row(tc, rs->run->tag)))
		return rc;
	for (size_t i = 0; i < tc->join.nrows; i++) {
		if ((const char *const *)tc->join.cells[i] != joined)
			continue;
		for (size_t j = 0; rc == 0 && j < tc->join.ncols; j++)
			rc = attr_list_add(&rs->attrs, "join", tc->join.header[j], joined[j],
					   tc->join_file->file_id, tc->join.lines[i], (long)j + 1);
	}
	return rc;
}

/* Parts of the tag (tag-parse, or the tag template itself as a pattern). */
static int tag_attrs(struct run_state *rs)
{
	const struct manifest_table *spec = rs->tc->spec;
	const char *own[1] = {spec->tag};
	const char *const *patterns = (const char *const *)spec->tag_parse;
	size_t npatterns = spec->ntag_parse;
	int rc = 0;
	if (npatterns == 0) {
		patterns = own;
		npatterns = 1;
	}
	for (size_t p = 0; p < npatterns; p++) {
		if (!manifest_match(patterns[p], rs->run->tag, &rs->vars.cap_names,
				    &rs->vars.cap_values, &rs->vars.ncap))
			continue;
		for (size_t i = 0; rc == 0 && i < rs->vars.ncap; i++)
			if (!attr_list_find(&rs->attrs, "tag", rs->vars.cap_names[i]))
				rc = attr_list_add(&rs->attrs, "tag", rs->vars.cap_names[i],
						   rs->vars.cap_values[i], 0, 0, 0);
		break;
	}
	for (size_t i = 0; rc == 0 && i < spec->nset; i++) {
		/* a constant may be a template over the run's columns: instance=e2-{target} */
		char *value = NULL;
		if (rs->im->host && !strcmp(spec->set[i].key, "topology_host"))
			continue; /* --host wins over the manifest's constant */
		if (manifest_expand(spec->set[i].value, run_var, &rs->vars, &value) != 0) {
			err_clear();
			continue; /* an unlisted run lacks the columns: no value */
		}
		rc = attr_list_add(&rs->attrs, "set", spec->set[i].key, value, 0, 0, 0);
		free(value);
	}
	return rc;
}

static int insert_run_row(struct run_state *rs)
{
	struct importer *im = rs->im;
	struct run_entry *run = rs->run;
	sqlite3_stmt *stmt = im->insert_run;
	int rc;
	sqlite3_bind_int64(stmt, 1, im->corpus_id);
	sqlite3_bind_text(stmt, 2, rs->tc->subcorpus, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 3, run->tag, -1, SQLITE_STATIC);
	sqlite3_bind_int64(stmt, 4, ++im->seq);
	sqlite3_bind_int(stmt, 5, run->row != SIZE_MAX);
	if (run->row != SIZE_MAX) {
		sqlite3_bind_int64(stmt, 6, rs->tc->rows_file->file_id);
		sqlite3_bind_int64(stmt, 7, run->line);
	} else {
		sqlite3_bind_null(stmt, 6);
		sqlite3_bind_null(stmt, 7);
	}
	rc = db_step_done(im->db, stmt);
	run->run_id = sqlite3_last_insert_rowid(im->db);
	im->result->runs++;
	if (run->row != SIZE_MAX)
		im->result->listed++;
	else
		im->result->unlisted++;
	return rc;
}

static int read_rejection(struct run_state *rs)
{
	struct importer *im = rs->im;
	struct corpus_file *f = find_file(im, rs->run->rejection_path);
	char *text = NULL, *reason = NULL;
	size_t len = 0;
	int rc;
	if (!f)
		return err_set("rejection marker '%s' vanished during the import",
			       rs->run->rejection_path);
	rc = read_hashed_text(im, f, &text, &len);
	if (rc == 0)
		rc = rejected_parse(text, len, f->path, &reason);
	free(text);
	if (rc)
		return rc;
	sqlite3_bind_int64(im->insert_rejection, 1, rs->run->run_id);
	sqlite3_bind_int64(im->insert_rejection, 2, f->file_id);
	sqlite3_bind_text(im->insert_rejection, 3, reason, -1, SQLITE_TRANSIENT);
	free(reason);
	rc = db_step_done(im->db, im->insert_rejection);
	return rc ? rc : claim(im, f, "rejected", -1);
}

static void check_label(struct run_state *rs)
{
	const struct attr *label = attr_list_find(&rs->attrs, "generator", "label");
	if (label && label->value && strcmp(label->value, rs->run->tag) != 0)
		warn_add("run '%s': its generator record says label '%s'", rs->run->tag,
			 label->value);
}

/* ---- the host a run ran on (corpus.h) ---- */

/*
 * Make sure a host named after the instance is recorded: one stored from
 * a real topology (lscpu, sysfs, --cores) is kept; else the catalog's
 * shape is stored (again). *found is false when no catalog lists it.
 */
static int instance_host(struct importer *im, const char *instance, const char *tag, bool *found)
{
	struct topology t;
	char catalog[256];
	int vcpus = 0, tpc = 0, rc;
	*found = true;
	if (strvec_has(&im->instance_hosts, instance))
		return 0;
	*found = false;
	for (size_t i = 0; i < im->nunknown; i++)
		if (!strcmp(im->unknown[i].name, instance)) {
			im->unknown[i].runs++;
			return 0;
		}
	rc = catalog_instance_shape(im->db, instance, &vcpus, &tpc, catalog, sizeof(catalog));
	if (rc == 1) {
		struct unknown_instance *grown =
			realloc(im->unknown, (im->nunknown + 1) * sizeof(*grown));
		if (!grown)
			return err_set("out of memory");
		im->unknown = grown;
		grown[im->nunknown] = (struct unknown_instance){strdup(instance), strdup(tag), 1};
		if (!grown[im->nunknown].name || !grown[im->nunknown].first_tag) {
			free(grown[im->nunknown].name);
			free(grown[im->nunknown].first_tag);
			return err_set("out of memory");
		}
		im->nunknown++;
		return 0;
	}
	if (rc)
		return rc;
	*found = true;
	memset(&t, 0, sizeof(t));
	rc = topology_load(im->db, instance, &t);
	if (rc == 1 || (rc == 0 && !strcmp(t.source, "catalog"))) {
		topology_release(&t);
		rc = topology_shape((size_t)(vcpus / tpc), (size_t)tpc, "catalog", &t);
		if (rc == 0)
			rc = topology_store(im->db, instance, &t);
	}
	topology_release(&t);
	if (rc == 0 && strvec_push(&im->instance_hosts, instance))
		rc = err_set("out of memory");
	return rc;
}

/* The run's own value of a field: the first source (fields.h order) that has one, or NULL. */
static const char *run_value(const struct attr_list *attrs, const char *name)
{
	for (size_t i = 0; field_sources[i]; i++) {
		const struct attr *a = attr_list_find(attrs, field_sources[i], name);
		if (a && a->value && *a->value && strcmp(a->value, "NA"))
			return a->value;
	}
	return NULL;
}

/* The field topology_host of one run: --host, the manifest's, else its instance's. */
static int tie_host(struct run_state *rs)
{
	struct importer *im = rs->im;
	const char *host = im->host, *own;
	bool found = false;
	int rc = 0;
	if (!host && attr_list_find(&rs->attrs, "set", "topology_host"))
		return 0; /* the manifest's `set = topology_host=NAME` */
	/* a column of the run's own that names another host would be read first: refuse */
	if (host && (own = run_value(&rs->attrs, "topology_host")) && strcmp(own, host))
		return err_set("its topology_host is '%s', but --host says '%s'", own, host);
	if (!host)
		host = rs->tc->host;
	own = run_value(&rs->attrs, "instance");
	if (im->instance && own && strcmp(own, im->instance))
		return err_set("its instance is '%s', but --instance says '%s'", own, im->instance);
	if (im->instance && !own)
		rc = attr_list_add(&rs->attrs, "set", "instance", im->instance, 0, 0, 0);
	if (im->instance)
		own = im->instance;
	if (rc == 0 && !host && own) {
		rc = instance_host(im, own, rs->run->tag, &found);
		if (rc == 0 && found)
			host = own;
	}
	if (rc == 0 && host)
		rc = attr_list_add(&rs->attrs, "set", "topology_host", host, 0, 0, 0);
	return rc;
}

static int import_run(struct table_ctx *tc, struct run_entry *run)
{
	const struct manifest_table *spec = tc->spec;
	struct run_state rs = {.im = tc->im, .tc = tc, .run = run};
	/* rejected runs have no files of their own (FORMATS.md) */
	bool expect_files = !(run->rejection_path && run->row == SIZE_MAX);
	const char *templates[] = {spec->generator, spec->idle, spec->acct, spec->trace,
				   spec->window};
	int rc;
	rs.vars.tc = tc;
	rs.vars.run = run;
	snprintf(rs.vars.row_text, sizeof(rs.vars.row_text), "%zu",
		 run->row == SIZE_MAX ? (size_t)0 : run->row + 1);
	rc = insert_run_row(&rs);
	if (rc == 0)
		rc = table_attrs(&rs);
	if (rc == 0)
		rc = tag_attrs(&rs);
	if (rc == 0 && spec->run_dir) {
		rc = manifest_expand(spec->run_dir, run_var, &rs.vars, &rs.vars.run_dir);
		if (rc && run->row == SIZE_MAX) {
			err_clear();
			rc = 0;
		}
	}
	for (int kind = RF_GENERATOR; rc == 0 && expect_files && kind <= RF_WINDOW; kind++)
		if (templates[kind])
			rc = read_run_file(&rs, (enum run_file_kind)kind, templates[kind]);
	for (size_t i = 0; rc == 0 && expect_files && i < spec->ntext; i++) {
		char *relative = NULL;
		struct corpus_file *f;
		if (manifest_expand(spec->text[i], run_var, &rs.vars, &relative) != 0) {
			err_clear();
			continue;
		}
		f = find_file(tc->im, relative);
		if (f)
			rc = claim(tc->im, f, "text", -1);
		free(relative);
	}
	if (rc == 0 && run->rejection_path)
		rc = read_rejection(&rs);
	if (rc == 0)
		rc = tie_host(&rs);
	if (rc == 0)
		rc = insert_attrs(tc->im, run->run_id, &rs.attrs,
				  rs.idle_status ? rs.idle_status : "");
	if (rc == 0)
		rc = mapping_apply(tc->im->db, tc->im->update_fields, tc->im->insert_origin,
				   run->run_id, &rs.attrs, spec, tc->im->manifest_origin,
				   display_of, tc->im);
	if (rc == 0)
		check_label(&rs);
	if (rc)
		err_prefix("run '%s'", run->tag);
	attr_list_release(&rs.attrs);
	free(rs.idle_status);
	run_vars_release(&rs.vars);
	return rc;
}

/* The table's host topology: stored as host CORPUS[/SUBCORPUS], named by every run. */
static int read_topology(struct table_ctx *tc)
{
	struct importer *im = tc->im;
	struct corpus_file *f = find_file(im, tc->spec->topology);
	struct strbuf name = STRBUF_INIT;
	struct topology topo;
	char *text = NULL;
	size_t len = 0;
	int rc;
	if (!f)
		return err_set("topology file '%s' not found in '%s'", tc->spec->topology,
			       im->root);
	memset(&topo, 0, sizeof(topo));
	rc = read_hashed_text(im, f, &text, &len);
	if (rc == 0)
		rc = topology_parse(text, len, f->path, &topo);
	free(text);
	if (rc)
		return rc;
	strbuf_addf(&name, "%s%s%s", im->result->name, *tc->subcorpus ? "/" : "", tc->subcorpus);
	tc->host = strbuf_detach(&name);
	rc = tc->host ? topology_store(im->db, tc->host, &topo) : err_set("out of memory");
	if (rc == 0)
		rc = claim(im, f, "topology", (int64_t)topo.n);
	topology_release(&topo);
	return rc;
}

static void table_ctx_release(struct table_ctx *tc)
{
	free(tc->index);
	free(tc->host);
	table_release(&tc->rows);
	table_release(&tc->join);
	for (size_t i = 0; i < tc->nruns; i++) {
		free(tc->runs[i].tag);
		free(tc->runs[i].rejection_path);
	}
	free(tc->runs);
}

static int import_table(struct importer *im, const struct manifest_table *spec)
{
	struct table_ctx tc = {.im = im, .spec = spec};
	int rc;
	tc.subcorpus = spec->subcorpus                 ? spec->subcorpus
		       : strcmp(spec->section, "main") ? spec->section
						       : "";
	rc = read_tables(&tc);
	if (rc == 0)
		rc = mapping_store_prefs(im->db, im->corpus_id, tc.subcorpus, spec);
	if (rc == 0 && spec->topology)
		rc = read_topology(&tc);
	if (rc == 0)
		rc = listed_runs(&tc);
	if (rc == 0 && spec->discover)
		rc = glob_tags(&tc, spec->discover, found_unlisted);
	if (rc == 0 && spec->rejected)
		rc = glob_tags(&tc, spec->rejected, found_rejected);
	if (rc == 0) /* the tag index is of no further use: positions change */
		qsort(tc.runs, tc.nruns, sizeof(tc.runs[0]), compare_runs);
	for (size_t i = 0; rc == 0 && i < tc.nruns; i++)
		rc = import_run(&tc, &tc.runs[i]);
	table_ctx_release(&tc);
	return rc;
}

/* ---- after every table: exclusions and what nothing claimed ---- */

/*
 * The reasons a run is left out of analysis (corpus.h). Each is one
 * INSERT ... SELECT over this corpus's runs; ?1 = corpus id, ?2 = floor.
 */
static const char *const exclusion_sql[] = {
	"INSERT INTO exclusions SELECT x.run_id, 'rejected', x.reason FROM rejections x"
	" JOIN runs r USING (run_id) WHERE r.corpus_id = ?1",
	"INSERT INTO exclusions SELECT r.run_id, 'unlisted', 'run found in the corpus folder but"
	" not listed in its results table' FROM runs r WHERE r.corpus_id = ?1 AND r.listed = 0"
	" AND NOT EXISTS (SELECT 1 FROM rejections x WHERE x.run_id = r.run_id)",
	"INSERT INTO exclusions SELECT run_id, 'invalid', 'the generator marked the run invalid'"
	" FROM runs WHERE corpus_id = ?1 AND valid = 0",
	"INSERT INTO exclusions SELECT run_id, 'patch-rate', 'patch_rate ' || patch_rate ||"
	" ' is below the floor ' || ?2 FROM runs WHERE corpus_id = ?1 AND patch_rate < ?2",
	"INSERT INTO exclusions SELECT run_id, 'generator-saturated', 'the generator reported"
	" that it may have been saturated' FROM runs WHERE corpus_id = ?1 AND gen_saturated = 1",
	"INSERT INTO exclusions SELECT t.run_id, 'empty-trace', 'its trace file is empty'"
	" FROM traces t JOIN runs r USING (run_id) WHERE r.corpus_id = ?1 AND t.kind = 'sample'"
	" AND t.rows = 0",
	"INSERT INTO exclusions SELECT run_id, 'sessions-short', established || ' of ' ||"
	" sessions || ' requested sessions were established' FROM runs WHERE corpus_id = ?1"
	" AND established < sessions",
};

static int derive_exclusions(struct importer *im)
{
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < sizeof(exclusion_sql) / sizeof(exclusion_sql[0]); i++) {
		sqlite3_stmt *stmt = NULL;
		rc = db_prepare(im->db, exclusion_sql[i], &stmt);
		if (rc == 0) {
			sqlite3_bind_int64(stmt, 1, im->corpus_id);
			sqlite3_bind_double(stmt, 2, im->opts->patch_floor);
			rc = db_step_done(im->db, stmt);
		}
		sqlite3_finalize(stmt);
	}
	return rc ? rc : mapping_exclude_impossible(im->db, im->corpus_id);
}

/* Listed runs of a table that requires a trace but has none. */
static int exclude_traceless(struct importer *im, const struct manifest_table *spec)
{
	sqlite3_stmt *stmt = NULL;
	const char *subcorpus = spec->subcorpus                 ? spec->subcorpus
				: strcmp(spec->section, "main") ? spec->section
								: "";
	int rc = db_prepare(im->db,
			    "INSERT INTO exclusions SELECT r.run_id, 'no-trace', 'no trace file ('"
			    " || m.expected_path || ') but this layout requires one'"
			    " FROM runs r JOIN missing_files m ON m.run_id = r.run_id"
			    " AND m.kind = 'trace' WHERE r.corpus_id = ?1 AND r.subcorpus = ?2"
			    " AND r.listed = 1",
			    &stmt);
	if (rc == 0) {
		sqlite3_bind_int64(stmt, 1, im->corpus_id);
		sqlite3_bind_text(stmt, 2, subcorpus, -1, SQLITE_STATIC);
		rc = db_step_done(im->db, stmt);
	}
	sqlite3_finalize(stmt);
	return rc;
}

static int claim_corpus_text(struct importer *im)
{
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < im->manifest->ncorpus_text; i++) {
		struct corpus_file *f = find_file(im, im->manifest->corpus_text[i]);
		if (f)
			rc = claim(im, f, "text", -1);
		else
			warn_add("'%s' named by the manifest is not in the corpus",
				 im->manifest->corpus_text[i]);
	}
	return rc;
}

/* A coreplan.manifest inside the folder is part of the corpus: record it as such. */
static int claim_manifest(struct importer *im)
{
	struct corpus_file *f = find_file(im, "coreplan.manifest");
	return f && !im->opts->manifest_path ? claim(im, f, "manifest", -1) : 0;
}

static void warn_unclaimed(struct importer *im)
{
	struct strbuf names = STRBUF_INIT;
	size_t count = 0;
	for (size_t i = 0; i < im->nfiles; i++) {
		if (strcmp(im->files[i].kind, "other"))
			continue;
		if (count < 5)
			strbuf_addf(&names, "%s'%s'", count ? ", " : "", im->files[i].path);
		count++;
	}
	if (count)
		warn_add("%s: %zu file%s not described by layout '%s' (recorded in table files "
			 "with kind 'other', contents not parsed): %s%s",
			 im->result->name, count, count == 1 ? "" : "s", im->manifest->layout,
			 strbuf_str(&names), count > 5 ? ", ..." : "");
	strbuf_release(&names);
}

/* ---- entry point ---- */

static char *base_name(const char *path, bool strip_extension)
{
	char *copy = strdup(path);
	char *base, *dot, *out;
	size_t n;
	if (!copy)
		return NULL;
	n = strlen(copy);
	while (n > 1 && copy[n - 1] == '/')
		copy[--n] = '\0';
	base = basename(copy);
	if (strip_extension && (dot = strrchr(base, '.')) != NULL && dot != base)
		*dot = '\0';
	out = strdup(base);
	free(copy);
	return out;
}

/*
 * The corpus folder, opened once: every file is then read below this
 * descriptor. A single table's folder is that of its real path, and the
 * table is named there by its real name: a table named through a
 * symbolic link is the link's target, and the result says so.
 */
static int open_root(struct importer *im, const char *path, bool is_dir)
{
	char *real = realpath(path, NULL);
	struct stat st;
	if (!real)
		return err_set("cannot import '%s': %s", path, strerror(errno));
	if (is_dir) {
		im->root = real;
	} else {
		char *slash = strrchr(real, '/');
		im->single = strdup(slash + 1);
		if (slash == real)
			slash[1] = '\0'; /* a table in / */
		else
			*slash = '\0';
		im->root = real;
		if (!im->single)
			return err_set("out of memory");
		if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
			snprintf(im->result->link_target, sizeof(im->result->link_target), "%s%s%s",
				 im->root, slash == real ? "" : "/", im->single);
	}
	im->root_fd = open(im->root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (im->root_fd < 0)
		return err_set("cannot open folder '%s': %s", im->root, strerror(errno));
	return 0;
}

/*
 * A file of the folder read before the others are hashed (its manifest, a
 * single table): its hash is kept, and hash_files() refuses the import
 * when the file hashed then is not the file read now.
 */
static int open_early(struct importer *im, const char *relative, const char *display, int64_t limit,
		      struct infile *in)
{
	im->early_path = relative;
	return infile_open_in(in, im->root_fd, im->root, relative, display, limit);
}

static int end_early(struct importer *im, struct infile *in, int rc)
{
	if (rc == 0)
		rc = infile_end(in, im->early_sha, NULL);
	infile_close(in);
	return rc;
}

/* ---- tool outputs (tools.h) ---- */

/* The first TOOL_SNIFF_BYTES of a file of the folder, for detection only (never parsed). */
static int sniff(struct importer *im, const char *relative, char **bytes, size_t *n)
{
	struct infile in;
	size_t got = 1;
	int rc = infile_open_in(&in, im->root_fd, im->root, relative, relative, INFILE_TABLE_MAX);
	bool opened = rc == 0;
	*n = 0;
	*bytes = rc ? NULL : malloc(TOOL_SNIFF_BYTES + 1);
	if (rc == 0 && !*bytes)
		rc = err_set("out of memory");
	while (rc == 0 && got && *n < TOOL_SNIFF_BYTES) {
		rc = infile_read(&in, *bytes + *n, TOOL_SNIFF_BYTES - *n, &got);
		*n += got;
	}
	if (rc == 0)
		(*bytes)[*n] = '\0';
	if (opened)
		infile_close(&in);
	if (rc) {
		free(*bytes);
		*bytes = NULL;
	}
	return rc;
}

/* The format a file is read as: the one named, else the one detected, else NULL. */
static int file_format(struct importer *im, const char *relative, const struct tool_format **out)
{
	char *bytes;
	size_t n;
	int rc;
	*out = NULL;
	if (im->opts->format) {
		*out = tool_find(im->opts->format);
		return *out ? 0
			    : err_usage("unknown format '%s' (one of %s)", im->opts->format,
					tool_names());
	}
	rc = sniff(im, relative, &bytes, &n);
	if (rc == 0)
		*out = tool_detect(bytes, n);
	free(bytes);
	return rc;
}

/* A name the generated manifest can hold verbatim (no spaces, braces or '#'). */
static bool plain_file_name(const char *name)
{
	if (!*name || *name == '.' || strlen(name) > 200)
		return false;
	for (const char *p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("._+-", *p))
			return false;
	return true;
}

/* One [table] per file, all in subcorpus "", tags FILE:ROW. */
static int tool_manifest(struct importer *im, const struct tool_format *fmt, char **names, size_t n)
{
	struct strbuf text = STRBUF_INIT;
	int rc;
	strbuf_addf(&text, "# %s output, one run per result\nlayout = %s\n", fmt->name, fmt->name);
	for (size_t i = 0; i < n; i++) {
		if (!plain_file_name(names[i])) {
			strbuf_release(&text);
			return err_set(
				"cannot import '%s' as %s output: its name may hold only "
				"letters, digits and . _ + - (rename it, or write a manifest)",
				names[i], fmt->name);
		}
		if (i == 0)
			strbuf_adds(&text, "\n[table main]\n");
		else
			strbuf_addf(&text, "\n[table file%zu]\nsubcorpus =\n", i + 1);
		strbuf_addf(&text, "file = %s\nformat = %s\ntag = %s:{row}\n", names[i], fmt->name,
			    names[i]);
	}
	im->manifest_origin = strdup("generated manifest");
	rc = im->manifest_origin
		     ? manifest_parse(strbuf_str(&text), "generated manifest", &im->manifest)
		     : err_set("out of memory");
	strbuf_release(&text);
	return rc;
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * A folder without manifest: when every file at its top (dot files aside)
 * is of one tool format (named, or detected), the tool manifest; else 0
 * with *done false and *why saying what did not fit.
 */
static int tool_folder(struct importer *im, bool *done, char *why, size_t whylen)
{
	const struct tool_format *first = NULL;
	char **names = NULL;
	size_t n = 0;
	/* its own description: a dup would share the offset the walk reads from */
	int fd = openat(im->root_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *e;
	int rc = 0;
	*done = false;
	snprintf(why, whylen, "no files");
	if (!dir) {
		if (fd >= 0)
			close(fd);
		return err_set("cannot open folder '%s': %s", im->root, strerror(errno));
	}
	while (rc == 0 && (e = readdir(dir)) != NULL) {
		struct stat st;
		char **grown;
		if (e->d_name[0] == '.')
			continue;
		if (fstatat(im->root_fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
		    S_ISLNK(st.st_mode))
			continue; /* the walk warns about links */
		if (!S_ISREG(st.st_mode)) {
			snprintf(why, whylen, "'%s' is not a file", e->d_name);
			goto out;
		}
		grown = realloc(names, (n + 1) * sizeof(*names));
		if (!grown || !(grown[n] = strdup(e->d_name))) {
			names = grown ? grown : names;
			rc = err_set("out of memory");
			break;
		}
		names = grown;
		n++;
	}
	if (rc || n == 0)
		goto out;
	qsort(names, n, sizeof(*names), compare_names);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		const struct tool_format *fmt;
		rc = file_format(im, names[i], &fmt);
		if (rc)
			goto out;
		if (!fmt || (first && fmt != first)) {
			snprintf(why, whylen, "'%s' is not %s output", names[i],
				 first ? first->name : "a tool's");
			goto out;
		}
		first = fmt;
	}
	rc = tool_manifest(im, first, names, n);
	*done = rc == 0;
out:
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	closedir(dir);
	return rc;
}

/* A single TSV/CSV table is a corpus: one run per row. */
static int single_table_manifest(struct importer *im, struct manifest **out)
{
	static const char *const tag_columns[] = {"tag", "run", "label", "name", NULL};
	struct table t = {0};
	struct strbuf text = STRBUF_INIT;
	const char *tag = "row{row}";
	const struct tool_format *fmt;
	struct infile in;
	int rc = file_format(im, im->single, &fmt);
	if (rc == 0 && fmt)
		return tool_manifest(im, fmt, &im->single, 1);
	if (rc)
		return rc;
	rc = open_early(im, im->single, im->single, INFILE_TABLE_MAX, &in);
	if (rc == 0)
		rc = end_early(im, &in, table_read_infile(&in, im->single, TABLE_SNIFF, &t));
	for (size_t i = 0; rc == 0 && tag_columns[i]; i++)
		if (table_col(&t, tag_columns[i]) >= 0) {
			tag = tag_columns[i];
			break;
		}
	if (rc == 0) {
		strbuf_addf(&text,
			    "# a single headed table: one run per row\nlayout = table\n"
			    "\n[table main]\nfile = %s\n",
			    im->single);
		if (strcmp(tag, "row{row}"))
			strbuf_addf(&text, "tag = {%s}\n", tag);
		else
			strbuf_addf(&text, "tag = %s\n", tag);
		rc = manifest_parse(strbuf_str(&text), "generated manifest", out);
	}
	table_release(&t);
	strbuf_release(&text);
	return rc;
}

static int choose_manifest(struct importer *im, const char *path, bool is_dir)
{
	struct strbuf own = STRBUF_INIT;
	const char *why = NULL;
	const char *profile;
	struct stat st;
	if (im->opts->format && im->opts->manifest_path)
		return err_usage("--format reads files without a manifest: the manifest says "
				 "`format = NAME` in its [table] instead");
	if (im->opts->manifest_path) {
		im->manifest_origin = strdup(im->opts->manifest_path);
		return manifest_read_file(im->opts->manifest_path, &im->manifest);
	}
	if (!is_dir) {
		int rc = single_table_manifest(im, &im->manifest);
		if (rc == 0 && !im->manifest_origin)
			im->manifest_origin = strdup("generated manifest");
		return rc;
	}
	/* the folder's own manifest: a link or a FIFO of that name is refused, never read */
	if (fstatat(im->root_fd, "coreplan.manifest", &st, AT_SYMLINK_NOFOLLOW) == 0) {
		struct infile in;
		int rc;
		if (im->opts->format)
			return err_usage("--format reads files without a manifest, but '%s' has "
					 "coreplan.manifest (say `format = NAME` in it)",
					 path);
		strbuf_addf(&own, "%s/coreplan.manifest", path);
		im->manifest_origin = strbuf_detach(&own);
		if (!im->manifest_origin)
			return err_set("out of memory");
		rc = open_early(im, "coreplan.manifest", im->manifest_origin, MANIFEST_MAX_BYTES,
				&in);
		if (rc == 0)
			rc = end_early(
				im, &in,
				manifest_read_infile(&in, im->manifest_origin, &im->manifest));
		return rc;
	}
	profile = im->opts->format ? NULL : profile_detect(im->root, &why);
	if (!profile) {
		char tool_why[512];
		bool done;
		int rc = tool_folder(im, &done, tool_why, sizeof(tool_why));
		if (rc || done)
			return rc;
		if (im->opts->format)
			return err_set("cannot import '%s' as %s output: %s", path,
				       im->opts->format, tool_why);
		return err_set("cannot import '%s': %s; nor is it a folder of one tool's outputs "
			       "(%s; formats: %s)",
			       path, why, tool_why, tool_names());
	}
	im->manifest_origin = strdup(profile);
	return manifest_parse(profile_text(profile), profile, &im->manifest);
}

static int collect(struct importer *im, bool is_dir)
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
static void hosts_of(struct importer *im)
{
	sqlite3_stmt *stmt = NULL;
	char *hosts = im->result->hosts;
	size_t size = sizeof(im->result->hosts), used = 0, shown = 0, all = 0;
	/* room for ", ... and N more" */
	size_t room = size - 40;
	hosts[0] = '\0';
	if (sqlite3_prepare_v2(
		    im->db,
		    "SELECT DISTINCT a.value FROM run_attrs a JOIN runs r USING (run_id)"
		    " WHERE r.corpus_id = ?1 AND a.name = 'topology_host' ORDER BY a.value",
		    -1, &stmt, NULL) != SQLITE_OK)
		return;
	sqlite3_bind_int64(stmt, 1, im->corpus_id);
	while (sqlite3_step(stmt) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(stmt, 0);
		size_t need = strlen(name ? name : "") + (used ? 2 : 0);
		all++;
		if (shown + 1 != all || used + need >= room)
			continue;
		snprintf(hosts + used, size - used, "%s%s", used ? ", " : "", name ? name : "");
		used += need;
		shown++;
	}
	sqlite3_finalize(stmt);
	if (shown < all && used)
		snprintf(hosts + used, size - used, ", ... and %zu more", all - shown);
	else if (shown < all)
		snprintf(hosts, size,
			 "%zu host%s named too long to list here (coreplan topology "
			 "--show)",
			 all, all == 1 ? "" : "s");
}

static void count_results(struct importer *im)
{
	im->result->excluded = scalar_int(im->db,
					  "SELECT count(DISTINCT e.run_id) FROM exclusions e JOIN"
					  " runs r USING (run_id) WHERE r.corpus_id = ?1",
					  im->corpus_id);
	im->result->files = (int64_t)im->nfiles;
	im->result->tied_runs =
		scalar_int(im->db,
			   "SELECT count(DISTINCT a.run_id) FROM run_attrs a JOIN runs r"
			   " USING (run_id) WHERE r.corpus_id = ?1 AND a.name ="
			   " 'topology_host'",
			   im->corpus_id);
	hosts_of(im);
}

/* The tie an earlier import of this name stored (corpora.options), then the effective one. */
static int read_tie(struct importer *im)
{
	sqlite3_stmt *stmt = NULL;
	int rc = db_prepare(im->db,
			    "SELECT json_extract(options, '$.host'), json_extract(options,"
			    " '$.instance') FROM corpora WHERE name = ?1 AND json_valid(options)",
			    &stmt);
	if (rc)
		return rc;
	sqlite3_bind_text(stmt, 1, im->result->name, -1, SQLITE_STATIC);
	if (sqlite3_step(stmt) == SQLITE_ROW) {
		const char *host = (const char *)sqlite3_column_text(stmt, 0);
		const char *instance = (const char *)sqlite3_column_text(stmt, 1);
		if ((host && !(im->stored_host = strdup(host))) ||
		    (instance && !(im->stored_instance = strdup(instance))))
			rc = err_set("out of memory");
	}
	sqlite3_finalize(stmt);
	if (rc)
		return rc;
	if (im->opts->host || im->stored_host)
		im->host = strdup(im->opts->host ? im->opts->host : im->stored_host);
	if (im->opts->instance || im->stored_instance)
		im->instance =
			strdup(im->opts->instance ? im->opts->instance : im->stored_instance);
	if ((im->opts->host || im->stored_host) && !im->host)
		return err_set("out of memory");
	if ((im->opts->instance || im->stored_instance) && !im->instance)
		return err_set("out of memory");
	if (im->host)
		rc = topology_require(im->db, im->host,
				      im->opts->host ? "--host" : "the stored --host");
	if (rc == 0 && im->instance) {
		char catalog[256];
		int vcpus, tpc;
		rc = catalog_instance_shape(im->db, im->instance, &vcpus, &tpc, catalog,
					    sizeof(catalog));
		if (rc == 1)
			rc = err_usage(
				"%s '%s': no catalog lists that instance (the stored catalogs, "
				"else the shipped ones; coreplan catalog --show lists the stored "
				"instances)",
				im->opts->instance ? "--instance" : "the stored --instance",
				im->instance);
	}
	return rc;
}

/* Runs that name an instance no catalog lists: one warning per instance. */
static void warn_unknown_instances(const struct importer *im)
{
	for (size_t i = 0; i < im->nunknown; i++)
		warn_add(
			"%s: instance '%s' (run '%s'%s) is in no catalog: its runs have no "
			"topology (coreplan catalog FILE stores a catalog; import --host NAME ties "
			"the corpus to a recorded host)",
			im->result->name, im->unknown[i].name, im->unknown[i].first_tag,
			im->unknown[i].runs > 1 ? " and others" : "");
}

static void importer_release(struct importer *im)
{
	finalize_all(im);
	free(im->host);
	free(im->instance);
	free(im->stored_host);
	free(im->stored_instance);
	strvec_clear(&im->instance_hosts);
	for (size_t i = 0; i < im->nunknown; i++) {
		free(im->unknown[i].name);
		free(im->unknown[i].first_tag);
	}
	free(im->unknown);
	for (size_t i = 0; i < im->nfiles; i++)
		free(im->files[i].path);
	free(im->files);
	if (im->root_fd >= 0)
		close(im->root_fd);
	free(im->root);
	free(im->single);
	free(im->manifest_origin);
	manifest_free(im->manifest);
}

int corpus_import(sqlite3 *db, const char *path, const struct import_options *opts,
		  struct import_result *result)
{
	struct importer im = {.db = db, .opts = opts, .result = result, .root_fd = -1};
	char hash[HASH_HEX_LEN + 1];
	struct stat st;
	char *name;
	int rc;
	memset(result, 0, sizeof(*result));
	if (stat(path, &st) != 0)
		return err_set("cannot import '%s': %s", path, strerror(errno));
	if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode))
		return err_set("cannot import '%s': not a folder or a file", path);
	name = opts->name ? strdup(opts->name) : base_name(path, !S_ISDIR(st.st_mode));
	if (!name)
		return err_set("out of memory");
	if (strlen(name) >= sizeof(result->name)) {
		rc = err_usage("corpus name '%.40s...' is %zu bytes long: at most %zu (pass a "
			       "shorter --name)",
			       name, strlen(name), sizeof(result->name) - 1);
		free(name);
		return rc;
	}
	snprintf(result->name, sizeof(result->name), "%s", name);
	free(name);
	if (!result->name[0])
		return err_usage("corpus name must not be empty");
	rc = open_root(&im, path, S_ISDIR(st.st_mode));
	if (rc == 0)
		rc = choose_manifest(&im, path, S_ISDIR(st.st_mode));
	if (rc == 0) {
		/* shown, not stored (corpora.layout is whole): a long name ends in "..." */
		if (snprintf(result->layout, sizeof(result->layout), "%s", im.manifest->layout) >=
		    (int)sizeof(result->layout))
			memcpy(result->layout + sizeof(result->layout) - 4, "...", 4);
		rc = collect(&im, S_ISDIR(st.st_mode));
	}
	if (rc == 0)
		rc = read_tie(&im);
	if (rc == 0) {
		content_hash(&im, hash);
		rc = check_existing(&im, hash);
	}
	if (rc == 1) {
		result->status = IMPORT_UNCHANGED;
		importer_release(&im);
		return 0;
	}
	if (rc == 0)
		rc = prepare_all(&im);
	if (rc == 0)
		rc = insert_corpus(&im, hash);
	for (size_t i = 0; rc == 0 && i < im.manifest->ntables; i++)
		rc = import_table(&im, &im.manifest->tables[i]);
	if (rc == 0)
		rc = claim_corpus_text(&im);
	if (rc == 0)
		rc = claim_manifest(&im);
	if (rc == 0)
		rc = derive_exclusions(&im);
	for (size_t i = 0; rc == 0 && i < im.manifest->ntables; i++)
		if (im.manifest->tables[i].require_trace)
			rc = exclude_traceless(&im, &im.manifest->tables[i]);
	if (rc == 0) {
		count_results(&im);
		warn_unclaimed(&im);
		warn_unknown_instances(&im);
	}
	importer_release(&im);
	return rc;
}

int corpus_import_each(sqlite3 *db, char *const *paths, size_t n, const struct import_options *opts,
		       struct import_result *results, void (*each)(const char *path, void *arg),
		       void *arg)
{
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		if (each)
			each(paths[i], arg);
		rc = corpus_import(db, paths[i], opts, &results[i]);
		if (each)
			each(NULL, arg);
	}
	return rc;
}

int corpus_import_all(sqlite3 *db, char *const *paths, size_t n, const struct import_options *opts,
		      struct import_result *results, void (*each)(const char *path, void *arg),
		      void *arg)
{
	int rc = db_begin(db);
	if (rc == 0)
		rc = corpus_import_each(db, paths, n, opts, results, each, arg);
	if (rc == 0)
		return db_commit(db);
	db_rollback(db); /* keeps the message of the failure */
	return rc;
}
