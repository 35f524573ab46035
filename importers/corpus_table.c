/* corpus_table: one [table] of a headed results table: its runs, then the corpus's exclusions
 * (corpus_int.h). */
#include "corpus_int.h"

#include "../common/err.h"
#include "../common/grow.h"
#include "../common/hash.h"
#include "../common/infile.h"
#include "../common/num.h"
#include "../common/strbuf.h"
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

/* ---- one [table] section ---- */

/* FNV-1a: a corpus folder may hold 100,000 run folders, so tags are hashed, not scanned. */
static size_t tag_hash(const char *tag)
{
	uint64_t h = 1469598103934665603ULL;
	for (const unsigned char *p = (const unsigned char *)tag; *p; p++)
		h = (h ^ *p) * 1099511628211ULL;
	return (size_t)h;
}

static void index_put(struct table_ctx *tc, size_t position)
{
	size_t slot = tag_hash(tc->runs[position].tag) & (tc->index_cap - 1);
	while (tc->index[slot])
		slot = (slot + 1) & (tc->index_cap - 1);
	tc->index[slot] = position + 1;
}

/* Keep the index at most half full: rebuild it twice as large. */
static int index_grow(struct table_ctx *tc)
{
	size_t cap = tc->index_cap ? 2 * tc->index_cap : 256;
	size_t *index = calloc(cap, sizeof(*index));
	if (!index)
		return err_set("out of memory");
	free(tc->index);
	tc->index = index;
	tc->index_cap = cap;
	for (size_t i = 0; i < tc->nruns; i++)
		index_put(tc, i);
	return 0;
}

static int add_run(struct table_ctx *tc, char *tag, long line, size_t row)
{
	if (GROW(tc->runs, tc->runs_alloc, tc->nruns + 1) != 0) {
		free(tag);
		return err_set("out of memory");
	}
	memset(&tc->runs[tc->nruns], 0, sizeof(tc->runs[0]));
	tc->runs[tc->nruns].tag = tag;
	tc->runs[tc->nruns].line = line;
	tc->runs[tc->nruns].row = row;
	tc->nruns++;
	if (2 * tc->nruns > tc->index_cap)
		return index_grow(tc);
	index_put(tc, tc->nruns - 1);
	return 0;
}

static struct run_entry *find_run(struct table_ctx *tc, const char *tag)
{
	size_t slot;
	if (!tc->index_cap)
		return NULL;
	slot = tag_hash(tag) & (tc->index_cap - 1);
	for (; tc->index[slot]; slot = (slot + 1) & (tc->index_cap - 1))
		if (!strcmp(tc->runs[tc->index[slot] - 1].tag, tag))
			return &tc->runs[tc->index[slot] - 1];
	return NULL;
}

static int read_tables(struct table_ctx *tc)
{
	struct importer *im = tc->im;
	const struct manifest_table *spec = tc->spec;
	int rc;
	tc->rows_file = im_find_file(im, spec->file);
	if (!tc->rows_file)
		return err_set("results table '%s' not found in '%s'", spec->file, im->root);
	rc = im_read_hashed_table(im, tc->rows_file, &tc->rows);
	if (rc)
		return rc;
	if (tc->rows.nrows == 0)
		return err_at(spec->file, 1, 0,
			      "header but no runs: a results table needs one "
			      "row per run");
	rc = im_claim(im, tc->rows_file, "results", (int64_t)tc->rows.nrows);
	if (rc || !spec->join_file)
		return rc;
	tc->join_file = im_find_file(im, spec->join_file);
	if (!tc->join_file)
		return err_set("joined table '%s' not found in '%s'", spec->join_file, im->root);
	rc = im_read_hashed_table(im, tc->join_file, &tc->join);
	if (rc)
		return rc;
	tc->join_key = table_col(&tc->join, spec->join_key);
	if (tc->join_key < 0)
		return err_at(spec->join_file, 1, 0, "no column '%s' to join on", spec->join_key);
	for (size_t i = 0; i < tc->join.nrows; i++)
		for (size_t j = i + 1; j < tc->join.nrows; j++)
			if (!strcmp(tc->join.cells[i][tc->join_key],
				    tc->join.cells[j][tc->join_key]))
				return err_at(spec->join_file, tc->join.lines[j], tc->join_key + 1,
					      "duplicate run '%s' (also line %ld)",
					      tc->join.cells[j][tc->join_key], tc->join.lines[i]);
	return im_claim(im, tc->join_file, "join", (int64_t)tc->join.nrows);
}

static int listed_runs(struct table_ctx *tc)
{
	for (size_t i = 0; i < tc->rows.nrows; i++) {
		struct run_entry probe = {.row = i};
		struct run_vars vars = {.tc = tc, .run = &probe};
		struct run_entry *other;
		char *tag = NULL;
		int rc;
		snprintf(vars.row_text, sizeof(vars.row_text), "%zu", i + 1);
		rc = manifest_expand(tc->spec->tag, im_run_var, &vars, &tag);
		if (rc) {
			err_prefix("%s:%ld", tc->spec->file, tc->rows.lines[i]);
			return rc;
		}
		if (!*tag || strcmp(tag, "NA") == 0) {
			free(tag);
			return err_at(tc->spec->file, tc->rows.lines[i], 0, "row has no run tag");
		}
		if ((other = find_run(tc, tag)) != NULL) {
			rc = err_at(tc->spec->file, tc->rows.lines[i], 0,
				    "duplicate run tag '%s' (also line %ld)", tag, other->line);
			free(tag);
			return rc;
		}
		rc = add_run(tc, tag, tc->rows.lines[i], i);
		if (rc)
			return rc;
	}
	return 0;
}

/*
 * Entries of a folder matching a one-`*` pattern such as "runs/<*>/" or
 * "json/<*>.REJECTED"; calls `found` with the text the `*` matched.
 */
static int glob_tags(struct table_ctx *tc, const char *pattern,
		     int (*found)(struct table_ctx *tc, const char *tag, const char *relative))
{
	struct importer *im = tc->im;
	char *copy = strdup(pattern);
	char *slash, *last, *star;
	bool want_dirs;
	DIR *dir;
	struct dirent *entry;
	int rc = 0, dir_fd = -1;
	size_t n;
	if (!copy)
		return err_set("out of memory");
	n = strlen(copy);
	want_dirs = n > 0 && copy[n - 1] == '/';
	if (want_dirs)
		copy[n - 1] = '\0';
	slash = strrchr(copy, '/');
	last = slash ? slash + 1 : copy;
	star = strchr(last, '*');
	if (!star || strchr(star + 1, '*')) {
		free(copy);
		return err_set("pattern '%s' must have exactly one '*' in its last part", pattern);
	}
	if (slash)
		*slash = '\0';
	/* the folder is opened below the corpus folder's descriptor: no link, no '..' */
	rc = infile_opendir_in(im->root_fd, slash ? copy : "", slash ? copy : ".", &dir_fd);
	dir = rc == 0 ? fdopendir(dir_fd) : NULL;
	if (!dir) {
		if (rc < 0)
			err_prefix("pattern '%s'", pattern);
		else if (rc == 0)
			rc = err_set("pattern '%s': cannot read folder '%s': %s", pattern, copy,
				     strerror(errno));
		else
			rc = 0; /* no such folder: nothing to discover */
		if (dir_fd >= 0)
			close(dir_fd);
		free(copy);
		return rc;
	}
	while (rc == 0 && (entry = readdir(dir)) != NULL) {
		size_t prefix = (size_t)(star - last), suffix = strlen(star + 1);
		size_t len = strlen(entry->d_name);
		struct strbuf relative = STRBUF_INIT;
		struct stat st;
		char *tag;
		if (entry->d_name[0] == '.' || fnmatch(last, entry->d_name, FNM_PERIOD) != 0 ||
		    len <= prefix + suffix)
			continue;
		strbuf_addf(&relative, "%s%s%s", slash ? copy : "", slash ? "/" : "",
			    entry->d_name);
		if (fstatat(dirfd(dir), entry->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    (want_dirs ? S_ISDIR(st.st_mode) : S_ISREG(st.st_mode))) {
			tag = strndup(entry->d_name + prefix, len - prefix - suffix);
			rc = tag ? found(tc, tag, strbuf_str(&relative)) : err_set("out of memory");
			free(tag);
		}
		strbuf_release(&relative);
	}
	closedir(dir);
	free(copy);
	return rc;
}

static int found_unlisted(struct table_ctx *tc, const char *tag, const char *relative)
{
	char *copy;
	(void)relative;
	if (find_run(tc, tag))
		return 0;
	copy = strdup(tag);
	return copy ? add_run(tc, copy, 0, SIZE_MAX) : err_set("out of memory");
}

static int found_rejected(struct table_ctx *tc, const char *tag, const char *relative)
{
	struct run_entry *run = find_run(tc, tag);
	int rc = 0;
	if (!run) {
		char *copy = strdup(tag);
		rc = copy ? add_run(tc, copy, 0, SIZE_MAX) : err_set("out of memory");
		run = rc ? NULL : &tc->runs[tc->nruns - 1];
	}
	if (run && !(run->rejection_path = strdup(relative)))
		rc = err_set("out of memory");
	return rc;
}

/* glob order is readdir order: sort the unlisted runs so seq is stable */
static int compare_runs(const void *a, const void *b)
{
	const struct run_entry *ra = a, *rb = b;
	if ((ra->row == SIZE_MAX) != (rb->row == SIZE_MAX))
		return ra->row == SIZE_MAX ? 1 : -1;
	if (ra->row != SIZE_MAX)
		return ra->row < rb->row ? -1 : ra->row > rb->row;
	return strcmp(ra->tag, rb->tag);
}

const char *im_subcorpus(const struct manifest_table *spec)
{
	return spec->subcorpus                 ? spec->subcorpus
	       : strcmp(spec->section, "main") ? spec->section
					       : "";
}

/* The table's host topology: stored as host CORPUS[/SUBCORPUS], named by every run. */
int im_read_topology(struct importer *im, const struct manifest_table *spec, const char *subcorpus,
		     char **host)
{
	struct corpus_file *f = im_find_file(im, spec->topology);
	struct strbuf name = STRBUF_INIT;
	struct topology topo;
	char *text = NULL;
	size_t len = 0;
	int rc;
	if (!f)
		return err_set("topology file '%s' not found in '%s'", spec->topology, im->root);
	memset(&topo, 0, sizeof(topo));
	rc = im_read_hashed_text(im, f, &text, &len);
	if (rc == 0)
		rc = topology_parse(text, len, f->path, &topo);
	free(text);
	if (rc)
		return rc;
	strbuf_addf(&name, "%s%s%s", im->result->name, *subcorpus ? "/" : "", subcorpus);
	*host = strbuf_detach(&name);
	rc = *host ? topology_store(im->db, *host, &topo) : err_set("out of memory");
	if (rc == 0)
		rc = im_claim(im, f, "topology", (int64_t)topo.n);
	topology_release(&topo);
	return rc;
}

static void table_ctx_release(struct table_ctx *tc)
{
	free(tc->index);
	free(tc->host);
	table_release(&tc->rows);
	table_release(&tc->join);
	for (size_t i = 0; i < tc->nruns; i++) {
		free(tc->runs[i].tag);
		free(tc->runs[i].rejection_path);
	}
	free(tc->runs);
}

int im_import_table(struct importer *im, const struct manifest_table *spec)
{
	struct table_ctx tc = {.im = im, .spec = spec};
	int rc;
	if (spec->format)
		return im_import_tool_table(im, spec);
	tc.subcorpus = im_subcorpus(spec);
	rc = read_tables(&tc);
	if (rc == 0)
		rc = mapping_store_prefs(im->db, im->corpus_id, tc.subcorpus, spec);
	if (rc == 0 && spec->topology)
		rc = im_read_topology(im, spec, tc.subcorpus, &tc.host);
	if (rc == 0)
		rc = listed_runs(&tc);
	if (rc == 0 && spec->discover)
		rc = glob_tags(&tc, spec->discover, found_unlisted);
	if (rc == 0 && spec->rejected)
		rc = glob_tags(&tc, spec->rejected, found_rejected);
	if (rc == 0) /* the tag index is of no further use: positions change */
		qsort(tc.runs, tc.nruns, sizeof(tc.runs[0]), compare_runs);
	for (size_t i = 0; rc == 0 && i < tc.nruns; i++)
		rc = im_import_run(&tc, &tc.runs[i]);
	table_ctx_release(&tc);
	return rc;
}

/* ---- after every table: exclusions and what nothing claimed ---- */

/*
 * The reasons a run is left out of analysis (corpus.h). Each is one
 * INSERT ... SELECT over this corpus's runs; ?1 = corpus id, ?2 = floor.
 */
static const char *const exclusion_sql[] = {
	"INSERT INTO exclusions SELECT x.run_id, 'rejected', x.reason FROM rejections x"
	" JOIN runs r USING (run_id) WHERE r.corpus_id = ?1",
	/*
	 * The rules on a run's own columns in one pass over the corpus's runs
	 * (CROSS JOIN: the runs outside, each tested once against all five
	 * before the reasons are tried), not one pass each: five index scans
	 * with a table lookup per run were 7% of a 200,000-row tool import.
	 * exclusions is keyed by (run_id, reason): the order rows come in
	 * changes nothing stored.
	 */
	"INSERT INTO exclusions SELECT r.run_id, k.column1, CASE k.column1"
	" WHEN 'unlisted' THEN 'run found in the corpus folder but not listed in its results table'"
	" WHEN 'invalid' THEN 'the generator marked the run invalid'"
	" WHEN 'patch-rate' THEN 'patch_rate ' || r.patch_rate || ' is below the floor ' || ?2"
	" WHEN 'generator-saturated' THEN 'the generator reported that it may have been saturated'"
	" ELSE r.established || ' of ' || r.sessions || ' requested sessions were established' END"
	" FROM runs r CROSS JOIN (VALUES ('unlisted'), ('invalid'), ('patch-rate'),"
	" ('generator-saturated'), ('sessions-short')) k WHERE r.corpus_id = ?1"
	" AND (r.listed = 0 OR r.valid = 0 OR r.patch_rate < ?2 OR r.gen_saturated = 1"
	" OR r.established < r.sessions) AND CASE k.column1"
	" WHEN 'unlisted' THEN r.listed = 0"
	" AND NOT EXISTS (SELECT 1 FROM rejections x WHERE x.run_id = r.run_id)"
	" WHEN 'invalid' THEN r.valid = 0 WHEN 'patch-rate' THEN r.patch_rate < ?2"
	" WHEN 'generator-saturated' THEN r.gen_saturated = 1"
	" ELSE r.established < r.sessions END",
	"INSERT INTO exclusions SELECT t.run_id, 'empty-trace', 'its trace file is empty'"
	" FROM traces t JOIN runs r USING (run_id) WHERE r.corpus_id = ?1 AND t.kind = 'sample'"
	" AND t.rows = 0",
};

int im_derive_exclusions(struct importer *im)
{
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < sizeof(exclusion_sql) / sizeof(exclusion_sql[0]); i++) {
		sqlite3_stmt *stmt = NULL;
		rc = db_prepare(im->db, exclusion_sql[i], &stmt);
		if (rc == 0) {
			sqlite3_bind_int64(stmt, 1, im->corpus_id);
			sqlite3_bind_double(stmt, 2, im->opts->patch_floor);
			rc = db_step_done(im->db, stmt);
		}
		sqlite3_finalize(stmt);
	}
	return rc;
}

/* Listed runs of a table that requires a trace but has none. */
int im_exclude_traceless(struct importer *im, const struct manifest_table *spec)
{
	sqlite3_stmt *stmt = NULL;
	const char *subcorpus = im_subcorpus(spec);
	int rc = db_prepare(im->db,
			    "INSERT INTO exclusions SELECT r.run_id, 'no-trace', 'no trace file ('"
			    " || m.expected_path || ') but this layout requires one'"
			    " FROM runs r JOIN missing_files m ON m.run_id = r.run_id"
			    " AND m.kind = 'trace' WHERE r.corpus_id = ?1 AND r.subcorpus = ?2"
			    " AND r.listed = 1",
			    &stmt);
	if (rc == 0) {
		sqlite3_bind_int64(stmt, 1, im->corpus_id);
		sqlite3_bind_text(stmt, 2, subcorpus, -1, SQLITE_STATIC);
		rc = db_step_done(im->db, stmt);
	}
	sqlite3_finalize(stmt);
	return rc;
}

int im_claim_corpus_text(struct importer *im)
{
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < im->manifest->ncorpus_text; i++) {
		struct corpus_file *f = im_find_file(im, im->manifest->corpus_text[i]);
		if (f)
			rc = im_claim(im, f, "text", -1);
		else
			warn_add("'%s' named by the manifest is not in the corpus",
				 im->manifest->corpus_text[i]);
	}
	return rc;
}

/* A coreplan.manifest inside the folder is part of the corpus: record it as such. */
int im_claim_manifest(struct importer *im)
{
	struct corpus_file *f = im_find_file(im, "coreplan.manifest");
	return f && !im->opts->manifest_path ? im_claim(im, f, "manifest", -1) : 0;
}

void im_warn_unclaimed(struct importer *im)
{
	struct strbuf names = STRBUF_INIT;
	size_t count = 0;
	for (size_t i = 0; i < im->nfiles; i++) {
		if (strcmp(im->files[i].kind, "other"))
			continue;
		if (count < 5)
			strbuf_addf(&names, "%s'%s'", count ? ", " : "", im->files[i].path);
		count++;
	}
	if (count)
		warn_add("%s: %zu file%s not described by layout '%s' (recorded in table files "
			 "with kind 'other', contents not parsed): %s%s",
			 im->result->name, count, count == 1 ? "" : "s", im->manifest->layout,
			 strbuf_str(&names), count > 5 ? ", ..." : "");
	strbuf_release(&names);
}
