/*
 * section_binders: the report's "What binds" section (section.h): per
 * sweep group, `coreplan binders` over the group's runs at the report's
 * level field, and the findings on what binds, where errors start and
 * whether Little's law holds.
 */
#include "section.h"

#include "../analysis/binders.h"
#include "../common/err.h"
#include "../reports/builders.h"

#include <stdint.h>
#include <string.h>

struct little_sum {
	size_t checked, fails;
};

static int binders_group(struct report_ctx *c, const struct report_group *g, size_t index,
			 bool bare, struct little_sum *little)
{
	const struct report_plan *plan = report_plan(c);
	struct binders_request req;
	struct binders_result res;
	struct doc *d = NULL;
	char section[600], anchor[96];
	int rc = 0;
	int level = report_group_heading(c, g, section, sizeof(section), "binders", bare);
	memset(&req, 0, sizeof(req));
	req.filter = &g->filter;
	req.by = plan->by;
	req.host = report_request(c)->host;
	binders_options_init(&req.opts);
	cores_options_init(&req.cores);
	report_anchor(REPORT_BINDERS_TITLE, anchor, sizeof(anchor));
	if (binders_run(report_db(c), &req, &res) != 0) {
		report_failed(c, section);
		return 0;
	}
	rc = build_binders(&req, &res, &d);
	if (rc == 0)
		rc = report_embed(c, section, d, level);
	if (rc == 0)
		rc = findings_binders(report_findings(c), &res.b, plan->by, "p50_ms", g->label,
				      anchor, anchor, index == report_primary_group(c));
	little->checked += res.b.little_checked;
	little->fails += res.b.little_fails;
	doc_free(d);
	binders_result_release(&res);
	return rc;
}

int section_binders(struct report_ctx *c)
{
	const struct report_plan *plan = report_plan(c);
	struct little_sum little = {0, 0};
	char anchor[96];
	int rc = 0;
	report_heading(c, 2, REPORT_BINDERS_TITLE);
	if (!plan->by) {
		report_not_measured(c, "binders", "no sweep (no field with two or more levels)");
		return 0;
	}
	report_paragraph(c, "Per sweep group, each resource's use against its capacity at every "
			    "level, and the one that binds where throughput stops rising "
			    "(`coreplan binders --help`).");
	for (size_t i = 0; rc == 0 && i < plan->ngroups; i++)
		rc = binders_group(c, &plan->groups[i], i, plan->ngroups == 1, &little);
	report_anchor(REPORT_BINDERS_TITLE, anchor, sizeof(anchor));
	if (rc == 0)
		rc = findings_little(report_findings(c), little.checked, little.fails, anchor);
	return rc;
}
