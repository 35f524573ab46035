/*
 * section_levers: the report's "Levers" section (section.h): `coreplan
 * levers` over the report's runs at its level field, one table per lever,
 * and the findings on what each lever is worth.
 */
#include "section.h"

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

int section_levers(struct report_ctx *c)
{
	const struct report_plan *plan = report_plan(c);
	struct levers_request req = {&plan->filter, plan->by, NULL};
	struct levers_result res;
	char anchor[96];
	size_t shown = 0;
	int rc = 0;
	report_heading(c, 2, REPORT_LEVERS_TITLE);
	report_anchor(REPORT_LEVERS_TITLE, anchor, sizeof(anchor));
	if (levers_run(report_db(c), &req, &res) != 0) {
		report_failed(c, "levers");
		return 0;
	}
	report_paragraph(c, "Each field that takes two or more values while the runs agree on "
			    "the rest, its values compared at every level both have (`coreplan "
			    "levers --help`); one table per lever.");
	for (size_t i = 0; rc == 0 && i < res.nfields; i++) {
		struct doc *d = NULL;
		char title[300], section[300];
		if (res.follows[i] || !has_pairs(&res.lv, res.fields[i]))
			continue;
		snprintf(title, sizeof(title), "Lever %s", res.fields[i]);
		snprintf(section, sizeof(section), "levers %s", res.fields[i]);
		report_heading(c, 3, title);
		rc = build_levers(&req, &res, res.fields[i], &d);
		if (rc == 0)
			rc = report_embed(c, section, d, 3);
		doc_free(d);
		shown++;
	}
	if (rc == 0 && shown == 0)
		report_not_measured(c, "levers",
				    "no field takes two or more values while the runs agree on the "
				    "rest");
	if (rc == 0)
		rc = findings_levers(report_findings(c), &res.lv, plan->by, "tput", anchor);
	levers_result_release(&res);
	return rc;
}
