/*
 * outpath: where an output folder is, to refuse the places coreplan must
 * not write into (common/outfile.h writes the files).
 *
 *   outpath_absolute   the folder as an absolute path with the links of
 *                      its existing part resolved (realpath of the deepest
 *                      folder that exists, the missing names appended), so
 *                      a folder still to be made compares like one that is
 *  outpath_within     is path the folder root, or inside it?
 *  outpath_in_output  is path inside a folder an earlier coreplan wrote
 *                      (a report's plots/): some ancestor's marker lists
 *                      the name under it
 * Errors are recorded with err_set(); functions return 0 or ERR_DATA.
 */
#ifndef COREPLAN_OUTPATH_H
#define COREPLAN_OUTPATH_H

#include <stdbool.h>

/* *abs (caller frees): path made absolute as above. */
int outpath_absolute(const char *path, char **abs);

/* *within: abs_path (from outpath_absolute) is abs_root or below it. */
bool outpath_within(const char *abs_path, const char *abs_root);

/*
 * Refuse abs_path (from outpath_absolute) when it lies inside a folder an
 * earlier coreplan wrote: the error names `display`, the folder and its
 * writer (e.g. "the plots/ of the report in OLD").
 */
int outpath_refuse_nested(const char *abs_path, const char *display);

#endif
