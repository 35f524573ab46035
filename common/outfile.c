/* outfile: see outfile.h. */
#include "outfile.h"

#include "err.h"
#include "grow.h"
#include "hash.h"
#include "strbuf.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

/* A marker larger than this is not one coreplan wrote. */
#define MANIFEST_MAX (4 << 20)
/* How deep outdir_check looks into folders coreplan wrote (a report's plots/). */
#define OWNED_DEPTH 4

/* The marker before writers were recorded: its entries' writer is unknown ("-"). */
#define MANIFEST_HEADER_V1                                                                         \
	"# coreplan outputs 1: kind, size, sha256, name of each file it wrote here"
/* A stage's own marker: a folder holding it is a stage a killed coreplan left. */
#define STAGE_MARK ".coreplan-stage"
#define STAGE_MARK_TEXT "coreplan's staging folder: removed by the next write into its folder\n"

struct entry {
	char kind; /* 'f' or 'd' */
	int64_t size;
	char hash[HASH_HEX_LEN + 1];
	char writer[OUTDIR_WRITER_MAX + 1]; /* "-": written before writers were recorded */
	bool pending;                       /* outdir_expect: recorded before it moves in */
	char *name;
};

struct outdir {
	int fd; /* the folder, locked */
	bool locked;
	char *path;
	char *display;
	char writer[OUTDIR_WRITER_MAX + 1]; /* recorded with what this coreplan commits */
	struct entry *e;
	size_t n, cap;
};

enum owned { NOT_LISTED, CHANGED, OWNED };

int outfile_name_check(const char *name, const char *what)
{
	if (!name || !*name)
		return err_set("%s needs a file name", what);
	if (!strcmp(name, ".") || !strcmp(name, ".."))
		return err_set("%s '%s' is not a file name", what, name);
	if (strchr(name, '/'))
		return err_set("%s '%s' is more than a file name", what, name);
	if (name[0] == '|' || name[0] == '<')
		return err_set("%s '%s' starts with '%c', which gnuplot reads as a command to run: "
			       "choose another name",
			       what, name, name[0]);
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return err_set("%s holds a control character (0x%02x): choose another name",
				       what, *p);
	if (!strcmp(name, OUTDIR_MANIFEST) ||
	    !strncmp(name, OUTDIR_STAGE_PREFIX, strlen(OUTDIR_STAGE_PREFIX)))
		return err_set("%s '%s' is a name coreplan keeps for itself", what, name);
	return 0;
}

int outfile_create(const char *path, const char *display, FILE **fp)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
	*fp = NULL;
	if (fd < 0)
		return err_set("cannot write '%s': %s", display ? display : path, strerror(errno));
	*fp = fdopen(fd, "w");
	if (!*fp) {
		int e = errno;
		close(fd);
		return err_set("cannot write '%s': %s", display ? display : path, strerror(e));
	}
	return 0;
}

int outfile_close(FILE *fp, const char *display)
{
	bool bad;
	if (!fp)
		return 0;
	errno = 0;
	bad = fflush(fp) != 0 || ferror(fp);
	if (fclose(fp) != 0)
		bad = true;
	return bad ? err_set("cannot write '%s': %s", display, strerror(errno ? errno : EIO)) : 0;
}

/* ---- the marker ---- */

static struct entry *find(struct outdir *d, const char *name)
{
	for (size_t i = 0; i < d->n; i++)
		if (!strcmp(d->e[i].name, name))
			return &d->e[i];
	return NULL;
}

static int add_entry(struct outdir *d, char kind, int64_t size, const char *hash,
		     const char *writer, const char *name)
{
	struct entry *e = find(d, name);
	if (!e) {
		if (GROW(d->e, d->cap, d->n + 1) != 0)
			return err_set("out of memory");
		e = &d->e[d->n];
		memset(e, 0, sizeof(*e));
		if (!(e->name = strdup(name)))
			return err_set("out of memory");
		d->n++;
	}
	e->kind = kind;
	e->size = size;
	snprintf(e->hash, sizeof(e->hash), "%s", hash ? hash : "-");
	snprintf(e->writer, sizeof(e->writer), "%s", writer && *writer ? writer : "-");
	e->pending = false;
	return 0;
}

static void drop_entry(struct outdir *d, const char *name)
{
	struct entry *e = find(d, name);
	if (!e)
		return;
	free(e->name);
	*e = d->e[--d->n];
}

/* Read the whole regular file NAME of folder fd (not a link, not a FIFO), at most max bytes. */
static int read_small(int dirfd, const char *name, const char *display, size_t max, char **text,
		      bool *absent)
{
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct stat st;
	char *buf = NULL;
	size_t len = 0;
	int rc = 0;
	*text = NULL;
	*absent = false;
	if (fd < 0) {
		if (errno == ENOENT) {
			*absent = true;
			return 0;
		}
		return err_set("cannot read '%s': %s", display,
			       errno == ELOOP ? "it is a symbolic link (not followed)"
					      : strerror(errno));
	}
	if (fstat(fd, &st) != 0)
		rc = err_set("cannot read '%s': %s", display, strerror(errno));
	else if (!S_ISREG(st.st_mode))
		rc = err_set("cannot read '%s': not a regular file", display);
	else if ((uint64_t)st.st_size > max)
		rc = err_set("'%s' is larger than coreplan's list of outputs can be", display);
	else if (!(buf = malloc((size_t)st.st_size + 1)))
		rc = err_set("out of memory");
	while (rc == 0 && len < (size_t)st.st_size) {
		ssize_t got = read(fd, buf + len, (size_t)st.st_size - len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		len += (size_t)got;
	}
	close(fd);
	if (rc) {
		free(buf);
		return rc;
	}
	buf[len] = '\0';
	*text = buf;
	return 0;
}

/* Split line at tabs into n fields; false when it has another count. */
static bool split_fields(char *line, char **f, size_t n)
{
	char *p = line;
	for (size_t k = 0; k < n; k++) {
		f[k] = p;
		p = strchr(p, '\t');
		if (k + 1 < n && !p)
			return false;
		if (k + 1 < n)
			*p++ = '\0';
	}
	return !p;
}

/*
 * Parse a marker's text into d's entries; a text that is not one is an
 * error. Version 2 lines are "kind, size, sha256, writer, name"; version
 * 1's have no writer (recorded as "-").
 */
static int parse_manifest(struct outdir *d, char *text, const char *display)
{
	char *line = text, *next;
	size_t hlen = strlen(OUTDIR_MANIFEST_HEADER), h1len = strlen(MANIFEST_HEADER_V1), nf = 5;
	if (strncmp(text, MANIFEST_HEADER_V1, h1len) == 0 && text[h1len] == '\n') {
		nf = 4;
		hlen = h1len;
	} else if (strncmp(text, OUTDIR_MANIFEST_HEADER, hlen) != 0 || text[hlen] != '\n')
		return err_set(
			"'%s' is not coreplan's list of the files it wrote (left alone: move "
			"it away or choose another folder)",
			display);
	for (line = text + hlen + 1; *line; line = next) {
		char *f[5], *end;
		const char *writer = "-", *name;
		int64_t size = -1;
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		else
			next = line + strlen(line);
		if (!*line)
			continue;
		if (!split_fields(line, f, nf) || (strcmp(f[0], "f") && strcmp(f[0], "d")) ||
		    !*f[nf - 1] || (nf == 5 && (!*f[3] || strlen(f[3]) > OUTDIR_WRITER_MAX)))
			return err_set("'%s': a line is not 'kind, size, sha256,%s name'", display,
				       nf == 5 ? " writer," : "");
		if (nf == 5)
			writer = f[3];
		name = f[nf - 1];
		if (f[0][0] == 'f') {
			errno = 0;
			size = (int64_t)strtoll(f[1], &end, 10);
			if (errno || *end || size < 0 || strlen(f[2]) != HASH_HEX_LEN)
				return err_set("'%s': a file line without its size and sha256",
					       display);
		}
		if (add_entry(d, f[0][0], size, f[0][0] == 'f' ? f[2] : NULL, writer, name))
			return ERR_DATA;
	}
	return 0;
}

/* d's entries from its marker (none when it has no marker). */
static int load_manifest(struct outdir *d)
{
	struct strbuf where = STRBUF_INIT;
	char *text = NULL;
	bool absent = false;
	int rc = strbuf_addf(&where, "%s/%s", d->display, OUTDIR_MANIFEST)
			 ? err_set("out of memory")
			 : 0;
	if (rc == 0)
		rc = read_small(d->fd, OUTDIR_MANIFEST, strbuf_str(&where), MANIFEST_MAX, &text,
				&absent);
	if (rc == 0 && !absent)
		rc = parse_manifest(d, text, strbuf_str(&where));
	free(text);
	strbuf_release(&where);
	return rc;
}

/* An opened folder's end: its manifest read into d, then d to *out; on any error d freed. */
static int hand_over(struct outdir *d, int rc, struct outdir **out)
{
	if (rc == 0)
		rc = load_manifest(d);
	if (rc) {
		outdir_free(d);
		return rc;
	}
	*out = d;
	return 0;
}

/* A folder opened without a lock, for checking or removing what coreplan wrote there. */
static int open_sub(int dirfd, const char *name, const char *display, struct outdir **out)
{
	struct outdir *d = calloc(1, sizeof(*d));
	struct strbuf sb = STRBUF_INIT;
	int rc = 0;
	*out = NULL;
	if (!d || strbuf_addf(&sb, "%s/%s", display, name)) {
		free(d);
		strbuf_release(&sb);
		return err_set("out of memory");
	}
	d->display = strbuf_detach(&sb);
	d->fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (d->fd < 0)
		rc = err_set("cannot open '%s': %s", d->display, strerror(errno));
	return hand_over(d, rc, out);
}

int outdir_lists(const char *dir, const char *name, bool *listed, char **writer)
{
	struct outdir *d = NULL;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), rc;
	const struct entry *e;
	*listed = false;
	*writer = NULL;
	if (fd < 0)
		return 0; /* no folder, no marker */
	rc = open_sub(fd, ".", dir, &d);
	close(fd);
	if (rc) {
		err_clear(); /* not a marker coreplan reads: it lists nothing */
		return 0;
	}
	if ((e = find(d, name)) != NULL) {
		*listed = true;
		if (!(*writer = strdup(e->writer)))
			rc = err_set("out of memory");
	}
	outdir_free(d);
	return rc;
}

/* ---- is it coreplan's? ---- */

static int hash_at(int dirfd, const char *name, const char *display, char hex[HASH_HEX_LEN + 1],
		   int64_t *size)
{
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	struct hash_ctx *h = NULL;
	char buf[65536];
	ssize_t got;
	struct stat st;
	int rc = 0;
	*size = 0;
	if (fd < 0)
		return err_set("cannot read '%s': %s", display, strerror(errno));
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
		rc = err_set("cannot read '%s': not a regular file", display);
	else if (!(h = hash_new()))
		rc = err_set("out of memory");
	while (rc == 0 && (got = read(fd, buf, sizeof(buf))) != 0) {
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			rc = err_set("cannot read '%s': %s", display, strerror(errno));
			break;
		}
		hash_update(h, buf, (size_t)got);
		*size += got;
	}
	if (rc == 0)
		hash_finish(h, hex);
	else
		hash_free(h);
	close(fd);
	return rc;
}

/* Is the existing file `name` what coreplan wrote? (Errors reading it: not.) */
static enum owned owned(struct outdir *d, const char *name)
{
	struct entry *e = find(d, name);
	struct stat st;
	if (!e)
		return NOT_LISTED;
	if (fstatat(d->fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0)
		return CHANGED;
	if (e->kind == 'f') {
		char hex[HASH_HEX_LEN + 1];
		int64_t size = 0;
		if (!S_ISREG(st.st_mode) || (int64_t)st.st_size != e->size)
			return CHANGED;
		if (hash_at(d->fd, name, name, hex, &size) != 0) {
			err_clear();
			return CHANGED;
		}
		return size == e->size && !strcmp(hex, e->hash) ? OWNED : CHANGED;
	}
	return CHANGED; /* a folder: check_at looks into it */
}

static int check_all(struct outdir *d, bool force, bool *empty, int depth);

static int check_at(struct outdir *d, const char *name, bool force, int depth)
{
	struct entry *e = find(d, name);
	struct stat st;
	enum owned o;
	if (fstatat(d->fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
		if (errno == ENOENT)
			return 0;
		return err_set("cannot write '%s/%s': %s", d->display, name, strerror(errno));
	}
	if (S_ISLNK(st.st_mode))
		return err_set(
			"cannot write '%s/%s': it is a symbolic link (coreplan never follows "
			"one and never replaces what it did not write)",
			d->display, name);
	if (S_ISDIR(st.st_mode) && e && e->kind == 'd' && depth > 0) {
		/* a folder coreplan wrote: each entry in it checked, so the message names it */
		struct outdir *sub = NULL;
		bool empty = true;
		int rc = open_sub(d->fd, name, d->display, &sub);
		if (rc == 0)
			rc = check_all(sub, true, &empty, depth - 1);
		outdir_free(sub);
		if (rc)
			return rc;
		o = OWNED;
	} else {
		o = owned(d, name);
	}
	if (o == NOT_LISTED)
		return err_set(
			"cannot write '%s/%s': it exists and coreplan did not write it (left "
			"untouched; choose another name or move it away)",
			d->display, name);
	if (o == CHANGED)
		return err_set("cannot write '%s/%s': it changed since coreplan wrote it (left "
			       "untouched; move it away to write it again)",
			       d->display, name);
	if (!force)
		return err_set("cannot write '%s/%s': it exists (coreplan wrote it; --force "
			       "replaces it)",
			       d->display, name);
	return 0;
}

int outdir_check(struct outdir *d, const char *name, bool force)
{
	return check_at(d, name, force, OWNED_DEPTH);
}

static int check_all(struct outdir *d, bool force, bool *empty, int depth)
{
	int fd = openat(d->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *de;
	int rc = 0;
	*empty = true;
	if (!dir) {
		if (fd >= 0)
			close(fd);
		return err_set("cannot read '%s': %s", d->display, strerror(errno));
	}
	while (rc == 0 && (de = readdir(dir)) != NULL) {
		const char *n = de->d_name;
		if (!strcmp(n, ".") || !strcmp(n, "..") || !strcmp(n, OUTDIR_MANIFEST) ||
		    !strncmp(n, OUTDIR_STAGE_PREFIX, strlen(OUTDIR_STAGE_PREFIX)))
			continue;
		*empty = false;
		rc = check_at(d, n, force, depth);
	}
	closedir(dir);
	return rc;
}

int outdir_check_all(struct outdir *d, bool force, bool *empty)
{
	bool unused;
	if (!empty)
		empty = &unused;
	return check_all(d, force, empty, OWNED_DEPTH);
}

/* ---- opening, staging, committing ---- */

/* mkdir -p; messages name the folder that could not be made. */
static int make_dirs(const char *path)
{
	char *copy = strdup(path);
	int rc = 0;
	if (!copy)
		return err_set("out of memory");
	for (char *p = copy + 1; rc == 0 && *p; p++)
		if (*p == '/') {
			*p = '\0';
			if (mkdir(copy, 0777) != 0 && errno != EEXIST)
				rc = err_set("cannot create '%s': %s", copy, strerror(errno));
			*p = '/';
		}
	if (rc == 0 && mkdir(copy, 0777) != 0 && errno != EEXIST)
		rc = err_set("cannot create '%s': %s", copy, strerror(errno));
	free(copy);
	return rc;
}

/* A stage's marker, or a marker's temporary copy: what a killed coreplan left. */
static bool left_by_coreplan(int dirfd, const char *name, bool folder)
{
	char buf[sizeof(STAGE_MARK_TEXT) + sizeof(OUTDIR_MANIFEST_HEADER)];
	const char *want = folder ? STAGE_MARK_TEXT : NULL;
	int fd = openat(dirfd, folder ? STAGE_MARK : name,
			O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	ssize_t got;
	struct stat st;
	bool ours = false;
	if (fd < 0)
		return false;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) &&
	    (got = read(fd, buf, sizeof(buf) - 1)) > 0) {
		buf[got] = '\0';
		if (want)
			ours = !strcmp(buf, want);
		else
			ours = !strncmp(buf, OUTDIR_MANIFEST_HEADER, strlen(OUTDIR_MANIFEST_HEADER)) ||
			       !strncmp(buf, MANIFEST_HEADER_V1, strlen(MANIFEST_HEADER_V1));
	}
	close(fd);
	return ours;
}

static void remove_tree(int fd, int depth, const char *keep);

/*
 * Remove the stages (and markers' temporary copies) a killed coreplan left
 * in d: only those its marker shows to be coreplan's; anything else named
 * like one stays, as the user's.
 */
static void sweep_stages(struct outdir *d)
{
	int fd = openat(d->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent *de;
	if (!dir) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((de = readdir(dir)) != NULL) {
		struct stat st;
		int sub;
		if (strncmp(de->d_name, OUTDIR_STAGE_PREFIX, strlen(OUTDIR_STAGE_PREFIX)) ||
		    fstatat(d->fd, de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			continue;
		if (S_ISREG(st.st_mode)) {
			if (left_by_coreplan(d->fd, de->d_name, false))
				unlinkat(d->fd, de->d_name, 0);
			continue;
		}
		if (!S_ISDIR(st.st_mode))
			continue;
		sub = openat(d->fd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0)
			continue;
		if (left_by_coreplan(sub, NULL, true))
			remove_tree(sub, 4, NULL);
		else
			close(sub);
		/* an empty one too (a stage killed between its last two removals) */
		unlinkat(d->fd, de->d_name, AT_REMOVEDIR);
	}
	closedir(dir);
}

int outdir_open(const char *path, const char *display, bool create, struct outdir **out)
{
	struct outdir *d = calloc(1, sizeof(*d));
	int rc = 0;
	*out = NULL;
	if (!d)
		return err_set("out of memory");
	d->fd = -1;
	outdir_set_writer(d, NULL);
	d->path = strdup(path);
	d->display = strdup(display ? display : path);
	if (!d->path || !d->display)
		rc = err_set("out of memory");
	if (rc == 0 && create)
		rc = make_dirs(path);
	if (rc == 0 && (d->fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0)
		rc = err_set("cannot write into '%s': %s", d->display, strerror(errno));
	/* a filesystem without locks (ENOLCK, EOPNOTSUPP): the folder is written unlocked */
	while (rc == 0 && !d->locked) {
		if (flock(d->fd, LOCK_EX) == 0)
			d->locked = true;
		else if (errno == ENOLCK || errno == EOPNOTSUPP || errno == EINVAL)
			break;
		else if (errno != EINTR)
			rc = err_set("cannot lock '%s': %s", d->display, strerror(errno));
	}
	if (rc == 0)
		rc = load_manifest(d);
	/* locked, no other coreplan writes here: every stage left is a dead one's */
	if (rc == 0 && d->locked)
		sweep_stages(d);
	if (rc) {
		outdir_free(d);
		return rc;
	}
	*out = d;
	return 0;
}

void outdir_free(struct outdir *d)
{
	if (!d)
		return;
	if (d->fd >= 0)
		close(d->fd); /* releases the lock */
	for (size_t i = 0; i < d->n; i++)
		free(d->e[i].name);
	free(d->e);
	free(d->path);
	free(d->display);
	free(d);
}

const char *outdir_display(const struct outdir *d)
{
	return d->display;
}

/* The stage's marker, so that a stage a killed coreplan left is known as one. */
static int mark_stage(const char *stage)
{
	int dfd = open(stage, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), fd = -1;
	size_t len = strlen(STAGE_MARK_TEXT);
	int rc = -1;
	if (dfd >= 0)
		fd = openat(dfd, STAGE_MARK, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			    0600);
	if (fd >= 0 && write(fd, STAGE_MARK_TEXT, len) == (ssize_t)len)
		rc = 0;
	if (fd >= 0 && close(fd) != 0)
		rc = -1;
	if (dfd >= 0)
		close(dfd);
	if (rc && errno == 0)
		errno = ENOSPC; /* a short write */
	return rc;
}

void outdir_set_writer(struct outdir *d, const char *writer)
{
	snprintf(d->writer, sizeof(d->writer), "%s", writer && *writer ? writer : "-");
}

int outdir_stage(struct outdir *d, char **path)
{
	struct strbuf sb = STRBUF_INIT;
	char *p;
	*path = NULL;
	if (strbuf_addf(&sb, "%s/%sXXXXXX", d->path, OUTDIR_STAGE_PREFIX))
		return err_set("out of memory");
	p = strbuf_detach(&sb);
	if (!mkdtemp(p)) {
		int e = errno;
		free(p);
		return err_set("cannot write into '%s': %s", d->display, strerror(e));
	}
	if (mark_stage(p) != 0) {
		int e = errno;
		outdir_unstage(p);
		free(p);
		return err_set("cannot write into '%s': %s", d->display, strerror(e));
	}
	*path = p;
	return 0;
}

/* Remove folder fd's entries but `keep` (NULL: none), folders at most depth deep, links not followed. */
static void remove_tree(int fd, int depth, const char *keep)
{
	DIR *dir = fdopendir(fd);
	struct dirent *de;
	if (!dir) {
		close(fd);
		return;
	}
	while ((de = readdir(dir)) != NULL) {
		struct stat st;
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    (keep && !strcmp(de->d_name, keep)))
			continue;
		if (fstatat(dirfd(dir), de->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			continue;
		if (S_ISDIR(st.st_mode) && depth > 0) {
			int sub = openat(dirfd(dir), de->d_name,
					 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sub >= 0)
				remove_tree(sub, depth - 1, NULL);
			unlinkat(dirfd(dir), de->d_name, AT_REMOVEDIR);
		} else if (!S_ISDIR(st.st_mode)) {
			unlinkat(dirfd(dir), de->d_name, 0);
		}
	}
	closedir(dir);
}

void outdir_unstage(const char *stage)
{
	int fd;
	if (!stage)
		return;
	fd = open(stage, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0) {
		/* its marker last: killed midway, the stage is still known as one */
		int keep = fcntl(fd, F_DUPFD_CLOEXEC, 0);
		remove_tree(fd, 4, STAGE_MARK);
		if (keep >= 0) {
			unlinkat(keep, STAGE_MARK, 0);
			close(keep);
		}
	}
	rmdir(stage);
}

/* STAGE/NAME's kind, and a file's size and SHA-256; sfd is the stage, open. */
static int staged(struct outdir *d, int sfd, const char *stage, const char *name, struct stat *st,
		  char hex[HASH_HEX_LEN + 1], int64_t *size)
{
	struct strbuf src = STRBUF_INIT;
	int rc = 0;
	if (strbuf_addf(&src, "%s/%s", stage, name))
		rc = err_set("out of memory");
	if (rc == 0 && fstatat(sfd, name, st, AT_SYMLINK_NOFOLLOW) != 0)
		rc = err_set("cannot write '%s/%s': %s", d->display, name, strerror(errno));
	if (rc == 0 && S_ISREG(st->st_mode))
		rc = hash_at(sfd, name, strbuf_str(&src), hex, size);
	else if (rc == 0 && !S_ISDIR(st->st_mode))
		rc = err_set("cannot write '%s/%s': not a regular file", d->display, name);
	strbuf_release(&src);
	return rc;
}

int outdir_commit(struct outdir *d, const char *stage, const char *name, bool replace)
{
	char hex[HASH_HEX_LEN + 1] = "-";
	int64_t size = -1;
	struct stat st;
	int sfd = -1, rc = 0;
	bool exists = false;
	sfd = open(stage, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (sfd < 0)
		return err_set("cannot write '%s/%s': %s", d->display, name, strerror(errno));
	rc = staged(d, sfd, stage, name, &st, hex, &size);
	if (rc == 0) {
		struct stat cur;
		exists = fstatat(d->fd, name, &cur, AT_SYMLINK_NOFOLLOW) == 0;
		/* checked before the drawing; checked again right before the move */
		if (exists && (!replace || S_ISDIR(st.st_mode)))
			rc = err_set("cannot write '%s/%s': it exists (it appeared while coreplan "
				     "was writing)",
				     d->display, name);
		else if (exists)
			rc = outdir_check(d, name, true);
	}
	if (rc == 0 && S_ISREG(st.st_mode) && !exists) {
		/* link(2) never replaces: a name taken meanwhile is EEXIST, not clobbered */
		if (linkat(sfd, name, d->fd, name, 0) == 0)
			unlinkat(sfd, name, 0);
		else if (errno == EEXIST)
			rc = err_set("cannot write '%s/%s': it exists (it appeared while coreplan "
				     "was writing)",
				     d->display, name);
		else if (renameat(sfd, name, d->fd, name) !=
			 0) /* no hard links on this filesystem */
			rc = err_set("cannot write '%s/%s': %s", d->display, name, strerror(errno));
	} else if (rc == 0 && renameat(sfd, name, d->fd, name) != 0) {
		rc = err_set("cannot write '%s/%s': %s", d->display, name, strerror(errno));
	}
	if (rc == 0)
		rc = add_entry(d, S_ISREG(st.st_mode) ? 'f' : 'd', size,
			       S_ISREG(st.st_mode) ? hex : NULL, d->writer, name);
	close(sfd);
	return rc;
}

/* Remove what coreplan wrote at name in folder d (already checked to be its). */
static int remove_owned(struct outdir *d, const char *name, int depth)
{
	struct entry *e = find(d, name);
	if (!e)
		return err_set("cannot remove '%s/%s': coreplan did not write it", d->display,
			       name);
	if (e->kind == 'd') {
		struct outdir *sub = NULL;
		int rc = depth > 0 ? open_sub(d->fd, name, d->display, &sub)
				   : err_set("'%s/%s': folders nested too deep", d->display, name);
		for (size_t i = sub ? sub->n : 0; rc == 0 && i > 0; i--) {
			struct stat st;
			const char *n = sub->e[i - 1].name;
			if (fstatat(sub->fd, n, &st, AT_SYMLINK_NOFOLLOW) == 0)
				rc = remove_owned(sub, n, depth - 1);
		}
		if (rc == 0 && unlinkat(sub->fd, OUTDIR_MANIFEST, 0) != 0 && errno != ENOENT)
			rc = err_set("cannot remove '%s/%s': %s", sub->display, OUTDIR_MANIFEST,
				     strerror(errno));
		outdir_free(sub);
		if (rc == 0 && unlinkat(d->fd, name, AT_REMOVEDIR) != 0)
			rc = err_set("cannot remove '%s/%s': %s", d->display, name,
				     strerror(errno));
		return rc;
	}
	if (unlinkat(d->fd, name, 0) != 0)
		return err_set("cannot remove '%s/%s': %s", d->display, name, strerror(errno));
	return 0;
}

int outdir_remove(struct outdir *d, const char *name)
{
	int rc = outdir_check(d, name, true);
	if (rc == 0)
		rc = remove_owned(d, name, OWNED_DEPTH);
	if (rc == 0)
		drop_entry(d, name);
	return rc;
}

/* Is e d's writer's? A "-" entry (an old marker's) is when legacy lists its name. */
static bool own_entry(const struct outdir *d, const struct entry *e, const char *const *legacy)
{
	if (!strcmp(e->writer, d->writer))
		return true;
	if (strcmp(e->writer, "-"))
		return false;
	for (size_t i = 0; legacy && legacy[i]; i++)
		if (!strcmp(legacy[i], e->name))
			return true;
	return !legacy;
}

/* Does folder d (one of writer's) hold only writer's entries (or "-" ones)? */
static int only_writer(struct outdir *d, const char *writer, int depth)
{
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < d->n; i++) {
		const struct entry *e = &d->e[i];
		struct stat st;
		if (fstatat(d->fd, e->name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			continue;
		if (strcmp(e->writer, writer) && strcmp(e->writer, "-"))
			rc = err_set("cannot replace '%s': '%s/%s' in it was written by 'coreplan "
				     "%s', not by 'coreplan %s' (left untouched: move it out of "
				     "'%s' first)",
				     d->display, d->display, e->name, e->writer, writer,
				     d->display);
		else if (e->kind == 'd' && S_ISDIR(st.st_mode) && depth > 0) {
			struct outdir *sub = NULL;
			rc = open_sub(d->fd, e->name, d->display, &sub);
			if (rc == 0)
				rc = only_writer(sub, writer, depth - 1);
			outdir_free(sub);
		}
	}
	return rc;
}

int outdir_check_own(struct outdir *d, const char *const *legacy)
{
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < d->n; i++) {
		const struct entry *e = &d->e[i];
		struct stat st;
		if (!own_entry(d, e, legacy) ||
		    fstatat(d->fd, e->name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			continue;
		rc = outdir_check(d, e->name, true);
		if (rc == 0 && e->kind == 'd' && S_ISDIR(st.st_mode)) {
			struct outdir *sub = NULL;
			rc = open_sub(d->fd, e->name, d->display, &sub);
			if (rc == 0)
				rc = only_writer(sub, d->writer, OWNED_DEPTH);
			outdir_free(sub);
		}
	}
	return rc;
}

int outdir_clear(struct outdir *d, const char *const *legacy)
{
	char **names = d->n ? calloc(d->n, sizeof(*names)) : NULL;
	size_t n = 0;
	int rc = d->n && !names ? err_set("out of memory") : outdir_check_own(d, legacy);
	for (size_t i = 0; rc == 0 && i < d->n; i++)
		if (own_entry(d, &d->e[i], legacy) && !(names[n++] = strdup(d->e[i].name)))
			rc = err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < n; i++) {
		struct stat st;
		if (fstatat(d->fd, names[i], &st, AT_SYMLINK_NOFOLLOW) == 0)
			rc = outdir_remove(d, names[i]);
	}
	for (size_t i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
	return rc;
}

int outdir_expect(struct outdir *d, const char *stage, const char *name)
{
	char hex[HASH_HEX_LEN + 1] = "-";
	int64_t size = -1;
	struct stat st;
	int sfd = open(stage, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), rc = 0;
	if (sfd < 0)
		return err_set("cannot write '%s/%s': %s", d->display, name, strerror(errno));
	rc = staged(d, sfd, stage, name, &st, hex, &size);
	if (rc == 0)
		rc = add_entry(d, S_ISREG(st.st_mode) ? 'f' : 'd', size,
			       S_ISREG(st.st_mode) ? hex : NULL, d->writer, name);
	if (rc == 0)
		find(d, name)->pending = true;
	close(sfd);
	return rc;
}

int outdir_save(struct outdir *d)
{
	struct strbuf tmp = STRBUF_INIT, text = STRBUF_INIT;
	FILE *fp = NULL;
	int fd = -1, rc = 0;
	strbuf_addf(&text, "%s\n", OUTDIR_MANIFEST_HEADER);
	for (size_t i = 0; i < d->n; i++) {
		const struct entry *e = &d->e[i];
		struct stat st;
		if (!e->pending && fstatat(d->fd, e->name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			continue; /* gone: nothing to record */
		if (e->kind == 'f')
			strbuf_addf(&text, "f\t%" PRId64 "\t%s\t%s\t%s\n", e->size, e->hash,
				    e->writer, e->name);
		else
			strbuf_addf(&text, "d\t-\t-\t%s\t%s\n", e->writer, e->name);
	}
	/* a new file of a fresh name (O_EXCL), mode 0666 less the umask, renamed over the marker */
	for (unsigned tries = 0; rc == 0 && fd < 0; tries++) {
		strbuf_reset(&tmp);
		if (strbuf_addf(&tmp, "%s/%soutputs-%ld-%u-%u", d->path, OUTDIR_STAGE_PREFIX,
				(long)getpid(), tries, (unsigned)rand()) ||
		    !text.buf)
			rc = err_set("out of memory");
		else if ((fd = open(tmp.buf, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
				    0666)) < 0 &&
			 (errno != EEXIST || tries > 100))
			rc = err_set("cannot write '%s/%s': %s", d->display, OUTDIR_MANIFEST,
				     strerror(errno));
	}
	if (rc == 0 && !(fp = fdopen(fd, "w"))) {
		rc = err_set("cannot write '%s/%s': %s", d->display, OUTDIR_MANIFEST,
			     strerror(errno));
		close(fd);
	}
	if (rc == 0) {
		fputs(strbuf_str(&text), fp);
		rc = outfile_close(fp, OUTDIR_MANIFEST);
	}
	/* the temporary file renamed over the marker: a reader sees the old or the new list */
	if (rc == 0 && renameat(AT_FDCWD, tmp.buf, d->fd, OUTDIR_MANIFEST) != 0)
		rc = err_set("cannot write '%s/%s': %s", d->display, OUTDIR_MANIFEST,
			     strerror(errno));
	if (rc && fd >= 0)
		unlink(tmp.buf);
	strbuf_release(&tmp);
	strbuf_release(&text);
	return rc;
}
