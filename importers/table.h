/*
 * table: read a headed delimited table (results.tsv, system.tsv, a CSV
 * copied from a write-up, a catalog) into memory with libcsv.
 *
 * The delimiter is a TAB for .tsv/.txt and other names, a comma for .csv;
 * with TABLE_SNIFF the first line decides (more TABs than commas: TAB).
 * A UTF-8 byte-order mark is stripped, CRLF line ends are accepted. In a
 * CSV file quoted fields follow RFC 4180 (CSV_STRICT: a malformed quote
 * is an error); in a TSV file a quote is an ordinary character (TSV has
 * no quoting, FORMATS.md).
 *
 * Refused, each with "path:line:col: message" via err_at(): a missing or
 * unreadable file, one that is not a regular file, an empty file, a header
 * with an empty or duplicate column name, a row with fewer or more fields
 * than the header, a NUL byte anywhere (binary data; col is then the byte
 * column), a blank line in the middle. A header with no data
 * rows is not an error here (nrows == 0); callers decide.
 *
 * Ownership: table_read() fills a caller-provided struct table whose
 * strings it owns; table_release() frees them (safe on a zeroed struct).
 * A cell is never NULL: an empty field is "" (callers treat "" and "NA"
 * as missing where that makes sense).
 */
#ifndef COREPLAN_TABLE_H
#define COREPLAN_TABLE_H

#include <stddef.h>

enum table_delim {
	TABLE_SNIFF = 0,
	TABLE_TAB = '\t',
	TABLE_COMMA = ',',
};

struct table {
	char *display_path; /* the path used in messages */
	char delimiter;
	size_t ncols;
	char **header; /* ncols column names */
	size_t nrows;
	char ***cells; /* nrows rows of ncols strings */
	long *lines;   /* 1-based file line where each row starts */
};

struct infile;

/*
 * Read `path`, a file the user named (common/infile.h: a regular file,
 * at most INFILE_TABLE_MAX bytes, 256 MiB); messages name `display_path`.
 * delim TABLE_SNIFF picks by extension, then by content.
 */
int table_read(const char *path, const char *display_path, enum table_delim delim,
	       struct table *out);
/* Read the rest of an open file (a corpus file opened with infile_open_in); the caller ends it. */
int table_read_infile(struct infile *in, const char *display_path, enum table_delim delim,
		      struct table *out);
void table_release(struct table *t);
/* Index of the column named `name`, or -1. */
int table_col(const struct table *t, const char *name);

#endif
