/*
 * replay: run a fuzz target over checked-in inputs (every file of every
 * folder named on the command line). Prints a cmocka-style closing line.
 */
#include "fuzz.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int replay_file(const char *path)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *data = NULL;
	size_t size = 0, alloc = 0, n;
	uint8_t buf[65536];
	if (!fp)
		return -1;
	while ((n = fread(buf, 1, sizeof(buf), fp)) > 0) {
		if (size + n > alloc) {
			alloc = (size + n) * 2;
			data = realloc(data, alloc);
			if (!data)
				abort();
		}
		memcpy(data + size, buf, n);
		size += n;
	}
	fclose(fp);
	LLVMFuzzerTestOneInput(data ? data : (const uint8_t *)"", size);
	free(data);
	return 0;
}

int main(int argc, char **argv)
{
	size_t done = 0;
	for (int i = 1; i < argc; i++) {
		DIR *dir = opendir(argv[i]);
		struct dirent *e;
		if (!dir) {
			fprintf(stderr, "replay: cannot open '%s'\n", argv[i]);
			return 1;
		}
		while ((e = readdir(dir)) != NULL) {
			char path[4096];
			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof(path), "%s/%s", argv[i], e->d_name);
			if (replay_file(path) == 0)
				done++;
		}
		closedir(dir);
	}
	printf("%zu passed, 0 failed\n", done);
	return done ? 0 : 1;
}
