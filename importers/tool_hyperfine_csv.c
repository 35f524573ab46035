/*
 * tool_hyperfine_csv: hyperfine --export-csv (1.15) into runs, streamed
 * through libcsv.
 *
 * The CSV export holds each command's summary, not its timings: a header
 * `command,mean,stddev,median,user,system,min,max[,parameter_NAME...]`
 * and one row per command. So one run per command, with the summary as
 * its fields: command (a parameter scan's template when every row gives
 * the same, as for the JSON export), mean_s, stddev_s, median_s,
 * user_mean_s, system_mean_s, min_s, max_s (seconds, lower is better) and
 * one column per parameter (`parameter_threads` -> `threads`, so `--by
 * threads` reads the same as for a JSON export). A command measured once
 * per file has no spread of its own: README.md says to export JSON for
 * comparisons. Refused: another header, a row of another width, a value
 * that is not a finite, non-negative decimal number, no rows.
 */
#include "../common/err.h"
#include "../common/num.h"
#include "tools.h"

#include <csv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const summary_cols[] = {"command", "mean",   "stddev", "median",
					   "user",    "system", "min",    "max"};
static const char *const summary_names[] = {"command",     "mean_s",        "stddev_s", "median_s",
					    "user_mean_s", "system_mean_s", "min_s",    "max_s"};
#define NSUMMARY 8

struct hc {
	const char *path;
	struct tool_emit *out;
	long line, record_line;
	int rc;
	char **fields; /* the record's fields */
	size_t nfields, cap;
	char **header;
	size_t ncols;
	size_t rows;
	char *template; /* as in tool_hyperfine.c */
	bool templates_agree, any_params;
};

static void on_field(void *s, size_t len, void *arg)
{
	struct hc *h = arg;
	char **grown;
	if (h->rc)
		return;
	if (h->nfields == 0)
		h->record_line = h->line;
	if (h->nfields == h->cap) {
		size_t cap = h->cap ? 2 * h->cap : 16;
		if (!(grown = realloc(h->fields, cap * sizeof(*grown)))) {
			h->rc = err_set("out of memory reading '%s'", h->path);
			return;
		}
		h->fields = grown;
		h->cap = cap;
	}
	if (!(h->fields[h->nfields] = strndup(s ? s : "", len))) {
		h->rc = err_set("out of memory reading '%s'", h->path);
		return;
	}
	h->nfields++;
}

static void clear_fields(struct hc *h)
{
	for (size_t i = 0; i < h->nfields; i++)
		free(h->fields[i]);
	h->nfields = 0;
}

static int header(struct hc *h)
{
	for (size_t i = 0; i < NSUMMARY; i++)
		if (i >= h->nfields || strcmp(h->fields[i], summary_cols[i]))
			return err_at(h->path, h->record_line, 0,
				      "not hyperfine's CSV header (command,mean,stddev,median,user,"
				      "system,min,max[,parameter_NAME...])");
	for (size_t i = NSUMMARY; i < h->nfields; i++)
		if (strncmp(h->fields[i], "parameter_", 10) || !h->fields[i][10])
			return err_at(h->path, h->record_line, 0,
				      "column %zu '%.100s': hyperfine's CSV has parameter_NAME "
				      "columns after max",
				      i + 1, h->fields[i]);
	h->header = h->fields;
	h->ncols = h->nfields;
	h->fields = NULL;
	h->nfields = h->cap = 0;
	return 0;
}

static int agree_template(struct hc *h)
{
	char *t = strdup(h->fields[0]);
	for (size_t p = NSUMMARY; t && p < h->ncols; p++) {
		char name[300];
		const char *v = h->fields[p];
		size_t nv = strlen(v), nn;
		char *out, *w;
		const char *q, *from;
		if (!nv)
			continue;
		h->any_params = true;
		snprintf(name, sizeof(name), "{%.290s}", h->header[p] + 10);
		nn = strlen(name);
		out = malloc(strlen(t) * (nn + 1) + 1);
		if (!out) {
			free(t);
			t = NULL;
			break;
		}
		for (w = out, from = t; (q = strstr(from, v)) != NULL; from = q + nv) {
			memcpy(w, from, (size_t)(q - from));
			w += q - from;
			memcpy(w, name, nn);
			w += nn;
		}
		strcpy(w, from);
		free(t);
		t = out;
	}
	if (!t)
		return err_set("out of memory reading '%s'", h->path);
	if (!h->template)
		h->template = t;
	else {
		if (strcmp(h->template, t))
			h->templates_agree = false;
		free(t);
	}
	return 0;
}

static int row(struct hc *h)
{
	char id[32];
	int rc;
	if (h->nfields != h->ncols)
		return err_at(h->path, h->record_line, 0, "%zu fields, the header has %zu",
			      h->nfields, h->ncols);
	if (!h->fields[0][0])
		return err_at(h->path, h->record_line, 1, "an empty command");
	if ((rc = tool_emit_row(h->out, h->record_line)))
		return rc;
	snprintf(id, sizeof(id), "c%zu", h->rows + 1);
	rc = tool_emit_set(h->out, "id", id, 0);
	if (rc == 0)
		rc = tool_emit_shared(h->out, "command", h->fields[0], 0, 1);
	for (size_t i = 1; rc == 0 && i < NSUMMARY; i++) {
		double v;
		if (num_parse_real(h->fields[i], &v) != 0 || v < 0)
			return err_at(
				h->path, h->record_line, (long)i + 1,
				"%s '%.40s' is not a time in seconds (a finite decimal number,"
				" not negative)",
				summary_cols[i], h->fields[i]);
		rc = tool_emit_set(h->out, summary_names[i], h->fields[i], (long)i + 1);
	}
	for (size_t i = NSUMMARY; rc == 0 && i < h->ncols; i++)
		rc = tool_emit_shared(h->out, h->header[i] + 10, h->fields[i], 0, (long)i + 1);
	if (rc > 0)
		return err_at(h->path, h->record_line, 0, "a column given twice");
	if (rc == 0)
		rc = agree_template(h);
	if (rc == 0)
		rc = tool_emit_done(h->out);
	h->rows++;
	return rc;
}

static void on_record(int c, void *arg)
{
	struct hc *h = arg;
	(void)c;
	if (h->rc)
		return;
	if (h->nfields == 1 && !h->fields[0][0]) { /* a blank line (or CRLF's LF) */
		clear_fields(h);
		return;
	}
	if (h->nfields == 0)
		return;
	h->rc = h->header ? row(h) : header(h);
	clear_fields(h);
}

int hyperfine_csv_convert(struct tool_src *src, struct tool_emit *out)
{
	struct hc h = {.path = src->display, .out = out, .templates_agree = true};
	struct csv_parser p;
	const char *s;
	size_t len;
	bool newline;
	int got = 0;
	if (csv_init(&p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL | CSV_REPALL_NL) != 0)
		return err_set("out of memory reading '%s'", h.path);
	while (h.rc == 0 && (got = tool_src_line(src, &s, &len, &newline)) == 1) {
		h.line = src->line_no;
		if (memchr(s, '\0', len)) {
			h.rc = err_at(h.path, h.line,
				      (long)((const char *)memchr(s, '\0', len) - s) + 1,
				      "NUL byte: not hyperfine CSV");
			break;
		}
		if (csv_parse(&p, s, len, on_field, on_record, &h) != len ||
		    (newline && csv_parse(&p, "\n", 1, on_field, on_record, &h) != 1)) {
			if (!h.rc)
				h.rc = err_at(h.path, h.line, 0, "not CSV: %s",
					      csv_strerror(csv_error(&p)));
		}
	}
	if (h.rc == 0 && got < 0)
		h.rc = -1;
	if (h.rc == 0 && csv_fini(&p, on_field, on_record, &h) != 0 && !h.rc)
		h.rc = err_at(h.path, h.line, 0, "an unterminated quoted field");
	if (h.rc == 0 && !h.header)
		h.rc = err_at(h.path, 1, 0, "empty: no hyperfine CSV header");
	if (h.rc == 0 && h.rows == 0)
		h.rc = err_at(h.path, h.line, 0, "a header but no commands: nothing was timed");
	if (h.rc == 0 && h.any_params && h.templates_agree)
		h.rc = tool_emit_constant(out, "command", h.template);
	csv_free(&p);
	clear_fields(&h);
	free(h.fields);
	for (size_t i = 0; i < h.ncols; i++)
		free(h.header[i]);
	free(h.header);
	free(h.template);
	return h.rc;
}
