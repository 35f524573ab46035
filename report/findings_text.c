/* findings: the sentences (see findings.h); the newer kinds' are in findings_more_text.c. */
#include "findings.h"

#include <math.h>
#include <string.h>

/* Each kind's name (ids, the table), the label its sentence starts with, and its category. */
struct kind_info {
	const char *name, *label;
	enum finding_category category;
};

static const struct kind_info *kind_info(enum finding_kind kind)
{
	static const struct kind_info kinds[FINDING_NKINDS] = {
		[FINDING_TARGET] = {"target", "Target", FINDINGS_VERDICT},
		[FINDING_PREDICTED] = {"predicted", "Cheapest instance that meets the target",
				       FINDINGS_VERDICT},
		[FINDING_BINDER] = {"binder", "Binder", FINDINGS_BINDS},
		[FINDING_LEVER] = {"lever", "Lever", FINDINGS_LEVERS},
		[FINDING_SCALING] = {"scaling", "Scaling over physical cores", FINDINGS_CEILING},
		[FINDING_SMT] = {"smt", "SMT", FINDINGS_CEILING},
		[FINDING_CEILING] = {"ceiling", "Hardware ceiling", FINDINGS_CEILING},
		[FINDING_CPU_PER_OP] = {"cpu_per_op", "CPU per operation", FINDINGS_CEILING},
		[FINDING_MEMORY] = {"memory", "Memory per session", FINDINGS_CEILING},
		[FINDING_TRANSLATE] = {"translate", "Translated", FINDINGS_CEILING},
		[FINDING_MEMORY_FACTORS] = {"memory_factors", "Memory across CPUs",
					    FINDINGS_CEILING},
		[FINDING_KNEE] = {"knee", "Errors", FINDINGS_BREAKS},
		[FINDING_BURST] = {"burst", "First-run burst", FINDINGS_BREAKS},
		[FINDING_SOAK] = {"soak", "Soak", FINDINGS_BREAKS},
		[FINDING_NOISE] = {"noise", "Noise", FINDINGS_TRUST},
		[FINDING_CPU] = {"cpu", "CPU accounting", FINDINGS_TRUST},
		[FINDING_LITTLE] = {"little", "Little's law", FINDINGS_TRUST},
	};
	static const struct kind_info unknown = {"?", "?", FINDINGS_CEILING};
	return (unsigned)kind < FINDING_NKINDS ? &kinds[kind] : &unknown;
}

const char *finding_kind_name(enum finding_kind kind)
{
	return kind_info(kind)->name;
}

enum finding_category finding_category_of(enum finding_kind kind)
{
	return kind_info(kind)->category;
}

/* Titles unlike any section's, so that the sections' anchors stay theirs. */
const char *finding_category_title(enum finding_category c)
{
	static const char *const titles[FINDINGS_NCATEGORIES] = {
		[FINDINGS_VERDICT] = "The verdict",
		[FINDINGS_BINDS] = "What limits throughput",
		[FINDINGS_LEVERS] = "What each lever is worth",
		[FINDINGS_CEILING] = "Ceiling and cost",
		[FINDINGS_BREAKS] = "Where it breaks",
		[FINDINGS_TRUST] = "Noise and accounting trust",
	};
	return (unsigned)c < FINDINGS_NCATEGORIES ? titles[c] : "?";
}

static const char *label_of(const struct finding *x)
{
	if (x->kind == FINDING_LEVER && !strcmp(finding_text(x, "field"), "sessions"))
		return "Sensitivity to sessions";
	if (x->kind == FINDING_LEVER && !strcmp(x->word, "none"))
		return "Levers";
	return kind_info(x->kind)->label;
}

void findings_number(struct strbuf *out, double x, int decimals)
{
	char digits[64];
	if (!isfinite(x)) {
		strbuf_adds(out, "NA");
		return;
	}
	snprintf(digits, sizeof(digits), "%.*f", decimals, x);
	/* a rounded -0 is 0 */
	if (digits[0] == '-' && strspn(digits + 1, "0.") == strlen(digits + 1))
		snprintf(digits, sizeof(digits), "%.*f", decimals, 0.0);
	strbuf_adds(out, digits);
}

static void subject(const struct finding *x, struct strbuf *out)
{
	if (x->kind == FINDING_LEVER && *finding_text(x, "field") && strcmp(x->word, "none") != 0 &&
	    strcmp(finding_text(x, "field"), "sessions") != 0)
		strbuf_addf(out, " %s", finding_text(x, "field"));
	if (x->kind == FINDING_LEVER && *finding_text(x, "context")) {
		strbuf_addf(out, " (%s): ", finding_text(x, "context"));
		return;
	}
	if (x->kind == FINDING_LEVER) {
		strbuf_adds(out, ": ");
		return;
	}
	if (*x->subject && x->kind != FINDING_TARGET)
		strbuf_addf(out, " (%s)", x->subject);
	strbuf_adds(out, ": ");
}

/* The groups' measured targets, merged (findings_order): the best first, then the others. */
static void target_sentence(const struct finding *x, struct strbuf *out)
{
	size_t n = finding_count(x, "groups", 64), best = x->eff >= 0 ? (size_t)x->eff : 0;
	char name[32];
	if (!(n > 0)) {
		strbuf_addf(out, "%s.", x->method);
		return;
	}
	strbuf_addf(out, "%s (measured) at sessions %s against %g: ", x->met ? "met" : "not met",
		    x->steps, x->hi);
	strbuf_addf(out, "the best configuration, %s, reaches ", x->subject);
	findings_number(out, x->lo, 1);
	strbuf_addf(out, " (its lowest median, at %g sessions)", x->level);
	if (x->value > 1) {
		strbuf_adds(out, ", ");
		findings_number(out, x->value, 1);
		strbuf_adds(out, "x short");
	}
	for (size_t k = 0; k < n; k++) {
		double s;
		if (k == best)
			continue;
		snprintf(name, sizeof(name), "group%zu", k);
		strbuf_addf(out, "; %s ", finding_text(x, name));
		snprintf(name, sizeof(name), "median%zu", k);
		findings_number(out, finding_get(x, name), 1);
		snprintf(name, sizeof(name), "short%zu", k);
		s = finding_get(x, name);
		if (s > 1) {
			strbuf_adds(out, " (");
			findings_number(out, s, 1);
			strbuf_adds(out, "x short)");
		} else {
			strbuf_adds(out, " (meets it)");
		}
	}
	strbuf_adds(out, ".");
}

/* "(speedup 1.79, 3.18 at 2, 4: efficiency 0.89, 0.79)"; "scaling stops at 4: ..." */
static void scaling_levels(const struct finding *x, struct strbuf *out)
{
	size_t n = finding_count(x, "levels", 12);
	char name[32];
	if (n > 1) {
		strbuf_adds(out, " (speedup");
		for (size_t k = 1; k < n; k++) {
			snprintf(name, sizeof(name), "speedup%zu", k);
			strbuf_addf(out, "%s %.2f", k > 1 ? "," : "", finding_get(x, name));
		}
		strbuf_addf(out, " at %s", finding_text(x, "by"));
		for (size_t k = 1; k < n; k++) {
			snprintf(name, sizeof(name), "level%zu", k);
			strbuf_addf(out, "%s %g", k > 1 ? "," : "", finding_get(x, name));
		}
		strbuf_adds(out, "; efficiency");
		for (size_t k = 1; k < n; k++) {
			snprintf(name, sizeof(name), "efficiency%zu", k);
			strbuf_addf(out, "%s %.2f", k > 1 ? "," : "", finding_get(x, name));
		}
		strbuf_adds(out, ")");
	}
	if (isfinite(finding_get(x, "stop_level")))
		strbuf_addf(out,
			    "; scaling stops at %g: %.2fx per doubling from %g (below %.1fx), so the "
			    "step from %g to %g %s buys almost nothing",
			    finding_get(x, "stop_level"), finding_get(x, "stop_per_doubling"),
			    finding_get(x, "stop_from"), finding_get(x, "stop_min"),
			    finding_get(x, "stop_from"), finding_get(x, "stop_level"),
			    finding_text(x, "by"));
}

void finding_sentence(const struct finding *x, struct strbuf *out)
{
	strbuf_adds(out, label_of(x));
	subject(x, out);
	if (!x->supported) {
		strbuf_addf(out, "not stated: %s.", x->why);
		return;
	}
	if (finding_sentence_more(x, out))
		return;
	switch (x->kind) {
	case FINDING_SCALING:
		strbuf_addf(out,
			    "%.2fx per doubling (95%% interval %.2f-%.2f), efficiency %.2f at the "
			    "largest physical level",
			    x->value, x->lo, x->hi, x->eff);
		scaling_levels(x, out);
		strbuf_addf(out, "; n = %zu levels%s.", x->n,
			    x->assumed ? "; levels assumed physical (no topology recorded)" : "");
		break;
	case FINDING_SMT:
		strbuf_addf(out,
			    "level %g is SMT siblings, not more cores: %.3fx over level %g (runs "
			    "%.3f-%.3f), n = %zu runs.",
			    x->level, x->value, x->eff, x->lo, x->hi, x->n);
		break;
	case FINDING_NOISE:
		if (!strcmp(x->word, NOISE_UNREPLICATED) && !*x->steps && !*x->within) {
			strbuf_addf(out,
				    "unreplicated: one run a level, so no step can be told from "
				    "noise; n = %zu runs.",
				    x->n);
			break;
		}
		/* some steps resolved, some not: the sweep's word is its weakest step's */
		if (*x->steps && *x->within && !strcmp(x->word, NOISE_WITHIN))
			strbuf_adds(out, "partly resolved (the sweep as a whole: " NOISE_WITHIN ")");
		else
			strbuf_adds(out, x->word);
		strbuf_addf(out, "; steps resolved: %s; within noise: %s; largest range %.2f%% of "
			    "the median",
			    *x->steps ? x->steps : "none", *x->within ? x->within : "none", x->value);
		if (finding_get(x, "bursts") > 0)
			strbuf_addf(out, " (it holds %g first-run burst%s: see Where it breaks)",
				    finding_get(x, "bursts"),
				    finding_get(x, "bursts") == 1 ? "" : "s");
		strbuf_addf(out, "; n = %zu runs.", x->n);
		break;
	case FINDING_CPU:
		if (x->value > 0)
			strbuf_addf(
				out,
				"CPU attribution is untrustworthy: %.0f of %zu runs fail the tick "
				"check (the guest loses clock ticks), so its CPU figures are "
				"indicative only%s.",
				x->value, x->n,
				x->degraded ? "; the others' accounting is degraded" : "");
		else if (x->degraded)
			strbuf_addf(
				out,
				"CPU accounting is degraded: %zu of %zu runs tick at %.2f-%.2f of "
				"their owed rate (the guest loses clock ticks), so CPU figures "
				"from inside the guest are approximate.",
				x->degraded, x->n, x->lo, x->hi);
		else
			strbuf_addf(out,
				    "CPU accounting can be trusted: 0 of %zu runs fail the tick "
				    "check and none is degraded.",
				    x->n);
		break;
	case FINDING_MEMORY:
		strbuf_addf(out, "%.1f %s (95%% interval %.1f-%.1f), n = %zu runs.", x->value,
			    x->unit, x->lo, x->hi, x->n);
		break;
	case FINDING_TARGET:
		if (isfinite(finding_get(x, "groups")))
			target_sentence(x, out);
		else if (x->met)
			strbuf_addf(
				out,
				"met (measured): the lowest median at sessions %s is %.1f at %g "
				"sessions against the target %g; n = %zu runs.",
				x->steps, x->lo, x->level, x->hi, x->n);
		else
			strbuf_addf(
				out,
				"not met (measured), %.1fx short: the lowest median at sessions "
				"%s is %.1f at %g sessions against the target %g; n = %zu runs.",
				x->value, x->steps, x->lo, x->level, x->hi, x->n);
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
				    "factor %.3f %s, n = %zu runs; figures carried across "
				    "with it are labelled translated.",
				    x->value, x->unit, x->n);
		else
			strbuf_addf(out,
				    "factor %.3f %s (95%% interval %.3f-%.3f), n = %zu runs; "
				    "figures carried across with it are labelled translated.",
				    x->value, x->unit, x->lo, x->hi, x->n);
		break;
	default:
		strbuf_adds(out, "(no sentence).");
		break;
	}
}

/* Every finding's figures, one row each (a quiet table: json and tsv). */
static void figures_table(struct doc_section *s, const struct findings *f)
{
	enum { F_ID, F_NAME, F_VALUE, F_TEXT, F_UNIT, F_COUNT };
	static const struct doc_col cols[F_COUNT] = {
		[F_ID] = DOC_COL_TEXT("id"),
		[F_NAME] = DOC_COL_TEXT("name"),
		[F_VALUE] = DOC_COL_REAL("value", NULL, 'g', 6),
		[F_TEXT] = DOC_COL_TEXT("text"),
		[F_UNIT] = DOC_COL_TEXT("unit"),
	};
	struct doc_table *t = doc_table(s, cols, F_COUNT);
	doc_table_quiet(t);
	for (size_t i = 0; t && i < f->n; i++)
		for (size_t k = 0; k < f->items[i].nfigs; k++) {
			const struct finding_fig *g = &f->items[i].figs[k];
			doc_row(t);
			doc_set_text(t, F_ID, f->items[i].id);
			doc_set_text(t, F_NAME, g->name);
			doc_set_real(t, F_VALUE, g->value);
			if (*g->text || isnan(g->value))
				doc_set_text(t, F_TEXT, g->text);
			doc_set_text(t, F_UNIT, g->unit);
		}
}

/*
 * The sentences, a section per category (their headings one level below
 * s), each a note linked to its section; then the figures' quiet section.
 */
static void sentences(struct doc_section *s, const struct findings *f)
{
	struct doc *child = doc_new("findings", "");
	struct doc_section *cs = NULL, *figs;
	struct strbuf sb = STRBUF_INIT;
	int category = -1;
	if (!child)
		return;
	for (size_t i = 0; i < f->n; i++) {
		const struct finding *x = &f->items[i];
		int c = (int)finding_category_of(x->kind);
		if (c != category) {
			static const char *const names[FINDINGS_NCATEGORIES] = {
				[FINDINGS_VERDICT] = "verdict", [FINDINGS_BINDS] = "binds",
				[FINDINGS_LEVERS] = "levers",   [FINDINGS_CEILING] = "ceiling",
				[FINDINGS_BREAKS] = "breaks",   [FINDINGS_TRUST] = "trust",
			};
			cs = doc_section(child, names[c],
					 finding_category_title((enum finding_category)c));
			category = c;
		}
		strbuf_reset(&sb);
		finding_sentence(x, &sb);
		doc_note_link(cs, *x->section ? x->section : NULL, "%s", strbuf_str(&sb));
	}
	figs = doc_section(child, "finding_figures", "Findings' figures");
	doc_section_quiet(figs);
	figures_table(figs, f);
	strbuf_release(&sb);
	doc_embed(s, NULL, child);
}

enum {
	C_ID,
	C_FINDING,
	C_CATEGORY,
	C_SUBJECT,
	C_SUPPORTED,
	C_WORD,
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
	static const struct doc_field cols[C_COUNT] = {
		[C_ID] = DOC_TEXT_OF("id", struct finding, id),
		[C_FINDING] = DOC_FIELD_NONE(DOC_COL_TEXT("finding")),
		[C_CATEGORY] = DOC_FIELD_NONE(DOC_COL_TEXT("category")),
		[C_SUBJECT] = DOC_TEXT_OF("subject", struct finding, subject),
		[C_SUPPORTED] = DOC_BOOL_OF("supported", struct finding, supported),
		[C_WORD] = DOC_TEXT_OF("word", struct finding, word),
		[C_VALUE] = DOC_REAL_OF("value", NULL, 'g', 6, struct finding, value),
		[C_LO] = DOC_REAL_OF("lo", NULL, 'g', 6, struct finding, lo),
		[C_HI] = DOC_REAL_OF("hi", NULL, 'g', 6, struct finding, hi),
		[C_N] = DOC_FIELD_NONE(DOC_COL_INT("n", NULL)),
		[C_UNIT] = DOC_TEXT_OF("unit", struct finding, unit),
		[C_METHOD] = DOC_FIELD_NONE(DOC_COL_TEXT("method")),
		[C_SECTION] = DOC_TEXT_OF("section", struct finding, section),
		[C_EFF] = DOC_FIELD_NONE(DOC_COL_REAL("efficiency", NULL, 'g', 6)),
		[C_LEVEL] = DOC_REAL_OF("level", NULL, 'g', 6, struct finding, level),
		[C_CONFIDENCE] = DOC_FIELD_NONE(DOC_COL_INT("confidence", "%")),
		[C_DEGRADED] = DOC_FIELD_NONE(DOC_COL_INT("degraded_runs", NULL)),
	};
	struct doc_table *t = doc_table_of(s, cols, C_COUNT);
	/* the sentences are what a reader reads; the table is their figures, typed */
	doc_table_quiet(t);
	if (f->n == 0)
		doc_text(s, "No findings: no section measured anything.");
	for (size_t i = 0; t && i < f->n; i++) {
		const struct finding *x = &f->items[i];
		doc_row(t);
		doc_set_fields(t, cols, 0, C_COUNT, x);
		doc_set_text(t, C_FINDING, finding_kind_name(x->kind));
		doc_set_text(t, C_CATEGORY, finding_category_title(finding_category_of(x->kind)));
		if (x->supported)
			doc_set_int(t, C_N, (int64_t)x->n);
		doc_set_text(t, C_METHOD, x->supported ? x->method : x->why);
		if (x->kind == FINDING_SCALING)
			doc_set_real(t, C_EFF, x->eff);
		/* the sentences call their intervals 95% intervals: the level, as a number */
		doc_set_int(t, C_CONFIDENCE, 95);
		if (x->kind == FINDING_CPU && x->supported)
			doc_set_int(t, C_DEGRADED, (int64_t)x->degraded);
	}
	sentences(s, f);
}

void findings_to_doc(struct doc *d, const struct findings *f)
{
	findings_to_section(doc_section(d, "findings", "Findings"), f);
}
