/* fuzz_wrk: the wrk text output converter (importers/tool_wrk.c), on raw bytes. */
#include "fuzz.h"

#include "common/err.h"
#include "importers/table.h"
#include "importers/tools.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct table t;
	if (tool_convert_table(tool_find("wrk"), (const char *)data, size, "fuzz", "f.txt", &t) ==
	    0)
		table_release(&t);
	err_clear();
	return 0;
}
