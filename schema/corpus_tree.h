/*
 * corpus_tree: no output inside an imported corpus. A corpus imported from
 * a folder owns that folder's tree (the importers read every file in it on
 * the next import, and coreplan never touches a corpus's files); a corpus
 * of one file (a table, a tool's output) is that file alone.
 */
#ifndef COREPLAN_CORPUS_TREE_H
#define COREPLAN_CORPUS_TREE_H

#include <sqlite3.h>

/*
 * 0 when folder out_dir (existing or to be made) lies outside every
 * imported corpus's tree, else an error: "cannot write WHAT into 'DIR':
 * it is inside corpus 'NAME', imported from 'PATH', ...". The corpus's own
 * folder itself is left to the caller (the report names what makes it a
 * corpus). what: "a report". (A plot is a file of a name that collides with
 * nothing: docs/files.md lets it go into a corpus's folder.)
 */
int corpus_tree_refuse(sqlite3 *db, const char *out_dir, const char *what);

#endif
