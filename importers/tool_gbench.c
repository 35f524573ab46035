/* tool_gbench: Google Benchmark --benchmark_format=json into runs (tool_json.h). */
#include "tool_json.h"

#include "table.h"
#include "tools.h"

#include "../common/err.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool gbench_detect(const char *bytes, size_t n)
{
	return tj_looks_like(bytes, n, "\"benchmarks\"") && tj_looks_like(bytes, n, "\"context\"");
}

static int oom(const struct tj *j)
{
	return err_set("out of memory reading '%s'", j->display);
}

/* Keys of a row that are read or deliberately left out (everything else numeric is a counter). */
static const char *const known_keys[] = {"name",
					 "family_index",
					 "per_family_instance_index",
					 "run_name",
					 "run_type",
					 "repetitions",
					 "repetition_index",
					 "threads",
					 "iterations",
					 "real_time",
					 "cpu_time",
					 "time_unit",
					 "aggregate_name",
					 "aggregate_unit",
					 "error_occurred",
					 "error_message",
					 "label",
					 "big_o",
					 "rms",
					 NULL};

/* Columns the converter writes: a counter may not take one of these names. */
static const char *const own_cols[] = {"tag",
				       "id",
				       "name",
				       "threads",
				       "repetition",
				       "iterations",
				       "real_time_ns",
				       "cpu_time_ns",
				       "valid",
				       "error_message",
				       "label",
				       "num_cpus",
				       "mhz_per_cpu",
				       "cpu_scaling_enabled",
				       "host_name",
				       "executable",
				       "library_build_type",
				       "context_date",
				       "caches",
				       "aggregate_rows",
				       "file",
				       NULL};

static bool listed(const char *key, const char *const *list)
{
	for (size_t i = 0; list[i]; i++)
		if (!strcmp(key, list[i]))
			return true;
	return false;
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

/* "BM_x/8/threads:2/real_time" without its "/threads:N" part. */
static void strip_threads(const char *name, char *out, size_t size)
{
	const char *p = strstr(name, "/threads:");
	size_t k;
	if (!p) {
		snprintf(out, size, "%s", name);
		return;
	}
	k = (size_t)(p - name);
	p += strlen("/threads:");
	while (*p >= '0' && *p <= '9')
		p++;
	snprintf(out, size, "%.*s%s", (int)k, name, p);
}

/* A number at $.benchmarks[b].KEY: finite, `min` or more. */
static int number(struct tj *j, size_t b, const char *key, const struct tj_val *v, double min,
		  bool integer)
{
	if (!tj_is_number(v))
		return err_at(j->display, 0, 0, "$.benchmarks[%zu].%.100s: %s", b, key,
			      strcmp(v->type, "integer") && strcmp(v->type, "real")
				      ? "not a number"
				      : "not a finite number");
	if (integer && (!v->is_int64 || strcmp(v->type, "integer")))
		return err_at(j->display, 0, 0,
			      "$.benchmarks[%zu].%.100s: %s is not a 64-bit integer", b, key,
			      v->text);
	if (v->num < min)
		return err_at(j->display, 0, 0, "$.benchmarks[%zu].%.100s: %s is below %g", b, key,
			      v->text, min);
	return 0;
}

static int get_num(struct tj *j, const char *row, size_t b, const char *key, bool need, double min,
		   bool integer, struct tj_val *v)
{
	char path[64];
	snprintf(path, sizeof(path), "$.%s", key);
	if (tj_get(j, row, path, v))
		return -1;
	if (!v->type[0])
		return need ? err_at(j->display, 0, 0, "$.benchmarks[%zu].%s: missing", b, key) : 0;
	return number(j, b, key, v, min, integer);
}

/* The context's facts, as (column, text) pairs added to every run. */
struct fact {
	const char *col;
	char *text;
};

static int one_row(struct tj *j, struct tool_rows *tb, size_t b, const char *row,
		   size_t *aggregates, const struct fact *facts, size_t nfacts)
{
	struct tj_val name = {0}, rtype = {0}, threads = {0}, rep = {0}, iters = {0}, real = {0},
		      cpu = {0}, unit = {0}, err = {0}, msg = {0}, label = {0};
	sqlite3_stmt *st = NULL;
	char buf[64], base[512], tag[600];
	double scale = 1;
	bool failed;
	int rc = 0, step;

	if ((rc = tj_get(j, row, "$.name", &name)) || (rc = tj_get(j, row, "$.run_type", &rtype)))
		goto done;
	if (strcmp(name.type, "text") || !name.text[0]) {
		rc = err_at(j->display, 0, 0, "$.benchmarks[%zu].name: %s", b,
			    !name.type[0]               ? "missing"
			    : strcmp(name.type, "text") ? "not a string"
							: "empty");
		goto done;
	}
	if (rtype.type[0] && strcmp(rtype.type, "text")) {
		rc = err_at(j->display, 0, 0, "$.benchmarks[%zu].run_type: not a string", b);
		goto done;
	}
	if (rtype.type[0] && !strcmp(rtype.text, "aggregate")) {
		++*aggregates; /* mean/median/stddev/cv of the repetitions: not a run */
		goto done;
	}
	if (rtype.type[0] && strcmp(rtype.text, "iteration")) {
		rc = err_at(j->display, 0, 0,
			    "$.benchmarks[%zu].run_type: '%.100s', expected iteration or aggregate",
			    b, rtype.text);
		goto done;
	}
	if ((rc = tj_get(j, row, "$.error_occurred", &err)) ||
	    (rc = tj_get(j, row, "$.error_message", &msg)) ||
	    (rc = tj_get(j, row, "$.label", &label)))
		goto done;
	if (err.type[0] && strcmp(err.type, "true") && strcmp(err.type, "false")) {
		rc = err_at(j->display, 0, 0, "$.benchmarks[%zu].error_occurred: not true or false",
			    b);
		goto done;
	}
	failed = !strcmp(err.type, "true");
	if ((rc = get_num(j, row, b, "threads", false, 1, true, &threads)) ||
	    (rc = get_num(j, row, b, "repetition_index", false, 0, true, &rep)) ||
	    (rc = get_num(j, row, b, "iterations", !failed, 0, true, &iters)) ||
	    (rc = get_num(j, row, b, "real_time", !failed, 0, false, &real)) ||
	    (rc = get_num(j, row, b, "cpu_time", !failed, 0, false, &cpu)) ||
	    (rc = tj_get(j, row, "$.time_unit", &unit)))
		goto done;
	if (unit.type[0] && (strcmp(unit.type, "text") || unit_scale(unit.text, &scale))) {
		rc = err_at(j->display, 0, 0,
			    "$.benchmarks[%zu].time_unit: '%.40s', expected ns, us, ms or s", b,
			    unit.text ? unit.text : unit.type);
		goto done;
	}
	if (tool_rows_new(tb, 0)) {
		rc = oom(j);
		goto done;
	}
	strip_threads(name.text, base, sizeof(base));
	if (rep.type[0])
		snprintf(tag, sizeof(tag), "%.500s/rep:%lld", name.text, (long long)rep.i);
	else
		snprintf(tag, sizeof(tag), "%.500s/row:%zu", name.text, b);
	snprintf(buf, sizeof(buf), "%lld", threads.type[0] ? (long long)threads.i : 1LL);
	if (tool_rows_set(tb, "id", tag) || tool_rows_set(tb, "name", base) ||
	    tool_rows_set(tb, "threads", buf)) {
		rc = oom(j);
		goto done;
	}
	snprintf(buf, sizeof(buf), "%lld", (long long)rep.i);
	if (rep.type[0] && tool_rows_set(tb, "repetition", buf))
		rc = oom(j);
	if (rc == 0 && iters.type[0] && tool_rows_set(tb, "iterations", iters.text))
		rc = oom(j);
	for (int w = 0; rc == 0 && w < 2; w++) {
		const struct tj_val *v = w ? &cpu : &real;
		if (!v->type[0] || failed)
			continue;
		tj_fmt(v->num * scale, buf, sizeof(buf));
		if (tool_rows_set(tb, w ? "cpu_time_ns" : "real_time_ns", buf))
			rc = oom(j);
	}
	if (rc == 0 && tool_rows_set(tb, "valid", failed ? "0" : "1"))
		rc = oom(j);
	if (rc == 0 && !strcmp(msg.type, "text") && tool_rows_set(tb, "error_message", msg.text))
		rc = oom(j);
	if (rc == 0 && !strcmp(label.type, "text") && tool_rows_set(tb, "label", label.text))
		rc = oom(j);
	if (rc)
		goto done;
	/* items_per_second, bytes_per_second and user counters: every other numeric key */
	if ((rc = tj_each(j, row, &st)))
		goto done;
	while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *key = (const char *)sqlite3_column_text(st, 0);
		const char *type = (const char *)sqlite3_column_text(st, 1);
		double x = sqlite3_column_double(st, 2);
		if (listed(key, known_keys))
			continue;
		if (strcmp(type, "integer") && strcmp(type, "real"))
			continue; /* a string or structure the tool may add: not a metric */
		if (!key[0] || listed(key, own_cols))
			rc = err_at(j->display, 0, 0,
				    "$.benchmarks[%zu].%.100s: a counter named like a column the"
				    " import writes",
				    b, key);
		else if (!isfinite(x))
			rc = err_at(j->display, 0, 0,
				    "$.benchmarks[%zu].%.100s: not a finite number", b, key);
		else {
			tj_fmt(x, buf, sizeof(buf));
			if ((rc = tool_rows_set(tb, key, buf)) > 0)
				rc = err_at(j->display, 0, 0,
					    "$.benchmarks[%zu].%.100s: given twice", b, key);
		}
	}
	/* the corpus facts, the same on every run */
	for (size_t f = 0; rc == 0 && f < nfacts; f++)
		if (tool_rows_set(tb, facts[f].col, facts[f].text))
			rc = oom(j);
done:
	sqlite3_finalize(st);
	tj_val_release(&name);
	tj_val_release(&rtype);
	tj_val_release(&threads);
	tj_val_release(&rep);
	tj_val_release(&iters);
	tj_val_release(&real);
	tj_val_release(&cpu);
	tj_val_release(&unit);
	tj_val_release(&err);
	tj_val_release(&msg);
	tj_val_release(&label);
	return rc;
}

static int context_facts(struct tj *j, struct fact *facts, size_t *nfacts)
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
	struct tj_val ctx = {0}, caches = {0};
	sqlite3_stmt *st = NULL;
	struct strbuf_lite {
		char *s;
		size_t n;
	} sum = {0};
	int rc = 0, step;
	*nfacts = 0;
	if ((rc = tj_get(j, NULL, "$.context", &ctx)))
		return rc;
	if (!ctx.type[0])
		return 0;
	if (strcmp(ctx.type, "object")) {
		tj_val_release(&ctx);
		return err_at(j->display, 0, 0, "$.context: not an object");
	}
	for (size_t i = 0; rc == 0 && i < sizeof(keys) / sizeof(keys[0]); i++) {
		struct tj_val v;
		char path[64];
		snprintf(path, sizeof(path), "$.%s", keys[i].key);
		if ((rc = tj_get(j, ctx.text, path, &v)))
			break;
		if (!v.type[0] || !strcmp(v.type, "null")) {
			tj_val_release(&v);
			continue;
		}
		if (keys[i].number && !tj_is_number(&v))
			rc = err_at(j->display, 0, 0, "$.context.%s: not a number", keys[i].key);
		else if (!keys[i].number && !strcmp(v.type, "true"))
			facts[*nfacts].text = strdup("1");
		else if (!keys[i].number && !strcmp(v.type, "false"))
			facts[*nfacts].text = strdup("0");
		else if (!keys[i].number && strcmp(v.type, "text"))
			rc = err_at(j->display, 0, 0, "$.context.%s: not a string", keys[i].key);
		else
			facts[*nfacts].text = v.text, v.text = NULL;
		if (rc == 0 && !facts[*nfacts].text)
			rc = oom(j);
		if (rc == 0)
			facts[(*nfacts)++].col = keys[i].col;
		tj_val_release(&v);
	}
	/* caches: "L1 Data 48 KiB (x1), L1 Instruction 32 KiB (x1), ..." */
	if (rc == 0 && (rc = tj_get(j, ctx.text, "$.caches", &caches)) == 0 &&
	    !strcmp(caches.type, "array") && (rc = tj_each(j, caches.text, &st)) == 0) {
		while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
			struct tj_val ty = {0}, lv = {0}, sz = {0}, sh = {0};
			const char *c = (const char *)sqlite3_column_text(st, 3);
			char item[160];
			if (strcmp((const char *)sqlite3_column_text(st, 1), "object")) {
				rc = err_at(j->display, 0, 0, "$.context.caches[%d]: not an object",
					    sqlite3_column_int(st, 0));
				break;
			}
			if (tj_get(j, c, "$.type", &ty) || tj_get(j, c, "$.level", &lv) ||
			    tj_get(j, c, "$.size", &sz) || tj_get(j, c, "$.num_sharing", &sh))
				rc = -1;
			else if (!tj_is_number(&lv) || !tj_is_number(&sz) ||
				 strcmp(ty.type, "text"))
				rc = err_at(j->display, 0, 0,
					    "$.context.caches[%d]: expected type, level and size",
					    sqlite3_column_int(st, 0));
			else {
				char *grown;
				int k = snprintf(item, sizeof(item),
						 "%sL%.0f %.40s %.0f KiB (x%.0f)",
						 sum.n ? ", " : "", lv.num, ty.text, sz.num / 1024,
						 tj_is_number(&sh) ? sh.num : 1);
				if (k < 0 || !(grown = realloc(sum.s, sum.n + (size_t)k + 1)))
					rc = oom(j);
				else {
					memcpy(grown + sum.n, item, (size_t)k + 1);
					sum.s = grown;
					sum.n += (size_t)k;
				}
			}
			tj_val_release(&ty);
			tj_val_release(&lv);
			tj_val_release(&sz);
			tj_val_release(&sh);
		}
		if (rc == 0 && sum.s) {
			facts[*nfacts].col = "caches";
			facts[(*nfacts)++].text = sum.s;
			sum.s = NULL;
		}
	}
	sqlite3_finalize(st);
	free(sum.s);
	tj_val_release(&caches);
	tj_val_release(&ctx);
	return rc;
}

/* How many rows say run_type "aggregate": written as the fact aggregate_rows. */
static int count_aggregates(struct tj *j, const char *rows, char *buf, size_t size)
{
	sqlite3_stmt *st = NULL;
	int rc = 0;
	if (sqlite3_prepare_v2(j->db,
			       "SELECT count(*) FROM json_each(?1) WHERE type = 'object' AND"
			       " json_extract(value, '$.run_type') = 'aggregate'",
			       -1, &st, NULL) != SQLITE_OK)
		return err_set("cannot read '%s': %s", j->display, sqlite3_errmsg(j->db));
	sqlite3_bind_text(st, 1, rows, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		snprintf(buf, size, "%lld", (long long)sqlite3_column_int64(st, 0));
	else
		rc = err_set("cannot read '%s': %s", j->display, sqlite3_errmsg(j->db));
	sqlite3_finalize(st);
	return rc;
}

int gbench_convert(const char *bytes, size_t n, const char *display_path, struct table *out)
{
	struct tj j;
	struct tj_val rows = {0};
	struct tool_rows tb = {0};
	struct fact facts[9] = {{0}};
	size_t nfacts = 0, b = 0, aggregates = 0;
	sqlite3_stmt *st = NULL;
	char buf[32];
	int rc, step;

	memset(out, 0, sizeof(*out));
	if ((rc = tj_open(&j, bytes, n, display_path, "Google Benchmark")))
		return rc;
	if ((rc = tj_get(&j, NULL, "$.benchmarks", &rows)))
		goto done;
	if (strcmp(rows.type, "array")) {
		rc = err_at(
			display_path, 0, 0,
			"$.benchmarks: %s (not a Google Benchmark --benchmark_format=json file)",
			rows.type[0] ? "not an array" : "missing");
		goto done;
	}
	if ((rc = context_facts(&j, facts, &nfacts)) ||
	    (rc = count_aggregates(&j, rows.text, buf, sizeof(buf))))
		goto done;
	facts[nfacts].col = "aggregate_rows";
	if (!(facts[nfacts++].text = strdup(buf))) {
		rc = oom(&j);
		goto done;
	}
	if ((rc = tj_each(&j, rows.text, &st)))
		goto done;
	while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
		if (strcmp((const char *)sqlite3_column_text(st, 1), "object"))
			rc = err_at(display_path, 0, 0, "$.benchmarks[%zu]: not an object", b);
		else
			rc = one_row(&j, &tb, b, (const char *)sqlite3_column_text(st, 3),
				     &aggregates, facts, nfacts);
		b++;
	}
	if (rc)
		goto done;
	if (tb.nrows == 0) {
		rc = err_at(display_path, 0, 0, "$.benchmarks: %s",
			    aggregates ? "only aggregate rows (mean, median,"
					 " stddev): run without --benchmark_report_aggregates_only"
				       : "empty: no benchmark ran");
		goto done;
	}
	rc = tool_rows_finish(&tb, display_path, out);
done:
	sqlite3_finalize(st);
	for (size_t f = 0; f < nfacts; f++)
		free(facts[f].text);
	tj_val_release(&rows);
	tool_rows_release(&tb);
	tj_close(&j);
	return rc;
}
