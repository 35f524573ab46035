/* noise: see noise.h. */
#include "noise.h"

#include "../common/err.h"
#include "../common/strbuf.h"
#include "pooling.h"

#include <gsl/gsl_sort.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void noise_options_init(struct noise_options *opts)
{
	opts->burst_factor = NOISE_BURST_FACTOR;
	opts->range_pct = NOISE_RANGE_PCT;
	opts->drift_pct = NOISE_DRIFT_PCT;
}

/* Append one zeroed element to a growing array. */
static void *push(void *array_ptr, size_t *count, size_t size)
{
	void **array = array_ptr;
	char *grown = realloc(*array, (*count + 1) * size);
	if (!grown) {
		err_set("out of memory");
		return NULL;
	}
	*array = grown;
	memset(grown + *count * size, 0, size);
	return grown + (*count)++ * size;
}

/* The runs of one group, with their time keys. */
struct group {
	const struct selection *sel;
	const char *name;
	size_t *runs; /* indices into sel->runs, in time order */
	size_t n;
	double *levels; /* distinct, ascending */
	size_t nlevels;
	const char **blocks; /* distinct, in order of their first run */
	size_t nblocks;
	bool timed;
};

static double time_key(const struct sel_run *run, bool timed)
{
	struct tm tm;
	const char *end;
	if (!timed)
		return (double)run->seq;
	memset(&tm, 0, sizeof(tm));
	end = strptime(run->started_at, "%Y-%m-%dT%H:%M:%S", &tm);
	return end ? (double)timegm(&tm) : (double)run->seq;
}

static const char *block_of(const struct sel_run *run)
{
	return run->block ? run->block : "NA";
}

static int group_init(struct group *g, const struct selection *sel, const char *name)
{
	double *keys = NULL, *all = NULL;
	size_t *perm = NULL;
	size_t *members = NULL;
	int rc = 0;
	memset(g, 0, sizeof(*g));
	g->sel = sel;
	g->name = name;
	g->timed = true;
	members = malloc(sel->n * sizeof(*members));
	keys = malloc(sel->n * sizeof(*keys));
	perm = malloc(sel->n * sizeof(*perm));
	all = malloc(sel->n * sizeof(*all));
	g->runs = malloc(sel->n * sizeof(*g->runs));
	g->blocks = malloc(sel->n * sizeof(*g->blocks));
	if (!members || !keys || !perm || !all || !g->runs || !g->blocks) {
		rc = err_set("out of memory");
		goto done;
	}
	for (size_t i = 0; i < sel->n; i++) {
		const struct sel_run *run = &sel->runs[i];
		if (strcmp(run->group, name))
			continue;
		if (!run->level_numeric) {
			rc = err_set("run '%s': level '%s' is not a number", run->tag,
				     run->level_text);
			goto done;
		}
		members[g->n++] = i;
		g->timed &= run->started_at != NULL;
	}
	for (size_t i = 0; i < g->n; i++) {
		keys[i] = time_key(&sel->runs[members[i]], g->timed);
		all[i] = sel->runs[members[i]].level;
	}
	gsl_sort_index(perm, keys, 1, g->n);
	for (size_t i = 0; i < g->n; i++)
		g->runs[i] = members[perm[i]];
	gsl_sort(all, 1, g->n);
	g->levels = all;
	all = NULL;
	for (size_t i = 0; i < g->n; i++)
		if (g->nlevels == 0 || g->levels[i] != g->levels[g->nlevels - 1])
			g->levels[g->nlevels++] = g->levels[i];
	for (size_t i = 0; i < g->n; i++) {
		const char *b = block_of(&sel->runs[g->runs[i]]);
		size_t j = 0;
		while (j < g->nblocks && strcmp(g->blocks[j], b))
			j++;
		if (j == g->nblocks)
			g->blocks[g->nblocks++] = b;
	}
done:
	free(members);
	free(keys);
	free(perm);
	free(all);
	return rc;
}

static void group_release(struct group *g)
{
	free(g->runs);
	free(g->levels);
	free(g->blocks);
}

/* Metric values of the group's runs matching level (and block, unless NULL), in time order. */
static size_t gather(const struct group *g, double level, const char *block, double *out,
		     size_t *first_index)
{
	size_t n = 0;
	for (size_t i = 0; i < g->n; i++) {
		const struct sel_run *run = &g->sel->runs[g->runs[i]];
		if (run->level != level || (block && strcmp(block_of(run), block)))
			continue;
		if (n == 0 && first_index)
			*first_index = g->runs[i];
		out[n++] = run->metric;
	}
	return n;
}

/* Position (1-based) of `level` among the levels of `block` ordered by first run time. */
static size_t position_in_block(const struct group *g, const char *block, double level)
{
	size_t position = 0;
	double *seen = malloc(g->nlevels * sizeof(*seen));
	size_t nseen = 0;
	if (!seen)
		return 0;
	for (size_t i = 0; i < g->n; i++) {
		const struct sel_run *run = &g->sel->runs[g->runs[i]];
		bool known = false;
		if (strcmp(block_of(run), block))
			continue;
		for (size_t j = 0; j < nseen; j++)
			known |= seen[j] == run->level;
		if (known)
			continue;
		seen[nseen++] = run->level;
		if (run->level == level) {
			position = nseen;
			break;
		}
	}
	free(seen);
	return position;
}

static int levels_and_cells(struct noise *nz, const struct group *g, double *buf)
{
	for (size_t l = 0; l < g->nlevels; l++) {
		struct noise_level *lv = push(&nz->levels, &nz->nlevels, sizeof(*lv));
		size_t n = gather(g, g->levels[l], NULL, buf, NULL);
		int rc;
		if (!lv)
			return ERR_DATA;
		lv->group = g->name;
		lv->level = g->levels[l];
		rc = stats_summary(buf, n, &lv->s);
		if (rc)
			return rc;
		for (size_t b = 0; b < g->nblocks; b++) {
			struct noise_cell *cell;
			size_t m = gather(g, g->levels[l], g->blocks[b], buf, NULL);
			if (m == 0)
				continue;
			cell = push(&nz->cells, &nz->ncells, sizeof(*cell));
			if (!cell)
				return ERR_DATA;
			cell->group = g->name;
			cell->level = g->levels[l];
			cell->block = g->blocks[b];
			cell->n = m;
			rc = stats_median(buf, m, &cell->value);
			if (rc)
				return rc;
			cell->deviation_pct = (cell->value / lv->s.median - 1.0) * 100.0;
			cell->position = position_in_block(g, g->blocks[b], g->levels[l]);
			if (fabs(cell->deviation_pct) > lv->max_abs_dev_pct)
				lv->max_abs_dev_pct = fabs(cell->deviation_pct);
		}
	}
	return 0;
}

static int drifts(struct noise *nz, const struct group *g, size_t first_cell)
{
	for (size_t b = 0; b < g->nblocks; b++) {
		struct noise_drift *d = NULL;
		size_t above = 0, below = 0;
		double sum = 0;
		for (size_t c = first_cell; c < nz->ncells; c++) {
			const struct noise_cell *cell = &nz->cells[c];
			if (strcmp(cell->block, g->blocks[b]))
				continue;
			if (!d) {
				d = push(&nz->drifts, &nz->ndrifts, sizeof(*d));
				if (!d)
					return ERR_DATA;
				d->group = g->name;
				d->block = g->blocks[b];
				d->min_dev_pct = INFINITY;
				d->max_dev_pct = -INFINITY;
			}
			d->nlevels++;
			sum += cell->deviation_pct;
			above += cell->deviation_pct > 0;
			below += cell->deviation_pct < 0;
			d->min_dev_pct = fmin(d->min_dev_pct, cell->deviation_pct);
			d->max_dev_pct = fmax(d->max_dev_pct, cell->deviation_pct);
		}
		if (!d)
			continue;
		d->mean_dev_pct = sum / (double)d->nlevels;
		d->drift = "none";
		if (d->nlevels >= 2 && fabs(d->mean_dev_pct) > nz->opts.drift_pct) {
			if (above == d->nlevels)
				d->drift = "high";
			else if (below == d->nlevels)
				d->drift = "low";
		}
	}
	return 0;
}

static char *level_list_text(const double *levels, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < n; i++)
		strbuf_addf(&sb, "%s%g", i ? "," : "", levels[i]);
	return strbuf_detach(&sb);
}

/* Block orders, and whether any level sits at the same position in two blocks. */
static int orders(struct noise *nz, const struct group *g, size_t first_cell,
		  struct noise_verdict *v)
{
	struct strbuf note = STRBUF_INIT;
	double *seq = malloc((g->nlevels ? g->nlevels : 1) * sizeof(*seq));
	if (!seq)
		return err_set("out of memory");
	for (size_t b = 0; b < g->nblocks; b++) {
		struct noise_order *o = push(&nz->orders, &nz->norders, sizeof(*o));
		size_t n = 0;
		if (!o) {
			free(seq);
			return ERR_DATA;
		}
		for (size_t c = first_cell; c < nz->ncells; c++)
			if (!strcmp(nz->cells[c].block, g->blocks[b]) && nz->cells[c].position > 0)
				seq[nz->cells[c].position - 1] = nz->cells[c].level, n++;
		o->group = g->name;
		o->block = g->blocks[b];
		o->levels = level_list_text(seq, n);
		o->timed = g->timed;
	}
	free(seq);
	v->counterbalanced = g->nblocks >= 2;
	if (g->nblocks < 2)
		strbuf_adds(&note, "one block: order cannot be counterbalanced");
	for (size_t a = first_cell; a < nz->ncells && g->nblocks >= 2; a++)
		for (size_t b = a + 1; b < nz->ncells; b++) {
			const struct noise_cell *x = &nz->cells[a], *y = &nz->cells[b];
			if (x->level != y->level || x->position != y->position ||
			    !strcmp(x->block, y->block))
				continue;
			if (v->counterbalanced)
				strbuf_addf(&note, "level %g is at position %zu in blocks %s and %s",
					    x->level, x->position, x->block, y->block);
			v->counterbalanced = false;
		}
	if (v->counterbalanced)
		strbuf_addf(&note, "no level holds the same position in two blocks (order by %s)",
			    g->timed ? "start time" : "results-table row");
	v->counterbalance_note = strbuf_detach(&note);
	return 0;
}

static int bursts_and_soaks(struct noise *nz, const struct group *g, double *buf)
{
	for (size_t l = 0; l < g->nlevels; l++) {
		size_t first = 0;
		size_t n = gather(g, g->levels[l], NULL, buf, &first);
		struct noise_burst *b;
		if (n >= NOISE_BURST_MIN_RUNS) {
			int rc;
			b = push(&nz->bursts, &nz->nbursts, sizeof(*b));
			if (!b)
				return ERR_DATA;
			b->group = g->name;
			b->level = g->levels[l];
			b->tag = g->sel->runs[first].tag;
			b->value = buf[0];
			b->later_n = n - 1;
			rc = stats_median(buf + 1, n - 1, &b->later_median);
			if (rc)
				return rc;
			b->ratio = b->value / b->later_median;
			b->burst = b->ratio >= nz->opts.burst_factor;
		}
		for (size_t k = 0; k < g->nblocks; k++) {
			struct noise_soak *s;
			size_t m = gather(g, g->levels[l], g->blocks[k], buf, &first);
			int rc;
			if (m < NOISE_SOAK_MIN_RUNS)
				continue;
			s = push(&nz->soaks, &nz->nsoaks, sizeof(*s));
			if (!s)
				return ERR_DATA;
			s->group = g->name;
			s->level = g->levels[l];
			s->block = g->blocks[k];
			s->n = m;
			s->first_tag = g->sel->runs[first].tag;
			s->first = buf[0];
			rc = stats_summary(buf + 1, m - 1, &s->sustained);
			if (rc)
				return rc;
			s->ratio = s->first / s->sustained.median;
		}
	}
	return 0;
}

/* A level is within noise when its range is too wide or overlaps a neighbour's. */
static int verdict(struct noise *nz, const struct group *g, size_t first_level,
		   struct noise_verdict *v)
{
	struct strbuf list = STRBUF_INIT;
	struct noise_level *lv = nz->levels + first_level;
	size_t n = nz->nlevels - first_level;
	for (size_t i = 0; i < n; i++) {
		bool overlap_prev = i > 0 && lv[i].s.min <= lv[i - 1].s.max &&
				    lv[i - 1].s.min <= lv[i].s.max;
		bool overlap_next = i + 1 < n && lv[i].s.min <= lv[i + 1].s.max &&
				    lv[i + 1].s.min <= lv[i].s.max;
		v->max_range_pct = fmax(v->max_range_pct, lv[i].s.range_pct);
		v->max_abs_dev_pct = fmax(v->max_abs_dev_pct, lv[i].max_abs_dev_pct);
		if (lv[i].s.range_pct > nz->opts.range_pct) {
			lv[i].within_noise = true;
			lv[i].why = "range above the threshold";
		} else if (overlap_prev || overlap_next) {
			lv[i].within_noise = true;
			lv[i].why = "range overlaps a neighbouring level's";
		}
		if (lv[i].within_noise)
			strbuf_addf(&list, "%s%g", list.len ? "," : "", lv[i].level);
	}
	v->group = g->name;
	v->resolved = list.len == 0;
	v->within_noise = strbuf_detach(&list);
	for (size_t i = 0; i < nz->nbursts; i++)
		v->nbursts += nz->bursts[i].group == g->name && nz->bursts[i].burst;
	return 0;
}

static int analyse_group(struct noise *nz, const struct selection *sel, const char *name,
			 double *buf)
{
	struct group g;
	struct noise_verdict *v;
	size_t first_cell = nz->ncells, first_level = nz->nlevels;
	int rc = group_init(&g, sel, name);
	if (rc == 0)
		rc = levels_and_cells(nz, &g, buf);
	if (rc == 0)
		rc = drifts(nz, &g, first_cell);
	if (rc == 0 && !(v = push(&nz->verdicts, &nz->nverdicts, sizeof(*v))))
		rc = ERR_DATA;
	if (rc == 0)
		rc = orders(nz, &g, first_cell, v);
	if (rc == 0)
		rc = bursts_and_soaks(nz, &g, buf);
	if (rc == 0)
		rc = verdict(nz, &g, first_level, &nz->verdicts[nz->nverdicts - 1]);
	group_release(&g);
	return rc;
}

int noise_compute(const struct selection *sel, const struct noise_options *opts,
		  struct noise *out)
{
	double *buf = NULL;
	int rc = 0;
	memset(out, 0, sizeof(*out));
	out->opts = *opts;
	if (sel->n == 0)
		return err_set("no runs to analyse (check --corpus and --where; excluded runs "
			       "are left out unless --include-excluded)");
	buf = malloc(sel->n * sizeof(*buf));
	if (!buf)
		return err_set("out of memory");
	for (size_t i = 0; rc == 0 && i < sel->n; i++) {
		bool seen = false;
		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(sel->runs[j].group, sel->runs[i].group);
		if (!seen)
			rc = analyse_group(out, sel, sel->runs[i].group, buf);
	}
	free(buf);
	if (rc) {
		noise_release(out);
		return rc;
	}
	out->resolved = out->counterbalanced = true;
	for (size_t i = 0; i < out->nverdicts; i++) {
		out->resolved &= out->verdicts[i].resolved;
		out->counterbalanced &= out->verdicts[i].counterbalanced;
		out->burst_count += out->verdicts[i].nbursts;
	}
	return 0;
}

void noise_release(struct noise *nz)
{
	for (size_t i = 0; i < nz->norders; i++)
		free(nz->orders[i].levels);
	for (size_t i = 0; i < nz->nverdicts; i++) {
		free(nz->verdicts[i].within_noise);
		free(nz->verdicts[i].counterbalance_note);
	}
	free(nz->cells);
	free(nz->levels);
	free(nz->drifts);
	free(nz->orders);
	free(nz->bursts);
	free(nz->soaks);
	free(nz->verdicts);
	memset(nz, 0, sizeof(*nz));
}

int noise_run(sqlite3 *db, const struct noise_request *req, struct noise_result *out)
{
	struct select_spec spec = {.filter = req->filter,
				   .by = req->by,
				   .metric = req->metric ? req->metric : "tput",
				   .block = req->block ? req->block : "block",
				   .group = req->group};
	int rc;
	memset(out, 0, sizeof(*out));
	rc = select_runs(db, &spec, &out->sel);
	if (rc == 0 && out->sel.n == 0)
		rc = select_no_runs(&out->sel, req->filter);
	if (rc == 0)
		rc = noise_compute(&out->sel, &req->opts, &out->nz);
	if (rc == 0)
		rc = pooling_check(db, &spec, &out->sel, "noise", true);
	return rc;
}

void noise_result_release(struct noise_result *r)
{
	noise_release(&r->nz);
	selection_release(&r->sel);
}
