/*
 * fuzz_lscpu: `lscpu -p` and sibling-list parsing (importers/topology.c),
 * and cpusets on the result (schema/topology.c).
 */
#include "fuzz.h"

#include "common/err.h"
#include "importers/topology.h"
#include "schema/topology.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct topology t;
	if (topology_parse((const char *)data, size, "fuzz", &t) == 0) {
		struct cpuset_use use;
		topology_cpuset(&t, "0,4,1,5", &use);
		topology_cpuset(&t, "0-3,0", &use);
		topology_release(&t);
	}
	err_clear();
	return 0;
}
