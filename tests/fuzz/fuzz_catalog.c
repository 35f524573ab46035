/* fuzz_catalog: the instance catalog parser (importers/catalog.c). */
#include "fuzz.h"

#include "common/err.h"
#include "importers/catalog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct catalog c;
	const char *path = fuzz_file(data, size, ".tsv");
	if (catalog_read(path, &c) == 0)
		catalog_release(&c);
	err_clear();
	warn_clear();
	return 0;
}
