/* doc write: format names and doc_write, which picks the writer (see doc.h). */
#include "doc_impl.h"

#include "../common/err.h"
#include "../common/num.h"
#include "../common/strbuf.h"

#include <errno.h>
#include <string.h>

int doc_format_parse(const char *name, enum doc_format *format)
{
	static const struct {
		const char *name;
		enum doc_format format;
	} names[] = {
		{"md", DOC_MD},     {"markdown", DOC_MD}, {"tsv", DOC_TSV},   {"csv", DOC_CSV},
		{"json", DOC_JSON}, {"html", DOC_HTML},   {"text", DOC_TERM},
	};
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i].name)) {
			*format = names[i].format;
			return 0;
		}
	return -1;
}

const char *doc_format_name(enum doc_format format)
{
	static const char *const names[] = {"md", "tsv", "csv", "json", "html", "text"};
	return (size_t)format < sizeof(names) / sizeof(names[0]) ? names[format] : "?";
}

int doc_write(const struct doc *d, enum doc_format format, const char *view, FILE *fp)
{
	int rc = doc_error(d);
	if (rc)
		return rc;
	if (view && !doc_has_view(d, view) &&
	    !((format == DOC_MD || format == DOC_JSON || format == DOC_HTML ||
	       format == DOC_TERM) &&
	      doc_find_section(d, view))) {
		struct strbuf names = STRBUF_INIT;
		rc = doc_view_names(d, &names);
		if (rc == 0)
			rc = err_usage("unknown view '%s' (views of %s: %s)", view, d->command,
				       strbuf_str(&names));
		strbuf_release(&names);
		return rc;
	}
	errno = 0;
	switch (format) {
	case DOC_MD:
		rc = doc_write_md(d, fp, 2, DOC_MD_ALL,
				  view && strcmp(view, "facts") ? view : NULL);
		break;
	case DOC_TSV:
		rc = doc_write_delim(d, view, fp, '\t');
		break;
	case DOC_CSV:
		rc = doc_write_delim(d, view, fp, ',');
		break;
	case DOC_JSON:
		rc = doc_write_json(d, view && strcmp(view, "facts") ? view : NULL, fp);
		break;
	case DOC_HTML:
		rc = doc_write_html(d, fp, view && strcmp(view, "facts") ? view : NULL);
		break;
	case DOC_TERM:
		rc = doc_write_text(d, fp, view && strcmp(view, "facts") ? view : NULL,
				    doc_term_width(fp));
		break;
	default:
		return err_set("unknown output format %d", (int)format);
	}
	if (rc)
		return rc;
	if (fflush(fp) != 0 || ferror(fp))
		return err_set("cannot write output: %s", strerror(errno ? errno : EIO));
	return 0;
}
