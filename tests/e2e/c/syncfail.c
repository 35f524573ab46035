/*
 * syncfail: an LD_PRELOAD library whose fsync and fdatasync fail with EIO
 * (a storage error), so a test can see what coreplan does when the final
 * sync of a database file it created fails. Children do not inherit it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((constructor)) static void init(void)
{
	unsetenv("LD_PRELOAD");
}

int fsync(int fd)
{
	(void)fd;
	errno = EIO;
	return -1;
}

int fdatasync(int fd)
{
	(void)fd;
	errno = EIO;
	return -1;
}
