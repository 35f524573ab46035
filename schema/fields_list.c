/*
 * fields_list: the canonical run fields, in the order of the runs table,
 * with what each measures (kind, direction), and how the kind of any
 * other metric name is inferred.
 * Adding a field means: a column in a new schema migration, a row here, its
 * source names in importers/mapping.c, and a line in schema/README.md
 * (the runs table and "Metric kinds").
 */
#include "fields.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

#define L FIELD_KIND_LABEL
#define NONE FIELD_DIR_NONE
#define HI FIELD_DIR_HIGHER
#define LO FIELD_DIR_LOWER

const struct field_info field_canonical[] = {
	{"tput", FIELD_REAL, "interactions/s", "throughput (tput, interactions_per_sec, ips)",
	 FIELD_KIND_RATE, HI},
	{"gomaxprocs", FIELD_INT, "threads", "GOMAXPROCS given to the app (never the generator's)",
	 FIELD_KIND_WORKERS, NONE},
	{"sessions", FIELD_INT, "sessions", "sessions requested (sessions, level)",
	 FIELD_KIND_COUNT, NONE},
	{"established", FIELD_INT, "sessions", "sessions actually established", FIELD_KIND_COUNT,
	 HI},
	{"block", FIELD_TEXT, "", "counterbalancing block label", L, NONE},
	{"rep", FIELD_INT, "", "repeat number within a block", L, NONE},
	{"target", FIELD_TEXT, "", "target machine label", L, NONE},
	{"cfg", FIELD_TEXT, "", "configuration arm (cfg)", L, NONE},
	{"store", FIELD_TEXT, "", "session store the app reported", L, NONE},
	{"gogc", FIELD_TEXT, "", "GOGC given to the app", L, NONE},
	{"variant", FIELD_TEXT, "", "app binary variant", L, NONE},
	{"p50_ms", FIELD_REAL, "ms", "median latency", FIELD_KIND_LATENCY, LO},
	{"p95_ms", FIELD_REAL, "ms", "95th percentile latency", FIELD_KIND_LATENCY, LO},
	{"p99_ms", FIELD_REAL, "ms", "99th percentile latency", FIELD_KIND_LATENCY, LO},
	{"max_ms", FIELD_REAL, "ms", "maximum latency", FIELD_KIND_LATENCY, LO},
	{"err", FIELD_REAL, "fraction", "error rate", FIELD_KIND_FRACTION, LO},
	{"patch_rate", FIELD_REAL, "fraction", "interactions that returned patches",
	 FIELD_KIND_FRACTION, HI},
	{"valid", FIELD_BOOL, "", "generator's validity verdict", L, NONE},
	{"gen_cpu_pct", FIELD_REAL, "%", "generator CPU as % of its machine", FIELD_KIND_CPU, LO},
	{"gen_saturated", FIELD_BOOL, "", "generator's self-saturation flag", L, NONE},
	{"app_cores", FIELD_REAL, "cores", "app CPU in cores as the driver reported it",
	 FIELD_KIND_CPU, LO},
	{"idle_rss_kb", FIELD_REAL, "kB", "app RSS at idle", FIELD_KIND_MEMORY, LO},
	{"load_rss_kb", FIELD_REAL, "kB", "app RSS under load as the driver reported it",
	 FIELD_KIND_MEMORY, LO},
	{"interactions", FIELD_INT, "", "interactions counted in the window", FIELD_KIND_COUNT, HI},
	{"cpu_s", FIELD_REAL, "s", "app CPU seconds reported by the driver", FIELD_KIND_CPU, LO},
	{"started_at", FIELD_TEXT, "", "run start (RFC 3339 UTC)", L, NONE},
	{"duration_s", FIELD_REAL, "s", "measured window length", FIELD_KIND_TIME, NONE},
};

const size_t field_canonical_count = sizeof(field_canonical) / sizeof(field_canonical[0]);

/*
 * Well-known fields that are not columns of `runs` (fields.h): the
 * standard tools' metrics as importers/tool_*.c name them, and the
 * capacity harness's system.tsv columns.
 */
const struct field_info field_known[] = {
	/* Go testing (tool_gobench.c: the unit with '/' read as _per_) */
	{"ns_per_op", FIELD_REAL, "ns/op", "Go: time per operation", FIELD_KIND_TIME, LO},
	{"sec_per_op", FIELD_REAL, "sec/op", "Go: time per operation", FIELD_KIND_TIME, LO},
	{"B_per_op", FIELD_REAL, "B/op", "Go: bytes allocated per operation", FIELD_KIND_MEMORY,
	 LO},
	{"allocs_per_op", FIELD_REAL, "allocs/op", "Go: allocations per operation",
	 FIELD_KIND_COUNT, LO},
	{"MB_per_s", FIELD_REAL, "MB/s", "Go: bytes processed per second (b.SetBytes)",
	 FIELD_KIND_RATE, HI},
	{"iterations", FIELD_INT, "", "Go: b.N of the result line", FIELD_KIND_COUNT, NONE},
	/* hyperfine */
	{"time_s", FIELD_REAL, "s", "hyperfine: wall time of one run of the command",
	 FIELD_KIND_TIME, LO},
	{"user_s", FIELD_REAL, "s", "hyperfine: user CPU time", FIELD_KIND_TIME, LO},
	{"system_s", FIELD_REAL, "s", "hyperfine: system CPU time", FIELD_KIND_TIME, LO},
	{"user_mean_s", FIELD_REAL, "s", "hyperfine: mean user CPU time", FIELD_KIND_TIME, LO},
	{"system_mean_s", FIELD_REAL, "s", "hyperfine: mean system CPU time", FIELD_KIND_TIME, LO},
	{"mean_s", FIELD_REAL, "s", "hyperfine CSV: mean wall time of the command",
	 FIELD_KIND_TIME, LO},
	{"median_s", FIELD_REAL, "s", "hyperfine CSV: median wall time of the command",
	 FIELD_KIND_TIME, LO},
	/* Google Benchmark */
	{"real_time_ns", FIELD_REAL, "ns", "Google Benchmark: wall time per iteration",
	 FIELD_KIND_TIME, LO},
	{"cpu_time_ns", FIELD_REAL, "ns", "Google Benchmark: CPU time per iteration",
	 FIELD_KIND_TIME, LO},
	/* wrk */
	{"requests_per_s", FIELD_REAL, "req/s", "wrk: requests per second", FIELD_KIND_RATE, HI},
	{"transfer_MB_per_s", FIELD_REAL, "MB/s", "wrk: megabytes transferred per second",
	 FIELD_KIND_RATE, HI},
	{"latency_avg_ms", FIELD_REAL, "ms", "wrk: mean latency", FIELD_KIND_LATENCY, LO},
	{"latency_stdev_ms", FIELD_REAL, "ms", "wrk: latency standard deviation",
	 FIELD_KIND_LATENCY, LO},
	{"latency_max_ms", FIELD_REAL, "ms", "wrk: maximum latency", FIELD_KIND_LATENCY, LO},
	{"latency_p50_ms", FIELD_REAL, "ms", "wrk: median latency", FIELD_KIND_LATENCY, LO},
	{"latency_p75_ms", FIELD_REAL, "ms", "wrk: 75th percentile latency", FIELD_KIND_LATENCY,
	 LO},
	{"latency_p90_ms", FIELD_REAL, "ms", "wrk: 90th percentile latency", FIELD_KIND_LATENCY,
	 LO},
	{"latency_p99_ms", FIELD_REAL, "ms", "wrk: 99th percentile latency", FIELD_KIND_LATENCY,
	 LO},
	{"requests_total", FIELD_INT, "", "wrk: requests completed", FIELD_KIND_COUNT, HI},
	/* the capacity harness's system.tsv */
	{"pg_cores", FIELD_REAL, "cores", "PostgreSQL CPU in cores", FIELD_KIND_CPU, LO},
	{"machine_busy_cores", FIELD_REAL, "cores", "busy cores of the whole machine",
	 FIELD_KIND_CPU, LO},
	{"stat_tick_hz", FIELD_REAL, "Hz", "/proc/stat's jiffy rate", FIELD_KIND_RATE, NONE},
	{"load_app_kb", FIELD_REAL, "kB", "app RSS under load", FIELD_KIND_MEMORY, LO},
	{"load_pg_rss_kb", FIELD_REAL, "kB", "PostgreSQL RSS under load", FIELD_KIND_MEMORY, LO},
	{"mem_avail_min_kb", FIELD_REAL, "kB", "smallest MemAvailable in the window",
	 FIELD_KIND_MEMORY, HI},
	{"backends_max", FIELD_INT, "", "most PostgreSQL client backends", FIELD_KIND_COUNT, LO},
	{"xact_per_s", FIELD_REAL, "1/s", "PostgreSQL commits per second", FIELD_KIND_RATE, HI},
	{"wal_rec_per_s", FIELD_REAL, "1/s", "WAL records per second", FIELD_KIND_RATE, NONE},
};

#undef L
#undef NONE
#undef HI
#undef LO

const size_t field_known_count = sizeof(field_known) / sizeof(field_known[0]);

/* Each tool layout's primary metric (importers/tools.c's format names). */
static const struct {
	const char *layout, *metric;
} tool_metrics[] = {
	{"gobench", "ns_per_op"},  {"hyperfine", "time_s"},      {"hyperfine-csv", "mean_s"},
	{"gbench", "real_time_ns"}, {"wrk", "requests_per_s"},
};

const char *tool_default_metric(const char *layout)
{
	for (size_t i = 0; layout && i < sizeof(tool_metrics) / sizeof(tool_metrics[0]); i++)
		if (!strcmp(tool_metrics[i].layout, layout))
			return tool_metrics[i].metric;
	return NULL;
}

const struct field_info *field_find_known(const char *name)
{
	const struct field_info *f = field_find(name);
	if (f)
		return f;
	for (size_t i = 0; i < field_known_count; i++)
		if (!strcmp(field_known[i].name, name))
			return &field_known[i];
	return NULL;
}

const struct field_info *field_find(const char *name)
{
	for (size_t i = 0; i < field_canonical_count; i++)
		if (strcmp(field_canonical[i].name, name) == 0)
			return &field_canonical[i];
	return NULL;
}

const char *field_unit(const char *name)
{
	const struct field_info *f = name ? field_find(name) : NULL;
	return f ? f->unit : "";
}

const char *field_known_unit(const char *name)
{
	const struct field_info *f = name ? field_find_known(name) : NULL;
	return f ? f->unit : "";
}

/* Does the lowercased name end with suffix (or is it the suffix: "gbps")? */
static bool ends(const char *name, const char *suffix)
{
	size_t n = strlen(name), k = strlen(suffix);
	return n >= k && !strcmp(name + n - k, suffix);
}

static bool any_exact(const char *name, const char *const *names)
{
	for (size_t i = 0; names[i]; i++)
		if (!strcmp(name, names[i]))
			return true;
	return false;
}

static bool any_suffix(const char *name, const char *const *suffixes)
{
	for (size_t i = 0; suffixes[i]; i++)
		if (ends(name, suffixes[i]))
			return true;
	return false;
}

/* Does a word of the name (split at '_', '.' and '-') start with one of words? */
static bool any_word(const char *name, const char *const *words)
{
	for (const char *w = name; *w; w++) {
		if (w != name && !strchr("_.-", w[-1]))
			continue;
		for (size_t i = 0; words[i]; i++)
			if (!strncmp(w, words[i], strlen(words[i])))
				return true;
	}
	return false;
}

/*
 * Inference from a non-canonical name, lowercased; first match wins (a
 * "word" is a part of the name between '_', '.' or '-'). Only
 * unit suffixes and names that say one thing are used (an `_rate` suffix
 * is not: an error rate is a fraction, an arrival rate a rate):
 *   rate      _per_s, _per_sec, _per_second, _qps, _rps, _tps, _iops,
 *             _ops; qps, rps, tps, iops, ops, ips, throughput; a name
 *             ending in gbps, mbps or kbps
 *   cpu       a word starting with cpu or busy; _cores
 *   latency   a word starting with latency; p50, p90, p95, p99, p999
 *   time      _ms, _us, _ns, _sec, _seconds, _s; ns_per_*, us_per_*,
 *             ms_per_*
 *   memory    _kb, _mb, _gb, _kib, _mib, _gib, _bytes; a word starting with
 *             rss or pss; b_per_*, bytes_per_* (Go's B/op)
 *   fraction  _pct, _percent, _frac, _fraction, _share; err, error_rate,
 *             efficiency; a name ending in _rate with a word starting with
 *             err, fail, drop, loss, miss, reject, hit or success
 *   ratio     _ratio, _factor; speedup
 *   count     _count, _total; n_*, num_*; allocs_per_* (Go's allocs/op,
 *             lower is better: allocs is an error-like word)
 */
static const char *infer_kind(const char *name, enum field_kind *kind)
{
	static const char *const rate_suffix[] = {"_per_s", "_per_sec", "_per_second", "_qps",
						  "_rps",   "_tps",     "_iops",       "_ops",
						  "gbps",   "mbps",     "kbps",        NULL};
	static const char *const rate_name[] = {"qps", "rps", "tps",        "iops",
						"ops", "ips", "throughput", NULL};
	static const char *const cpu_word[] = {"cpu", "busy", NULL};
	static const char *const time_suffix[] = {"_ms",      "_us", "_ns", "_sec",
						  "_seconds", "_s",  NULL};
	static const char *const time_name[] = {"p50", "p90", "p95", "p99", "p999", NULL};
	static const char *const mem_suffix[] = {"_kb",  "_mb",  "_gb",    "_kib",
						 "_mib", "_gib", "_bytes", NULL};
	static const char *const frac_suffix[] = {"_pct",      "_percent", "_frac",
						  "_fraction", "_share",   NULL};
	static const char *const frac_name[] = {"err", "error_rate", "efficiency", NULL};
	static const char *const rate_words[] = {"err",    "fail", "drop",    "loss", "miss",
						 "reject", "hit",  "success", NULL};
	static const char *const latency[] = {"latency", NULL};
	static const char *const rss[] = {"rss", "pss", NULL};
	if (any_suffix(name, rate_suffix) || any_exact(name, rate_name))
		return *kind = FIELD_KIND_RATE, "name (a rate: per second)";
	if (any_word(name, cpu_word) || ends(name, "_cores"))
		return *kind = FIELD_KIND_CPU, "name (CPU: cpu, busy or _cores)";
	if (any_exact(name, time_name) || any_word(name, latency))
		return *kind = FIELD_KIND_LATENCY, "name (latency or a percentile)";
	if (any_suffix(name, time_suffix) || !strncmp(name, "ns_per_", 7) ||
	    !strncmp(name, "us_per_", 7) || !strncmp(name, "ms_per_", 7))
		return *kind = FIELD_KIND_TIME, "name (a time unit)";
	if (any_suffix(name, mem_suffix) || any_word(name, rss) || !strncmp(name, "b_per_", 6) ||
	    !strncmp(name, "bytes_per_", 10)) /* Go's B/op */
		return *kind = FIELD_KIND_MEMORY, "name (a memory unit or rss/pss)";
	if (any_suffix(name, frac_suffix) || any_exact(name, frac_name) ||
	    (ends(name, "_rate") && any_word(name, rate_words)))
		return *kind = FIELD_KIND_FRACTION, "name (a share: _pct, error or hit rate)";
	if (ends(name, "_ratio") || ends(name, "_factor") || !strcmp(name, "speedup"))
		return *kind = FIELD_KIND_RATIO, "name (a ratio)";
	if (ends(name, "_count") || ends(name, "_total") || !strncmp(name, "n_", 2) ||
	    !strncmp(name, "num_", 4) || !strncmp(name, "allocs_per_", 11))
		return *kind = FIELD_KIND_COUNT, "name (a count)";
	return NULL;
}

/* Words that say which way is better, for kinds without a natural direction. */
static const char *infer_direction(const char *name, bool *lower)
{
	static const char *const worse[] = {"err",    "fail",    "drop",   "loss", "miss",
					    "reject", "timeout", "allocs", NULL};
	static const char *const better[] = {"avail", "free",  "hit",        "success", "ok",
					     "valid", "patch", "efficiency", NULL};
	if (any_word(name, worse))
		return *lower = true, "name (an error word: lower is better)";
	if (ends(name, "_per_op") || ends(name, "_per_int") || ends(name, "_per_interaction"))
		return *lower = true, "name (a cost per operation: lower is better)";
	if (any_word(name, better))
		return *lower = false, "name (higher is better)";
	return NULL;
}

void field_metric_meaning(const char *name, const enum field_kind *kind, bool lower_is_better,
			  struct metric_meaning *out)
{
	const struct field_info *f = field_find_known(name);
	bool canonical = f && field_find(name);
	char low[128];
	size_t i;
	const char *from;
	memset(out, 0, sizeof(*out));
	for (i = 0; name[i] && i + 1 < sizeof(low); i++)
		low[i] = (char)tolower((unsigned char)name[i]);
	low[i] = '\0';
	if (kind) {
		out->kind = *kind;
		out->kind_from = "--metric-kind";
	} else if (f) {
		out->kind = f->kind;
		out->kind_from =
			canonical ? "canonical field" : "known field (a tool's or harness's)";
		if (f->kind == FIELD_KIND_LABEL || f->kind == FIELD_KIND_WORKERS) {
			out->kind = FIELD_KIND_COUNT;
			out->kind_from = "canonical field (a label or level, read as a count)";
		}
	} else if ((from = infer_kind(low, &out->kind)) != NULL) {
		out->kind_from = from;
	} else {
		out->kind = FIELD_KIND_RATE;
		out->kind_assumed = true;
		out->kind_from = "assumed rate (the name says no kind; --metric-kind KIND says it)";
	}
	if (lower_is_better) {
		out->lower_is_better = true;
		out->direction_from = "--lower-is-better";
		return;
	}
	if (f && f->direction != FIELD_DIR_NONE) {
		out->lower_is_better = f->direction == FIELD_DIR_LOWER;
		out->direction_from = canonical ? "canonical field" : "known field";
		return;
	}
	switch (out->kind) {
	case FIELD_KIND_RATE:
		if (out->kind_assumed)
			break; /* an assumed rate: the name's words, else an assumed direction */
		out->lower_is_better = false;
		out->direction_from = "kind (a rate: higher is better)";
		return;
	case FIELD_KIND_TIME:
	case FIELD_KIND_LATENCY:
	case FIELD_KIND_MEMORY:
	case FIELD_KIND_CPU:
		if ((from = infer_direction(low, &out->lower_is_better)) && !out->lower_is_better) {
			out->direction_from = from; /* available memory: more is better */
			return;
		}
		out->lower_is_better = true;
		out->direction_from = "kind (a time, latency, memory or CPU use: lower is better)";
		return;
	default:
		break;
	}
	if ((from = infer_direction(low, &out->lower_is_better)) != NULL) {
		out->direction_from = from;
		return;
	}
	out->lower_is_better = false;
	out->direction_assumed = true;
	out->direction_from = "assumed higher is better (--lower-is-better says otherwise)";
}

const char field_worker_names[] =
	"gomaxprocs (Go's -cpu N), threads (Google Benchmark's), "
	"nthreads, threads_per_proc, procs, nprocs, processes, cpus, vcpus, cores, "
	"workers";

bool field_counts_workers(const char *name)
{
	static const char *const names[] = {
		"gomaxprocs", "threads", "nthreads",  "threads_per_proc",
		"procs",      "nprocs",  "processes", "cpus",
		"vcpus",      "cores",   "workers",   NULL};
	const struct field_info *f = field_find(name);
	if (f)
		return f->kind == FIELD_KIND_WORKERS;
	for (size_t i = 0; names[i]; i++)
		if (!strcasecmp(name, names[i]))
			return true;
	return false;
}

bool field_level_counts_workers(const char *by, const char *workers)
{
	if (!by)
		return false;
	return field_counts_workers(by) || (workers && !strcmp(workers, by));
}
