/*
 * findings: the report's opening "Findings", the conclusions a
 * performance engineer draws from the sections below them, each with its
 * numbers taken from the result structs those sections print (never
 * retyped, never read back from text). findings.c and findings_more.c
 * make the numbers, findings_text.c and findings_more_text.c the
 * sentences.
 *
 * One finding per conclusion, each with a headline value and interval
 * (NaN when none), n, its named figures (every number the sentence says:
 * `figs`, each also in the report's JSON), the method in words and the
 * report section that supports it (its heading anchor). A finding the data
 * cannot support has supported false and `why` says why; the list says so
 * rather than leaving it out.
 *
 * The list reads as a write-up, in this order (finding_category):
 *   verdict     target   the target met or not, on the measured runs: one
 *                        finding over every group (figures group<i>,
 *                        median<i>, level<i>, n<i>, short<i>; value: the
 *                        best group's shortfall = target / its lowest
 *                        median at the sessions asked, lo: that median)
 *               predicted  the cheapest instance `size` predicts to meet it
 *   binds       binder   per group whose throughput stops rising (binders.h):
 *                        the binder and its use against its capacity, the
 *                        throughput and latency across the plateau, the
 *                        other resources ranked with their headroom; or why
 *                        none is named (untrustworthy ticks, nothing near a
 *                        ceiling); one `rising` finding when no group stops
 *   levers      lever    per lever and context (levers.h): each value with
 *                        an effect against its base, the level-by-level
 *                        ratio range, the pooled ratio and interval, level
 *                        independence, app_cores unchanged or not; the
 *                        values without one; `sessions` reads as the
 *                        throughput's sensitivity to sessions
 *   ceiling     scaling  per-doubling factor over the physical-core levels (95%
 *                        Student's t interval), each level's speedup, where it stops
 *               smt      the first SMT level's step over the last physical
 *               ceiling  the host's SMT figures (smt.h): shared vs distinct
 *                        cores, the SMT factor, the hardware ceiling and the
 *                        sharded runs against it
 *               cpu_per_op  CPU per operation at the first and last level
 *               memory   the OLS slope per session with its 95% interval
 *               translate  the rate factor from one CPU to another
 *               memory_factors  idle and loaded memory there against here
 *   breaks      knee     per group: where errors first appear (between
 *                        which levels), or that none did up to the largest
 *               burst    a first run better than its level's later runs
 *               soak     a rested first run against the sustained median
 *   trust       noise    the group's noise verdict and steps
 *               cpu      the tick check per instance: runs whose accounting is
 *                        untrustworthy (value), degraded (degraded; lo..hi their
 *                        tick ratios), of the runs with CPU figures (n):
 *                        window.h's trust scale
 *               little   Little's law over the closed-loop runs
 * The scaling, smt and cpu_per_op findings come from the sweep group with
 * the most runs (the report's primary group).
 */
#ifndef COREPLAN_FINDINGS_H
#define COREPLAN_FINDINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "../analysis/binders.h"
#include "../analysis/cores.h"
#include "../analysis/levers.h"
#include "../analysis/memory.h"
#include "../analysis/noise.h"
#include "../analysis/size.h"
#include "../analysis/smt.h"
#include "../analysis/sweep.h"
#include "../analysis/translate.h"
#include "../common/strbuf.h"
#include "../doc/doc.h"

enum finding_kind {
	FINDING_TARGET,
	FINDING_PREDICTED,
	FINDING_BINDER,
	FINDING_LEVER,
	FINDING_SCALING,
	FINDING_SMT,
	FINDING_CEILING,
	FINDING_CPU_PER_OP,
	FINDING_MEMORY,
	FINDING_TRANSLATE,
	FINDING_MEMORY_FACTORS,
	FINDING_KNEE,
	FINDING_BURST,
	FINDING_SOAK,
	FINDING_NOISE,
	FINDING_CPU,
	FINDING_LITTLE,
	FINDING_NKINDS
};

enum finding_category {
	FINDINGS_VERDICT,
	FINDINGS_BINDS,
	FINDINGS_LEVERS,
	FINDINGS_CEILING,
	FINDINGS_BREAKS,
	FINDINGS_TRUST,
	FINDINGS_NCATEGORIES
};

/* A named number (or label) of a finding: what its sentence quotes. */
struct finding_fig {
	char name[32];
	double value; /* NaN for a label */
	char text[112];
	char unit[24];
};

#define FINDING_MAX_FIGS 200
/* A lever finding names at most this many pairs (the Levers section has them all). */
#define FINDINGS_MAX_PAIRS 8

struct finding {
	enum finding_kind kind;
	bool supported;
	char id[300];         /* stable within a report: kind, then the subject */
	char subject[256];    /* the group, instance or pair ("" for all runs) */
	double value, lo, hi; /* NaN when none */
	double eff, level;    /* scaling: efficiency; smt: the level; else NaN */
	size_t n;
	size_t degraded;  /* cpu: runs whose CPU accounting is degraded */
	bool assumed;     /* scaling: levels assumed physical (no host) */
	bool met;         /* target: the measured median reaches it */
	char word[64];    /* noise: its verdict; target: "measured"; binder: its verdict */
	char steps[256];  /* noise: the resolved steps; target: the sessions asked */
	char within[256]; /* noise: the within-noise steps */
	char unit[48];    /* the value's unit */
	char method[768]; /* in words */
	char why[768];    /* !supported: why not */
	char section[96]; /* the supporting section's anchor (without '#') */
	struct finding_fig figs[FINDING_MAX_FIGS];
	size_t nfigs;
};

struct findings {
	struct finding *items;
	size_t n;
};

/* A new finding at the end (zeroed, numbers NaN), or NULL when out of memory. */
struct finding *findings_add(struct findings *f, enum finding_kind kind, const char *subject,
			     const char *section);
/* One that the data cannot support, with the reason. 0, or an error when out of memory. */
int findings_unsupported(struct findings *f, enum finding_kind kind, const char *subject,
			 const char *section, const char *why);
/* Add a figure (a number with its unit, or a label when text is not NULL). */
void finding_fig(struct finding *x, const char *name, double value, const char *unit);
void finding_label(struct finding *x, const char *name, const char *text);
/* A figure by name: its value (NaN when absent) or its text ("" when absent). */
double finding_get(const struct finding *x, const char *name);
/* A count figure as a size: 0 when absent or not a count, at most `max`. */
size_t finding_count(const struct finding *x, const char *name, size_t max);
const char *finding_text(const struct finding *x, const char *name);

/* scaling (and smt when the host is known) from one sweep; `by` is the level field. */
int findings_sweep(struct findings *f, const struct sweep *sw, size_t nruns, const char *by,
		   const char *subject, const char *section);
/* cpu_per_op: CPU per operation at the sweep's first and last level with the figure. */
int findings_cpu_per_op(struct findings *f, const struct sweep *sw, const char *by,
			const char *subject, const char *section);
/* target, measured: the worst median of sw's levels in `sessions` against target (one group). */
int findings_target_sweep(struct findings *f, const struct sweep *sw, double target,
			  const struct size_sessions *sessions, const char *subject,
			  const char *section);
/* predicted: the cheapest instance that meets (size's own judgement), or none. */
int findings_size(struct findings *f, const struct size_result *res, const char *section);
/* noise: the group's verdict and steps (the first verdict of nz). */
int findings_noise(struct findings *f, const struct noise *nz, size_t nruns, const char *subject,
		   const char *section);
/* burst and soak: each first-run burst, and each soak whose first run is beyond the factor. */
int findings_bursts(struct findings *f, const struct noise *nz, const char *by, const char *subject,
		    const char *section);
/* translate: the rate factor (value, 95% interval) from `from` to `to`. */
int findings_translate(struct findings *f, const struct translate_factor *rate, size_t n_from,
		       size_t n_to, const char *subject, const char *section);
/* memory_factors: idle and loaded memory, to against from. */
int findings_memory_factors(struct findings *f, const struct translate_result *res,
			    const char *subject, const char *section);
/* cpu: the tick check over one instance's runs. */
int findings_cpu(struct findings *f, const struct cores_result *res, const char *subject,
		 const char *section);
/* memory: the OLS slope of the fit (the first fit that has one). */
int findings_memory(struct findings *f, const struct memory *m, const char *unit,
		    const char *subject, const char *section);
/*
 * binder and knee from one report group's binders result (its groups
 * labelled subject + their own label); `by` is the level field, latency
 * the latency field; the knee links to knee_section. A `rising` group
 * adds a finding only with keep_rising (the report's primary group), and
 * findings_order keeps it only when no group has another binder finding.
 */
int findings_binders(struct findings *f, const struct binders *b, const char *by,
		     const char *latency, const char *subject, const char *section,
		     const char *knee_section, bool keep_rising);
/* little: Little's law over every closed-loop run the binders checked. */
int findings_little(struct findings *f, size_t checked, size_t fails, const char *section);
/* lever: one finding per lever and context of l with its pairs. */
int findings_levers(struct findings *f, const struct levers *l, const char *by, const char *metric,
		    const char *section);
/* ceiling: the host's SMT figures, when shared_vs_distinct or the SMT factor is measured. */
int findings_smt_figures(struct findings *f, const struct smt_result *res, const char *section);
void findings_release(struct findings *f);

/*
 * The list in write-up order: the findings of `from` (in turn) by
 * category, each category's in kind order and then in the order they
 * came; the groups' measured targets merged into one target finding; at
 * most one `rising` binder finding (the first) and only when no other
 * binder finding exists; knee findings of groups without errors merged
 * into one.
 */
int findings_order(const struct findings *const *from, size_t nfrom, struct findings *out);

/* ---- sentences ---- */
/*
 * The sentences of the report's "Findings" list and its typed tables,
 * from the numbers above. Each sentence carries the finding's numbers,
 * their range or interval, n and the method, and ends with a Markdown link
 * to the section that supports it; a finding the data cannot support says
 * so and why.
 */
/* "target", "binder", ... */
const char *finding_kind_name(enum finding_kind kind);
enum finding_category finding_category_of(enum finding_kind kind);
/* "Verdict", "What binds", ... */
const char *finding_category_title(enum finding_category c);
/* The sentence, plain text (no link). */
void finding_sentence(const struct finding *x, struct strbuf *out);
/* The sentence of the kinds findings_more_text.c writes; false for the others. */
bool finding_sentence_more(const struct finding *x, struct strbuf *out);
/*
 * The findings into section s: their typed table (quiet: json and tsv
 * only), then an embedded document with a section per category (the
 * verdict, what limits throughput, ...), one note per finding (its
 * sentence, linked to its section), and a quiet section finding_figures
 * (one row per figure: id, name, value, text, unit); findings_to_doc: the
 * same as a new section "findings" of d.
 */
void findings_to_section(struct doc_section *s, const struct findings *f);
void findings_to_doc(struct doc *d, const struct findings *f);
/* x with `decimals` decimals (printf rounding, a rounded -0 as 0; NaN as NA). */
void findings_number(struct strbuf *out, double x, int decimals);

#endif
