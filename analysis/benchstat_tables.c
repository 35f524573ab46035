/*
 * benchstat_tables: measurements grouped as Go's benchstat groups them
 * (analysis/benchstat.h): one table per file-level configuration and
 * unit, one row per benchmark, one column per arm; each cell summarised
 * (median and its interval), each row compared (U test, delta), each
 * table's geomean row. Rules read from golang.org/x/perf
 * (cmd/benchstat/internal/benchtab/builder.go and table.go,
 * benchmath/sample.go and anone.go, benchunit/tidy.go and parse.go).
 */
#include "benchstat.h"

#include "../common/err.h"
#include "../common/grow.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- units ---- */

/* The tokens of a unit: separated by '*', '/', '-' and blanks; after '/' a token is a denominator.
 */
struct unit_token {
	size_t pos, len;
	bool denom;
};

static size_t unit_tokens(const char *u, struct unit_token *t, size_t max)
{
	size_t n = 0, i = 0, len = strlen(u);
	bool denom = false;
	while (i < len && n < max) {
		while (i < len && strchr("*/- \t", u[i])) {
			if (u[i] == '*')
				denom = false;
			else if (u[i] == '/')
				denom = true;
			i++;
		}
		if (i == len)
			break;
		t[n].pos = i;
		t[n].denom = denom;
		while (i < len && !strchr("*/- \t", u[i]))
			i++;
		t[n].len = i - t[n].pos;
		n++;
	}
	return n;
}

static bool token_is(const char *u, const struct unit_token *t, const char *word)
{
	return t->len == strlen(word) && !memcmp(u + t->pos, word, t->len);
}

void benchstat_tidy_unit(const char *go_unit, struct benchstat_unit *out)
{
	struct unit_token t[32];
	size_t n = unit_tokens(go_unit, t, 32), o = 0, from = 0;
	memset(out, 0, sizeof(*out));
	out->factor = 1;
	/* "ns" -> "sec" (x 1e-9) and "MB" -> "B" (x 1e6) outside the denominator */
	for (size_t k = 0; k < n; k++) {
		const char *rep = NULL;
		if (t[k].denom)
			continue;
		if (token_is(go_unit, &t[k], "ns"))
			rep = "sec", out->factor /= 1e9;
		else if (token_is(go_unit, &t[k], "MB"))
			rep = "B", out->factor *= 1e6;
		if (!rep)
			continue;
		o += (size_t)snprintf(out->name + o, sizeof(out->name) - o, "%.*s%s",
				      (int)(t[k].pos - from), go_unit + from, rep);
		from = t[k].pos + t[k].len;
		if (o >= sizeof(out->name))
			o = sizeof(out->name) - 1;
	}
	snprintf(out->name + o, sizeof(out->name) - o, "%s", go_unit + from);
	for (size_t k = 0; k < n; k++)
		if (!t[k].denom &&
		    (token_is(go_unit, &t[k], "B") || token_is(go_unit, &t[k], "MB") ||
		     token_is(go_unit, &t[k], "bytes")))
			out->binary = true;
}

void benchstat_row_name(const char *name, const char *gomaxprocs, char *buf, size_t size)
{
	if (!strncmp(name, "Benchmark", 9))
		name += 9;
	if (gomaxprocs && *gomaxprocs && strcmp(gomaxprocs, "1"))
		snprintf(buf, size, "%s-%s", name, gomaxprocs);
	else
		snprintf(buf, size, "%s", name);
}

void benchstat_go_unit(const char *column, char *buf, size_t size)
{
	size_t o = 0;
	for (const char *p = column; *p && o + 1 < size;) {
		if (!strncmp(p, "_per_", 5)) {
			buf[o++] = '/';
			p += 5;
		} else {
			buf[o++] = *p++;
		}
	}
	buf[o] = '\0';
}

/* ---- building ---- */

struct cell_acc {
	size_t config, unit, row;
	int col;
	double *v;
	size_t n, cap;
	const char *file; /* the first value's (owned by the build's strings) */
	bool files_vary;
};

struct benchstat_build {
	/* row names by hash: index + 1 */
	size_t *row_slots, nrow_slots, rows_cap;
	/* configurations: serialised as "k\0v\0k\0v\0" over key indices, by hash */
	char **config_keys; /* serialisations, per configuration */
	size_t *config_len;
	size_t *config_slots, nconfig_slots, configs_cap;
	size_t last_config; /* + 1, the configuration of the last observation */
	const char *const *last_config_ptr;
	/* units */
	char **units;
	size_t nunits, units_cap;
	/* cells by (config, unit, row, col): index + 1 */
	struct cell_acc *cells;
	size_t ncells, cells_cap;
	size_t *cell_slots, ncell_slots;
	/* file names seen, to point cells at */
	char **files;
	size_t nfiles;
};

static uint64_t hash_bytes(const void *p, size_t n, uint64_t h)
{
	const unsigned char *b = p;
	for (size_t i = 0; i < n; i++)
		h = (h ^ b[i]) * 1099511628211ULL;
	return h;
}

#define HASH0 1469598103934665603ULL

/* Double a table of slots (index + 1) and re-insert with hash_of. */
static int slots_grow(size_t **slots, size_t *nslots, size_t count,
		      uint64_t (*hash_of)(const struct benchstat_result *, size_t),
		      const struct benchstat_result *r)
{
	size_t n = *nslots ? 2 * *nslots : 64;
	size_t *grown;
	if (2 * (count + 1) <= *nslots)
		return 0;
	if (!(grown = calloc(n, sizeof(*grown))))
		return err_set("out of memory");
	for (size_t i = 0; i < count; i++) {
		size_t k = hash_of(r, i) & (n - 1);
		while (grown[k])
			k = (k + 1) & (n - 1);
		grown[k] = i + 1;
	}
	free(*slots);
	*slots = grown;
	*nslots = n;
	return 0;
}

static uint64_t row_hash(const struct benchstat_result *r, size_t i)
{
	return hash_bytes(r->rows[i], strlen(r->rows[i]), HASH0);
}

static int intern_row(struct benchstat_result *r, const char *name, size_t *out)
{
	struct benchstat_build *b = r->build;
	size_t k;
	if (slots_grow(&b->row_slots, &b->nrow_slots, r->nrows, row_hash, r))
		return -1;
	for (k = hash_bytes(name, strlen(name), HASH0) & (b->nrow_slots - 1); b->row_slots[k];
	     k = (k + 1) & (b->nrow_slots - 1))
		if (!strcmp(r->rows[b->row_slots[k] - 1], name)) {
			*out = b->row_slots[k] - 1;
			return 0;
		}
	if (GROW(r->rows, b->rows_cap, r->nrows + 1) != 0)
		return err_set("out of memory");
	if (!(r->rows[r->nrows] = strdup(name)))
		return err_set("out of memory");
	b->row_slots[k] = r->nrows + 1;
	*out = r->nrows++;
	return 0;
}

static int key_index(struct benchstat_result *r, const char *key, size_t *out)
{
	char **grown;
	for (size_t i = 0; i < r->nkeys; i++)
		if (!strcmp(r->keys[i], key))
			return *out = i, 0;
	if (!(grown = realloc(r->keys, (r->nkeys + 1) * sizeof(*grown))))
		return err_set("out of memory");
	r->keys = grown;
	if (!(grown[r->nkeys] = strdup(key)))
		return err_set("out of memory");
	*out = r->nkeys++;
	return 0;
}

static uint64_t config_hash(const struct benchstat_result *r, size_t i)
{
	return hash_bytes(r->build->config_keys[i], r->build->config_len[i], HASH0);
}

/* The configuration's serialisation: key index and value pairs, in key-index order. */
static int config_serialise(struct benchstat_result *r, const char *const *config, char **out,
			    size_t *len)
{
	size_t n = 0, size = 1, k = 0;
	char *s, *w;
	for (; config && config[2 * n]; n++)
		size += 24 + strlen(config[2 * n + 1]);
	if (!(s = malloc(size)))
		return err_set("out of memory");
	w = s;
	/* pairs in ascending key index: the same configuration in any order is one */
	for (size_t want = 0, written = 0; written < n; want++) {
		for (size_t i = 0; i < n; i++) {
			if (key_index(r, config[2 * i], &k)) {
				free(s);
				return -1;
			}
			if (k != want)
				continue;
			w += sprintf(w, "%zu=", k);
			w += sprintf(w, "%s", config[2 * i + 1]) + 1;
			written++;
		}
		if (want > r->nkeys + n) /* a key given twice: stop */
			break;
	}
	*out = s;
	*len = (size_t)(w - s);
	return 0;
}

static int intern_config(struct benchstat_result *r, const char *const *config, size_t *out)
{
	struct benchstat_build *b = r->build;
	char *s = NULL;
	size_t len = 0, k;
	if (b->last_config && config == b->last_config_ptr)
		return *out = b->last_config - 1, 0;
	if (config_serialise(r, config, &s, &len))
		return -1;
	if (slots_grow(&b->config_slots, &b->nconfig_slots, r->nconfigs, config_hash, r)) {
		free(s);
		return -1;
	}
	for (k = hash_bytes(s, len, HASH0) & (b->nconfig_slots - 1); b->config_slots[k];
	     k = (k + 1) & (b->nconfig_slots - 1)) {
		size_t i = b->config_slots[k] - 1;
		if (b->config_len[i] == len && !memcmp(b->config_keys[i], s, len)) {
			free(s);
			*out = i;
			goto done;
		}
	}
	if (r->nconfigs == b->configs_cap) {
		size_t cap = b->configs_cap ? 2 * b->configs_cap : 16;
		char **g1 = realloc(b->config_keys, cap * sizeof(*g1));
		size_t *g2;
		if (g1)
			b->config_keys = g1;
		g2 = g1 ? realloc(b->config_len, cap * sizeof(*g2)) : NULL;
		if (!g2) {
			free(s);
			return err_set("out of memory");
		}
		b->config_len = g2;
		b->configs_cap = cap;
	}
	b->config_keys[r->nconfigs] = s;
	b->config_len[r->nconfigs] = len;
	b->config_slots[k] = r->nconfigs + 1;
	*out = r->nconfigs++;
done:
	b->last_config = *out + 1;
	b->last_config_ptr = config;
	return 0;
}

static int intern_unit(struct benchstat_result *r, const char *unit, size_t *out)
{
	struct benchstat_build *b = r->build;
	for (size_t i = b->nunits; i-- > 0;)
		if (!strcmp(b->units[i], unit))
			return *out = i, 0;
	if (GROW(b->units, b->units_cap, b->nunits + 1) != 0)
		return err_set("out of memory");
	if (!(b->units[b->nunits] = strdup(unit)))
		return err_set("out of memory");
	*out = b->nunits++;
	return 0;
}

static const char *intern_file(struct benchstat_result *r, const char *file)
{
	struct benchstat_build *b = r->build;
	char **grown;
	if (!file)
		return NULL;
	for (size_t i = b->nfiles; i-- > 0;)
		if (!strcmp(b->files[i], file))
			return b->files[i];
	if (!(grown = realloc(b->files, (b->nfiles + 1) * sizeof(*grown))))
		return NULL;
	b->files = grown;
	if (!(grown[b->nfiles] = strdup(file)))
		return NULL;
	return grown[b->nfiles++];
}

static uint64_t cell_key(size_t config, size_t unit, size_t row, int col)
{
	size_t k[3] = {config, unit, row};
	return hash_bytes(&col, sizeof(col), hash_bytes(k, sizeof(k), HASH0));
}

static uint64_t cell_hash(const struct benchstat_result *r, size_t i)
{
	const struct cell_acc *c = &r->build->cells[i];
	return cell_key(c->config, c->unit, c->row, c->col);
}

static int find_cell(struct benchstat_result *r, size_t config, size_t unit, size_t row, int col,
		     struct cell_acc **out)
{
	struct benchstat_build *b = r->build;
	size_t k;
	struct cell_acc *c;
	if (slots_grow(&b->cell_slots, &b->ncell_slots, b->ncells, cell_hash, r))
		return -1;
	for (k = cell_key(config, unit, row, col) & (b->ncell_slots - 1); b->cell_slots[k];
	     k = (k + 1) & (b->ncell_slots - 1)) {
		c = &b->cells[b->cell_slots[k] - 1];
		if (c->config == config && c->unit == unit && c->row == row && c->col == col)
			return *out = c, 0;
	}
	if (GROW(b->cells, b->cells_cap, b->ncells + 1) != 0)
		return err_set("out of memory");
	c = &b->cells[b->ncells];
	memset(c, 0, sizeof(*c));
	c->config = config;
	c->unit = unit;
	c->row = row;
	c->col = col;
	b->cell_slots[k] = ++b->ncells;
	*out = c;
	return 0;
}

int benchstat_tables_init(struct benchstat_result *r, const char *label_a, const char *label_b,
			  double confidence, double alpha)
{
	memset(r, 0, sizeof(*r));
	r->confidence = confidence;
	r->alpha = alpha;
	r->build = calloc(1, sizeof(*r->build));
	r->label[0] = strdup(label_a);
	r->label[1] = strdup(label_b);
	if (!r->build || !r->label[0] || !r->label[1]) {
		benchstat_tables_release(r);
		return err_set("out of memory");
	}
	return 0;
}

int benchstat_tables_add(struct benchstat_result *r, const struct benchstat_obs *obs)
{
	size_t config = 0, unit = 0, row = 0;
	struct cell_acc *c = NULL;
	const char *file;
	if (obs->col < 0 || obs->col > 1)
		return err_set("benchstat: column %d", obs->col);
	if (!isfinite(obs->value))
		return err_set("benchstat: '%s' has a value that is not finite", obs->row);
	if (intern_config(r, obs->config, &config) || intern_unit(r, obs->unit, &unit) ||
	    intern_row(r, obs->row, &row) || find_cell(r, config, unit, row, obs->col, &c))
		return -1;
	file = intern_file(r, obs->file);
	if (GROW(c->v, c->cap, c->n + 1) != 0)
		return err_set("out of memory");
	if (c->n == 0)
		c->file = file;
	else if (file != c->file)
		c->files_vary = true;
	c->v[c->n++] = obs->value;
	r->nobs[obs->col]++;
	return 0;
}

/* ---- finishing ---- */

/* The configurations as value arrays; each key's values ordered as first seen. */
static int configs_unpack(struct benchstat_result *r)
{
	struct benchstat_build *b = r->build;
	if (!(r->configs = calloc(r->nconfigs + 1, sizeof(*r->configs))))
		return err_set("out of memory");
	for (size_t i = 0; i < r->nconfigs; i++) {
		const char *p = b->config_keys[i], *end = p + b->config_len[i];
		if (!(r->configs[i] = calloc(r->nkeys + 1, sizeof(char *))))
			return err_set("out of memory");
		while (p < end) {
			char *eq;
			size_t k = strtoul(p, &eq, 10);
			if (k < r->nkeys && !(r->configs[i][k] = strdup(eq + 1)))
				return err_set("out of memory");
			p = eq + 1 + strlen(eq + 1) + 1;
		}
		for (size_t k = 0; k < r->nkeys; k++)
			if (!r->configs[i][k] && !(r->configs[i][k] = strdup("")))
				return err_set("out of memory");
	}
	return 0;
}

/* ranks[config * nkeys + key]: the order in which that key's value was first seen. */
static int config_ranks(const struct benchstat_result *r, size_t **out)
{
	size_t *ranks = calloc(r->nconfigs * (r->nkeys ? r->nkeys : 1) + 1, sizeof(*ranks));
	if (!ranks)
		return err_set("out of memory");
	for (size_t k = 0; k < r->nkeys; k++) {
		size_t next = 0;
		for (size_t i = 0; i < r->nconfigs; i++) {
			size_t rank = next;
			for (size_t j = 0; j < i; j++)
				if (!strcmp(r->configs[j][k], r->configs[i][k])) {
					rank = ranks[j * r->nkeys + k];
					break;
				}
			if (rank == next)
				next++;
			ranks[i * r->nkeys + k] = rank;
		}
	}
	*out = ranks;
	return 0;
}

struct table_order {
	const struct benchstat_result *r;
	const size_t *ranks;
};

static struct table_order order_ctx; /* qsort has no context argument in C11 */

static int compare_tables(const void *x, const void *y)
{
	const struct benchstat_table *a = x, *b = y;
	const struct benchstat_result *r = order_ctx.r;
	for (size_t k = 0; k < r->nkeys; k++) {
		size_t ra = order_ctx.ranks[a->config * r->nkeys + k];
		size_t rb = order_ctx.ranks[b->config * r->nkeys + k];
		if (ra != rb)
			return ra < rb ? -1 : 1;
	}
	if (a->config != b->config)
		return a->config < b->config ? -1 : 1;
	return a->unit_rank < b->unit_rank ? -1 : a->unit_rank > b->unit_rank;
}

static int compare_doubles(const void *x, const void *y)
{
	double a = *(const double *)x, b = *(const double *)y;
	return a < b ? -1 : a > b;
}

static int compare_rows(const void *x, const void *y)
{
	size_t a = ((const struct benchstat_trow *)x)->row,
	       b = ((const struct benchstat_trow *)y)->row;
	return a < b ? -1 : a > b;
}

/* A cell's values in the tidied unit, sorted, summarised. */
static int finish_cell(struct benchstat_result *r, const struct benchstat_table *t,
		       const struct cell_acc *a, struct benchstat_cell *c)
{
	c->n = a->n;
	c->files_vary = a->files_vary;
	if (!(c->values = malloc(a->n * sizeof(*c->values))))
		return err_set("out of memory");
	for (size_t i = 0; i < a->n; i++)
		c->values[i] = a->v[i] * t->unit.factor;
	qsort(c->values, c->n, sizeof(*c->values), compare_doubles);
	if (benchstat_summary(c->values, c->n, r->confidence, &c->s))
		return -1;
	c->ci_infinite = isinf(c->s.lo) || isinf(c->s.hi);
	return 0;
}

static void finish_delta(const struct benchstat_result *r, struct benchstat_trow *row)
{
	double old = row->c[0].s.median, now = row->c[1].s.median;
	row->delta_pct = NAN;
	if (row->test.p > r->alpha)
		snprintf(row->delta, sizeof(row->delta), "~");
	else if (old == now)
		snprintf(row->delta, sizeof(row->delta), "0.00%%");
	else if (old == 0)
		snprintf(row->delta, sizeof(row->delta), "?");
	else {
		row->delta_pct = (now / old - 1) * 100;
		snprintf(row->delta, sizeof(row->delta), "%+.2f%%", row->delta_pct);
	}
}

static int finish_row(struct benchstat_result *r, struct benchstat_trow *row)
{
	size_t need = benchstat_utest_samples(r->alpha);
	const struct benchstat_cell *a = &row->c[0], *b = &row->c[1];
	if (!row->has[0] || !row->has[1])
		return 0;
	row->compared = true;
	row->all_equal = a->values[0] == a->values[a->n - 1] &&
			 b->values[0] == b->values[b->n - 1] && a->values[0] == b->values[0];
	if (benchstat_utest(a->values, a->n, b->values, b->n, &row->test))
		return -1;
	if (row->all_equal)
		row->test.p = 1; /* benchstat: no test, "all samples are equal" */
	else if (row->test.p > r->alpha && (need == 0 || (a->n < need && b->n < need)))
		row->too_few = true;
	finish_delta(r, row);
	return 0;
}

/* The geomean row (benchtab's summarizeCol): of the medians; of the rows' ratios. */
static int finish_geomean(struct benchstat_table *t)
{
	double *vals = malloc((t->nrows + 1) * sizeof(*vals));
	double *ratios = malloc((t->nrows + 1) * sizeof(*ratios));
	size_t nbase = 0, nratios = 0;
	bool bad_ratio = false;
	if (!vals || !ratios) {
		free(vals);
		free(ratios);
		return err_set("out of memory");
	}
	for (size_t i = 0; i < t->nrows; i++)
		nbase += t->rows[i].has[0];
	for (int col = 0; col < 2; col++) {
		size_t n = 0;
		for (size_t i = 0; i < t->nrows; i++) {
			const struct benchstat_trow *row = &t->rows[i];
			if (!row->has[col])
				continue;
			vals[n++] = row->c[col].s.median;
			if (col == 1 && row->has[0]) {
				double a = row->c[1].s.median, b = row->c[0].s.median;
				if (a == b)
					ratios[nratios++] = 1; /* 0/0 is 1 */
				else if (b == 0)
					bad_ratio = true, ratios[nratios++] = 0;
				else
					ratios[nratios++] = a / b;
			}
		}
		t->gm.value[col] = benchstat_geomean(vals, n);
		t->gm.has[col] = !isnan(t->gm.value[col]);
		t->gm.nonpositive[col] = n > 0 && !t->gm.has[col];
	}
	t->gm.set_differs = nratios != nbase;
	if (!bad_ratio) {
		t->gm.ratio = benchstat_geomean(ratios, nratios);
		t->gm.has_ratio = !isnan(t->gm.ratio);
	}
	free(vals);
	free(ratios);
	return 0;
}

static int build_tables(struct benchstat_result *r)
{
	struct benchstat_build *b = r->build;
	size_t *table_of = malloc((r->nconfigs * b->nunits + 1) * sizeof(*table_of));
	int rc = 0;
	if (!table_of)
		return err_set("out of memory");
	for (size_t i = 0; i < r->nconfigs * b->nunits; i++)
		table_of[i] = SIZE_MAX;
	/* the tables, in the order their cells were first made */
	for (size_t i = 0; i < b->ncells; i++) {
		size_t *slot = &table_of[b->cells[i].config * b->nunits + b->cells[i].unit];
		if (*slot == SIZE_MAX)
			*slot = r->ntables++;
	}
	r->tables = calloc(r->ntables + 1, sizeof(*r->tables));
	if (!r->tables) {
		free(table_of);
		return err_set("out of memory");
	}
	for (size_t c = 0; c < r->nconfigs; c++)
		for (size_t u = 0; u < b->nunits; u++) {
			struct benchstat_table *t;
			size_t ti = table_of[c * b->nunits + u];
			if (ti == SIZE_MAX)
				continue;
			t = &r->tables[ti];
			t->config = c;
			t->unit_rank = u;
			snprintf(t->go_unit, sizeof(t->go_unit), "%s", b->units[u]);
			benchstat_tidy_unit(b->units[u], &t->unit);
		}
	/* rows: one per benchmark with a cell in the table */
	for (size_t i = 0; i < b->ncells; i++)
		r->tables[table_of[b->cells[i].config * b->nunits + b->cells[i].unit]].nrows++;
	for (size_t ti = 0; ti < r->ntables; ti++) {
		r->tables[ti].rows = calloc(r->tables[ti].nrows + 1, sizeof(struct benchstat_trow));
		if (!r->tables[ti].rows) {
			free(table_of);
			return err_set("out of memory");
		}
		r->tables[ti].nrows = 0;
	}
	for (size_t i = 0; rc == 0 && i < b->ncells; i++) {
		const struct cell_acc *a = &b->cells[i];
		struct benchstat_table *t = &r->tables[table_of[a->config * b->nunits + a->unit]];
		struct benchstat_trow *row = NULL;
		/* the other column's cell made this row already? (cells of a row are few) */
		for (size_t k = t->nrows; k-- > 0 && !row;)
			if (t->rows[k].row == a->row)
				row = &t->rows[k];
		if (!row) {
			row = &t->rows[t->nrows++];
			row->row = a->row;
		}
		row->has[a->col] = true;
		rc = finish_cell(r, t, a, &row->c[a->col]);
	}
	free(table_of);
	return rc;
}

int benchstat_tables_finish(struct benchstat_result *r)
{
	size_t *ranks = NULL;
	int rc = configs_unpack(r);
	if (rc == 0)
		rc = build_tables(r);
	for (size_t ti = 0; rc == 0 && ti < r->ntables; ti++) {
		struct benchstat_table *t = &r->tables[ti];
		qsort(t->rows, t->nrows, sizeof(*t->rows), compare_rows);
		for (size_t i = 0; rc == 0 && i < t->nrows; i++)
			rc = finish_row(r, &t->rows[i]);
		if (rc == 0)
			rc = finish_geomean(t);
	}
	if (rc == 0)
		rc = config_ranks(r, &ranks);
	if (rc == 0) {
		/* benchstat: by each configuration key's value, then by unit, each in first-seen
		 * order */
		order_ctx.r = r;
		order_ctx.ranks = ranks;
		qsort(r->tables, r->ntables, sizeof(*r->tables), compare_tables);
	}
	free(ranks);
	return rc;
}

int benchstat_leave_out(struct benchstat_result *r, const char *tag, const char *reason)
{
	return sel_left_out_add(&r->left_out, &r->nleft_out, tag, reason, true);
}

void benchstat_tables_release(struct benchstat_result *r)
{
	struct benchstat_build *b = r->build;
	if (b) {
		free(b->row_slots);
		for (size_t i = 0; i < r->nconfigs; i++)
			free(b->config_keys[i]);
		free(b->config_keys);
		free(b->config_len);
		free(b->config_slots);
		for (size_t i = 0; i < b->nunits; i++)
			free(b->units[i]);
		free(b->units);
		for (size_t i = 0; i < b->ncells; i++)
			free(b->cells[i].v);
		free(b->cells);
		free(b->cell_slots);
		for (size_t i = 0; i < b->nfiles; i++)
			free(b->files[i]);
		free(b->files);
		free(b);
	}
	for (size_t i = 0; i < r->ntables; i++) {
		for (size_t k = 0; k < r->tables[i].nrows; k++)
			for (int c = 0; c < 2; c++)
				free(r->tables[i].rows[k].c[c].values);
		free(r->tables[i].rows);
	}
	free(r->tables);
	for (size_t i = 0; r->configs && i < r->nconfigs; i++) {
		for (size_t k = 0; r->configs[i] && k < r->nkeys; k++)
			free(r->configs[i][k]);
		free(r->configs[i]);
	}
	free(r->configs);
	for (size_t i = 0; i < r->nkeys; i++)
		free(r->keys[i]);
	free(r->keys);
	for (size_t i = 0; i < r->nrows; i++)
		free(r->rows[i]);
	free(r->rows);
	sel_left_out_free(r->left_out, r->nleft_out);
	free(r->label[0]);
	free(r->label[1]);
	memset(r, 0, sizeof(*r));
}
