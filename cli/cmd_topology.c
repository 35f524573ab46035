/* cmd_topology: `coreplan topology`, record and show hosts' CPU topologies. */
#include "cmd.h"
#include "common.h"
#include "opt.h"

#include "../common/err.h"
#include "../importers/topology.h"
#include "../reports/builders.h"
#include "../schema/topology.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define SYSFS_CPU "/sys/devices/system/cpu"

/* What is asked (host: --host, else the default check() chooses). */
static struct {
	const char *from;
	const char *host;
	bool show;
	int64_t cores, threads; /* --cores, --threads-per-core (0: not given) */
	char default_host[256];
} req;

static const struct opt_spec specs[] = {
	CLI_SPECS_OUTPUT,
	OPT_STRING("from", "FILE", &req.from,
		   "`lscpu -p` output or thread_siblings_list lines, a regular file of at most "
		   "16 MiB (default: probe this machine's " SYSFS_CPU ")"),
	OPT_STRING("host", "NAME", &req.host,
		   "store under NAME (default: the file's base name, or this host's name)"),
	OPT_INT("cores", "N", &req.cores,
		"no file: a host of N physical cores (with --host; e.g. from a write-up)",
		OPT_GE(1), OPT_LE(TOPOLOGY_MAX_CPUS)),
	OPT_INT("threads-per-core", "T", &req.threads,
		"with --cores: T hardware threads per core (default 1)", OPT_GE(1), OPT_LE(64)),
	OPT_FLAG("show", &req.show, "only show the stored hosts (all, or --host NAME)"),
	OPT_END,
};

static const char details[] =
	"A physical core is a (socket, core) pair: its logical CPUs are SMT siblings.\n"
	"threads_per_core is the most logical CPUs on one core. From sibling lists\n"
	"the sockets are unknown (empty). The topology is stored in the database\n"
	"(tables hosts and host_cpus) for `coreplan smt`; a corpus manifest can\n"
	"name its host's topology file with `topology = FILE`. --show only reads\n"
	"the database.\n"
	"--cores N --threads-per-core T records a host known only by its shape (a\n"
	"write-up's \"6 cores, 12 threads\"): N x T logical CPUs numbered as Linux\n"
	"numbers them, CPU i on core i mod N (siblings i and i+N), source 'given'.\n"
	"It needs --host NAME. A host recorded under a name already stored replaces it.\n"
	"Runs are tied to a host with `coreplan import PATH --host NAME` (or a\n"
	"manifest's topology, or a catalog instance: `coreplan import --help`);\n"
	"sweep, fit and plot then count levels in physical cores.\n"
	"\n"
	"examples:\n"
	"  coreplan topology\n"
	"  lscpu -p > lscpu.txt; coreplan topology --from lscpu.txt --host epyc\n"
	"  coreplan topology --host yip --cores 6 --threads-per-core 2\n";

/* The file's base name without its extension, else this machine's name. */
static void default_host(const char *from, char *name, size_t size)
{
	if (from) {
		const char *slash = strrchr(from, '/');
		char *dot;
		snprintf(name, size, "%s", slash ? slash + 1 : from);
		dot = strrchr(name, '.');
		if (dot && dot != name)
			*dot = '\0';
		return;
	}
	if (gethostname(name, size) != 0)
		snprintf(name, size, "localhost");
	name[size - 1] = '\0';
}

static int check(struct cli_args *a)
{
	if (req.show && (req.from || req.cores || req.threads))
		return err_usage(
			"--show only reads: not with --from, --cores or --threads-per-core");
	if (req.from && req.cores)
		return err_usage("give --from FILE or --cores N, not both");
	if (req.threads && !req.cores)
		return err_usage("--threads-per-core needs --cores N");
	if (req.cores && !req.host)
		return err_usage(
			"--cores needs --host NAME (the host has no file to be named after)");
	if (req.cores && !req.threads)
		req.threads = 1;
	if (req.show) {
		a->db_mode = CLI_DB_READ;
		return 0;
	}
	if (!req.host) {
		default_host(req.from, req.default_host, sizeof(req.default_host));
		req.host = req.default_host;
	}
	return 0;
}

static int run(sqlite3 *db, struct cli_args *a, struct doc **out)
{
	struct topology_hosts hosts = {0};
	struct topology t = {0};
	int rc;
	(void)a;
	if (req.show) {
		rc = topology_list(db, req.host, &hosts);
	} else {
		rc = req.cores ? topology_shape((size_t)req.cores, (size_t)req.threads, "given", &t)
		     : req.from ? topology_read_file(req.from, req.from, &t)
				: topology_probe(SYSFS_CPU, &t);
		if (rc == 0)
			rc = topology_record(db, req.host, &t);
		if (rc == 0)
			rc = topology_hosts_add(&hosts, req.host, &t);
	}
	if (rc == 0)
		rc = build_topology(&hosts, !req.show, out);
	topology_release(&t);
	topology_hosts_release(&hosts);
	return rc;
}

const struct cli_def cli_topology = {
	.cmd = {"topology", NULL, details, specs, build_topology_views},
	.db = CLI_DB_WRITE,
	CLI_REQUEST(req),
	.check = check,
	.run = run};
