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
#include "../common/suggest.h"
#include "../importers/runfiles.h"
#include "../report/report.h"

#include <stdlib.h>
#include <string.h>

/* What the options and the config give; the report request points into it. */
static const char *out_dir, *by, *host, *config, *translate_from, *translate_to, *workers,
	*metric;
static struct strvec group;
static bool models, png, html;
static struct strbuf options_text;        /* size's options in words, for the footer hash */
static char *config_text;                 /* the config file: values point into it until the end */
static const struct run_filter every_run; /* what the sizing inputs select from */

static int size_option(const struct opt_spec *spec, const char *value);

static const struct opt_spec specs[] = {
	CLI_SPECS_FILTERED,
	OPT_STRING(
		"out", "DIR", &out_dir,
		"write DIR/report.md and DIR/plots/ (DIR new, empty, or an earlier report, which "
		"is replaced; see 'output folder')",
		.required = true),
	OPT_STRING("metric", "FIELD", &metric,
		   "what the sections measure (default: tput, else a tool's primary metric such as "
		   "Go's ns_per_op or hyperfine's time_s, else the first rate column; or `metric =` "
		   "in the config)",
		   .nonempty = true, .noun = "a field name"),
	OPT_STRING("by", "FIELD", &by,
		   "the sweep's level field (default: gomaxprocs, else sessions)"),
	OPT_LIST("group", "F1[,F2]", &group,
		 "separate sweeps per combination (added to the fields that vary, which always "
		 "split)",
		 .noun = "field names"),
	OPT_STRING(
		"config", "FILE", &config,
		"report config: `key = value` lines, a key for each option of this table but out, "
		"config, format, view, png and html (a flag takes yes or no), and each long "
		"option of `coreplan size` (target, sessions, base-from, scaling-from, smt-from, "
		"memory-from, series, translate, ...); a regular file of at most 16 MiB"),
	OPT_CALL("target", "RATE", size_option, NULL,
		 "sizing target (or `target =` in the config)"),
	OPT_CALL("sessions", "N", size_option, NULL,
		 "sizing sessions (or `sessions =` in the config)"),
	OPT_STRING("host", "NAME", &host,
		   "count levels on this host (a recorded topology or a catalog instance such as "
		   "e2-standard-8): sweep, SMT and scaling models (or `host =` in the config)"),
	OPT_STRING("workers", "FIELD", &workers,
		   "FIELD counts workers (threads, cores, processes): the sweep, SMT and scaling "
		   "models treat it so, and it is the level field when --by is not given (fields "
		   "known to count workers need no flag; or `workers =` in the config)"),
	OPT_FLAG("models", &models,
		 "fit the scaling models whatever the level field (default: "
		 "only over a field that counts workers)"),
	OPT_STRING("translate-from", "WHERE", &translate_from,
		   "the runs of the translation's from-CPU (default: a pair found among the "
		   "sub-corpora)"),
	OPT_STRING("translate-to", "WHERE", &translate_to, "the runs of its to-CPU"),
	OPT_FLAG("png", &png, "PNG plots instead of SVG"),
	OPT_FLAG("html", &html,
		 "also DIR/report.html: report.md as one self-contained page (see "
		 "'html')"),
	OPT_END,
};

/* Options the config does not take: they say where and how, not what. */
static const char *const not_in_config[] = {"out", "config", "format", "view", "png", "html", NULL};

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
	"(a coreplan.manifest, results.tsv or .csv, system.tsv, runs/ or samples/),\n"
	"lies inside an imported corpus's folder, lies inside a folder an earlier\n"
	"coreplan wrote (OLD/plots of a report in OLD), or holds any file coreplan\n"
	"did not write is refused, naming it, and left as it was.\n"
	"DIR/.coreplan-outputs records what coreplan wrote there (names, sizes,\n"
	"SHA-256, and which command: report, plot). A DIR holding an earlier report\n"
	"has it replaced: the earlier report's files (unchanged since coreplan wrote\n"
	"them: an edited one is refused) are removed first, so no stale plot stays;\n"
	"plots that coreplan plot or size --plot drew into DIR stay (one drawn into\n"
	"DIR/plots refuses the report, naming it). The report is written in a\n"
	"temporary folder inside DIR and moved into place when complete: a failed\n"
	"report leaves DIR as it was, and the temporary folder a killed report left\n"
	"is removed by the next one. Each plot is plots/NN-KIND.svg (or .png) with\n"
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

/* target, sessions and the config's size keys: coreplan size's own options. */
static int size_set(const char *name, const char *value)
{
	int rc = size_config_set(name, value);
	if (rc == 0 && strbuf_addf(&options_text, "size %s=%s\n", name, value))
		rc = err_set("out of memory");
	return rc;
}

static int size_option(const struct opt_spec *spec, const char *value)
{
	return size_set(spec->name, value);
}

static bool config_refuses(const char *key)
{
	for (size_t i = 0; not_in_config[i]; i++)
		if (!strcmp(not_in_config[i], key))
			return true;
	return false;
}

static int unknown_key(const char *path, long line_no, const char *key)
{
	struct suggest near;
	suggest_init(&near, key);
	for (const struct opt_spec *s = specs; s->name; s++)
		if (!config_refuses(s->name))
			suggest_offer(&near, s->name);
	for (const struct opt_spec *s = size_config_specs(); s->name; s++)
		suggest_offer(&near, s->name);
	if (suggest_best(&near))
		return err_at(path, line_no, 1, "unknown key '%s' (did you mean '%s'?)", key,
			      suggest_best(&near));
	return err_at(path, line_no, 1,
		      "unknown key '%s' (an option of `coreplan report` or a long option of "
		      "`coreplan size`)",
		      key);
}

/* One `key = value` line of the config: one of the options above, else one of size's. */
static int config_line(const char *path, long line_no, char *s)
{
	char *eq = strchr(s, '='), *key, *value;
	const struct opt_spec *spec;
	int rc;
	if (!eq)
		return err_at(path, line_no, 1, "expected 'key = value'");
	*eq = '\0';
	key = str_trim(s);
	value = str_trim(eq + 1);
	spec = opt_find(specs, key);
	if (spec && config_refuses(key))
		return err_at(path, line_no, 1,
			      "'%s' is not a config key: give --%s on the command line", key, key);
	rc = spec ? opt_apply_word(spec, value) : size_set(key, value);
	if (rc == 1)
		return unknown_key(path, line_no, key);
	if (rc)
		err_prefix("%s:%ld", path, line_no);
	return rc;
}

static int read_config(void)
{
	size_t len = 0;
	long line_no = 0;
	int rc = runfile_slurp(config, config, &config_text, &len);
	for (char *p = config_text; rc == 0 && p && *p;) {
		char *end = strchr(p, '\n'), *s;
		if (end)
			*end = '\0';
		line_no++;
		s = str_trim(p);
		if (*s && *s != '#')
			rc = config_line(config, line_no, s);
		p = end ? end + 1 : NULL;
	}
	return rc;
}

static int check(struct cli_args *a)
{
	int rc = config ? read_config() : 0;
	(void)a;
	return rc ? rc : size_config_check();
}

static int run(sqlite3 *db, struct cli_args *a, struct doc **out)
{
	struct strbuf words = STRBUF_INIT;
	struct report_request req;
	int rc;
	/* the filter and the options in words: what the footer hash covers */
	rc = run_filter_describe(&a->filter, &words);
	strbuf_addf(&words, "\nby %s\n", by ? by : "");
	if (metric)
		strbuf_addf(&words, "metric %s\n", metric);
	for (size_t i = 0; i < group.n; i++)
		strbuf_addf(&words, "group %s\n", group.v[i]);
	strbuf_addf(&words, "host %s\nmodels %s\n", host ? host : "", models ? "yes" : "no");
	if (workers)
		strbuf_addf(&words, "workers %s\n", workers);
	if (translate_from || translate_to)
		strbuf_addf(&words, "translate %s -> %s\n", translate_from ? translate_from : "",
			    translate_to ? translate_to : "");
	strbuf_addf(&words, "%s", strbuf_str(&options_text));
	memset(&req, 0, sizeof(req));
	req.filter = &a->filter;
	req.by = by;
	req.metric = metric;
	req.group = strvec_list(&group);
	req.translate_from = translate_from;
	req.translate_to = translate_to;
	req.host = host;
	req.models = models;
	req.workers = workers;
	/* sizing inputs name their own runs (base-from, scaling-from, ...): no report filter */
	req.size = size_config_request(&every_run);
	req.out_dir = out_dir;
	req.plot_format = png ? PLOT_PNG : PLOT_SVG;
	req.options_text = strbuf_str(&words);
	req.html = html;
	if (rc == 0)
		rc = report_run(db, &req, out);
	strbuf_release(&words);
	return rc;
}

static void defaults(void)
{
	out_dir = by = host = config = translate_from = translate_to = workers = metric = NULL;
	models = png = html = false;
	size_config_reset();
}

/* size's request (the config's sizing), the footer's words and the config file */
static void release(void)
{
	size_config_release();
	strbuf_release(&options_text);
	free(config_text);
	config_text = NULL;
}

const struct cli_def cli_report = {
	.cmd = {"report", NULL, details, specs, report_views},
	.db = CLI_DB_READ,
	.defaults = defaults,
	.check = check,
	.run = run,
	.release = release,
};
