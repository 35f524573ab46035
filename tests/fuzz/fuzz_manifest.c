/* fuzz_manifest: the corpus manifest parser and tag patterns (importers/manifest.c). */
#include "fuzz.h"

#include "common/err.h"
#include "importers/manifest.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	struct manifest *m = NULL;
	if (manifest_parse(text, "fuzz", &m) == 0) {
		for (size_t i = 0; i < m->ntables; i++) {
			for (size_t p = 0; p < m->tables[i].ntag_parse; p++) {
				char **names = NULL, **values = NULL;
				size_t n = 0;
				if (manifest_match(m->tables[i].tag_parse[p], "g8-n100-b1", &names,
						   &values, &n))
					manifest_free_captures(names, values, n);
			}
		}
		manifest_free(m);
	}
	free(text);
	err_clear();
	return 0;
}
