/* size: see size.h. */
#include "size.h"

#include "../common/err.h"
#include "../common/num.h"
#include "../common/strbuf.h"
#include "fit.h"
#include "hosts.h"
#include "pooling.h"
#include "select.h"
#include "smt.h"
#include "translate.h"
#include "window.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define KB_PER_GIB (1024.0 * 1024.0)

static double scale(double cores, double per_doubling)
{
	return cores >= 1.0 ? pow(per_doubling, log2(cores)) : cores;
}

static const struct size_translation *find_translation(const struct size_inputs *in,
							const char *family)
{
	for (size_t i = 0; i < in->ntranslations; i++)
		if (!strcmp(in->translations[i].family, family))
			return &in->translations[i];
	return NULL;
}

static void predict(const struct size_inputs *in, struct size_row *row)
{
	const struct instance *inst = row->inst;
	double keep = 1.0 - in->headroom_pct / 100.0;
	double smt = inst->threads_per_core == 2 ? in->smt.value : 1.0;
	double smt_lo = inst->threads_per_core == 2 ? in->smt.lo : 1.0;
	double smt_hi = inst->threads_per_core == 2 ? in->smt.hi : 1.0;
	double base = in->base.value, base_lo = in->base.lo, base_hi = in->base.hi;
	double p = inst->sustained_cores;
	if (strcmp(inst->cpu_family, in->base_family)) {
		const struct size_translation *t = find_translation(in, inst->cpu_family);
		if (!t)
			return; /* unmeasured CPU */
		row->translated = true;
		row->translation_factor = t->factor;
		row->translation = t;
		base /= t->factor;
		base_lo /= t->measured ? t->hi : t->factor;
		base_hi /= t->measured ? t->lo : t->factor;
	}
	row->predicted_ok = true;
	row->predicted = base * scale(p, in->per_doubling.value) * smt * keep;
	row->predicted_lo = base_lo * scale(p, p >= 1 ? in->per_doubling.lo : 1) * smt_lo * keep;
	row->predicted_hi = base_hi * scale(p, p >= 1 ? in->per_doubling.hi : 1) * smt_hi * keep;
	row->shared_core = inst->sustained_vcpu_fraction < 1.0;
	if (row->shared_core)
		row->burst = base * scale(inst->physical_cores, in->per_doubling.value) * smt;
	row->extrapolated = in->max_measured_cores > 0 && p > in->max_measured_cores;
}

const char *size_verdict(double lower, double central, double target)
{
	if (lower >= target)
		return "meets";
	return central >= target ? "marginal" : "short";
}

static bool memory_bound(const struct size_row *row)
{
	return !isnan(row->memory_needed_gib) && row->memory_needed_gib > row->inst->memory_gib;
}

static void judge(const struct size_inputs *in, struct size_row *row)
{
	row->shortfall = row->cost_per_1k = NAN;
	row->basis = "predicted";
	if (!row->predicted_ok) {
		row->verdict = "unmeasured CPU";
		return;
	}
	row->shortfall = in->target / row->predicted;
	row->cost_per_1k = row->predicted > 0 ? row->inst->price_per_hour * 1000.0 / row->predicted
					      : NAN;
	if (memory_bound(row))
		row->verdict = "memory-bound";
	else
		row->verdict = size_verdict(row->predicted_lo, row->predicted, in->target);
}

/* The memory parts at the largest session count (NaN without the app's inputs). */
static void memory(const struct size_inputs *in, struct size_row *row)
{
	row->memory_needed_gib = row->memory_app_gib = NAN;
	row->memory_colocated_gib = row->memory_os_gib = NAN;
	if (!in->has_sessions || !in->mem_per_session_kb.known || !in->mem_fixed_kb.known)
		return;
	row->memory_app_gib =
		(in->mem_fixed_kb.value + in->mem_per_session_kb.value * in->sessions) / KB_PER_GIB;
	row->memory_colocated_gib =
		in->colocated_kb.known ? in->colocated_kb.value / KB_PER_GIB : 0.0;
	row->memory_os_gib = in->os_reserve_mib / 1024.0;
	row->memory_needed_gib =
		row->memory_app_gib + row->memory_colocated_gib + row->memory_os_gib;
}

/* The cheapest row whose verdict is meets gets the mark (the first at equal prices). */
static void mark_cheapest(struct size_row *rows, size_t n)
{
	size_t cheapest = SIZE_MAX;
	for (size_t i = 0; i < n; i++) {
		rows[i].cheapest = false;
		if (!strcmp(rows[i].verdict, "meets") &&
		    (cheapest == SIZE_MAX ||
		     rows[i].inst->price_per_hour < rows[cheapest].inst->price_per_hour))
			cheapest = i;
	}
	if (cheapest != SIZE_MAX)
		rows[cheapest].cheapest = true;
}

int size_compute(const struct catalog *cat, const struct size_inputs *in, struct size_row **rows)
{
	struct size_row *out;
	*rows = NULL;
	if (!in->base.known || !(in->base.value > 0))
		return err_usage("no base rate: give --base-from WHERE or --base-rate R --base-cpu "
				 "FAMILY");
	if (!in->per_doubling.known)
		return err_usage("no scaling across cores: give --scaling-from WHERE or "
				 "--per-doubling F");
	if (!(in->target > 0))
		return err_usage("--target must be a rate above 0");
	out = calloc(cat->n ? cat->n : 1, sizeof(*out));
	if (!out)
		return err_set("out of memory");
	for (size_t i = 0; i < cat->n; i++) {
		struct size_row *row = &out[i];
		row->inst = &cat->items[i];
		row->burst = row->predicted = row->predicted_lo = row->predicted_hi = NAN;
		row->translation_factor = NAN;
		row->worst = SIZE_MAX;
		memory(in, row);
		predict(in, row);
		judge(in, row);
	}
	mark_cheapest(out, cat->n);
	*rows = out;
	return 0;
}

/* ---- measured beside predicted ---- */

static int verdict_rank(const char *verdict)
{
	if (!strcmp(verdict, "meets"))
		return 2;
	return !strcmp(verdict, "marginal") ? 1 : 0;
}

/* Is cell a worse than cell b (a less favourable verdict, then a lower median)? */
static bool worse(const struct size_cell *a, const struct size_cell *b)
{
	int ra = verdict_rank(a->verdict), rb = verdict_rank(b->verdict);
	return ra != rb ? ra < rb : a->s.median < b->s.median;
}

static void judge_cell(const struct size_inputs *in, const struct size_row *row,
		       struct size_cell *c)
{
	c->shortfall = c->check_ratio = NAN;
	c->check = NULL;
	c->verdict = NULL;
	c->worst = false;
	if (c->n == 0)
		return;
	c->shortfall = c->s.median > 0 ? in->target / c->s.median : NAN;
	c->verdict = size_verdict(c->s.min, c->s.median, in->target);
	if (!row->predicted_ok)
		return;
	if (c->s.median < row->predicted_lo) {
		c->check = "below";
		c->check_ratio = c->s.median / row->predicted_lo;
	} else if (c->s.median > row->predicted_hi) {
		c->check = "above";
		c->check_ratio = c->s.median / row->predicted_hi;
	} else {
		c->check = "within";
	}
}

int size_judge(const struct size_inputs *in, struct size_row *rows, size_t nrows,
	       struct size_cell *cells, size_t ncells)
{
	for (size_t i = 0; i < nrows; i++) {
		rows[i].first_cell = rows[i].ncells = 0;
		rows[i].worst = SIZE_MAX;
		rows[i].measured_below = rows[i].measured_above = false;
	}
	for (size_t i = 0; i < ncells; i++) {
		struct size_cell *c = &cells[i];
		struct size_row *r;
		if (c->row >= nrows)
			return err_set("a measured cell names row %zu of %zu", c->row, nrows);
		r = &rows[c->row];
		if (r->ncells > 0 && cells[i - 1].row != c->row)
			return err_set("the measured cells of '%s' are not together",
				       r->inst->instance);
		if (r->ncells++ == 0)
			r->first_cell = i;
		judge_cell(in, r, c);
		if (!c->verdict || !c->at_target)
			continue;
		r->measured_below |= c->check && !strcmp(c->check, "below");
		r->measured_above |= c->check && !strcmp(c->check, "above");
		if (r->worst == SIZE_MAX || worse(c, &cells[r->worst]))
			r->worst = i;
	}
	for (size_t i = 0; i < nrows; i++) {
		struct size_row *r = &rows[i];
		if (r->worst == SIZE_MAX)
			continue;
		cells[r->worst].worst = true;
		if (memory_bound(r)) {
			r->verdict = "memory-bound";
			r->basis = "predicted";
		} else {
			r->verdict = cells[r->worst].verdict;
			r->basis = "measured";
		}
	}
	mark_cheapest(rows, nrows);
	return 0;
}

/* ---- --sessions ---- */

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static int session_count(const char *text, size_t len, const char *whole, double *out)
{
	char buf[64];
	int64_t n;
	if (len == 0 || len >= sizeof(buf))
		return err_usage("--sessions needs N, N1,N2 or LO-HI, got '%s'", whole);
	memcpy(buf, text, len);
	buf[len] = '\0';
	/* a count of sessions is whole: 1.5 sessions is not a request */
	if (num_parse_int(buf, &n) || n < 1 || n > SIZE_MAX_SESSION_COUNT)
		return err_usage("--sessions needs whole session counts from 1 to %d (N, N1,N2 or "
				 "LO-HI), got '%s'",
				 SIZE_MAX_SESSION_COUNT, whole);
	*out = (double)n;
	return 0;
}

int size_sessions_parse(const char *text, struct size_sessions *out)
{
	const char *dash = strchr(text, '-');
	size_t used = 0;
	char num[32];
	memset(out, 0, sizeof(*out));
	if (text[0] == '-') /* "-3": a negative count, not a range */
		return session_count(text, strlen(text), text, &out->counts[0]);
	if (dash && !strchr(text, ',')) {
		double lo, hi;
		if (session_count(text, (size_t)(dash - text), text, &lo) ||
		    session_count(dash + 1, strlen(dash + 1), text, &hi))
			return ERR_USAGE;
		if (!(lo < hi))
			return err_usage("--sessions LO-HI needs LO below HI, got '%s'", text);
		out->range = true;
		out->counts[0] = lo;
		out->counts[1] = hi;
		out->n = 2;
	} else {
		const char *p = text;
		for (;;) {
			size_t len = strcspn(p, ",");
			if (out->n == SIZE_MAX_SESSIONS)
				return err_usage("--sessions lists more than %d counts",
						 SIZE_MAX_SESSIONS);
			if (session_count(p, len, text, &out->counts[out->n]))
				return ERR_USAGE;
			out->n++;
			if (!p[len])
				break;
			p += len + 1;
		}
		qsort(out->counts, out->n, sizeof(double), cmp_double);
		for (size_t i = 1; i < out->n; i++)
			if (out->counts[i] == out->counts[i - 1])
				return err_usage("--sessions lists %s twice",
						 num_format_real(out->counts[i], num));
	}
	out->given = true;
	out->largest = out->counts[out->n - 1];
	for (size_t i = 0; i < out->n; i++)
		used += (size_t)snprintf(out->text + used, sizeof(out->text) - used, "%s%s",
					 i == 0       ? ""
					 : out->range ? "-"
						      : ", ",
					 num_format_real(out->counts[i], num));
	return 0;
}

bool size_sessions_has(const struct size_sessions *s, double sessions)
{
	if (!s->given)
		return false;
	if (s->range)
		return sessions >= s->counts[0] && sessions <= s->counts[1];
	for (size_t i = 0; i < s->n; i++)
		if (s->counts[i] == sessions)
			return true;
	return false;
}

/* ---- the inputs from the database ---- */

/* The request's common filter plus the input's own conditions. */
static int input_filter(const struct size_request *req, const char *where, const char *option,
			struct run_filter *f)
{
	int rc = 0;
	memset(f, 0, sizeof(*f));
	if (req->filter)
		rc = run_filter_copy(f, req->filter);
	if (rc == 0)
		rc = run_filter_add_conditions(f, where, option);
	return rc;
}

/* The runs an input WHERE selects (non-excluded unless the filter keeps them). */
static int select_where(sqlite3 *db, const struct size_request *req, const char *where,
			const char *option, const char *by, const char *metric,
			const char *const *extra, struct selection *sel)
{
	struct run_filter f;
	int rc = input_filter(req, where, option, &f);
	if (rc == 0) {
		struct select_spec spec = {.filter = &f, .by = by, .metric = metric, .extra = extra};
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
	"README.md, \"Corpus layouts and manifests\")"

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

static int base_from_db(sqlite3 *db, const struct size_request *req, struct size_result *res)
{
	static const char *const extra[] = {"cpu_family", NULL};
	struct size_inputs *in = &res->in;
	struct selection sel = {0};
	struct summary s;
	double *v = NULL;
	int rc = select_where(db, req, req->base_from, "--base-from", NULL, res->metric, extra,
			      &sel);
	const char *family = rc == 0 ? sel.runs[0].extra[0] : NULL;
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
	qsort(out, n, sizeof(double), cmp_double);
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
	static const char *const extra[] = {"topology_host", NULL};
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
		struct strbuf sb = STRBUF_INIT;
		in->per_doubling = (struct size_value){true, d, d - 1.96 * se, d + 1.96 * se, ""};
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
			 "bounds +-1.96 SE",
			 res->metric, by);
	}
	fit_release(&fit);
	free(level);
	free(x);
	free(uniq);
	free(kept);
	selection_release(&sel);
	return rc;
}

static int smt_from_db(sqlite3 *db, const struct size_request *req, struct size_result *res)
{
	static const char *const extra[] = {"topology_host", NULL};
	struct size_inputs *in = &res->in;
	struct size_provenance *p = &res->smt_prov;
	struct selection sel = {0};
	struct run_host host = {0};
	struct smt_result m;
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
	rc = input_filter(req, req->smt_from, "--smt-from", &f);
	if (rc == 0) {
		struct smt_request q = {&f, res->metric, NULL, NULL, NULL, NULL};
		rc = smt_measure(db, &q, &m);
	}
	run_filter_release(&f);
	if (rc)
		return rc;
	for (size_t i = 0; i < m.figs.n; i++) {
		const struct smt_figure *x = &m.figs.figures[i];
		if (strcmp(x->name, "smt_factor") || !x->measured)
			continue;
		in->smt = (struct size_value){true, x->value, x->lo, x->hi, ""};
		snprintf(in->smt.source, sizeof(in->smt.source),
			 "smt_factor of coreplan smt on %s (host %s): %s / %s", req->smt_from,
			 m.host, x->num.label, x->den.label);
		p->where = req->smt_from;
		p->runs = m.sel.n;
		snprintf(p->statistic, sizeof(p->statistic),
			 "smt_factor: median %s of %s / median of %s; bounds min/max and max/min",
			 res->metric, x->num.label, x->den.label);
		snprintf(p->host, sizeof(p->host), "%s", m.host);
	}
	smt_result_release(&m);
	return in->smt.known ? 0 : err_set("the runs of --smt-from give no smt_factor");
}

/* What a memory run's trace says about PostgreSQL. */
enum pg_state { PG_NO_TRACE, PG_NO_COLUMN, PG_NOT_RUNNING, PG_NO_PLATEAU, PG_MEASURED };

/*
 * The median pg_rss_kb over the run's loaded plateau (window.h's rule on its
 * sample trace): PG_MEASURED with *median, or why not.
 */
static int pg_plateau(sqlite3 *db, int64_t run_id, enum pg_state *state, double *median)
{
	struct trace_series t = {0};
	struct window_options opts;
	struct window w;
	sqlite3_stmt *stmt = NULL;
	double *v = NULL;
	size_t n = 0;
	int rc, step;
	*state = PG_NO_TRACE;
	*median = NAN;
	rc = trace_series_load(db, run_id, "sample", &t);
	if (rc == 1) {
		rc = 0;
		goto done;
	}
	if (rc)
		goto done;
	window_options_init(&opts);
	opts.keep_ramp = true; /* system.tsv's window, as the sizing inputs were defined */
	if (window_select(&t, &opts, &w) != 0) {
		err_clear();
		*state = PG_NO_PLATEAU;
		goto done;
	}
	if (sqlite3_prepare_v2(
		    db,
		    "SELECT s.pg_rss_kb FROM traces t JOIN trace_samples s USING (trace_id)"
		    " WHERE t.run_id = ?1 AND t.kind = 'sample' AND s.row_no BETWEEN ?2 AND"
		    " ?3 AND s.pg_rss_kb IS NOT NULL ORDER BY s.row_no",
		    -1, &stmt, NULL) != SQLITE_OK) {
		rc = err_set("cannot read a trace's pg_rss_kb: %s", sqlite3_errmsg(db));
		goto done;
	}
	sqlite3_bind_int64(stmt, 1, run_id);
	sqlite3_bind_int64(stmt, 2, t.rows[w.lo].row_no);
	sqlite3_bind_int64(stmt, 3, t.rows[w.hi].row_no);
	if (!(v = malloc(w.rows * sizeof(double)))) {
		rc = err_set("out of memory");
		goto done;
	}
	while ((step = sqlite3_step(stmt)) == SQLITE_ROW && n < w.rows)
		v[n++] = sqlite3_column_double(stmt, 0);
	if (step != SQLITE_ROW && step != SQLITE_DONE) {
		rc = err_set("cannot read a trace's pg_rss_kb: %s", sqlite3_errmsg(db));
		goto done;
	}
	*state = PG_NO_COLUMN;
	if (n == 0)
		goto done;
	rc = stats_median(v, n, median);
	if (rc == 0)
		*state = *median > 0 ? PG_MEASURED : PG_NOT_RUNNING;
done:
	sqlite3_finalize(stmt);
	free(v);
	trace_series_release(&t);
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
	int rc = select_where(db, req, req->memory_from, "--memory-from", "sessions",
			      "load_rss_kb", NULL, &sel);
	if (rc == 0 &&
	    (!(x = malloc(sel.n * sizeof(double))) || !(y = malloc(sel.n * sizeof(double))) ||
	     !(uniq = malloc(sel.n * sizeof(double)))))
		rc = err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < sel.n; i++) {
		x[i] = sel.runs[i].level;
		y[i] = sel.runs[i].metric;
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

static int gather_inputs(sqlite3 *db, const struct size_request *req, struct size_result *res)
{
	struct size_inputs *in = &res->in;
	struct size_provenance none = {.se = NAN};
	int rc = 0;
	res->base_prov = res->per_doubling_prov = res->smt_prov = res->memory_prov = none;
	res->colocated_prov = none;
	in->target = req->target;
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
	if (rc == 0 && req->has_smt)
		given(&in->smt, &res->smt_prov, req->smt_factor, "SMT factor");
	else if (rc == 0 && req->smt_from)
		rc = smt_from_db(db, req, res);
	if (rc == 0 && !in->smt.known) {
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

/*
 * Series, --base-cpu and the translations' families against every catalog
 * instance (all): the resolved translations go to res (owned).
 */
static int validate(const struct size_request *req, const struct catalog *all,
		    struct size_result *res)
{
	struct catalog_family *f = NULL;
	size_t nf = 0;
	int rc = catalog_families(all, &f, &nf);
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
		const char *family = family_of(all, req->translations[i].family);
		if (!family) {
			rc = unknown_name(f, nf, false, "--translate", req->translations[i].family);
			break;
		}
		for (size_t j = 0; j < i && rc == 0; j++)
			if (!strcmp(res->translations[j].family, family))
				rc = err_usage("--translate names family '%s' twice", family);
		res->translations[i] = req->translations[i];
		snprintf(res->translations[i].family, sizeof(res->translations[i].family), "%s",
			 family);
	}
	catalog_families_free(f, nf);
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
			snprintf(t->source, sizeof(t->source), "given: %s rates = base / %g", t->family,
				 t->factor);
			continue;
		}
		rc = translate_rate_factor(db, req->filter, t->from, t->to, req->metric, 1, &rate);
		if (rc) {
			err_prefix("--translate %s=from:%s,to:%s", t->family, t->from, t->to);
			return rc;
		}
		if (!f->measured || !f->has_ci)
			return err_set("--translate %s=from:%s,to:%s: no rate factor (%s)", t->family,
				       t->from, t->to, f->words);
		if (strcmp(rate.to_name, t->family))
			return err_usage("--translate %s=from:%s,to:%s: the to-runs are on '%s', not "
					 "'%s'",
					 t->family, t->from, t->to, rate.to_name, t->family);
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

/* ---- the measured runs of each instance ---- */

/* Does any imported run have an `instance` field? (No: nothing is measured.) */
static bool runs_name_instances(sqlite3 *db)
{
	if (field_check(db, "instance") == 0)
		return true;
	err_clear();
	return false;
}

/* The common filter, the instances named, --measured-where, and session counts (a list). */
static int measured_filter(const struct size_request *req, const char *const *instances,
			   size_t ninstances, const double *sessions, size_t nsessions,
			   struct run_filter *f)
{
	char text[SIZE_MAX_SESSIONS][32];
	const char *values[SIZE_MAX_SESSIONS];
	int rc = 0;
	memset(f, 0, sizeof(*f));
	if (req->filter)
		rc = run_filter_copy(f, req->filter);
	if (rc == 0)
		rc = run_filter_add(f, "instance", instances, ninstances);
	for (size_t i = 0; i < nsessions && i < SIZE_MAX_SESSIONS; i++) {
		num_format_real(sessions[i], text[i]);
		values[i] = text[i];
	}
	if (rc == 0 && nsessions > 0)
		rc = run_filter_add(f, "sessions", values,
				    nsessions < SIZE_MAX_SESSIONS ? nsessions : SIZE_MAX_SESSIONS);
	if (rc == 0 && req->measured_where)
		rc = run_filter_add_conditions(f, req->measured_where, "--measured-where");
	return rc;
}

struct cell_run {
	double sessions;
	char *group;
	double metric;
};

static int cmp_cell_run(const void *a, const void *b)
{
	const struct cell_run *x = a, *y = b;
	if (x->sessions != y->sessions)
		return x->sessions < y->sessions ? -1 : 1;
	return strcmp(x->group, y->group);
}

static int push_cell(struct size_result *res, size_t *alloc, const struct size_cell *c)
{
	if (res->ncells == *alloc) {
		size_t want = *alloc ? 2 * *alloc : 16;
		struct size_cell *grown = realloc(res->cells, want * sizeof(*grown));
		if (!grown)
			return err_set("out of memory");
		res->cells = grown;
		*alloc = want;
	}
	res->cells[res->ncells++] = *c;
	return 0;
}

/* Is `block` one of the block kinds pooling found (a block at only some session counts)? */
static bool kind_block(const struct pooling *pool, const char *block)
{
	for (size_t i = 0; i < pool->nkinds; i++)
		if (!strcmp(pool->kinds[i].block, block ? block : "NA"))
			return true;
	return false;
}

/* "cfg=pg, block=soak": the run's values of the split fields (extra[0..nsplit)) and its kind. */
static char *group_label(const struct sel_run *r, char *const *split, size_t nsplit,
			 const struct pooling *pool)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t k = 0; k < nsplit; k++)
		strbuf_addf(&sb, "%s%s=%s", k ? ", " : "", split[k],
			    r->extra[k] ? r->extra[k] : "NA");
	if (kind_block(pool, r->block))
		strbuf_addf(&sb, "%s%s=%s", nsplit ? ", " : "", pool->block_field,
			    r->block ? r->block : "NA");
	return sb.buf ? strbuf_detach(&sb) : strdup("");
}

/*
 * The cells of one instance (row): its runs at the session counts asked
 * for, split as pooling.h would over all its runs (every session count,
 * so a soak or fsync block at one count is its own arm): by the fields
 * that vary among them and by block kind.
 */
static int instance_cells(sqlite3 *db, const struct size_request *req, struct size_result *res,
			  size_t row, size_t *alloc)
{
	const char *name = res->cat.items[row].instance;
	struct selection sel = {0}, split_sel = {0};
	struct pooling pool = {0};
	struct run_filter f;
	struct cell_run *runs = NULL;
	char **split = NULL;
	size_t nsplit = 0, nruns = 0;
	const struct selection *from = &sel;
	int rc = measured_filter(req, &name, 1, NULL, 0, &f);
	struct select_spec spec = {
		.filter = &f, .by = "sessions", .metric = res->metric, .block = "block"};
	if (rc == 0)
		rc = select_runs(db, &spec, &sel);
	if (rc == 0 && sel.n > 1)
		rc = pooling_load(db, &spec, &sel, &pool);
	if (rc == 0 && pool.nfields && !(split = calloc(pool.nfields + 1, sizeof(char *))))
		rc = err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < pool.nfields; i++)
		if (!pool.fields[i].follows && !pool.fields[i].pooled)
			split[nsplit++] = pool.fields[i].name;
	if (rc == 0 && nsplit) {
		spec.extra = (const char *const *)split;
		rc = select_runs(db, &spec, &split_sel);
		from = &split_sel;
	}
	if (rc == 0 && from->n && !(runs = calloc(from->n, sizeof(*runs))))
		rc = err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < from->n; i++) {
		const struct sel_run *r = &from->runs[i];
		if (!r->level_numeric ||
		    (res->sessions.given && !size_sessions_has(&res->sessions, r->level)))
			continue;
		runs[nruns].sessions = r->level;
		runs[nruns].metric = r->metric;
		if (!(runs[nruns++].group = group_label(r, split, nsplit, &pool)))
			rc = err_set("out of memory");
	}
	if (rc == 0)
		qsort(runs, nruns, sizeof(*runs), cmp_cell_run);
	for (size_t i = 0, j; rc == 0 && i < nruns; i = j) {
		struct size_cell c = {.row = row, .sessions = runs[i].sessions};
		double *v;
		for (j = i; j < nruns && !cmp_cell_run(&runs[i], &runs[j]); j++)
			;
		if (!(v = malloc((j - i) * sizeof(double)))) {
			rc = err_set("out of memory");
			break;
		}
		for (size_t k = i; k < j; k++)
			v[k - i] = runs[k].metric;
		c.n = j - i;
		c.at_target = size_sessions_has(&res->sessions, c.sessions);
		rc = stats_summary_abs(v, c.n, &c.s);
		free(v);
		if (rc == 0 && !(c.group = strdup(runs[i].group)))
			rc = err_set("out of memory");
		if (rc == 0 && (rc = push_cell(res, alloc, &c)) != 0)
			free(c.group);
	}
	/* a listed session count this instance has no run at */
	for (size_t k = 0; rc == 0 && nruns && !res->sessions.range && k < res->sessions.n; k++) {
		bool found = false;
		struct size_cell c = {
			.row = row, .sessions = res->sessions.counts[k], .at_target = true};
		for (size_t i = 0; i < nruns && !found; i++)
			found = runs[i].sessions == c.sessions;
		if (found)
			continue;
		if (!(c.group = strdup("")))
			rc = err_set("out of memory");
		if (rc == 0 && (rc = push_cell(res, alloc, &c)) != 0)
			free(c.group);
	}
	for (size_t i = 0; runs && i < nruns; i++)
		free(runs[i].group);
	free(runs);
	free(split);
	pooling_release(&pool);
	selection_release(&split_sel);
	selection_release(&sel);
	run_filter_release(&f);
	return rc;
}

static int cmp_cell(const void *a, const void *b)
{
	const struct size_cell *x = a, *y = b;
	if (x->row != y->row)
		return x->row < y->row ? -1 : 1;
	if (x->sessions != y->sessions)
		return x->sessions < y->sessions ? -1 : 1;
	return strcmp(x->group, y->group);
}

/* Every catalog instance's measured cells (none when no run names an instance). */
static int read_cells(sqlite3 *db, const struct size_request *req, struct size_result *res)
{
	static const char *const extra[] = {"instance", NULL};
	const struct size_sessions *s = &res->sessions;
	const char **names = NULL;
	struct selection sel = {0};
	struct run_filter f = {0};
	bool *has = NULL;
	size_t alloc = 0;
	int rc = 0;
	if (res->cat.n == 0 || !runs_name_instances(db))
		return 0;
	if (!(names = malloc(res->cat.n * sizeof(char *))) ||
	    !(has = calloc(res->cat.n, sizeof(bool))))
		rc = err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < res->cat.n; i++)
		names[i] = res->cat.items[i].instance;
	if (rc == 0)
		rc = measured_filter(req, names, res->cat.n, s->range ? NULL : s->counts,
				     s->range ? 0 : s->n, &f);
	if (rc == 0) {
		struct select_spec spec = {
			.filter = &f, .by = "sessions", .metric = res->metric, .extra = extra};
		rc = select_runs(db, &spec, &sel);
	}
	for (size_t i = 0; rc == 0 && i < sel.n; i++) {
		const struct sel_run *r = &sel.runs[i];
		if (!r->extra[0] || !r->level_numeric ||
		    (s->given && !size_sessions_has(s, r->level)))
			continue;
		for (size_t k = 0; k < res->cat.n; k++)
			if (!strcmp(res->cat.items[k].instance, r->extra[0]))
				has[k] = true;
	}
	for (size_t k = 0; rc == 0 && k < res->cat.n; k++)
		if (has[k])
			rc = instance_cells(db, req, res, k, &alloc);
	if (rc == 0 && res->ncells)
		qsort(res->cells, res->ncells, sizeof(*res->cells), cmp_cell);
	free(names);
	free(has);
	selection_release(&sel);
	run_filter_release(&f);
	return rc;
}

void size_result_release(struct size_result *r)
{
	if (!r)
		return;
	catalogs_used_release(&r->catalogs);
	catalog_release(&r->cat);
	free(r->rows);
	for (size_t i = 0; r->cells && i < r->ncells; i++)
		free(r->cells[i].group);
	free(r->cells);
	free(r->translations);
	catalog_families_free(r->families, r->nfamilies);
	memset(r, 0, sizeof(*r));
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
		rc = validate(req, &all, out);
	out->in.translations = out->translations;
	out->in.ntranslations = req->ntranslations;
	if (rc == 0)
		rc = catalog_load(db, (const char *const *)req->series, req->nseries, &out->cat);
	if (rc == 0)
		rc = gather_inputs(db, req, out);
	if (rc == 0)
		rc = measure_translations(db, req, out);
	if (rc == 0)
		rc = check_base_family(&all, out);
	if (rc == 0)
		rc = catalog_families(&out->cat, &out->families, &out->nfamilies);
	if (rc == 0)
		rc = size_compute(&out->cat, &out->in, &out->rows);
	if (rc == 0)
		rc = read_cells(db, req, out);
	if (rc == 0)
		rc = size_judge(&out->in, out->rows, out->cat.n, out->cells, out->ncells);
	out->cheapest = out->cat.n;
	for (size_t i = 0; rc == 0 && i < out->cat.n; i++)
		if (out->rows[i].cheapest)
			out->cheapest = i;
done:
	catalog_release(&all);
	if (rc)
		size_result_release(out);
	return rc;
}
