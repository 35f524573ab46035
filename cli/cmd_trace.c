/* cmd_trace: `coreplan trace TAG`, one run's trace rows with its windows marked. */
#include "cmd.h"
#include "common.h"
#include "opt.h"

#include "../analysis/cores.h"
#include "../analysis/window.h"
#include "../common/err.h"
#include "../common/num.h"
#include "../reports/table_out.h"
#include "../schema/db.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { OPT_CORPUS, OPT_SUBCORPUS, OPT_FRAC, OPT_TRIM, OPT_FORMAT };

static const struct opt_spec specs[] = {
	[OPT_CORPUS] = {"corpus", 0, "NAME", "the corpus, when the tag is in several", false},
	[OPT_SUBCORPUS] = {"subcorpus", 0, "NAME", "the sub-corpus (e.g. core), when needed",
			   false},
	[OPT_FRAC] = {"frac", 0, "F", "plateau fraction (default 0.8), as in coreplan cores",
		      false},
	[OPT_TRIM] = {"trim", 0, "N", "plateau trim (default 1), as in coreplan cores", false},
	[OPT_FORMAT] = {"format", 0, "F", "output format: md, tsv, csv or json (default md)",
			false},
	{NULL, 0, NULL, NULL, false},
};

static const char details[] =
	"Every row of the run's trace, in file order, with:\n"
	"  app_cores   d(app_j) / (d(epoch) * clk_tck) since the previous row (empty\n"
	"              when the epoch did not advance)\n"
	"  window      'plateau' for rows in the window `coreplan cores` uses, 'driver'\n"
	"              for rows only in the driver's window file, 'both', or empty\n";

static const char *const columns[] = {"row_no", "epoch", "conn", "app_rss_kb", "mem_avail_kb",
				      "cpu_total_j", "cpu_idle_j", "app_j", "pg_j", "app_cores",
				      "window"};
enum { NCOLUMNS = sizeof(columns) / sizeof(columns[0]) };

struct args {
	const char *tag;
	const char *corpus;
	const char *subcorpus;
	enum out_format format;
	struct cores_options cores;
};

static int parse_args(int argc, char **argv, struct args *a)
{
	static const struct opt_cmd cmd = {"trace", "TAG", details, specs};
	struct opt_parser p;
	const char *value;
	int which;
	int rc = opt_parser_init(&p, &cmd, argc, argv);
	while (rc == 0 && (rc = opt_next(&p, &which, &value)) == OPT_FOUND) {
		rc = 0;
		if (which == OPT_CORPUS)
			a->corpus = value;
		else if (which == OPT_SUBCORPUS)
			a->subcorpus = value;
		else if (which == OPT_FORMAT && out_format_parse(value, &a->format))
			rc = err_usage("unknown format '%s' (md, tsv, csv or json)", value);
		else if (which == OPT_FRAC)
			rc = common_parse_fraction("frac", value, &a->cores.window.frac);
		else if (which == OPT_TRIM)
			rc = common_parse_count("trim", value, &a->cores.window.trim);
	}
	if (rc == OPT_DONE && p.noperands != 1)
		rc = err_usage("trace needs exactly one run TAG");
	if (rc == OPT_DONE)
		a->tag = p.operands[0];
	opt_parser_release(&p);
	return rc;
}

/* The one run named by tag (and corpus / subcorpus); ambiguity is an error. */
static int find_run(sqlite3 *db, const struct args *a, int64_t *run_id)
{
	sqlite3_stmt *stmt = NULL;
	int matches = 0, rc = 0;
	if (sqlite3_prepare_v2(db,
			       "SELECT r.run_id, c.name, r.subcorpus FROM runs r JOIN corpora c"
			       " USING (corpus_id) WHERE r.tag = ?1 AND (?2 IS NULL OR c.name ="
			       " ?2) AND (?3 IS NULL OR r.subcorpus = ?3)",
			       -1, &stmt, NULL) != SQLITE_OK)
		return err_set("cannot look up the run: %s", sqlite3_errmsg(db));
	sqlite3_bind_text(stmt, 1, a->tag, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 2, a->corpus, -1, SQLITE_STATIC);
	sqlite3_bind_text(stmt, 3, a->subcorpus, -1, SQLITE_STATIC);
	while (sqlite3_step(stmt) == SQLITE_ROW) {
		*run_id = sqlite3_column_int64(stmt, 0);
		matches++;
	}
	sqlite3_finalize(stmt);
	if (matches == 0)
		rc = err_set("no run '%s'%s%s", a->tag, a->corpus ? " in corpus " : "",
			     a->corpus ? a->corpus : "");
	else if (matches > 1)
		rc = err_usage("run '%s' is in %d corpora or sub-corpora: pass --corpus (and "
			       "--subcorpus)",
			       a->tag, matches);
	return rc;
}

static const char *window_mark(const struct run_cores *c, size_t i)
{
	bool plateau = c->ok && i >= c->window.lo && i <= c->window.hi;
	bool driver = c->has_driver_window && i >= c->driver_lo && i <= c->driver_hi;
	return plateau && driver ? "both" : plateau ? "plateau" : driver ? "driver" : NULL;
}

static int add_rows(struct out_table *t, const struct trace_series *s, const struct run_cores *c,
		    enum out_format f)
{
	int rc = 0;
	for (size_t i = 0; rc == 0 && i < s->n; i++) {
		const struct trace_row *r = &s->rows[i];
		char b[NCOLUMNS][32];
		const char *cells[NCOLUMNS];
		double rate = NAN;
		if (i > 0 && r->epoch > s->rows[i - 1].epoch)
			rate = (r->app_j - s->rows[i - 1].app_j) /
			       ((r->epoch - s->rows[i - 1].epoch) * c->clk_tck);
		snprintf(b[0], 32, "%lld", (long long)r->row_no);
		cells[0] = b[0];
		cells[1] = common_num(r->epoch, f, 'f', 3, b[1]);
		cells[2] = common_num(r->conn, f, 'f', 0, b[2]);
		cells[3] = common_num(r->app_rss_kb, f, 'f', 0, b[3]);
		cells[4] = common_num(r->mem_avail_kb, f, 'f', 0, b[4]);
		cells[5] = common_num(r->cpu_total_j, f, 'f', 0, b[5]);
		cells[6] = common_num(r->cpu_idle_j, f, 'f', 0, b[6]);
		cells[7] = common_num(r->app_j, f, 'f', 0, b[7]);
		cells[8] = common_num(r->pg_j, f, 'f', 0, b[8]);
		cells[9] = common_num(rate, f, 'f', 3, b[9]);
		cells[10] = window_mark(c, i);
		rc = out_table_add_row(t, cells);
	}
	return rc;
}

int cmd_trace(int argc, char **argv, const struct global_opts *g)
{
	struct args a;
	struct trace_series s = {0};
	struct run_cores c;
	struct out_table *t = NULL;
	sqlite3 *db = NULL;
	int64_t run_id = 0;
	int rc;
	memset(&a, 0, sizeof(a));
	memset(&c, 0, sizeof(c));
	cores_options_init(&a.cores);
	rc = parse_args(argc, argv, &a);
	if (rc == OPT_HELP_SHOWN) {
		rc = 0;
		goto done;
	}
	if (rc)
		goto done;
	rc = db_open(g->db_path, true, &db);
	if (rc == 0)
		rc = find_run(db, &a, &run_id);
	if (rc == 0 && (rc = trace_series_load(db, run_id, "sample", &s)) == 1)
		rc = err_set("run '%s' has no trace", a.tag);
	if (rc == 0)
		rc = cores_compute(db, run_id, NAN, &a.cores, &c);
	if (rc == 0 && !(t = out_table_new(NCOLUMNS, columns)))
		rc = err_set("out of memory");
	for (size_t i = 0; t && i + 1 < NCOLUMNS; i++)
		out_table_set_kind(t, i, OUT_NUM);
	if (t)
		out_table_hide_empty_md(t, true);
	if (rc == 0)
		rc = add_rows(t, &s, &c, a.format);
	if (rc == 0)
		rc = out_table_write(t, a.format, stdout);
	if (rc == 0 && a.format == OUT_MD) {
		if (c.ok)
			printf("\n- plateau rows %zu-%zu (%zu rows, %g s): app_cores_wall %.3f%s%s\n",
			       c.window.lo + 1, c.window.hi + 1, c.window.rows, c.window.seconds,
			       c.cpu.app_cores_wall, c.note[0] ? "; " : "", c.note);
		else
			printf("\n- no plateau: %s\n", c.note);
	}
done:
	out_table_free(t);
	trace_series_release(&s);
	db_close(db);
	return rc;
}
