/*
 * fuzz_tools: detection on structure (importers/tool_detect.c) and every
 * tool converter (importers/tools.h) on the same raw bytes: the JSON
 * reader, the Go text and CSV converters must refuse or convert, never
 * crash, leak or read out of bounds.
 */
#include "fuzz.h"

#include "common/err.h"
#include "importers/table.h"
#include "importers/tools.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tool_src src;
	struct tool_class class;
	tool_src_mem(&src, (const char *)data, size, "fuzz");
	(void)tool_classify(&src, &class);
	tool_src_close(&src);
	err_clear();
	for (size_t i = 0; tool_formats[i].name; i++) {
		struct table t;
		if (tool_convert_table(&tool_formats[i], (const char *)data, size, "fuzz", "f.txt",
				       &t) == 0)
			table_release(&t);
		err_clear();
	}
	return 0;
}
