/* tool_hyperfine: hyperfine --export-json into runs (tool_json.h). */
#include "tool_json.h"

#include "table.h"
#include "tools.h"

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

bool hyperfine_detect(const char *bytes, size_t n)
{
	return tj_looks_like(bytes, n, "\"results\"") && tj_looks_like(bytes, n, "\"times\"") &&
	       tj_looks_like(bytes, n, "\"command\"");
}

static int oom(const struct tj *j)
{
	return err_set("out of memory reading '%s'", j->display);
}

/* A time in seconds at `path`: a finite number, not negative. */
static int seconds(struct tj *j, const struct tj_val *v, const char *path, char *buf, size_t size)
{
	if (!tj_is_number(v))
		return err_at(j->display, 0, 0, "%s: %s", path,
			      strcmp(v->type, "integer") && strcmp(v->type, "real")
				      ? "not a number"
				      : "not a finite number");
	if (v->num < 0)
		return err_at(j->display, 0, 0, "%s: %s is negative: not a time", path, v->text);
	tj_fmt(v->num, buf, size);
	return 0;
}

/* user/system of result `r`: a number (a mean: NAME_mean_s) or an array of one per run. */
static int cpu_times(struct tj *j, const char *res, size_t r, const char *key, size_t nruns,
		     struct tj_val *v)
{
	char path[64];
	snprintf(path, sizeof(path), "$.%s", key);
	if (tj_get(j, res, path, v))
		return -1;
	if (!v->type[0] || !strcmp(v->type, "null"))
		return 0;
	if (!strcmp(v->type, "array")) {
		struct tj_val n;
		snprintf(path, sizeof(path), "$.%s[%zu]", key, nruns - 1);
		if (tj_get(j, res, path, &n))
			return -1;
		snprintf(path, sizeof(path), "$.%s[%zu]", key, nruns);
		{
			struct tj_val extra;
			int bad = tj_get(j, res, path, &extra);
			if (!bad && (!n.type[0] || extra.type[0]))
				bad = err_at(j->display, 0, 0,
					     "$.results[%zu].%s: %s entries for %zu times", r, key,
					     extra.type[0] ? "more" : "fewer", nruns);
			tj_val_release(&extra);
			tj_val_release(&n);
			return bad;
		}
	}
	if (!tj_is_number(v))
		return err_at(j->display, 0, 0, "$.results[%zu].%s: not a number", r, key);
	return 0;
}

/* `text` with every occurrence of `from` replaced by `to` (malloc'd), or NULL when out of memory.
 */
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
 * commands differ with the level: each run's command with its parameters'
 * values put back as {NAME} is the scan's template. When every run gives
 * the same template, it is the command (the concrete command follows from
 * it and the parameter columns); else the commands stay as written.
 */
static int command_template(struct tool_rows *tb)
{
	long cmd = -1;
	char *tmpl = NULL;
	bool same = true;
	for (size_t c = 0; c < tb->ncolumns; c++)
		if (!strcmp(tb->columns[c], "command"))
			cmd = (long)c;
	if (cmd < 0)
		return 0;
	for (size_t r = 0; same && r < tb->nrows; r++) {
		const struct tool_row *row = &tb->rows[r];
		char *t = strdup((size_t)cmd < row->nvalues && row->values[cmd] ? row->values[cmd]
										: "");
		for (size_t c = 0; t && c < row->nvalues; c++) {
			const char *v = row->values[c];
			char name[300], *next;
			bool own = false;
			for (size_t o = 0; own_cols[o]; o++)
				own = own || !strcmp(tb->columns[c], own_cols[o]);
			if (own || !v || !v[0])
				continue;
			snprintf(name, sizeof(name), "{%.290s}", tb->columns[c]);
			next = replace_all(t, v, name);
			free(t);
			t = next;
		}
		if (!t) {
			free(tmpl);
			return -1;
		}
		if (!tmpl)
			tmpl = t;
		else {
			same = !strcmp(tmpl, t);
			free(t);
		}
	}
	for (size_t r = 0; same && tmpl && r < tb->nrows; r++) {
		char *copy = strdup(tmpl);
		if (!copy) {
			free(tmpl);
			return -1;
		}
		free(tb->rows[r].values[cmd]);
		tb->rows[r].values[cmd] = copy;
	}
	free(tmpl);
	return 0;
}

static int one_result(struct tj *j, struct tool_rows *tb, size_t r, const char *res)
{
	struct tj_val cmd = {0}, times = {0}, codes = {0}, params = {0}, user = {0}, sys = {0};
	sqlite3_stmt *st = NULL;
	char path[128], buf[64];
	size_t nruns = 0;
	int rc = 0, step;

	if (tj_get(j, res, "$.command", &cmd) || tj_get(j, res, "$.times", &times) ||
	    tj_get(j, res, "$.exit_codes", &codes) || tj_get(j, res, "$.parameters", &params)) {
		rc = -1;
		goto done;
	}
	if (strcmp(cmd.type, "text")) {
		rc = err_at(j->display, 0, 0, "$.results[%zu].command: %s", r,
			    cmd.type[0] ? "not a string" : "missing");
		goto done;
	}
	if (strcmp(times.type, "array")) {
		rc = err_at(j->display, 0, 0, "$.results[%zu].times: %s", r,
			    times.type[0] ? "not an array" : "missing");
		goto done;
	}
	if (codes.type[0] && strcmp(codes.type, "array") && strcmp(codes.type, "null")) {
		rc = err_at(j->display, 0, 0, "$.results[%zu].exit_codes: not an array", r);
		goto done;
	}
	if (params.type[0] && strcmp(params.type, "object") && strcmp(params.type, "null")) {
		rc = err_at(j->display, 0, 0, "$.results[%zu].parameters: not an object", r);
		goto done;
	}
	/* count the runs first: the cpu-time arrays and exit codes must match */
	if ((rc = tj_each(j, times.text, &st)))
		goto done;
	while ((step = sqlite3_step(st)) == SQLITE_ROW)
		nruns++;
	sqlite3_finalize(st);
	st = NULL;
	if (nruns == 0) {
		rc = err_at(j->display, 0, 0, "$.results[%zu].times: empty: no runs", r);
		goto done;
	}
	if ((rc = cpu_times(j, res, r, "user", nruns, &user)) ||
	    (rc = cpu_times(j, res, r, "system", nruns, &sys)))
		goto done;
	if (!strcmp(codes.type, "array")) {
		size_t k = 0;
		if ((rc = tj_each(j, codes.text, &st)))
			goto done;
		while ((step = sqlite3_step(st)) == SQLITE_ROW)
			k++;
		sqlite3_finalize(st);
		st = NULL;
		if (k != nruns) {
			rc = err_at(j->display, 0, 0,
				    "$.results[%zu].exit_codes: %zu entries for %zu times", r, k,
				    nruns);
			goto done;
		}
	}
	for (size_t i = 0; i < nruns; i++) {
		struct tj_val t = {0}, c = {0};
		char tag[64];
		if (tool_rows_new(tb, 0)) {
			rc = oom(j);
			break;
		}
		snprintf(tag, sizeof(tag), "c%zu-r%zu", r + 1, i + 1);
		snprintf(buf, sizeof(buf), "%zu", i + 1);
		if (tool_rows_set(tb, "id", tag) || tool_rows_set(tb, "command", cmd.text)) {
			rc = oom(j);
			break;
		}
		/* the parameters, in their order */
		if (!strcmp(params.type, "object")) {
			if ((rc = tj_each(j, params.text, &st)))
				break;
			while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
				const char *key = (const char *)sqlite3_column_text(st, 0);
				const char *type = (const char *)sqlite3_column_text(st, 1);
				const char *val = (const char *)sqlite3_column_text(st, 2);
				if (!key || !key[0])
					rc = err_at(j->display, 0, 0,
						    "$.results[%zu].parameters: an empty name", r);
				else if (strcmp(type, "text") && strcmp(type, "integer") &&
					 strcmp(type, "real"))
					rc = err_at(j->display, 0, 0,
						    "$.results[%zu].parameters.%.100s: %s, expected"
						    " a string or number",
						    r, key, type);
				else
					for (size_t o = 0; rc == 0 && own_cols[o]; o++)
						if (!strcasecmp(key, own_cols[o]))
							rc = err_at(
								j->display, 0, 0,
								"$.results[%zu].parameters.%.100s:"
								" the name of a column the import"
								" writes",
								r, key);
				if (rc == 0 && (rc = tool_rows_set(tb, key, val ? val : "")) > 0)
					rc = err_at(j->display, 0, 0,
						    "$.results[%zu].parameters.%.100s: given twice",
						    r, key);
			}
			sqlite3_finalize(st);
			st = NULL;
			if (rc)
				break;
		}
		if (tool_rows_set(tb, "run", buf)) {
			rc = oom(j);
			break;
		}
		snprintf(path, sizeof(path), "$[%zu]", i);
		if ((rc = tj_get(j, times.text, path, &t)))
			break;
		snprintf(path, sizeof(path), "$.results[%zu].times[%zu]", r, i);
		rc = seconds(j, &t, path, buf, sizeof(buf));
		tj_val_release(&t);
		if (rc)
			break;
		{
			char tbuf[64];
			snprintf(tbuf, sizeof(tbuf), "%s", buf);
			if (!strcmp(codes.type, "array")) {
				snprintf(path, sizeof(path), "$[%zu]", i);
				if ((rc = tj_get(j, codes.text, path, &c)))
					break;
				if (!c.is_int64 || strcmp(c.type, "integer")) {
					tj_val_release(&c);
					rc = err_at(
						j->display, 0, 0,
						"$.results[%zu].exit_codes[%zu]: not an integer", r,
						i);
					break;
				}
				snprintf(buf, sizeof(buf), "%lld", (long long)c.i);
				tj_val_release(&c);
				if (tool_rows_set(tb, "exit_code", buf) ||
				    tool_rows_set(tb, "valid", strcmp(buf, "0") ? "0" : "1")) {
					rc = oom(j);
					break;
				}
			} else if (tool_rows_set(tb, "exit_code", "") ||
				   tool_rows_set(tb, "valid", "1")) {
				rc = oom(j);
				break;
			}
			if (tool_rows_set(tb, "time_s", tbuf)) {
				rc = oom(j);
				break;
			}
		}
		for (int w = 0; w < 2; w++) {
			const struct tj_val *v = w ? &sys : &user;
			const char *key = w ? "system" : "user";
			char col[32];
			if (!v->type[0] || !strcmp(v->type, "null"))
				continue;
			if (!strcmp(v->type, "array")) {
				struct tj_val e;
				snprintf(path, sizeof(path), "$[%zu]", i);
				if ((rc = tj_get(j, v->text, path, &e)))
					break;
				snprintf(path, sizeof(path), "$.results[%zu].%s[%zu]", r, key, i);
				rc = seconds(j, &e, path, buf, sizeof(buf));
				tj_val_release(&e);
				snprintf(col, sizeof(col), "%s_s", key);
			} else {
				snprintf(path, sizeof(path), "$.results[%zu].%s", r, key);
				rc = seconds(j, v, path, buf, sizeof(buf));
				snprintf(col, sizeof(col), "%s_mean_s", key);
			}
			if (rc == 0 && tool_rows_set(tb, col, buf))
				rc = oom(j);
			if (rc)
				break;
		}
		if (rc)
			break;
	}
done:
	sqlite3_finalize(st);
	tj_val_release(&cmd);
	tj_val_release(&times);
	tj_val_release(&codes);
	tj_val_release(&params);
	tj_val_release(&user);
	tj_val_release(&sys);
	return rc;
}

int hyperfine_convert(const char *bytes, size_t n, const char *display_path, struct table *out)
{
	struct tj j;
	struct tj_val results = {0};
	struct tool_rows tb = {0};
	sqlite3_stmt *st = NULL;
	size_t r = 0;
	int rc, step;

	memset(out, 0, sizeof(*out));
	if ((rc = tj_open(&j, bytes, n, display_path, "hyperfine")))
		return rc;
	if ((rc = tj_get(&j, NULL, "$.results", &results)))
		goto done;
	if (strcmp(results.type, "array")) {
		rc = err_at(display_path, 0, 0,
			    "$.results: %s (not a hyperfine --export-json file)",
			    results.type[0] ? "not an array" : "missing");
		goto done;
	}
	if ((rc = tj_each(&j, results.text, &st)))
		goto done;
	while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *type = (const char *)sqlite3_column_text(st, 1);
		if (strcmp(type, "object"))
			rc = err_at(display_path, 0, 0, "$.results[%zu]: not an object", r);
		else
			rc = one_result(&j, &tb, r, (const char *)sqlite3_column_text(st, 3));
		r++;
	}
	if (rc == 0 && r == 0)
		rc = err_at(display_path, 0, 0, "$.results: empty: no commands were timed");
	if (rc == 0 && command_template(&tb))
		rc = oom(&j);
	if (rc == 0)
		rc = tool_rows_finish(&tb, display_path, out);
done:
	sqlite3_finalize(st);
	tj_val_release(&results);
	tool_rows_release(&tb);
	tj_close(&j);
	return rc;
}
