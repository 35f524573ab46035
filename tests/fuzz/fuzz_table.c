/* fuzz_table: the headed results-table reader (importers/table.c). */
#include "fuzz.h"

#include "common/err.h"
#include "importers/table.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct table t;
	const char *path = fuzz_file(data, size, size && data[0] & 1 ? ".csv" : ".tsv");
	if (table_read(path, "fuzz", TABLE_SNIFF, &t) == 0)
		table_release(&t);
	err_clear();
	return 0;
}
