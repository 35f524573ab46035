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
	const struct field_info *f = field_find_known(field);
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

/*
 * "tput (interactions/s)"; the field alone when its unit is unknown or is
 * the field's own name again (sessions, not "sessions (sessions)").
 */
static char *label(const char *field)
{
	struct strbuf sb = STRBUF_INIT;
	const char *unit = plots_unit(field);
	if (*unit && strcmp(unit, field))
		strbuf_addf(&sb, "%s (%s)", field, unit);
	else
		strbuf_adds(&sb, field);
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

/* "Runs: CONTEXT (n N)." */
static void caption_runs(struct strbuf *sb, const struct plot_target *t, size_t n)
{
	strbuf_addf(sb, " Runs: %s (n %zu).", t->context ? t->context : "all runs", n);
}

/* " Not drawn: 'A' (no point), 'B' (one point: a line needs two)." for the series left out. */
static void caption_left_out(struct strbuf *sb, const struct plot_series *series, size_t n)
{
	size_t k = 0;
	for (size_t s = 0; s < n; s++) {
		size_t pts = plot_series_points(&series[s]);
		/* a series with nothing asked of it (no level of its kind) is no omission */
		if (plot_series_drawable(&series[s]) || series[s].n == 0)
			continue;
		strbuf_addf(sb, "%s'%s' (%s)", k++ ? ", " : " Not drawn: ", series[s].title,
			    pts ? "one point: a line needs two" : "no number to draw");
	}
	if (k)
		strbuf_adds(sb, ".");
}

/* The caption into the target's buffer (when it has one), after a drawn plot. */
static void caption_put(const struct plot_target *t, const struct strbuf *sb, int rc)
{
	if (t->caption && rc == 0)
		strbuf_adds(t->caption, strbuf_str(sb));
}

/* The levels of one kind as an errorbar series (into the caller's arrays); n 0 when none. */
static struct plot_series kind_series(const struct sweep *sw, bool (*want)(enum level_kind),
				      const char *title, double *lv, double *med, double *lo,
				      double *hi, const char *with)
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
	return (struct plot_series){title, PLOT_ERRORBARS, n, lv, med, lo, hi, false, with};
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

#define NCURVE 100
/* Marks and colours of the scaling plot's series (constants: plot_series.with). */
#define WITH_PHYSICAL "yerrorbars pt 7 ps 1.2 lw 1.5 lc rgb '#0072b2'"
#define WITH_SMT "yerrorbars pt 5 ps 1.3 lw 1.5 lc rgb '#d55e00'"
#define WITH_BEYOND "yerrorbars pt 9 ps 1.4 lw 1.5 lc rgb '#7f7f7f'"
#define WITH_IDEAL "lines lw 1.5 dt 3 lc rgb '#56b4e9'"
#define WITH_POWER "lines lw 2 lc rgb '#009e73'"
#define WITH_POWER_EXTRA "lines lw 2 dt 2 lc rgb '#009e73'"

/* xs[i], i < n: geometric from a to b (log-x plots: smooth curves). */
static void geometric(double *xs, size_t n, double a, double b)
{
	for (size_t i = 0; i < n; i++)
		xs[i] = a * pow(b / a, (double)i / (double)(n - 1));
}

int plots_scaling(const struct plot_target *t, const char *by, const char *metric,
		  const struct sweep_result *res, const struct fit_result *power, char **image)
{
	const struct sweep *sw = &res->sw;
	size_t nl = sw->nlevels;
	bool split = sw->classified && sw->host.known;
	bool extra = split && sw->nsmt + sw->nbeyond > 0;
	struct strbuf what = STRBUF_INIT, shade = STRBUF_INIT, vline = STRBUF_INIT,
		      cap = STRBUF_INIT;
	double *buf = NULL;
	char *tt = NULL, *x = label(by), *y = label(metric);
	int rc = 0;
	strbuf_addf(&what, "%s by %s", metric, by);
	if (split)
		strbuf_addf(&what, " on %s (%zu physical cores, %zu logical CPUs)", sw->host.name,
			    sw->host.physical_cores, sw->host.logical_cpus);
	else if (sw->classified)
		strbuf_adds(&what, " (no host recorded: levels assumed physical cores)");
	tt = title(strbuf_str(&what), t);
	if (!tt || !x || !y || !(buf = malloc((12 * nl + 6 * NCURVE + 2) * sizeof(double))))
		rc = err_set("out of memory");
	if (rc == 0 && nl == 0)
		rc = err_set("nothing to plot: the sweep has no level");
	if (rc == 0) {
		double *k = buf, *ix = k + 12 * nl, *iy = ix + NCURVE, *cx = iy + NCURVE,
		       *cy = cx + NCURVE, *ex = cy + NCURVE, *ey = ex + NCURVE;
		double lo = sw->levels[0].level, hi = sw->levels[nl - 1].level, phys_hi = lo;
		struct plot_series series[6];
		struct plot_spec spec = spec_for(t, tt, x, y);
		size_t nseries = 0;
		for (size_t i = 0; i < nl; i++)
			if (kind_physical(sw->levels[i].kind))
				phys_hi = fmax(phys_hi, sw->levels[i].level);
		if (split) {
			series[nseries++] = kind_series(
				sw, kind_physical, "physical-core levels: median, min-max", k,
				k + nl, k + 2 * nl, k + 3 * nl, WITH_PHYSICAL);
			series[nseries++] = kind_series(
				sw, kind_smt, "SMT sibling levels: median, min-max", k + 4 * nl,
				k + 5 * nl, k + 6 * nl, k + 7 * nl, WITH_SMT);
			series[nseries++] = kind_series(
				sw, kind_beyond, "beyond the logical CPUs: median, min-max",
				k + 8 * nl, k + 9 * nl, k + 10 * nl, k + 11 * nl, WITH_BEYOND);
		} else {
			series[nseries++] =
				kind_series(sw, kind_physical, "median, min-max of the runs", k,
					    k + nl, k + 2 * nl, k + 3 * nl, WITH_PHYSICAL);
		}
		/*
		 * the ideal line and the power law only where scaling applies (a rate
		 * or a time over a level that counts workers: sweep.h); a time's ideal
		 * halves when the workers double. A straight line on linear axes is a
		 * curve on log2 x: sampled, not joined
		 */
		if (sw->scaling_applies) {
			geometric(ix, NCURVE, lo, hi);
			for (size_t i = 0; i < NCURVE; i++)
				iy[i] = sw->metric.lower_is_better
						? sw->levels[0].s.median * lo / ix[i]
						: sw->levels[0].s.median * ix[i] / lo;
			series[nseries++] = (struct plot_series){"ideal linear from the base level",
								 PLOT_LINES,
								 nl >= 2 ? NCURVE : 1,
								 ix,
								 iy,
								 NULL,
								 NULL,
								 false,
								 WITH_IDEAL};
		}
		if (power && nl >= 2 && sw->scaling_applies) {
			/* solid over the levels it was fitted to, dashed where extrapolated */
			geometric(cx, NCURVE, lo, extra ? phys_hi : hi);
			for (size_t i = 0; i < NCURVE; i++)
				cy[i] = fit_predict(power, cx[i]);
			series[nseries++] = (struct plot_series){
				extra ? "power law fitted over the physical-core levels"
				      : "fitted power law",
				PLOT_LINES,
				NCURVE,
				cx,
				cy,
				NULL,
				NULL,
				false,
				WITH_POWER};
			if (extra && hi > phys_hi) {
				geometric(ex, NCURVE, phys_hi, hi);
				for (size_t i = 0; i < NCURVE; i++)
					ey[i] = fit_predict(power, ex[i]);
				series[nseries++] = (struct plot_series){
					"the power law extrapolated (not fitted there)",
					PLOT_LINES,
					NCURVE,
					ex,
					ey,
					NULL,
					NULL,
					false,
					WITH_POWER_EXTRA};
			}
		}
		if (extra) {
			strbuf_addf(&shade, " levels beyond %zu physical cores",
				    sw->host.physical_cores);
			strbuf_addf(&vline, "%zu physical cores", sw->host.physical_cores);
			spec.has_shade = true;
			spec.shade_from = (double)sw->host.physical_cores;
			spec.shade_to = fmax(hi, (double)sw->host.physical_cores);
			spec.shade_label = strbuf_str(&shade);
			spec.has_vline = true;
			spec.vline = (double)sw->host.physical_cores;
			spec.vline_label = strbuf_str(&vline);
		}
		spec.log2_x = true;
		spec.pad = true;
		strbuf_addf(&cap, "The median %s per %s level with min-max bars (%zu level%s",
			    metric, by, nl, nl == 1 ? "" : "s");
		if (split)
			strbuf_addf(
				&cap,
				": %zu at physical cores, %zu SMT sibling, %zu beyond the logical "
				"CPUs of %s, %zu physical cores x %zu threads",
				sw->nphysical, sw->nsmt, sw->nbeyond, sw->host.name,
				sw->host.physical_cores, sw->host.threads_per_core);
		else if (sw->classified)
			strbuf_adds(&cap, ", all assumed physical cores: no host recorded");
		if (!sw->scaling_applies)
			strbuf_addf(&cap, "); no ideal line and no power law: %s", sw->scaling_why);
		else if (sw->metric.lower_is_better)
			strbuf_adds(&cap, "), the ideal linear line from the base level (dotted: a "
					  "time halves when the workers double)");
		else
			strbuf_adds(&cap, "), the ideal linear line from the base level (dotted)");
		if (!sw->scaling_applies)
			;
		else if (power && nl >= 2)
			strbuf_addf(
				&cap, " and the power law fitted to %zu runs%s (per doubling %.3f)",
				power->n,
				extra ? " at the physical-core levels, dashed where extrapolated"
				      : "",
				power->per_doubling);
		else
			strbuf_adds(&cap, "; no power law (fewer than two physical-core levels, "
					  "or the fit failed)");
		strbuf_adds(&cap, ".");
		if (extra)
			strbuf_addf(&cap,
				    " The dashed vertical line is the physical-core boundary; "
				    "levels beyond it are shaded.");
		caption_runs(&cap, t, res->sel.n);
		caption_left_out(&cap, series, nseries);
		rc = plot_draw(&spec, series, nseries, image);
		caption_put(t, &cap, rc);
	}
	free(buf);
	free(tt);
	free(x);
	free(y);
	strbuf_release(&what);
	strbuf_release(&shade);
	strbuf_release(&vline);
	strbuf_release(&cap);
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
		struct strbuf cap = STRBUF_INIT;
		spec.log2_x = true;
		spec.pad = true;
		strbuf_addf(&cap,
			    "Every run's %s at its %s level, one colour per block (%zu "
			    "block%s).",
			    metric, by, nblocks, nblocks == 1 ? "" : "s");
		caption_runs(&cap, t, sel->n);
		rc = plot_draw(&spec, series, nblocks, image);
		caption_put(t, &cap, rc);
		strbuf_release(&cap);
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
	struct strbuf what = STRBUF_INIT, cap = STRBUF_INIT;
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
		strbuf_addf(
			&cap,
			"Trace of run %s: its app cores per sampler interval (d(app_j) / "
			"(interval x clk_tck %g), left axis) and app RSS (MiB, right axis) over "
			"%zu rows",
			tag, c->clk_tck, tp->rows);
		if (c->ok)
			strbuf_addf(&cap, "; the plateau window (rows %zu-%zu) shaded",
				    c->window.lo, c->window.hi);
		if (tp->tick_hz > 0)
			strbuf_addf(
				&cap,
				". Each interval's length is the machine's tick counter's "
				"(d(cpu_total_j) / %.1f Hz, the run's tick rate over its window) "
				"when within a second of the whole-second epochs' step, else the "
				"epochs': a stamp that skips a second shows no false dip",
				tp->tick_hz);
		else
			strbuf_adds(&cap, ". Each interval's length is its epochs' step (whole "
					  "seconds; the run's ticks are not trusted as a clock): a "
					  "stamp that skips a second can show a dip");
		strbuf_adds(&cap, "; rows sharing an epoch are not drawn.");
		caption_left_out(&cap, series, 2);
		rc = plot_draw(&spec, series, 2, image);
		caption_put(t, &cap, rc);
	}
	free(tt);
	strbuf_release(&what);
	strbuf_release(&cap);
	return rc;
}

/* Colours of the memory plot's groups (constants: plot_series.with), in turn. */
static const char *const group_colors[] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7",
					   "#e69f00", "#56b4e9", "#7f7f7f", "#000000"};
#define NCOLORS (sizeof(group_colors) / sizeof(group_colors[0]))
#define NLINE 50

int plots_memory(const struct plot_target *t, const char *by, const char *metric,
		 const struct memory_result *mr, char **image)
{
	const struct memory *m = &mr->mem;
	size_t ng = m->nfits, np = mr->npoints;
	double *buf = NULL;
	char *tt = title("memory", t), *x = label(by), *y = label(metric);
	char **texts = NULL; /* per group: 3 titles and 3 `with` strings */
	struct plot_series *series = NULL;
	struct strbuf cap = STRBUF_INIT;
	size_t nseries = 0;
	int rc = 0;
	if (!tt || !x || !y || !(buf = malloc((np + 4 * NLINE * ng + 1) * 2 * sizeof(double))) ||
	    !(texts = calloc(6 * ng + 1, sizeof(*texts))) ||
	    !(series = calloc(3 * ng + 1, sizeof(*series))))
		rc = err_set("out of memory");
	if (rc == 0 && ng == 0)
		rc = err_set("nothing to plot: the memory analysis has no group");
	if (rc == 0) {
		double *px = buf, *py = px + np, *curves = py + np;
		struct plot_spec spec = spec_for(t, tt, x, y);
		size_t used = 0;
		spec.pad = true;
		strbuf_addf(&cap,
			    "Every run's %s against %s (points), with each group's OLS line "
			    "and its 95%% confidence band for the mean, one colour per group "
			    "(%zu group%s, as in the table above)",
			    metric, by, ng, ng == 1 ? "" : "s");
		for (size_t g = 0; g < ng; g++) {
			const struct memory_fit *f = &m->fits[g];
			const char *name = f->group && *f->group ? f->group : "all runs";
			const char *color = group_colors[g % NCOLORS];
			double xmin = INFINITY, xmax = -INFINITY, *lx = curves + 4 * NLINE * g,
			       *ly = lx + NLINE, *lo = ly + NLINE, *hi = lo + NLINE;
			size_t start = used;
			struct strbuf sb = STRBUF_INIT;
			for (size_t i = 0; i < np; i++) {
				if (strcmp(mr->points[i].group ? mr->points[i].group : "",
					   f->group ? f->group : ""))
					continue;
				px[used] = mr->points[i].level;
				py[used++] = mr->points[i].value;
				xmin = fmin(xmin, mr->points[i].level);
				xmax = fmax(xmax, mr->points[i].level);
			}
			if (f->ok && f->ols.n > 2) {
				double tq = gsl_cdf_tdist_Pinv(0.975, (double)f->ols.n - 2.0);
				const struct ols *o = &f->ols;
				for (size_t i = 0; i < NLINE; i++) {
					double xv =
						xmin + (xmax - xmin) * (double)i / (NLINE - 1.0);
					/* se of the fitted mean: sqrt(cov00 + 2 x cov01 + x^2
					 * cov11) */
					double se = sqrt(o->cov00 + 2 * xv * o->cov01 +
							 xv * xv * o->cov11);
					lx[i] = xv;
					ly[i] = o->intercept + o->slope * xv;
					lo[i] = ly[i] - tq * se;
					hi[i] = ly[i] + tq * se;
				}
			}
			strbuf_addf(&sb, "%s: 95%% band of the line", name);
			texts[6 * g] = strbuf_detach(&sb);
			strbuf_addf(&sb,
				    "filledcurves fs transparent solid 0.15 noborder lc rgb '%s'",
				    color);
			texts[6 * g + 1] = strbuf_detach(&sb);
			strbuf_addf(&sb, "%s: OLS line", name);
			texts[6 * g + 2] = strbuf_detach(&sb);
			strbuf_addf(&sb, "lines lw 2 lc rgb '%s'", color);
			texts[6 * g + 3] = strbuf_detach(&sb);
			strbuf_addf(&sb, "%s: runs", name);
			texts[6 * g + 4] = strbuf_detach(&sb);
			strbuf_addf(&sb, "points pt %d ps 1 lc rgb '%s'", 7 + 2 * (int)(g % 4),
				    color);
			texts[6 * g + 5] = strbuf_detach(&sb);
			for (size_t k = 0; k < 6; k++)
				if (!texts[6 * g + k])
					rc = err_set("out of memory");
			{
				size_t nline = f->ok && f->ols.n > 2 ? NLINE : 0;
				series[nseries++] = (struct plot_series){
					texts[6 * g], PLOT_BAND, nline,           lx, ly, lo,
					hi,           false,     texts[6 * g + 1]};
				series[nseries++] = (struct plot_series){texts[6 * g + 2],
									 PLOT_LINES,
									 nline,
									 lx,
									 ly,
									 NULL,
									 NULL,
									 false,
									 texts[6 * g + 3]};
				series[nseries++] = (struct plot_series){
					texts[6 * g + 4], PLOT_POINTS, used - start, px + start,
					py + start,       NULL,        NULL,         false,
					texts[6 * g + 5]};
			}
			if (f->ok)
				strbuf_addf(&cap, "; %s: n %zu, slope %.4g %s per %s", name,
					    f->ols.n, f->ols.slope, plots_unit(metric), by);
			else
				strbuf_addf(&cap, "; %s: %zu runs, no line (%s)", name,
					    used - start, *f->note ? f->note : "no fit");
		}
		strbuf_adds(&cap, ".");
		caption_runs(&cap, t, np);
		caption_left_out(&cap, series, nseries);
		if (rc == 0)
			rc = plot_draw(&spec, series, nseries, image);
		caption_put(t, &cap, rc);
	}
	for (size_t k = 0; texts && k < 6 * ng; k++)
		free(texts[k]);
	free(texts);
	free(series);
	free(buf);
	free(tt);
	free(x);
	free(y);
	strbuf_release(&cap);
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
		return plots_memory(t, req->by, metric, &res->memory, image);
	}
	return err_set("unknown plot kind %d", (int)req->kind);
}
