/* tools: the registry of tool formats, the source converters read and the rows they write
 * (tools.h). */
#include "tools.h"

#include "../common/err.h"
#include "../common/grow.h"
#include "../common/infile.h"
#include "table.h"
#include "tool_json.h"
#include "tool_wrk.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One line per format. */
const struct tool_format tool_formats[] = {
	{"gobench", "Go testing benchmark text (go test -bench): one run per result line",
	 "Go benchmark text", gobench_convert},
	{"hyperfine", "hyperfine --export-json: one run per timing, parameters as fields",
	 "hyperfine JSON", hyperfine_convert},
	{"hyperfine-csv",
	 "hyperfine --export-csv: one run per command (its mean, median, min, max: no timings)",
	 "hyperfine CSV", hyperfine_csv_convert},
	{"gbench",
	 "Google Benchmark --benchmark_format=json: one run per repetition, threads the level",
	 "Google Benchmark JSON", gbench_convert},
	{"wrk", "wrk text output (wrk -t -c -d [--latency] [-s script]): one run per file",
	 "wrk output", tool_wrk_convert},
	{NULL, NULL, NULL, NULL},
};

const struct tool_format *tool_find(const char *name)
{
	for (size_t i = 0; tool_formats[i].name; i++)
		if (!strcmp(tool_formats[i].name, name))
			return &tool_formats[i];
	return NULL;
}

const char *tool_names(void)
{
	static char names[512];
	size_t used = 0;
	if (names[0])
		return names;
	for (size_t i = 0; tool_formats[i].name; i++) {
		int w = snprintf(names + used, sizeof(names) - used, "%s%s", i ? ", " : "",
				 tool_formats[i].name);
		if (w < 0 || (size_t)w >= sizeof(names) - used)
			break;
		used += (size_t)w;
	}
	return names;
}

/* ---- the source ---- */

int tool_src_file(struct tool_src *s, struct infile *in, const char *display)
{
	memset(s, 0, sizeof(*s));
	s->display = display;
	s->in = in;
	s->buf = malloc(TOOL_SRC_BUF);
	return s->buf ? 0 : err_set("out of memory reading '%s'", display);
}

void tool_src_mem(struct tool_src *s, const char *bytes, size_t n, const char *display)
{
	memset(s, 0, sizeof(*s));
	s->display = display;
	s->buf = (unsigned char *)(uintptr_t)bytes; /* read only: never written through */
	s->len = n;
	s->eof = true;
}

void tool_src_close(struct tool_src *s)
{
	if (s->in)
		free(s->buf);
	free(s->line);
	memset(s, 0, sizeof(*s));
}

int tool_src_fill(struct tool_src *s)
{
	size_t got = 0;
	if (s->pos < s->len)
		return 0;
	s->consumed += (int64_t)s->len;
	s->len = s->pos = 0;
	if (s->eof || !s->in)
		return s->eof = true, 0;
	if (infile_read(s->in, s->buf, TOOL_SRC_BUF, &got))
		return -1;
	s->len = got;
	s->eof = got == 0;
	return 0;
}

static int line_grow(struct tool_src *s, size_t need)
{
	size_t cap = s->line_cap ? s->line_cap : 256;
	char *grown;
	if (need > TOOL_LINE_MAX)
		return err_at(s->display, s->line_no + 1, 0,
			      "line longer than %zu MiB: not a tool's output", TOOL_LINE_MAX >> 20);
	while (cap < need)
		cap *= 2;
	if (!(grown = realloc(s->line, cap)))
		return err_set("out of memory reading '%s'", s->display);
	s->line = grown;
	s->line_cap = cap;
	return 0;
}

int tool_src_line(struct tool_src *s, const char **text, size_t *len, bool *newline)
{
	size_t used = 0;
	bool any = false;
	*newline = false;
	for (;;) {
		const unsigned char *start, *nl;
		size_t avail, take;
		if (s->pos == s->len) {
			if (tool_src_fill(s))
				return -1;
			if (s->len == 0)
				break;
		}
		any = true;
		start = s->buf + s->pos;
		avail = s->len - s->pos;
		nl = memchr(start, '\n', avail);
		take = nl ? (size_t)(nl - start) : avail;
		/* a whole line inside the buffer is handed out in place, uncopied */
		if (nl && used == 0 && s->in == NULL) {
			*text = (const char *)start;
			*len = take;
			s->pos += take + 1;
			*newline = true;
			s->line_no++;
			return 1;
		}
		if (used + take + 1 > s->line_cap && line_grow(s, used + take + 1))
			return -1;
		memcpy(s->line + used, start, take);
		used += take;
		s->pos += take + (nl != NULL);
		if (nl) {
			*newline = true;
			break;
		}
	}
	if (!any)
		return 0;
	if (!s->line && line_grow(s, 1))
		return -1;
	s->line[used] = '\0';
	*text = s->line;
	*len = used;
	s->line_no++;
	return 1;
}

/* ---- the rows ---- */

void tool_emit_init(struct tool_emit *e, const struct tool_sink *sink, const char *display,
		    const char *file)
{
	memset(e, 0, sizeof(*e));
	e->sink = sink;
	e->display = display;
	e->file = file;
}

void tool_emit_release(struct tool_emit *e)
{
	free(e->cells);
	free(e->text);
	free(e->slots);
	free(e->out);
	memset(e, 0, sizeof(*e));
}

static uint32_t name_hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

int tool_emit_row(struct tool_emit *e, long line)
{
	e->open = true;
	e->line = line;
	e->ncells = 0;
	e->text_len = 0;
	if (e->nslots)
		memset(e->slots, 0, e->nslots * sizeof(*e->slots));
	return 0;
}

static int text_add(struct tool_emit *e, const char *s, size_t n, size_t *offset)
{
	if (e->text_len + n + 1 > e->text_cap) {
		size_t cap = e->text_cap ? e->text_cap : 1024;
		char *grown;
		while (cap < e->text_len + n + 1)
			cap *= 2;
		if (!(grown = realloc(e->text, cap)))
			return err_set("out of memory reading '%s'", e->display);
		e->text = grown;
		e->text_cap = cap;
	}
	memcpy(e->text + e->text_len, s, n);
	e->text[e->text_len + n] = '\0';
	*offset = e->text_len;
	e->text_len += n + 1;
	return 0;
}

/* The slot of `name` in the row's index: its cell + 1, or 0 (free) where it would go. */
static uint32_t *slot_of(struct tool_emit *e, const char *name, size_t n)
{
	size_t mask = e->nslots - 1, i = name_hash(name, n) & mask;
	for (; e->slots[i]; i = (i + 1) & mask) {
		const char *have = e->text + e->cells[e->slots[i] - 1].name;
		if (strlen(have) == n && !memcmp(have, name, n))
			break;
	}
	return &e->slots[i];
}

/* Keep the index at most half full. */
static int slots_grow(struct tool_emit *e)
{
	size_t n = e->nslots ? 2 * e->nslots : 64;
	uint32_t *slots = calloc(n, sizeof(*slots));
	if (!slots)
		return err_set("out of memory reading '%s'", e->display);
	free(e->slots);
	e->slots = slots;
	e->nslots = n;
	for (size_t c = 0; c < e->ncells; c++) {
		const char *name = e->text + e->cells[c].name;
		*slot_of(e, name, strlen(name)) = (uint32_t)(c + 1);
	}
	return 0;
}

static int cell_add(struct tool_emit *e, const char *name, size_t name_len, const char *value,
		    size_t value_len, long line, long col, bool shared)
{
	struct emit_cell *c;
	uint32_t *slot;
	if (!e->open)
		return err_set("%s: a cell before its row", e->display);
	if (e->ncells >= UINT32_MAX - 1)
		return err_at(e->display, e->line, col, "too many values in one row");
	if (2 * (e->ncells + 1) > e->nslots && slots_grow(e))
		return -1;
	slot = slot_of(e, name, name_len);
	if (*slot)
		return 1;
	if (e->ncells == e->cells_cap) {
		size_t cap = e->cells_cap ? 2 * e->cells_cap : 32;
		struct emit_cell *grown = realloc(e->cells, cap * sizeof(*grown));
		if (!grown)
			return err_set("out of memory reading '%s'", e->display);
		e->cells = grown;
		e->cells_cap = cap;
	}
	c = &e->cells[e->ncells];
	if (text_add(e, name, name_len, &c->name) || text_add(e, value, value_len, &c->value))
		return -1;
	c->line = line;
	c->col = col;
	c->shared = shared;
	c->has_num = false;
	*slot = (uint32_t)(++e->ncells); /* text_add moved the text, never the slots */
	return 0;
}

int tool_emit_set_n(struct tool_emit *e, const char *name, size_t name_len, const char *value,
		    size_t value_len, long col)
{
	return cell_add(e, name, name_len, value, value_len, 0, col, false);
}

int tool_emit_set_num(struct tool_emit *e, const char *name, size_t name_len, const char *value,
		      size_t value_len, double num, long col)
{
	int rc = cell_add(e, name, name_len, value, value_len, 0, col, false);
	if (rc == 0) {
		e->cells[e->ncells - 1].has_num = true;
		e->cells[e->ncells - 1].num = num;
	}
	return rc;
}

int tool_emit_set(struct tool_emit *e, const char *name, const char *value, long col)
{
	return cell_add(e, name, strlen(name), value, strlen(value), 0, col, false);
}

int tool_emit_shared_n(struct tool_emit *e, const char *name, size_t name_len, const char *value,
		       size_t value_len, long line, long col)
{
	return cell_add(e, name, name_len, value, value_len, line, col, true);
}

int tool_emit_shared(struct tool_emit *e, const char *name, const char *value, long line, long col)
{
	return cell_add(e, name, strlen(name), value, strlen(value), line, col, true);
}

bool tool_emit_has(const struct tool_emit *e, const char *name)
{
	if (!e->open || !e->nslots)
		return false;
	return *slot_of((struct tool_emit *)(uintptr_t)e, name, strlen(name)) != 0;
}

int tool_emit_done(struct tool_emit *e)
{
	struct tool_row row;
	int rc;
	if (!e->open)
		return err_set("%s: a row ended twice", e->display);
	if (e->file) {
		rc = cell_add(e, "file", 4, e->file, strlen(e->file), 0, 0, true);
		if (rc)
			return rc > 0 ? err_at(e->display, e->line, 0,
					       "the converter made a column 'file', which names "
					       "the file")
				      : rc;
	}
	if (e->ncells > e->out_cap) {
		struct tool_cell *grown = realloc(e->out, e->ncells * sizeof(*grown));
		if (!grown)
			return err_set("out of memory reading '%s'", e->display);
		e->out = grown;
		e->out_cap = e->ncells;
	}
	for (size_t i = 0; i < e->ncells; i++) {
		e->out[i].name = e->text + e->cells[i].name;
		e->out[i].value = e->text + e->cells[i].value;
		e->out[i].line = e->cells[i].line;
		e->out[i].col = e->cells[i].col;
		e->out[i].shared = e->cells[i].shared;
		e->out[i].has_num = e->cells[i].has_num;
		e->out[i].num = e->cells[i].num;
	}
	row.line = e->line;
	row.cells = e->out;
	row.ncells = e->ncells;
	e->open = false;
	rc = e->sink->row(e->sink->arg, &row);
	if (rc == 0)
		e->rows++;
	return rc;
}

int tool_emit_constant(struct tool_emit *e, const char *name, const char *value)
{
	return e->sink->constant(e->sink->arg, name, value);
}

/* ---- a table sink: columns by hash, rows kept in memory ---- */

struct table_sink {
	const char *display;
	char **columns;
	size_t ncolumns, columns_cap;
	uint32_t *slots; /* column index + 1 */
	size_t nslots;
	struct sink_row {
		long line;
		size_t n; /* cells */
		uint32_t *cols;
		char **values;
	} * rows;
	size_t nrows, rows_cap;
	/* constants: applied to every row at the end */
	char **const_names, **const_values;
	size_t nconst;
};

static uint32_t *column_slot(struct table_sink *t, const char *name)
{
	size_t mask = t->nslots - 1, i = name_hash(name, strlen(name)) & mask;
	for (; t->slots[i]; i = (i + 1) & mask)
		if (!strcmp(t->columns[t->slots[i] - 1], name))
			break;
	return &t->slots[i];
}

static int column_of(struct table_sink *t, const char *name, uint32_t *out)
{
	uint32_t *slot;
	if (2 * (t->ncolumns + 1) > t->nslots) {
		size_t n = t->nslots ? 2 * t->nslots : 64;
		uint32_t *slots = calloc(n, sizeof(*slots));
		if (!slots)
			return err_set("out of memory");
		free(t->slots);
		t->slots = slots;
		t->nslots = n;
		for (size_t c = 0; c < t->ncolumns; c++)
			*column_slot(t, t->columns[c]) = (uint32_t)(c + 1);
	}
	slot = column_slot(t, name);
	if (!*slot) {
		if (GROW(t->columns, t->columns_cap, t->ncolumns + 1) != 0)
			return err_set("out of memory");
		if (!(t->columns[t->ncolumns] = strdup(name)))
			return err_set("out of memory");
		*slot = (uint32_t)(++t->ncolumns);
	}
	*out = *slot - 1;
	return 0;
}

static int table_sink_row(void *arg, const struct tool_row *row)
{
	struct table_sink *t = arg;
	struct sink_row *r;
	if (GROW(t->rows, t->rows_cap, t->nrows + 1) != 0)
		return err_set("out of memory");
	r = &t->rows[t->nrows];
	memset(r, 0, sizeof(*r));
	r->line = row->line;
	r->cols = malloc((row->ncells ? row->ncells : 1) * sizeof(*r->cols));
	r->values = calloc(row->ncells ? row->ncells : 1, sizeof(*r->values));
	t->nrows++;
	if (!r->cols || !r->values)
		return err_set("out of memory");
	for (size_t i = 0; i < row->ncells; i++) {
		if (column_of(t, row->cells[i].name, &r->cols[i]))
			return -1;
		if (!(r->values[i] = strdup(row->cells[i].value)))
			return err_set("out of memory");
		r->n++;
	}
	return 0;
}

static int table_sink_constant(void *arg, const char *name, const char *value)
{
	struct table_sink *t = arg;
	char **names = realloc(t->const_names, (t->nconst + 1) * sizeof(*names));
	char **values;
	if (!names)
		return err_set("out of memory");
	t->const_names = names;
	values = realloc(t->const_values, (t->nconst + 1) * sizeof(*values));
	if (!values)
		return err_set("out of memory");
	t->const_values = values;
	names[t->nconst] = strdup(name);
	values[t->nconst] = strdup(value);
	t->nconst++;
	return names[t->nconst - 1] && values[t->nconst - 1] ? 0 : err_set("out of memory");
}

static void table_sink_release(struct table_sink *t)
{
	for (size_t i = 0; i < t->ncolumns; i++)
		free(t->columns[i]);
	for (size_t i = 0; i < t->nrows; i++) {
		for (size_t j = 0; j < t->rows[i].n; j++)
			free(t->rows[i].values[j]);
		free(t->rows[i].values);
		free(t->rows[i].cols);
	}
	for (size_t i = 0; i < t->nconst; i++) {
		free(t->const_names[i]);
		free(t->const_values[i]);
	}
	free(t->const_names);
	free(t->const_values);
	free(t->columns);
	free(t->slots);
	free(t->rows);
	memset(t, 0, sizeof(*t));
}

/* Pointers then the strings, in one block, as table.c packs a record. */
static char **pack(const char *const *values, size_t n)
{
	size_t bytes = n * sizeof(char *);
	char **out, *text;
	for (size_t i = 0; i < n; i++)
		bytes += strlen(values[i] ? values[i] : "") + 1;
	if (!(out = malloc(bytes ? bytes : 1)))
		return NULL;
	text = (char *)(out + n);
	for (size_t i = 0; i < n; i++) {
		const char *v = values[i] ? values[i] : "";
		size_t len = strlen(v) + 1;
		memcpy(text, v, len);
		out[i] = text;
		text += len;
	}
	return out;
}

static int table_sink_finish(struct table_sink *t, struct table *out)
{
	const char **row = NULL;
	uint32_t *const_cols = NULL;
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < t->nconst; i++) {
		uint32_t col;
		if (column_of(t, t->const_names[i], &col))
			return -1;
	}
	const_cols = calloc(t->nconst + 1, sizeof(*const_cols));
	row = calloc(t->ncolumns + 1, sizeof(*row));
	out->delimiter = '\t';
	out->display_path = strdup(t->display);
	out->header = pack((const char *const *)t->columns, t->ncolumns);
	out->cells = calloc(t->nrows + 1, sizeof(*out->cells));
	out->lines = calloc(t->nrows + 1, sizeof(*out->lines));
	if (!const_cols || !row || !out->display_path || !out->header || !out->cells || !out->lines)
		goto oom;
	for (size_t i = 0; i < t->nconst; i++)
		column_of(t, t->const_names[i], &const_cols[i]);
	out->ncols = t->ncolumns;
	for (size_t i = 0; i < t->nrows; i++) {
		memset(row, 0, (t->ncolumns + 1) * sizeof(*row));
		for (size_t j = 0; j < t->rows[i].n; j++)
			row[t->rows[i].cols[j]] = t->rows[i].values[j];
		for (size_t c = 0; c < t->nconst; c++)
			row[const_cols[c]] = t->const_values[c];
		if (!(out->cells[i] = pack(row, t->ncolumns)))
			goto oom;
		out->lines[i] = t->rows[i].line;
		out->nrows++;
	}
	free(row);
	free(const_cols);
	return 0;
oom:
	free(row);
	free(const_cols);
	table_release(out);
	return err_set("out of memory");
}

int tool_convert_table(const struct tool_format *fmt, const char *bytes, size_t n,
		       const char *display, const char *base_name, struct table *out)
{
	struct table_sink t = {.display = display};
	const struct tool_sink sink = {table_sink_row, table_sink_constant, &t};
	struct tool_emit e;
	struct tool_src src;
	int rc;
	memset(out, 0, sizeof(*out));
	tool_src_mem(&src, bytes, n, display);
	tool_emit_init(&e, &sink, display, base_name);
	rc = fmt->convert(&src, &e);
	if (rc == 0)
		rc = table_sink_finish(&t, out);
	tool_emit_release(&e);
	tool_src_close(&src);
	table_sink_release(&t);
	return rc;
}
