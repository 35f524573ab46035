/* queries: see queries.h. */
#include "queries.h"

#include "../common/err.h"

#include <string.h>

int query_provenance(sqlite3 *db, const char *corpus, struct strbuf *names,
		     char hex[HASH_HEX_LEN + 1])
{
	struct hash_ctx *ctx = hash_new();
	sqlite3_stmt *stmt = NULL;
	int step, bad = 0;
	if (!ctx)
		return err_set("out of memory");
	if (sqlite3_prepare_v2(db,
			       "SELECT name, content_hash FROM corpora WHERE ?1 IS NULL OR name = ?1"
			       " ORDER BY name",
			       -1, &stmt, NULL) != SQLITE_OK) {
		hash_free(ctx);
		return err_set("cannot read corpora: %s", sqlite3_errmsg(db));
	}
	sqlite3_bind_text(stmt, 1, corpus, -1, SQLITE_TRANSIENT);
	while ((step = sqlite3_step(stmt)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(stmt, 0);
		const char *h = (const char *)sqlite3_column_text(stmt, 1);
		hash_update(ctx, name, strlen(name) + 1);
		hash_update(ctx, h, strlen(h) + 1);
		bad |= strbuf_addf(names, "%s%s", names->len ? ", " : "", name);
	}
	sqlite3_finalize(stmt);
	hash_finish(ctx, hex);
	if (step != SQLITE_DONE)
		return err_set("cannot read corpora: %s", sqlite3_errmsg(db));
	return bad ? err_set("out of memory") : 0;
}

int query_find_run(sqlite3 *db, const char *tag, const char *corpus, const char *subcorpus,
		   int64_t *run_id, int *matches)
{
	sqlite3_stmt *stmt = NULL;
	int step;
	*matches = 0;
	if (sqlite3_prepare_v2(db,
			       "SELECT r.run_id FROM runs r JOIN corpora c USING (corpus_id)"
			       " WHERE r.tag = ?1 AND (?2 IS NULL OR c.name = ?2)"
			       " AND (?3 IS NULL OR r.subcorpus = ?3)",
			       -1, &stmt, NULL) != SQLITE_OK)
		return err_set("cannot look up the run: %s", sqlite3_errmsg(db));
	sqlite3_bind_text(stmt, 1, tag, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(stmt, 2, corpus, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(stmt, 3, subcorpus, -1, SQLITE_TRANSIENT);
	while ((step = sqlite3_step(stmt)) == SQLITE_ROW) {
		*run_id = sqlite3_column_int64(stmt, 0);
		(*matches)++;
	}
	sqlite3_finalize(stmt);
	if (step != SQLITE_DONE)
		return err_set("cannot look up the run: %s", sqlite3_errmsg(db));
	return 0;
}
