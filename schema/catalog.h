/*
 * catalog: instance catalogs in memory and in the database.
 *
 * A catalog lists instance types (one struct instance each) with their
 * shape, CPU family and price. importers/catalog.h reads one from a file
 * (the format is documented there); this module stores it in the tables
 * `catalogs` and `instances` (schema/README.md, schema versions 4 and 7) and reads
 * it back, so sizing reads instances through SQL whichever way they came.
 *
 * Three places a catalog can live on a connection:
 *   stored   main.catalogs / main.instances: `coreplan catalog FILE`
 *            (catalog_store, inside the caller's transaction)
 *   TEMP     temp.catalogs / temp.instances of the same shape, for one run
 *            (catalog_load_temp): SQLite resolves an unqualified name to
 *            temp first, so the same queries read them, and a read-only
 *            connection can create them
 *   memory   struct catalog, from catalog_read() or catalog_load()
 * catalog_load() and catalog_list() use unqualified names: they read the
 * TEMP tables when this connection made them, else the stored ones.
 *
 * Instance names are unique across the catalogs one query sees:
 * catalog_check_unique() refuses a name listed twice (the store and the
 * TEMP load call it), so a sizing never shows one instance type twice.
 *
 * Ownership: a struct catalog owns every string (catalog_release frees
 * them); catalog_infos_free frees a list from catalog_list.
 */
#ifndef COREPLAN_SCHEMA_CATALOG_H
#define COREPLAN_SCHEMA_CATALOG_H

#include <sqlite3.h>
#include <stdbool.h>
#include <stddef.h>

#include "../common/hash.h"

struct instance {
	char *instance;
	char *provider;
	char *series;
	int vcpus;
	int threads_per_core;
	double sustained_vcpu_fraction;
	double memory_gib;
	char *cpu_family;
	/*
	 * The CPU platforms its family runs on, named as runs name them (a run's
	 * cpu_model field, e.g. intel-xeon-2.2ghz), ","-separated without
	 * spaces; "" when the catalog does not say (never NULL once read).
	 */
	char *cpu_platforms;
	double price_per_hour;
	char *price_region;
	char *price_source;
	char *price_date;
	double physical_cores;  /* derived: vcpus / threads_per_core */
	double sustained_cores; /* derived: vcpus * sustained_vcpu_fraction / threads_per_core */
	long line;              /* the line of its file it was read from */
	char *catalog;          /* the catalog's name when loaded from the database, else NULL */
};

/*
 * Instances in file order. From catalog_read(): one file, with its path,
 * content hash and name; from catalog_load(): every catalog the query
 * sees, path NULL, name NULL, sha256 "".
 */
struct catalog {
	struct instance *items;
	size_t n;
	char *path;                    /* the file read, or NULL */
	char *name;                    /* what it is stored as (default: the file's base name) */
	char sha256[HASH_HEX_LEN + 1]; /* of the file's bytes, or "" */
};

/* One catalog as the tables hold it. */
struct catalog_info {
	char *name;
	char *source_path;
	char *sha256;
	char *loaded_at;
	size_t instances;
	bool temp; /* in this connection's TEMP tables, not stored */
};

void catalog_release(struct catalog *c);
void catalog_infos_free(struct catalog_info *infos, size_t n);

/*
 * Store c (c->name, c->path, c->sha256 and its instances) in main.catalogs
 * and main.instances, inside the caller's transaction. A catalog of the
 * same name is replaced: it keeps its catalog_id (so catalogs keep the
 * order they were first stored in) and gets the new file's instances;
 * *replaced says so (may be NULL). Then catalog_check_unique().
 */
int catalog_store(sqlite3 *db, const struct catalog *c, bool *replaced);

/*
 * (Re)create temp.catalogs and temp.instances on this connection and fill
 * them with cats[0..n) in order (names must differ), then
 * catalog_check_unique(). Writes nothing to the database file.
 */
int catalog_load_temp(sqlite3 *db, const struct catalog *cats, size_t n);

/* Does this connection have the TEMP tables (catalog_load_temp)? */
int catalog_temp_active(sqlite3 *db, bool *active);

/* How many catalogs main.catalogs holds. */
int catalog_stored_count(sqlite3 *db, size_t *n);

/*
 * No instance name in two catalogs of catalogs/instances (as resolved:
 * TEMP first), else an error naming the instance, both catalogs and
 * their lines.
 */
int catalog_check_unique(sqlite3 *db);

/*
 * Every instance of catalogs/instances (TEMP first), by catalog (in
 * catalog_id order, the order they were stored) then file line; only
 * the series in series[0..nseries) when nseries > 0. Each instance's
 * `catalog` is its catalog's name.
 */
int catalog_load(sqlite3 *db, const char *const *series, size_t nseries, struct catalog *out);

/*
 * One instance's shape from catalogs/instances (TEMP first): its vCPUs,
 * threads per core and catalog name (copied into catalog[size]). 1 when
 * no catalog lists it.
 */
int catalog_instance_shape(sqlite3 *db, const char *instance, int *vcpus, int *threads_per_core,
			   char *catalog, size_t size);

/* Does the instance's cpu_platforms list name `platform`? */
bool instance_on_platform(const struct instance *in, const char *platform);

/* The catalogs of catalogs/instances (TEMP first) in catalog_id order. */
int catalog_list(sqlite3 *db, struct catalog_info **out, size_t *n);

#endif
