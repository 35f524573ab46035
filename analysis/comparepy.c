/* comparepy: Google Benchmark's compare.py on compare's two arms (comparepy.h). */
#include "comparepy.h"

#include "benchstat.h"

#include "../common/err.h"
#include "../common/strbuf.h"
#include "../schema/db.h"
#include "../schema/fields.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double comparepy_change(double old_value, double new_value)
{
	if (old_value == 0 && new_value == 0)
		return 0;
	if (old_value == 0)
		return (new_value - old_value) / ((old_value + new_value) / 2);
	return (new_value - old_value) / fabs(old_value);
}

struct gb_run {
	char *name;
	char unit[8];
	double real, cpu; /* in unit */
};

struct arm {
	struct gb_run *runs;
	size_t n, cap;
};

static double unit_ns(const char *unit)
{
	return !strcmp(unit, "us") ? 1e3 : !strcmp(unit, "ms") ? 1e6 : !strcmp(unit, "s") ? 1e9 : 1;
}

/* The JSON name of a run: its id without the "/rep:N" (or "/row:N") the importer added. */
static char *json_name(const char *id)
{
	const char *cut = strrchr(id, '/');
	if (cut && (!strncmp(cut, "/rep:", 5) || !strncmp(cut, "/row:", 5)))
		return strndup(id, (size_t)(cut - id));
	return strdup(id);
}

static int add_field(struct strbuf *sql, const char *name, char ***binds, size_t *nbinds,
		     bool numeric)
{
	if (strbuf_adds(sql, ", "))
		return err_set("out of memory");
	return field_sql(name, numeric, sql, binds, nbinds);
}

static int read_arm(sqlite3 *db, const struct comparepy_request *req, int a, struct arm *arm,
		    struct comparepy_result *out)
{
	struct run_filter f;
	struct strbuf sql = STRBUF_INIT;
	char **binds = NULL;
	size_t nbinds = 0;
	sqlite3_stmt *st = NULL;
	int rc = run_filter_copy(&f, req->filter), step;
	if (rc == 0)
		rc = run_filter_add_conditions(&f, req->arm[a], a ? "--b" : "--a");
	if (rc == 0)
		rc = run_filter_check(db, &f);
	strbuf_adds(&sql, "SELECT r.tag, c.layout, c.name");
	if (rc == 0)
		rc = add_field(&sql, "id", &binds, &nbinds, false);
	if (rc == 0)
		rc = add_field(&sql, "time_unit", &binds, &nbinds, false);
	if (rc == 0)
		rc = add_field(&sql, "real_time_ns", &binds, &nbinds, true);
	if (rc == 0)
		rc = add_field(&sql, "cpu_time_ns", &binds, &nbinds, true);
	if (rc == 0 && strbuf_adds(&sql, " FROM runs r JOIN corpora c USING (corpus_id) WHERE "))
		rc = err_set("out of memory");
	if (rc == 0)
		rc = run_filter_sql(&f, &sql, &binds, &nbinds);
	if (rc == 0 && strbuf_adds(&sql, " ORDER BY r.corpus_id, r.subcorpus, r.seq"))
		rc = err_set("out of memory");
	if (rc == 0)
		rc = db_prepare(db, strbuf_str(&sql), &st);
	if (rc == 0)
		rc = field_bind_all(st, 1, binds, nbinds);
	while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *tag = (const char *)sqlite3_column_text(st, 0);
		const char *layout = (const char *)sqlite3_column_text(st, 1);
		const char *id = (const char *)sqlite3_column_text(st, 3);
		const char *unit = (const char *)sqlite3_column_text(st, 4);
		struct gb_run *r;
		if (strcmp(layout, "gbench") || !id) {
			out->not_gbench = out->runs[0] + out->runs[1] + arm->n == 0;
			rc = err_usage(
				"run '%s' (corpus '%s', layout %s) is not a Google Benchmark run "
				"(view comparepy reads --benchmark_format=json output)",
				tag, (const char *)sqlite3_column_text(st, 2), layout);
			break;
		}
		if (sqlite3_column_type(st, 5) == SQLITE_NULL ||
		    sqlite3_column_type(st, 6) == SQLITE_NULL) {
			/* a run with error_occurred has no times: compare.py cannot pair it */
			rc = sel_left_out_add(&out->left_out, &out->nleft_out, tag,
					      "no real_time or cpu_time (an error run)", false);
			if (rc)
				break;
			continue;
		}
		if (arm->n == arm->cap) {
			size_t cap = arm->cap ? 2 * arm->cap : 64;
			struct gb_run *g = realloc(arm->runs, cap * sizeof(*g));
			if (!g) {
				rc = err_set("out of memory");
				break;
			}
			arm->runs = g;
			arm->cap = cap;
		}
		r = &arm->runs[arm->n];
		snprintf(r->unit, sizeof(r->unit), "%s", unit ? unit : "ns");
		r->real = sqlite3_column_double(st, 5) / unit_ns(r->unit);
		r->cpu = sqlite3_column_double(st, 6) / unit_ns(r->unit);
		if (!(r->name = json_name(id))) {
			rc = err_set("out of memory");
			break;
		}
		arm->n++;
	}
	sqlite3_finalize(st);
	field_binds_free(binds, nbinds);
	strbuf_release(&sql);
	run_filter_release(&f);
	out->runs[a] = arm->n;
	return rc;
}

static bool seen_before(const struct arm *a, size_t i)
{
	for (size_t k = 0; k < i; k++)
		if (!strcmp(a->runs[k].name, a->runs[i].name))
			return true;
	return false;
}

static bool has_name(const struct arm *a, const char *name)
{
	for (size_t k = 0; k < a->n; k++)
		if (!strcmp(a->runs[k].name, name))
			return true;
	return false;
}

/* One benchmark: the runs of name in `unit`, paired in order; the U test. */
static int one_bench(const struct arm *arms, const char *name, const char *unit,
		     struct comparepy_bench *b)
{
	double *v[2][2] = {{NULL, NULL}, {NULL, NULL}}; /* [arm][real, cpu] */
	int rc = 0;
	memset(b, 0, sizeof(*b));
	b->name = strdup(name);
	snprintf(b->unit, sizeof(b->unit), "%s", unit);
	for (int a = 0; a < 2; a++) {
		v[a][0] = malloc((arms[a].n + 1) * sizeof(double));
		v[a][1] = malloc((arms[a].n + 1) * sizeof(double));
		if (!v[a][0] || !v[a][1])
			rc = err_set("out of memory");
		for (size_t k = 0; rc == 0 && k < arms[a].n; k++)
			if (!strcmp(arms[a].runs[k].name, name) &&
			    !strcmp(arms[a].runs[k].unit, unit)) {
				v[a][0][b->n[a]] = arms[a].runs[k].real;
				v[a][1][b->n[a]++] = arms[a].runs[k].cpu;
			}
	}
	b->nm = b->n[0] < b->n[1] ? b->n[0] : b->n[1];
	if (rc == 0 && !b->name)
		rc = err_set("out of memory");
	if (rc == 0 && !(b->m = calloc(b->nm + 1, sizeof(*b->m))))
		rc = err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < b->nm; i++) {
		struct comparepy_measure *m = &b->m[i];
		for (int a = 0; a < 2; a++) {
			m->real[a] = v[a][0][i];
			m->cpu[a] = v[a][1][i];
		}
		m->time_change = comparepy_change(m->real[0], m->real[1]);
		m->cpu_change = comparepy_change(m->cpu[0], m->cpu[1]);
	}
	if (rc == 0 && b->nm >= COMPAREPY_UTEST_MIN) {
		struct benchstat_utest t, c;
		rc = benchstat_utest_scipy(v[0][0], b->n[0], v[1][0], b->n[1], &t);
		if (rc == 0)
			rc = benchstat_utest_scipy(v[0][1], b->n[0], v[1][1], b->n[1], &c);
		/* compare.py shows the test only when both p are non-zero */
		if (rc == 0 && t.p != 0 && c.p != 0) {
			b->utest = true;
			b->optimal = b->nm >= COMPAREPY_UTEST_OPTIMAL;
			b->p_time = t.p;
			b->p_cpu = c.p;
			b->exact_time = t.exact;
			b->exact_cpu = c.exact;
		}
	}
	for (int a = 0; a < 2; a++) {
		free(v[a][0]);
		free(v[a][1]);
	}
	return rc;
}

int comparepy_run(sqlite3 *db, const struct comparepy_request *req, struct comparepy_result *out)
{
	struct arm arms[2] = {{0}};
	int rc = 0;
	memset(out, 0, sizeof(*out));
	for (int a = 0; rc == 0 && a < 2; a++) {
		const char *eq = strchr(req->arm[a], '=');
		bool single = eq && !strpbrk(req->arm[a], " \t;") && !strchr(eq + 1, ',');
		out->label[a] = strdup(single ? eq + 1 : req->arm[a]);
		rc = out->label[a] ? read_arm(db, req, a, &arms[a], out) : err_set("out of memory");
	}
	for (int a = 0; rc == 0 && a < 2; a++)
		if (arms[a].n == 0)
			rc = err_set("arm %s (%s) has no Google Benchmark run: nothing to compare",
				     a ? "b" : "a", req->arm[a]);
	if (rc == 0 && !(out->benches = calloc(arms[0].n + 1, sizeof(*out->benches))))
		rc = err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < arms[0].n; i++) {
		const struct gb_run *r = &arms[0].runs[i];
		if (seen_before(&arms[0], i) || !has_name(&arms[1], r->name))
			continue;
		rc = one_bench(arms, r->name, r->unit, &out->benches[out->nbenches]);
		out->nbenches++;
	}
	for (int a = 0; a < 2; a++) {
		for (size_t k = 0; k < arms[a].n; k++)
			free(arms[a].runs[k].name);
		free(arms[a].runs);
	}
	if (rc) {
		bool not_gbench = out->not_gbench;
		comparepy_release(out);
		out->not_gbench = not_gbench;
	}
	return rc;
}

void comparepy_release(struct comparepy_result *r)
{
	for (size_t i = 0; i < r->nbenches; i++) {
		free(r->benches[i].name);
		free(r->benches[i].m);
	}
	free(r->benches);
	sel_left_out_free(r->left_out, r->nleft_out);
	free(r->label[0]);
	free(r->label[1]);
	memset(r, 0, sizeof(*r));
}
