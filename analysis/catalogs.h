/*
 * catalogs: which instance catalogs a command works on, and the
 * `coreplan catalog` command (store catalogs in the database, list them).
 *
 * Files are read by the caller's catalog_reader (cli/ passes
 * importers/catalog.h's catalog_read: analysis/ reads no file formats
 * itself) and kept in the tables of schema/catalog.h; this module decides
 * which files and where:
 *   coreplan catalog FILE...   store each (replacing one of the same name),
 *                              all in one transaction: a bad file stores
 *                              nothing
 *   coreplan catalog           store the shipped catalogs (every *.tsv of
 *                              the shipped folder, in name order) when the
 *                              database holds none
 *   coreplan size              its --catalog FILEs in TEMP tables for the
 *                              run, else the stored catalogs, else the
 *                              shipped ones in TEMP tables (catalogs_use)
 * A catalog's name is its file's base name without the extension, unless
 * the request names it; its source_path is the file's absolute path.
 */
#ifndef COREPLAN_CATALOGS_H
#define COREPLAN_CATALOGS_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>

#include "../schema/catalog.h"

/* Parse one catalog file into *out (0, or an error naming file, line and column). */
typedef int (*catalog_reader)(const char *path, struct catalog *out);

/* Where a run's catalogs came from. */
enum catalog_origin {
	CATALOG_GIVEN,   /* files named on the command line (size --catalog), TEMP tables */
	CATALOG_STORED,  /* the database's catalogs table */
	CATALOG_SHIPPED, /* the shipped files, TEMP tables */
};

/* "given", "database", "shipped". */
const char *catalog_origin_name(enum catalog_origin origin);

/* The catalogs one run reads through SQL (the tables as resolved: TEMP first). */
struct catalogs_used {
	enum catalog_origin origin;
	struct catalog_info *infos;
	size_t n;
};

/*
 * Make the run's catalogs the ones catalogs/instances resolve to: files
 * (nfiles > 0) into TEMP tables; else the stored ones when there are any;
 * else the shipped folder's into TEMP tables. Nothing is written to the
 * database file. `used` lists them (release with catalogs_used_release).
 */
int catalogs_use(sqlite3 *db, char *const *files, size_t nfiles, const char *shipped_dir,
		 catalog_reader reader, struct catalogs_used *used);
void catalogs_used_release(struct catalogs_used *used);

/*
 * Instance shapes for an import, as catalog_instance_shape() finds them in
 * the catalogs catalogs_use() would give (the stored ones, else the
 * shipped ones), without TEMP tables: the shipped catalogs are read on the
 * first lookup, and only then, and searched in memory. Shipped catalogs
 * that cannot be read, or two that list one instance (which catalogs_use
 * refuses), leave no catalog: every instance is then unknown, as when an
 * import's catalogs_use failed. The caller owns it (catalog_lookup_release).
 */
struct catalog_lookup {
	sqlite3 *db;
	const char *shipped_dir;
	catalog_reader reader;
	enum { LOOKUP_UNREAD, LOOKUP_STORED, LOOKUP_SHIPPED, LOOKUP_NONE } state;
	struct catalog *cats;
	size_t ncats;
};

void catalog_lookup_init(struct catalog_lookup *l, sqlite3 *db, const char *shipped_dir,
			 catalog_reader reader);
/* catalog_instance_shape()'s contract: 0 found, 1 no catalog lists it, else an error. */
int catalog_lookup_shape(void *lookup, const char *instance, int *vcpus, int *threads_per_core,
			 char *catalog, size_t size);
void catalog_lookup_release(struct catalog_lookup *l);

/* The shipped catalogs: DIR/NAME.tsv in name order (an empty list when there are none). */
int catalogs_shipped(const char *dir, char ***paths, size_t *n);
void catalogs_paths_free(char **paths, size_t n);

/* ---- coreplan catalog ---- */

enum catalog_action {
	CATALOG_STORE,    /* files, or the shipped ones into an empty catalogs table */
	CATALOG_SHOW,     /* only read: the stored instances */
	CATALOG_FAMILIES, /* only read: CPU families and series */
};

struct catalog_request {
	enum catalog_action action;
	char **files; /* CATALOG_STORE; none: the shipped ones, when none is stored */
	size_t nfiles;
	const char *name;        /* store the one file under this name (NULL: its base name) */
	const char *shipped_dir; /* the shipped catalogs' folder */
	catalog_reader reader;   /* how files are parsed */
};

/* One CPU family and series with its instances (catalog order). */
struct catalog_family {
	char *cpu_family;
	char *series;
	char *provider; /* its first instance's */
	size_t n;       /* instances */
	int vcpus_min, vcpus_max;
	char *instances; /* their names, ", "-separated */
	char *platforms; /* the CPU platforms its instances list, ","-separated; "" when none */
};

struct catalog_result {
	size_t nstored;                /* catalogs this run stored (new or replaced) */
	size_t nreplaced;              /* of which replaced one of the same name */
	bool kept;                     /* no file given and the database already had catalogs */
	struct catalog_info *catalogs; /* every stored catalog after the run */
	size_t ncatalogs;
	const char **action; /* per catalog: "stored", "replaced" or NULL (untouched) */
	struct catalog cat;  /* every stored instance */
	struct catalog_family *families;
	size_t nfamilies;
};

int catalog_run(sqlite3 *db, const struct catalog_request *req, struct catalog_result *out);
void catalog_result_release(struct catalog_result *r);

/* Families and series of cat, by cpu_family then series (names in byte order). */
int catalog_families(const struct catalog *cat, struct catalog_family **out, size_t *n);
void catalog_families_free(struct catalog_family *f, size_t n);

#endif
