/* cmd_plot: `coreplan plot KIND`, one plot alone. */
#include "cmd.h"
#include "common.h"
#include "opt.h"
#include "plots.h"

#include "../common/err.h"
#include "../common/strbuf.h"
#include "../schema/db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_BY = COMMON_COUNT, OPT_BLOCK, OPT_TAG, OPT_OUT };

static const struct opt_spec specs[] = {
	COMMON_SPECS,
	[OPT_BY] = {"by", 0, "FIELD", "the level field (scaling, blocks, memory)", false},
	[OPT_BLOCK] = {"block", 0, "FIELD", "the block field (blocks; default block)", false},
	[OPT_TAG] = {"tag", 0, "TAG", "the run (trace)", false},
	[OPT_OUT] = {"out", 0, "FILE",
		     "the image: FILE.svg (default) or FILE.png; FILE.gp and FILE.tsv are "
		     "written beside it",
		     false},
	{NULL, 0, NULL, NULL, false},
};

static const char details[] =
	"KIND is one of:\n"
	"  scaling  per-level medians with min-max bars, ideal linear from the base\n"
	"           level, fitted power law (--by)\n"
	"  blocks   each run's value per level, one colour per block (--by, --block)\n"
	"  trace    a run's app cores and RSS over time, plateau window shaded (--tag)\n"
	"  memory   the metric (default load_rss_kb) against --by with the OLS line and\n"
	"           its 95% confidence band\n"
	"  sizing   use `coreplan size ... --plot FILE` (the sizing inputs are size's)\n"
	"gnuplot draws it (SVG, or PNG when --out ends in .png); the script and data\n"
	"file beside the image re-plot it: cd DIR && gnuplot NAME.gp\n";

static const char *const kinds[] = {"scaling", "blocks", "trace", "memory", "sizing"};

/* DIR and NAME of FILE (extension dropped); the format from the extension. */
static int split_out(const char *out, char **dir, char **name, enum plot_format *format)
{
	const char *slash = strrchr(out, '/');
	const char *base = slash ? slash + 1 : out;
	const char *dot = strrchr(base, '.');
	*format = dot && !strcmp(dot, ".png") ? PLOT_PNG : PLOT_SVG;
	*dir = slash ? strndup(out, (size_t)(slash - out)) : strdup(".");
	*name = dot && dot != base ? strndup(base, (size_t)(dot - base)) : strdup(base);
	if (!*dir || !*name || !**name)
		return err_usage("--out needs a file name, got '%s'", out);
	return 0;
}

static char *context_text(const struct common_args *a)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb, "%s", a->filter.corpus ? a->filter.corpus : "all corpora");
	for (size_t i = 0; i < a->filter.nwhere; i++) {
		strbuf_addf(&sb, "%s%s=", i ? " " : ", ", a->filter.where[i].field);
		for (size_t v = 0; v < a->filter.where[i].nvalues; v++)
			strbuf_addf(&sb, "%s%s", v ? "," : "", a->filter.where[i].values[v]);
	}
	return strbuf_detach(&sb);
}

int cmd_plot(int argc, char **argv, const struct global_opts *g)
{
	static const struct opt_cmd cmd = {"plot", "KIND", details, specs};
	struct common_args a;
	struct plot_job job;
	struct opt_parser p;
	const char *value, *out = NULL;
	char *dir = NULL, *name = NULL, *context = NULL, *image = NULL;
	sqlite3 *db = NULL;
	int which, kind = 0;
	int rc;
	common_args_init(&a);
	memset(&job, 0, sizeof(job));
	rc = opt_parser_init(&p, &cmd, argc, argv);
	while (rc == 0 && (rc = opt_next(&p, &which, &value)) == OPT_FOUND) {
		rc = 0;
		if (which < COMMON_COUNT)
			rc = common_opt(&a, which, value);
		else if (which == OPT_BY)
			job.by = value;
		else if (which == OPT_BLOCK)
			job.block = value;
		else if (which == OPT_TAG)
			job.tag = value;
		else
			out = value;
	}
	if (rc == OPT_HELP_SHOWN) {
		rc = 0;
		goto done;
	}
	if (rc == OPT_DONE && p.noperands != 1)
		rc = err_usage("plot needs one KIND (scaling, blocks, trace, memory or sizing)");
	if (rc == OPT_DONE)
		rc = common_parse_choice("plot kind", p.operands[0], kinds, 5, &kind);
	if (rc == OPT_DONE && kind == 4)
		rc = err_usage("the sizing plot is drawn by `coreplan size ... --plot FILE`");
	if (rc == OPT_DONE && !out)
		rc = err_usage("--out FILE is required");
	if (rc == OPT_DONE && kind != 2 && !job.by)
		rc = err_usage("the %s plot needs --by FIELD", kinds[kind]);
	if (rc == OPT_DONE)
		rc = split_out(out, &dir, &name, &job.format);
	if (rc)
		goto done;
	if (kind == 3 && !strcmp(a.metric, "tput"))
		a.metric = "load_rss_kb";
	context = context_text(&a);
	job.common = &a;
	job.context = context;
	job.dir = dir;
	job.name = name;
	rc = db_open(g->db_path, true, &db);
	if (rc == 0) {
		typedef int (*draw_fn)(sqlite3 *, const struct plot_job *, char **);
		static const draw_fn draw[] = {plots_scaling, plots_blocks, plots_trace,
					       plots_memory};
		rc = draw[kind](db, &job, &image);
	}
	if (rc == PLOT_NOT_INSTALLED)
		rc = err_set("gnuplot is not installed: apt-get install gnuplot-nox");
	if (rc == 0)
		printf("%s/%s\n", dir, image);
done:
	free(image);
	free(dir);
	free(name);
	free(context);
	db_close(db);
	opt_parser_release(&p);
	common_args_release(&a);
	return rc;
}
