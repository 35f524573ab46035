/*
 * corpus: see corpus.h.
 *
 * One import: collect and hash every file under the folder, compare the
 * content hash with any earlier import of the same name, then for each
 * [table] of the manifest read the results table, create one run per row
 * (plus unlisted run folders and rejection markers), read each run's
 * files, map the canonical fields and finally derive the exclusions. All
 * inside the caller's transaction.
 */
#include "corpus.h"
#include "corpus_int.h"

#include "../common/err.h"
#include "../common/hash.h"
#include "../common/infile.h"
#include "../common/num.h"
#include "../common/strbuf.h"
#include "../common/strvec.h"
#include "../schema/catalog.h"
#include "../schema/db.h"
#include "../schema/fields.h"
#include "../schema/topology.h"
#include "manifest.h"
#include "mapping.h"
#include "profiles.h"
#include "runfiles.h"
#include "table.h"
#include "tools.h"
#include "topology.h"
#include "trace.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void import_options_init(struct import_options *opts)
{
	memset(opts, 0, sizeof(*opts));
	opts->patch_floor = IMPORT_DEFAULT_PATCH_FLOOR;
}

static void content_hash(const struct importer *im, char hex[HASH_HEX_LEN + 1])
{
	struct hash_ctx *ctx = hash_new();
	char options[64];
	if (!ctx) {
		memset(hex, '0', HASH_HEX_LEN);
		hex[HASH_HEX_LEN] = '\0';
		return;
	}
	/* the manifest and options decide what is stored, so they are content too */
	snprintf(options, sizeof(options), "patch_floor=%.17g\n", im->opts->patch_floor);
	hash_update(ctx, "coreplan-corpus-v1\n", 19);
	hash_update(ctx, im->manifest->text, strlen(im->manifest->text));
	hash_update(ctx, options, strlen(options));
	/* the tie is content too; absent, the hash is what it was before ties existed */
	if (im->host) {
		hash_update(ctx, "host=", 5);
		hash_update(ctx, im->host, strlen(im->host));
		hash_update(ctx, "\n", 1);
	}
	if (im->instance) {
		hash_update(ctx, "instance=", 9);
		hash_update(ctx, im->instance, strlen(im->instance));
		hash_update(ctx, "\n", 1);
	}
	for (size_t i = 0; i < im->nfiles; i++) {
		char line[128];
		hash_update(ctx, im->files[i].path, strlen(im->files[i].path));
		snprintf(line, sizeof(line), "\t%lld\t%s\n", (long long)im->files[i].size,
			 im->files[i].sha256);
		hash_update(ctx, line, strlen(line));
	}
	hash_finish(ctx, hex);
}

/* Mark a file as read by a rule; a file claimed twice keeps its first kind. */

static int64_t scalar_int(sqlite3 *db, const char *sql, int64_t bind)
{
	sqlite3_stmt *stmt = NULL;
	int64_t value = -1;
	if (sqlite3_prepare_v2(db, sql, -1, &stmt, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(stmt, 1, bind);
	if (sqlite3_step(stmt) == SQLITE_ROW)
		value = sqlite3_column_int64(stmt, 0);
	sqlite3_finalize(stmt);
	return value;
}

/* ---- the corpus row ---- */

/* 0: go on; 1: unchanged, nothing to do; <0: error. */
static int check_existing(struct importer *im, const char *hash)
{
	sqlite3_stmt *stmt = NULL;
	int rc = db_prepare(im->db, "SELECT corpus_id, content_hash FROM corpora WHERE name = ?1",
			    &stmt);
	if (rc)
		return rc;
	sqlite3_bind_text(stmt, 1, im->result->name, -1, SQLITE_STATIC);
	if (sqlite3_step(stmt) == SQLITE_ROW) {
		int64_t old_id = sqlite3_column_int64(stmt, 0);
		const char *old_hash = (const char *)sqlite3_column_text(stmt, 1);
		if (!strcmp(old_hash, hash)) {
			rc = 1;
		} else if (!im->opts->replace) {
			char tie[600] = "";
			if (im->opts->host &&
			    (!im->stored_host || strcmp(im->stored_host, im->host)))
				snprintf(tie, sizeof(tie),
					 "; --host ties it to '%s', it was %s%s%s", im->host,
					 im->stored_host ? "tied to '" : "not tied",
					 im->stored_host ? im->stored_host : "",
					 im->stored_host ? "'" : "");
			else if (im->opts->instance && (!im->stored_instance ||
							strcmp(im->stored_instance, im->instance)))
				snprintf(tie, sizeof(tie), "; --instance names '%s', it was %s%s%s",
					 im->instance, im->stored_instance ? "'" : "not given",
					 im->stored_instance ? im->stored_instance : "",
					 im->stored_instance ? "'" : "");
			rc = err_set("corpus '%s' was imported before with different content "
				     "(hash %.12s, now %.12s%s): pass --replace to replace it, or "
				     "--name to import it under another name",
				     im->result->name, old_hash, hash, tie);
		} else {
			sqlite3_stmt *del = NULL;
			rc = db_prepare(im->db, "DELETE FROM corpora WHERE corpus_id = ?1", &del);
			if (rc == 0) {
				sqlite3_bind_int64(del, 1, old_id);
				rc = db_step_done(im->db, del);
			}
			sqlite3_finalize(del);
			im->result->status = IMPORT_REPLACED;
		}
	}
	sqlite3_finalize(stmt);
	return rc;
}

/* Append `, "key": "value"` (JSON string escapes) when value is not NULL. */
static void json_member(struct strbuf *sb, const char *key, const char *value)
{
	if (!value)
		return;
	strbuf_addf(sb, ", \"%s\": \"", key);
	for (const unsigned char *p = (const unsigned char *)value; *p; p++)
		if (*p == '"' || *p == '\\')
			strbuf_addf(sb, "\\%c", *p);
		else if (*p < 0x20)
			strbuf_addf(sb, "\\u%04x", *p);
		else
			strbuf_addf(sb, "%c", *p);
	strbuf_adds(sb, "\"");
}

static int insert_corpus(struct importer *im, const char *hash)
{
	sqlite3_stmt *stmt = NULL;
	char now[32];
	struct strbuf options = STRBUF_INIT;
	time_t t = time(NULL);
	struct tm tm;
	int rc = db_prepare(im->db,
			    "INSERT INTO corpora (name, source_path, content_hash, imported_at,"
			    " layout, manifest, options) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
			    &stmt);
	if (rc)
		return rc;
	gmtime_r(&t, &tm);
	strftime(now, sizeof(now), "%Y-%m-%dT%H:%M:%SZ", &tm);
	strbuf_addf(&options, "{\"patch_floor\": %.17g", im->opts->patch_floor);
	json_member(&options, "host", im->host);
	json_member(&options, "instance", im->instance);
	strbuf_adds(&options, "}");
	sqlite3_bind_text(stmt, 1, im->result->name, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 2, im->root, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 3, hash, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 4, now, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 5, im->manifest->layout, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 6, im->manifest->text, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 7, strbuf_str(&options), -1, SQLITE_STATIC);
	rc = db_step_done(im->db, stmt);
	sqlite3_finalize(stmt);
	strbuf_release(&options);
	if (rc)
		return rc;
	im->corpus_id = sqlite3_last_insert_rowid(im->db);
	rc = db_prepare(im->db,
			"INSERT INTO files (corpus_id, path, size, sha256, kind)"
			" VALUES (?1, ?2, ?3, ?4, 'other')",
			&stmt);
	for (size_t i = 0; rc == 0 && i < im->nfiles; i++) {
		sqlite3_bind_int64(stmt, 1, im->corpus_id);
		sqlite3_bind_text(stmt, 2, im->files[i].path, -1, SQLITE_STATIC);
		sqlite3_bind_int64(stmt, 3, im->files[i].size);
		sqlite3_bind_text(stmt, 4, im->files[i].sha256, -1, SQLITE_STATIC);
		rc = db_step_done(im->db, stmt);
		im->files[i].file_id = sqlite3_last_insert_rowid(im->db);
	}
	sqlite3_finalize(stmt);
	return rc;
}

/* ---- entry point ---- */

static char *base_name(const char *path, bool strip_extension)
{
	char *copy = strdup(path);
	char *base, *dot, *out;
	size_t n;
	if (!copy)
		return NULL;
	n = strlen(copy);
	while (n > 1 && copy[n - 1] == '/')
		copy[--n] = '\0';
	base = basename(copy);
	if (strip_extension && (dot = strrchr(base, '.')) != NULL && dot != base)
		*dot = '\0';
	out = strdup(base);
	free(copy);
	return out;
}

/*
 * The corpus folder, opened once: every file is then read below this
 * descriptor. A single table's folder is that of its real path, and the
 * table is named there by its real name: a table named through a
 * symbolic link is the link's target, and the result says so.
 */
static int open_root(struct importer *im, const char *path, bool is_dir)
{
	char *real = realpath(path, NULL);
	struct stat st;
	if (!real)
		return err_set("cannot import '%s': %s", path, strerror(errno));
	if (is_dir) {
		im->root = real;
	} else {
		char *slash = strrchr(real, '/');
		im->single = strdup(slash + 1);
		if (slash == real)
			slash[1] = '\0'; /* a table in / */
		else
			*slash = '\0';
		im->root = real;
		if (!im->single)
			return err_set("out of memory");
		if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
			snprintf(im->result->link_target, sizeof(im->result->link_target), "%s%s%s",
				 im->root, slash == real ? "" : "/", im->single);
	}
	im->root_fd = open(im->root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (im->root_fd < 0)
		return err_set("cannot open folder '%s': %s", im->root, strerror(errno));
	infile_dirs_init(&im->dirs, im->root_fd, im->root);
	return 0;
}

/*
 * A file of the folder read before the others are hashed (its manifest, a
 * single table): its hash is kept, and hash_files() refuses the import
 * when the file hashed then is not the file read now.
 */

static void hosts_of(struct importer *im)
{
	sqlite3_stmt *stmt = NULL;
	char *hosts = im->result->hosts;
	size_t size = sizeof(im->result->hosts), used = 0, shown = 0, all = 0;
	/* room for ", ... and N more" */
	size_t room = size - 40;
	hosts[0] = '\0';
	if (sqlite3_prepare_v2(
		    im->db,
		    /* the tables under run_attrs, each by its own index */
		    "SELECT value FROM (SELECT a.value FROM attr_rows a JOIN runs r USING (run_id)"
		    " WHERE r.corpus_id = ?1 AND a.name = 'topology_host'"
		    " UNION SELECT s.value FROM attr_sets t JOIN set_attrs s USING (set_id)"
		    " JOIN attr_names n USING (name_id) WHERE t.corpus_id = ?1"
		    " AND n.name = 'topology_host'"
		    " UNION SELECT CAST(v.value AS TEXT) FROM attr_names n JOIN run_values v"
		    " USING (name_id) JOIN runs r USING (run_id) WHERE n.name = 'topology_host'"
		    " AND r.corpus_id = ?1) ORDER BY value",
		    -1, &stmt, NULL) != SQLITE_OK)
		return;
	sqlite3_bind_int64(stmt, 1, im->corpus_id);
	while (sqlite3_step(stmt) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(stmt, 0);
		size_t need = strlen(name ? name : "") + (used ? 2 : 0);
		all++;
		if (shown + 1 != all || used + need >= room)
			continue;
		snprintf(hosts + used, size - used, "%s%s", used ? ", " : "", name ? name : "");
		used += need;
		shown++;
	}
	sqlite3_finalize(stmt);
	if (shown < all && used)
		snprintf(hosts + used, size - used, ", ... and %zu more", all - shown);
	else if (shown < all)
		snprintf(hosts, size,
			 "%zu host%s named too long to list here (coreplan topology "
			 "--show)",
			 all, all == 1 ? "" : "s");
}

static void count_results(struct importer *im)
{
	im->result->excluded = scalar_int(im->db,
					  "SELECT count(DISTINCT e.run_id) FROM exclusions e JOIN"
					  " runs r USING (run_id) WHERE r.corpus_id = ?1",
					  im->corpus_id);
	im->result->files = (int64_t)im->nfiles;
	/* the runs of tool tables were counted as they were stored (corpus_tool.c) */
	im->result->tied_runs = im->tool_tied_runs +
				scalar_int(im->db,
					   "SELECT count(DISTINCT a.run_id) FROM attr_rows a JOIN"
					   " runs r USING (run_id) WHERE r.corpus_id = ?1 AND"
					   " a.name = 'topology_host'",
					   im->corpus_id);
	hosts_of(im);
}

/* The tie an earlier import of this name stored (corpora.options), then the effective one. */
static int read_tie(struct importer *im)
{
	sqlite3_stmt *stmt = NULL;
	int rc = db_prepare(im->db,
			    "SELECT json_extract(options, '$.host'), json_extract(options,"
			    " '$.instance') FROM corpora WHERE name = ?1 AND json_valid(options)",
			    &stmt);
	if (rc)
		return rc;
	sqlite3_bind_text(stmt, 1, im->result->name, -1, SQLITE_STATIC);
	if (sqlite3_step(stmt) == SQLITE_ROW) {
		const char *host = (const char *)sqlite3_column_text(stmt, 0);
		const char *instance = (const char *)sqlite3_column_text(stmt, 1);
		if ((host && !(im->stored_host = strdup(host))) ||
		    (instance && !(im->stored_instance = strdup(instance))))
			rc = err_set("out of memory");
	}
	sqlite3_finalize(stmt);
	if (rc)
		return rc;
	if (im->opts->host || im->stored_host)
		im->host = strdup(im->opts->host ? im->opts->host : im->stored_host);
	if (im->opts->instance || im->stored_instance)
		im->instance =
			strdup(im->opts->instance ? im->opts->instance : im->stored_instance);
	if ((im->opts->host || im->stored_host) && !im->host)
		return err_set("out of memory");
	if ((im->opts->instance || im->stored_instance) && !im->instance)
		return err_set("out of memory");
	if (im->host)
		rc = topology_require(im->db, im->host,
				      im->opts->host ? "--host" : "the stored --host");
	if (rc == 0 && im->instance) {
		char catalog[256];
		int vcpus, tpc;
		rc = im_instance_shape(im, im->instance, &vcpus, &tpc, catalog, sizeof(catalog));
		if (rc == 1)
			rc = err_usage(
				"%s '%s': no catalog lists that instance (the stored catalogs, "
				"else the shipped ones; coreplan catalog --show lists the stored "
				"instances)",
				im->opts->instance ? "--instance" : "the stored --instance",
				im->instance);
	}
	return rc;
}

/* Runs that name an instance no catalog lists: one warning per instance. */
static void warn_unknown_instances(const struct importer *im)
{
	for (size_t i = 0; i < im->nunknown; i++)
		warn_add(
			"%s: instance '%s' (run '%s'%s) is in no catalog: its runs have no "
			"topology (coreplan catalog FILE stores a catalog; import --host NAME ties "
			"the corpus to a recorded host)",
			im->result->name, im->unknown[i].name, im->unknown[i].first_tag,
			im->unknown[i].runs > 1 ? " and others" : "");
}

static void importer_release(struct importer *im)
{
	im_finalize_all(im);
	free(im->host);
	free(im->instance);
	free(im->stored_host);
	free(im->stored_instance);
	strvec_clear(&im->instance_hosts);
	for (size_t i = 0; i < im->nunknown; i++) {
		free(im->unknown[i].name);
		free(im->unknown[i].first_tag);
	}
	free(im->unknown);
	for (size_t i = 0; i < im->nfiles; i++) {
		free(im->files[i].path);
		free(im->files[i].kept);
	}
	free(im->files);
	infile_dirs_release(&im->dirs);
	if (im->root_fd >= 0)
		close(im->root_fd);
	free(im->root);
	free(im->single);
	free(im->manifest_origin);
	manifest_free(im->manifest);
}

int corpus_import(sqlite3 *db, const char *path, const struct import_options *opts,
		  struct import_result *result)
{
	struct importer im = {.db = db, .opts = opts, .result = result, .root_fd = -1,
			      .dirs = {.root_fd = -1, .fd = -1}};
	char hash[HASH_HEX_LEN + 1];
	struct stat st;
	char *name;
	int rc;
	memset(result, 0, sizeof(*result));
	if (stat(path, &st) != 0)
		return err_set("cannot import '%s': %s", path, strerror(errno));
	if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode))
		return err_set("cannot import '%s': not a folder or a file", path);
	name = opts->name ? strdup(opts->name) : base_name(path, !S_ISDIR(st.st_mode));
	if (!name)
		return err_set("out of memory");
	if (strlen(name) >= sizeof(result->name)) {
		rc = err_usage("corpus name '%.40s...' is %zu bytes long: at most %zu (pass a "
			       "shorter --name)",
			       name, strlen(name), sizeof(result->name) - 1);
		free(name);
		return rc;
	}
	snprintf(result->name, sizeof(result->name), "%s", name);
	free(name);
	if (!result->name[0])
		return err_usage("corpus name must not be empty");
	rc = open_root(&im, path, S_ISDIR(st.st_mode));
	if (rc == 0)
		rc = im_choose_manifest(&im, path, S_ISDIR(st.st_mode));
	if (rc == 0) {
		/* shown, not stored (corpora.layout is whole): a long name ends in "..." */
		if (snprintf(result->layout, sizeof(result->layout), "%s", im.manifest->layout) >=
		    (int)sizeof(result->layout))
			memcpy(result->layout + sizeof(result->layout) - 4, "...", 4);
		rc = im_collect(&im, S_ISDIR(st.st_mode));
	}
	if (rc == 0)
		rc = read_tie(&im);
	if (rc == 0) {
		content_hash(&im, hash);
		rc = check_existing(&im, hash);
	}
	if (rc == 1) {
		result->status = IMPORT_UNCHANGED;
		importer_release(&im);
		return 0;
	}
	if (rc == 0)
		rc = im_prepare_all(&im);
	if (rc == 0)
		rc = insert_corpus(&im, hash);
	for (size_t i = 0; rc == 0 && i < im.manifest->ntables; i++)
		rc = im_import_table(&im, &im.manifest->tables[i]);
	if (rc == 0)
		rc = im_claim_corpus_text(&im);
	if (rc == 0)
		rc = im_claim_manifest(&im);
	if (rc == 0)
		rc = im_derive_exclusions(&im);
	for (size_t i = 0; rc == 0 && i < im.manifest->ntables; i++)
		if (im.manifest->tables[i].require_trace)
			rc = im_exclude_traceless(&im, &im.manifest->tables[i]);
	if (rc == 0) {
		count_results(&im);
		im_warn_unclaimed(&im);
		warn_unknown_instances(&im);
	}
	importer_release(&im);
	return rc;
}

int corpus_import_each(sqlite3 *db, char *const *paths, size_t n, const struct import_options *opts,
		       struct import_result *results, void (*each)(const char *path, void *arg),
		       void *arg)
{
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < n; i++) {
		if (each)
			each(paths[i], arg);
		rc = corpus_import(db, paths[i], opts, &results[i]);
		if (each)
			each(NULL, arg);
	}
	return rc;
}

int corpus_import_all(sqlite3 *db, char *const *paths, size_t n, const struct import_options *opts,
		      struct import_result *results, void (*each)(const char *path, void *arg),
		      void *arg)
{
	int rc = db_begin(db);
	if (rc == 0)
		rc = corpus_import_each(db, paths, n, opts, results, each, arg);
	if (rc == 0)
		return db_commit(db);
	db_rollback(db); /* keeps the message of the failure */
	return rc;
}
