/* cmd_size: `coreplan size`, which instance meets a target, in physical cores. */
#include "cmd.h"
#include "common.h"
#include "datadir.h"
#include "opt.h"

#include "../analysis/size.h"
#include "../common/err.h"
#include "../common/num.h"
#include "../common/outfile.h"
#include "../importers/catalog.h"
#include "../plot/sizing_plot.h"
#include "../reports/builders.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct size_request req;
static struct strvec catalogs, series,
	fleet;           /* --catalog, --series, --fleet; req points into them */
static const char *plot; /* --plot FILE */
static bool force, has_target;

static int sessions_option(const struct opt_spec *spec, const char *value);
static int translate_option(const struct opt_spec *spec, const char *value);

static const struct opt_spec specs[] = {
	CLI_SPECS_ANALYSIS,
	OPT_DOUBLE("target", "RATE", &req.target,
		   "the throughput to meet (required unless --list-families)", OPT_GT(0),
		   .noun = "a rate", .given = &has_target),
	OPT_CALL("sessions", "N|N1,N2|LO-HI", sessions_option, &req.sessions,
		 "concurrent sessions, whole counts from 1 to 1e9: one count, a list or a range; "
		 "memory at the largest, measured runs at each (the worst decides)"),
	OPT_LIST("catalog", "FILE", &catalogs,
		 "instance catalog for this run (default: the catalogs stored with coreplan "
		 "catalog, else the shipped GCE and AWS ones)",
		 .repeatable = true, .noun = "a value"),
	OPT_DOUBLE("headroom", "PCT", &req.headroom_pct, "capacity kept free, in % (default 0)",
		   OPT_GE(0), OPT_LT(100), .noun = "a percentage"),
	OPT_LIST("series", "S1[,S2]", &series, "only these series (e2,n2,m7i,...)",
		 .noun = "a value"),
	OPT_STRING("base-from", "WHERE", &req.base_from,
		   "single-thread runs on a dedicated core: their median is the base rate"),
	OPT_DOUBLE("base-rate", "R", &req.base_rate, "the base rate per physical core, as a number",
		   OPT_GE(0), .given = &req.has_base_rate),
	OPT_STRING("base-cpu", "FAMILY", &req.base_cpu,
		   "the CPU family --base-rate was measured on (a catalog family, or an instance "
		   "name standing for its family)"),
	OPT_STRING("scaling-from", "WHERE", &req.scaling_from,
		   "a sweep over workers: a power law fitted to its physical-core levels"),
	OPT_STRING("scaling-by", "FIELD", &req.scaling_by,
		   "the level field of --scaling-from (default gomaxprocs)"),
	/* 0 would predict nothing beyond one core; 2 is perfect scaling */
	OPT_DOUBLE("per-doubling", "F", &req.per_doubling,
		   "growth per doubling of physical cores (2: perfect scaling)", OPT_GT(0),
		   OPT_LE(4), .noun = "a factor", .given = &req.has_per_doubling),
	OPT_STRING("smt-from", "WHERE", &req.smt_from, "runs for coreplan smt: its smt_factor"),
	/* a core's two threads against one: 1 adds nothing, 2 doubles the core */
	OPT_DOUBLE("smt-factor", "F", &req.smt_factor,
		   "what a core's second thread adds (e.g. 1.27; 1: nothing, 2: it doubles the "
		   "core)",
		   OPT_GT(0), OPT_LE(2), .noun = "a factor", .given = &req.has_smt),
	OPT_STRING("memory-from", "WHERE", &req.memory_from,
		   "runs for an OLS of load_rss_kb on sessions (slope and intercept) and their "
		   "traces' PostgreSQL RSS"),
	OPT_DOUBLE("mem-per-session", "KB", &req.mem_per, "memory per session, kB", OPT_GE(0),
		   .given = &req.has_mem_per),
	OPT_DOUBLE("mem-fixed", "KB", &req.mem_fixed, "fixed memory, kB", OPT_GE(0),
		   .given = &req.has_mem_fixed),
	OPT_DOUBLE("colocated-kb", "KB", &req.colocated_kb,
		   "memory of the processes beside the app (PostgreSQL), kB; wins over the traces "
		   "of --memory-from",
		   OPT_GE(0), .given = &req.has_colocated),
	OPT_DOUBLE("os-reserve-mib", "MIB", &req.os_reserve_mib,
		   "memory kept for the kernel and the guest's services (default 512)", OPT_GE(0),
		   .given = &req.has_os_reserve),
	OPT_CALL("translate", "FAMILY=F", translate_option, NULL,
		 "rate on FAMILY = base rate / F; F a number or from:WHERE,to:WHERE (the rate "
		 "factor measured from those runs, as coreplan translate does); FAMILY a catalog "
		 "family or instance name, or a CPU platform (with --platform)",
		 .repeatable = true),
	OPT_STRING("measured-where", "WHERE", &req.measured_where,
		   "extra conditions for the measured runs shown beside predictions"),
	OPT_FLAG("list-families", &req.list_families,
		 "only list the catalogs' CPU families and series (view families), as coreplan "
		 "catalog --families does for the stored ones"),
	OPT_STRING(
		"plot", "FILE", &plot,
		"also draw predicted capacity per instance, the measured runs beside it, against "
		"the target: FILE ends in .svg or .png; its data FILE.tsv and script FILE.gp are "
		"written beside it"),
	OPT_FLAG("force", &force,
		 "--plot may replace the image, data and script an earlier coreplan wrote there "
		 "(never a file coreplan did not write)"),
	OPT_STRING("platform", "NAME", &req.platform,
		   "the CPU platform to size for (a run's cpu_model, a catalog's cpu_platforms; "
		   "default: the base runs')"),
	OPT_STRING("store", "NAME", &req.store,
		   "the session store to size for (a run's store; default: the base runs')"),
	OPT_STRING("store-from", "WHERE", &req.store_from,
		   "runs of one instance with the base runs' store and --store's: the store "
		   "factor (and, without --sessions-from, the sessions factor)"),
	OPT_STRING("sessions-from", "WHERE", &req.sessions_from,
		   "runs of one instance at several session counts: throughput against sessions "
		   "(the sessions factor)"),
	OPT_LIST("fleet", "I1[,I2]", &fleet,
		 "count fleets of these instances (view fleets, its default): N x instance for "
		 "horizontal scale-out at each instance's share of the sessions",
		 .noun = "a value"),
	OPT_END,
};

static const char details[] =
	"For each catalog instance, P = its sustained physical cores (vcpus x sustained\n"
	"fraction / threads per core) and T = its threads per core:\n"
	"  predicted  base x scale(P) x smt x platform x store x sessions(S) x\n"
	"             (1 - headroom): scale(P) = per_doubling ^ log2(P) for P >= 1 and\n"
	"             P below one core; smt = the SMT factor when T = 2, 1 when T = 1;\n"
	"             the last three carry the base runs' conditions to the target's\n"
	"  bounds     the base runs' range, per_doubling +- t SE (t at 0.975 with the\n"
	"             fit's dof), the SMT bounds,\n"
	"             each factor's bounds (the ranges' ends)\n"
	"  scaling    --scaling-from fits only the levels that are physical cores on\n"
	"             the runs' host (their topology_host: a topology recorded with\n"
	"             coreplan topology); the SMT levels beyond are left out and\n"
	"             counted, since the SMT factor counts a core's second thread once.\n"
	"             Without a host every level is assumed physical, and the inputs\n"
	"             say so\n"
	"  smt        --smt-factor, --smt-from, else measured where --smt-from would\n"
	"             find it (the pinned runs on the --scaling-from runs' platform),\n"
	"             else assumed 1.0 and said in every row it touches\n"
	"  platform   the base rate belongs to the CPU platform its runs were measured\n"
	"             on (their cpu_model; a catalog's cpu_platforms lists each\n"
	"             family's). --platform NAME sizes for another: it needs\n"
	"             --translate NAME=from:WHERE,to:WHERE (or =F), else its rows are\n"
	"             flagged `other platform` with the base's named. Default: the\n"
	"             base runs' (assumed, said)\n"
	"  store      --store NAME (a run's store; default the base runs', assumed):\n"
	"             --store-from WHERE measures median(target store) / median(base\n"
	"             store) on one instance's runs, at the base runs' session count\n"
	"             or the nearest measured; without it, `other store`\n"
	"  sessions   --sessions-from WHERE (default the --store-from runs): median\n"
	"             at each session count / at the base's count, at the target's\n"
	"             store; between two measured counts the lower median (no\n"
	"             interpolation), beyond them the nearest end, flagged with how\n"
	"             far. Without it throughput is taken as independent of sessions\n"
	"             (said). A list or range is sized where the factor is lowest\n"
	"  memory     app (fixed + per_session x the largest session count) +\n"
	"             co-located processes (PostgreSQL: the median over the\n"
	"             --memory-from runs of each run's plateau median of the trace's\n"
	"             pg_rss_kb, streamed; 0 when the traces have none) + the OS\n"
	"             reserve (--os-reserve-mib, default 512 MiB: between what the\n"
	"             capacity corpus's idle banners show the guest holding beside the\n"
	"             app and PostgreSQL, memory - MemAvailable - app RSS - pg RSS:\n"
	"             median 365 MiB on e2-small, 576 MiB on e2-medium), against the\n"
	"             instance's memory; each part is a column\n"
	"  measured   runs whose `instance` field names the instance, with\n"
	"             --measured-where: per session count and value of each field\n"
	"             that varies among them (cfg=mem and cfg=pg are kept apart, as\n"
	"             the pooling rule names them; a block at only some session\n"
	"             counts, a soak, is a cell of its own). A cell counts as the\n"
	"             instance's capacity (eligible) only when its runs used the whole\n"
	"             instance (the worker level, --scaling-by's field, unset or at\n"
	"             least its vCPUs, times its processes; not pinned to fewer CPUs),\n"
	"             at the target's store and platform (a cell that records none is\n"
	"             taken as the target's, said), at the configuration the model's\n"
	"             runs share (--scaling-from's, else --base-from's: gogc=800 is\n"
	"             not gogc=default), not a block of its own, and at a session\n"
	"             count asked for; every other cell is listed with each reason\n"
	"             (left_out_because). The verdict rests on the eligible cells\n"
	"             (verdict_basis measured): the worst decides\n"
	"  calibrated the model's error, measured / predicted over the eligible\n"
	"             cells, apart for dedicated and shared-core instances (n, median,\n"
	"             range: facts calibration_*); each row's bounds widen by its\n"
	"             group's (low x min(1, smallest ratio), high x max(1, largest));\n"
	"             with no eligible cell the bounds are `uncalibrated`. Leave-one-\n"
	"             out: each eligible cell against the bounds its group's OTHER\n"
	"             instances calibrate (loo_low, loo_high, loo_check, loo_miss %)\n"
	"  verdict    meets (the calibrated lower bound meets the target, or the\n"
	"             measured minimum) | marginal (only the central value does) |\n"
	"             short | memory-bound | unmeasured CPU (the instance's CPU family\n"
	"             differs from the base's and no --translate factor is given);\n"
	"             shortfall = target / predicted; the cheapest needs meets\n"
	"  fleets     --fleet I1[,I2] (view fleets): N x instance for horizontal\n"
	"             scale-out, each at ceil(sessions / N) sessions and its sessions\n"
	"             factor there: n, the smallest N whose lower bound meets the\n"
	"             target, with n_central and n_optimistic; cost; the cheapest\n"
	"             fleet. They assume shared-nothing scale-out, and say what the\n"
	"             SMT runs measured of it (their sharded arm against the ceiling)\n"
	"  flags      extrapolated (cores beyond the largest fitted, sessions beyond\n"
	"             the largest measured, memory beyond the slope's range: each with\n"
	"             how far), translated, other platform, other store, store factor,\n"
	"             SMT assumed, uncalibrated, a cell outside its leave-one-out\n"
	"             bounds, shared-core (sized on the sustained share; the burst\n"
	"             figure is shown apart, never as the answer), measured below or\n"
	"             above prediction, cheapest (the cheapest instance that meets)\n"
	"Inputs come from the database (--base-from, --scaling-from, --smt-from,\n"
	"--memory-from, --store-from, --sessions-from: each a WHERE like --where,\n"
	"space-separated) or as numbers; the inputs view lists each with its bounds,\n"
	"runs, levels, host, statistic, where it came from and its basis (measured,\n"
	"given, assumed, default). --base-cpu, --series, --platform and --translate\n"
	"are checked against the catalogs and runs (an unknown name is a usage error\n"
	"listing the known ones; --list-families lists the families; a catalog\n"
	"instance name stands for its family; a base family no catalog has is\n"
	"accepted only with --translate factors). Catalogs: the --catalog FILEs (for\n"
	"this run only), else the catalogs stored with `coreplan catalog`, else the\n"
	"shipped ones; the fact `catalogs` says which. Without a database file, size\n"
	"works on given numbers alone. docs/sizing.md explains the model.\n"
	"\n"
	"examples:\n"
	"  coreplan size --target 1000 --sessions 500 --base-rate 299 --base-cpu gce-e2 \\\n"
	"      --per-doubling 1.78 --smt-factor 1.27 --mem-per-session 637 --mem-fixed 40000\n"
	"  coreplan size --target 1000 --sessions 300,500 --store postgres --base-from "
	"subcorpus=core \\\n"
	"      --scaling-from 'corpus=gomaxprocs-scaling-20260816 block=1,2,3' \\\n"
	"      --store-from 'target=medium block=1,2,3' \\\n"
	"      --memory-from 'target=medium cfg=pg block=1,2,3' --measured-where block=1,2,3\n"
	"  coreplan size --target 1000 --sessions 500 --store postgres --base-from subcorpus=core "
	"\\\n"
	"      --scaling-from 'corpus=gomaxprocs-scaling-20260816 block=1,2,3' \\\n"
	"      --store-from 'target=medium block=1,2,3' --fleet e2-standard-4\n"
	"  coreplan size --target 1000 --sessions 25 --base-from subcorpus=m1 --per-doubling 1.78 "
	"\\\n"
	"      --translate gce-e2=from:subcorpus=m1,to:subcorpus=core --series e2\n"
	"  coreplan size --list-families\n"
	"\n"
	"--plot DIR/NAME.svg writes DIR/NAME.svg, DIR/NAME.svg.tsv and DIR/NAME.svg.gp\n"
	"as `coreplan plot` does (see its --help, 'Files'): created new, recorded in\n"
	"DIR/.coreplan-outputs, never over a file coreplan did not write nor through a\n"
	"symbolic link; --force replaces the ones an earlier coreplan wrote. Without\n"
	"gnuplot the data and script are written and a warning says so.\n";

static int sessions_option(const struct opt_spec *spec, const char *value)
{
	return size_sessions_parse(value, spec->value);
}

/*
 * FAMILY=F, or FAMILY=from:WHERE,to:WHERE (the factor measured from those
 * runs, as coreplan translate measures its rate factor).
 */
static int translate_option(const struct opt_spec *spec, const char *value)
{
	const char *eq = strchr(value, '=');
	struct size_translation *grown, t;
	double factor = 0;
	memset(&t, 0, sizeof(t));
	if (!eq || eq == value || (size_t)(eq - value) >= sizeof(t.family))
		return err_usage(
			"--translate needs FAMILY=FACTOR or FAMILY=from:WHERE,to:WHERE, got "
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
		return err_usage(
			"--translate needs FAMILY=FACTOR or FAMILY=from:WHERE,to:WHERE, got "
			"'%s'",
			value);
	t.factor = factor;
	grown = realloc(req.translations, (req.ntranslations + 1) * sizeof(*grown));
	if (!grown)
		return err_set("out of memory");
	req.translations = grown;
	grown[req.ntranslations++] = t;
	return 0;
}

/* The lists as the request holds them. */
static void bind_lists(void)
{
	req.catalog_files = catalogs.v;
	req.ncatalog_files = catalogs.n;
	req.series = series.v;
	req.nseries = series.n;
	req.fleet = fleet.v;
	req.nfleet = fleet.n;
}

static int check(struct cli_args *a)
{
	bind_lists();
	if (force && !plot)
		return err_usage("--force is for --plot's files: give --plot FILE");
	if (req.list_families) {
		if (a->view && strcmp(a->view, "families") && strcmp(a->view, "facts"))
			return err_usage("--list-families shows the view families, not '%s'",
					 a->view);
		if (plot)
			return err_usage("--list-families sizes nothing: no --plot");
		if (!a->view && a->format != DOC_JSON)
			a->view = "families";
		req.filter = &a->filter;
		return 0;
	}
	if (!has_target)
		return err_usage("--target RATE is required (unless --list-families)");
	if (plot) {
		const char *base = strrchr(plot, '/') ? strrchr(plot, '/') + 1 : plot;
		const char *dot = strrchr(base, '.');
		char why[512];
		if (!dot || dot == base || (strcmp(dot, ".svg") && strcmp(dot, ".png")))
			return err_usage(
				"--plot '%s' must end in .svg or .png (its data and script "
				"are written beside it as FILE.tsv and FILE.gp)",
				plot);
		if (outfile_name_check(base, "--plot") != 0) {
			snprintf(why, sizeof(why), "%s", err_msg());
			return err_usage("%s", why);
		}
	}
	if (!(req.target > 0))
		return err_usage("--target needs a rate above 0");
	if (req.base_from && req.has_base_rate)
		return err_usage("give --base-from or --base-rate, not both");
	if (req.has_base_rate && !req.base_cpu)
		return err_usage(
			"--base-rate needs --base-cpu FAMILY (the CPU it was measured on)");
	if (req.nfleet && !a->view && (a->format == DOC_TSV || a->format == DOC_CSV))
		a->view = "fleets";
	req.filter = &a->filter;
	return 0;
}

static int run(sqlite3 *db, struct cli_args *a, struct doc **out)
{
	struct size_result res;
	struct sizing_plot drawn = {0};
	int rc = size_run(db, &req, &res);
	(void)a;
	if (rc == 0 && plot && res.listing)
		rc = err_usage("--list-families sizes nothing: no --plot");
	if (rc == 0 && plot) {
		struct plot_output o = {NULL, force, true};
		rc = sizing_plot_draw(&res, plot, &o, &drawn);
	}
	if (rc == 0)
		rc = build_size(&req, &res, plot ? &drawn : NULL, out);
	sizing_plot_release(&drawn);
	size_result_release(&res);
	return rc;
}

/* The state of a new request: cmd_size and the report's config start here. */
static void reset(void)
{
	memset(&req, 0, sizeof(req));
	req.shipped_dir = cli_catalog_dir();
	req.reader = catalog_read;
	plot = NULL;
	force = has_target = false;
}

static void release(void)
{
	opt_release_targets(specs); /* catalogs, series */
	free(req.translations);
	reset();
}

const struct cli_def cli_size = {
	.cmd = {"size", NULL, details, specs, build_size_views},
	.db = CLI_DB_OPTIONAL,
	.metric = &req.metric, /* filled after --metric's default (a tool's own) */
	.defaults = reset,
	.check = check,
	.run = run,
	.release = release,
};

/* ---- size's options by name, for `report --config` (cmd.h) ---- */

void size_config_reset(void)
{
	reset();
}

const struct opt_spec *size_config_specs(void)
{
	return specs + CLI_ANALYSIS_COUNT;
}

int size_config_set(const char *name, const char *value)
{
	static const struct {
		const char *name, *why;
	} refused[] = {
		{"plot", "the report draws the sizing plot itself: no 'plot' key"},
		{"list-families", "the report sizes: no 'list-families' key"},
		{"force", "the report's --force is an option: no 'force' key"},
	};
	const struct opt_spec *s = opt_find(specs + CLI_ANALYSIS_COUNT, name);
	if (!s)
		return 1;
	for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++)
		if (!strcmp(name, refused[i].name))
			return err_usage("%s", refused[i].why);
	if (!s->arg)
		return err_usage("'%s' takes no value", name);
	return opt_apply(s, value);
}

const struct size_request *size_config_request(const struct run_filter *filter)
{
	if (!(req.target > 0))
		return NULL;
	bind_lists();
	req.filter = filter;
	return &req;
}

int size_config_check(void)
{
	struct cli_args a;
	if (!(req.target > 0))
		return 0;
	memset(&a, 0, sizeof(a));
	return check(&a);
}

void size_config_release(void)
{
	release();
}
