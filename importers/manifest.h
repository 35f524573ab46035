/*
 * manifest: how a corpus folder is laid out, in a small text format the
 * user can write (documented in docs/importing.md, "Corpus layouts and manifests"). The two
 * real layouts are built-in manifests in the same format (profiles.c).
 *
 *   # comment
 *   layout = NAME
 *   [table main]                  one section per results table
 *   file = results.tsv            headed TSV/CSV, relative to the folder
 *   format = gobench              the file is a tool's output (importers/tools.h), not a table
 *   subcorpus = m1                default: "" for `main`, else the section name
 *   tag = {target}-{cfg}-n{level}-b{block}r{rep}
 *   tag-parse = g{gomaxprocs}-n{sessions}-b{block} | prof-g{gomaxprocs}-n{sessions}
 *   run-dir = runs/{tag}
 *   discover = runs/<*>/            run folders the table does not list (a trailing / matches
 *                                   folders, otherwise files; the <*> part is the tag)
 *   join = system.tsv run         rows of a second table whose column `run` equals the tag
 *   generator = {run-dir}/load.json
 *   idle = {run-dir}/idle.txt
 *   acct = {run-dir}/acct.txt
 *   trace = {run-dir}/sample.tsv
 *   trace-columns = epoch app_rss_kb mem_avail_kb conn cpu_total_j cpu_idle_j app_j threads
 *   window = {run-dir}/window.tsv (same columns as the trace)
 *   require-trace = yes
 *   rejected = json/<*>.REJECTED    one-line rejection markers; tag = name before the extension
 *   text = {run-dir}/load.txt {run-dir}/selfcheck.txt
 *   topology = lscpu.txt          the host's `lscpu -p` (or sibling lists); its runs get
 *                                 the field topology_host = CORPUS (or CORPUS/SUBCORPUS)
 *   set = gomaxprocs=1 sessions=25   constants; a value may be a template ({target})
 *   field.load_rss_kb = join:load_app_kb
 *   prefer.xact_per_s = join      the plain name of a non-canonical field reads this
 *                                 source when several hold it (FIELD@SOURCE still reads any)
 *   [files]
 *   text = teardown.txt
 *
 * (<*> stands for a literal asterisk, which cannot appear in this comment.)
 *
 * Templates: `{name}` is the value of column `name` in the run's table row
 * (or a part captured by tag-parse); `{tag}`, `{run-dir}` and `{row}` (the
 * 1-based data row number) are always available.
 *
 * Paths and patterns (file, join, run-dir, discover, generator, idle,
 * acct, trace, window, rejected, topology, text) are confined to the
 * corpus folder: an absolute one or one with a '..' component is an error
 * naming the line (the import also refuses a pattern's folder that is a
 * symbolic link, corpus.c).
 *
 * Errors name the manifest and line. Ownership: manifest_parse() allocates
 * a struct manifest that manifest_free() releases with everything in it.
 */
#ifndef COREPLAN_MANIFEST_H
#define COREPLAN_MANIFEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct manifest_override {
	char *field;  /* canonical field */
	char *source; /* results, join, generator, idle, acct, tag, set */
	char *name;   /* name within that source */
};

struct manifest_kv {
	char *key;
	char *value;
};

struct manifest_table {
	char *section; /* the name after [table ...] */
	char *file;
	char *format; /* NULL: a headed table; else a tool format (tools.h) */
	char *subcorpus;
	char *tag;
	char **tag_parse; /* alternatives, tried in order */
	size_t ntag_parse;
	char *run_dir;
	char *discover;
	char *join_file;
	char *join_key;
	char *generator;
	char *idle;
	char *acct;
	char *trace;
	char **trace_columns;
	size_t ntrace_columns;
	char *window;
	bool require_trace;
	char *rejected;
	char *topology;
	char **text; /* templates of free-text files */
	size_t ntext;
	struct manifest_kv *set;
	size_t nset;
	struct manifest_override *overrides;
	size_t noverrides;
	struct manifest_kv *prefer; /* prefer.NAME = SOURCE: key NAME, value SOURCE */
	size_t nprefer;
};

struct manifest {
	char *layout;
	char *text; /* the manifest text verbatim, stored with the corpus */
	struct manifest_table *tables;
	size_t ntables;
	char **corpus_text; /* [files] text = ... (plain paths, no templates) */
	size_t ncorpus_text;
};

/* Parse manifest text; `origin` names it in messages (a path or "built-in NAME"). */
int manifest_parse(const char *text, const char *origin, struct manifest **out);
/*
 * Read a manifest file the user named (--manifest: common/infile.h, a
 * regular file of at most MANIFEST_MAX_BYTES, 1 MiB). manifest_read_infile()
 * reads the rest of one the caller opened (corpus.c: the folder's own,
 * with infile_open_in) and leaves ending and closing it to the caller.
 */
#define MANIFEST_MAX_BYTES ((int64_t)1 << 20)
struct infile;
int manifest_read_file(const char *path, struct manifest **out);
int manifest_read_infile(struct infile *in, const char *origin, struct manifest **out);
void manifest_free(struct manifest *m);

/*
 * Template expansion. `lookup` returns the value of a variable or NULL if
 * unknown (an unknown variable is an error naming the template).
 */
typedef const char *(*manifest_lookup_fn)(const char *name, void *arg);
int manifest_expand(const char *template_text, manifest_lookup_fn lookup, void *arg, char **out);

/*
 * Match `text` against a tag pattern such as "g{gomaxprocs}-n{sessions}-b{block}".
 * Each {name} matches the shortest non-empty text up to the next literal
 * (the last one takes the rest). On a match, the captured names and
 * values are returned as NULL-terminated parallel arrays owned by the
 * caller (free with manifest_free_captures). Returns 1 on a match, 0 if not.
 */
int manifest_match(const char *pattern, const char *text, char ***names, char ***values,
		   size_t *count);
void manifest_free_captures(char **names, char **values, size_t count);

#endif
