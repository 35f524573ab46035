/* plots: see plots.h. */
#include "plots.h"

#include "../analysis/cores.h"
#include "../analysis/fit.h"
#include "../analysis/select.h"
#include "../analysis/stats.h"
#include "../analysis/sweep.h"
#include "../analysis/window.h"
#include "../common/err.h"
#include "../common/strbuf.h"
#include "../schema/fields.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *plots_unit(const char *field)
{
	const struct field_info *f = field_find(field);
	if (f)
		return f->unit;
	if (strstr(field, "_kb"))
		return "kB";
	if (strstr(field, "cores"))
		return "cores";
	return "";
}

static char *label(const char *field)
{
	struct strbuf sb = STRBUF_INIT;
	const char *unit = plots_unit(field);
	strbuf_addf(&sb, "%s%s%s%s", field, *unit ? " (" : "", unit, *unit ? ")" : "");
	return strbuf_detach(&sb);
}

static char *title(const char *what, const struct plot_job *job)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "%s: %s", what, job->context ? job->context : "all runs");
	return strbuf_detach(&sb);
}

static struct plot_spec spec_for(const struct plot_job *job, const char *t, const char *x,
				 const char *y)
{
	struct plot_spec spec;
	memset(&spec, 0, sizeof(spec));
	spec.dir = job->dir;
	spec.name = job->name;
	spec.format = job->format;
	spec.title = t;
	spec.xlabel = x;
	spec.ylabel = y;
	return spec;
}

static int select_for(sqlite3 *db, const struct plot_job *job, const char *block,
		      struct selection *sel)
{
	struct select_spec s = {.filter = &job->common->filter,
				.by = job->by,
				.metric = job->common->metric,
				.block = block};
	int rc = select_runs(db, &s, sel);
	if (rc == 0 && sel->n == 0)
		rc = err_set("no runs to plot (check --corpus and --where)");
	return rc;
}

int plots_scaling(sqlite3 *db, const struct plot_job *job, char **image)
{
	struct selection sel = {0};
	struct sweep sw = {0};
	struct sweep_options opts;
	struct fit_result fit = {0};
	double *buf = NULL;
	char *t = title("scaling", job), *x = label(job->by), *y = label(job->common->metric);
	bool fitted = false;
	int rc = select_for(db, job, NULL, &sel);
	sweep_options_init(&opts);
	if (rc == 0)
		rc = sweep_compute(&sel, &opts, &sw);
	if (rc == 0 && !(buf = malloc((6 * sw.nlevels + 2 * sel.n + 200) * sizeof(double))))
		rc = err_set("out of memory");
	if (rc == 0) {
		double *lv = buf, *med = lv + sw.nlevels, *lo = med + sw.nlevels,
		       *hi = lo + sw.nlevels, *ideal = hi + sw.nlevels, *px = ideal + sw.nlevels,
		       *py = px + sel.n, *cx = py + sel.n, *cy = cx + 100;
		struct plot_series series[3];
		struct plot_spec spec = spec_for(job, t, x, y);
		size_t nseries = 2;
		for (size_t i = 0; i < sw.nlevels; i++) {
			lv[i] = sw.levels[i].level;
			med[i] = sw.levels[i].s.median;
			lo[i] = sw.levels[i].s.min;
			hi[i] = sw.levels[i].s.max;
			ideal[i] = sw.levels[0].s.median * lv[i] / sw.levels[0].level;
		}
		for (size_t i = 0; i < sel.n; i++) {
			px[i] = sel.runs[i].level;
			py[i] = sel.runs[i].metric;
		}
		series[0] = (struct plot_series){"median, min-max of the runs", PLOT_ERRORBARS,
						 sw.nlevels, lv, med, lo, hi, false};
		series[1] = (struct plot_series){"ideal linear from the base level", PLOT_LINES,
						 sw.nlevels, lv, ideal, NULL, NULL, false};
		if (sw.nlevels >= 2 && fit_scaling(FIT_POWER, px, py, sel.n, &fit) == 0) {
			for (size_t i = 0; i < 100; i++) {
				cx[i] = lv[0] * pow(lv[sw.nlevels - 1] / lv[0], (double)i / 99.0);
				cy[i] = fit_predict(&fit, cx[i]);
			}
			series[2] = (struct plot_series){"fitted power law", PLOT_LINES, 100, cx, cy,
							 NULL, NULL, false};
			nseries = 3;
			fitted = true;
		}
		err_clear();
		spec.log2_x = true;
		rc = plot_draw(&spec, series, nseries, image);
	}
	(void)fitted;
	fit_release(&fit);
	free(buf);
	free(t);
	free(x);
	free(y);
	sweep_release(&sw);
	selection_release(&sel);
	return rc;
}

int plots_blocks(sqlite3 *db, const struct plot_job *job, char **image)
{
	struct selection sel = {0};
	char *t = title("runs by block", job), *x = label(job->by), *y = label(job->common->metric);
	const char **blocks = NULL;
	struct plot_series *series = NULL;
	double *xs = NULL, *ys = NULL;
	char **titles = NULL;
	size_t nblocks = 0;
	int rc = select_for(db, job, job->block ? job->block : "block", &sel);
	for (size_t i = 0; rc == 0 && i < sel.n; i++)
		if (!sel.runs[i].level_numeric)
			rc = err_set("--by %s: run '%s' has level '%s', not a number: the blocks "
				     "plot needs numeric levels",
				     job->by, sel.runs[i].tag, sel.runs[i].level_text);
	if (rc == 0 && (!(blocks = calloc(sel.n, sizeof(*blocks))) ||
			!(series = calloc(sel.n, sizeof(*series))) ||
			!(titles = calloc(sel.n, sizeof(*titles))) ||
			!(xs = malloc(sel.n * sizeof(double))) || !(ys = malloc(sel.n * sizeof(double)))))
		rc = err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < sel.n; i++) {
		const char *b = sel.runs[i].block ? sel.runs[i].block : "NA";
		size_t k = 0;
		while (k < nblocks && strcmp(blocks[k], b))
			k++;
		if (k == nblocks)
			blocks[nblocks++] = b;
	}
	/* runs grouped by block: each block a contiguous slice of xs/ys */
	for (size_t k = 0, used = 0; rc == 0 && k < nblocks; k++) {
		struct strbuf sb = STRBUF_INIT;
		size_t start = used;
		for (size_t i = 0; i < sel.n; i++)
			if (!strcmp(sel.runs[i].block ? sel.runs[i].block : "NA", blocks[k])) {
				xs[used] = sel.runs[i].level;
				ys[used++] = sel.runs[i].metric;
			}
		strbuf_addf(&sb, "block %s", blocks[k]);
		titles[k] = strbuf_detach(&sb);
		series[k] = (struct plot_series){titles[k], PLOT_POINTS, used - start, xs + start,
						 ys + start, NULL, NULL, false};
	}
	if (rc == 0) {
		struct plot_spec spec = spec_for(job, t, x, y);
		spec.log2_x = true;
		rc = plot_draw(&spec, series, nblocks, image);
	}
	for (size_t k = 0; titles && k < nblocks; k++)
		free(titles[k]);
	free(titles);
	free(series);
	free(blocks);
	free(xs);
	free(ys);
	free(t);
	free(x);
	free(y);
	selection_release(&sel);
	return rc;
}

/* The single run named by --tag within the filter. */
static int find_run(sqlite3 *db, const struct plot_job *job, int64_t *run_id)
{
	struct selection sel = {0};
	struct select_spec s = {.filter = &job->common->filter};
	size_t found = 0;
	int rc;
	if (!job->tag)
		return err_usage("the trace plot needs --tag TAG");
	s.filter = &job->common->filter;
	rc = select_runs(db, &s, &sel);
	for (size_t i = 0; rc == 0 && i < sel.n; i++)
		if (!strcmp(sel.runs[i].tag, job->tag)) {
			*run_id = sel.runs[i].run_id;
			found++;
		}
	selection_release(&sel);
	if (rc == 0 && found != 1)
		rc = found ? err_usage("tag '%s' names %zu runs: add --corpus", job->tag, found)
			   : err_set("no run '%s' among the selected runs", job->tag);
	return rc;
}

int plots_trace(sqlite3 *db, const struct plot_job *job, char **image)
{
	struct trace_series ts = {0};
	struct run_cores c;
	struct cores_options opts;
	int64_t run_id = 0;
	double *buf = NULL;
	char *t = NULL;
	int rc = find_run(db, job, &run_id);
	cores_options_init(&opts);
	if (rc == 0 && (rc = trace_series_load(db, run_id, "sample", &ts)) == 1)
		rc = err_set("run '%s' has no trace", job->tag);
	if (rc == 0)
		rc = cores_compute(db, run_id, NAN, &opts, &c);
	if (rc == 0 && !(buf = malloc(3 * ts.n * sizeof(double))))
		rc = err_set("out of memory");
	if (rc == 0) {
		struct strbuf sb = STRBUF_INIT;
		double *sec = buf, *cores = sec + ts.n, *rss = cores + ts.n;
		struct plot_series series[2];
		struct plot_spec spec;
		for (size_t i = 0; i < ts.n; i++) {
			double dt = i ? ts.rows[i].epoch - ts.rows[i - 1].epoch : 0;
			sec[i] = ts.rows[i].epoch - ts.rows[0].epoch;
			cores[i] = i && dt > 0 ? (ts.rows[i].app_j - ts.rows[i - 1].app_j) /
							 (dt * c.clk_tck)
					       : NAN;
			rss[i] = ts.rows[i].app_rss_kb / 1024.0;
		}
		strbuf_addf(&sb, "trace of %s", job->tag);
		t = title(strbuf_str(&sb), job);
		strbuf_release(&sb);
		series[0] = (struct plot_series){"app cores (per interval)", PLOT_LINES, ts.n, sec,
						 cores, NULL, NULL, false};
		series[1] = (struct plot_series){"app RSS (MiB)", PLOT_LINES, ts.n, sec, rss, NULL,
						 NULL, true};
		spec = spec_for(job, t, "time since the first row (s)",
				"app cores (cores)");
		spec.y2label = "app RSS (MiB)";
		if (c.ok) {
			spec.has_shade = true;
			spec.shade_from = sec[c.window.lo];
			spec.shade_to = sec[c.window.hi];
			spec.shade_label = "plateau window";
		}
		rc = plot_draw(&spec, series, 2, image);
	}
	free(buf);
	free(t);
	trace_series_release(&ts);
	return rc;
}

int plots_memory(sqlite3 *db, const struct plot_job *job, char **image)
{
	struct selection sel = {0};
	struct ols ols;
	double *buf = NULL;
	char *t = title("memory", job), *x = label(job->by), *y = label(job->common->metric);
	int rc = select_for(db, job, NULL, &sel);
	if (rc == 0 && !(buf = malloc((2 * sel.n + 4 * 50) * sizeof(double))))
		rc = err_set("out of memory");
	if (rc == 0) {
		double *px = buf, *py = px + sel.n, *lx = py + sel.n, *ly = lx + 50, *lo = ly + 50,
		       *hi = lo + 50, xmin = INFINITY, xmax = -INFINITY;
		for (size_t i = 0; i < sel.n; i++) {
			px[i] = sel.runs[i].level;
			py[i] = sel.runs[i].metric;
			xmin = fmin(xmin, px[i]);
			xmax = fmax(xmax, px[i]);
		}
		rc = stats_ols(px, py, sel.n, &ols);
		if (rc == 0) {
			double tq = gsl_cdf_tdist_Pinv(0.975, (double)(sel.n - 2));
			struct plot_series series[3];
			struct plot_spec spec = spec_for(job, t, x, y);
			for (size_t i = 0; i < 50; i++) {
				double xv = xmin + (xmax - xmin) * (double)i / 49.0;
				/* se of the fitted mean: sqrt(cov00 + 2 x cov01 + x^2 cov11) */
				double se = sqrt(ols.cov00 + 2 * xv * ols.cov01 + xv * xv * ols.cov11);
				lx[i] = xv;
				ly[i] = ols.intercept + ols.slope * xv;
				lo[i] = ly[i] - tq * se;
				hi[i] = ly[i] + tq * se;
			}
			series[0] = (struct plot_series){"95% confidence band of the line", PLOT_BAND,
							 50, lx, ly, lo, hi, false};
			series[1] = (struct plot_series){"OLS line", PLOT_LINES, 50, lx, ly, NULL, NULL,
							 false};
			series[2] = (struct plot_series){"runs", PLOT_POINTS, sel.n, px, py, NULL, NULL,
							 false};
			rc = plot_draw(&spec, series, 3, image);
		}
	}
	free(buf);
	free(t);
	free(x);
	free(y);
	selection_release(&sel);
	return rc;
}
