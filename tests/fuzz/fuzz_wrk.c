/* fuzz_wrk: the wrk text output converter (importers/tool_wrk.c), on raw bytes. */
#include "fuzz.h"

#include "common/err.h"
#include "importers/table.h"
#include "importers/tool_wrk.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct table t;
	/* the importer hands converters a NUL-terminated copy (tools.h) */
	char *bytes = malloc(size + 1);
	if (!bytes)
		return 0;
	memcpy(bytes, data, size);
	bytes[size] = '\0';
	(void)tool_wrk_detect(bytes, size);
	if (tool_wrk_convert(bytes, size, "fuzz", &t) == 0)
		table_release(&t);
	free(bytes);
	err_clear();
	return 0;
}
