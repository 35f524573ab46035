/*
 * compare_run: what `coreplan compare` asks (compare.h): both arms
 * selected, the pooling check, the design (unpaired, --by levels,
 * --pair-by pairs) and benchstat's rows.
 */
#include "compare.h"

#include "../common/err.h"
#include "../common/strbuf.h"
#include "comparepy.h"
#include "pooling.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The fields the arm's own conditions name: a condition with several values
 * (--a gogc=100,400) pools them on purpose.
 */
static int pool_arm_fields(struct run_filter *f, size_t from)
{
	int rc = 0;
	for (size_t i = from; rc == 0 && i < f->nwhere; i++)
		if (f->where[i].nvalues > 1)
			rc = run_filter_add_pool(f, f->where[i].field);
	return rc;
}

/* The arm's filter: the common one and the arm's own conditions. */
static int arm_filter(const struct compare_request *req, int arm, struct run_filter *f)
{
	static const char *const option[2] = {"--a", "--b"};
	size_t from;
	int rc = run_filter_copy(f, req->filter);
	if (rc)
		return rc;
	from = f->nwhere;
	rc = run_filter_add_conditions(f, req->arm[arm], option[arm]);
	if (rc == 0)
		rc = pool_arm_fields(f, from);
	return rc;
}

/*
 * One arm selected (group: the --by split fields, or NULL); its values.
 * Unpaired, the pooling check: an arm whose runs differ in a field nobody
 * declared is refused.
 */
static int select_arm(sqlite3 *db, const struct compare_request *req, int arm,
		      const char *const *group, struct selection *sel, double **values)
{
	static const char *const name[2] = {"compare (arm a)", "compare (arm b)"};
	struct run_filter f;
	struct select_spec spec = {.metric = req->metric ? req->metric : "tput",
				   .by = req->by,
				   .block = req->pair_by,
				   .group = group};
	int rc = arm_filter(req, arm, &f);
	spec.filter = &f;
	if (rc == 0)
		rc = select_runs(db, &spec, sel);
	if (rc == 0 && sel->n == 0) {
		rc = select_no_runs(sel, &f);
		err_prefix("arm %s", arm ? "b" : "a");
	}
	if (rc == 0 && !req->by && !req->pair_by)
		rc = pooling_check(db, &spec, sel, name[arm], "--by (or --pair-by)");
	if (rc == 0 && !(*values = malloc((sel->n ? sel->n : 1) * sizeof(**values))))
		rc = err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < sel->n; i++)
		(*values)[i] = sel->runs[i].metric;
	run_filter_release(&f);
	return rc;
}

/*
 * --by: the fields that vary within a level of either arm (pooling.h with
 * the level as the declared group: what is constant within each level is
 * no pooling of it), added to *split (comma-separated) and to fields.
 */
static int split_fields(sqlite3 *db, const struct compare_request *req, struct strbuf *split,
			char ***fields, size_t *nfields)
{
	const char *const group[] = {req->by, NULL};
	int rc = 0;
	for (int arm = 0; rc == 0 && arm < 2; arm++) {
		struct run_filter f;
		struct selection sel;
		struct pooling p;
		struct select_spec spec = {.metric = req->metric ? req->metric : "tput",
					   .by = req->by,
					   .group = group};
		memset(&sel, 0, sizeof(sel));
		rc = arm_filter(req, arm, &f);
		spec.filter = &f;
		if (rc == 0)
			rc = select_runs(db, &spec, &sel);
		if (rc == 0 && sel.n > 0 && (rc = pooling_load(db, &spec, &sel, &p)) == 0) {
			for (size_t i = 0; rc == 0 && i < p.nfields; i++) {
				const struct pool_field *pf = &p.fields[i];
				bool have = false;
				if (pf->pooled || pf->follows)
					continue;
				for (size_t k = 0; k < *nfields && !have; k++)
					have = !strcmp((*fields)[k], pf->name);
				if (have)
					continue;
				strbuf_addf(split, "%s%s", split->len ? "," : "", pf->name);
				rc = run_filter_add_pool(&f, pf->name); /* a valid name: no error */
				if (rc == 0) {
					char **grown =
						realloc(*fields, (*nfields + 2) * sizeof(*grown));
					if (!grown || !(grown[*nfields] = strdup(pf->name)))
						rc = err_set("out of memory");
					if (grown) {
						*fields = grown;
						if (rc == 0)
							grown[++*nfields] = NULL;
					}
				}
			}
			pooling_release(&p);
		}
		selection_release(&sel);
		run_filter_release(&f);
	}
	return rc;
}

/* --by with split fields: each run's level becomes "LEVEL, f=v" (its group text). */
static int split_levels(struct selection *sel)
{
	for (size_t i = 0; i < sel->n; i++) {
		struct sel_run *r = &sel->runs[i];
		struct strbuf sb = STRBUF_INIT;
		if (!r->level_text || !r->group || !*r->group)
			continue;
		strbuf_addf(&sb, "%s, %s", r->level_text, r->group);
		if (!sb.buf)
			return err_set("out of memory");
		free(r->level_text);
		r->level_text = strbuf_detach(&sb);
		r->level_numeric = false;
	}
	return 0;
}
/* The --by or --pair-by value of a run (NULL: none). */
static const char *key_of(const struct compare_request *req, const struct sel_run *run)
{
	return req->by ? run->level_text : run->block;
}

/* A distinct key with its runs' counts in each arm. */
struct key {
	const char *text;
	size_t count[2];
	double number;  /* text as a number, when by_number */
	bool by_number; /* every key is a number: sort by value (the same in all keys) */
	size_t first;   /* order of first appearance (arm a's runs, then arm b's) */
};

static bool is_number(const char *s, double *v)
{
	char *end;
	if (!*s)
		return false;
	*v = strtod(s, &end);
	return *end == '\0' && isfinite(*v);
}

/* Numbers by value (first appearance among equals); any text: in order of first appearance. */
static int key_cmp(const void *x, const void *y)
{
	const struct key *a = x, *b = y;
	if (a->by_number && a->number != b->number)
		return a->number < b->number ? -1 : 1;
	return (a->first > b->first) - (a->first < b->first);
}

/* The distinct keys of both arms' runs (a run without one is left out), sorted. */
static int collect_keys(struct compare_result *out, const struct compare_request *req,
			const char *option, struct key **keys, size_t *nkeys)
{
	struct key *k = NULL;
	size_t n = 0, total = out->sel[0].n + out->sel[1].n;
	bool by_number = true;
	if (!(k = calloc(total ? total : 1, sizeof(*k))))
		return err_set("out of memory");
	for (int arm = 0; arm < 2; arm++)
		for (size_t i = 0; i < out->sel[arm].n; i++) {
			const char *text = key_of(req, &out->sel[arm].runs[i]);
			size_t j = 0;
			if (!text) {
				char reason[256];
				snprintf(reason, sizeof(reason), "no value for %s %s", option,
					 req->by ? req->by : req->pair_by);
				if (selection_leave_out(&out->sel[arm], out->sel[arm].runs[i].tag,
							reason) < 0) {
					free(k);
					return ERR_DATA;
				}
				continue;
			}
			while (j < n && strcmp(k[j].text, text))
				j++;
			if (j == n) {
				k[n].first = n;
				k[n++].text = text;
			}
			k[j].count[arm]++;
		}
	for (size_t j = 0; j < n; j++)
		if (!is_number(k[j].text, &k[j].number))
			by_number = false;
	for (size_t j = 0; j < n; j++)
		k[j].by_number = by_number;
	qsort(k, n, sizeof(*k), key_cmp);
	*keys = k;
	*nkeys = n;
	return 0;
}

/* Leave out every run of `arm` whose key is `text`. */
static int leave_out_key(struct compare_result *out, const struct compare_request *req, int arm,
			 const char *text, const char *reason)
{
	for (size_t i = 0; i < out->sel[arm].n; i++) {
		const char *k = key_of(req, &out->sel[arm].runs[i]);
		if (k && !strcmp(k, text) &&
		    selection_leave_out(&out->sel[arm], out->sel[arm].runs[i].tag, reason) < 0)
			return ERR_DATA;
	}
	return 0;
}

/* The used runs' values of one arm (with `text`: only those whose key is it). */
static int used_values(const struct compare_result *out, const struct compare_request *req, int arm,
		       const char *text, double **values, size_t *n)
{
	double *v = malloc((out->sel[arm].n ? out->sel[arm].n : 1) * sizeof(*v));
	size_t k = 0;
	if (!v)
		return err_set("out of memory");
	for (size_t i = 0; i < out->sel[arm].n; i++) {
		const char *key = key_of(req, &out->sel[arm].runs[i]);
		if (!out->used[arm][i] || (text && (!key || strcmp(key, text))))
			continue;
		v[k++] = out->values[arm][i];
	}
	*values = v;
	*n = k;
	return 0;
}

/* Mark the runs whose keys are accepted (accept[j] for keys[j]) as used. */
static void mark_used(struct compare_result *out, const struct compare_request *req,
		      const struct key *keys, size_t nkeys, const bool *accept)
{
	for (int arm = 0; arm < 2; arm++)
		for (size_t i = 0; i < out->sel[arm].n; i++) {
			const char *k = key_of(req, &out->sel[arm].runs[i]);
			out->used[arm][i] = false;
			for (size_t j = 0; k && j < nkeys; j++)
				if (accept[j] && !strcmp(keys[j].text, k))
					out->used[arm][i] = true;
		}
}

/* The unpaired comparison of the used runs; the scale it chose is the design's. */
static int compare_used(struct compare_result *out, const struct compare_request *req,
			struct compare_options *opts)
{
	double *a = NULL, *b = NULL;
	size_t na = 0, nb = 0;
	int rc = used_values(out, req, 0, NULL, &a, &na);
	if (rc == 0)
		rc = used_values(out, req, 1, NULL, &b, &nb);
	if (rc == 0)
		rc = compare_arms(a, na, b, nb, opts, &out->c);
	if (rc == 0)
		opts->v.scale = out->c.log_scale ? VERDICT_SCALE_LOG : VERDICT_SCALE_ABSOLUTE;
	free(a);
	free(b);
	return rc;
}

static int run_by(struct compare_result *out, const struct compare_request *req,
		  struct compare_options *opts)
{
	struct key *keys = NULL;
	bool *accept = NULL;
	const struct verdict **v = NULL;
	size_t nkeys = 0, nlevels = 0;
	char reason[256];
	int rc = collect_keys(out, req, "--by", &keys, &nkeys);
	if (rc == 0 && !(accept = calloc(nkeys ? nkeys : 1, sizeof(*accept))))
		rc = err_set("out of memory");
	for (size_t j = 0; rc == 0 && j < nkeys; j++) {
		int missing = keys[j].count[0] ? (keys[j].count[1] ? -1 : 1) : 0;
		if (missing < 0) {
			accept[j] = true;
			nlevels++;
			continue;
		}
		snprintf(reason, sizeof(reason), "no run of arm %s has %s=%s (--by)",
			 missing ? "b" : "a", req->by, keys[j].text);
		rc = leave_out_key(out, req, missing ? 0 : 1, keys[j].text, reason);
	}
	if (rc == 0 && nlevels == 0)
		rc = err_set("no value of --by %s has runs in both arms", req->by);
	if (rc == 0) {
		mark_used(out, req, keys, nkeys, accept);
		rc = compare_used(out, req, opts);
	}
	if (rc == 0 && (!(out->levels = calloc(nlevels, sizeof(*out->levels))) ||
			!(v = calloc(nlevels, sizeof(*v)))))
		rc = err_set("out of memory");
	for (size_t j = 0; rc == 0 && j < nkeys; j++) {
		struct compare_level *l;
		size_t na = 0, nb = 0;
		if (!accept[j])
			continue;
		l = &out->levels[out->nlevels++];
		if (!(l->level = strdup(keys[j].text)))
			rc = err_set("out of memory");
		if (rc == 0)
			rc = used_values(out, req, 0, keys[j].text, &l->a, &na);
		if (rc == 0)
			rc = used_values(out, req, 1, keys[j].text, &l->b, &nb);
		if (rc == 0)
			rc = compare_arms(l->a, na, l->b, nb, opts, &l->c);
		if (rc)
			err_prefix("--by %s=%s", req->by, keys[j].text);
		else
			v[out->nlevels - 1] = &l->c.v;
	}
	/* each level keeps its verdict: the summary counts them (verdict.h) */
	if (rc == 0)
		rc = verdict_tally(v, out->nlevels, &opts->v, &out->tally);
	free(v);
	free(keys);
	free(accept);
	return rc;
}
static int run_pairs(struct compare_result *out, const struct compare_request *req,
		     struct compare_options *opts)
{
	struct key *keys = NULL;
	bool *accept = NULL;
	size_t nkeys = 0, npairs = 0;
	char reason[256];
	int rc = collect_keys(out, req, "--pair-by", &keys, &nkeys);
	if (rc == 0 && !(accept = calloc(nkeys ? nkeys : 1, sizeof(*accept))))
		rc = err_set("out of memory");
	for (size_t j = 0; rc == 0 && j < nkeys; j++) {
		const struct key *k = &keys[j];
		if (k->count[0] == 1 && k->count[1] == 1) {
			accept[j] = true;
			npairs++;
			continue;
		}
		if (!k->count[0] || !k->count[1])
			snprintf(reason, sizeof(reason), "no run of arm %s has %s=%s to pair with",
				 k->count[0] ? "b" : "a", req->pair_by, k->text);
		else
			snprintf(reason, sizeof(reason),
				 "%s=%s has %zu runs in arm a and %zu in arm b: a pair needs one "
				 "run in each (narrow it with --where)",
				 req->pair_by, k->text, k->count[0], k->count[1]);
		for (int arm = 0; rc == 0 && arm < 2; arm++)
			rc = leave_out_key(out, req, arm, k->text, reason);
	}
	if (rc == 0 && npairs == 0) {
		size_t several = 0;
		for (size_t j = 0; j < nkeys; j++)
			several += keys[j].count[0] > 1 || keys[j].count[1] > 1;
		if (several)
			rc = err_set("no value of --pair-by %s has one run in each arm (%zu of %zu "
				     "have several runs in an arm: narrow them with --where, e.g. "
				     "--where block=...)",
				     req->pair_by, several, nkeys);
		else
			rc = err_set("no value of --pair-by %s has one run in each arm",
				     req->pair_by);
	}
	if (rc == 0) {
		mark_used(out, req, keys, nkeys, accept);
		rc = compare_used(out, req, opts);
	}
	if (rc == 0 && !(out->pairs = calloc(npairs, sizeof(*out->pairs))))
		rc = err_set("out of memory");
	for (size_t j = 0; rc == 0 && j < nkeys; j++) {
		struct compare_pair *p;
		if (!accept[j])
			continue;
		p = &out->pairs[out->npairs++];
		if (!(p->key = strdup(keys[j].text)))
			rc = err_set("out of memory");
		for (int arm = 0; rc == 0 && arm < 2; arm++)
			for (size_t i = 0; i < out->sel[arm].n; i++) {
				const struct sel_run *run = &out->sel[arm].runs[i];
				const char *k = key_of(req, run);
				if (!k || strcmp(k, keys[j].text))
					continue;
				*(arm ? &p->tag_b : &p->tag_a) = run->tag;
				*(arm ? &p->b : &p->a) = out->values[arm][i];
			}
	}
	if (rc == 0)
		rc = compare_pairs(out->pairs, out->npairs, out->c.log_scale, opts, &out->paired);
	free(keys);
	free(accept);
	return rc;
}

static double mean_of(const double *x, size_t n)
{
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += x[i];
	return n ? sum / (double)n : NAN;
}

/* compare.py's rows (compare.h): the same rows as benchstat's. */
static int comparepy_rows(struct compare_result *out)
{
	int rc = 0;
	if (out->nbenchstat == 0)
		return 0;
	if (!(out->comparepy = calloc(out->nbenchstat, sizeof(*out->comparepy))))
		return err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < out->nbenchstat; i++) {
		struct compare_comparepy *c = &out->comparepy[i];
		const double *v[2] = {out->values[0], out->values[1]};
		size_t n[2] = {out->sel[0].n, out->sel[1].n};
		if (out->design == COMPARE_BY) {
			v[0] = out->levels[i].a, v[1] = out->levels[i].b;
			n[0] = out->levels[i].c.a.n, n[1] = out->levels[i].c.b.n;
		}
		for (int a = 0; a < 2; a++) {
			c->mean[a] = mean_of(v[a], n[a]);
			c->n[a] = n[a];
		}
		c->change = comparepy_change(c->mean[0], c->mean[1]);
		c->utest = n[0] >= COMPAREPY_UTEST_MIN && n[1] >= COMPAREPY_UTEST_MIN;
		c->optimal = n[0] >= COMPAREPY_UTEST_OPTIMAL && n[1] >= COMPAREPY_UTEST_OPTIMAL;
		if (c->utest)
			rc = benchstat_utest_scipy(v[0], n[0], v[1], n[1], &c->test);
		if (rc == 0)
			out->ncomparepy++;
	}
	return rc;
}

/* benchstat's rows (compare.h): per level of --by, else of the unpaired arms. */
static int benchstat_rows(struct compare_result *out)
{
	size_t n = out->design == COMPARE_BY ? out->nlevels : out->design == COMPARE_UNPAIRED;
	int rc = 0;
	if (n == 0)
		return 0;
	out->benchstat = calloc(n, sizeof(*out->benchstat));
	if (!out->benchstat)
		return err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < n; i++) {
		if (out->design == COMPARE_BY)
			rc = benchstat_compare(out->levels[i].a, out->levels[i].c.a.n,
					       out->levels[i].b, out->levels[i].c.b.n,
					       &out->benchstat[i]);
		else
			rc = benchstat_compare(out->values[0], out->sel[0].n, out->values[1],
					       out->sel[1].n, &out->benchstat[i]);
		if (rc == 0)
			out->nbenchstat++;
	}
	return rc;
}

/* The metric's kind and direction: field_metric_meaning, the request's direction winning. */
static void metric_meaning(const struct compare_request *req, struct compare_result *out,
			   struct compare_options *opts)
{
	field_metric_meaning(req->metric ? req->metric : "tput", NULL, req->direction < 0,
			     &out->metric);
	if (req->direction > 0) {
		out->metric.lower_is_better = false;
		out->metric.direction_assumed = false;
		out->metric.direction_from = "--higher-is-better";
	}
	opts->v.kind = out->metric.kind;
	opts->v.lower_is_better = out->metric.lower_is_better;
}

/* Both arms selected (with --by, split by what varies within a level). */
static int select_arms(sqlite3 *db, const struct compare_request *req, struct compare_result *out)
{
	struct strbuf split = STRBUF_INIT;
	char **fields = NULL;
	size_t nfields = 0;
	int rc = req->by ? split_fields(db, req, &split, &fields, &nfields) : 0;
	for (int arm = 0; rc == 0 && arm < 2; arm++) {
		rc = select_arm(db, req, arm, nfields ? (const char *const *)fields : NULL,
				&out->sel[arm], &out->values[arm]);
		if (rc == 0 && nfields)
			rc = split_levels(&out->sel[arm]);
		if (rc == 0 && !(out->used[arm] = calloc(out->sel[arm].n, sizeof(bool))))
			rc = err_set("out of memory");
		for (size_t i = 0; rc == 0 && i < out->sel[arm].n; i++)
			out->used[arm][i] = true;
	}
	if (rc == 0 && split.len)
		out->split = strbuf_detach(&split);
	strbuf_release(&split);
	for (size_t k = 0; k < nfields; k++)
		free(fields[k]);
	free(fields);
	return rc;
}

int compare_run(sqlite3 *db, const struct compare_request *req, struct compare_result *out)
{
	struct compare_options opts = req->opts;
	int rc;
	memset(out, 0, sizeof(*out));
	metric_meaning(req, out, &opts);
	if (req->by && req->pair_by)
		return err_set("--by and --pair-by cannot be combined");
	if ((rc = select_arms(db, req, out)) != 0)
		return rc;
	if (req->by) {
		out->design = COMPARE_BY;
		rc = run_by(out, req, &opts);
		out->headline = NULL;
		out->verdict = out->tally.text;
	} else if (req->pair_by) {
		out->design = COMPARE_PAIRED;
		rc = run_pairs(out, req, &opts);
		out->headline = &out->paired;
	} else {
		out->design = COMPARE_UNPAIRED;
		rc = compare_arms(out->values[0], out->sel[0].n, out->values[1], out->sel[1].n,
				  &opts, &out->c);
		out->headline = &out->c.v;
	}
	if (out->headline)
		out->verdict = out->headline->word;
	if (rc == 0)
		rc = benchstat_rows(out);
	if (rc == 0)
		rc = comparepy_rows(out);
	return rc;
}

void compare_result_release(struct compare_result *r)
{
	for (int arm = 0; arm < 2; arm++) {
		selection_release(&r->sel[arm]);
		free(r->values[arm]);
		free(r->used[arm]);
	}
	for (size_t i = 0; i < r->nlevels; i++) {
		free(r->levels[i].level);
		free(r->levels[i].a);
		free(r->levels[i].b);
	}
	free(r->levels);
	free(r->split);
	for (size_t i = 0; i < r->npairs; i++)
		free(r->pairs[i].key);
	free(r->pairs);
	free(r->benchstat);
	free(r->comparepy);
	memset(r, 0, sizeof(*r));
}
