/* report: see report.h; the sections are sections.c's, what they share compose.h's. */
#include "report.h"

#include "../common/err.h"
#include "../common/hash.h"
#include "../common/strbuf.h"
#include "../plot/plots.h"
#include "../schema/queries.h"
#include "compose.h"
#include "report_html.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef COREPLAN_VERSION
#define COREPLAN_VERSION "unknown"
#endif

/* ---- what the sections share (compose.h) ---- */

struct doc_section *report_section(struct report_ctx *c, const char *name, const char *title)
{
	return doc_section(c->doc, name, title);
}

void report_anchor(const char *title, char out[96])
{
	struct strbuf sb = STRBUF_INIT;
	snprintf(out, 96, "%s", doc_anchor(&sb, title) == 0 ? strbuf_str(&sb) : "");
	strbuf_release(&sb);
}

/* Record a section's outcome in the summary document. */
static void outcome(struct report_ctx *c, const char *name, const char *status, const char *reason)
{
	doc_row(c->sections);
	doc_set_text(c->sections, 0, name);
	doc_set_text(c->sections, 1, status);
	doc_set_text(c->sections, 2, reason);
}

void report_not_measured(struct report_ctx *c, struct doc_section *s, const char *name,
			 const char *why)
{
	doc_status(s, DOC_STATUS_NOT_MEASURED, "%s", why);
	outcome(c, name, "not measured", why);
	c->not_measured++;
}

int report_unsupported(struct report_ctx *c, struct doc_section *s, const char *name,
		       const char *title, enum finding_kind kind, const char *finding_why,
		       const char *status_why)
{
	char anchor[96];
	report_anchor(title, anchor);
	report_not_measured(c, s, name, status_why);
	return findings_unsupported(&c->findings, kind, "", anchor, finding_why);
}

void report_left_out(struct report_ctx *c, struct doc_section *s, const char *name, const char *why)
{
	doc_status(s, DOC_STATUS_LEFT_OUT, "%s", why);
	outcome(c, name, "left out", why);
	c->not_measured++;
}

void report_failed(struct report_ctx *c, struct doc_section *s, const char *name,
		   const char *heading)
{
	char why[1024];
	snprintf(why, sizeof(why), "%s", *err_msg() ? err_msg() : "the analysis failed");
	err_clear();
	doc_status_headed(s, heading, DOC_STATUS_NOT_MEASURED, "%s", why);
	outcome(c, name, "not measured", why);
	c->not_measured++;
}

void report_embed(struct report_ctx *c, struct doc_section *s, const char *name,
		  const char *heading, struct doc *d)
{
	if (!d)
		return;
	doc_embed(s, heading, d);
	outcome(c, name, "measured", NULL);
	c->measured++;
}

void report_group_part(struct report_part *p, const struct report_group *g, const char *what,
		       bool bare)
{
	snprintf(p->name, sizeof(p->name), "%s%s%s", what, *g->label ? " " : "", g->label);
	if (*g->label)
		snprintf(p->heading, sizeof(p->heading), "Group %s", g->label);
	else
		snprintf(p->heading, sizeof(p->heading), "All runs");
	p->head = bare && !*g->label ? NULL : p->heading;
}

void report_capped(struct doc_section *s, size_t found, size_t shown)
{
	if (found > shown)
		doc_text(s, "%zu groups; the first %zu are shown (narrow with --where or --group).",
			 found, shown);
}

void report_plot(struct report_ctx *c, struct doc_section *s, const struct plot_request *preq,
		 const struct plot_result *pres)
{
	struct strbuf context = STRBUF_INIT, caption = STRBUF_INIT, src = STRBUF_INIT;
	char name[64], *image = NULL, alt[64];
	struct plot_target t;
	int rc;
	snprintf(name, sizeof(name), "%02d-%s", ++c->plot_seq, plot_kind_name(preq->kind));
	plots_context(preq->filter, &context);
	/* drawn in the stage, named as it will be: DIR/plots */
	t = (struct plot_target){c->out.plots_dir,
				 name,
				 c->req->plot_format,
				 strbuf_str(&context),
				 {c->out.plots_shown, false, true, c->out.gnuplot},
				 &caption};
	rc = plots_draw(&t, preq, pres, &image);
	if (rc == 0) {
		snprintf(alt, sizeof(alt), "%s plot", plot_kind_name(preq->kind));
		strbuf_addf(&src, "plots/%s", image);
		doc_figure(s, strbuf_str(&src), alt, strbuf_str(&caption), true);
		c->plots++;
	} else if (rc == PLOT_NOT_INSTALLED) {
		doc_status(s, DOC_STATUS_NO_PLOT, "%s", REPORT_NO_GNUPLOT);
	} else {
		doc_status(s, DOC_STATUS_NO_PLOT, "%s", *err_msg() ? err_msg() : "gnuplot failed");
		err_clear();
	}
	free(image);
	strbuf_release(&context);
	strbuf_release(&caption);
	strbuf_release(&src);
}

void report_plot_of(struct report_ctx *c, struct doc_section *s, const struct plot_request *preq)
{
	struct plot_result pres;
	if (plot_run(c->db, preq, &pres) == 0) {
		report_plot(c, s, preq, &pres);
	} else {
		doc_status(s, DOC_STATUS_NO_PLOT, "no %s plot for these runs: %s",
			   plot_kind_name(preq->kind),
			   *err_msg() ? err_msg() : "its analysis failed");
		err_clear();
	}
	plot_result_release(&pres);
}

/* ---- the report's own parts ---- */

/*
 * The footer: the corpora and one SHA-256 over their content hashes and
 * the report's options (no path, no time: the same inputs, the same bytes).
 */
static int provenance(struct report_ctx *c)
{
	struct strbuf names = STRBUF_INIT, hashed = STRBUF_INIT;
	char corpora_hash[HASH_HEX_LEN + 1], hex[HASH_HEX_LEN + 1];
	struct hash_ctx *h = NULL;
	int rc = query_provenance(c->db, c->req->filter->corpus, &names, corpora_hash);
	if (rc == 0 && !(h = hash_new()))
		rc = err_set("out of memory");
	if (rc == 0) {
		/* the corpora's content and the options: what the report read */
		strbuf_addf(&hashed, "%s\n%s", corpora_hash,
			    c->req->options_text ? c->req->options_text : "");
		hash_update(h, hashed.buf ? hashed.buf : "", hashed.len);
		hash_finish(h, hex);
		doc_fact_text(c->doc, "corpora", "corpora:", DOC_PROVENANCE, strbuf_str(&names));
		doc_fact_text(
			c->doc, "report_sha256",
			"content sha256 of the imported files' hashes and this report's options:",
			DOC_PROVENANCE, hex);
		doc_fact_text(c->summary, "report_sha256", "report sha256 (content and options)",
			      DOC_QUIET, hex);
	}
	strbuf_release(&names);
	strbuf_release(&hashed);
	return rc;
}

/* Findings in the order of the list (findings_order): the primary group's, then the rest. */
static int findings_ordered(struct report_ctx *c, struct findings *out)
{
	const struct findings *from[2] = {&c->primary, &c->findings};
	return findings_order(from, 2, out);
}

static int compose(struct report_ctx *c)
{
	typedef int (*section_fn)(struct report_ctx *);
	static const section_fn sections[] = {
		report_corpus_section,  report_sweep_section,  report_noise_section,
		report_binders_section, report_levers_section, report_cpu_section,
		report_memory_section,  report_smt_section,    report_translate_section,
		report_fit_section,     report_sizing_section};
	struct findings list = {0};
	int rc = 0;
	/* the findings open the report; they come from the sections' results */
	c->findings_at = report_section(c, "findings", "Findings");
	for (size_t i = 0; rc == 0 && i < sizeof(sections) / sizeof(sections[0]); i++)
		rc = sections[i](c);
	if (rc == 0)
		rc = provenance(c);
	if (rc == 0)
		rc = findings_ordered(c, &list);
	if (rc == 0) {
		findings_to_section(c->findings_at, &list);
		findings_to_doc(c->summary, &list);
		rc = doc_error(c->doc);
	}
	findings_release(&list);
	return rc;
}

/* ---- the files ---- */

static int write_md(struct report_ctx *c, char **path)
{
	FILE *fp = NULL;
	int rc = report_output_create(&c->out, "report.md", &fp, path);
	if (rc == 0)
		rc = doc_write_md(c->doc, fp, 1, DOC_MD_TITLE | DOC_MD_FOOTER, NULL);
	if (fp) {
		int closed = report_output_close(&c->out, fp, "report.md");
		if (rc == 0)
			rc = closed;
	}
	return rc;
}

/* DIR/report.html (--html): the same document as one page, its plots inlined. */
static int write_html(struct report_ctx *c, char **path)
{
	FILE *fp = NULL;
	int rc = report_output_create(&c->out, "report.html", &fp, path);
	if (rc == 0)
		rc = report_html_write(c->doc, c->out.plots_dir, c->out.plots_shown, fp);
	if (fp) {
		int closed = report_output_close(&c->out, fp, "report.html");
		if (rc == 0)
			rc = closed;
	}
	return rc;
}

static void summary_new(struct report_ctx *c)
{
	static const struct doc_col cols[] = {
		DOC_COL_TEXT("section"),
		DOC_COL_TEXT("status"),
		DOC_COL_TEXT("reason"),
	};
	c->summary = doc_new("report", "Report");
	if (c->summary)
		c->sections = doc_table(doc_section(c->summary, "sections", "Sections"), cols, 3);
}

/*
 * What `coreplan report` prints: where the report went, what it measured,
 * its findings, and (quiet: json only) the whole report document.
 */
static void summary_finish(struct report_ctx *c, const char *md_path, const char *html_path)
{
	struct doc_section *whole = doc_section(c->summary, "report", "The report");
	doc_set_title(c->summary, "Report written to %s", md_path);
	doc_fact_text(c->summary, "report", "report", DOC_LISTED, md_path);
	if (html_path)
		doc_fact_text(c->summary, "html", "html page", DOC_LISTED, html_path);
	doc_fact_text(c->summary, "plots_dir", "plots", DOC_LISTED, c->out.plots_shown);
	doc_fact_int(c->summary, "sections_measured", "sections measured", DOC_LISTED,
		     (int64_t)c->measured, NULL);
	doc_fact_int(c->summary, "sections_not_measured", "sections not measured", DOC_LISTED,
		     (int64_t)c->not_measured, NULL);
	doc_fact_int(c->summary, "plots", "plots drawn", DOC_LISTED, (int64_t)c->plots, NULL);
	doc_section_quiet(whole);
	doc_embed(whole, NULL, c->doc);
	c->doc = NULL;
}

int report_run(sqlite3 *db, const struct report_request *req, struct doc **out)
{
	struct report_ctx c;
	struct report_plan_request preq = {.filter = req->filter,
					   .by = req->by,
					   .metric = req->metric,
					   .group = req->group,
					   .translate_from = req->translate_from,
					   .translate_to = req->translate_to,
					   .host = req->host,
					   .models = req->models,
					   .workers = req->workers};
	const char *corpus = req->filter->corpus;
	char *md_path = NULL, *html_path = NULL;
	int rc;
	memset(&c, 0, sizeof(c));
	*out = NULL;
	c.db = db;
	c.req = req;
	summary_new(&c);
	c.doc = doc_new("report", "Capacity report");
	if (!c.summary || !c.doc) {
		doc_free(c.summary);
		doc_free(c.doc);
		return err_set("out of memory");
	}
	doc_set_title(c.doc, "Capacity report: %s", corpus ? corpus : "all corpora");
	rc = report_plan_make(db, &preq, &c.plan);
	if (rc == 0)
		rc = report_output_open(&c.out, req->out_dir, db);
	if (rc == 0)
		rc = compose(&c);
	if (rc == 0)
		rc = write_md(&c, &md_path);
	if (rc == 0 && req->html)
		rc = write_html(&c, &html_path);
	if (rc == 0)
		rc = report_output_install(&c.out);
	if (rc == 0) {
		summary_finish(&c, md_path, html_path);
		rc = doc_error(c.summary);
	}
	if (rc == 0) {
		*out = c.summary;
		c.summary = NULL;
	}
	doc_free(c.summary);
	doc_free(c.doc);
	report_plan_release(&c.plan);
	findings_release(&c.findings);
	findings_release(&c.primary);
	report_output_release(&c.out);
	free(md_path);
	free(html_path);
	return rc;
}

const char *const report_views[] = {"sections", NULL};
