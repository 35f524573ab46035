/* fuzz_banner: the idle banner, accounting file and rejection marker readers. */
#include "fuzz.h"

#include "common/err.h"
#include "importers/runfiles.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct attr_list attrs = {0};
	char *status = NULL, *reason = NULL;
	const char *path = fuzz_file(data, size, ".txt");
	banner_read(path, "fuzz", 1, &status, &attrs);
	acct_read(path, "fuzz", 1, &attrs);
	rejected_read(path, "fuzz", &reason);
	free(status);
	free(reason);
	attr_list_release(&attrs);
	err_clear();
	return 0;
}
