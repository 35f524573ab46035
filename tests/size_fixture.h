/*
 * size_fixture: what tests/test_size.c and tests/test_size_judge.c share:
 * the hand-built catalog (struct instance rows with their derived cores
 * typed in) and the standard inputs, documented in test_size.c's header.
 */
#ifndef COREPLAN_TESTS_SIZE_FIXTURE_H
#define COREPLAN_TESTS_SIZE_FIXTURE_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "analysis/size.h"
#include "common/err.h"
#include "importers/catalog.h"
#include "schema/catalog.h"
#include "schema/db.h"
#include "test_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef FIXTURES_DIR
#define FIXTURES_DIR "fixtures"
#endif

#define REL 1e-12
#define MEM_GIB (350000.0 / 1048576.0)

static inline int clear_messages(void **state)
{
	(void)state;
	err_clear();
	return 0;
}

/* One hand-built instance; the derived cores are typed in from the header's rule. */
#define INST(name, fam, v, t, frac, mem, price)                                                    \
	{                                                                                          \
		.instance = (char *)(name), .provider = (char *)"test", .series = (char *)"t",     \
		.vcpus = (v), .threads_per_core = (t), .sustained_vcpu_fraction = (frac),          \
		.memory_gib = (mem), .cpu_family = (char *)(fam), .price_per_hour = (price),       \
		.price_region = (char *)"here", .price_source = (char *)"hand",                    \
		.price_date = (char *)"2026-01-01", .physical_cores = (double)(v) / (t),           \
		.sustained_cores = (double)(v) * (frac) / (t), .line = 0                           \
	}

enum {
	I_SHARED,   /* 2 vCPU, 2/core, 0.25 each: P = 0.25, shared-core */
	I_ONE,      /* 2 vCPU, 2/core: P = 1 */
	I_TWO,      /* 4 vCPU, 2/core: P = 2 */
	I_FOUR_1T,  /* 4 vCPU, 1/core: P = 4, no SMT */
	I_THREE,    /* 6 vCPU, 2/core: P = 3 */
	I_EIGHT,    /* 16 vCPU, 2/core: P = 8, beyond the measured 4 */
	I_OTHER,    /* another CPU family, P = 1 */
	I_TINY_MEM, /* P = 2 but 0.25 GiB of memory */
	I_HALF_BIG, /* 8 vCPU, 2/core, 0.5 each: P = 2, shared-core */
	NINST
};

static struct instance items[NINST] = {
	[I_SHARED] = INST("shared", "gce-e2", 2, 2, 0.25, 2, 0.01675),
	[I_ONE] = INST("one", "gce-e2", 2, 2, 1, 8, 0.06701),
	[I_TWO] = INST("two", "gce-e2", 4, 2, 1, 16, 0.13402),
	[I_FOUR_1T] = INST("four-1t", "gce-e2", 4, 1, 1, 16, 0.12),
	[I_THREE] = INST("three", "gce-e2", 6, 2, 1, 24, 0.2),
	[I_EIGHT] = INST("eight", "gce-e2", 16, 2, 1, 64, 0.53609),
	[I_OTHER] = INST("other", "aws-m7i", 2, 2, 1, 8, 0.1008),
	[I_TINY_MEM] = INST("tiny-mem", "gce-e2", 4, 2, 1, 0.25, 0.01),
	[I_HALF_BIG] = INST("half-big", "gce-e2", 8, 2, 0.5, 32, 0.15),
};

static inline struct catalog hand_catalog(void)
{
	struct catalog c = {items, NINST, (char *)"hand"};
	return c;
}

static inline struct size_inputs std_inputs(void)
{
	struct size_inputs in;
	memset(&in, 0, sizeof(in));
	in.target = 1000;
	in.has_sessions = true;
	in.sessions = 500;
	in.headroom_pct = 0;
	in.base = (struct size_value){true, 480, 470, 490, "given"};
	snprintf(in.base_family, sizeof(in.base_family), "gce-e2");
	in.per_doubling = (struct size_value){true, 1.8, 1.7, 1.9, "given"};
	in.max_measured_cores = 4;
	in.smt = (struct size_value){true, 1.25, 1.2, 1.3, "given"};
	in.mem_per_session_kb = (struct size_value){true, 600, 600, 600, "given"};
	in.mem_fixed_kb = (struct size_value){true, 50000, 50000, 50000, "given"};
	return in;
}

static inline struct size_row *compute(const struct size_inputs *in)
{
	struct catalog cat = hand_catalog();
	struct size_row *rows = NULL;
	int rc = size_compute(&cat, in, &rows);
	if (rc != 0)
		fail_msg("size_compute failed (%d): %s", rc, err_msg());
	assert_non_null(rows);
	for (size_t i = 0; i < NINST; i++)
		assert_ptr_equal(rows[i].inst, &items[i]);
	return rows;
}

static inline size_t count_cheapest(const struct size_row *rows, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n; i++)
		k += rows[i].cheapest;
	return k;
}

#endif
