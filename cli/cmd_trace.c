/* cmd_trace: `coreplan trace TAG`, one run's trace rows with its windows marked. */
#include "cmd.h"
#include "common.h"
#include "opt.h"

#include "../analysis/cores.h"
#include "../common/err.h"
#include "../reports/builders.h"

static struct trace_request req;

static const struct opt_spec specs[] = {
	CLI_SPECS_OUTPUT,
	CLI_SPEC_CORPUS_HELP("the corpus, when the tag is in several"),
	OPT_STRING("subcorpus", "NAME", &req.subcorpus, "the sub-corpus (e.g. core), when needed"),
	OPT_DOUBLE("frac", "F", &req.opts.window.frac,
		   "plateau fraction (default 0.8), as in coreplan cores", OPT_GT(0), OPT_LE(1)),
	OPT_INT("trim", "N", &req.opts.window.trim,
		"plateau trim (default 1), as in coreplan cores", OPT_LE(100000)),
	OPT_FLAG("keep-ramp", &req.opts.window.keep_ramp,
		 "keep the leading ramp rows in the plateau, as in coreplan cores"),
	OPT_END,
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

static int check(struct cli_args *a)
{
	if (a->noperands != 1)
		return err_usage("trace needs exactly one run TAG");
	req.tag = a->operands[0];
	req.corpus = a->filter.corpus;
	return 0;
}

CLI_ANALYSIS_RUN(run, req, struct trace_result, trace_run, build_trace, trace_result_release)

static void defaults(void)
{
	cores_options_init(&req.opts);
}

const struct cli_def cli_trace = {
	.cmd = {"trace", "TAG", details, specs, build_trace_views},
	.db = CLI_DB_READ,
	CLI_REQUEST(req),
	.defaults = defaults,
	.check = check,
	.run = run,
};
