/* cmd_size: `coreplan size`, which instance meets a target, in physical cores. */
#include "cmd.h"
#include "common.h"
#include "opt.h"

#include "../analysis/fit.h"
#include "../analysis/select.h"
#include "../analysis/size.h"
#include "../analysis/smt.h"
#include "../analysis/stats.h"
#include "../common/err.h"
#include "../common/num.h"
#include "../common/strbuf.h"
#include "../importers/catalog.h"
#include "../reports/plot.h"
#include "../reports/table_out.h"
#include "../schema/db.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef COREPLAN_CATALOG_DIR
#define COREPLAN_CATALOG_DIR "fixtures/catalogs"
#endif

enum {
	OPT_TARGET = COMMON_COUNT,
	OPT_SESSIONS,
	OPT_CATALOG,
	OPT_HEADROOM,
	OPT_SERIES,
	OPT_BASE_FROM,
	OPT_BASE_RATE,
	OPT_BASE_CPU,
	OPT_SCALING_FROM,
	OPT_SCALING_BY,
	OPT_PER_DOUBLING,
	OPT_SMT_FROM,
	OPT_SMT_FACTOR,
	OPT_MEMORY_FROM,
	OPT_MEM_PER_SESSION,
	OPT_MEM_FIXED,
	OPT_TRANSLATE,
	OPT_MEASURED_WHERE,
	OPT_PLOT,
};

static const struct opt_spec specs[] = {
	COMMON_SPECS,
	[OPT_TARGET] = {"target", 0, "RATE", "the throughput to meet (required)", false},
	[OPT_SESSIONS] = {"sessions", 0, "N", "concurrent sessions, for memory and measured runs",
			  false},
	[OPT_CATALOG] = {"catalog", 0, "FILE",
			 "instance catalog; repeatable (default: the shipped GCE and AWS ones)",
			 true},
	[OPT_HEADROOM] = {"headroom", 0, "PCT", "capacity kept free, in % (default 0)", false},
	[OPT_SERIES] = {"series", 0, "S1[,S2]", "only these series (e2,n2,m7i,...)", false},
	[OPT_BASE_FROM] = {"base-from", 0, "WHERE",
			   "single-thread runs on a dedicated core: their median is the base rate",
			   false},
	[OPT_BASE_RATE] = {"base-rate", 0, "R", "the base rate per physical core, as a number",
			   false},
	[OPT_BASE_CPU] = {"base-cpu", 0, "FAMILY", "the CPU family --base-rate was measured on",
			  false},
	[OPT_SCALING_FROM] = {"scaling-from", 0, "WHERE",
			      "a sweep over physical cores: a power law fitted to it", false},
	[OPT_SCALING_BY] = {"scaling-by", 0, "FIELD",
			    "the level field of --scaling-from (default gomaxprocs)", false},
	[OPT_PER_DOUBLING] = {"per-doubling", 0, "F",
			      "growth per doubling of physical cores, as a number", false},
	[OPT_SMT_FROM] = {"smt-from", 0, "WHERE", "runs for coreplan smt: its smt_factor", false},
	[OPT_SMT_FACTOR] = {"smt-factor", 0, "F", "what a core's second thread adds (e.g. 1.27)",
			    false},
	[OPT_MEMORY_FROM] = {"memory-from", 0, "WHERE",
			     "runs for an OLS of load_rss_kb on sessions: slope and intercept",
			     false},
	[OPT_MEM_PER_SESSION] = {"mem-per-session", 0, "KB", "memory per session, kB", false},
	[OPT_MEM_FIXED] = {"mem-fixed", 0, "KB", "fixed memory, kB", false},
	[OPT_TRANSLATE] = {"translate", 0, "FAMILY=F",
			   "rate on FAMILY = base rate / F (coreplan translate); repeatable", true},
	[OPT_MEASURED_WHERE] = {"measured-where", 0, "WHERE",
				"extra conditions for the measured runs shown beside predictions",
				false},
	[OPT_PLOT] = {"plot", 0, "FILE",
		      "also draw predicted capacity per instance against the target (.svg/.png)",
		      false},
	{NULL, 0, NULL, NULL, false},
};

static const char details[] =
	"For each catalog instance, P = its sustained physical cores (vcpus x sustained\n"
	"fraction / threads per core) and T = its threads per core:\n"
	"  predicted  base x scale(P) x smt x (1 - headroom), where scale(P) =\n"
	"             per_doubling ^ log2(P) for P >= 1 and P below one core, and\n"
	"             smt = the SMT factor when T = 2, 1 when T = 1\n"
	"  bounds     the base runs' range, per_doubling +- 1.96 SE, the SMT bounds\n"
	"  memory     fixed + per_session x sessions, against the instance's memory\n"
	"  verdict    meets | short | memory-bound | unmeasured CPU (the instance's CPU\n"
	"             family differs from the base's and no --translate factor is\n"
	"             given); shortfall = target / predicted\n"
	"  flags      extrapolated (P beyond the largest measured core count),\n"
	"             translated, shared-core (sized on the sustained share; the burst\n"
	"             figure is shown apart, never as the answer), cheapest (the\n"
	"             cheapest instance that meets the target)\n"
	"  measured   where runs name the instance (their `instance` field, at\n"
	"             --sessions when given): their median beside the prediction\n"
	"Inputs come from the database (--base-from, --scaling-from, --smt-from,\n"
	"--memory-from: each a WHERE like --where, space-separated) or as numbers.\n";

struct args {
	struct common_args common;
	double target;
	bool has_sessions;
	double sessions;
	double headroom;
	char **catalogs;
	size_t ncatalogs;
	char **series;
	size_t nseries;
	const char *base_from, *base_cpu, *scaling_from, *scaling_by, *smt_from, *memory_from;
	const char *measured_where;
	const char *plot;
	bool has_base_rate, has_per_doubling, has_smt, has_mem_per, has_mem_fixed;
	double base_rate, per_doubling, smt_factor, mem_per, mem_fixed;
	struct size_translation *translations;
	size_t ntranslations;
};

static int number(const char *option, const char *value, double *out, bool *flag)
{
	if (num_parse_real(value, out) || !(*out >= 0))
		return err_usage("--%s needs a number, got '%s'", option, value);
	if (flag)
		*flag = true;
	return 0;
}

static int add_translation(struct args *a, const char *value)
{
	const char *eq = strchr(value, '=');
	struct size_translation *grown;
	double factor;
	if (!eq || eq == value || (size_t)(eq - value) >= sizeof(grown->family) ||
	    num_parse_real(eq + 1, &factor) || !(factor > 0))
		return err_usage("--translate needs FAMILY=FACTOR, got '%s'", value);
	grown = realloc(a->translations, (a->ntranslations + 1) * sizeof(*grown));
	if (!grown)
		return err_set("out of memory");
	a->translations = grown;
	memset(&grown[a->ntranslations], 0, sizeof(*grown));
	memcpy(grown[a->ntranslations].family, value, (size_t)(eq - value));
	grown[a->ntranslations].factor = factor;
	a->ntranslations++;
	return 0;
}

static int apply_option(struct args *a, int which, const char *value)
{
	const char *name = specs[which].name;
	switch (which) {
	case OPT_TARGET:
		return number(name, value, &a->target, NULL);
	case OPT_SESSIONS:
		return number(name, value, &a->sessions, &a->has_sessions);
	case OPT_CATALOG:
		return common_split_list(name, value, &a->catalogs, &a->ncatalogs);
	case OPT_HEADROOM:
		if (number(name, value, &a->headroom, NULL) || a->headroom >= 100)
			return err_usage("--headroom needs a percentage below 100, got '%s'", value);
		return 0;
	case OPT_SERIES:
		return common_split_list(name, value, &a->series, &a->nseries);
	case OPT_BASE_FROM:
		a->base_from = value;
		return 0;
	case OPT_BASE_RATE:
		return number(name, value, &a->base_rate, &a->has_base_rate);
	case OPT_BASE_CPU:
		a->base_cpu = value;
		return 0;
	case OPT_SCALING_FROM:
		a->scaling_from = value;
		return 0;
	case OPT_SCALING_BY:
		a->scaling_by = value;
		return 0;
	case OPT_PER_DOUBLING:
		return number(name, value, &a->per_doubling, &a->has_per_doubling);
	case OPT_SMT_FROM:
		a->smt_from = value;
		return 0;
	case OPT_SMT_FACTOR:
		return number(name, value, &a->smt_factor, &a->has_smt);
	case OPT_MEMORY_FROM:
		a->memory_from = value;
		return 0;
	case OPT_MEM_PER_SESSION:
		return number(name, value, &a->mem_per, &a->has_mem_per);
	case OPT_MEM_FIXED:
		return number(name, value, &a->mem_fixed, &a->has_mem_fixed);
	case OPT_TRANSLATE:
		return add_translation(a, value);
	case OPT_MEASURED_WHERE:
		a->measured_where = value;
		return 0;
	case OPT_PLOT:
		a->plot = value;
		return 0;
	}
	return 0;
}

static int parse_args(int argc, char **argv, struct args *a)
{
	static const struct opt_cmd cmd = {"size", NULL, details, specs};
	struct opt_parser p;
	const char *value;
	int which;
	int rc = opt_parser_init(&p, &cmd, argc, argv);
	while (rc == 0 && (rc = opt_next(&p, &which, &value)) == OPT_FOUND)
		rc = which < COMMON_COUNT ? common_opt(&a->common, which, value)
					  : apply_option(a, which, value);
	if (rc == OPT_DONE && p.noperands > 0)
		rc = err_usage("unexpected argument '%s'", p.operands[0]);
	if (rc == OPT_DONE && !(a->target > 0))
		rc = err_usage("--target RATE is required");
	if (rc == OPT_DONE && a->base_from && a->has_base_rate)
		rc = err_usage("give --base-from or --base-rate, not both");
	if (rc == OPT_DONE && a->has_base_rate && !a->base_cpu)
		rc = err_usage("--base-rate needs --base-cpu FAMILY (the CPU it was measured on)");
	opt_parser_release(&p);
	return rc;
}

/* The runs an input WHERE selects (non-excluded, within --corpus). */
static int select_where(sqlite3 *db, const struct args *a, const char *where, const char *by,
			const char *metric, const char *const *extra, struct selection *sel)
{
	struct run_filter f;
	int rc = common_arm_filter(&a->common, where, &f);
	if (rc == 0) {
		struct select_spec spec = {.filter = &f, .by = by, .metric = metric, .extra = extra};
		rc = select_runs(db, &spec, sel);
	}
	run_filter_release(&f);
	if (rc == 0 && sel->n == 0)
		rc = err_set("no runs for '%s'", where);
	return rc;
}

static int base_from_db(sqlite3 *db, const struct args *a, struct size_inputs *in)
{
	static const char *const extra[] = {"cpu_family", NULL};
	struct selection sel = {0};
	struct summary s;
	double *v = NULL;
	int rc = select_where(db, a, a->base_from, NULL, a->common.metric, extra, &sel);
	const char *family = rc == 0 ? sel.runs[0].extra[0] : NULL;
	for (size_t i = 0; rc == 0 && i < sel.n; i++)
		if (!sel.runs[i].extra[0] || !family || strcmp(sel.runs[i].extra[0], family))
			rc = err_set("the base runs must name one cpu_family (run '%s' has '%s')",
				     sel.runs[i].tag,
				     sel.runs[i].extra[0] ? sel.runs[i].extra[0] : "none");
	if (rc == 0 && !(v = malloc(sel.n * sizeof(double))))
		rc = err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < sel.n; i++)
		v[i] = sel.runs[i].metric;
	if (rc == 0)
		rc = stats_summary(v, sel.n, &s);
	if (rc == 0) {
		in->base = (struct size_value){true, s.median, s.min, s.max, ""};
		snprintf(in->base.source, sizeof(in->base.source),
			 "median %s of %zu runs (%s), range %g-%g, on %s", a->common.metric, sel.n,
			 a->base_from, s.min, s.max, family);
		snprintf(in->base_family, sizeof(in->base_family), "%s", family);
	}
	free(v);
	selection_release(&sel);
	return rc;
}

static int scaling_from_db(sqlite3 *db, const struct args *a, struct size_inputs *in)
{
	const char *by = a->scaling_by ? a->scaling_by : "gomaxprocs";
	struct selection sel = {0};
	struct fit_result fit = {0};
	double *level = NULL, *x = NULL;
	int rc = select_where(db, a, a->scaling_from, by, a->common.metric, NULL, &sel);
	if (rc == 0 && (!(level = malloc(sel.n * sizeof(double))) ||
			!(x = malloc(sel.n * sizeof(double)))))
		rc = err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < sel.n; i++) {
		level[i] = sel.runs[i].level;
		x[i] = sel.runs[i].metric;
		if (level[i] > in->max_measured_cores)
			in->max_measured_cores = level[i];
	}
	if (rc == 0)
		rc = fit_scaling(FIT_POWER, level, x, sel.n, &fit);
	if (rc == 0) {
		double d = fit.per_doubling, se = fit.per_doubling_se;
		in->per_doubling = (struct size_value){true, d, d - 1.96 * se, d + 1.96 * se, ""};
		snprintf(in->per_doubling.source, sizeof(in->per_doubling.source),
			 "power law fitted to %zu runs (%s) over %s 1..%g: per doubling %.4f (SE "
			 "%.4f); levels must count physical cores",
			 sel.n, a->scaling_from, by, in->max_measured_cores, d, se);
	}
	fit_release(&fit);
	free(level);
	free(x);
	selection_release(&sel);
	return rc;
}

static int smt_from_db(sqlite3 *db, const struct args *a, struct size_inputs *in)
{
	struct smt_result m;
	struct run_filter f;
	int rc = common_arm_filter(&a->common, a->smt_from, &f);
	if (rc == 0) {
		struct smt_request q = {&f, a->common.metric, NULL, NULL, NULL, NULL};
		rc = smt_measure(db, &q, &m);
	}
	run_filter_release(&f);
	if (rc)
		return rc;
	for (size_t i = 0; i < m.figs.n; i++) {
		const struct smt_figure *x = &m.figs.figures[i];
		if (strcmp(x->name, "smt_factor") || !x->measured)
			continue;
		in->smt = (struct size_value){true, x->value, x->lo, x->hi, ""};
		snprintf(in->smt.source, sizeof(in->smt.source),
			 "smt_factor of coreplan smt on %s (host %s): %s / %s", a->smt_from, m.host,
			 x->num.label, x->den.label);
	}
	smt_result_release(&m);
	return in->smt.known ? 0 : err_set("the runs of --smt-from give no smt_factor");
}

static int memory_from_db(sqlite3 *db, const struct args *a, struct size_inputs *in)
{
	struct selection sel = {0};
	struct ols ols;
	double *x = NULL, *y = NULL;
	int rc = select_where(db, a, a->memory_from, "sessions", "load_rss_kb", NULL, &sel);
	if (rc == 0 && (!(x = malloc(sel.n * sizeof(double))) || !(y = malloc(sel.n * sizeof(double)))))
		rc = err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < sel.n; i++) {
		x[i] = sel.runs[i].level;
		y[i] = sel.runs[i].metric;
	}
	if (rc == 0)
		rc = stats_ols(x, y, sel.n, &ols);
	if (rc == 0) {
		in->mem_per_session_kb = (struct size_value){true, ols.slope, ols.slope_lo,
							     ols.slope_hi, ""};
		in->mem_fixed_kb = (struct size_value){true, ols.intercept, ols.intercept,
						       ols.intercept, ""};
		snprintf(in->mem_per_session_kb.source, sizeof(in->mem_per_session_kb.source),
			 "OLS of load_rss_kb on sessions over %zu runs (%s): %.1f kB/session (95%% "
			 "%.1f-%.1f), fixed %.0f kB",
			 sel.n, a->memory_from, ols.slope, ols.slope_lo, ols.slope_hi, ols.intercept);
	}
	free(x);
	free(y);
	selection_release(&sel);
	return rc;
}

static void given(struct size_value *v, double value, const char *what)
{
	*v = (struct size_value){true, value, value, value, ""};
	snprintf(v->source, sizeof(v->source), "given: %s %g", what, value);
}

static int gather_inputs(sqlite3 *db, const struct args *a, struct size_inputs *in)
{
	int rc = 0;
	in->target = a->target;
	in->has_sessions = a->has_sessions;
	in->sessions = a->sessions;
	in->headroom_pct = a->headroom;
	in->translations = a->translations;
	in->ntranslations = a->ntranslations;
	if (a->has_base_rate) {
		given(&in->base, a->base_rate, "base rate");
		snprintf(in->base_family, sizeof(in->base_family), "%s", a->base_cpu);
	} else if (a->base_from) {
		rc = base_from_db(db, a, in);
	}
	if (rc == 0 && a->has_per_doubling)
		given(&in->per_doubling, a->per_doubling, "per-doubling factor");
	else if (rc == 0 && a->scaling_from)
		rc = scaling_from_db(db, a, in);
	if (rc == 0 && a->has_smt)
		given(&in->smt, a->smt_factor, "SMT factor");
	else if (rc == 0 && a->smt_from)
		rc = smt_from_db(db, a, in);
	if (rc == 0 && !in->smt.known) {
		in->smt = (struct size_value){true, 1.0, 1.0, 1.0, ""};
		snprintf(in->smt.source, sizeof(in->smt.source),
			 "not given: a core's second thread counted as adding nothing (1.0)");
	}
	if (rc == 0 && a->has_mem_per)
		given(&in->mem_per_session_kb, a->mem_per, "kB per session");
	if (rc == 0 && a->has_mem_fixed)
		given(&in->mem_fixed_kb, a->mem_fixed, "fixed kB");
	if (rc == 0 && !a->has_mem_per && a->memory_from)
		rc = memory_from_db(db, a, in);
	return rc;
}

static int load_catalogs(const struct args *a, struct catalog *cat)
{
	static const char *const shipped[] = {COREPLAN_CATALOG_DIR "/gce.tsv",
					      COREPLAN_CATALOG_DIR "/aws.tsv", NULL};
	size_t n = a->ncatalogs ? a->ncatalogs : 2;
	int rc = 0;
	memset(cat, 0, sizeof(*cat));
	for (size_t i = 0; rc == 0 && i < n; i++) {
		struct catalog one;
		rc = catalog_read(a->ncatalogs ? a->catalogs[i] : shipped[i], &one);
		if (rc == 0)
			rc = catalog_merge(cat, &one);
		catalog_release(&one);
	}
	return rc;
}

struct measured {
	size_t n;
	struct summary s;
};

/* Runs that name this instance (and --sessions, --measured-where). */
static int measured_for(sqlite3 *db, const struct args *a, const char *instance,
			struct measured *out)
{
	struct strbuf where = STRBUF_INIT;
	struct selection sel = {0};
	struct run_filter f;
	double *v = NULL;
	int rc;
	memset(out, 0, sizeof(*out));
	strbuf_addf(&where, "instance=%s", instance);
	if (a->has_sessions)
		strbuf_addf(&where, " sessions=%g", a->sessions);
	if (a->measured_where)
		strbuf_addf(&where, " %s", a->measured_where);
	rc = common_arm_filter(&a->common, strbuf_str(&where), &f);
	if (rc == 0) {
		struct select_spec spec = {.filter = &f, .metric = a->common.metric};
		rc = select_runs(db, &spec, &sel);
	}
	if (rc && strstr(err_msg(), "no field 'instance'")) {
		err_clear();
		rc = 0; /* no run names an instance at all */
	}
	run_filter_release(&f);
	if (rc == 0 && sel.n > 0 && (v = malloc(sel.n * sizeof(double))) != NULL) {
		for (size_t i = 0; i < sel.n; i++)
			v[i] = sel.runs[i].metric;
		out->n = sel.n;
		rc = stats_summary(v, sel.n, &out->s);
	}
	free(v);
	selection_release(&sel);
	strbuf_release(&where);
	return rc;
}

static bool wanted(const struct args *a, const struct instance *inst)
{
	for (size_t i = 0; i < a->nseries; i++)
		if (!strcmp(a->series[i], inst->series))
			return true;
	return a->nseries == 0;
}

static const char *flags_text(const struct size_row *r, char *buf, size_t len)
{
	size_t used = 0;
	buf[0] = '\0';
	if (r->cheapest)
		used += (size_t)snprintf(buf + used, len - used, "CHEAPEST; ");
	if (r->extrapolated && used < len)
		used += (size_t)snprintf(buf + used, len - used, "extrapolated; ");
	if (r->translated && used < len)
		used += (size_t)snprintf(buf + used, len - used, "translated (factor %g); ",
					 r->translation_factor);
	if (r->shared_core && used < len)
		used += (size_t)snprintf(buf + used, len - used,
					 "shared-core: sustained share; burst %.0f not sustained; ",
					 r->burst);
	if (used >= 2 && used < len)
		buf[used - 2] = '\0';
	return buf[0] ? buf : NULL;
}

static const char *const columns[] = {
	"instance",     "vcpus",         "threads_per_core", "physical_cores", "sustained_cores",
	"predicted",    "predicted_low", "predicted_high",   "memory_needed_gib", "memory_gib",
	"verdict",      "shortfall",     "price_per_hour",   "cost_per_1k",       "measured_n",
	"measured_median", "measured_min", "measured_max",   "flags",             "price_date"};
enum { NCOLUMNS = sizeof(columns) / sizeof(columns[0]) };

static int add_row(struct out_table *t, const struct size_row *r, const struct measured *m,
		   enum out_format f)
{
	const struct instance *inst = r->inst;
	char b[NCOLUMNS][32], flags[256];
	const char *cells[NCOLUMNS] = {inst->instance};
	snprintf(b[1], 32, "%d", inst->vcpus);
	snprintf(b[2], 32, "%d", inst->threads_per_core);
	cells[1] = b[1];
	cells[2] = b[2];
	cells[3] = common_num(inst->physical_cores, f, 'g', 4, b[3]);
	cells[4] = common_num(inst->sustained_cores, f, 'g', 4, b[4]);
	cells[5] = common_num(r->predicted, f, 'f', 0, b[5]);
	cells[6] = common_num(r->predicted_lo, f, 'f', 0, b[6]);
	cells[7] = common_num(r->predicted_hi, f, 'f', 0, b[7]);
	cells[8] = common_num(r->memory_needed_gib, f, 'f', 2, b[8]);
	cells[9] = common_num(inst->memory_gib, f, 'g', 5, b[9]);
	cells[10] = r->verdict;
	cells[11] = common_num(r->shortfall, f, 'f', 2, b[11]);
	cells[12] = common_num(inst->price_per_hour, f, 'g', 6, b[12]);
	cells[13] = common_num(r->cost_per_1k, f, 'f', 4, b[13]);
	if (m->n) {
		snprintf(b[14], 32, "%zu", m->n);
		cells[14] = b[14];
		cells[15] = common_num(m->s.median, f, 'f', 1, b[15]);
		cells[16] = common_num(m->s.min, f, 'f', 1, b[16]);
		cells[17] = common_num(m->s.max, f, 'f', 1, b[17]);
	}
	cells[18] = flags_text(r, flags, sizeof(flags));
	cells[19] = inst->price_date;
	return out_table_add_row(t, cells);
}

static void print_inputs(const struct size_inputs *in, const struct args *a)
{
	printf("target %g %s%s", in->target, a->common.metric, in->has_sessions ? " at " : "");
	if (in->has_sessions)
		printf("%g sessions", in->sessions);
	printf("; headroom %g%%\n\n", in->headroom_pct);
	printf("- base rate per physical core: %s\n", in->base.source);
	printf("- scaling across physical cores: %s\n", in->per_doubling.source);
	printf("- SMT: %s\n", in->smt.source);
	if (in->mem_per_session_kb.known)
		printf("- memory: %s%s%s\n", in->mem_per_session_kb.source,
		       in->mem_fixed_kb.known && strncmp(in->mem_fixed_kb.source, "given", 5) == 0
			       ? "; "
			       : "",
		       in->mem_fixed_kb.known && strncmp(in->mem_fixed_kb.source, "given", 5) == 0
			       ? in->mem_fixed_kb.source
			       : "");
	else
		printf("- memory: not given (no memory verdict)\n");
	for (size_t i = 0; i < in->ntranslations; i++)
		printf("- translated: %s rates = base / %g\n", in->translations[i].family,
		       in->translations[i].factor);
	printf("\n");
}

/* Predicted capacity (with bounds) per predicted instance, against the target. */
static int draw_sizing(const struct args *a, const struct size_row *rows, size_t n,
		       const struct size_inputs *in)
{
	const char *slash = strrchr(a->plot, '/'), *base = slash ? slash + 1 : a->plot;
	const char *dot = strrchr(base, '.');
	char *dir = slash ? strndup(a->plot, (size_t)(slash - a->plot)) : strdup(".");
	char *name = dot && dot != base ? strndup(base, (size_t)(dot - base)) : strdup(base);
	const char **labels = calloc(n ? n : 1, sizeof(*labels));
	double *buf = malloc((4 * (n ? n : 1)) * sizeof(double));
	char *image = NULL, title[256], target[64];
	size_t m = 0;
	int rc = dir && name && labels && buf ? 0 : err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < n; i++) {
		if (!rows[i].predicted_ok || !wanted(a, rows[i].inst))
			continue;
		labels[m] = rows[i].inst->instance;
		buf[m] = (double)m;
		buf[n + m] = rows[i].predicted;
		buf[2 * n + m] = rows[i].predicted_lo;
		buf[3 * n + m] = rows[i].predicted_hi;
		m++;
	}
	if (rc == 0 && m == 0)
		rc = err_set("no instance has a prediction to plot (see the verdicts)");
	if (rc == 0) {
		struct plot_series series[2] = {
			{"predicted (sustained)", PLOT_BOXES, m, buf, buf + n, NULL, NULL, false},
			{"bounds", PLOT_ERRORBARS, m, buf, buf + n, buf + 2 * n, buf + 3 * n, false}};
		struct plot_spec spec;
		memset(&spec, 0, sizeof(spec));
		if (in->has_sessions)
			snprintf(title, sizeof(title), "sizing: target %g %s at %g sessions",
				 in->target, a->common.metric, in->sessions);
		else
			snprintf(title, sizeof(title), "sizing: target %g %s", in->target,
				 a->common.metric);
		snprintf(target, sizeof(target), "target %g", in->target);
		spec.dir = dir;
		spec.name = name;
		spec.format = dot && !strcmp(dot, ".png") ? PLOT_PNG : PLOT_SVG;
		spec.title = title;
		spec.xlabel = "instance";
		spec.ylabel = "predicted throughput (interactions/s)";
		spec.has_hline = true;
		spec.hline = in->target;
		spec.hline_title = target;
		spec.xtic_labels = labels;
		spec.nxtic_labels = m;
		rc = plot_draw(&spec, series, 2, &image);
		if (rc == PLOT_NOT_INSTALLED) {
			/* the table stands without its picture */
			warn_add("sizing plot not drawn: gnuplot is not installed (apt-get install "
				 "gnuplot-nox)");
			rc = 0;
		}
	}
	free(image);
	free(dir);
	free(name);
	free(labels);
	free(buf);
	return rc;
}

int cmd_size(int argc, char **argv, const struct global_opts *g)
{
	struct args a;
	struct size_inputs in;
	struct catalog cat = {0};
	struct size_row *rows = NULL;
	struct out_table *t = NULL;
	sqlite3 *db = NULL;
	int rc;
	memset(&a, 0, sizeof(a));
	memset(&in, 0, sizeof(in));
	common_args_init(&a.common);
	rc = parse_args(argc, argv, &a);
	if (rc == OPT_HELP_SHOWN) {
		rc = 0;
		goto done;
	}
	if (rc)
		goto done;
	rc = load_catalogs(&a, &cat);
	if (rc == 0 && (a.base_from || a.scaling_from || a.smt_from || a.memory_from))
		rc = db_open(g->db_path, true, &db);
	if (rc == 0)
		rc = gather_inputs(db, &a, &in);
	if (rc == 0)
		rc = size_compute(&cat, &in, &rows);
	if (rc == 0 && !(t = out_table_new(NCOLUMNS, columns)))
		rc = err_set("out of memory");
	for (size_t i = 1; t && i < NCOLUMNS - 2; i++)
		if (i != 10)
			out_table_set_kind(t, i, OUT_NUM);
	for (size_t i = 0; rc == 0 && i < cat.n; i++) {
		struct measured m = {0};
		if (!wanted(&a, rows[i].inst))
			continue;
		if (db)
			rc = measured_for(db, &a, rows[i].inst->instance, &m);
		if (rc == 0)
			rc = add_row(t, &rows[i], &m, a.common.format);
	}
	if (rc == 0 && a.common.format == OUT_MD)
		print_inputs(&in, &a);
	if (rc == 0)
		rc = out_table_write(t, a.common.format, stdout);
	if (rc == 0 && a.plot)
		rc = draw_sizing(&a, rows, cat.n, &in);
	if (rc == 0 && a.common.format == OUT_MD)
		printf("\n- predictions are estimates from the inputs above, not measurements; "
		       "measured_* columns are runs that named the instance\n- prices: see "
		       "price_date and the catalog's price_source; definitions: `coreplan size "
		       "--help`\n");
done:
	out_table_free(t);
	free(rows);
	catalog_release(&cat);
	db_close(db);
	common_free_list(a.catalogs, a.ncatalogs);
	common_free_list(a.series, a.nseries);
	free(a.translations);
	common_args_release(&a.common);
	return rc;
}
