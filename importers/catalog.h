/*
 * catalog: instance catalog files for sizing (fixtures/catalogs/NAME.tsv,
 * or a user's file given to `coreplan catalog FILE` or `coreplan size
 * --catalog FILE`).
 *
 * A catalog is a headed TSV or CSV with one row per instance type and the
 * columns (any order; extra columns are ignored and listed in a warning):
 *   instance                 e.g. e2-standard-8, m7i.large
 *   provider                 gce, aws, ...
 *   series                   e2, n2, m7i, ... (the family of shapes)
 *   vcpus                    vCPUs the guest sees (a whole number >= 1)
 *   threads_per_core         1 or 2: hardware threads per physical core
 *   sustained_vcpu_fraction  of each vCPU the instance may use sustained:
 *                            1 for dedicated types, e.g. 0.25 for e2-small
 *                            (0.5 vCPU of 2); in (0, 1]
 *   memory_gib               memory, GiB
 *   cpu_family               the CPU the instance runs on, as runs name it
 *                            (a run's cpu_family field), e.g. gce-e2
 *   price_per_hour           on-demand price, USD per hour (>= 0)
 *   price_region             where that price applies
 *   price_source             where the price was taken from
 *   price_date               when (YYYY-MM-DD)
 * and optionally
 *   cpu_platforms            the CPU platforms the instance's family runs on,
 *                            named as runs name them (a run's cpu_model
 *                            field, e.g. intel-xeon-2.2ghz amd-epyc-7b12):
 *                            names of letters, digits and . _ - +, separated
 *                            by commas and/or spaces, none twice; an empty
 *                            cell (or no column) says the catalog does not
 *                            know; kept ","-separated
 * Physical cores are derived, never typed in:
 *   physical_cores  = vcpus / threads_per_core
 *   sustained_cores = vcpus * sustained_vcpu_fraction / threads_per_core
 * A missing column, a malformed value (a non-number, threads_per_core not
 * 1 or 2, a fraction outside (0, 1], vcpus not divisible by
 * threads_per_core) or a duplicate instance is an error naming the file,
 * line and column.
 *
 * catalog_read() reads a regular file of at most INFILE_TABLE_MAX bytes
 * (256 MiB, common/infile.h) and records its path, the SHA-256 of the
 * bytes it parsed (hashed while reading, from the same descriptor) and its name: the base name without the extension (".../gce.tsv" is
 * "gce"), what `coreplan catalog` stores it as unless --name says.
 *
 * This module only reads files: the structs, and storing a catalog in the
 * database or reading it back, are schema/catalog.h.
 *
 * Ownership: catalog_read() fills a struct catalog (schema/catalog.h) that
 * owns every string; catalog_release() frees it.
 */
#ifndef COREPLAN_CATALOG_H
#define COREPLAN_CATALOG_H

#include "../schema/catalog.h"

int catalog_read(const char *path, struct catalog *out);

/* The base name of path without its extension (a new string, NULL when out of memory). */
char *catalog_name_of(const char *path);

#endif
