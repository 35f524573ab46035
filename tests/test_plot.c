/*
 * Unit tests for plot/plot: quoting user strings for gnuplot, data-file
 * text, and real renders through gnuplot.
 *
 * plot_quote: every expected string below is written out by hand from the
 * rule in plot.h and libraries.md 2.4 (single quotes, each ' doubled, every
 * byte below 0x20 and 0x7f dropped, everything else kept), for the strings
 * that inject into gnuplot when quoted any other way: a quote, a backquoted
 * command (run inside double quotes), system("..."), a newline followed by
 * a command (a raw newline ends the command, even inside single quotes),
 * CR, other control bytes, @macro and '; !cmd.
 *
 * The renders run gnuplot for real (it must be on PATH) into a mkdtemp
 * folder, with those strings in the title, the axis labels, the series
 * titles, a shade label, a target line's title and box labels, as SVG and
 * as PNG. Each string's commands would create a file: a relative name
 * (gnuplot runs in the plot folder) and an absolute one,
 * /tmp/coreplan-pwned-<pid>-<n>. After every render the folder must hold
 * only the image NAME.EXT, NAME.EXT.gp, NAME.EXT.tsv and the folder's marker
 * .coreplan-outputs, and no pwned file may exist.
 *
 * plot_render's failures: a script with a syntax error gives ERR_DATA and
 * gnuplot's own message; a script that draws nothing gives ERR_DATA; a
 * file already at the image's name is an error and stays as it was; PATH
 * without gnuplot gives PLOT_NOT_INSTALLED.
 *
 * plot_draw's files are checked in test_plot_draw.c, plot/plots in
 * test_plots.c (the helpers they share are in plot_util.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "common/err.h"
#include "common/strbuf.h"
#include "plot/plot.h"
#include "plot_util.h"
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- helpers ---- */

static void check_quote(const char *text, const char *expected)
{
	char *got = quoted(text);
	if (strcmp(got, expected) != 0)
		fail_msg("plot_quote: got [%s], expected [%s]", got, expected);
	free(got);
}

/*
 * The output is a gnuplot string expression of single-quoted pieces with no
 * quote inside, joined by .sprintf('%c',39). (a quote made without writing
 * one); no control byte anywhere.
 */
static void check_well_formed(const char *q)
{
	static const char joint[] = ".sprintf('%c',39).";
	size_t n = strlen(q), i = 0;
	for (size_t k = 0; k < n; k++)
		if ((unsigned char)q[k] < 0x20 || (unsigned char)q[k] == 0x7f)
			fail_msg("control byte 0x%02x at %zu in [%s]", (unsigned char)q[k], k, q);
	for (;;) {
		if (q[i] != '\'')
			fail_msg("piece does not open with a quote at %zu: [%s]", i, q);
		i++;
		while (q[i] && q[i] != '\'')
			i++;
		if (!q[i])
			fail_msg("unterminated piece: [%s]", q);
		i++;
		if (!q[i])
			return;
		if (strncmp(q + i, joint, sizeof(joint) - 1) != 0)
			fail_msg("lone quote at %zu ends the string early: [%s]", i - 1, q);
		i += sizeof(joint) - 1;
	}
}

/* The render tests need gnuplot on PATH; T is a fresh folder. */
static void gnuplot_folder(struct tmp *t)
{
	if (!gnuplot_on_path())
		fail_msg("gnuplot is not on PATH: the render tests need it (apt-get install "
			 "gnuplot-nox)");
	tmp_make(t);
}

/* plot_render of SCRIPT into DIR fails with ERR_DATA and a message holding PART. */
static void render_refused(const char *script, const char *dir, const char *gp, const char *image,
			   const char *part)
{
	int rc;
	err_clear();
	rc = plot_render(script, dir, gp, image);
	assert_int_equal(rc, ERR_DATA);
	if (!strstr(err_msg(), part))
		fail_msg("plot_render of %s: '%s' is not in [%s]", gp, part, err_msg());
}

/* ---- plot_quote ---- */

/*
 * plot_quote's cases, each under the rule or the injection it checks (the
 * test test_quote_RULE runs them): the expected strings are written out by
 * hand from the rule above.
 */
/* the joint plot_quote puts where a quote was: .sprintf('%c',39). */
#define QJ ".sprintf('%c',39)."

struct quote_case {
	const char *rule;
	const char *text;
	const char *expected;
};

static const struct quote_case quote_cases[] = {
	{"plain", "", "''"},
	{"plain", NULL, "''"},
	{"plain", "tput (interactions/s)", "'tput (interactions/s)'"},
	{"plain", "µs \xe2\x80\x94 UTF-8 kept", "'µs \xe2\x80\x94 UTF-8 kept'"},
	{"quote", "'", "''" QJ "''"},
	{"quote", "it's", "'it'" QJ "'s'"},
	{"quote", "''", "''" QJ "''" QJ "''"},
	{"quote", "a'b'c", "'a'" QJ "'b'" QJ "'c'"},
	{"backquote", "`touch X`", "'`touch X`'"},
	{"backquote", "a `touch X` b", "'a `touch X` b'"},
	{"backquote", "\"`touch X`\"", "'\"`touch X`\"'"},
	{"system", "system(\"touch X\")", "'system(\"touch X\")'"},
	{"system", "x' . system(\"touch X\") . '", "'x'" QJ "' . system(\"touch X\") . '" QJ "''"},
	{"newline_command", "\nsystem \"touch X\"", "'system \"touch X\"'"},
	{"newline_command", "title\nsystem \"touch X\"\n", "'titlesystem \"touch X\"'"},
	{"newline_command", "a'\n!touch X", "'a'" QJ "'!touch X'"},
	{"cr", "a\rb", "'ab'"},
	{"cr", "a\r\nsystem \"touch X\"", "'asystem \"touch X\"'"},
	{"control_bytes", "a\tb", "'ab'"},
	{"control_bytes", "\x01\x02\x03\x04\x05\x06\x07\x08", "''"},
	{"control_bytes", "esc\x1b[31mred", "'esc[31mred'"},
	{"control_bytes", "del\x7f!", "'del!'"},
	{"control_bytes", "\x0b\x0c\x0e\x0f\x10\x1f end", "' end'"},
	{"control_bytes", "\x80\xff", "'\x80\xff'"},
	{"macro", "@macro", "'@macro'"},
	{"macro", "@m; @m", "'@m; @m'"},
	{"bang", "'; !touch X", "''" QJ "'; !touch X'"},
	{"bang", "'; system \"touch X\"; '", "''" QJ "'; system \"touch X\"; '" QJ "''"},
	{"bang", "\\'", "'\\'" QJ "''"},
};

/* The cases of RULE (quote_cases); a rule without any is a failed test. */
static void check_quote_rule(const char *rule)
{
	size_t n = 0;
	for (size_t i = 0; i < ARRAY_LEN(quote_cases); i++) {
		if (strcmp(quote_cases[i].rule, rule) != 0)
			continue;
		check_quote(quote_cases[i].text, quote_cases[i].expected);
		n++;
	}
	if (n == 0)
		fail_msg("no plot_quote case under the rule '%s'", rule);
}

/* test_quote_RULE: *state is RULE */
static void test_quote_rule(void **state)
{
	check_quote_rule(*state);
}

/* Control bytes (the table's), and every byte from 0x01 to 0x1f then 0x7f at once. */
static void test_quote_control_bytes(void **state)
{
	char all[40];
	size_t n = 0;
	(void)state;
	check_quote_rule("control_bytes");
	for (int c = 1; c < 0x20; c++)
		all[n++] = (char)c;
	all[n++] = 0x7f;
	all[n++] = 'z';
	all[n] = '\0';
	check_quote(all, "'z'");
}

static void test_quote_appends(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	(void)state;
	assert_int_equal(strbuf_adds(&sb, "set title "), 0);
	assert_int_equal(plot_quote(&sb, "a'b"), 0);
	assert_int_equal(strbuf_adds(&sb, "\n"), 0);
	assert_string_equal(strbuf_str(&sb), "set title 'a'.sprintf('%c',39).'b'\n");
	strbuf_release(&sb);
}

/* Every hostile string quotes into one well-formed single-quoted string. */
static void test_quote_well_formed(void **state)
{
	struct tmp t;
	char *h[NHOSTILE];
	(void)state;
	snprintf(t.dir, sizeof(t.dir), "/nonexistent");
	for (size_t i = 0; i < ARRAY_LEN(t.pwned); i++) {
		snprintf(t.pwned[i], sizeof(t.pwned[i]), "/tmp/p%zu", i);
		snprintf(t.rel_pwned[i], sizeof(t.rel_pwned[i]), "X%zu", i);
	}
	for (int runs = 0; runs < 2; runs++) {
		hostile_strings(&t, h, runs);
		for (size_t i = 0; i < NHOSTILE; i++) {
			char *q = quoted(h[i]);
			check_well_formed(q);
			free(q);
		}
	}
}

/* ---- plot_data_text ---- */

static char *data_text(const char *text)
{
	struct memout m;
	plot_data_text(memout_open(&m), text);
	return memout_text(&m);
}

static void test_data_text(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{"plain", "plain"},
		{"a\tb", "a b"},
		{"a\nb", "a b"},
		{"a\r\nb", "a  b"},
		{"a\x01\x1f\x7f"
		 "b",
		 "a   b"},
		{"esc\x1b[1m", "esc [1m"},
		{"q\"uote", "q uote"},
		{"it's `touch X`", "it's `touch X`"},
		{"\nEOD\n", " EOD "},
		{"", ""},
	};
	(void)state;
	for (size_t i = 0; i < ARRAY_LEN(cases); i++) {
		char *got = data_text(cases[i].in);
		if (strcmp(got, cases[i].out) != 0)
			fail_msg("plot_data_text case %zu: got [%s], expected [%s]", i, got,
				 cases[i].out);
		free(got);
	}
	{
		char *got = data_text(NULL);
		assert_string_equal(got, "");
		free(got);
	}
}

/* ---- plot_begin ---- */

static void test_begin_hostile(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	const char *s;
	size_t lines = 0;
	(void)state;
	assert_int_equal(plot_begin(&sb, PLOT_SVG, "x.svg", "t'\nsystem \"touch X\"", "`touch X`",
				    "'; !touch X"),
			 0);
	s = strbuf_str(&sb);
	if (!strstr(s, "\nset output 'x.svg'\n"))
		fail_msg("no output line in:\n%s", s);
	if (!strstr(s, "\nset title 't'.sprintf('%c',39).'system \"touch X\"'\n"))
		fail_msg("title not quoted as expected in:\n%s", s);
	if (!strstr(s, "\nset xlabel '`touch X`'\n"))
		fail_msg("xlabel not quoted as expected in:\n%s", s);
	if (!strstr(s, "\nset ylabel ''.sprintf('%c',39).'; !touch X'\n"))
		fail_msg("ylabel not quoted as expected in:\n%s", s);
	if (!strstr(s, "noenhanced"))
		fail_msg("terminal is not noenhanced:\n%s", s);
	/* every line is a `set` command: nothing escaped onto a line of its own */
	for (const char *line = s; *line; line = strchr(line, '\n') + 1) {
		if (strncmp(line, "set ", 4) != 0)
			fail_msg("line %zu is not a set command: [%.*s]", lines + 1,
				 (int)strcspn(line, "\n"), line);
		lines++;
		if (!strchr(line, '\n'))
			break;
	}
	strbuf_release(&sb);

	assert_int_equal(plot_begin(&sb, PLOT_PNG, "x.png", "t", "x", "y"), 0);
	if (strncmp(strbuf_str(&sb), "set terminal pngcairo", 21) != 0)
		fail_msg("PNG script does not start with pngcairo:\n%s", strbuf_str(&sb));
	strbuf_release(&sb);
}

/* ---- real renders ---- */

static const double xs[] = {1, 2, 4, 8};
static const double ys[] = {480, 860, 1540, 1800};
static const double lo[] = {470, 850, 1530, 1790};
static const double hi[] = {490, 880, 1550, 1810};

static void render_hostile(enum plot_format format, bool quote_runs)
{
	struct tmp t;
	char *h[NHOSTILE];
	char *image = NULL;
	const char *ext = plot_extension(format);
	char path[512], gp[64], tsv[64], img[64];
	struct plot_series series[NHOSTILE];
	struct plot_spec spec;
	int rc;

	gnuplot_folder(&t);
	hostile_strings(&t, h, quote_runs);
	for (size_t i = 0; i < NHOSTILE; i++) {
		static const enum plot_style styles[] = {
			PLOT_ERRORBARS, PLOT_LINES, PLOT_POINTS, PLOT_LINESPOINTS,
			PLOT_BAND,      PLOT_LINES, PLOT_POINTS, PLOT_LINESPOINTS};
		series[i] = (struct plot_series){h[i], styles[i], 4, xs, ys, lo, hi, i == 5};
	}
	memset(&spec, 0, sizeof(spec));
	spec.dir = t.dir;
	spec.name = "hostile";
	spec.format = format;
	spec.title = h[0];
	spec.xlabel = h[1];
	spec.ylabel = h[4];
	spec.y2label = h[5];
	spec.log2_x = true;
	spec.has_shade = true;
	spec.shade_from = 2;
	spec.shade_to = 4;
	spec.shade_label = h[6];
	spec.has_hline = true;
	spec.hline = 1000;
	spec.hline_title = h[7];

	rc = plot_draw(&spec, series, NHOSTILE, &image);
	check_not_pwned(&t); /* first: an injection matters more than a failed plot */
	if (rc != 0)
		fail_msg("plot_draw (%s) returned %d: %s", ext, rc, err_msg());
	snprintf(img, sizeof(img), "hostile.%s", ext);
	assert_non_null(image);
	assert_string_equal(image, img);
	snprintf(gp, sizeof(gp), "hostile.%s.gp", ext);
	snprintf(tsv, sizeof(tsv), "hostile.%s.tsv", ext);
	{
		const char *const names[] = {gp, tsv, img, ".coreplan-outputs", NULL};
		check_dir_holds(t.dir, names);
	}
	snprintf(path, sizeof(path), "%s/%s", t.dir, img);
	{
		size_t len = 0;
		char *data = slurp(path, &len);
		if (format == PLOT_PNG) {
			assert_true(len > 8);
			assert_memory_equal(data, "\x89PNG\r\n\x1a\n", 8);
		} else {
			char *text = xml_unescape(data);
			if (!strstr(data, "<svg"))
				fail_msg("'%s' is not an SVG", path);
			if (!strstr(data, "</svg>"))
				fail_msg("'%s' is not a complete SVG", path);
			/* the title, labels and every series title, literally */
			for (size_t i = 0; i < NHOSTILE; i++) {
				char *want = drawn(h[i]);
				if (!strstr(text, want))
					fail_msg("string %zu not drawn literally in the SVG: [%s]",
						 i, want);
				free(want);
			}
			if (!strstr(text, "touch") || !strstr(text, "it's"))
				fail_msg("the SVG lacks 'touch' or the quote in \"it's\"");
			free(text);
		}
		free(data);
	}
	/* the script holds no control byte except the line ends, and no line
	   starts with anything but a gnuplot command we wrote */
	snprintf(path, sizeof(path), "%s/%s", t.dir, gp);
	{
		char *script = slurp(path, NULL);
		for (const char *p = script; *p; p++)
			if (((unsigned char)*p < 0x20 && *p != '\n') || *p == 0x7f)
				fail_msg("control byte 0x%02x in the script", (unsigned char)*p);
		for (const char *line = script; *line;) {
			static const char *const starts[] = {"set ", "plot ", "     ",
							     "unset output", NULL};
			bool ok = false;
			for (size_t k = 0; starts[k]; k++)
				ok |= !strncmp(line, starts[k], strlen(starts[k]));
			if (!ok)
				fail_msg("unexpected script line: [%.*s]", (int)strcspn(line, "\n"),
					 line);
			line = strchr(line, '\n');
			if (!line)
				break;
			line++;
		}
		free(script);
	}
	/* the data file: series titles as comments, no control byte but \t and \n */
	snprintf(path, sizeof(path), "%s/%s", t.dir, tsv);
	{
		char *data = slurp(path, NULL);
		for (const char *p = data; *p; p++)
			if (((unsigned char)*p < 0x20 && *p != '\n' && *p != '\t') || *p == 0x7f)
				fail_msg("control byte 0x%02x in the data file", (unsigned char)*p);
		free(data);
	}
	/* re-plot from the folder, as plot.h promises: still no injection */
	{
		char cmd[600];
		snprintf(cmd, sizeof(cmd), "cd '%s' && gnuplot %s >/dev/null 2>&1", t.dir, gp);
		assert_int_equal(system(cmd), 0);
		check_not_pwned(&t);
	}
	free(image);
	tmp_remove(&t);
}

static void test_render_hostile_svg(void **state)
{
	(void)state;
	render_hostile(PLOT_SVG, false);
}

static void test_render_hostile_png(void **state)
{
	(void)state;
	render_hostile(PLOT_PNG, false);
}

/*
 * A string that starts with a quote, or holds two in a row. gnuplot 5.4's
 * tokeniser reads '''x' as '' followed by 'x', so the doubled-quote rule
 * alone makes such a plot fail (never run a command: the rest stays
 * quoted). A corpus name, tag or label may well start with a quote.
 */
static void test_render_leading_quote_svg(void **state)
{
	(void)state;
	render_hostile(PLOT_SVG, true);
}

/* Boxes with hostile tic labels (the sizing plot's shape). */
static void test_render_hostile_boxes(void **state)
{
	struct tmp t;
	char *h[NHOSTILE];
	char *image = NULL;
	const double bx[] = {0, 1, 2, 3, 4, 5, 6, 7};
	const double by[] = {5, 6, 7, 8, 9, 10, 11, 12};
	struct plot_series s;
	struct plot_spec spec;
	char path[512];
	int rc;
	(void)state;
	gnuplot_folder(&t);
	hostile_strings(&t, h, false);
	s = (struct plot_series){h[3], PLOT_BOXES, NHOSTILE, bx, by, NULL, NULL, false};
	memset(&spec, 0, sizeof(spec));
	spec.dir = t.dir;
	spec.name = "boxes";
	spec.format = PLOT_SVG;
	spec.title = h[2];
	spec.xlabel = h[5];
	spec.ylabel = h[6];
	spec.xtic_labels = (const char *const *)h;
	spec.nxtic_labels = NHOSTILE;
	rc = plot_draw(&spec, &s, 1, &image);
	check_not_pwned(&t);
	if (rc != 0)
		fail_msg("plot_draw returned %d: %s", rc, err_msg());
	{
		const char *const names[] = {"boxes.svg.gp", "boxes.svg.tsv", "boxes.svg",
					     ".coreplan-outputs", NULL};
		check_dir_holds(t.dir, names);
	}
	snprintf(path, sizeof(path), "%s/boxes.svg", t.dir);
	{
		char *data = slurp(path, NULL), *text = xml_unescape(data);
		for (size_t i = 0; i < NHOSTILE; i++) {
			char *want = drawn(h[i]);
			if (!strstr(text, want))
				fail_msg("label %zu not drawn literally: [%s]", i, want);
			free(want);
		}
		free(text);
		free(data);
	}
	free(image);
	tmp_remove(&t);
}

/* ---- series with no drawable point ---- */

/*
 * gnuplot's `index N` is the N-th block of data lines, blocks separated by
 * two or more blank lines; comment lines are skipped and a block with no
 * data line does not count (verified with gnuplot 5.4: a data file with an
 * empty middle block draws the third series under the second's title,
 * exit 0). block_rows() reads the data file that way: the finite (x, y)
 * rows of block `index`.
 */
static size_t block_rows(const char *data, size_t index, double *x, double *y, size_t max)
{
	size_t block = 0, blanks = 0, n = 0;
	bool any = false;
	for (const char *line = data; line && *line;) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		if (len == 0) {
			blanks++;
		} else if (line[0] != '#') {
			double a, b;
			if (any && blanks >= 2)
				block++;
			any = true;
			blanks = 0;
			if (block == index && sscanf(line, "%lf\t%lf", &a, &b) == 2 &&
			    isfinite(a) && isfinite(b) && n < max) {
				x[n] = a;
				y[n] = b;
				n++;
			}
		}
		line = end ? end + 1 : NULL;
	}
	return n;
}

/* Each `index N ... title 'T'` of the script draws series T's points. */
static void check_index_titles(const char *dir, const char *name, const struct plot_series *series,
			       size_t nseries)
{
	char path[512], problem[512] = "";
	char *script, *data;
	size_t plotted = 0;
	snprintf(path, sizeof(path), "%s/%s.svg.gp", dir, name);
	script = slurp(path, NULL);
	snprintf(path, sizeof(path), "%s/%s.svg.tsv", dir, name);
	data = slurp(path, NULL);
	for (const char *p = strstr(script, " index "); p && !problem[0];
	     p = strstr(p + 1, " index ")) {
		size_t index = strtoul(p + 7, NULL, 10), n, want = 0;
		const char *q = strstr(p, " title '");
		char title[256];
		size_t t = 0;
		double x[64], y[64];
		const struct plot_series *s = NULL;
		if (!q) {
			snprintf(problem, sizeof(problem), "index %zu has no title", index);
			break;
		}
		for (q += 8; *q && t + 1 < sizeof(title); q++) {
			if (*q == '\'' && q[1] == '\'')
				title[t++] = *q++;
			else if (*q == '\'')
				break;
			else
				title[t++] = *q;
		}
		title[t] = '\0';
		for (size_t k = 0; k < nseries; k++)
			if (!strcmp(series[k].title, title))
				s = &series[k];
		if (!s) {
			snprintf(problem, sizeof(problem),
				 "the script plots index %zu as '%s', no such series", index,
				 title);
			break;
		}
		n = block_rows(data, index, x, y, 64);
		for (size_t i = 0; i < s->n && !problem[0]; i++) {
			if (!isfinite(s->x[i]) || !isfinite(s->y[i]))
				continue;
			if (want >= n || x[want] != s->x[i] || y[want] != s->y[i])
				snprintf(problem, sizeof(problem),
					 "index %zu is drawn as '%s' but holds other points (row "
					 "%zu: %g %g, "
					 "series has %g %g)",
					 index, title, want, want < n ? x[want] : NAN,
					 want < n ? y[want] : NAN, s->x[i], s->y[i]);
			want++;
		}
		if (!problem[0] && n != want)
			snprintf(problem, sizeof(problem),
				 "index %zu is drawn as '%s': %zu points in the data file, the "
				 "series "
				 "has %zu",
				 index, title, n, want);
		plotted++;
	}
	free(script);
	free(data);
	if (!problem[0] && plotted == 0)
		snprintf(problem, sizeof(problem), "the script plots nothing");
	if (problem[0])
		fail_msg("%s", problem);
}

static const double nans[] = {NAN, NAN, NAN, NAN};
static const double big[] = {5000, 6000, 7000, 8000};

/*
 * Draw series s[0..n) as NAME.svg (y2label: NULL for none; what: the case,
 * for the failure message), then check every block's title.
 */
static void draw_and_check_titles(const char *name, const char *title, const char *y2label,
				  const struct plot_series *s, size_t n, const char *what)
{
	struct tmp t;
	char *image = NULL;
	struct plot_spec spec;
	int rc;
	gnuplot_folder(&t);
	memset(&spec, 0, sizeof(spec));
	spec.dir = t.dir;
	spec.name = name;
	spec.title = title;
	spec.xlabel = y2label ? "s" : "x";
	spec.ylabel = y2label ? "cores" : "y";
	spec.y2label = y2label;
	rc = plot_draw(&spec, s, n, &image);
	if (rc != 0)
		fail_msg("plot_draw%s returned %d: %s", what, rc, err_msg());
	free(image);
	check_index_titles(t.dir, name, s, n);
	tmp_remove(&t);
}

/* The trace plot's shape: app cores unknown (no clock tick rate), RSS known. */
static void test_render_empty_first_series(void **state)
{
	const struct plot_series s[2] = {{"app cores", PLOT_LINES, 4, xs, nans, NULL, NULL, false},
					 {"app RSS", PLOT_LINES, 4, xs, big, NULL, NULL, true}};
	(void)state;
	draw_and_check_titles("first", "trace", "MiB", s, 2, " with an all-NaN first series");
}

/* A block whose values are all missing, between two others. */
static void test_render_empty_middle_series(void **state)
{
	const struct plot_series s[3] = {{"block 1", PLOT_POINTS, 4, xs, ys, NULL, NULL, false},
					 {"block 2", PLOT_POINTS, 4, xs, nans, NULL, NULL, false},
					 {"block 3", PLOT_POINTS, 4, xs, big, NULL, NULL, false}};
	(void)state;
	draw_and_check_titles("middle", "blocks", NULL, s, 3, " with an all-NaN middle series");
}

/* The ordinary case, for contrast: every series in its own block. */
static void test_render_index_titles(void **state)
{
	const struct plot_series s[3] = {{"a", PLOT_ERRORBARS, 4, xs, ys, lo, hi, false},
					 {"b", PLOT_LINES, 4, xs, big, NULL, NULL, false},
					 {"c", PLOT_POINTS, 4, xs, hi, NULL, NULL, false}};
	(void)state;
	draw_and_check_titles("plain", "t", NULL, s, 3, "");
}

/* ---- plot_render failures ---- */

static void test_render_syntax_error(void **state)
{
	struct tmp t;
	const char *script = "set terminal svg noenhanced\n"
			     "set output 'bad.svg'\n"
			     "plot sin(x\n"
			     "unset output\n";
	(void)state;
	gnuplot_folder(&t);
	/* gnuplot's own message, and which script */
	render_refused(script, t.dir, "bad.gp", "bad.svg", "')' expected");
	if (!strstr(err_msg(), "bad.gp"))
		fail_msg("the script is not named in: [%s]", err_msg());
	if (strchr(err_msg(), '\n'))
		fail_msg("the message spans lines: [%s]", err_msg());
	err_clear();
	tmp_remove(&t);
}

static void test_render_no_image(void **state)
{
	struct tmp t;
	char stale[512];
	FILE *fp;
	char *kept;
	(void)state;
	gnuplot_folder(&t);
	/* a script that draws nothing: an error naming the plot */
	render_refused("print 1\n", t.dir, "none.gp", "none.svg", "none.gp");
	/* a file of the image's name: gnuplot never draws over it, it stays as it was */
	snprintf(stale, sizeof(stale), "%s/none.svg", t.dir);
	fp = fopen(stale, "w");
	assert_non_null(fp);
	fputs("<svg>stale</svg>\n", fp);
	fclose(fp);
	render_refused("set terminal svg\nset output './none.svg'\nplot x\n", t.dir, "none.gp",
		       "none.svg", "none.svg");
	kept = slurp(stale, NULL);
	assert_string_equal(kept, "<svg>stale</svg>\n");
	free(kept);
	err_clear();
	tmp_remove(&t);
}

static void test_render_not_installed(void **state)
{
	struct tmp t;
	char empty[128];
	int rc;
	(void)state;
	tmp_make(&t);
	path_without_gnuplot(&t, empty, sizeof(empty));
	err_clear();
	rc = plot_render("set terminal svg\nset output 'x.svg'\nplot x\n", t.dir, "x.gp", "x.svg");
	path_restore();
	assert_int_equal(rc, PLOT_NOT_INSTALLED);
	rmdir(empty);
	tmp_remove(&t);
}

/* Through plot_draw too: the caller sees PLOT_NOT_INSTALLED, not a crash. */
static void test_draw_not_installed(void **state)
{
	struct tmp t;
	char empty[128];
	char *image = (char *)"untouched";
	struct plot_series s = {"s", PLOT_POINTS, 4, xs, ys, NULL, NULL, false};
	struct plot_spec spec;
	int rc;
	(void)state;
	tmp_make(&t);
	memset(&spec, 0, sizeof(spec));
	spec.dir = t.dir;
	spec.name = "p";
	spec.title = "t";
	spec.xlabel = "x";
	spec.ylabel = "y";
	path_without_gnuplot(&t, empty, sizeof(empty));
	rc = plot_draw(&spec, &s, 1, &image);
	path_restore();
	assert_int_equal(rc, PLOT_NOT_INSTALLED);
	assert_null(image);
	rmdir(empty);
	tmp_remove(&t);
}

/* every test: its folder removed and PATH restored even when it fails */
#define TEST(f) cmocka_unit_test_teardown(f, plot_teardown)
/* test_quote_RULE: the table's cases of RULE */
#define QUOTE_TEST(rule)                                                                           \
	{                                                                                          \
		"test_quote_" rule, test_quote_rule, NULL, plot_teardown, (void *)(rule)           \
	}

int main(void)
{
	const struct CMUnitTest tests[] = {
		QUOTE_TEST("plain"),
		QUOTE_TEST("quote"),
		QUOTE_TEST("backquote"),
		QUOTE_TEST("system"),
		QUOTE_TEST("newline_command"),
		QUOTE_TEST("cr"),
		TEST(test_quote_control_bytes),
		QUOTE_TEST("macro"),
		QUOTE_TEST("bang"),
		TEST(test_quote_appends),
		TEST(test_quote_well_formed),
		TEST(test_data_text),
		TEST(test_begin_hostile),
		TEST(test_render_hostile_svg),
		TEST(test_render_hostile_png),
		TEST(test_render_hostile_boxes),
		TEST(test_render_leading_quote_svg),
		TEST(test_render_index_titles),
		TEST(test_render_empty_first_series),
		TEST(test_render_empty_middle_series),
		TEST(test_render_syntax_error),
		TEST(test_render_no_image),
		TEST(test_render_not_installed),
		TEST(test_draw_not_installed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
