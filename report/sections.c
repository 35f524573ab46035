/* report sections: each part of the write-up, in order (see compose.h). */
#include "compose.h"

#include "../analysis/cores.h"
#include "../analysis/fit.h"
#include "../analysis/memory.h"
#include "../analysis/noise.h"
#include "../analysis/smt.h"
#include "../analysis/sweep.h"
#include "../analysis/translate.h"
#include "../common/err.h"
#include "../common/strbuf.h"
#include "../plot/plots.h"
#include "../plot/sizing_plot.h"
#include "../reports/builders.h"
#include "../schema/queries.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- corpus ---- */

int report_corpus_section(struct report_ctx *c)
{
	struct corpus_listing listing = {0};
	struct text_list excl = {0}, missing = {0};
	struct doc *d = NULL;
	struct doc_section *s = report_section(c, "corpus", "Corpus");
	const char *corpus = c->req->filter->corpus;
	struct strbuf filter = STRBUF_INIT;
	int rc = query_corpora(c->db, &listing);
	if (rc == 0)
		rc = query_exclusions(c->db, corpus, &excl);
	if (rc == 0)
		rc = query_missing_files(c->db, corpus, &missing);
	if (rc == 0)
		rc = build_report_corpus(&listing, corpus, &excl, &missing, &d);
	if (rc == 0)
		report_embed(c, s, "corpus", NULL, d);
	if (rc == 0 && run_filter_describe(c->req->filter, &filter) == 0)
		doc_paragraph(s,
			      "Filter: %s. Sections below that the runs cannot support say Not "
			      "measured and why.",
			      strbuf_str(&filter));
	if (rc == 0 && c->plan.references_note)
		doc_paragraph(s, "%c%s.", toupper((unsigned char)*c->plan.references_note),
			      c->plan.references_note + 1);
	strbuf_release(&filter);
	text_list_release(&excl);
	text_list_release(&missing);
	corpus_listing_release(&listing);
	return rc;
}

/* ---- sweep ---- */

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
	report_anchor(SWEEP_TITLE, anchor);
	if (r->sel.n > c->primary_runs) {
		findings_release(&c->primary);
		c->primary_runs = r->sel.n;
		c->primary_index = index;
		rc = findings_sweep(&c->primary, &r->sw, r->sel.n, c->plan.by, g->label, anchor);
		if (rc == 0)
			rc = findings_cpu_per_op(&c->primary, &r->sw, c->plan.by, g->label, anchor);
	}
	if (rc == 0 && c->req->size && c->req->size->sessions.given && c->plan.by &&
	    !strcmp(c->plan.by, "sessions"))
		rc = findings_target_sweep(&c->findings, &r->sw, c->req->size->target,
					   &c->req->size->sessions, g->label, anchor);
	return rc;
}

static int sweep_group(struct report_ctx *c, struct doc_section *s, const struct report_group *g,
		       size_t index)
{
	struct plot_request preq = {PLOT_KIND_SCALING, &g->filter,   c->plan.by,
				    c->plan.metric,    NULL,         NULL,
				    c->req->host,      c->req->workers};
	struct plot_result pres;
	struct sweep_request sreq;
	struct doc *d = NULL;
	struct report_part part;
	int rc;
	report_group_part(&part, g, "sweep", false);
	memset(&sreq, 0, sizeof(sreq));
	sreq.filter = &g->filter;
	sreq.by = c->plan.by;
	sreq.metric = c->plan.metric;
	sweep_options_init(&sreq.opts);
	/* the scaling plot's analysis is sweep_run's (default options): one result for both */
	if (plot_run(c->db, &preq, &pres) != 0) {
		report_failed(c, s, part.name, part.head);
		plot_result_release(&pres);
		return 0;
	}
	sreq.host = c->req->host;
	sreq.workers = c->req->workers;
	rc = build_sweep(&sreq, &pres.sweep, &d);
	if (rc == 0)
		report_embed(c, s, part.name, part.head, d);
	if (rc == 0)
		rc = sweep_findings(c, g, index, &pres.sweep);
	if (rc == 0) {
		struct plot_request blocks = {
			PLOT_KIND_BLOCKS, &g->filter, c->plan.by, c->plan.metric, NULL, NULL};
		report_plot(c, s, &preq, &pres);
		report_plot_of(c, s, &blocks);
	}
	plot_result_release(&pres);
	return rc;
}

/* How the groups were made, once above the sweep groups. */
static void groups_text(struct report_ctx *c, struct doc_section *s)
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
			   "own (docs/analysis.md, \"No silent pooling\"). The noise and fit sections use "
			   "the same groups.");
	doc_text(s, "%s", strbuf_str(&line));
	strbuf_release(&line);
}

int report_sweep_section(struct report_ctx *c)
{
	struct doc_section *s = report_section(c, "sweep", SWEEP_TITLE);
	int rc = 0;
	if (!c->plan.by)
		return report_unsupported(c, s, "sweep", SWEEP_TITLE, FINDING_SCALING,
					  "no field has two or more levels among the runs",
					  "no field has two or more levels among the runs "
					  "(gomaxprocs, sessions); pass --by FIELD");
	groups_text(c, s);
	report_capped(s, c->plan.ngroups_found, c->plan.ngroups);
	for (size_t i = 0; rc == 0 && i < c->plan.ngroups; i++)
		rc = sweep_group(c, s, &c->plan.groups[i], i);
	return rc;
}

/* ---- noise ---- */

static int noise_group(struct report_ctx *c, struct doc_section *s, const struct report_group *g,
		       bool bare, size_t index)
{
	struct noise_request req;
	struct noise_result res;
	struct doc *d = NULL;
	struct report_part part;
	int rc = 0;
	bool measured = false;
	report_group_part(&part, g, "noise", bare);
	memset(&req, 0, sizeof(req));
	req.filter = &g->filter;
	req.by = c->plan.by;
	req.metric = c->plan.metric;
	noise_options_init(&req.opts);
	if (noise_run(c->db, &req, &res) != 0) {
		report_failed(c, s, part.name, part.head);
	} else if ((rc = build_noise(&req, &res, &d)) == 0) {
		report_embed(c, s, part.name, part.head, d);
		measured = true;
	}
	/*
	 * the primary group's verdict, and every other group whose sweep has
	 * replicated steps (which steps of which sweep are resolved is the finding)
	 */
	if (rc == 0 && measured &&
	    ((c->primary_runs && index == c->primary_index) ||
	     (res.nz.nverdicts > 0 && (!strcmp(res.nz.verdicts[0].verdict, NOISE_RESOLVED) ||
				       !strcmp(res.nz.verdicts[0].verdict, NOISE_WITHIN))))) {
		char anchor[96];
		report_anchor(NOISE_TITLE, anchor);
		rc = findings_noise(&c->findings, &res.nz, res.sel.n, g->label, anchor);
	}
	if (rc == 0 && measured) {
		char anchor[96];
		report_anchor(NOISE_TITLE, anchor);
		rc = findings_bursts(&c->findings, &res.nz, c->plan.by, g->label, anchor);
	}
	noise_result_release(&res);
	return rc;
}

int report_noise_section(struct report_ctx *c)
{
	struct doc_section *s = report_section(c, "noise", NOISE_TITLE);
	int rc = 0;
	if (!c->plan.by) {
		report_not_measured(c, s, "noise", "no sweep (no field with two or more levels)");
		return 0;
	}
	for (size_t i = 0; rc == 0 && i < c->plan.ngroups; i++)
		rc = noise_group(c, s, &c->plan.groups[i], c->plan.ngroups == 1, i);
	return rc;
}

/* ---- CPU ---- */

/* The CPU figures of the runs `filter` selects, under `heading`; their tick finding. */
static int cpu_part(struct report_ctx *c, struct doc_section *s, const struct run_filter *filter,
		    const char *name, const char *subject, const char *heading)
{
	struct cores_request req;
	struct cores_result res;
	struct doc *d = NULL;
	char anchor[96];
	int rc = 0;
	memset(&req, 0, sizeof(req));
	req.filter = filter;
	cores_options_init(&req.opts);
	report_anchor(CPU_TITLE, anchor);
	if (cores_run(c->db, &req, &res) != 0) {
		report_failed(c, s, name, heading);
	} else if ((rc = build_cores(&req, &res, &d)) == 0) {
		report_embed(c, s, name, heading, d);
		rc = findings_cpu(&c->findings, &res, subject, anchor);
	}
	cores_result_release(&res);
	return rc;
}

/*
 * Recomputed CPU, one part per instance when the runs ran on several (the
 * tick check is a property of the guest), left out when no run has a trace.
 */
int report_cpu_section(struct report_ctx *c)
{
	struct doc_section *s = report_section(c, "cpu", CPU_TITLE);
	struct text_list inst = {0};
	bool more = false;
	int rc = 0;
	if (!c->plan.trace_tag) {
		report_left_out(c, s, "cpu",
				"no run has a sample trace, so there are no recomputed CPU figures "
				"and no tick check");
		return 0;
	}
	if (query_distinct(c->db, &c->plan.filter, "instance", 8, &inst, &more) != 0) {
		err_clear(); /* no instance field: one part */
		inst.n = 0;
	}
	if (inst.n < 2) {
		rc = cpu_part(c, s, &c->plan.filter, "cpu", inst.n ? inst.items[0] : "", NULL);
	} else {
		doc_text(s,
			 "The runs ran on several instances: one part per instance (the tick check "
			 "is the guest's).");
		for (size_t i = 0; rc == 0 && i < inst.n; i++) {
			struct run_filter f;
			const char *value[1] = {inst.items[i]};
			char heading[300], name[300];
			snprintf(heading, sizeof(heading), "Instance %s", inst.items[i]);
			snprintf(name, sizeof(name), "cpu instance %s", inst.items[i]);
			rc = run_filter_copy(&f, &c->plan.filter);
			if (rc == 0)
				rc = run_filter_add(&f, "instance", value, 1);
			if (rc == 0)
				rc = cpu_part(c, s, &f, name, inst.items[i], heading);
			run_filter_release(&f);
		}
	}
	if (rc == 0) {
		struct plot_request preq = {PLOT_KIND_TRACE,  &c->plan.filter, NULL, NULL, NULL,
					    c->plan.trace_tag};
		doc_paragraph(
			s, "Trace of `%s`, the first listed run with a trace:", c->plan.trace_tag);
		report_plot_of(c, s, &preq);
	}
	text_list_release(&inst);
	return rc;
}

/* ---- memory ---- */

static int memory_group(struct report_ctx *c, struct doc_section *s, const struct report_group *g,
			bool bare)
{
	struct memory_request req;
	struct memory_result res;
	struct doc *d = NULL;
	struct report_part part;
	int rc = 0;
	report_group_part(&part, g, "memory", bare);
	memset(&req, 0, sizeof(req));
	req.filter = &g->filter;
	req.by = "sessions";
	cores_options_init(&req.cores);
	if (memory_run(c->db, &req, &res) != 0) {
		report_failed(c, s, part.name, part.head);
	} else if ((rc = build_memory(&req, &res, &d)) == 0) {
		char anchor[96];
		struct plot_request preq = {
			PLOT_KIND_MEMORY, &g->filter, "sessions", NULL, NULL, NULL};
		report_embed(c, s, part.name, part.head, d);
		report_anchor(MEMORY_TITLE, anchor);
		/* the default metric, load_rss_kb */
		rc = findings_memory(&c->findings, &res.mem, "kB/session", g->label, anchor);
		if (rc == 0)
			report_plot_of(c, s, &preq);
	}
	memory_result_release(&res);
	return rc;
}

int report_memory_section(struct report_ctx *c)
{
	struct doc_section *s = report_section(c, "memory", MEMORY_TITLE);
	int rc = 0;
	if (!c->plan.memory)
		return report_unsupported(
			c, s, "memory", MEMORY_TITLE, FINDING_MEMORY,
			"the runs have fewer than two session counts",
			"the runs have fewer than two session counts, so no slope "
			"across sessions");
	if (c->plan.nmemory_found == 0) {
		report_not_measured(c, s, "memory",
				    "no group of runs that differ only in sessions has two or more "
				    "session counts, so no slope across sessions");
		return 0;
	}
	if (c->plan.memory_skipped) {
		size_t k = c->plan.memory_skipped;
		doc_text(s,
			 "Fitted per group of runs that differ only in sessions and the block; %zu "
			 "group%s with one session count %s no slope and %s left out.",
			 k, k == 1 ? "" : "s", k == 1 ? "has" : "have", k == 1 ? "is" : "are");
	}
	report_capped(s, c->plan.nmemory_found, c->plan.nmemory_groups);
	for (size_t i = 0; rc == 0 && i < c->plan.nmemory_groups; i++)
		rc = memory_group(c, s, &c->plan.memory_groups[i], c->plan.nmemory_groups == 1);
	return rc;
}

/* ---- SMT ---- */

/*
 * The SMT figures of one host's runs (the filter and topology_host = host):
 * the plan's filter, or one sweep group's (g) when the runs fall in several
 * groups, so that no part pools runs of different conditions (smt_measure
 * refuses them, pooling.h).
 */
static int smt_part(struct report_ctx *c, struct doc_section *s, const struct run_filter *base,
		    const struct report_group *g, const char *host, bool bare, bool *refused)
{
	struct run_filter filter;
	struct smt_request req;
	struct smt_result res;
	struct doc *d = NULL;
	char name[700], heading[700];
	const char *value[1] = {host};
	bool grouped = g && *g->label;
	int rc = run_filter_copy(&filter, base);
	snprintf(name, sizeof(name), "smt%s%s%s%s", bare ? "" : " host ", bare ? "" : host,
		 grouped ? " group " : "", grouped ? g->label : "");
	snprintf(heading, sizeof(heading), "%s%s%s%s", bare ? "" : "Host ", bare ? "" : host,
		 grouped ? (bare ? "Group " : ", group ") : "", grouped ? g->label : "");
	if (rc == 0 && !c->req->host)
		rc = run_filter_add(&filter, "topology_host", value, 1);
	memset(&req, 0, sizeof(req));
	req.filter = &filter;
	req.host = host;
	if (rc == 0) {
		bool titled = !bare || grouped;
		int measured = smt_measure(c->db, &req, &res);
		if (measured == ERR_USAGE && refused) {
			/* the pooling refusal (pooling.h): the caller splits by group */
			*refused = true;
			err_clear();
		} else if (measured != 0)
			report_failed(c, s, name, titled ? heading : NULL);
		else if ((rc = build_smt(&req, &res, &d)) == 0) {
			char anchor[96];
			report_embed(c, s, name, titled ? heading : NULL, d);
			report_anchor(SMT_TITLE, anchor);
			rc = findings_smt_figures(&c->findings, &res, anchor);
		}
		smt_result_release(&res); /* smt_measure leaves it releasable either way */
	}
	run_filter_release(&filter);
	return rc;
}

/*
 * Pinned runs (a cpuset) with no topology: the ceiling finding says why
 * the corpus, as imported, cannot give the SMT figures.
 */
static int pinned_untied(struct report_ctx *c)
{
	struct text_list sets = {0};
	struct run_filter untied;
	bool more = false, pinned = false;
	char anchor[96];
	int rc = run_filter_copy(&untied, &c->plan.filter);
	if (rc == 0)
		rc = run_filter_add_missing(&untied, "topology_host");
	if (rc == 0 && query_distinct(c->db, &untied, "cpuset", 8, &sets, &more) != 0)
		err_clear(); /* no run has a cpuset, or every run a host */
	run_filter_release(&untied);
	if (rc)
		return rc;
	for (size_t i = 0; i < sets.n; i++)
		pinned |= sets.items[i] && *sets.items[i] && strcmp(sets.items[i], "NA") != 0;
	text_list_release(&sets);
	report_anchor(SMT_TITLE, anchor);
	if (pinned)
		rc = findings_unsupported(
			&c->findings, FINDING_CEILING, "", anchor,
			"the runs include pinned runs (cpuset), but no topology is recorded for "
			"them, so no CPU set can be placed on physical cores: record the host "
			"with `coreplan topology --from lscpu.txt --host NAME` and import the "
			"runs with --host NAME (or --instance NAME) for the SMT factor, the "
			"shared-vs-distinct ratio and the hardware ceiling");
	return rc;
}

/*
 * One host's SMT figures. When the runs fall in several sweep groups, the
 * runs whole first: smt compares across what splits an affinity table
 * (its arm and cpuset columns) and says what it pooled; only when it
 * refuses them (a varying condition, pooling.h) one part per group.
 */
static int smt_host(struct report_ctx *c, struct doc_section *s, const char *host, bool bare)
{
	bool refused = false;
	int rc = 0;
	if (c->plan.ngroups <= 1)
		return smt_part(c, s, c->plan.ngroups ? &c->plan.groups[0].filter : &c->plan.filter,
				NULL, host, bare, NULL);
	if ((rc = smt_part(c, s, &c->plan.filter, NULL, host, bare, &refused)) != 0 || !refused)
		return rc;
	for (size_t i = 0; rc == 0 && i < c->plan.ngroups; i++)
		rc = smt_part(c, s, &c->plan.groups[i].filter, &c->plan.groups[i], host, bare, NULL);
	return rc;
}

/* One SMT part per host the runs ran on (their topology_host), at most 8. */
int report_smt_section(struct report_ctx *c)
{
	struct doc_section *s = report_section(c, "smt", SMT_TITLE);
	struct text_list hosts = {0};
	bool more = false;
	int rc = 0;
	if (c->plan.by && !c->plan.scaling) {
		char why[300];
		snprintf(why, sizeof(why),
			 "the sweep is over %s, which does not count workers: no SMT analysis",
			 c->plan.by);
		report_left_out(c, s, "smt", why);
		return 0;
	}
	if (c->req->host) {
		doc_text(s, "Levels counted on the host given (--host, or `host =` in --config).");
		return smt_host(c, s, c->req->host, true);
	}
	if ((rc = pinned_untied(c)) != 0)
		return rc;
	if (!c->plan.smt) {
		report_not_measured(
			c, s, "smt",
			"no topology is recorded for these runs (coreplan import --host, "
			"a manifest's `topology = FILE`, a catalog instance, or "
			"`coreplan smt --host`)");
		return 0;
	}
	rc = query_distinct(c->db, &c->plan.filter, "topology_host", 8, &hosts, &more);
	if (rc == 0 && hosts.n > 1)
		doc_text(s,
			 "The runs ran on several hosts (their topology_host): one part per host.");
	if (rc == 0 && more)
		doc_text(s,
			 "More than 8 hosts: the first 8 by name are shown (narrow with --where).");
	for (size_t i = 0; rc == 0 && i < hosts.n; i++)
		rc = smt_host(c, s, hosts.items[i], hosts.n == 1);
	text_list_release(&hosts);
	return rc;
}

/* ---- translation ---- */

int report_translate_section(struct report_ctx *c)
{
	struct doc_section *s = report_section(c, "translate", TRANSLATE_TITLE);
	struct translate_request req;
	struct translate_result res;
	struct run_filter corpus = {0};
	struct doc *d = NULL;
	int rc = 0;
	if (!c->plan.translate_from) {
		report_not_measured(
			c, s, "translate",
			"no pair of sub-corpora on different CPUs (or set translate-from "
			"and translate-to in --config)");
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
	if (translate_run(c->db, &req, &res) != 0) {
		report_failed(c, s, "translate", NULL);
	} else if ((rc = build_translate(&req, &res, &d)) == 0) {
		char anchor[96], pair[300];
		report_embed(c, s, "translate", NULL, d);
		report_anchor(TRANSLATE_TITLE, anchor);
		snprintf(pair, sizeof(pair), "%s to %s", res.from.name, res.to.name);
		rc = findings_translate(&c->findings, &res.factors[TRANSLATE_RATE], res.from.sel.n,
					res.to.sel.n, pair, anchor);
		if (rc == 0)
			rc = findings_memory_factors(&c->findings, &res, pair, anchor);
	}
	translate_result_release(&res);
	return rc;
}

/* ---- scaling models ---- */

static int fit_group(struct report_ctx *c, struct doc_section *s, const struct report_group *g,
		     bool bare)
{
	struct fit_request req;
	struct fit_run_result res;
	struct doc *d = NULL;
	struct report_part part;
	int rc = 0;
	report_group_part(&part, g, "fit", bare);
	memset(&req, 0, sizeof(req));
	req.filter = &g->filter;
	req.by = c->plan.by;
	req.metric = c->plan.metric;
	req.host = c->req->host;
	req.workers = c->req->workers;
	for (int m = 0; m < FIT_NMODELS; m++)
		req.models[m] = true;
	if (fit_run(c->db, &req, &res) != 0)
		report_failed(c, s, part.name, part.head);
	else if ((rc = build_fit(&req, &res, &d)) == 0)
		report_embed(c, s, part.name, part.head, d);
	fit_run_result_release(&res);
	return rc;
}

int report_fit_section(struct report_ctx *c)
{
	struct doc_section *s = report_section(c, "fit", "Scaling models");
	int rc = 0;
	if (!c->plan.by) {
		report_not_measured(c, s, "fit", "no sweep (no field with two or more levels)");
		return 0;
	}
	if (!c->plan.scaling) {
		char why[300];
		snprintf(
			why, sizeof(why),
			"the sweep is over %s, which does not count workers: USL, Amdahl and power "
			"laws over it would be wrong (`models = yes` in --config fits them anyway)",
			c->plan.by);
		report_left_out(c, s, "fit", why);
		return 0;
	}
	for (size_t i = 0; rc == 0 && i < c->plan.ngroups; i++)
		rc = fit_group(c, s, &c->plan.groups[i], c->plan.ngroups == 1);
	return rc;
}

/* ---- sizing ---- */

/* The sizing picture under s, or why there is none. */
static void sizing_figure(struct report_ctx *c, struct doc_section *s,
			  const struct size_result *res)
{
	struct sizing_plot sp = {0};
	struct plot_output o = {c->out.plots_shown, false, true, c->out.gnuplot};
	struct strbuf path = STRBUF_INIT, image = STRBUF_INIT;
	const char *ext = plot_extension(c->req->plot_format);
	int drawn;
	++c->plot_seq;
	strbuf_addf(&path, "%s/%02d-sizing.%s", c->out.plots_dir, c->plot_seq, ext);
	strbuf_addf(&image, "plots/%02d-sizing.%s", c->plot_seq, ext);
	drawn = sizing_plot_draw(res, strbuf_str(&path), &o, &sp);
	if (drawn == 0 && sp.image) {
		doc_figure(s, strbuf_str(&image), "sizing plot", sp.caption, false);
		c->plots++;
	} else if (drawn) {
		/* the real reason: nothing to plot, or gnuplot failed */
		doc_status(s, DOC_STATUS_NO_PLOT, "%s", *err_msg() ? err_msg() : "gnuplot failed");
		err_clear();
	} else {
		doc_status(s, DOC_STATUS_NO_PLOT, "%s", REPORT_NO_GNUPLOT);
	}
	sizing_plot_release(&sp);
	strbuf_release(&path);
	strbuf_release(&image);
}

int report_sizing_section(struct report_ctx *c)
{
	struct doc_section *s = report_section(c, "sizing", SIZING_TITLE);
	struct size_result res;
	struct doc *d = NULL;
	char anchor[96];
	int rc = 0;
	report_anchor(SIZING_TITLE, anchor);
	if (!c->req->size)
		return report_unsupported(c, s, "sizing", SIZING_TITLE, FINDING_TARGET,
					  "no target given: pass --target RATE --sessions N (or "
					  "`target =` and `sessions =` in --config) to size the "
					  "instances",
					  "no target given (--target, or `target =` in --config)");
	if (!c->req->size->sessions.given &&
	    (rc = findings_unsupported(&c->findings, FINDING_TARGET, "", anchor,
				       "no session counts given: pass --sessions N (or a range "
				       "A-B) to judge the measured runs against the target")) != 0)
		return rc;
	if (size_run(c->db, c->req->size, &res) != 0) {
		char why[600];
		snprintf(why, sizeof(why), "no prediction: %s",
			 *err_msg() ? err_msg() : "sizing failed");
		report_failed(c, s, "sizing", NULL);
		rc = findings_unsupported(&c->findings, FINDING_PREDICTED, "", anchor, why);
	} else {
		rc = build_size(c->req->size, &res, NULL, &d);
		if (rc == 0) {
			report_embed(c, s, "sizing", NULL, d);
			rc = findings_size(&c->findings, &res, anchor);
		}
		if (rc == 0)
			sizing_figure(c, s, &res);
	}
	size_result_release(&res);
	return rc;
}
