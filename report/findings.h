/*
 * findings: the numbers behind the report's opening "Findings" list,
 * taken from the result structs its sections print (never retyped, never
 * read back from text). The sentences are below (findings_text.c).
 *
 * One finding per conclusion, each with its value and interval (NaN when
 * none), n, the method in words and the report section that supports it
 * (its heading anchor). A finding the data cannot support has supported
 * false and `why` says why; the list says so rather than leaving it out.
 *
 *   scaling    per-doubling factor over the physical-core levels (the
 *              sweep's physical fit: lo/hi its 95% Student's t interval
 *              with the fit's degrees of freedom, n = the
 *              levels fitted) and the efficiency at the largest physical
 *              level (eff); assumed physical when no host is known; not
 *              supported when the level does not count workers
 *   smt        the first SMT level's step over the last physical level
 *              (value), the level (level); not supported without a host
 *   noise      the group's noise verdict (word), the resolved and
 *              within-noise steps (steps, within), the largest range (value, %)
 *   cpu        runs whose CPU accounting is untrustworthy (value), degraded
 *              (degraded; lo..hi their tick ratios) of the runs with CPU
 *              figures (n), per instance (subject): window.h's trust scale
 *   memory     the OLS slope per session with its 95% t interval, n runs
 *   target     measured: the group's worst median at the asked session
 *              counts against the target, shortfall = target / median
 *              (value), its median (lo), met when >= 1 is false;
 *              predicted: the cheapest instance that meets (subject), or
 *              none
 *   translate  the translation factor (value, lo, hi) from one sub-corpus
 *              to another: figures labelled translated
 */
#ifndef COREPLAN_FINDINGS_H
#define COREPLAN_FINDINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "../analysis/cores.h"
#include "../analysis/memory.h"
#include "../analysis/noise.h"
#include "../analysis/size.h"
#include "../analysis/sweep.h"
#include "../analysis/translate.h"
#include "../common/strbuf.h"
#include "../doc/doc.h"

enum finding_kind {
	FINDING_SCALING,
	FINDING_SMT,
	FINDING_NOISE,
	FINDING_CPU,
	FINDING_MEMORY,
	FINDING_TARGET,
	FINDING_PREDICTED,
	FINDING_TRANSLATE,
};

struct finding {
	enum finding_kind kind;
	bool supported;
	char subject[256];    /* the group, instance or pair ("" for all runs) */
	double value, lo, hi; /* NaN when none */
	double eff, level;    /* scaling: efficiency; smt: the level; else NaN */
	size_t n;
	size_t degraded;  /* cpu: runs whose CPU accounting is degraded */
	bool assumed;     /* scaling: levels assumed physical (no host) */
	bool met;         /* target: the measured median reaches it */
	char word[64];    /* noise: its verdict; target: "measured" / "predicted" */
	char steps[256];  /* noise: the resolved steps; target: the sessions asked */
	char within[256]; /* noise: the within-noise steps */
	char unit[48];    /* the value's unit */
	char method[768]; /* in words */
	char why[768];    /* !supported: why not */
	char section[96]; /* the supporting section's anchor (without '#') */
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
/* scaling (and smt when the host is known) from one sweep; `by` is the level field. */
int findings_sweep(struct findings *f, const struct sweep *sw, size_t nruns, const char *by,
		   const char *subject, const char *section);
/* target, measured: the worst median of sw's levels in `sessions` against target. */
int findings_target_sweep(struct findings *f, const struct sweep *sw, double target,
			  const struct size_sessions *sessions, const char *subject,
			  const char *section);
/* predicted: the cheapest instance that meets (size's own judgement), or none. */
int findings_size(struct findings *f, const struct size_result *res, const char *section);
/* noise: the group's verdict and steps (the first verdict of nz). */
int findings_noise(struct findings *f, const struct noise *nz, size_t nruns, const char *subject,
		   const char *section);
/* translate: the rate factor (value, 95% interval) from `from` to `to`. */
int findings_translate(struct findings *f, const struct translate_factor *rate, size_t n_from,
		       size_t n_to, const char *subject, const char *section);
/* cpu: the tick check over one instance's runs. */
int findings_cpu(struct findings *f, const struct cores_result *res, const char *subject,
		 const char *section);
/* memory: the OLS slope of the fit (the first fit that has one). */
int findings_memory(struct findings *f, const struct memory *m, const char *unit,
		    const char *subject, const char *section);
void findings_release(struct findings *f);

/* ---- sentences ---- */
/*
 * The sentences of the report's "Findings" list and
 * its typed table, from the numbers above.
 *
 * Each sentence carries the finding's number, its range or interval, n and
 * the method, and ends with a Markdown link to the section that supports
 * it; a finding the data cannot support says so and why. The table
 * (columns finding, subject, supported, value, lo, hi, efficiency, level,
 * n, unit, method, section: the figures, typed; the sentences are report.md's) goes into the
 * summary document `coreplan report` prints, so its JSON carries the same figures with types.
 */
/* "scaling", "smt", "noise", "cpu", "memory", "target", "predicted", "translate". */
const char *finding_kind_name(enum finding_kind kind);
/* The sentence, plain text (no link). */
void finding_sentence(const struct finding *x, struct strbuf *out);
/*
 * The findings into section s: one note per finding (its sentence, linked
 * to its section) and, quiet (json and tsv only), the table of their
 * figures; findings_to_doc: the same as a new section "findings" of d.
 */
void findings_to_section(struct doc_section *s, const struct findings *f);
void findings_to_doc(struct doc *d, const struct findings *f);

#endif
