/* findings: the sentences (see findings.h). */
#include "findings.h"

#include <math.h>
#include <string.h>

const char *finding_kind_name(enum finding_kind kind)
{
	static const char *const names[] = {
		[FINDING_SCALING] = "scaling",     [FINDING_SMT] = "smt",
		[FINDING_NOISE] = "noise",         [FINDING_CPU] = "cpu",
		[FINDING_MEMORY] = "memory",       [FINDING_TARGET] = "target",
		[FINDING_PREDICTED] = "predicted", [FINDING_TRANSLATE] = "translate",
	};
	return names[kind];
}

static const char *label_of(const struct finding *x)
{
	static const char *const labels[] = {
		[FINDING_SCALING] = "Scaling over physical cores",
		[FINDING_SMT] = "SMT",
		[FINDING_NOISE] = "Noise",
		[FINDING_CPU] = "CPU accounting",
		[FINDING_MEMORY] = "Memory per session",
		[FINDING_TARGET] = "Target",
		[FINDING_PREDICTED] = "Cheapest instance that meets the target",
		[FINDING_TRANSLATE] = "Translated",
	};
	return labels[x->kind];
}

static void subject(const struct finding *x, struct strbuf *out)
{
	if (*x->subject)
		strbuf_addf(out, " (%s)", x->subject);
	strbuf_adds(out, ": ");
}

void finding_sentence(const struct finding *x, struct strbuf *out)
{
	strbuf_adds(out, label_of(x));
	subject(x, out);
	if (!x->supported) {
		strbuf_addf(out, "not stated: %s.", x->why);
		return;
	}
	switch (x->kind) {
	case FINDING_SCALING:
		strbuf_addf(out,
			    "%.2fx per doubling (95%% interval %.2f-%.2f), efficiency %.2f at the "
			    "largest physical level; n = %zu levels; %s%s.",
			    x->value, x->lo, x->hi, x->eff, x->n, x->method,
			    x->assumed ? "; levels assumed physical (no topology recorded)" : "");
		break;
	case FINDING_SMT:
		strbuf_addf(out,
			    "level %g is SMT siblings, not more cores: %.3fx over level %g (runs "
			    "%.3f-%.3f), n = %zu runs; %s.",
			    x->level, x->value, x->eff, x->lo, x->hi, x->n, x->method);
		break;
	case FINDING_NOISE:
		strbuf_addf(out,
			    "%s; steps resolved: %s; within noise: %s; largest range %.2f%% of "
			    "the median; n = %zu runs; %s.",
			    x->word, *x->steps ? x->steps : "none", *x->within ? x->within : "none",
			    x->value, x->n, x->method);
		break;
	case FINDING_CPU:
		if (x->value > 0)
			strbuf_addf(
				out,
				"CPU attribution is untrustworthy: %.0f of %zu runs fail the tick "
				"check (the guest loses clock ticks), so its CPU figures are "
				"indicative only%s; %s.",
				x->value, x->n,
				x->degraded ? "; the others' accounting is degraded" : "",
				x->method);
		else if (x->degraded)
			strbuf_addf(
				out,
				"CPU accounting is degraded: %zu of %zu runs tick at %.2f-%.2f of "
				"their owed rate (the guest loses clock ticks), so CPU figures "
				"from inside the guest are approximate; %s.",
				x->degraded, x->n, x->lo, x->hi, x->method);
		else
			strbuf_addf(out,
				    "CPU accounting can be trusted: 0 of %zu runs fail the tick "
				    "check and none is degraded; %s.",
				    x->n, x->method);
		break;
	case FINDING_MEMORY:
		strbuf_addf(out, "%.1f %s (95%% interval %.1f-%.1f), n = %zu runs; %s.", x->value,
			    x->unit, x->lo, x->hi, x->n, x->method);
		break;
	case FINDING_TARGET:
		if (x->met)
			strbuf_addf(
				out,
				"met (measured): the lowest median at sessions %s is %.1f at %g "
				"sessions against the target %g; n = %zu runs; %s.",
				x->steps, x->lo, x->level, x->hi, x->n, x->method);
		else
			strbuf_addf(
				out,
				"not met (measured), %.1fx short: the lowest median at sessions "
				"%s is %.1f at %g sessions against the target %g; n = %zu runs; "
				"%s.",
				x->value, x->steps, x->lo, x->level, x->hi, x->n, x->method);
		break;
	case FINDING_PREDICTED:
		strbuf_addf(out,
			    "meets the target: predicted %.1f, calibrated interval "
			    "%.1f-%.1f, resting on %s; %s; %s.",
			    x->value, x->lo, x->hi, x->steps, x->within, x->method);
		break;
	case FINDING_TRANSLATE:
		if (isnan(x->lo))
			strbuf_addf(out,
				    "factor %.3f %s, n = %zu runs; %s; figures carried across "
				    "with it are labelled translated.",
				    x->value, x->unit, x->n, x->method);
		else
			strbuf_addf(out,
				    "factor %.3f %s (95%% interval %.3f-%.3f), n = %zu runs; %s; "
				    "figures carried across with it are labelled translated.",
				    x->value, x->unit, x->lo, x->hi, x->n, x->method);
		break;
	}
}

enum {
	C_FINDING,
	C_SUBJECT,
	C_SUPPORTED,
	C_VALUE,
	C_LO,
	C_HI,
	C_EFF,
	C_LEVEL,
	C_N,
	C_UNIT,
	C_METHOD,
	C_SECTION,
	C_CONFIDENCE,
	C_DEGRADED,
	C_COUNT
};

void findings_to_section(struct doc_section *s, const struct findings *f)
{
	static const struct doc_col cols[C_COUNT] = {
		[C_FINDING] = DOC_COL_TEXT("finding"),
		[C_SUBJECT] = DOC_COL_TEXT("subject"),
		[C_SUPPORTED] = DOC_COL_BOOL("supported"),
		[C_VALUE] = DOC_COL_REAL("value", NULL, 'g', 6),
		[C_LO] = DOC_COL_REAL("lo", NULL, 'g', 6),
		[C_HI] = DOC_COL_REAL("hi", NULL, 'g', 6),
		[C_N] = DOC_COL_INT("n", NULL),
		[C_UNIT] = DOC_COL_TEXT("unit"),
		[C_METHOD] = DOC_COL_TEXT("method"),
		[C_SECTION] = DOC_COL_TEXT("section"),
		[C_EFF] = DOC_COL_REAL("efficiency", NULL, 'g', 6),
		[C_LEVEL] = DOC_COL_REAL("level", NULL, 'g', 6),
		[C_CONFIDENCE] = DOC_COL_INT("confidence", "%"),
		[C_DEGRADED] = DOC_COL_INT("degraded_runs", NULL),
	};
	struct doc_table *t = doc_table(s, cols, C_COUNT);
	struct strbuf sb = STRBUF_INIT;
	/* the sentences are what a reader reads; the table is their figures, typed */
	doc_table_quiet(t);
	if (f->n == 0)
		doc_text(s, "No findings: no section measured anything.");
	for (size_t i = 0; t && i < f->n; i++) {
		const struct finding *x = &f->items[i];
		strbuf_reset(&sb);
		finding_sentence(x, &sb);
		doc_note_link(s, *x->section ? x->section : NULL, "%s", strbuf_str(&sb));
		doc_row(t);
		doc_set_text(t, C_FINDING, finding_kind_name(x->kind));
		doc_set_text(t, C_SUBJECT, x->subject);
		doc_set_bool(t, C_SUPPORTED, x->supported);
		doc_set_real(t, C_VALUE, x->value);
		doc_set_real(t, C_LO, x->lo);
		doc_set_real(t, C_HI, x->hi);
		if (x->supported)
			doc_set_int(t, C_N, (int64_t)x->n);
		doc_set_text(t, C_UNIT, x->unit);
		doc_set_text(t, C_METHOD, x->supported ? x->method : x->why);
		doc_set_text(t, C_SECTION, x->section);
		doc_set_real(t, C_EFF, x->kind == FINDING_SCALING ? x->eff : NAN);
		doc_set_real(t, C_LEVEL, x->level);
		/* the sentences call [lo, hi] a 95% interval: its level, as a number */
		if (isfinite(x->lo) && isfinite(x->hi))
			doc_set_int(t, C_CONFIDENCE, 95);
		if (x->kind == FINDING_CPU && x->supported)
			doc_set_int(t, C_DEGRADED, (int64_t)x->degraded);
	}
	strbuf_release(&sb);
}

void findings_to_doc(struct doc *d, const struct findings *f)
{
	findings_to_section(doc_section(d, "findings", "Findings"), f);
}
