/* cmd_translate: `coreplan translate`, carry figures from one CPU to another. */
#include "cmd.h"
#include "common.h"
#include "opt.h"

#include "../analysis/translate.h"
#include "../common/err.h"
#include "../importers/table.h"
#include "../reports/builders.h"

#include <stdlib.h>
#include <string.h>

enum { OPT_FROM = CLI_ANALYSIS_COUNT, OPT_TO, OPT_APPLY, OPT_SEED };

static const struct opt_spec specs[] = {
	CLI_SPECS_ANALYSIS,
	[OPT_FROM] = {"from", 0, "WHERE",
		      "runs on the CPU figures were measured on, e.g. 'subcorpus=m1'", .required = true},
	[OPT_TO] = {"to", 0, "WHERE", "runs of the same workload on the other CPU", .required = true},
	[OPT_APPLY] = {"apply", 0, "FILE",
		       "translate a table of figures (columns value, unit; name optional)", false},
	[OPT_SEED] = {"seed", 0, "S", "bootstrap random seed (default 1)", false},
	{NULL, 0, NULL, NULL, false},
};

static const char details[] =
	"Paired runs of the same workload on two CPUs give:\n"
	"  rate        factor = from / to of the metric (default tput): a from-rate\n"
	"              divided by it is a to-rate, a from-time multiplied by it a\n"
	"              to-time; on medians (bootstrap 95% interval, 10,000 resamples,\n"
	"              seeded) and on means (no interval), so a figure quoted elsewhere\n"
	"              can be matched to its statistic\n"
	"  cpu_per_op  cpu_s / interactions per run (as each corpus records cpu_s),\n"
	"              factor = to / from\n"
	"  idle_rss, load_rss  factor = to / from; memory is multiplied by it\n"
	"range_lo, range_hi: the ratios of the two arms' range ends. Each factor and\n"
	"its interval are also facts (rate_median_factor, rate_median_ci_lo, ...).\n"
	"\n"
	"--apply FILE reads a headed TSV/CSV of figures measured on the from-CPU,\n"
	"with columns value and unit (a rate such as int/s or qps, a time such as ms\n"
	"or us, a memory size such as kB or MiB) and optionally name, and translates\n"
	"each with the median factor and its interval, labelled `translated` (the\n"
	"view applied): rates divided by the rate factor, times multiplied by it,\n"
	"memory multiplied by the loaded-RSS factor.\n"
	"\n"
	"example:\n"
	"  coreplan translate --from subcorpus=m1 --to subcorpus=core\n"
	"  coreplan translate --from subcorpus=m1 --to subcorpus=core --apply f.tsv --view "
	"applied\n";

static const char *const views[] = {"factors", "applied", NULL};

/* The request and what --apply's file was read into (owned here, freed after the run). */
struct request {
	struct translate_request req;
	const char *apply;
	struct table in;
	struct translate_item *items;
};

static int option(void *request, int which, const char *value)
{
	struct request *r = request;
	int64_t seed;
	int rc;
	switch (which) {
	case OPT_FROM:
		r->req.from = value;
		return 0;
	case OPT_TO:
		r->req.to = value;
		return 0;
	case OPT_APPLY:
		r->apply = value;
		return 0;
	case OPT_SEED:
		rc = cli_parse_whole("seed", value, 0, INT64_MAX, &seed);
		if (rc == 0)
			r->req.seed = (uint64_t)seed;
		return rc;
	}
	return 0;
}

/* --apply's table into items: name (optional), value and unit, with their places. */
static int read_items(struct request *r)
{
	int cv, cu, cn;
	int rc = table_read(r->apply, r->apply, TABLE_SNIFF, &r->in);
	if (rc)
		return rc;
	cv = table_col(&r->in, "value");
	cu = table_col(&r->in, "unit");
	cn = table_col(&r->in, "name");
	if (cv < 0 || cu < 0)
		return err_at(r->apply, 1, 0, "needs columns 'value' and 'unit'");
	if (r->in.nrows && !(r->items = calloc(r->in.nrows, sizeof(*r->items))))
		return err_set("out of memory");
	for (size_t i = 0; i < r->in.nrows; i++) {
		char **row = r->in.cells[i];
		r->items[i] = (struct translate_item){cn >= 0 ? row[cn] : NULL, row[cv], row[cu],
						      r->in.lines[i],           cv + 1,  cu + 1};
	}
	r->req.items = r->items;
	r->req.nitems = r->in.nrows;
	r->req.items_path = r->apply;
	return 0;
}

static int check(void *request, struct cli_args *a)
{
	struct request *r = request;
	r->req.filter = &a->filter;
	r->req.metric = a->metric;
	return r->apply ? read_items(r) : 0;
}

static int run(sqlite3 *db, void *request, struct cli_args *a, struct doc **out)
{
	struct request *r = request;
	struct translate_result res;
	int rc = translate_run(db, &r->req, &res);
	(void)a;
	if (rc == 0)
		rc = build_translate(&r->req, &res, out);
	translate_result_release(&res);
	return rc;
}

int cmd_translate(int argc, char **argv, const struct global_opts *g)
{
	static const struct cli_def def = {
		{"translate", NULL, details, specs, views}, CLI_DB_READ, option, check, run};
	struct request r;
	int rc;
	memset(&r, 0, sizeof(r));
	r.req.seed = 1;
	rc = cli_run(&def, &r, argc, argv, g);
	free(r.items);
	table_release(&r.in);
	return rc;
}
