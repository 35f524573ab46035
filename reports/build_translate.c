/* build_translate: the document of `coreplan translate` (builders.h). */
#include "builders.h"

#include "../common/err.h"

#include <math.h>
#include <stdio.h>

enum {
	F_FIGURE,
	F_STATISTIC,
	F_FROM_N,
	F_FROM_VALUE,
	F_FROM_MIN,
	F_FROM_MAX,
	F_TO_N,
	F_TO_VALUE,
	F_TO_MIN,
	F_TO_MAX,
	F_FACTOR,
	F_CI_LO,
	F_CI_HI,
	F_RANGE_LO,
	F_RANGE_HI,
	F_RULE,
	F_IN_WORDS,
	NF
};

static void factors_table(struct doc_section *s, const struct translate_result *res)
{
	static const struct doc_col cols[NF] = {
		[F_FIGURE] = DOC_COL_TEXT("figure"),
		[F_STATISTIC] = DOC_COL_TEXT("statistic"),
		[F_FROM_N] = DOC_COL_INT("from_n", "runs"),
		[F_FROM_VALUE] = DOC_COL_REAL("from_value", NULL, 'g', 6),
		[F_FROM_MIN] = DOC_COL_REAL("from_min", NULL, 'g', 6),
		[F_FROM_MAX] = DOC_COL_REAL("from_max", NULL, 'g', 6),
		[F_TO_N] = DOC_COL_INT("to_n", "runs"),
		[F_TO_VALUE] = DOC_COL_REAL("to_value", NULL, 'g', 6),
		[F_TO_MIN] = DOC_COL_REAL("to_min", NULL, 'g', 6),
		[F_TO_MAX] = DOC_COL_REAL("to_max", NULL, 'g', 6),
		[F_FACTOR] = DOC_COL_REAL("factor", "x", 'f', 4),
		[F_CI_LO] = DOC_COL_REAL("ci_lo", "x", 'f', 4),
		[F_CI_HI] = DOC_COL_REAL("ci_hi", "x", 'f', 4),
		[F_RANGE_LO] = DOC_COL_REAL("range_lo", "x", 'f', 4),
		[F_RANGE_HI] = DOC_COL_REAL("range_hi", "x", 'f', 4),
		[F_RULE] = DOC_COL_TEXT("rule"),
		[F_IN_WORDS] = DOC_COL_TEXT("in_words"),
	};
	struct doc_table *t = doc_table(s, cols, NF);
	for (int i = 0; i < TRANSLATE_NFIGS; i++) {
		const struct translate_figure *x = &res->figs[i];
		bool mean = i == TRANSLATE_RATE_MEAN;
		doc_row(t);
		doc_set_text(t, F_FIGURE, x->name);
		doc_set_text(t, F_STATISTIC, x->statistic);
		doc_set_text(t, F_IN_WORDS, x->words);
		/* not measured: the name and why, no numbers */
		if (!x->measured)
			continue;
		doc_set_int(t, F_FROM_N, (int64_t)x->from.n);
		doc_set_real(t, F_FROM_VALUE, mean ? x->from.mean : x->from.median);
		doc_set_real(t, F_FROM_MIN, x->from.min);
		doc_set_real(t, F_FROM_MAX, x->from.max);
		doc_set_int(t, F_TO_N, (int64_t)x->to.n);
		doc_set_real(t, F_TO_VALUE, mean ? x->to.mean : x->to.median);
		doc_set_real(t, F_TO_MIN, x->to.min);
		doc_set_real(t, F_TO_MAX, x->to.max);
		doc_set_real(t, F_FACTOR, x->factor);
		if (x->has_ci) {
			doc_set_real(t, F_CI_LO, x->ci_lo);
			doc_set_real(t, F_CI_HI, x->ci_hi);
		}
		doc_set_real(t, F_RANGE_LO, x->range_lo);
		doc_set_real(t, F_RANGE_HI, x->range_hi);
		doc_set_text(t, F_RULE, x->rule);
	}
}

enum { A_NAME, A_VALUE, A_UNIT, A_KIND, A_FACTOR, A_MID, A_LO, A_HI, A_STATUS, A_HOW, NA };

static void applied_table(struct doc_section *s, const struct translate_result *res,
			  const char *how)
{
	static const struct doc_col cols[NA] = {
		[A_NAME] = DOC_COL_TEXT("name"),
		[A_VALUE] = DOC_COL_REAL("value", NULL, 'g', 10),
		[A_UNIT] = DOC_COL_TEXT("unit"),
		[A_KIND] = DOC_COL_TEXT("kind"),
		[A_FACTOR] = DOC_COL_REAL("factor", "x", 'f', 4),
		[A_MID] = DOC_COL_REAL("translated", NULL, 'g', 6),
		[A_LO] = DOC_COL_REAL("translated_lo", NULL, 'g', 6),
		[A_HI] = DOC_COL_REAL("translated_hi", NULL, 'g', 6),
		[A_STATUS] = DOC_COL_TEXT("status"),
		[A_HOW] = DOC_COL_TEXT("how"),
	};
	struct doc_table *t = doc_table(s, cols, NA);
	doc_table_empty_text(t, "nothing to translate (--apply FILE)");
	for (size_t i = 0; i < res->napplied; i++) {
		const struct translate_applied *a = &res->applied[i];
		doc_row(t);
		if (a->name)
			doc_set_text(t, A_NAME, a->name);
		doc_set_real(t, A_VALUE, a->value);
		doc_set_text(t, A_UNIT, a->unit);
		doc_set_text(t, A_KIND, translate_kind_name(a->kind));
		doc_set_real(t, A_FACTOR, a->factor);
		doc_set_real(t, A_MID, a->translated);
		doc_set_real(t, A_LO, a->lo);
		doc_set_real(t, A_HI, a->hi);
		doc_set_text(t, A_STATUS, "translated");
		doc_set_text(t, A_HOW, how);
	}
}

/* Each figure's factor and interval: rate_median_factor, rate_median_ci_lo, ... */
static void figure_facts(struct doc *d, const struct translate_result *res)
{
	for (int i = 0; i < TRANSLATE_NFIGS; i++) {
		const struct translate_figure *x = &res->figs[i];
		char name[80], label[96];
		bool ci = x->measured && x->has_ci;
		snprintf(name, sizeof(name), "%s_%s_factor", x->name, x->statistic);
		snprintf(label, sizeof(label), "%s factor (%s)", x->name, x->statistic);
		doc_fact_real(d, name, label, DOC_QUIET, x->measured ? x->factor : NAN, "x", 'f',
			      4);
		snprintf(name, sizeof(name), "%s_%s_ci_lo", x->name, x->statistic);
		snprintf(label, sizeof(label), "%s factor (%s): bootstrap 95%% interval, low",
			 x->name, x->statistic);
		doc_fact_real(d, name, label, DOC_QUIET, ci ? x->ci_lo : NAN, "x", 'f', 4);
		snprintf(name, sizeof(name), "%s_%s_ci_hi", x->name, x->statistic);
		snprintf(label, sizeof(label), "%s factor (%s): bootstrap 95%% interval, high",
			 x->name, x->statistic);
		doc_fact_real(d, name, label, DOC_QUIET, ci ? x->ci_hi : NAN, "x", 'f', 4);
	}
}

/* The arms: names, conditions and run counts as facts, and the line that shows them. */
static void arm_facts(struct doc *d, struct doc_section *s, const struct translate_request *req,
		      const struct translate_result *res, const char *metric)
{
	const char *nfrom, *nto;
	doc_fact_text(d, "from", "from", DOC_QUIET, res->from.name);
	doc_fact_text(d, "to", "to", DOC_QUIET, res->to.name);
	doc_fact_text(d, "from_where", "from: conditions", DOC_QUIET, req->from);
	doc_fact_text(d, "to_where", "to: conditions", DOC_QUIET, req->to);
	nfrom = doc_fact_int(d, "from_runs", "from: runs", DOC_QUIET, (int64_t)res->from.sel.n,
			     "runs");
	nto = doc_fact_int(d, "to_runs", "to: runs", DOC_QUIET, (int64_t)res->to.sel.n, "runs");
	doc_fact_text(d, "metric", "metric", DOC_QUIET, metric);
	doc_text(s, "from: %s (%s runs, %s); to: %s (%s runs, %s); metric %s", res->from.name,
		 nfrom, req->from, res->to.name, nto, req->to, metric);
}

int build_translate(const struct translate_request *req, const struct translate_result *res,
		    struct doc **out)
{
	const char *metric = req->metric ? req->metric : "tput";
	struct doc *d = doc_new("translate", "");
	struct doc_section *s;
	const char *seed;
	char how[512];
	*out = NULL;
	if (!d)
		return err_set("out of memory");
	doc_set_title(d, "Translating figures from %s to %s", res->from.name, res->to.name);
	seed = doc_fact_int(d, "seed", "bootstrap seed", DOC_LISTED, (int64_t)req->seed, NULL);
	doc_fact_int(d, "resamples", "bootstrap resamples", DOC_LISTED, TRANSLATE_RESAMPLES, NULL);
	figure_facts(d, res);
	doc_fact_real(d, "mixed_lo", "mixed statistics: low end", DOC_QUIET,
		      res->has_mixed ? res->mixed_lo : NAN, "x", 'f', 4);
	doc_fact_real(d, "mixed_hi", "mixed statistics: high end", DOC_QUIET,
		      res->has_mixed ? res->mixed_hi : NAN, "x", 'f', 4);

	s = doc_section(d, "factors", "Factors");
	arm_facts(d, s, req, res, metric);
	factors_table(s, res);
	if (res->has_mixed) {
		static const char mean_median[] = "mean(from) / median(to)";
		static const char median_mean[] = "median(from) / mean(to)";
		bool first = res->mixed_lo_mean_first;
		doc_note(s,
			 "statistics: `median` rows divide medians, `mean` rows means; a factor "
			 "quoted elsewhere between %s (%s) and %s (%s) mixed the two",
			 doc_fact_shown(d, "mixed_lo"), first ? mean_median : median_mean,
			 doc_fact_shown(d, "mixed_hi"), first ? median_mean : mean_median);
		doc_note(s, "every translated figure is an estimate, not a measurement: "
			    "`translate --apply` labels each one");
	}

	s = doc_section(d, "applied", "Translated figures");
	snprintf(how, sizeof(how),
		 "translated from %s to %s: median factor, bootstrap 95%% interval (seed %s)",
		 res->from.name, res->to.name, seed);
	applied_table(s, res, how);
	build_left_out(d, &res->from.sel);
	build_left_out(d, &res->to.sel);
	if (doc_error(d)) {
		doc_free(d);
		return ERR_DATA;
	}
	*out = d;
	return 0;
}
