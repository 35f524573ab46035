/* cmd_topology: `coreplan topology`, record and show hosts' CPU topologies. */
#include "cmd.h"
#include "common.h"
#include "opt.h"

#include "../common/err.h"
#include "../common/strbuf.h"
#include "../importers/topology.h"
#include "../reports/table_out.h"
#include "../schema/db.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SYSFS_CPU "/sys/devices/system/cpu"

enum { OPT_FROM, OPT_HOST, OPT_SHOW, OPT_FORMAT };

static const struct opt_spec specs[] = {
	[OPT_FROM] = {"from", 0, "FILE",
		      "`lscpu -p` output or thread_siblings_list lines (default: probe this "
		      "machine's " SYSFS_CPU ")",
		      false},
	[OPT_HOST] = {"host", 0, "NAME",
		      "store under NAME (default: the file's base name, or this host's name)",
		      false},
	[OPT_SHOW] = {"show", 0, NULL, "only show the stored hosts (all, or --host NAME)", false},
	[OPT_FORMAT] = {"format", 0, "F", "output format: md, tsv, csv or json (default md)",
			false},
	{NULL, 0, NULL, NULL, false},
};

static const char details[] =
	"A physical core is a (socket, core) pair: its logical CPUs are SMT siblings.\n"
	"threads_per_core is the most logical CPUs on one core. From sibling lists\n"
	"the sockets are unknown (empty). The topology is stored in the database\n"
	"(tables hosts and host_cpus) for `coreplan smt`; a corpus manifest can\n"
	"name its host's topology file with `topology = FILE`.\n"
	"\n"
	"examples:\n"
	"  coreplan topology\n"
	"  lscpu -p > lscpu.txt; coreplan topology --from lscpu.txt --host epyc\n";

static const char *const columns[] = {"host", "source", "logical_cpus", "physical_cores",
				      "sockets", "threads_per_core", "cores"};

/* "0,4 1,5 2,6 3,7": each physical core's logical CPUs. */
static char *core_list(const struct topology *t)
{
	struct strbuf sb = STRBUF_INIT;
	bool *done = calloc(t->n ? t->n : 1, sizeof(*done));
	if (!done)
		return NULL;
	for (size_t i = 0; i < t->n; i++) {
		if (done[i])
			continue;
		strbuf_addf(&sb, "%s%d", sb.len ? " " : "", t->cpus[i].cpu);
		for (size_t j = i + 1; j < t->n; j++)
			if (!done[j] && t->cpus[j].core == t->cpus[i].core &&
			    t->cpus[j].socket == t->cpus[i].socket) {
				strbuf_addf(&sb, ",%d", t->cpus[j].cpu);
				done[j] = true;
			}
	}
	free(done);
	return strbuf_detach(&sb);
}

static int add_host_row(struct out_table *out, const char *host, const struct topology *t)
{
	char b[4][24];
	char *cores = core_list(t);
	const char *cells[7] = {host, t->source, b[0], b[1], t->sockets ? b[2] : NULL, b[3],
				cores};
	int rc;
	snprintf(b[0], 24, "%zu", t->n);
	snprintf(b[1], 24, "%zu", t->physical_cores);
	snprintf(b[2], 24, "%zu", t->sockets);
	snprintf(b[3], 24, "%zu", t->threads_per_core);
	rc = cores ? out_table_add_row(out, cells) : err_set("out of memory");
	free(cores);
	return rc;
}

static int show_stored(sqlite3 *db, const char *only, struct out_table *out)
{
	sqlite3_stmt *stmt = NULL;
	int rc = 0;
	if (sqlite3_prepare_v2(db, "SELECT name FROM hosts WHERE ?1 IS NULL OR name = ?1 ORDER BY name",
			       -1, &stmt, NULL))
		return err_set("cannot read hosts: %s", sqlite3_errmsg(db));
	sqlite3_bind_text(stmt, 1, only, -1, SQLITE_STATIC);
	while (rc == 0 && sqlite3_step(stmt) == SQLITE_ROW) {
		struct topology t;
		char *name = strdup((const char *)sqlite3_column_text(stmt, 0));
		rc = name ? topology_load(db, name, &t) : err_set("out of memory");
		if (rc == 0)
			rc = add_host_row(out, name, &t);
		if (rc == 1)
			rc = 0;
		topology_release(&t);
		free(name);
	}
	sqlite3_finalize(stmt);
	if (rc == 0 && only && out_table_rows(out) == 0)
		rc = err_set("no host '%s' (coreplan topology --show lists them)", only);
	return rc;
}

static char *default_host(const char *from)
{
	char name[256];
	if (from) {
		const char *slash = strrchr(from, '/');
		char *copy = strdup(slash ? slash + 1 : from);
		char *dot = copy ? strrchr(copy, '.') : NULL;
		if (dot && dot != copy)
			*dot = '\0';
		return copy;
	}
	if (gethostname(name, sizeof(name)) != 0)
		return strdup("localhost");
	name[sizeof(name) - 1] = '\0';
	return strdup(name);
}

static int record(sqlite3 *db, const char *from, const char *host, struct out_table *out)
{
	struct topology t;
	int rc = from ? topology_read_file(from, from, &t) : topology_probe(SYSFS_CPU, &t);
	if (rc)
		return rc;
	rc = db_begin(db);
	if (rc == 0)
		rc = topology_store(db, host, &t);
	if (rc == 0)
		rc = db_commit(db);
	else
		db_rollback(db);
	if (rc == 0)
		rc = add_host_row(out, host, &t);
	topology_release(&t);
	return rc;
}

int cmd_topology(int argc, char **argv, const struct global_opts *g)
{
	static const struct opt_cmd cmd = {"topology", NULL, details, specs};
	struct opt_parser p;
	enum out_format format = OUT_MD;
	const char *from = NULL, *host = NULL, *value;
	bool show = false;
	char *chosen = NULL;
	struct out_table *out = NULL;
	sqlite3 *db = NULL;
	int which;
	int rc = opt_parser_init(&p, &cmd, argc, argv);
	while (rc == 0 && (rc = opt_next(&p, &which, &value)) == OPT_FOUND) {
		rc = 0;
		if (which == OPT_FROM)
			from = value;
		else if (which == OPT_HOST)
			host = value;
		else if (which == OPT_SHOW)
			show = true;
		else if (out_format_parse(value, &format))
			rc = err_usage("unknown format '%s' (md, tsv, csv or json)", value);
	}
	if (rc == OPT_DONE && p.noperands > 0)
		rc = err_usage("unexpected argument '%s'", p.operands[0]);
	if (rc == OPT_DONE && show && from)
		rc = err_usage("--show and --from do not go together");
	if (rc == OPT_HELP_SHOWN) {
		rc = 0;
		goto done;
	}
	if (rc)
		goto done;
	if (!(out = out_table_new(7, columns))) {
		rc = err_set("out of memory");
		goto done;
	}
	for (size_t i = 2; i < 6; i++)
		out_table_set_kind(out, i, OUT_NUM);
	rc = db_open(g->db_path, show, &db);
	if (rc)
		goto done;
	if (show) {
		rc = show_stored(db, host, out);
	} else {
		chosen = host ? strdup(host) : default_host(from);
		rc = chosen ? record(db, from, chosen, out) : err_set("out of memory");
	}
	if (rc == 0)
		rc = out_table_write(out, format, stdout);
done:
	out_table_free(out);
	free(chosen);
	db_close(db);
	opt_parser_release(&p);
	return rc;
}
