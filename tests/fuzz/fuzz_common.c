/* fuzz_common: see fuzz.h. */
#include "fuzz.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The process's private folder (mkdtemp under $TMPDIR, else /tmp), removed at exit. */
static char folder[4096];

static void remove_folder(void)
{
	char path[4096 + 300];
	DIR *dir;
	struct dirent *e;
	if (!folder[0])
		return;
	dir = opendir(folder);
	while (dir && (e = readdir(dir)) != NULL) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", folder, e->d_name);
		unlink(path);
	}
	if (dir)
		closedir(dir);
	rmdir(folder);
	folder[0] = '\0';
}

static const char *private_folder(void)
{
	const char *tmp = getenv("TMPDIR");
	if (folder[0])
		return folder;
	if (!tmp || !*tmp)
		tmp = "/tmp";
	if (snprintf(folder, sizeof(folder), "%s/coreplan-fuzz.XXXXXX", tmp) >=
		    (int)sizeof(folder) ||
	    !mkdtemp(folder))
		abort();
	atexit(remove_folder);
	return folder;
}

const char *fuzz_file(const uint8_t *data, size_t size, const char *extension)
{
	static char path[4096 + 64];
	int fd;
	snprintf(path, sizeof(path), "%s/input%s", private_folder(), extension);
	/* a new file each time, in a folder only this process writes: no link is followed */
	unlink(path);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0600);
	if (fd < 0)
		abort();
	for (size_t done = 0; done < size;) {
		ssize_t n = write(fd, data + done, size - done);
		if (n <= 0)
			abort();
		done += (size_t)n;
	}
	if (close(fd) != 0)
		abort();
	return path;
}

char *fuzz_text(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1);
	if (!text)
		abort();
	memcpy(text, data, size);
	text[size] = '\0';
	return text;
}
