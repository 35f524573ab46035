/* hash: see hash.h. */
#include "hash.h"

/*
 * libcrypto's SHA-256 itself (SHA256_Init/Update/Final), not the EVP
 * interface: in OpenSSL 3 the first EVP digest loads the default provider
 * (5.3M instructions) and every EVP_DigestInit_ex with EVP_sha256() fetches
 * the digest again (26k each, most of hashing a small file); an import
 * hashes every file of a corpus, a tenth of it. Same digest, same bytes.
 * These functions are deprecated in OpenSSL 3 but kept: the EVP path is
 * what costs.
 */
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>
#include <stdlib.h>

struct hash_ctx {
	SHA256_CTX sha;
};

struct hash_ctx *hash_new(void)
{
	struct hash_ctx *ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return NULL;
	if (SHA256_Init(&ctx->sha) != 1) {
		hash_free(ctx);
		return NULL;
	}
	return ctx;
}

void hash_update(struct hash_ctx *ctx, const void *data, size_t len)
{
	SHA256_Update(&ctx->sha, data, len);
}

void hash_finish(struct hash_ctx *ctx, char hex[HASH_HEX_LEN + 1])
{
	static const char digits[] = "0123456789abcdef";
	unsigned char digest[SHA256_DIGEST_LENGTH];
	SHA256_Final(digest, &ctx->sha);
	for (unsigned int i = 0; i < SHA256_DIGEST_LENGTH && i < HASH_HEX_LEN / 2; i++) {
		hex[2 * i] = digits[digest[i] >> 4];
		hex[2 * i + 1] = digits[digest[i] & 15];
	}
	hex[HASH_HEX_LEN] = '\0';
	hash_free(ctx);
}

void hash_free(struct hash_ctx *ctx)
{
	free(ctx);
}
