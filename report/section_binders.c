/*
 * section_binders: the report's "What binds" section (compose.h): per
 * sweep group, `coreplan binders` over the group's runs at the report's
 * level field, and the findings on what binds, where errors start and
 * whether Little's law holds.
 */
#include "compose.h"

#include "../analysis/binders.h"
#include "../common/err.h"
#include "../reports/builders.h"

#include <stdint.h>
#include <string.h>

struct little_sum {
	size_t checked, fails;
};

static int binders_group(struct report_ctx *c, struct doc_section *s, const struct report_group *g,
			 size_t index, bool bare, struct little_sum *little)
{
	struct binders_request req;
	struct binders_result res;
	struct doc *d = NULL;
	char anchor[96];
	struct report_part part;
	int rc = 0;
	report_group_part(&part, g, "binders", bare);
	memset(&req, 0, sizeof(req));
	req.filter = &g->filter;
	req.by = c->plan.by;
	req.metric = c->plan.metric;
	req.host = c->req->host;
	binders_options_init(&req.opts);
	cores_options_init(&req.cores);
	report_anchor(BINDERS_TITLE, anchor);
	if (binders_run(c->db, &req, &res) != 0) {
		report_failed(c, s, part.name, part.head);
		return 0;
	}
	if ((rc = build_binders(&req, &res, &d)) == 0) {
		bool primary = c->primary_runs && index == c->primary_index;
		report_embed(c, s, part.name, part.head, d);
		rc = findings_binders(&c->findings, &res.b, c->plan.by, "p50_ms", g->label, anchor,
				      anchor, primary);
	}
	little->checked += res.b.little_checked;
	little->fails += res.b.little_fails;
	binders_result_release(&res);
	return rc;
}

int report_binders_section(struct report_ctx *c)
{
	struct doc_section *s = report_section(c, "binders", BINDERS_TITLE);
	struct little_sum little = {0, 0};
	char anchor[96];
	int rc = 0;
	if (!c->plan.by) {
		report_not_measured(c, s, "binders", "no sweep (no field with two or more levels)");
		return 0;
	}
	doc_text(s, "Per sweep group, each resource's use against its capacity at every level, "
		    "and the one that binds where throughput stops rising (`coreplan binders "
		    "--help`).");
	for (size_t i = 0; rc == 0 && i < c->plan.ngroups; i++)
		rc = binders_group(c, s, &c->plan.groups[i], i, c->plan.ngroups == 1, &little);
	report_anchor(BINDERS_TITLE, anchor);
	if (rc == 0)
		rc = findings_little(&c->findings, little.checked, little.fails, anchor);
	return rc;
}
