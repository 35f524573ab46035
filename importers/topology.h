/*
 * topology (importers): reading a host's CPU topology from `lscpu -p`
 * output, a list of thread_siblings_list lines, or this machine's
 * /sys/devices/system/cpu/cpu<N>/topology/ (coreplan topology, and a
 * manifest's `topology = FILE`).
 *
 * The result is a struct topology (schema/topology.h, which also stores
 * and loads it and does the CPU-set arithmetic). From sibling lists the
 * sockets are unknown (sockets = 0) and each distinct sibling set is one
 * core, named by its lowest CPU. Input errors name the file, line and
 * column. On failure *out is released.
 */
#ifndef COREPLAN_IMPORTERS_TOPOLOGY_H
#define COREPLAN_IMPORTERS_TOPOLOGY_H

#include <stddef.h>

#include "../schema/topology.h"

/* Parse either format: `lscpu -p` output (a "# CPU,Core,..." header) or sibling lists. */
int topology_parse(const char *text, size_t len, const char *display, struct topology *out);
int topology_read_file(const char *path, const char *display, struct topology *out);
/* Probe <root>/cpu<N>/topology/ ("/sys/devices/system/cpu" on a real machine). */
int topology_probe(const char *root, struct topology *out);

#endif
