/*
 * build_benchstat: the document of `compare --view benchstat` on Go runs
 * (reports/builders.h): benchstat's tables as rows, one p per row (the U
 * test benchstat runs, analysis/benchstat.h), and benchstat's own text
 * (reports/benchstat_text.c) for the terminal.
 */
#include "builders.h"

#include "../analysis/benchstat.h"
#include "../common/err.h"
#include "../common/strbuf.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum {
	C_CONFIG,
	C_UNIT,
	C_NAME,
	C_KIND,
	C_A,
	C_B,
	C_A_MEDIAN,
	C_A_CI,
	C_A_N,
	C_B_MEDIAN,
	C_B_CI,
	C_B_N,
	C_DELTA,
	C_DELTA_PCT,
	C_P,
	C_TEST,
	C_NOTES,
	NCOLS
};

static void config_text(const struct benchstat_result *r, const struct benchstat_table *t,
			struct strbuf *sb)
{
	for (size_t k = 0; k < r->nkeys; k++)
		if (*r->configs[t->config][k])
			strbuf_addf(sb, "%s%s: %s", sb->len ? "; " : "", r->keys[k],
				    r->configs[t->config][k]);
}

static const char *test_name(const struct benchstat_trow *row)
{
	if (!row->compared)
		return "";
	if (row->all_equal)
		return "none: all samples are equal";
	if (!row->test.exact)
		return "normal";
	return row->test.ties ? "exact given ties" : "exact";
}

/* The footnotes of a row, as words (the text layout numbers them). */
static void row_notes(const struct benchstat_result *r, const struct benchstat_trow *row,
		      struct strbuf *sb)
{
	for (int c = 0; c < 2; c++) {
		if (!row->has[c])
			continue;
		if (row->c[c].ci_infinite)
			strbuf_addf(sb,
				    "%s%s: need >= %zu samples for a confidence interval at level "
				    "%g",
				    sb->len ? "; " : "", r->label[c],
				    benchstat_ci_samples(r->confidence), r->confidence);
		if (row->c[c].files_vary)
			strbuf_addf(sb, "%s%s: values from more than one file", sb->len ? "; " : "",
				    r->label[c]);
	}
	if (row->all_equal)
		strbuf_addf(sb, "%sall samples are equal", sb->len ? "; " : "");
	if (row->too_few)
		strbuf_addf(sb, "%sneed >= %zu samples to detect a difference at alpha level %g",
			    sb->len ? "; " : "", benchstat_utest_samples(r->alpha), r->alpha);
}

static void benchmark_row(struct doc_table *t, const struct benchstat_result *r,
			  const struct benchstat_table *tab, const struct benchstat_trow *row,
			  const char *config)
{
	struct strbuf notes = STRBUF_INIT;
	char buf[96];
	doc_row(t);
	doc_set_text(t, C_CONFIG, config);
	doc_set_text(t, C_UNIT, tab->unit.name);
	doc_set_text(t, C_NAME, r->rows[row->row]);
	doc_set_text(t, C_KIND, "benchmark");
	for (int c = 0; c < 2; c++) {
		const struct benchstat_cell *cell = &row->c[c];
		if (!row->has[c])
			continue;
		benchstat_shown(tab, row, c, buf, sizeof(buf));
		doc_set_text(t, c ? C_B : C_A, buf);
		doc_set_real(t, c ? C_B_MEDIAN : C_A_MEDIAN, cell->s.median);
		if (isfinite(cell->s.ci_pct))
			doc_set_real(t, c ? C_B_CI : C_A_CI, cell->s.ci_pct);
		doc_set_int(t, c ? C_B_N : C_A_N, (int64_t)cell->n);
	}
	if (row->compared) {
		doc_set_text(t, C_DELTA, row->delta);
		if (isfinite(row->delta_pct))
			doc_set_real(t, C_DELTA_PCT, row->delta_pct);
		doc_set_real(t, C_P, row->test.p);
	}
	doc_set_text(t, C_TEST, test_name(row));
	row_notes(r, row, &notes);
	doc_set_text(t, C_NOTES, strbuf_str(&notes));
	strbuf_release(&notes);
}

static void geomean_row(struct doc_table *t, const struct benchstat_table *tab, const char *config)
{
	struct strbuf notes = STRBUF_INIT;
	char buf[64];
	doc_row(t);
	doc_set_text(t, C_CONFIG, config);
	doc_set_text(t, C_UNIT, tab->unit.name);
	doc_set_text(t, C_NAME, "geomean");
	doc_set_text(t, C_KIND, "geomean");
	for (int c = 0; c < 2; c++)
		if (tab->gm.has[c]) {
			benchstat_geomean_shown(tab, c, buf, sizeof(buf));
			doc_set_text(t, c ? C_B : C_A, buf);
			doc_set_real(t, c ? C_B_MEDIAN : C_A_MEDIAN, tab->gm.value[c]);
		}
	if (tab->gm.has_ratio) {
		snprintf(buf, sizeof(buf), "%+.2f%%", (tab->gm.ratio - 1) * 100);
		doc_set_text(t, C_DELTA, buf);
		doc_set_real(t, C_DELTA_PCT, (tab->gm.ratio - 1) * 100);
	} else {
		doc_set_text(t, C_DELTA, "?");
	}
	if (tab->gm.nonpositive[0] || tab->gm.nonpositive[1])
		strbuf_adds(&notes, "summaries must be >0 to compute geomean");
	if (tab->gm.set_differs)
		strbuf_addf(&notes,
			    "%sbenchmark set differs from baseline; geomeans may not be "
			    "comparable",
			    notes.len ? "; " : "");
	doc_set_text(t, C_NOTES, strbuf_str(&notes));
	strbuf_release(&notes);
}

int build_benchstat(const struct benchstat_request *req, const struct benchstat_result *res,
		    struct doc **out)
{
	static const struct doc_col cols[NCOLS] = {
		[C_CONFIG] = DOC_COL_TEXT("config"),
		[C_UNIT] = DOC_COL_TEXT("unit"),
		[C_NAME] = DOC_COL_TEXT("name"),
		[C_KIND] = DOC_COL_TEXT("kind"),
		[C_A] = DOC_COL_TEXT("a"),
		[C_B] = DOC_COL_TEXT("b"),
		[C_A_MEDIAN] = DOC_COL_REAL("a_median", NULL, 'g', 6),
		[C_A_CI] = DOC_COL_REAL("a_ci_pct", "%", 'f', 0),
		[C_A_N] = DOC_COL_INT("a_n", "runs"),
		[C_B_MEDIAN] = DOC_COL_REAL("b_median", NULL, 'g', 6),
		[C_B_CI] = DOC_COL_REAL("b_ci_pct", "%", 'f', 0),
		[C_B_N] = DOC_COL_INT("b_n", "runs"),
		[C_DELTA] = DOC_COL_TEXT("delta"),
		[C_DELTA_PCT] = DOC_COL_REAL("delta_pct", "%", 'f', 2),
		[C_P] = DOC_COL_REAL("p", NULL, 'f', 3),
		[C_TEST] = DOC_COL_TEXT("test"),
		[C_NOTES] = DOC_COL_TEXT("notes"),
	};
	struct doc *d = build_doc(out, "compare", "benchstat");
	struct doc_section *s;
	struct doc_table *t;
	struct strbuf text = STRBUF_INIT;
	size_t rows = 0;
	if (!d)
		return ERR_DATA;
	doc_set_title(d, "benchstat: %s vs %s", res->label[0], res->label[1]);
	doc_fact_text(d, "a", "arm a (the base)", DOC_LISTED, req->arm[0]);
	doc_fact_text(d, "b", "arm b", DOC_LISTED, req->arm[1]);
	doc_fact_text(d, "label_a", "column a", DOC_QUIET, res->label[0]);
	doc_fact_text(d, "label_b", "column b", DOC_QUIET, res->label[1]);
	doc_fact_int(d, "runs_a", "runs of a", DOC_LISTED, (int64_t)res->runs[0], "runs");
	doc_fact_int(d, "runs_b", "runs of b", DOC_LISTED, (int64_t)res->runs[1], "runs");
	doc_fact_text(d, "metric", "units", DOC_LISTED, req->metric ? req->metric : "every unit");
	for (size_t i = 0; i < res->ntables; i++)
		rows += res->tables[i].nrows;
	doc_fact_int(d, "tables", "tables (configuration x unit)", DOC_LISTED,
		     (int64_t)res->ntables, NULL);
	doc_fact_int(d, "rows", "benchmark rows", DOC_QUIET, (int64_t)rows, NULL);
	doc_fact_real(d, "confidence_pct", "interval of the median", DOC_QUIET,
		      res->confidence * 100, "%", 'g', 3);
	doc_fact_real(d, "alpha", "alpha", DOC_QUIET, res->alpha, NULL, 'g', 3);
	doc_fact_text(d, "method", "method", DOC_LISTED,
		      "golang.org/x/perf/cmd/benchstat's: per benchmark and arm the median with "
		      "its distribution-free 95% interval (order statistics); the two-sided "
		      "Mann-Whitney U test, exact given ties up to 25 runs an arm (50 without "
		      "ties), else normal with tie and continuity corrections; the change shown "
		      "when p <= alpha, else ~; the geomean row is the geometric mean of the "
		      "medians and of the rows' ratios");

	s = doc_section(d, "benchstat", "Benchstat");
	doc_text(s,
		 "benchstat's own layout: one table per configuration and unit (units tidied: "
		 "ns/op as sec/op, MB/s as B/s), rows in the order of the input, each benchmark's "
		 "full name with its -N (GOMAXPROCS). json, tsv and csv carry the same rows typed: "
		 "a_median and b_median in the table's unit, a and b benchstat's own cell text.");
	t = doc_table(s, cols, NCOLS);
	doc_table_quiet(t); /* the pages show benchstat's layout instead (below) */
	for (size_t i = 0; i < res->ntables; i++) {
		const struct benchstat_table *tab = &res->tables[i];
		struct strbuf config = STRBUF_INIT;
		config_text(res, tab, &config);
		for (size_t k = 0; k < tab->nrows; k++)
			benchmark_row(t, res, tab, &tab->rows[k], strbuf_str(&config));
		if (tab->nrows > 1)
			geomean_row(t, tab, strbuf_str(&config));
		strbuf_release(&config);
	}
	/* benchstat's own layout, for the pages and for comparing with benchstat's output */
	if (benchstat_text(res, &text) == 0) {
		doc_preformatted(s, strbuf_str(&text));
		doc_fact_text(d, "benchstat_text", "benchstat's text", DOC_QUIET,
			      strbuf_str(&text));
	}
	doc_note(s, "`coreplan compare --help` and docs/importing.md, \"Importing tool outputs\", "
		    "say how the view reads Go runs");
	strbuf_release(&text);
	build_left_out_list(d, res->left_out, res->nleft_out);
	return build_done(d, out);
}
