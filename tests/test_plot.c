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
 * plot_draw's files (plot/plot.h, common/outfile.h): the data and
 * script are NAME.svg.tsv and NAME.svg.gp, so a corpus's results.tsv beside
 * a plot named results.svg stays as it was; a file coreplan did not write
 * at any of the three names is refused with or without force, naming it,
 * and nothing is written; drawing again needs force; a failed drawing (a
 * fake gnuplot on PATH that scribbles on its output and exits 1, or no
 * gnuplot) leaves the earlier image, data and script byte for byte; names
 * starting with '|' or '<' are refused and run nothing, and names gnuplot
 * reads specially ('$x' a datablock, '-' standard input, '+', '~', '@m')
 * draw, because every name reaches gnuplot behind "./".
 *
 * plot/plots draws from analysis results alone (no database): a
 * hand-made selection gives one data block per block value (a run without
 * one under "block NA"), in the selection's order; a hand-made trace gives
 * app cores per interval (jiffies / (seconds * clk_tck)) and RSS in MiB;
 * the memory band is the OLS line at every point, widened by t * se; the
 * title context names the corpus and the conditions.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "common/err.h"
#include "common/strbuf.h"
#include "plot/plots.h" /* and plot/plot.h */

#include <dirent.h>
#include <math.h>
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

/* The folder of the test running now: removed by teardown even when it fails. */
static struct tmp last_tmp;
static bool have_tmp;
static char *saved_path;

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
	last_tmp = *t;
	have_tmp = true;
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
	have_tmp = false;
}

static int teardown(void **state)
{
	(void)state;
	if (saved_path) {
		setenv("PATH", saved_path, 1);
		free(saved_path);
		saved_path = NULL;
	}
	if (have_tmp) {
		char sub[128];
		snprintf(sub, sizeof(sub), "%s/empty-bin", last_tmp.dir);
		rmdir(sub);
		tmp_remove(&last_tmp);
	}
	return 0;
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
 * only. The strings are static: the next call overwrites them.
 */
enum { NHOSTILE = 8 };

static void hostile_strings(const struct tmp *t, char *out[NHOSTILE], bool quote_runs)
{
	static char b[NHOSTILE][512];
	const size_t n = sizeof(b[0]);
	snprintf(b[0], n, "it's `touch %s` and `touch %s`", t->pwned[0], t->rel_pwned[0]);
	snprintf(b[1], n, "system(\"touch %s\") . system(\"touch %s\")", t->pwned[1],
		 t->rel_pwned[1]);
	snprintf(b[2], n, "line one\nsystem \"touch %s\"\n!touch %s", t->pwned[2], t->rel_pwned[2]);
	snprintf(b[3], n, "cr\rsystem \"touch %s\"\r\n", t->pwned[3]);
	snprintf(b[4], n, "%s'; !touch %s", quote_runs ? "" : "x", t->pwned[4]);
	snprintf(b[5], n, "@macro @m '@m' \"; system(\"touch %s\"); \"", t->pwned[5]);
	snprintf(b[6], n, "ctl\x01\x02\t\x1b[1m\x7f' ; `touch %s`", t->pwned[6]);
	snprintf(b[7], n, "%s\\' \\` `touch %s` ^_{}&<>", quote_runs ? "''''" : "a'b'c",
		 t->pwned[7]);
	for (size_t i = 0; i < NHOSTILE; i++)
		out[i] = b[i];
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
	check_quote("'", "''.sprintf('%c',39).''");
	check_quote("it's", "'it'.sprintf('%c',39).'s'");
	check_quote("''", "''.sprintf('%c',39).''.sprintf('%c',39).''");
	check_quote("a'b'c", "'a'.sprintf('%c',39).'b'.sprintf('%c',39).'c'");
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
	check_quote("x' . system(\"touch X\") . '", "'x'.sprintf('%c',39).' . system(\"touch X\") . '.sprintf('%c',39).''");
}

static void test_quote_newline_command(void **state)
{
	(void)state;
	check_quote("\nsystem \"touch X\"", "'system \"touch X\"'");
	check_quote("title\nsystem \"touch X\"\n", "'titlesystem \"touch X\"'");
	check_quote("a'\n!touch X", "'a'.sprintf('%c',39).'!touch X'");
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
	check_quote("'; !touch X", "''.sprintf('%c',39).'; !touch X'");
	check_quote("'; system \"touch X\"; '", "''.sprintf('%c',39).'; system \"touch X\"; '.sprintf('%c',39).''");
	check_quote("\\'", "'\\'.sprintf('%c',39).''");
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

	if (!gnuplot_on_path())
		fail_msg("gnuplot is not on PATH: the render tests need it (apt-get install gnuplot-nox)");
	tmp_make(&t);
	hostile_strings(&t, h, quote_runs);
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
	if (!gnuplot_on_path())
		fail_msg("gnuplot is not on PATH");
	tmp_make(&t);
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
			if (block == index && sscanf(line, "%lf\t%lf", &a, &b) == 2 && isfinite(a) &&
			    isfinite(b) && n < max) {
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
	script = read_file(path, NULL);
	snprintf(path, sizeof(path), "%s/%s.svg.tsv", dir, name);
	data = read_file(path, NULL);
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
			snprintf(problem, sizeof(problem), "the script plots index %zu as '%s', no such series",
				 index, title);
			break;
		}
		n = block_rows(data, index, x, y, 64);
		for (size_t i = 0; i < s->n && !problem[0]; i++) {
			if (!isfinite(s->x[i]) || !isfinite(s->y[i]))
				continue;
			if (want >= n || x[want] != s->x[i] || y[want] != s->y[i])
				snprintf(problem, sizeof(problem),
					 "index %zu is drawn as '%s' but holds other points (row %zu: %g %g, "
					 "series has %g %g)",
					 index, title, want, want < n ? x[want] : NAN,
					 want < n ? y[want] : NAN, s->x[i], s->y[i]);
			want++;
		}
		if (!problem[0] && n != want)
			snprintf(problem, sizeof(problem),
				 "index %zu is drawn as '%s': %zu points in the data file, the series "
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

/* The trace plot's shape: app cores unknown (no clock tick rate), RSS known. */
static void test_render_empty_first_series(void **state)
{
	struct tmp t;
	char *image = NULL;
	struct plot_series s[2] = {{"app cores", PLOT_LINES, 4, xs, nans, NULL, NULL, false},
				   {"app RSS", PLOT_LINES, 4, xs, big, NULL, NULL, true}};
	struct plot_spec spec;
	int rc;
	(void)state;
	if (!gnuplot_on_path())
		fail_msg("gnuplot is not on PATH");
	tmp_make(&t);
	memset(&spec, 0, sizeof(spec));
	spec.dir = t.dir;
	spec.name = "first";
	spec.title = "trace";
	spec.xlabel = "s";
	spec.ylabel = "cores";
	spec.y2label = "MiB";
	rc = plot_draw(&spec, s, 2, &image);
	if (rc != 0)
		fail_msg("plot_draw with an all-NaN first series returned %d: %s", rc, err_msg());
	free(image);
	check_index_titles(t.dir, "first", s, 2);
	tmp_remove(&t);
}

/* A block whose values are all missing, between two others. */
static void test_render_empty_middle_series(void **state)
{
	struct tmp t;
	char *image = NULL;
	struct plot_series s[3] = {{"block 1", PLOT_POINTS, 4, xs, ys, NULL, NULL, false},
				   {"block 2", PLOT_POINTS, 4, xs, nans, NULL, NULL, false},
				   {"block 3", PLOT_POINTS, 4, xs, big, NULL, NULL, false}};
	struct plot_spec spec;
	int rc;
	(void)state;
	if (!gnuplot_on_path())
		fail_msg("gnuplot is not on PATH");
	tmp_make(&t);
	memset(&spec, 0, sizeof(spec));
	spec.dir = t.dir;
	spec.name = "middle";
	spec.title = "blocks";
	spec.xlabel = "x";
	spec.ylabel = "y";
	rc = plot_draw(&spec, s, 3, &image);
	if (rc != 0)
		fail_msg("plot_draw with an all-NaN middle series returned %d: %s", rc, err_msg());
	free(image);
	check_index_titles(t.dir, "middle", s, 3);
	tmp_remove(&t);
}

/* The ordinary case, for contrast: every series in its own block. */
static void test_render_index_titles(void **state)
{
	struct tmp t;
	char *image = NULL;
	struct plot_series s[3] = {{"a", PLOT_ERRORBARS, 4, xs, ys, lo, hi, false},
				   {"b", PLOT_LINES, 4, xs, big, NULL, NULL, false},
				   {"c", PLOT_POINTS, 4, xs, hi, NULL, NULL, false}};
	struct plot_spec spec;
	int rc;
	(void)state;
	if (!gnuplot_on_path())
		fail_msg("gnuplot is not on PATH");
	tmp_make(&t);
	memset(&spec, 0, sizeof(spec));
	spec.dir = t.dir;
	spec.name = "plain";
	spec.title = "t";
	spec.xlabel = "x";
	spec.ylabel = "y";
	rc = plot_draw(&spec, s, 3, &image);
	if (rc != 0)
		fail_msg("plot_draw returned %d: %s", rc, err_msg());
	free(image);
	check_index_titles(t.dir, "plain", s, 3);
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
	char *kept;
	int rc;
	(void)state;
	if (!gnuplot_on_path())
		fail_msg("gnuplot is not on PATH");
	tmp_make(&t);
	/* a script that draws nothing: an error naming the plot */
	err_clear();
	rc = plot_render("print 1\n", t.dir, "none.gp", "none.svg");
	assert_int_equal(rc, ERR_DATA);
	if (!strstr(err_msg(), "none.gp"))
		fail_msg("the plot is not named in: [%s]", err_msg());
	/* a file of the image's name: gnuplot never draws over it, it stays as it was */
	snprintf(stale, sizeof(stale), "%s/none.svg", t.dir);
	fp = fopen(stale, "w");
	assert_non_null(fp);
	fputs("<svg>stale</svg>\n", fp);
	fclose(fp);
	err_clear();
	rc = plot_render("set terminal svg\nset output './none.svg'\nplot x\n", t.dir, "none.gp",
			 "none.svg");
	assert_int_equal(rc, ERR_DATA);
	if (!strstr(err_msg(), "none.svg"))
		fail_msg("the image is not named in: [%s]", err_msg());
	kept = read_file(stale, NULL);
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
	snprintf(empty, sizeof(empty), "%s/empty-bin", t.dir);
	assert_int_equal(mkdir(empty, 0700), 0);
	saved_path = strdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	assert_non_null(saved_path);
	assert_int_equal(setenv("PATH", empty, 1), 0);
	err_clear();
	rc = plot_render("set terminal svg\nset output 'x.svg'\nplot x\n", t.dir, "x.gp", "x.svg");
	setenv("PATH", saved_path, 1);
	free(saved_path);
	saved_path = NULL;
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
	snprintf(empty, sizeof(empty), "%s/empty-bin", t.dir);
	assert_int_equal(mkdir(empty, 0700), 0);
	memset(&spec, 0, sizeof(spec));
	spec.dir = t.dir;
	spec.name = "p";
	spec.title = "t";
	spec.xlabel = "x";
	spec.ylabel = "y";
	saved_path = strdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	assert_non_null(saved_path);
	assert_int_equal(setenv("PATH", empty, 1), 0);
	rc = plot_draw(&spec, &s, 1, &image);
	setenv("PATH", saved_path, 1);
	free(saved_path);
	saved_path = NULL;
	assert_int_equal(rc, PLOT_NOT_INSTALLED);
	assert_null(image);
	rmdir(empty);
	tmp_remove(&t);
}

/* ---- plot_draw's files: created new, never over a file coreplan did not write ---- */

static int draw_simple(const char *dir, const char *name, bool force, bool data_without_image,
		       char **image)
{
	struct plot_series s = {"s", PLOT_POINTS, 4, xs, ys, NULL, NULL, false};
	struct plot_spec spec;
	memset(&spec, 0, sizeof(spec));
	spec.dir = dir;
	spec.name = name;
	spec.title = "t";
	spec.xlabel = "x";
	spec.ylabel = "y";
	spec.out.force = force;
	spec.out.data_without_image = data_without_image;
	return plot_draw(&spec, &s, 1, image);
}

static void put_text(const char *dir, const char *name, const char *text)
{
	char path[512];
	FILE *fp;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
}

/* The three files' bytes, to compare before and after. */
static char *plot_state(const char *dir, const char *name)
{
	static const char *const exts[] = {".svg", ".svg.tsv", ".svg.gp"};
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < ARRAY_LEN(exts); i++) {
		char path[512];
		struct stat st;
		snprintf(path, sizeof(path), "%s/%s%s", dir, name, exts[i]);
		if (stat(path, &st) != 0) {
			strbuf_addf(&sb, "%s: none\n", exts[i]);
			continue;
		}
		{
			char *text = read_file(path, NULL);
			strbuf_addf(&sb, "%s: %s\n", exts[i], text);
			free(text);
		}
	}
	return strbuf_detach(&sb);
}

/* The plot's data beside a corpus file: NAME.svg.tsv, never NAME.tsv (the corpus's results.tsv). */
static void test_draw_names_beside_corpus_files(void **state)
{
	struct tmp t;
	char *image = NULL, *kept;
	char path[512];
	(void)state;
	if (!gnuplot_on_path())
		fail_msg("gnuplot is not on PATH");
	tmp_make(&t);
	put_text(t.dir, "results.tsv", "tag\ttput\nr1\t5\n");
	put_text(t.dir, "results.gp", "user's script\n");
	assert_int_equal(draw_simple(t.dir, "results", false, false, &image), 0);
	assert_string_equal(image, "results.svg");
	snprintf(path, sizeof(path), "%s/results.tsv", t.dir);
	kept = read_file(path, NULL);
	assert_string_equal(kept, "tag\ttput\nr1\t5\n");
	free(kept);
	snprintf(path, sizeof(path), "%s/results.gp", t.dir);
	kept = read_file(path, NULL);
	assert_string_equal(kept, "user's script\n");
	free(kept);
	{
		const char *const names[] = {"results.tsv", "results.gp", "results.svg",
					     "results.svg.tsv", "results.svg.gp", ".coreplan-outputs",
					     NULL};
		check_dir_holds(t.dir, names);
	}
	free(image);
	tmp_remove(&t);
}

/* A file coreplan did not write at any of the three names: refused, nothing written. */
static void test_draw_refuses_foreign_files(void **state)
{
	static const char *const names[] = {"p.svg", "p.svg.tsv", "p.svg.gp"};
	struct tmp t;
	(void)state;
	tmp_make(&t);
	for (size_t i = 0; i < ARRAY_LEN(names); i++) {
		char *image = NULL, *before, *after;
		put_text(t.dir, names[i], "mine\n");
		before = plot_state(t.dir, "p");
		for (int force = 0; force <= 1; force++) {
			err_clear();
			assert_int_equal(draw_simple(t.dir, "p", force, true, &image), ERR_DATA);
			if (!strstr(err_msg(), names[i]) || !strstr(err_msg(), "coreplan did not write it"))
				fail_msg("the refusal does not name '%s': [%s]", names[i], err_msg());
			assert_null(image);
		}
		after = plot_state(t.dir, "p");
		assert_string_equal(before, after);
		{
			const char *const only[] = {names[i], NULL};
			check_dir_holds(t.dir, only); /* no marker, no stage, no other file */
		}
		free(before);
		free(after);
		tmp_remove(&t);
		tmp_make(&t);
	}
	err_clear();
	tmp_remove(&t);
}

/* Drawn again: refused without force, replaced with it. */
static void test_draw_force_replaces_own(void **state)
{
	struct tmp t;
	char *image = NULL;
	(void)state;
	if (!gnuplot_on_path())
		fail_msg("gnuplot is not on PATH");
	tmp_make(&t);
	assert_int_equal(draw_simple(t.dir, "p", false, false, &image), 0);
	free(image);
	image = NULL;
	err_clear();
	assert_int_equal(draw_simple(t.dir, "p", false, false, &image), ERR_DATA);
	if (!strstr(err_msg(), "--force replaces it"))
		fail_msg("no --force hint: [%s]", err_msg());
	err_clear();
	assert_int_equal(draw_simple(t.dir, "p", true, false, &image), 0);
	assert_string_equal(image, "p.svg");
	free(image);
	tmp_remove(&t);
}

/* PATH = a folder with a fake gnuplot that scribbles on its output and fails. */
static void fake_failing_gnuplot(const struct tmp *t, char *bin, size_t size)
{
	char path[600];
	FILE *fp;
	snprintf(bin, size, "%s/empty-bin", t->dir);
	assert_int_equal(mkdir(bin, 0700), 0);
	snprintf(path, sizeof(path), "%s/gnuplot", bin);
	fp = fopen(path, "w");
	assert_non_null(fp);
	fputs("#!/bin/sh\n"
	      "out=$(sed -n \"s/^set output '\\(.*\\)'$/\\1/p\" | head -n 1)\n"
	      "[ -n \"$out\" ] && printf 'scribbled' >\"$out\"\n"
	      "echo 'fake gnuplot: failing on purpose' >&2\n"
	      "exit 1\n",
	      fp);
	assert_int_equal(fclose(fp), 0);
	assert_int_equal(chmod(path, 0755), 0);
	saved_path = strdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	assert_non_null(saved_path);
	{
		char newpath[1200];
		snprintf(newpath, sizeof(newpath), "%s:/usr/bin:/bin", bin);
		assert_int_equal(setenv("PATH", newpath, 1), 0);
	}
}

static void restore_path(const char *bin)
{
	char path[600];
	setenv("PATH", saved_path, 1);
	free(saved_path);
	saved_path = NULL;
	snprintf(path, sizeof(path), "%s/gnuplot", bin);
	unlink(path);
	rmdir(bin);
}

/* A failed drawing (gnuplot's error, or no gnuplot) leaves the earlier plot as it was. */
static void test_draw_failure_keeps_earlier_plot(void **state)
{
	struct tmp t;
	char *image = NULL, *before, *after, bin[512];
	(void)state;
	if (!gnuplot_on_path())
		fail_msg("gnuplot is not on PATH");
	tmp_make(&t);
	assert_int_equal(draw_simple(t.dir, "p", false, false, &image), 0);
	free(image);
	image = NULL;
	before = plot_state(t.dir, "p");
	/* gnuplot fails after writing to its output */
	fake_failing_gnuplot(&t, bin, sizeof(bin));
	err_clear();
	assert_int_equal(draw_simple(t.dir, "p", true, true, &image), ERR_DATA);
	restore_path(bin);
	if (!strstr(err_msg(), "gnuplot failed") || !strstr(err_msg(), "failing on purpose"))
		fail_msg("not gnuplot's failure: [%s]", err_msg());
	err_clear();
	after = plot_state(t.dir, "p");
	assert_string_equal(before, after);
	free(after);
	/* no gnuplot at all */
	snprintf(bin, sizeof(bin), "%s/empty-bin", t.dir);
	assert_int_equal(mkdir(bin, 0700), 0);
	saved_path = strdup(getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	assert_int_equal(setenv("PATH", bin, 1), 0);
	assert_int_equal(draw_simple(t.dir, "p", true, false, &image), PLOT_NOT_INSTALLED);
	restore_path(bin);
	after = plot_state(t.dir, "p");
	assert_string_equal(before, after);
	free(after);
	{
		const char *const names[] = {"p.svg", "p.svg.tsv", "p.svg.gp", ".coreplan-outputs",
					     NULL};
		check_dir_holds(t.dir, names);
	}
	free(before);
	tmp_remove(&t);
}

/*
 * Names gnuplot gives meaning to: '|' and '<' (pipes) are refused and run
 * nothing; '$' (a datablock), '-' (standard input), '+' and '~' draw,
 * since every name reaches gnuplot behind "./".
 */
static void test_draw_special_names(void **state)
{
	static const char *const drawn_names[] = {"$x", "-", "+", "~", "@m"};
	static const char *const refused[] = {"|touch PWNED;x", "<touch PWNED;x"};
	struct tmp t;
	struct stat st;
	char path[512];
	(void)state;
	if (!gnuplot_on_path())
		fail_msg("gnuplot is not on PATH");
	tmp_make(&t);
	for (size_t i = 0; i < ARRAY_LEN(refused); i++) {
		char *image = NULL;
		err_clear();
		assert_int_equal(draw_simple(t.dir, refused[i], false, false, &image), ERR_DATA);
		if (!strstr(err_msg(), "gnuplot reads as a command"))
			fail_msg("refusal of [%s] does not say why: [%s]", refused[i], err_msg());
		snprintf(path, sizeof(path), "%s/PWNED", t.dir);
		if (stat(path, &st) == 0 || stat("PWNED", &st) == 0)
			fail_msg("INJECTION: the name [%s] ran a command", refused[i]);
	}
	err_clear();
	for (size_t i = 0; i < ARRAY_LEN(drawn_names); i++) {
		char *image = NULL;
		int rc = draw_simple(t.dir, drawn_names[i], false, false, &image);
		if (rc != 0)
			fail_msg("plot named [%s] not drawn: %d %s", drawn_names[i], rc, err_msg());
		snprintf(path, sizeof(path), "%s/%s.svg", t.dir, drawn_names[i]);
		if (stat(path, &st) != 0 || st.st_size == 0)
			fail_msg("no image '%s'", path);
		free(image);
	}
	tmp_remove(&t);
}

/* ---- plot/plots: drawing from analysis results ---- */

static char *slurp(const char *dir, const char *name)
{
	char path[512];
	struct strbuf sb = STRBUF_INIT;
	char buf[4096];
	size_t n;
	FILE *fp;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fp = fopen(path, "r");
	if (!fp)
		fail_msg("cannot read '%s'", path);
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0)
		strbuf_add(&sb, buf, n);
	fclose(fp);
	return strbuf_detach(&sb);
}

static void test_plots_blocks_from_selection(void **state)
{
	struct sel_run runs[] = {
		{.tag = (char *)"r1",
		 .level = 1,
		 .level_numeric = true,
		 .metric = 10,
		 .block = (char *)"a"},
		{.tag = (char *)"r2",
		 .level = 2,
		 .level_numeric = true,
		 .metric = 19,
		 .block = (char *)"b"},
		{.tag = (char *)"r3",
		 .level = 1,
		 .level_numeric = true,
		 .metric = 11,
		 .block = NULL},
		{.tag = (char *)"r4",
		 .level = 2,
		 .level_numeric = true,
		 .metric = 20,
		 .block = (char *)"a"},
		{.tag = (char *)"r5",
		 .level = 4,
		 .level_numeric = true,
		 .metric = 30,
		 .block = (char *)"b"},
	};
	struct selection sel = {.runs = runs, .n = ARRAY_LEN(runs)};
	static const char *const files[] = {"blk.svg.gp", "blk.svg.tsv", "blk.svg",
					    ".coreplan-outputs", NULL};
	struct tmp t;
	char *image = NULL, *data, *script;
	(void)state;
	tmp_make(&t);
	{
		struct plot_target target = {t.dir, "blk", PLOT_SVG, "c, x=1"};
		assert_int_equal(plots_blocks(&target, "lvl", "tput", &sel, &image), 0);
	}
	assert_string_equal(image, "blk.svg");
	data = slurp(t.dir, "blk.svg.tsv");
	assert_string_equal(
		data, "# coreplan plot data: one block per series with points (gnuplot index)\n"
		      "# block a\n1\t10\n2\t20\n\n\n"
		      "# block b\n2\t19\n4\t30\n\n\n"
		      "# block NA\n1\t11\n");
	script = slurp(t.dir, "blk.svg.gp");
	if (!strstr(script, "set title 'runs by block: c, x=1'") ||
	    !strstr(script, "set xlabel 'lvl'") ||
	    !strstr(script, "set ylabel 'tput (interactions/s)'"))
		fail_msg("title or labels missing from the script:\n%s", script);
	check_dir_holds(t.dir, files);
	free(data);
	free(script);
	free(image);
	tmp_remove(&t);
}

static void check_points(const struct plot_reduce *r, const double *x, const double *y, size_t n)
{
	assert_int_equal(r->out_points, n);
	for (size_t i = 0; i < n; i++)
		if (r->x[i] != x[i] || r->y[i] != y[i])
			fail_msg("point %zu: (%g, %g), expected (%g, %g)", i, r->x[i], r->y[i],
				 x[i], y[i]);
}

static void reduce(struct plot_reduce *r, size_t max_points, const double *y, size_t n)
{
	assert_int_equal(plot_reduce_init(r, n, max_points), 0);
	for (size_t i = 0; i < n; i++)
		plot_reduce_add(r, i, 10.0 * (double)i, y[i]);
	plot_reduce_finish(r);
}

/*
 * Min/max per bucket, worked by hand (x = 10 x position):
 *   12 positions, at most 6 points: 3 buckets of 4 (bucket = pos * 3 / 12)
 *     y  5 1 9 3 | 2 2 8 8 | 7 NaN 0 4
 *     -> (10,1) (20,9) | (40,2) (60,8) [first of equal ones] | (80,7) (100,0)
 *        [the highest comes first: position order]
 *   10 positions, at most 6: buckets 0-3, 4-6, 7-9 (pos * 3 / 10)
 *     y = pos, but 100 at 5 -> (0,0) (30,3) | (40,4) (50,100) | (70,7) (90,9)
 *   a bucket of one value keeps one point; NaN-only buckets none;
 *   n <= max_points keeps every point with a y.
 * The global least and most always survive: a 100000-point series with one
 * spike up and one down at random-looking places, reduced to 2000.
 */
static void test_plot_reduce_min_max(void **state)
{
	static const double y12[] = {5, 1, 9, 3, 2, 2, 8, 8, 7, NAN, 0, 4};
	static const double x12w[] = {10, 20, 40, 60, 80, 100}, y12w[] = {1, 9, 2, 8, 7, 0};
	static const double y10[] = {0, 1, 2, 3, 4, 100, 6, 7, 8, 9};
	static const double x10w[] = {0, 30, 40, 50, 70, 90}, y10w[] = {0, 3, 4, 100, 7, 9};
	static const double y6[] = {NAN, 3, NAN, NAN, NAN, NAN};
	static const double x6w[] = {10}, y6w[] = {3};
	static const double y3[] = {1, NAN, 2};
	static const double x3w[] = {0, 20}, y3w[] = {1, 2};
	struct plot_reduce r;
	double *series = malloc(100000 * sizeof(*series));
	bool seen_max = false, seen_min = false;
	(void)state;
	assert_non_null(series);
	reduce(&r, 6, y12, ARRAY_LEN(y12));
	check_points(&r, x12w, y12w, ARRAY_LEN(y12w));
	assert_int_equal(r.in_points, 11);
	assert_true(plot_reduce_reduced(&r));
	plot_reduce_release(&r);
	reduce(&r, 6, y10, ARRAY_LEN(y10));
	check_points(&r, x10w, y10w, ARRAY_LEN(y10w));
	plot_reduce_release(&r);
	reduce(&r, 4, y6, ARRAY_LEN(y6));
	check_points(&r, x6w, y6w, 1);
	assert_false(plot_reduce_reduced(&r));
	plot_reduce_release(&r);
	reduce(&r, 2000, y3, ARRAY_LEN(y3));
	check_points(&r, x3w, y3w, 2);
	assert_false(plot_reduce_reduced(&r));
	plot_reduce_release(&r);

	for (size_t i = 0; i < 100000; i++)
		series[i] = 50 + 10 * sin((double)i / 777.0);
	series[61231] = 1000;  /* the global most */
	series[99999] = -1000; /* the global least, in the last bucket */
	reduce(&r, 2000, series, 100000);
	assert_true(r.out_points <= 2000);
	assert_true(r.out_points >= 1000);
	assert_true(plot_reduce_reduced(&r));
	for (size_t i = 0; i < r.out_points; i++) {
		size_t pos = (size_t)(r.x[i] / 10);
		assert_true(r.y[i] == series[pos]); /* a point of the series */
		if (i)
			assert_true(r.x[i] > r.x[i - 1]); /* in order */
		seen_max |= r.y[i] == 1000 && pos == 61231;
		seen_min |= r.y[i] == -1000 && pos == 99999;
	}
	assert_true(seen_max && seen_min);
	plot_reduce_release(&r);
	free(series);
}

/*
 * The trace plot of a long trace: 5000 rows (more than PLOT_TRACE_POINTS),
 * so each series is reduced, the title says so with the counts, the data
 * file holds at most PLOT_TRACE_POINTS points per series, and the plateau
 * shade is at the plateau rows' seconds (rows 1000 and 3999: 999 and
 * 3998 s after the first).
 */
static void test_plots_trace_reduced(void **state)
{
	struct trace_row *rows = calloc(5000, sizeof(*rows));
	struct trace_plot tp;
	struct run_cores cores;
	struct tmp t;
	char *image = NULL, *data, *script;
	size_t lines = 0;
	(void)state;
	assert_non_null(rows);
	for (size_t i = 0; i < 5000; i++) {
		rows[i].row_no = (int64_t)i + 1;
		rows[i].epoch = 1000 + (double)i;
		rows[i].app_j = 100 * (double)i + (i == 2500 ? 5000 : 0);
		rows[i].app_rss_kb = 2048 + (double)(i % 7);
	}
	memset(&cores, 0, sizeof(cores));
	cores.ok = true;
	cores.clk_tck = 100;
	cores.window.lo = 999;
	cores.window.hi = 3998;
	assert_int_equal(trace_plot_init(&tp, 5000, PLOT_TRACE_POINTS, &cores), 0);
	for (size_t i = 0; i < 5000; i++)
		trace_plot_add(&tp, i, &rows[i]);
	trace_plot_finish(&tp);
	assert_true(plot_reduce_reduced(&tp.cores) && plot_reduce_reduced(&tp.rss));
	assert_int_equal(tp.cores.in_points, 4999);
	assert_true(tp.shade_from == 999 && tp.shade_to == 3998);
	tmp_make(&t);
	{
		struct plot_target target = {t.dir, "tr", PLOT_SVG, NULL};
		int rc = plots_trace(&target, "r1", &tp, &cores, &image);
		if (rc == PLOT_NOT_INSTALLED) {
			trace_plot_release(&tp);
			free(rows);
			tmp_remove(&t);
			skip();
		}
		assert_int_equal(rc, 0);
	}
	script = slurp(t.dir, "tr.svg.gp");
	if (!strstr(script, "5000 rows reduced to 2000 points per series by min/max per bucket") ||
	    !strstr(script, "rect from 999, graph 0 to 3998, graph 1"))
		fail_msg("title or shade wrong:\n%s", script);
	data = slurp(t.dir, "tr.svg.tsv");
	for (const char *p = data; *p; p++)
		lines += *p == '\n';
	assert_true(lines <= 2 * PLOT_TRACE_POINTS + 6);
	/* the spike: 5100 jiffies in 1 s at 100 Hz = 51 cores, and the drop after it, -49 */
	assert_non_null(strstr(data, "\t51\n"));
	assert_non_null(strstr(data, "\t-49\n"));
	free(data);
	free(script);
	free(image);
	trace_plot_release(&tp);
	free(rows);
	tmp_remove(&t);
}

static void test_plots_trace_from_series(void **state)
{
	struct trace_row rows[] = {
		{.row_no = 1, .epoch = 100, .app_j = 1000, .app_rss_kb = 1024},
		{.row_no = 2, .epoch = 101, .app_j = 1100, .app_rss_kb = 2048},
		{.row_no = 3, .epoch = 103, .app_j = 1400, .app_rss_kb = 3072},
	};
	struct trace_plot tp;
	struct run_cores cores;
	struct tmp t;
	char *image = NULL, *data;
	(void)state;
	memset(&cores, 0, sizeof(cores));
	cores.ok = false; /* no plateau: nothing shaded */
	cores.clk_tck = 100;
	assert_int_equal(trace_plot_init(&tp, ARRAY_LEN(rows), PLOT_TRACE_POINTS, &cores), 0);
	for (size_t i = 0; i < ARRAY_LEN(rows); i++)
		trace_plot_add(&tp, i, &rows[i]);
	trace_plot_finish(&tp);
	assert_false(plot_reduce_reduced(&tp.cores));
	tmp_make(&t);
	{
		struct plot_target target = {t.dir, "tr", PLOT_SVG, NULL};
		assert_int_equal(plots_trace(&target, "r1", &tp, &cores, &image), 0);
	}
	trace_plot_release(&tp);
	data = slurp(t.dir, "tr.svg.tsv");
	/* cores: 100 jiffies in 1 s, 300 in 2 s at 100 Hz; the first row has no interval */
	assert_string_equal(
		data, "# coreplan plot data: one block per series with points (gnuplot index)\n"
		      "# app cores (per interval)\n1\t1\n3\t1.5\n\n\n"
		      "# app RSS (MiB)\n0\t1\n1\t2\n3\t3\n");
	free(data);
	data = slurp(t.dir, "tr.svg.gp");
	if (!strstr(data, "set title 'trace of r1: all runs'") || strstr(data, "plateau"))
		fail_msg("trace script: title missing or a plateau shaded:\n%s", data);
	free(data);
	free(image);
	tmp_remove(&t);
}

static void test_plots_memory_band(void **state)
{
	/* two groups, as memory --group cfg has them: mem with a line, pg at one level (none) */
	struct memory_point pts[6] = {
		{"a", "cfg=mem", "1", 1, 3, 0},   {"b", "cfg=mem", "1", 2, 5.5, 0},
		{"c", "cfg=mem", "1", 3, 6.5, 0}, {"d", "cfg=mem", "1", 4, 9, 0},
		{"e", "cfg=pg", "1", 2, 20, 0},   {"f", "cfg=pg", "2", 2, 22, 0},
	};
	struct memory_result mr;
	struct strbuf cap = STRBUF_INIT;
	struct tmp t;
	char *image = NULL, *data, *band, *line, *gp;
	(void)state;
	memset(&mr, 0, sizeof(mr));
	mr.points = pts;
	mr.npoints = 6;
	assert_int_equal(memory_compute(pts, 6, &mr.mem), 0);
	tmp_make(&t);
	{
		struct plot_target target = {t.dir, "mem", PLOT_SVG, "c", {NULL, false, false}, &cap};
		assert_int_equal(plots_memory(&target, "sessions", "load_rss_kb", &mr, &image), 0);
	}
	data = slurp(t.dir, "mem.svg.tsv");
	band = strstr(data, "# cfg=mem: 95% band of the line\n");
	assert_non_null(band);
	/*
	 * By hand: slope 9.5 / 5 = 1.9, intercept 6 - 1.9 x 2.5 = 1.25, so 3.15 at x = 1;
	 * SSE 0.45, s^2 0.225, se of the mean at 1 = sqrt(0.225 (1/4 + 2.25/5)); t(0.975, 2)
	 * 4.302652729911275: band 1.4424376348172416 .. 4.857562365182758
	 * (scipy.stats.linregress and t.ppf agree, SciPy 1.10.1).
	 */
	{
		double bx, by, blo, bhi;
		line = strchr(band, '\n') + 1;
		assert_int_equal(sscanf(line, "%lf\t%lf\t%lf\t%lf", &bx, &by, &blo, &bhi), 4);
		assert_true(bx == 1);
		assert_true(fabs(by - 3.15) < 1e-12);
		assert_true(fabs(blo - 1.4424376348172416) < 1e-9);
		assert_true(fabs(bhi - 4.857562365182758) < 1e-9);
	}
	if (!strstr(data, "# cfg=mem: runs\n1\t3\n2\t5.5\n3\t6.5\n4\t9\n"))
		fail_msg("cfg=mem's points are not its runs:\n%s", data);
	if (!strstr(data, "# cfg=pg: runs\n2\t20\n2\t22\n"))
		fail_msg("cfg=pg's points are not its runs:\n%s", data);
	/* one level: no line for pg (nothing drawn, nothing in the key), and the caption says so */
	if (strstr(data, "cfg=pg: OLS line") || strstr(data, "cfg=pg: 95%"))
		fail_msg("cfg=pg has a line though it has one level:\n%s", data);
	gp = slurp(t.dir, "mem.svg.gp");
	/* two groups: two colours, and the line of a group in its points' colour */
	if (!strstr(gp, "lines lw 2 lc rgb '#0072b2' title 'cfg=mem: OLS line'") ||
	    !strstr(gp, "lc rgb '#d55e00' title 'cfg=pg: runs'") ||
	    !strstr(gp, "lc rgb '#0072b2' title 'cfg=mem: runs'"))
		fail_msg("the groups do not have a colour each:\n%s", gp);
	if (!strstr(strbuf_str(&cap), "2 groups") || !strstr(strbuf_str(&cap), "cfg=pg: 2 runs, no line") ||
	    !strstr(strbuf_str(&cap), "Runs: c (n 6)."))
		fail_msg("caption: %s", strbuf_str(&cap));
	free(gp);
	free(data);
	free(image);
	memory_release(&mr.mem);
	strbuf_release(&cap);
	tmp_remove(&t);
}

static void test_plots_interval_seconds(void **state)
{
	(void)state;
	/* g1-n100-b1's row 46 (gomaxprocs corpus): the stamp steps 2 s, the ticks 839 at the
	 * run's 800 Hz: the interval lasted 839 / 800 = 1.04875 s, not 2 (by hand) */
	assert_true(fabs(plots_interval_seconds(2, 839, 800) - 1.04875) < 1e-12);
	assert_true(fabs(plots_interval_seconds(1, 833, 800) - 1.04125) < 1e-12);
	/* a true skipped second: the ticks moved two seconds' worth */
	assert_true(plots_interval_seconds(2, 1600, 800) == 2);
	/* ticks not trusted (NaN rate) or not moving: the epochs */
	assert_true(plots_interval_seconds(2, 800, NAN) == 2);
	assert_true(plots_interval_seconds(3, 0, 800) == 3);
	/* ticks more than a second off the stamps: the stamps (ticks stalled or a wrong rate) */
	assert_true(plots_interval_seconds(2, 3000, 800) == 2);
	assert_true(plots_interval_seconds(3, 800, 800) == 3); /* 1 s by the ticks, 2 off */
	/* rows sharing an epoch: no interval */
	assert_true(isnan(plots_interval_seconds(0, 135, 800)));
}

/* The trace plot's series of rows, as the plot analysis streams them. */
static void trace_plot_of(struct trace_plot *tp, const struct trace_row *rows, size_t n,
			  const struct run_cores *cores)
{
	assert_int_equal(trace_plot_init(tp, n, PLOT_TRACE_POINTS, cores), 0);
	for (size_t i = 0; i < n; i++)
		trace_plot_add(tp, i, &rows[i]);
	trace_plot_finish(tp);
}

/* A trace whose 1 Hz sampler skipped a stamp: no false dip (rates by hand). */
static void test_plots_trace_skipped_second(void **state)
{
	/*
	 * rows 1-5; each interval lasts 1 s by the ticks (800 per s on 8 CPUs at 100 Hz) and
	 * the app used 100 jiffies in it (1 core), except row 4 -> 5, a real skipped second
	 * (1600 ticks, 200 jiffies: 2 s at 1 core). Row 3's stamp skips a second with one
	 * second's counts: by the epochs that interval would read 100 / (2 x 100) = 0.5.
	 */
	struct trace_row rows[] = {
		{.row_no = 1, .epoch = 100, .cpu_total_j = 0, .app_j = 0, .app_rss_kb = 1024},
		{.row_no = 2, .epoch = 101, .cpu_total_j = 800, .app_j = 100, .app_rss_kb = 1024},
		{.row_no = 3, .epoch = 103, .cpu_total_j = 1600, .app_j = 200, .app_rss_kb = 1024},
		{.row_no = 4, .epoch = 104, .cpu_total_j = 2400, .app_j = 300, .app_rss_kb = 1024},
		{.row_no = 5, .epoch = 106, .cpu_total_j = 4000, .app_j = 500, .app_rss_kb = 1024},
	};
	struct trace_plot tp;
	struct run_cores cores;
	struct strbuf cap = STRBUF_INIT;
	struct tmp t;
	char *image = NULL, *data;
	(void)state;
	memset(&cores, 0, sizeof(cores));
	cores.ok = true;
	cores.window.lo = 1;
	cores.window.hi = 4;
	cores.clk_tck = 100;
	cores.cpu.tick_ok = true;
	cores.cpu.stat_tick_hz = 800;
	trace_plot_of(&tp, rows, ARRAY_LEN(rows), &cores);
	tmp_make(&t);
	{
		struct plot_target target = {t.dir, "tr", PLOT_SVG, NULL, {NULL, false, false},
					     &cap};
		assert_int_equal(plots_trace(&target, "r1", &tp, &cores, &image), 0);
	}
	data = slurp(t.dir, "tr.svg.tsv");
	if (!strstr(data, "# app cores (per interval)\n1\t1\n3\t1\n4\t1\n6\t1\n\n"))
		fail_msg("per-interval cores are not 1 at every row:\n%s", data);
	if (!strstr(strbuf_str(&cap), "d(cpu_total_j) / 800.0 Hz"))
		fail_msg("caption does not name the tick clock: %s", strbuf_str(&cap));
	free(data);
	free(image);
	tmp_remove(&t);
	/* the same trace with untrusted ticks: the epochs, and the dip they give */
	strbuf_reset(&cap);
	cores.cpu.tick_ok = false;
	trace_plot_release(&tp);
	trace_plot_of(&tp, rows, ARRAY_LEN(rows), &cores);
	tmp_make(&t);
	{
		struct plot_target target = {t.dir, "tr", PLOT_SVG, NULL, {NULL, false, false},
					     &cap};
		assert_int_equal(plots_trace(&target, "r1", &tp, &cores, &image), 0);
	}
	data = slurp(t.dir, "tr.svg.tsv");
	if (!strstr(data, "# app cores (per interval)\n1\t1\n3\t0.5\n4\t1\n6\t1\n\n"))
		fail_msg("epoch-based cores differ:\n%s", data);
	if (!strstr(strbuf_str(&cap), "can show a dip"))
		fail_msg("caption does not warn of the dip: %s", strbuf_str(&cap));
	free(data);
	free(image);
	trace_plot_release(&tp);
	strbuf_release(&cap);
	tmp_remove(&t);
}

static void test_plots_context(void **state)
{
	struct run_filter f = {0};
	struct strbuf sb = STRBUF_INIT;
	(void)state;
	assert_int_equal(plots_context(&f, &sb), 0);
	assert_string_equal(strbuf_str(&sb), "all corpora");
	strbuf_release(&sb);
	f.corpus = strdup("c");
	assert_int_equal(run_filter_add_where(&f, "gomaxprocs=1,2"), 0);
	assert_int_equal(run_filter_add_where(&f, "block=a"), 0);
	assert_int_equal(plots_context(&f, &sb), 0);
	assert_string_equal(strbuf_str(&sb), "c, gomaxprocs=1,2 block=a");
	strbuf_release(&sb);
	run_filter_release(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_quote_plain, teardown),
		cmocka_unit_test_teardown(test_quote_quote, teardown),
		cmocka_unit_test_teardown(test_quote_backquote, teardown),
		cmocka_unit_test_teardown(test_quote_system, teardown),
		cmocka_unit_test_teardown(test_quote_newline_command, teardown),
		cmocka_unit_test_teardown(test_quote_cr, teardown),
		cmocka_unit_test_teardown(test_quote_control_bytes, teardown),
		cmocka_unit_test_teardown(test_quote_macro, teardown),
		cmocka_unit_test_teardown(test_quote_bang, teardown),
		cmocka_unit_test_teardown(test_quote_appends, teardown),
		cmocka_unit_test_teardown(test_quote_well_formed, teardown),
		cmocka_unit_test_teardown(test_data_text, teardown),
		cmocka_unit_test_teardown(test_begin_hostile, teardown),
		cmocka_unit_test_teardown(test_render_hostile_svg, teardown),
		cmocka_unit_test_teardown(test_render_hostile_png, teardown),
		cmocka_unit_test_teardown(test_render_hostile_boxes, teardown),
		cmocka_unit_test_teardown(test_render_leading_quote_svg, teardown),
		cmocka_unit_test_teardown(test_render_index_titles, teardown),
		cmocka_unit_test_teardown(test_render_empty_first_series, teardown),
		cmocka_unit_test_teardown(test_render_empty_middle_series, teardown),
		cmocka_unit_test_teardown(test_render_syntax_error, teardown),
		cmocka_unit_test_teardown(test_render_no_image, teardown),
		cmocka_unit_test_teardown(test_render_not_installed, teardown),
		cmocka_unit_test_teardown(test_draw_not_installed, teardown),
		cmocka_unit_test_teardown(test_draw_names_beside_corpus_files, teardown),
		cmocka_unit_test_teardown(test_draw_refuses_foreign_files, teardown),
		cmocka_unit_test_teardown(test_draw_force_replaces_own, teardown),
		cmocka_unit_test_teardown(test_draw_failure_keeps_earlier_plot, teardown),
		cmocka_unit_test_teardown(test_draw_special_names, teardown),
		cmocka_unit_test_teardown(test_plots_blocks_from_selection, teardown),
		cmocka_unit_test_teardown(test_plots_trace_from_series, teardown),
		cmocka_unit_test(test_plot_reduce_min_max),
		cmocka_unit_test_teardown(test_plots_trace_reduced, teardown),
		cmocka_unit_test_teardown(test_plots_memory_band, teardown),
		cmocka_unit_test(test_plots_interval_seconds),
		cmocka_unit_test_teardown(test_plots_trace_skipped_second, teardown),
		cmocka_unit_test_teardown(test_plots_context, teardown),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
