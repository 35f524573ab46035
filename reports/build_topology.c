/* build_topology: the document of `coreplan topology` (builders.h). */
#include "builders.h"

#include "../common/err.h"
#include "../common/strbuf.h"

enum { C_HOST, C_SOURCE, C_LOGICAL, C_PHYSICAL, C_SOCKETS, C_PER_CORE, C_CORES, NCOLS };

static int hosts_table(struct doc_section *s, const struct topology_hosts *hosts)
{
	static const struct doc_col cols[NCOLS] = {
		[C_HOST] = DOC_COL_TEXT("host"),
		[C_SOURCE] = DOC_COL_TEXT("source"),
		[C_LOGICAL] = DOC_COL_INT("logical_cpus", "CPUs"),
		[C_PHYSICAL] = DOC_COL_INT("physical_cores", "cores"),
		[C_SOCKETS] = DOC_COL_INT("sockets", NULL),
		[C_PER_CORE] = DOC_COL_INT("threads_per_core", NULL),
		[C_CORES] = DOC_COL_TEXT("cores"),
	};
	struct doc_table *t = doc_table(s, cols, NCOLS);
	int rc = 0;
	doc_table_empty_text(t, "no host recorded (coreplan topology --from FILE --host NAME)");
	for (size_t i = 0; rc == 0 && i < hosts->n; i++) {
		const struct topology *topo = &hosts->hosts[i].topo;
		struct strbuf cores = STRBUF_INIT;
		doc_row(t);
		doc_set_text(t, C_HOST, hosts->hosts[i].name);
		doc_set_text(t, C_SOURCE, topo->source);
		doc_set_int(t, C_LOGICAL, (int64_t)topo->n);
		doc_set_int(t, C_PHYSICAL, (int64_t)topo->physical_cores);
		/* sockets are unknown from sibling lists: missing, not 0 */
		if (topo->sockets)
			doc_set_int(t, C_SOCKETS, (int64_t)topo->sockets);
		doc_set_int(t, C_PER_CORE, (int64_t)topo->threads_per_core);
		rc = topology_cores_text(topo, &cores);
		doc_set_text(t, C_CORES, strbuf_str(&cores));
		strbuf_release(&cores);
	}
	return rc;
}

int build_topology(const struct topology_hosts *hosts, bool recorded, struct doc **out)
{
	struct doc *d = build_doc(out, "topology", "");
	struct doc_section *s;
	int rc;
	if (!d)
		return ERR_DATA;
	if (recorded && hosts->n == 1)
		doc_set_title(d, "Topology of host %s, recorded", hosts->hosts[0].name);
	else
		doc_set_title(d, "Stored host topologies");
	doc_fact_text(d, "action", "action", DOC_LISTED, recorded ? "recorded" : "shown");
	doc_fact_int(d, "hosts", "hosts", DOC_LISTED, (int64_t)hosts->n, NULL);
	s = doc_section(d, "hosts", "Hosts");
	rc = hosts_table(s, hosts);
	doc_note(s,
		 "a physical core is a (socket, core) pair; cores lists each one's logical CPUs; "
		 "definitions: `coreplan topology --help`");
	if (rc == 0 && doc_error(d))
		rc = ERR_DATA;
	if (rc) {
		doc_free(d);
		return rc;
	}
	*out = d;
	return 0;
}

const char *const build_topology_views[] = {"hosts", NULL};
