/*
 * benchstat_load: the runs of compare's two arms read as benchstat reads
 * two files of Go benchmark text (analysis/benchstat.h, benchstat_run).
 *
 * Each arm's runs (the common filter AND the arm's conditions, excluded
 * runs left out and listed) are read in their files' order. A Go run
 * (imported by the gobench converter: importers/tool_gobench.c) holds its
 * benchmark's name and GOMAXPROCS, the configuration lines in force
 * (goos, goarch, pkg, cpu, note, ...: the attributes of its set that a
 * configuration line set, schema/README.md "Tool runs") and one value per
 * unit it printed (its own values, iterations aside). So one call covers
 * every unit and every GOMAXPROCS: the row is benchstat's full name
 * ("Encode/format=json-48"), the table the configuration and the unit,
 * the column the arm. A field an arm's conditions name is left out of the
 * configuration (benchstat -col note leaves note out of .config).
 * The attribute sets of the runs are read once each, the runs' own values
 * by their primary key: the cost is one index probe per run.
 */
#include "benchstat.h"

#include "../common/err.h"
#include "../common/strbuf.h"
#include "../schema/db.h"
#include "../schema/fields.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a run's attribute set says: its row and configuration. */
struct set_info {
	int64_t id;
	char row[512];
	char *file;
	const char **config; /* key, value, ..., NULL (pointing into strings) */
	char **strings;
	size_t nstrings;
};

struct loader {
	sqlite3 *db;
	const struct benchstat_request *req;
	struct benchstat_result *out;
	sqlite3_stmt *set_attrs, *values, *name_of;
	struct set_info *sets; /* by set id: a small open table */
	size_t nsets, sets_cap;
	char **names; /* attr_names by name_id (index), NULL when not looked up */
	int64_t nnames;
	char **arm_fields[2];
	size_t narm_fields[2];
	/* each arm's conditions on set-only fields (taken out of its filter) and their name ids */
	struct run_filter set_where[2];
	int64_t *set_name_id[2];
};

void benchstat_request_init(struct benchstat_request *req)
{
	memset(req, 0, sizeof(*req));
	req->confidence = BENCHSTAT_CONFIDENCE;
	req->alpha = BENCHSTAT_ALPHA;
}

static void set_release(struct set_info *s)
{
	for (size_t i = 0; i < s->nstrings; i++)
		free(s->strings[i]);
	free(s->strings);
	free(s->config);
	memset(s, 0, sizeof(*s));
}

static bool arm_field(const struct loader *l, const char *name)
{
	for (int a = 0; a < 2; a++)
		for (size_t i = 0; i < l->narm_fields[a]; i++)
			if (!strcmp(l->arm_fields[a][i], name))
				return true;
	return false;
}

static int keep(struct set_info *s, const char *text, const char **out)
{
	char **grown = realloc(s->strings, (s->nstrings + 1) * sizeof(*grown));
	if (!grown)
		return err_set("out of memory");
	s->strings = grown;
	if (!(grown[s->nstrings] = strdup(text ? text : "")))
		return err_set("out of memory");
	*out = grown[s->nstrings++];
	return 0;
}

/* Read set `id`: name, gomaxprocs, file and the keys set by a configuration line. */
static int read_set(struct loader *l, int64_t id, struct set_info *s)
{
	const char *name = "", *procs = "";
	size_t nconfig = 0;
	int rc = 0, step;
	memset(s, 0, sizeof(*s));
	s->id = id;
	s->config = calloc(2, sizeof(*s->config));
	if (!s->config)
		return err_set("out of memory");
	sqlite3_bind_int64(l->set_attrs, 1, id);
	while (rc == 0 && (step = sqlite3_step(l->set_attrs)) == SQLITE_ROW) {
		const char *key = (const char *)sqlite3_column_text(l->set_attrs, 0);
		const char *value = (const char *)sqlite3_column_text(l->set_attrs, 1);
		bool config_line = sqlite3_column_type(l->set_attrs, 2) != SQLITE_NULL &&
				   sqlite3_column_int64(l->set_attrs, 2) > 0;
		const char *kept;
		if (!key)
			continue;
		if (!strcmp(key, "name") && (rc = keep(s, value, &name)))
			break;
		if (!strcmp(key, "gomaxprocs") && (rc = keep(s, value, &procs)))
			break;
		if (!strcmp(key, "file") && (rc = keep(s, value, &kept)) == 0)
			s->file = (char *)(uintptr_t)kept;
		if (rc || !config_line || arm_field(l, key))
			continue;
		{
			const char **grown = realloc(s->config, (2 * nconfig + 3) * sizeof(*grown));
			if (!grown) {
				rc = err_set("out of memory");
				break;
			}
			s->config = grown;
			if ((rc = keep(s, key, &grown[2 * nconfig])) ||
			    (rc = keep(s, value, &grown[2 * nconfig + 1])))
				break;
			grown[2 * ++nconfig] = NULL;
		}
	}
	sqlite3_reset(l->set_attrs);
	if (rc == 0 && !*name)
		rc = err_set("attribute set %lld holds no benchmark name", (long long)id);
	if (rc == 0)
		benchstat_row_name(name, procs, s->row, sizeof(s->row));
	return rc;
}

static int set_of(struct loader *l, int64_t id, struct set_info **out)
{
	size_t k;
	if (2 * (l->nsets + 1) > l->sets_cap) {
		size_t cap = l->sets_cap ? 2 * l->sets_cap : 64;
		struct set_info *grown = calloc(cap, sizeof(*grown));
		if (!grown)
			return err_set("out of memory");
		for (size_t i = 0; i < l->sets_cap; i++)
			if (l->sets[i].config) {
				size_t j = (size_t)l->sets[i].id & (cap - 1);
				while (grown[j].config)
					j = (j + 1) & (cap - 1);
				grown[j] = l->sets[i];
			}
		free(l->sets);
		l->sets = grown;
		l->sets_cap = cap;
	}
	for (k = (size_t)id & (l->sets_cap - 1); l->sets[k].config; k = (k + 1) & (l->sets_cap - 1))
		if (l->sets[k].id == id)
			return *out = &l->sets[k], 0;
	if (read_set(l, id, &l->sets[k])) {
		set_release(&l->sets[k]);
		return -1;
	}
	l->nsets++;
	*out = &l->sets[k];
	return 0;
}

static const char *name_of(struct loader *l, int64_t id)
{
	if (id >= l->nnames) {
		int64_t n = id + 256;
		char **grown = realloc(l->names, (size_t)n * sizeof(*grown));
		if (!grown)
			return NULL;
		for (int64_t i = l->nnames; i < n; i++)
			grown[i] = NULL;
		l->names = grown;
		l->nnames = n;
	}
	if (!l->names[id]) {
		sqlite3_bind_int64(l->name_of, 1, id);
		if (sqlite3_step(l->name_of) == SQLITE_ROW &&
		    !strcmp((const char *)sqlite3_column_text(l->name_of, 0), "results"))
			l->names[id] = strdup((const char *)sqlite3_column_text(l->name_of, 1));
		else
			l->names[id] = strdup("");
		sqlite3_reset(l->name_of);
	}
	return l->names[id];
}

/* One run: its own values, each unit one measurement. */
static int read_run(struct loader *l, int col, int64_t run_id, const struct set_info *s)
{
	int rc = 0, step;
	sqlite3_bind_int64(l->values, 1, run_id);
	while (rc == 0 && (step = sqlite3_step(l->values)) == SQLITE_ROW) {
		const char *column = name_of(l, sqlite3_column_int64(l->values, 0));
		char unit[256];
		struct benchstat_obs o;
		if (!column)
			rc = err_set("out of memory");
		else if (!*column || !strcmp(column, "iterations") ||
			 (l->req->metric && strcmp(l->req->metric, column)))
			continue;
		if (rc)
			break;
		benchstat_go_unit(column, unit, sizeof(unit));
		o.row = s->row;
		o.col = col;
		o.config = s->config;
		o.unit = unit;
		o.value = sqlite3_column_type(l->values, 2) != SQLITE_NULL
				  ? sqlite3_column_double(l->values, 2)
				  : sqlite3_column_double(l->values, 1);
		o.file = s->file;
		rc = benchstat_tables_add(l->out, &o);
	}
	sqlite3_reset(l->values);
	return rc;
}

static int prepare(struct loader *l)
{
	int rc = db_prepare(l->db,
			    "SELECT n.name, s.value, s.line FROM set_attrs s JOIN attr_names n"
			    " ON n.name_id = s.name_id WHERE s.set_id = ?1 AND n.source = 'results'"
			    " ORDER BY s.name_id",
			    &l->set_attrs);
	if (rc == 0)
		rc = db_prepare(l->db,
				"SELECT name_id, value, num FROM run_values WHERE run_id = ?1"
				" ORDER BY name_id",
				&l->values);
	if (rc == 0)
		rc = db_prepare(l->db, "SELECT source, name FROM attr_names WHERE name_id = ?1",
				&l->name_of);
	return rc;
}

/* The name id of a set-only field arm a's conditions named, else 0 (arms name the same). */
static int64_t known_set_field(const struct loader *l, const char *field)
{
	for (size_t i = 0; i < l->set_where[0].nwhere; i++)
		if (!strcmp(l->set_where[0].where[i].field, field))
			return l->set_name_id[0][i];
	return 0;
}

/*
 * The arm's conditions on set-only fields move out of its filter: the
 * filter would read the field once per run through run_fields (most of
 * this view's time over 10,000 runs), a set condition reads set_attrs once.
 * Such a field exists, so run_filter_check need not look for it.
 */
static int take_set_conditions(struct loader *l, int a, struct run_filter *f)
{
	struct run_filter *set = &l->set_where[a];
	size_t kept = 0;
	int rc = 0;
	set->where = calloc(f->nwhere + 1, sizeof(*set->where));
	l->set_name_id[a] = calloc(f->nwhere + 1, sizeof(*l->set_name_id[a]));
	if (!set->where || !l->set_name_id[a])
		return err_set("out of memory");
	for (size_t i = 0; i < f->nwhere; i++) {
		bool missing = f->where[i].missing;
		int64_t name_id = a && !missing ? known_set_field(l, f->where[i].field) : 0;
		if (rc == 0 && !name_id && !missing)
			rc = field_set_only(l->db, f->where[i].field, &name_id);
		if (name_id > 0) {
			l->set_name_id[a][set->nwhere] = name_id;
			set->where[set->nwhere++] = f->where[i];
		} else {
			f->where[kept++] = f->where[i];
		}
	}
	f->nwhere = kept;
	return rc;
}

/* The arm's WHERE over runs r: its filter and its set conditions. */
static int arm_where(const struct loader *l, int a, const struct run_filter *f, struct strbuf *sql,
		     char ***binds, size_t *nbinds)
{
	int rc = run_filter_sql(f, sql, binds, nbinds);
	for (size_t i = 0; rc == 0 && i < l->set_where[a].nwhere; i++) {
		if (strbuf_adds(sql, " AND "))
			rc = err_set("out of memory");
		else
			rc = field_set_where_sql(&l->set_where[a].where[i], l->set_name_id[a][i],
						 sql, binds, nbinds);
	}
	return rc;
}

/* The arm's filter: the common one and the arm's conditions; its fields remembered. */
static int arm_filter(struct loader *l, int a, struct run_filter *f)
{
	size_t before;
	int rc = run_filter_copy(f, l->req->filter);
	before = f->nwhere;
	if (rc == 0)
		rc = run_filter_add_conditions(f, l->req->arm[a], a ? "--b" : "--a");
	if (rc == 0 && !(l->arm_fields[a] = calloc(f->nwhere - before + 1, sizeof(char *))))
		rc = err_set("out of memory");
	for (size_t i = before; rc == 0 && i < f->nwhere; i++) {
		size_t len;
		field_source_of(f->where[i].field, &len);
		if (!(l->arm_fields[a][l->narm_fields[a]++] = strndup(f->where[i].field, len)))
			rc = err_set("out of memory");
	}
	return rc ? rc : take_set_conditions(l, a, f);
}

/* The runs an arm's filter matches, in file order; excluded ones listed as left out. */
static int arm_runs(struct loader *l, int a, const struct run_filter *f)
{
	struct strbuf sql = STRBUF_INIT;
	char **binds = NULL;
	size_t nbinds = 0;
	sqlite3_stmt *st = NULL;
	int rc = 0, step;
	strbuf_adds(&sql, "SELECT r.run_id, r.attr_set, r.tag, c.layout, r.subcorpus, c.name"
			  " FROM runs r JOIN corpora c USING (corpus_id) WHERE ");
	rc = arm_where(l, a, f, &sql, &binds, &nbinds);
	if (rc == 0 && strbuf_adds(&sql, " ORDER BY r.corpus_id, r.subcorpus, r.seq"))
		rc = err_set("out of memory");
	if (rc == 0)
		rc = db_prepare(l->db, strbuf_str(&sql), &st);
	if (rc == 0)
		rc = field_bind_all(st, 1, binds, nbinds);
	while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW) {
		const char *tag = (const char *)sqlite3_column_text(st, 2);
		const char *layout = (const char *)sqlite3_column_text(st, 3);
		struct set_info *s = NULL;
		if (sqlite3_column_type(st, 1) == SQLITE_NULL || strcmp(layout, "gobench")) {
			l->out->not_go = l->out->runs[0] + l->out->runs[1] == 0;
			rc = err_usage(
				"run '%s' (corpus '%s', layout %s) is not a Go benchmark run "
				"imported by this coreplan (view benchstat reads every unit "
				"of go test -bench output; re-import a Go corpus imported by an "
				"older coreplan with import --replace, or compare one metric "
				"with --metric and --by)",
				tag, (const char *)sqlite3_column_text(st, 5), layout);
			break;
		}
		rc = set_of(l, sqlite3_column_int64(st, 1), &s);
		if (rc == 0)
			rc = read_run(l, a, sqlite3_column_int64(st, 0), s);
		if (rc == 0)
			l->out->runs[a]++;
	}
	sqlite3_finalize(st);
	field_binds_free(binds, nbinds);
	strbuf_release(&sql);
	return rc;
}

static int left_out(struct loader *l, int a, const struct run_filter *f)
{
	struct run_filter excl;
	struct strbuf sql = STRBUF_INIT;
	char **binds = NULL;
	size_t nbinds = 0;
	sqlite3_stmt *st = NULL;
	int rc, step;
	if (f->include_excluded)
		return 0;
	rc = run_filter_copy(&excl, f);
	excl.only_excluded = true;
	strbuf_adds(&sql, "SELECT r.tag, r.exclusion_reasons FROM runs_v r WHERE ");
	if (rc == 0)
		rc = arm_where(l, a, &excl, &sql, &binds, &nbinds);
	if (rc == 0)
		rc = db_prepare(l->db, strbuf_str(&sql), &st);
	if (rc == 0)
		rc = field_bind_all(st, 1, binds, nbinds);
	while (rc == 0 && (step = sqlite3_step(st)) == SQLITE_ROW)
		rc = benchstat_leave_out(l->out, (const char *)sqlite3_column_text(st, 0),
					 (const char *)sqlite3_column_text(st, 1));
	sqlite3_finalize(st);
	field_binds_free(binds, nbinds);
	strbuf_release(&sql);
	run_filter_release(&excl);
	return rc;
}

/* The column label: the value of a single-valued single condition ("file=old.txt": old.txt). */
static void label_of(const char *arm, char *buf, size_t size)
{
	const char *eq = strchr(arm, '=');
	bool single = eq && !strpbrk(arm, " \t;") && !strchr(eq + 1, ',');
	snprintf(buf, size, "%s", single && eq[1] ? eq + 1 : arm);
}

int benchstat_run(sqlite3 *db, const struct benchstat_request *req, struct benchstat_result *out)
{
	struct loader l = {.db = db, .req = req, .out = out};
	struct run_filter f[2];
	char label[2][256];
	int rc;
	memset(f, 0, sizeof(f));
	for (int a = 0; a < 2; a++)
		label_of(req->arm[a], label[a], sizeof(label[a]));
	rc = benchstat_tables_init(out, req->label[0] ? req->label[0] : label[0],
				   req->label[1] ? req->label[1] : label[1], req->confidence,
				   req->alpha);
	if (rc)
		return rc;
	rc = prepare(&l);
	for (int a = 0; rc == 0 && a < 2; a++)
		rc = arm_filter(&l, a, &f[a]);
	for (int a = 0; rc == 0 && a < 2; a++)
		rc = run_filter_check(db, &f[a]);
	for (int a = 0; rc == 0 && a < 2; a++)
		rc = arm_runs(&l, a, &f[a]);
	for (int a = 0; rc == 0 && a < 2; a++)
		rc = left_out(&l, a, &f[a]);
	for (int a = 0; rc == 0 && a < 2; a++)
		if (out->runs[a] == 0)
			rc = err_set("arm %s (%s) has no Go benchmark run: nothing to compare",
				     a ? "b" : "a", req->arm[a]);
	if (rc == 0)
		rc = benchstat_tables_finish(out);
	sqlite3_finalize(l.set_attrs);
	sqlite3_finalize(l.values);
	sqlite3_finalize(l.name_of);
	for (size_t i = 0; i < l.sets_cap; i++)
		set_release(&l.sets[i]);
	free(l.sets);
	for (int64_t i = 0; i < l.nnames; i++)
		free(l.names[i]);
	free(l.names);
	for (int a = 0; a < 2; a++) {
		for (size_t i = 0; i < l.narm_fields[a]; i++)
			free(l.arm_fields[a][i]);
		free(l.arm_fields[a]);
		run_filter_release(&f[a]);
		run_filter_release(&l.set_where[a]);
		free(l.set_name_id[a]);
	}
	if (rc) {
		bool not_go = out->not_go;
		benchstat_tables_release(out);
		out->not_go = not_go;
	}
	return rc;
}
