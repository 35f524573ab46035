/* cmd_size: `coreplan size`, which instance meets a target, in physical cores. */
#include "cmd.h"
#include "common.h"
#include "datadir.h"
#include "opt.h"

#include "../analysis/size.h"
#include "../importers/catalog.h"
#include "../common/err.h"
#include "../common/num.h"
#include "../common/outfile.h"
#include "../reports/builders.h"
#include "../plot/sizing_plot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


enum {
	OPT_TARGET = CLI_ANALYSIS_COUNT,
	OPT_SESSIONS,
	OPT_CATALOG,
	OPT_HEADROOM,
	OPT_SERIES,
	OPT_BASE_FROM,
	OPT_BASE_RATE,
	OPT_BASE_CPU,
	OPT_SCALING_FROM,
	OPT_SCALING_BY,
	OPT_PER_DOUBLING,
	OPT_SMT_FROM,
	OPT_SMT_FACTOR,
	OPT_MEMORY_FROM,
	OPT_MEM_PER_SESSION,
	OPT_MEM_FIXED,
	OPT_COLOCATED,
	OPT_OS_RESERVE,
	OPT_TRANSLATE,
	OPT_MEASURED_WHERE,
	OPT_LIST_FAMILIES,
	OPT_PLOT,
	OPT_FORCE,
};

static const struct opt_spec specs[] = {
	CLI_SPECS_ANALYSIS,
	[OPT_TARGET] = {"target", 0, "RATE",
			"the throughput to meet (required unless --list-families)", false},
	[OPT_SESSIONS] = {"sessions", 0, "N|N1,N2|LO-HI",
			  "concurrent sessions, whole counts from 1 to 1e9: one count, a list or a "
			  "range; memory at the largest, measured runs at each (the worst decides)",
			  false},
	[OPT_CATALOG] = {"catalog", 0, "FILE",
			 "instance catalog for this run; repeatable (default: the catalogs stored "
			 "with coreplan catalog, else the shipped GCE and AWS ones)",
			 true},
	[OPT_HEADROOM] = {"headroom", 0, "PCT", "capacity kept free, in % (default 0)", false},
	[OPT_SERIES] = {"series", 0, "S1[,S2]", "only these series (e2,n2,m7i,...)", false},
	[OPT_BASE_FROM] = {"base-from", 0, "WHERE",
			   "single-thread runs on a dedicated core: their median is the base rate",
			   false},
	[OPT_BASE_RATE] = {"base-rate", 0, "R", "the base rate per physical core, as a number",
			   false},
	[OPT_BASE_CPU] = {"base-cpu", 0, "FAMILY",
			  "the CPU family --base-rate was measured on (a catalog family, or an "
			  "instance name standing for its family)",
			  false},
	[OPT_SCALING_FROM] =
		{"scaling-from", 0, "WHERE",
		 "a sweep over workers: a power law fitted to its physical-core levels", false},
	[OPT_SCALING_BY] = {"scaling-by", 0, "FIELD",
			    "the level field of --scaling-from (default gomaxprocs)", false},
	[OPT_PER_DOUBLING] = {"per-doubling", 0, "F",
			      "growth per doubling of physical cores, above 0 and at most 4 (2: "
			      "perfect scaling)",
			      false},
	[OPT_SMT_FROM] = {"smt-from", 0, "WHERE", "runs for coreplan smt: its smt_factor", false},
	[OPT_SMT_FACTOR] = {"smt-factor", 0, "F",
			    "what a core's second thread adds (e.g. 1.27), above 0 and at most 2",
			    false},
	[OPT_MEMORY_FROM] = {"memory-from", 0, "WHERE",
			     "runs for an OLS of load_rss_kb on sessions (slope and intercept) and "
			     "their traces' PostgreSQL RSS",
			     false},
	[OPT_MEM_PER_SESSION] = {"mem-per-session", 0, "KB", "memory per session, kB", false},
	[OPT_MEM_FIXED] = {"mem-fixed", 0, "KB", "fixed memory, kB", false},
	[OPT_COLOCATED] = {"colocated-kb", 0, "KB",
			   "memory of the processes beside the app (PostgreSQL), kB; wins over "
			   "the traces of --memory-from",
			   false},
	[OPT_OS_RESERVE] = {"os-reserve-mib", 0, "MIB",
			    "memory kept for the kernel and the guest's services (default 512)",
			    false},
	[OPT_TRANSLATE] = {"translate", 0, "FAMILY=F",
			   "rate on FAMILY = base rate / F; F a number or from:WHERE,to:WHERE (the "
			   "rate factor measured from those runs, as coreplan translate does); "
			   "FAMILY a catalog family or instance name",
			   true},
	[OPT_MEASURED_WHERE] = {"measured-where", 0, "WHERE",
				"extra conditions for the measured runs shown beside predictions",
				false},
	[OPT_LIST_FAMILIES] = {"list-families", 0, NULL,
			       "only list the catalogs' CPU families and series (view families), "
			       "as coreplan catalog --families does for the stored ones",
			       false},
	[OPT_PLOT] = {"plot", 0, "FILE",
		      "also draw predicted capacity per instance, the measured runs beside it, "
		      "against the target: FILE ends in .svg or .png; its data FILE.tsv and "
		      "script FILE.gp are written beside it",
		      false},
	[OPT_FORCE] = {"force", 0, NULL,
		       "--plot may replace the image, data and script an earlier coreplan wrote "
		       "there (never a file coreplan did not write)",
		       false},
	{NULL, 0, NULL, NULL, false},
};

static const char details[] =
	"For each catalog instance, P = its sustained physical cores (vcpus x sustained\n"
	"fraction / threads per core) and T = its threads per core:\n"
	"  predicted  base x scale(P) x smt x (1 - headroom), where scale(P) =\n"
	"             per_doubling ^ log2(P) for P >= 1 and P below one core, and\n"
	"             smt = the SMT factor when T = 2, 1 when T = 1\n"
	"  bounds     the base runs' range, per_doubling +- 1.96 SE, the SMT bounds\n"
	"  scaling    --scaling-from fits only the levels that are physical cores on\n"
	"             the runs' host (their topology_host: a topology recorded with\n"
	"             coreplan topology); the SMT levels beyond are left out and\n"
	"             counted, since the SMT factor counts a core's second thread once.\n"
	"             Without a host every level is assumed physical, and the inputs\n"
	"             say so\n"
	"  memory     app (fixed + per_session x the largest session count) +\n"
	"             co-located processes (PostgreSQL: the median over the\n"
	"             --memory-from runs of each run's plateau median of the trace's\n"
	"             pg_rss_kb; 0 when the traces have none) + the OS reserve\n"
	"             (--os-reserve-mib, default 512 MiB: between what the capacity\n"
	"             corpus's idle banners show the guest holding beside the app and\n"
	"             PostgreSQL, memory - MemAvailable - app RSS - pg RSS: median\n"
	"             365 MiB on e2-small, 576 MiB on e2-medium), against the\n"
	"             instance's memory; each part is a column\n"
	"  verdict    meets (the lower bound meets the target: predicted_low, or the\n"
	"             measured minimum) | marginal (only the central value does) |\n"
	"             short | memory-bound | unmeasured CPU (the instance's CPU family\n"
	"             differs from the base's and no --translate factor is given);\n"
	"             shortfall = target / predicted; the cheapest needs meets\n"
	"  measured   runs whose `instance` field names the instance, at the\n"
	"             --sessions counts, with --measured-where: per session count and\n"
	"             value of each field that varies among them (cfg=mem and cfg=pg\n"
	"             are kept apart, as the pooling rule names them; a block at only\n"
	"             some session counts, a soak, is a cell of its own) the median,\n"
	"             range, n, measured shortfall (target / median) and model_check:\n"
	"             below (median / predicted_low) or above (median / predicted_high)\n"
	"             the predicted bounds, or within. With --sessions, the verdict\n"
	"             rests on them (verdict_basis measured): the worst cell decides,\n"
	"             as capacity planning is conservative\n"
	"  translate  --translate FAMILY=F divides the base rate by F for FAMILY's\n"
	"             instances; --translate FAMILY=from:WHERE,to:WHERE measures F from\n"
	"             paired runs as coreplan translate measures its rate factor\n"
	"             (median metric from / to, seeded bootstrap 95% interval, seed 1;\n"
	"             the to-runs on FAMILY, the from-runs on the base's family) and\n"
	"             widens the rows' bounds by its interval (predicted_low from\n"
	"             base_low / its high end, predicted_high from base_high / its low\n"
	"             end); the inputs view's translation row says where it came from\n"
	"  flags      extrapolated (P beyond the largest physical-core level fitted),\n"
	"             translated, shared-core (sized on the sustained share; the burst\n"
	"             figure is shown apart, never as the answer), measured below or\n"
	"             above prediction, cheapest (the cheapest instance that meets)\n"
	"Inputs come from the database (--base-from, --scaling-from, --smt-from,\n"
	"--memory-from: each a WHERE like --where, space-separated) or as numbers;\n"
	"the inputs view lists each with its bounds, runs, levels, host, statistic\n"
	"and where it came from. --base-cpu, --series and --translate are checked\n"
	"against the catalogs (an unknown name is a usage error listing the known\n"
	"ones; --list-families lists them; a catalog instance name stands for its\n"
	"family; a base family no catalog has is accepted only with --translate\n"
	"factors). Catalogs: the --catalog FILEs (for this run only), else the\n"
	"catalogs stored with `coreplan catalog`, else the shipped ones; the fact\n"
	"`catalogs` says which. Without a database file, size works on given\n"
	"numbers alone.\n"
	"\n"
	"examples:\n"
	"  coreplan size --target 1000 --sessions 500 --base-rate 299 --base-cpu gce-e2 \\\n"
	"      --per-doubling 1.78 --smt-factor 1.27 --mem-per-session 637 --mem-fixed 40000\n"
	"  coreplan size --target 1000 --sessions 300,500 --base-from subcorpus=core \\\n"
	"      --scaling-from 'corpus=gomaxprocs-scaling-20260816 block=1,2,3' \\\n"
	"      --memory-from 'target=medium cfg=pg block=1,2,3' --measured-where block=1,2,3\n"
	"  coreplan size --target 1000 --sessions 25 --base-from subcorpus=m1 --per-doubling 1.78 \\\n"
	"      --translate gce-e2=from:subcorpus=m1,to:subcorpus=core --series e2\n"
	"  coreplan size --list-families\n"
	"\n"
	"--plot DIR/NAME.svg writes DIR/NAME.svg, DIR/NAME.svg.tsv and DIR/NAME.svg.gp\n"
	"as `coreplan plot` does (see its --help, 'Files'): created new, recorded in\n"
	"DIR/.coreplan-outputs, never over a file coreplan did not write nor through a\n"
	"symbolic link; --force replaces the ones an earlier coreplan wrote. Without\n"
	"gnuplot the data and script are written and a warning says so.\n";

static const char *const views[] = {"instances", "inputs", "measured", "families", NULL};

struct args {
	struct size_request req;
	const char *plot;
	bool force;
	bool has_target;
};

static int number(const char *option, const char *value, double *out, bool *flag)
{
	if (num_parse_real(value, out) || !(*out >= 0))
		return err_usage("--%s needs a number, got '%s'", option, value);
	if (flag)
		*flag = true;
	return 0;
}

static void free_list(char **list, size_t n)
{
	for (size_t i = 0; list && i < n; i++)
		free(list[i]);
	free(list);
}

/* "A,B" appended to a NULL-terminated list. */
static int add_list(const char *option, const char *value, char ***list, size_t *n)
{
	const char *p = value;
	size_t before = *n;
	while (*p) {
		size_t len = strcspn(p, ",");
		char **grown;
		if (len > 0) {
			if (!(grown = realloc(*list, (*n + 2) * sizeof(*grown))))
				return err_set("out of memory");
			*list = grown;
			if (!(grown[*n] = strndup(p, len)))
				return err_set("out of memory");
			grown[++*n] = NULL;
		}
		p += len + (p[len] == ',');
	}
	return *n > before ? 0 : err_usage("--%s needs a value, got '%s'", option, value);
}

/*
 * FAMILY=F, or FAMILY=from:WHERE,to:WHERE (the factor measured from those
 * runs, as coreplan translate measures its rate factor).
 */
static int add_translation(struct size_request *req, const char *value)
{
	const char *eq = strchr(value, '=');
	struct size_translation *grown, t;
	double factor = 0;
	memset(&t, 0, sizeof(t));
	if (!eq || eq == value || (size_t)(eq - value) >= sizeof(t.family))
		return err_usage("--translate needs FAMILY=FACTOR or FAMILY=from:WHERE,to:WHERE, got "
				 "'%s'",
				 value);
	memcpy(t.family, value, (size_t)(eq - value));
	if (!strncmp(eq + 1, "from:", 5)) {
		const char *from = eq + 6, *to = strstr(from, ",to:");
		if (!to || to == from || !to[4] || (size_t)(to - from) >= sizeof(t.from) ||
		    strlen(to + 4) >= sizeof(t.to))
			return err_usage("--translate needs FAMILY=from:WHERE,to:WHERE, got '%s'",
					 value);
		memcpy(t.from, from, (size_t)(to - from));
		snprintf(t.to, sizeof(t.to), "%s", to + 4);
		t.measured = true;
	} else if (num_parse_real(eq + 1, &factor) || !(factor > 0))
		return err_usage("--translate needs FAMILY=FACTOR or FAMILY=from:WHERE,to:WHERE, got "
				 "'%s'",
				 value);
	t.factor = factor;
	grown = realloc(req->translations, (req->ntranslations + 1) * sizeof(*grown));
	if (!grown)
		return err_set("out of memory");
	req->translations = grown;
	grown[req->ntranslations++] = t;
	return 0;
}

static int option(void *request, int which, const char *value)
{
	struct args *a = request;
	struct size_request *req = &a->req;
	const char *name = specs[which].name;
	switch (which) {
	case OPT_TARGET:
		return number(name, value, &req->target, &a->has_target);
	case OPT_SESSIONS:
		return size_sessions_parse(value, &req->sessions);
	case OPT_CATALOG:
		return add_list(name, value, &req->catalog_files, &req->ncatalog_files);
	case OPT_HEADROOM:
		if (number(name, value, &req->headroom_pct, NULL) || req->headroom_pct >= 100)
			return err_usage("--headroom needs a percentage below 100, got '%s'",
					 value);
		return 0;
	case OPT_SERIES:
		return add_list(name, value, &req->series, &req->nseries);
	case OPT_BASE_FROM:
		req->base_from = value;
		return 0;
	case OPT_BASE_RATE:
		return number(name, value, &req->base_rate, &req->has_base_rate);
	case OPT_BASE_CPU:
		req->base_cpu = value;
		return 0;
	case OPT_SCALING_FROM:
		req->scaling_from = value;
		return 0;
	case OPT_SCALING_BY:
		req->scaling_by = value;
		return 0;
	case OPT_PER_DOUBLING:
		/* 0 would predict nothing beyond one core; 2 is perfect scaling */
		if (number(name, value, &req->per_doubling, &req->has_per_doubling) ||
		    !(req->per_doubling > 0 && req->per_doubling <= 4))
			return err_usage(
				"--per-doubling needs a factor above 0 and at most 4 (1: "
				"no gain from doubling the cores, 2: perfect scaling), got "
				"'%s'",
				value);
		return 0;
	case OPT_SMT_FROM:
		req->smt_from = value;
		return 0;
	case OPT_SMT_FACTOR:
		/* a core's two threads against one: 1 adds nothing, 2 doubles the core */
		if (number(name, value, &req->smt_factor, &req->has_smt) ||
		    !(req->smt_factor > 0 && req->smt_factor <= 2))
			return err_usage(
				"--smt-factor needs a factor above 0 and at most 2 (1: the "
				"second thread adds nothing, 2: it doubles the core), got "
				"'%s'",
				value);
		return 0;
	case OPT_MEMORY_FROM:
		req->memory_from = value;
		return 0;
	case OPT_MEM_PER_SESSION:
		return number(name, value, &req->mem_per, &req->has_mem_per);
	case OPT_MEM_FIXED:
		return number(name, value, &req->mem_fixed, &req->has_mem_fixed);
	case OPT_COLOCATED:
		return number(name, value, &req->colocated_kb, &req->has_colocated);
	case OPT_OS_RESERVE:
		return number(name, value, &req->os_reserve_mib, &req->has_os_reserve);
	case OPT_LIST_FAMILIES:
		req->list_families = true;
		return 0;
	case OPT_TRANSLATE:
		return add_translation(req, value);
	case OPT_MEASURED_WHERE:
		req->measured_where = value;
		return 0;
	case OPT_PLOT:
		a->plot = value;
		return 0;
	case OPT_FORCE:
		a->force = true;
		return 0;
	}
	return 0;
}

static int check(void *request, struct cli_args *a)
{
	struct args *args = request;
	struct size_request *req = &args->req;
	if (args->force && !args->plot)
		return err_usage("--force is for --plot's files: give --plot FILE");
	if (req->list_families) {
		if (a->view && strcmp(a->view, "families") && strcmp(a->view, "facts"))
			return err_usage("--list-families shows the view families, not '%s'",
					 a->view);
		if (args->plot)
			return err_usage("--list-families sizes nothing: no --plot");
		if (!a->view && a->format != DOC_JSON)
			a->view = "families";
		req->filter = &a->filter;
		return 0;
	}
	if (!args->has_target)
		return err_usage("--target RATE is required (unless --list-families)");
	if (args->plot) {
		const char *base =
			strrchr(args->plot, '/') ? strrchr(args->plot, '/') + 1 : args->plot;
		const char *dot = strrchr(base, '.');
		char why[512];
		if (!dot || dot == base || (strcmp(dot, ".svg") && strcmp(dot, ".png")))
			return err_usage("--plot '%s' must end in .svg or .png (its data and script "
					 "are written beside it as FILE.tsv and FILE.gp)",
					 args->plot);
		if (outfile_name_check(base, "--plot") != 0) {
			snprintf(why, sizeof(why), "%s", err_msg());
			return err_usage("%s", why);
		}
	}
	if (!(req->target > 0))
		return err_usage("--target needs a rate above 0");
	if (req->base_from && req->has_base_rate)
		return err_usage("give --base-from or --base-rate, not both");
	if (req->has_base_rate && !req->base_cpu)
		return err_usage(
			"--base-rate needs --base-cpu FAMILY (the CPU it was measured on)");
	req->filter = &a->filter;
	req->metric = a->metric;
	return 0;
}

static int run(sqlite3 *db, void *request, struct cli_args *a, struct doc **out)
{
	struct args *args = request;
	struct size_result res;
	struct sizing_plot plot = {0};
	int rc = size_run(db, &args->req, &res);
	(void)a;
	if (rc == 0 && args->plot && res.listing)
		rc = err_usage("--list-families sizes nothing: no --plot");
	if (rc == 0 && args->plot) {
		struct plot_output o = {NULL, args->force, true};
		rc = sizing_plot_draw(&res, args->plot, &o, &plot);
	}
	if (rc == 0)
		rc = build_size(&args->req, &res, args->plot ? &plot : NULL, out);
	sizing_plot_release(&plot);
	size_result_release(&res);
	return rc;
}

int cmd_size(int argc, char **argv, const struct global_opts *g)
{
	static const struct cli_def def = {
		{"size", NULL, details, specs, views}, CLI_DB_OPTIONAL, option, check, run};
	struct args a;
	int rc;
	memset(&a, 0, sizeof(a));
	a.req.shipped_dir = cli_catalog_dir();
	a.req.reader = catalog_read;
	rc = cli_run(&def, &a, argc, argv, g);
	free_list(a.req.catalog_files, a.req.ncatalog_files);
	free_list(a.req.series, a.req.nseries);
	free(a.req.translations);
	return rc;
}

/* ---- size's options by name, for `report --config` (cmd.h) ---- */

struct size_options {
	struct args a;
};

struct size_options *size_options_new(void)
{
	struct size_options *o = calloc(1, sizeof(*o));
	if (o) {
		o->a.req.shipped_dir = cli_catalog_dir();
		o->a.req.reader = catalog_read;
	}
	return o;
}

int size_options_set(struct size_options *o, const char *name, const char *value)
{
	for (int i = CLI_ANALYSIS_COUNT; specs[i].name; i++) {
		if (strcmp(specs[i].name, name))
			continue;
		if (i == OPT_PLOT)
			return err_usage("the report draws the sizing plot itself: no 'plot' key");
		if (i == OPT_LIST_FAMILIES)
			return err_usage("the report sizes: no 'list-families' key");
		if (i == OPT_FORCE)
			return err_usage("the report's --force is an option: no 'force' key");
		if (!specs[i].arg)
			return err_usage("'%s' takes no value", name);
		return option(&o->a, i, value);
	}
	return 1;
}

const struct size_request *size_options_request(struct size_options *o,
						const struct run_filter *filter)
{
	if (!(o->a.req.target > 0))
		return NULL;
	o->a.req.filter = filter;
	return &o->a.req;
}

int size_options_check(struct size_options *o)
{
	struct cli_args a;
	if (!(o->a.req.target > 0))
		return 0;
	memset(&a, 0, sizeof(a));
	return check(&o->a, &a);
}

void size_options_free(struct size_options *o)
{
	if (!o)
		return;
	free_list(o->a.req.catalog_files, o->a.req.ncatalog_files);
	free_list(o->a.req.series, o->a.req.nseries);
	free(o->a.req.translations);
	free(o);
}
