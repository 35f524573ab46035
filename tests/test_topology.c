/*
 * Unit tests for importers/topology (parsing `lscpu -p` output and
 * thread_siblings_list lines, probing a sysfs tree) and schema/topology
 * (cpusets on a topology, the cores text, and the hosts / host_cpus
 * round trip, the host list).
 *
 * Inputs: the real `lscpu -p` of the affinity write-up's host
 * (SHARED_CORPORA/writeups/gomaxprocs-affinity/lscpu.txt: AMD EPYC 7B12,
 * 8 CPUs = 4 cores x 2 threads, siblings 0/4 1/5 2/6 3/7), hand-written
 * texts in the shapes lscpu and sysfs produce (no SMT, two sockets with
 * core ids repeating per socket and globally unique, the default cache
 * columns, sibling lists, CRLF), a fake sysfs tree built in a mkdtemp
 * directory, and this machine's /sys/devices/system/cpu (checked against
 * sysconf(_SC_NPROCESSORS_ONLN) and the distinct thread_siblings_list
 * files, read here without the module).
 *
 * Every expected count is worked out by hand from the text in the test.
 * Input errors must name the place as "display:line:col: " (line and
 * column 1-based, column = the field), as err.h and STYLE.md ask.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "common/err.h"
#include "importers/topology.h"
#include "schema/db.h"
#include "schema/topology.h"
#include "test_util.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define LSCPU_TXT SHARED_CORPORA "/writeups/gomaxprocs-affinity/lscpu.txt"
#define SYSFS_CPU "/sys/devices/system/cpu"

/* The message starts with `prefix` ("t.txt:3:2: " and the like). */
static void check_msg_prefix(const char *prefix)
{
	if (strncmp(err_msg(), prefix, strlen(prefix)) != 0)
		fail_msg("message '%s' does not start with '%s'", err_msg(), prefix);
}

/* "t.txt:LINE:" followed by a column number and ": " */
static void check_msg_line(long line)
{
	char prefix[64];
	const char *rest;
	char *end;
	snprintf(prefix, sizeof(prefix), "t.txt:%ld:", line);
	check_msg_prefix(prefix);
	rest = err_msg() + strlen(prefix);
	if (strtol(rest, &end, 10) < 1 || end == rest || strncmp(end, ": ", 2) != 0)
		fail_msg("message '%s' has no column after '%s'", err_msg(), prefix);
}

static int parse(const char *text, struct topology *t)
{
	err_clear();
	return topology_parse(text, strlen(text), "t.txt", t);
}

/*
 * The text must be refused. When it is accepted the topology is freed
 * before failing, so a sanitizer build reports only the refusal.
 */
static void expect_refused(const char *text)
{
	struct topology t;
	if (parse(text, &t) == 0) {
		size_t n = t.n, cores = t.physical_cores;
		topology_release(&t);
		fail_msg("accepted as %zu CPUs on %zu cores: \"%s\"", n, cores, text);
	}
	assert_null(t.cpus);
}

static const struct topo_cpu *find_cpu(const struct topology *t, int cpu)
{
	return FIND_WHERE(t->cpus, t->n, cpu, cpu);
}

/* Do two CPUs sit on the same physical core (same socket and core)? */
static int same_core(const struct topology *t, int a, int b)
{
	const struct topo_cpu *x = find_cpu(t, a), *y = find_cpu(t, b);
	return x->socket == y->socket && x->core == y->core;
}

static void check_shape(const struct topology *t, size_t n, size_t cores, size_t sockets,
			size_t per_core, const char *source)
{
	assert_int_equal(t->n, n);
	assert_int_equal(t->physical_cores, cores);
	assert_int_equal(t->sockets, sockets);
	assert_int_equal(t->threads_per_core, per_core);
	assert_string_equal(t->source, source);
	/* header: cpus sorted by cpu */
	for (size_t i = 1; i < t->n; i++)
		assert_true(t->cpus[i - 1].cpu < t->cpus[i].cpu);
}

/* TEXT parses (else the message fails the test) into T of that shape (check_shape). */
static void check_parsed(const char *text, struct topology *t, size_t n, size_t cores,
			 size_t sockets, size_t per_core, const char *source)
{
	if (parse(text, t) != 0)
		fail_msg("refused: %s", err_msg());
	check_shape(t, n, cores, sockets, per_core, source);
}

/* check_parsed, the topology released after. */
static void check_shape_of(const char *text, size_t n, size_t cores, size_t sockets,
			   size_t per_core, const char *source)
{
	struct topology t;
	check_parsed(text, &t, n, cores, sockets, per_core, source);
	topology_release(&t);
}

/* CPUs A0 and A1 share a core, B0 and B1 another: no CPU of one pair is on the other's core. */
static void check_core_pairs(const struct topology *t, int a0, int a1, int b0, int b1)
{
	assert_true(same_core(t, a0, a1));
	assert_true(same_core(t, b0, b1));
	assert_false(same_core(t, a0, b0));
	assert_false(same_core(t, a0, b1));
	assert_false(same_core(t, a1, b0));
	assert_false(same_core(t, a1, b1));
}

/* Siblings 0/4 1/5 2/6 3/7 and no other pairs. */
static void check_epyc_siblings(const struct topology *t)
{
	for (int a = 0; a < 8; a++)
		for (int b = 0; b < 8; b++)
			if (a != b)
				assert_int_equal(same_core(t, a, b), a % 4 == b % 4);
}

/* ---------------------------------------------------------------- parsing */

static void real_lscpu(void **state)
{
	struct topology t;
	(void)state;
	assert_int_equal(topology_read_file(LSCPU_TXT, "lscpu.txt", &t), 0);
	check_shape(&t, 8, 4, 1, 2, "lscpu -p");
	check_epyc_siblings(&t);
	for (size_t i = 0; i < t.n; i++) {
		assert_int_equal(t.cpus[i].cpu, (int)i);
		assert_int_equal(t.cpus[i].core, (int)i % 4);
		assert_int_equal(t.cpus[i].socket, 0);
		assert_int_equal(t.cpus[i].node, 0);
	}
	topology_release(&t);
	assert_null(t.cpus);
	assert_int_equal(t.n, 0);
}

static void missing_file(void **state)
{
	struct topology t;
	(void)state;
	err_clear();
	assert_true(topology_read_file("/nonexistent/lscpu.txt", "nope/lscpu.txt", &t) < 0);
	check_msg("nope/lscpu.txt");
	assert_null(t.cpus);
}

static void no_smt(void **state)
{
	struct topology t;
	(void)state;
	check_parsed("# CPU,Core,Socket,Node\n"
		     "0,0,0,0\n"
		     "1,1,0,0\n"
		     "2,2,0,0\n"
		     "3,3,0,0\n",
		     &t, 4, 4, 1, 1, "lscpu -p");
	for (int a = 0; a < 4; a++)
		for (int b = a + 1; b < 4; b++)
			assert_false(same_core(&t, a, b));
	topology_release(&t);
}

/* A cpuset and what it uses, counted by hand from the topology's text. */
struct cpuset_case {
	const char *text;
	size_t cpus; /* 0: not checked */
	size_t cores;
	int max_threads_per_core; /* -1: not checked */
};

static void check_cpusets_on(const struct topology *t, const struct cpuset_case *cases, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct cpuset_use u;
		const struct cpuset_case *c = &cases[i];
		if (topology_cpuset(t, c->text, &u) != 0)
			fail_msg("cpuset '%s' refused: %s", c->text, err_msg());
		if ((c->cpus && u.cpus != c->cpus) || u.cores != c->cores ||
		    (c->max_threads_per_core >= 0 &&
		     u.max_threads_per_core != (size_t)c->max_threads_per_core))
			fail_msg("cpuset '%s': %zu CPUs on %zu cores, %zu per core; expected %zu "
				 "on %zu, %d",
				 c->text, u.cpus, u.cores, u.max_threads_per_core, c->cpus,
				 c->cores, c->max_threads_per_core);
	}
}

/* The cases on the EPYC host (lscpu.txt: CPUs 0-3 on cores 0-3, their siblings 4-7). */
static void check_cpusets(const struct cpuset_case *cases, size_t n)
{
	struct topology t;
	assert_int_equal(topology_read_file(LSCPU_TXT, "lscpu.txt", &t), 0);
	check_cpusets_on(&t, cases, n);
	topology_release(&t);
}

/*
 * Two sockets x 4 cores x 2 threads = 16 CPUs, numbered the way Linux
 * enumerates them (socket 0's first threads, socket 1's, then the second
 * threads): CPU c and c + 8 are siblings.
 */
static void check_two_sockets(const struct topology *t)
{
	check_shape(t, 16, 8, 2, 2, "lscpu -p");
	for (int a = 0; a < 16; a++)
		for (int b = 0; b < 16; b++)
			if (a != b)
				assert_int_equal(same_core(t, a, b), a % 8 == b % 8);
	assert_int_equal(find_cpu(t, 4)->socket, 1);
	assert_int_equal(find_cpu(t, 4)->node, 1);
	assert_int_equal(find_cpu(t, 11)->socket, 0);
}

/* On two sockets: core 0 of socket 0 and core 0 of socket 1 are different cores. */
static const struct cpuset_case two_socket_cpusets[] = {
	{"0,4", 2, 2, 1},
	{"0,8", 0, 1, 2},
	{"0-15", 16, 8, 2},
};

/* Core ids restart on each socket (as core_id in sysfs does). */
static void two_sockets_repeating_core_ids(void **state)
{
	struct topology t;
	(void)state;
	assert_int_equal(parse("# CPU,Core,Socket,Node\n"
			       "0,0,0,0\n1,1,0,0\n2,2,0,0\n3,3,0,0\n"
			       "4,0,1,1\n5,1,1,1\n6,2,1,1\n7,3,1,1\n"
			       "8,0,0,0\n9,1,0,0\n10,2,0,0\n11,3,0,0\n"
			       "12,0,1,1\n13,1,1,1\n14,2,1,1\n15,3,1,1\n",
			       &t),
			 0);
	check_two_sockets(&t);
	check_cpusets_on(&t, two_socket_cpusets, ARRAY_LEN(two_socket_cpusets));
	topology_release(&t);
}

/* Core ids unique over the machine (as lscpu prints them). */
static void two_sockets_unique_core_ids(void **state)
{
	struct topology t;
	(void)state;
	assert_int_equal(parse("# CPU,Core,Socket,Node\n"
			       "0,0,0,0\n1,1,0,0\n2,2,0,0\n3,3,0,0\n"
			       "4,4,1,1\n5,5,1,1\n6,6,1,1\n7,7,1,1\n"
			       "8,0,0,0\n9,1,0,0\n10,2,0,0\n11,3,0,0\n"
			       "12,4,1,1\n13,5,1,1\n14,6,1,1\n15,7,1,1\n",
			       &t),
			 0);
	check_two_sockets(&t);
	topology_release(&t);
}

/* `lscpu -p` with no column list: its three comment lines and cache columns. */
static void default_cache_columns(void **state)
{
	struct topology t;
	(void)state;
	check_parsed("# The following is the parsable format, which can be fed to other\n"
		     "# programs. Each different item in every column has an unique ID\n"
		     "# starting usually from zero.\n"
		     "# CPU,Core,Socket,Node,,L1d,L1i,L2,L3\n"
		     "0,0,0,0,,0,0,0,0\n"
		     "1,1,0,0,,1,1,1,0\n"
		     "2,2,0,0,,2,2,2,0\n"
		     "3,3,0,0,,3,3,3,0\n"
		     "4,0,0,0,,0,0,0,0\n"
		     "5,1,0,0,,1,1,1,0\n"
		     "6,2,0,0,,2,2,2,0\n"
		     "7,3,0,0,,3,3,3,0\n",
		     &t, 8, 4, 1, 2, "lscpu -p");
	check_epyc_siblings(&t);
	topology_release(&t);
}

/* Columns are found by name, in any order (lscpu -p=socket,core,cpu). */
static void columns_in_any_order(void **state)
{
	struct topology t;
	(void)state;
	check_parsed("# Socket,Core,CPU\n0,0,0\n0,0,1\n0,1,2\n0,1,3\n", &t, 4, 2, 1, 2, "lscpu -p");
	check_core_pairs(&t, 0, 1, 2, 3);
	topology_release(&t);
}

/* One line per CPU, as cat cpu<N>/topology/thread_siblings_list prints. */
static void sibling_lists(void **state)
{
	struct topology t;
	(void)state;
	check_parsed("0,4\n1,5\n2,6\n3,7\n0,4\n1,5\n2,6\n3,7\n", &t, 8, 4, 0, 2,
		     "thread_siblings_list");
	check_epyc_siblings(&t);
	for (size_t i = 0; i < t.n; i++)
		assert_int_equal(t.cpus[i].socket, -1);
	topology_release(&t);

	/* each set once is enough */
	check_shape_of("0,4\n1,5\n2,6\n3,7\n", 8, 4, 0, 2, "thread_siblings_list");
}

static void sibling_ranges(void **state)
{
	struct topology t;
	(void)state;
	check_parsed("0-1\n2-3\n", &t, 4, 2, 0, 2, "thread_siblings_list");
	check_core_pairs(&t, 0, 1, 2, 3);
	topology_release(&t);

	check_shape_of("0-1\n0-1\n2-3\n2-3\n", 4, 2, 0, 2, "thread_siblings_list");

	/* no SMT: every CPU its own set */
	check_shape_of("0\n1\n2\n3\n", 4, 4, 0, 1, "thread_siblings_list");
}

static void crlf(void **state)
{
	struct topology t;
	(void)state;
	check_parsed("# CPU,Core,Socket,Node\r\n0,0,0,0\r\n1,1,0,0\r\n2,2,0,0\r\n"
		     "3,3,0,0\r\n4,0,0,0\r\n5,1,0,0\r\n6,2,0,0\r\n7,3,0,0\r\n",
		     &t, 8, 4, 1, 2, "lscpu -p");
	check_epyc_siblings(&t);
	assert_int_equal(find_cpu(&t, 7)->node, 0);
	topology_release(&t);

	check_parsed("0,4\r\n1,5\r\n2,6\r\n3,7\r\n", &t, 8, 4, 0, 2, "thread_siblings_list");
	check_epyc_siblings(&t);
	topology_release(&t);

	/* no final newline */
	check_shape_of("0-1\r\n2-3", 4, 2, 0, 2, "thread_siblings_list");
}

/* ----------------------------------------------------------------- errors */

/*
 * Texts topology_parse refuses, each under the test that checks it (the
 * test of that name runs its own): the message starts with PREFIX, or
 * names line LINE (t.txt:LINE:COLUMN: ), and holds each PART; NULL or 0:
 * not checked.
 */
struct refusal {
	const char *test;
	const char *text;
	const char *prefix;
	long line;
	const char *parts[2];
};

static const struct refusal refusals[] = {
	{"error_not_a_number",
	 "# CPU,Core,Socket,Node\n0,0,0,0\n1,x,0,0\n",
	 "t.txt:3:2: ",
	 0,
	 {"'x'", NULL}},
	{"error_not_a_number",
	 "# CPU,Core,Socket,Node\n0,0,0,0\n-1,1,0,0\n",
	 "t.txt:3:1: ",
	 0,
	 {NULL, NULL}},
	{"error_not_a_number",
	 "# CPU,Core,Socket,Node\n0,0,0,0\n1,1,zero,0\n",
	 "t.txt:3:3: ",
	 0,
	 {NULL, NULL}},
	/* a row without its Core field */
	{"error_not_a_number", "# CPU,Core,Socket,Node\n0,0,0,0\n1\n", NULL, 3, {NULL, NULL}},
	{"error_not_a_number", "0,4\n1,a\n", NULL, 2, {"1,a", NULL}},
	{"error_not_a_number", "0,4\n1-\n", NULL, 2, {NULL, NULL}},
	/* the second listing, line 4, names its place */
	{"error_cpu_listed_twice",
	 "# CPU,Core,Socket,Node\n0,0,0,0\n1,1,0,0\n1,0,0,0\n",
	 NULL,
	 4,
	 {"CPU 1", NULL}},
	/* CPU 4 is with 0, then with 5 */
	{"error_two_sibling_sets",
	 "0,4\n1,5\n4,5\n",
	 NULL,
	 3,
	 {"CPU 4", "two different sibling sets"}},
	/* CPU 0 is with 4, then with 5: both sets have the same lowest CPU. */
	{"error_two_sibling_sets_same_lowest", "0,4\n0,5\n", NULL, 2, {"CPU 0", NULL}},
	/* CPU 0 is with 1, then alone. */
	{"error_sibling_subset", "0-1\n0\n", NULL, 2, {"CPU 0", NULL}},
	{"error_empty", "", "t.txt:", 0, {"no CPUs", NULL}},
	{"error_empty", "\n\n", NULL, 0, {"no CPUs", NULL}},
	{"error_empty", "# CPU,Core,Socket,Node\n", NULL, 0, {"no CPUs", NULL}},
	/*
	 * A header naming no CPU or no Core column cannot be read as lscpu -p;
	 * its rows must not be taken for sibling lists.
	 */
	{"error_header_without_core", "# CPU,Socket,Node\n0,0,0\n1,0,0\n", NULL, 1, {"Core", NULL}},
	{"error_header_without_cpu", "# Core,Socket,Node\n0,0,0\n1,0,0\n", NULL, 1, {"CPU", NULL}},
	/* One row would otherwise read as a one-CPU sibling list and succeed. */
	{"error_header_without_core_one_row", "# CPU,Socket\n0,0\n", NULL, 1, {NULL, NULL}},
};

/* The refusals of the test named by *state. */
static void test_refusals(void **state)
{
	const char *test = *state;
	size_t n = 0;
	for (size_t i = 0; i < ARRAY_LEN(refusals); i++) {
		const struct refusal *r = &refusals[i];
		if (strcmp(r->test, test) != 0)
			continue;
		expect_refused(r->text);
		if (r->prefix)
			check_msg_prefix(r->prefix);
		if (r->line)
			check_msg_line(r->line);
		for (size_t k = 0; k < ARRAY_LEN(r->parts) && r->parts[k]; k++)
			check_msg(r->parts[k]);
		n++;
	}
	if (n == 0)
		fail_msg("no refusal under the test '%s'", test);
}

/* The same set written in another order is the same core, not an error. */
static void sibling_set_in_any_order(void **state)
{
	struct topology t;
	(void)state;
	if (parse("0,4\n1,5\n4,0\n5,1\n", &t) != 0)
		fail_msg("refused: %s", err_msg());
	check_shape(&t, 4, 2, 0, 2, "thread_siblings_list");
	assert_true(same_core(&t, 0, 4));
	topology_release(&t);
}

/* ------------------------------------------------------------------ sysfs */

static char tmpdir[] = "/tmp/coreplan-topology-XXXXXX";

static void put(const char *rel, const char *content)
{
	char path[512];
	FILE *fp;
	snprintf(path, sizeof(path), "%s/%s", tmpdir, rel);
	fp = fopen(path, "w");
	if (!fp)
		fail_msg("cannot write '%s': %s", path, strerror(errno));
	fputs(content, fp);
	assert_int_equal(fclose(fp), 0);
}

static void dir(const char *rel)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", tmpdir, rel);
	if (mkdir(path, 0755) != 0)
		fail_msg("cannot create '%s': %s", path, strerror(errno));
}

/* root/sys/cpu<N>/topology/{core_id,physical_package_id} */
static void fake_cpu(const char *root, int cpu, int core, int package)
{
	char rel[256], value[32];
	snprintf(rel, sizeof(rel), "%s/cpu%d", root, cpu);
	dir(rel);
	snprintf(rel, sizeof(rel), "%s/cpu%d/topology", root, cpu);
	dir(rel);
	snprintf(rel, sizeof(rel), "%s/cpu%d/topology/core_id", root, cpu);
	snprintf(value, sizeof(value), "%d\n", core);
	put(rel, value);
	snprintf(rel, sizeof(rel), "%s/cpu%d/topology/physical_package_id", root, cpu);
	snprintf(value, sizeof(value), "%d\n", package);
	put(rel, value);
}

/* A CPU of a fake tree: cpu<CPU> with core_id CORE and physical_package_id PACKAGE. */
struct fake_cpu_at {
	int cpu, core, package;
};

/* The fake sysfs tree $tmpdir/ROOT holding the CPUS (fake_cpu). */
static void fake_tree(const char *root, const struct fake_cpu_at *cpus, size_t n)
{
	dir(root);
	for (size_t i = 0; i < n; i++)
		fake_cpu(root, cpus[i].cpu, cpus[i].core, cpus[i].package);
}

/* topology_probe of the fake tree $tmpdir/REL into T, which must succeed. */
static void probe_ok(const char *rel, struct topology *t)
{
	char root[512];
	snprintf(root, sizeof(root), "%s/%s", tmpdir, rel);
	err_clear();
	if (topology_probe(root, t) != 0)
		fail_msg("probe of %s refused: %s", root, err_msg());
}

/*
 * cpu0..cpu3: cores 0 1 0 1 of package 0 (cpu0/2 and cpu1/3 siblings);
 * cpu4 offline (no topology/); cpufreq/, cpuidle/ and the files sysfs
 * keeps beside the cpu directories.
 */
static void probe_fake_tree(void **state)
{
	struct topology t;
	static const struct fake_cpu_at cpus[] = {{0, 0, 0}, {1, 1, 0}, {2, 0, 0}, {3, 1, 0}};
	(void)state;
	fake_tree("sys", cpus, ARRAY_LEN(cpus));
	dir("sys/cpu4");
	put("sys/cpu4/online", "0\n");
	dir("sys/cpufreq");
	dir("sys/cpufreq/policy0");
	dir("sys/cpuidle");
	put("sys/online", "0-3\n");
	put("sys/offline", "4\n");
	put("sys/possible", "0-4\n");
	put("sys/kernel_max", "8191\n");
	put("sys/modalias", "cpu:type:x86,ven0002fam0017mod0031:feature:,0000\n");
	probe_ok("sys", &t);
	check_shape(&t, 4, 2, 1, 2, "sysfs");
	check_core_pairs(&t, 0, 2, 1, 3);
	topology_release(&t);
}

/* Two packages whose core ids both start at 0. */
static void probe_two_packages(void **state)
{
	struct topology t;
	static const struct fake_cpu_at cpus[] = {{0, 0, 0}, {1, 0, 1},  {2, 0, 0},
						  {3, 0, 1}, {10, 1, 0}, {11, 1, 1}};
	(void)state;
	fake_tree("two", cpus, ARRAY_LEN(cpus));
	probe_ok("two", &t);
	check_shape(&t, 6, 4, 2, 2, "sysfs");
	check_core_pairs(&t, 0, 2, 1, 3);
	assert_false(same_core(&t, 10, 11));
	assert_int_equal(t.cpus[t.n - 1].cpu, 11);
	topology_release(&t);
}

static void probe_errors(void **state)
{
	struct topology t;
	char root[512];
	(void)state;
	err_clear();
	assert_true(topology_probe("/nonexistent/cpu", &t) < 0);
	check_msg("'/nonexistent/cpu'");
	assert_null(t.cpus);

	dir("empty");
	snprintf(root, sizeof(root), "%s/empty", tmpdir);
	assert_true(topology_probe(root, &t) < 0);
	check_msg("no CPUs");
	assert_null(t.cpus);
}

/* Distinct contents of cpu<N>/topology/thread_siblings_list, read by hand. */
static long distinct_sibling_lists(long *online)
{
	char seen[1024][64];
	long n = 0;
	*online = 0;
	for (int cpu = 0; cpu < 8192; cpu++) {
		char path[128], line[64] = "";
		FILE *fp;
		int dup = 0;
		snprintf(path, sizeof(path), SYSFS_CPU "/cpu%d/topology/thread_siblings_list", cpu);
		if (!(fp = fopen(path, "r")))
			continue;
		if (!fgets(line, sizeof(line), fp))
			line[0] = '\0';
		fclose(fp);
		(*online)++;
		for (long i = 0; i < n && !dup; i++)
			dup = !strcmp(seen[i], line);
		if (!dup && n < 1024)
			snprintf(seen[n++], sizeof(seen[0]), "%s", line);
	}
	return n;
}

static void probe_this_machine(void **state)
{
	struct topology t;
	long online, lists;
	(void)state;
	if (access(SYSFS_CPU, R_OK) != 0)
		skip();
	err_clear();
	assert_int_equal(topology_probe(SYSFS_CPU, &t), 0);
	assert_string_equal(t.source, "sysfs");
	assert_int_equal(t.n, (size_t)sysconf(_SC_NPROCESSORS_ONLN));
	lists = distinct_sibling_lists(&online);
	assert_int_equal(t.n, (size_t)online);
	assert_int_equal(t.physical_cores, (size_t)lists);
	assert_true(t.threads_per_core >= 1);
	assert_true(t.physical_cores * t.threads_per_core >= t.n);
	topology_release(&t);
}

/* ---------------------------------------------------------------- cpusets */

static const struct cpuset_case cpuset_cases[] = {
	{"0,4,1,5", 4, 2, 2},
	{"0,1,2,3", 4, 4, 1},
	{"0-3", 4, 4, 1},
	{"0-7", 8, 4, 2},
	/* 0-2 and 4: CPU 4 shares core 0 with CPU 0 */
	{"0-2,4", 4, 3, 2},
};

static void cpusets(void **state)
{
	(void)state;
	check_cpusets(cpuset_cases, ARRAY_LEN(cpuset_cases));
}

/* Duplicates are counted once. */
static const struct cpuset_case cpuset_duplicate_cases[] = {
	{"0,0", 1, 1, 1},
	{"0,4,0,4", 2, 1, 2},
	{"0-3,2,1-2", 4, 4, -1},
};

static void cpuset_duplicates(void **state)
{
	(void)state;
	check_cpusets(cpuset_duplicate_cases, ARRAY_LEN(cpuset_duplicate_cases));
}

/* Cpusets refused: a CPU the host lacks (the message names it), or not a list of CPUs and ranges.
 */
static const struct {
	const char *text;
	const char *message_part; /* NULL: not checked */
} cpuset_refusals[] = {
	{"9", "CPU 9"},   {"0,4,1,9", "CPU 9"}, {"6-9", "CPU 8"}, {"1,,2", "'1,,2'"},
	{"3-1", "'3-1'"}, {"", NULL},           {"1,", NULL},     {",1", NULL},
	{"a", NULL},      {"-1", NULL},         {"1-", NULL},
};

static void cpuset_errors(void **state)
{
	struct topology t;
	(void)state;
	assert_int_equal(topology_read_file(LSCPU_TXT, "lscpu.txt", &t), 0);
	for (size_t i = 0; i < ARRAY_LEN(cpuset_refusals); i++) {
		struct cpuset_use u;
		err_clear();
		if (topology_cpuset(&t, cpuset_refusals[i].text, &u) >= 0)
			fail_msg("cpuset '%s' accepted", cpuset_refusals[i].text);
		if (cpuset_refusals[i].message_part)
			check_msg(cpuset_refusals[i].message_part);
	}
	topology_release(&t);
}

/* -------------------------------------------------------------- database */

static void check_same(const struct topology *a, const struct topology *b)
{
	assert_int_equal(a->n, b->n);
	assert_int_equal(a->physical_cores, b->physical_cores);
	assert_int_equal(a->sockets, b->sockets);
	assert_int_equal(a->threads_per_core, b->threads_per_core);
	assert_string_equal(a->source, b->source);
	for (size_t i = 0; i < a->n; i++) {
		assert_int_equal(a->cpus[i].cpu, b->cpus[i].cpu);
		assert_int_equal(a->cpus[i].core, b->cpus[i].core);
		assert_int_equal(a->cpus[i].socket, b->cpus[i].socket);
		assert_int_equal(a->cpus[i].node, b->cpus[i].node);
	}
}

static void store_and_load(void **state)
{
	sqlite3 *db = NULL;
	struct topology epyc, two, sib, back;
	(void)state;
	assert_int_equal(db_open(":memory:", false, &db), 0);
	assert_int_equal(topology_read_file(LSCPU_TXT, "lscpu.txt", &epyc), 0);
	assert_int_equal(parse("# CPU,Core,Socket,Node\n"
			       "0,0,0,0\n1,1,0,0\n2,2,0,0\n3,3,0,0\n"
			       "4,0,1,1\n5,1,1,1\n6,2,1,1\n7,3,1,1\n"
			       "8,0,0,0\n9,1,0,0\n10,2,0,0\n11,3,0,0\n"
			       "12,0,1,1\n13,1,1,1\n14,2,1,1\n15,3,1,1\n",
			       &two),
			 0);
	assert_int_equal(parse("0,4\n1,5\n2,6\n3,7\n", &sib), 0);

	assert_int_equal(topology_store(db, "epyc", &epyc), 0);
	assert_int_equal(topology_load(db, "epyc", &back), 0);
	check_same(&epyc, &back);
	topology_release(&back);
	assert_int_equal(db_scalar_int(db, "SELECT logical_cpus FROM hosts WHERE name = 'epyc'"),
			 8);
	assert_int_equal(db_scalar_int(db, "SELECT physical_cores FROM hosts WHERE name = 'epyc'"),
			 4);
	assert_int_equal(db_scalar_int(db, "SELECT sockets FROM hosts WHERE name = 'epyc'"), 1);
	assert_int_equal(
		db_scalar_int(db, "SELECT threads_per_core FROM hosts WHERE name = 'epyc'"), 2);
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM host_cores WHERE host = 'epyc'"),
			 4);

	/* no such host */
	assert_int_equal(topology_load(db, "nosuch", &back), 1);
	assert_null(back.cpus);

	/* the same name again replaces the host and its CPUs */
	assert_int_equal(topology_store(db, "epyc", &two), 0);
	assert_int_equal(topology_load(db, "epyc", &back), 0);
	check_same(&two, &back);
	topology_release(&back);
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM hosts WHERE name = 'epyc'"), 1);
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM hosts"), 1);
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM host_cpus"), 16);
	assert_int_equal(db_scalar_int(db, "SELECT sockets FROM hosts WHERE name = 'epyc'"), 2);

	/* sockets unknown: NULL in the table, 0 / -1 back */
	assert_int_equal(topology_store(db, "sib", &sib), 0);
	assert_int_equal(topology_load(db, "sib", &back), 0);
	check_same(&sib, &back);
	assert_int_equal(back.sockets, 0);
	assert_int_equal(back.cpus[0].socket, -1);
	topology_release(&back);
	assert_int_equal(db_scalar_int(db, "SELECT sockets IS NULL FROM hosts WHERE name = 'sib'"),
			 1);
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM hosts"), 2);
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM host_cpus"), 24);

	/* the first host is untouched by the second */
	assert_int_equal(topology_load(db, "epyc", &back), 0);
	check_same(&two, &back);
	topology_release(&back);

	topology_release(&epyc);
	topology_release(&two);
	topology_release(&sib);
	db_close(db);
}

/*
 * The cores text and the host list: epyc's siblings are 0/4 1/5 2/6 3/7;
 * the two-socket text below repeats core ids per socket, so core 0 of
 * socket 0 (CPUs 0, 2) and of socket 1 (CPUs 1, 3) are different cores.
 */
static void cores_text_and_list(void **state)
{
	sqlite3 *db = NULL;
	struct topology epyc, two;
	struct topology_hosts hosts = {0};
	struct strbuf sb = STRBUF_INIT;
	(void)state;
	assert_int_equal(db_open(":memory:", false, &db), 0);
	assert_int_equal(topology_read_file(LSCPU_TXT, "lscpu.txt", &epyc), 0);
	assert_int_equal(
		parse("# CPU,Core,Socket,Node\n0,0,0,0\n1,0,1,1\n2,0,0,0\n3,0,1,1\n", &two), 0);
	assert_int_equal(topology_cores_text(&epyc, &sb), 0);
	assert_string_equal(strbuf_str(&sb), "0,4 1,5 2,6 3,7");
	strbuf_release(&sb);
	assert_int_equal(topology_cores_text(&two, &sb), 0);
	assert_string_equal(strbuf_str(&sb), "0,2 1,3");
	strbuf_release(&sb);

	/* recorded in their own transactions; listed by name */
	assert_int_equal(topology_record(db, "zen", &two), 0);
	assert_int_equal(topology_record(db, "epyc", &epyc), 0);
	assert_int_equal(topology_list(db, NULL, &hosts), 0);
	assert_int_equal(hosts.n, 2);
	assert_string_equal(hosts.hosts[0].name, "epyc");
	check_same(&epyc, &hosts.hosts[0].topo);
	assert_string_equal(hosts.hosts[1].name, "zen");
	check_same(&two, &hosts.hosts[1].topo);
	topology_hosts_release(&hosts);
	assert_int_equal(topology_list(db, "zen", &hosts), 0);
	assert_int_equal(hosts.n, 1);
	assert_int_equal(hosts.hosts[0].topo.sockets, 2);
	topology_hosts_release(&hosts);

	/* an unknown host is an error naming it; nothing listed */
	err_clear();
	assert_true(topology_list(db, "nosuch", &hosts) < 0);
	assert_non_null(strstr(err_msg(), "'nosuch'"));
	assert_int_equal(hosts.n, 0);
	err_clear();

	/* a copy owns its CPUs */
	assert_int_equal(topology_hosts_add(&hosts, "copy", &epyc), 0);
	topology_release(&epyc);
	assert_int_equal(hosts.hosts[0].topo.n, 8);
	assert_int_equal(hosts.hosts[0].topo.cpus[7].cpu, 7);
	topology_hosts_release(&hosts);

	topology_release(&two);
	db_close(db);
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return nftw(tmpdir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* a test of the refusals table: its rows under the test's name */
#define REFUSAL_TEST(name)                                                                         \
	{                                                                                          \
		name, test_refusals, NULL, NULL, (void *)(name)                                    \
	}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(real_lscpu),
		cmocka_unit_test(missing_file),
		cmocka_unit_test(no_smt),
		cmocka_unit_test(two_sockets_repeating_core_ids),
		cmocka_unit_test(two_sockets_unique_core_ids),
		cmocka_unit_test(default_cache_columns),
		cmocka_unit_test(columns_in_any_order),
		cmocka_unit_test(sibling_lists),
		cmocka_unit_test(sibling_ranges),
		cmocka_unit_test(crlf),
		REFUSAL_TEST("error_not_a_number"),
		REFUSAL_TEST("error_cpu_listed_twice"),
		REFUSAL_TEST("error_two_sibling_sets"),
		REFUSAL_TEST("error_two_sibling_sets_same_lowest"),
		REFUSAL_TEST("error_sibling_subset"),
		cmocka_unit_test(sibling_set_in_any_order),
		REFUSAL_TEST("error_empty"),
		REFUSAL_TEST("error_header_without_core"),
		REFUSAL_TEST("error_header_without_cpu"),
		REFUSAL_TEST("error_header_without_core_one_row"),
		cmocka_unit_test(probe_fake_tree),
		cmocka_unit_test(probe_two_packages),
		cmocka_unit_test(probe_errors),
		cmocka_unit_test(probe_this_machine),
		cmocka_unit_test(cpusets),
		cmocka_unit_test(cpuset_duplicates),
		cmocka_unit_test(cpuset_errors),
		cmocka_unit_test(store_and_load),
		cmocka_unit_test(cores_text_and_list),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
