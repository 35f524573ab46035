/*
 * catalog: instance catalogs for sizing (fixtures/catalogs/NAME.tsv, or a
 * user's file given to `coreplan size --catalog FILE`).
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
 * Physical cores are derived, never typed in:
 *   physical_cores  = vcpus / threads_per_core
 *   sustained_cores = vcpus * sustained_vcpu_fraction / threads_per_core
 * A missing column, a malformed value (a non-number, threads_per_core not
 * 1 or 2, a fraction outside (0, 1], vcpus not divisible by
 * threads_per_core) or a duplicate instance is an error naming the file,
 * line and column.
 *
 * Ownership: catalog_read() fills a struct catalog that owns every string;
 * catalog_release() frees it.
 */
#ifndef COREPLAN_CATALOG_H
#define COREPLAN_CATALOG_H

#include <stddef.h>

struct instance {
	char *instance;
	char *provider;
	char *series;
	int vcpus;
	int threads_per_core;
	double sustained_vcpu_fraction;
	double memory_gib;
	char *cpu_family;
	double price_per_hour;
	char *price_region;
	char *price_source;
	char *price_date;
	double physical_cores;  /* derived */
	double sustained_cores; /* derived */
	long line;              /* where it was read */
};

struct catalog {
	struct instance *items;
	size_t n;
	char *path;
};

int catalog_read(const char *path, struct catalog *out);
/* Append the instances of another catalog (a duplicate instance is an error). */
int catalog_merge(struct catalog *into, const struct catalog *from);
void catalog_release(struct catalog *c);

#endif
