/* topology: see topology.h. */
#include "topology.h"

#include "../common/err.h"
#include "../common/num.h"
#include "runfiles.h"

#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What a parse has seen so far, to name a repeated CPU at its line. */
struct parse_state {
	size_t alloc;
	unsigned char seen[TOPOLOGY_MAX_CPUS / 8];
	int core_of[TOPOLOGY_MAX_CPUS]; /* sibling lists: the core each seen CPU is on */
};

static bool seen_cpu(const struct parse_state *st, int cpu)
{
	return (st->seen[cpu / 8] >> (cpu % 8)) & 1;
}

static void mark_cpu(struct parse_state *st, int cpu)
{
	st->seen[cpu / 8] |= (unsigned char)(1u << (cpu % 8));
}

/* An integer field of lscpu -p; empty means unknown (-1). */
static int int_field(const char *text, size_t len, int *out)
{
	int64_t v;
	if (len == 0) {
		*out = -1;
		return 0;
	}
	if (num_parse_int_n(text, len, &v) || v < 0 || v > 1000000000)
		return -1;
	*out = (int)v;
	return 0;
}

struct lscpu_columns {
	int cpu, core, socket, node;
};

/*
 * 1 when the comment line is lscpu -p's header (comma-separated names with
 * CPU or Core among them), 0 for other comment lines, -1 for a header
 * without both CPU and Core.
 */
static int lscpu_header(const char *line, size_t len, struct lscpu_columns *cols)
{
	int index = 0;
	size_t start = 1;
	cols->cpu = cols->core = cols->socket = cols->node = -1;
	while (start < len && line[start] == ' ')
		start++;
	for (size_t i = start; i <= len; i++) {
		if (i < len && line[i] != ',')
			continue;
		if (i - start == 3 && !strncmp(line + start, "CPU", 3))
			cols->cpu = index;
		else if (i - start == 4 && !strncmp(line + start, "Core", 4))
			cols->core = index;
		else if (i - start == 6 && !strncmp(line + start, "Socket", 6))
			cols->socket = index;
		else if (i - start == 4 && !strncmp(line + start, "Node", 4))
			cols->node = index;
		index++;
		start = i + 1;
	}
	if (cols->cpu < 0 && cols->core < 0)
		return 0;
	return cols->cpu >= 0 && cols->core >= 0 ? 1 : -1;
}

static int lscpu_row(struct topology *t, struct parse_state *st, const struct lscpu_columns *cols,
		     const char *line, size_t len, const char *display, long line_no)
{
	int values[4] = {-1, -1, -1, -1};
	const int wanted[4] = {cols->cpu, cols->core, cols->socket, cols->node};
	int index = 0;
	size_t start = 0;
	for (size_t i = 0; i <= len; i++) {
		if (i < len && line[i] != ',')
			continue;
		for (int k = 0; k < 4; k++)
			if (wanted[k] == index &&
			    int_field(line + start, i - start, &values[k]) != 0)
				return err_at(display, line_no, index + 1,
					      "'%.*s' is not a CPU, core, socket or node number",
					      (int)(i - start), line + start);
		index++;
		start = i + 1;
	}
	if (values[0] < 0 || values[1] < 0)
		return err_at(display, line_no, 1, "a CPU line needs its CPU and Core numbers");
	if (values[0] >= TOPOLOGY_MAX_CPUS)
		return err_at(display, line_no, cols->cpu + 1, "CPU %d is beyond %d", values[0],
			      TOPOLOGY_MAX_CPUS);
	if (seen_cpu(st, values[0]))
		return err_at(display, line_no, cols->cpu + 1, "CPU %d is listed twice", values[0]);
	mark_cpu(st, values[0]);
	return topology_add_cpu(t, &st->alloc, values[0], values[1], values[2], values[3]);
}

static int compare_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/*
 * One sibling line: its CPUs share a core, named by its lowest CPU. The
 * same set may come back (one line per CPU, in any order); a CPU in two
 * different sets is an error.
 */
static int sibling_row(struct topology *t, struct parse_state *st, const char *line, size_t len,
		       const char *display, long line_no)
{
	int *cpus = NULL;
	size_t n = 0, k = 0;
	bool known = false;
	int rc = 0;
	if (topology_cpulist_parse(line, len, &cpus, &n) != 0) {
		free(cpus);
		return err_at(display, line_no, 1, "'%.*s' is not a CPU list (e.g. 0,4 or 0-1)",
			      (int)(len > 60 ? 60 : len), line);
	}
	qsort(cpus, n, sizeof(*cpus), compare_int);
	for (size_t i = 0; i < n; i++)
		if (k == 0 || cpus[i] != cpus[k - 1])
			cpus[k++] = cpus[i];
	/* the set seen before: every CPU already on the core named by cpus[0], and no other */
	if (seen_cpu(st, cpus[0])) {
		size_t members = 0;
		known = true;
		for (size_t i = 0; known && i < k; i++)
			known = seen_cpu(st, cpus[i]) && st->core_of[cpus[i]] == cpus[0];
		for (size_t j = 0; known && j < t->n; j++)
			members += t->cpus[j].core == cpus[0];
		known = known && members == k;
	}
	for (size_t i = 0; rc == 0 && !known && i < k; i++) {
		if (seen_cpu(st, cpus[i])) {
			rc = err_at(display, line_no, 1,
				    "CPU %d appears in two different sibling sets", cpus[i]);
			break;
		}
		mark_cpu(st, cpus[i]);
		st->core_of[cpus[i]] = cpus[0];
		rc = topology_add_cpu(t, &st->alloc, cpus[i], cpus[0], -1, -1);
	}
	free(cpus);
	return rc;
}

int topology_parse(const char *text, size_t len, const char *display, struct topology *out)
{
	struct lscpu_columns cols = {-1, -1, -1, -1};
	struct parse_state *st = calloc(1, sizeof(*st));
	bool lscpu = false;
	long line_no = 0;
	int rc = st ? 0 : err_set("out of memory");
	memset(out, 0, sizeof(*out));
	for (size_t pos = 0; rc == 0 && pos < len;) {
		const char *line = text + pos;
		const char *nl = memchr(line, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - line) : len - pos;
		pos += n + (nl != NULL);
		line_no++;
		if (n && line[n - 1] == '\r')
			n--;
		while (n && (line[n - 1] == ' ' || line[n - 1] == '\t'))
			n--;
		if (n == 0)
			continue;
		if (line[0] == '#') {
			/* lscpu -p's comment lines; the one naming CPU and Core is the header */
			int header = lscpu_header(line, n, &cols);
			if (header < 0)
				rc = err_at(display, line_no, 1,
					    "lscpu -p header without the %s column",
					    cols.cpu < 0 ? "CPU" : "Core");
			lscpu |= header > 0;
			continue;
		}
		if (lscpu)
			rc = lscpu_row(out, st, &cols, line, n, display, line_no);
		else
			rc = sibling_row(out, st, line, n, display, line_no);
	}
	free(st);
	snprintf(out->source, sizeof(out->source), "%s",
		 lscpu ? "lscpu -p" : "thread_siblings_list");
	if (rc == 0)
		rc = topology_derive(out, display);
	if (rc)
		topology_release(out);
	return rc;
}

int topology_read_file(const char *path, const char *display, struct topology *out)
{
	char *text = NULL;
	size_t len = 0;
	int rc = runfile_slurp(path, display, &text, &len);
	memset(out, 0, sizeof(*out));
	if (rc == 0)
		rc = topology_parse(text, len, display, out);
	free(text);
	return rc;
}

static int read_int_file(const char *path, int *out)
{
	char buf[64];
	int64_t v;
	size_t n;
	FILE *fp = fopen(path, "r");
	if (!fp)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	fclose(fp);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		n--;
	if (num_parse_int_n(buf, n, &v) || v < -1 || v > 1000000000)
		return -1;
	*out = (int)v;
	return 0;
}

int topology_probe(const char *root, struct topology *out)
{
	DIR *dir = opendir(root);
	struct dirent *e;
	size_t alloc = 0;
	int rc = 0;
	memset(out, 0, sizeof(*out));
	if (!dir)
		return err_set("cannot probe this machine's CPUs: cannot open '%s'", root);
	while (rc == 0 && (e = readdir(dir)) != NULL) {
		char path[512];
		int64_t cpu;
		int core, socket;
		if (strncmp(e->d_name, "cpu", 3) ||
		    num_parse_int_n(e->d_name + 3, strlen(e->d_name + 3), &cpu) || cpu < 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s/topology/core_id", root, e->d_name);
		if (read_int_file(path, &core) != 0)
			continue; /* offline CPUs have no topology */
		snprintf(path, sizeof(path), "%s/%s/topology/physical_package_id", root, e->d_name);
		if (read_int_file(path, &socket) != 0)
			socket = -1;
		rc = topology_add_cpu(out, &alloc, (int)cpu, core, socket, -1);
	}
	closedir(dir);
	snprintf(out->source, sizeof(out->source), "sysfs");
	if (rc == 0)
		rc = topology_derive(out, root);
	if (rc)
		topology_release(out);
	return rc;
}
