/* report_html: see report_html.h. */
#include "report_html.h"

#include "../common/err.h"
#include "../common/infile.h"
#include "../common/strbuf.h"
#include "../doc/doc.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* A plot is at most this large (gnuplot's SVGs of the real corpora are under 100 KiB). */
#define PLOT_MAX ((int64_t)64 << 20)

struct page_ctx {
	const char *plots_dir, *plots_shown;
};

static bool name_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
	       ch == '.' || ch == '-' || ch == '_';
}

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail);
	return n >= t && !strcmp(s + n - t, tail);
}

static int lower_eq(const char *s, size_t n, const char *word)
{
	if (strlen(word) != n)
		return 0;
	for (size_t i = 0; i < n; i++) {
		char ch = s[i];
		if (ch >= 'A' && ch <= 'Z')
			ch = (char)(ch - 'A' + 'a');
		if (ch != word[i])
			return 0;
	}
	return 1;
}

/* Skip what precedes <svg: blanks, <?xml ...?>, <!DOCTYPE ...>, comments. */
static size_t svg_start(const char *s, size_t len)
{
	size_t i = 0;
	for (;;) {
		const char *end;
		while (i < len && strchr(" \t\r\n", s[i]))
			i++;
		if (i + 4 <= len && !strncmp(s + i, "<!--", 4)) {
			end = strstr(s + i + 4, "-->");
			if (!end)
				return len;
			i = (size_t)(end - s) + 3;
		} else if (i + 2 <= len && (!strncmp(s + i, "<?", 2) || !strncmp(s + i, "<!", 2))) {
			end = memchr(s + i, '>', len - i);
			if (!end)
				return len;
			i = (size_t)(end - s) + 1;
		} else {
			return i;
		}
	}
}

static const char *const refused_elements[] = {"script", "foreignobject", "iframe", "object",
					       "embed",  "style",         "image",  NULL};

int report_html_inline_svg(const char *svg, size_t len, unsigned int figure, const char *alt_html,
			   const char *display, struct strbuf *out)
{
	char prefix[32];
	size_t i = svg_start(svg, len), last = 0;
	bool seen_svg = false;
	int bad = 0;
	snprintf(prefix, sizeof(prefix), "f%u-", figure);
	if (i + 4 > len || strncmp(svg + i, "<svg", 4))
		return err_set("cannot inline '%s': it does not start with <svg", display);
	if (strlen(svg) != len)
		return err_set("cannot inline '%s': it holds a NUL byte", display);
	while (i < len) {
		size_t name, nlen;
		if (!strncmp(svg + i, "<!--", 4)) { /* comments are dropped */
			const char *end = strstr(svg + i + 4, "-->");
			i = end ? (size_t)(end - svg) + 3 : len;
			continue;
		}
		if (!strncmp(svg + i, "<![CDATA[", 9) || !strncmp(svg + i, "<!", 2) ||
		    !strncmp(svg + i, "<?", 2))
			return err_set(
				"cannot inline '%s': it holds a CDATA section, a declaration "
				"or a processing instruction inside the svg",
				display);
		if (svg[i] != '<') {
			bad |= strbuf_add(out, svg + i, 1);
			i++;
			continue;
		}
		/* a tag: its name, then its attributes, quote-aware, up to '>' */
		name = i + 1 + (svg[i + 1] == '/');
		for (nlen = 0;
		     name + nlen < len && (name_char(svg[name + nlen]) || svg[name + nlen] == ':');)
			nlen++;
		for (size_t r = 0; refused_elements[r]; r++)
			if (lower_eq(svg + name, nlen, refused_elements[r]))
				return err_set("cannot inline '%s': it holds a <%s> element",
					       display, refused_elements[r]);
		bad |= strbuf_add(out, svg + i, name + nlen - i);
		if (!seen_svg && lower_eq(svg + name, nlen, "svg")) {
			bad |= strbuf_addf(out, " role=\"img\" aria-label=\"%s\"", alt_html);
			seen_svg = true;
		}
		i = name + nlen;
		while (i < len && svg[i] != '>') {
			size_t an = i, alen = 0, eq, q;
			if (!strchr(" \t\r\n", svg[i - 1]) ||
			    !(name_char(svg[i]) || svg[i] == ':')) {
				if (svg[i] == '"' || svg[i] == '\'')
					return err_set("cannot inline '%s': a quote outside an "
						       "attribute value",
						       display);
				bad |= strbuf_add(out, svg + i, 1);
				i++;
				continue;
			}
			while (an + alen < len &&
			       (name_char(svg[an + alen]) || svg[an + alen] == ':'))
				alen++;
			bad |= strbuf_add(out, svg + an, alen);
			i = an + alen;
			if (alen >= 2 && (svg[an] == 'o' || svg[an] == 'O') &&
			    (svg[an + 1] == 'n' || svg[an + 1] == 'N'))
				return err_set("cannot inline '%s': it has an event attribute",
					       display);
			/* gnuplot writes `fill = 'x'` too: blanks around '=' */
			for (eq = i; eq < len && strchr(" \t\r\n", svg[eq]);)
				eq++;
			for (q = eq + 1;
			     eq < len && svg[eq] == '=' && q < len && strchr(" \t\r\n", svg[q]);)
				q++;
			if (eq < len && svg[eq] == '=' && q < len &&
			    (svg[q] == '"' || svg[q] == '\'')) {
				char quote = svg[q];
				const char *vend = memchr(svg + q + 1, quote, len - q - 1);
				size_t v = q + 1, vlen;
				bool id = lower_eq(svg + an, alen, "id");
				bool href = alen >= 4 && lower_eq(svg + an + alen - 4, 4, "href");
				if (!vend)
					return err_set(
						"cannot inline '%s': an attribute value is not "
						"closed",
						display);
				vlen = (size_t)(vend - svg) - v;
				bad |= strbuf_add(out, svg + i, q + 1 - i);
				if (href && (vlen == 0 || svg[v] != '#'))
					return err_set(
						"cannot inline '%s': it links outside itself",
						display);
				if (id)
					bad |= strbuf_adds(out, prefix);
				if (href) {
					bad |= strbuf_adds(out, "#");
					bad |= strbuf_adds(out, prefix);
					v++;
					vlen--;
				}
				/* url(#x) in a value: the same prefix */
				for (size_t k = v; k < v + vlen; k++) {
					if (!strncmp(svg + k, "url(#", 5) && k + 5 <= v + vlen) {
						bad |= strbuf_adds(out, "url(#");
						bad |= strbuf_adds(out, prefix);
						k += 4;
					} else if (!strncmp(svg + k, "url(", 4) ||
						   lower_eq(svg + k, k + 11 <= v + vlen ? 11 : 0,
							    "javascript:")) {
						return err_set("cannot inline '%s': it refers "
							       "outside itself",
							       display);
					} else {
						bad |= strbuf_add(out, svg + k, 1);
					}
				}
				bad |= strbuf_add(out, &quote, 1);
				i = (size_t)(vend - svg) + 1;
			}
		}
		if (i < len) {
			bad |= strbuf_add(out, ">", 1);
			i++;
		}
		if (!strncmp(svg + name - 1, "/svg", 4) && nlen == 3) {
			last = i;
			break; /* the end of the root: what follows is dropped */
		}
	}
	if (!last)
		return err_set("cannot inline '%s': its <svg> is not closed", display);
	return bad ? err_set("out of memory") : 0;
}

static int base64(struct strbuf *out, const unsigned char *s, size_t len)
{
	static const char digits[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	int bad = 0;
	for (size_t i = 0; i < len; i += 3) {
		unsigned int v = (unsigned int)s[i] << 16;
		char q[4];
		if (i + 1 < len)
			v |= (unsigned int)s[i + 1] << 8;
		if (i + 2 < len)
			v |= s[i + 2];
		q[0] = digits[(v >> 18) & 63];
		q[1] = digits[(v >> 12) & 63];
		q[2] = i + 1 < len ? digits[(v >> 6) & 63] : '=';
		q[3] = i + 2 < len ? digits[v & 63] : '=';
		bad |= strbuf_add(out, q, 4);
	}
	return bad;
}

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int inline_png(const unsigned char *png, size_t len, const char *alt_html,
		      const char *display, struct strbuf *out)
{
	static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
	int bad;
	if (len < 24 || memcmp(png, sig, 8) || memcmp(png + 12, "IHDR", 4))
		return err_set("cannot inline '%s': not a PNG", display);
	bad = strbuf_addf(out,
			  "<img alt=\"%s\" width=\"%u\" height=\"%u\" src=\"data:image/png;base64,",
			  alt_html, (unsigned int)be32(png + 16), (unsigned int)be32(png + 20));
	bad |= base64(out, png, len);
	bad |= strbuf_adds(out, "\">");
	return bad ? err_set("out of memory") : 0;
}

/* doc_html_page's image: plots/NAME read from the stage and inlined. */
static int page_image(void *vctx, const char *src, unsigned int figure, const char *alt_html,
		      struct strbuf *out)
{
	struct page_ctx *ctx = vctx;
	struct strbuf path = STRBUF_INIT, display = STRBUF_INIT;
	struct infile f = {.fd = -1};
	const char *name = src + strlen("plots/");
	char *data = NULL;
	size_t len = 0;
	int rc = 0;
	bool ok = !strncmp(src, "plots/", 6) && *name && *name != '.';
	for (const char *p = name; ok && *p; p++)
		ok = name_char(*p);
	if (!ok || (!ends_with(name, ".svg") && !ends_with(name, ".png")))
		return err_set("cannot inline the image '%s': not a plot of the report", src);
	if (strbuf_addf(&path, "%s/%s", ctx->plots_dir, name) ||
	    strbuf_addf(&display, "%s/%s", ctx->plots_shown, name)) {
		rc = err_set("out of memory");
		goto done;
	}
	rc = infile_open(&f, strbuf_str(&path), strbuf_str(&display), PLOT_MAX);
	if (rc == 0)
		rc = infile_slurp(&f, &data, &len);
	if (rc == 0)
		rc = ends_with(name, ".svg") ? report_html_inline_svg(data, len, figure, alt_html,
								      strbuf_str(&display), out)
					     : inline_png((const unsigned char *)data, len,
							  alt_html, strbuf_str(&display), out);
done:
	infile_close(&f);
	free(data);
	strbuf_release(&path);
	strbuf_release(&display);
	return rc;
}

int report_html_write(const struct doc *report, const char *plots_dir, const char *plots_shown,
		      FILE *fp)
{
	struct page_ctx ctx = {plots_dir, plots_shown};
	struct doc_html_page page = {NULL, page_image, &ctx, true, DOC_MD_TITLE | DOC_MD_FOOTER};
	return doc_write_html_page(report, &page, NULL, fp);
}
