/*
 * datadir: where the shipped data (the instance catalogs) is found, so an
 * installed binary reads its own copy and a build-tree binary the
 * repository's, whatever the working folder.
 *
 * The catalogs folder, first that applies:
 *   1. $COREPLAN_CATALOG_DIR when set and not empty (used as given; a
 *      missing folder is then an error of the command that reads it)
 *   2. BINDIR/COREPLAN_REL_CATALOG_DIR, BINDIR the folder of the running
 *      executable (/proc/self/exe, links resolved) and the relative part
 *      "../share/coreplan/catalogs" for the default install layout, when
 *      that folder exists: an installed (or moved) prefix
 *   3. COREPLAN_SOURCE_CATALOG_DIR, the source tree's fixtures/catalogs
 *      compiled in, when that folder exists: a binary in the build tree
 *   4. else the path of 2 (or "fixtures/catalogs" when /proc/self/exe
 *      cannot be read), so the error names the place an install puts them
 * The man page (FILES, ENVIRONMENT) and docs/development.md ("Install") say the same.
 */
#ifndef COREPLAN_CLI_DATADIR_H
#define COREPLAN_CLI_DATADIR_H

/* The catalogs folder by the order above; computed once, never NULL. */
const char *cli_catalog_dir(void);

#endif
