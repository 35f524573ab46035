/* cmd_memory: `coreplan memory`, per-session memory as an OLS slope across levels. */
#include "cmd.h"
#include "common.h"
#include "opt.h"

#include "../analysis/cores.h"
#include "../analysis/memory.h"
#include "../analysis/select.h"
#include "../common/err.h"
#include "../common/num.h"
#include "../reports/table_out.h"
#include "../schema/db.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_BY = COMMON_COUNT, OPT_BLOCK, OPT_GROUP, OPT_VIEW, OPT_FRAC, OPT_TRIM };

static const struct opt_spec specs[] = {
	COMMON_SPECS,
	[OPT_BY] = {"by", 0, "FIELD", "the level field (required), usually sessions", false},
	[OPT_BLOCK] = {"block", 0, "FIELD", "the block field for endpoint slopes (default block)",
		       false},
	[OPT_GROUP] = {"group", 0, "F1[,F2...]", "fit each combination of these fields apart",
		       false},
	[OPT_VIEW] = {"view", 0, "V",
		      "only this table: slopes, endpoints, ratios or residuals (default: md "
		      "prints all, other formats slopes)",
		      false},
	[OPT_FRAC] = {"frac", 0, "F", "plateau fraction for trace-derived metrics (default 0.8)",
		      false},
	[OPT_TRIM] = {"trim", 0, "N", "plateau trim for trace-derived metrics (default 1)", false},
	{NULL, 0, NULL, NULL, false},
};

static const char details[] =
	"The metric (default load_rss_kb) is a run field, or one of the trace-derived\n"
	"figures of `coreplan cores` over each run's plateau: rss_median_kb,\n"
	"rss_mean_kb, rss_peak_kb, mem_avail_min_kb.\n"
	"  slopes     ordinary least squares of the metric on --by over every run:\n"
	"             slope (metric per level unit, e.g. kB per session) with its\n"
	"             standard error and 95% interval (Student t, n - 2 degrees of\n"
	"             freedom), intercept (the fixed cost), r2, residual SE\n"
	"  endpoints  per block: (value at the largest level - value at the smallest)\n"
	"             / (largest - smallest level)\n"
	"  ratios     CONTRAST ONLY: median(metric) / level at each level, which\n"
	"             charges the fixed load-time growth to the sessions\n"
	"  residuals  each run's metric minus the fitted line\n"
	"\n"
	"example:\n"
	"  coreplan memory --by sessions --group cfg --where target=medium --where block=1,2,3\n";

enum view { VIEW_SLOPES, VIEW_ENDPOINTS, VIEW_RATIOS, VIEW_RESIDUALS, NVIEWS };
static const char *const view_names[NVIEWS] = {"slopes", "endpoints", "ratios", "residuals"};
static const char *const view_titles[NVIEWS] = {
	"Per-level-unit slope (OLS over every run)", "Endpoint slope per block",
	"Single-level ratio (contrast only: includes the fixed cost)", "Residuals"};

static const char *const trace_metrics[] = {"rss_median_kb", "rss_mean_kb", "rss_peak_kb",
					    "mem_avail_min_kb", NULL};

struct args {
	struct common_args common;
	const char *by;
	const char *block;
	char **group;
	size_t ngroup;
	enum view view;
	bool view_given;
	struct cores_options cores;
};

static int parse_args(int argc, char **argv, struct args *a)
{
	static const struct opt_cmd cmd = {"memory", NULL, details, specs};
	struct opt_parser p;
	const char *value;
	int which;
	int rc = opt_parser_init(&p, &cmd, argc, argv);
	while (rc == 0 && (rc = opt_next(&p, &which, &value)) == OPT_FOUND) {
		rc = 0;
		if (which < COMMON_COUNT)
			rc = common_opt(&a->common, which, value);
		else if (which == OPT_BY)
			a->by = value;
		else if (which == OPT_BLOCK)
			a->block = value;
		else if (which == OPT_GROUP)
			rc = common_split_list("group", value, &a->group, &a->ngroup);
		else if (which == OPT_FRAC)
			rc = common_parse_fraction("frac", value, &a->cores.window.frac);
		else if (which == OPT_TRIM)
			rc = common_parse_count("trim", value, &a->cores.window.trim);
		else if (which == OPT_VIEW) {
			int v = 0;
			rc = common_parse_choice("view", value, view_names, NVIEWS, &v);
			a->view = (enum view)v;
			a->view_given = true;
		}
	}
	if (rc == OPT_DONE && p.noperands > 0)
		rc = err_usage("unexpected argument '%s'", p.operands[0]);
	if (rc == OPT_DONE && !a->by)
		rc = err_usage("--by FIELD is required");
	opt_parser_release(&p);
	return rc;
}

static bool is_trace_metric(const char *name)
{
	for (size_t i = 0; trace_metrics[i]; i++)
		if (!strcmp(trace_metrics[i], name))
			return true;
	return false;
}

static double trace_value(const struct run_cores *c, const char *name)
{
	if (!c->ok)
		return NAN;
	if (!strcmp(name, "rss_median_kb"))
		return c->cpu.rss_median_kb;
	if (!strcmp(name, "rss_mean_kb"))
		return c->cpu.rss_mean_kb;
	if (!strcmp(name, "rss_peak_kb"))
		return c->cpu.rss_peak_kb;
	return c->cpu.mem_avail_min_kb;
}

/* Points from the selection; trace-derived metrics are recomputed per run. */
static int build_points(sqlite3 *db, const struct args *a, const struct selection *sel,
			struct memory_point *points, size_t *n)
{
	bool from_trace = is_trace_metric(a->common.metric);
	*n = 0;
	for (size_t i = 0; i < sel->n; i++) {
		const struct sel_run *run = &sel->runs[i];
		double value = run->metric;
		if (!run->level_numeric)
			return err_set("run '%s': level '%s' is not a number", run->tag,
				       run->level_text);
		if (from_trace) {
			struct run_cores c;
			int rc = cores_compute(db, run->run_id, NAN, &a->cores, &c);
			if (rc)
				return rc;
			value = trace_value(&c, a->common.metric);
			if (isnan(value)) {
				warn_add("run '%s' left out: %s", run->tag,
					 c.note[0] ? c.note : "no trace value");
				continue;
			}
		}
		points[*n].tag = run->tag;
		points[*n].group = run->group;
		points[*n].block = run->block;
		points[*n].level = run->level;
		points[*n].value = value;
		(*n)++;
	}
	return 0;
}

static struct out_table *new_table(const char *const *cols, size_t n, size_t ntext)
{
	struct out_table *t = out_table_new(n, cols);
	for (size_t i = ntext; t && i < n; i++)
		out_table_set_kind(t, i, OUT_NUM);
	if (t)
		out_table_hide_empty_md(t, true);
	return t;
}

static int slopes_table(const struct memory *m, enum out_format f, struct out_table **out)
{
	static const char *const cols[] = {"group", "n", "levels", "slope", "slope_se",
					   "slope_lo", "slope_hi", "intercept", "intercept_se",
					   "r2", "residual_se", "method", "note"};
	struct out_table *t = new_table(cols, 13, 1);
	int rc = t ? 0 : err_set("out of memory");
	if (t) {
		out_table_set_kind(t, 11, OUT_TEXT);
		out_table_set_kind(t, 12, OUT_TEXT);
	}
	for (size_t i = 0; rc == 0 && i < m->nfits; i++) {
		const struct memory_fit *x = &m->fits[i];
		char b[13][32];
		const char *cells[13] = {x->group};
		snprintf(b[2], 32, "%zu", x->nlevels);
		cells[2] = b[2];
		if (x->ok) {
			snprintf(b[1], 32, "%zu", x->ols.n);
			cells[1] = b[1];
			cells[3] = common_num(x->ols.slope, f, 'f', 2, b[3]);
			cells[4] = common_num(x->ols.slope_se, f, 'f', 2, b[4]);
			cells[5] = common_num(x->ols.slope_lo, f, 'f', 2, b[5]);
			cells[6] = common_num(x->ols.slope_hi, f, 'f', 2, b[6]);
			cells[7] = common_num(x->ols.intercept, f, 'f', 0, b[7]);
			cells[8] = common_num(x->ols.intercept_se, f, 'f', 0, b[8]);
			cells[9] = common_num(x->ols.r2, f, 'f', 4, b[9]);
			cells[10] = common_num(x->ols.residual_se, f, 'f', 0, b[10]);
			cells[11] = "OLS, 95% t interval";
		}
		cells[12] = x->note[0] ? x->note : NULL;
		rc = out_table_add_row(t, cells);
	}
	*out = t;
	return rc;
}

static int endpoints_table(const struct memory *m, enum out_format f, struct out_table **out)
{
	static const char *const cols[] = {"group",    "block",    "level_lo", "level_hi",
					   "value_lo", "value_hi", "slope"};
	struct out_table *t = new_table(cols, 7, 2);
	int rc = t ? 0 : err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < m->nendpoints; i++) {
		const struct memory_endpoint *e = &m->endpoints[i];
		char b[7][32];
		const char *cells[7] = {e->group, e->block};
		cells[2] = common_num(e->level_lo, f, 'g', 6, b[2]);
		cells[3] = common_num(e->level_hi, f, 'g', 6, b[3]);
		cells[4] = common_num(e->value_lo, f, 'f', 0, b[4]);
		cells[5] = common_num(e->value_hi, f, 'f', 0, b[5]);
		cells[6] = common_num(e->slope, f, 'f', 2, b[6]);
		rc = out_table_add_row(t, cells);
	}
	*out = t;
	return rc;
}

static int ratios_table(const struct memory *m, enum out_format f, struct out_table **out)
{
	static const char *const cols[] = {"group", "level", "n", "median", "ratio", "label"};
	struct out_table *t = new_table(cols, 6, 1);
	int rc = t ? 0 : err_set("out of memory");
	if (t)
		out_table_set_kind(t, 5, OUT_TEXT);
	for (size_t i = 0; rc == 0 && i < m->nratios; i++) {
		const struct memory_ratio *r = &m->ratios[i];
		char b[6][32];
		const char *cells[6] = {r->group};
		snprintf(b[2], 32, "%zu", r->n);
		cells[1] = common_num(r->level, f, 'g', 6, b[1]);
		cells[2] = b[2];
		cells[3] = common_num(r->median, f, 'f', 0, b[3]);
		cells[4] = common_num(r->ratio, f, 'f', 2, b[4]);
		cells[5] = "contrast: includes the fixed cost";
		rc = out_table_add_row(t, cells);
	}
	*out = t;
	return rc;
}

static int residuals_table(const struct memory_point *p, size_t n, enum out_format f,
			   struct out_table **out)
{
	static const char *const cols[] = {"group", "tag", "block", "level", "value", "residual"};
	struct out_table *t = new_table(cols, 6, 3);
	int rc = t ? 0 : err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < n; i++) {
		char b[6][32];
		const char *cells[6] = {p[i].group, p[i].tag, p[i].block};
		cells[3] = common_num(p[i].level, f, 'g', 6, b[3]);
		cells[4] = common_num(p[i].value, f, 'f', 0, b[4]);
		cells[5] = common_num(p[i].residual, f, 'f', 0, b[5]);
		rc = out_table_add_row(t, cells);
	}
	*out = t;
	return rc;
}

static int print_view(const struct memory *m, const struct memory_point *p, size_t n,
		      enum view v, enum out_format f)
{
	struct out_table *t = NULL;
	int rc = v == VIEW_SLOPES      ? slopes_table(m, f, &t)
		 : v == VIEW_ENDPOINTS ? endpoints_table(m, f, &t)
		 : v == VIEW_RATIOS    ? ratios_table(m, f, &t)
				       : residuals_table(p, n, f, &t);
	if (rc == 0)
		rc = out_table_write(t, f, stdout);
	out_table_free(t);
	return rc;
}

int cmd_memory(int argc, char **argv, const struct global_opts *g)
{
	struct args a;
	struct selection sel = {0};
	struct memory mem = {0};
	struct memory_point *points = NULL;
	size_t npoints = 0;
	sqlite3 *db = NULL;
	int rc;
	memset(&a, 0, sizeof(a));
	common_args_init(&a.common);
	a.common.metric = "load_rss_kb";
	cores_options_init(&a.cores);
	rc = parse_args(argc, argv, &a);
	if (rc == OPT_HELP_SHOWN) {
		rc = 0;
		goto done;
	}
	if (rc)
		goto done;
	rc = db_open(g->db_path, true, &db);
	if (rc == 0) {
		bool from_trace = is_trace_metric(a.common.metric);
		struct select_spec spec = {.filter = &a.common.filter,
					   .by = a.by,
					   .metric = from_trace ? NULL : a.common.metric,
					   .block = a.block ? a.block : "block",
					   .group = (const char *const *)a.group};
		rc = select_runs(db, &spec, &sel);
	}
	if (rc == 0 && !(points = calloc(sel.n ? sel.n : 1, sizeof(*points))))
		rc = err_set("out of memory");
	if (rc == 0)
		rc = build_points(db, &a, &sel, points, &npoints);
	if (rc == 0)
		rc = memory_compute(points, npoints, &mem);
	if (rc)
		goto done;
	if (a.common.format == OUT_MD && !a.view_given) {
		printf("%zu runs; metric %s against %s\n", npoints, a.common.metric, a.by);
		for (int v = 0; rc == 0 && v < NVIEWS; v++) {
			printf("\n### %s\n\n", view_titles[v]);
			rc = print_view(&mem, points, npoints, (enum view)v, OUT_MD);
		}
		if (rc == 0)
			printf("\n- definitions: `coreplan memory --help`\n");
	} else {
		rc = print_view(&mem, points, npoints, a.view, a.common.format);
	}
	if (rc == 0)
		common_print_left_out(&sel, a.common.format);
done:
	memory_release(&mem);
	free(points);
	selection_release(&sel);
	db_close(db);
	common_free_list(a.group, a.ngroup);
	common_args_release(&a.common);
	return rc;
}
