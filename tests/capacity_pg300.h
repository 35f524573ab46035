/*
 * capacity_pg300: tput of the gcp-x86-capacity-20260816 corpus
 * (SHARED_CORPORA/sky, results.tsv) at cfg pg, 300 sessions, blocks 1, 2,
 * 3, for target small and target medium, copied from results.tsv; the
 * arms test_stats.c and test_compare.c test their t tests on.
 */
#ifndef COREPLAN_TESTS_CAPACITY_PG300_H
#define COREPLAN_TESTS_CAPACITY_PG300_H

static const double cap_small300[] = {69.0378764094059, 64.32009579045246, 55.525064605616755};
static const double cap_medium300[] = {269.0944551320535, 255.10822490597312, 261.4928259356003};

#endif
