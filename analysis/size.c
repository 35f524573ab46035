/* size: see size.h. The request against the catalogs, and size_run. */
#include "size.h"
#include "size_internal.h"

#include "../common/err.h"
#include "../common/strbuf.h"
#include "select.h"
#include "translate.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the request against the catalogs ---- */

static int cmp_text(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The distinct cpu_family (series: false) or series values of the families, sorted, ", "-joined. */
static int names_of(const struct catalog_family *f, size_t n, bool series, struct strbuf *sb)
{
	char **names = malloc((n ? n : 1) * sizeof(char *));
	size_t m = 0;
	if (!names)
		return err_set("out of memory");
	for (size_t i = 0; i < n; i++)
		names[m++] = series ? f[i].series : f[i].cpu_family;
	qsort(names, m, sizeof(char *), cmp_text);
	for (size_t i = 0; i < m; i++)
		if (i == 0 || strcmp(names[i], names[i - 1]))
			strbuf_addf(sb, "%s%s", i ? ", " : "", names[i]);
	free(names);
	return 0;
}

/* The family `name` stands for: a cpu_family, or a catalog instance's; NULL when neither. */
static const char *family_of(const struct catalog *all, const char *name)
{
	for (size_t i = 0; i < all->n; i++)
		if (!strcmp(all->items[i].cpu_family, name))
			return all->items[i].cpu_family;
	for (size_t i = 0; i < all->n; i++)
		if (!strcmp(all->items[i].instance, name))
			return all->items[i].cpu_family;
	return NULL;
}

static int unknown_name(const struct catalog_family *f, size_t nf, bool series, const char *option,
			const char *name)
{
	struct strbuf sb = STRBUF_INIT;
	int rc = names_of(f, nf, series, &sb);
	if (rc == 0 && series)
		rc = err_usage("unknown series '%s' for --series (the catalogs' series: %s)", name,
			       sb.len ? strbuf_str(&sb) : "none");
	else if (rc == 0)
		rc = err_usage("unknown CPU family '%s' for %s (the catalogs' families: %s; a "
			       "catalog instance name stands for its family; coreplan size "
			       "--list-families lists them)",
			       name, option, sb.len ? strbuf_str(&sb) : "none");
	strbuf_release(&sb);
	return rc;
}

/* Is `name` one of the ","-separated names of `list`? */
static bool listed(const char *list, const char *name)
{
	size_t len = strlen(name);
	for (const char *p = list; *p;) {
		size_t n = strcspn(p, ",");
		if (n == len && !strncmp(p, name, len))
			return true;
		p += n + (p[n] == ',');
	}
	return false;
}

/*
 * The CPU platforms sizing knows: every catalog instance's cpu_platforms and
 * every run's cpu_model (within the common filter), ","-separated, sorted.
 */
static int known_platforms(sqlite3 *db, const struct size_request *req, const struct catalog *all,
			   struct strbuf *out)
{
	static const char *const extra[] = {"cpu_model", NULL};
	struct selection sel = {0};
	struct run_filter f;
	char **names = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;
	struct strbuf seen = STRBUF_INIT;
	for (size_t i = 0; i < all->n; i++)
		if (all->items[i].cpu_platforms && all->items[i].cpu_platforms[0])
			strbuf_addf(&seen, "%s%s", seen.len ? "," : "",
				    all->items[i].cpu_platforms);
	if (size_field_or_null(db, "cpu_model")) {
		rc = size_input_filter(req, NULL, NULL, &f);
		if (rc == 0) {
			struct select_spec spec = {.filter = &f, .extra = extra};
			rc = select_runs(db, &spec, &sel);
		}
		run_filter_release(&f);
		for (size_t i = 0; rc == 0 && i < sel.n; i++)
			if (sel.runs[i].extra[0])
				strbuf_addf(&seen, "%s%s", seen.len ? "," : "",
					    sel.runs[i].extra[0]);
		selection_release(&sel);
	}
	for (const char *p = seen.buf ? strbuf_str(&seen) : ""; rc == 0 && *p;) {
		size_t len = strcspn(p, ",");
		if (n == cap) {
			char **grown = realloc(names, (cap = cap ? 2 * cap : 16) * sizeof(char *));
			if (!grown) {
				rc = err_set("out of memory");
				break;
			}
			names = grown;
		}
		if (!(names[n++] = strndup(p, len)))
			rc = err_set("out of memory");
		p += len + (p[len] == ',');
	}
	if (rc == 0 && n)
		qsort(names, n, sizeof(char *), cmp_text);
	for (size_t i = 0; rc == 0 && i < n; i++)
		if (i == 0 || strcmp(names[i], names[i - 1]))
			strbuf_addf(out, "%s%s", out->len ? "," : "", names[i]);
	for (size_t i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
	strbuf_release(&seen);
	return rc;
}

/* --platform (families NULL) or --translate (the families too) naming nothing known. */
static int unknown_platform(const char *option, const char *name, const struct strbuf *platforms,
			    const struct catalog_family *f, size_t nf)
{
	struct strbuf families = STRBUF_INIT;
	int rc = f ? names_of(f, nf, false, &families) : 0;
	if (rc == 0 && f)
		rc = err_usage("unknown CPU family or platform '%s' for %s (the catalogs' "
			       "families: %s; the CPU platforms the catalogs and runs name: %s; a "
			       "catalog instance name stands for its family)",
			       name, option, families.len ? strbuf_str(&families) : "none",
			       platforms->len ? platforms->buf : "none");
	else if (rc == 0)
		rc = err_usage(
			"unknown CPU platform '%s' for %s (the CPU platforms the catalogs and "
			"runs name: %s)",
			name, option, platforms->len ? platforms->buf : "none");
	strbuf_release(&families);
	return rc;
}

/*
 * Series, --base-cpu, --platform and the translations' families or platforms
 * against every catalog instance (all) and the runs: the resolved
 * translations go to res (owned).
 */
static int validate(sqlite3 *db, const struct size_request *req, const struct catalog *all,
		    struct size_result *res)
{
	struct catalog_family *f = NULL;
	struct strbuf platforms = STRBUF_INIT;
	size_t nf = 0;
	int rc = catalog_families(all, &f, &nf);
	if (rc == 0)
		rc = known_platforms(db, req, all, &platforms);
	if (rc == 0 && req->platform &&
	    !listed(platforms.buf ? strbuf_str(&platforms) : "", req->platform))
		rc = unknown_platform("--platform", req->platform, &platforms, NULL, 0);
	for (size_t i = 0; rc == 0 && i < req->nseries; i++) {
		bool found = false;
		for (size_t j = 0; j < nf && !found; j++)
			found = !strcmp(f[j].series, req->series[i]);
		if (!found)
			rc = unknown_name(f, nf, true, "--series", req->series[i]);
	}
	if (rc == 0 && req->has_base_rate && req->base_cpu) {
		const char *family = family_of(all, req->base_cpu);
		if (family)
			snprintf(res->in.base_family, sizeof(res->in.base_family), "%s", family);
		else if (req->ntranslations == 0)
			rc = unknown_name(f, nf, false, "--base-cpu", req->base_cpu);
		else
			snprintf(res->base_family_note, sizeof(res->base_family_note),
				 "--base-cpu '%s' is no family of the catalogs: every prediction "
				 "goes through a --translate factor",
				 req->base_cpu);
		if (!family)
			snprintf(res->in.base_family, sizeof(res->in.base_family), "%s",
				 req->base_cpu);
	}
	if (rc == 0 && req->ntranslations &&
	    !(res->translations = calloc(req->ntranslations, sizeof(*res->translations))))
		rc = err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < req->ntranslations; i++) {
		const char *name = req->translations[i].family, *family = family_of(all, name);
		bool platform =
			!family && listed(platforms.buf ? strbuf_str(&platforms) : "", name);
		if (!family && !platform) {
			rc = platforms.len
				     ? unknown_platform("--translate", name, &platforms, f, nf)
				     : unknown_name(f, nf, false, "--translate", name);
			break;
		}
		for (size_t j = 0; j < i && rc == 0; j++)
			if (!strcmp(res->translations[j].family, family ? family : name))
				rc = err_usage("--translate names '%s' twice",
					       family ? family : name);
		res->translations[i] = req->translations[i];
		res->translations[i].platform = platform;
		snprintf(res->translations[i].family, sizeof(res->translations[i].family), "%s",
			 family ? family : name);
	}
	catalog_families_free(f, nf);
	strbuf_release(&platforms);
	return rc;
}

/* The translations measured from paired runs (FAMILY=from:WHERE,to:WHERE). */
static int measure_translations(sqlite3 *db, const struct size_request *req,
				struct size_result *res)
{
	for (size_t i = 0; i < req->ntranslations; i++) {
		struct size_translation *t = &res->translations[i];
		struct translate_rate rate;
		const struct translate_factor *f = &rate.factor;
		int rc;
		if (!t->measured) {
			snprintf(t->source, sizeof(t->source), "given: %s rates = base / %g",
				 t->family, t->factor);
			continue;
		}
		rc = translate_rate_factor(db, req->filter, t->from, t->to, req->metric, 1, &rate);
		if (rc) {
			err_prefix("--translate %s=from:%s,to:%s", t->family, t->from, t->to);
			return rc;
		}
		if (!f->measured || !f->has_ci)
			return err_set("--translate %s=from:%s,to:%s: no rate factor (%s)",
				       t->family, t->from, t->to, f->words);
		if (t->platform) {
			char *from = NULL, *to = NULL;
			rc = size_shared_value(db, req, t->to, "--translate", "cpu_model", &to);
			if (rc == 0)
				rc = size_shared_value(db, req, t->from, "--translate", "cpu_model",
						       &from);
			if (rc == 0 && (!to || strcmp(to, t->family)))
				rc = err_usage("--translate %s=from:%s,to:%s: the to-runs are on "
					       "platform '%s', not '%s'",
					       t->family, t->from, t->to, to ? to : "none recorded",
					       t->family);
			snprintf(rate.from_name, sizeof(rate.from_name), "%s",
				 from ? from : "no one platform");
			snprintf(rate.to_name, sizeof(rate.to_name), "%s", to ? to : "");
			free(from);
			free(to);
			if (rc)
				return rc;
		} else if (strcmp(rate.to_name, t->family)) {
			return err_usage(
				"--translate %s=from:%s,to:%s: the to-runs are on '%s', not "
				"'%s'",
				t->family, t->from, t->to, rate.to_name, t->family);
		}
		t->factor = f->factor;
		t->lo = f->ci_lo;
		t->hi = f->ci_hi;
		snprintf(t->from_name, sizeof(t->from_name), "%s", rate.from_name);
		snprintf(t->to_name, sizeof(t->to_name), "%s", rate.to_name);
		t->from_runs = rate.from_runs;
		t->to_runs = rate.to_runs;
		snprintf(t->source, sizeof(t->source),
			 "measured (coreplan translate): median %s of from:%s (%zu runs, %s) / "
			 "to:%s (%zu runs, %s) = %.4f, bootstrap 95%% interval %.4f-%.4f (seed 1); "
			 "%s rates = base / factor, the bounds widened by the interval",
			 req->metric ? req->metric : "tput", t->from, t->from_runs, t->from_name,
			 t->to, t->to_runs, t->to_name, t->factor, t->lo, t->hi, t->family);
	}
	return 0;
}

/* After the inputs: the base family against the catalogs and the translations. */
static int check_base_family(const struct catalog *all, struct size_result *res)
{
	const char *base = res->in.base_family;
	for (size_t i = 0; i < res->in.ntranslations; i++) {
		const struct size_translation *t = &res->in.translations[i];
		if (t->platform) {
			const char *bp = res->in.base_platform;
			if (!strcmp(t->family, bp))
				return err_usage(
					"--translate %s: that is the base runs' own platform, "
					"it needs no factor",
					bp);
			if (t->measured && strcmp(t->from_name, bp))
				return err_usage(
					"--translate %s=from:%s,to:%s: the from-runs are on "
					"platform '%s', the base runs on '%s'",
					t->family, t->from, t->to, t->from_name,
					bp[0] ? bp : "none recorded");
			continue;
		}
		if (!strcmp(t->family, base))
			return err_usage(
				"--translate %s: that is the base rate's own family, it needs "
				"no factor",
				base);
		if (t->measured && strcmp(t->from_name, base))
			return err_usage("--translate %s=from:%s,to:%s: the from-runs are on '%s', "
					 "the base rate on '%s'",
					 t->family, t->from, t->to, t->from_name, base);
	}
	if (res->base_family_note[0] || family_of(all, base))
		return 0;
	if (res->in.ntranslations == 0)
		warn_add("the base runs' cpu_family '%s' is no family of the catalogs: every "
			 "instance is `unmeasured CPU` unless --translate FAMILY=F gives a factor",
			 base);
	else
		snprintf(res->base_family_note, sizeof(res->base_family_note),
			 "the base runs' cpu_family '%s' is no family of the catalogs: every "
			 "prediction goes through a --translate factor",
			 base);
	return 0;
}

void size_result_release(struct size_result *r)
{
	if (!r)
		return;
	catalogs_used_release(&r->catalogs);
	catalog_release(&r->cat);
	free(r->rows);
	for (size_t i = 0; r->cells && i < r->ncells; i++)
		size_cell_release(&r->cells[i]);
	free(r->cells);
	free(r->translations);
	free(r->fleets);
	catalog_families_free(r->families, r->nfamilies);
	memset(r, 0, sizeof(*r));
}

/* The fleets of the --fleet instances (each must be sized here), else of every row. */
static int fleets(const struct size_request *req, struct size_result *res)
{
	size_t n = req->nfleet ? req->nfleet : res->cat.n;
	if (!(res->fleets = calloc(n ? n : 1, sizeof(*res->fleets))))
		return err_set("out of memory");
	for (size_t i = 0; i < n; i++) {
		size_t row = i;
		if (req->nfleet) {
			for (row = 0; row < res->cat.n; row++)
				if (!strcmp(res->cat.items[row].instance, req->fleet[i]))
					break;
			if (row == res->cat.n)
				return err_usage("--fleet '%s' is no instance sized here (the "
						 "catalogs%s; coreplan catalog --show lists them)",
						 req->fleet[i],
						 req->nseries ? " of the series asked for" : "");
		}
		res->fleets[i].row = row;
	}
	res->nfleets = n;
	return size_fleets(&res->in, res->rows, res->cat.n, res->calibration, res->fleets,
			   &res->nfleets, &res->cheapest_fleet);
}

int size_run(sqlite3 *db, const struct size_request *req, struct size_result *out)
{
	struct catalog all = {0};
	int rc;
	memset(out, 0, sizeof(*out));
	out->metric = req->metric ? req->metric : "tput";
	out->sessions = req->sessions;
	out->listing = req->list_families;
	rc = catalogs_use(db, req->catalog_files, req->ncatalog_files, req->shipped_dir,
			  req->reader, &out->catalogs);
	if (rc == 0)
		rc = catalog_load(db, NULL, 0, &all);
	if (rc == 0 && req->list_families) {
		rc = catalog_families(&all, &out->families, &out->nfamilies);
		out->cat = all;
		memset(&all, 0, sizeof(all));
		out->cheapest = out->cat.n;
		goto done;
	}
	if (rc == 0)
		rc = validate(db, req, &all, out);
	out->in.translations = out->translations;
	out->in.ntranslations = req->ntranslations;
	if (rc == 0)
		rc = catalog_load(db, (const char *const *)req->series, req->nseries, &out->cat);
	if (rc == 0)
		rc = size_gather_inputs(db, req, out);
	if (rc == 0)
		rc = measure_translations(db, req, out);
	if (rc == 0)
		rc = check_base_family(&all, out);
	if (rc == 0)
		rc = catalog_families(&out->cat, &out->families, &out->nfamilies);
	if (rc == 0)
		rc = size_compute(&out->cat, &out->in, &out->rows);
	if (rc == 0)
		rc = size_read_cells(db, req, out);
	if (rc == 0)
		rc = size_judge(&out->in, out->rows, out->cat.n, out->cells, out->ncells,
				out->calibration);
	out->cheapest = out->cat.n;
	for (size_t i = 0; rc == 0 && i < out->cat.n; i++)
		if (out->rows[i].cheapest)
			out->cheapest = i;
	if (rc == 0)
		rc = fleets(req, out);
done:
	catalog_release(&all);
	if (rc)
		size_result_release(out);
	return rc;
}
