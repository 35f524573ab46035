/*
 * cmd_report: `coreplan report`, one command from corpus to a write-up.
 * Options and the --config file fill a struct report_request; the report
 * itself is report/report.h.
 */
#include "cmd.h"
#include "common.h"
#include "opt.h"

#include "../common/err.h"
#include "../common/strbuf.h"
#include "../importers/runfiles.h"
#include "../report/report.h"

#include <stdlib.h>
#include <string.h>

enum {
	OPT_OUT = CLI_FILTERED_COUNT,
	OPT_BY,
	OPT_GROUP,
	OPT_CONFIG,
	OPT_TARGET,
	OPT_SESSIONS,
	OPT_HOST,
	OPT_PNG,
	OPT_HTML
};

static const struct opt_spec specs[] = {
	CLI_SPECS_FILTERED,
	[OPT_OUT] = {"out", 0, "DIR",
		     "write DIR/report.md and DIR/plots/ (DIR new, empty, or an earlier report, "
		     "which is replaced; see 'output folder')",
		     .required = true},
	[OPT_BY] = {"by", 0, "FIELD",
		    "the sweep's level field (default: gomaxprocs, else sessions)", false},
	[OPT_GROUP] = {"group", 0, "F1[,F2]",
		       "separate sweeps per combination (added to the fields that vary, which "
		       "always split)",
		       false},
	[OPT_CONFIG] = {"config", 0, "FILE",
			"report config: `key = value` lines: by, group, where, host, models "
			"(yes/no), translate-from, translate-to, and any long option of `coreplan "
			"size` (target, sessions, base-from, scaling-from, smt-from, memory-from, "
			"series, translate, ...); a regular file of at most 16 MiB",
			false},
	[OPT_TARGET] = {"target", 0, "RATE", "sizing target (or `target =` in the config)", false},
	[OPT_SESSIONS] = {"sessions", 0, "N", "sizing sessions (or `sessions =` in the config)",
			  false},
	[OPT_HOST] = {"host", 0, "NAME",
		      "count levels on this host (a recorded topology or a catalog instance such "
		      "as e2-standard-8): sweep, SMT and scaling models (or `host =` in the config)",
		      false},
	[OPT_PNG] = {"png", 0, NULL, "PNG plots instead of SVG", false},
	[OPT_HTML] = {"html", 0, NULL,
		      "also DIR/report.html: report.md as one self-contained page (see 'html')",
		      false},
	{NULL, 0, NULL, NULL, false},
};

static const char details[] =
	"Findings first: report.md opens with a short list of findings, each one\n"
	"sentence with its number, range or interval, n and method, linked to the\n"
	"section that supports it: scaling over physical cores (per doubling,\n"
	"efficiency) and what SMT levels add; whether the sweep is within noise and\n"
	"which steps are resolved; whether the guest's CPU accounting passes the tick\n"
	"check (per instance); memory per session (OLS slope, 95% interval); for a\n"
	"target (--target and --sessions, or the config), whether the measured runs\n"
	"meet it (target / the lowest median at the sessions asked) and the cheapest\n"
	"predicted instance; the translation factor. A finding the data cannot\n"
	"support says so and why. The findings are the `findings` section of the\n"
	"document on standard output too (finding, value, lo, hi, n, method, section).\n"
	"\n"
	"Sections by the corpus's shape: a sweep over a field that counts workers\n"
	"(gomaxprocs, threads, threads_per_proc, cores, ..., n, procs: the first with\n"
	"two or more values, else sessions) gets scaling models and SMT; a sweep over\n"
	"sessions gets neither (`models = yes` fits them anyway). Sub-corpora measured\n"
	"on another CPU (a translation pair found among the sub-corpora) appear only\n"
	"in the translation section. Runs without traces get no CPU section: it is\n"
	"left out with its reason; so are the others the shape does not call for.\n"
	"\n"
	"Sections: corpus summary (runs, excluded runs and why, missing files), sweep\n"
	"tables and plots per group, noise verdicts, recomputed CPU and tick rate,\n"
	"memory slopes, SMT, cross-CPU translation, scaling models and sizing. Each is\n"
	"the document its command writes (the same analysis, in process); one the\n"
	"runs cannot support says \"Not measured\" and why.\n"
	"\n"
	"groups: the report never pools runs that differ in more than the level. It\n"
	"looks at the fields sweep would refuse on (corpus, subcorpus, target, cfg,\n"
	"store, gogc, variant, sessions, gomaxprocs, the results-table factors; see\n"
	"`coreplan sweep --help`, 'pooling') and splits the sweep by every one that\n"
	"varies; a group whose blocks include a block kind (a block holding only some\n"
	"of the group's levels, such as a gctrace or soak block) is split into its\n"
	"complete blocks and each kind. The sweep, noise and fit sections are written\n"
	"per group; memory per group of runs that differ only in sessions, the groups\n"
	"with one session count left out and counted. The SMT section has one part\n"
	"per host the runs ran on (their topology_host: `coreplan import --help`);\n"
	"sweep, fit and the scaling plot count levels in the host's physical cores.\n"
	"\n"
	"The sizing section's inputs\n"
	"select their own runs (base-from, scaling-from, ...): --corpus and --where do\n"
	"not narrow them. The same database content\n"
	"and options give a byte-identical report.md. Standard output gets a document\n"
	"of what was written: the report's path and each section's outcome.\n"
	"\n"
	"output folder: --out DIR is created when missing. A DIR that holds a corpus\n"
	"(a coreplan.manifest, results.tsv or .csv, system.tsv, runs/ or samples/) or\n"
	"any file coreplan did not write is refused, naming it, and left as it was.\n"
	"DIR/.coreplan-outputs records what coreplan wrote there (names, sizes,\n"
	"SHA-256). A DIR holding an earlier report has it replaced: the earlier\n"
	"report's files (unchanged since coreplan wrote them: an edited one is\n"
	"refused) are removed first, so no stale plot stays. The report is written in\n"
	"a temporary folder inside DIR and moved into place when complete: a failed\n"
	"report leaves DIR as it was. Each plot is plots/NN-KIND.svg (or .png) with\n"
	"its data NN-KIND.svg.tsv and script NN-KIND.svg.gp; where an image is\n"
	"missing, report.md says why (gnuplot not installed, gnuplot's error, or why\n"
	"the runs give no such plot). Symbolic links are never followed.\n"
	"\n"
	"html: --html also writes DIR/report.html, report.md's content as one\n"
	"self-contained page: inline CSS, every plot inlined (SVG as it is, PNG as a\n"
	"data: URI), no script and nothing fetched, so it reads from a file:// URL\n"
	"and prints; headings have ids (GitHub's anchors of their text, so #links\n"
	"work in both); wide tables wrap to the page. Like report.md, the same\n"
	"database content and options give a byte-identical page.\n"
	"\n"
	"example:\n"
	"  coreplan report --corpus example --out out/example\n"
	"  coreplan report --corpus example --out out/html --html\n"
	"  coreplan report --corpus example --out out/example   # again: replaced\n";

static const char *const views[] = {"sections", NULL};

/* Everything the options and the config give; the report request points into it. */
struct args {
	const char *out;
	char *by;
	char **group; /* NULL-terminated */
	size_t ngroup;
	const char *config;
	char *translate_from, *translate_to;
	char *host;
	bool models;
	struct size_options *size;
	struct strbuf options_text; /* every option in words, for the report's footer hash */
	struct run_filter config_where;
	struct run_filter no_filter; /* every run: what the sizing inputs start from */
	char *config_text; /* the config file: size keeps pointers into it until the end */
	bool png, html;
};

static int set_text(char **slot, const char *value)
{
	free(*slot);
	*slot = strdup(value);
	return *slot ? 0 : err_set("out of memory");
}

static int set_group(struct args *a, const char *value)
{
	int rc;
	cli_free_list(a->group);
	a->group = NULL;
	a->ngroup = 0;
	rc = cli_parse_list("group", value, &a->group);
	if (rc)
		return rc;
	while (a->group[a->ngroup])
		a->ngroup++;
	return 0;
}

static int size_set(struct args *a, const char *name, const char *value)
{
	int rc = size_options_set(a->size, name, value);
	if (rc == 0)
		strbuf_addf(&a->options_text, "size %s=%s\n", name, value);
	return rc;
}

static int option(void *request, int which, const char *value)
{
	struct args *a = request;
	switch (which) {
	case OPT_OUT:
		a->out = value;
		return 0;
	case OPT_BY:
		return set_text(&a->by, value);
	case OPT_GROUP:
		return set_group(a, value);
	case OPT_CONFIG:
		a->config = value;
		return 0;
	case OPT_HOST:
		return set_text(&a->host, value);
	case OPT_TARGET:
	case OPT_SESSIONS:
		return size_set(a, specs[which].name, value);
	case OPT_PNG:
		a->png = true;
		return 0;
	case OPT_HTML:
		a->html = true;
		return 0;
	}
	return 0;
}

static char *trimmed(char *s)
{
	char *end;
	while (*s == ' ' || *s == '\t')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		*--end = '\0';
	return s;
}

/* One `key = value` line of the config. */
static int config_line(struct args *a, const char *path, long line_no, char *s)
{
	char *eq = strchr(s, '='), *key, *value;
	int rc;
	if (!eq)
		return err_at(path, line_no, 1, "expected 'key = value'");
	*eq = '\0';
	key = trimmed(s);
	value = trimmed(eq + 1);
	if (!strcmp(key, "by"))
		return set_text(&a->by, value);
	if (!strcmp(key, "group"))
		return set_group(a, value);
	if (!strcmp(key, "where")) {
		strbuf_addf(&a->options_text, "where %s\n", value);
		return run_filter_add_where(&a->config_where, value);
	}
	if (!strcmp(key, "host"))
		return set_text(&a->host, value);
	if (!strcmp(key, "models")) {
		if (strcmp(value, "yes") && strcmp(value, "no"))
			return err_at(path, line_no, 1, "models: expected yes or no, got '%s'", value);
		a->models = !strcmp(value, "yes");
		return 0;
	}
	if (!strcmp(key, "translate-from"))
		return set_text(&a->translate_from, value);
	if (!strcmp(key, "translate-to"))
		return set_text(&a->translate_to, value);
	rc = size_set(a, key, value);
	if (rc == 1)
		return err_at(path, line_no, 1,
			      "unknown key '%s' (by, group, where, host, models, translate-from, "
			      "translate-to, or a long option of `coreplan size`)",
			      key);
	if (rc)
		err_prefix("%s:%ld", path, line_no);
	return rc;
}

static int read_config(struct args *a)
{
	size_t len = 0;
	long line_no = 0;
	int rc = runfile_slurp(a->config, a->config, &a->config_text, &len);
	for (char *p = a->config_text; rc == 0 && p && *p;) {
		char *end = strchr(p, '\n'), *s;
		if (end)
			*end = '\0';
		line_no++;
		s = trimmed(p);
		if (*s && *s != '#')
			rc = config_line(a, a->config, line_no, s);
		p = end ? end + 1 : NULL;
	}
	return rc;
}

static int check(void *request, struct cli_args *c)
{
	struct args *a = request;
	int rc = 0;
	if (a->config)
		rc = read_config(a);
	for (size_t i = 0; rc == 0 && i < a->config_where.nwhere; i++) {
		const struct field_where *w = &a->config_where.where[i];
		rc = run_filter_add(&c->filter, w->field, (const char *const *)w->values,
				    w->nvalues);
	}
	if (rc == 0)
		rc = size_options_check(a->size);
	return rc;
}

static int run(sqlite3 *db, void *request, struct cli_args *c, struct doc **out)
{
	struct args *a = request;
	struct strbuf words = STRBUF_INIT;
	struct report_request req;
	int rc;
	/* the filter and the options in words: what the footer hash covers */
	rc = run_filter_describe(&c->filter, &words);
	strbuf_addf(&words, "\nby %s\n", a->by ? a->by : "");
	for (size_t i = 0; i < a->ngroup; i++)
		strbuf_addf(&words, "group %s\n", a->group[i]);
	strbuf_addf(&words, "host %s\nmodels %s\n", a->host ? a->host : "", a->models ? "yes" : "no");
	strbuf_addf(&words, "%s", strbuf_str(&a->options_text));
	memset(&req, 0, sizeof(req));
	req.filter = &c->filter;
	req.by = a->by;
	req.group = a->ngroup ? (const char *const *)a->group : NULL;
	req.translate_from = a->translate_from;
	req.translate_to = a->translate_to;
	req.host = a->host;
	req.models = a->models;
	/* sizing inputs name their own runs (base-from, scaling-from, ...): no report filter */
	req.size = size_options_request(a->size, &a->no_filter);
	req.out_dir = a->out;
	req.plot_format = a->png ? PLOT_PNG : PLOT_SVG;
	req.options_text = strbuf_str(&words);
	req.html = a->html;
	if (rc == 0)
		rc = report_run(db, &req, out);
	strbuf_release(&words);
	return rc;
}

int cmd_report(int argc, char **argv, const struct global_opts *g)
{
	static const struct cli_def def = {
		{"report", NULL, details, specs, views}, CLI_DB_READ, option, check, run};
	struct args a;
	int rc;
	memset(&a, 0, sizeof(a));
	a.size = size_options_new();
	if (!a.size)
		return err_set("out of memory");
	rc = cli_run(&def, &a, argc, argv, g);
	size_options_free(a.size);
	free(a.by);
	cli_free_list(a.group);
	free(a.translate_from);
	free(a.translate_to);
	free(a.host);
	strbuf_release(&a.options_text);
	run_filter_release(&a.config_where);
	free(a.config_text);
	return rc;
}
