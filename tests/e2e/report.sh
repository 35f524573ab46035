#!/usr/bin/env bash
# End-to-end tests of `coreplan report` and `coreplan plot`.
#
#   bash tests/e2e/report.sh COREPLAN_BINARY REPO_ROOT SHARED_CORPORA_DIR
#
# Works in a mktemp -d folder (removed on exit). Imports the two sky
# corpora and the example corpus (REPO_ROOT/fixtures/example), then:
#   - `report` on each: the GOMAXPROCS corpus with --where block=1,2,3, the
#     capacity corpus with a --config file (where, target, sessions and the
#     size inputs), the example; exit 0, report.md and plots written;
#   - determinism: the same report twice (the second at least a second
#     later, and once into another folder) is byte-identical, plots
#     included (diff -r);
#   - the Markdown is well-formed (python3): every table row has as many
#     unescaped `|` as its header, an alignment row follows each header, a
#     blank line ends each table, code fences are closed;
#   - every image report.md references exists and is a valid SVG
#     (xml.etree) or PNG (signature), and so do the data and script files;
#   - the report's sections are the commands' own output, verbatim: sweep
#     (per group), noise, cores, memory, translate, fit and size run alone
#     with the same filter;
#   - sections the corpus cannot support say "Not measured" and why;
#   - --png gives PNG plots only;
#   - without gnuplot on PATH, report still exits 0 with "gnuplot is not
#     installed" notes and otherwise the same text, while `plot` exits 1;
#   - injection: a corpus whose folder name, tags, block values and a
#     column name hold quotes, backquoted commands, system("...") and
#     '; !cmd, drawn with `plot blocks`, `plot scaling`, `plot trace` and
#     `report`: images exist and show the literal text; no command ran
#     (no pwned* file anywhere under the temp folder);
#   - an output folder that cannot be created, or a report.md that cannot
#     be written: exit 1 with a clear message.
#
# Prints "ok - NAME" / "not ok - NAME: DETAILS" per check, then the line
# "N passed, M failed"; exits 1 if any check failed.

E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd) # before any cd
# shared helpers: e2e_start (BIN, ROOT, SHARED, the corpora's paths, T, DB,
# TIMEOUT), ok, not_ok, check_eq, check_contains, cpl, cpl_env, expect_rc,
# cases (e2e_case), untied_gmp_manifest
source "$E2E_DIR/lib.sh"
e2e_start --cd --need python3 --need gnuplot report "$@"
# check_same_text NAME EXPECTED ACTUAL: equal, else a unified diff.
check_same_text() {
	if [ "$2" == "$3" ]; then
		ok "$1"
	else
		not_ok "$1" "texts differ (- expected, + actual):"$'\n'"$(diff -u <(printf '%s\n' "$2") <(printf '%s\n' "$3") | tail -n +3)"
	fi
}
# check_no_plot_failures NAME REPORT.md: no "Plot not drawn" note.
check_no_plot_failures() {
	local notes
	notes=$(grep -n 'Plot not drawn' "$2" | cut -c1-300)
	if [ -z "$notes" ]; then
		ok "$1"
	else
		not_ok "$1" "$notes"
	fi
}
finish() {
	echo "$PASS passed, $FAIL failed"
	[ "$FAIL" -eq 0 ]
	exit $?
}

# py NAME SCRIPT ARGS...: tests/e2e/py/report_SCRIPT prints "ok" or reasons.
py() { py_ok "$1" "$E2E_PY_DIR/report_$2" "${@:3}"; }
# wait_next_second: so that a timestamp in the output would differ.
wait_next_second() {
	local s
	s=$(date +%s)
	while [ "$(date +%s)" == "$s" ]; do sleep 0.1; done
}

echo "# coreplan: $BIN"
echo "# temp: $T"

###########################################################################
# checkers (python3)
###########################################################################

# md_check.py REPORT.md: GFM tables well-formed.
# (md_check.py: tests/e2e/py/report_md_check.py)

# images_check.py DIR [svg|png]: every image report.md references exists
# and is a valid SVG or PNG (of the given kind); so do the data and
# script files named beside them.
# (images_check.py: tests/e2e/py/report_images_check.py)

# segment_check.py REPORT.md START END CMD_STDOUT LEVEL: the report's text
# after START up to END is the command's document as the report embeds it
# (then blank): the command's Markdown without its "## title" line and its
# footer (from the last "---"), with every heading moved to start at LEVEL
# (the report's sections sit under its own headings). START may be
# "ANCHOR@@START" (START found after ANCHOR: a group's heading within one
# section); END may be "E1@@E2" (whichever comes first).
# (segment_check.py: tests/e2e/py/report_segment_check.py)

# strip_plots.py REPORT.md: the text without plot lines (images, data
# and script names, "Plot not drawn" notes), blank runs collapsed.
# (strip_plots.py: tests/e2e/py/report_strip_plots.py)

# svg_text.py FILE TEXT...: each TEXT appears literally in the SVG's text
# (entities decoded).
# (svg_text.py: tests/e2e/py/report_svg_text.py)

###########################################################################
# import
###########################################################################
cpl import -q "$GMP" "$CAP" "$EXAMPLE"
if [ "$RC" -eq 0 ]; then
	ok "import both sky corpora and the example"
else
	not_ok "import both sky corpora and the example" "exit $RC; stderr:"$'\n'"$ERR"
	finish
fi

# report NAME DIR ARGS...: run `report ... --out DIR`, check exit 0 and that
# stdout names DIR/report.md.
report() {
	local name=$1 dir=$2
	shift 2
	cpl report "$@" --out "$dir"
	if [ "$RC" -eq 0 ] && [ "$(head -n 1 <<<"$OUT")" == "## Report written to $dir/report.md" ] &&
		[ -s "$dir/report.md" ] && [ -d "$dir/plots" ]; then
		ok "$name"
	else
		not_ok "$name" "exit $RC, stdout '$OUT', report.md $( [ -s "$dir/report.md" ] && echo present || echo missing); stderr:"$'\n'"$ERR"
	fi
}
# same_dirs NAME A B: diff -r A B is empty (details: the files that
# differ, then the differences of the text files among them).
same_dirs() {
	local d f text=""
	d=$(diff -rq "$2" "$3" 2>&1)
	if [ -z "$d" ]; then
		ok "$1"
		return
	fi
	for f in report.md $(cd "$2" && find plots -name '*.gp' 2>/dev/null | sort); do
		if [ -f "$2/$f" ] && [ -f "$3/$f" ] && ! cmp -s "$2/$f" "$3/$f"; then
			text+=$(diff "$2/$f" "$3/$f" | sed "s|^|$f: |" | head -n 12)$'\n'
		fi
	done
	not_ok "$1" "${d//"$T"\//}"$'\n'"$text"
}
# segment NAME REPORT START END CMD...: the report's section is CMD's stdout.
# segment NAME REPORT.md START END LEVEL COMMAND...: the report's section is the command's document.
segment() {
	local name=$1 md=$2 start=$3 end=$4 level=$5
	shift 5
	cpl "$@"
	if [ "$RC" -ne 0 ]; then
		not_ok "$name" "coreplan $* exited $RC: $ERR"
		return
	fi
	py "$name" segment_check.py "$md" "$start" "$end" "$T/.out" "$level"
}

###########################################################################
# the GOMAXPROCS corpus
###########################################################################
echo "# report: $GMP_NAME"
e2e_case gomaxprocs
GSEL=(--corpus "$GMP_NAME" --where block=1,2,3)
report "report $GMP_NAME --where block=1,2,3 exits 0 and writes report.md" "$T/gmp" "${GSEL[@]}"
GMD=$T/gmp/report.md
e2e_skipping || [ -s "$GMD" ] || { not_ok "gmp report.md present" "missing"; finish; }
cp -r "$T/gmp" "$T/gmp.first"
wait_next_second
report "report $GMP_NAME: second run into the same folder replaces the first, exits 0" "$T/gmp" "${GSEL[@]}"
same_dirs "report $GMP_NAME twice: byte-identical report.md and plots" "$T/gmp.first" "$T/gmp"
report "report $GMP_NAME into another folder exits 0" "$T/gmp-b" "${GSEL[@]}"
same_dirs "report $GMP_NAME in another folder: byte-identical" "$T/gmp" "$T/gmp-b"

py "gmp report.md: Markdown tables well-formed" md_check.py "$GMD"
check_no_plot_failures "gmp report: every plot drawn" "$GMD"
# every image has its caption right under it: what it shows and which runs (n)
check_eq "gmp report: a \"Figure: ... Runs: ... (n N).\" caption under every image" "ok" \
	"$(python3 "$E2E_PY_DIR/report_figure_captions.py" "$GMD")"
py "gmp report.md: every image exists and is a valid SVG; data and scripts exist" \
	images_check.py "$T/gmp" svg
check_eq "gmp report: 3 plots (scaling, blocks, trace; no memory, no sizing)" "3" \
	"$(grep -c '^!\[' "$GMD")" "$(grep '^!\[' "$GMD")"
segment "gmp report: sweep table = coreplan sweep --by gomaxprocs ${GSEL[*]}" "$GMD" \
	'### All runs\n\n' '![scaling plot]' 3 sweep --by gomaxprocs "${GSEL[@]}"
segment "gmp report: noise section = coreplan noise --by gomaxprocs ${GSEL[*]}" "$GMD" \
	'## Noise\n\n' '## What binds' 2 noise --by gomaxprocs "${GSEL[@]}"
segment "gmp report: cores table = coreplan cores ${GSEL[*]}" "$GMD" \
	'## CPU: recomputed cores and tick rate\n\n' 'Trace of ' 2 cores "${GSEL[@]}"
segment "gmp report: fit section = coreplan fit --by gomaxprocs ${GSEL[*]}" "$GMD" \
	'## Scaling models\n\n' '## Sizing' 2 fit --by gomaxprocs "${GSEL[@]}"

# corpus summary against `coreplan corpora`
# (corpus_row.py: tests/e2e/py/report_corpus_row.py)
cpl corpora --format tsv
cp "$T/.out" "$T/corpora.tsv"
py "gmp report: corpus table agrees with coreplan corpora" corpus_row.py "$GMD" "$T/corpora.tsv" "$GMP_NAME"

# section_body REPORT.md TITLE: the text of section "## TITLE"
section_body() { awk -v h="## $2" '$0 == h { on = 1; next } on && /^## / { exit } on' "$1"; }
not_measured() { # NAME REPORT.md TITLE
	local body
	body=$(section_body "$2" "$3")
	if [[ "$body" =~ \*\*Not\ measured\*\*:\ [a-z][^$'\n']{10,} ]]; then
		ok "$1: '$3' says Not measured with a reason"
	else
		not_ok "$1: '$3' says Not measured with a reason" "section:"$'\n'"$body"
	fi
}
for sec in "Memory per session" "Sizing" "Cross-CPU translation"; do
	not_measured "gmp report" "$GMD" "$sec"
done
# SMT: the default import ties the corpus to e2-standard-8 (FORMATS.md's app
# box, 4 cores x 2 threads), so level 8 is all logical CPUs and the step from
# level 4 is measured; what needs pinned runs is not. The step recomputed from
# results.tsv (blocks 1-3: medians 1796.20 / 1538.80 = 1.16727, python statistics).
SMTB=$(section_body "$GMD" "SMT: what a second hardware thread is worth")
check_contains "gmp report (tied): the SMT section names the host e2-standard-8" "$SMTB" \
	"host e2-standard-8: 8 logical CPUs on 4 physical cores (2 per core)"
check_contains "gmp report (tied): smt_factor not measured, and why" "$SMTB" \
	"not measured: needs pinned runs of k threads on k/2 cores "
SMT_STEP=$(python3 "$E2E_PY_DIR/report_smt_step.py" "$GMP/results.tsv")
check_eq "gmp report (tied): smt_step 1.167 = median(g8) / median(g4) of results.tsv" "1.167 1.167" \
	"$SMT_STEP $(awk -F'|' '$2 ~ /^ smt_step / { gsub(/ /, "", $3); print $3 }' <<<"$SMTB")"
# untied (the same profile without its instance, on its own database): the
# SMT section cannot tell, and says so
DB_SAVE=$DB
DB=$T/gmp-untied.db
untied_gmp_manifest "$T/gmp-untied.manifest"
cpl import -q "$GMP" --manifest "$T/gmp-untied.manifest" --format tsv
check_eq "import untied (--manifest, the profile without its instance): 29 runs, none tied" "29 0" \
	"$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "runs") r = i; if ($i == "tied_runs") t = i }; next }
		{ print $r, $t }' "$T/.out")" "exit $RC; $ERR"
report "report $GMP_NAME untied exits 0" "$T/gmp-untied" "${GSEL[@]}"
not_measured "gmp report (untied)" "$T/gmp-untied/report.md" "SMT: what a second hardware thread is worth"
DB=$DB_SAVE

# the trace plot shows a run the report's filter selected
trace_tag=$(sed -n 's/^Trace of `\(.*\)`, the first listed run with a trace:$/\1/p' "$GMD")
cpl runs "${GSEL[@]}" --format tsv
sel_tags=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "tag") c = i; next } { print $c }' "$T/.out")
if [ -n "$trace_tag" ] && grep -qxF -- "$trace_tag" <<<"$sel_tags"; then
	ok "gmp report: the trace plot's run ($trace_tag) is one of the runs --where block=1,2,3 selects"
else
	not_ok "gmp report: the trace plot's run is one of the runs --where block=1,2,3 selects" \
		"trace of '$trace_tag'; selected: $(echo $sel_tags)"
fi

# the same corpus in a database holding nothing else: the same report
DB_SAVE=$DB
DB=$T/gmp-only.db
cpl import -q "$GMP"
report "report $GMP_NAME from a database holding only that corpus exits 0" "$T/gmp-only" "${GSEL[@]}"
same_dirs "report $GMP_NAME: same with other corpora imported or not (footer hash equal)" \
	"$T/gmp" "$T/gmp-only"
DB=$DB_SAVE

# re-plotting from the folder gives the same image
mkdir -p "$T/replot" && cp "$T"/gmp/plots/01-scaling.* "$T/replot/" && rm -f "$T/replot/01-scaling.svg"
if (cd "$T/replot" && gnuplot 01-scaling.svg.gp >/dev/null 2>&1) && cmp -s "$T/replot/01-scaling.svg" "$T/gmp/plots/01-scaling.svg"; then
	ok "gmp report: cd plots && gnuplot 01-scaling.svg.gp re-draws the same SVG"
else
	not_ok "gmp report: cd plots && gnuplot 01-scaling.svg.gp re-draws the same SVG" "differs or failed"
fi

# --png
report "report $GMP_NAME --png exits 0" "$T/gmp-png" "${GSEL[@]}" --png
py "report --png: every image is a PNG" images_check.py "$T/gmp-png" png
check_eq "report --png: no SVG in plots/" "" "$(cd "$T/gmp-png/plots" && ls | grep '\.svg$')"
report "report $GMP_NAME --png again exits 0" "$T/gmp-png-b" "${GSEL[@]}" --png
same_dirs "report --png twice: byte-identical" "$T/gmp-png" "$T/gmp-png-b"
check_same_text "report --png: same text as the SVG report apart from the image names" \
	"$(sed 's/\.svg)/.png)/; s/\.svg\.tsv`/.png.tsv`/; s/\.svg\.gp`/.png.gp`/' "$GMD")" "$(cat "$T/gmp-png/report.md")"

# plot on the real corpus
mkdir -p "$T/plot-gmp"
cpl plot scaling --by gomaxprocs "${GSEL[@]}" --out "$T/plot-gmp/scaling.svg"
expect_rc "plot scaling --by gomaxprocs exits 0" 0
check_eq "plot scaling: md lists the image, data and script paths" \
	"- image: $T/plot-gmp/scaling.svg|- data: $T/plot-gmp/scaling.svg.tsv|- script: $T/plot-gmp/scaling.svg.gp" \
	"$(grep -E '^- (image|data|script): ' "$T/.out" | paste -sd'|' -)"
cp "$T/.out" "$T/plot-gmp/scaling.md"
cpl runs "${GSEL[@]}" --format tsv
nsel=$(tail -n +2 "$T/.out" | grep -c .)
cpl plot scaling --by gomaxprocs "${GSEL[@]}" --out "$T/plot-gmp/scaling.svg" --format json --force
cp "$T/.out" "$T/plot-gmp/scaling.json"
check_eq "plot scaling json: facts kind, image, data, script; runs = the runs the filter lists ($nsel)" \
	"scaling $T/plot-gmp/scaling.svg $T/plot-gmp/scaling.svg.tsv $T/plot-gmp/scaling.svg.gp $nsel" \
	"$(python3 "$E2E_PY_DIR/report_plot_scaling_facts_kind_image.py" "$T/.out" 2>&1)"
check_eq "plot scaling: the md and json documents agree (doc_check.py)" "ok" \
	"$(python3 "$ROOT/tests/e2e/doc_check.py" "$T/plot-gmp/scaling.md" "$T/plot-gmp/scaling.json" 2>&1)"
if python3 -c 'import sys, xml.etree.ElementTree as E; sys.exit(0 if E.parse(sys.argv[1]).getroot().tag.endswith("svg") else 1)' \
	"$T/plot-gmp/scaling.svg" 2>/dev/null; then
	ok "plot scaling: a valid SVG"
else
	not_ok "plot scaling: a valid SVG" "$(head -c 300 "$T/plot-gmp/scaling.svg" 2>&1)"
fi
check_eq "plot scaling: the same plot as the report's" "" \
	"$(diff <(sed 1,3d "$T/plot-gmp/scaling.svg.tsv") <(sed 1,3d "$T/gmp/plots/01-scaling.svg.tsv"))"
cpl plot blocks --by gomaxprocs "${GSEL[@]}" --out "$T/plot-gmp/blocks.png" --format tsv --view facts
expect_rc "plot blocks --out x.png exits 0" 0
check_eq "plot blocks --format tsv: the facts kind and image" "blocks $T/plot-gmp/blocks.png" \
	"$(awk -F'\t' '$1 == "kind" || $1 == "image" { printf "%s%s", sep, $2; sep = " " }' "$T/.out")"
check_eq "plot blocks --out x.png: PNG signature" "89504e470d0a1a0a" \
	"$(head -c 8 "$T/plot-gmp/blocks.png" 2>/dev/null | od -An -tx1 | tr -d ' \n')"

###########################################################################
# the capacity corpus, with a config
###########################################################################
echo "# report: $CAP_NAME"
e2e_case capacity
SCALE_FROM="corpus=$GMP_NAME block=1,2,3 gomaxprocs=1,2,4"
MEM_FROM="corpus=$CAP_NAME target=medium cfg=pg block=1,2,3"
cat >"$T/cap.conf" <<EOF
# sizing inputs for the capacity report
where = block=1,2,3,soak
target = 1000
sessions = 500
base-from = subcorpus=core
scaling-from = $SCALE_FROM
memory-from = $MEM_FROM
series = e2
EOF
report "report $CAP_NAME --config exits 0" "$T/cap" --corpus "$CAP_NAME" --config "$T/cap.conf"
CMD_MD=$T/cap/report.md
e2e_skipping || [ -s "$CMD_MD" ] || { not_ok "cap report.md present" "missing"; finish; }
cp -r "$T/cap" "$T/cap.first"
wait_next_second
report "report $CAP_NAME --config: second run replaces the first, exits 0" "$T/cap" --corpus "$CAP_NAME" --config "$T/cap.conf"
same_dirs "report $CAP_NAME twice: byte-identical report.md and plots" "$T/cap.first" "$T/cap"
report "report $CAP_NAME into another folder exits 0" "$T/cap-b" --corpus "$CAP_NAME" --config "$T/cap.conf"
same_dirs "report $CAP_NAME in another folder: byte-identical" "$T/cap" "$T/cap-b"
py "cap report.md: Markdown tables well-formed" md_check.py "$CMD_MD"
check_no_plot_failures "cap report: every plot drawn" "$CMD_MD"
py "cap report.md: every image exists and is a valid SVG; data and scripts exist" \
	images_check.py "$T/cap" svg
check_contains "cap report: a sizing plot" "$(cat "$CMD_MD")" "![sizing plot](plots/"
check_contains "cap report: a memory plot" "$(cat "$CMD_MD")" "![memory plot](plots/"

CSEL=(--corpus "$CAP_NAME" --where block=1,2,3,soak)
# each_group GROUPS CHECK: `CHECK GROUP` for each group heading of GROUPS (one a
# line, "k=v k2=v2"), with wh its --where options
each_group() {
	local g kv
	while IFS= read -r g; do
		[ -n "$g" ] || continue
		wh=()
		for kv in $g; do wh+=(--where "$kv"); done
		"$2" "$g"
	done <<<"$1"
}
# the sweep groups: target x cfg, and small/pg's soak block (one level) a
# group of its own beside that group's complete blocks (docs/analysis.md, "No
# silent pooling"); noise and fit use the same groups
groups=$(sed -n '/^## Sweep$/,/^## Noise$/s/^### Group //p' "$CMD_MD")
check_eq "cap report: five sweep groups (the soak block on its own)" \
	"target=medium cfg=mem|target=medium cfg=pg|target=small cfg=mem|target=small cfg=pg block=1,2,3|target=small cfg=pg block=soak" \
	"$(paste -sd'|' <<<"$groups")"
# sweep_noise_of GROUP: the group's sweep and noise parts are the commands' own output
sweep_noise_of() {
	segment "cap report: group '$1' sweep = coreplan sweep --by sessions ${CSEL[*]} ${wh[*]}" \
		"$CMD_MD" "### Group $1\n\n" '![scaling plot]' 3 sweep --by sessions "${CSEL[@]}" "${wh[@]}"
	segment "cap report: group '$1' noise = coreplan noise --by sessions ${CSEL[*]} ${wh[*]}" \
		"$CMD_MD" "## Noise\n@@### Group $1\n\n" '\n### Group @@\n## What binds' 3 \
		noise --by sessions "${CSEL[@]}" "${wh[@]}"
}
each_group "$groups" sweep_noise_of
# a sweep over sessions gets no core-scaling models: left out, with the reason
body=$(awk '$0 == "## Scaling models" { on = 1; next } on && /^## / { exit } on' "$CMD_MD")
check_contains "cap report: no scaling models over sessions (left out, with the reason)" "$body" \
	"*Left out*: the sweep is over sessions, which does not count workers: USL, Amdahl and power laws over it would be wrong"
# the CPU section: one part per instance (the tick check is the guest's)
for inst in e2-medium e2-small; do
	segment "cap report: cores on $inst = coreplan cores ${CSEL[*]} --where instance=$inst" "$CMD_MD" \
		"### Instance $inst\n\n" '\n### Instance @@Trace of ' 3 cores "${CSEL[@]}" --where instance=$inst
done
# memory: the groups with two or more session counts (the soak block has one)
mgroups=$(sed -n '/^## Memory per session$/,/^## SMT/s/^### Group //p' "$CMD_MD")
check_eq "cap report: four memory groups" \
	"target=medium cfg=mem|target=medium cfg=pg|target=small cfg=mem|target=small cfg=pg block=1,2,3" \
	"$(paste -sd'|' <<<"$mgroups")"
# memory_of GROUP: the group's memory part is `coreplan memory`'s own output
memory_of() {
	segment "cap report: group '$1' memory = coreplan memory --by sessions ${CSEL[*]} ${wh[*]}" \
		"$CMD_MD" "## Memory per session\n@@### Group $1\n\n" '![memory plot]' 3 \
		memory --by sessions "${CSEL[@]}" "${wh[@]}"
}
each_group "$mgroups" memory_of
check_contains "cap report: the soak group's single session count is said" "$(cat "$CMD_MD")" \
	"1 group with one session count has no slope and is left out."
segment "cap report: translation = coreplan translate --from subcorpus=m1 --to subcorpus=core --apply-medians --check subcorpus=core" \
	"$CMD_MD" '## Cross-CPU translation\n\n' '## Scaling models' 2 \
	translate --from subcorpus=m1 --to subcorpus=core --apply-medians --check subcorpus=core \
	--corpus "$CAP_NAME"
body=$(awk '$0 == "## Cross-CPU translation" { on = 1; next } on && /^## / { exit } on' "$CMD_MD")
check_contains "cap report: the translation section checks the M1 medians against the core runs" "$body" \
	"checked against gce-e2 (3 runs, subcorpus=core): 5 inside the translated interval, 0 outside"
segment "cap report: sizing = coreplan size with the config's options" "$CMD_MD" \
	'## Sizing\n\n' '![sizing plot]' 2 size --target 1000 --sessions 500 --base-from subcorpus=core \
	--scaling-from "$SCALE_FROM" --memory-from "$MEM_FROM" --series e2
cpl corpora --format tsv
cp "$T/.out" "$T/corpora.tsv"
py "cap report: corpus table agrees with coreplan corpora" corpus_row.py "$CMD_MD" "$T/corpora.tsv" "$CAP_NAME"
body=$(awk '$0 == "## SMT: what a second hardware thread is worth" { on = 1; next } on && /^## / { exit } on' "$CMD_MD")
# a sweep over sessions gets no SMT section: left out, with the reason
check_contains "cap report: no SMT section over sessions (left out, with the reason)" "$body" \
	"*Left out*: the sweep is over sessions, which does not count workers: no SMT analysis"

###########################################################################
# the example corpus (README's main job)
###########################################################################
echo "# report: example"
e2e_case example
report "report example exits 0" "$T/example" --corpus example
report "report example again exits 0" "$T/example-b" --corpus example
same_dirs "report example twice: byte-identical" "$T/example" "$T/example-b"
py "example report.md: Markdown tables well-formed" md_check.py "$T/example/report.md"
check_no_plot_failures "example report: every plot drawn" "$T/example/report.md"
py "example report.md: every image exists and is a valid SVG" images_check.py "$T/example" svg
segment "example report: sweep table = coreplan sweep --by gomaxprocs --corpus example" \
	"$T/example/report.md" '### All runs\n\n' '![scaling plot]' 3 sweep --by gomaxprocs --corpus example

###########################################################################
# without gnuplot
###########################################################################
echo "# without gnuplot"
e2e_case without-gnuplot gomaxprocs capacity
NOPATH=/nonexistent
cpl_env PATH="$NOPATH" -- report "${GSEL[@]}" --out "$T/nognu"
expect_rc "no gnuplot: report exits 0" 0
check_contains "no gnuplot: report.md says gnuplot is not installed" \
	"$(cat "$T/nognu/report.md" 2>&1)" "gnuplot is not installed"
check_eq "no gnuplot: one note per plot the normal report draws" "$(grep -c '^!\[' "$GMD")" \
	"$(grep -c 'gnuplot is not installed' "$T/nognu/report.md" 2>/dev/null)"
py "no gnuplot: report.md has no image reference" images_check.py "$T/nognu" none
py "no gnuplot: Markdown tables well-formed" md_check.py "$T/nognu/report.md"
check_same_text "no gnuplot: the same report apart from the plot lines" \
	"$(python3 "$E2E_PY_DIR/report_strip_plots.py" "$GMD")" "$(python3 "$E2E_PY_DIR/report_strip_plots.py" "$T/nognu/report.md")"
cpl_env PATH="$NOPATH" -- report --corpus "$CAP_NAME" --config "$T/cap.conf" --out "$T/nognu-cap"
expect_rc "no gnuplot: capacity report with sizing exits 0" 0
check_same_text "no gnuplot: capacity report the same apart from the plot lines (sizing included)" \
	"$(python3 "$E2E_PY_DIR/report_strip_plots.py" "$CMD_MD")" "$(python3 "$E2E_PY_DIR/report_strip_plots.py" "$T/nognu-cap/report.md")"
cpl_env PATH="$NOPATH" -- plot scaling --by gomaxprocs "${GSEL[@]}" --out "$T/nognu/x.svg"
expect_rc "no gnuplot: plot exits 1" 1
check_contains "no gnuplot: plot says gnuplot is not installed" "$ERR" "gnuplot is not installed"
check_eq "no gnuplot: plot prints nothing on stdout" "" "$OUT"

###########################################################################
# injection through corpus names, tags, block values and column names
###########################################################################
echo "# injection"
e2e_case injection
# Strings that run a command if they escape their gnuplot quotes. Relative
# touches land in the folder gnuplot runs in (inside $T), absolute ones in
# $T: afterwards no file named pwned* may exist anywhere under $T.
EVIL_NAME="ev'il \`touch pwned1\` system(\"touch pwned2\") @m ; !touch pwned3"
EVIL_COL="lev'el \`touch $T/pwned4\`"
EVIL_DIR=$T/corpora/$EVIL_NAME
mkdir -p "$EVIL_DIR/traces"
python3 "$E2E_PY_DIR/report_evil_corpus.py" "$EVIL_DIR" "$T" "$GMP/runs/g1-n100-b1/sample.tsv"
EVIL_TAG="r1'\`touch pwned8\` system(\"touch pwned9\")"
EVIL_BLOCK1="b'1 \`touch $T/pwned5\`"
EVIL_BLOCKS=("block $EVIL_BLOCK1" "block b2 system(\"touch $T/pwned6\")" "block b3 x'; !touch $T/pwned7")
pwned() { find "$T" -name 'pwned*' | sed "s|^$T/||" | sort | paste -sd' ' -; }

cpl import "$EVIL_DIR"
expect_rc "hostile corpus (quotes, backquotes, system() in name, tags, blocks, column): import exits 0" 0
mkdir -p "$T/evil-plots"
cpl plot blocks --by "$EVIL_COL" --corpus "$EVIL_NAME" --out "$T/evil-plots/blocks.svg"
expect_rc "hostile: plot blocks --by <hostile column> exits 0" 0
py "hostile: plot blocks shows corpus name, column name and block values literally" svg_text.py \
	"$T/evil-plots/blocks.svg" "$EVIL_NAME" "$EVIL_COL" "${EVIL_BLOCKS[@]}"
cpl plot scaling --by "$EVIL_COL" --corpus "$EVIL_NAME" --where "block=$EVIL_BLOCK1" \
	--out "$T/evil-plots/scaling.svg"
expect_rc "hostile: plot scaling --where block=<hostile value> exits 0" 0
py "hostile: plot scaling shows the corpus name, filter and column literally" svg_text.py \
	"$T/evil-plots/scaling.svg" "$EVIL_NAME" "block=$EVIL_BLOCK1" "$EVIL_COL"
cpl plot scaling --by gomaxprocs --corpus "$EVIL_NAME" --out "$T/evil-plots/scaling.png"
expect_rc "hostile: plot scaling --out x.png exits 0" 0
check_eq "hostile: plot scaling PNG signature" "89504e470d0a1a0a" \
	"$(head -c 8 "$T/evil-plots/scaling.png" 2>/dev/null | od -An -tx1 | tr -d ' \n')"
cpl plot trace --tag "$EVIL_TAG" --corpus "$EVIL_NAME" --out "$T/evil-plots/trace.svg" --format json
expect_rc "hostile: plot trace --tag <hostile tag> exits 0" 0
check_eq "hostile: plot trace json: kind trace, the tag literally, the image path" \
	"trace|$EVIL_TAG|$T/evil-plots/trace.svg" \
	"$(python3 "$E2E_PY_DIR/report_hostile_plot_trace_kind_trace.py" "$T/.out" 2>&1)"
py "hostile: plot trace shows the tag literally" svg_text.py "$T/evil-plots/trace.svg" "$EVIL_TAG"
report "hostile: report exits 0" "$T/evil-report" --corpus "$EVIL_NAME"
py "hostile: report images exist and are valid SVG" images_check.py "$T/evil-report" svg
py "hostile: report.md tables well-formed (a tag holds '|')" md_check.py "$T/evil-report/report.md"
check_contains "hostile: report draws the hostile run's trace" "$(cat "$T/evil-report/report.md")" \
	"Trace of \`$EVIL_TAG\`, the first listed run with a trace:"$'\n\n'"![trace plot](plots/"
check_no_plot_failures "hostile: report draws every plot" "$T/evil-report/report.md"
report "hostile: report --png exits 0" "$T/evil-report-png" --corpus "$EVIL_NAME" --png
py "hostile: report --png images are PNG" images_check.py "$T/evil-report-png" png
check_eq "hostile: no injected command ran (no pwned* file under the temp folder)" "" "$(pwned)"

# A run whose trace has no clock tick rate (no idle banner, no clk_tck):
# app cores cannot be computed, RSS can.
mkdir -p "$T/notick/traces"
printf 'tag\tgomaxprocs\ttput\nn1\t1\t100\nn2\t2\t190\n' >"$T/notick/runs.tsv"
cp "$GMP/runs/g1-n100-b1/sample.tsv" "$T/notick/traces/n1.tsv"
cat >"$T/notick/coreplan.manifest" <<'EOF'
layout = notick
[table main]
file = runs.tsv
tag = {tag}
trace = traces/{tag}.tsv
trace-columns = epoch app_rss_kb mem_avail_kb conn cpu_total_j cpu_idle_j app_j threads
EOF
cpl import "$T/notick"
cpl plot trace --tag n1 --corpus notick --out "$T/evil-plots/notick.svg"
if [ "$RC" -eq 0 ] || [[ "$ERR" == *clk_tck* || "$ERR" == *"tick rate"* ]]; then
	ok "plot trace of a run without clk_tck: draws (RSS) or says clk_tck is missing"
else
	not_ok "plot trace of a run without clk_tck: draws (RSS) or says clk_tck is missing" \
		"exit $RC; stderr:"$'\n'"$ERR"
fi

# A string that starts with a quote, or holds two quotes in a row, in a
# gnuplot label: gnuplot 5.4 reads '''x' as '' then 'x'.
QQ_COL="'lev''el"
printf 'tag\tgomaxprocs\t%s\tblock\ttput\n' "$QQ_COL" >"$T/quotes.tsv"
for g in 1 2 4; do
	for b in 1 2; do printf 'g%s-b%s\t%s\t%s\t%s\t%s\n' "$g" "$b" "$g" "$g" "$b" "$((100 * g + b))"; done
done >>"$T/quotes.tsv"
cpl import "$T/quotes.tsv" --name "''quoted'' corpus"
expect_rc "quote-led strings: import exits 0" 0
cpl plot scaling --by "$QQ_COL" --corpus "''quoted'' corpus" --out "$T/evil-plots/quotes.svg"
expect_rc "quote-led strings: plot scaling --by \"'lev''el\" on corpus \"''quoted'' corpus\" exits 0" 0
if [ "$RC" -eq 0 ]; then
	py "quote-led strings: drawn literally" svg_text.py "$T/evil-plots/quotes.svg" "$QQ_COL" "''quoted'' corpus"
fi

# group values with spaces: the report selects each group with --where
mkdir -p "$T/spaced"
{
	printf 'tag\tgomaxprocs\tblock\tvariant\ttput\n'
	i=0
	for v in "plain one" "other two"; do
		for b in 1 2; do
			for g in 1 2 4; do
				i=$((i + 1))
				printf 'r%s\t%s\t%s\t%s\t%s\n' "$i" "$g" "$b" "$v" "$((100 * g + b))"
			done
		done
	done
} >"$T/spaced/runs.tsv"
cpl import "$T/spaced/runs.tsv" --name spaced
report "report groups by a field whose values hold spaces (variant='plain one')" "$T/spaced-report" --corpus spaced
if [ -s "$T/spaced-report/report.md" ] && grep -q '^### Group variant=plain one$' "$T/spaced-report/report.md"; then
	segment "spaced groups: group 'variant=plain one' = coreplan sweep --where 'variant=plain one'" \
		"$T/spaced-report/report.md" '### Group variant=plain one\n\n' '![scaling plot]' 3 \
		sweep --by gomaxprocs --corpus spaced --where "variant=plain one"
fi
check_eq "no injected command ran after every hostile plot (final check)" "" "$(pwned)"

###########################################################################
# output folders that cannot be written
###########################################################################
echo "# bad output folders"
e2e_case bad-folders
: >"$T/a-file"
cpl report "${GSEL[@]}" --out "$T/a-file/sub"
expect_rc "report --out under a regular file exits 1" 1
check_contains "report --out under a regular file: says it cannot create the folder" "$ERR" \
	"cannot create '$T/a-file/sub': Not a directory"
check_eq "report --out under a regular file: one error line" "1" "$(grep -c . <<<"$ERR")" "$ERR"
check_eq "report --out under a regular file: nothing on stdout" "" "$OUT"
mkdir -p "$T/blocked/report.md"
cpl report "${GSEL[@]}" --out "$T/blocked"
expect_rc "report whose report.md is a folder exits 1" 1
check_contains "report whose report.md is a folder: says it cannot write report.md" "$ERR" \
	"cannot write '$T/blocked/report.md'"
cpl report "${GSEL[@]}"
expect_rc "report without --out exits 2 (usage)" 2

finish
