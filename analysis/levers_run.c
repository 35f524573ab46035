/*
 * levers_run: the runs of `coreplan levers` read from the database
 * (levers.h): the fields that vary among them (pooling.h), each run's
 * value of each, then levers_compute().
 */
#include "levers.h"

#include "../common/err.h"
#include "pooling.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int fields_of(const struct pooling *p, struct levers_result *out)
{
	out->fields = calloc(p->nfields + 1, sizeof(*out->fields));
	out->follows = calloc(p->nfields + 1, sizeof(*out->follows));
	if (!out->fields || !out->follows)
		return err_set("out of memory");
	for (size_t i = 0; i < p->nfields; i++) {
		if (!(out->fields[i] = strdup(p->fields[i].name)))
			return err_set("out of memory");
		out->nfields = i + 1;
		if (p->fields[i].follows && !(out->follows[i] = strdup(p->fields[i].follows)))
			return err_set("out of memory");
	}
	return 0;
}

/* A results-table column that counts workers and is neither the level nor a varying field. */
struct settings_arg {
	struct levers_result *out;
	const char *by;
};

static int setting_row(const struct field_source_row *row, void *arg)
{
	struct settings_arg *a = arg;
	struct levers_result *out = a->out;
	char **grown;
	if (row->canonical || strcmp(row->source, "results") != 0 || row->read == 0 ||
	    !field_counts_workers(row->field) || (a->by && !strcmp(row->field, a->by)) ||
	    out->nsettings >= 16)
		return 0;
	for (size_t i = 0; i < out->nfields; i++)
		if (!strcmp(out->fields[i], row->field))
			return 0;
	grown = realloc(out->settings, (out->nsettings + 2) * sizeof(*grown));
	if (!grown)
		return err_set("out of memory");
	out->settings = grown;
	if (!(grown[out->nsettings] = strdup(row->field)))
		return err_set("out of memory");
	grown[++out->nsettings] = NULL;
	return 0;
}

int levers_run(sqlite3 *db, const struct levers_request *req, struct levers_result *out)
{
	const char *metric = req->metric ? req->metric : "tput";
	struct select_spec spec = {.filter = req->filter,
				   .by = req->by,
				   .numeric_by = req->by != NULL,
				   .metric = metric,
				   .block = "block"};
	struct selection sel;
	struct pooling pool;
	struct lever_run *runs = NULL;
	struct lever_input in;
	struct metric_meaning m;
	const char **extra = NULL;
	int rc;
	memset(out, 0, sizeof(*out));
	memset(&pool, 0, sizeof(pool));
	memset(&sel, 0, sizeof(sel));
	/* first the fields that vary, then the runs again with their values */
	rc = select_runs(db, &spec, &sel);
	if (rc == 0 && sel.n == 0)
		rc = select_no_runs(&sel, req->filter);
	if (rc == 0)
		rc = pooling_load(db, &spec, &sel, &pool);
	if (rc == 0)
		rc = fields_of(&pool, out);
	selection_release(&sel);
	pooling_release(&pool);
	if (rc == 0) {
		struct settings_arg sa = {out, req->by};
		int64_t nruns = 0;
		rc = field_sources_list(db, req->filter, setting_row, &sa, &nruns);
	}
	if (rc == 0 && !(extra = calloc(out->nfields + out->nsettings + 2, sizeof(*extra))))
		rc = err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < out->nfields; i++)
		extra[i] = out->fields[i];
	for (size_t i = 0; rc == 0 && i < out->nsettings; i++)
		extra[out->nfields + 1 + i] = out->settings[i];
	if (rc == 0) {
		extra[out->nfields] = "block";
		spec.extra = extra;
		rc = select_runs(db, &spec, &out->sel);
	}
	if (rc == 0 && !(runs = calloc(out->sel.n ? out->sel.n : 1, sizeof(*runs))))
		rc = err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < out->sel.n; i++) {
		struct sel_run *s = &out->sel.runs[i];
		/* a missing value is a value of its own (pooling.h shows it NA) */
		for (size_t k = 0; k < out->nfields; k++)
			if (!s->extra[k] && !(s->extra[k] = strpool_intern(&out->sel.strings, "NA")))
				rc = ERR_DATA; /* strpool_intern said why */
		runs[i] = (struct lever_run){s->tag,
					     req->by ? s->level : 0,
					     s->metric,
					     s->app_cores,
					     s->extra[out->nfields],
					     (const char *const *)s->extra,
					     (const char *const *)s->extra + out->nfields + 1};
	}
	field_metric_meaning(metric, NULL, false, &m);
	in = (struct lever_input){runs,
				  out->sel.n,
				  (const char *const *)out->fields,
				  (const char *const *)out->follows,
				  out->nfields,
				  m.lower_is_better,
				  m.kind,
				  req->by != NULL,
				  (const char *const *)out->settings,
				  out->nsettings};
	if (rc == 0)
		rc = levers_compute(&in, &out->lv);
	free(runs);
	free(extra);
	if (rc)
		levers_result_release(out);
	return rc;
}

void levers_result_release(struct levers_result *r)
{
	levers_release(&r->lv);
	for (size_t i = 0; i < r->nfields; i++) {
		free(r->fields[i]);
		free(r->follows ? r->follows[i] : NULL);
	}
	free(r->fields);
	free(r->follows);
	for (size_t i = 0; i < r->nsettings; i++)
		free(r->settings[i]);
	free(r->settings);
	selection_release(&r->sel);
	memset(r, 0, sizeof(*r));
}
