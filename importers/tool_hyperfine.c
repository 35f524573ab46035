/*
 * tool_hyperfine: hyperfine --export-json into runs (tool_json.h), read in
 * one pass: each result's scalars and arrays are kept (the timings as
 * doubles, 8 bytes each), and its runs are written when the result's
 * object closes (its parameters may follow its times).
 */
#include "tool_json.h"

#include "../common/err.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* The columns this converter writes: a parameter may not take one of these names. */
static const char *const own_cols[] = {
	"tag",      "id",     "command",     "run",           "exit_code",
	"valid",    "time_s", "user_mean_s", "system_mean_s", "user_s",
	"system_s", "file",   NULL};

struct numbers {
	double *v;
	int64_t *i; /* exit codes */
	size_t n, cap;
};

struct param {
	char *name, *value;
};

struct result {
	size_t index; /* 0-based */
	char *command;
	bool has_times, has_codes;
	struct numbers times, codes, user_runs, system_runs;
	bool user_mean, system_mean; /* a number, not an array */
	double user, system;
	bool user_array, system_array;
	struct param *params;
	size_t nparams;
};

struct hf {
	struct tj j;
	struct tool_emit *out;
	size_t nresults;
	char *template; /* the parameter scan's command template, while every result agrees */
	bool templates_agree;
	bool any_params;
};

static int oom(struct hf *h)
{
	return err_set("out of memory reading '%s'", h->j.display);
}

static int push_number(struct hf *h, struct numbers *a, double v, int64_t i)
{
	if (a->n == a->cap) {
		size_t cap = a->cap ? 2 * a->cap : 64;
		double *v2 = realloc(a->v, cap * sizeof(*v2));
		int64_t *i2;
		if (!v2)
			return oom(h);
		a->v = v2;
		if (!(i2 = realloc(a->i, cap * sizeof(*i2))))
			return oom(h);
		a->i = i2;
		a->cap = cap;
	}
	a->v[a->n] = v;
	a->i[a->n] = i;
	a->n++;
	return 0;
}

static void result_release(struct result *r)
{
	struct numbers *arrays[] = {&r->times, &r->codes, &r->user_runs, &r->system_runs};
	free(r->command);
	for (size_t k = 0; k < 4; k++) {
		free(arrays[k]->v);
		free(arrays[k]->i);
	}
	for (size_t p = 0; p < r->nparams; p++) {
		free(r->params[p].name);
		free(r->params[p].value);
	}
	free(r->params);
	memset(r, 0, sizeof(*r));
}

/* A time in seconds: a finite number, not negative. */
static int seconds(struct hf *h, enum tj_type t)
{
	if (t != TJ_NUMBER)
		return tj_error(&h->j, "%s, expected a time in seconds", tj_type_name(t));
	if (h->j.num < 0)
		return tj_error(&h->j, "%s is negative: not a time", h->j.text);
	return 0;
}

/* times, user or system as an array of seconds; exit_codes as integers. */
static int number_array(struct hf *h, struct numbers *a, bool codes)
{
	enum tj_type t;
	int more;
	while ((more = tj_more(&h->j)) == 1) {
		if (tj_value(&h->j, &t))
			return -1;
		if (codes && (t != TJ_NUMBER || !h->j.is_int))
			return tj_error(&h->j, "%s, expected an integer exit code",
					t == TJ_NUMBER ? h->j.text : tj_type_name(t));
		if (!codes && seconds(h, t))
			return -1;
		if (push_number(h, a, h->j.num, codes ? h->j.i : 0))
			return -1;
	}
	return more;
}

static int parameters(struct hf *h, struct result *r)
{
	const char *key;
	enum tj_type t;
	int more;
	while ((more = tj_key(&h->j, &key)) == 1) {
		struct param *grown;
		if (!key[0])
			return tj_error(&h->j, "a parameter with an empty name");
		for (size_t o = 0; own_cols[o]; o++)
			if (!strcasecmp(key, own_cols[o]))
				return tj_error(&h->j, "the name of a column the import writes");
		if (tj_value(&h->j, &t))
			return -1;
		if (t != TJ_STRING && t != TJ_NUMBER)
			return tj_error(&h->j, "%s, expected a string or number", tj_type_name(t));
		if (!(grown = realloc(r->params, (r->nparams + 1) * sizeof(*grown))))
			return oom(h);
		r->params = grown;
		grown[r->nparams].name = strdup(key);
		grown[r->nparams].value = strdup(h->j.text);
		r->nparams++;
		if (!grown[r->nparams - 1].name || !grown[r->nparams - 1].value)
			return oom(h);
	}
	return more;
}

/* user / system: one mean, or one entry per run. */
static int cpu_time(struct hf *h, enum tj_type t, bool *mean, double *value, bool *array,
		    struct numbers *runs)
{
	if (t == TJ_NULL)
		return 0;
	if (t == TJ_ARRAY) {
		*array = true;
		return number_array(h, runs, false) < 0 ? -1 : 0;
	}
	if (seconds(h, t))
		return -1;
	*mean = true;
	*value = h->j.num;
	return 0;
}

static int read_result(struct hf *h, struct result *r)
{
	const char *key;
	enum tj_type t;
	int more;
	while ((more = tj_key(&h->j, &key)) == 1) {
		if (tj_value(&h->j, &t))
			return -1;
		if (!strcmp(key, "command")) {
			if (t != TJ_STRING)
				return tj_error(&h->j, "%s, expected a string", tj_type_name(t));
			if (!(r->command = strdup(h->j.text)))
				return oom(h);
		} else if (!strcmp(key, "times")) {
			if (t != TJ_ARRAY)
				return tj_error(&h->j, "%s, expected an array", tj_type_name(t));
			r->has_times = true;
			if (number_array(h, &r->times, false) < 0)
				return -1;
		} else if (!strcmp(key, "exit_codes")) {
			if (t == TJ_NULL)
				continue;
			if (t != TJ_ARRAY)
				return tj_error(&h->j, "%s, expected an array", tj_type_name(t));
			r->has_codes = true;
			if (number_array(h, &r->codes, true) < 0)
				return -1;
		} else if (!strcmp(key, "parameters")) {
			if (t == TJ_NULL)
				continue;
			if (t != TJ_OBJECT)
				return tj_error(&h->j, "%s, expected an object", tj_type_name(t));
			if (parameters(h, r) < 0)
				return -1;
		} else if (!strcmp(key, "user")) {
			if (cpu_time(h, t, &r->user_mean, &r->user, &r->user_array, &r->user_runs))
				return -1;
		} else if (!strcmp(key, "system")) {
			if (cpu_time(h, t, &r->system_mean, &r->system, &r->system_array,
				     &r->system_runs))
				return -1;
		} else if (tj_skip(&h->j, t)) {
			return -1;
		}
	}
	return more;
}

/* `text` with every occurrence of `from` replaced by `to` (malloc'd), or NULL. */
static char *replace_all(const char *text, const char *from, const char *to)
{
	size_t nf = strlen(from), nt = strlen(to), n = 0;
	char *out, *w;
	for (const char *p = text; (p = strstr(p, from)) != NULL; p += nf)
		n++;
	if (!(out = malloc(strlen(text) + n * nt + 1)))
		return NULL;
	w = out;
	for (const char *p = text;;) {
		const char *q = strstr(p, from);
		if (!q) {
			strcpy(w, p);
			break;
		}
		memcpy(w, p, (size_t)(q - p));
		w += q - p;
		memcpy(w, to, nt);
		w += nt;
		p = q + nf;
	}
	return out;
}

/*
 * A parameter scan substitutes the parameter into the command, so the
 * commands differ with the level: the command with its parameters' values
 * put back as {NAME} is the scan's template. When every result gives the
 * same one, it is every run's command (the end of hyperfine_convert).
 */
static int agree_template(struct hf *h, const struct result *r)
{
	char *t = strdup(r->command);
	for (size_t p = 0; t && p < r->nparams; p++) {
		char name[300], *next;
		if (!r->params[p].value[0])
			continue;
		snprintf(name, sizeof(name), "{%.290s}", r->params[p].name);
		next = replace_all(t, r->params[p].value, name);
		free(t);
		t = next;
	}
	if (!t)
		return oom(h);
	if (r->nparams)
		h->any_params = true;
	if (!h->template) {
		h->template = t;
		return 0;
	}
	if (strcmp(h->template, t))
		h->templates_agree = false;
	free(t);
	return 0;
}

static int counts_match(struct hf *h, const struct result *r, const char *key, size_t n)
{
	if (n == r->times.n)
		return 0;
	return err_at(h->j.display, 0, 0, "$.results[%zu].%s: %zu entries for %zu times", r->index,
		      key, n, r->times.n);
}

static int emit_result(struct hf *h, const struct result *r)
{
	struct tool_emit *o = h->out;
	char buf[64], tag[64], code[32];
	if (!r->command)
		return err_at(h->j.display, 0, 0, "$.results[%zu].command: missing", r->index);
	if (!r->has_times)
		return err_at(h->j.display, 0, 0, "$.results[%zu].times: missing", r->index);
	if (r->times.n == 0)
		return err_at(h->j.display, 0, 0, "$.results[%zu].times: empty: no runs", r->index);
	if ((r->has_codes && counts_match(h, r, "exit_codes", r->codes.n)) ||
	    (r->user_array && counts_match(h, r, "user", r->user_runs.n)) ||
	    (r->system_array && counts_match(h, r, "system", r->system_runs.n)))
		return -1;
	if (agree_template(h, r))
		return -1;
	for (size_t i = 0; i < r->times.n; i++) {
		int rc = tool_emit_row(o, 0);
		snprintf(tag, sizeof(tag), "c%zu-r%zu", r->index + 1, i + 1);
		snprintf(buf, sizeof(buf), "%zu", i + 1);
		if (rc == 0)
			rc = tool_emit_set(o, "id", tag, 0);
		if (rc == 0)
			rc = tool_emit_shared(o, "command", r->command, 0, 0);
		for (size_t p = 0; rc == 0 && p < r->nparams; p++)
			if ((rc = tool_emit_shared(o, r->params[p].name, r->params[p].value, 0,
						   0)) > 0)
				rc = err_at(h->j.display, 0, 0,
					    "$.results[%zu].parameters.%.100s: given twice",
					    r->index, r->params[p].name);
		if (rc == 0)
			rc = tool_emit_set(o, "run", buf, 0);
		if (rc == 0 && r->has_codes) {
			snprintf(code, sizeof(code), "%lld", (long long)r->codes.i[i]);
			rc = tool_emit_set(o, "exit_code", code, 0);
			if (rc == 0)
				rc = tool_emit_set(o, "valid", r->codes.i[i] ? "0" : "1", 0);
		} else if (rc == 0) {
			rc = tool_emit_set(o, "exit_code", "", 0);
			if (rc == 0)
				rc = tool_emit_set(o, "valid", "1", 0);
		}
		tj_fmt(r->times.v[i], buf, sizeof(buf));
		if (rc == 0)
			rc = tool_emit_set(o, "time_s", buf, 0);
		if (rc == 0 && r->user_mean) {
			tj_fmt(r->user, buf, sizeof(buf));
			rc = tool_emit_shared(o, "user_mean_s", buf, 0, 0);
		}
		if (rc == 0 && r->user_array) {
			tj_fmt(r->user_runs.v[i], buf, sizeof(buf));
			rc = tool_emit_set(o, "user_s", buf, 0);
		}
		if (rc == 0 && r->system_mean) {
			tj_fmt(r->system, buf, sizeof(buf));
			rc = tool_emit_shared(o, "system_mean_s", buf, 0, 0);
		}
		if (rc == 0 && r->system_array) {
			tj_fmt(r->system_runs.v[i], buf, sizeof(buf));
			rc = tool_emit_set(o, "system_s", buf, 0);
		}
		if (rc == 0)
			rc = tool_emit_done(o);
		if (rc)
			return rc < 0 ? rc : oom(h);
	}
	return 0;
}

static int results(struct hf *h)
{
	enum tj_type t;
	int more;
	while ((more = tj_more(&h->j)) == 1) {
		struct result r = {.index = h->nresults};
		int rc = tj_value(&h->j, &t);
		if (rc == 0 && t != TJ_OBJECT)
			rc = tj_error(&h->j, "%s, expected a result object", tj_type_name(t));
		if (rc == 0)
			rc = read_result(h, &r) < 0 ? -1 : 0;
		if (rc == 0)
			rc = emit_result(h, &r);
		result_release(&r);
		if (rc)
			return rc;
		h->nresults++;
	}
	return more;
}

int hyperfine_convert(struct tool_src *src, struct tool_emit *out)
{
	struct hf h = {.out = out, .templates_agree = true};
	bool seen = false;
	const char *key;
	enum tj_type t;
	int rc = tj_open(&h.j, src), more = 0;
	if (rc == 0)
		rc = tj_value(&h.j, &t);
	if (rc == 0 && t != TJ_OBJECT)
		rc = tj_error(&h.j, "%s, expected a JSON object (hyperfine --export-json)",
			      tj_type_name(t));
	while (rc == 0 && (more = tj_key(&h.j, &key)) == 1) {
		rc = tj_value(&h.j, &t);
		if (rc == 0 && !strcmp(key, "results")) {
			seen = true;
			if (t != TJ_ARRAY)
				rc = tj_error(&h.j, "%s, expected an array of results",
					      tj_type_name(t));
			else
				rc = results(&h) < 0 ? -1 : 0;
		} else if (rc == 0) {
			rc = tj_skip(&h.j, t);
		}
	}
	if (rc == 0 && more < 0)
		rc = -1;
	if (rc == 0)
		rc = tj_finish(&h.j);
	if (rc == 0 && !seen)
		rc = err_at(src->display, 0, 0,
			    "$.results: missing (not a hyperfine --export-json file)");
	if (rc == 0 && h.nresults == 0)
		rc = err_at(src->display, 0, 0, "$.results: empty: no commands were timed");
	if (rc == 0 && h.any_params && h.templates_agree)
		rc = tool_emit_constant(out, "command", h.template);
	free(h.template);
	tj_close(&h.j);
	return rc;
}
