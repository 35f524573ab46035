/* plot: see plot.h. */
#include "plot.h"

#include "../common/err.h"
#include "../common/outfile.h"
#include "render.h"
#include "session.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *plot_extension(enum plot_format format)
{
	return format == PLOT_PNG ? "png" : "svg";
}

int plot_quote(struct strbuf *sb, const char *text)
{
	/*
	 * gnuplot 5.4 reads '' right after an opening quote as an empty string,
	 * so doubling quotes breaks on a leading or repeated quote; a "'" piece
	 * would confuse gnuplot's macro scanner (it then expands @names). So a
	 * quote is made by sprintf('%c',39) and concatenated:
	 * 'it'.sprintf('%c',39).'s'. The text never leaves single quotes.
	 */
	int bad = strbuf_add(sb, "'", 1);
	for (const unsigned char *p = (const unsigned char *)text; p && *p; p++) {
		if (*p < 0x20 || *p == 0x7f)
			continue; /* a newline would end the command: drop every control byte */
		bad |= *p == '\'' ? strbuf_adds(sb, "'.sprintf('%c',39).'")
				  : strbuf_add(sb, (const char *)p, 1);
	}
	bad |= strbuf_add(sb, "'", 1);
	return bad ? err_set("out of memory") : 0;
}

void plot_data_text(FILE *fp, const char *text)
{
	for (const unsigned char *p = (const unsigned char *)text; p && *p; p++)
		fputc(*p < 0x20 || *p == 0x7f || *p == '"' ? ' ' : *p, fp);
}

int plot_begin(struct strbuf *script, enum plot_format format, const char *image,
	       const char *title, const char *xlabel, const char *ylabel)
{
	int rc = 0;
	strbuf_adds(script, format == PLOT_PNG
				    ? "set terminal pngcairo size 1000,650 noenhanced font 'sans,10'\n"
				    : "set terminal svg size 1000,650 noenhanced font 'sans,11' "
				      "background rgb 'white'\n");
	strbuf_adds(script, "set output ");
	rc |= plot_quote(script, image);
	strbuf_adds(script, "\nset title ");
	rc |= plot_quote(script, title);
	strbuf_adds(script, "\nset xlabel ");
	rc |= plot_quote(script, xlabel);
	strbuf_adds(script, "\nset ylabel ");
	rc |= plot_quote(script, ylabel);
	strbuf_adds(script, "\nset grid\nset key outside below center horizontal\nset datafile separator '\\t'\n");
	return rc;
}

static const char *const style_names[] = {"points pt 7 ps 0.8", "lines lw 2",
					  "linespoints pt 7 lw 2", "yerrorbars pt 7 lw 1.5",
					  "filledcurves fs transparent solid 0.25 noborder",
					  "boxes fs solid 0.6"};

size_t plot_series_points(const struct plot_series *ps)
{
	size_t n = 0;
	for (size_t i = 0; i < ps->n; i++)
		n += !isnan(ps->x[i]) && !isnan(ps->y[i]);
	return n;
}

bool plot_series_drawable(const struct plot_series *ps)
{
	bool line = ps->style == PLOT_LINES || ps->style == PLOT_LINESPOINTS ||
		    ps->style == PLOT_BAND;
	return plot_series_points(ps) >= (line ? 2u : 1u);
}

/*
 * Series that are not drawable are left out: gnuplot does not count an
 * empty block as an index, and a one-point line would be a key entry with
 * nothing drawn.
 */
static int write_data(const char *path, const char *display, const struct plot_series *series,
		      size_t nseries)
{
	FILE *fp = NULL;
	int rc = outfile_create(path, display, &fp);
	if (rc)
		return rc;
	fprintf(fp, "# coreplan plot data: one block per series with points (gnuplot index)\n");
	for (size_t s = 0, written = 0; s < nseries; s++) {
		const struct plot_series *ps = &series[s];
		bool range = ps->style == PLOT_ERRORBARS || ps->style == PLOT_BAND;
		if (!plot_series_drawable(ps))
			continue;
		fprintf(fp, "%s# ", written++ ? "\n\n" : "");
		plot_data_text(fp, ps->title);
		fprintf(fp, "\n");
		for (size_t i = 0; i < ps->n; i++) {
			if (isnan(ps->x[i]) || isnan(ps->y[i]))
				continue;
			fprintf(fp, "%.17g\t%.17g", ps->x[i], ps->y[i]);
			if (range)
				fprintf(fp, "\t%.17g\t%.17g", ps->y_low[i], ps->y_high[i]);
			fprintf(fp, "\n");
		}
	}
	return outfile_close(fp, display);
}

static int write_script(const char *path, const char *display, const char *text)
{
	FILE *fp = NULL;
	int rc = outfile_create(path, display, &fp);
	if (rc)
		return rc;
	fputs(text, fp);
	return outfile_close(fp, display);
}

static int plot_commands(struct strbuf *sb, const struct plot_spec *spec,
			 const struct plot_series *series, size_t nseries, const char *data)
{
	size_t index = 0;
	int rc = 0;
	strbuf_adds(sb, "plot ");
	for (size_t s = 0; s < nseries; s++) {
		const struct plot_series *ps = &series[s];
		const char *using = ps->style == PLOT_ERRORBARS ? "1:2:3:4"
				    : ps->style == PLOT_BAND    ? "1:3:4"
								: "1:2";
		if (!plot_series_drawable(ps))
			continue;
		strbuf_addf(sb, "%s", index ? ", \\\n     " : "");
		rc |= plot_quote(sb, data);
		strbuf_addf(sb, " index %zu using %s with %s%s title ", index++, using,
			    ps->with ? ps->with : style_names[ps->style],
			    ps->y2 ? " axes x1y2" : "");
		rc |= plot_quote(sb, ps->title);
	}
	if (spec->has_hline) {
		strbuf_addf(sb, ", \\\n     %.17g with lines lw 2 dt 2 lc rgb 'red' title ", spec->hline);
		rc |= plot_quote(sb, spec->hline_title ? spec->hline_title : "");
	}
	strbuf_adds(sb, "\n");
	return rc;
}

static int decorations(struct strbuf *sb, const struct plot_spec *spec)
{
	int rc = 0;
	if (spec->log2_x)
		strbuf_adds(sb, "set logscale x 2\n");
	if (spec->pad) /* margins: the first, last and highest points' marks are not cut */
		strbuf_adds(sb, "set offsets graph 0.03, graph 0.03, graph 0.05, 0\n");
	if (spec->y2label) {
		strbuf_adds(sb, "set y2tics\nset ytics nomirror\nset y2label ");
		rc |= plot_quote(sb, spec->y2label);
		strbuf_adds(sb, "\n");
	}
	if (spec->has_shade) {
		strbuf_addf(sb,
			    "set object 1 rect from %.17g, graph 0 to %.17g, graph 1 behind "
			    "fc rgb '#dde8f8' fs solid 1.0 noborder\n",
			    spec->shade_from, spec->shade_to);
		if (spec->shade_label) {
			strbuf_addf(sb, "set label 1 ");
			rc |= plot_quote(sb, spec->shade_label);
			strbuf_addf(sb, " at %.17g, graph 0.97\n", spec->shade_from);
		}
	}
	if (spec->has_vline) {
		strbuf_addf(sb,
			    "set arrow 1 from %.17g, graph 0 to %.17g, graph 1 nohead dt 2 lw 1.5 "
			    "lc rgb '#404040' front\n",
			    spec->vline, spec->vline);
		if (spec->vline_label) {
			strbuf_adds(sb, "set label 2 ");
			rc |= plot_quote(sb, spec->vline_label);
			strbuf_addf(sb, " at %.17g, graph 0.03 right offset -0.5, 0 front\n",
				    spec->vline);
		}
	}
	if (spec->xtic_labels) {
		strbuf_adds(sb, "set xtics rotate by -45 (");
		for (size_t i = 0; i < spec->nxtic_labels; i++) {
			strbuf_addf(sb, "%s", i ? ", " : "");
			rc |= plot_quote(sb, spec->xtic_labels[i]);
			strbuf_addf(sb, " %zu", i);
		}
		strbuf_adds(sb, ")\nset boxwidth 0.7\nset yrange [0:*]\n");
	}
	return rc;
}

/* The three files of a plot: the image, NAME.EXT.tsv and NAME.EXT.gp. */
struct plot_files {
	struct strbuf img, data, gp;
	struct strbuf rel_img, rel_data; /* "./NAME": what the script names */
};

static int plot_files_init(struct plot_files *f, const struct plot_spec *spec)
{
	int bad;
	memset(f, 0, sizeof(*f));
	bad = strbuf_addf(&f->img, "%s.%s", spec->name, plot_extension(spec->format));
	bad |= strbuf_addf(&f->data, "%s.tsv", strbuf_str(&f->img));
	bad |= strbuf_addf(&f->gp, "%s.gp", strbuf_str(&f->img));
	bad |= strbuf_addf(&f->rel_img, "./%s", strbuf_str(&f->img));
	bad |= strbuf_addf(&f->rel_data, "./%s", strbuf_str(&f->data));
	return bad ? err_set("out of memory") : 0;
}

static void plot_files_release(struct plot_files *f)
{
	strbuf_release(&f->img);
	strbuf_release(&f->data);
	strbuf_release(&f->gp);
	strbuf_release(&f->rel_img);
	strbuf_release(&f->rel_data);
}

/* DIR/NAME, DIR as messages spell it. */
static char *shown(const struct outdir *od, const struct strbuf *name)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "%s/%s", outdir_display(od), strbuf_str(name));
	return strbuf_detach(&sb);
}

int plot_draw(const struct plot_spec *spec, const struct plot_series *series, size_t nseries,
	      char **image)
{
	struct strbuf script = STRBUF_INIT, path = STRBUF_INIT;
	struct plot_files f;
	struct outdir *od = NULL;
	char *stage = NULL, *show = NULL;
	size_t drawable = 0;
	bool force = spec->out.force;
	int rc = plot_files_init(&f, spec);
	*image = NULL;
	for (size_t s = 0; s < nseries; s++)
		drawable += plot_series_drawable(&series[s]);
	if (rc == 0 && drawable == 0)
		rc = err_set("nothing to plot: no series has a point");
	if (rc == 0)
		rc = outfile_name_check(strbuf_str(&f.img), "the plot's image name");
	/* nothing is written before all three names are known to be free (or coreplan's) */
	if (rc == 0)
		rc = outdir_open(spec->dir, spec->out.display_dir, false, &od);
	/* a report's plots (drawn in its session) are its; the others are plot's */
	if (rc == 0)
		outdir_set_writer(od, spec->out.session ? "report" : "plot");
	if (rc == 0)
		rc = outdir_check(od, strbuf_str(&f.img), force);
	if (rc == 0)
		rc = outdir_check(od, strbuf_str(&f.data), force);
	if (rc == 0)
		rc = outdir_check(od, strbuf_str(&f.gp), force);
	if (rc == 0)
		rc = outdir_stage(od, &stage);
	if (rc == 0) {
		char *d = shown(od, &f.data);
		strbuf_addf(&path, "%s/%s", stage, strbuf_str(&f.data));
		rc = d ? write_data(strbuf_str(&path), d, series, nseries)
		       : err_set("out of memory");
		free(d);
	}
	if (rc == 0)
		rc = plot_begin(&script, spec->format, strbuf_str(&f.rel_img), spec->title,
				spec->xlabel, spec->ylabel);
	if (rc == 0)
		rc = decorations(&script, spec);
	if (rc == 0)
		rc = plot_commands(&script, spec, series, nseries, strbuf_str(&f.rel_data));
	if (rc == 0)
		strbuf_adds(&script, "unset output\n");
	if (rc == 0) {
		char *g = shown(od, &f.gp);
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", stage, strbuf_str(&f.gp));
		rc = g ? write_script(strbuf_str(&path), g, strbuf_str(&script))
		       : err_set("out of memory");
		free(g);
	}
	if (rc == 0 && !(show = shown(od, &f.img)))
		rc = err_set("out of memory");
	if (rc == 0)
		rc = plot_session_render(spec->out.session, strbuf_str(&script), stage, show,
					 strbuf_str(&f.img));
	/* drawn: all three move to their names; no gnuplot: the data and script when asked */
	if (rc == 0 || (rc == PLOT_NOT_INSTALLED && spec->out.data_without_image)) {
		int moved = outdir_commit(od, stage, strbuf_str(&f.data), force);
		if (moved == 0)
			moved = outdir_commit(od, stage, strbuf_str(&f.gp), force);
		if (moved == 0 && rc == 0)
			moved = outdir_commit(od, stage, strbuf_str(&f.img), force);
		if (moved == 0)
			moved = outdir_save(od);
		if (moved)
			rc = moved;
	}
	if (rc == 0)
		*image = strbuf_detach(&f.img);
	outdir_unstage(stage);
	free(stage);
	free(show);
	outdir_free(od);
	strbuf_release(&script);
	strbuf_release(&path);
	plot_files_release(&f);
	return rc;
}
