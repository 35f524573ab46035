/*
 * size_factors: the factors that carry the base rate to the target's
 * conditions, each measured between runs that differ in that condition
 * alone (size.h; size_internal.h):
 *   store     --store-from WHERE: runs of one instance with both the base
 *             runs' store and the target's, at the same session counts:
 *             median(target store) / median(base store) at the count the
 *             base rate stands at (the base runs' own, else the nearest
 *             measured one, said)
 *   sessions  --sessions-from WHERE (default: the --store-from runs): the
 *             runs of one instance at the target's store (else at the one
 *             store they have), per session count: the curve that
 *             size_sessions_factor reads
 */
#include "size.h"
#include "size_internal.h"

#include "../common/err.h"
#include "../common/num.h"
#include "select.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One session count's runs of one store: their medians and ranges. */
struct count_stats {
	double sessions;
	struct summary s;
};

/* The runs of `sel` whose extra[0] (their store) is `store`, grouped by session count, ascending.
 */
static int by_count(const struct selection *sel, const char *store, struct count_stats *out,
		    size_t max, size_t *n)
{
	double *v = malloc((sel->n ? sel->n : 1) * sizeof(double));
	double *levels = malloc((sel->n ? sel->n : 1) * sizeof(double));
	size_t nl = 0;
	int rc = v && levels ? 0 : err_set("out of memory");
	*n = 0;
	for (size_t i = 0; rc == 0 && i < sel->n; i++)
		if (sel->runs[i].level_numeric && sel->runs[i].extra[0] &&
		    !strcmp(sel->runs[i].extra[0], store))
			levels[nl++] = sel->runs[i].level;
	if (rc == 0)
		qsort(levels, nl, sizeof(double), size_cmp_double);
	for (size_t i = 0; rc == 0 && i < nl; i++) {
		size_t m = 0;
		if (i > 0 && levels[i] == levels[i - 1])
			continue;
		if (*n == max) {
			rc = err_usage("more than %zu session counts in one factor's runs", max);
			break;
		}
		for (size_t k = 0; k < sel->n; k++)
			if (sel->runs[k].level_numeric && sel->runs[k].level == levels[i] &&
			    sel->runs[k].extra[0] && !strcmp(sel->runs[k].extra[0], store))
				v[m++] = sel->runs[k].metric;
		out[*n].sessions = levels[i];
		rc = stats_summary(v, m, &out[*n].s);
		(*n)++;
	}
	free(v);
	free(levels);
	return rc;
}

/* The index of the measured count nearest `want` (the lower at a tie); note when it is not `want`.
 */
static size_t nearest(const struct count_stats *c, size_t n, double want, const char *whose,
		      char *note, size_t size)
{
	size_t best = 0;
	char a[32], b[32];
	note[0] = '\0';
	if (isnan(want)) {
		snprintf(note, size,
			 "%s record no one session count: taken at the smallest measured, %s",
			 whose, num_format_real(c[0].sessions, a));
		return 0;
	}
	for (size_t i = 1; i < n; i++)
		if (fabs(c[i].sessions - want) < fabs(c[best].sessions - want))
			best = i;
	if (c[best].sessions != want)
		snprintf(note, size,
			 "%s %s sessions were not measured here: taken at the nearest measured "
			 "count, "
			 "%s (an assumption: throughput taken to be the same at both)",
			 whose, num_format_real(want, a), num_format_real(c[best].sessions, b));
	return best;
}

/* The runs of `where` with their store and instance; they must be one instance's. */
static int factor_runs(sqlite3 *db, const struct size_request *req, const char *where,
		       const char *option, const char *metric, struct selection *sel,
		       char *instance, size_t size)
{
	static const char *const extra[] = {"store", "instance", NULL};
	struct run_filter f;
	int rc = size_input_filter(req, where, option, &f);
	if (rc == 0) {
		struct select_spec spec = {
			.filter = &f, .by = "sessions", .metric = metric, .extra = extra};
		rc = select_runs(db, &spec, sel);
	}
	run_filter_release(&f);
	if (rc == 0 && sel->n == 0)
		rc = err_usage("no runs for %s '%s'", option, where);
	for (size_t i = 0; rc == 0 && i < sel->n; i++) {
		const char *a = sel->runs[0].extra[1], *b = sel->runs[i].extra[1];
		if (!a != !b || (a && strcmp(a, b)))
			rc = err_usage(
				"the runs of %s '%s' ran on different instances ('%s' on '%s', "
				"'%s' on '%s'): a factor is measured on one instance; narrow "
				"it, e.g. with target=",
				option, where, a ? a : "none recorded", sel->runs[0].tag,
				b ? b : "none recorded", sel->runs[i].tag);
	}
	if (rc == 0)
		snprintf(instance, size, "%s",
			 sel->runs[0].extra[1] ? sel->runs[0].extra[1] : "an unnamed instance");
	return rc;
}

/* "store=postgres at 100 sessions" */
static void label(char *buf, size_t size, const char *store, double sessions)
{
	char n[32];
	snprintf(buf, size, "store=%s at %s sessions", store, num_format_real(sessions, n));
}

static int store_factor(sqlite3 *db, const struct size_request *req, struct size_result *res)
{
	struct size_inputs *in = &res->in;
	struct size_ratio *x = &in->store_factor;
	struct size_provenance *p = &res->store_prov;
	struct count_stats base[SIZE_MAX_CURVE], target[SIZE_MAX_CURVE], both_b[SIZE_MAX_CURVE],
		both_t[SIZE_MAX_CURVE];
	struct selection sel = {0};
	char instance[96], note[256];
	size_t nb = 0, nt = 0, n = 0, k;
	int rc;
	if (!in->base_store[0] || !in->store[0])
		return err_usage(
			"--store-from needs the base runs' store and the target's (--store "
			"NAME): %s",
			!in->base_store[0] ? "the base runs record no store"
					   : "the target's store is not known");
	if (!strcmp(in->base_store, in->store))
		return err_usage("--store-from: the target's store is the base runs' own (%s): it "
				 "needs no factor",
				 in->store);
	rc = factor_runs(db, req, req->store_from, "--store-from", res->metric, &sel, instance,
			 sizeof(instance));
	if (rc == 0)
		rc = by_count(&sel, in->base_store, base, SIZE_MAX_CURVE, &nb);
	if (rc == 0)
		rc = by_count(&sel, in->store, target, SIZE_MAX_CURVE, &nt);
	for (size_t i = 0; rc == 0 && i < nb; i++)
		for (size_t j = 0; j < nt; j++)
			if (base[i].sessions == target[j].sessions) {
				both_b[n] = base[i];
				both_t[n++] = target[j];
			}
	if (rc == 0 && n == 0)
		rc = err_usage("the runs of --store-from '%s' hold no session count with both "
			       "store=%s (%zu counts) and store=%s (%zu counts)",
			       req->store_from, in->base_store, nb, in->store, nt);
	if (rc == 0) {
		k = nearest(both_b, n, in->base_sessions, "the base runs'", note, sizeof(note));
		*x = (struct size_ratio){.known = true,
					 .value = both_t[k].s.median / both_b[k].s.median,
					 .lo = both_t[k].s.min / both_b[k].s.max,
					 .hi = both_t[k].s.max / both_b[k].s.min,
					 .from_median = both_b[k].s.median,
					 .to_median = both_t[k].s.median,
					 .from_n = both_b[k].s.n,
					 .to_n = both_t[k].s.n,
					 .sessions = both_b[k].sessions};
		label(x->from_label, sizeof(x->from_label), in->base_store, both_b[k].sessions);
		label(x->to_label, sizeof(x->to_label), in->store, both_t[k].sessions);
		p->where = req->store_from;
		p->runs = x->from_n + x->to_n;
		snprintf(p->statistic, sizeof(p->statistic),
			 "median %s of %s / median of %s on %s; bounds min/max and max/min%s%s",
			 res->metric, x->to_label, x->from_label, instance, note[0] ? "; " : "",
			 note);
		snprintf(p->host, sizeof(p->host), "%s", instance);
	}
	selection_release(&sel);
	return rc;
}

static int sessions_curve(sqlite3 *db, const struct size_request *req, const char *where,
			  const char *option, struct size_result *res)
{
	struct size_inputs *in = &res->in;
	struct size_sessions_curve *c = &in->curve;
	struct size_provenance *p = &res->sessions_prov;
	struct count_stats at[SIZE_MAX_CURVE];
	struct selection sel = {0};
	const char *store = in->store;
	size_t n = 0, runs = 0;
	double ref;
	int rc = factor_runs(db, req, where, option, res->metric, &sel, c->instance,
			     sizeof(c->instance));
	/* the target's store; runs of one other store stand for it (said) */
	if (rc == 0 && store[0])
		rc = by_count(&sel, store, at, SIZE_MAX_CURVE, &n);
	if (rc == 0 && n == 0 && sel.runs[0].extra[0]) {
		store = sel.runs[0].extra[0];
		rc = by_count(&sel, store, at, SIZE_MAX_CURVE, &n);
	}
	if (rc == 0 && n < 2)
		rc = err_usage("the runs of %s '%s' hold %zu session count%s at store=%s: a "
			       "sessions factor needs 2 or more",
			       option, where, n, n == 1 ? "" : "s", store[0] ? store : "NA");
	if (rc)
		goto done;
	snprintf(c->store, sizeof(c->store), "%s", store);
	c->n = n;
	for (size_t i = 0; i < n; i++) {
		c->sessions[i] = at[i].sessions;
		c->median[i] = at[i].s.median;
		c->min[i] = at[i].s.min;
		c->max[i] = at[i].s.max;
		c->runs[i] = at[i].s.n;
		runs += at[i].s.n;
	}
	/* the base stands where the store factor was taken, else at the base runs' count */
	ref = in->store_factor.known ? in->store_factor.sessions : in->base_sessions;
	c->ref = nearest(at, n, ref,
			 in->store_factor.known ? "the store factor's" : "the base runs'",
			 c->ref_note, sizeof(c->ref_note));
	if (store[0] && in->store[0] && strcmp(store, in->store))
		snprintf(c->ref_note + strlen(c->ref_note),
			 sizeof(c->ref_note) - strlen(c->ref_note),
			 "%sthe runs are at store=%s, the target's %s: their curve stands for it",
			 c->ref_note[0] ? "; " : "", store, in->store);
	p->where = where;
	p->runs = runs;
	snprintf(p->statistic, sizeof(p->statistic),
		 "median %s at each session count / at %g sessions (store=%s, %s); between two "
		 "measured counts the lower median, beyond them the nearest end (flagged)",
		 res->metric, c->sessions[c->ref], store[0] ? store : "NA", c->instance);
	snprintf(p->host, sizeof(p->host), "%s", c->instance);
	for (size_t i = 0, used = 0; i < n && used < sizeof(p->levels); i++)
		used += (size_t)snprintf(p->levels + used, sizeof(p->levels) - used, "%s%g",
					 i ? ", " : "sessions ", c->sessions[i]);
	in->cpu_sessions_min = isnan(in->cpu_sessions_min)
				       ? c->sessions[0]
				       : fmin(in->cpu_sessions_min, c->sessions[0]);
	in->cpu_sessions_max = isnan(in->cpu_sessions_max)
				       ? c->sessions[n - 1]
				       : fmax(in->cpu_sessions_max, c->sessions[n - 1]);
done:
	selection_release(&sel);
	return rc;
}

int size_condition_factors(sqlite3 *db, const struct size_request *req, struct size_result *res)
{
	int rc = 0;
	if (req->store_from)
		rc = store_factor(db, req, res);
	if (rc == 0 && req->sessions_from)
		rc = sessions_curve(db, req, req->sessions_from, "--sessions-from", res);
	else if (rc == 0 && req->store_from)
		rc = sessions_curve(db, req, req->store_from, "--store-from", res);
	return rc;
}
