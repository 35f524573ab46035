/* cmd_noise: `coreplan noise`, block agreement, order, bursts, soaks and a verdict. */
#include "cmd.h"
#include "common.h"
#include "opt.h"

#include "../analysis/noise.h"
#include "../analysis/select.h"
#include "../common/err.h"
#include "../common/num.h"
#include "../common/strbuf.h"
#include "../reports/table_out.h"
#include "../schema/db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_BY = COMMON_COUNT, OPT_BLOCK, OPT_GROUP, OPT_VIEW, OPT_BURST, OPT_RANGE, OPT_DRIFT };

static const struct opt_spec specs[] = {
	COMMON_SPECS,
	[OPT_BY] = {"by", 0, "FIELD", "the level field (required), e.g. gomaxprocs or sessions",
		    false},
	[OPT_BLOCK] = {"block", 0, "FIELD", "the block field (default block)", false},
	[OPT_GROUP] = {"group", 0, "F1[,F2...]",
		       "analyse each combination of these fields separately (e.g. target,cfg)",
		       false},
	[OPT_VIEW] = {"view", 0, "V",
		      "only this table: levels, cells, drift, order, bursts, soaks or verdict "
		      "(default: md prints all, other formats levels)",
		      false},
	[OPT_BURST] = {"burst-factor", 0, "X",
		       "a first run this many times the later runs' median is a burst (1.5)",
		       false},
	[OPT_RANGE] = {"range-pct", 0, "P",
		       "largest range_pct of a resolved level, in % (default 5)", false},
	[OPT_DRIFT] = {"drift-pct", 0, "P",
		       "mean block deviation beyond which a one-signed block drifts (1)", false},
	{NULL, 0, NULL, NULL, false},
};

static const char details[] =
	"Within each group (--group), over the non-excluded runs the filter selects:\n"
	"  cells    each block's value at each level (median of its runs there),\n"
	"           deviation_pct = (value / level median - 1) * 100, and the level's\n"
	"           position in the block's time order\n"
	"  levels   n, median, min, max, range_pct = (max - min) / median * 100, the\n"
	"           largest |deviation_pct|, and whether the level is within noise\n"
	"  drift    per block: mean, min and max deviation; 'high'/'low' when all of\n"
	"           at least 2 deviations have one sign and |mean| > --drift-pct\n"
	"  order    per block: levels in time order (generator start time, else the\n"
	"           results-table row order); counterbalanced when no level holds\n"
	"           the same position in two blocks\n"
	"  bursts   the first run of each level in time against the median of the\n"
	"           level's later runs; a burst when ratio >= --burst-factor (1.5)\n"
	"  soaks    a (level, block) with 3 or more runs: the first run against the\n"
	"           median of the rest (the sustained figure), and the rest's range\n"
	"  verdict  resolved when every level's range_pct <= --range-pct (5) and no\n"
	"           two neighbouring levels' [min, max] overlap; else within-noise,\n"
	"           naming the levels\n"
	"\n"
	"examples:\n"
	"  coreplan noise --by gomaxprocs --where block=1,2,3\n"
	"  coreplan noise --by sessions --group target,cfg --where block=1,2,3,soak\n";

enum view { VIEW_LEVELS, VIEW_CELLS, VIEW_DRIFT, VIEW_ORDER, VIEW_BURSTS, VIEW_SOAKS,
	    VIEW_VERDICT, NVIEWS };
static const char *const view_names[NVIEWS] = {"levels", "cells", "drift", "order",
					       "bursts", "soaks", "verdict"};
static const char *const view_titles[NVIEWS] = {
	"Levels", "Blocks at each level", "Block drift", "Run order", "First-run bursts",
	"Soaks (repeated runs of one cell)", "Verdict"};

struct args {
	struct common_args common;
	const char *by;
	const char *block;
	char **group;
	size_t ngroup;
	enum view view;
	bool view_given;
	struct noise_options opts;
};

static int parse_positive(const char *name, const char *value, double *out)
{
	if (num_parse_real(value, out) || !(*out > 0))
		return err_usage("--%s needs a number above 0, got '%s'", name, value);
	return 0;
}

static int parse_args(int argc, char **argv, struct args *a)
{
	static const struct opt_cmd cmd = {"noise", NULL, details, specs};
	struct opt_parser p;
	const char *value;
	int which;
	int rc = opt_parser_init(&p, &cmd, argc, argv);
	while (rc == 0 && (rc = opt_next(&p, &which, &value)) == OPT_FOUND) {
		rc = 0;
		if (which < COMMON_COUNT)
			rc = common_opt(&a->common, which, value);
		else if (which == OPT_BY)
			a->by = value;
		else if (which == OPT_BLOCK)
			a->block = value;
		else if (which == OPT_GROUP)
			rc = common_split_list("group", value, &a->group, &a->ngroup);
		else if (which == OPT_BURST)
			rc = parse_positive("burst-factor", value, &a->opts.burst_factor);
		else if (which == OPT_RANGE)
			rc = parse_positive("range-pct", value, &a->opts.range_pct);
		else if (which == OPT_DRIFT)
			rc = parse_positive("drift-pct", value, &a->opts.drift_pct);
		else if (which == OPT_VIEW) {
			int v = 0;
			rc = common_parse_choice("view", value, view_names, NVIEWS, &v);
			a->view = (enum view)v;
			a->view_given = true;
		}
	}
	if (rc == OPT_DONE && p.noperands > 0)
		rc = err_usage("unexpected argument '%s'", p.operands[0]);
	if (rc == OPT_DONE && !a->by)
		rc = err_usage("--by FIELD is required");
	opt_parser_release(&p);
	return rc;
}

/* Builds one table; `f` decides number formatting. */
typedef int (*table_fn)(const struct noise *nz, enum out_format f, struct out_table **out);

#define NUM(v, style, prec) common_num((v), f, (style), (prec), b[k++ % 16])

static struct out_table *new_table(const char *const *cols, size_t n, size_t ntext)
{
	struct out_table *t = out_table_new(n, cols);
	for (size_t i = ntext; t && i < n; i++)
		out_table_set_kind(t, i, OUT_NUM);
	return t;
}

static int levels_table(const struct noise *nz, enum out_format f, struct out_table **out)
{
	static const char *const cols[] = {"group", "verdict", "level", "n", "median", "min",
					   "max", "range_pct", "max_block_dev_pct"};
	struct out_table *t = new_table(cols, 9, 2);
	char b[16][32], nbuf[24];
	int rc = t ? 0 : err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < nz->nlevels; i++) {
		const struct noise_level *lv = &nz->levels[i];
		size_t k = 0;
		const char *cells[9];
		snprintf(nbuf, sizeof(nbuf), "%zu", lv->s.n);
		cells[0] = lv->group;
		cells[1] = lv->within_noise ? "within-noise" : "resolved";
		cells[2] = NUM(lv->level, 'g', 6);
		cells[3] = nbuf;
		cells[4] = NUM(lv->s.median, 'g', 6);
		cells[5] = NUM(lv->s.min, 'g', 6);
		cells[6] = NUM(lv->s.max, 'g', 6);
		cells[7] = NUM(lv->s.range_pct, 'f', 2);
		cells[8] = NUM(lv->max_abs_dev_pct, 'f', 2);
		rc = out_table_add_row(t, cells);
	}
	*out = t;
	return rc;
}

static int cells_table(const struct noise *nz, enum out_format f, struct out_table **out)
{
	static const char *const cols[] = {"group", "block", "level", "n", "value",
					   "deviation_pct", "position"};
	struct out_table *t = new_table(cols, 7, 2);
	char b[16][32], nbuf[24], pbuf[24];
	int rc = t ? 0 : err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < nz->ncells; i++) {
		const struct noise_cell *c = &nz->cells[i];
		size_t k = 0;
		const char *cells[7];
		snprintf(nbuf, sizeof(nbuf), "%zu", c->n);
		snprintf(pbuf, sizeof(pbuf), "%zu", c->position);
		cells[0] = c->group;
		cells[1] = c->block;
		cells[2] = NUM(c->level, 'g', 6);
		cells[3] = nbuf;
		cells[4] = NUM(c->value, 'g', 6);
		cells[5] = NUM(c->deviation_pct, 'f', 2);
		cells[6] = pbuf;
		rc = out_table_add_row(t, cells);
	}
	*out = t;
	return rc;
}

static int drift_table(const struct noise *nz, enum out_format f, struct out_table **out)
{
	static const char *const cols[] = {"group", "block", "drift", "levels", "mean_dev_pct",
					   "min_dev_pct", "max_dev_pct"};
	struct out_table *t = new_table(cols, 7, 3);
	char b[16][32], nbuf[24];
	int rc = t ? 0 : err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < nz->ndrifts; i++) {
		const struct noise_drift *d = &nz->drifts[i];
		size_t k = 0;
		const char *cells[7];
		snprintf(nbuf, sizeof(nbuf), "%zu", d->nlevels);
		cells[0] = d->group;
		cells[1] = d->block;
		cells[2] = d->drift;
		cells[3] = nbuf;
		cells[4] = NUM(d->mean_dev_pct, 'f', 2);
		cells[5] = NUM(d->min_dev_pct, 'f', 2);
		cells[6] = NUM(d->max_dev_pct, 'f', 2);
		rc = out_table_add_row(t, cells);
	}
	*out = t;
	return rc;
}

static int order_table(const struct noise *nz, enum out_format f, struct out_table **out)
{
	static const char *const cols[] = {"group", "block", "levels_in_order", "ordered_by"};
	struct out_table *t = new_table(cols, 4, 4);
	int rc = t ? 0 : err_set("out of memory");
	(void)f;
	for (size_t i = 0; rc == 0 && i < nz->norders; i++) {
		const struct noise_order *o = &nz->orders[i];
		const char *cells[4] = {o->group, o->block, o->levels,
					o->timed ? "start time" : "results-table row"};
		rc = out_table_add_row(t, cells);
	}
	*out = t;
	return rc;
}

static int bursts_table(const struct noise *nz, enum out_format f, struct out_table **out)
{
	static const char *const cols[] = {"group", "tag", "burst", "level", "first",
					   "later_median", "later_n", "ratio"};
	struct out_table *t = new_table(cols, 8, 3);
	char b[16][32], nbuf[24];
	int rc = t ? 0 : err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < nz->nbursts; i++) {
		const struct noise_burst *x = &nz->bursts[i];
		size_t k = 0;
		const char *cells[8];
		snprintf(nbuf, sizeof(nbuf), "%zu", x->later_n);
		cells[0] = x->group;
		cells[1] = x->tag;
		cells[2] = x->burst ? "burst" : "no";
		cells[3] = NUM(x->level, 'g', 6);
		cells[4] = NUM(x->value, 'g', 6);
		cells[5] = NUM(x->later_median, 'g', 6);
		cells[6] = nbuf;
		cells[7] = NUM(x->ratio, 'f', 2);
		rc = out_table_add_row(t, cells);
	}
	*out = t;
	return rc;
}

static int soaks_table(const struct noise *nz, enum out_format f, struct out_table **out)
{
	static const char *const cols[] = {"group", "block", "first_tag", "level", "n", "first",
					   "sustained_median", "ratio", "sustained_min",
					   "sustained_max", "sustained_range_pct"};
	struct out_table *t = new_table(cols, 11, 3);
	char b[16][32], nbuf[24];
	int rc = t ? 0 : err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < nz->nsoaks; i++) {
		const struct noise_soak *s = &nz->soaks[i];
		size_t k = 0;
		const char *cells[11];
		snprintf(nbuf, sizeof(nbuf), "%zu", s->n);
		cells[0] = s->group;
		cells[1] = s->block;
		cells[2] = s->first_tag;
		cells[3] = NUM(s->level, 'g', 6);
		cells[4] = nbuf;
		cells[5] = NUM(s->first, 'g', 6);
		cells[6] = NUM(s->sustained.median, 'g', 6);
		cells[7] = NUM(s->ratio, 'f', 2);
		cells[8] = NUM(s->sustained.min, 'g', 6);
		cells[9] = NUM(s->sustained.max, 'g', 6);
		cells[10] = NUM(s->sustained.range_pct, 'f', 2);
		rc = out_table_add_row(t, cells);
	}
	*out = t;
	return rc;
}

static int verdict_table(const struct noise *nz, enum out_format f, struct out_table **out)
{
	static const char *const cols[] = {"group", "verdict", "within_noise_levels",
					   "counterbalanced", "order_note", "bursts",
					   "max_range_pct", "max_block_dev_pct"};
	struct out_table *t = new_table(cols, 8, 5);
	char b[16][32], nbuf[24];
	int rc = t ? 0 : err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < nz->nverdicts; i++) {
		const struct noise_verdict *v = &nz->verdicts[i];
		size_t k = 0;
		const char *cells[8];
		snprintf(nbuf, sizeof(nbuf), "%zu", v->nbursts);
		cells[0] = v->group;
		cells[1] = v->resolved ? "resolved" : "within-noise";
		cells[2] = v->within_noise;
		cells[3] = v->counterbalanced ? "yes" : "no";
		cells[4] = v->counterbalance_note;
		cells[5] = nbuf;
		cells[6] = NUM(v->max_range_pct, 'f', 2);
		cells[7] = NUM(v->max_abs_dev_pct, 'f', 2);
		rc = out_table_add_row(t, cells);
	}
	*out = t;
	return rc;
}

static const table_fn tables[NVIEWS] = {levels_table, cells_table,  drift_table,  order_table,
					bursts_table, soaks_table, verdict_table};

static int print_view(const struct noise *nz, enum view v, enum out_format f)
{
	struct out_table *t = NULL;
	int rc = tables[v](nz, f, &t);
	if (rc == 0) {
		out_table_hide_empty_md(t, true);
		rc = out_table_write(t, f, stdout);
	}
	out_table_free(t);
	return rc;
}

static int print_all_md(const struct noise *nz, const struct args *a, const struct selection *sel)
{
	int rc = 0;
	printf("%zu runs; level %s, metric %s, block %s%s%s\n", sel->n, a->by,
	       a->common.metric, a->block ? a->block : "block",
	       a->ngroup ? ", grouped by " : "", a->ngroup ? "--group fields" : "");
	static const enum view md_order[] = {VIEW_VERDICT, VIEW_LEVELS, VIEW_CELLS, VIEW_DRIFT,
					     VIEW_ORDER,   VIEW_BURSTS, VIEW_SOAKS};
	for (size_t i = 0; rc == 0 && i < sizeof(md_order) / sizeof(md_order[0]); i++) {
		enum view v = md_order[i];
		printf("\n### %s\n\n", view_titles[v]);
		if (v == VIEW_SOAKS && nz->nsoaks == 0)
			printf("none: no level has 3 or more runs in one block\n");
		else if (v == VIEW_BURSTS && nz->nbursts == 0)
			printf("none: no level has 2 or more runs\n");
		else
			rc = print_view(nz, v, OUT_MD);
	}
	if (rc == 0)
		printf("\nthresholds: range %.2f%%, burst factor %.2fx, drift %.2f%%; definitions: "
		       "`coreplan noise --help`\n",
		       nz->opts.range_pct, nz->opts.burst_factor, nz->opts.drift_pct);
	return rc;
}

int cmd_noise(int argc, char **argv, const struct global_opts *g)
{
	struct args a;
	struct selection sel = {0};
	struct noise nz = {0};
	sqlite3 *db = NULL;
	int rc;
	memset(&a, 0, sizeof(a));
	common_args_init(&a.common);
	noise_options_init(&a.opts);
	rc = parse_args(argc, argv, &a);
	if (rc == OPT_HELP_SHOWN) {
		rc = 0;
		goto done;
	}
	if (rc)
		goto done;
	rc = db_open(g->db_path, true, &db);
	if (rc == 0) {
		struct select_spec spec = {.filter = &a.common.filter,
					   .by = a.by,
					   .metric = a.common.metric,
					   .block = a.block ? a.block : "block",
					   .group = (const char *const *)a.group};
		rc = select_runs(db, &spec, &sel);
	}
	if (rc == 0) {
		rc = noise_compute(&sel, &a.opts, &nz);
		if (rc)
			common_print_left_out(&sel, OUT_TSV); /* say what the filter did find */
	}
	if (rc == 0)
		rc = a.common.format == OUT_MD && !a.view_given ? print_all_md(&nz, &a, &sel)
					       : print_view(&nz, a.view, a.common.format);
	if (rc == 0)
		common_print_left_out(&sel, a.common.format);
done:
	noise_release(&nz);
	selection_release(&sel);
	db_close(db);
	common_free_list(a.group, a.ngroup);
	common_args_release(&a.common);
	return rc;
}
