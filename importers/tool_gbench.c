/*
 * tool_gbench: Google Benchmark --benchmark_format=json into runs
 * (tool_json.h), read in one pass: each row of `benchmarks` is collected
 * (its keys and scalar values: a row is small) and written as a run when
 * its object closes. The `context` facts and the count of aggregate rows
 * are the file's constants, written at the end (the context may come
 * before or after the rows).
 */
#include "tool_json.h"

#include "../common/err.h"
#include "../common/num.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Keys of a row that are read or deliberately left out (everything else
 * numeric is a counter), in byte order: looked up by bisection.
 */
static const char *const known_keys[] = {"aggregate_name",
					 "aggregate_unit",
					 "big_o",
					 "cpu_time",
					 "error_message",
					 "error_occurred",
					 "family_index",
					 "iterations",
					 "label",
					 "name",
					 "per_family_instance_index",
					 "real_time",
					 "repetition_index",
					 "repetitions",
					 "rms",
					 "run_name",
					 "run_type",
					 "threads",
					 "time_unit",
					 NULL};
#define NKNOWN 19
/* Their indexes, for the keys a row is read by (one_row: no lookup by name). */
enum known_key {
	K_CPU_TIME = 3,
	K_ERROR_MESSAGE = 4,
	K_ERROR_OCCURRED = 5,
	K_ITERATIONS = 7,
	K_LABEL = 8,
	K_NAME = 9,
	K_REAL_TIME = 11,
	K_REPETITION_INDEX = 12,
	K_RUN_TYPE = 16,
	K_THREADS = 17,
	K_TIME_UNIT = 18,
};

/* Columns the converter writes, in byte order: a counter may not take one of these names. */
static const char *const own_cols[] = {"aggregate_rows",
				       "caches",
				       "context_date",
				       "cpu_scaling_enabled",
				       "cpu_time_ns",
				       "error_message",
				       "executable",
				       "file",
				       "host_name",
				       "id",
				       "iterations",
				       "label",
				       "library_build_type",
				       "mhz_per_cpu",
				       "name",
				       "num_cpus",
				       "real_time_ns",
				       "repetition",
				       "tag",
				       "threads",
				       "time_unit",
				       "valid",
				       NULL};

static int compare_key(const void *key, const void *entry)
{
	return strcmp(key, *(const char *const *)entry);
}

/* The index of key in a sorted NULL-terminated list, or -1. */
static int index_of(const char *key, const char *const *list)
{
	size_t n = list == known_keys ? NKNOWN : 0;
	const char *const *hit;
	while (list[n])
		n++;
	hit = bsearch(key, list, n, sizeof(*list), compare_key);
	return hit ? (int)(hit - list) : -1;
}

static bool listed(const char *key, const char *const *list)
{
	return index_of(key, list) >= 0;
}

/* One key of a row: its type and, for a scalar, its text and value. */
struct field {
	const char *key;
	enum tj_type type;
	const char *text; /* NULL but for a string or number */
	double num;
	bool is_int;
	int64_t i;
	long line, col;
	size_t key_off, text_off; /* into the row's text, while it grows */
	bool known;               /* the key is one of known_keys */
};

/* A row's keys; their text in one buffer, reused from row to row. */
struct row {
	struct field *f;
	size_t n, cap;
	char *text;
	size_t len, text_cap;
	const struct field *known[NKNOWN]; /* by index in known_keys */
};

struct gb {
	struct tj j;
	struct tool_emit *out;
	size_t index;  /* of the row in $.benchmarks */
	long row_line; /* where its object opens */
	size_t runs, aggregates;
	bool seen_rows;
	/* the context's facts, as (column, text): constants at the end */
	struct fact {
		const char *col;
		char *text;
	} facts[8];
	size_t nfacts;
};

static int oom(struct gb *g)
{
	return err_set("out of memory reading '%s'", g->j.display);
}

static void row_release(struct row *r)
{
	free(r->f);
	free(r->text);
	memset(r, 0, sizeof(*r));
}

static const struct field *get(const struct row *r, const char *key)
{
	int k = index_of(key, known_keys);
	if (k >= 0)
		return r->known[k];
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->f[i].key, key))
			return &r->f[i];
	return NULL;
}

static int row_text(struct gb *g, struct row *r, const char *s, size_t *off)
{
	size_t n = strlen(s) + 1;
	if (r->len + n > r->text_cap) {
		size_t cap = r->text_cap ? r->text_cap : 1024;
		char *grown;
		while (cap < r->len + n)
			cap *= 2;
		if (!(grown = realloc(r->text, cap)))
			return oom(g);
		r->text = grown;
		r->text_cap = cap;
	}
	memcpy(r->text + r->len, s, n);
	*off = r->len;
	r->len += n;
	return 0;
}

/* Read an object's keys into r (emptied first); its structures are passed over. */
static int collect(struct gb *g, struct row *r)
{
	const char *key;
	enum tj_type t;
	int more;
	r->n = 0;
	r->len = 0;
	memset(r->known, 0, sizeof(r->known));
	while ((more = tj_key(&g->j, &key)) == 1) {
		struct field *f;
		if (r->n == r->cap) {
			size_t cap = r->cap ? 2 * r->cap : 16;
			struct field *grown = realloc(r->f, cap * sizeof(*grown));
			if (!grown)
				return oom(g);
			r->f = grown;
			r->cap = cap;
		}
		f = &r->f[r->n];
		memset(f, 0, sizeof(*f));
		if (row_text(g, r, key, &f->key_off))
			return -1;
		r->n++;
		if (tj_value(&g->j, &t))
			return -1;
		f->type = t;
		f->line = g->j.tok_line;
		f->col = g->j.tok_col;
		f->text_off = SIZE_MAX;
		if (t == TJ_OBJECT || t == TJ_ARRAY) {
			if (tj_skip(&g->j, t))
				return -1;
			continue;
		}
		f->num = g->j.num;
		f->is_int = g->j.is_int;
		f->i = g->j.i;
		if ((t == TJ_STRING || t == TJ_NUMBER) && row_text(g, r, g->j.text, &f->text_off))
			return -1;
	}
	if (more < 0)
		return -1;
	for (size_t i = 0; i < r->n; i++) {
		struct field *f = &r->f[i];
		int k;
		f->key = r->text + f->key_off;
		f->text = f->text_off == SIZE_MAX ? NULL : r->text + f->text_off;
		if ((k = index_of(f->key, known_keys)) >= 0 && !r->known[k])
			r->known[k] = f;
		f->known = k >= 0;
	}
	return 0;
}

/* A message at a field of the row: its line and column, and its path. */
static int at(struct gb *g, const struct field *f, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int at(struct gb *g, const struct field *f, const char *key, const char *fmt, ...)
{
	char what[300];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return err_at(g->j.display, f ? f->line : 0, f ? f->col : 0, "$.benchmarks[%zu].%.100s: %s",
		      g->index, key, what);
}

/* The number at known key k: an integer when asked, `min` or more; missing only when allowed. */
static int number(struct gb *g, const struct row *r, enum known_key k, bool need, double min,
		  bool integer, const struct field **out)
{
	const char *key = known_keys[k];
	const struct field *f = r->known[k];
	*out = f;
	if (!f)
		return need ? at(g, NULL, key, "%s", "missing") : 0;
	if (f->type != TJ_NUMBER)
		return at(g, f, key, "%s, expected a number", tj_type_name(f->type));
	if (integer && !f->is_int)
		return at(g, f, key, "%s is not a 64-bit integer", f->text);
	if (f->num < min)
		return at(g, f, key, "%s is below %g%s", f->text, min,
			  min == 0 ? ": a time or count cannot be negative" : "");
	return 0;
}

static int unit_scale(const char *unit, double *ns)
{
	static const struct {
		const char *unit;
		double ns;
	} units[] = {{"ns", 1}, {"us", 1e3}, {"ms", 1e6}, {"s", 1e9}};
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (!strcmp(unit, units[i].unit))
			return *ns = units[i].ns, 0;
	return -1;
}

/* Append at most n bytes of text to out (used of size, kept NUL-terminated). */
static void put(char *out, size_t size, size_t *used, const char *text, size_t n)
{
	if (n > size - 1 - *used)
		n = size - 1 - *used;
	memcpy(out + *used, text, n);
	*used += n;
	out[*used] = '\0';
}

/* "BM_x/8/threads:2/real_time" without its "/threads:N" part (no printf: once a row). */
static void strip_threads(const char *name, char *out, size_t size)
{
	const char *p = strstr(name, "/threads:");
	size_t used = 0;
	out[0] = '\0';
	if (!p) {
		put(out, size, &used, name, strlen(name));
		return;
	}
	put(out, size, &used, name, (size_t)(p - name));
	p += strlen("/threads:");
	while (*p >= '0' && *p <= '9')
		p++;
	put(out, size, &used, p, strlen(p));
}

static int set(struct gb *g, const char *name, const char *value, bool shared)
{
	int rc = shared ? tool_emit_shared(g->out, name, value, 0, 0)
			: tool_emit_set(g->out, name, value, 0);
	return rc > 0 ? at(g, NULL, name, "%s", "given twice") : rc;
}

static int counters(struct gb *g, const struct row *r)
{
	for (size_t i = 0; i < r->n; i++) {
		const struct field *f = &r->f[i];
		int rc;
		if (f->known || f->type != TJ_NUMBER)
			continue; /* a string or structure the tool may add: not a metric */
		if (!f->key[0] || listed(f->key, own_cols))
			return at(g, f, f->key, "%s",
				  "a counter named like a column the import writes");
		if ((rc = tool_emit_set_num(g->out, f->key, strlen(f->key), f->text,
					    strlen(f->text), f->num, 0)) != 0)
			return rc > 0 ? at(g, f, f->key, "%s", "given twice") : rc;
	}
	return 0;
}

static int one_row(struct gb *g, const struct row *r)
{
	const struct field *name = r->known[K_NAME], *rtype = r->known[K_RUN_TYPE];
	const struct field *err = r->known[K_ERROR_OCCURRED], *msg = r->known[K_ERROR_MESSAGE];
	const struct field *label = r->known[K_LABEL], *unit = r->known[K_TIME_UNIT];
	const struct field *threads, *rep, *iters, *real, *cpu;
	char buf[64], base[512], tag[600];
	double scale = 1;
	bool failed;
	int rc;
	if (!name || name->type != TJ_STRING || !name->text[0])
		return at(g, name, "name", "%s",
			  !name                     ? "missing"
			  : name->type != TJ_STRING ? "not a string"
						    : "empty");
	if (rtype && rtype->type != TJ_STRING)
		return at(g, rtype, "run_type", "%s", "not a string");
	if (rtype && !strcmp(rtype->text, "aggregate")) {
		g->aggregates++; /* mean/median/stddev/cv of the repetitions: not a run */
		return 0;
	}
	if (rtype && strcmp(rtype->text, "iteration"))
		return at(g, rtype, "run_type", "'%.100s', expected iteration or aggregate",
			  rtype->text);
	if (err && err->type != TJ_TRUE && err->type != TJ_FALSE)
		return at(g, err, "error_occurred", "%s", "not true or false");
	failed = err && err->type == TJ_TRUE;
	if ((rc = number(g, r, K_THREADS, false, 1, true, &threads)) ||
	    (rc = number(g, r, K_REPETITION_INDEX, false, 0, true, &rep)) ||
	    (rc = number(g, r, K_ITERATIONS, !failed, 0, true, &iters)) ||
	    (rc = number(g, r, K_REAL_TIME, !failed, 0, false, &real)) ||
	    (rc = number(g, r, K_CPU_TIME, !failed, 0, false, &cpu)))
		return rc;
	if (unit && (unit->type != TJ_STRING || unit_scale(unit->text, &scale)))
		return at(g, unit, "time_unit", "'%.40s', expected ns, us, ms or s",
			  unit->text ? unit->text : tj_type_name(unit->type));
	if ((rc = tool_emit_row(g->out, g->row_line)))
		return rc;
	strip_threads(name->text, base, sizeof(base));
	if (rep) { /* "%.500s/rep:%lld" */
		size_t used = 0, n = strlen(name->text);
		tag[0] = '\0';
		put(tag, sizeof(tag), &used, name->text, n < 500 ? n : 500);
		put(tag, sizeof(tag), &used, "/rep:", 5);
		put(tag, sizeof(tag), &used, buf, num_format_int(rep->i, buf));
	} else {
		snprintf(tag, sizeof(tag), "%.500s/row:%zu", name->text, g->index);
	}
	num_format_int(threads ? threads->i : 1, buf);
	if ((rc = set(g, "id", tag, false)) || (rc = set(g, "name", base, true)) ||
	    (rc = set(g, "threads", buf, true)))
		return rc;
	num_format_int(rep ? rep->i : 0, buf);
	if (rep && (rc = set(g, "repetition", buf, false)))
		return rc;
	/* repetitions run the same iteration count: shared, as valid (stored once per set) */
	if (iters && (rc = set(g, "iterations", iters->text, true)))
		return rc;
	for (int w = 0; w < 2; w++) {
		const struct field *v = w ? cpu : real;
		double ns;
		if (!v || failed)
			continue;
		ns = v->num * scale;
		if (!isfinite(ns))
			return at(g, v, w ? "cpu_time" : "real_time",
				  "%s: in ns it is beyond a double's range", v->text);
		if (scale != 1) /* converted: the shortest text of the product */
			tj_fmt(ns, buf, sizeof(buf));
		{
			const char *col = w ? "cpu_time_ns" : "real_time_ns";
			const char *text = scale != 1 ? buf : v->text;
			rc = tool_emit_set_num(g->out, col, strlen(col), text, strlen(text), ns, 0);
			if (rc)
				return rc > 0 ? at(g, v, col, "%s", "given twice") : rc;
		}
	}
	if ((rc = set(g, "valid", failed ? "0" : "1", true)))
		return rc;
	if (msg && msg->type == TJ_STRING && (rc = set(g, "error_message", msg->text, false)))
		return rc;
	/* the unit the file wrote its times in: compare.py prints them in it */
	if ((rc = set(g, "time_unit", unit ? unit->text : "ns", true)))
		return rc;
	if (label && label->type == TJ_STRING && (rc = set(g, "label", label->text, true)))
		return rc;
	if ((rc = counters(g, r)))
		return rc;
	g->runs++;
	return tool_emit_done(g->out);
}

static int rows(struct gb *g)
{
	enum tj_type t;
	int more;
	struct row r = {0};
	g->seen_rows = true;
	while ((more = tj_more(&g->j)) == 1) {
		int rc = tj_value(&g->j, &t);
		g->row_line = g->j.tok_line;
		if (rc == 0 && t != TJ_OBJECT)
			rc = tj_error(&g->j, "%s, expected a benchmark object", tj_type_name(t));
		if (rc == 0)
			rc = collect(g, &r);
		if (rc == 0)
			rc = one_row(g, &r);
		if (rc) {
			row_release(&r);
			return rc;
		}
		g->index++;
	}
	row_release(&r);
	return more;
}

/* ---- the context ---- */

static int fact(struct gb *g, const char *col, const char *text)
{
	if (g->nfacts == sizeof(g->facts) / sizeof(g->facts[0]))
		return 0;
	g->facts[g->nfacts].col = col;
	if (!(g->facts[g->nfacts].text = strdup(text)))
		return oom(g);
	g->nfacts++;
	return 0;
}

/* "L1 Data 48 KiB (x1), L1 Instruction 32 KiB (x1), ...". */
static int caches(struct gb *g)
{
	struct strbuf_lite {
		char *s;
		size_t n;
	} sum = {0};
	enum tj_type t;
	int more, rc = 0;
	while (rc == 0 && (more = tj_more(&g->j)) == 1) {
		struct row r = {0};
		const struct field *ty, *lv, *sz, *sh;
		char item[160];
		rc = tj_value(&g->j, &t);
		if (rc == 0 && t != TJ_OBJECT)
			rc = tj_error(&g->j, "%s, expected a cache object", tj_type_name(t));
		if (rc == 0)
			rc = collect(g, &r);
		ty = get(&r, "type"), lv = get(&r, "level"), sz = get(&r, "size"),
		sh = get(&r, "num_sharing");
		if (rc == 0 && (!ty || ty->type != TJ_STRING || !lv || lv->type != TJ_NUMBER ||
				!sz || sz->type != TJ_NUMBER))
			rc = tj_error(&g->j, "expected type, level and size");
		if (rc == 0) {
			char *grown;
			int k = snprintf(item, sizeof(item), "%sL%.0f %.40s %.0f KiB (x%.0f)",
					 sum.n ? ", " : "", lv->num, ty->text, sz->num / 1024,
					 sh && sh->type == TJ_NUMBER ? sh->num : 1);
			if (k < 0 || !(grown = realloc(sum.s, sum.n + (size_t)k + 1)))
				rc = oom(g);
			else {
				memcpy(grown + sum.n, item, (size_t)k + 1);
				sum.s = grown;
				sum.n += (size_t)k;
			}
		}
		row_release(&r);
	}
	if (rc == 0 && more < 0)
		rc = -1;
	if (rc == 0 && sum.s)
		rc = fact(g, "caches", sum.s);
	free(sum.s);
	return rc;
}

static int context(struct gb *g)
{
	static const struct {
		const char *key, *col;
		bool number;
	} keys[] = {{"num_cpus", "num_cpus", true},
		    {"mhz_per_cpu", "mhz_per_cpu", true},
		    {"cpu_scaling_enabled", "cpu_scaling_enabled", false},
		    {"host_name", "host_name", false},
		    {"executable", "executable", false},
		    {"library_build_type", "library_build_type", false},
		    {"date", "context_date", false}};
	const char *key;
	enum tj_type t;
	int more;
	while ((more = tj_key(&g->j, &key)) == 1) {
		size_t k = 0;
		int rc = tj_value(&g->j, &t);
		if (rc)
			return rc;
		if (!strcmp(key, "caches") && t == TJ_ARRAY) {
			if (caches(g))
				return -1;
			continue;
		}
		while (k < sizeof(keys) / sizeof(keys[0]) && strcmp(keys[k].key, key))
			k++;
		if (k == sizeof(keys) / sizeof(keys[0]) || t == TJ_NULL) {
			if (tj_skip(&g->j, t))
				return -1;
			continue;
		}
		if (keys[k].number && t != TJ_NUMBER)
			return tj_error(&g->j, "%s, expected a number", tj_type_name(t));
		if (!keys[k].number && t != TJ_STRING && t != TJ_TRUE && t != TJ_FALSE)
			return tj_error(&g->j, "%s, expected a string", tj_type_name(t));
		if (fact(g, keys[k].col, t == TJ_TRUE ? "1" : t == TJ_FALSE ? "0" : g->j.text))
			return -1;
	}
	return more;
}

int gbench_convert(struct tool_src *src, struct tool_emit *out)
{
	struct gb g = {.out = out};
	const char *key;
	enum tj_type t;
	char buf[32];
	int rc = tj_open(&g.j, src), more = 0;
	if (rc == 0)
		rc = tj_value(&g.j, &t);
	if (rc == 0 && t != TJ_OBJECT)
		rc = tj_error(&g.j, "%s, expected a JSON object (Google Benchmark JSON)",
			      tj_type_name(t));
	while (rc == 0 && (more = tj_key(&g.j, &key)) == 1) {
		rc = tj_value(&g.j, &t);
		if (rc)
			break;
		if (!strcmp(key, "benchmarks")) {
			if (t != TJ_ARRAY)
				rc = tj_error(&g.j, "%s, expected an array of benchmark rows",
					      tj_type_name(t));
			else
				rc = rows(&g) < 0 ? -1 : 0;
		} else if (!strcmp(key, "context") && t == TJ_OBJECT) {
			rc = context(&g) < 0 ? -1 : 0;
		} else if (!strcmp(key, "context") && t != TJ_NULL) {
			rc = tj_error(&g.j, "%s, expected an object", tj_type_name(t));
		} else {
			rc = tj_skip(&g.j, t);
		}
	}
	if (rc == 0 && more < 0)
		rc = -1;
	if (rc == 0)
		rc = tj_finish(&g.j);
	if (rc == 0 && !g.seen_rows)
		rc = err_at(src->display, 0, 0,
			    "$.benchmarks: missing (not a Google Benchmark --benchmark_format=json"
			    " file)");
	if (rc == 0 && g.runs == 0)
		rc = err_at(src->display, 0, 0, "$.benchmarks: %s",
			    g.aggregates ? "only aggregate rows (mean, median, stddev): run"
					   " without --benchmark_report_aggregates_only"
					 : "empty: no benchmark ran");
	for (size_t f = 0; rc == 0 && f < g.nfacts; f++)
		rc = tool_emit_constant(out, g.facts[f].col, g.facts[f].text);
	snprintf(buf, sizeof(buf), "%zu", g.aggregates);
	if (rc == 0)
		rc = tool_emit_constant(out, "aggregate_rows", buf);
	for (size_t f = 0; f < g.nfacts; f++)
		free(g.facts[f].text);
	tj_close(&g.j);
	return rc;
}
