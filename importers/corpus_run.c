/* corpus_run: one run of a results table: its row, tag, files, attributes and host (corpus_int.h).
 */
#include "corpus_int.h"

#include "../common/err.h"
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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

const char *im_run_var(const char *name, void *arg)
{
	struct run_vars *v = arg;
	int col;
	/* while the tag is being built, {tag} is the results column of that name */
	if (!strcmp(name, "tag") && v->run->tag)
		return v->run->tag;
	if (!strcmp(name, "run-dir"))
		return v->run_dir;
	if (!strcmp(name, "row") && v->run->row != SIZE_MAX)
		return v->row_text;
	if (v->run->row != SIZE_MAX && (col = table_col(&v->tc->rows, name)) >= 0)
		return v->tc->rows.cells[v->run->row][col];
	for (size_t i = 0; i < v->ncap; i++)
		if (!strcmp(v->cap_names[i], name))
			return v->cap_values[i];
	return NULL;
}

static void run_vars_release(struct run_vars *v)
{
	manifest_free_captures(v->cap_names, v->cap_values, v->ncap);
	free(v->run_dir);
	memset(v, 0, sizeof(*v));
}
/* ---- one run ---- */

int im_insert_attrs(struct importer *im, int64_t run_id, const struct attr_list *attrs,
		    const char *idle_status)
{
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < attrs->count; i++) {
		const struct attr *a = &attrs->items[i];
		double num;
		bool numeric = a->value && num_parse_real(a->value, &num) == 0;
		bool idle = !strcmp(a->source, "idle");
		sqlite3_stmt *stmt = idle ? im->insert_banner : im->insert_attr;
		sqlite3_bind_int64(stmt, 1, run_id);
		if (idle) {
			sqlite3_bind_text(stmt, 2, a->name, -1, SQLITE_STATIC);
			sqlite3_bind_int64(stmt, 3, a->file_id);
			sqlite3_bind_text(stmt, 4, idle_status, -1, SQLITE_STATIC);
			sqlite3_bind_text(stmt, 5, a->value, -1, SQLITE_STATIC);
			if (numeric)
				sqlite3_bind_double(stmt, 6, num);
			else
				sqlite3_bind_null(stmt, 6);
		} else {
			sqlite3_bind_text(stmt, 2, a->source, -1, SQLITE_STATIC);
			sqlite3_bind_text(stmt, 3, a->name, -1, SQLITE_STATIC);
			if (a->file_id > 0)
				sqlite3_bind_int64(stmt, 4, a->file_id);
			else
				sqlite3_bind_null(stmt, 4);
			sqlite3_bind_int64(stmt, 5, a->line);
			sqlite3_bind_int64(stmt, 6, a->col);
			sqlite3_bind_text(stmt, 7, a->value, -1, SQLITE_STATIC);
			if (numeric)
				sqlite3_bind_double(stmt, 8, num);
			else
				sqlite3_bind_null(stmt, 8);
		}
		if (sqlite3_step(stmt) != SQLITE_DONE) {
			if ((sqlite3_extended_errcode(im->db) & 0xff) == SQLITE_CONSTRAINT)
				rc = err_set("run %lld: value '%s' appears twice in %s",
					     (long long)run_id, a->name, a->source);
			else
				rc = db_error(im->db, "cannot store a run attribute");
		}
		sqlite3_reset(stmt);
	}
	return rc;
}

/* A run whose generator record breaks a range rule is excluded (mapping_impossible_detail). */
static int exclude_impossible(struct importer *im, int64_t run_id, const struct attr_list *attrs)
{
	sqlite3_stmt *stmt;
	char *detail = NULL;
	int rc = mapping_impossible_detail(attrs, &detail);
	if (rc || !detail)
		return rc;
	if (!(stmt = db_cached(im->db, "INSERT INTO exclusions (run_id, reason, detail)"
				       " VALUES (?1, 'impossible-value', ?2)"))) {
		free(detail);
		return db_error(im->db, "cannot exclude a run");
	}
	sqlite3_bind_int64(stmt, 1, run_id);
	sqlite3_bind_text(stmt, 2, detail, -1, SQLITE_STATIC);
	rc = sqlite3_step(stmt) == SQLITE_DONE ? 0 : db_error(im->db, "cannot exclude a run");
	db_cached_done(stmt);
	free(detail);
	return rc;
}

static int record_missing(struct importer *im, int64_t run_id, const char *kind,
			  const char *expected)
{
	sqlite3_bind_int64(im->insert_missing, 1, run_id);
	sqlite3_bind_text(im->insert_missing, 2, kind, -1, SQLITE_STATIC);
	sqlite3_bind_text(im->insert_missing, 3, expected, -1, SQLITE_STATIC);
	im->result->missing_files++;
	return db_step_done(im->db, im->insert_missing);
}

static void trace_progress(int64_t rows, void *arg)
{
	struct importer *im = arg;
	if (im->opts->progress)
		im->opts->progress("rows", im->files_done, im->rows_done + rows,
				   im->opts->progress_arg);
}

static int import_trace(struct importer *im, int64_t run_id, const char *kind,
			struct corpus_file *f, const struct manifest_table *spec)
{
	struct strbuf columns = STRBUF_INIT;
	struct trace_spec tspec = {.ncols = spec->ntrace_columns,
				   .names = (const char *const *)spec->trace_columns};
	struct trace_stats stats = {0, 0};
	struct infile in;
	int64_t trace_id;
	int rc;
	for (size_t i = 0; i < spec->ntrace_columns; i++)
		strbuf_addf(&columns, "%s%s", i ? " " : "", spec->trace_columns[i]);
	sqlite3_bind_int64(im->insert_trace, 1, run_id);
	sqlite3_bind_text(im->insert_trace, 2, kind, -1, SQLITE_STATIC);
	sqlite3_bind_int64(im->insert_trace, 3, f->file_id);
	sqlite3_bind_text(im->insert_trace, 4, strbuf_str(&columns), -1, SQLITE_TRANSIENT);
	rc = db_step_done(im->db, im->insert_trace);
	strbuf_release(&columns);
	if (rc)
		return rc;
	trace_id = sqlite3_last_insert_rowid(im->db);
	rc = im_open_hashed(im, f, INFILE_NO_LIMIT, &in);
	if (rc)
		return rc;
	rc = im_end_hashed(f, &in,
			   trace_writer_import_infile(im->traces, trace_id, &in, f->path, &tspec,
						      &stats, trace_progress, im));
	if (rc)
		return rc;
	im->rows_done += stats.rows;
	im->result->trace_rows += stats.rows;
	sqlite3_bind_int64(im->finish_trace, 1, stats.rows);
	sqlite3_bind_int64(im->finish_trace, 2, stats.backsteps);
	sqlite3_bind_int64(im->finish_trace, 3, trace_id);
	rc = db_step_done(im->db, im->finish_trace);
	return rc ? rc : im_claim(im, f, kind, stats.rows);
}

static int read_run_file(struct run_state *rs, enum run_file_kind kind, const char *template_text)
{
	static const char *const kind_names[] = {"generator", "idle", "acct", "trace", "window"};
	struct importer *im = rs->im;
	const char *name = kind_names[kind];
	struct corpus_file *f;
	char *relative = NULL;
	char *text = NULL;
	size_t len = 0;
	int rc = manifest_expand(template_text, im_run_var, &rs->vars, &relative);
	if (rc) {
		if (rs->run->row != SIZE_MAX)
			return rc;
		/* an unlisted run lacks the table columns the template names */
		err_clear();
		return record_missing(im, rs->run->run_id, name, template_text);
	}
	f = im_find_file(im, relative);
	if (!f) {
		rc = record_missing(im, rs->run->run_id, name, relative);
		free(relative);
		return rc;
	}
	free(relative);
	if (kind == RF_TRACE || kind == RF_WINDOW)
		return import_trace(im, rs->run->run_id, kind == RF_TRACE ? "sample" : "window", f,
				    rs->tc->spec);
	rc = im_read_hashed_text(im, f, &text, &len);
	if (rc)
		return rc;
	if (kind == RF_GENERATOR)
		rc = genrec_parse(im->db, rs->run->run_id, f->file_id, text, len, f->path,
				  &rs->attrs);
	else if (kind == RF_IDLE)
		rc = banner_parse(text, len, f->path, f->file_id, &rs->idle_status, &rs->attrs);
	else
		rc = acct_parse(text, f->path, f->file_id, &rs->attrs);
	free(text);
	return rc ? rc : im_claim(im, f, name, -1);
}

/* Linear: join tables hold one row per run, and this runs once per run. */
static const char *const *join_row(const struct table_ctx *tc, const char *tag)
{
	for (size_t i = 0; i < tc->join.nrows; i++)
		if (!strcmp(tc->join.cells[i][tc->join_key], tag))
			return (const char *const *)tc->join.cells[i];
	return NULL;
}

static int table_attrs(struct run_state *rs)
{
	struct table_ctx *tc = rs->tc;
	const char *const *joined;
	int rc = 0;
	if (rs->run->row != SIZE_MAX) {
		char **cells = tc->rows.cells[rs->run->row];
		for (size_t j = 0; rc == 0 && j < tc->rows.ncols; j++)
			rc = attr_list_add(&rs->attrs, "results", tc->rows.header[j], cells[j],
					   tc->rows_file->file_id, rs->run->line, (long)j + 1);
	}
	if (rc || !tc->spec->join_file || !(joined = join_row(tc, rs->run->tag)))
		return rc;
	for (size_t i = 0; i < tc->join.nrows; i++) {
		if ((const char *const *)tc->join.cells[i] != joined)
			continue;
		for (size_t j = 0; rc == 0 && j < tc->join.ncols; j++)
			rc = attr_list_add(&rs->attrs, "join", tc->join.header[j], joined[j],
					   tc->join_file->file_id, tc->join.lines[i], (long)j + 1);
	}
	return rc;
}

/* Parts of the tag (tag-parse, or the tag template itself as a pattern). */
static int tag_attrs(struct run_state *rs)
{
	const struct manifest_table *spec = rs->tc->spec;
	const char *own[1] = {spec->tag};
	const char *const *patterns = (const char *const *)spec->tag_parse;
	size_t npatterns = spec->ntag_parse;
	int rc = 0;
	if (npatterns == 0) {
		patterns = own;
		npatterns = 1;
	}
	for (size_t p = 0; p < npatterns; p++) {
		if (!manifest_match(patterns[p], rs->run->tag, &rs->vars.cap_names,
				    &rs->vars.cap_values, &rs->vars.ncap))
			continue;
		for (size_t i = 0; rc == 0 && i < rs->vars.ncap; i++)
			if (!attr_list_find(&rs->attrs, "tag", rs->vars.cap_names[i]))
				rc = attr_list_add(&rs->attrs, "tag", rs->vars.cap_names[i],
						   rs->vars.cap_values[i], 0, 0, 0);
		break;
	}
	for (size_t i = 0; rc == 0 && i < spec->nset; i++) {
		/* a constant may be a template over the run's columns: instance=e2-{target} */
		char *value = NULL;
		if (rs->im->host && !strcmp(spec->set[i].key, "topology_host"))
			continue; /* --host wins over the manifest's constant */
		if (manifest_expand(spec->set[i].value, im_run_var, &rs->vars, &value) != 0) {
			err_clear();
			continue; /* an unlisted run lacks the columns: no value */
		}
		rc = attr_list_add(&rs->attrs, "set", spec->set[i].key, value, 0, 0, 0);
		free(value);
	}
	return rc;
}

static int insert_run_row(struct run_state *rs)
{
	struct importer *im = rs->im;
	struct run_entry *run = rs->run;
	sqlite3_stmt *stmt = im->insert_run;
	int rc;
	sqlite3_bind_int64(stmt, 1, im->corpus_id);
	sqlite3_bind_text(stmt, 2, rs->tc->subcorpus, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 3, run->tag, -1, SQLITE_STATIC);
	sqlite3_bind_int64(stmt, 4, ++im->seq);
	sqlite3_bind_int(stmt, 5, run->row != SIZE_MAX);
	if (run->row != SIZE_MAX) {
		sqlite3_bind_int64(stmt, 6, rs->tc->rows_file->file_id);
		sqlite3_bind_int64(stmt, 7, run->line);
	} else {
		sqlite3_bind_null(stmt, 6);
		sqlite3_bind_null(stmt, 7);
	}
	rc = db_step_done(im->db, stmt);
	run->run_id = sqlite3_last_insert_rowid(im->db);
	im->result->runs++;
	if (run->row != SIZE_MAX)
		im->result->listed++;
	else
		im->result->unlisted++;
	return rc;
}

static int read_rejection(struct run_state *rs)
{
	struct importer *im = rs->im;
	struct corpus_file *f = im_find_file(im, rs->run->rejection_path);
	char *text = NULL, *reason = NULL;
	size_t len = 0;
	int rc;
	if (!f)
		return err_set("rejection marker '%s' vanished during the import",
			       rs->run->rejection_path);
	rc = im_read_hashed_text(im, f, &text, &len);
	if (rc == 0)
		rc = rejected_parse(text, len, f->path, &reason);
	free(text);
	if (rc)
		return rc;
	sqlite3_bind_int64(im->insert_rejection, 1, rs->run->run_id);
	sqlite3_bind_int64(im->insert_rejection, 2, f->file_id);
	sqlite3_bind_text(im->insert_rejection, 3, reason, -1, SQLITE_TRANSIENT);
	free(reason);
	rc = db_step_done(im->db, im->insert_rejection);
	return rc ? rc : im_claim(im, f, "rejected", -1);
}

static void check_label(struct run_state *rs)
{
	const struct attr *label = attr_list_find(&rs->attrs, "generator", "label");
	if (label && label->value && strcmp(label->value, rs->run->tag) != 0)
		warn_add("run '%s': its generator record says label '%s'", rs->run->tag,
			 label->value);
}

/* ---- the host a run ran on (corpus.h) ---- */

/*
 * Make sure a host named after the instance is recorded: one stored from
 * a real topology (lscpu, sysfs, --cores) is kept; else the catalog's
 * shape is stored (again). *found is false when no catalog lists it.
 */
static int instance_host(struct importer *im, const char *instance, const char *tag, bool *found)
{
	struct topology t;
	char catalog[256];
	int vcpus = 0, tpc = 0, rc;
	*found = true;
	if (strvec_has(&im->instance_hosts, instance))
		return 0;
	*found = false;
	for (size_t i = 0; i < im->nunknown; i++)
		if (!strcmp(im->unknown[i].name, instance)) {
			im->unknown[i].runs++;
			return 0;
		}
	rc = im_instance_shape(im, instance, &vcpus, &tpc, catalog, sizeof(catalog));
	if (rc == 1) {
		struct unknown_instance *grown =
			realloc(im->unknown, (im->nunknown + 1) * sizeof(*grown));
		if (!grown)
			return err_set("out of memory");
		im->unknown = grown;
		grown[im->nunknown] = (struct unknown_instance){strdup(instance), strdup(tag), 1};
		if (!grown[im->nunknown].name || !grown[im->nunknown].first_tag) {
			free(grown[im->nunknown].name);
			free(grown[im->nunknown].first_tag);
			return err_set("out of memory");
		}
		im->nunknown++;
		return 0;
	}
	if (rc)
		return rc;
	*found = true;
	memset(&t, 0, sizeof(t));
	rc = topology_load(im->db, instance, &t);
	if (rc == 1 || (rc == 0 && !strcmp(t.source, "catalog"))) {
		topology_release(&t);
		rc = topology_shape((size_t)(vcpus / tpc), (size_t)tpc, "catalog", &t);
		if (rc == 0)
			rc = topology_store(im->db, instance, &t);
	}
	topology_release(&t);
	if (rc == 0 && strvec_push(&im->instance_hosts, instance))
		rc = err_set("out of memory");
	return rc;
}

/* The run's own value of a field: the first source (fields.h order) that has one, or NULL. */
static const char *run_value(const struct attr_list *attrs, const char *name)
{
	/* one pass over the list (a run has many attributes, few of that name): of each
	 * source its first attribute of that name counts, as attr_list_find would give */
	uint64_t seen = 0;
	size_t best = SIZE_MAX;
	const char *value = NULL;
	for (size_t k = 0; k < attrs->count; k++) {
		const struct attr *a = &attrs->items[k];
		size_t i = 0;
		if (strcmp(a->name, name))
			continue;
		while (field_sources[i] && strcmp(field_sources[i], a->source))
			i++;
		if (!field_sources[i] || i >= 64 || (seen & ((uint64_t)1 << i)))
			continue;
		seen |= (uint64_t)1 << i;
		if (i < best && a->value && *a->value && strcmp(a->value, "NA")) {
			best = i;
			value = a->value;
		}
	}
	return value;
}

/* The field topology_host of one run: --host, the manifest's, else its instance's. */
int im_tie_host(struct importer *im, const char *table_host, const char *tag,
		struct attr_list *attrs)
{
	const char *host = im->host, *own;
	bool found = false;
	int rc = 0;
	if (!host && attr_list_find(attrs, "set", "topology_host"))
		return 0; /* the manifest's `set = topology_host=NAME` */
	/* a column of the run's own that names another host would be read first: refuse */
	if (host && (own = run_value(attrs, "topology_host")) && strcmp(own, host))
		return err_set("its topology_host is '%s', but --host says '%s'", own, host);
	if (!host)
		host = table_host;
	own = run_value(attrs, "instance");
	if (im->instance && own && strcmp(own, im->instance))
		return err_set("its instance is '%s', but --instance says '%s'", own, im->instance);
	if (im->instance && !own)
		rc = attr_list_add(attrs, "set", "instance", im->instance, 0, 0, 0);
	if (im->instance)
		own = im->instance;
	if (rc == 0 && !host && own) {
		rc = instance_host(im, own, tag, &found);
		if (rc == 0 && found)
			host = own;
	}
	if (rc == 0 && host)
		rc = attr_list_add(attrs, "set", "topology_host", host, 0, 0, 0);
	return rc;
}

int im_import_run(struct table_ctx *tc, struct run_entry *run)
{
	const struct manifest_table *spec = tc->spec;
	struct run_state rs = {.im = tc->im, .tc = tc, .run = run};
	/* rejected runs have no files of their own (FORMATS.md) */
	bool expect_files = !(run->rejection_path && run->row == SIZE_MAX);
	const char *templates[] = {spec->generator, spec->idle, spec->acct, spec->trace,
				   spec->window};
	int rc;
	rs.vars.tc = tc;
	rs.vars.run = run;
	snprintf(rs.vars.row_text, sizeof(rs.vars.row_text), "%zu",
		 run->row == SIZE_MAX ? (size_t)0 : run->row + 1);
	rc = insert_run_row(&rs);
	if (rc == 0)
		rc = table_attrs(&rs);
	if (rc == 0)
		rc = tag_attrs(&rs);
	if (rc == 0 && spec->run_dir) {
		rc = manifest_expand(spec->run_dir, im_run_var, &rs.vars, &rs.vars.run_dir);
		if (rc && run->row == SIZE_MAX) {
			err_clear();
			rc = 0;
		}
	}
	for (int kind = RF_GENERATOR; rc == 0 && expect_files && kind <= RF_WINDOW; kind++)
		if (templates[kind])
			rc = read_run_file(&rs, (enum run_file_kind)kind, templates[kind]);
	for (size_t i = 0; rc == 0 && expect_files && i < spec->ntext; i++) {
		char *relative = NULL;
		struct corpus_file *f;
		if (manifest_expand(spec->text[i], im_run_var, &rs.vars, &relative) != 0) {
			err_clear();
			continue;
		}
		f = im_find_file(tc->im, relative);
		if (f)
			rc = im_claim(tc->im, f, "text", -1);
		free(relative);
	}
	if (rc == 0 && run->rejection_path)
		rc = read_rejection(&rs);
	if (rc == 0)
		rc = im_tie_host(tc->im, tc->host, run->tag, &rs.attrs);
	if (rc == 0)
		rc = im_insert_attrs(tc->im, run->run_id, &rs.attrs,
				     rs.idle_status ? rs.idle_status : "");
	if (rc == 0)
		rc = exclude_impossible(tc->im, run->run_id, &rs.attrs);
	if (rc == 0)
		rc = mapping_apply(tc->im->db, tc->im->update_fields, tc->im->insert_origin,
				   run->run_id, &rs.attrs, spec, tc->im->manifest_origin,
				   im_display_of, tc->im);
	if (rc == 0)
		check_label(&rs);
	if (rc)
		err_prefix("run '%s'", run->tag);
	attr_list_release(&rs.attrs);
	free(rs.idle_status);
	run_vars_release(&rs.vars);
	return rc;
}

/* The table's host topology: stored as host CORPUS[/SUBCORPUS], named by every run. */
