/* cmd_plot: `coreplan plot KIND`, one plot alone. */
#include "cmd.h"
#include "common.h"
#include "opt.h"

#include "../analysis/plot_runs.h"
#include "../common/err.h"
#include "../common/outfile.h"
#include "../common/strbuf.h"
#include "../plot/plots.h"
#include "../reports/builders.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct plot_request req;
static const char *out_file; /* --out */
static bool force;
static char *dir, *name; /* of --out, owned */
static enum plot_format format;

static const struct opt_spec specs[] = {
	CLI_SPECS_ANALYSIS,
	OPT_STRING("by", "FIELD", &req.by, "the level field (scaling, blocks, memory)"),
	OPT_STRING("block", "FIELD", &req.block, "the block field (blocks; default block)"),
	OPT_STRING("tag", "TAG", &req.tag, "the run (trace)"),
	OPT_STRING(
		"host", "NAME", &req.host,
		"scaling: count levels on this recorded host (default: the runs' topology_host)"),
	CLI_SPEC_GROUP("memory: one line per combination of these fields, as `coreplan memory "
		       "--group` fits them"),
	OPT_STRING("out", "FILE", &out_file,
		   "the image, FILE ending in .svg or .png; its data FILE.tsv and script FILE.gp "
		   "are written beside it (e.g. x.svg, x.svg.tsv, x.svg.gp)",
		   .required = true),
	OPT_FLAG("force", &force,
		 "replace the image, data and script an earlier coreplan plot wrote there "
		 "(never a file coreplan did not write)"),
	OPT_STRING("workers", "FIELD", &req.workers,
		   "scaling: FIELD counts workers (threads, cores, processes): speedup, efficiency "
		   "and the SMT classification apply to it (fields known to count workers need no "
		   "flag)"),
	CLI_SPEC_POOL,
	OPT_END,
};

static const char details[] =
	"KIND is one of:\n"
	"  scaling  per-level medians with min-max bars, ideal linear from the base\n"
	"           level, fitted power law (--by). When --by counts workers and the\n"
	"           runs' host is known (--host, else their topology_host), the levels\n"
	"           beyond its physical cores are shaded and drawn as their own series\n"
	"           (SMT siblings; beyond the logical CPUs), and the power law is\n"
	"           fitted over the physical-core levels' runs only (the title and the\n"
	"           facts host, physical_cores and power_levels say so)\n"
	"  blocks   each run's value per level, one colour per block (--by, --block)\n"
	"  trace    a run's app cores and RSS over time, plateau window shaded (--tag)\n"
	"  memory   the metric (default load_rss_kb) against --by: the runs, the OLS\n"
	"           line and its 95% confidence band, one colour per group of\n"
	"           `coreplan memory` with the same --group (runs that differ in more\n"
	"           than the level are refused as memory refuses them: --group F)\n"
	"  sizing   use `coreplan size ... --plot FILE` (the sizing inputs are size's)\n"
	"gnuplot draws it (SVG, or PNG when --out ends in .png); the script and data\n"
	"file beside the image re-plot it: cd DIR && gnuplot NAME.svg.gp\n"
	"\n"
	"Files: --out DIR/NAME.svg writes DIR/NAME.svg, DIR/NAME.svg.tsv (the data)\n"
	"and DIR/NAME.svg.gp (the script), names that cannot collide with the image's\n"
	"siblings, and records them in DIR/.coreplan-outputs. They are drawn in a\n"
	"temporary folder inside DIR and moved into place only when gnuplot succeeded,\n"
	"so a failed plot leaves DIR as it was. A file already at one of the three\n"
	"names is an error naming it, left untouched: --force replaces only files an\n"
	"earlier coreplan plot wrote (listed in .coreplan-outputs, unchanged since),\n"
	"never another file, and a symbolic link there is never followed. DIR must\n"
	"exist; a NAME starting with '|' or '<' (gnuplot's pipes) or holding a\n"
	"control character is refused.\n"
	"\n"
	"The result names the files written: the facts kind, image, data and script\n"
	"(--format tsv prints the facts).\n";

/* No table: the document is its facts. */

static const char *const kinds[] = {"scaling", "blocks", "trace", "memory", NULL};

/* DIR and NAME of FILE DIR/NAME.svg or DIR/NAME.png; the format from the extension. */
static int split_out(void)
{
	const char *slash = strrchr(out_file, '/');
	const char *base = slash ? slash + 1 : out_file;
	const char *dot = strrchr(base, '.');
	if (!*base)
		return err_usage("--out needs a file name, got '%s'", out_file);
	if (!dot || dot == base || (strcmp(dot, ".svg") && strcmp(dot, ".png")))
		return err_usage("--out '%s' must end in .svg or .png (the image; its data and "
				 "script are written beside it as FILE.tsv and FILE.gp)",
				 out_file);
	if (outfile_name_check(base, "--out") != 0) {
		char why[512];
		snprintf(why, sizeof(why), "%s", err_msg());
		return err_usage("%s", why);
	}
	format = !strcmp(dot, ".png") ? PLOT_PNG : PLOT_SVG;
	dir = slash ? strndup(out_file, (size_t)(slash - out_file)) : strdup(".");
	name = strndup(base, (size_t)(dot - base));
	if (!dir || !name)
		return err_set("out of memory");
	if (!*dir) { /* --out /NAME.svg */
		free(dir);
		if (!(dir = strdup("/")))
			return err_set("out of memory");
	}
	return 0;
}

static int check(struct cli_args *a)
{
	size_t k = 0;
	if (a->noperands != 1)
		return err_usage("plot needs one KIND (scaling, blocks, trace, memory or sizing)");
	if (!strcmp(a->operands[0], "sizing"))
		return err_usage("the sizing plot is drawn by `coreplan size ... --plot FILE`");
	while (kinds[k] && strcmp(kinds[k], a->operands[0]))
		k++;
	if (!kinds[k])
		return err_usage(
			"unknown plot kind '%s' (scaling, blocks, trace, memory or sizing)",
			a->operands[0]);
	req.kind = (enum plot_kind)k;
	if (req.kind != PLOT_KIND_TRACE && !req.by)
		return err_usage("the %s plot needs --by FIELD", kinds[k]);
	if (req.kind == PLOT_KIND_TRACE && !req.tag)
		return err_usage("the trace plot needs --tag TAG");
	req.group = strvec_list(&a->group);
	req.filter = &a->filter;
	return split_out();
}

static int run(sqlite3 *db, struct cli_args *a, struct doc **doc)
{
	struct plot_result res;
	struct strbuf context = STRBUF_INIT;
	char *image = NULL;
	int rc = plot_run(db, &req, &res);
	if (rc == 0)
		rc = plots_context(&a->filter, &context);
	if (rc == 0) {
		struct plot_target t = {
			dir, name, format, strbuf_str(&context), {NULL, force, false}, NULL};
		rc = plots_draw(&t, &req, &res, &image);
	}
	if (rc == PLOT_NOT_INSTALLED)
		rc = err_set("gnuplot is not installed: apt-get install gnuplot-nox");
	if (rc == 0) {
		/* build_plot names the data and script NAME.tsv, NAME.gp after the image */
		struct plot_written files = {dir, image, image};
		rc = build_plot(&req, &res, &files, doc);
	}
	free(image);
	strbuf_release(&context);
	plot_result_release(&res);
	return rc;
}

static void defaults(void)
{
	out_file = NULL;
	force = false;
}

/* --out's folder and name, split by check() */
static void release(void)
{
	free(dir);
	free(name);
	dir = name = NULL;
}

const struct cli_def cli_plot = {
	.cmd = {"plot", "KIND", details, specs, build_plot_views, kinds},
	.db = CLI_DB_READ,
	CLI_REQUEST(req),
	.metric = &req.metric, /* filled after --metric's default (a tool's own) */
	.defaults = defaults,
	.check = check,
	.run = run,
	.release = release,
};
