/*
 * fields_list: the canonical run fields, in the order of the runs table.
 * Adding one means: a column in a new schema migration, a row here, its
 * source names in importers/mapping.c, and a line in schema/README.md.
 */
#include "fields.h"

#include <string.h>

const struct field_info field_canonical[] = {
	{"tput", FIELD_REAL, "interactions/s", "throughput (tput, interactions_per_sec, ips)"},
	{"gomaxprocs", FIELD_INT, "threads", "GOMAXPROCS given to the app (never the generator's)"},
	{"sessions", FIELD_INT, "sessions", "sessions requested (sessions, level)"},
	{"established", FIELD_INT, "sessions", "sessions actually established"},
	{"block", FIELD_TEXT, "", "counterbalancing block label"},
	{"rep", FIELD_INT, "", "repeat number within a block"},
	{"target", FIELD_TEXT, "", "target machine label"},
	{"cfg", FIELD_TEXT, "", "configuration arm (cfg)"},
	{"store", FIELD_TEXT, "", "session store the app reported"},
	{"gogc", FIELD_TEXT, "", "GOGC given to the app"},
	{"variant", FIELD_TEXT, "", "app binary variant"},
	{"p50_ms", FIELD_REAL, "ms", "median latency"},
	{"p95_ms", FIELD_REAL, "ms", "95th percentile latency"},
	{"p99_ms", FIELD_REAL, "ms", "99th percentile latency"},
	{"max_ms", FIELD_REAL, "ms", "maximum latency"},
	{"err", FIELD_REAL, "fraction", "error rate"},
	{"patch_rate", FIELD_REAL, "fraction", "interactions that returned patches"},
	{"valid", FIELD_BOOL, "", "generator's validity verdict"},
	{"gen_cpu_pct", FIELD_REAL, "%", "generator CPU as % of its machine"},
	{"gen_saturated", FIELD_BOOL, "", "generator's self-saturation flag"},
	{"app_cores", FIELD_REAL, "cores", "app CPU in cores as the driver reported it"},
	{"idle_rss_kb", FIELD_REAL, "kB", "app RSS at idle"},
	{"load_rss_kb", FIELD_REAL, "kB", "app RSS under load as the driver reported it"},
	{"interactions", FIELD_INT, "", "interactions counted in the window"},
	{"cpu_s", FIELD_REAL, "s", "app CPU seconds reported by the driver"},
	{"started_at", FIELD_TEXT, "", "run start (RFC 3339 UTC)"},
	{"duration_s", FIELD_REAL, "s", "measured window length"},
};

const size_t field_canonical_count = sizeof(field_canonical) / sizeof(field_canonical[0]);

const struct field_info *field_find(const char *name)
{
	for (size_t i = 0; i < field_canonical_count; i++)
		if (strcmp(field_canonical[i].name, name) == 0)
			return &field_canonical[i];
	return NULL;
}
