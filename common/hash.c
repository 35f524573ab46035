/* hash: see hash.h. */
#include "hash.h"

#include <openssl/evp.h>
#include <stdlib.h>

struct hash_ctx {
	EVP_MD_CTX *md;
};

struct hash_ctx *hash_new(void)
{
	struct hash_ctx *ctx = calloc(1, sizeof(*ctx));
	if (!ctx)
		return NULL;
	ctx->md = EVP_MD_CTX_new();
	if (!ctx->md || EVP_DigestInit_ex(ctx->md, EVP_sha256(), NULL) != 1) {
		hash_free(ctx);
		return NULL;
	}
	return ctx;
}

void hash_update(struct hash_ctx *ctx, const void *data, size_t len)
{
	EVP_DigestUpdate(ctx->md, data, len);
}

void hash_finish(struct hash_ctx *ctx, char hex[HASH_HEX_LEN + 1])
{
	static const char digits[] = "0123456789abcdef";
	unsigned char digest[EVP_MAX_MD_SIZE];
	unsigned int len = 0;
	EVP_DigestFinal_ex(ctx->md, digest, &len);
	for (unsigned int i = 0; i < len && i < HASH_HEX_LEN / 2; i++) {
		hex[2 * i] = digits[digest[i] >> 4];
		hex[2 * i + 1] = digits[digest[i] & 15];
	}
	hex[HASH_HEX_LEN] = '\0';
	hash_free(ctx);
}

void hash_free(struct hash_ctx *ctx)
{
	if (!ctx)
		return;
	EVP_MD_CTX_free(ctx->md);
	free(ctx);
}
