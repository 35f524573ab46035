/* sizing_plot: see sizing_plot.h. */
#include "sizing_plot.h"

#include "../common/err.h"
#include "../common/strbuf.h"
#include "plot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void sizing_plot_release(struct sizing_plot *p)
{
	if (!p)
		return;
	free(p->image);
	free(p->data);
	free(p->script);
	free(p->caption);
	memset(p, 0, sizeof(*p));
}

/* PATH.EXT */
static char *beside(const char *path, const char *ext)
{
	struct strbuf sb = STRBUF_INIT;
	if (strbuf_addf(&sb, "%s.%s", path, ext)) {
		strbuf_release(&sb);
		return NULL;
	}
	return strbuf_detach(&sb);
}

/*
 * Is the cell drawn? Only a cell that counts as its instance's capacity
 * (eligible: whole instance, the target's conditions, a session count
 * asked for): a GOMAXPROCS=1 run beside the prediction would mislead.
 */
static bool drawn(const struct size_result *res, const struct size_cell *c)
{
	(void)res;
	return c->n > 0 && c->eligible;
}

int sizing_plot_draw(const struct size_result *res, const char *path, const struct plot_output *o,
		     struct sizing_plot *out)
{
	const struct size_inputs *in = &res->in;
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	const char *dot = strrchr(base, '.');
	size_t n = res->cat.n ? res->cat.n : 1, m = 0, k = 0;
	size_t nc = res->ncells ? res->ncells : 1;
	char *dir = slash ? strndup(path, (size_t)(slash - path)) : NULL;
	char *stem = dot && dot != base ? strndup(base, (size_t)(dot - base)) : strdup(base);
	const char **labels = calloc(n, sizeof(*labels));
	double *buf = malloc(4 * n * sizeof(double)), *meas = malloc(4 * nc * sizeof(double));
	char *image = NULL, title[320], target[64];
	enum plot_format format = dot && !strcmp(dot, ".png") ? PLOT_PNG : PLOT_SVG;
	int rc = (dir || !slash) && stem && labels && buf && meas ? 0 : err_set("out of memory");
	memset(out, 0, sizeof(*out));
	if (rc == 0 && (!dot || dot == base || (strcmp(dot, ".svg") && strcmp(dot, ".png"))))
		rc = err_set("the plot '%s' must end in .svg or .png", path);
	for (size_t i = 0; rc == 0 && i < res->cat.n; i++) {
		const struct size_row *r = &res->rows[i];
		size_t shown = 0, j = 0;
		for (size_t c = r->first_cell; c < r->first_cell + r->ncells; c++)
			shown += drawn(res, &res->cells[c]);
		if (!r->predicted_ok && shown == 0)
			continue;
		labels[m] = r->inst->instance;
		buf[m] = (double)m;
		buf[n + m] = r->predicted;
		buf[2 * n + m] = r->predicted_lo;
		buf[3 * n + m] = r->predicted_hi;
		/* the measured cells side by side across the box (width 0.7) */
		for (size_t c = r->first_cell; c < r->first_cell + r->ncells; c++) {
			const struct size_cell *cell = &res->cells[c];
			if (!drawn(res, cell))
				continue;
			meas[k] = (double)m - 0.3 + 0.6 * ((double)j++ + 0.5) / (double)shown;
			meas[nc + k] = cell->s.median;
			meas[2 * nc + k] = cell->s.min;
			meas[3 * nc + k] = cell->s.max;
			k++;
		}
		m++;
	}
	if (rc == 0 && m == 0)
		rc = err_set("no instance has a prediction or a measurement to plot (see the "
			     "verdicts)");
	if (rc == 0) {
		out->data = beside(path, "tsv");
		out->script = beside(path, "gp");
		if (!out->data || !out->script)
			rc = err_set("out of memory");
	}
	if (rc == 0) {
		struct plot_series series[3] = {
			{"predicted (sustained)", PLOT_BOXES, m, buf, buf + n, NULL, NULL, false},
			{"predicted bounds", PLOT_ERRORBARS, m, buf, buf + n, buf + 2 * n,
			 buf + 3 * n, false},
			{"measured (median, min-max)", PLOT_ERRORBARS, k, meas, meas + nc,
			 meas + 2 * nc, meas + 3 * nc, false}};
		struct plot_spec spec;
		memset(&spec, 0, sizeof(spec));
		if (in->has_sessions)
			snprintf(title, sizeof(title), "sizing: target %g %s at %s sessions",
				 in->target, res->metric, res->sessions.text);
		else
			snprintf(title, sizeof(title), "sizing: target %g %s", in->target,
				 res->metric);
		snprintf(target, sizeof(target), "target %g", in->target);
		spec.dir = dir ? (*dir ? dir : "/") : ".";
		spec.name = stem;
		spec.format = format;
		if (o)
			spec.out = *o;
		if (!o || !o->display_dir)
			spec.out.display_dir = dir ? (*dir ? dir : "/") : NULL;
		spec.out.data_without_image = true; /* the sizing stands without its picture */
		spec.title = title;
		spec.xlabel = "instance";
		spec.ylabel = "throughput (interactions/s): predicted and measured";
		spec.has_hline = true;
		spec.hline = in->target;
		spec.hline_title = target;
		spec.xtic_labels = labels;
		spec.nxtic_labels = m;
		/* a series without a point is left out by plot_draw (plot_series_drawable) */
		rc = plot_draw(&spec, series, 3, &image);
		if (rc == PLOT_NOT_INSTALLED) {
			/* the table stands without its picture */
			warn_add("sizing plot not drawn: gnuplot is not installed (apt-get install "
				 "gnuplot-nox)");
			rc = 0;
		} else if (rc == 0 && !(out->image = strdup(path))) {
			rc = err_set("out of memory");
		} else if (rc == 0) {
			struct strbuf cap = STRBUF_INIT;
			size_t runs = 0;
			for (size_t c = 0; c < res->ncells; c++)
				runs += drawn(res, &res->cells[c]) ? res->cells[c].n : 0;
			strbuf_addf(&cap,
				    "The predicted sustained %s of %zu instance%s (boxes; error bars: "
				    "the prediction's bounds) and beside them the measured cells "
				    "(median with min-max bars: %zu cell%s, %zu runs, %s) against the "
				    "target %g (dashed red line).",
				    res->metric, m, m == 1 ? "" : "s", k, k == 1 ? "" : "s", runs,
				    res->sessions.given
					    ? "the whole-instance cells at the target's conditions and "
					      "session counts"
					    : "the whole-instance cells at the target's conditions",
				    in->target);
			if (k == 0)
				strbuf_adds(&cap, " No instance has a measured cell to draw: only "
						  "predictions are shown.");
			strbuf_adds(&cap, " Instances with neither a prediction nor a measurement "
					  "are not drawn (see the verdicts).");
			if (!(out->caption = strbuf_detach(&cap)))
				rc = err_set("out of memory");
		}
	}
	free(image);
	free(dir);
	free(stem);
	free(labels);
	free(buf);
	free(meas);
	if (rc)
		sizing_plot_release(out);
	return rc;
}
