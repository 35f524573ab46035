/* plots: see plots.h. */
#include "plots.h"

#include "../common/err.h"

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

int plots_context(const struct run_filter *filter, struct strbuf *sb)
{
	int bad = strbuf_adds(sb, filter->corpus ? filter->corpus : "all corpora");
	for (size_t i = 0; i < filter->nwhere; i++) {
		bad |= strbuf_addf(sb, "%s%s=", i ? " " : ", ", filter->where[i].field);
		for (size_t v = 0; v < filter->where[i].nvalues; v++)
			bad |= strbuf_addf(sb, "%s%s", v ? "," : "", filter->where[i].values[v]);
	}
	return bad ? err_set("out of memory") : 0;
}

static char *label(const char *field)
{
	struct strbuf sb = STRBUF_INIT;
	const char *unit = plots_unit(field);
	strbuf_addf(&sb, "%s%s%s%s", field, *unit ? " (" : "", unit, *unit ? ")" : "");
	return strbuf_detach(&sb);
}

static char *title(const char *what, const struct plot_target *t)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "%s: %s", what, t->context ? t->context : "all runs");
	return strbuf_detach(&sb);
}

static struct plot_spec spec_for(const struct plot_target *t, const char *title_text, const char *x,
				 const char *y)
{
	struct plot_spec spec;
	memset(&spec, 0, sizeof(spec));
	spec.dir = t->dir;
	spec.name = t->name;
	spec.format = t->format;
	spec.out = t->out;
	spec.title = title_text;
	spec.xlabel = x;
	spec.ylabel = y;
	return spec;
}

/* The levels of one kind as an errorbar series (into the caller's arrays); n 0 when none. */
static struct plot_series kind_series(const struct sweep *sw, bool (*want)(enum level_kind),
				      const char *title, double *lv, double *med, double *lo,
				      double *hi)
{
	size_t n = 0;
	for (size_t i = 0; i < sw->nlevels; i++) {
		if (!want(sw->levels[i].kind))
			continue;
		lv[n] = sw->levels[i].level;
		med[n] = sw->levels[i].s.median;
		lo[n] = sw->levels[i].s.min;
		hi[n++] = sw->levels[i].s.max;
	}
	return (struct plot_series){title, PLOT_ERRORBARS, n, lv, med, lo, hi, false};
}

static bool kind_physical(enum level_kind k)
{
	return k == LEVEL_PHYSICAL || k == LEVEL_ASSUMED;
}

static bool kind_smt(enum level_kind k)
{
	return k == LEVEL_SMT;
}

static bool kind_beyond(enum level_kind k)
{
	return k == LEVEL_BEYOND;
}

int plots_scaling(const struct plot_target *t, const char *by, const char *metric,
		  const struct sweep_result *res, const struct fit_result *power, char **image)
{
	const struct sweep *sw = &res->sw;
	size_t nl = sw->nlevels;
	bool split = sw->classified && sw->host.known;
	struct strbuf what = STRBUF_INIT, shade = STRBUF_INIT;
	double *buf = NULL;
	char *tt = NULL, *x = label(by), *y = label(metric);
	int rc = 0;
	if (split)
		strbuf_addf(&what, "scaling on %s, %zu physical cores", sw->host.name,
			    sw->host.physical_cores);
	else if (sw->classified)
		strbuf_adds(&what, "scaling (no host recorded: levels assumed physical cores)");
	else
		strbuf_adds(&what, "scaling");
	tt = title(strbuf_str(&what), t);
	if (!tt || !x || !y || !(buf = malloc((13 * nl + 200) * sizeof(double))))
		rc = err_set("out of memory");
	if (rc == 0) {
		double *lv = buf, *ideal = lv + nl, *cx = ideal + nl, *cy = cx + 100,
		       *k = cy + 100; /* 3 kinds x 4 arrays of nl */
		struct plot_series series[5];
		struct plot_spec spec = spec_for(t, tt, x, y);
		size_t nseries = 0;
		for (size_t i = 0; i < nl; i++) {
			lv[i] = sw->levels[i].level;
			ideal[i] = sw->levels[0].s.median * lv[i] / sw->levels[0].level;
		}
		if (split) {
			series[nseries++] =
				kind_series(sw, kind_physical, "physical cores: median, min-max", k,
					    k + nl, k + 2 * nl, k + 3 * nl);
			series[nseries++] =
				kind_series(sw, kind_smt, "SMT siblings: median, min-max",
					    k + 4 * nl, k + 5 * nl, k + 6 * nl, k + 7 * nl);
			series[nseries++] =
				kind_series(sw, kind_beyond, "beyond the CPUs: median, min-max",
					    k + 8 * nl, k + 9 * nl, k + 10 * nl, k + 11 * nl);
		} else {
			series[nseries++] =
				kind_series(sw, kind_physical, "median, min-max of the runs", k,
					    k + nl, k + 2 * nl, k + 3 * nl);
		}
		series[nseries++] = (struct plot_series){"ideal linear from the base level",
							 PLOT_LINES,
							 nl,
							 lv,
							 ideal,
							 NULL,
							 NULL,
							 false};
		if (power && nl >= 2) {
			for (size_t i = 0; i < 100; i++) {
				cx[i] = lv[0] * pow(lv[nl - 1] / lv[0], (double)i / 99.0);
				cy[i] = fit_predict(power, cx[i]);
			}
			series[nseries++] =
				(struct plot_series){split && sw->nsmt + sw->nbeyond
							     ? "power law over physical cores only"
							     : "fitted power law",
						     PLOT_LINES,
						     100,
						     cx,
						     cy,
						     NULL,
						     NULL,
						     false};
		}
		if (split && sw->nsmt + sw->nbeyond > 0) {
			strbuf_addf(&shade, " beyond %zu physical cores", sw->host.physical_cores);
			spec.has_shade = true;
			spec.shade_from = (double)sw->host.physical_cores;
			spec.shade_to = lv[nl - 1];
			spec.shade_label = strbuf_str(&shade);
		}
		spec.log2_x = true;
		rc = plot_draw(&spec, series, nseries, image);
	}
	free(buf);
	free(tt);
	free(x);
	free(y);
	strbuf_release(&what);
	strbuf_release(&shade);
	return rc;
}

int plots_blocks(const struct plot_target *t, const char *by, const char *metric,
		 const struct selection *sel, char **image)
{
	char *tt = title("runs by block", t), *x = label(by), *y = label(metric);
	const char **blocks = NULL;
	struct plot_series *series = NULL;
	double *xs = NULL, *ys = NULL;
	char **titles = NULL;
	size_t n = sel->n ? sel->n : 1, nblocks = 0;
	int rc = 0;
	if (!tt || !x || !y || !(blocks = calloc(n, sizeof(*blocks))) ||
	    !(series = calloc(n, sizeof(*series))) || !(titles = calloc(n, sizeof(*titles))) ||
	    !(xs = malloc(n * sizeof(double))) || !(ys = malloc(n * sizeof(double))))
		rc = err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < sel->n; i++) {
		const char *b = sel->runs[i].block ? sel->runs[i].block : "NA";
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
		for (size_t i = 0; i < sel->n; i++)
			if (!strcmp(sel->runs[i].block ? sel->runs[i].block : "NA", blocks[k])) {
				xs[used] = sel->runs[i].level;
				ys[used++] = sel->runs[i].metric;
			}
		strbuf_addf(&sb, "block %s", blocks[k]);
		titles[k] = strbuf_detach(&sb);
		series[k] = (struct plot_series){titles[k],  PLOT_POINTS, used - start, xs + start,
						 ys + start, NULL,        NULL,         false};
	}
	if (rc == 0) {
		struct plot_spec spec = spec_for(t, tt, x, y);
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
	free(tt);
	free(x);
	free(y);
	return rc;
}

int plots_trace(const struct plot_target *t, const char *tag, const struct trace_plot *tp,
		const struct run_cores *c, char **image)
{
	struct strbuf what = STRBUF_INIT;
	char *tt = NULL;
	int rc = strbuf_addf(&what, "trace of %s", tag) ? err_set("out of memory") : 0;
	if (rc == 0 && !(tt = title(strbuf_str(&what), t)))
		rc = err_set("out of memory");
	/* the title says when the series are not every row (the legend would squeeze the plot) */
	if (rc == 0 && (plot_reduce_reduced(&tp->cores) || plot_reduce_reduced(&tp->rss))) {
		struct strbuf sb = STRBUF_INIT;
		size_t most = tp->cores.out_points > tp->rss.out_points ? tp->cores.out_points
									: tp->rss.out_points;
		if (strbuf_addf(
			    &sb,
			    "%s; %zu rows reduced to %zu points per series by min/max per bucket",
			    tt, tp->rows, most))
			rc = err_set("out of memory");
		free(tt);
		tt = strbuf_detach(&sb);
	}
	if (rc == 0) {
		struct plot_series series[2];
		struct plot_spec spec;
		series[0] = (struct plot_series){"app cores (per interval)",
						 PLOT_LINES,
						 tp->cores.out_points,
						 tp->cores.x,
						 tp->cores.y,
						 NULL,
						 NULL,
						 false};
		series[1] = (struct plot_series){"app RSS (MiB)",
						 PLOT_LINES,
						 tp->rss.out_points,
						 tp->rss.x,
						 tp->rss.y,
						 NULL,
						 NULL,
						 true};
		spec = spec_for(t, tt, "time since the first row (s)", "app cores (cores)");
		spec.y2label = "app RSS (MiB)";
		if (c->ok && tp->has_shade) {
			spec.has_shade = true;
			spec.shade_from = tp->shade_from;
			spec.shade_to = tp->shade_to;
			spec.shade_label = "plateau window";
		}
		rc = plot_draw(&spec, series, 2, image);
	}
	free(tt);
	strbuf_release(&what);
	return rc;
}

int plots_memory(const struct plot_target *t, const char *by, const char *metric,
		 const struct selection *sel, const struct ols *ols, char **image)
{
	double *buf = NULL;
	char *tt = title("memory", t), *x = label(by), *y = label(metric);
	int rc = 0;
	if (!tt || !x || !y || !(buf = malloc((2 * sel->n + 4 * 50) * sizeof(double))))
		rc = err_set("out of memory");
	if (rc == 0) {
		double *px = buf, *py = px + sel->n, *lx = py + sel->n, *ly = lx + 50,
		       *lo = ly + 50, *hi = lo + 50, xmin = INFINITY, xmax = -INFINITY;
		double tq = gsl_cdf_tdist_Pinv(0.975, (double)ols->n - 2.0);
		struct plot_series series[3];
		struct plot_spec spec = spec_for(t, tt, x, y);
		for (size_t i = 0; i < sel->n; i++) {
			px[i] = sel->runs[i].level;
			py[i] = sel->runs[i].metric;
			xmin = fmin(xmin, px[i]);
			xmax = fmax(xmax, px[i]);
		}
		for (size_t i = 0; i < 50; i++) {
			double xv = xmin + (xmax - xmin) * (double)i / 49.0;
			/* se of the fitted mean: sqrt(cov00 + 2 x cov01 + x^2 cov11) */
			double se = sqrt(ols->cov00 + 2 * xv * ols->cov01 + xv * xv * ols->cov11);
			lx[i] = xv;
			ly[i] = ols->intercept + ols->slope * xv;
			lo[i] = ly[i] - tq * se;
			hi[i] = ly[i] + tq * se;
		}
		series[0] = (struct plot_series){
			"95% confidence band of the line", PLOT_BAND, 50, lx, ly, lo, hi, false};
		series[1] =
			(struct plot_series){"OLS line", PLOT_LINES, 50, lx, ly, NULL, NULL, false};
		series[2] = (struct plot_series){"runs", PLOT_POINTS, sel->n, px,
						 py,     NULL,        NULL,   false};
		rc = plot_draw(&spec, series, 3, image);
	}
	free(buf);
	free(tt);
	free(x);
	free(y);
	return rc;
}

int plots_draw(const struct plot_target *t, const struct plot_request *req,
	       const struct plot_result *res, char **image)
{
	const char *metric = plot_request_metric(req);
	switch (req->kind) {
	case PLOT_KIND_SCALING:
		return plots_scaling(t, req->by, metric, &res->sweep,
				     res->has_power ? &res->power : NULL, image);
	case PLOT_KIND_BLOCKS:
		return plots_blocks(t, req->by, metric, &res->sel, image);
	case PLOT_KIND_TRACE:
		return plots_trace(t, req->tag, &res->trace, &res->cores, image);
	case PLOT_KIND_MEMORY:
		return plots_memory(t, req->by, metric, &res->sel, &res->ols, image);
	}
	return err_set("unknown plot kind %d", (int)req->kind);
}
