/*
 * corpus_int: what the parts of the corpus importer share (corpus.h is
 * the interface). The import is split by what it reads:
 *   corpus.c         the entry points, the corpus row, the host tie
 *   corpus_files.c   the files of a corpus: walk, hash, verified reads, claims
 *   corpus_detect.c  what a path is: manifest, profile, tool format, table
 *   corpus_table.c   one [table] of a headed results table and its runs
 *   corpus_run.c     one run of such a table: its files, attributes, host
 *   corpus_tool.c    one [table] of a tool's output, streamed row by row
 * None of them commits: corpus_import() works in the caller's transaction.
 */
#ifndef COREPLAN_CORPUS_INT_H
#define COREPLAN_CORPUS_INT_H

#include "corpus.h"

#include "../common/hash.h"
#include "../common/infile.h"
#include "../common/strvec.h"
#include "manifest.h"
#include "runfiles.h"
#include "table.h"

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define WALK_MAX_DEPTH 32

struct corpus_file {
	char *path; /* relative to the corpus root, '/'-separated */
	int64_t size;
	char sha256[HASH_HEX_LEN + 1];
	struct infile_id id; /* when it was hashed: what it is parsed from must be the same */
	char *kept; /* its bytes as hashed (a small file), parsed from memory; or NULL */
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
	struct infile_dirs dirs; /* the folder of the file last read below root_fd */
	size_t kept_total;       /* bytes of the files kept from the hashing (corpus_file.kept) */
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
	int64_t tool_tied_runs; /* runs of tool tables with a topology_host */
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

enum run_file_kind { RF_GENERATOR, RF_IDLE, RF_ACCT, RF_TRACE, RF_WINDOW };

struct run_state {
	struct importer *im;
	struct table_ctx *tc;
	struct run_entry *run;
	struct run_vars vars;
	struct attr_list attrs;
	char *idle_status;
};

/* ---- corpus_files.c ---- */

struct corpus_file *im_find_file(struct importer *im, const char *relative);
/* The display path of a file id (mapping_path_fn). */
const char *im_display_of(int64_t file_id, void *arg);
/* Walk (a folder) or take the single table, sort and hash every file. */
int im_collect(struct importer *im, bool is_dir);
/* Open a corpus file to parse it: the very file hashed, unchanged, or an error naming it. */
/* opts->instance_shape, else catalog_instance_shape() on the database. */
int im_instance_shape(const struct importer *im, const char *instance, int *vcpus,
		      int *threads_per_core, char *catalog, size_t size);
int im_open_hashed(struct importer *im, const struct corpus_file *f, int64_t limit,
		   struct infile *in);
/* After parsing (rc 0): the bytes parsed are exactly those hashed. Closes in. */
int im_end_hashed(const struct corpus_file *f, struct infile *in, int rc);
int im_read_hashed_text(struct importer *im, const struct corpus_file *f, char **text, size_t *len);
int im_read_hashed_table(struct importer *im, const struct corpus_file *f, struct table *t);
/* Mark a file as read by a rule (kind), with its row count (or -1). */
int im_claim(struct importer *im, struct corpus_file *f, const char *kind, int64_t rows);
int im_prepare_all(struct importer *im);
void im_finalize_all(struct importer *im);
/* A file read before the others are hashed (a manifest, a single table). */
int im_open_early(struct importer *im, const char *relative, const char *display, int64_t limit,
		  struct infile *in);
int im_end_early(struct importer *im, struct infile *in, int rc);

/* ---- corpus_detect.c ---- */

/* The manifest: --manifest, the folder's own, a profile, a tool format or a single table. */
int im_choose_manifest(struct importer *im, const char *path, bool is_dir);

/* ---- corpus_table.c ---- */

int im_import_table(struct importer *im, const struct manifest_table *spec);
/* The table's host topology (`topology = FILE`): *host gets CORPUS[/SUBCORPUS]. */
int im_read_topology(struct importer *im, const struct manifest_table *spec, const char *subcorpus,
		     char **host);
int im_derive_exclusions(struct importer *im);
int im_exclude_traceless(struct importer *im, const struct manifest_table *spec);
int im_claim_corpus_text(struct importer *im);
int im_claim_manifest(struct importer *im);
void im_warn_unclaimed(struct importer *im);
/* The table's sub-corpus: `subcorpus =`, else its section name ("" for main). */
const char *im_subcorpus(const struct manifest_table *spec);

/* ---- corpus_run.c ---- */

int im_import_run(struct table_ctx *tc, struct run_entry *run);
/* A run's template variables (manifest_lookup_fn over struct run_vars): {tag}, {row}, columns. */
const char *im_run_var(const char *name, void *arg);
/* Every attribute of a run into attr_rows (idle ones into idle_banners). */
int im_insert_attrs(struct importer *im, int64_t run_id, const struct attr_list *attrs,
		    const char *idle_status);
/*
 * The run's topology_host (corpus.h): --host, the table's topology host,
 * else its instance's; added to attrs as a `set` value. tag names the run.
 */
int im_tie_host(struct importer *im, const char *table_host, const char *tag,
		struct attr_list *attrs);

/* ---- corpus_tool.c ---- */

/* One [table] with `format = NAME`: the tool's file converted and stored row by row. */
int im_import_tool_table(struct importer *im, const struct manifest_table *spec);

#endif
