/* tool_json: see tool_json.h (what the JSON converters share: reading JSON through SQLite). */
#include "tool_json.h"

#include <stdlib.h>
#include <string.h>

bool tj_looks_like(const char *bytes, size_t n, const char *needle)
{
	size_t i = 0, k = strlen(needle);
	if (n >= 3 && !memcmp(bytes, "\xef\xbb\xbf", 3))
		i = 3;
	while (i < n && strchr(" \t\r\n", bytes[i]) && bytes[i])
		i++;
	if (i >= n || bytes[i] != '{')
		return false;
	for (; i + k <= n; i++)
		if (!memcmp(bytes + i, needle, k))
			return true;
	return false;
}

/* ---- SQLite JSON access ---- */

#include "runfiles.h" /* json_locate_error */

#include "../common/err.h"

#include <math.h>
#include <stdio.h>

int tj_open(struct tj *j, const char *bytes, size_t n, const char *display, const char *top)
{
	const char *nul;
	sqlite3_stmt *st = NULL;
	int ok = 0;
	char type[16] = "";
	memset(j, 0, sizeof(*j));
	j->display = display;
	if (n >= 3 && !memcmp(bytes, "\xef\xbb\xbf", 3))
		bytes += 3, n -= 3;
	if ((nul = memchr(bytes, '\0', n)) != NULL) {
		long line = 1, col = 1;
		for (const char *p = bytes; p < nul; p++, col++)
			if (*p == '\n')
				line++, col = 0;
		return err_at(display, line, col, "NUL byte: not a %s JSON file", top);
	}
	if (!(j->doc = malloc(n + 1)))
		return err_set("out of memory reading '%s'", display);
	memcpy(j->doc, bytes, n);
	j->doc[n] = '\0';
	j->len = n;
	if (sqlite3_open_v2(":memory:", &j->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY, NULL) !=
	    SQLITE_OK) {
		tj_close(j);
		return err_set("cannot read '%s': no in-memory database", display);
	}
	if (sqlite3_prepare_v2(j->db,
			       "SELECT json_valid(?1), CASE WHEN json_valid(?1) THEN"
			       " json_type(?1) END",
			       -1, &st, NULL) == SQLITE_OK) {
		sqlite3_bind_text64(st, 1, j->doc, n, SQLITE_STATIC, SQLITE_UTF8);
		if (sqlite3_step(st) == SQLITE_ROW) {
			ok = sqlite3_column_int(st, 0);
			if (sqlite3_column_text(st, 1))
				snprintf(type, sizeof(type), "%s", sqlite3_column_text(st, 1));
		}
	}
	sqlite3_finalize(st);
	if (!ok) {
		long line, col;
		const char *what;
		json_locate_error(j->doc, n, &line, &col, &what);
		tj_close(j);
		return err_at(display, line, col, "%s (not a %s JSON file)", what, top);
	}
	if (strcmp(type, "object")) {
		tj_close(j);
		return err_at(display, 1, 1, "$: expected a JSON object (%s), found %s", top,
			      type[0] ? type : "nothing");
	}
	if (sqlite3_prepare_v2(j->db, "SELECT json_type(?1, ?2), json_extract(?1, ?2)", -1, &j->get,
			       NULL) != SQLITE_OK) {
		int rc = err_set("cannot read '%s': %s", display, sqlite3_errmsg(j->db));
		tj_close(j);
		return rc;
	}
	return 0;
}

void tj_close(struct tj *j)
{
	sqlite3_finalize(j->get);
	sqlite3_close(j->db);
	free(j->doc);
	memset(j, 0, sizeof(*j));
}

void tj_val_release(struct tj_val *v)
{
	free(v->text);
	memset(v, 0, sizeof(*v));
}

int tj_get(struct tj *j, const char *json, const char *path, struct tj_val *v)
{
	int rc = 0;
	memset(v, 0, sizeof(*v));
	sqlite3_reset(j->get);
	sqlite3_bind_text(j->get, 1, json ? json : j->doc, -1, SQLITE_STATIC);
	sqlite3_bind_text(j->get, 2, path, -1, SQLITE_STATIC);
	if (sqlite3_step(j->get) != SQLITE_ROW) {
		rc = err_set("cannot read '%s' at %s: %s", j->display, path, sqlite3_errmsg(j->db));
	} else if (sqlite3_column_type(j->get, 0) != SQLITE_NULL) {
		snprintf(v->type, sizeof(v->type), "%s", sqlite3_column_text(j->get, 0));
		v->is_int64 = sqlite3_column_type(j->get, 1) == SQLITE_INTEGER;
		v->i = sqlite3_column_int64(j->get, 1);
		v->num = sqlite3_column_double(j->get, 1);
		if (sqlite3_column_type(j->get, 1) != SQLITE_NULL &&
		    !(v->text = strdup((const char *)sqlite3_column_text(j->get, 1))))
			rc = err_set("out of memory reading '%s'", j->display);
	}
	sqlite3_reset(j->get);
	sqlite3_clear_bindings(j->get);
	return rc;
}

int tj_each(struct tj *j, const char *json, sqlite3_stmt **st)
{
	*st = NULL;
	if (sqlite3_prepare_v2(j->db, "SELECT key, type, atom, value FROM json_each(?1)", -1, st,
			       NULL) != SQLITE_OK)
		return err_set("cannot read '%s': %s", j->display, sqlite3_errmsg(j->db));
	sqlite3_bind_text(*st, 1, json ? json : j->doc, -1, SQLITE_TRANSIENT);
	return 0;
}

bool tj_is_number(const struct tj_val *v)
{
	return (!strcmp(v->type, "integer") || !strcmp(v->type, "real")) && isfinite(v->num);
}

void tj_fmt(double x, char *buf, size_t size)
{
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, size, "%.*g", prec, x);
		if (strtod(buf, NULL) == x)
			return;
	}
}
