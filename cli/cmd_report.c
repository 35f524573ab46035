/*
 * cmd_report: `coreplan report`, one command from corpus to a write-up.
 *
 * Each section is the Markdown output of the command a user would run for
 * it (sweep, noise, cores, memory, smt, translate, fit, size), captured
 * into report.md, so the report's tables are the commands' tables by
 * construction. A section the corpus cannot support says "not measured"
 * with the reason the command gave. Plots go to DIR/plots through
 * analysis/plot_runs.h (the analysis) and reports/plots.h (the drawing).
 * The body has no timestamps; the footer names the tool version and a
 * hash of the imported content the report read.
 */
#include "cmd.h"
#include "common.h"
#include "opt.h"

#include "../analysis/plot_runs.h"
#include "../common/err.h"
#include "../common/hash.h"
#include "../common/strbuf.h"
#include "../analysis/select.h"
#include "../reports/plots.h"
#include "../schema/db.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef COREPLAN_VERSION
#define COREPLAN_VERSION "unknown"
#endif

#define MAX_GROUPS 8

enum { OPT_CORPUS, OPT_WHERE, OPT_OUT, OPT_BY, OPT_GROUP, OPT_CONFIG, OPT_TARGET, OPT_SESSIONS,
       OPT_PNG };

static const struct opt_spec specs[] = {
	[OPT_CORPUS] = {"corpus", 0, "NAME", "the corpus (required when the database has several)",
			false},
	[OPT_WHERE] = {"where", 0, "FIELD=V[,V...]", "only these runs (as in every command)", true},
	[OPT_OUT] = {"out", 0, "DIR", "write DIR/report.md and DIR/plots/ (required)", false},
	[OPT_BY] = {"by", 0, "FIELD", "the sweep's level field (default: gomaxprocs, else sessions)",
		    false},
	[OPT_GROUP] = {"group", 0, "F1[,F2]",
		       "separate sweeps per combination (default: the fields that vary)", false},
	[OPT_CONFIG] = {"config", 0, "FILE",
			"report config: `key = value` lines for the sizing section (size's long "
			"options: target, sessions, base-from, scaling-from, smt-from, memory-from, "
			"series, translate, ...) and translate-from / translate-to",
			false},
	[OPT_TARGET] = {"target", 0, "RATE", "sizing target (or `target =` in the config)", false},
	[OPT_SESSIONS] = {"sessions", 0, "N", "sizing sessions (or `sessions =` in the config)",
			  false},
	[OPT_PNG] = {"png", 0, NULL, "PNG plots instead of SVG", false},
	{NULL, 0, NULL, NULL, false},
};

static const char details[] =
	"Sections: corpus summary (runs, excluded runs and why, missing files), sweep\n"
	"tables and plots per group, noise verdicts, recomputed CPU and tick rate,\n"
	"memory slopes, SMT, cross-CPU translation, scaling models and sizing. Each is\n"
	"the Markdown output of its command; one the corpus cannot support is listed\n"
	"as \"not measured\" with the reason. The same database and options give a\n"
	"byte-identical report.md.\n"
	"\n"
	"example:\n"
	"  coreplan report --corpus example --out out/example\n";

struct report {
	const struct global_opts *g;
	sqlite3 *db;
	FILE *md;
	char *dir, *plots_dir;
	const char *corpus;
	char **where; /* "FIELD=V" texts */
	size_t nwhere;
	char *by; /* owned */
	char **group;
	size_t ngroup;
	enum plot_format format;
	/* sizing: size options from the config, as argv words */
	char **size_args;
	size_t nsize_args;
	char *translate_from, *translate_to;
	int plot_seq;
	struct strbuf hash_input;
};

/* ---- running a command into the report ---- */

struct argv_builder {
	char **argv;
	int argc;
};

static int arg(struct argv_builder *b, const char *text)
{
	char **grown = realloc(b->argv, (size_t)(b->argc + 2) * sizeof(*grown));
	if (!grown)
		return err_set("out of memory");
	b->argv = grown;
	b->argv[b->argc] = strdup(text);
	if (!b->argv[b->argc])
		return err_set("out of memory");
	b->argv[++b->argc] = NULL;
	return 0;
}

static void builder_release(struct argv_builder *b)
{
	for (int i = 0; i < b->argc; i++)
		free(b->argv[i]);
	free(b->argv);
}

/* The common filter: --corpus and every --where. */
static int filter_args(struct argv_builder *b, const struct report *r)
{
	int rc = 0;
	if (r->corpus)
		rc = arg(b, "--corpus") || arg(b, r->corpus);
	for (size_t i = 0; rc == 0 && i < r->nwhere; i++)
		rc = arg(b, "--where") || arg(b, r->where[i]);
	return rc ? err_set("out of memory") : 0;
}

/*
 * Run a command with its standard output going into report.md. A failure
 * becomes a "not measured" line; the report goes on.
 */
static int run_into_report(struct report *r, cmd_fn fn, struct argv_builder *b)
{
	int saved, rc;
	fflush(stdout);
	fflush(r->md);
	saved = dup(STDOUT_FILENO);
	if (saved < 0 || dup2(fileno(r->md), STDOUT_FILENO) < 0)
		return err_set("cannot write the report: %s", strerror(errno));
	rc = fn(b->argc, b->argv, r->g);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	if (rc) {
		fprintf(r->md, "\n**Not measured**: %s\n", err_msg());
		err_clear();
	}
	fprintf(r->md, "\n");
	return 0;
}

static int section(struct report *r, const char *title, cmd_fn fn, const char *const *words,
		   bool with_filter)
{
	struct argv_builder b = {NULL, 0};
	int rc = 0;
	if (title)
		fprintf(r->md, "%s\n\n", title);
	for (size_t i = 0; rc == 0 && words[i]; i++)
		rc = arg(&b, words[i]);
	if (rc == 0 && with_filter)
		rc = filter_args(&b, r);
	if (rc == 0)
		rc = run_into_report(r, fn, &b);
	builder_release(&b);
	return rc;
}

/* ---- plots ---- */

static void plot_into_report(struct report *r, const struct plot_request *req,
			     const char *context)
{
	const char *kind = plot_kind_name(req->kind);
	struct plot_result res;
	char name[64], *image = NULL;
	int rc;
	snprintf(name, sizeof(name), "%02d-%s", ++r->plot_seq, kind);
	rc = plot_run(r->db, req, &res);
	if (rc == 0) {
		struct plot_target t = {r->plots_dir, name, r->format, context};
		rc = plots_draw(&t, req, &res, &image);
	}
	plot_result_release(&res);
	if (rc == 0)
		fprintf(r->md, "![%s plot](plots/%s)\n\n(data: `plots/%s.tsv`, script: `plots/%s.gp`)\n\n",
			kind, image, name, name);
	else if (rc == PLOT_NOT_INSTALLED)
		fprintf(r->md, "*Plot not drawn: gnuplot is not installed (apt-get install "
			       "gnuplot-nox).*\n\n");
	else {
		fprintf(r->md, "*Plot not drawn: %s*\n\n", err_msg());
		err_clear();
	}
	free(image);
}

/* ---- what the corpus holds ---- */

static int query_rows(sqlite3 *db, const char *sql, const char *corpus, FILE *out,
		      const char *format)
{
	sqlite3_stmt *stmt = NULL;
	int rows = 0;
	if (sqlite3_prepare_v2(db, sql, -1, &stmt, NULL) != SQLITE_OK)
		return err_set("cannot summarise the corpus: %s", sqlite3_errmsg(db));
	sqlite3_bind_text(stmt, 1, corpus, -1, SQLITE_STATIC);
	while (sqlite3_step(stmt) == SQLITE_ROW) {
		/* format: each %s takes the next column as text, | escaped */
		int col = 0;
		for (const char *p = format; *p; p++) {
			if (p[0] == '%' && p[1] == 's') {
				const unsigned char *t = sqlite3_column_text(stmt, col++);
				for (const unsigned char *c = t; c && *c; c++)
					fputs(*c == '|' ? "\\|" : *c < 0x20 ? " " : (const char[]){(char)*c, 0}, out);
				p++;
			} else {
				fputc(*p, out);
			}
		}
		rows++;
	}
	sqlite3_finalize(stmt);
	return rows;
}

static int corpus_summary(struct report *r)
{
	FILE *md = r->md;
	int n;
	fprintf(md, "## Corpus\n\n| corpus | layout | runs | listed | unlisted | excluded | trace rows "
		    "| files |\n|:--|:--|--:|--:|--:|--:|--:|--:|\n");
	query_rows(r->db,
		   "SELECT c.name, c.layout, count(r.run_id), sum(r.listed), sum(1 - r.listed),"
		   " (SELECT count(DISTINCT e.run_id) FROM exclusions e JOIN runs x USING (run_id)"
		   "   WHERE x.corpus_id = c.corpus_id),"
		   " (SELECT coalesce(sum(t.rows), 0) FROM traces t JOIN runs x USING (run_id)"
		   "   WHERE x.corpus_id = c.corpus_id),"
		   " (SELECT count(*) FROM files f WHERE f.corpus_id = c.corpus_id)"
		   " FROM corpora c LEFT JOIN runs r USING (corpus_id)"
		   " WHERE ?1 IS NULL OR c.name = ?1 GROUP BY c.corpus_id ORDER BY c.name",
		   r->corpus, md, "| %s | %s | %s | %s | %s | %s | %s | %s |\n");
	fprintf(md, "\n### Excluded runs\n\n");
	n = query_rows(r->db,
		       "SELECT c.name, r.subcorpus, r.tag, e.reason, e.detail FROM exclusions e"
		       " JOIN runs r USING (run_id) JOIN corpora c USING (corpus_id)"
		       " WHERE ?1 IS NULL OR c.name = ?1 ORDER BY c.name, r.subcorpus, r.seq, e.reason",
		       r->corpus, md, "- %s %s `%s`: %s: %s\n");
	if (n == 0)
		fprintf(md, "none\n");
	fprintf(md, "\n### What the corpus does not contain\n\n");
	n = query_rows(r->db,
		       "SELECT r.tag, m.kind, m.expected_path FROM missing_files m"
		       " JOIN runs r USING (run_id) JOIN corpora c USING (corpus_id)"
		       " WHERE ?1 IS NULL OR c.name = ?1 ORDER BY c.name, r.seq, m.kind",
		       r->corpus, md, "- `%s`: no %s file (`%s`)\n");
	if (n == 0)
		fprintf(md, "no expected file is missing\n");
	fprintf(md, "\nSections below that the runs cannot support say **Not measured** and "
		    "why.\n\n");
	return 0;
}

/* ---- choosing the sweep ---- */

/* Distinct values of a field over the selected runs (up to max). */
static int distinct_values(struct report *r, const char *field, char ***values, size_t *n,
			   size_t max)
{
	struct run_filter f = {0};
	struct strbuf sql = STRBUF_INIT;
	char **binds = NULL;
	size_t nbinds = 0;
	sqlite3_stmt *stmt = NULL;
	int rc = 0;
	*values = NULL;
	*n = 0;
	f.corpus = r->corpus ? strdup(r->corpus) : NULL;
	for (size_t i = 0; rc == 0 && i < r->nwhere; i++)
		rc = run_filter_add_where(&f, r->where[i]);
	strbuf_adds(&sql, "SELECT DISTINCT CAST(");
	if (rc == 0)
		rc = field_sql(field, false, &sql, &binds, &nbinds);
	strbuf_adds(&sql, " AS TEXT) AS v FROM runs r WHERE ");
	if (rc == 0)
		rc = run_filter_sql(&f, &sql, &binds, &nbinds);
	strbuf_adds(&sql, " AND v IS NOT NULL ORDER BY v");
	if (rc == 0 && sqlite3_prepare_v2(r->db, strbuf_str(&sql), -1, &stmt, NULL) != SQLITE_OK)
		rc = err_set("cannot read '%s': %s", field, sqlite3_errmsg(r->db));
	if (rc == 0)
		rc = field_bind_all(stmt, 1, binds, nbinds);
	while (rc == 0 && sqlite3_step(stmt) == SQLITE_ROW && *n < max) {
		char **grown = realloc(*values, (*n + 1) * sizeof(*grown));
		if (!grown) {
			rc = err_set("out of memory");
			break;
		}
		*values = grown;
		grown[(*n)++] = strdup((const char *)sqlite3_column_text(stmt, 0));
	}
	sqlite3_finalize(stmt);
	field_binds_free(binds, nbinds);
	strbuf_release(&sql);
	run_filter_release(&f);
	return rc;
}

static size_t count_distinct(struct report *r, const char *field)
{
	char **v = NULL;
	size_t n = 0;
	if (distinct_values(r, field, &v, &n, 1000) != 0)
		err_clear();
	common_free_list(v, n);
	return n;
}

static void choose_sweep(struct report *r)
{
	static const char *const candidates[] = {"subcorpus", "target", "cfg", "store",
						 "gogc", "variant", "sessions", "gomaxprocs"};
	if (!r->by) {
		const char *by = count_distinct(r, "gomaxprocs") >= 2 ? "gomaxprocs"
				 : count_distinct(r, "sessions") >= 2 ? "sessions"
								      : NULL;
		r->by = by ? strdup(by) : NULL;
	}
	if (r->group || !r->by)
		return;
	for (size_t i = 0; i < sizeof(candidates) / sizeof(candidates[0]); i++)
		if (strcmp(candidates[i], r->by) && count_distinct(r, candidates[i]) >= 2)
			common_split_list("group", candidates[i], &r->group, &r->ngroup);
}

/* Append a copy of text to a string list (binds, where texts, argv words). */
static int push_bind(char ***binds, size_t *n, const char *text)
{
	char **grown = realloc(*binds, (*n + 1) * sizeof(*grown));
	if (!grown)
		return err_set("out of memory");
	*binds = grown;
	grown[*n] = strdup(text);
	if (!grown[*n])
		return err_set("out of memory");
	(*n)++;
	return 0;
}

/*
 * Every combination of the group fields' values present in the runs, as
 * ngroup consecutive "FIELD=VALUE" strings per combination (argv words,
 * so a value may hold spaces).
 */
static int group_combinations(struct report *r, char ***words, size_t *ncombos)
{
	struct strbuf sql = STRBUF_INIT;
	char **binds = NULL;
	size_t nbinds = 0, nwords = 0;
	struct run_filter f = {0};
	sqlite3_stmt *stmt = NULL;
	int rc = 0;
	*words = NULL;
	*ncombos = 0;
	f.corpus = r->corpus ? strdup(r->corpus) : NULL;
	for (size_t i = 0; rc == 0 && i < r->nwhere; i++)
		rc = run_filter_add_where(&f, r->where[i]);
	strbuf_adds(&sql, "SELECT DISTINCT ");
	for (size_t i = 0; rc == 0 && i < r->ngroup; i++) {
		strbuf_addf(&sql, "%scoalesce(CAST(", i ? ", " : "");
		rc = field_sql(r->group[i], false, &sql, &binds, &nbinds);
		strbuf_addf(&sql, " AS TEXT), 'NA') AS g%zu", i);
	}
	strbuf_adds(&sql, " FROM runs r WHERE ");
	if (rc == 0)
		rc = run_filter_sql(&f, &sql, &binds, &nbinds);
	strbuf_adds(&sql, " ORDER BY ");
	for (size_t i = 0; i < r->ngroup; i++)
		strbuf_addf(&sql, "%sg%zu", i ? ", " : "", i);
	if (rc == 0 && sqlite3_prepare_v2(r->db, strbuf_str(&sql), -1, &stmt, NULL) != SQLITE_OK)
		rc = err_set("cannot group runs: %s", sqlite3_errmsg(r->db));
	if (rc == 0)
		rc = field_bind_all(stmt, 1, binds, nbinds);
	while (rc == 0 && sqlite3_step(stmt) == SQLITE_ROW) {
		for (size_t i = 0; rc == 0 && i < r->ngroup; i++) {
			struct strbuf word = STRBUF_INIT;
			strbuf_addf(&word, "%s=%s", r->group[i],
				    (const char *)sqlite3_column_text(stmt, (int)i));
			rc = push_bind(words, &nwords, strbuf_str(&word));
			strbuf_release(&word);
		}
		(*ncombos)++;
	}
	sqlite3_finalize(stmt);
	field_binds_free(binds, nbinds);
	strbuf_release(&sql);
	run_filter_release(&f);
	return rc;
}

/* ---- the sections ---- */

static int sweep_sections(struct report *r)
{
	char **combos = NULL;
	size_t ncombos = 0;
	int rc;
	fprintf(r->md, "## Sweep\n\n");
	if (!r->by) {
		fprintf(r->md, "**Not measured**: no field has two or more levels among the runs "
			       "(gomaxprocs, sessions); pass --by FIELD\n\n");
		return 0;
	}
	rc = r->ngroup ? group_combinations(r, &combos, &ncombos) : 0;
	if (rc)
		return rc;
	if (ncombos > MAX_GROUPS)
		fprintf(r->md, "%zu groups; the first %d are shown (narrow with --where or "
			       "--group)\n\n",
			ncombos, MAX_GROUPS);
	for (size_t i = 0; rc == 0 && i < (ncombos ? ncombos : 1) && i < MAX_GROUPS; i++) {
		char **conds = ncombos ? combos + i * r->ngroup : NULL;
		struct argv_builder b = {NULL, 0};
		struct run_filter filter = {0};
		struct plot_request req;
		struct strbuf context = STRBUF_INIT, heading = STRBUF_INIT;
		for (size_t k = 0; conds && k < r->ngroup; k++)
			strbuf_addf(&heading, "%s%s", k ? " " : "", conds[k]);
		fprintf(r->md, "### %s%s\n\n", conds ? "Group " : "All runs", strbuf_str(&heading));
		rc = arg(&b, "sweep") || arg(&b, "--by") || arg(&b, r->by) ? ERR_DATA : 0;
		if (rc == 0)
			rc = filter_args(&b, r);
		for (size_t k = 0; rc == 0 && conds && k < r->ngroup; k++)
			rc = arg(&b, "--where") || arg(&b, conds[k]) ? ERR_DATA : 0;
		if (rc == 0)
			rc = run_into_report(r, cmd_sweep, &b);
		/* the same selection, plotted */
		filter.corpus = r->corpus ? strdup(r->corpus) : NULL;
		for (int k = 1; rc == 0 && k < b.argc; k++)
			if (!strcmp(b.argv[k], "--where"))
				rc = run_filter_add_where(&filter, b.argv[++k]);
		strbuf_addf(&context, "%s%s%s", r->corpus ? r->corpus : "all corpora",
			    conds ? ", " : "", strbuf_str(&heading));
		for (size_t w = 0; w < r->nwhere; w++)
			strbuf_addf(&context, " %s", r->where[w]);
		memset(&req, 0, sizeof(req));
		req.filter = &filter;
		req.by = r->by;
		if (rc == 0) {
			req.kind = PLOT_KIND_SCALING;
			plot_into_report(r, &req, strbuf_str(&context));
			req.kind = PLOT_KIND_BLOCKS;
			plot_into_report(r, &req, strbuf_str(&context));
		}
		run_filter_release(&filter);
		strbuf_release(&context);
		strbuf_release(&heading);
		builder_release(&b);
	}
	common_free_list(combos, ncombos * r->ngroup);
	if (rc == 0) {
		struct argv_builder b = {NULL, 0};
		struct strbuf groups = STRBUF_INIT;
		fprintf(r->md, "### Noise\n\n");
		rc = arg(&b, "noise") || arg(&b, "--by") || arg(&b, r->by) ? ERR_DATA : 0;
		for (size_t i = 0; i < r->ngroup; i++)
			strbuf_addf(&groups, "%s%s", i ? "," : "", r->group[i]);
		if (rc == 0 && r->ngroup)
			rc = arg(&b, "--group") || arg(&b, strbuf_str(&groups)) ? ERR_DATA : 0;
		if (rc == 0)
			rc = filter_args(&b, r);
		if (rc == 0)
			rc = run_into_report(r, cmd_noise, &b);
		strbuf_release(&groups);
		builder_release(&b);
	}
	return rc;
}

/* The first selected listed run with a trace, for the trace plot (its tag unique in the selection). */
static char *representative_run(struct report *r)
{
	struct run_filter f = {0};
	struct selection sel = {0};
	struct select_spec spec = {.filter = &f};
	sqlite3_stmt *stmt = NULL;
	char *tag = NULL;
	int rc = 0;
	f.corpus = r->corpus ? strdup(r->corpus) : NULL;
	for (size_t i = 0; rc == 0 && i < r->nwhere; i++)
		rc = run_filter_add_where(&f, r->where[i]);
	if (rc == 0)
		rc = select_runs(r->db, &spec, &sel);
	if (rc == 0 && sqlite3_prepare_v2(r->db,
					  "SELECT 1 FROM runs r WHERE r.run_id = ?1 AND r.listed = 1"
					  " AND EXISTS (SELECT 1 FROM traces t WHERE t.run_id ="
					  " r.run_id AND t.kind = 'sample')",
					  -1, &stmt, NULL) != SQLITE_OK)
		rc = ERR_DATA;
	for (size_t i = 0; rc == 0 && !tag && i < sel.n; i++) {
		size_t same = 0;
		for (size_t j = 0; j < sel.n; j++)
			same += !strcmp(sel.runs[j].tag, sel.runs[i].tag);
		sqlite3_bind_int64(stmt, 1, sel.runs[i].run_id);
		if (same == 1 && sqlite3_step(stmt) == SQLITE_ROW)
			tag = strdup(sel.runs[i].tag);
		sqlite3_reset(stmt);
	}
	sqlite3_finalize(stmt);
	selection_release(&sel);
	run_filter_release(&f);
	err_clear();
	return tag;
}

static int cpu_section(struct report *r)
{
	static const char *const words[] = {"cores", NULL};
	char *tag = representative_run(r);
	int rc = section(r, "## CPU: recomputed cores and tick rate", cmd_cores, words, true);
	if (rc == 0 && tag) {
		struct run_filter filter = {0};
		struct plot_request req;
		filter.corpus = r->corpus ? strdup(r->corpus) : NULL;
		for (size_t i = 0; rc == 0 && i < r->nwhere; i++)
			rc = run_filter_add_where(&filter, r->where[i]);
		memset(&req, 0, sizeof(req));
		req.kind = PLOT_KIND_TRACE;
		req.filter = &filter;
		req.tag = tag;
		fprintf(r->md, "Trace of `%s`, the first listed run with a trace:\n\n", tag);
		plot_into_report(r, &req, r->corpus ? r->corpus : "all corpora");
		run_filter_release(&filter);
	}
	free(tag);
	return rc;
}

static int memory_section(struct report *r)
{
	struct argv_builder b = {NULL, 0};
	struct strbuf groups = STRBUF_INIT;
	int rc = 0;
	fprintf(r->md, "## Memory per session\n\n");
	if (count_distinct(r, "sessions") < 2) {
		fprintf(r->md, "**Not measured**: the runs have fewer than two session counts, so "
			       "no slope across sessions\n\n");
		return 0;
	}
	for (size_t i = 0; i < r->ngroup; i++)
		if (strcmp(r->group[i], "sessions"))
			strbuf_addf(&groups, "%s%s", groups.len ? "," : "", r->group[i]);
	rc = arg(&b, "memory") || arg(&b, "--by") || arg(&b, "sessions") ? ERR_DATA : 0;
	if (rc == 0 && groups.len)
		rc = arg(&b, "--group") || arg(&b, strbuf_str(&groups)) ? ERR_DATA : 0;
	if (rc == 0)
		rc = filter_args(&b, r);
	if (rc == 0)
		rc = run_into_report(r, cmd_memory, &b);
	if (rc == 0) {
		struct run_filter filter = {0};
		struct plot_request req;
		filter.corpus = r->corpus ? strdup(r->corpus) : NULL;
		for (size_t i = 0; rc == 0 && i < r->nwhere; i++)
			rc = run_filter_add_where(&filter, r->where[i]);
		memset(&req, 0, sizeof(req));
		req.kind = PLOT_KIND_MEMORY;
		req.filter = &filter;
		req.by = "sessions";
		req.metric = "load_rss_kb";
		if (rc == 0)
			plot_into_report(r, &req, r->corpus ? r->corpus : "all corpora");
		run_filter_release(&filter);
	}
	strbuf_release(&groups);
	builder_release(&b);
	return rc;
}

static int smt_section(struct report *r)
{
	static const char *const words[] = {"smt", NULL};
	fprintf(r->md, "## SMT: what a second hardware thread is worth\n\n");
	if (count_distinct(r, "topology_host") == 0) {
		fprintf(r->md, "**Not measured**: no topology is recorded for these runs (a "
			       "manifest's `topology = FILE`, or `coreplan smt --host`)\n\n");
		return 0;
	}
	return section(r, NULL, cmd_smt, words, true);
}

static int translate_section(struct report *r)
{
	fprintf(r->md, "## Cross-CPU translation\n\n");
	if (!r->translate_from || !r->translate_to) {
		fprintf(r->md, "**Not measured**: no pair of sub-corpora on different CPUs (or set "
			       "`translate-from` and `translate-to` in --config)\n\n");
		return 0;
	}
	{
		const char *const words[] = {"translate", "--from", r->translate_from, "--to",
					     r->translate_to, NULL};
		struct argv_builder b = {NULL, 0};
		int rc = 0;
		for (size_t i = 0; rc == 0 && words[i]; i++)
			rc = arg(&b, words[i]);
		if (rc == 0 && r->corpus)
			rc = arg(&b, "--corpus") || arg(&b, r->corpus) ? ERR_DATA : 0;
		if (rc == 0)
			rc = run_into_report(r, cmd_translate, &b);
		builder_release(&b);
		return rc;
	}
}

/* Sub-corpora on different CPU families: translate from the odd one to the main's. */
static void choose_translation(struct report *r)
{
	sqlite3_stmt *stmt = NULL;
	char *main_family = NULL;
	if (r->translate_from || sqlite3_prepare_v2(r->db,
			"SELECT r.subcorpus, min(f.value), count(DISTINCT f.value) FROM runs r"
			" JOIN corpora c USING (corpus_id) JOIN run_fields f ON f.run_id = r.run_id"
			" AND f.name = 'cpu_family' WHERE (?1 IS NULL OR c.name = ?1)"
			" GROUP BY r.subcorpus ORDER BY r.subcorpus", -1, &stmt, NULL) != SQLITE_OK) {
		sqlite3_finalize(stmt);
		return;
	}
	sqlite3_bind_text(stmt, 1, r->corpus, -1, SQLITE_STATIC);
	while (sqlite3_step(stmt) == SQLITE_ROW) {
		const char *sub = (const char *)sqlite3_column_text(stmt, 0);
		const char *family = (const char *)sqlite3_column_text(stmt, 1);
		struct strbuf where = STRBUF_INIT;
		if (sqlite3_column_int(stmt, 2) != 1)
			continue;
		if (!*sub) {
			main_family = strdup(family);
			continue;
		}
		strbuf_addf(&where, "subcorpus=%s", sub);
		if (main_family && !strcmp(family, main_family) && !r->translate_to)
			r->translate_to = strbuf_detach(&where);
		else if (main_family && strcmp(family, main_family) && !r->translate_from)
			r->translate_from = strbuf_detach(&where);
		strbuf_release(&where);
	}
	sqlite3_finalize(stmt);
	free(main_family);
}

static int fit_section(struct report *r)
{
	const char *const words[] = {"fit", "--by", r->by, NULL};
	fprintf(r->md, "## Scaling models\n\n");
	if (!r->by) {
		fprintf(r->md, "**Not measured**: no sweep\n\n");
		return 0;
	}
	if (r->ngroup)
		fprintf(r->md, "Fitted over every selected run; the groups above differ in %s, so "
			       "narrow with --where for one group's model.\n\n",
			r->group[0]);
	return section(r, NULL, cmd_fit, words, true);
}

static int sizing_section(struct report *r)
{
	struct argv_builder b = {NULL, 0};
	bool has_target = false;
	int rc = 0;
	fprintf(r->md, "## Sizing\n\n");
	for (size_t i = 0; i < r->nsize_args; i++)
		has_target |= !strcmp(r->size_args[i], "--target");
	if (!has_target) {
		fprintf(r->md, "**Not measured**: no target given (--target, or `target =` in "
			       "--config)\n\n");
		return 0;
	}
	rc = arg(&b, "size");
	for (size_t i = 0; rc == 0 && i < r->nsize_args; i++)
		rc = arg(&b, r->size_args[i]);
	if (rc == 0) {
		char plot[4200];
		snprintf(plot, sizeof(plot), "%s/%02d-sizing.%s", r->plots_dir, ++r->plot_seq,
			 plot_extension(r->format));
		rc = arg(&b, "--plot") || arg(&b, plot) ? ERR_DATA : 0;
	}
	if (rc == 0)
		rc = run_into_report(r, cmd_size, &b);
	if (rc == 0) {
		char image[4200];
		snprintf(image, sizeof(image), "%s/%02d-sizing.%s", r->plots_dir, r->plot_seq,
			 plot_extension(r->format));
		if (access(image, F_OK) == 0)
			fprintf(r->md, "![sizing plot](plots/%02d-sizing.%s)\n\n", r->plot_seq,
				plot_extension(r->format));
		else
			fprintf(r->md, "*Plot not drawn: gnuplot is not installed (apt-get install "
				       "gnuplot-nox).*\n\n");
	}
	builder_release(&b);
	return rc;
}

/* ---- options, config, footer ---- */

static char *trimmed(char *s)
{
	char *end;
	while (*s == ' ' || *s == '\t')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		*--end = '\0';
	return s;
}

static int add_size_arg(struct report *r, const char *key, const char *value)
{
	struct strbuf option = STRBUF_INIT;
	int rc;
	strbuf_addf(&option, "--%s", key);
	rc = push_bind(&r->size_args, &r->nsize_args, strbuf_str(&option));
	strbuf_release(&option);
	return rc ? rc : push_bind(&r->size_args, &r->nsize_args, value);
}

/* `key = value` lines: by, group, where, translate-from, translate-to, or a size option. */
static int read_config(struct report *r, const char *path)
{
	static const char *const size_keys[] = {
		"target", "sessions", "catalog", "headroom", "series", "base-from", "base-rate",
		"base-cpu", "scaling-from", "scaling-by", "per-doubling", "smt-from", "smt-factor",
		"memory-from", "mem-per-session", "mem-fixed", "translate", "measured-where", NULL};
	FILE *fp = fopen(path, "r");
	char line[4096];
	long line_no = 0;
	int rc = 0;
	if (!fp)
		return err_set("cannot open report config '%s': %s", path, strerror(errno));
	while (rc == 0 && fgets(line, sizeof(line), fp)) {
		char *s = trimmed(line), *eq, *key, *value;
		bool known = false;
		line_no++;
		s[strcspn(s, "\n")] = '\0';
		if (!*s || *s == '#')
			continue;
		if (!(eq = strchr(s, '='))) {
			rc = err_at(path, line_no, 1, "expected 'key = value'");
			break;
		}
		*eq = '\0';
		key = trimmed(s);
		value = trimmed(eq + 1);
		if (!strcmp(key, "by")) {
			r->by = strdup(value);
			known = true;
		} else if (!strcmp(key, "group")) {
			rc = common_split_list("group", value, &r->group, &r->ngroup);
			known = true;
		} else if (!strcmp(key, "where")) {
			rc = push_bind(&r->where, &r->nwhere, value);
			known = true;
		} else if (!strcmp(key, "translate-from") || !strcmp(key, "translate-to")) {
			char **slot = key[10] == 'f' ? &r->translate_from : &r->translate_to;
			free(*slot);
			*slot = strdup(value);
			known = true;
		}
		for (size_t i = 0; !known && size_keys[i]; i++)
			if (!strcmp(key, size_keys[i])) {
				rc = add_size_arg(r, key, value);
				known = true;
			}
		if (!known)
			rc = err_at(path, line_no, 1, "unknown key '%s'", key);
	}
	fclose(fp);
	return rc;
}

/* mkdir -p */
static int make_dir(const char *path)
{
	char *copy = strdup(path);
	int rc = 0;
	if (!copy)
		return err_set("out of memory");
	for (char *p = copy + 1; rc == 0 && *p; p++)
		if (*p == '/') {
			*p = '\0';
			if (mkdir(copy, 0777) != 0 && errno != EEXIST)
				rc = err_set("cannot create '%s': %s", copy, strerror(errno));
			*p = '/';
		}
	if (rc == 0 && mkdir(copy, 0777) != 0 && errno != EEXIST)
		rc = err_set("cannot create '%s': %s", copy, strerror(errno));
	free(copy);
	return rc;
}

/* A hash of what the report read: each corpus's content hash, and the options. */
static void footer(struct report *r)
{
	struct hash_ctx *ctx = hash_new();
	char hex[HASH_HEX_LEN + 1] = "unknown";
	sqlite3_stmt *stmt = NULL;
	struct strbuf names = STRBUF_INIT;
	if (ctx && sqlite3_prepare_v2(r->db,
				      "SELECT name, content_hash FROM corpora WHERE ?1 IS NULL OR"
				      " name = ?1 ORDER BY name",
				      -1, &stmt, NULL) == SQLITE_OK) {
		sqlite3_bind_text(stmt, 1, r->corpus, -1, SQLITE_STATIC);
		while (sqlite3_step(stmt) == SQLITE_ROW) {
			const char *name = (const char *)sqlite3_column_text(stmt, 0);
			const char *h = (const char *)sqlite3_column_text(stmt, 1);
			hash_update(ctx, name, strlen(name) + 1);
			hash_update(ctx, h, strlen(h) + 1);
			strbuf_addf(&names, "%s%s", names.len ? ", " : "", name);
		}
		hash_update(ctx, r->hash_input.buf ? r->hash_input.buf : "", r->hash_input.len);
		hash_finish(ctx, hex);
		ctx = NULL;
	}
	sqlite3_finalize(stmt);
	hash_free(ctx);
	fprintf(r->md, "---\n\ncoreplan %s; corpora: %s; content sha256 %.16s (the imported "
		       "files' hashes and this report's options)\n",
		COREPLAN_VERSION, strbuf_str(&names), hex);
	strbuf_release(&names);
}

static int parse_args(int argc, char **argv, struct report *r, const char **config)
{
	static const struct opt_cmd cmd = {"report", NULL, details, specs};
	struct opt_parser p;
	const char *value;
	int which;
	int rc = opt_parser_init(&p, &cmd, argc, argv);
	while (rc == 0 && (rc = opt_next(&p, &which, &value)) == OPT_FOUND) {
		rc = 0;
		switch (which) {
		case OPT_CORPUS:
			r->corpus = value;
			break;
		case OPT_WHERE:
			rc = push_bind(&r->where, &r->nwhere, value);
			break;
		case OPT_OUT:
			r->dir = strdup(value);
			break;
		case OPT_BY:
			r->by = strdup(value);
			break;
		case OPT_GROUP:
			rc = common_split_list("group", value, &r->group, &r->ngroup);
			break;
		case OPT_CONFIG:
			*config = value;
			break;
		case OPT_TARGET:
		case OPT_SESSIONS:
			rc = add_size_arg(r, specs[which].name, value);
			break;
		case OPT_PNG:
			r->format = PLOT_PNG;
			break;
		}
	}
	if (rc == OPT_DONE && p.noperands > 0)
		rc = err_usage("unexpected argument '%s'", p.operands[0]);
	if (rc == OPT_DONE && !r->dir)
		rc = err_usage("--out DIR is required");
	opt_parser_release(&p);
	return rc;
}

static void report_release(struct report *r)
{
	if (r->md)
		fclose(r->md);
	db_close(r->db);
	free(r->dir);
	free(r->plots_dir);
	free(r->by);
	common_free_list(r->where, r->nwhere);
	common_free_list(r->group, r->ngroup);
	common_free_list(r->size_args, r->nsize_args);
	free(r->translate_from);
	free(r->translate_to);
	strbuf_release(&r->hash_input);
}

static int write_report(struct report *r)
{
	int rc = corpus_summary(r);
	fprintf(r->md, "Filter: %s", r->corpus ? r->corpus : "all corpora");
	for (size_t i = 0; i < r->nwhere; i++)
		fprintf(r->md, ", %s", r->where[i]);
	fprintf(r->md, "\n\n");
	if (rc == 0)
		rc = sweep_sections(r);
	if (rc == 0)
		rc = cpu_section(r);
	if (rc == 0)
		rc = memory_section(r);
	if (rc == 0)
		rc = smt_section(r);
	if (rc == 0)
		rc = translate_section(r);
	if (rc == 0)
		rc = fit_section(r);
	if (rc == 0)
		rc = sizing_section(r);
	if (rc == 0)
		footer(r);
	return rc;
}

int cmd_report(int argc, char **argv, const struct global_opts *g)
{
	struct report r;
	struct strbuf path = STRBUF_INIT;
	const char *config = NULL;
	int rc;
	memset(&r, 0, sizeof(r));
	r.g = g;
	rc = parse_args(argc, argv, &r, &config);
	if (rc == OPT_HELP_SHOWN) {
		rc = 0;
		goto done;
	}
	if (rc == 0 && config)
		rc = read_config(&r, config);
	if (rc == 0)
		rc = db_open(g->db_path, true, &r.db);
	if (rc == 0)
		rc = make_dir(r.dir);
	if (rc == 0) {
		strbuf_addf(&path, "%s/plots", r.dir);
		r.plots_dir = strbuf_detach(&path);
		rc = make_dir(r.plots_dir);
	}
	if (rc == 0) {
		strbuf_addf(&path, "%s/report.md", r.dir);
		r.md = fopen(strbuf_str(&path), "w");
		if (!r.md)
			rc = err_set("cannot write '%s': %s", strbuf_str(&path), strerror(errno));
	}
	for (size_t i = 0; i < r.nwhere; i++)
		strbuf_addf(&r.hash_input, "where %s\n", r.where[i]);
	for (size_t i = 0; i < r.nsize_args; i++)
		strbuf_addf(&r.hash_input, "size %s\n", r.size_args[i]);
	if (rc == 0) {
		choose_sweep(&r);
		choose_translation(&r);
		fprintf(r.md, "# Capacity report: %s\n\n", r.corpus ? r.corpus : "all corpora");
		rc = write_report(&r);
	}
	if (rc == 0 && r.md && (fflush(r.md) != 0 || ferror(r.md)))
		rc = err_set("cannot write '%s': %s", strbuf_str(&path), strerror(errno));
	if (rc == 0)
		printf("%s\n", strbuf_str(&path));
done:
	strbuf_release(&path);
	report_release(&r);
	return rc;
}
