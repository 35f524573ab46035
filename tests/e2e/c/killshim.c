/*
 * killshim: an LD_PRELOAD library that SIGKILLs its process at the Nth
 * call (COREPLAN_KILL_AT=N) to one of the calls that change a folder
 * (mkdir, mkdtemp, rmdir, unlinkat, unlink, renameat, rename, linkat), so a
 * test can stop `coreplan report` at every point where its output folder
 * changes. COREPLAN_KILL_COUNT=FILE: the number of such calls made, written
 * at exit (a run that was not killed). Children (gnuplot) do not inherit it.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static long kill_at = -1, calls;
static char *count_file;

static void write_count(void)
{
	FILE *fp = count_file ? fopen(count_file, "w") : NULL;
	if (fp) {
		fprintf(fp, "%ld\n", calls);
		fclose(fp);
	}
}

__attribute__((constructor)) static void init(void)
{
	const char *at = getenv("COREPLAN_KILL_AT"), *cf = getenv("COREPLAN_KILL_COUNT");
	if (at)
		kill_at = atol(at);
	if (cf)
		count_file = strdup(cf);
	unsetenv("LD_PRELOAD");
	unsetenv("COREPLAN_KILL_AT");
	atexit(write_count);
}

static void tick(void)
{
	if (++calls == kill_at)
		kill(getpid(), SIGKILL);
}

#define NEXT(name) ((__typeof__(&name))dlsym(RTLD_NEXT, #name))

int mkdir(const char *p, mode_t m) { tick(); return NEXT(mkdir)(p, m); }
char *mkdtemp(char *t) { tick(); return NEXT(mkdtemp)(t); }
int rmdir(const char *p) { tick(); return NEXT(rmdir)(p); }
int unlink(const char *p) { tick(); return NEXT(unlink)(p); }
int unlinkat(int d, const char *p, int f) { tick(); return NEXT(unlinkat)(d, p, f); }
int rename(const char *a, const char *b) { tick(); return NEXT(rename)(a, b); }
int renameat(int d, const char *a, int e, const char *b) { tick(); return NEXT(renameat)(d, a, e, b); }
int linkat(int d, const char *a, int e, const char *b, int f) { tick(); return NEXT(linkat)(d, a, e, b, f); }
