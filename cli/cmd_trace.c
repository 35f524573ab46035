/* cmd_trace: `coreplan trace TAG`, one run's trace rows with its windows marked. */
#include "cmd.h"
#include "common.h"
#include "opt.h"

#include "../analysis/cores.h"
#include "../common/err.h"
#include "../reports/builders.h"

#include <string.h>

enum { OPT_CORPUS = CLI_OUTPUT_COUNT, OPT_SUBCORPUS, OPT_FRAC, OPT_TRIM, OPT_KEEP_RAMP };

static const struct opt_spec specs[] = {
	CLI_SPECS_OUTPUT,
	[OPT_CORPUS] = {"corpus", 0, "NAME", "the corpus, when the tag is in several", false,
			CLI_OPT_CORPUS},
	[OPT_SUBCORPUS] = {"subcorpus", 0, "NAME", "the sub-corpus (e.g. core), when needed",
			   false},
	[OPT_FRAC] = {"frac", 0, "F", "plateau fraction (default 0.8), as in coreplan cores",
		      false},
	[OPT_TRIM] = {"trim", 0, "N", "plateau trim (default 1), as in coreplan cores", false},
	[OPT_KEEP_RAMP] = {"keep-ramp", 0, NULL,
			   "keep the leading ramp rows in the plateau, as in coreplan cores",
			   false},
	{NULL, 0, NULL, NULL, false},
};

static const char details[] =
	"Every row of the run's trace, in file order, with:\n"
	"  app_cores   d(app_j) / (d(epoch) * clk_tck) since the previous row (empty\n"
	"              when the epoch did not advance)\n"
	"  window      'plateau' for rows in the window `coreplan cores` uses, 'driver'\n"
	"              for rows only in the driver's window file, 'both', or empty\n"
	"The plateau's first and last rows (1-based, as row_no), its rows, seconds and\n"
	"app_cores_wall are the facts plateau_first, plateau_last, plateau_rows,\n"
	"plateau_seconds and app_cores_wall (--view facts for tsv and csv).\n"
	"The rows are read from the database as they are written, one at a time, so\n"
	"a trace of any length takes the same memory (md reads the trace twice: the\n"
	"column widths first).\n";

static const char *const views[] = {"rows", NULL};

/* A number in (0, 1]. */
static int fraction(const char *option, const char *value, double *out)
{
	if (cli_parse_number(option, value, 0, 1, out) || !(*out > 0))
		return err_usage("--%s needs a number in (0, 1], got '%s'", option, value);
	return 0;
}

static int option(void *request, int which, const char *value)
{
	struct trace_request *req = request;
	int64_t n;
	int rc;
	switch (which) {
	case OPT_SUBCORPUS:
		req->subcorpus = value;
		return 0;
	case OPT_FRAC:
		return fraction("frac", value, &req->opts.window.frac);
	case OPT_KEEP_RAMP:
		req->opts.window.keep_ramp = true;
		return 0;
	case OPT_TRIM:
		rc = cli_parse_whole("trim", value, 0, 100000, &n);
		if (rc == 0)
			req->opts.window.trim = (size_t)n;
		return rc;
	}
	return 0;
}

static int check(void *request, struct cli_args *a)
{
	struct trace_request *req = request;
	if (a->noperands != 1)
		return err_usage("trace needs exactly one run TAG");
	req->tag = a->operands[0];
	req->corpus = a->filter.corpus;
	return 0;
}

static int run(sqlite3 *db, void *request, struct cli_args *a, struct doc **out)
{
	struct trace_request *req = request;
	struct trace_result res;
	int rc = trace_run(db, req, &res);
	(void)a;
	if (rc == 0)
		rc = build_trace(req, &res, out);
	trace_result_release(&res);
	return rc;
}

int cmd_trace(int argc, char **argv, const struct global_opts *g)
{
	static const struct cli_def def = {
		{"trace", "TAG", details, specs, views}, CLI_DB_READ, option, check, run};
	struct trace_request req;
	memset(&req, 0, sizeof(req));
	cores_options_init(&req.opts);
	return cli_run(&def, &req, argc, argv, g);
}
