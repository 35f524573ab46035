/* catalogs: see catalogs.h. */
#include "catalogs.h"

#include "../common/err.h"
#include "../common/strbuf.h"
#include "../schema/db.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *catalog_origin_name(enum catalog_origin origin)
{
	switch (origin) {
	case CATALOG_GIVEN:
		return "given";
	case CATALOG_STORED:
		return "database";
	case CATALOG_SHIPPED:
		return "shipped";
	}
	return "?";
}

void catalogs_paths_free(char **paths, size_t n)
{
	for (size_t i = 0; paths && i < n; i++)
		free(paths[i]);
	free(paths);
}

static int cmp_text(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool ends_with_tsv(const char *name)
{
	size_t len = strlen(name);
	return len > 4 && !strcmp(name + len - 4, ".tsv");
}

int catalogs_shipped(const char *dir, char ***paths, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **list = NULL;
	size_t count = 0;
	int rc = 0;
	*paths = NULL;
	*n = 0;
	if (!d)
		return err_set("cannot open the shipped catalogs '%s': %s", dir, strerror(errno));
	while (rc == 0 && (e = readdir(d)) != NULL) {
		struct strbuf path = STRBUF_INIT;
		char **grown;
		if (e->d_name[0] == '.' || !ends_with_tsv(e->d_name))
			continue;
		grown = realloc(list, (count + 1) * sizeof(*grown));
		if (!grown) {
			rc = err_set("out of memory");
			break;
		}
		list = grown;
		if (strbuf_addf(&path, "%s/%s", dir, e->d_name)) {
			strbuf_release(&path);
			rc = err_set("out of memory");
			break;
		}
		list[count++] = strbuf_detach(&path);
	}
	closedir(d);
	if (rc) {
		catalogs_paths_free(list, count);
		return rc;
	}
	qsort(list, count, sizeof(*list), cmp_text);
	*paths = list;
	*n = count;
	return 0;
}

static void release_all(struct catalog *cats, size_t n)
{
	for (size_t i = 0; cats && i < n; i++)
		catalog_release(&cats[i]);
	free(cats);
}

/* Read each file; its path becomes absolute (what source_path records). */
static int read_all(catalog_reader reader, char *const *paths, size_t n, struct catalog **out)
{
	struct catalog *cats = calloc(n ? n : 1, sizeof(*cats));
	int rc = cats ? 0 : err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < n; i++) {
		char *abs;
		rc = reader(paths[i], &cats[i]);
		if (rc == 0 && (abs = realpath(paths[i], NULL)) != NULL) {
			free(cats[i].path);
			cats[i].path = abs;
		}
	}
	for (size_t i = 0; rc == 0 && i < n; i++)
		for (size_t j = 0; rc == 0 && j < i; j++)
			if (!strcmp(cats[i].name, cats[j].name))
				rc = err_usage(
					"'%s' and '%s' are both catalog '%s': a catalog name "
					"may be used once",
					paths[j], paths[i], cats[i].name);
	if (rc) {
		release_all(cats, n);
		return rc;
	}
	*out = cats;
	return 0;
}

static int read_shipped(catalog_reader reader, const char *dir, struct catalog **cats, size_t *n)
{
	char **paths = NULL;
	size_t npaths = 0;
	int rc = catalogs_shipped(dir, &paths, &npaths);
	if (rc == 0 && npaths == 0)
		rc = err_set("no shipped catalogs in '%s': give a catalog file", dir);
	if (rc == 0)
		rc = read_all(reader, paths, npaths, cats);
	if (rc == 0)
		*n = npaths;
	catalogs_paths_free(paths, npaths);
	return rc;
}

void catalog_lookup_init(struct catalog_lookup *l, sqlite3 *db, const char *shipped_dir,
			 catalog_reader reader)
{
	memset(l, 0, sizeof(*l));
	l->db = db;
	l->shipped_dir = shipped_dir;
	l->reader = reader;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/*
 * Two catalogs listing one instance: catalog_load_temp's check_unique_in
 * would refuse them (one catalog never lists one twice: catalog_read
 * refuses it). Sorted names, so n log n; 1 on a failed allocation.
 */
static int instance_listed_twice(const struct catalog *cats, size_t n)
{
	const char **names;
	size_t total = 0, k = 0;
	int twice = 0;
	for (size_t c = 0; c < n; c++)
		total += cats[c].n;
	names = malloc((total ? total : 1) * sizeof(*names));
	if (!names)
		return err_set("out of memory");
	for (size_t c = 0; c < n; c++)
		for (size_t i = 0; i < cats[c].n; i++)
			names[k++] = cats[c].items[i].instance;
	qsort(names, total, sizeof(*names), cmp_name);
	for (size_t i = 1; i < total && !twice; i++)
		twice = !strcmp(names[i - 1], names[i]);
	free(names);
	return twice;
}

static int lookup_read(struct catalog_lookup *l)
{
	size_t stored = 0;
	int rc = catalog_stored_count(l->db, &stored);
	if (rc)
		return rc;
	if (stored) {
		l->state = LOOKUP_STORED;
		return 0;
	}
	l->state = LOOKUP_NONE;
	if (read_shipped(l->reader, l->shipped_dir, &l->cats, &l->ncats) != 0) {
		err_clear(); /* no catalog: instances stay unknown, each said in a warning */
		l->cats = NULL;
		l->ncats = 0;
		return 0;
	}
	rc = instance_listed_twice(l->cats, l->ncats);
	if (rc == 0)
		l->state = LOOKUP_SHIPPED;
	return rc > 0 ? 0 : rc;
}

int catalog_lookup_shape(void *lookup, const char *instance, int *vcpus, int *threads_per_core,
			 char *catalog, size_t size)
{
	struct catalog_lookup *l = lookup;
	int rc = l->state == LOOKUP_UNREAD ? lookup_read(l) : 0;
	if (rc)
		return rc;
	if (l->state == LOOKUP_STORED)
		return catalog_instance_shape(l->db, instance, vcpus, threads_per_core, catalog,
					      size);
	if (l->state != LOOKUP_SHIPPED)
		return 1;
	/* in catalog order, as the TEMP tables' catalog_id order */
	for (size_t c = 0; c < l->ncats; c++)
		for (size_t i = 0; i < l->cats[c].n; i++)
			if (!strcmp(l->cats[c].items[i].instance, instance)) {
				*vcpus = l->cats[c].items[i].vcpus;
				*threads_per_core = l->cats[c].items[i].threads_per_core;
				snprintf(catalog, size, "%s", l->cats[c].name);
				return 0;
			}
	return 1;
}

void catalog_lookup_release(struct catalog_lookup *l)
{
	release_all(l->cats, l->ncats);
	memset(l, 0, sizeof(*l));
}

void catalogs_used_release(struct catalogs_used *used)
{
	if (!used)
		return;
	catalog_infos_free(used->infos, used->n);
	memset(used, 0, sizeof(*used));
}

int catalogs_use(sqlite3 *db, char *const *files, size_t nfiles, const char *shipped_dir,
		 catalog_reader reader, struct catalogs_used *used)
{
	struct catalog *cats = NULL;
	size_t ncats = 0, stored = 0;
	int rc = 0;
	memset(used, 0, sizeof(*used));
	if (nfiles > 0) {
		used->origin = CATALOG_GIVEN;
		rc = read_all(reader, files, nfiles, &cats);
		ncats = rc == 0 ? nfiles : 0;
	} else {
		rc = catalog_stored_count(db, &stored);
		used->origin = stored ? CATALOG_STORED : CATALOG_SHIPPED;
		if (rc == 0 && !stored)
			rc = read_shipped(reader, shipped_dir, &cats, &ncats);
	}
	if (rc == 0 && used->origin != CATALOG_STORED)
		rc = catalog_load_temp(db, cats, ncats);
	if (rc == 0)
		rc = catalog_list(db, &used->infos, &used->n);
	release_all(cats, ncats);
	if (rc)
		catalogs_used_release(used);
	return rc;
}

/* ---- families ---- */

void catalog_families_free(struct catalog_family *f, size_t n)
{
	for (size_t i = 0; f && i < n; i++) {
		free(f[i].cpu_family);
		free(f[i].series);
		free(f[i].provider);
		free(f[i].instances);
		free(f[i].platforms);
	}
	free(f);
}

/* Each platform of the instance's list not yet in the family's (a union in first-seen order). */
static int add_platforms(struct strbuf *sb, const struct instance *in)
{
	const char *p = in->cpu_platforms ? in->cpu_platforms : "";
	while (*p) {
		size_t n = strcspn(p, ",");
		bool have = false;
		for (const char *q = sb->buf ? strbuf_str(sb) : ""; *q && !have;) {
			size_t m = strcspn(q, ",");
			have = m == n && !strncmp(p, q, n);
			q += m + (q[m] == ',');
		}
		if (!have && strbuf_addf(sb, "%s%.*s", sb->len ? "," : "", (int)n, p))
			return err_set("out of memory");
		p += n + (p[n] == ',');
	}
	return 0;
}

static int cmp_family(const void *a, const void *b)
{
	const struct catalog_family *x = a, *y = b;
	int c = strcmp(x->cpu_family, y->cpu_family);
	return c ? c : strcmp(x->series, y->series);
}

static struct catalog_family *find_family(struct catalog_family *f, size_t n,
					  const struct instance *in)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(f[i].cpu_family, in->cpu_family) && !strcmp(f[i].series, in->series))
			return &f[i];
	return NULL;
}

int catalog_families(const struct catalog *cat, struct catalog_family **out, size_t *n)
{
	struct catalog_family *f = calloc(cat->n ? cat->n : 1, sizeof(*f));
	struct strbuf *names = calloc(cat->n ? cat->n : 1, sizeof(*names));
	struct strbuf *platforms = calloc(cat->n ? cat->n : 1, sizeof(*platforms));
	size_t count = 0;
	int rc = f && names && platforms ? 0 : err_set("out of memory");
	*out = NULL;
	*n = 0;
	for (size_t i = 0; rc == 0 && i < cat->n; i++) {
		const struct instance *in = &cat->items[i];
		struct catalog_family *g = find_family(f, count, in);
		if (!g) {
			g = &f[count++];
			g->cpu_family = strdup(in->cpu_family);
			g->series = strdup(in->series);
			g->provider = strdup(in->provider);
			g->vcpus_min = g->vcpus_max = in->vcpus;
			if (!g->cpu_family || !g->series || !g->provider)
				rc = err_set("out of memory");
		}
		g->n++;
		if (in->vcpus < g->vcpus_min)
			g->vcpus_min = in->vcpus;
		if (in->vcpus > g->vcpus_max)
			g->vcpus_max = in->vcpus;
		if (rc == 0 &&
		    strbuf_addf(&names[g - f], "%s%s", g->n > 1 ? ", " : "", in->instance))
			rc = err_set("out of memory");
		if (rc == 0)
			rc = add_platforms(&platforms[g - f], in);
	}
	for (size_t i = 0; i < count; i++) {
		f[i].instances = rc == 0 ? strbuf_detach(&names[i]) : NULL;
		f[i].platforms = rc != 0            ? NULL
				 : platforms[i].buf ? strbuf_detach(&platforms[i])
						    : strdup("");
		if (rc == 0 && (!f[i].instances || !f[i].platforms))
			rc = err_set("out of memory");
		strbuf_release(&names[i]);
		strbuf_release(&platforms[i]);
	}
	free(names);
	free(platforms);
	if (rc) {
		catalog_families_free(f, count);
		return rc;
	}
	qsort(f, count, sizeof(*f), cmp_family);
	*out = f;
	*n = count;
	return 0;
}

/* ---- coreplan catalog ---- */

void catalog_result_release(struct catalog_result *r)
{
	if (!r)
		return;
	catalog_infos_free(r->catalogs, r->ncatalogs);
	free(r->action);
	catalog_release(&r->cat);
	catalog_families_free(r->families, r->nfamilies);
	memset(r, 0, sizeof(*r));
}

/* Store cats[0..n) in one transaction; replaced[i] says whether each replaced one. */
static int store_all(sqlite3 *db, const struct catalog *cats, size_t n, bool *replaced)
{
	int rc = db_begin(db);
	for (size_t i = 0; rc == 0 && i < n; i++)
		rc = catalog_store(db, &cats[i], &replaced[i]);
	if (rc == 0)
		return db_commit(db);
	db_rollback(db);
	return rc;
}

static int store(sqlite3 *db, const struct catalog_request *req, struct catalog_result *out,
		 struct catalog **cats, size_t *ncats, bool **replaced)
{
	size_t stored = 0;
	int rc = 0;
	if (req->nfiles > 0) {
		rc = read_all(req->reader, req->files, req->nfiles, cats);
		*ncats = rc == 0 ? req->nfiles : 0;
	} else {
		rc = catalog_stored_count(db, &stored);
		out->kept = rc == 0 && stored > 0;
		if (rc == 0 && !stored)
			rc = read_shipped(req->reader, req->shipped_dir, cats, ncats);
	}
	if (rc == 0 && req->name && *ncats == 1) {
		char *name = strdup(req->name);
		if (!name)
			return err_set("out of memory");
		free((*cats)[0].name);
		(*cats)[0].name = name;
	}
	if (rc == 0 && *ncats > 0 && !(*replaced = calloc(*ncats, sizeof(**replaced))))
		rc = err_set("out of memory");
	if (rc == 0 && *ncats > 0)
		rc = store_all(db, *cats, *ncats, *replaced);
	if (rc == 0) {
		out->nstored = *ncats;
		for (size_t i = 0; i < *ncats; i++)
			out->nreplaced += (*replaced)[i];
	}
	return rc;
}

int catalog_run(sqlite3 *db, const struct catalog_request *req, struct catalog_result *out)
{
	struct catalog *cats = NULL;
	bool *replaced = NULL;
	size_t ncats = 0;
	int rc = 0;
	memset(out, 0, sizeof(*out));
	if (req->action == CATALOG_STORE)
		rc = store(db, req, out, &cats, &ncats, &replaced);
	if (rc == 0)
		rc = catalog_list(db, &out->catalogs, &out->ncatalogs);
	if (rc == 0 &&
	    !(out->action = calloc(out->ncatalogs ? out->ncatalogs : 1, sizeof(*out->action))))
		rc = err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < out->ncatalogs; i++)
		for (size_t j = 0; j < ncats; j++)
			if (!strcmp(out->catalogs[i].name, cats[j].name))
				out->action[i] = replaced[j] ? "replaced" : "stored";
	if (rc == 0)
		rc = catalog_load(db, NULL, 0, &out->cat);
	if (rc == 0)
		rc = catalog_families(&out->cat, &out->families, &out->nfamilies);
	release_all(cats, ncats);
	free(replaced);
	if (rc)
		catalog_result_release(out);
	return rc;
}
