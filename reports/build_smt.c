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

/* An arm's columns (its label, n, median, min, max and runs), named pre "n", pre "median", ... */
#define ARM_COLS(P, what, pre, unit)                                                               \
	[P] = DOC_TEXT_OF(what, struct smt_arm, label),                                            \
	[P##_N] = DOC_INT_OF(pre "n", "runs", struct smt_arm, s.n),                                \
	[P##_MEDIAN] = DOC_REAL_OF(pre "median", unit, 'g', 6, struct smt_arm, s.median),          \
	[P##_MIN] = DOC_REAL_OF(pre "min", unit, 'g', 6, struct smt_arm, s.min),                   \
	[P##_MAX] = DOC_REAL_OF(pre "max", unit, 'g', 6, struct smt_arm, s.max),                   \
	[P##_RUNS] = DOC_TEXT_OF(pre "runs", struct smt_arm, tags)

/* An arm's label, n, median, min and max, the five columns from `first`: an empty arm's label and
 * n. */
static void arm_cells(struct doc_table *t, const struct doc_field *cols, size_t first,
		      const struct smt_arm *arm)
{
	doc_set_fields(t, cols, first, arm->s.n ? first + 5 : first + 2, arm);
}

static void figures_table(struct doc_section *s, const struct smt_figures *figs,
			  const char *metric_unit)
{
	const struct doc_field cols[NCOLS] = {
		[C_FIGURE] = DOC_TEXT_OF("figure", struct smt_figure, name),
		[C_VALUE] = DOC_REAL_OF("value", "x", 'f', 3, struct smt_figure, value),
		[C_LO] = DOC_REAL_OF("range_lo", "x", 'f', 3, struct smt_figure, lo),
		[C_HI] = DOC_REAL_OF("range_hi", "x", 'f', 3, struct smt_figure, hi),
		ARM_COLS(C_NUM, "numerator", "num_", metric_unit),
		ARM_COLS(C_DEN, "denominator", "den_", metric_unit),
		[C_NOTE] = DOC_TEXT_SET_OF("note", struct smt_figure, note),
	};
	struct doc_table *t = doc_table_of(s, cols, NCOLS);
	doc_table_empty_text(t, "no figures");
	for (size_t i = 0; i < figs->n; i++) {
		const struct smt_figure *f = &figs->figures[i];
		doc_row(t);
		doc_set_fields(t, cols, C_FIGURE, C_VALUE, f);
		/* a figure not measured has only its name and why */
		if (f->measured) {
			doc_set_fields(t, cols, C_VALUE, C_NUM, f);
			arm_cells(t, cols, C_NUM, &f->num);
			arm_cells(t, cols, C_DEN, &f->den);
			doc_set_fields(t, cols, C_NUM_RUNS, C_NUM_RUNS + 1, &f->num);
			doc_set_fields(t, cols, C_DEN_RUNS, C_DEN_RUNS + 1, &f->den);
		}
		doc_set_fields(t, cols, C_NOTE, C_NOTE + 1, f);
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
