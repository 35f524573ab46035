/*
 * hash: SHA-256 of files and of byte strings, as lowercase hex.
 *
 * Used for the files table (what exactly was read) and the corpus content
 * hash (has the corpus changed since its import?). Backed by OpenSSL's
 * libcrypto rather than a hand-written digest. Files are hashed while
 * they are read, through common/infile.h (infile_read, infile_end,
 * infile_hash), so a hash describes exactly the bytes a reader used.
 */
#ifndef COREPLAN_HASH_H
#define COREPLAN_HASH_H

#include <stddef.h>
#include <stdint.h>

#define HASH_HEX_LEN 64

struct hash_ctx;

struct hash_ctx *hash_new(void);
void hash_update(struct hash_ctx *ctx, const void *data, size_t len);
/* Writes HASH_HEX_LEN hex digits and a NUL into hex; frees ctx. */
void hash_finish(struct hash_ctx *ctx, char hex[HASH_HEX_LEN + 1]);
void hash_free(struct hash_ctx *ctx);

#endif
