/*
 * profiles: see profiles.h. The texts follow ../shared/corpora/sky/FORMATS.md;
 * each line there that defines a file or a column has its counterpart here.
 */
#include "profiles.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

const char *const profile_names[] = {"sky-gomaxprocs", "sky-capacity", NULL};

static const char gomaxprocs_text[] =
	"# Sky GOMAXPROCS scaling sweep (FORMATS.md, corpus 1)\n"
	"layout = sky-gomaxprocs\n"
	"\n"
	"[table main]\n"
	"file = results.tsv\n"
	"tag = {tag}\n"
	"tag-parse = g{gomaxprocs}-n{sessions}-b{block} | prof-g{gomaxprocs}-n{sessions}\n"
	"run-dir = runs/{tag}\n"
	"discover = runs/*/\n"
	"generator = {run-dir}/load.json\n"
	"idle = {run-dir}/idle.txt\n"
	"trace = {run-dir}/sample.tsv\n"
	"trace-columns = epoch app_rss_kb mem_avail_kb conn cpu_total_j cpu_idle_j app_j threads\n"
	"window = {run-dir}/window.tsv\n"
	"require-trace = yes\n"
	"text = {run-dir}/goroutine.txt\n"
	"# the app box FORMATS.md names: a GCE e2-standard-8 (its catalog entry: 4\n"
	"# cores x 2 threads), an AMD EPYC 7B12\n"
	"set = instance=e2-standard-8 cpu_family=gce-e2 cpu_model=amd-epyc-7b12\n";

static const char capacity_text[] =
	"# Sky x86 capacity corpus (FORMATS.md, corpus 2) with its M1 and\n"
	"# dedicated-core reference sub-corpora\n"
	"layout = sky-capacity\n"
	"\n"
	"[table main]\n"
	"file = results.tsv\n"
	"tag = {target}-{cfg}-n{level}-b{block}r{rep}\n"
	"join = system.tsv run\n"
	"discover = samples/*.tsv\n"
	"generator = json/{tag}.json\n"
	"idle = json/{tag}.idle.txt\n"
	"trace = samples/{tag}.tsv\n"
	"trace-columns = epoch app_rss_kb pg_rss_kb pg_nproc pg_backends mem_avail_kb conn"
	" cpu_total_j cpu_idle_j app_j pg_j xact_commit wal_records\n"
	"require-trace = yes\n"
	"rejected = json/*.REJECTED\n"
	"# results.tsv columns 15-20, 30 and 31 are the harness's defective inline\n"
	"# figures, kept for audit; system.tsv holds the re-derived ones (FORMATS.md):\n"
	"# the canonical fields and the plain names read system.tsv's (the inline ones\n"
	"# stay readable as NAME@results). The inline CPU columns cpu_busy_pct,\n"
	"# app_cpu_pct and pg_cpu_pct have no counterpart of that name: system.tsv's\n"
	"# CPU is machine_busy_cores, app_cores and pg_cores.\n"
	"field.load_rss_kb = join:load_app_kb\n"
	"field.app_cores = join:app_cores\n"
	"prefer.load_app_kb = join\n"
	"prefer.load_pg_rss_kb = join\n"
	"prefer.backends_max = join\n"
	"prefer.xact_per_s = join\n"
	"prefer.wal_rec_per_s = join\n"
	"# e2-small and e2-medium: 2 vCPUs, USER_HZ 100 (not in the idle banners)\n"
	"set = clk_tck=100 nproc=2 cpu_family=gce-e2 instance=e2-{target}\n"
	"\n"
	"[table m1]\n"
	"file = m1/m1.tsv\n"
	"tag = m1-r{rep}\n"
	"run-dir = m1/r{rep}\n"
	"generator = {run-dir}/load.json\n"
	"acct = {run-dir}/acct.txt\n"
	"text = {run-dir}/load.txt {run-dir}/selfcheck.txt\n"
	"# FORMATS.md: GOMAXPROCS=1, memory store, on an Apple M1; ramp 3 s,\n"
	"# warm-up 3 s, window 45 s, and cpu_s covers ramp + warm-up + window\n"
	"set = gomaxprocs=1 store=memory cpu_family=apple-m1 ramp_s=3 warmup_s=3 cpu_s_span=run\n"
	"\n"
	"[table core]\n"
	"file = core/results.tsv\n"
	"tag = core-mem-p5-n25-r{rep}\n"
	"run-dir = core/{tag}\n"
	"discover = core/*/\n"
	"generator = {run-dir}/load.json\n"
	"idle = {run-dir}/idle.txt\n"
	"trace = {run-dir}/sample.tsv\n"
	"trace-columns = epoch app_rss_kb app_j\n"
	"require-trace = yes\n"
	"text = {run-dir}/run.txt {run-dir}/gen.txt {run-dir}/selfcheck.txt\n"
	"# FORMATS.md and core/env.txt: e2-standard-4, Intel Xeon @ 2.20GHz, dedicated;\n"
	"# ramp 3 s, warm-up 3 s, window 45 s, cpu_s_win scaled to the window\n"
	"set = cpu_family=gce-e2 cpu_model=intel-xeon-2.2ghz instance=e2-standard-4"
	" ramp_s=3 warmup_s=3 cpu_s_span=window\n"
	"\n"
	"[files]\n"
	"text = teardown.txt core/env.txt\n";

const char *profile_text(const char *name)
{
	if (!strcmp(name, "sky-gomaxprocs"))
		return gomaxprocs_text;
	if (!strcmp(name, "sky-capacity"))
		return capacity_text;
	return NULL;
}

static bool exists(const char *dir, const char *name, bool want_dir)
{
	char path[4096];
	struct stat st;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	/* a link is not followed, so it does not make a layout either */
	if (lstat(path, &st) != 0)
		return false;
	return want_dir ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode);
}

const char *profile_detect(const char *dir, const char **why)
{
	*why = "";
	if (exists(dir, "results.tsv", false) && exists(dir, "system.tsv", false) &&
	    exists(dir, "samples", true))
		return "sky-capacity";
	if (exists(dir, "results.tsv", false) && exists(dir, "runs", true))
		return "sky-gomaxprocs";
	*why = "it has no coreplan.manifest and matches no built-in layout (sky-gomaxprocs: "
	       "results.tsv + runs/; sky-capacity: results.tsv + system.tsv + samples/): "
	       "write a manifest (docs/importing.md, \"Corpus layouts and manifests\") and pass --manifest";
	return NULL;
}
