/* build_plot: the document of `coreplan plot` (builders.h). */
#include "builders.h"

#include "../common/err.h"
#include "../common/strbuf.h"

/* DIR/FILE, or DIR/FILE.EXT when ext is given, as a text fact; -1 when out of memory. */
static int file_fact(struct doc *d, const char *fact, const char *label, const char *dir,
		     const char *file, const char *ext)
{
	struct strbuf sb = STRBUF_INIT;
	int bad = strbuf_addf(&sb, "%s/%s%s%s", dir, file, ext ? "." : "", ext ? ext : "");
	if (!bad)
		doc_fact_text(d, fact, label, DOC_LISTED, strbuf_str(&sb));
	strbuf_release(&sb);
	return bad ? -1 : 0;
}

static void set_title(struct doc *d, const struct plot_request *req)
{
	static const char *const heads[] = {"Scaling plot", "Blocks plot", "Trace plot",
					    "Memory plot"};
	const char *head = (size_t)req->kind < 4 ? heads[req->kind] : "Plot";
	if (req->kind == PLOT_KIND_TRACE)
		doc_set_title(d, "%s", head);
	else
		doc_set_title(d, "%s of %s by %s", head, plot_request_metric(req), req->by);
}

/* The scaling plot: the host its levels are counted on and what the power law was fitted to. */
static void scaling_facts(struct doc *d, const struct plot_result *res)
{
	const struct sweep *sw = &res->sweep.sw;
	struct strbuf levels = STRBUF_INIT;
	for (size_t i = 0; i < sw->nlevels; i++)
		if (sw->levels[i].kind == LEVEL_PHYSICAL || sw->levels[i].kind == LEVEL_ASSUMED)
			strbuf_addf(&levels, "%s%g", levels.len ? ", " : "", sw->levels[i].level);
	if (sw->classified) {
		doc_fact_text(d, "host", "host", DOC_LISTED,
			      sw->host.known ? sw->host.name : "none");
		if (sw->host.known)
			doc_fact_int(d, "physical_cores",
				     "physical cores (the shading starts there)", DOC_LISTED,
				     (int64_t)sw->host.physical_cores, "cores");
		else
			doc_fact_text(d, "core_kinds", "levels counted as", DOC_LISTED,
				      "assumed physical (no topology recorded)");
	}
	doc_fact_bool(d, "power_fitted", "power law drawn", DOC_QUIET, res->has_power);
	if (res->has_power) {
		doc_fact_text(d, "power_levels", "power law fitted over the levels", DOC_LISTED,
			      strbuf_str(&levels));
		doc_fact_int(d, "power_points", "runs the power law was fitted to", DOC_QUIET,
			     (int64_t)res->power_points, "runs");
	}
	strbuf_release(&levels);
}

/* How many points each trace series drew, and whether min/max per bucket reduced them. */
static void trace_reduction_facts(struct doc *d, const struct trace_plot *tp)
{
	bool reduced = plot_reduce_reduced(&tp->cores) || plot_reduce_reduced(&tp->rss);
	doc_fact_int(d, "cores_points", "app cores points drawn", DOC_QUIET,
		     (int64_t)tp->cores.out_points, "points");
	doc_fact_int(d, "rss_points", "app RSS points drawn", DOC_QUIET,
		     (int64_t)tp->rss.out_points, "points");
	doc_fact_text(d, "reduction", "series reduced", DOC_LISTED,
		      reduced ? "min/max per bucket" : "no (every row drawn)");
	if (reduced)
		doc_fact_int(d, "max_points", "points per series at most", DOC_LISTED,
			     PLOT_TRACE_POINTS, "points");
}

int build_plot(const struct plot_request *req, const struct plot_result *res,
	       const struct plot_written *files, struct doc **out)
{
	const struct selection *sel = plot_result_selection(res);
	struct doc *d = build_doc(out, "plot", "");
	if (!d)
		return ERR_DATA;
	set_title(d, req);
	doc_fact_text(d, "kind", "kind", DOC_LISTED, plot_kind_name(req->kind));
	if (file_fact(d, "image", "image", files->dir, files->image, NULL) ||
	    file_fact(d, "data", "data", files->dir, files->name, "tsv") ||
	    file_fact(d, "script", "script", files->dir, files->name, "gp")) {
		doc_free(d);
		return err_set("out of memory");
	}
	if (req->kind == PLOT_KIND_TRACE) {
		doc_fact_text(d, "tag", "run", DOC_LISTED, req->tag);
		doc_fact_int(d, "trace_rows", "trace rows", DOC_LISTED, (int64_t)res->trace.rows,
			     "rows");
		trace_reduction_facts(d, &res->trace);
		doc_fact_bool(d, "plateau_shaded", "plateau window shaded", DOC_LISTED,
			      res->cores.ok);
	} else {
		doc_fact_int(d, "runs", "runs", DOC_LISTED, (int64_t)sel->n, NULL);
		doc_fact_text(d, "by", "level field", DOC_LISTED, req->by);
		doc_fact_text(d, "metric", "metric", DOC_LISTED, plot_request_metric(req));
		if (req->kind == PLOT_KIND_BLOCKS)
			doc_fact_text(d, "block", "block field", DOC_LISTED,
				      req->block ? req->block : "block");
		if (req->kind == PLOT_KIND_SCALING)
			scaling_facts(d, res);
		/* the number the Markdown heading of the left-out list shows */
		doc_fact_int(d, "left_out", "runs left out", DOC_QUIET, (int64_t)sel->nleft_out,
			     "runs");
		build_left_out(d, sel);
	}
	return build_done(d, out);
}

const char *const build_plot_views[] = {NULL};
