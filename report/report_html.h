/*
 * report_html: DIR/report.html, `coreplan report --html`: the report's
 * document rendered as one self-contained page (doc_write_html_page in
 * doc.h) with a contents list and every plot inlined, so the file reads
 * alone from a file:// URL, with no script and nothing fetched.
 *
 * A figure "plots/NAME" of the report becomes:
 *   NAME.svg  the SVG itself, inline: the XML declaration, doctype and
 *             comments dropped; its ids (and the #id references to them)
 *             prefixed "fN-" so figures' ids never collide with each
 *             other or with the headings'; role="img" and aria-label=alt.
 *             An SVG with a script, a foreignObject, an iframe, object or
 *             embed, a style element, an event attribute (on...) or a
 *             link that is not a #fragment is refused (an error naming
 *             it): gnuplot writes none of them.
 *   NAME.png  an <img> with a data:image/png;base64 URI, its width and
 *             height from the PNG header.
 * Any other image path (not plots/NAME with NAME of letters, digits,
 * '.', '-' and '_', not ending in .svg or .png) is an error.
 *
 * Plots are read (common/infile.h) from plots_dir, where the report drew
 * them (its stage); errors name them as under plots_shown (DIR/plots).
 * The same document and plots give the same bytes.
 */
#ifndef COREPLAN_REPORT_HTML_H
#define COREPLAN_REPORT_HTML_H

#include <stddef.h>
#include <stdio.h>

struct doc;
struct strbuf;

/* Render the report (its title, sections and footer) into fp (an outfile the caller closes). */
int report_html_write(const struct doc *report, const char *plots_dir, const char *plots_shown,
		      FILE *fp);

/* Append the SVG text svg[0, len) inlined as figure N (above), or an error naming `display`. */
int report_html_inline_svg(const char *svg, size_t len, unsigned int figure, const char *alt_html,
			   const char *display, struct strbuf *out);

#endif
