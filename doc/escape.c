/* doc escape: text made safe for Markdown, terminals and JSON (see doc.h). */
#include "doc_impl.h"

#include "../common/err.h"
#include "../common/num.h"
#include "../common/strbuf.h"

#include <stdio.h>
#include <string.h>

/* Length of the valid UTF-8 sequence at s, or 0 if it is not one. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n;
	unsigned int cp;
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xC2 && s[0] <= 0xDF) {
		n = 2;
		cp = s[0] & 0x1F;
	} else if (s[0] >= 0xE0 && s[0] <= 0xEF) {
		n = 3;
		cp = s[0] & 0x0F;
	} else if (s[0] >= 0xF0 && s[0] <= 0xF4) {
		n = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[i] & 0x3F);
	}
	if ((n == 3 && (cp < 0x800 || (cp >= 0xD800 && cp <= 0xDFFF))) ||
	    (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)))
		return 0;
	return n;
}

static bool alnum(unsigned char ch)
{
	return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

/* An underscore between two letters or digits (range_pct) cannot start emphasis. */
static bool intraword(const char *text, const unsigned char *at)
{
	return (const char *)at > text && alnum(at[-1]) && alnum(at[1]);
}

/*
 * The length of the character at s (a valid UTF-8 sequence, else one
 * byte) and whether a terminal must not get it as it is (*unsafe): a C0
 * control or DEL (ESC starts an escape sequence), a C1 control (U+0080 to
 * U+009F: CSI is U+009B) or a byte that is not valid UTF-8. Callers write
 * each byte of an unsafe character as \xNN.
 */
static size_t char_len(const unsigned char *s, bool *unsafe)
{
	size_t n = utf8_len(s);
	*unsafe = n == 0 || *s < 0x20 || *s == 0x7F || (n == 2 && s[0] == 0xC2 && s[1] <= 0x9F);
	return n ? n : 1;
}

int doc_term_escape(struct strbuf *sb, const char *text, const char *keep)
{
	int bad = 0;
	for (const unsigned char *s = (const unsigned char *)text; s && *s;) {
		bool unsafe;
		size_t n = char_len(s, &unsafe);
		if (!unsafe || (keep && strchr(keep, *s))) {
			bad |= strbuf_add(sb, (const char *)s, n);
			s += n;
			continue;
		}
		for (; n > 0; n--, s++)
			bad |= strbuf_addf(sb, "\\x%02X", *s);
	}
	return bad ? -1 : 0;
}

bool doc_term_safe(const char *text, const char *keep)
{
	for (const unsigned char *s = (const unsigned char *)text; s && *s;) {
		bool unsafe;
		size_t n = char_len(s, &unsafe);
		if (unsafe && !(keep && strchr(keep, *s)))
			return false;
		s += n;
	}
	return true;
}

/*
 * Markdown-safe text: what a terminal must not get (doc_term_escape) as
 * \xNN, `<` as &lt; and `&` as &amp; so no HTML tag or entity passes
 * through (a lone `>` cannot open one); in a table cell, a fact, a heading
 * or a left-out run (in_cell: a value) also `|` and the emphasis, code and
 * link characters, so a value reads as itself; in prose (notes, text)
 * `\\`, `*`, `_` and a `]` before `(`, so that no emphasis or link opens.
 */
int doc_md_escape(struct strbuf *sb, const char *text, bool in_cell)
{
	int bad = 0;
	for (const unsigned char *s = (const unsigned char *)text; s && *s; s++) {
		unsigned char ch = *s;
		bool unsafe;
		size_t n = char_len(s, &unsafe);
		if (ch == '\n' || ch == '\r' || ch == '\t') {
			bad |= strbuf_adds(sb, " ");
		} else if (unsafe) {
			for (size_t i = 0; i < n; i++)
				bad |= strbuf_addf(sb, "\\x%02X", s[i]);
			s += n - 1;
		} else if (n > 1) {
			bad |= strbuf_add(sb, (const char *)s, n);
			s += n - 1;
		} else if (ch == '<') {
			bad |= strbuf_adds(sb, "&lt;");
		} else if (ch == '&') {
			bad |= strbuf_adds(sb, "&amp;");
		} else if ((in_cell &&
			    (strchr("|\\*`[]", ch) || (ch == '_' && !intraword(text, s)))) ||
			   (!in_cell && (strchr("\\*", ch) || (ch == '_' && !intraword(text, s)) ||
					 (ch == ']' && s[1] == '(')))) {
			/* prose keeps its `code` spans and [lo, hi] intervals, never a link */
			char esc[3] = {'\\', (char)ch, '\0'};
			bad |= strbuf_adds(sb, esc);
		} else {
			bad |= strbuf_add(sb, (const char *)s, 1);
		}
	}
	return bad ? -1 : 0;
}

void doc_json_string(FILE *fp, const char *text)
{
	const unsigned char *s = (const unsigned char *)(text ? text : "");
	putc('"', fp);
	while (*s) {
		size_t n;
		switch (*s) {
		case '"':
			fputs("\\\"", fp);
			break;
		case '\\':
			fputs("\\\\", fp);
			break;
		case '\n':
			fputs("\\n", fp);
			break;
		case '\r':
			fputs("\\r", fp);
			break;
		case '\t':
			fputs("\\t", fp);
			break;
		default:
			if (*s < 0x20 || *s == 0x7F) {
				fprintf(fp, "\\u%04x", *s);
				break;
			}
			n = utf8_len(s);
			if (n == 0) {
				fputs("\\ufffd", fp);
				break;
			}
			if (n == 2 && s[0] == 0xC2 && s[1] <= 0x9F) { /* C1: CSI is U+009B */
				fprintf(fp, "\\u%04x", s[1]);
				s += n;
				continue;
			}
			fwrite(s, 1, n, fp);
			s += n;
			continue;
		}
		s++;
	}
	putc('"', fp);
}

int doc_anchor(struct strbuf *out, const char *title)
{
	size_t start = out->len;
	int bad = 0;
	for (const unsigned char *p = (const unsigned char *)(title ? title : ""); *p; p++) {
		unsigned char ch = *p;
		if (ch >= 'A' && ch <= 'Z')
			ch = (unsigned char)(ch - 'A' + 'a');
		if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-' ||
		    ch == '_' || ch >= 0x80)
			bad |= strbuf_add(out, (const char *)&ch, 1);
		else if (ch == ' ')
			bad |= strbuf_adds(out, "-");
	}
	if (out->len == start)
		bad |= strbuf_adds(out, "section");
	return bad ? -1 : 0;
}
