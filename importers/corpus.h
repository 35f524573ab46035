/*
 * corpus: import one corpus folder (or one headed table file) into the
 * database.
 *
 * The layout is read from a manifest (importers/manifest.h): the one the
 * user passes, a `coreplan.manifest` file inside the folder, or a built-in
 * profile chosen by detection (importers/profiles.c). A single TSV/CSV
 * file with one row per run is a corpus of its own.
 *
 * Tool outputs (importers/tools.h): a single file whose content a tool
 * format detects (or opts->format names), or a folder without manifest
 * that no profile claims whose every file (top level, dot files aside) is
 * of one tool format, is imported through a generated manifest with one
 * [table] per file (`format = NAME`, subcorpus "", tag FILE:ROW); each run
 * gets the field `file` = the file's name, so files are arms (as benchstat
 * names them). Detection reads the first TOOL_SNIFF_BYTES of each file;
 * the runs are converted from the bytes hashed, as any table.
 *
 * Reading is confined to the corpus folder (docs/files.md, "Files coreplan
 * reads"): the folder is opened once and every file is opened below that
 * descriptor with common/infile.h's infile_open_in(), so a symbolic link
 * anywhere below it, a FIFO or a device is never read (the walk warns
 * about each and leaves it out; one swapped in during the import is an
 * error), and a manifest's paths and patterns cannot leave it (a
 * discover/rejected pattern whose folder is a link is an error naming
 * the pattern). A folder's own coreplan.manifest that is a link or not a
 * regular file is refused, unread. Each file is hashed first (the
 * content hash decides "unchanged"); a file that is parsed is opened
 * again, must be the same inode with the same size and times, and is
 * hashed while it is parsed: if its bytes differ from those hashed (a
 * file rewritten or appended to during the import) the import fails
 * naming it, so files.sha256 and files.size describe exactly the bytes
 * stored. A single table is read in the folder of its real path, under
 * its real name: one named through a symbolic link is the link's target
 * (import_result.link_target says so; the corpus keeps the name given).
 *
 * corpus_import() works inside the caller's transaction and never commits:
 * corpus_import_all() (what `coreplan import` runs) begins one transaction
 * for the whole command and commits only if every corpus imported, so on
 * any error the database is exactly as before. Re-importing a corpus whose content hash
 * is unchanged writes nothing (status IMPORT_UNCHANGED); a changed corpus
 * under an existing name is refused unless opts->replace.
 *
 * The host the runs ran on (each run's field `topology_host`, a host of
 * the tables hosts/host_cpus: schema/topology.h), first that applies:
 *   1. opts->host (`import --host NAME`): a recorded host, else a usage
 *      error listing the recorded ones; every run of the corpus, over
 *      the manifest's own topology or `set = topology_host=...` (a run
 *      whose own column topology_host names another host is an error);
 *   2. the manifest: its table's `topology = FILE` (stored as host
 *      CORPUS[/SUBCORPUS]) or a `set = topology_host=NAME` constant;
 *   3. a catalog instance: opts->instance (`import --instance NAME`, a
 *      usage error when no catalog lists it), else the run's own
 *      `instance` field (any source, e.g. the capacity profile's
 *      `set = instance=e2-{target}`). The host is named after the
 *      instance; when no host of that name is recorded (or only one
 *      derived from a catalog before), its topology is stored from the
 *      instance's vCPUs and threads per core (topology_shape: vcpus /
 *      threads_per_core physical cores; source "catalog"). A run naming
 *      an instance no catalog lists gets no host (a warning says so).
 *      With opts->instance, a run whose own instance differs is an
 *      error; one without gets the field instance = NAME (source set).
 * Catalogs are read through catalogs/instances as this connection
 * resolves them (schema/catalog.h: TEMP first, then the stored ones).
 * opts->host and opts->instance are stored with the corpus (corpora.options,
 * keys "host" and "instance") and are part of its content hash: importing
 * the corpus again without them keeps the stored ones (so does --replace);
 * naming a different one changes the content and needs --replace.
 */
#ifndef COREPLAN_CORPUS_H
#define COREPLAN_CORPUS_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../schema/imported.h"

#define IMPORT_DEFAULT_PATCH_FLOOR 0.9

struct import_options {
	const char *name;          /* NULL: the folder's (or file's) base name */
	const char *manifest_path; /* NULL: coreplan.manifest in the folder, or detect */
	bool replace;
	double patch_floor; /* runs with patch_rate below it are excluded */
	const char *host;   /* NULL: the stored tie, else the manifest's, else the instance's */
	const char *instance; /* NULL: the stored tie, else each run's instance field */
	/*
	 * NULL: detect; else a tool format (importers/tools.h) that the single
	 * file, or every file of a folder without manifest, is read as (a
	 * usage error with a manifest, which says `format = NAME` itself).
	 */
	const char *format;
	/*
	 * An instance's vCPUs, threads per core and catalog (0; 1: no catalog
	 * lists it; else an error), as catalog_instance_shape() gives them;
	 * NULL: that function on the database's own tables.
	 */
	int (*instance_shape)(void *arg, const char *instance, int *vcpus, int *threads_per_core,
			      char *catalog, size_t size);
	void *instance_shape_arg;
	/* Called now and then with files and rows done (NULL: no progress). */
	void (*progress)(const char *what, int64_t files, int64_t rows, void *arg);
	void *progress_arg;
};

void import_options_init(struct import_options *opts);


int corpus_import(sqlite3 *db, const char *path, const struct import_options *opts,
		  struct import_result *result);

/*
 * Import paths[0..n) in one transaction: begin, corpus_import() each into
 * results[i], commit. On any failure the transaction is rolled back (the
 * failure's message kept) and the database is as it was. `each`, when not
 * NULL, is called with paths[i] before that path is read and with NULL
 * after it (a progress display names the corpus, then clears its line).
 */
int corpus_import_all(sqlite3 *db, char *const *paths, size_t n,
		      const struct import_options *opts, struct import_result *results,
		      void (*each)(const char *path, void *arg), void *arg);
/*
 * The same inside the caller's transaction, which it neither begins nor
 * ends (`coreplan import` writes its result to standard output before it
 * commits, so that a failed write rolls the import back).
 */
int corpus_import_each(sqlite3 *db, char *const *paths, size_t n, const struct import_options *opts,
		       struct import_result *results, void (*each)(const char *path, void *arg),
		       void *arg);

#endif
