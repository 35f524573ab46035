/*
 * cmd_import: `coreplan import PATH...`. All the corpora named go in one
 * transaction (corpus_import_each): either every one is imported or the
 * database is left as it was. The document is written to standard output
 * before the commit (cli_def.commit): a write that fails rolls the import
 * back, so exit 1 means nothing was stored, with one exception its message
 * names: a database file this import created, stored whole, whose final
 * sync to storage failed (db_close).
 */
#include "cmd.h"
#include "common.h"
#include "datadir.h"
#include "opt.h"
#include "progress.h"

#include "../analysis/catalogs.h"
#include "../common/err.h"
#include "../doc/doc.h"
#include "../importers/catalog.h"
#include "../importers/corpus.h"
#include "../importers/tools.h"
#include "../reports/builders.h"
#include "../schema/db.h"

#include <stdlib.h>
#include <unistd.h>

static struct {
	struct import_options opts;
	const char *output_format; /* --format md|tsv|...; NULL: md */
	bool quiet;
	char **paths; /* into argv */
	size_t npaths;
	struct progress progress;
} req;

static int format_option(const struct opt_spec *spec, const char *value);

static const struct opt_spec specs[] = {
	OPT_CALL("format", "F", format_option, NULL,
		 "output format: text, md, tsv, csv, json or html (default: text on a terminal, "
		 "else md); or the tool "
		 "format each PATH is read as: gobench, hyperfine, gbench, wrk (default: detect); "
		 "may be given "
		 "once of each kind",
		 .repeatable = true),
	CLI_SPEC_VIEW,
	OPT_STRING(
		"name", "NAME", &req.opts.name,
		"corpus name, at most 255 bytes (default: the folder or file name); one PATH only",
		.nonempty = true, .noun = "a non-empty name"),
	OPT_FLAG("replace", &req.opts.replace,
		 "replace a corpus of the same name whose content changed"),
	OPT_STRING("manifest", "FILE", &req.opts.manifest_path,
		   "read the layout from FILE, a regular file of at most 1 MiB (default: "
		   "coreplan.manifest in the folder, else detect)"),
	OPT_DOUBLE("patch-floor", "X", &req.opts.patch_floor,
		   "exclude runs whose patch_rate is below X (default 0.9)", OPT_GE(0), OPT_LE(1)),
	OPT_STRING("host", "NAME", &req.opts.host,
		   "the runs ran on host NAME, a topology recorded with coreplan topology",
		   .nonempty = true, .noun = "a host name"),
	OPT_STRING("instance", "NAME", &req.opts.instance,
		   "the runs ran on catalog instance NAME (its vCPUs and threads per core give the "
		   "topology when no host is given)",
		   .nonempty = true, .noun = "an instance name"),
	{.name = "quiet",
	 .short_name = 'q',
	 .type = OPT_T_FLAG,
	 .value = &req.quiet,
	 .help = "no progress on standard error"},
	OPT_END,
};

static const char details[] =
	"PATH is a corpus folder or a single TSV/CSV file with one row per run.\n"
	"All PATHs are imported in one transaction: if any fails, nothing is stored.\n"
	"The result goes to standard output before the commit: when it cannot be\n"
	"written (a full disk, a closed pipe), nothing is stored either (exit 1).\n"
	"The one exit 1 after a stored import says so: a new database file whose\n"
	"final sync to storage failed (it may not survive a power failure).\n"
	"Importing an unchanged corpus again does nothing; a changed one needs --replace.\n"
	"Progress is drawn on standard error only when it is a terminal.\n"
	"The result is one row per PATH (view imported): name, layout, status (new,\n"
	"replaced or unchanged), what was read, and tied_runs and hosts: how many runs\n"
	"name a host (below) and which.\n"
	"\n"
	"Reads stay inside the corpus folder: symbolic links under it are never\n"
	"followed (each is a warning, not imported), FIFOs and devices are refused\n"
	"without blocking, and a manifest path or pattern that is absolute or has a '..'\n"
	"component is an error; a coreplan.manifest that is a link or not a regular\n"
	"file is refused unread. Each file is hashed, and one that is parsed must be\n"
	"the same file with the same bytes when it is parsed, else the import fails\n"
	"naming it. A single table named through a link imports the link's target\n"
	"(the result says so). Limits: --manifest 1 MiB, a table 256 MiB, a run\n"
	"file or topology file 16 MiB; traces are streamed, unlimited.\n"
	"\n"
	"The host the runs ran on (each run's field topology_host; sweep, fit, plot\n"
	"and smt count levels in its physical cores), the first that applies:\n"
	"  1. --host NAME: a host recorded with `coreplan topology` (else a usage\n"
	"     error listing them), for every run, over the manifest's topology;\n"
	"  2. the manifest's `topology = FILE` (recorded as host CORPUS[/SUBCORPUS])\n"
	"     or its `set = topology_host=NAME`;\n"
	"  3. a catalog instance: --instance NAME, else the run's own instance field\n"
	"     (the capacity profile sets instance=e2-{target}). The host is named\n"
	"     after the instance; unless a host of that name was recorded from a\n"
	"     real topology, it is recorded from the catalog: vcpus / threads_per_core\n"
	"     physical cores of threads_per_core threads (source catalog). --instance\n"
	"     also sets the runs' instance field (a run naming another is an error).\n"
	"The catalogs are the stored ones (`coreplan catalog`), else the shipped ones.\n"
	"--host and --instance are stored with the corpus: importing it again (or\n"
	"with --replace) without them keeps them; a different one needs --replace.\n"
	"\n"
	"Tool outputs (docs/importing.md, \"Importing tool outputs\"): a file that is a\n"
	"tool's output, or a folder without manifest whose every file is, is detected\n"
	"from the content (the first 64 KiB; --format NAME says it instead: --format\n"
	"takes an output format or a tool format, whose names differ). Each run\n"
	"gets the field file = the file's name: several files in a folder are arms\n"
	"(compare --a file=old.txt --b file=new.txt).\n"
	"  gobench  Go testing benchmarks (go test -bench): one run per result line\n"
	"           BenchmarkName[/k=v...][-N] ITERS VALUE UNIT...: fields name (no -N),\n"
	"           gomaxprocs = N (no suffix: 1, as go test prints GOMAXPROCS=1),\n"
	"           each k=v part, iterations, one metric per unit with '/' as _per_\n"
	"           (ns_per_op, B_per_op, allocs_per_op, MB_per_s, custom units), and\n"
	"           the configuration lines `key: value` before it (goos, goarch, pkg,\n"
	"           cpu, user keys).\n"
	"  hyperfine hyperfine --export-json: one run per entry of each result's\n"
	"           times: fields command (a parameter scan's template, e.g. sleep\n"
	"           {t}), each parameter (--parameter-scan threads 1 8: threads), run,\n"
	"           exit_code (not 0: excluded), time_s, user_mean_s, system_mean_s.\n"
	"  gbench   Google Benchmark --benchmark_format=json: one run per repetition\n"
	"           (aggregate rows are not runs: their count is aggregate_rows):\n"
	"           fields name (no /threads:N), threads, repetition, iterations,\n"
	"           real_time_ns, cpu_time_ns, items_per_second, bytes_per_second,\n"
	"           user counters, and the context on every run (num_cpus,\n"
	"           mhz_per_cpu, caches, host_name, library_build_type, ...).\n"
	"\n"
	"  wrk      wrk's text output (wrk -tT -cC -dD [--latency] URL), one run per\n"
	"           file: url, wrk_threads (the generator's, not workers), connections,\n"
	"           latency_avg_ms, _stdev_ms, _max_ms, _p50_ms ... _p99_ms (--latency),\n"
	"           requests_total, requests_per_s, transfer_MB_per_s, the socket errors\n"
	"           socket_connect_errors_count (and read, write, timeout) and\n"
	"           non_2xx_errors_count; runs with errors are kept with their counts\n"
	"           (--where non_2xx_errors_count=0 selects the clean ones).\n"
	"\n"
	"examples:\n"
	"  coreplan import ../shared/corpora/sky/gomaxprocs-scaling-20260816\n"
	"  coreplan --db plan.db import results.tsv --name pilot --patch-floor 0.8\n"
	"  coreplan topology --from lscpu.txt --host epyc\n"
	"  coreplan import ../shared/corpora/sky/gomaxprocs-scaling-20260816 --host epyc\n"
	"  coreplan import runs.tsv --instance e2-standard-8\n"
	"  coreplan import gobench/   # old.txt, new.txt of go test -bench . -count 10\n"
	"  coreplan import scan.json  # hyperfine --parameter-scan threads 1 8 --export-json\n"
	"  coreplan import wrk/       # c1-run1.txt ... of wrk -t1 -cC -d10s --latency\n";

/* --format takes an output format or a tool format: their names differ. */
static int format_option(const struct opt_spec *spec, const char *value)
{
	enum doc_format f;
	if (tool_find(value)) {
		if (req.opts.format)
			return err_usage("--format names one tool format, but '%s' and '%s' "
					 "were given",
					 req.opts.format, value);
		req.opts.format = value;
		return 0;
	}
	if (doc_format_parse(value, &f))
		return err_usage("unknown format '%s' (output formats text, md, tsv, csv, json, "
				 "html; tool formats %s)",
				 value, tool_names());
	if (req.output_format)
		return err_usage("--format names one output format, but '%s' and '%s' "
				 "were given",
				 req.output_format, value);
	req.output_format = value;
	cli_parsed.format = f;
	return 0;
}

static int check(struct cli_args *a)
{
	if (a->noperands == 0)
		return err_usage("import needs at least one PATH");
	if (req.opts.name && a->noperands > 1)
		return err_usage("--name names one corpus, but %zu PATHs were given", a->noperands);
	req.paths = a->operands;
	req.npaths = a->noperands;
	return 0;
}

/* Before each PATH: name it on the progress line; after it: clear the line. */
static void each_path(const char *path, void *arg)
{
	(void)arg;
	if (path)
		progress_start(&req.progress, req.opts.name ? req.opts.name : progress_label(path));
	else
		progress_clear(&req.progress);
}

static int run(sqlite3 *db, struct cli_args *a, struct doc **out)
{
	struct import_result *results = calloc(req.npaths, sizeof(*results));
	struct catalog_lookup lookup;
	bool draw = !req.quiet && isatty(STDERR_FILENO);
	int rc = results ? 0 : err_set("out of memory");
	(void)a;
	if (draw) {
		req.opts.progress = progress_draw;
		req.opts.progress_arg = &req.progress;
	}
	/*
	 * The catalogs runs' instances are looked up in: the stored ones, else
	 * the shipped ones, read at the first lookup (nothing reaches the file).
	 * No catalog is no error: instances then stay unknown, each in a warning.
	 */
	catalog_lookup_init(&lookup, db, cli_catalog_dir(), catalog_read);
	req.opts.instance_shape = catalog_lookup_shape;
	req.opts.instance_shape_arg = &lookup;
	if (rc == 0)
		rc = db_begin(db);
	if (rc == 0)
		rc = corpus_import_each(db, req.paths, req.npaths, &req.opts, results,
					draw ? each_path : NULL, NULL);
	if (rc == 0)
		rc = build_import(results, req.npaths, out);
	if (rc)
		db_rollback(db); /* keeps the message of the failure */
	catalog_lookup_release(&lookup);
	req.opts.instance_shape = NULL;
	req.opts.instance_shape_arg = NULL;
	free(results);
	return rc;
}

/* After the document reached standard output (cli_run): store the import. */
static int commit(sqlite3 *db)
{
	char why[1024];
	int rc = db_commit(db);
	if (rc == 0)
		return 0;
	snprintf(why, sizeof(why), "%s", err_msg());
	return err_set("%s: nothing was imported (the result above describes the import that "
		       "was rolled back)",
		       why);
}

static void defaults(void)
{
	import_options_init(&req.opts);
}

const struct cli_def cli_import = {
	.cmd = {"import", "PATH...", details, specs, build_import_views},
	.db = CLI_DB_WRITE,
	CLI_REQUEST(req),
	.defaults = defaults,
	.check = check,
	.run = run,
	.commit = commit,
};
