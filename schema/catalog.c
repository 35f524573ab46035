/* catalog: see catalog.h. */
#include "catalog.h"

#include "../common/err.h"
#include "../common/strbuf.h"
#include "db.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/*
 * The TEMP tables: the columns of migration step 4 (schema/migrations.c)
 * and the cpu_platforms column step 7 adds at the end, which cannot be
 * reused (a released step never changes; this text may).
 * tests/test_catalog.c checks that both have the same columns.
 */
static const char temp_tables[] =
	"DROP TABLE IF EXISTS temp.instances;\n"
	"DROP TABLE IF EXISTS temp.catalogs;\n"
	"CREATE TEMP TABLE catalogs (\n"
	"  catalog_id  INTEGER PRIMARY KEY,\n"
	"  name        TEXT NOT NULL UNIQUE,\n"
	"  source_path TEXT NOT NULL,\n"
	"  sha256      TEXT NOT NULL,\n"
	"  loaded_at   TEXT NOT NULL\n"
	") STRICT;\n"
	"CREATE TEMP TABLE instances (\n"
	"  catalog_id              INTEGER NOT NULL REFERENCES catalogs(catalog_id)\n"
	"                            ON DELETE CASCADE,\n"
	"  instance                TEXT NOT NULL,\n"
	"  provider                TEXT NOT NULL,\n"
	"  series                  TEXT NOT NULL,\n"
	"  vcpus                   INTEGER NOT NULL CHECK (vcpus >= 1),\n"
	"  threads_per_core        INTEGER NOT NULL CHECK (threads_per_core IN (1, 2)),\n"
	"  sustained_vcpu_fraction REAL NOT NULL\n"
	"    CHECK (sustained_vcpu_fraction > 0 AND sustained_vcpu_fraction <= 1),\n"
	"  memory_gib              REAL NOT NULL,\n"
	"  cpu_family              TEXT NOT NULL,\n"
	"  price_per_hour          REAL NOT NULL,\n"
	"  price_region            TEXT NOT NULL,\n"
	"  price_source            TEXT NOT NULL,\n"
	"  price_date              TEXT NOT NULL,\n"
	"  physical_cores          REAL NOT NULL,\n"
	"  sustained_cores         REAL NOT NULL,\n"
	"  line                    INTEGER NOT NULL,\n"
	"  cpu_platforms           TEXT NOT NULL DEFAULT '',\n"
	"  UNIQUE (catalog_id, instance)\n"
	") STRICT;\n";

static void instance_release(struct instance *in)
{
	free(in->instance);
	free(in->provider);
	free(in->series);
	free(in->cpu_family);
	free(in->cpu_platforms);
	free(in->price_region);
	free(in->price_source);
	free(in->price_date);
	free(in->catalog);
	memset(in, 0, sizeof(*in));
}

void catalog_release(struct catalog *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->n; i++)
		instance_release(&c->items[i]);
	free(c->items);
	free(c->path);
	free(c->name);
	memset(c, 0, sizeof(*c));
}

void catalog_infos_free(struct catalog_info *infos, size_t n)
{
	for (size_t i = 0; infos && i < n; i++) {
		free(infos[i].name);
		free(infos[i].source_path);
		free(infos[i].sha256);
		free(infos[i].loaded_at);
	}
	free(infos);
}

static void utc_now(char now[32])
{
	time_t t = time(NULL);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(now, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* A statement on `schema` ("main" or "temp": never user text). */
static int prepare_in(sqlite3 *db, const char *fmt, const char *schema, sqlite3_stmt **out)
{
	char *sql = sqlite3_mprintf(fmt, schema);
	int rc;
	if (!sql)
		return err_set("out of memory");
	rc = sqlite3_prepare_v2(db, sql, -1, out, NULL) == SQLITE_OK
		     ? 0
		     : db_error(db, "cannot read the catalogs");
	sqlite3_free(sql);
	return rc;
}

static int insert_instances(sqlite3 *db, const char *schema, int64_t catalog_id,
			    const struct catalog *c)
{
	sqlite3_stmt *stmt = NULL;
	int rc = prepare_in(db,
			    "INSERT INTO \"%w\".instances (catalog_id, instance, provider, series,"
			    " vcpus, threads_per_core, sustained_vcpu_fraction, memory_gib,"
			    " cpu_family, price_per_hour, price_region, price_source, price_date,"
			    " physical_cores, sustained_cores, line, cpu_platforms)"
			    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14,"
			    " ?15, ?16, ?17)",
			    schema, &stmt);
	for (size_t i = 0; rc == 0 && i < c->n; i++) {
		const struct instance *in = &c->items[i];
		sqlite3_bind_int64(stmt, 1, catalog_id);
		sqlite3_bind_text(stmt, 2, in->instance, -1, SQLITE_STATIC);
		sqlite3_bind_text(stmt, 3, in->provider, -1, SQLITE_STATIC);
		sqlite3_bind_text(stmt, 4, in->series, -1, SQLITE_STATIC);
		sqlite3_bind_int(stmt, 5, in->vcpus);
		sqlite3_bind_int(stmt, 6, in->threads_per_core);
		sqlite3_bind_double(stmt, 7, in->sustained_vcpu_fraction);
		sqlite3_bind_double(stmt, 8, in->memory_gib);
		sqlite3_bind_text(stmt, 9, in->cpu_family, -1, SQLITE_STATIC);
		sqlite3_bind_double(stmt, 10, in->price_per_hour);
		sqlite3_bind_text(stmt, 11, in->price_region, -1, SQLITE_STATIC);
		sqlite3_bind_text(stmt, 12, in->price_source, -1, SQLITE_STATIC);
		sqlite3_bind_text(stmt, 13, in->price_date, -1, SQLITE_STATIC);
		sqlite3_bind_double(stmt, 14, in->physical_cores);
		sqlite3_bind_double(stmt, 15, in->sustained_cores);
		sqlite3_bind_int64(stmt, 16, in->line);
		sqlite3_bind_text(stmt, 17, in->cpu_platforms ? in->cpu_platforms : "", -1,
				  SQLITE_STATIC);
		if (sqlite3_step(stmt) != SQLITE_DONE)
			rc = err_set("cannot store instance '%s' of catalog '%s': %s", in->instance,
				     c->name, sqlite3_errmsg(db));
		sqlite3_reset(stmt);
	}
	sqlite3_finalize(stmt);
	return rc;
}

/* The catalog's row in `schema`: updated when the name exists, else inserted. */
static int upsert_catalog(sqlite3 *db, const char *schema, const struct catalog *c,
			  int64_t *catalog_id, bool *replaced)
{
	sqlite3_stmt *stmt = NULL;
	char now[32];
	int rc, step;
	*replaced = false;
	if (!c->name || !*c->name)
		return err_set("a catalog needs a name");
	utc_now(now);
	rc = prepare_in(db, "SELECT catalog_id FROM \"%w\".catalogs WHERE name = ?1", schema,
			&stmt);
	if (rc == 0) {
		sqlite3_bind_text(stmt, 1, c->name, -1, SQLITE_STATIC);
		step = sqlite3_step(stmt);
		if (step == SQLITE_ROW) {
			*catalog_id = sqlite3_column_int64(stmt, 0);
			*replaced = true;
		} else if (step != SQLITE_DONE) {
			rc = db_error(db, "cannot read the catalogs");
		}
	}
	sqlite3_finalize(stmt);
	stmt = NULL;
	if (rc == 0 && *replaced)
		rc = prepare_in(db,
				"UPDATE \"%w\".catalogs SET source_path = ?2, sha256 = ?3,"
				" loaded_at = ?4 WHERE name = ?1",
				schema, &stmt);
	else if (rc == 0)
		rc = prepare_in(db,
				"INSERT INTO \"%w\".catalogs (name, source_path, sha256, loaded_at)"
				" VALUES (?1, ?2, ?3, ?4)",
				schema, &stmt);
	if (rc == 0) {
		sqlite3_bind_text(stmt, 1, c->name, -1, SQLITE_STATIC);
		sqlite3_bind_text(stmt, 2, c->path ? c->path : "", -1, SQLITE_STATIC);
		sqlite3_bind_text(stmt, 3, c->sha256, -1, SQLITE_STATIC);
		sqlite3_bind_text(stmt, 4, now, -1, SQLITE_STATIC);
		if (sqlite3_step(stmt) != SQLITE_DONE)
			rc = err_set("cannot store catalog '%s': %s", c->name, sqlite3_errmsg(db));
		else if (!*replaced)
			*catalog_id = sqlite3_last_insert_rowid(db);
	}
	sqlite3_finalize(stmt);
	stmt = NULL;
	if (rc == 0 && *replaced)
		rc = prepare_in(db, "DELETE FROM \"%w\".instances WHERE catalog_id = ?1", schema,
				&stmt);
	if (rc == 0 && *replaced) {
		sqlite3_bind_int64(stmt, 1, *catalog_id);
		if (sqlite3_step(stmt) != SQLITE_DONE)
			rc = err_set("cannot replace catalog '%s': %s", c->name,
				     sqlite3_errmsg(db));
	}
	sqlite3_finalize(stmt);
	return rc;
}

static int check_unique_in(sqlite3 *db, const char *prefix);

static int store_in(sqlite3 *db, const char *schema, const struct catalog *c, bool *replaced)
{
	int64_t catalog_id = 0;
	bool was = false;
	int rc = upsert_catalog(db, schema, c, &catalog_id, &was);
	if (rc == 0)
		rc = insert_instances(db, schema, catalog_id, c);
	if (replaced)
		*replaced = was;
	return rc;
}

int catalog_store(sqlite3 *db, const struct catalog *c, bool *replaced)
{
	int rc = store_in(db, "main", c, replaced);
	return rc ? rc : check_unique_in(db, "main.");
}

int catalog_load_temp(sqlite3 *db, const struct catalog *cats, size_t n)
{
	int rc = db_exec(db, temp_tables);
	for (size_t i = 0; rc == 0 && i < n; i++) {
		bool replaced = false;
		rc = store_in(db, "temp", &cats[i], &replaced);
		if (rc == 0 && replaced)
			rc = err_usage(
				"two catalogs named '%s' ('%s' and another): catalogs of one "
				"run need different file names",
				cats[i].name, cats[i].path ? cats[i].path : "");
	}
	return rc ? rc : check_unique_in(db, "temp.");
}

/* The one number `sql` selects into *out (0 when there is none: an error). */
static int count_of(sqlite3 *db, const char *sql, int64_t *out)
{
	sqlite3_stmt *stmt = NULL;
	int rc = 0;
	*out = 0;
	if (sqlite3_prepare_v2(db, sql, -1, &stmt, NULL) != SQLITE_OK)
		rc = db_error(db, "cannot read the catalogs");
	else if (sqlite3_step(stmt) == SQLITE_ROW)
		*out = sqlite3_column_int64(stmt, 0);
	else
		rc = db_error(db, "cannot read the catalogs");
	sqlite3_finalize(stmt);
	return rc;
}

int catalog_temp_active(sqlite3 *db, bool *active)
{
	int64_t tables;
	int rc = count_of(db,
			  "SELECT count(*) FROM temp.sqlite_schema WHERE type = 'table' AND"
			  " name IN ('catalogs', 'instances')",
			  &tables);
	*active = rc == 0 && tables == 2;
	return rc;
}

int catalog_stored_count(sqlite3 *db, size_t *n)
{
	int64_t count;
	int rc = count_of(db, "SELECT count(*) FROM main.catalogs", &count);
	*n = (size_t)count;
	return rc;
}

int catalog_instance_shape(sqlite3 *db, const char *instance, int *vcpus, int *threads_per_core,
			   char *catalog, size_t size)
{
	sqlite3_stmt *stmt = NULL;
	int rc = 1;
	if (sqlite3_prepare_v2(db,
			       "SELECT i.vcpus, i.threads_per_core, c.name FROM instances i"
			       " JOIN catalogs c USING (catalog_id) WHERE i.instance = ?1"
			       " ORDER BY c.catalog_id LIMIT 1",
			       -1, &stmt, NULL) != SQLITE_OK)
		return db_error(db, "cannot read the catalogs");
	sqlite3_bind_text(stmt, 1, instance, -1, SQLITE_STATIC);
	if (sqlite3_step(stmt) == SQLITE_ROW) {
		*vcpus = sqlite3_column_int(stmt, 0);
		*threads_per_core = sqlite3_column_int(stmt, 1);
		snprintf(catalog, size, "%s", (const char *)sqlite3_column_text(stmt, 2));
		rc = 0;
	}
	sqlite3_finalize(stmt);
	return rc;
}

/* prefix: "" (TEMP first), "main." or "temp.": never user text. */
static int check_unique_in(sqlite3 *db, const char *prefix)
{
	sqlite3_stmt *stmt = NULL;
	char *sql = sqlite3_mprintf("SELECT a.instance, ca.name, a.line, cb.name, b.line"
				    " FROM %sinstances a JOIN %sinstances b"
				    "   ON b.instance = a.instance AND b.catalog_id > a.catalog_id"
				    " JOIN %scatalogs ca ON ca.catalog_id = a.catalog_id"
				    " JOIN %scatalogs cb ON cb.catalog_id = b.catalog_id"
				    " ORDER BY b.catalog_id, b.line LIMIT 1",
				    prefix, prefix, prefix, prefix);
	int rc = 0, step;
	if (!sql)
		return err_set("out of memory");
	if (sqlite3_prepare_v2(db, sql, -1, &stmt, NULL) != SQLITE_OK) {
		rc = db_error(db, "cannot read the catalogs");
		goto done;
	}
	step = sqlite3_step(stmt);
	if (step == SQLITE_ROW)
		rc = err_set("instance '%s' is in catalog '%s' (line %lld) and in catalog '%s' "
			     "(line %lld): an instance type may be listed once (store a catalog "
			     "under the same name to replace it)",
			     (const char *)sqlite3_column_text(stmt, 0),
			     (const char *)sqlite3_column_text(stmt, 1),
			     (long long)sqlite3_column_int64(stmt, 2),
			     (const char *)sqlite3_column_text(stmt, 3),
			     (long long)sqlite3_column_int64(stmt, 4));
	else if (step != SQLITE_DONE)
		rc = db_error(db, "cannot read the catalogs");
done:
	sqlite3_finalize(stmt);
	sqlite3_free(sql);
	return rc;
}

int catalog_check_unique(sqlite3 *db)
{
	return check_unique_in(db, "");
}

static int text_column(sqlite3_stmt *stmt, int col, char **out)
{
	const char *s = (const char *)sqlite3_column_text(stmt, col);
	*out = strdup(s ? s : "");
	return *out ? 0 : err_set("out of memory");
}

static int read_instance(sqlite3_stmt *stmt, struct instance *in)
{
	int rc = text_column(stmt, 0, &in->catalog);
	rc = rc ? rc : text_column(stmt, 1, &in->instance);
	rc = rc ? rc : text_column(stmt, 2, &in->provider);
	rc = rc ? rc : text_column(stmt, 3, &in->series);
	in->vcpus = sqlite3_column_int(stmt, 4);
	in->threads_per_core = sqlite3_column_int(stmt, 5);
	in->sustained_vcpu_fraction = sqlite3_column_double(stmt, 6);
	in->memory_gib = sqlite3_column_double(stmt, 7);
	rc = rc ? rc : text_column(stmt, 8, &in->cpu_family);
	in->price_per_hour = sqlite3_column_double(stmt, 9);
	rc = rc ? rc : text_column(stmt, 10, &in->price_region);
	rc = rc ? rc : text_column(stmt, 11, &in->price_source);
	rc = rc ? rc : text_column(stmt, 12, &in->price_date);
	in->physical_cores = sqlite3_column_double(stmt, 13);
	in->sustained_cores = sqlite3_column_double(stmt, 14);
	in->line = (long)sqlite3_column_int64(stmt, 15);
	rc = rc ? rc : text_column(stmt, 16, &in->cpu_platforms);
	return rc;
}

int catalog_load(sqlite3 *db, const char *const *series, size_t nseries, struct catalog *out)
{
	struct strbuf sql = STRBUF_INIT;
	sqlite3_stmt *stmt = NULL;
	size_t cap = 0;
	int rc = 0, step = SQLITE_DONE, bad;
	memset(out, 0, sizeof(*out));
	bad = strbuf_adds(&sql,
			  "SELECT c.name, i.instance, i.provider, i.series, i.vcpus,"
			  " i.threads_per_core, i.sustained_vcpu_fraction, i.memory_gib,"
			  " i.cpu_family, i.price_per_hour, i.price_region, i.price_source,"
			  " i.price_date, i.physical_cores, i.sustained_cores, i.line,"
			  " i.cpu_platforms FROM instances i JOIN catalogs c USING (catalog_id)");
	for (size_t i = 0; i < nseries; i++)
		bad |= strbuf_adds(&sql, i ? ", ?" : " WHERE i.series IN (?");
	bad |= strbuf_adds(&sql, nseries ? ")" : "");
	bad |= strbuf_adds(&sql, " ORDER BY c.catalog_id, i.line");
	if (bad) {
		rc = err_set("out of memory");
		goto done;
	}
	if (sqlite3_prepare_v2(db, strbuf_str(&sql), -1, &stmt, NULL) != SQLITE_OK) {
		rc = db_error(db, "cannot read the catalogs");
		goto done;
	}
	for (size_t i = 0; i < nseries; i++)
		sqlite3_bind_text(stmt, (int)i + 1, series[i], -1, SQLITE_STATIC);
	while (rc == 0 && (step = sqlite3_step(stmt)) == SQLITE_ROW) {
		if (out->n == cap) {
			size_t grow = cap ? 2 * cap : 64;
			struct instance *items = realloc(out->items, grow * sizeof(*items));
			if (!items) {
				rc = err_set("out of memory");
				break;
			}
			out->items = items;
			cap = grow;
		}
		memset(&out->items[out->n], 0, sizeof(out->items[0]));
		out->n++; /* counted first, so a half-read instance is freed too */
		rc = read_instance(stmt, &out->items[out->n - 1]);
	}
	if (rc == 0 && step != SQLITE_DONE)
		rc = db_error(db, "cannot read the catalogs");
done:
	sqlite3_finalize(stmt);
	strbuf_release(&sql);
	if (rc)
		catalog_release(out);
	return rc;
}

int catalog_list(sqlite3 *db, struct catalog_info **out, size_t *n)
{
	sqlite3_stmt *stmt = NULL;
	struct catalog_info *infos = NULL;
	size_t count = 0;
	bool temp = false;
	int rc = catalog_temp_active(db, &temp), step = SQLITE_DONE;
	*out = NULL;
	*n = 0;
	if (rc == 0 && sqlite3_prepare_v2(db,
					  "SELECT name, source_path, sha256, loaded_at,"
					  " (SELECT count(*) FROM instances i"
					  "   WHERE i.catalog_id = c.catalog_id)"
					  " FROM catalogs c ORDER BY catalog_id",
					  -1, &stmt, NULL) != SQLITE_OK)
		rc = db_error(db, "cannot read the catalogs");
	while (rc == 0 && (step = sqlite3_step(stmt)) == SQLITE_ROW) {
		struct catalog_info *grown = realloc(infos, (count + 1) * sizeof(*grown));
		if (!grown) {
			rc = err_set("out of memory");
			break;
		}
		infos = grown;
		memset(&infos[count], 0, sizeof(infos[0]));
		count++;
		rc = text_column(stmt, 0, &infos[count - 1].name);
		rc = rc ? rc : text_column(stmt, 1, &infos[count - 1].source_path);
		rc = rc ? rc : text_column(stmt, 2, &infos[count - 1].sha256);
		rc = rc ? rc : text_column(stmt, 3, &infos[count - 1].loaded_at);
		infos[count - 1].instances = (size_t)sqlite3_column_int64(stmt, 4);
		infos[count - 1].temp = temp;
	}
	if (rc == 0 && step != SQLITE_DONE)
		rc = db_error(db, "cannot read the catalogs");
	sqlite3_finalize(stmt);
	if (rc) {
		catalog_infos_free(infos, count);
		return rc;
	}
	*out = infos;
	*n = count;
	return 0;
}

bool instance_on_platform(const struct instance *in, const char *platform)
{
	const char *p = in->cpu_platforms;
	size_t len = strlen(platform);
	while (p && *p && len) {
		size_t n = strcspn(p, ",");
		if (n == len && !strncmp(p, platform, len))
			return true;
		p += n;
		p += strspn(p, ", ");
	}
	return false;
}
