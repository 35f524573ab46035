/*
 * builders: one function per command that turns its analysis result into
 * a result document (doc/doc.h). `coreplan COMMAND` and `coreplan
 * report` call the same builder, so a report section is the command's
 * document.
 *
 * Rules every builder follows (tests/e2e/formats.sh checks them on the
 * real corpora):
 *   - numbers go into table cells or facts, never only into prose: a note
 *     quotes a number through the string doc_fact_real()/doc_fact_int()
 *     return, so the JSON holds it as a number with the same digits;
 *   - the method, the thresholds and every input are facts;
 *   - every view a builder declares (build_NAME_views below: the one list
 *     --help, the man page, completion and the tests read) is a section
 *     with a table, present even when it has no rows; the first is the
 *     default of tsv and csv;
 *   - verdicts are text facts with stable words (`resolved`, `faster`, ...).
 *
 * Each build_* returns 0 with *out set to a new doc the caller frees, or
 * a negative code (out of memory) with *out NULL.
 */
#ifndef COREPLAN_BUILDERS_H
#define COREPLAN_BUILDERS_H

#include "../analysis/plot_runs.h"
#include "../analysis/select.h"
#include "../analysis/sweep.h"
#include "../doc/doc.h"
#include "../schema/imported.h"
#include "../schema/queries.h"

/*
 * A builder's start and end: build_doc() sets *out to NULL and makes the
 * document (NULL: out of memory, the error set); build_done() hands it to
 * *out, or frees it and returns ERR_DATA when adding to it ran out of
 * memory (doc_error()).
 */
struct doc *build_doc(struct doc **out, const char *command, const char *title);
int build_done(struct doc *d, struct doc **out);

/*
 * The footer every document carries: the database as the user named it,
 * the corpora read, their SHA-256 content hash (every file's hash and the
 * options, as imported) and the run filter in words.
 */
void build_provenance(struct doc *d, const char *db_path, const char *corpora,
		      const char *content_hash, const char *filter);

/*
 * The metric's kind and which way is better, and where each came from
 * (listed when assumed): facts metric_kind, metric_kind_from,
 * metric_direction ("lower", "higher"), metric_direction_from.
 */
struct metric_meaning;
void build_metric_facts(struct doc *d, const struct metric_meaning *m);
/* The fact group: the group fields as given ("target,cfg"; NULL-terminated), quiet when none. */
void build_group_fact(struct doc *d, const char *const *group);

/*
 * The selection's left-out runs into the doc's left-out list; what the
 * analysis pooled on purpose (sel->pooled, --pool) as the fact `pooled`
 * and a note on the doc's first section.
 */
void build_left_out(struct doc *d, const struct selection *sel);
/* A list of runs left out into the doc's left-out list, and the fact runs_left_out. */
void build_left_out_list(struct doc *d, const struct sel_left_out *list, size_t n);

int build_sweep(const struct sweep_request *req, const struct sweep_result *res, struct doc **out);

/* ---- cores, trace, smt, topology, translate ---- */
#include "../analysis/cores.h"
#include "../analysis/smt.h"
#include "../analysis/translate.h"
#include "../schema/topology.h"

int build_cores(const struct cores_request *req, const struct cores_result *res, struct doc **out);
/* Its rows table streams (doc_table_stream): write it before closing the database. */
int build_trace(const struct trace_request *req, const struct trace_result *res, struct doc **out);
int build_smt(const struct smt_request *req, const struct smt_result *res, struct doc **out);
/* The hosts just recorded (recorded: one) or read back with --show. */
int build_topology(const struct topology_hosts *hosts, bool recorded, struct doc **out);
int build_translate(const struct translate_request *req, const struct translate_result *res,
		    struct doc **out);
/*
 * noise, compare, fit, memory. Views (tsv/csv default first):
 *   noise    levels, cells, drift, order, bursts, soaks, verdict (Markdown:
 *            verdict first, then the others in that order)
 *   compare  arms
 *   fit      params, summary, points (Markdown: summary, params, points);
 *            facts <model>_<summary column> for each fitted model
 *   memory   slopes, endpoints, ratios, residuals
 */
/*
 * The fact runs_left_out: the length of the doc's left-out list, the
 * number its Markdown heading shows. build_left_out() sets it; a builder
 * that adds runs with doc_left_out() itself calls this after them.
 */
void build_left_out_count(struct doc *d);
/*
 * The columns of a corpus's counts, the same in the tables of corpora and
 * import: for a struct `type` with these int64_t members (BUILD_CORPUS_NCOUNTS columns).
 */
#define BUILD_CORPUS_NCOUNTS 7
#define BUILD_CORPUS_COUNT_COLS(type)                                                              \
	DOC_INT_OF("runs", "runs", type, runs), DOC_INT_OF("listed", "runs", type, listed),        \
		DOC_INT_OF("unlisted", "runs", type, unlisted),                                    \
		DOC_INT_OF("excluded", "runs", type, excluded),                                    \
		DOC_INT_OF("trace_rows", "rows", type, trace_rows),                                \
		DOC_INT_OF("files", "files", type, files),                                         \
		DOC_INT_OF("missing_files", "files", type, missing_files)
/* A value and its interval in three columns from col (value, low end, high end) of the current row.
 */
void build_set_interval(struct doc_table *t, size_t col, double value, double lo, double hi);

struct noise_request;
struct noise_result;
struct compare_request;
struct compare_result;
struct fit_request;
struct fit_run_result;
struct memory_request;
struct memory_result;
int build_noise(const struct noise_request *req, const struct noise_result *res, struct doc **out);
int build_compare(const struct compare_request *req, const struct compare_result *res,
		  struct doc **out);
int build_fit(const struct fit_request *req, const struct fit_run_result *res, struct doc **out);
int build_memory(const struct memory_request *req, struct memory_result *res,
		 struct doc **out);
/*
 * binders: views groups (the default), levels, resources, ranking, little
 * (analysis/binders.h).
 */
struct binders_request;
struct binders_result;
int build_binders(const struct binders_request *req, const struct binders_result *res,
		  struct doc **out);
/* levers: views levers (the default), levels; only: one lever's pairs (NULL: all). */
struct levers_request;
struct levers_result;
int build_levers(const struct levers_request *req, const struct levers_result *res,
		 const char *only, struct doc **out);
/* ---- runs, corpora, import, plot ---- */

/*
 * runs: the listing's rows (view runs); excluded_not_shown as a fact and a
 * note. The document always has the sections runs and fields; with
 * `fields` (runs --fields) the field-source listing is filled (view fields:
 * field, source, column, runs, read, select, rule) and the runs table is
 * left empty, else the other way round.
 */
int build_runs_begin(bool with_reasons, bool fields, struct doc **out);
/* build_runs_begin with a text column per extra field after the canonical ones (a tool's fields). */
int build_runs_begin_with(bool with_reasons, bool fields, const char *const *extra, size_t nextra,
			  struct doc **out);
/* A run_row_fn (schema/queries.h): arg is the doc build_runs_begin made. */
int build_runs_row(const struct run_row *row, void *doc);
/* The facts and notes once every row is in (facts runs, excluded_not_shown). */
int build_runs_end(struct doc *d, int64_t excluded_not_shown);
/* A field_source_fn (schema/fields.h): arg is the doc build_runs_begin made. */
int build_fields_row(const struct field_source_row *row, void *doc);
/* The facts once every source row is in: runs (selected), fields, field_sources. */
int build_fields_end(struct doc *d, int64_t runs);

/* corpora: one row per corpus (view corpora); a note when there is none. */
int build_corpora(const struct corpus_listing *listing, struct doc **out);

/*
 * import: one row per PATH (view imported: status new, replaced or
 * unchanged; an unchanged corpus's counts are missing, nothing was read
 * into the database) and the summary sentence per corpus as a note.
 */
int build_import(const struct import_result *results, size_t n, struct doc **out);

/*
 * plot: the files one `coreplan plot KIND` wrote (facts kind, image, data,
 * script: DIR/IMAGE, DIR/NAME.tsv, DIR/NAME.gp), what it drew, and the runs
 * its selection left out.
 */
struct plot_written {
	const char *dir;   /* the folder of --out */
	const char *name;  /* the file stem */
	const char *image; /* the image's file name in dir */
};
int build_plot(const struct plot_request *req, const struct plot_result *res,
	       const struct plot_written *files, struct doc **out);
/*
 * size and catalog. build_size: views inputs and instances (the default);
 * plot is NULL without --plot. build_catalog: views catalogs, instances
 * and families.
 */
#include "../analysis/catalogs.h"
#include "../analysis/size.h"
#include "../plot/sizing_plot.h"

int build_size(const struct size_request *req, const struct size_result *res,
	       const struct sizing_plot *plot, struct doc **out);
int build_catalog(const struct catalog_request *req, const struct catalog_result *res,
		  struct doc **out);

/*
 * The CPU families of the catalogs as the table of s (catalog's families
 * view, size's families view), one row a family: cpu_family, series,
 * provider, n, vcpus_min, vcpus_max, instances, cpu_platforms; with
 * `basis`, rate_basis and translation_factor after vcpus_max, which
 * basis(t, family, arg) fills on each row (columns BUILD_FAMILY_BASIS and
 * BUILD_FAMILY_FACTOR). `empty`: what a table without rows says.
 */
enum { BUILD_FAMILY_BASIS = 6, BUILD_FAMILY_FACTOR = 7 };
typedef void (*build_family_basis_fn)(struct doc_table *t, const struct catalog_family *family,
				      const void *arg);
struct doc_table *build_families_table(struct doc_section *s,
				       const struct catalog_family *families, size_t n,
				       const char *empty, build_family_basis_fn basis,
				       const void *arg);

/* ---- benchstat's view of compare (reports/build_benchstat.c, benchstat_text.c) ---- */
#include "../analysis/benchstat.h"
struct strbuf;
/*
 * Append benchstat's own text layout of r (every table, its configuration
 * lines, rows, geomean row and footnotes), as benchstat prints it.
 */
int benchstat_text(const struct benchstat_result *r, struct strbuf *out);
/* A cell as benchstat shows it ("1.718µ ± 1%": the row's scale), a geomean ("2.295µ"). */
void benchstat_shown(const struct benchstat_table *t, const struct benchstat_trow *row, int col,
		     char *buf, size_t size);
void benchstat_geomean_shown(const struct benchstat_table *t, int col, char *buf, size_t size);
/*
 * compare --view benchstat (no --by): one section "benchstat" with a row
 * per benchmark and table (configuration, unit, both arms' medians, their
 * intervals, delta, p, n, benchstat's own cell text and footnotes) and the
 * geomean rows; the facts say the arms, the method and the counts.
 */
int build_benchstat(const struct benchstat_request *req, const struct benchstat_result *res,
		    struct doc **out);

/* ---- compare.py's view of compare (reports/build_comparepy.c) ---- */
#include "../analysis/comparepy.h"
/* Append compare.py's text (`compare.py benchmarks OLD NEW`, no colour) of r. */
int comparepy_text(const struct comparepy_result *r, struct strbuf *out);
/* compare --view comparepy: section "comparepy", a row per paired run and per U test. */
int build_comparepy(const struct comparepy_request *req, const struct comparepy_result *res,
		    struct doc **out);

/* ---- report ---- */
/*
 * The corpus summary that opens a report: the corpora (only `corpus` when
 * not NULL), the excluded runs and the missing run files (query_exclusions
 * and query_missing_files rows; their text is split in place). Views:
 * corpora, excluded, missing.
 */
int build_report_corpus(const struct corpus_listing *listing, const char *corpus,
			struct text_list *exclusions, struct text_list *missing, struct doc **out);

/* Each command's views: the table sections of its document, the default first. */
extern const char *const build_binders_views[];
extern const char *const build_catalog_views[];
extern const char *const build_compare_views[];
extern const char *const build_cores_views[];
extern const char *const build_corpora_views[];
extern const char *const build_fit_views[];
extern const char *const build_import_views[];
extern const char *const build_levers_views[];
extern const char *const build_memory_views[];
extern const char *const build_noise_views[];
extern const char *const build_plot_views[];
extern const char *const build_runs_views[];
extern const char *const build_size_views[];
extern const char *const build_smt_views[];
extern const char *const build_sweep_views[];
extern const char *const build_sweep_views[];
extern const char *const build_topology_views[];
extern const char *const build_trace_views[];
extern const char *const build_translate_views[];

#endif
