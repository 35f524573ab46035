/*
 * queries: read-only questions about the database that commands and the
 * report ask, as functions, so no SQL lives in cli/. Each binds its
 * parameters (schema/fields.h rules: corpus text never reaches SQL text).
 */
#ifndef COREPLAN_QUERIES_H
#define COREPLAN_QUERIES_H

#include <sqlite3.h>
#include <stdint.h>

#include "../common/hash.h"
#include "../common/strbuf.h"

/*
 * What a result was computed from: the corpora `corpus` names (NULL:
 * every corpus), their names comma-separated into *names, and one SHA-256
 * over each one's name and content hash (in name order) into hex. With no
 * corpus in the database, names is empty and hex the hash of nothing.
 */
int query_provenance(sqlite3 *db, const char *corpus, struct strbuf *names,
		     char hex[HASH_HEX_LEN + 1]);

/*
 * The runs whose tag is `tag` (in corpus `corpus` and sub-corpus
 * `subcorpus` when not NULL): how many there are into *matches and, when
 * there is at least one, the last one's run_id into *run_id.
 */
int query_find_run(sqlite3 *db, const char *tag, const char *corpus, const char *subcorpus,
		   int64_t *run_id, int *matches);

#endif
