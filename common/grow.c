/* grow: see grow.h. */
#include "grow.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int grow_array(void *array, size_t *alloc, size_t need, size_t elem)
{
	size_t want = *alloc ? *alloc : 16;
	void *items, *grown;
	if (need <= *alloc)
		return 0;
	while (want < need) {
		if (want > SIZE_MAX / 2 / elem)
			return -1;
		want *= 2;
	}
	/* the pointer is a T *, read and written as bytes: no type is punned */
	memcpy(&items, array, sizeof(items));
	grown = realloc(items, want * elem);
	if (!grown)
		return -1;
	memcpy(array, &grown, sizeof(grown));
	*alloc = want;
	return 0;
}
