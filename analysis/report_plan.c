/* report_plan: see report_plan.h. */
#include "report_plan.h"

#include "../common/err.h"
#include "../common/strbuf.h"
#include "../schema/queries.h"

#include <stdlib.h>
#include <string.h>

const char *const REPORT_GROUP_CANDIDATES[] = {"subcorpus", "target", "cfg", "store", "gogc",
					       "variant", "sessions", "gomaxprocs", NULL};

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

static int choose_by(sqlite3 *db, const struct report_plan_request *req, struct report_plan *p)
{
	static const char *const candidates[] = {"gomaxprocs", "sessions", NULL};
	size_t n;
	int rc = 0;
	if (req->by)
		return (p->by = strdup(req->by)) ? 0 : err_set("out of memory");
	for (size_t i = 0; rc == 0 && candidates[i] && !p->by; i++) {
		rc = count_values(db, req->filter, candidates[i], &n);
		if (rc == 0 && n >= 2 && !(p->by = strdup(candidates[i])))
			rc = err_set("out of memory");
	}
	return rc;
}

static int choose_groups(sqlite3 *db, const struct report_plan_request *req,
			 struct report_plan *p)
{
	size_t n;
	int rc = 0;
	/* an empty list, allocated, so group is never NULL */
	if (!(p->group = calloc(1, sizeof(*p->group))))
		return err_set("out of memory");
	if (req->group) {
		for (size_t i = 0; rc == 0 && req->group[i]; i++)
			rc = push(&p->group, &p->ngroup, req->group[i]);
		return rc;
	}
	for (size_t i = 0; rc == 0 && p->by && REPORT_GROUP_CANDIDATES[i]; i++) {
		if (!strcmp(REPORT_GROUP_CANDIDATES[i], p->by))
			continue;
		rc = count_values(db, req->filter, REPORT_GROUP_CANDIDATES[i], &n);
		if (rc == 0 && n >= 2)
			rc = push(&p->group, &p->ngroup, REPORT_GROUP_CANDIDATES[i]);
	}
	return rc;
}

/* One group: the report's filter AND field = value (or field missing, for "NA"). */
static int make_group(const struct report_plan_request *req, const struct report_plan *p,
		      char **values, struct report_group *g)
{
	struct strbuf label = STRBUF_INIT;
	int rc = run_filter_copy(&g->filter, req->filter);
	for (size_t k = 0; rc == 0 && k < p->ngroup; k++) {
		const char *v = values[k];
		/* query_combinations writes "NA" for a missing value */
		rc = !strcmp(v, "NA") ? run_filter_add_missing(&g->filter, p->group[k])
				      : run_filter_add(&g->filter, p->group[k], &v, 1);
		strbuf_addf(&label, "%s%s=%s", k ? " " : "", p->group[k], v);
	}
	g->label = strbuf_detach(&label);
	if (rc == 0 && !g->label)
		rc = err_set("out of memory");
	return rc;
}

static int split(sqlite3 *db, const struct report_plan_request *req, struct report_plan *p)
{
	struct text_list combos = {0};
	size_t ncombos = 1;
	int rc = 0;
	if (p->ngroup)
		rc = query_combinations(db, req->filter, (const char *const *)p->group, p->ngroup,
					&combos, &ncombos);
	if (rc)
		return rc;
	p->ngroups_found = ncombos;
	p->ngroups = ncombos < REPORT_MAX_GROUPS ? ncombos : REPORT_MAX_GROUPS;
	p->groups = calloc(p->ngroups ? p->ngroups : 1, sizeof(*p->groups));
	if (!p->groups)
		rc = err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < p->ngroups; i++)
		rc = make_group(req, p, p->ngroup ? combos.items + i * p->ngroup : NULL,
				&p->groups[i]);
	text_list_release(&combos);
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

int report_plan_make(sqlite3 *db, const struct report_plan_request *req, struct report_plan *out)
{
	size_t n;
	int rc;
	memset(out, 0, sizeof(*out));
	rc = run_filter_check(db, req->filter);
	if (rc == 0)
		rc = choose_by(db, req, out);
	if (rc == 0)
		rc = choose_groups(db, req, out);
	if (rc == 0)
		rc = split(db, req, out);
	if (rc == 0)
		rc = count_values(db, req->filter, "sessions", &n);
	if (rc == 0)
		out->memory = n >= 2;
	if (rc == 0)
		rc = count_values(db, req->filter, "topology_host", &n);
	if (rc == 0)
		out->smt = n >= 1;
	if (rc == 0)
		rc = choose_translation(db, req, out);
	if (rc == 0)
		rc = query_first_traced_run(db, req->filter, &out->trace_tag);
	if (rc)
		report_plan_release(out);
	return rc;
}

void report_plan_release(struct report_plan *p)
{
	if (!p)
		return;
	free(p->by);
	for (size_t i = 0; i < p->ngroup; i++)
		free(p->group[i]);
	free(p->group);
	for (size_t i = 0; p->groups && i < p->ngroups; i++) {
		free(p->groups[i].label);
		run_filter_release(&p->groups[i].filter);
	}
	free(p->groups);
	free(p->translate_from);
	free(p->translate_to);
	free(p->trace_tag);
	memset(p, 0, sizeof(*p));
}
