/* noise_order: the order rule (noise.h, noise_order.h). */
#include "noise_order.h"

#include "../common/err.h"
#include "../common/strbuf.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Append one zeroed element to a growing array. */
void *noise_push(void *array_ptr, size_t *count, size_t size)
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

int noise_run_times(const struct selection *sel, int duration_extra, struct run_time **out)
{
	struct run_time *t = calloc(sel->n ? sel->n : 1, sizeof(*t));
	if (!t)
		return err_set("out of memory");
	for (size_t i = 0; i < sel->n; i++) {
		const struct sel_run *run = &sel->runs[i];
		struct tm tm;
		const char *end = NULL;
		memset(&tm, 0, sizeof(tm));
		if (run->started_at)
			end = strptime(run->started_at, "%Y-%m-%dT%H:%M:%S", &tm);
		t[i].has_start = end != NULL;
		t[i].start = t[i].end = end ? (double)timegm(&tm) : (double)run->seq;
		if (end && duration_extra >= 0 && run->extra && run->extra[duration_extra]) {
			char *stop = NULL;
			double d = strtod(run->extra[duration_extra], &stop);
			if (stop != run->extra[duration_extra] && *stop == '\0' && isfinite(d) &&
			    d > 0)
				t[i].end = t[i].start + d;
		}
	}
	*out = t;
	return 0;
}

struct keyed {
	double key;
	size_t index;
};

/* By time, then by position in the selection: equal start times keep results-table order. */
static int by_key(const void *pa, const void *pb)
{
	const struct keyed *a = pa, *b = pb;
	if (a->key != b->key)
		return a->key < b->key ? -1 : 1;
	return a->index < b->index ? -1 : a->index > b->index;
}

/* Indices of sel's runs for which keep[i], in time order (results-table order if untimed). */
int noise_time_order(const struct selection *sel, const struct run_time *t, const bool *keep,
		     size_t **out, size_t *n, bool *timed)
{
	struct keyed *k = malloc((sel->n ? sel->n : 1) * sizeof(*k));
	size_t *order = malloc((sel->n ? sel->n : 1) * sizeof(*order));
	size_t m = 0;
	if (!k || !order) {
		free(k);
		free(order);
		return err_set("out of memory");
	}
	*timed = true;
	for (size_t i = 0; i < sel->n; i++)
		if (keep[i]) {
			k[m++].index = i;
			*timed &= t[i].has_start;
		}
	for (size_t i = 0; i < m; i++)
		k[i].key = *timed ? t[k[i].index].start : (double)sel->runs[k[i].index].seq;
	qsort(k, m, sizeof(*k), by_key);
	for (size_t i = 0; i < m; i++)
		order[i] = k[i].index;
	free(k);
	*out = order;
	*n = m;
	return 0;
}

const char *noise_block_of(const struct sel_run *run)
{
	return run->block ? run->block : "NA";
}

/* ---- the order rule ---- */

static char *order_text(char *const *values, const size_t *positions, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < n; i++)
		strbuf_addf(&sb, "%s%s",
			    i == 0                             ? ""
			    : positions[i] == positions[i - 1] ? "+"
							       : ",",
			    values[i]);
	return strbuf_detach(&sb);
}

/* One order row per block of the stratum: first run of each value, slots of overlapping runs. */
int noise_stratum_orders(struct noise *nz, const struct selection *sel, const struct run_time *t,
			 const struct stratum *st)
{
	const char **blocks = malloc((st->n ? st->n : 1) * sizeof(*blocks));
	size_t nblocks = 0;
	int rc = 0;
	if (!blocks)
		return err_set("out of memory");
	for (size_t i = 0; i < st->n; i++) {
		const char *b = noise_block_of(&sel->runs[st->runs[i]]);
		size_t j = 0;
		while (j < nblocks && strcmp(blocks[j], b))
			j++;
		if (j == nblocks)
			blocks[nblocks++] = b;
	}
	for (size_t k = 0; rc == 0 && k < nblocks; k++) {
		struct noise_order *o = noise_push(&nz->orders, &nz->norders, sizeof(*o));
		size_t slot = 0;
		double slot_start = 0, slot_end = 0;
		if (!o) {
			rc = ERR_DATA;
			break;
		}
		o->factor = st->factor;
		o->is_level = st->is_level;
		o->block = blocks[k];
		o->timed = st->timed;
		o->group = strdup(st->name);
		o->values = calloc(st->n, sizeof(*o->values));
		o->positions = calloc(st->n, sizeof(*o->positions));
		if (!o->group || !o->values || !o->positions) {
			rc = err_set("out of memory");
			break;
		}
		for (size_t i = 0; i < st->n; i++) {
			size_t run = st->runs[i];
			bool known = false;
			if (strcmp(noise_block_of(&sel->runs[run]), blocks[k]))
				continue;
			for (size_t j = 0; j < o->nvalues && !known; j++)
				known = !strcmp(o->values[j], st->values[i]);
			if (known)
				continue;
			/* a value whose first run starts inside the slot's first run shares it */
			if (slot == 0 || !st->timed ||
			    !(t[run].start < slot_end || t[run].start == slot_start)) {
				slot++;
				slot_start = t[run].start;
				slot_end = t[run].end;
			} else {
				slot_end = fmax(slot_end, t[run].end);
			}
			o->values[o->nvalues] = strdup(st->values[i]);
			if (!o->values[o->nvalues]) {
				rc = err_set("out of memory");
				break;
			}
			o->positions[o->nvalues++] = slot;
		}
		if (rc == 0 && !(o->levels = order_text(o->values, o->positions, o->nvalues)))
			rc = err_set("out of memory");
	}
	free(blocks);
	return rc;
}

/*
 * The stratum's word from its order rows (nz->orders[first..]); the note
 * says what decided, naming the factor as `label` (e.g. "sessions").
 */
int noise_judge_orders(const struct noise *nz, size_t first, const char *label,
		       const char **balance, char **note)
{
	struct strbuf sb = STRBUF_INIT;
	size_t considered = 0, simultaneous = 0;
	bool timed = true;
	*balance = NULL;
	for (size_t r = first; r < nz->norders; r++) {
		const struct noise_order *o = &nz->orders[r];
		if (o->nvalues < 2)
			continue;
		considered++;
		timed &= o->timed;
		simultaneous += o->positions[o->nvalues - 1] == 1;
	}
	if (considered == 0) {
		*balance = NOISE_BAL_NOT_ROTATED;
		strbuf_addf(&sb, "%s does not change within a block", label);
	} else if (simultaneous == considered) {
		*balance = NOISE_BAL_SIMULTANEOUS;
		strbuf_addf(&sb,
			    "the values of %s ran at the same time in every block (overlapping "
			    "runs): nothing to counterbalance",
			    label);
	} else if (considered == 1) {
		*balance = NOISE_BAL_ONE_BLOCK;
		strbuf_adds(&sb, "one block: order cannot be counterbalanced");
	}
	/* a value that holds one position in every block where it ran (2 or more) */
	for (size_t r = first; !*balance && r < nz->norders; r++) {
		const struct noise_order *o = &nz->orders[r];
		if (o->nvalues < 2)
			continue;
		for (size_t v = 0; !*balance && v < o->nvalues; v++) {
			struct strbuf where = STRBUF_INIT;
			size_t seen = 0;
			bool same = true, earlier = false;
			for (size_t q = first; q < nz->norders && !earlier; q++) {
				const struct noise_order *p = &nz->orders[q];
				if (p->nvalues < 2)
					continue;
				for (size_t w = 0; w < p->nvalues; w++) {
					if (strcmp(p->values[w], o->values[v]))
						continue;
					if (q < r)
						earlier = true; /* judged with that row */
					same &= p->positions[w] == o->positions[v];
					strbuf_addf(&where, "%s%s", seen ? ", " : "", p->block);
					seen++;
				}
			}
			if (!earlier && seen >= 2 && same) {
				*balance = NOISE_BAL_NO;
				strbuf_addf(&sb, "%s=%s is at position %zu in every block (%s)",
					    label, o->values[v], o->positions[v],
					    strbuf_str(&where));
			}
			strbuf_release(&where);
		}
	}
	if (!*balance) {
		*balance = NOISE_BAL_YES;
		strbuf_addf(&sb, "no value of %s holds one position in every block (order by %s)",
			    label, timed ? "start time" : "results-table row");
	}
	*note = strbuf_detach(&sb);
	return *note ? 0 : err_set("out of memory");
}

/* Rank of a word when strata combine: the lowest wins. */
static int balance_rank(const char *word)
{
	static const char *const order[] = {NOISE_BAL_NO, NOISE_BAL_ONE_BLOCK, NOISE_BAL_YES,
					    NOISE_BAL_SIMULTANEOUS, NOISE_BAL_NOT_ROTATED};
	for (int i = 0; i < 5; i++)
		if (!strcmp(word, order[i]))
			return i;
	return 5;
}

/* Keep the worse of (balance, note) and the candidate; the note names the stratum. */
int noise_combine_balance(struct noise_factor *f, const char *stratum, size_t nstrata,
			  const char *balance, const char *note)
{
	char *text;
	if (f->balance && balance_rank(f->balance) <= balance_rank(balance))
		return 0;
	/* a failing stratum is named; the other words hold for every stratum that decided */
	if (nstrata > 1 && *stratum &&
	    (!strcmp(balance, NOISE_BAL_NO) || !strcmp(balance, NOISE_BAL_ONE_BLOCK))) {
		struct strbuf sb = STRBUF_INIT;
		strbuf_addf(&sb, "%s: %s", stratum, note);
		text = strbuf_detach(&sb);
	} else {
		text = strdup(note);
	}
	if (!text)
		return err_set("out of memory");
	free(f->note);
	f->note = text;
	f->balance = balance;
	return 0;
}

/* ---- group fields as factors ---- */

/* The other group fields' values of a run, "target=small" (the stratum of field k). */
static char *other_fields(const struct sel_run *run, const char *const *factors, size_t k)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t j = 0; factors[j]; j++) {
		if (j == k)
			continue;
		strbuf_addf(&sb, "%s%s=%s", sb.len ? ", " : "", factors[j],
			    run->extra[j] ? run->extra[j] : "NA");
	}
	return strbuf_detach(&sb);
}

static int group_field_factor(struct noise *nz, const struct selection *sel,
			      const struct run_time *t, size_t k, struct noise_factor *f)
{
	const char *const *factors = nz->opts.factors;
	char **strata = calloc(sel->n ? sel->n : 1, sizeof(*strata));
	const char **values = calloc(sel->n ? sel->n : 1, sizeof(*values));
	const char **names = calloc(sel->n ? sel->n : 1, sizeof(*names));
	bool *keep = calloc(sel->n ? sel->n : 1, sizeof(*keep));
	size_t nnames = 0;
	int rc = 0;
	f->name = factors[k];
	if (!strata || !values || !names || !keep) {
		rc = err_set("out of memory");
		goto done;
	}
	for (size_t i = 0; i < sel->n; i++) {
		size_t j = 0;
		if (!(strata[i] = other_fields(&sel->runs[i], factors, k))) {
			rc = err_set("out of memory");
			goto done;
		}
		while (j < nnames && strcmp(names[j], strata[i]))
			j++;
		if (j == nnames)
			names[nnames++] = strata[i];
	}
	for (size_t s = 0; rc == 0 && s < nnames; s++) {
		size_t *runs = NULL, n = 0, first = nz->norders;
		const char *balance = NULL;
		char *note = NULL;
		bool timed = true;
		for (size_t i = 0; i < sel->n; i++)
			keep[i] = !strcmp(strata[i], names[s]);
		rc = noise_time_order(sel, t, keep, &runs, &n, &timed);
		for (size_t i = 0; rc == 0 && i < n; i++) {
			const char *v = sel->runs[runs[i]].extra[k];
			values[i] = v ? v : "NA";
		}
		if (rc == 0) {
			struct stratum st = {factors[k], false, names[s], runs, values, n, timed};
			rc = noise_stratum_orders(nz, sel, t, &st);
		}
		if (rc == 0)
			rc = noise_judge_orders(nz, first, factors[k], &balance, &note);
		if (rc == 0)
			rc = noise_combine_balance(f, names[s], nnames, balance, note);
		free(note);
		free(runs);
	}
done:
	for (size_t i = 0; strata && i < sel->n; i++)
		free(strata[i]);
	free(strata);
	free(values);
	free(names);
	free(keep);
	return rc;
}

int noise_factors(struct noise *nz, const struct selection *sel, const struct run_time *t)
{
	struct noise_factor *level;
	int rc = 0;
	size_t nfields = 0;
	while (nz->opts.factors && nz->opts.factors[nfields])
		nfields++;
	if (!(level = noise_push(&nz->factors, &nz->nfactors, sizeof(*level))))
		return ERR_DATA;
	level->name = nz->opts.by ? nz->opts.by : "level";
	level->is_level = true;
	for (size_t i = 0; rc == 0 && i < nz->nverdicts; i++)
		rc = noise_combine_balance(&nz->factors[0], nz->verdicts[i].group, nz->nverdicts,
					   nz->verdicts[i].balance,
					   nz->verdicts[i].counterbalance_note);
	for (size_t k = 0; rc == 0 && k < nfields; k++) {
		struct noise_factor *f = noise_push(&nz->factors, &nz->nfactors, sizeof(*f));
		rc = f ? group_field_factor(nz, sel, t, k, f) : ERR_DATA;
	}
	if (rc)
		return rc;
	level = &nz->factors[0];
	nz->counterbalanced = !strcmp(level->balance, NOISE_BAL_YES) ||
			      !strcmp(level->balance, NOISE_BAL_SIMULTANEOUS);
	for (size_t k = 1; k < nz->nfactors; k++)
		nz->counterbalanced &= strcmp(nz->factors[k].balance, NOISE_BAL_NO) &&
				       strcmp(nz->factors[k].balance, NOISE_BAL_ONE_BLOCK);
	return 0;
}
