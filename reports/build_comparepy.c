/*
 * build_comparepy: the document of `compare --view comparepy` on Google
 * Benchmark runs (reports/builders.h), and compare.py's own text layout
 * (tools/gbench/report.py, print_difference_report without colour): the
 * header line, a rule, one line per paired run (Time and CPU changes as
 * %+16.4f, the four times as %14.0f in the benchmark's time unit) and a
 * NAME_pvalue line per benchmark with its U test.
 */
#include "builders.h"

#include "../analysis/comparepy.h"
#include "../common/err.h"
#include "../common/strbuf.h"

#include <stdio.h>
#include <string.h>

static size_t code_points(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

static void padded(struct strbuf *out, const char *s, size_t width)
{
	strbuf_adds(out, s);
	for (size_t n = code_points(s); n < width; n++)
		strbuf_add(out, " ", 1);
}

int comparepy_text(const struct comparepy_result *r, struct strbuf *out)
{
	static const char columns[] =
		"Time             CPU      Time Old      Time New       CPU Old       CPU New";
	size_t width = 1, header;
	for (size_t i = 0; i < r->nbenches; i++)
		if (code_points(r->benches[i].name) > width)
			width = code_points(r->benches[i].name);
	if (width < 9)
		width = 9; /* len('Benchmark') */
	width += 7;        /* len('_pvalue') */
	strbuf_addf(out, "Comparing %s to %s\n", r->label[0], r->label[1]);
	padded(out, "Benchmark", 12 + width);
	strbuf_adds(out, columns);
	header = 12 + width + strlen(columns);
	strbuf_add(out, "\n", 1);
	for (size_t i = 0; i < header; i++)
		strbuf_add(out, "-", 1);
	strbuf_add(out, "\n", 1);
	for (size_t i = 0; i < r->nbenches; i++) {
		const struct comparepy_bench *b = &r->benches[i];
		char name[600];
		for (size_t k = 0; k < b->nm; k++) {
			const struct comparepy_measure *m = &b->m[k];
			padded(out, b->name, width);
			strbuf_addf(out, "%+16.4f%+16.4f%14.0f%14.0f%14.0f%14.0f\n", m->time_change,
				    m->cpu_change, m->real[0], m->real[1], m->cpu[0], m->cpu[1]);
		}
		if (!b->utest)
			continue;
		snprintf(name, sizeof(name), "%s_pvalue", b->name);
		padded(out, name, width);
		strbuf_addf(out, "%16.4f%16.4f      U Test, Repetitions: %zu vs %zu", b->p_time,
			    b->p_cpu, b->n[0], b->n[1]);
		if (!b->optimal)
			strbuf_addf(out,
				    ". WARNING: Results unreliable! %d+ repetitions recommended.",
				    COMPAREPY_UTEST_OPTIMAL);
		strbuf_add(out, "\n", 1);
	}
	return out->buf ? 0 : -1;
}

enum {
	C_NAME,
	C_UNIT,
	C_ROW,
	C_TIME,
	C_CPU,
	C_TIME_OLD,
	C_TIME_NEW,
	C_CPU_OLD,
	C_CPU_NEW,
	C_TIME_P,
	C_CPU_P,
	C_N_A,
	C_N_B,
	C_TEST,
	C_NOTE,
	NCOLS
};

int build_comparepy(const struct comparepy_request *req, const struct comparepy_result *res,
		    struct doc **out)
{
	static const struct doc_col cols[NCOLS] = {
		[C_NAME] = DOC_COL_TEXT("name"),
		[C_UNIT] = DOC_COL_TEXT("time_unit"),
		[C_ROW] = DOC_COL_TEXT("row"),
		[C_TIME] = DOC_COL_REAL("time", NULL, 'f', 4),
		[C_CPU] = DOC_COL_REAL("cpu", NULL, 'f', 4),
		[C_TIME_OLD] = DOC_COL_REAL("time_old", NULL, 'f', 0),
		[C_TIME_NEW] = DOC_COL_REAL("time_new", NULL, 'f', 0),
		[C_CPU_OLD] = DOC_COL_REAL("cpu_old", NULL, 'f', 0),
		[C_CPU_NEW] = DOC_COL_REAL("cpu_new", NULL, 'f', 0),
		[C_TIME_P] = DOC_COL_REAL("time_p", NULL, 'f', 4),
		[C_CPU_P] = DOC_COL_REAL("cpu_p", NULL, 'f', 4),
		[C_N_A] = DOC_COL_INT("repetitions_a", "runs"),
		[C_N_B] = DOC_COL_INT("repetitions_b", "runs"),
		[C_TEST] = DOC_COL_TEXT("test"),
		[C_NOTE] = DOC_COL_TEXT("note"),
	};
	struct doc *d = build_doc(out, "compare", "compare.py");
	struct doc_section *s;
	struct doc_table *t;
	struct strbuf text = STRBUF_INIT;
	if (!d)
		return ERR_DATA;
	doc_set_title(d, "compare.py: %s vs %s", res->label[0], res->label[1]);
	doc_fact_text(d, "a", "arm a (the baseline)", DOC_LISTED, req->arm[0]);
	doc_fact_text(d, "b", "arm b (the contender)", DOC_LISTED, req->arm[1]);
	doc_fact_int(d, "runs_a", "runs of a", DOC_LISTED, (int64_t)res->runs[0], "runs");
	doc_fact_int(d, "runs_b", "runs of b", DOC_LISTED, (int64_t)res->runs[1], "runs");
	doc_fact_int(d, "benchmarks", "benchmarks in both", DOC_LISTED, (int64_t)res->nbenches,
		     NULL);
	doc_fact_text(d, "method", "method", DOC_LISTED,
		      "Google Benchmark's tools/compare.py: runs paired by name and place, time "
		      "and cpu = (new - old) / |old|; per benchmark with 2+ runs an arm the "
		      "two-sided Mann-Whitney U test of all its runs (SciPy's method: exact "
		      "without ties when an arm has at most 8 runs, else normal with tie and "
		      "continuity corrections); under 9 runs flagged unreliable");
	s = doc_section(d, "comparepy", "compare.py");
	doc_text(s, "compare.py's own layout; json, tsv and csv carry its rows typed: one per "
		    "paired run (row = its place, from 1), then the benchmark's U test (row "
		    "pvalue); times in the benchmark's time_unit.");
	t = doc_table(s, cols, NCOLS);
	doc_table_quiet(t); /* the pages show compare.py's layout instead (below) */
	for (size_t i = 0; i < res->nbenches; i++) {
		const struct comparepy_bench *b = &res->benches[i];
		char row[24];
		for (size_t k = 0; k < b->nm; k++) {
			doc_row(t);
			doc_set_text(t, C_NAME, b->name);
			doc_set_text(t, C_UNIT, b->unit);
			snprintf(row, sizeof(row), "%zu", k + 1);
			doc_set_text(t, C_ROW, row);
			doc_set_real(t, C_TIME, b->m[k].time_change);
			doc_set_real(t, C_CPU, b->m[k].cpu_change);
			doc_set_real(t, C_TIME_OLD, b->m[k].real[0]);
			doc_set_real(t, C_TIME_NEW, b->m[k].real[1]);
			doc_set_real(t, C_CPU_OLD, b->m[k].cpu[0]);
			doc_set_real(t, C_CPU_NEW, b->m[k].cpu[1]);
		}
		if (!b->utest)
			continue;
		doc_row(t);
		doc_set_text(t, C_NAME, b->name);
		doc_set_text(t, C_UNIT, b->unit);
		doc_set_text(t, C_ROW, "pvalue");
		doc_set_real(t, C_TIME_P, b->p_time);
		doc_set_real(t, C_CPU_P, b->p_cpu);
		doc_set_int(t, C_N_A, (int64_t)b->n[0]);
		doc_set_int(t, C_N_B, (int64_t)b->n[1]);
		doc_set_text(t, C_TEST,
			     b->exact_time == b->exact_cpu ? (b->exact_time ? "exact" : "normal")
			     : b->exact_time               ? "time exact, cpu normal"
							   : "time normal, cpu exact");
		doc_set_text(t, C_NOTE,
			     b->optimal ? ""
					: "results unreliable: 9+ repetitions "
					  "recommended");
	}
	if (comparepy_text(res, &text) == 0) {
		doc_preformatted(s, strbuf_str(&text));
		doc_fact_text(d, "comparepy_text", "compare.py's text", DOC_QUIET,
			      strbuf_str(&text));
	}
	strbuf_release(&text);
	build_left_out_list(d, res->left_out, res->nleft_out);
	return build_done(d, out);
}
