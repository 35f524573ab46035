/*
 * Unit tests for importers/catalog (reading: the shipped instance catalogs
 * in fixtures/catalogs and the errors of a user's catalog) and
 * schema/catalog (the catalogs and instances tables: store, replace,
 * refuse an instance listed twice, read back, TEMP tables).
 * Expected values are computed by hand from
 * shared/reference/instance-catalog.md, not from the code under test.
 * Malformed catalogs are written into a mkdtemp directory.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "common/err.h"
#include "common/hash.h"
#include "analysis/catalogs.h"
#include "common/infile.h"
#include "importers/catalog.h"
#include "schema/catalog.h"
#include "schema/db.h"
#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef FIXTURES_DIR
#define FIXTURES_DIR "fixtures"
#endif

#define GCE FIXTURES_DIR "/catalogs/gce.tsv"
#define AWS FIXTURES_DIR "/catalogs/aws.tsv"

static const char header[] = "instance\tprovider\tseries\tvcpus\tthreads_per_core\t"
			     "sustained_vcpu_fraction\tmemory_gib\tcpu_family\tprice_per_hour\t"
			     "price_region\tprice_source\tprice_date\n";

static int clear_messages(void **state)
{
	(void)state;
	err_clear();
	warn_clear();
	return 0;
}

/* Write text to the scratch folder as name; the full path. */
static const char *put(const char *name, const char *text)
{
	return tmp_put(name, text, strlen(text));
}

/* A TSV catalog: the standard header, then `rows`. */
static const char *put_rows(const char *name, const char *rows)
{
	static char text[4096];
	snprintf(text, sizeof(text), "%s%s", header, rows);
	return put(name, text);
}

/* Reading must fail with "path:" followed by `rest`, leaving nothing to free. */
static void expect_error(const char *path, const char *rest)
{
	struct catalog c;
	char want[1024];
	snprintf(want, sizeof(want), "%s:%s", path, rest);
	assert_int_equal(catalog_read(path, &c), ERR_DATA);
	assert_string_equal(err_msg(), want);
	assert_null(c.items);
	assert_null(c.path);
	assert_null(c.name);
	assert_int_equal(c.n, 0);
	catalog_release(&c);
}

static const struct instance *find(const struct catalog *c, const char *name)
{
	for (size_t i = 0; i < c->n; i++)
		if (strcmp(c->items[i].instance, name) == 0)
			return &c->items[i];
	fail_msg("instance '%s' not in '%s'", name, c->path);
	return NULL;
}

static size_t count_series(const struct catalog *c, const char *series)
{
	size_t n = 0;
	for (size_t i = 0; i < c->n; i++)
		n += strcmp(c->items[i].series, series) == 0;
	return n;
}

static void read_ok(const char *path, struct catalog *c)
{
	int rc = catalog_read(path, c);
	if (rc)
		fail_msg("%s", err_msg());
}

static void shipped_catalogs_parse(void **state)
{
	struct catalog gce, aws;
	(void)state;
	read_ok(GCE, &gce);
	read_ok(AWS, &aws);
	assert_int_equal(warn_count(), 0);
	assert_string_equal(gce.path, GCE);
	assert_int_equal(gce.n, 62);
	assert_int_equal(aws.n, 54);
	/* the first data row is on line 2 */
	assert_int_equal(gce.items[0].line, 2);
	assert_string_equal(gce.items[0].instance, "e2-micro");
	assert_int_equal(aws.items[aws.n - 1].line, 55);
	catalog_release(&gce);
	catalog_release(&aws);
}

/* The lists in instance-catalog.md sections 1.2 and 1.3, counted. */
static void rows_per_series(void **state)
{
	struct catalog gce, aws;
	(void)state;
	read_ok(GCE, &gce);
	read_ok(AWS, &aws);
	/* micro, small, medium + standard-2/4/8/16/32 */
	assert_int_equal(count_series(&gce, "e2"), 8);
	assert_int_equal(count_series(&gce, "n2"), 10);
	assert_int_equal(count_series(&gce, "n2d"), 11);
	assert_int_equal(count_series(&gce, "c3"), 6);
	assert_int_equal(count_series(&gce, "c4"), 12);
	assert_int_equal(count_series(&gce, "t2d"), 8);
	assert_int_equal(count_series(&gce, "t2a"), 7);
	/* sizes with a price: no metal rows (the reference gives them no price) */
	assert_int_equal(count_series(&aws, "m6i"), 9);
	assert_int_equal(count_series(&aws, "m7i"), 9);
	assert_int_equal(count_series(&aws, "c7i"), 9);
	assert_int_equal(count_series(&aws, "m7g"), 8);
	assert_int_equal(count_series(&aws, "c7g"), 8);
	assert_int_equal(count_series(&aws, "m7a"), 11);
	catalog_release(&gce);
	catalog_release(&aws);
}

static void gce_spot_checks(void **state)
{
	struct catalog c;
	const struct instance *in;
	(void)state;
	read_ok(GCE, &c);

	/* e2-small: 2 vCPUs (hyperthreads), 0.5 vCPU sustained = 0.25 of each */
	in = find(&c, "e2-small");
	assert_int_equal(in->vcpus, 2);
	assert_int_equal(in->threads_per_core, 2);
	assert_true(in->sustained_vcpu_fraction == 0.25);
	assert_true(in->physical_cores == 1.0);
	assert_true(in->sustained_cores == 0.25);
	assert_true(in->memory_gib == 2.0);
	assert_true(in->price_per_hour == 0.01675); /* the real price, not 0.03352 */
	assert_string_equal(in->cpu_family, "gce-e2");
	assert_string_equal(in->provider, "gce");
	assert_string_equal(in->price_region, "us-central1");
	assert_string_equal(in->price_date, "2026-11-29");

	/* e2-micro: 0.25 vCPU sustained = 0.125 physical core; e2-medium: 1 vCPU = 0.5 */
	in = find(&c, "e2-micro");
	assert_true(in->sustained_cores == 0.125);
	assert_true(in->price_per_hour == 0.00838); /* not the inflated 0.03353 */
	assert_non_null(strstr(in->price_source, "gce_price_info.go"));
	in = find(&c, "e2-medium");
	assert_true(in->physical_cores == 1.0);
	assert_true(in->sustained_cores == 0.5);
	assert_true(in->price_per_hour == 0.03351);

	in = find(&c, "e2-standard-8");
	assert_true(in->physical_cores == 4.0);
	assert_true(in->sustained_cores == 4.0);
	assert_true(in->memory_gib == 32.0);
	assert_true(in->price_per_hour == 0.26805);

	in = find(&c, "n2-standard-8");
	assert_true(in->physical_cores == 4.0);
	assert_string_equal(in->cpu_family, "gce-n2");
	assert_true(in->price_per_hour == 0.3885);

	/* Tau T2D: one vCPU per core, not shared-core */
	in = find(&c, "t2d-standard-4");
	assert_int_equal(in->threads_per_core, 1);
	assert_true(in->physical_cores == 4.0);
	assert_true(in->sustained_cores == 4.0);
	assert_true(in->price_per_hour == 0.1690);

	in = find(&c, "t2a-standard-16");
	assert_int_equal(in->threads_per_core, 1);
	assert_true(in->price_per_hour == 0.616); /* 0.0385 x 16 */
	assert_non_null(strstr(in->price_source, "low confidence"));
	assert_string_equal(in->cpu_family, "gce-t2a");

	in = find(&c, "c3-standard-22");
	assert_true(in->physical_cores == 11.0);
	assert_true(in->memory_gib == 88.0);

	/* C4: 2 x 0.03465 + 7 x 0.003938 = 0.096866 */
	in = find(&c, "c4-standard-2");
	assert_true(in->memory_gib == 7.0);
	assert_true(in->price_per_hour == 0.09687);
	assert_non_null(strstr(in->price_source, "computed"));
	in = find(&c, "c4-standard-288");
	assert_true(in->physical_cores == 144.0);
	assert_true(in->price_per_hour == 14.23224);

	in = find(&c, "n2d-standard-224");
	assert_true(in->physical_cores == 112.0);
	assert_true(in->memory_gib == 896.0);

	/* every GCE row: us-central1, one retrieval date, 1 or 2 threads as the series says */
	for (size_t i = 0; i < c.n; i++) {
		const struct instance *x = &c.items[i];
		int one = strcmp(x->series, "t2d") == 0 || strcmp(x->series, "t2a") == 0;
		assert_string_equal(x->provider, "gce");
		assert_string_equal(x->price_region, "us-central1");
		assert_string_equal(x->price_date, "2026-11-29");
		assert_int_equal(x->threads_per_core, one ? 1 : 2);
		assert_true(strncmp(x->cpu_family, "gce-", 4) == 0);
		if (strcmp(x->series, "e2") == 0)
			assert_string_equal(x->cpu_family, "gce-e2");
	}
	catalog_release(&c);
}

static void aws_spot_checks(void **state)
{
	struct catalog c;
	const struct instance *in;
	(void)state;
	read_ok(AWS, &c);

	/* m7a: a vCPU is a whole core, so large = 2 physical cores */
	in = find(&c, "m7a.large");
	assert_int_equal(in->vcpus, 2);
	assert_int_equal(in->threads_per_core, 1);
	assert_true(in->physical_cores == 2.0);
	assert_true(in->price_per_hour == 0.11592); /* not the third-party 0.0928 */
	assert_string_equal(in->cpu_family, "aws-m7a");

	/* m7i: 2 threads per core, so large = 1 physical core */
	in = find(&c, "m7i.large");
	assert_int_equal(in->threads_per_core, 2);
	assert_true(in->physical_cores == 1.0);
	assert_true(in->sustained_cores == 1.0);
	assert_true(in->price_per_hour == 0.1008);
	assert_true(in->memory_gib == 8.0);

	in = find(&c, "m7g.medium");
	assert_int_equal(in->vcpus, 1);
	assert_true(in->physical_cores == 1.0);
	assert_true(in->memory_gib == 4.0);
	assert_true(in->price_per_hour == 0.0408);

	in = find(&c, "c7g.medium");
	assert_true(in->memory_gib == 2.0);
	in = find(&c, "c7i.48xlarge");
	assert_int_equal(in->vcpus, 192);
	assert_true(in->physical_cores == 96.0);
	assert_true(in->memory_gib == 384.0);
	assert_true(in->price_per_hour == 8.568);
	in = find(&c, "m6i.32xlarge");
	assert_true(in->physical_cores == 64.0);
	assert_true(in->price_per_hour == 6.144);
	in = find(&c, "m7a.48xlarge");
	assert_true(in->physical_cores == 192.0);
	assert_true(in->price_per_hour == 11.12832);

	for (size_t i = 0; i < c.n; i++) {
		const struct instance *x = &c.items[i];
		int one = strcmp(x->series, "m7g") == 0 || strcmp(x->series, "c7g") == 0 ||
			  strcmp(x->series, "m7a") == 0;
		char family[32];
		assert_string_equal(x->provider, "aws");
		assert_string_equal(x->price_region, "us-east-1");
		assert_string_equal(x->price_date, "2026-01-19");
		assert_int_equal(x->threads_per_core, one ? 1 : 2);
		assert_true(x->sustained_vcpu_fraction == 1.0);
		snprintf(family, sizeof(family), "aws-%s", x->series);
		assert_string_equal(x->cpu_family, family);
		/* medium exists only for the 1-thread families */
		if (strstr(x->instance, ".medium"))
			assert_true(one);
	}
	catalog_release(&c);
}

static void missing_columns(void **state)
{
	const char *p;
	(void)state;
	p = put("no-vcpus.tsv",
		"instance\tprovider\tseries\tthreads_per_core\t"
		"sustained_vcpu_fraction\tmemory_gib\tcpu_family\tprice_per_hour\t"
		"price_region\tprice_source\tprice_date\n"
		"m7i.large\taws\tm7i\t2\t1\t8\taws-m7i\t0.1008\tus-east-1\tk\t2026-01-19\n");
	expect_error(p, "1: missing column 'vcpus'");
	p = put("two-missing.tsv", "instance\tprovider\tseries\tvcpus\tthreads_per_core\t"
				   "sustained_vcpu_fraction\tmemory_gib\tcpu_family\t"
				   "price_per_hour\tprice_region\n"
				   "m7i.large\taws\tm7i\t2\t2\t1\t8\taws-m7i\t0.1008\tus-east-1\n");
	expect_error(p, "1: missing columns 'price_source', 'price_date'");
}

static void malformed_values(void **state)
{
	const char *p;
	(void)state;
	p = put_rows("vcpus-text.tsv", "m7i.large\taws\tm7i\ttwo\t2\t1\t8\taws-m7i\t0.1008\t"
				       "us-east-1\tk\t2026-01-19\n");
	expect_error(p, "2:4: vcpus 'two' is not a whole number >= 1");
	p = put_rows("vcpus-real.tsv", "m7i.large\taws\tm7i\t2.0\t2\t1\t8\taws-m7i\t0.1008\t"
				       "us-east-1\tk\t2026-01-19\n");
	expect_error(p, "2:4: vcpus '2.0' is not a whole number >= 1");
	p = put_rows("vcpus-zero.tsv", "m7i.large\taws\tm7i\t0\t2\t1\t8\taws-m7i\t0.1008\t"
				       "us-east-1\tk\t2026-01-19\n");
	expect_error(p, "2:4: vcpus '0' is not a whole number >= 1");
	p = put_rows("vcpus-huge.tsv", "m7i.huge\taws\tm7i\t200000\t2\t1\t8\taws-m7i\t1\t"
				       "us-east-1\tk\t2026-01-19\n");
	expect_error(p, "2:4: vcpus 200000 is more than 100000");
	p = put_rows("threads-3.tsv", "x.large\taws\tx\t6\t3\t1\t8\taws-x\t0.1\tus-east-1\tk\t"
				      "2026-01-19\n");
	expect_error(p, "2:5: threads_per_core '3' is not 1 or 2");
	p = put_rows("fraction-0.tsv", "e2-tiny\tgce\te2\t2\t2\t0\t1\tgce-e2\t0.001\t"
				       "us-central1\tk\t2026-11-29\n");
	expect_error(p, "2:6: sustained_vcpu_fraction '0' is not a number in (0, 1]");
	p = put_rows("fraction-big.tsv", "e2-tiny\tgce\te2\t2\t2\t1.5\t1\tgce-e2\t0.001\t"
					 "us-central1\tk\t2026-11-29\n");
	expect_error(p, "2:6: sustained_vcpu_fraction '1.5' is not a number in (0, 1]");
	p = put_rows("odd-vcpus.tsv", "n2-odd-3\tgce\tn2\t3\t2\t1\t12\tgce-n2\t0.15\tus-central1\t"
				      "k\t2026-11-29\n");
	expect_error(p, "2:4: vcpus 3 is not a multiple of threads_per_core 2");
	p = put_rows("neg-price.tsv", "m7i.large\taws\tm7i\t2\t2\t1\t8\taws-m7i\t-0.1008\t"
				      "us-east-1\tk\t2026-01-19\n");
	expect_error(p, "2:9: price_per_hour '-0.1008' is not a number >= 0");
	p = put_rows("mem-zero.tsv", "m7i.large\taws\tm7i\t2\t2\t1\t0\taws-m7i\t0.1008\t"
				     "us-east-1\tk\t2026-01-19\n");
	expect_error(p, "2:7: memory_gib '0' is not a number > 0");
	p = put_rows("bad-date.tsv", "m7i.large\taws\tm7i\t2\t2\t1\t8\taws-m7i\t0.1008\t"
				     "us-east-1\tk\t2026-02-30\n");
	expect_error(p, "2:12: price_date '2026-02-30' is not a date YYYY-MM-DD");
	p = put_rows("no-family.tsv", "m7i.large\taws\tm7i\t2\t2\t1\t8\t\t0.1008\t"
				      "us-east-1\tk\t2026-01-19\n");
	expect_error(p, "2:8: cpu_family is empty");
	p = put_rows("spaced.tsv", "m7i.large \taws\tm7i\t2\t2\t1\t8\taws-m7i\t0.1008\t"
				   "us-east-1\tk\t2026-01-19\n");
	expect_error(p, "2:1: instance 'm7i.large ' has a leading or trailing space");
	/* the first bad field as the row is read, on the row where it is */
	p = put_rows("third-row.tsv", "m7i.large\taws\tm7i\t2\t2\t1\t8\taws-m7i\t0.1008\t"
				      "us-east-1\tk\t2026-01-19\n"
				      "m7i.xlarge\taws\tm7i\t4\t2\t1\t16\taws-m7i\t0.2016\t"
				      "us-east-1\tk\t2026-01-19\n"
				      "m7i.2xlarge\taws\tm7i\t8\t2\tall\t32\taws-m7i\tNA\t"
				      "us-east-1\tk\t2026-01-19\n");
	expect_error(p, "4:6: sustained_vcpu_fraction 'all' is not a number in (0, 1]");
}

static void duplicate_instance(void **state)
{
	const char *p;
	(void)state;
	p = put_rows("dup.tsv", "m7i.large\taws\tm7i\t2\t2\t1\t8\taws-m7i\t0.1008\tus-east-1\tk\t"
				"2026-01-19\n"
				"m7i.xlarge\taws\tm7i\t4\t2\t1\t16\taws-m7i\t0.2016\tus-east-1\tk\t"
				"2026-01-19\n"
				"m7i.large\taws\tm7i\t2\t2\t1\t8\taws-m7i\t0.1\tus-east-1\tk\t"
				"2026-01-19\n");
	expect_error(p, "4:1: duplicate instance 'm7i.large' (also line 2)");
}

static void empty_catalog(void **state)
{
	const char *p;
	(void)state;
	p = put("empty.tsv", header);
	expect_error(p, "1: header but no instances: a catalog needs one row per instance type");
	/* a file with no header at all is table.c's error */
	p = put("nothing.tsv", "");
	expect_error(p, " file is empty");
}

static void missing_file(void **state)
{
	struct catalog c;
	(void)state;
	assert_int_equal(catalog_read("/nonexistent/catalog.tsv", &c), ERR_DATA);
	assert_string_equal(err_msg(),
			    "cannot open '/nonexistent/catalog.tsv': No such file or directory");
	catalog_release(&c);
}

/* CSV: quoted fields, columns in another order, an extra column warned about. */
static void csv_variant(void **state)
{
	struct catalog c;
	const char *p;
	(void)state;
	p = put("mine.csv",
		"\xEF\xBB\xBFprice_date,instance,note,provider,series,vcpus,threads_per_core,"
		"sustained_vcpu_fraction,memory_gib,cpu_family,price_per_hour,price_region,"
		"price_source\r\n"
		"2026-01-19,\"m7a.large\",\"AMD, Genoa\",aws,m7a,2,1,\"1\",8,aws-m7a,0.11592,"
		"us-east-1,\"karpenter, \"\"generated\"\" 2026-01-19\"\r\n"
		"2026-11-29,e2-small,,gce,e2,2,2,0.25,2,gce-e2,0.01675,us-central1,autoscaler\r\n");
	read_ok(p, &c);
	assert_int_equal(c.n, 2);
	assert_string_equal(c.items[0].instance, "m7a.large");
	assert_string_equal(c.items[0].price_source, "karpenter, \"generated\" 2026-01-19");
	assert_string_equal(c.items[0].price_date, "2026-01-19");
	assert_true(c.items[0].physical_cores == 2.0);
	assert_true(c.items[0].price_per_hour == 0.11592);
	assert_int_equal(c.items[1].line, 3);
	assert_true(c.items[1].sustained_cores == 0.25);
	assert_int_equal(warn_count(), 1);
	{
		char want[512];
		snprintf(want, sizeof(want), "'%s': column 'note' is not a catalog column: ignored",
			 p);
		assert_string_equal(warn_get(0), want);
	}
	catalog_release(&c);

	/* columns counted in the file's order: vcpus is the 6th field here */
	p = put("bad.csv",
		"price_date,instance,note,provider,series,vcpus,threads_per_core,"
		"sustained_vcpu_fraction,memory_gib,cpu_family,price_per_hour,"
		"price_region,price_source,url\n"
		"2026-01-19,m7i.large,x,aws,m7i,\"3\",2,1,8,aws-m7i,0.1008,us-east-1,k,u\n");
	warn_clear();
	expect_error(p, "2:6: vcpus 3 is not a multiple of threads_per_core 2");
	assert_int_equal(warn_count(), 0); /* no warning for a file that was refused */
	p = put("dup.csv", "instance,provider,series,vcpus,threads_per_core,"
			   "sustained_vcpu_fraction,memory_gib,cpu_family,price_per_hour,"
			   "price_region,price_source,price_date\n"
			   "a,aws,m7i,2,2,1,8,aws-m7i,0.1,us-east-1,k,2026-01-19\n"
			   "\"a\",aws,m7i,2,2,1,8,aws-m7i,0.1,us-east-1,k,2026-01-19\n");
	expect_error(p, "3:1: duplicate instance 'a' (also line 2)");

	/* two extra columns are listed in one warning */
	p = put("extra.tsv", "url\tinstance\tprovider\tseries\tvcpus\tthreads_per_core\t"
			     "sustained_vcpu_fraction\tmemory_gib\tcpu_family\tprice_per_hour\t"
			     "price_region\tprice_source\tprice_date\tnote\n"
			     "u\tm7g.medium\taws\tm7g\t1\t1\t1\t4\taws-m7g\t0.0408\tus-east-1\tk\t"
			     "2026-01-19\tn\n");
	read_ok(p, &c);
	assert_int_equal(warn_count(), 1);
	{
		char want[512];
		snprintf(want, sizeof(want),
			 "'%s': columns 'url', 'note' are not catalog columns: ignored", p);
		assert_string_equal(warn_get(0), want);
	}
	assert_true(c.items[0].physical_cores == 1.0);
	catalog_release(&c);
}

/* A fresh in-memory database at the latest schema. */
static sqlite3 *memory_db(void)
{
	sqlite3 *db = NULL;
	if (db_open(":memory:", false, &db))
		fail_msg("%s", err_msg());
	return db;
}

static void store_ok(sqlite3 *db, const struct catalog *c, bool *replaced)
{
	assert_int_equal(db_begin(db), 0);
	if (catalog_store(db, c, replaced))
		fail_msg("%s", err_msg());
	assert_int_equal(db_commit(db), 0);
}

/* Every field of a as read from its file equals b's as read back from the database. */
static void same_instance(const struct instance *a, const struct instance *b)
{
	assert_string_equal(a->instance, b->instance);
	assert_string_equal(a->provider, b->provider);
	assert_string_equal(a->series, b->series);
	assert_int_equal(a->vcpus, b->vcpus);
	assert_int_equal(a->threads_per_core, b->threads_per_core);
	assert_true(a->sustained_vcpu_fraction == b->sustained_vcpu_fraction);
	assert_true(a->memory_gib == b->memory_gib);
	assert_string_equal(a->cpu_family, b->cpu_family);
	assert_true(a->price_per_hour == b->price_per_hour);
	assert_string_equal(a->price_region, b->price_region);
	assert_string_equal(a->price_source, b->price_source);
	assert_string_equal(a->price_date, b->price_date);
	assert_true(a->physical_cores == b->physical_cores);
	assert_true(a->sustained_cores == b->sustained_cores);
	assert_int_equal(a->line, b->line);
}

static void names_and_hashes(void **state)
{
	struct catalog gce;
	char hex[HASH_HEX_LEN + 1];
	int64_t size;
	char *name;
	(void)state;
	read_ok(GCE, &gce);
	assert_string_equal(gce.name, "gce");
	assert_int_equal(infile_hash(GCE, GCE, hex, &size), 0);
	assert_string_equal(gce.sha256, hex);
	assert_null(gce.items[0].catalog); /* only instances read from the database name one */
	catalog_release(&gce);
	name = catalog_name_of("/a/b.c/prices.2027.tsv");
	assert_string_equal(name, "prices.2027");
	free(name);
	name = catalog_name_of("plain");
	assert_string_equal(name, "plain");
	free(name);
	name = catalog_name_of("dir/.hidden");
	assert_string_equal(name, ".hidden");
	free(name);
}

/* gce then aws stored: read back in that order, every field as read from the files. */
static void store_gce_and_aws(void **state)
{
	struct catalog gce, aws, all;
	struct catalog_info *infos = NULL;
	size_t ninfos = 0, stored = 0;
	bool replaced = true;
	sqlite3 *db = memory_db();
	(void)state;
	read_ok(GCE, &gce);
	read_ok(AWS, &aws);
	/* nothing stored: an empty catalog, an empty list */
	assert_int_equal(catalog_load(db, NULL, 0, &all), 0);
	assert_int_equal(all.n, 0);
	catalog_release(&all);
	store_ok(db, &gce, &replaced);
	assert_false(replaced);
	store_ok(db, &aws, &replaced);
	assert_false(replaced);
	assert_int_equal(catalog_stored_count(db, &stored), 0);
	assert_int_equal(stored, 2);
	assert_int_equal(catalog_load(db, NULL, 0, &all), 0);
	assert_int_equal(all.n, 62 + 54);
	assert_null(all.path);
	for (size_t i = 0; i < gce.n; i++) {
		same_instance(&gce.items[i], &all.items[i]);
		assert_string_equal(all.items[i].catalog, "gce");
	}
	for (size_t i = 0; i < aws.n; i++) {
		same_instance(&aws.items[i], &all.items[62 + i]);
		assert_string_equal(all.items[62 + i].catalog, "aws");
	}
	assert_string_equal(all.items[62].instance, "m6i.large");
	assert_int_equal(all.items[62].line, 2);
	assert_true(find(&all, "m7a.large")->physical_cores == 2.0);
	assert_true(find(&all, "e2-small")->sustained_cores == 0.25);
	catalog_release(&all);

	assert_int_equal(catalog_list(db, &infos, &ninfos), 0);
	assert_int_equal(ninfos, 2);
	assert_string_equal(infos[0].name, "gce");
	assert_string_equal(infos[0].source_path, GCE);
	assert_string_equal(infos[0].sha256, gce.sha256);
	assert_int_equal(infos[0].instances, 62);
	assert_false(infos[0].temp);
	assert_string_equal(infos[1].name, "aws");
	assert_int_equal(infos[1].instances, 54);
	assert_int_equal(strlen(infos[1].loaded_at), strlen("2026-01-19T00:00:00Z"));
	catalog_infos_free(infos, ninfos);

	/* only some series: e2 (8 in gce) and m7i (9 in aws), still in catalog order */
	{
		const char *const series[] = {"m7i", "e2"};
		assert_int_equal(catalog_load(db, series, 2, &all), 0);
		assert_int_equal(all.n, 8 + 9);
		assert_string_equal(all.items[0].instance, "e2-micro");
		assert_string_equal(all.items[8].instance, "m7i.large");
		catalog_release(&all);
	}
	catalog_release(&gce);
	catalog_release(&aws);
	db_close(db);
}

/* A catalog of the same name is replaced in place: new instances, the same order. */
static void store_replaces(void **state)
{
	struct catalog aws, gce, one, all;
	bool replaced = false;
	sqlite3 *db = memory_db();
	const char *p = put_rows("aws-2027.tsv", "z.large\taws\tz\t2\t2\t1\t8\taws-z\t0.1\t"
						 "us-east-1\tk\t2026-01-19\n"
						 "z.xlarge\taws\tz\t4\t2\t1\t16\taws-z\t0.2\t"
						 "us-east-1\tk\t2026-01-19\n");
	(void)state;
	read_ok(AWS, &aws);
	read_ok(GCE, &gce);
	read_ok(p, &one);
	store_ok(db, &aws, NULL);
	store_ok(db, &gce, NULL);
	store_ok(db, &aws, &replaced); /* the same file again */
	assert_true(replaced);
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM instances"), 54 + 62);
	/* another file under the name aws */
	free(one.name);
	one.name = strdup("aws");
	store_ok(db, &one, &replaced);
	assert_true(replaced);
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM catalogs"), 2);
	assert_int_equal(catalog_load(db, NULL, 0, &all), 0);
	assert_int_equal(all.n, 2 + 62);
	/* aws was stored first: its catalog_id, so its place, is kept */
	assert_string_equal(all.items[0].instance, "z.large");
	assert_string_equal(all.items[0].catalog, "aws");
	assert_string_equal(all.items[2].instance, "e2-micro");
	catalog_release(&all);
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM catalogs WHERE name = 'aws' AND"
					   " source_path LIKE '%aws-2027.tsv'"),
			 1);
	catalog_release(&aws);
	catalog_release(&gce);
	catalog_release(&one);
	db_close(db);
}

/* An instance type in two catalogs is refused, naming both; nothing is stored. */
static void store_refuses_duplicates(void **state)
{
	struct catalog aws, one;
	sqlite3 *db = memory_db();
	const char *p = put_rows("one.tsv", "z.large\taws\tz\t2\t2\t1\t8\taws-z\t0.1\t"
					    "us-east-1\tk\t2026-01-19\n"
					    "m7i.large\taws\tm7i\t2\t2\t1\t8\taws-m7i\t0.1\t"
					    "us-east-1\tk\t2026-01-19\n");
	(void)state;
	read_ok(AWS, &aws);
	read_ok(p, &one);
	store_ok(db, &aws, NULL);
	/* the same file under another name */
	free(aws.name);
	aws.name = strdup("copy");
	assert_int_equal(db_begin(db), 0);
	assert_int_equal(catalog_store(db, &aws, NULL), ERR_DATA);
	db_rollback(db);
	assert_string_equal(
		err_msg(),
		"instance 'm6i.large' is in catalog 'aws' (line 2) and in catalog 'copy' "
		"(line 2): an instance type may be listed once (store a catalog under "
		"the same name to replace it)");
	/* one shared name among new ones: the clash is named */
	assert_int_equal(db_begin(db), 0);
	assert_int_equal(catalog_store(db, &one, NULL), ERR_DATA);
	db_rollback(db);
	assert_non_null(strstr(err_msg(), "instance 'm7i.large' is in catalog 'aws' (line 11) and "
					  "in catalog 'one' (line 3)"));
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM catalogs"), 1);
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM instances"), 54);
	catalog_release(&aws);
	catalog_release(&one);
	db_close(db);
}

/*
 * cpu_platforms: optional (no column, or an empty cell, reads ""); names
 * split on commas and spaces and kept ","-separated; a name twice or a
 * character outside letters, digits and . _ - + is an error at its cell;
 * stored and read back; instance_on_platform matches whole names only.
 * The shipped gce-e2 rows list the two platforms the sky corpora measured
 * e2 on (capacity core/env.txt: Intel Xeon @ 2.20GHz; FORMATS.md: AMD EPYC
 * 7B12) and Milan (fixtures/catalogs/README.md).
 */
static void cpu_platforms_column(void **state)
{
	static const char head[] = "instance\tprovider\tseries\tvcpus\tthreads_per_core\t"
				   "sustained_vcpu_fraction\tmemory_gib\tcpu_family\t"
				   "cpu_platforms\tprice_per_hour\tprice_region\tprice_source\t"
				   "price_date\n";
	static const char row[] = "\tgce-e2\t%s\t0.134\tus-central1\tk\t2026-11-29\n";
	char text[2048], cell[3][128];
	struct catalog c, gce, back;
	const char *p;
	sqlite3 *db;
	(void)state;
	snprintf(cell[0], sizeof(cell[0]), row, "intel-xeon-2.2ghz, amd-epyc-7b12");
	snprintf(cell[1], sizeof(cell[1]), row, "");
	snprintf(cell[2], sizeof(cell[2]), row, " amd-epyc-7b12 ");
	snprintf(text, sizeof(text),
		 "%se2-standard-4\tgce\te2\t4\t2\t1\t16%se2-standard-2\tgce\te2\t2\t2\t1\t8%s"
		 "e2-standard-8\tgce\te2\t8\t2\t1\t32%s",
		 head, cell[0], cell[1], cell[2]);
	read_ok(put("platforms.tsv", text), &c);
	assert_int_equal(c.n, 3);
	assert_string_equal(c.items[0].cpu_platforms, "intel-xeon-2.2ghz,amd-epyc-7b12");
	assert_string_equal(c.items[1].cpu_platforms, "");
	assert_string_equal(c.items[2].cpu_platforms, "amd-epyc-7b12");
	assert_true(instance_on_platform(&c.items[0], "amd-epyc-7b12"));
	assert_true(instance_on_platform(&c.items[0], "intel-xeon-2.2ghz"));
	assert_false(instance_on_platform(&c.items[0], "amd-epyc"));
	assert_false(instance_on_platform(&c.items[0], "amd-epyc-7b1"));
	assert_false(instance_on_platform(&c.items[1], "amd-epyc-7b12"));
	assert_int_equal(warn_count(), 0);
	/* stored and read back */
	db = memory_db();
	store_ok(db, &c, NULL);
	assert_int_equal(catalog_load(db, NULL, 0, &back), 0);
	assert_int_equal(back.n, 3);
	for (size_t i = 0; i < 3; i++)
		assert_string_equal(back.items[i].cpu_platforms, c.items[i].cpu_platforms);
	catalog_release(&back);
	db_close(db);
	catalog_release(&c);
	/* errors name the cell: column 9 of line 2 */
	snprintf(cell[0], sizeof(cell[0]), row, "amd-epyc-7b12,amd-epyc-7b12");
	snprintf(text, sizeof(text), "%se2-standard-4\tgce\te2\t4\t2\t1\t16%s", head, cell[0]);
	p = put("platforms-twice.tsv", text);
	expect_error(p, "2:9: cpu_platforms lists 'amd-epyc-7b12' twice");
	snprintf(cell[0], sizeof(cell[0]), row, "intel;xeon");
	snprintf(text, sizeof(text), "%se2-standard-4\tgce\te2\t4\t2\t1\t16%s", head, cell[0]);
	p = put("platforms-bad.tsv", text);
	expect_error(p, "2:9: cpu_platforms 'intel;xeon': 'intel;xeon' is not a platform name "
			"(letters, digits and . _ - +, separated by commas)");
	/* the shipped catalogs: the measured e2 platforms, an empty n2 */
	read_ok(GCE, &gce);
	assert_string_equal(find(&gce, "e2-medium")->cpu_platforms,
			    "intel-xeon-2.2ghz,amd-epyc-7b12,amd-epyc-7b13");
	assert_string_equal(find(&gce, "n2-standard-8")->cpu_platforms, "");
	assert_string_equal(find(&gce, "t2d-standard-4")->cpu_platforms, "amd-epyc-7b13");
	catalog_release(&gce);
}

/* The column list of table `name` in `schema`, as "name type notnull pk; ...". */
static void columns_of(sqlite3 *db, const char *schema, const char *name, char *out, size_t len)
{
	sqlite3_stmt *stmt = NULL;
	char *sql = sqlite3_mprintf("PRAGMA \"%w\".table_info(\"%w\")", schema, name);
	size_t used = 0;
	out[0] = '\0';
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &stmt, NULL), SQLITE_OK);
	while (sqlite3_step(stmt) == SQLITE_ROW && used < len)
		used += (size_t)snprintf(out + used, len - used, "%s %s %d %d; ",
					 (const char *)sqlite3_column_text(stmt, 1),
					 (const char *)sqlite3_column_text(stmt, 2),
					 sqlite3_column_int(stmt, 3), sqlite3_column_int(stmt, 5));
	sqlite3_finalize(stmt);
	sqlite3_free(sql);
}

/* TEMP tables shadow the stored ones for unqualified queries, and match their columns. */
static void temp_tables(void **state)
{
	struct catalog gce, aws, all, twice[2];
	struct catalog_info *infos = NULL;
	size_t ninfos = 0, stored = 0;
	bool active = true;
	char main_cols[2048], temp_cols[2048];
	sqlite3 *db = memory_db();
	(void)state;
	read_ok(GCE, &gce);
	read_ok(AWS, &aws);
	store_ok(db, &gce, NULL);
	assert_int_equal(catalog_temp_active(db, &active), 0);
	assert_false(active);
	assert_int_equal(catalog_load_temp(db, &aws, 1), 0);
	assert_int_equal(catalog_temp_active(db, &active), 0);
	assert_true(active);
	const char *const tables[] = {"catalogs", "instances"};
	for (size_t i = 0; i < 2; i++) {
		columns_of(db, "main", tables[i], main_cols, sizeof(main_cols));
		columns_of(db, "temp", tables[i], temp_cols, sizeof(temp_cols));
		assert_true(strlen(main_cols) > 0);
		assert_string_equal(main_cols, temp_cols);
	}
	assert_int_equal(catalog_load(db, NULL, 0, &all), 0);
	assert_int_equal(all.n, 54);
	assert_string_equal(all.items[0].catalog, "aws");
	catalog_release(&all);
	assert_int_equal(catalog_list(db, &infos, &ninfos), 0);
	assert_int_equal(ninfos, 1);
	assert_true(infos[0].temp);
	assert_string_equal(infos[0].name, "aws");
	catalog_infos_free(infos, ninfos);
	assert_int_equal(catalog_stored_count(db, &stored), 0);
	assert_int_equal(stored, 1);
	/* loading again replaces the TEMP tables' content */
	assert_int_equal(catalog_load_temp(db, &gce, 1), 0);
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM instances"), 62);
	/* the same catalog twice: a name clash */
	twice[0] = gce;
	twice[1] = gce;
	assert_int_equal(catalog_load_temp(db, twice, 2), ERR_USAGE);
	assert_non_null(strstr(err_msg(), "two catalogs named 'gce'"));
	/* the same instances under two names */
	twice[1] = aws;
	twice[1].items = gce.items;
	twice[1].n = gce.n;
	assert_int_equal(catalog_load_temp(db, twice, 2), ERR_DATA);
	assert_non_null(strstr(err_msg(), "instance 'e2-micro' is in catalog 'gce' (line 2) and "
					  "in catalog 'aws' (line 2)"));
	catalog_release(&gce);
	catalog_release(&aws);
	db_close(db);
}

/* A read-only connection can load TEMP tables; the file does not change. */
static void temp_tables_read_only(void **state)
{
	struct catalog gce, aws, all;
	char path[300];
	char *before, *after;
	size_t nbefore, nafter;
	sqlite3 *db = NULL;
	(void)state;
	snprintf(path, sizeof(path), "%s/ro.db", tmp_dir());
	read_ok(GCE, &gce);
	read_ok(AWS, &aws);
	assert_int_equal(db_open(path, false, &db), 0);
	store_ok(db, &gce, NULL);
	db_close(db);
	before = slurp(path, &nbefore);
	assert_int_equal(db_open(path, true, &db), 0);
	assert_int_equal(catalog_load_temp(db, &aws, 1), 0);
	assert_int_equal(catalog_load(db, NULL, 0, &all), 0);
	assert_int_equal(all.n, 54);
	catalog_release(&all);
	/* writing the stored tables is refused on this connection */
	assert_int_equal(db_exec(db, "INSERT INTO main.catalogs (name, source_path, sha256,"
				     " loaded_at) VALUES ('x', 'x', 'x', 'x')"),
			 ERR_DATA);
	assert_non_null(strstr(err_msg(), "readonly"));
	db_close(db);
	after = slurp(path, &nafter);
	assert_int_equal(nbefore, nafter);
	assert_memory_equal(before, after, nbefore);
	free(before);
	free(after);
	catalog_release(&gce);
	catalog_release(&aws);
	/* the -wal and -shm files go with the database */
	for (const char *ext = "-wal"; ext; ext = strcmp(ext, "-wal") ? NULL : "-shm") {
		char side[320];
		snprintf(side, sizeof(side), "%s%s", path, ext);
		unlink(side);
	}
	unlink(path);
}

/* Copy the file at `from` to dir/name (a scratch catalog folder). */
static void copy_to(const char *from, const char *dir, const char *name)
{
	char to[512], buf[8192];
	size_t n;
	FILE *in = fopen(from, "rb"), *out;
	snprintf(to, sizeof(to), "%s/%s", dir, name);
	out = fopen(to, "wb");
	assert_non_null(in);
	assert_non_null(out);
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		assert_int_equal(fwrite(buf, 1, n, out), n);
	fclose(in);
	assert_int_equal(fclose(out), 0);
}

/*
 * An import's lookups (catalog_lookup): with no stored catalog, the shipped
 * ones read into memory at the first lookup, no TEMP table made; values
 * from the files' own rows (gce.tsv line 7: e2-standard-8, 8 vCPUs, 2 per
 * core; aws.tsv line 2: m6i.large, 2 and 2). Two shipped catalogs listing
 * one instance leave none (catalogs_use refuses them); once catalogs are
 * stored, only those are looked in (gce stored: m6i.large is unknown).
 */
static void import_lookup(void **state)
{
	struct catalog_lookup l;
	struct catalog gce;
	sqlite3 *db = NULL;
	char name[256], twice[512];
	int vcpus = 0, tpc = 0;
	bool replaced = false;
	(void)state;
	assert_int_equal(db_open(":memory:", false, &db), 0);
	catalog_lookup_init(&l, db, FIXTURES_DIR "/catalogs", catalog_read);
	assert_int_equal(catalog_lookup_shape(&l, "e2-standard-8", &vcpus, &tpc, name, sizeof(name)),
			 0);
	assert_int_equal(vcpus, 8);
	assert_int_equal(tpc, 2);
	assert_string_equal(name, "gce");
	assert_int_equal(catalog_lookup_shape(&l, "m6i.large", &vcpus, &tpc, name, sizeof(name)), 0);
	assert_int_equal(vcpus, 2);
	assert_int_equal(tpc, 2);
	assert_string_equal(name, "aws");
	assert_int_equal(catalog_lookup_shape(&l, "nonesuch", &vcpus, &tpc, name, sizeof(name)), 1);
	assert_int_equal(db_scalar_int(db, "SELECT count(*) FROM sqlite_temp_schema"), 0);
	catalog_lookup_release(&l);

	snprintf(twice, sizeof(twice), "%s/twice", tmp_dir());
	assert_int_equal(mkdir(twice, 0700), 0);
	copy_to(GCE, twice, "a.tsv");
	copy_to(GCE, twice, "b.tsv");
	catalog_lookup_init(&l, db, twice, catalog_read);
	assert_int_equal(catalog_lookup_shape(&l, "e2-standard-8", &vcpus, &tpc, name, sizeof(name)),
			 1);
	assert_int_equal(err_msg()[0], '\0');
	catalog_lookup_release(&l);
	for (const char *const *f = (const char *const[]){"a.tsv", "b.tsv", NULL}; *f; f++) {
		char path[600];
		snprintf(path, sizeof(path), "%s/%s", twice, *f);
		unlink(path);
	}
	rmdir(twice);

	read_ok(GCE, &gce);
	store_ok(db, &gce, &replaced);
	catalog_release(&gce);
	catalog_lookup_init(&l, db, FIXTURES_DIR "/catalogs", catalog_read);
	assert_int_equal(catalog_lookup_shape(&l, "e2-standard-8", &vcpus, &tpc, name, sizeof(name)),
			 0);
	assert_string_equal(name, "gce");
	assert_int_equal(catalog_lookup_shape(&l, "m6i.large", &vcpus, &tpc, name, sizeof(name)), 1);
	catalog_lookup_release(&l);
	db_close(db);
}

/* every test starts and ends with no messages */
#define TEST(f) cmocka_unit_test_setup_teardown(f, clear_messages, clear_messages)

int main(void)
{
	const struct CMUnitTest tests[] = {
		TEST(shipped_catalogs_parse),
		TEST(rows_per_series),
		TEST(gce_spot_checks),
		TEST(aws_spot_checks),
		TEST(missing_columns),
		TEST(malformed_values),
		TEST(duplicate_instance),
		TEST(empty_catalog),
		TEST(missing_file),
		TEST(csv_variant),
		TEST(names_and_hashes),
		TEST(store_gce_and_aws),
		TEST(store_replaces),
		TEST(store_refuses_duplicates),
		TEST(temp_tables),
		TEST(cpu_platforms_column),
		TEST(temp_tables_read_only),
		TEST(import_lookup),
	};
	return cmocka_run_group_tests(tests, tmp_dir_make, tmp_dir_remove);
}
