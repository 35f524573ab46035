/* size_inputs: the inputs of a sizing read from the database (size.h, size_internal.h). */
#include "size.h"
#include "size_internal.h"

#include "../common/err.h"
#include "../common/num.h"
#include "../common/strbuf.h"
#include "fit.h"

#include <gsl/gsl_cdf.h>
#include "hosts.h"
#include "smt.h"
#include "window.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the inputs from the database ---- */

/* The runs an input WHERE selects (non-excluded unless the filter keeps them). */
static int select_where(sqlite3 *db, const struct size_request *req, const char *where,
			const char *option, const char *by, const char *metric,
			const char *const *extra, struct selection *sel)
{
	struct run_filter f;
	int rc = size_input_filter(req, where, option, &f);
	if (rc == 0) {
		struct select_spec spec = {
			.filter = &f, .by = by, .metric = metric, .extra = extra};
		rc = select_runs(db, &spec, sel);
	}
	run_filter_release(&f);
	if (rc == 0 && sel->n == 0)
		rc = err_set("no runs for '%s'", where);
	return rc;
}

/* What to do about runs that name no host, in this command's own terms. */
#define SIZE_HOST_HOWTO                                                                            \
	"record the host's topology with 'coreplan topology --from FILE --host NAME' and tie the " \
	"runs to it (a corpus manifest's `topology = FILE`, or `set = topology_host=NAME`: "       \
	"docs/importing.md, \"Corpus layouts and manifests\")"

/*
 * The host the selected runs name in their topology_host field (extra[k]):
 * host->known false when none does; runs that name different hosts, or
 * some none, are a usage error in size's terms (size has no --host).
 */
static int runs_host(sqlite3 *db, const struct selection *sel, size_t k, const char *option,
		     const char *where, struct run_host *host)
{
	const char *name = NULL, *tag = NULL;
	memset(host, 0, sizeof(*host));
	for (size_t i = 0; i < sel->n; i++) {
		const char *h = sel->runs[i].extra[k];
		if (i > 0 && (!h != !name || (h && strcmp(h, name))))
			return err_usage("the runs of %s '%s' ran on different hosts ('%s' on run "
					 "'%s', '%s' on run '%s'): narrow %s to one host's runs",
					 option, where, name ? name : "none recorded", tag,
					 h ? h : "none recorded", sel->runs[i].tag, option);
		name = h;
		tag = sel->runs[i].tag;
	}
	return name ? run_host_of(db, sel, name, host) : 0;
}

/* min/max widened by the runs' numbers in extra[k] (NaN: none yet). */
static void widen_range(const struct selection *sel, size_t k, double *min, double *max)
{
	for (size_t i = 0; i < sel->n; i++) {
		double v;
		if (!sel->runs[i].extra[k] || num_parse_real(sel->runs[i].extra[k], &v) != 0)
			continue;
		*min = isnan(*min) ? v : fmin(*min, v);
		*max = isnan(*max) ? v : fmax(*max, v);
	}
}

/* The value every run shares in extra[k] into dst ("" when some lack it or they differ). */
static void shared_extra(const struct selection *sel, size_t k, char *dst, size_t size)
{
	const char *v = sel->n ? sel->runs[0].extra[k] : NULL;
	for (size_t i = 1; v && i < sel->n; i++)
		if (!sel->runs[i].extra[k] || strcmp(sel->runs[i].extra[k], v))
			v = NULL;
	snprintf(dst, size, "%s", v ? v : "");
}

static int base_from_db(sqlite3 *db, const struct size_request *req, struct size_result *res)
{
	const char *store = size_field_or_null(db, "store");
	const char *model = size_field_or_null(db, "cpu_model");
	const char *extra[5] = {"cpu_family", "sessions", NULL, NULL, NULL};
	size_t at_store = 0, at_model = 0, nextra = 2;
	struct size_inputs *in = &res->in;
	struct selection sel = {0};
	struct summary s;
	double *v = NULL;
	int rc;
	const char *family;
	if (store)
		extra[at_store = nextra++] = store;
	if (model)
		extra[at_model = nextra++] = model;
	rc = select_where(db, req, req->base_from, "--base-from", NULL, res->metric, extra, &sel);
	family = rc == 0 ? sel.runs[0].extra[0] : NULL;
	for (size_t i = 0; rc == 0 && i < sel.n; i++)
		if (!sel.runs[i].extra[0] || !family || strcmp(sel.runs[i].extra[0], family))
			rc = err_set("the base runs must name one cpu_family (run '%s' has '%s')",
				     sel.runs[i].tag,
				     sel.runs[i].extra[0] ? sel.runs[i].extra[0] : "none");
	if (rc == 0 && !(v = malloc(sel.n * sizeof(double))))
		rc = err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < sel.n; i++)
		v[i] = sel.runs[i].metric;
	if (rc == 0)
		rc = stats_summary(v, sel.n, &s);
	if (rc == 0) {
		struct size_provenance *p = &res->base_prov;
		in->base = (struct size_value){true, s.median, s.min, s.max, ""};
		snprintf(in->base.source, sizeof(in->base.source),
			 "median %s of %zu runs (%s), range %g-%g, on %s", res->metric, sel.n,
			 req->base_from, s.min, s.max, family);
		snprintf(in->base_family, sizeof(in->base_family), "%s", family);
		char count[32];
		shared_extra(&sel, 1, count, sizeof(count));
		if (!count[0] || num_parse_real(count, &in->base_sessions) != 0)
			in->base_sessions = NAN;
		widen_range(&sel, 1, &in->cpu_sessions_min, &in->cpu_sessions_max);
		if (at_store)
			shared_extra(&sel, at_store, in->base_store, sizeof(in->base_store));
		if (at_model)
			shared_extra(&sel, at_model, in->base_platform, sizeof(in->base_platform));
		p->where = req->base_from;
		p->runs = sel.n;
		snprintf(p->statistic, sizeof(p->statistic),
			 "median of %s; bounds: the runs' minimum and maximum", res->metric);
	}
	free(v);
	selection_release(&sel);
	return rc;
}

/* dst = the text of sb, cut to size (an empty string when sb holds none). */
static void copy_text(char *dst, size_t size, const struct strbuf *sb)
{
	size_t len = sb->buf ? sb->len : 0;
	if (len >= size)
		len = size - 1;
	if (len)
		memcpy(dst, sb->buf, len);
	dst[len] = '\0';
}

/* "1, 2, 4" from an ascending list of levels. */
static void levels_text(const double *levels, size_t n, char *buf, size_t size)
{
	size_t used = 0;
	char num[32];
	buf[0] = '\0';
	for (size_t i = 0; i < n && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, "%s%s", i ? ", " : "",
					 num_format_real(levels[i], num));
}

/* Distinct values of x[0..n), ascending, into out (which holds n). */
static size_t distinct(const double *x, size_t n, double *out)
{
	size_t m = 0;
	memcpy(out, x, n * sizeof(double));
	qsort(out, n, sizeof(double), size_cmp_double);
	for (size_t i = 0; i < n; i++)
		if (m == 0 || out[m - 1] != out[i])
			out[m++] = out[i];
	return m;
}

/* "8 (smt: 3 runs), 16 (beyond: 3 runs)": the levels left out, ascending. */
static void left_out_text(const struct selection *sel, const struct run_host *host,
			  const bool *kept, char *buf, size_t size)
{
	double *levels = malloc((sel->n ? sel->n : 1) * sizeof(double));
	double *uniq = malloc((sel->n ? sel->n : 1) * sizeof(double));
	size_t n = 0, used = 0;
	char num[32];
	buf[0] = '\0';
	if (!levels || !uniq)
		goto done;
	for (size_t i = 0; i < sel->n; i++)
		if (!kept[i])
			levels[n++] = sel->runs[i].level;
	n = distinct(levels, n, uniq);
	for (size_t i = 0; i < n && used < size; i++) {
		size_t runs = 0;
		for (size_t j = 0; j < sel->n; j++)
			runs += !kept[j] && sel->runs[j].level == uniq[i];
		used += (size_t)snprintf(buf + used, size - used, "%s%s (%s: %zu run%s)",
					 i ? ", " : "", num_format_real(uniq[i], num),
					 level_kind_name(level_kind_on(host, uniq[i])), runs,
					 runs == 1 ? "" : "s");
	}
done:
	free(levels);
	free(uniq);
}

static int scaling_from_db(sqlite3 *db, const struct size_request *req, struct size_result *res)
{
	const char *const extra[] = {"topology_host", "sessions",
				     size_field_or_null(db, "cpu_model"), NULL};
	const char *by = req->scaling_by ? req->scaling_by : "gomaxprocs";
	struct size_inputs *in = &res->in;
	struct size_provenance *p = &res->per_doubling_prov;
	struct selection sel = {0};
	struct fit_result fit = {0};
	struct run_host host;
	double *level = NULL, *x = NULL, *uniq = NULL;
	bool *kept = NULL;
	size_t m = 0, nlevels = 0;
	int rc = select_where(db, req, req->scaling_from, "--scaling-from", by, res->metric, extra,
			      &sel);
	if (rc == 0)
		rc = runs_host(db, &sel, 0, "--scaling-from", req->scaling_from, &host);
	if (rc == 0)
		widen_range(&sel, 1, &in->cpu_sessions_min, &in->cpu_sessions_max);
	if (rc == 0 && extra[2])
		shared_extra(&sel, 2, res->scaling_platform, sizeof(res->scaling_platform));
	if (rc == 0 &&
	    (!(level = malloc(sel.n * sizeof(double))) || !(x = malloc(sel.n * sizeof(double))) ||
	     !(uniq = malloc(sel.n * sizeof(double))) || !(kept = calloc(sel.n, sizeof(bool)))))
		rc = err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < sel.n; i++) {
		const struct sel_run *r = &sel.runs[i];
		enum level_kind kind;
		if (!r->level_numeric || !(r->level >= 1))
			rc = err_usage(
				"run '%s' has %s '%s': --scaling-from needs levels that count "
				"workers (1 or more)",
				r->tag, by, r->level_text);
		kind = rc == 0 ? level_kind_on(&host, r->level) : LEVEL_BEYOND;
		if (rc == 0 && (kind == LEVEL_PHYSICAL || kind == LEVEL_ASSUMED)) {
			kept[i] = true;
			level[m] = r->level;
			x[m++] = r->metric;
			if (r->level > in->max_measured_cores)
				in->max_measured_cores = r->level;
		} else if (rc == 0) {
			p->runs_left_out++;
		}
	}
	if (rc == 0)
		nlevels = distinct(level, m, uniq);
	if (rc == 0) {
		levels_text(uniq, nlevels, p->levels, sizeof(p->levels));
		left_out_text(&sel, &host, kept, p->left_out, sizeof(p->left_out));
		if (host.known)
			snprintf(p->host, sizeof(p->host), "%s", host.name);
	}
	if (rc == 0 && nlevels < 2) {
		char on[400];
		if (host.known)
			snprintf(on, sizeof(on), "physical-core level%s of %s on host '%s'",
				 nlevels == 1 ? "" : "s", by, host.name);
		else
			snprintf(on, sizeof(on), "level%s of %s", nlevels == 1 ? "" : "s", by);
		rc = err_usage("the runs of --scaling-from '%s' hold %zu %s (%s%s%s): fitting the "
			       "scaling across cores needs 2 or more",
			       req->scaling_from, nlevels, on, nlevels ? p->levels : "none",
			       p->left_out[0] ? "; left out: " : "", p->left_out);
	}
	if (rc == 0)
		rc = fit_scaling(FIT_POWER, level, x, m, &fit);
	if (rc == 0) {
		double d = fit.per_doubling, se = fit.per_doubling_se;
		/* t with the fit's degrees of freedom (issue 25.4), not the normal 1.96 */
		double t = fit.dof > 0 ? gsl_cdf_tdist_Pinv(0.975, (double)fit.dof) : INFINITY;
		struct strbuf sb = STRBUF_INIT;
		in->per_doubling = (struct size_value){true, d, d - t * se, d + t * se, ""};
		strbuf_addf(&sb, "power law fitted to %zu runs (%s) over %s %s: ", m,
			    req->scaling_from, by, p->levels);
		if (host.known)
			strbuf_addf(&sb,
				    "the physical-core levels on host %s (%zu physical cores, %zu "
				    "logical CPUs)",
				    host.name, host.physical_cores, host.logical_cpus);
		else
			strbuf_adds(&sb, "no host topology is known for these runs, so every level "
					 "is assumed to count physical cores");
		if (p->left_out[0])
			strbuf_addf(&sb,
				    "; left out: %s, the SMT factor counts a core's second thread "
				    "once, apart",
				    p->left_out);
		strbuf_addf(&sb, "; per doubling %.4f (SE %.4f)", d, se);
		copy_text(in->per_doubling.source, sizeof(in->per_doubling.source), &sb);
		strbuf_release(&sb);
		p->where = req->scaling_from;
		p->runs = m;
		p->se = se;
		snprintf(p->statistic, sizeof(p->statistic),
			 "power law X = a N^b fitted to %s by %s (Gauss-Newton); per doubling 2^b, "
			 "bounds +- t(0.975, %zu dof) SE",
			 res->metric, by, fit.dof);
	}
	fit_release(&fit);
	free(level);
	free(x);
	free(uniq);
	free(kept);
	selection_release(&sel);
	return rc;
}

/* What smt measured of shared-nothing: its sharded arm of the most processes, and the ceiling. */
static void sharding_of(const struct smt_result *m, const char *where, struct size_sharding *out)
{
	const struct smt_figure *best = NULL, *ceiling = NULL;
	int procs = 0;
	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < m->figs.n; i++) {
		const struct smt_figure *x = &m->figs.figures[i];
		int p = 0, t = 0;
		if (!x->measured)
			continue;
		if (!strcmp(x->name, "ceiling"))
			ceiling = x;
		else if (sscanf(x->name, "sharded %dx%d", &p, &t) == 2 && p > procs) {
			procs = p;
			best = x;
		}
	}
	if (!best || !ceiling)
		return;
	*out = (struct size_sharding){.known = true,
				      .value = best->value,
				      .lo = best->lo,
				      .hi = best->hi,
				      .ceiling = ceiling->value,
				      .n = best->num.s.n};
	snprintf(out->label, sizeof(out->label), "%s", best->num.label);
	snprintf(out->where, sizeof(out->where), "%s", where);
}

/*
 * The smt_factor `coreplan smt` measures on the runs of filter f (their
 * host's topology): into res->in.smt and its provenance; 1 when the runs
 * give none (no pinned pair of arms), an error when smt cannot read them.
 */
static int smt_measured(sqlite3 *db, const struct run_filter *f, const char *where, const char *how,
			struct size_result *res)
{
	struct size_inputs *in = &res->in;
	struct size_provenance *p = &res->smt_prov;
	struct smt_request q = {f, res->metric, NULL, NULL, NULL, NULL};
	struct smt_result m;
	int rc = smt_measure(db, &q, &m), found = 1;
	if (rc)
		return rc;
	sharding_of(&m, where, &res->sharding);
	for (size_t i = 0; i < m.figs.n && found; i++) {
		const struct smt_figure *x = &m.figs.figures[i];
		if (strcmp(x->name, "smt_factor") || !x->measured)
			continue;
		in->smt = (struct size_value){true, x->value, x->lo, x->hi, ""};
		snprintf(in->smt.source, sizeof(in->smt.source),
			 "smt_factor of coreplan smt on %s (host %s)%s: %s / %s", where, m.host,
			 how, x->num.label, x->den.label);
		p->where = where;
		p->runs = m.sel.n;
		snprintf(p->statistic, sizeof(p->statistic),
			 "smt_factor: median %s of %s / median of %s; bounds min/max and max/min",
			 res->metric, x->num.label, x->den.label);
		snprintf(p->host, sizeof(p->host), "%s", m.host);
		found = 0;
	}
	smt_result_release(&m);
	return found;
}

static int smt_from_db(sqlite3 *db, const struct size_request *req, struct size_result *res)
{
	static const char *const extra[] = {"topology_host", NULL};
	struct selection sel = {0};
	struct run_host host = {0};
	struct run_filter f;
	int rc = select_where(db, req, req->smt_from, "--smt-from", NULL, res->metric, extra, &sel);
	if (rc == 0)
		rc = runs_host(db, &sel, 0, "--smt-from", req->smt_from, &host);
	selection_release(&sel);
	if (rc == 0 && !host.known)
		rc = err_usage("the runs of --smt-from '%s' name no host, so their CPU placement "
			       "is unknown: " SIZE_HOST_HOWTO ", or give --smt-factor F",
			       req->smt_from);
	if (rc)
		return rc;
	rc = size_input_filter(req, req->smt_from, "--smt-from", &f);
	if (rc == 0)
		rc = smt_measured(db, &f, req->smt_from, "", res);
	run_filter_release(&f);
	return rc == 1 ? err_set("the runs of --smt-from give no smt_factor") : rc;
}

/* The corpora (sorted, distinct) of the filter's runs pinned to a cpuset. */
static int pinned_corpora(sqlite3 *db, const struct run_filter *f, char ***out, size_t *n)
{
	static const char *const extra[] = {"cpuset", NULL};
	struct select_spec spec = {.filter = f, .extra = extra};
	struct selection sel = {0};
	int rc = select_runs(db, &spec, &sel);
	*out = NULL;
	*n = 0;
	for (size_t i = 0; rc == 0 && i < sel.n; i++) {
		const struct sel_run *r = &sel.runs[i];
		char **grown;
		if (!r->extra[0] || !r->extra[0][0] || (*n && !strcmp((*out)[*n - 1], r->corpus)))
			continue; /* runs come by corpus: a repeat is the last one */
		if (!(grown = realloc(*out, (*n + 1) * sizeof(*grown))) ||
		    !(grown[*n] = strdup(r->corpus))) {
			if (grown)
				*out = grown;
			rc = err_set("out of memory");
			break;
		}
		*out = grown;
		(*n)++;
	}
	selection_release(&sel);
	return rc;
}

/*
 * No --smt-factor or --smt-from: the SMT factor is measured where the
 * database holds what --smt-from would select, so leaving the option out
 * gives the same answer: the pinned runs (a cpuset) on the --scaling-from
 * runs' platform (their cpu_model; else the base runs'), corpus by corpus
 * in name order, the first corpus that measures it. None: 1 when nothing measures it.
 */
static int smt_automatic(sqlite3 *db, const struct size_request *req, struct size_result *res)
{
	const char *platform =
		res->scaling_platform[0] ? res->scaling_platform : res->in.base_platform;
	char **corpora = NULL;
	size_t n = 0;
	struct run_filter f;
	int rc, found = 1;
	if (!platform[0] || !size_field_or_null(db, "cpuset") ||
	    !size_field_or_null(db, "cpu_model"))
		return 1;
	rc = size_input_filter(req, NULL, NULL, &f);
	if (rc == 0)
		rc = run_filter_add(&f, "cpu_model", &platform, 1);
	if (rc == 0)
		rc = pinned_corpora(db, &f, &corpora, &n);
	run_filter_release(&f);
	for (size_t i = 0; rc == 0 && found && i < n; i++) {
		char how[400];
		rc = size_input_filter(req, NULL, NULL, &f);
		if (rc == 0)
			rc = run_filter_add(&f, "corpus", (const char *const *)&corpora[i], 1);
		/* the provenance's WHERE points here: it outlives this call */
		snprintf(res->smt_where, sizeof(res->smt_where), "corpus=%s", corpora[i]);
		snprintf(how, sizeof(how),
			 ", measured without --smt-from: the pinned runs on the %s platform %s",
			 res->scaling_platform[0] ? "--scaling-from runs'" : "base runs'",
			 platform);
		if (rc == 0 && (found = smt_measured(db, &f, res->smt_where, how, res)) != 0) {
			found = 1; /* a corpus smt cannot read measures nothing: the next one */
			err_clear();
		}
		run_filter_release(&f);
	}
	for (size_t i = 0; i < n; i++)
		free(corpora[i]);
	free(corpora);
	return rc ? rc : found;
}

/* What a memory run's trace says about PostgreSQL. */
enum pg_state { PG_NO_TRACE, PG_NO_COLUMN, PG_NOT_RUNNING, PG_NO_PLATEAU, PG_MEASURED };

/* One pass of the plateau's pg_rss_kb values into a streamed median. */
static int pg_pass(sqlite3_stmt *stmt, struct stream_median *m, size_t *n)
{
	int step;
	sqlite3_reset(stmt);
	*n = 0;
	while ((step = sqlite3_step(stmt)) == SQLITE_ROW) {
		double v = sqlite3_column_double(stmt, 0);
		if (!isfinite(v))
			return err_set("a trace's pg_rss_kb is not a finite number");
		stream_median_add(m, v);
		(*n)++;
	}
	return step == SQLITE_DONE ? 0
				   : err_set("cannot read a trace's pg_rss_kb: %s",
					     sqlite3_errmsg(sqlite3_db_handle(stmt)));
}

/*
 * The median pg_rss_kb over the run's loaded plateau (window.h's rule on its
 * sample trace): PG_MEASURED with *median, or why not. Streamed: the window
 * from a trace_source, the median in a few passes over the window's rows
 * (stream_median), so memory does not grow with the trace.
 */
static int pg_plateau(sqlite3 *db, int64_t run_id, enum pg_state *state, double *median)
{
	struct trace_source src;
	struct window_options opts;
	struct window w;
	struct stream_median m;
	sqlite3_stmt *stmt = NULL;
	size_t n = 0;
	int rc;
	*state = PG_NO_TRACE;
	*median = NAN;
	rc = trace_source_open(db, run_id, "sample", &src);
	if (rc == 1)
		return 0;
	if (rc)
		return rc;
	window_options_init(&opts);
	opts.keep_ramp = true; /* system.tsv's window, as the sizing inputs were defined */
	if (window_select_source(&src, &opts, &w) != 0) {
		err_clear();
		*state = PG_NO_PLATEAU;
		return 0;
	}
	if (sqlite3_prepare_v2(db,
			       "SELECT pg_rss_kb FROM trace_samples WHERE trace_id = ?1 AND row_no"
			       " BETWEEN ?2 AND ?3 AND pg_rss_kb IS NOT NULL",
			       -1, &stmt, NULL) != SQLITE_OK)
		return err_set("cannot read a trace's pg_rss_kb: %s", sqlite3_errmsg(db));
	sqlite3_bind_int64(stmt, 1, src.trace_id);
	sqlite3_bind_int64(stmt, 2, w.lo_row_no);
	sqlite3_bind_int64(stmt, 3, w.hi_row_no);
	rc = stream_median_init(&m);
	if (rc == 0) {
		do
			rc = pg_pass(stmt, &m, &n);
		while (rc == 0 && n > 0 && !stream_median_next(&m));
		if (rc == 0 && n > 0)
			*median = stream_median_value(&m);
		stream_median_release(&m);
	}
	sqlite3_finalize(stmt);
	if (rc == 0)
		*state = n == 0 ? PG_NO_COLUMN : *median > 0 ? PG_MEASURED : PG_NOT_RUNNING;
	return rc;
}

/* The co-located PostgreSQL of the memory runs (sel), from their traces. */
static int colocated_from_traces(sqlite3 *db, const struct size_request *req,
				 const struct selection *sel, struct size_result *res)
{
	struct size_value *v = &res->in.colocated_kb;
	struct size_provenance *p = &res->colocated_prov;
	size_t count[PG_MEASURED + 1] = {0}, n = 0;
	double *medians = malloc((sel->n ? sel->n : 1) * sizeof(double));
	struct summary s;
	int rc = medians ? 0 : err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < sel->n; i++) {
		enum pg_state state;
		double median;
		rc = pg_plateau(db, sel->runs[i].run_id, &state, &median);
		if (rc == 0)
			count[state]++;
		if (rc == 0 && state == PG_MEASURED)
			medians[n++] = median;
	}
	if (rc == 0 && n > 0)
		rc = stats_summary(medians, n, &s);
	if (rc == 0) {
		p->where = req->memory_from;
		p->runs = n;
		p->runs_left_out = sel->n - n;
		snprintf(p->statistic, sizeof(p->statistic),
			 "median over runs of each run's plateau median of pg_rss_kb (trace); "
			 "bounds: the runs' minimum and maximum");
		if (n > 0) {
			*v = (struct size_value){true, s.median, s.min, s.max, ""};
			snprintf(v->source, sizeof(v->source),
				 "PostgreSQL beside the app: median over %zu of %zu memory runs "
				 "(%s) "
				 "of the plateau median of pg_rss_kb, %.0f kB (range %.0f-%.0f); "
				 "the "
				 "sum of VmRSS over the postgres processes counts their shared "
				 "memory once per process, so it is an upper bound",
				 n, sel->n, req->memory_from, s.median, s.min, s.max);
		} else {
			*v = (struct size_value){true, 0, 0, 0, ""};
			snprintf(v->source, sizeof(v->source),
				 "nothing beside the app: %s (memory runs %s)",
				 count[PG_NOT_RUNNING]
					 ? "the traces show no PostgreSQL (pg_rss_kb 0 "
					   "on every plateau)"
				 : count[PG_NO_COLUMN]  ? "the traces have no pg_rss_kb column"
				 : count[PG_NO_PLATEAU] ? "no loaded plateau in the traces"
							: "the runs have no traces",
				 req->memory_from);
		}
	}
	free(medians);
	return rc;
}

static int memory_from_db(sqlite3 *db, const struct size_request *req, struct size_result *res)
{
	struct size_inputs *in = &res->in;
	struct size_provenance *p = &res->memory_prov;
	struct selection sel = {0};
	struct ols ols;
	double *x = NULL, *y = NULL, *uniq = NULL;
	/* with the slope given, only the traces are read: runs need no load_rss_kb */
	int rc = select_where(db, req, req->memory_from, "--memory-from", "sessions",
			      req->has_mem_per ? NULL : "load_rss_kb", NULL, &sel);
	if (rc == 0 &&
	    (!(x = malloc(sel.n * sizeof(double))) || !(y = malloc(sel.n * sizeof(double))) ||
	     !(uniq = malloc(sel.n * sizeof(double)))))
		rc = err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < sel.n; i++) {
		x[i] = sel.runs[i].level;
		y[i] = sel.runs[i].metric;
	}
	for (size_t i = 0; rc == 0 && !req->has_mem_per && i < sel.n; i++) {
		in->mem_sessions_min = i ? fmin(in->mem_sessions_min, x[i]) : x[i];
		in->mem_sessions_max = i ? fmax(in->mem_sessions_max, x[i]) : x[i];
	}
	if (rc == 0 && !req->has_mem_per)
		rc = stats_ols(x, y, sel.n, &ols);
	if (rc == 0 && !req->has_mem_per) {
		char sessions[200];
		levels_text(uniq, distinct(x, sel.n, uniq), sessions, sizeof(sessions));
		in->mem_per_session_kb =
			(struct size_value){true, ols.slope, ols.slope_lo, ols.slope_hi, ""};
		if (!req->has_mem_fixed)
			in->mem_fixed_kb = (struct size_value){true, ols.intercept, ols.intercept,
							       ols.intercept, ""};
		snprintf(in->mem_per_session_kb.source, sizeof(in->mem_per_session_kb.source),
			 "OLS of load_rss_kb on sessions over %zu runs (%s): %.1f kB/session (95%% "
			 "%.1f-%.1f), fixed %.0f kB",
			 sel.n, req->memory_from, ols.slope, ols.slope_lo, ols.slope_hi,
			 ols.intercept);
		if (!req->has_mem_fixed)
			snprintf(in->mem_fixed_kb.source, sizeof(in->mem_fixed_kb.source),
				 "intercept of the OLS of load_rss_kb on sessions over %zu runs "
				 "(%s)",
				 sel.n, req->memory_from);
		p->where = req->memory_from;
		p->runs = sel.n;
		snprintf(p->statistic, sizeof(p->statistic),
			 "OLS of load_rss_kb on sessions: slope (95%% interval) and intercept");
		snprintf(p->levels, sizeof(p->levels), "sessions %s", sessions);
	}
	if (rc == 0 && !req->has_colocated)
		rc = colocated_from_traces(db, req, &sel, res);
	free(x);
	free(y);
	free(uniq);
	selection_release(&sel);
	return rc;
}

static void given(struct size_value *v, struct size_provenance *p, double value, const char *what)
{
	*v = (struct size_value){true, value, value, value, ""};
	snprintf(v->source, sizeof(v->source), "given: %s %g", what, value);
	if (p)
		snprintf(p->statistic, sizeof(p->statistic), "given on the command line");
}

/* The target's platform and store: given, else the base runs' (assumed), else unknown. */
static void target_conditions(const struct size_request *req, struct size_inputs *in)
{
	in->platform_basis = req->platform          ? SIZE_GIVEN
			     : in->base_platform[0] ? SIZE_ASSUMED
						    : SIZE_UNKNOWN;
	snprintf(in->platform, sizeof(in->platform), "%s",
		 req->platform ? req->platform : in->base_platform);
	in->store_basis = req->store ? SIZE_GIVEN : in->base_store[0] ? SIZE_ASSUMED : SIZE_UNKNOWN;
	snprintf(in->store, sizeof(in->store), "%s", req->store ? req->store : in->base_store);
}

int size_gather_inputs(sqlite3 *db, const struct size_request *req, struct size_result *res)
{
	struct size_inputs *in = &res->in;
	struct size_provenance none = {.se = NAN};
	int rc = 0;
	res->base_prov = res->per_doubling_prov = res->smt_prov = res->memory_prov = none;
	res->colocated_prov = res->store_prov = res->sessions_prov = none;
	in->target = req->target;
	in->base_sessions = NAN;
	in->cpu_sessions_min = in->cpu_sessions_max = NAN;
	in->mem_sessions_min = in->mem_sessions_max = NAN;
	in->asked = &res->sessions;
	in->has_sessions = req->sessions.given;
	in->sessions = req->sessions.largest;
	in->headroom_pct = req->headroom_pct;
	if (req->has_base_rate) {
		given(&in->base, &res->base_prov, req->base_rate,
		      "base rate"); /* its family: validate() */
	} else if (req->base_from) {
		rc = base_from_db(db, req, res);
	}
	if (rc == 0 && req->has_per_doubling)
		given(&in->per_doubling, &res->per_doubling_prov, req->per_doubling,
		      "per-doubling factor");
	else if (rc == 0 && req->scaling_from)
		rc = scaling_from_db(db, req, res);
	if (rc == 0)
		target_conditions(req, in);
	if (rc == 0)
		rc = size_condition_factors(db, req, res);
	in->smt_basis = req->has_smt ? SIZE_GIVEN : SIZE_MEASURED;
	if (rc == 0 && req->has_smt)
		given(&in->smt, &res->smt_prov, req->smt_factor, "SMT factor");
	else if (rc == 0 && req->smt_from)
		rc = smt_from_db(db, req, res);
	else if (rc == 0 && (rc = smt_automatic(db, req, res)) == 1)
		rc = 0;
	if (rc == 0 && !in->smt.known) {
		in->smt_basis = SIZE_ASSUMED;
		in->smt = (struct size_value){true, 1.0, 1.0, 1.0, ""};
		snprintf(in->smt.source, sizeof(in->smt.source),
			 "not given: a core's second thread counted as adding nothing (1.0)");
	}
	if (rc == 0 && req->has_mem_per)
		given(&in->mem_per_session_kb, &res->memory_prov, req->mem_per, "kB per session");
	if (rc == 0 && req->has_mem_fixed)
		given(&in->mem_fixed_kb, &res->memory_prov, req->mem_fixed, "fixed kB");
	if (rc == 0 && req->has_colocated)
		given(&in->colocated_kb, &res->colocated_prov, req->colocated_kb, "co-located kB");
	if (rc == 0 && req->memory_from && (!req->has_mem_per || !req->has_colocated))
		rc = memory_from_db(db, req, res);
	if (rc == 0 && !in->colocated_kb.known)
		snprintf(in->colocated_kb.source, sizeof(in->colocated_kb.source),
			 "not given: nothing counted beside the app (--memory-from WHERE reads "
			 "PostgreSQL from the traces; --colocated-kb KB gives it)");
	in->os_reserve_mib = req->has_os_reserve ? req->os_reserve_mib : SIZE_OS_RESERVE_MIB;
	res->os_reserve_given = req->has_os_reserve;
	return rc;
}
