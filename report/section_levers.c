/*
 * section_levers: the report's "Levers" section (compose.h): `coreplan
 * levers` over the report's runs at its level field, one table per lever,
 * and the findings on what each lever is worth.
 */
#include "compose.h"

#include "../analysis/levers.h"
#include "../common/err.h"
#include "../reports/builders.h"

#include <stdio.h>
#include <string.h>

/* Does the lever `field` have a pair in the result? */
static bool has_pairs(const struct levers *l, const char *field)
{
	for (size_t i = 0; i < l->npairs; i++)
		if (!strcmp(l->pairs[i].field, field))
			return true;
	return false;
}

int report_levers_section(struct report_ctx *c)
{
	struct doc_section *s = report_section(c, "levers", LEVERS_TITLE);
	struct levers_request req = {&c->plan.filter, c->plan.by, c->plan.metric};
	struct levers_result res;
	char anchor[96];
	size_t shown = 0;
	int rc = 0;
	report_anchor(LEVERS_TITLE, anchor);
	if (levers_run(c->db, &req, &res) != 0) {
		report_failed(c, s, "levers", NULL);
		return 0;
	}
	doc_text(s, "Each field that takes two or more values while the runs agree on the rest, "
		    "its values compared at every level both have (`coreplan levers --help`); one "
		    "table per lever.");
	for (size_t i = 0; rc == 0 && i < res.nfields; i++) {
		struct doc *d = NULL;
		char heading[300], name[300];
		if (res.follows[i] || !has_pairs(&res.lv, res.fields[i]))
			continue;
		snprintf(heading, sizeof(heading), "Lever %s", res.fields[i]);
		snprintf(name, sizeof(name), "levers %s", res.fields[i]);
		rc = build_levers(&req, &res, res.fields[i], &d);
		if (rc == 0)
			report_embed(c, s, name, heading, d);
		shown++;
	}
	if (rc == 0 && shown == 0)
		report_not_measured(c, s, "levers",
				    "no field takes two or more values while the runs agree on the "
				    "rest");
	if (rc == 0)
		rc = findings_levers(&c->findings, &res.lv, c->plan.by, c->plan.metric, anchor);
	levers_result_release(&res);
	return rc;
}
