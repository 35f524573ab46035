/* report: see report.h. */
#include "report.h"

#include "../analysis/compare.h"
#include "../analysis/cores.h"
#include "../analysis/fit.h"
#include "../analysis/memory.h"
#include "../analysis/noise.h"
#include "../analysis/plot_runs.h"
#include "../analysis/smt.h"
#include "../analysis/sweep.h"
#include "../analysis/translate.h"
#include "../common/err.h"
#include "../common/hash.h"
#include "../common/infile.h"
#include "../common/outfile.h"
#include "../common/strbuf.h"
#include "../plot/plots.h"
#include "../plot/sizing_plot.h"
#include "../reports/builders.h"
#include "../schema/queries.h"
#include "findings.h"
#include "output.h"
#include "plan.h"
#include "report_html.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#ifndef COREPLAN_VERSION
#define COREPLAN_VERSION "unknown"
#endif

/* What one report run holds while it writes. */
struct report_ctx {
	sqlite3 *db;
	const struct report_request *req;
	struct report_plan plan;
	FILE *md;   /* the body, in memory: the findings go above it */
	FILE *file; /* report.md in the stage */
	char *body;
	size_t body_len;
	struct findings findings;
	struct findings primary; /* the findings of the sweep group with the most runs */
	size_t primary_runs, primary_index;
	struct report_output out; /* --out and the stage the report is written in */
	char *md_path;            /* DIR/report.md */
	char *html_path;          /* DIR/report.html (--html), or NULL */
	int plot_seq;
	struct doc *summary;
	struct doc_table *sections; /* the summary's table of sections */
	size_t measured, not_measured, plots;
};

/* ---- writing ---- */

static void heading(struct report_ctx *c, int level, const char *text)
{
	struct strbuf sb = STRBUF_INIT;
	for (int i = 0; i < level; i++)
		strbuf_adds(&sb, "#");
	strbuf_adds(&sb, " ");
	doc_md_escape(&sb, text, false);
	fprintf(c->md, "%s\n\n", strbuf_str(&sb));
	strbuf_release(&sb);
}

static void paragraph(struct report_ctx *c, const char *text)
{
	struct strbuf sb = STRBUF_INIT;
	doc_md_escape(&sb, text, false);
	fprintf(c->md, "%s\n\n", strbuf_str(&sb));
	strbuf_release(&sb);
}

/* Record a section's outcome in the summary document. */
static void outcome(struct report_ctx *c, const char *section, const char *status,
		    const char *reason)
{
	doc_row(c->sections);
	doc_set_text(c->sections, 0, section);
	doc_set_text(c->sections, 1, status);
	doc_set_text(c->sections, 2, reason);
}

/* A section the runs cannot support: the reason, in the report and the summary. */
static void not_measured(struct report_ctx *c, const char *section, const char *why)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_adds(&sb, "**Not measured**: ");
	doc_md_escape(&sb, why, false);
	fprintf(c->md, "%s\n\n", strbuf_str(&sb));
	strbuf_release(&sb);
	outcome(c, section, "not measured", why);
	c->not_measured++;
}

/* A section the corpus's shape does not call for: one line, no tables. */
static void left_out(struct report_ctx *c, const char *section, const char *why)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_adds(&sb, "*Left out*: ");
	doc_md_escape(&sb, why, false);
	fprintf(c->md, "%s\n\n", strbuf_str(&sb));
	strbuf_release(&sb);
	outcome(c, section, "left out", why);
	c->not_measured++;
}

/* The anchor of a "## TITLE" heading (GitHub's rule: lower case, punctuation dropped, '-' for ' ').
 */
static void anchor_of(const char *title, char *out, size_t size)
{
	size_t n = 0;
	for (const char *p = title; *p && n + 1 < size; p++) {
		unsigned char ch = (unsigned char)*p;
		if (ch >= 'A' && ch <= 'Z')
			out[n++] = (char)(ch - 'A' + 'a');
		else if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '-' ||
			 ch == '_')
			out[n++] = (char)ch;
		else if (ch == ' ')
			out[n++] = '-';
	}
	out[n] = '\0';
}

#define SWEEP_TITLE "Sweep"
#define NOISE_TITLE "Noise"
#define CPU_TITLE "CPU: recomputed cores and tick rate"
#define MEMORY_TITLE "Memory per session"
#define TRANSLATE_TITLE "Cross-CPU translation"
#define SIZING_TITLE "Sizing"

/* A section's analysis failed: its message becomes the reason; the report goes on. */
static void failed(struct report_ctx *c, const char *section)
{
	char why[1024];
	snprintf(why, sizeof(why), "%s", *err_msg() ? err_msg() : "the analysis failed");
	err_clear();
	not_measured(c, section, why);
}

/* A command's document under the report's heading at `level` (its own title left out). */
static int embed(struct report_ctx *c, const char *section, const struct doc *d, int level)
{
	int rc = doc_write_md(d, c->md, level, DOC_MD_FACTS | DOC_MD_LEFT_OUT, NULL);
	if (rc == 0) {
		outcome(c, section, "measured", NULL);
		c->measured++;
	}
	return rc;
}

/* "*Plot not drawn: WHY*": why an image is missing, one line (strip_plots in the tests). */
static void no_plot(struct report_ctx *c, const char *why)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_adds(&sb, "*Plot not drawn: ");
	doc_md_escape(&sb, why, false);
	fprintf(c->md, "%s*\n\n", strbuf_str(&sb));
	strbuf_release(&sb);
}

/* "Figure: CAPTION" under an image: what it shows and which runs (plots.h). */
static void figure(struct report_ctx *c, const char *caption)
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_adds(&sb, "Figure: ");
	strbuf_adds(&sb, caption);
	paragraph(c, strbuf_str(&sb));
	strbuf_release(&sb);
}

#define NO_GNUPLOT "gnuplot is not installed (apt-get install gnuplot-nox)."

/* The image of a plot result, or why there is none. */
static void plot(struct report_ctx *c, const struct plot_request *preq,
		 const struct plot_result *pres)
{
	struct strbuf context = STRBUF_INIT, caption = STRBUF_INIT;
	char name[64], *image = NULL;
	struct plot_target t;
	int rc;
	snprintf(name, sizeof(name), "%02d-%s", ++c->plot_seq, plot_kind_name(preq->kind));
	plots_context(preq->filter, &context);
	/* drawn in the stage, named as it will be: DIR/plots */
	t = (struct plot_target){c->out.plots_dir,
				 name,
				 c->req->plot_format,
				 strbuf_str(&context),
				 {c->out.plots_shown, false, true},
				 &caption};
	rc = plots_draw(&t, preq, pres, &image);
	if (rc == 0) {
		fprintf(c->md, "![%s plot](plots/%s)\n\n", plot_kind_name(preq->kind), image);
		figure(c, strbuf_str(&caption));
		fprintf(c->md, "(data: `plots/%s.tsv`, script: `plots/%s.gp`)\n\n", image, image);
		c->plots++;
	} else if (rc == PLOT_NOT_INSTALLED) {
		no_plot(c, NO_GNUPLOT);
	} else {
		no_plot(c, *err_msg() ? err_msg() : "gnuplot failed");
		err_clear();
	}
	free(image);
	strbuf_release(&context);
	strbuf_release(&caption);
}

/* Run a plot's analysis and draw it; when the analysis has nothing to draw, say why. */
static void plot_of(struct report_ctx *c, const struct plot_request *preq)
{
	struct plot_result pres;
	if (plot_run(c->db, preq, &pres) == 0) {
		plot(c, preq, &pres);
	} else {
		char why[1024];
		snprintf(why, sizeof(why), "no %s plot for these runs: %s",
			 plot_kind_name(preq->kind),
			 *err_msg() ? err_msg() : "its analysis failed");
		err_clear();
		no_plot(c, why);
	}
	plot_result_release(&pres);
}

/* ---- the sections ---- */

static int corpus_section(struct report_ctx *c)
{
	struct corpus_listing listing = {0};
	struct text_list excl = {0}, missing = {0};
	struct doc *d = NULL;
	const char *corpus = c->req->filter->corpus;
	struct strbuf filter = STRBUF_INIT;
	int rc = query_corpora(c->db, &listing);
	if (rc == 0)
		rc = query_exclusions(c->db, corpus, &excl);
	if (rc == 0)
		rc = query_missing_files(c->db, corpus, &missing);
	if (rc == 0)
		rc = build_report_corpus(&listing, corpus, &excl, &missing, &d);
	heading(c, 2, "Corpus");
	if (rc == 0)
		rc = embed(c, "corpus", d, 2);
	if (rc == 0 && run_filter_describe(c->req->filter, &filter) == 0) {
		struct strbuf line = STRBUF_INIT;
		strbuf_addf(&line,
			    "Filter: %s. Sections below that the runs cannot support say "
			    "Not measured and why.",
			    strbuf_str(&filter));
		paragraph(c, strbuf_str(&line));
		strbuf_release(&line);
	}
	if (rc == 0 && c->plan.references_note) {
		struct strbuf line = STRBUF_INIT;
		strbuf_addf(&line, "%c%s.", toupper((unsigned char)*c->plan.references_note),
			    c->plan.references_note + 1);
		paragraph(c, strbuf_str(&line));
		strbuf_release(&line);
	}
	strbuf_release(&filter);
	doc_free(d);
	text_list_release(&excl);
	text_list_release(&missing);
	corpus_listing_release(&listing);
	return rc;
}

/*
 * A group's heading under a section ("### Group gogc=default sessions=100"
 * or "### All runs") and its name in the summary ("sweep gogc=..."); the
 * heading level its document is embedded at. With `bare`, a section of one
 * group that is all the runs has no heading of its own (level 2).
 */
static int group_heading(struct report_ctx *c, const struct report_group *g, char *section,
			 size_t size, const char *what, bool bare)
{
	snprintf(section, size, "%s%s%s", what, *g->label ? " " : "", g->label);
	if (bare && !*g->label)
		return 2;
	if (*g->label) {
		struct strbuf title = STRBUF_INIT;
		strbuf_addf(&title, "Group %s", g->label);
		heading(c, 3, strbuf_str(&title));
		strbuf_release(&title);
	} else {
		heading(c, 3, "All runs");
	}
	return 3;
}

/* "8 groups; the first 8 are shown" when the plan capped them. */
static void capped(struct report_ctx *c, size_t found, size_t shown)
{
	char line[256];
	if (found <= shown)
		return;
	snprintf(line, sizeof(line),
		 "%zu groups; the first %zu are shown (narrow with --where or --group).", found,
		 shown);
	paragraph(c, line);
}

/*
 * The findings of one sweep group: scaling and SMT kept for the group with
 * the most runs (the primary group), the target's measured verdict for
 * every group.
 */
static int sweep_findings(struct report_ctx *c, const struct report_group *g, size_t index,
			  const struct sweep_result *r)
{
	char anchor[96];
	int rc = 0;
	anchor_of(SWEEP_TITLE, anchor, sizeof(anchor));
	if (r->sel.n > c->primary_runs) {
		findings_release(&c->primary);
		c->primary_runs = r->sel.n;
		c->primary_index = index;
		rc = findings_sweep(&c->primary, &r->sw, r->sel.n, c->plan.by, g->label, anchor);
	}
	if (rc == 0 && c->req->size && c->req->size->sessions.given && c->plan.by &&
	    !strcmp(c->plan.by, "sessions"))
		rc = findings_target_sweep(&c->findings, &r->sw, c->req->size->target,
					   &c->req->size->sessions, g->label, anchor);
	return rc;
}

static int sweep_group(struct report_ctx *c, const struct report_group *g, size_t index)
{
	struct plot_request preq = {PLOT_KIND_SCALING, &g->filter, c->plan.by, NULL, NULL, NULL,
				    c->req->host};
	struct plot_result pres;
	struct sweep_request sreq;
	struct doc *d = NULL;
	char section[600];
	int rc;
	group_heading(c, g, section, sizeof(section), "sweep", false);
	memset(&sreq, 0, sizeof(sreq));
	sreq.filter = &g->filter;
	sreq.by = c->plan.by;
	sweep_options_init(&sreq.opts);
	/* the scaling plot's analysis is sweep_run's (default options): one result for both */
	if (plot_run(c->db, &preq, &pres) != 0) {
		failed(c, section);
		plot_result_release(&pres);
		return 0;
	}
	sreq.host = c->req->host;
	rc = build_sweep(&sreq, &pres.sweep, &d);
	if (rc == 0)
		rc = embed(c, section, d, 3);
	if (rc == 0)
		rc = sweep_findings(c, g, index, &pres.sweep);
	if (rc == 0) {
		struct plot_request blocks = {
			PLOT_KIND_BLOCKS, &g->filter, c->plan.by, NULL, NULL, NULL};
		plot(c, &preq, &pres);
		plot_of(c, &blocks);
	}
	doc_free(d);
	plot_result_release(&pres);
	return rc;
}

/* How the groups were made, once above the sweep groups. */
static void groups_paragraph(struct report_ctx *c)
{
	struct strbuf line = STRBUF_INIT;
	if (!c->plan.ngroup && c->plan.ngroups <= 1)
		return;
	strbuf_adds(&line, "The runs are grouped, not pooled: a group's runs differ only in the "
			   "level and the block");
	for (size_t i = 0; i < c->plan.ngroup; i++)
		strbuf_addf(&line, "%s%s", i ? ", " : " (groups by ", c->plan.group[i]);
	strbuf_adds(&line, c->plan.ngroup ? ")" : "");
	strbuf_adds(&line, "; a block that holds only some of a group's levels is a group of its "
			   "own (README.md, \"No silent pooling\"). The noise and fit sections use "
			   "the same groups.");
	paragraph(c, strbuf_str(&line));
	strbuf_release(&line);
}

static int sweep_sections(struct report_ctx *c)
{
	int rc = 0;
	heading(c, 2, SWEEP_TITLE);
	if (!c->plan.by) {
		char anchor[96];
		anchor_of(SWEEP_TITLE, anchor, sizeof(anchor));
		rc = findings_unsupported(&c->findings, FINDING_SCALING, "", anchor,
					  "no field has two or more levels among the runs");
		not_measured(c, "sweep",
			     "no field has two or more levels among the runs (gomaxprocs, "
			     "sessions); pass --by FIELD");
		return rc;
	}
	groups_paragraph(c);
	capped(c, c->plan.ngroups_found, c->plan.ngroups);
	for (size_t i = 0; rc == 0 && i < c->plan.ngroups; i++)
		rc = sweep_group(c, &c->plan.groups[i], i);
	return rc;
}

static int noise_group(struct report_ctx *c, const struct report_group *g, bool bare, size_t index)
{
	struct noise_request req;
	struct noise_result res;
	struct doc *d = NULL;
	char section[600];
	int rc = 0;
	int level = group_heading(c, g, section, sizeof(section), "noise", bare);
	memset(&req, 0, sizeof(req));
	req.filter = &g->filter;
	req.by = c->plan.by;
	noise_options_init(&req.opts);
	if (noise_run(c->db, &req, &res) != 0)
		failed(c, section);
	else if ((rc = build_noise(&req, &res, &d)) == 0)
		rc = embed(c, section, d, level);
	/*
	 * the primary group's verdict, and every other group whose sweep has
	 * replicated steps (which steps of which sweep are resolved is the finding)
	 */
	if (rc == 0 && d &&
	    ((c->primary_runs && index == c->primary_index) ||
	     (res.nz.nverdicts > 0 && (!strcmp(res.nz.verdicts[0].verdict, NOISE_RESOLVED) ||
				       !strcmp(res.nz.verdicts[0].verdict, NOISE_WITHIN))))) {
		char anchor[96];
		anchor_of(NOISE_TITLE, anchor, sizeof(anchor));
		rc = findings_noise(&c->findings, &res.nz, res.sel.n, g->label, anchor);
	}
	doc_free(d);
	noise_result_release(&res);
	return rc;
}

static int noise_section(struct report_ctx *c)
{
	int rc = 0;
	heading(c, 2, NOISE_TITLE);
	if (!c->plan.by) {
		not_measured(c, "noise", "no sweep (no field with two or more levels)");
		return 0;
	}
	for (size_t i = 0; rc == 0 && i < c->plan.ngroups; i++)
		rc = noise_group(c, &c->plan.groups[i], c->plan.ngroups == 1, i);
	return rc;
}

/* The CPU figures of the runs `filter` selects, under `level`; their tick finding. */
static int cpu_part(struct report_ctx *c, const struct run_filter *filter, const char *section,
		    const char *subject, int level)
{
	struct cores_request req;
	struct cores_result res;
	struct doc *d = NULL;
	char anchor[96];
	int rc = 0;
	memset(&req, 0, sizeof(req));
	req.filter = filter;
	cores_options_init(&req.opts);
	anchor_of(CPU_TITLE, anchor, sizeof(anchor));
	if (cores_run(c->db, &req, &res) != 0)
		failed(c, section);
	else if ((rc = build_cores(&req, &res, &d)) == 0)
		rc = embed(c, section, d, level);
	if (rc == 0 && d)
		rc = findings_cpu(&c->findings, &res, subject, anchor);
	doc_free(d);
	cores_result_release(&res);
	return rc;
}

/*
 * Recomputed CPU, one part per instance when the runs ran on several (the
 * tick check is a property of the guest), left out when no run has a trace.
 */
static int cpu_section(struct report_ctx *c)
{
	struct text_list inst = {0};
	bool more = false;
	int rc = 0;
	heading(c, 2, CPU_TITLE);
	if (!c->plan.trace_tag) {
		left_out(c, "cpu",
			 "no run has a sample trace, so there are no recomputed CPU figures and no "
			 "tick check");
		return 0;
	}
	if (query_distinct(c->db, &c->plan.filter, "instance", 8, &inst, &more) != 0) {
		err_clear(); /* no instance field: one part */
		inst.n = 0;
	}
	if (inst.n < 2) {
		rc = cpu_part(c, &c->plan.filter, "cpu", inst.n ? inst.items[0] : "", 2);
	} else {
		paragraph(c, "The runs ran on several instances: one part per instance (the tick "
			     "check is the guest's).");
		for (size_t i = 0; rc == 0 && i < inst.n; i++) {
			struct run_filter f;
			const char *value[1] = {inst.items[i]};
			char title[300], section[300];
			snprintf(title, sizeof(title), "Instance %s", inst.items[i]);
			snprintf(section, sizeof(section), "cpu instance %s", inst.items[i]);
			heading(c, 3, title);
			rc = run_filter_copy(&f, &c->plan.filter);
			if (rc == 0)
				rc = run_filter_add(&f, "instance", value, 1);
			if (rc == 0)
				rc = cpu_part(c, &f, section, inst.items[i], 3);
			run_filter_release(&f);
		}
	}
	if (rc == 0) {
		struct plot_request preq = {PLOT_KIND_TRACE,  &c->plan.filter, NULL, NULL, NULL,
					    c->plan.trace_tag};
		struct strbuf line = STRBUF_INIT;
		strbuf_addf(&line,
			    "Trace of `%s`, the first listed run with a trace:", c->plan.trace_tag);
		paragraph(c, strbuf_str(&line));
		strbuf_release(&line);
		plot_of(c, &preq);
	}
	text_list_release(&inst);
	return rc;
}

static int memory_group(struct report_ctx *c, const struct report_group *g, bool bare)
{
	struct memory_request req;
	struct memory_result res;
	struct doc *d = NULL;
	char section[600];
	int rc = 0;
	int level = group_heading(c, g, section, sizeof(section), "memory", bare);
	memset(&req, 0, sizeof(req));
	req.filter = &g->filter;
	req.by = "sessions";
	cores_options_init(&req.cores);
	if (memory_run(c->db, &req, &res) != 0)
		failed(c, section);
	else if ((rc = build_memory(&req, &res, &d)) == 0)
		rc = embed(c, section, d, level);
	if (rc == 0 && d) {
		char anchor[96];
		anchor_of(MEMORY_TITLE, anchor, sizeof(anchor));
		/* the default metric, load_rss_kb */
		rc = findings_memory(&c->findings, &res.mem, "kB/session", g->label, anchor);
	}
	if (rc == 0 && d) {
		struct plot_request preq = {
			PLOT_KIND_MEMORY, &g->filter, "sessions", NULL, NULL, NULL};
		plot_of(c, &preq);
	}
	doc_free(d);
	memory_result_release(&res);
	return rc;
}

static int memory_section(struct report_ctx *c)
{
	int rc = 0;
	heading(c, 2, MEMORY_TITLE);
	if (!c->plan.memory) {
		char anchor[96];
		anchor_of(MEMORY_TITLE, anchor, sizeof(anchor));
		rc = findings_unsupported(&c->findings, FINDING_MEMORY, "", anchor,
					  "the runs have fewer than two session counts");
		not_measured(c, "memory",
			     "the runs have fewer than two session counts, so no slope across "
			     "sessions");
		return rc;
	}
	if (c->plan.nmemory_found == 0) {
		not_measured(c, "memory",
			     "no group of runs that differ only in sessions has two or more "
			     "session counts, so no slope across sessions");
		return 0;
	}
	if (c->plan.memory_skipped) {
		char line[256];
		snprintf(line, sizeof(line),
			 "Fitted per group of runs that differ only in sessions and the block; "
			 "%zu group%s with one session count %s no slope and %s left out.",
			 c->plan.memory_skipped, c->plan.memory_skipped == 1 ? "" : "s",
			 c->plan.memory_skipped == 1 ? "has" : "have",
			 c->plan.memory_skipped == 1 ? "is" : "are");
		paragraph(c, line);
	}
	capped(c, c->plan.nmemory_found, c->plan.nmemory_groups);
	for (size_t i = 0; rc == 0 && i < c->plan.nmemory_groups; i++)
		rc = memory_group(c, &c->plan.memory_groups[i], c->plan.nmemory_groups == 1);
	return rc;
}

/*
 * The SMT figures of one host's runs (the filter and topology_host = host):
 * the plan's filter, or one group's (label) when the runs fall in several
 * groups, so that no part pools runs of different conditions.
 */
static int smt_part(struct report_ctx *c, const struct run_filter *base, const char *label,
		    const char *host, bool bare)
{
	struct run_filter filter;
	struct smt_request req;
	struct smt_result res;
	struct doc *d = NULL;
	char section[700];
	const char *value[1] = {host};
	int rc = run_filter_copy(&filter, base);
	snprintf(section, sizeof(section), "smt%s%s%s%s", bare ? "" : " host ", bare ? "" : host,
		 label && *label ? " group " : "", label ? label : "");
	if (!bare || (label && *label)) {
		char title[600];
		snprintf(title, sizeof(title), "%s%s%s%s", bare ? "" : "Host ", bare ? "" : host,
			 !bare && label && *label ? ", group "
			 : label && *label        ? "Group "
						  : "",
			 label ? label : "");
		heading(c, 3, title);
	}
	if (rc == 0 && !c->req->host)
		rc = run_filter_add(&filter, "topology_host", value, 1);
	memset(&req, 0, sizeof(req));
	req.filter = &filter;
	req.host = host;
	if (rc == 0 && smt_measure(c->db, &req, &res) != 0)
		failed(c, section);
	else if (rc == 0 && (rc = build_smt(&req, &res, &d)) == 0)
		rc = embed(c, section, d, bare && !(label && *label) ? 2 : 3);
	doc_free(d);
	if (rc == 0)
		smt_result_release(&res);
	run_filter_release(&filter);
	return rc;
}

/* One host's SMT figures: per sweep group when there are several (no silent pooling). */
static int smt_host(struct report_ctx *c, const char *host, bool bare)
{
	int rc = 0;
	if (c->plan.ngroups <= 1)
		return smt_part(c, c->plan.ngroups ? &c->plan.groups[0].filter : &c->plan.filter,
				NULL, host, bare);
	for (size_t i = 0; rc == 0 && i < c->plan.ngroups; i++)
		rc = smt_part(c, &c->plan.groups[i].filter, c->plan.groups[i].label, host, bare);
	return rc;
}

/* One SMT section per host the runs ran on (their topology_host), at most 8. */
static int smt_section(struct report_ctx *c)
{
	struct text_list hosts = {0};
	bool more = false;
	int rc = 0;
	heading(c, 2, "SMT: what a second hardware thread is worth");
	if (c->plan.by && !c->plan.scaling) {
		char why[300];
		snprintf(why, sizeof(why),
			 "the sweep is over %s, which does not count workers: no SMT analysis",
			 c->plan.by);
		left_out(c, "smt", why);
		return 0;
	}
	if (c->req->host) {
		paragraph(c, "Levels counted on the host given (--host, or `host =` in --config).");
		return smt_host(c, c->req->host, true);
	}
	if (!c->plan.smt) {
		not_measured(c, "smt",
			     "no topology is recorded for these runs (coreplan import --host, a "
			     "manifest's `topology = FILE`, a catalog instance, or `coreplan smt "
			     "--host`)");
		return 0;
	}
	rc = query_distinct(c->db, &c->plan.filter, "topology_host", 8, &hosts, &more);
	if (rc == 0 && hosts.n > 1)
		paragraph(c, "The runs ran on several hosts (their topology_host): one part per "
			     "host.");
	if (rc == 0 && more)
		paragraph(c, "More than 8 hosts: the first 8 by name are shown (narrow with "
			     "--where).");
	for (size_t i = 0; rc == 0 && i < hosts.n; i++)
		rc = smt_host(c, hosts.items[i], hosts.n == 1);
	text_list_release(&hosts);
	return rc;
}

static int translate_section(struct report_ctx *c)
{
	struct translate_request req;
	struct translate_result res;
	struct run_filter corpus = {0};
	struct doc *d = NULL;
	int rc = 0;
	heading(c, 2, TRANSLATE_TITLE);
	if (!c->plan.translate_from) {
		not_measured(c, "translate",
			     "no pair of sub-corpora on different CPUs (or set translate-from and "
			     "translate-to in --config)");
		return 0;
	}
	/* the arms are sub-corpora: the report's --where conditions do not apply to them */
	corpus.corpus = c->req->filter->corpus;
	memset(&req, 0, sizeof(req));
	req.filter = &corpus;
	req.from = c->plan.translate_from;
	req.to = c->plan.translate_to;
	req.seed = 1;
	/* the paired runs' own from-medians, each checked against the to-runs it lands on */
	req.apply_medians = true;
	req.check = c->plan.translate_to;
	if (translate_run(c->db, &req, &res) != 0)
		failed(c, "translate");
	else if ((rc = build_translate(&req, &res, &d)) == 0)
		rc = embed(c, "translate", d, 2);
	if (rc == 0 && d) {
		char anchor[96], pair[300];
		anchor_of(TRANSLATE_TITLE, anchor, sizeof(anchor));
		snprintf(pair, sizeof(pair), "%s to %s", res.from.name, res.to.name);
		rc = findings_translate(&c->findings, &res.factors[TRANSLATE_RATE], res.from.sel.n,
					res.to.sel.n, pair, anchor);
	}
	doc_free(d);
	translate_result_release(&res);
	return rc;
}

static int fit_group(struct report_ctx *c, const struct report_group *g, bool bare)
{
	struct fit_request req;
	struct fit_run_result res;
	struct doc *d = NULL;
	char section[600];
	int rc = 0;
	int level = group_heading(c, g, section, sizeof(section), "fit", bare);
	memset(&req, 0, sizeof(req));
	req.filter = &g->filter;
	req.by = c->plan.by;
	req.host = c->req->host;
	for (int m = 0; m < FIT_NMODELS; m++)
		req.models[m] = true;
	if (fit_run(c->db, &req, &res) != 0)
		failed(c, section);
	else if ((rc = build_fit(&req, &res, &d)) == 0)
		rc = embed(c, section, d, level);
	doc_free(d);
	fit_run_result_release(&res);
	return rc;
}

static int fit_section(struct report_ctx *c)
{
	int rc = 0;
	heading(c, 2, "Scaling models");
	if (!c->plan.by) {
		not_measured(c, "fit", "no sweep (no field with two or more levels)");
		return 0;
	}
	if (!c->plan.scaling) {
		char why[300];
		snprintf(
			why, sizeof(why),
			"the sweep is over %s, which does not count workers: USL, Amdahl and power "
			"laws over it would be wrong (`models = yes` in --config fits them anyway)",
			c->plan.by);
		left_out(c, "fit", why);
		return 0;
	}
	for (size_t i = 0; rc == 0 && i < c->plan.ngroups; i++)
		rc = fit_group(c, &c->plan.groups[i], c->plan.ngroups == 1);
	return rc;
}

static int sizing_section(struct report_ctx *c)
{
	struct size_result res;
	struct sizing_plot sp = {0};
	struct strbuf path = STRBUF_INIT;
	struct doc *d = NULL;
	int rc = 0;
	char anchor[96];
	heading(c, 2, SIZING_TITLE);
	anchor_of(SIZING_TITLE, anchor, sizeof(anchor));
	if (!c->req->size) {
		not_measured(c, "sizing", "no target given (--target, or `target =` in --config)");
		return findings_unsupported(&c->findings, FINDING_TARGET, "", anchor,
					    "no target given: pass --target RATE --sessions N (or "
					    "`target =` and `sessions =` in --config) to size the "
					    "instances");
	}
	if (!c->req->size->sessions.given &&
	    (rc = findings_unsupported(&c->findings, FINDING_TARGET, "", anchor,
				       "no session counts given: pass --sessions N "
				       "(or a range A-B) to judge the measured runs "
				       "against the target")) != 0)
		return rc;
	strbuf_addf(&path, "%s/%02d-sizing.%s", c->out.plots_dir, ++c->plot_seq,
		    plot_extension(c->req->plot_format));
	if (size_run(c->db, c->req->size, &res) != 0) {
		char why[600];
		snprintf(why, sizeof(why), "no prediction: %s",
			 *err_msg() ? err_msg() : "sizing failed");
		failed(c, "sizing");
		rc = findings_unsupported(&c->findings, FINDING_PREDICTED, "", anchor, why);
	} else {
		struct plot_output o = {c->out.plots_shown, false, true};
		char why[1024] = "";
		int drawn = sizing_plot_draw(&res, strbuf_str(&path), &o, &sp);
		if (drawn) {
			/* the real reason: nothing to plot, or gnuplot failed */
			snprintf(why, sizeof(why), "%s", *err_msg() ? err_msg() : "gnuplot failed");
			err_clear();
		}
		rc = build_size(c->req->size, &res, NULL, &d);
		if (rc == 0)
			rc = embed(c, "sizing", d, 2);
		if (rc == 0)
			rc = findings_size(&c->findings, &res, anchor);
		if (rc == 0 && drawn == 0 && sp.image) {
			fprintf(c->md, "![sizing plot](plots/%02d-sizing.%s)\n\n", c->plot_seq,
				plot_extension(c->req->plot_format));
			if (sp.caption)
				figure(c, sp.caption);
			c->plots++;
		} else if (rc == 0) {
			no_plot(c, drawn ? why : NO_GNUPLOT);
		}
	}
	sizing_plot_release(&sp);
	doc_free(d);
	size_result_release(&res);
	strbuf_release(&path);
	return rc;
}

/* ---- the footer and the files ---- */

static int footer(struct report_ctx *c)
{
	struct strbuf names = STRBUF_INIT, hashed = STRBUF_INIT, line = STRBUF_INIT;
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
		strbuf_addf(&line, "coreplan %s; corpora: ", COREPLAN_VERSION);
		doc_md_escape(&line, strbuf_str(&names), false);
		strbuf_addf(&line,
			    "; content sha256 %s (the imported files' hashes and this "
			    "report's options)",
			    hex);
		fprintf(c->md, "---\n\n%s\n", strbuf_str(&line));
		doc_fact_text(c->summary, "report_sha256", "report sha256 (content and options)",
			      DOC_QUIET, hex);
	}
	strbuf_release(&names);
	strbuf_release(&hashed);
	strbuf_release(&line);
	return rc;
}

/* ---- report.html ---- */

/*
 * DIR/report.html (--html): the finished report.md of the stage rendered
 * with its plots inlined (report_html.h), written into the stage beside it.
 */
static int write_html(struct report_ctx *c)
{
	struct strbuf staged = STRBUF_INIT, title = STRBUF_INIT;
	struct infile md = {.fd = -1};
	const char *corpus = c->req->filter->corpus;
	char *text = NULL;
	size_t len = 0;
	FILE *fp = NULL;
	int rc = 0;
	if (strbuf_addf(&staged, "%s/report.md", c->out.stage) ||
	    strbuf_addf(&title, "Capacity report: %s", corpus ? corpus : "all corpora")) {
		rc = err_set("out of memory");
		goto done;
	}
	rc = infile_open(&md, strbuf_str(&staged), c->md_path, INFILE_NO_LIMIT);
	if (rc == 0)
		rc = infile_slurp(&md, &text, &len);
	if (rc == 0)
		rc = report_output_create(&c->out, "report.html", &fp, &c->html_path);
	if (rc == 0)
		rc = report_html_write(text, len, strbuf_str(&title), c->out.plots_dir,
				       c->out.plots_shown, fp);
	if (fp) {
		int closed = report_output_close(&c->out, fp, "report.html");
		if (rc == 0)
			rc = closed;
	}
done:
	infile_close(&md);
	free(text);
	strbuf_release(&staged);
	strbuf_release(&title);
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

/* Findings in the order of the list: by kind, each kind's in section order. */
static int findings_ordered(struct report_ctx *c, struct findings *out)
{
	const struct findings *from[2] = {&c->primary, &c->findings};
	for (int kind = FINDING_SCALING; kind <= FINDING_TRANSLATE; kind++)
		for (int k = 0; k < 2; k++)
			for (size_t i = 0; i < from[k]->n; i++) {
				struct finding *x;
				if ((int)from[k]->items[i].kind != kind)
					continue;
				if (!(x = findings_add(out, from[k]->items[i].kind, NULL, NULL)))
					return err_set("out of memory");
				*x = from[k]->items[i];
			}
	return 0;
}

/*
 * The sections and the footer are written to memory first: the findings
 * come from their results and open the report, above them.
 */
static int write_all(struct report_ctx *c)
{
	typedef int (*section_fn)(struct report_ctx *);
	static const section_fn sections[] = {corpus_section,    sweep_sections, noise_section,
					      cpu_section,       memory_section, smt_section,
					      translate_section, fit_section,    sizing_section};
	const char *corpus = c->req->filter->corpus;
	struct strbuf title = STRBUF_INIT;
	struct findings list = {0};
	int rc = 0;
	c->file = c->md;
	c->md = open_memstream(&c->body, &c->body_len);
	if (!c->md) {
		c->md = c->file;
		return err_set("out of memory");
	}
	for (size_t i = 0; rc == 0 && i < sizeof(sections) / sizeof(sections[0]); i++)
		rc = sections[i](c);
	if (rc == 0)
		rc = footer(c);
	if (fclose(c->md) != 0 && rc == 0)
		rc = err_set("out of memory");
	c->md = c->file;
	if (rc == 0)
		rc = findings_ordered(c, &list);
	if (rc == 0) {
		strbuf_addf(&title, "Capacity report: %s", corpus ? corpus : "all corpora");
		heading(c, 1, strbuf_str(&title));
		rc = findings_write_md(c->md, &list);
		findings_to_doc(c->summary, &list);
	}
	if (rc == 0 && c->body_len && fwrite(c->body, 1, c->body_len, c->md) != c->body_len)
		rc = err_set("cannot write '%s'", c->md_path);
	findings_release(&list);
	strbuf_release(&title);
	return rc;
}

int report_run(sqlite3 *db, const struct report_request *req, struct doc **out)
{
	struct report_ctx c;
	struct report_plan_request preq = {req->filter,         req->by,           req->group,
					   req->translate_from, req->translate_to, req->host,
					   req->models};
	int rc;
	memset(&c, 0, sizeof(c));
	*out = NULL;
	c.db = db;
	c.req = req;
	summary_new(&c);
	if (!c.summary)
		return err_set("out of memory");
	rc = report_plan_make(db, &preq, &c.plan);
	if (rc == 0)
		rc = report_output_open(&c.out, req->out_dir);
	if (rc == 0)
		rc = report_output_create(&c.out, "report.md", &c.md, &c.md_path);
	if (rc == 0)
		rc = write_all(&c);
	if (c.md) {
		int closed = report_output_close(&c.out, c.md, "report.md");
		c.md = NULL;
		if (rc == 0)
			rc = closed;
	}
	if (rc == 0 && req->html)
		rc = write_html(&c);
	if (rc == 0)
		rc = report_output_install(&c.out);
	if (rc == 0) {
		doc_set_title(c.summary, "Report written to %s", c.md_path);
		doc_fact_text(c.summary, "report", "report", DOC_LISTED, c.md_path);
		if (c.html_path)
			doc_fact_text(c.summary, "html", "html page", DOC_LISTED, c.html_path);
		doc_fact_text(c.summary, "plots_dir", "plots", DOC_LISTED, c.out.plots_shown);
		doc_fact_int(c.summary, "sections_measured", "sections measured", DOC_LISTED,
			     (int64_t)c.measured, NULL);
		doc_fact_int(c.summary, "sections_not_measured", "sections not measured",
			     DOC_LISTED, (int64_t)c.not_measured, NULL);
		doc_fact_int(c.summary, "plots", "plots drawn", DOC_LISTED, (int64_t)c.plots, NULL);
		rc = doc_error(c.summary);
	}
	if (rc == 0) {
		*out = c.summary;
		c.summary = NULL;
	}
	doc_free(c.summary);
	report_plan_release(&c.plan);
	findings_release(&c.findings);
	findings_release(&c.primary);
	free(c.body);
	report_output_release(&c.out);
	free(c.md_path);
	free(c.html_path);
	return rc;
}
