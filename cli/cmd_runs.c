/* cmd_runs: `coreplan runs`, the runs and their canonical fields, filtered. */
#include "cmd.h"
#include "common.h"
#include "opt.h"

#include "../common/err.h"
#include "../common/strbuf.h"
#include "../reports/builders.h"
#include "../schema/fields.h"
#include "../schema/queries.h"

#include <string.h>

static bool fields; /* --fields: the field listing instead of the runs */

static const struct opt_spec specs[] = {
	CLI_SPECS_FILTERED,
	OPT_FLAG("excluded", &cli_parsed.filter.only_excluded,
		 "only the excluded runs, with a column giving the reasons"),
	OPT_FLAG("fields", &fields,
		 "per field name, the sources that hold it and the one its plain name reads (view "
		 "fields)"),
	OPT_END,
};

static const char details_text[] =
	"Columns: corpus, subcorpus, tag, listed, excluded (0/1), then every canonical\n"
	"field below; on a tool's runs (Go, hyperfine, Google Benchmark, wrk imports)\n"
	"then the tool's fields, its primary metric first (ns_per_op, time_s,\n"
	"real_time_ns, requests_per_s) and its other columns (name, command, ...);\n"
	"with --excluded, a last column `reasons`. md leaves out columns\n"
	"that are empty in every row; tsv, csv and json always print every column.\n"
	"Without --include-excluded or --excluded, the fact excluded_not_shown counts\n"
	"the excluded runs the filter matched and left out.\n"
	"\n"
	"FIELD in --where is a canonical field or any column a corpus had (a results\n"
	"column, a generator-record key such as outcomes.ok, an idle-banner key, a tag\n"
	"part). A value matches when the text is equal or when both are numbers and\n"
	"equal (gomaxprocs=8 matches 8.0); boolean fields also take true/false.\n"
	"\n"
	"field sources: a name several sources hold (results.tsv's and system.tsv's\n"
	"xact_per_s) reads, per run, the source its table's manifest prefers\n"
	"(prefer.NAME = SOURCE; the sky-capacity layout prefers system.tsv where\n"
	"FORMATS.md calls results.tsv's column defective), else the first of results,\n"
	"join, generator, idle, acct, tag, set. FIELD@SOURCE reads one source only,\n"
	"wherever a field name is taken (--where, --by, --metric, --group, --pool, a\n"
	"report config): xact_per_s@results is the inline figure, app_cores@results\n"
	"the results column rather than the canonical field. --fields lists, per\n"
	"field name, each source holding it among the selected runs, how many runs the\n"
	"plain name reads there, and why (view fields; the runs view is then empty).\n"
	"\n"
	"examples:\n"
	"  coreplan runs --corpus sky --where gomaxprocs=2,4 --where block=1\n"
	"  coreplan runs --excluded --format tsv\n"
	"  coreplan runs --fields --where subcorpus= --format tsv\n"
	"\n"
	"canonical fields:\n";

/* The help lists the canonical fields, so it is built from field_canonical. */
static int help_details(struct strbuf *sb)
{
	int bad = strbuf_adds(sb, details_text);
	for (size_t i = 0; i < field_canonical_count; i++) {
		const struct field_info *f = &field_canonical[i];
		bad |= strbuf_addf(sb, "  %-14s %s%s%s%s\n", f->name, f->doc, *f->unit ? " [" : "",
				   f->unit, *f->unit ? "]" : "");
	}
	return bad ? err_set("out of memory") : 0;
}

static int check(struct cli_args *a)
{
	/* md and the tables show the listing asked for; json is the whole document */
	if (!a->view && a->format != DOC_JSON)
		a->view = fields ? "fields" : "runs";
	return 0;
}

static int run(sqlite3 *db, struct cli_args *a, struct doc **out)
{
	int64_t hidden = 0, nruns = 0;
	struct text_list tool = {0};
	int rc = run_filter_check(db, &a->filter);
	/* a tool's runs show its fields (ns_per_op, command, ...): its canonical ones are few */
	if (rc == 0 && !fields)
		rc = query_tool_fields(db, &a->filter, &tool);
	if (rc == 0)
		rc = build_runs_begin_with(a->filter.only_excluded, fields,
					   (const char *const *)tool.items, tool.n, out);
	if (rc == 0 && fields)
		rc = field_sources_list(db, &a->filter, build_fields_row, *out, &nruns);
	if (rc == 0 && fields)
		rc = build_fields_end(*out, nruns);
	if (rc == 0 && !fields)
		rc = query_runs_with(db, &a->filter, (const char *const *)tool.items, tool.n,
				     build_runs_row, *out, &hidden);
	if (rc == 0 && !fields)
		rc = build_runs_end(*out, hidden);
	text_list_release(&tool);
	return rc;
}

int cmd_runs(int argc, char **argv, const struct global_opts *g)
{
	struct cli_def def = {
		.cmd = {"runs", NULL, NULL, specs, build_runs_views},
		.db = CLI_DB_READ,
		.check = check,
		.run = run,
	};
	struct strbuf details = STRBUF_INIT;
	int rc = help_details(&details);
	fields = false;
	if (rc == 0) {
		def.cmd.details = details.buf;
		rc = cli_run(&def, argc, argv, g);
	}
	strbuf_release(&details);
	return rc;
}
