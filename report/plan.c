/* report_plan: see report_plan.h. */
#include "plan.h"

#include "../analysis/pooling.h"
#include "../analysis/select.h"
#include "../common/err.h"
#include "../common/strbuf.h"
#include "../schema/queries.h"

#include <stdlib.h>
#include <string.h>

/* How many values the field has over the filter's runs (2 means "two or more"). */
static int count_values(sqlite3 *db, const struct run_filter *f, const char *field, size_t *n)
{
	struct text_list values;
	bool more;
	int rc = query_distinct(db, f, field, 2, &values, &more);
	*n = rc == 0 ? values.n : 0;
	text_list_release(&values);
	return rc;
}

static int push(char ***list, size_t *n, const char *text)
{
	char **grown = realloc(*list, (*n + 2) * sizeof(*grown));
	if (!grown)
		return err_set("out of memory");
	*list = grown;
	if (!(grown[*n] = strdup(text)))
		return err_set("out of memory");
	grown[++*n] = NULL;
	return 0;
}

/*
 * The level: the one given, else the first field that counts workers with
 * two or more values (gomaxprocs, then the names field_counts_workers
 * knows, in that order), else sessions. A field the corpus does not have
 * counts as no values.
 */
/* Does the level get the core-scaling sections: it counts workers, declared or known, or models were asked for. */
static bool counts_workers(const struct report_plan_request *req, const char *by)
{
	return field_counts_workers(by) || (req->workers && !strcmp(req->workers, by)) ||
	       req->models;
}

/*
 * A hyperfine parameter scan: every run's command is the scan's template
 * ("sleep {delay}", tool_hyperfine.c), whose first {NAME} with two or more
 * values is the level.
 */
static int scan_parameter(sqlite3 *db, struct report_plan *p)
{
	struct text_list commands = {0};
	bool more = false;
	int rc = query_distinct(db, &p->filter, "command", 2, &commands, &more);
	if (rc) {
		err_clear(); /* no command: not a hyperfine import */
		return 0;
	}
	for (const char *c = commands.n == 1 ? commands.items[0] : ""; rc == 0 && !p->by &&
								       (c = strchr(c, '{'));
	     c++) {
		const char *end = strchr(c, '}');
		char *name = end && end > c + 1 ? strndup(c + 1, (size_t)(end - c - 1)) : NULL;
		size_t n = 0;
		if (name && count_values(db, &p->filter, name, &n) != 0) {
			err_clear(); /* braces that name no field */
			n = 0;
		}
		if (n >= 2) {
			p->by = name;
			name = NULL;
		}
		free(name);
	}
	text_list_release(&commands);
	return rc;
}

static int choose_by(sqlite3 *db, const struct report_plan_request *req, struct report_plan *p)
{
	static const char *const candidates[] = {
		"gomaxprocs",  "threads", "nthreads",  "threads_per_proc",
		"thread",      "cores",   "core",      "cpus",
		"vcpus",       "workers", "worker",    "shards",
		"parallelism", "jobs",    "n",         "N",
		"procs",       "nprocs",  "processes", "sessions",
		"connections", NULL};
	size_t n;
	int rc = 0;
	if (req->by || req->workers) {
		const char *by = req->by ? req->by : req->workers;
		p->by_given = true;
		p->scaling = counts_workers(req, by);
		return (p->by = strdup(by)) ? 0 : err_set("out of memory");
	}
	for (size_t i = 0; rc == 0 && candidates[i] && !p->by; i++) {
		if (count_values(db, &p->filter, candidates[i], &n) != 0) {
			err_clear(); /* not a field of these runs */
			n = 0;
		}
		if (n >= 2 && !(p->by = strdup(candidates[i])))
			rc = err_set("out of memory");
	}
	if (rc == 0 && !p->by)
		rc = scan_parameter(db, p);
	if (rc == 0 && p->by)
		p->scaling = counts_workers(req, p->by);
	return rc;
}

/* The first results-table column a rate by its name (field_sources_list's rows). */
struct rate_arg {
	const char *by;
	char *found;
};

static int rate_column(const struct field_source_row *row, void *arg)
{
	struct rate_arg *a = arg;
	struct metric_meaning m;
	if (a->found || row->canonical || strcmp(row->source, "results") != 0 || row->read == 0 ||
	    (a->by && !strcmp(row->field, a->by)))
		return 0;
	field_metric_meaning(row->field, NULL, false, &m);
	if (m.kind == FIELD_KIND_RATE && !m.kind_assumed && !(a->found = strdup(row->field)))
		return err_set("out of memory");
	return 0;
}

/* The one given, else tput when the runs have it, else the tool's, else the first rate column, else tput. */
static int choose_metric(sqlite3 *db, const struct report_plan_request *req,
			 struct report_plan *p)
{
	struct rate_arg a = {p->by, NULL};
	const char *tool = NULL;
	int64_t nruns = 0;
	size_t n = 0;
	int rc = 0;
	if (req->metric)
		return (p->metric = strdup(req->metric)) ? 0 : err_set("out of memory");
	rc = count_values(db, &p->filter, "tput", &n);
	if (rc == 0 && n == 0)
		rc = query_default_metric(db, &p->filter, &tool);
	if (rc == 0 && tool && !(a.found = strdup(tool)))
		rc = err_set("out of memory");
	if (rc == 0 && n == 0 && !a.found)
		rc = field_sources_list(db, &p->filter, rate_column, &a, &nruns);
	p->metric = a.found ? a.found : strdup("tput");
	if (rc == 0 && !p->metric)
		rc = err_set("out of memory");
	return rc;
}

static bool in_list(char *const *list, size_t n, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(list[i], name))
			return true;
	return false;
}

/*
 * The group fields for a sweep of `level` over `filter`: the declared ones,
 * then every field pooling.h finds varying that no earlier one covers.
 */
static int group_fields(sqlite3 *db, const struct run_filter *filter, const char *level,
			const char *const *declared, char ***fields, size_t *n)
{
	struct select_spec spec = {.filter = filter, .by = level};
	struct selection sel = {0};
	struct pooling pool = {0};
	int rc = 0;
	/* an empty list, allocated, so the fields are never NULL */
	if (!(*fields = calloc(1, sizeof(**fields))))
		return err_set("out of memory");
	for (size_t i = 0; rc == 0 && declared && declared[i]; i++)
		if (!in_list(*fields, *n, declared[i]))
			rc = push(fields, n, declared[i]);
	spec.group = *n ? (const char *const *)*fields : NULL;
	if (rc == 0)
		rc = select_runs(db, &spec, &sel);
	if (rc == 0 && sel.n > 0)
		rc = pooling_load(db, &spec, &sel, &pool);
	for (size_t i = 0; rc == 0 && i < pool.nfields; i++)
		if (!pool.fields[i].follows && !in_list(*fields, *n, pool.fields[i].name))
			rc = push(fields, n, pool.fields[i].name);
	pooling_release(&pool);
	selection_release(&sel);
	return rc;
}

/* One group: the report's filter AND field = value (or field missing, for "NA"). */
static int make_group(const struct run_filter *filter, char *const *fields, size_t nfields,
		      char **values, struct report_group *g)
{
	struct strbuf label = STRBUF_INIT;
	int rc = run_filter_copy(&g->filter, filter);
	for (size_t k = 0; rc == 0 && k < nfields; k++) {
		const char *v = values[k];
		/* query_combinations writes "NA" for a missing value */
		rc = !strcmp(v, "NA") ? run_filter_add_missing(&g->filter, fields[k])
				      : run_filter_add(&g->filter, fields[k], &v, 1);
		strbuf_addf(&label, "%s%s=%s", k ? " " : "", fields[k], v);
	}
	if (!label.buf)
		strbuf_adds(&label, "");
	g->label = strbuf_detach(&label);
	if (rc == 0 && !g->label)
		rc = err_set("out of memory");
	return rc;
}

struct group_list {
	struct report_group *items;
	size_t n;
};

/* Move g into the list (on failure g is released). */
static int add_group(struct group_list *list, struct report_group *g)
{
	struct report_group *grown = realloc(list->items, (list->n + 1) * sizeof(*grown));
	if (!grown) {
		free(g->label);
		run_filter_release(&g->filter);
		return err_set("out of memory");
	}
	list->items = grown;
	grown[list->n++] = *g;
	return 0;
}

/* The group g narrowed to blocks[0..n) of the block field, labelled "... block=1,2,3". */
static int block_group(const struct report_group *g, const char *field, char *const *blocks,
		       size_t n, struct group_list *list)
{
	struct report_group sub = {0};
	struct strbuf label = STRBUF_INIT;
	int rc = run_filter_copy(&sub.filter, &g->filter);
	if (rc == 0)
		rc = run_filter_add(&sub.filter, field, (const char *const *)blocks, n);
	strbuf_addf(&label, "%s%s%s=", g->label, *g->label ? " " : "", field);
	for (size_t i = 0; i < n; i++)
		strbuf_addf(&label, "%s%s", i ? "," : "", blocks[i]);
	sub.label = strbuf_detach(&label);
	if (rc == 0 && !sub.label)
		rc = err_set("out of memory");
	if (rc) {
		free(sub.label);
		run_filter_release(&sub.filter);
		return rc;
	}
	return add_group(list, &sub);
}

/*
 * Move g into the list, or (when its runs hold block kinds) its complete
 * blocks and then each kind as groups of their own.
 */
static int split_kinds(sqlite3 *db, const char *level, struct report_group *g,
		       struct group_list *list)
{
	struct select_spec spec = {.filter = &g->filter, .by = level};
	struct selection sel = {0};
	struct pooling pool = {0};
	char **complete = NULL;
	size_t ncomplete = 0;
	int rc = select_runs(db, &spec, &sel);
	if (rc == 0 && sel.n > 0)
		rc = pooling_load(db, &spec, &sel, &pool);
	if (rc == 0 && pool.nkinds == 0) {
		rc = add_group(list, g);
		g = NULL;
	}
	/* the complete blocks that are a kind nowhere (and not missing: --where cannot name NA) */
	for (size_t i = 0; rc == 0 && g && i < pool.ncomplete; i++) {
		bool kind = !strcmp(pool.complete[i], "NA");
		for (size_t k = 0; k < pool.nkinds && !kind; k++)
			kind = !strcmp(pool.kinds[k].block, pool.complete[i]);
		if (!kind)
			rc = push(&complete, &ncomplete, pool.complete[i]);
	}
	if (rc == 0 && g && ncomplete)
		rc = block_group(g, pool.block_field, complete, ncomplete, list);
	for (size_t k = 0; rc == 0 && g && k < pool.nkinds; k++) {
		bool seen = !strcmp(pool.kinds[k].block, "NA");
		for (size_t j = 0; j < k && !seen; j++)
			seen = !strcmp(pool.kinds[j].block, pool.kinds[k].block);
		if (!seen)
			rc = block_group(g, pool.block_field, &pool.kinds[k].block, 1, list);
	}
	if (g) {
		free(g->label);
		run_filter_release(&g->filter);
	}
	for (size_t i = 0; i < ncomplete; i++)
		free(complete[i]);
	free(complete);
	pooling_release(&pool);
	selection_release(&sel);
	return rc;
}

/* The groups of a sweep of `level`: one per combination of the fields, block kinds split. */
static int make_groups(sqlite3 *db, const struct run_filter *filter, const char *level,
		       char *const *fields, size_t nfields, struct group_list *list)
{
	struct text_list combos = {0};
	size_t ncombos = 1;
	int rc = 0;
	if (nfields)
		rc = query_combinations(db, filter, (const char *const *)fields, nfields, &combos,
					&ncombos);
	for (size_t i = 0; rc == 0 && i < ncombos; i++) {
		struct report_group g = {0};
		rc = make_group(filter, fields, nfields,
				nfields ? combos.items + i * nfields : NULL, &g);
		if (rc == 0) {
			rc = split_kinds(db, level, &g, list);
		} else {
			free(g.label);
			run_filter_release(&g.filter);
		}
	}
	text_list_release(&combos);
	return rc;
}

/* Keep the first REPORT_MAX_GROUPS groups; free the rest. */
static void cap(struct group_list *list, size_t *shown, size_t *found)
{
	*found = list->n;
	*shown = list->n < REPORT_MAX_GROUPS ? list->n : REPORT_MAX_GROUPS;
	for (size_t i = *shown; i < list->n; i++) {
		free(list->items[i].label);
		run_filter_release(&list->items[i].filter);
	}
}

static int sweep_groups(sqlite3 *db, const struct report_plan_request *req, struct report_plan *p)
{
	struct group_list list = {0};
	int rc = 0;
	if (!p->by)
		return (p->group = calloc(1, sizeof(*p->group))) ? 0 : err_set("out of memory");
	rc = group_fields(db, &p->filter, p->by, req->group, &p->group, &p->ngroup);
	if (rc == 0)
		rc = make_groups(db, &p->filter, p->by, p->group, p->ngroup, &list);
	cap(&list, &p->ngroups, &p->ngroups_found);
	p->groups = list.items;
	return rc;
}

/*
 * Memory is fitted across sessions: the sweep's group fields without
 * sessions and with the sweep's level, then whatever else would be
 * pooled; only the groups with two or more session counts are kept.
 */
static int memory_groups(sqlite3 *db, const struct report_plan_request *req, struct report_plan *p)
{
	struct group_list list = {0}, kept = {0};
	char **declared = calloc(1, sizeof(*declared));
	size_t ndeclared = 0;
	int rc = declared ? 0 : err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < p->ngroup; i++)
		if (strcmp(p->group[i], "sessions"))
			rc = push(&declared, &ndeclared, p->group[i]);
	if (rc == 0 && p->by && strcmp(p->by, "sessions") && !in_list(declared, ndeclared, p->by))
		rc = push(&declared, &ndeclared, p->by);
	if (rc == 0)
		rc = group_fields(db, &p->filter, "sessions", (const char *const *)declared,
				  &p->memory_group, &p->nmemory_group);
	if (rc == 0)
		rc = make_groups(db, &p->filter, "sessions", p->memory_group, p->nmemory_group,
				 &list);
	for (size_t i = 0; i < list.n; i++) {
		size_t n = 0;
		if (rc == 0)
			rc = count_values(db, &list.items[i].filter, "sessions", &n);
		if (rc == 0 && n >= 2) {
			rc = add_group(&kept, &list.items[i]);
			continue;
		}
		p->memory_skipped += rc == 0;
		free(list.items[i].label);
		run_filter_release(&list.items[i].filter);
	}
	free(list.items);
	cap(&kept, &p->nmemory_groups, &p->nmemory_found);
	p->memory_groups = kept.items;
	for (size_t i = 0; i < ndeclared; i++)
		free(declared[i]);
	free(declared);
	return rc;
}

/* From the sub-corpus on another CPU family to one on the main sub-corpus's family. */
static int choose_translation(sqlite3 *db, const struct report_plan_request *req,
			      struct report_plan *p)
{
	struct text_list pairs;
	const char *main_family = NULL;
	int rc;
	if (req->translate_from && req->translate_to) {
		p->translate_from = strdup(req->translate_from);
		p->translate_to = strdup(req->translate_to);
		return p->translate_from && p->translate_to ? 0 : err_set("out of memory");
	}
	rc = query_subcorpus_families(db, req->filter->corpus, &pairs);
	for (size_t i = 0; rc == 0 && i + 1 < pairs.n; i += 2)
		if (!*pairs.items[i])
			main_family = pairs.items[i + 1];
	for (size_t i = 0; rc == 0 && main_family && i + 1 < pairs.n; i += 2) {
		const char *sub = pairs.items[i], *family = pairs.items[i + 1];
		char **slot = strcmp(family, main_family) ? &p->translate_from : &p->translate_to;
		struct strbuf where = STRBUF_INIT;
		if (!*sub || *slot)
			continue;
		strbuf_addf(&where, "subcorpus=%s", sub);
		*slot = strbuf_detach(&where);
		if (!*slot)
			rc = err_set("out of memory");
	}
	if (rc == 0 && !(p->translate_from && p->translate_to)) {
		free(p->translate_from);
		free(p->translate_to);
		p->translate_from = p->translate_to = NULL;
	}
	text_list_release(&pairs);
	return rc;
}

/* Does the filter name the field in a condition of its own? */
static bool filter_names(const struct run_filter *f, const char *field)
{
	for (size_t i = 0; i < f->nwhere; i++)
		if (!strcmp(f->where[i].field, field))
			return true;
	return false;
}

/*
 * Reference sub-corpora (runs on another CPU, found by choose_translation)
 * go to translation only: the other sections read the main sub-corpus.
 */
static int leave_out_references(const struct report_plan_request *req, struct report_plan *p)
{
	static const char *const main_sub[] = {""};
	struct strbuf why = STRBUF_INIT;
	if (!p->translate_from || (req->translate_from && req->translate_to) ||
	    filter_names(req->filter, "subcorpus"))
		return 0;
	/* the conditions are "subcorpus=NAME": the names alone */
	strbuf_addf(&why,
		    "the reference sub-corpora %s and %s are runs measured on another CPU or "
		    "machine: they appear only in the translation section; every other section "
		    "reads the main sub-corpus",
		    strchr(p->translate_from, '=') ? strchr(p->translate_from, '=') + 1
						   : p->translate_from,
		    strchr(p->translate_to, '=') ? strchr(p->translate_to, '=') + 1
						 : p->translate_to);
	p->references_note = strbuf_detach(&why);
	if (!p->references_note)
		return err_set("out of memory");
	return run_filter_add(&p->filter, "subcorpus", main_sub, 1);
}

int report_plan_make(sqlite3 *db, const struct report_plan_request *req, struct report_plan *out)
{
	size_t n;
	int rc;
	memset(out, 0, sizeof(*out));
	rc = run_filter_check(db, req->filter);
	if (rc == 0)
		rc = run_filter_copy(&out->filter, req->filter);
	if (rc == 0)
		rc = choose_translation(db, req, out);
	if (rc == 0)
		rc = leave_out_references(req, out);
	if (rc == 0)
		rc = choose_by(db, req, out);
	if (rc == 0)
		rc = choose_metric(db, req, out);
	if (rc == 0)
		rc = sweep_groups(db, req, out);
	if (rc == 0)
		rc = count_values(db, &out->filter, "sessions", &n);
	if (rc == 0)
		out->memory = n >= 2;
	if (rc == 0 && out->memory)
		rc = memory_groups(db, req, out);
	if (rc == 0)
		rc = count_values(db, &out->filter, "topology_host", &n);
	if (rc == 0)
		out->smt = n >= 1 || req->host;
	if (rc == 0)
		rc = query_first_traced_run(db, &out->filter, &out->trace_tag);
	if (rc)
		report_plan_release(out);
	return rc;
}

/* A list of n owned names, and the list. */
static void names_free(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* n groups (their labels and filters), and the list. */
static void groups_free(struct report_group *groups, size_t n)
{
	for (size_t i = 0; groups && i < n; i++) {
		free(groups[i].label);
		run_filter_release(&groups[i].filter);
	}
	free(groups);
}

void report_plan_release(struct report_plan *p)
{
	if (!p)
		return;
	free(p->by);
	free(p->metric);
	names_free(p->group, p->ngroup);
	groups_free(p->groups, p->ngroups);
	names_free(p->memory_group, p->nmemory_group);
	groups_free(p->memory_groups, p->nmemory_groups);
	free(p->translate_from);
	free(p->translate_to);
	free(p->trace_tag);
	free(p->references_note);
	run_filter_release(&p->filter);
	memset(p, 0, sizeof(*p));
}
