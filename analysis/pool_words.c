/* pool_words: the pooling in words, the refusal and the fact `pooled` (pooling.h). */
#include "pooling.h"

#include "../common/err.h"
#include "pool_codes.h"

#include <stdio.h>
#include <string.h>

static void field_words(struct strbuf *sb, const struct pool_field *f)
{
	strbuf_addf(sb, "%s (", f->name);
	for (size_t v = 0; v < f->nvalues && v < POOL_SHOWN_VALUES; v++)
		strbuf_addf(sb, "%s%s", v ? ", " : "", *f->values[v] ? f->values[v] : "''");
	if (f->nvalues > POOL_SHOWN_VALUES)
		strbuf_addf(sb, ", ... %zu values", f->nvalues);
	if (f->follows)
		strbuf_addf(sb, "; varies with %s", f->follows);
	strbuf_adds(sb, ")");
}

static void kind_words(struct strbuf *sb, const struct pooling *p, const struct pool_kind *k,
		       bool named)
{
	if (named)
		strbuf_addf(sb, "%s ", p->block_field);
	strbuf_addf(sb, "%s (levels %s of %s", k->block, k->levels, k->all);
	if (*k->cell)
		strbuf_addf(sb, "; %s", k->cell);
	strbuf_adds(sb, ")");
}

/*
 * The blocks that hold every level of a cell with block kinds and are a
 * kind nowhere: "1,2,3" (a missing block value, NA, is left out: --where
 * cannot name it).
 */
static void complete_list(struct strbuf *sb, const struct pooling *p, const char *sep)
{
	size_t shown_n = 0;
	for (size_t i = 0; i < p->ncomplete; i++) {
		bool kind = !strcmp(p->complete[i], "NA");
		for (size_t k = 0; k < p->nkinds && !kind; k++)
			kind = !strcmp(p->kinds[k].block, p->complete[i]);
		if (!kind)
			strbuf_addf(sb, "%s%s", shown_n++ ? sep : "", p->complete[i]);
	}
}

int pooling_refusal(const struct pooling *p, const char *command, const char *level,
		    const char *split)
{
	struct strbuf sb = STRBUF_INIT, pool = STRBUF_INIT, group = STRBUF_INIT;
	struct strbuf blocks = STRBUF_INIT;
	const struct pool_field *example = NULL;
	size_t nf = 0;
	bool kinds = p->nkinds > 0 && !p->kinds_pooled;
	int rc;
	if (level)
		strbuf_addf(&sb, "%s would pool runs that differ in more than the level (%s)",
			    command, level);
	else
		strbuf_addf(&sb, "%s would pool runs that differ", command);
	for (size_t i = 0; i < p->nfields; i++) {
		const struct pool_field *f = &p->fields[i];
		if (f->pooled)
			continue;
		strbuf_adds(&sb, nf++ ? ", " : ": ");
		field_words(&sb, f);
		if (!f->follows) {
			strbuf_addf(&pool, "%s%s", pool.len ? "," : "", f->name);
			strbuf_addf(&group, "%s%s", group.len ? "," : "", f->name);
			if (!example)
				example = f;
		}
	}
	if (kinds) {
		complete_list(&blocks, p, ",");
		strbuf_adds(&sb, nf ? "; and " : ": ");
		for (size_t k = 0; k < p->nkinds; k++) {
			strbuf_adds(&sb, k ? ", " : "");
			kind_words(&sb, p, &p->kinds[k], true);
		}
		strbuf_addf(&sb, " %s its own arm, not a replicate of the complete %ss (",
			    p->nkinds == 1 ? "is" : "are each", p->block_field);
		complete_list(&sb, p, ", ");
		strbuf_adds(&sb, ": runs at every level)");
		strbuf_addf(&pool, "%s%s", pool.len ? "," : "", p->block_field);
	}
	if (example) {
		strbuf_addf(&sb, ". Keep one condition with --where %s=%s", example->name,
			    example->values[0]);
		if (kinds && blocks.len)
			strbuf_addf(&sb, " (and --where %s=%s for the complete %ss)",
				    p->block_field, strbuf_str(&blocks), p->block_field);
	} else if (blocks.len) {
		strbuf_addf(&sb, ". Keep the complete %ss with --where %s=%s", p->block_field,
			    p->block_field, strbuf_str(&blocks));
	} else {
		strbuf_adds(&sb, ". Narrow the runs with --where");
	}
	if (split && group.len)
		strbuf_addf(&sb, ", split with %s %s", split, strbuf_str(&group));
	strbuf_addf(&sb, ", or pool on purpose with --pool %s", strbuf_str(&pool));
	rc = sb.buf ? err_usage("%s", strbuf_str(&sb)) : err_set("out of memory");
	strbuf_release(&sb);
	strbuf_release(&pool);
	strbuf_release(&group);
	strbuf_release(&blocks);
	return rc;
}

int pooling_describe(const struct pooling *p, struct strbuf *sb)
{
	size_t n = 0;
	for (size_t i = 0; i < p->nfields; i++) {
		if (!p->fields[i].pooled)
			continue;
		strbuf_adds(sb, n++ ? "; " : "");
		field_words(sb, &p->fields[i]);
	}
	if (p->nkinds > 0 && p->kinds_pooled) {
		strbuf_adds(sb, n ? "; " : "");
		strbuf_addf(sb, "%s kinds ", p->block_field);
		for (size_t k = 0; k < p->nkinds; k++) {
			strbuf_adds(sb, k ? ", " : "");
			kind_words(sb, p, &p->kinds[k], false);
		}
		strbuf_addf(sb, " with the complete %ss ", p->block_field);
		complete_list(sb, p, ", ");
	}
	return 0;
}
