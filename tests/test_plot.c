/*
 * Unit tests for reports/plot: quoting user strings for gnuplot, data-file
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
 * only NAME.gp, NAME.tsv and the image, and no pwned file may exist.
 *
 * plot_render's failures: a script with a syntax error gives ERR_DATA and
 * gnuplot's own message; a script that draws nothing gives ERR_DATA even
 * when a stale image of that name was there; PATH without gnuplot gives
 * PLOT_NOT_INSTALLED.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "common/err.h"
#include "common/strbuf.h"
#include "reports/plot.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* ---- helpers ---- */

static char *quoted(const char *text)
{
	struct strbuf sb = STRBUF_INIT;
	assert_int_equal(plot_quote(&sb, text), 0);
	return strbuf_detach(&sb);
}

static void check_quote(const char *text, const char *expected)
{
	char *got = quoted(text);
	if (strcmp(got, expected) != 0)
		fail_msg("plot_quote: got [%s], expected [%s]", got, expected);
	free(got);
}

/*
 * The output is one gnuplot single-quoted string: starts and ends with ',
 * every ' inside is doubled, no control byte anywhere.
 */
static void check_well_formed(const char *q)
{
	size_t n = strlen(q);
	if (n < 2 || q[0] != '\'' || q[n - 1] != '\'')
		fail_msg("not a single-quoted string: [%s]", q);
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)q[i] < 0x20 || (unsigned char)q[i] == 0x7f)
			fail_msg("control byte 0x%02x at %zu in [%s]", (unsigned char)q[i], i, q);
	for (size_t i = 1; i + 1 < n; i++) {
		if (q[i] != '\'')
			continue;
		if (i + 2 >= n || q[i + 1] != '\'')
			fail_msg("lone quote at %zu ends the string early: [%s]", i, q);
		i++;
	}
}

static char *read_file(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	char *buf = NULL;
	long n;
	if (!fp)
		fail_msg("cannot open '%s'", path);
	assert_int_equal(fseek(fp, 0, SEEK_END), 0);
	n = ftell(fp);
	assert_true(n >= 0);
	rewind(fp);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
	buf[n] = '\0';
	fclose(fp);
	if (len)
		*len = (size_t)n;
	return buf;
}

/* SVG text with the five XML entities and numeric references decoded. */
static char *xml_unescape(const char *s)
{
	static const struct {
		const char *entity;
		char c;
	} entities[] = {{"&apos;", '\''}, {"&quot;", '"'}, {"&amp;", '&'}, {"&lt;", '<'},
			{"&gt;", '>'},	  {"&#39;", '\''}, {"&#34;", '"'}, {"&#x27;", '\''},
			{"&#x22;", '"'}, {"&#96;", '`'},  {"&#x60;", '`'}, {"&#64;", '@'}};
	char *out = malloc(strlen(s) + 1), *o = out;
	assert_non_null(out);
	while (*s) {
		size_t i;
		for (i = 0; i < ARRAY_LEN(entities); i++) {
			size_t n = strlen(entities[i].entity);
			if (!strncmp(s, entities[i].entity, n)) {
				*o++ = entities[i].c;
				s += n;
				break;
			}
		}
		if (i == ARRAY_LEN(entities))
			*o++ = *s++;
	}
	*o = '\0';
	return out;
}

struct tmp {
	char dir[64];
	char pwned[8][128]; /* absolute files the hostile strings would create */
	char rel_pwned[8][16];
};

static void tmp_make(struct tmp *t)
{
	snprintf(t->dir, sizeof(t->dir), "/tmp/coreplan-test-plot-XXXXXX");
	if (!mkdtemp(t->dir))
		fail_msg("mkdtemp failed");
	for (size_t i = 0; i < ARRAY_LEN(t->pwned); i++) {
		snprintf(t->pwned[i], sizeof(t->pwned[i]), "/tmp/coreplan-pwned-%ld-%zu",
			 (long)getpid(), i);
		snprintf(t->rel_pwned[i], sizeof(t->rel_pwned[i]), "X%zu", i);
		unlink(t->pwned[i]);
	}
}

static void tmp_remove(struct tmp *t)
{
	DIR *d = opendir(t->dir);
	struct dirent *e;
	char path[512];
	while (d && (e = readdir(d)) != NULL) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", t->dir, e->d_name);
		unlink(path);
	}
	if (d)
		closedir(d);
	rmdir(t->dir);
	for (size_t i = 0; i < ARRAY_LEN(t->pwned); i++)
		unlink(t->pwned[i]);
}

static void check_not_pwned(const struct tmp *t)
{
	struct stat st;
	char path[512];
	for (size_t i = 0; i < ARRAY_LEN(t->pwned); i++) {
		if (stat(t->pwned[i], &st) == 0)
			fail_msg("INJECTION: '%s' exists: a hostile string ran a command", t->pwned[i]);
		snprintf(path, sizeof(path), "%s/%s", t->dir, t->rel_pwned[i]);
		if (stat(path, &st) == 0)
			fail_msg("INJECTION: '%s' exists: a hostile string ran a command", path);
		if (stat(t->rel_pwned[i], &st) == 0)
			fail_msg("INJECTION: '%s' exists in the test's folder", t->rel_pwned[i]);
	}
	if (stat("X", &st) == 0 || stat("/tmp/X", &st) == 0)
		fail_msg("INJECTION: a file named X exists");
}

/* The folder holds exactly the files named (NULL-terminated). */
static void check_dir_holds(const char *dir, const char *const *names)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	size_t n = 0, want = 0;
	assert_non_null(d);
	while (names[want])
		want++;
	while ((e = readdir(d)) != NULL) {
		bool known = false;
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		for (size_t i = 0; names[i]; i++)
			known |= !strcmp(e->d_name, names[i]);
		if (!known) {
			closedir(d);
			fail_msg("unexpected file '%s' in '%s'", e->d_name, dir);
		}
		n++;
	}
	closedir(d);
	if (n != want)
		fail_msg("'%s' holds %zu files, expected %zu", dir, n, want);
}

/*
 * The hostile strings for a render: each would create t->pwned[i] or
 * t->rel_pwned[i] if it escaped its quotes. With quote_runs, one starts
 * with a quote (the brief's `'; !touch X`) and one with four quotes in a
 * row; without, the same payloads behind a letter and with single quotes
 * only. Caller frees each.
 */
enum { NHOSTILE = 8 };

static void hostile_strings(const struct tmp *t, char *out[NHOSTILE], bool quote_runs)
{
	char buf[512];
	snprintf(buf, sizeof(buf), "it's `touch %s` and `touch %s`", t->pwned[0], t->rel_pwned[0]);
	out[0] = strdup(buf);
	snprintf(buf, sizeof(buf), "system(\"touch %s\") . system(\"touch %s\")", t->pwned[1],
		 t->rel_pwned[1]);
	out[1] = strdup(buf);
	snprintf(buf, sizeof(buf), "line one\nsystem \"touch %s\"\n!touch %s", t->pwned[2],
		 t->rel_pwned[2]);
	out[2] = strdup(buf);
	snprintf(buf, sizeof(buf), "cr\rsystem \"touch %s\"\r\n", t->pwned[3]);
	out[3] = strdup(buf);
	snprintf(buf, sizeof(buf), "%s'; !touch %s", quote_runs ? "" : "x", t->pwned[4]);
	out[4] = strdup(buf);
	snprintf(buf, sizeof(buf), "@macro @m '@m' \"; system(\"touch %s\"); \"", t->pwned[5]);
	out[5] = strdup(buf);
	snprintf(buf, sizeof(buf), "ctl\x01\x02\t\x1b[1m\x7f' ; `touch %s`", t->pwned[6]);
	out[6] = strdup(buf);
	snprintf(buf, sizeof(buf), "%s\\' \\` `touch %s` ^_{}&<>", quote_runs ? "''''" : "a'b'c",
		 t->pwned[7]);
	out[7] = strdup(buf);
	for (size_t i = 0; i < NHOSTILE; i++)
		assert_non_null(out[i]);
}

/* What the string looks like once drawn: control bytes dropped. */
static char *drawn(const char *s)
{
	char *out = malloc(strlen(s) + 1), *o = out;
	assert_non_null(out);
	for (; *s; s++)
		if ((unsigned char)*s >= 0x20 && (unsigned char)*s != 0x7f)
			*o++ = *s;
	*o = '\0';
	return out;
}

static bool gnuplot_on_path(void)
{
	return system("command -v gnuplot >/dev/null 2>&1") == 0;
}

/* ---- plot_quote ---- */

static void test_quote_plain(void **state)
{
	(void)state;
	check_quote("", "''");
	check_quote(NULL, "''");
	check_quote("tput (interactions/s)", "'tput (interactions/s)'");
	check_quote("µs \xe2\x80\x94 UTF-8 kept", "'µs \xe2\x80\x94 UTF-8 kept'");
}

static void test_quote_quote(void **state)
{
	(void)state;
	check_quote("'", "''''");
	check_quote("it's", "'it''s'");
	check_quote("''", "''''''");
	check_quote("a'b'c", "'a''b''c'");
}

static void test_quote_backquote(void **state)
{
	(void)state;
	check_quote("`touch X`", "'`touch X`'");
	check_quote("a `touch X` b", "'a `touch X` b'");
	check_quote("\"`touch X`\"", "'\"`touch X`\"'");
}

static void test_quote_system(void **state)
{
	(void)state;
	check_quote("system(\"touch X\")", "'system(\"touch X\")'");
	check_quote("x' . system(\"touch X\") . '", "'x'' . system(\"touch X\") . '''");
}

static void test_quote_newline_command(void **state)
{
	(void)state;
	check_quote("\nsystem \"touch X\"", "'system \"touch X\"'");
	check_quote("title\nsystem \"touch X\"\n", "'titlesystem \"touch X\"'");
	check_quote("a'\n!touch X", "'a''!touch X'");
}

static void test_quote_cr(void **state)
{
	(void)state;
	check_quote("a\rb", "'ab'");
	check_quote("a\r\nsystem \"touch X\"", "'asystem \"touch X\"'");
}

static void test_quote_control_bytes(void **state)
{
	char all[40];
	size_t n = 0;
	(void)state;
	check_quote("a\tb", "'ab'");
	check_quote("\x01\x02\x03\x04\x05\x06\x07\x08", "''");
	check_quote("esc\x1b[31mred", "'esc[31mred'");
	check_quote("del\x7f!", "'del!'");
	check_quote("\x0b\x0c\x0e\x0f\x10\x1f end", "' end'");
	/* every byte from 0x01 to 0x1f, then 0x7f: all dropped */
	for (int c = 1; c < 0x20; c++)
		all[n++] = (char)c;
	all[n++] = 0x7f;
	all[n++] = 'z';
	all[n] = '\0';
	check_quote(all, "'z'");
	/* bytes from 0x80 up are UTF-8, kept */
	check_quote("\x80\xff", "'\x80\xff'");
}

static void test_quote_macro(void **state)
{
	(void)state;
	check_quote("@macro", "'@macro'");
	check_quote("@m; @m", "'@m; @m'");
}

static void test_quote_bang(void **state)
{
	(void)state;
	check_quote("'; !touch X", "'''; !touch X'");
	check_quote("'; system \"touch X\"; '", "'''; system \"touch X\"; '''");
	check_quote("\\'", "'\\'''");
}

static void test_quote_appends(void **state)
{
	struct strbuf sb = STRBUF_INIT;
	(void)state;
	assert_int_equal(strbuf_adds(&sb, "set title "), 0);
	assert_int_equal(plot_quote(&sb, "a'b"), 0);
	assert_int_equal(strbuf_adds(&sb, "\n"), 0);
	assert_string_equal(strbuf_str(&sb), "set title 'a''b'\n");
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
	hostile_strings(&t, h);
	for (size_t i = 0; i < NHOSTILE; i++) {
		char *q = quoted(h[i]);
		check_well_formed(q);
		free(q);
		free(h[i]);
	}
}

/* ---- plot_data_text ---- */

static char *data_text(const char *text)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&buf, &len);
	assert_non_null(fp);
	plot_data_text(fp, text);
	assert_int_equal(fclose(fp), 0);
	return buf;
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
		{"a\x01\x1f\x7f" "b", "a   b"},
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
	assert_int_equal(plot_begin(&sb, PLOT_SVG, "x.svg", "t'\nsystem \"touch X\"",
				    "`touch X`", "'; !touch X"),
			 0);
	s = strbuf_str(&sb);
	if (!strstr(s, "\nset output 'x.svg'\n"))
		fail_msg("no output line in:\n%s", s);
	if (!strstr(s, "\nset title 't''system \"touch X\"'\n"))
		fail_msg("title not quoted as expected in:\n%s", s);
	if (!strstr(s, "\nset xlabel '`touch X`'\n"))
		fail_msg("xlabel not quoted as expected in:\n%s", s);
	if (!strstr(s, "\nset ylabel '''; !touch X'\n"))
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

static void render_hostile(enum plot_format format)
{
	struct tmp t;
	char *h[NHOSTILE];
	char *image = NULL;
	const char *ext = plot_extension(format);
	char path[512], gp[64], tsv[64], img[64];
	struct plot_series series[NHOSTILE];
	struct plot_spec spec;
	int rc;

	if (!gnuplot_on_path())
		fail_msg("gnuplot is not on PATH: the render tests need it (apt-get install gnuplot-nox)");
	tmp_make(&t);
	hostile_strings(&t, h);
	for (size_t i = 0; i < NHOSTILE; i++) {
		static const enum plot_style styles[] = {PLOT_ERRORBARS, PLOT_LINES, PLOT_POINTS,
							 PLOT_LINESPOINTS, PLOT_BAND, PLOT_LINES,
							 PLOT_POINTS, PLOT_LINESPOINTS};
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
	if (rc != 0)
		fail_msg("plot_draw (%s) returned %d: %s", ext, rc, err_msg());
	snprintf(img, sizeof(img), "hostile.%s", ext);
	assert_non_null(image);
	assert_string_equal(image, img);
	check_not_pwned(&t);
	snprintf(gp, sizeof(gp), "hostile.gp");
	snprintf(tsv, sizeof(tsv), "hostile.tsv");
	{
		const char *const names[] = {gp, tsv, img, NULL};
		check_dir_holds(t.dir, names);
	}
	snprintf(path, sizeof(path), "%s/%s", t.dir, img);
	{
		size_t len = 0;
		char *data = read_file(path, &len);
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
					fail_msg("string %zu not drawn literally in the SVG: [%s]", i,
						 want);
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
		char *script = read_file(path, NULL);
		for (const char *p = script; *p; p++)
			if (((unsigned char)*p < 0x20 && *p != '\n') || *p == 0x7f)
				fail_msg("control byte 0x%02x in the script", (unsigned char)*p);
		for (const char *line = script; *line;) {
			static const char *const starts[] = {"set ", "plot ", "     ", "unset output", NULL};
			bool ok = false;
			for (size_t k = 0; starts[k]; k++)
				ok |= !strncmp(line, starts[k], strlen(starts[k]));
			if (!ok)
				fail_msg("unexpected script line: [%.*s]", (int)strcspn(line, "\n"), line);
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
		char *data = read_file(path, NULL);
		for (const char *p = data; *p; p++)
			if (((unsigned char)*p < 0x20 && *p != '\n' && *p != '\t') || *p == 0x7f)
				fail_msg("control byte 0x%02x in the data file", (unsigned char)*p);
		free(data);
	}
	/* re-plot from the folder, as plot.h promises: still no injection */
	{
		char cmd[600];
		snprintf(cmd, sizeof(cmd), "cd '%s' && gnuplot hostile.gp >/dev/null 2>&1", t.dir);
		assert_int_equal(system(cmd), 0);
		check_not_pwned(&t);
	}
	free(image);
	for (size_t i = 0; i < NHOSTILE; i++)
		free(h[i]);
	tmp_remove(&t);
}

static void test_render_hostile_svg(void **state)
{
	(void)state;
	render_hostile(PLOT_SVG);
}

static void test_render_hostile_png(void **state)
{
	(void)state;
	render_hostile(PLOT_PNG);
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
	if (!gnuplot_on_path())
		fail_msg("gnuplot is not on PATH");
	tmp_make(&t);
	hostile_strings(&t, h);
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
	if (rc != 0)
		fail_msg("plot_draw returned %d: %s", rc, err_msg());
	check_not_pwned(&t);
	{
		const char *const names[] = {"boxes.gp", "boxes.tsv", "boxes.svg", NULL};
		check_dir_holds(t.dir, names);
	}
	snprintf(path, sizeof(path), "%s/boxes.svg", t.dir);
	{
		char *data = read_file(path, NULL), *text = xml_unescape(data);
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
	for (size_t i = 0; i < NHOSTILE; i++)
		free(h[i]);
	tmp_remove(&t);
}

/* ---- plot_render failures ---- */

static void test_render_syntax_error(void **state)
{
	struct tmp t;
	const char *script = "set terminal svg noenhanced\n"
			     "set output 'bad.svg'\n"
			     "plot sin(x\n"
			     "unset output\n";
	int rc;
	(void)state;
	if (!gnuplot_on_path())
		fail_msg("gnuplot is not on PATH");
	tmp_make(&t);
	err_clear();
	rc = plot_render(script, t.dir, "bad.gp", "bad.svg");
	assert_int_equal(rc, ERR_DATA);
	/* gnuplot's own message, and which script */
	if (!strstr(err_msg(), "')' expected"))
		fail_msg("gnuplot's message missing from: [%s]", err_msg());
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
	int rc;
	(void)state;
	if (!gnuplot_on_path())
		fail_msg("gnuplot is not on PATH");
	tmp_make(&t);
	/* a stale image of that name must not count as success */
	snprintf(stale, sizeof(stale), "%s/none.svg", t.dir);
	fp = fopen(stale, "w");
	assert_non_null(fp);
	fputs("<svg>stale</svg>\n", fp);
	fclose(fp);
	err_clear();
	rc = plot_render("print 1\n", t.dir, "none.gp", "none.svg");
	assert_int_equal(rc, ERR_DATA);
	if (!strstr(err_msg(), "none.svg"))
		fail_msg("the image is not named in: [%s]", err_msg());
	err_clear();
	tmp_remove(&t);
}

static void test_render_not_installed(void **state)
{
	struct tmp t;
	char empty[128];
	char *saved = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
	int rc;
	(void)state;
	tmp_make(&t);
	snprintf(empty, sizeof(empty), "%s/empty-bin", t.dir);
	assert_int_equal(mkdir(empty, 0700), 0);
	assert_int_equal(setenv("PATH", empty, 1), 0);
	err_clear();
	rc = plot_render("set terminal svg\nset output 'x.svg'\nplot x\n", t.dir, "x.gp", "x.svg");
	if (saved)
		setenv("PATH", saved, 1);
	else
		unsetenv("PATH");
	free(saved);
	assert_int_equal(rc, PLOT_NOT_INSTALLED);
	rmdir(empty);
	tmp_remove(&t);
}

/* Through plot_draw too: the caller sees PLOT_NOT_INSTALLED, not a crash. */
static void test_draw_not_installed(void **state)
{
	struct tmp t;
	char empty[128];
	char *saved = getenv("PATH") ? strdup(getenv("PATH")) : NULL;
	char *image = (char *)"untouched";
	struct plot_series s = {"s", PLOT_POINTS, 4, xs, ys, NULL, NULL, false};
	struct plot_spec spec;
	int rc;
	(void)state;
	tmp_make(&t);
	snprintf(empty, sizeof(empty), "%s/empty-bin", t.dir);
	assert_int_equal(mkdir(empty, 0700), 0);
	memset(&spec, 0, sizeof(spec));
	spec.dir = t.dir;
	spec.name = "p";
	spec.title = "t";
	spec.xlabel = "x";
	spec.ylabel = "y";
	assert_int_equal(setenv("PATH", empty, 1), 0);
	rc = plot_draw(&spec, &s, 1, &image);
	if (saved)
		setenv("PATH", saved, 1);
	else
		unsetenv("PATH");
	free(saved);
	assert_int_equal(rc, PLOT_NOT_INSTALLED);
	assert_null(image);
	rmdir(empty);
	tmp_remove(&t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_quote_plain),
		cmocka_unit_test(test_quote_quote),
		cmocka_unit_test(test_quote_backquote),
		cmocka_unit_test(test_quote_system),
		cmocka_unit_test(test_quote_newline_command),
		cmocka_unit_test(test_quote_cr),
		cmocka_unit_test(test_quote_control_bytes),
		cmocka_unit_test(test_quote_macro),
		cmocka_unit_test(test_quote_bang),
		cmocka_unit_test(test_quote_appends),
		cmocka_unit_test(test_quote_well_formed),
		cmocka_unit_test(test_data_text),
		cmocka_unit_test(test_begin_hostile),
		cmocka_unit_test(test_render_hostile_svg),
		cmocka_unit_test(test_render_hostile_png),
		cmocka_unit_test(test_render_hostile_boxes),
		cmocka_unit_test(test_render_syntax_error),
		cmocka_unit_test(test_render_no_image),
		cmocka_unit_test(test_render_not_installed),
		cmocka_unit_test(test_draw_not_installed),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
