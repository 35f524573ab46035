/*
 * infile: open and read a file coreplan was asked to read, safely. Every
 * reader of a corpus file or of a file named on the command line goes
 * through it.
 *
 * Two kinds of path:
 *   - a path the user named (--config, --catalog, --apply, --manifest,
 *     topology --from, a catalog FILE, a single table): infile_open().
 *     A symbolic link the user names is the user's own name for a file,
 *     so it is followed (corpus.c names a single table's target itself);
 *   - a file of a corpus folder: infile_open_in(), relative to the
 *     folder's descriptor, one component at a time, each opened with
 *     O_NOFOLLOW. An absolute path, an empty or '..' component or a
 *     symbolic link anywhere below the folder is refused, so the file is
 *     inside the folder by construction; the real path (/proc/self/fd,
 *     where there is one) of the folder holding it is checked against the
 *     corpus folder's too (of the file itself when it lies directly in
 *     the corpus folder). infile_open_below() keeps the last folder open
 *     for the next file in it (an importer reads a run's files in turn).
 * Both look before they open (stat or fstatat, without opening a device
 * or a FIFO), then open with O_NONBLOCK|O_CLOEXEC|O_NOCTTY, so a FIFO
 * swapped in meanwhile cannot block the open, and fstat the descriptor:
 * anything but a regular file (a FIFO, a device such as /dev/zero, a
 * socket, a folder) is refused before a byte is read, and so is a file
 * larger than the caller's limit.
 *
 * Every byte read through infile_read() is counted and hashed (SHA-256),
 * and reading past the limit is an error; reading ends at the size fstat
 * saw at the open (a file that grew since fails infile_end's identity
 * check, as one that shrank does). infile_end() reads whatever the
 * caller left, then checks that the file did not change while it was
 * read: the same inode, size, modification and change times as fstat saw
 * at the open, and exactly that many bytes read. Its hash and size then
 * describe exactly the bytes the caller parsed. A file hashed earlier is
 * compared with that identity by infile_same() (corpus.c: the file parsed
 * is the file hashed).
 *
 * Errors name the file by its `display` name; the functions return 0 or
 * ERR_DATA with the message recorded (common/err.h). Ownership: an infile
 * owns its descriptor, its hash state and a copy of the display name;
 * the open functions set every field (fd -1 on failure), and infile_close()
 * releases them and may be called again.
 */
#ifndef COREPLAN_INFILE_H
#define COREPLAN_INFILE_H

#include "hash.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Limits (docs/files.md, "Files coreplan reads"). 0: none (a streamed trace, a hashed file). */
#define INFILE_NO_LIMIT 0
#define INFILE_TEXT_MAX ((int64_t)16 << 20)   /* configs, run files, topology files */
#define INFILE_TABLE_MAX ((int64_t)256 << 20) /* headed tables: results, catalogs, --apply */

/* What fstat says about a file: equal identities mean the same, unchanged file. */
struct infile_id {
	uint64_t dev, ino;
	int64_t size;
	int64_t mtime_ns, ctime_ns;
};

struct infile {
	int fd;
	char *display;
	struct infile_id id; /* at the open */
	int64_t limit;
	int64_t bytes; /* read so far */
	bool eof;
	struct hash_ctx *hash;
	const char *kept;        /* infile_open_kept: the bytes (the caller's), fd -1 */
	const char *kept_sha256; /* and their hash */
};

/*
 * The folder of the file last opened below a corpus folder, kept open:
 * the next file in the same folder is opened below it without walking
 * and checking the path again. Owns fd and folder; root_fd and root are
 * the caller's.
 */
struct infile_dirs {
	int root_fd;      /* the corpus folder */
	const char *root; /* its real path (NULL: not checked) */
	char *folder;     /* relative path of the folder open as fd, or NULL */
	int fd;
};

void infile_dirs_init(struct infile_dirs *d, int root_fd, const char *root);
void infile_dirs_release(struct infile_dirs *d);

/* A path the user named (links followed). */
int infile_open(struct infile *f, const char *path, const char *display, int64_t limit);

/*
 * A file of the corpus folder open as dir_fd, whose real path is root
 * (NULL: not checked); relative is '/'-separated, as the walk records it.
 */
int infile_open_in(struct infile *f, int dir_fd, const char *root, const char *relative,
		   const char *display, int64_t limit);

/* infile_open_in() through d: the same checks, the folder opened once for its files. */
int infile_open_below(struct infile *f, struct infile_dirs *d, const char *relative,
		      const char *display, int64_t limit);

/*
 * Open a folder below dir_fd the same way (no link, no '..', each
 * component O_NOFOLLOW); *out is its descriptor (the caller closes it).
 * "" or "." is dir_fd itself (duplicated). Returns 1, *out = -1, when a
 * component does not exist or is not a folder; an error when one is a
 * symbolic link or the path leaves the folder.
 */
int infile_opendir_in(int dir_fd, const char *relative, const char *display, int *out);

/*
 * Bytes read earlier from a file and their SHA-256 (corpus.c keeps a small
 * file's bytes from its hashing, so it is read once): read as the file
 * would be, infile_end() giving that hash and size; a limit applies as at
 * an open. bytes and sha256 stay the caller's and must outlive f.
 */
int infile_open_kept(struct infile *f, const char *bytes, int64_t len, const char *sha256,
		     const char *display, int64_t limit);

/* 0 when the open file is the one `want` describes, else an error naming it as changed. */
int infile_same(const struct infile *f, const struct infile_id *want);

/* Read up to size bytes; *got = 0 at the end of the file. */
int infile_read(struct infile *f, void *buf, size_t size, size_t *got);

/* Read the rest into a NUL-terminated buffer (caller frees; NUL bytes inside are kept). */
int infile_slurp(struct infile *f, char **text, size_t *len);

/* Read what is left, check the file did not change, give the hash and size of every byte read. */
int infile_end(struct infile *f, char hex[HASH_HEX_LEN + 1], int64_t *size);

void infile_close(struct infile *f);

/* A user-named file's SHA-256 and size (infile_open with no limit, read to the end). */
int infile_hash(const char *path, const char *display, char hex[HASH_HEX_LEN + 1], int64_t *size);

/* "a FIFO", "a character device", "a folder", ... for a st_mode that is not a regular file. */
const char *infile_kind(unsigned mode);

#endif
