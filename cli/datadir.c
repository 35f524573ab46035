/* datadir: see datadir.h. */
#include "datadir.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef COREPLAN_REL_CATALOG_DIR
#define COREPLAN_REL_CATALOG_DIR "../share/coreplan/catalogs"
#endif

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

static int is_dir(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* The folder of the running executable plus rel, made canonical when it exists. */
static int beside_exe(const char *rel, char *out, size_t size)
{
	char exe[PATH_MAX], joined[2 * PATH_MAX + 2], real[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;
	if (n <= 0 || (size_t)n >= sizeof(exe) - 1)
		return -1;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return -1;
	*slash = '\0';
	if (snprintf(joined, sizeof(joined), "%s/%s", exe, rel) >= (int)sizeof(joined))
		return -1;
	if (realpath(joined, real))
		n = snprintf(out, size, "%s", real);
	else
		n = snprintf(out, size, "%s", joined);
	return n >= 0 && (size_t)n < size ? 0 : -1;
}

const char *cli_catalog_dir(void)
{
	static char dir[PATH_MAX];
	static int done;
	char installed[PATH_MAX];
	const char *env;
	int have_installed;
	if (done)
		return dir;
	done = 1;
	env = getenv("COREPLAN_CATALOG_DIR");
	if (env && *env) {
		snprintf(dir, sizeof(dir), "%s", env);
		return dir;
	}
	have_installed = beside_exe(COREPLAN_REL_CATALOG_DIR, installed, sizeof(installed)) == 0;
	if (have_installed && is_dir(installed)) {
		snprintf(dir, sizeof(dir), "%s", installed);
		return dir;
	}
#ifdef COREPLAN_SOURCE_CATALOG_DIR
	if (is_dir(COREPLAN_SOURCE_CATALOG_DIR)) {
		snprintf(dir, sizeof(dir), "%s", COREPLAN_SOURCE_CATALOG_DIR);
		return dir;
	}
#endif
	snprintf(dir, sizeof(dir), "%s", have_installed ? installed : "fixtures/catalogs");
	return dir;
}
