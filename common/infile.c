/* infile: see infile.h. */
#include "infile.h"

#include "err.h"
#include "strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define OPEN_FLAGS (O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

static const struct infile closed = {.fd = -1};

const char *infile_kind(unsigned mode)
{
	static const struct {
		unsigned type; /* st_mode & S_IFMT */
		const char *kind;
	} kinds[] = {
		{S_IFIFO, "a FIFO"},         {S_IFCHR, "a character device"},
		{S_IFBLK, "a block device"}, {S_IFSOCK, "a socket"},
		{S_IFDIR, "a folder"},       {S_IFLNK, "a symbolic link"},
	};
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if ((mode & S_IFMT) == kinds[i].type)
			return kinds[i].kind;
	return "not a regular file";
}

static void limit_text(int64_t limit, char *buf, size_t size)
{
	if (limit % ((int64_t)1 << 20) == 0)
		snprintf(buf, size, "%lld MiB", (long long)(limit >> 20));
	else
		snprintf(buf, size, "%lld bytes", (long long)limit);
}

static int64_t nanoseconds(struct timespec ts)
{
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void identity(const struct stat *st, struct infile_id *id)
{
	id->dev = (uint64_t)st->st_dev;
	id->ino = (uint64_t)st->st_ino;
	id->size = (int64_t)st->st_size;
	id->mtime_ns = nanoseconds(st->st_mtim);
	id->ctime_ns = nanoseconds(st->st_ctim);
}

static bool same_id(const struct infile_id *a, const struct infile_id *b)
{
	return a->dev == b->dev && a->ino == b->ino && a->size == b->size &&
	       a->mtime_ns == b->mtime_ns && a->ctime_ns == b->ctime_ns;
}

static int refuse_kind(const char *display, unsigned mode)
{
	return err_set("'%s' is %s, not a regular file: not read", display, infile_kind(mode));
}

static int refuse_size(const char *display, int64_t limit)
{
	char text[32];
	limit_text(limit, text, sizeof(text));
	return err_at(display, 0, 0, "larger than %s (the limit for this file): not read", text);
}

/* After the open: a regular file within the limit, blocking reads, hashing from byte 0. */
static int adopt(struct infile *f, int fd, const char *display, int64_t limit)
{
	struct stat st;
	f->fd = fd;
	f->limit = limit;
	f->bytes = 0;
	f->eof = false;
	f->display = strdup(display);
	f->hash = hash_new();
	if (!f->display || !f->hash)
		return err_set("out of memory reading '%s'", display);
	if (fstat(fd, &st) != 0)
		return err_set("cannot stat '%s': %s", display, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return refuse_kind(display, st.st_mode);
	if (limit > 0 && st.st_size > limit)
		return refuse_size(display, limit);
	/*
	 * O_NONBLOCK stays set: it only kept a FIFO from blocking the open, and
	 * reads of a regular file (the only kind accepted above) ignore it.
	 */
	identity(&st, &f->id);
	return 0;
}

int infile_open(struct infile *f, const char *path, const char *display, int64_t limit)
{
	struct stat st;
	int fd, rc;
	*f = closed;
	/* look first: opening a device or a FIFO can have effects of its own */
	if (stat(path, &st) != 0)
		return err_set("cannot open '%s': %s", display, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return refuse_kind(display, st.st_mode);
	fd = open(path, OPEN_FLAGS);
	if (fd < 0)
		return err_set("cannot open '%s': %s", display, strerror(errno));
	rc = adopt(f, fd, display, limit);
	if (rc)
		infile_close(f);
	return rc;
}

/* The components of a relative path: none empty or '..' ('.' stays where it is). */
static int check_relative(const char *relative, const char *display)
{
	const char *p = relative;
	if (*relative == '/')
		return err_set("'%s' is an absolute path: corpus files are read inside the corpus "
			       "folder only",
			       display);
	for (;;) {
		const char *slash = strchr(p, '/');
		size_t n = slash ? (size_t)(slash - p) : strlen(p);
		if (n == 0 || (n == 2 && p[0] == '.' && p[1] == '.'))
			return err_set("'%s' has an empty or '..' component: corpus files are read "
				       "inside the corpus folder only",
				       display);
		if (!slash)
			return 0;
		p = slash + 1;
	}
}

/* The error for a component that could not be opened (a link is named as such). */
static int component_error(int dir_fd, const char *name, const char *display, int saved)
{
	struct stat st;
	if (fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode) &&
	    !strcmp(display, name))
		return err_set("'%s' is a symbolic link: not followed (links inside a corpus "
			       "folder are never read)",
			       display);
	if (fstatat(dir_fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
		return err_set("'%s': '%s' is a symbolic link: not followed (links inside a corpus "
			       "folder are never read)",
			       display, name);
	return err_set("cannot open '%s': %s", display, strerror(saved));
}

/*
 * Walk the folders of `relative` below dir_fd; *parent gets the last
 * folder's descriptor (dir_fd itself when there is none) and *last the
 * final component. missing: a folder on the way does not exist.
 */
static int open_parents(int dir_fd, char *relative, const char *display, int *parent, char **last,
			bool *missing)
{
	int cur = dir_fd;
	char *p = relative;
	char *slash;
	*missing = false;
	while ((slash = strchr(p, '/')) != NULL) {
		int next;
		*slash = '\0';
		next = openat(cur, p, DIR_FLAGS);
		if (next < 0) {
			int saved = errno;
			struct stat st;
			int rc;
			if (fstatat(cur, p, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode)) {
				rc = component_error(cur, p, display, saved);
			} else {
				*missing = saved == ENOENT || saved == ENOTDIR;
				rc = err_set("cannot open '%s': %s", display, strerror(saved));
			}
			if (cur != dir_fd)
				close(cur);
			return rc;
		}
		if (cur != dir_fd)
			close(cur);
		cur = next;
		p = slash + 1;
	}
	*parent = cur;
	*last = p;
	return 0;
}

/*
 * open_parents() on a checked copy of relative (check_relative): *copy
 * gets the copy (the caller frees it, NULL when none was made), which
 * *last points into.
 */
static int open_parents_of(int dir_fd, const char *relative, const char *display, char **copy,
			   int *parent, char **last, bool *missing)
{
	int rc = check_relative(relative, display);
	*copy = NULL;
	*missing = false;
	if (rc)
		return rc;
	*copy = strdup(relative);
	if (!*copy)
		return err_set("out of memory");
	return open_parents(dir_fd, *copy, display, parent, last, missing);
}

/* The open file's real path must lie below root (where /proc tells it). */
static int check_inside(int fd, const char *root, const char *display)
{
	char link[64], real[PATH_MAX + 1];
	size_t n = root ? strlen(root) : 0;
	ssize_t got;
	if (!root)
		return 0;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	got = readlink(link, real, PATH_MAX);
	if (got < 0)
		return 0; /* no /proc: the component walk alone confines it */
	real[got] = '\0';
	if (n == 1 && root[0] == '/')
		return 0;
	if ((size_t)got > n && !strncmp(real, root, n) && real[n] == '/')
		return 0;
	return err_set("'%s' is outside the corpus folder '%s' (its real path is '%s'): not read",
		       display, root, real);
}

void infile_dirs_init(struct infile_dirs *d, int root_fd, const char *root)
{
	d->root_fd = root_fd;
	d->root = root;
	d->folder = NULL;
	d->fd = -1;
}

void infile_dirs_release(struct infile_dirs *d)
{
	if (d->fd >= 0)
		close(d->fd);
	free(d->folder);
	d->folder = NULL;
	d->fd = -1;
}

/* The folder part of relative ("" for a file directly below the root). */
static size_t folder_len(const char *relative)
{
	const char *slash = strrchr(relative, '/');
	return slash ? (size_t)(slash - relative) : 0;
}

/*
 * The open folder holding `relative` (the root's descriptor for a file
 * directly below it): the cached one when it is the same folder, else
 * opened by open_parents() and checked to lie inside the root once (a
 * file then opened by a single name below it, O_NOFOLLOW, is inside too).
 * *last points into *copy (the caller frees it).
 */
static int folder_of(struct infile_dirs *d, const char *relative, const char *display,
		     char **copy, int *parent, const char **last)
{
	size_t n = folder_len(relative);
	bool missing = false;
	char *name = NULL;
	int rc;
	*copy = NULL;
	if (n == 0 || (d->folder && strlen(d->folder) == n && !strncmp(d->folder, relative, n))) {
		rc = check_relative(relative, display);
		*parent = n == 0 ? d->root_fd : d->fd;
		*last = relative + (n ? n + 1 : 0);
		return rc;
	}
	infile_dirs_release(d);
	rc = open_parents_of(d->root_fd, relative, display, copy, parent, &name, &missing);
	if (rc)
		return rc;
	*last = name;
	rc = check_inside(*parent, d->root, display);
	if (rc) {
		close(*parent);
		*parent = -1;
		return rc;
	}
	d->folder = strndup(relative, n);
	if (!d->folder) {
		close(*parent);
		*parent = -1;
		return err_set("out of memory");
	}
	d->fd = *parent;
	return 0;
}

int infile_open_below(struct infile *f, struct infile_dirs *d, const char *relative,
		      const char *display, int64_t limit)
{
	char *copy = NULL;
	const char *last = NULL;
	int parent = -1, fd = -1;
	struct stat st;
	int rc;
	*f = closed;
	rc = folder_of(d, relative, display, &copy, &parent, &last);
	if (rc)
		goto done;
	if (fstatat(parent, last, &st, AT_SYMLINK_NOFOLLOW) != 0) {
		rc = err_set("cannot open '%s': %s", display, strerror(errno));
		goto done;
	}
	if (S_ISLNK(st.st_mode)) {
		rc = err_set("'%s' is a symbolic link: not followed (links inside a corpus folder "
			     "are never read)",
			     display);
		goto done;
	}
	if (!S_ISREG(st.st_mode)) {
		rc = refuse_kind(display, st.st_mode);
		goto done;
	}
	fd = openat(parent, last, OPEN_FLAGS | O_NOFOLLOW);
	if (fd < 0) {
		rc = errno == ELOOP ? component_error(parent, last, display, errno)
				    : err_set("cannot open '%s': %s", display, strerror(errno));
		goto done;
	}
	rc = adopt(f, fd, display, limit);
	fd = -1; /* f owns it now */
	if (rc == 0 && parent == d->root_fd)
		rc = check_inside(f->fd, d->root, display);
done:
	if (fd >= 0)
		close(fd);
	free(copy);
	if (rc)
		infile_close(f);
	return rc;
}

int infile_open_in(struct infile *f, int dir_fd, const char *root, const char *relative,
		   const char *display, int64_t limit)
{
	struct infile_dirs d;
	int rc;
	infile_dirs_init(&d, dir_fd, root);
	rc = infile_open_below(f, &d, relative, display, limit);
	infile_dirs_release(&d);
	return rc;
}

int infile_opendir_in(int dir_fd, const char *relative, const char *display, int *out)
{
	char *copy = NULL, *last = NULL;
	int parent = -1;
	bool missing = false;
	struct stat st;
	int rc;
	*out = -1;
	if (!*relative || !strcmp(relative, ".")) {
		*out = fcntl(dir_fd, F_DUPFD_CLOEXEC, 0);
		return *out >= 0 ? 0 : err_set("cannot open '%s': %s", display, strerror(errno));
	}
	rc = open_parents_of(dir_fd, relative, display, &copy, &parent, &last, &missing);
	if (rc && missing) {
		err_clear();
		rc = 1;
	}
	if (rc)
		goto done;
	if (fstatat(parent, last, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
	    !(S_ISDIR(st.st_mode) || S_ISLNK(st.st_mode))) {
		rc = 1;
		goto done;
	}
	*out = openat(parent, last, DIR_FLAGS);
	if (*out < 0)
		rc = component_error(parent, last, display, errno);
done:
	if (parent >= 0 && parent != dir_fd)
		close(parent);
	free(copy);
	return rc;
}

int infile_same(const struct infile *f, const struct infile_id *want)
{
	if (same_id(&f->id, want))
		return 0;
	return err_set("'%s' changed during the import (its size, times or inode differ from "
		       "when it was hashed): nothing stored",
		       f->display);
}

int infile_open_kept(struct infile *f, const char *bytes, int64_t len, const char *sha256,
		     const char *display, int64_t limit)
{
	*f = closed;
	f->display = strdup(display);
	if (!f->display)
		return err_set("out of memory reading '%s'", display);
	if (limit > 0 && len > limit) {
		int rc = refuse_size(display, limit);
		infile_close(f);
		return rc;
	}
	f->kept = bytes;
	f->kept_sha256 = sha256;
	f->limit = limit;
	f->id.size = len;
	return 0;
}

static void read_kept(struct infile *f, void *buf, size_t size, size_t *got)
{
	size_t left = (size_t)(f->id.size - f->bytes);
	size_t n = size < left ? size : left;
	memcpy(buf, f->kept + f->bytes, n);
	f->bytes += (int64_t)n;
	f->eof = n == 0;
	*got = n;
}

int infile_read(struct infile *f, void *buf, size_t size, size_t *got)
{
	ssize_t n;
	*got = 0;
	if (f->eof || size == 0)
		return 0;
	if (f->kept) {
		read_kept(f, buf, size, got);
		return 0;
	}
	/* every byte fstat saw at the open is read: infile_end's fstat tells a file grown since */
	if (f->id.size > 0 && f->bytes >= f->id.size) {
		f->eof = true;
		return 0;
	}
	do
		n = read(f->fd, buf, size);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return err_set("cannot read '%s': %s", f->display, strerror(errno));
	if (n == 0) {
		f->eof = true;
		return 0;
	}
	f->bytes += n;
	if (f->limit > 0 && f->bytes > f->limit) {
		char text[32];
		limit_text(f->limit, text, sizeof(text));
		return err_at(f->display, 0, 0, "larger than %s (the limit for this file)", text);
	}
	hash_update(f->hash, buf, (size_t)n);
	*got = (size_t)n;
	return 0;
}

int infile_slurp(struct infile *f, char **text, size_t *len)
{
	struct strbuf sb = STRBUF_INIT;
	char buf[65536];
	size_t got;
	int rc;
	*text = NULL;
	*len = 0;
	while ((rc = infile_read(f, buf, sizeof(buf), &got)) == 0 && got > 0)
		if (strbuf_add(&sb, buf, got)) {
			rc = err_set("out of memory reading '%s'", f->display);
			break;
		}
	if (rc == 0) {
		size_t n = sb.len;
		if (!(*text = strbuf_detach(&sb)))
			return err_set("out of memory reading '%s'", f->display);
		*len = n;
		return 0;
	}
	strbuf_release(&sb);
	return rc;
}

int infile_end(struct infile *f, char hex[HASH_HEX_LEN + 1], int64_t *size)
{
	char buf[65536];
	struct stat st;
	struct infile_id now;
	size_t got;
	int rc;
	if (f->kept) {
		if (hex)
			memcpy(hex, f->kept_sha256, HASH_HEX_LEN + 1);
		if (size)
			*size = f->id.size;
		return 0;
	}
	while ((rc = infile_read(f, buf, sizeof(buf), &got)) == 0 && got > 0)
		;
	if (rc)
		return rc;
	if (fstat(f->fd, &st) != 0)
		return err_set("cannot stat '%s': %s", f->display, strerror(errno));
	identity(&st, &now);
	if (!same_id(&now, &f->id) || f->bytes != f->id.size)
		return err_set("'%s' changed while it was read (%lld bytes at the open, %lld read, "
			       "%lld now): nothing stored",
			       f->display, (long long)f->id.size, (long long)f->bytes,
			       (long long)now.size);
	if (hex) {
		hash_finish(f->hash, hex);
		f->hash = NULL;
	}
	if (size)
		*size = f->bytes;
	return 0;
}

void infile_close(struct infile *f)
{
	if (!f)
		return;
	if (f->fd >= 0)
		close(f->fd);
	hash_free(f->hash);
	free(f->display);
	*f = closed;
}

int infile_hash(const char *path, const char *display, char hex[HASH_HEX_LEN + 1], int64_t *size)
{
	struct infile f;
	int rc = infile_open(&f, path, display, INFILE_NO_LIMIT);
	if (rc == 0)
		rc = infile_end(&f, hex, size);
	infile_close(&f);
	return rc;
}
