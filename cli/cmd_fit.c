/* cmd_fit: `coreplan fit`, scaling models (USL, Amdahl, power law) fitted to a sweep. */
#include "cmd.h"
#include "common.h"
#include "opt.h"

#include "../analysis/fit.h"
#include "../analysis/select.h"
#include "../common/err.h"
#include "../reports/table_out.h"
#include "../schema/db.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_BY = COMMON_COUNT, OPT_MODEL, OPT_VIEW };

static const struct opt_spec specs[] = {
	COMMON_SPECS,
	[OPT_BY] = {"by", 0, "FIELD", "the level field N (required), e.g. gomaxprocs", false},
	[OPT_MODEL] = {"model", 0, "M", "usl, amdahl, power or all (default all)", false},
	[OPT_VIEW] = {"view", 0, "V",
		      "only this table: params, summary or points (default: md prints all, "
		      "other formats params)",
		      false},
	{NULL, 0, NULL, NULL, false},
};

static const char details[] =
	"Every selected run is one point (level, metric).\n"
	"  usl     X(N) = lambda N / (1 + sigma (N - 1) + kappa N (N - 1)), sigma and\n"
	"          kappa in [0, 1]: peak N* = sqrt((1 - sigma) / kappa), X(N*), and the\n"
	"          Amdahl ceiling lambda / sigma\n"
	"  amdahl  the USL with kappa = 0\n"
	"  power   X(N) = a N^b; per-doubling factor 2^b\n"
	"Nonlinear least squares (GSL gsl_multifit_nlinear, trust region with\n"
	"Levenberg-Marquardt steps, analytic Jacobian, linearised USL start). GSL has\n"
	"no bounds: a parameter that leaves its range is fixed there, reported `at\n"
	"bound` without a standard error, and the rest refitted. Standard errors\n"
	"scale (J^T J)^-1 by SSE / (n - p); residual_se = sqrt(SSE / dof) with\n"
	"dof = n - p; r2 = 1 - SSE / SST. A model needs as many distinct levels as\n"
	"it has free parameters and one more point.\n"
	"\n"
	"example:\n"
	"  coreplan fit --by gomaxprocs --where block=1,2,3\n";

enum view { VIEW_PARAMS, VIEW_SUMMARY, VIEW_POINTS, NVIEWS };
static const char *const view_names[NVIEWS] = {"params", "summary", "points"};

struct args {
	struct common_args common;
	const char *by;
	bool models[3];
	enum view view;
	bool view_given;
};

static int parse_args(int argc, char **argv, struct args *a)
{
	static const struct opt_cmd cmd = {"fit", NULL, details, specs};
	struct opt_parser p;
	const char *value;
	int which;
	int rc = opt_parser_init(&p, &cmd, argc, argv);
	a->models[FIT_USL] = a->models[FIT_AMDAHL] = a->models[FIT_POWER] = true;
	while (rc == 0 && (rc = opt_next(&p, &which, &value)) == OPT_FOUND) {
		rc = 0;
		if (which < COMMON_COUNT) {
			rc = common_opt(&a->common, which, value);
		} else if (which == OPT_BY) {
			a->by = value;
		} else if (which == OPT_MODEL) {
			enum fit_model m;
			if (strcmp(value, "all") == 0)
				continue;
			if (fit_model_parse(value, &m)) {
				rc = err_usage("unknown model '%s' (usl, amdahl, power or all)", value);
				continue;
			}
			a->models[FIT_USL] = a->models[FIT_AMDAHL] = a->models[FIT_POWER] = false;
			a->models[m] = true;
		} else {
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

struct fitted {
	bool ok;
	struct fit_result r;
	char error[256];
};

static struct out_table *table_with(const char *const *cols, size_t n, size_t ntext)
{
	struct out_table *t = out_table_new(n, cols);
	for (size_t i = ntext; t && i < n; i++)
		out_table_set_kind(t, i, OUT_NUM);
	return t;
}

static int params_table(const struct fitted *fits, enum out_format f, struct out_table **out)
{
	static const char *const cols[] = {"model", "param", "at_bound", "value", "se"};
	struct out_table *t = table_with(cols, 5, 3);
	int rc = t ? 0 : err_set("out of memory");
	for (int m = 0; rc == 0 && m < 3; m++)
		for (size_t j = 0; rc == 0 && fits[m].ok && j < fits[m].r.nparams; j++) {
			const struct fit_param *p = &fits[m].r.params[j];
			char b[2][32];
			const char *cells[5] = {fits[m].r.model_name, p->name,
						p->at_bound ? "at bound" : "no",
						common_num(p->value, f, 'g', 7, b[0]),
						common_num(p->se, f, 'g', 7, b[1])};
			rc = out_table_add_row(t, cells);
		}
	*out = t;
	return rc;
}

static int summary_table(const struct fitted *fits, const bool *models, enum out_format f,
			 struct out_table **out)
{
	static const char *const cols[] = {"model", "n", "levels", "dof", "residual_se", "r2",
					   "peak_n", "peak_x", "amdahl_ceiling", "per_doubling",
					   "per_doubling_se", "iterations", "note"};
	struct out_table *t = table_with(cols, 13, 1);
	int rc = t ? 0 : err_set("out of memory");
	if (t)
		out_table_set_kind(t, 12, OUT_TEXT);
	for (int m = 0; rc == 0 && m < 3; m++) {
		const struct fit_result *r = &fits[m].r;
		char b[12][32];
		const char *cells[13] = {fit_model_name((enum fit_model)m)};
		if (!models[m])
			continue;
		if (fits[m].ok) {
			snprintf(b[1], 32, "%zu", r->n);
			snprintf(b[2], 32, "%zu", r->nlevels);
			snprintf(b[3], 32, "%zu", r->dof);
			snprintf(b[11], 32, "%zu", r->iterations);
			cells[1] = b[1];
			cells[2] = b[2];
			cells[3] = b[3];
			cells[4] = common_num(r->residual_se, f, 'g', 6, b[4]);
			cells[5] = common_num(r->r2, f, 'f', 4, b[5]);
			cells[6] = common_num(r->peak_n, f, 'g', 7, b[6]);
			cells[7] = common_num(r->peak_x, f, 'g', 6, b[7]);
			cells[8] = common_num(r->amdahl_ceiling, f, 'g', 7, b[8]);
			cells[9] = common_num(r->per_doubling, f, 'f', 4, b[9]);
			cells[10] = common_num(r->per_doubling_se, f, 'f', 4, b[10]);
			cells[11] = b[11];
			if (isinf(r->peak_n) && m != FIT_POWER)
				cells[12] = "no peak (kappa = 0)";
		} else {
			cells[12] = fits[m].error;
		}
		rc = out_table_add_row(t, cells);
	}
	*out = t;
	return rc;
}

static int points_table(const struct fitted *fits, const double *level, const double *x,
			size_t n, enum out_format f, struct out_table **out)
{
	static const char *const cols[] = {"level", "value", "usl", "amdahl", "power"};
	struct out_table *t = table_with(cols, 5, 0);
	int rc = t ? 0 : err_set("out of memory");
	if (t)
		out_table_hide_empty_md(t, true);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		char b[5][32];
		const char *cells[5] = {common_num(level[i], f, 'g', 6, b[0]),
					common_num(x[i], f, 'g', 7, b[1])};
		for (int m = 0; m < 3; m++)
			cells[2 + m] =
				fits[m].ok ? common_num(fits[m].r.fitted[i], f, 'g', 7, b[2 + m]) : NULL;
		rc = out_table_add_row(t, cells);
	}
	*out = t;
	return rc;
}

static int print_view(enum view v, const struct fitted *fits, const struct args *a,
		      const double *level, const double *x, size_t n, enum out_format f)
{
	struct out_table *t = NULL;
	int rc = v == VIEW_PARAMS    ? params_table(fits, f, &t)
		 : v == VIEW_SUMMARY ? summary_table(fits, a->models, f, &t)
				     : points_table(fits, level, x, n, f, &t);
	if (rc == 0)
		rc = out_table_write(t, f, stdout);
	out_table_free(t);
	return rc;
}

int cmd_fit(int argc, char **argv, const struct global_opts *g)
{
	struct args a;
	struct selection sel = {0};
	struct fitted fits[3];
	double *level = NULL, *x = NULL;
	sqlite3 *db = NULL;
	size_t fitted_ok = 0;
	int rc;
	memset(&a, 0, sizeof(a));
	memset(fits, 0, sizeof(fits));
	common_args_init(&a.common);
	rc = parse_args(argc, argv, &a);
	if (rc == OPT_HELP_SHOWN) {
		rc = 0;
		goto done;
	}
	if (rc)
		goto done;
	rc = db_open(g->db_path, true, &db);
	if (rc == 0) {
		struct select_spec spec = {.filter = &a.common.filter, .by = a.by,
					   .metric = a.common.metric};
		rc = select_runs(db, &spec, &sel);
	}
	if (rc == 0 && sel.n == 0)
		rc = err_set("no runs to fit (check --corpus and --where)");
	if (rc == 0 && (!(level = malloc(sel.n * sizeof(double))) ||
			!(x = malloc(sel.n * sizeof(double)))))
		rc = err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < sel.n; i++) {
		if (!sel.runs[i].level_numeric)
			rc = err_set("run '%s': level '%s' is not a number", sel.runs[i].tag,
				     sel.runs[i].level_text);
		else {
			level[i] = sel.runs[i].level;
			x[i] = sel.runs[i].metric;
		}
	}
	for (int m = 0; rc == 0 && m < 3; m++) {
		if (!a.models[m])
			continue;
		if (fit_scaling((enum fit_model)m, level, x, sel.n, &fits[m].r) == 0) {
			fits[m].ok = true;
			fitted_ok++;
		} else {
			snprintf(fits[m].error, sizeof(fits[m].error), "not fitted: %s", err_msg());
			err_clear();
		}
	}
	/* one model asked for and refused: that is the command's error */
	if (rc == 0 && fitted_ok == 0) {
		for (int m = 0; m < 3; m++)
			if (a.models[m]) {
				rc = err_set("%s", fits[m].error + strlen("not fitted: "));
				break;
			}
	}
	if (rc)
		goto done;
	if (a.common.format == OUT_MD && !a.view_given) {
		printf("%zu points; level %s, metric %s\n\n### Fit\n\n", sel.n, a.by, a.common.metric);
		rc = print_view(VIEW_SUMMARY, fits, &a, level, x, sel.n, OUT_MD);
		if (rc == 0) {
			printf("\n### Parameters\n\n");
			rc = print_view(VIEW_PARAMS, fits, &a, level, x, sel.n, OUT_MD);
		}
		if (rc == 0) {
			printf("\n### Fitted values\n\n");
			rc = print_view(VIEW_POINTS, fits, &a, level, x, sel.n, OUT_MD);
		}
		if (rc == 0)
			printf("\n- method and definitions: `coreplan fit --help`\n");
	} else {
		rc = print_view(a.view, fits, &a, level, x, sel.n, a.common.format);
	}
	if (rc == 0)
		common_print_left_out(&sel, a.common.format);
done:
	for (int m = 0; m < 3; m++)
		fit_release(&fits[m].r);
	free(level);
	free(x);
	selection_release(&sel);
	db_close(db);
	common_args_release(&a.common);
	return rc;
}
