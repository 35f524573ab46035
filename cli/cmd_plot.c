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

enum {
	OPT_BY = CLI_ANALYSIS_COUNT,
	OPT_BLOCK,
	OPT_TAG,
	OPT_HOST,
	OPT_GROUP,
	OPT_OUT,
	OPT_FORCE,
	OPT_WORKERS
};

static const struct opt_spec specs[] = {
	CLI_SPECS_ANALYSIS,
	[OPT_BY] = {"by", 0, "FIELD", "the level field (scaling, blocks, memory)", false},
	[OPT_BLOCK] = {"block", 0, "FIELD", "the block field (blocks; default block)", false},
	[OPT_TAG] = {"tag", 0, "TAG", "the run (trace)", false},
	[OPT_HOST] = {"host", 0, "NAME",
		      "scaling: count levels on this recorded host (default: the runs' "
		      "topology_host)",
		      false},
	[OPT_GROUP] = {"group", 0, "F1[,F2...]",
		       "memory: one line per combination of these fields, as `coreplan memory "
		       "--group` fits them",
		       false},
	[OPT_OUT] = {"out", 0, "FILE",
		     "the image, FILE ending in .svg or .png; its data FILE.tsv and script "
		     "FILE.gp are written beside it (e.g. x.svg, x.svg.tsv, x.svg.gp)",
		     .required = true},
	[OPT_FORCE] = {"force", 0, NULL,
		       "replace the image, data and script an earlier coreplan plot wrote there "
		       "(never a file coreplan did not write)",
		       false},
	[OPT_WORKERS] = {"workers", 0, "FIELD",
			 "scaling: FIELD counts workers (threads, cores, processes): speedup, "
			 "efficiency and "
			 "the SMT classification apply to it (fields known to count workers need "
			 "no flag)",
			 false},
	CLI_SPEC_POOL,
	{NULL, 0, NULL, NULL, false},
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
static const char *const views[] = {NULL};

static const char *const kinds[] = {"scaling", "blocks", "trace", "memory"};

struct plot_cmd {
	struct plot_request req;
	const char *out;
	char *dir, *name; /* of --out, owned */
	enum plot_format format;
	bool force;
	char **group; /* --group, owned */
};

static int option(void *request, int which, const char *value)
{
	struct plot_cmd *p = request;
	switch (which) {
	case OPT_BY:
		p->req.by = value;
		return 0;
	case OPT_BLOCK:
		p->req.block = value;
		return 0;
	case OPT_TAG:
		p->req.tag = value;
		return 0;
	case OPT_HOST:
		p->req.host = value;
		return 0;
	case OPT_WORKERS:
		p->req.workers = value;
		return 0;
	case OPT_GROUP: {
		int rc = cli_parse_list("group", value, &p->group);
		p->req.group = (const char *const *)p->group;
		return rc;
	}
	case OPT_OUT:
		p->out = value;
		return 0;
	case OPT_FORCE:
		p->force = true;
		return 0;
	}
	return 0;
}

/* DIR and NAME of FILE DIR/NAME.svg or DIR/NAME.png; the format from the extension. */
static int split_out(struct plot_cmd *p)
{
	const char *slash = strrchr(p->out, '/');
	const char *base = slash ? slash + 1 : p->out;
	const char *dot = strrchr(base, '.');
	if (!*base)
		return err_usage("--out needs a file name, got '%s'", p->out);
	if (!dot || dot == base || (strcmp(dot, ".svg") && strcmp(dot, ".png")))
		return err_usage("--out '%s' must end in .svg or .png (the image; its data and "
				 "script are written beside it as FILE.tsv and FILE.gp)",
				 p->out);
	if (outfile_name_check(base, "--out") != 0) {
		char why[512];
		snprintf(why, sizeof(why), "%s", err_msg());
		return err_usage("%s", why);
	}
	p->format = !strcmp(dot, ".png") ? PLOT_PNG : PLOT_SVG;
	p->dir = slash ? strndup(p->out, (size_t)(slash - p->out)) : strdup(".");
	p->name = strndup(base, (size_t)(dot - base));
	if (!p->dir || !p->name)
		return err_set("out of memory");
	if (!*p->dir) { /* --out /NAME.svg */
		free(p->dir);
		if (!(p->dir = strdup("/")))
			return err_set("out of memory");
	}
	return 0;
}

static int check(void *request, struct cli_args *a)
{
	struct plot_cmd *p = request;
	size_t k = 0;
	if (a->noperands != 1)
		return err_usage("plot needs one KIND (scaling, blocks, trace, memory or sizing)");
	if (!strcmp(a->operands[0], "sizing"))
		return err_usage("the sizing plot is drawn by `coreplan size ... --plot FILE`");
	while (k < 4 && strcmp(kinds[k], a->operands[0]))
		k++;
	if (k == 4)
		return err_usage(
			"unknown plot kind '%s' (scaling, blocks, trace, memory or sizing)",
			a->operands[0]);
	p->req.kind = (enum plot_kind)k;
	if (p->req.kind != PLOT_KIND_TRACE && !p->req.by)
		return err_usage("the %s plot needs --by FIELD", kinds[k]);
	if (p->req.kind == PLOT_KIND_TRACE && !p->req.tag)
		return err_usage("the trace plot needs --tag TAG");
	p->req.filter = &a->filter;
	p->req.metric = a->metric;
	return split_out(p);
}

static int run(sqlite3 *db, void *request, struct cli_args *a, struct doc **out)
{
	struct plot_cmd *p = request;
	struct plot_result res;
	struct strbuf context = STRBUF_INIT;
	char *image = NULL;
	int rc = plot_run(db, &p->req, &res);
	if (rc == 0)
		rc = plots_context(&a->filter, &context);
	if (rc == 0) {
		struct plot_target t = {
			p->dir, p->name, p->format, strbuf_str(&context), {NULL, p->force, false},
			NULL};
		rc = plots_draw(&t, &p->req, &res, &image);
	}
	if (rc == PLOT_NOT_INSTALLED)
		rc = err_set("gnuplot is not installed: apt-get install gnuplot-nox");
	if (rc == 0) {
		/* build_plot names the data and script NAME.tsv, NAME.gp after the image */
		struct plot_written files = {p->dir, image, image};
		rc = build_plot(&p->req, &res, &files, out);
	}
	free(image);
	strbuf_release(&context);
	plot_result_release(&res);
	return rc;
}

int cmd_plot(int argc, char **argv, const struct global_opts *g)
{
	static const struct cli_def def = {
		{"plot", "KIND", details, specs, views}, CLI_DB_READ, option, check, run};
	struct plot_cmd p;
	int rc;
	memset(&p, 0, sizeof(p));
	rc = cli_run(&def, &p, argc, argv, g);
	free(p.dir);
	free(p.name);
	cli_free_list(p.group);
	return rc;
}
