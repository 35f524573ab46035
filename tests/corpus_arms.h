/*
 * corpus_arms: the arms test_stats.c and test_compare.c test their t tests
 * on, copied from the real corpora under SHARED_CORPORA:
 *   - cap_small300, cap_medium300: tput of sky/gcp-x86-capacity-20260816
 *     (results.tsv) at cfg pg, 300 sessions, blocks 1, 2, 3, for target
 *     small and target medium;
 *   - cap_core100, cap_medium_mem100: the same corpus, subcorpus core (x86
 *     dedicated core, memory store) and e2-medium cfg mem at 100 sessions,
 *     blocks 1-3;
 *   - affinity_procs1, affinity_procs8: writeups/gomaxprocs-affinity
 *     runs.tsv, arm shard, procs 1 and 8.
 */
#ifndef COREPLAN_TESTS_CORPUS_ARMS_H
#define COREPLAN_TESTS_CORPUS_ARMS_H

static const double cap_small300[] = {69.0378764094059, 64.32009579045246, 55.525064605616755};
static const double cap_medium300[] = {269.0944551320535, 255.10822490597312, 261.4928259356003};
static const double cap_core100[] = {299.3, 288.9, 299.7};
static const double cap_medium_mem100[] = {362.57432778567005, 322.54272034273805,
					   344.97474664499254};
static const double affinity_procs1[] = {1796.2, 1785.1, 1819.7};
static const double affinity_procs8[] = {2415.3, 2384.0, 2383.2};

#endif
