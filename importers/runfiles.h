/*
 * runfiles: the small per-run files of a corpus (generator record, idle
 * banner, accounting file, rejection marker), read into attribute lists.
 *
 * Every value read becomes one `struct attr` with its source ("generator",
 * "idle", "acct", ...), its name, its raw text and where it came from
 * (file id, line, column), so corpus.c can store it in run_attrs or
 * idle_banners and mapping.c can name the exact place of a bad value.
 *
 * Ownership: an attr_list owns its strings; attr_list_release() frees
 * them and leaves an empty list.
 */
#ifndef COREPLAN_RUNFILES_H
#define COREPLAN_RUNFILES_H

#include "../common/infile.h"

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RUNFILE_MAX_BYTES INFILE_TEXT_MAX /* 16 MiB */

struct attr {
	char *source;
	char *name;
	char *value; /* raw text; NULL for a JSON null */
	int64_t file_id;
	long line;
	long col;
};

struct attr_list {
	struct attr *items;
	size_t count;
	size_t alloc;
};

int attr_list_add(struct attr_list *list, const char *source, const char *name, const char *value,
		  int64_t file_id, long line, long col);
/* The first attr with this source and name, or NULL. */
const struct attr *attr_list_find(const struct attr_list *list, const char *source,
				  const char *name);
void attr_list_release(struct attr_list *list);

/*
 * Read a whole small text file the user named (common/infile.h: a regular
 * file, refusing NUL bytes and files over RUNFILE_MAX_BYTES, 16 MiB).
 * runfile_read() reads the rest of a file the caller opened (corpus.c:
 * infile_open_in with that limit) and leaves ending and closing it to the
 * caller. *text is NUL-terminated; the caller frees it.
 */
int runfile_slurp(const char *path, const char *display, char **text, size_t *len);
int runfile_read(struct infile *in, char **text, size_t *len);

/*
 * Generator record: validate the JSON (position of a syntax error named as
 * line:col where it can be located), check the types of the known keys,
 * insert the generator_records row (verbatim text plus extracted columns)
 * and append every leaf value as a "generator" attr named by its path
 * ("interactions_per_sec", "outcomes.ok").
 */
int genrec_import(sqlite3 *db, int64_t run_id, int64_t file_id, const char *path,
		  const char *display, struct attr_list *attrs);

/*
 * Idle banner: one line "IDLE key=value ..." (or "FAIL ..."). The status
 * word goes to *status (caller frees), each pair to an "idle" attr.
 */
int banner_read(const char *path, const char *display, int64_t file_id, char **status,
		struct attr_list *attrs);

/* Accounting file: lines "key value", each an "acct" attr. */
int acct_read(const char *path, const char *display, int64_t file_id, struct attr_list *attrs);

/* Rejection marker: one line of free text (caller frees *reason). */
int rejected_read(const char *path, const char *display, char **reason);

/*
 * The same four on text already read (runfile_read: NUL-terminated, no
 * NUL inside); banner_parse and acct_parse cut the text in place.
 */
int genrec_parse(sqlite3 *db, int64_t run_id, int64_t file_id, const char *text, size_t len,
		 const char *display, struct attr_list *attrs);
int banner_parse(char *text, size_t len, const char *display, int64_t file_id, char **status,
		 struct attr_list *attrs);
int acct_parse(char *text, const char *display, int64_t file_id, struct attr_list *attrs);
int rejected_parse(const char *text, size_t len, const char *display, char **reason);

/* Locate a JSON syntax error for the message; line 0 if it cannot be located. */
void json_locate_error(const char *text, size_t len, long *line, long *col, const char **what);

#endif
