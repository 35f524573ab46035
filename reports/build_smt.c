/* build_smt: the document of `coreplan smt` (builders.h). */
#include "builders.h"

#include "../common/err.h"

#include <math.h>
#include <stdio.h>

enum {
	C_FIGURE,
	C_VALUE,
	C_LO,
	C_HI,
	C_NUM,
	C_NUM_N,
	C_NUM_MEDIAN,
	C_NUM_MIN,
	C_NUM_MAX,
	C_DEN,
	C_DEN_N,
	C_DEN_MEDIAN,
	C_DEN_MIN,
	C_DEN_MAX,
	C_NOTE,
	C_NUM_RUNS,
	C_DEN_RUNS,
	NCOLS
};

/* An arm's label, n, median, min and max into the five columns from `first`. */
static void arm_cells(struct doc_table *t, size_t first, const struct smt_arm *arm)
{
	doc_set_text(t, first, arm->label);
	doc_set_int(t, first + 1, (int64_t)arm->s.n);
	if (arm->s.n == 0)
		return;
	doc_set_real(t, first + 2, arm->s.median);
	doc_set_real(t, first + 3, arm->s.min);
	doc_set_real(t, first + 4, arm->s.max);
}

static void figures_table(struct doc_section *s, const struct smt_figures *figs,
			  const char *metric_unit)
{
	const struct doc_col cols[NCOLS] = {
		[C_FIGURE] = DOC_COL_TEXT("figure"),
		[C_VALUE] = DOC_COL_REAL("value", "x", 'f', 3),
		[C_LO] = DOC_COL_REAL("range_lo", "x", 'f', 3),
		[C_HI] = DOC_COL_REAL("range_hi", "x", 'f', 3),
		[C_NUM] = DOC_COL_TEXT("numerator"),
		[C_NUM_N] = DOC_COL_INT("num_n", "runs"),
		[C_NUM_MEDIAN] = DOC_COL_REAL("num_median", metric_unit, 'g', 6),
		[C_NUM_MIN] = DOC_COL_REAL("num_min", metric_unit, 'g', 6),
		[C_NUM_MAX] = DOC_COL_REAL("num_max", metric_unit, 'g', 6),
		[C_DEN] = DOC_COL_TEXT("denominator"),
		[C_DEN_N] = DOC_COL_INT("den_n", "runs"),
		[C_DEN_MEDIAN] = DOC_COL_REAL("den_median", metric_unit, 'g', 6),
		[C_DEN_MIN] = DOC_COL_REAL("den_min", metric_unit, 'g', 6),
		[C_DEN_MAX] = DOC_COL_REAL("den_max", metric_unit, 'g', 6),
		[C_NOTE] = DOC_COL_TEXT("note"),
		[C_NUM_RUNS] = DOC_COL_TEXT("num_runs"),
		[C_DEN_RUNS] = DOC_COL_TEXT("den_runs"),
	};
	struct doc_table *t = doc_table(s, cols, NCOLS);
	doc_table_empty_text(t, "no figures");
	for (size_t i = 0; i < figs->n; i++) {
		const struct smt_figure *f = &figs->figures[i];
		doc_row(t);
		doc_set_text(t, C_FIGURE, f->name);
		/* a figure not measured has only its name and why */
		if (f->measured) {
			doc_set_real(t, C_VALUE, f->value);
			doc_set_real(t, C_LO, f->lo);
			doc_set_real(t, C_HI, f->hi);
			arm_cells(t, C_NUM, &f->num);
			arm_cells(t, C_DEN, &f->den);
			doc_set_text(t, C_NUM_RUNS, f->num.tags);
			doc_set_text(t, C_DEN_RUNS, f->den.tags);
		}
		if (f->note[0])
			doc_set_text(t, C_NOTE, f->note);
	}
}

/* Each figure's value and bounds as facts, named after it ("sharded 8x1": sharded_8x1). */
static void figure_facts(struct doc *d, const struct smt_figures *figs)
{
	for (size_t i = 0; i < figs->n; i++) {
		const struct smt_figure *f = &figs->figures[i];
		char name[48], label[96];
		size_t k;
		for (k = 0; f->name[k] && k + 4 < sizeof(name); k++)
			name[k] = f->name[k] == ' ' ? '_' : f->name[k];
		name[k] = '\0';
		doc_fact_real(d, name, f->name, DOC_QUIET, f->measured ? f->value : NAN, "x", 'f',
			      3);
		snprintf(label, sizeof(label), "%s: low end (range ends' ratio)", f->name);
		snprintf(name + k, sizeof(name) - k, "_lo");
		doc_fact_real(d, name, label, DOC_QUIET, f->measured ? f->lo : NAN, "x", 'f', 3);
		snprintf(label, sizeof(label), "%s: high end (range ends' ratio)", f->name);
		snprintf(name + k, sizeof(name) - k, "_hi");
		doc_fact_real(d, name, label, DOC_QUIET, f->measured ? f->hi : NAN, "x", 'f', 3);
	}
}

int build_smt(const struct smt_request *req, const struct smt_result *res, struct doc **out)
{
	const char *metric = req->metric ? req->metric : "tput";
	const char *threads = req->threads ? req->threads : "threads_per_proc or gomaxprocs";
	const struct field_info *mf = field_find(metric);
	struct doc *d = build_doc(out, "smt", "");
	struct doc_section *s;
	const char *logical, *physical, *per_core, *runs;
	if (!d)
		return ERR_DATA;
	doc_set_title(d, "What a second hardware thread is worth on host %s", res->host);
	doc_fact_text(d, "host", "host", DOC_QUIET, res->host);
	logical = doc_fact_int(d, "logical_cpus", "logical CPUs", DOC_QUIET, (int64_t)res->topo.n,
			       NULL);
	physical = doc_fact_int(d, "physical_cores", "physical cores", DOC_QUIET,
				(int64_t)res->topo.physical_cores, NULL);
	per_core = doc_fact_int(d, "threads_per_core", "threads per core", DOC_QUIET,
				(int64_t)res->topo.threads_per_core, NULL);
	runs = doc_fact_int(d, "runs", "runs", DOC_QUIET, (int64_t)res->sel.n, NULL);
	doc_fact_text(d, "metric", "metric", DOC_QUIET, metric);
	doc_fact_text(d, "threads_field", "threads field", DOC_QUIET, threads);
	doc_fact_text(d, "placement", "placement assumption", DOC_LISTED, SMT_PLACEMENT);
	figure_facts(d, &res->figs);
	s = doc_section(d, "figures", "Figures");
	doc_text(s,
		 "host %s: %s logical CPUs on %s physical cores (%s per core); %s runs; metric %s; "
		 "threads field %s",
		 res->host, logical, physical, per_core, runs, metric, threads);
	figures_table(s, &res->figs, mf ? mf->unit : NULL);
	doc_note(s, "value: a ratio of the arms' medians; range_lo, range_hi: the ratios of the "
		    "arms' range ends (min / max, max / min); definitions: `coreplan smt --help`");
	build_left_out(d, &res->sel);
	return build_done(d, out);
}

const char *const build_smt_views[] = {"figures", NULL};
