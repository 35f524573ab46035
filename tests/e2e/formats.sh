#!/usr/bin/env bash
# End-to-end test of the output formats: every command, in every format and
# every view, on the real corpora and tables.
#
#   bash tests/e2e/formats.sh COREPLAN_BINARY REPO_ROOT SHARED_CORPORA_DIR
#
# Databases: each sky corpus imported alone, both together, the example
# corpus, each write-up table (writeups/*/*.tsv), and the tied one (the
# GOMAXPROCS corpus and the affinity table tied to epyc, the yip table to a
# 6-core, 12-thread host: import --host). For every case below
# (a command and its arguments on one database) the command runs with
# --format md, json, csv, tsv and html, and with --format tsv --view V for every
# view its --help lists, and:
#   - every run exits 0 and writes nothing to stderr but warnings;
#   - the JSON parses and has the document shape, and every number the
#     Markdown shows is a JSON number (fact or cell) with the same digits
#     (tests/e2e/doc_check.py), and every tsv cell equals its JSON cell;
#   - the html is well-formed (python's html.parser: every element closed in
#     order), has no script, and one table per Markdown table;
#   - every view --help declares is a table section of the JSON (or facts);
#   - an unknown view is a usage error (exit 2) listing the valid ones.
# Prints "ok - NAME" / "not ok - NAME: DETAILS" per check, then
# "N passed, M failed"; exits 1 if any check failed.

E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# ok, not_ok, cases (e2e_case), py_ok, doc_agree, e2e_start (BIN, ROOT,
# SHARED, the corpora's paths, T)
source "$E2E_DIR/lib.sh"
e2e_start --cd --need python3 formats "$@"
e2e_timeout 120

# import NAME PATH...: a database NAME.db with these corpora or tables
import() {
	local name=$1
	shift
	if ! "$BIN" --db "$T/$name.db" import "$@" --quiet >"$T/import.out" 2>"$T/import.err"; then
		not_ok "import $name" "$(cat "$T/import.err")"
		return 1
	fi
	ok "import $name"
}

# The views a command's --help declares (first = default), one per line.
views_of() {
	"$BIN" "$1" --help | awk '/^views /{getline; print; exit}' | sed 's/ (default)//; s/, facts (.*//' |
		tr ',' '\n' | sed 's/^ *//; /^$/d'
}

# check_case DB LABEL COMMAND ARGS...: every format and view of one command;
# each is a case named after LABEL, / as - (run_case formats.sh:gmp-sweep).
check_case() {
	local db=$1 label=$2 cmd=$3
	shift 3
	e2e_case "${label//\//-}" || return 0
	local base=$T/out/$label
	mkdir -p "$(dirname "$base")"
	local fmt rc bad=""
	for fmt in md json csv tsv html; do
		"${TIMEOUT[@]}" "$BIN" --db "$db" "$cmd" "$@" --format "$fmt" >"$base.$fmt" 2>"$base.$fmt.err"
		rc=$?
		if [ $rc -ne 0 ]; then
			bad+="--format $fmt exits $rc: $(head -c 400 "$base.$fmt.err")"$'\n'
		elif grep -qv '^coreplan: warning: ' "$base.$fmt.err"; then
			bad+="--format $fmt: stderr is not only warnings: $(head -c 400 "$base.$fmt.err")"$'\n'
		fi
	done
	if [ -n "$bad" ]; then
		not_ok "$label: every format exits 0" "$bad"
		return
	fi
	ok "$label: every format exits 0"
	doc_agree "$label: json holds every md number; tsv equals json" "$base.md" "$base.json" "$base.tsv"
	# html: well-formed (every element closed in order), no script, one table per md table
	py_ok "$label: html is well-formed with the md's tables" "$E2E_PY_DIR/formats_html_check.py" "$base.md" "$base.html"
	local view res missing=""
	while read -r view; do
		[ -n "$view" ] || continue
		if ! python3 "$E2E_PY_DIR/formats_json_has_view.py" "$base.json" "$view"; then
			missing+="view '$view' (declared in --help) is not a table section of the json"$'\n'
			continue
		fi
		"$BIN" --db "$db" "$cmd" "$@" --format tsv --view "$view" >"$base.$view.tsv" 2>"$base.err" ||
			{ missing+="--view $view exits $?: $(head -c 300 "$base.err")"$'\n'; continue; }
		res=$(python3 "$E2E_DIR/doc_check.py" "$base.md" "$base.json" "$base.$view.tsv" 2>&1)
		[ "$res" == ok ] || missing+="--view $view: $res"$'\n'
	done < <(views_of "$cmd")
	"$BIN" --db "$db" "$cmd" "$@" --format tsv --view facts >"$base.facts.tsv" 2>"$base.err" ||
		missing+="--view facts exits $?"$'\n'
	if [ -z "$missing" ]; then
		ok "$label: every declared view is a section, and its tsv equals the json"
	else
		not_ok "$label: every declared view is a section, and its tsv equals the json" "$missing"
	fi
}

# An unknown view is a usage error naming the valid ones (one command is enough: the runner decides).
check_unknown_view() {
	e2e_skipping && return 0
	"$BIN" --db "$1" "$2" "${@:3}" --format tsv --view no-such-view >"$T/uv.out" 2>"$T/uv.err"
	local rc=$?
	if [ $rc -eq 2 ] && grep -q "unknown view 'no-such-view'" "$T/uv.err"; then
		ok "$2: an unknown view exits 2 and names the valid ones"
	else
		not_ok "$2: an unknown view exits 2 and names the valid ones" "exit $rc: $(cat "$T/uv.err")"
	fi
}


import gmp "$SKY/$GMP_NAME"
import cap "$SKY/$CAP_NAME"
import both "$SKY/$GMP_NAME" "$SKY/$CAP_NAME"
import example "$ROOT/fixtures/example"
for f in "$SHARED"/writeups/*/*.tsv; do
	import "$(basename "$(dirname "$f")")" "$f"
done
"$BIN" --db "$T/gomaxprocs-affinity.db" topology --from "$SHARED/writeups/gomaxprocs-affinity/lscpu.txt" \
	--host epyc >/dev/null 2>&1 || not_ok "topology --from lscpu.txt" "exit $?"

# the corpora tied to their hosts (issue 12): the GOMAXPROCS corpus and the
# affinity table on epyc (the affinity write-up's lscpu.txt), the yip table on
# a 6-core, 12-thread host recorded from its shape
H=$T/tied.db
"$BIN" --db "$H" topology --from "$SHARED/writeups/gomaxprocs-affinity/lscpu.txt" --host epyc \
	>/dev/null 2>&1 || not_ok "tied: topology --from lscpu.txt" "exit $?"
"$BIN" --db "$H" topology --host yip --cores 6 --threads-per-core 2 >/dev/null 2>&1 ||
	not_ok "tied: topology --cores 6 --threads-per-core 2" "exit $?"
import tied "$SKY/$GMP_NAME" --host epyc
import tied "$SHARED/writeups/gomaxprocs-affinity/runs.tsv" --name gomaxprocs-affinity --host epyc
import tied "$SHARED/writeups/yip-sharding/level1.tsv" --name yip --host yip

G=$T/gmp.db
C=$T/cap.db
B=$T/both.db
E=$T/example.db
A=$T/gomaxprocs-affinity.db
Y=$T/yip-sharding.db
L=$T/emitter-lock.db

# the listing commands, on every database
for db in "$G" "$C" "$B" "$E" "$A" "$Y" "$L"; do
	n=$(basename "$db" .db)
	check_case "$db" "$n/corpora" corpora
	check_case "$db" "$n/runs" runs
	check_case "$db" "$n/runs-excluded" runs --excluded
done
check_case "$C" cap/runs-main runs --where subcorpus=

# the analyses, where the corpus supports them
check_case "$G" gmp/sweep sweep --by gomaxprocs --where block=1,2,3
# every run of the corpus: the GOGC arms, the session counts and the block
# kinds are pooled on purpose, as the refusal without --pool says to
check_case "$G" gmp/sweep-all sweep --by gomaxprocs --pool gogc,sessions,block
check_case "$G" gmp/noise noise --by gomaxprocs --where block=1,2,3
check_case "$G" gmp/noise-gogc noise --by gomaxprocs --group gogc --where block=gg100,gg800
check_case "$G" gmp/compare compare --a gomaxprocs=1 --b gomaxprocs=2 --where block=1,2,3
check_case "$G" gmp/cores cores --where block=1,2,3
check_case "$G" gmp/trace trace g4-n100-b1
check_case "$G" gmp/fit fit --by gomaxprocs --where block=1,2,3
check_case "$C" cap/sweep sweep --by sessions --where target=medium --where cfg=pg --where block=1,2,3
# the soak block is a block kind (one level): pooled on purpose, so its soaks view has rows
check_case "$C" cap/noise noise --by sessions --group target,cfg --where block=1,2,3,soak --pool block
# a metric that is 0 in most runs (absolute ranges), a non-rate metric (columns left out);
# one target and configuration each (the sweeps refuse to pool them: docs/analysis.md, "No silent pooling")
check_case "$C" cap/sweep-err sweep --by sessions --metric err --where target=small --where cfg=pg \
	--where block=1,2,3
check_case "$C" cap/noise-err noise --by sessions --metric err --group target,cfg --where block=1,2,3
check_case "$C" cap/sweep-p50 sweep --by sessions --metric p50_ms --where target=medium --where cfg=pg \
	--where block=1,2,3
check_case "$C" cap/compare compare --a target=small --b target=medium --where cfg=pg --where sessions=300
check_case "$C" cap/cores cores
check_case "$C" cap/trace trace medium-pg-n300-b1r1
check_case "$C" cap/memory memory --by sessions --group cfg --where target=medium --where block=1,2,3
check_case "$C" cap/memory-trace memory --by sessions --metric rss_median_kb --where target=medium \
	--where cfg=pg --where block=1,2,3
check_case "$C" cap/sweep-inline sweep --by sessions --metric xact_per_s@results --where target=medium \
	--where cfg=pg --where block=1,2,3
check_case "$C" cap/runs-fields runs --fields --where subcorpus=
check_case "$G" gmp/runs-fields runs --fields
# translate: one factor per kind; --apply of the capacity write-up's M1 figures (every kind,
# the slope not translated) checked against the core runs; the M1 medians; size with the
# rate factor measured from the same runs
check_case "$C" cap/translate translate --from subcorpus=m1 --to subcorpus=core
printf 'name\tvalue\tunit\nthroughput\t897\tint/s\ncpu per interaction\t1199\tus\nidle rss\t34752\tkB\nloaded rss\t63328\tkB\nper-session slope\t585\tkB/session\np50 latency\t30\tms\nnet\t1.2\tGbps\n' \
	>"$T/m1-figures.tsv"
check_case "$C" cap/translate-apply translate --from subcorpus=m1 --to subcorpus=core \
	--apply "$T/m1-figures.tsv" --check subcorpus=core
check_case "$C" cap/translate-medians translate --from subcorpus=m1 --to subcorpus=core --apply-medians \
	--check subcorpus=core
check_case "$C" cap/size-translate size --target 1000 --sessions 25 --base-from subcorpus=m1 \
	--per-doubling 1.78 --translate gce-e2=from:subcorpus=m1,to:subcorpus=core --series e2
check_case "$B" both/sweep sweep --by gomaxprocs --corpus "$GMP_NAME" --where block=1,2,3
# binders: what binds each capacity group; the GOMAXPROCS sweep still rises
check_case "$C" cap/binders binders --group target,cfg --where block=1,2,3 --where subcorpus=
check_case "$G" gmp/binders binders --by gomaxprocs --where block=1,2,3
# levers: GOGC and sessions on the GOMAXPROCS corpus, store and instance on the capacity corpus
check_case "$G" gmp/levers levers --by gomaxprocs
check_case "$C" cap/levers levers --by sessions --where subcorpus= --where block=1,2,3
check_case "$B" both/size size --target 1000 --sessions 500 --base-from subcorpus=core \
	--scaling-from "corpus=$GMP_NAME block=1,2,3" \
	--memory-from "corpus=$CAP_NAME target=medium cfg=pg block=1,2,3"
check_case "$E" example/sweep sweep --by gomaxprocs
check_case "$E" example/noise noise --by gomaxprocs
check_case "$E" example/fit fit --by gomaxprocs
check_case "$A" affinity/smt smt --host epyc
check_case "$A" affinity/topology topology --show
check_case "$A" affinity/compare compare --a 'arm=shard procs=1' --b 'arm=shard procs=8'
check_case "$Y" yip/sweep sweep --by N --metric Gbps
check_case "$Y" yip/fit fit --by N --metric Gbps
check_case "$L" lock/sweep sweep --by cores --metric qps --where variant=before
check_case "$G" none/size size --target 1000 --sessions 500 --base-rate 299 --base-cpu gce-e2 \
	--per-doubling 1.78 --smt-factor 1.27 --mem-per-session 637 --mem-fixed 40000

check_case "$H" tied/sweep sweep --by gomaxprocs --corpus "$GMP_NAME" --where block=1,2,3
check_case "$H" tied/sweep-host sweep --by gomaxprocs --corpus "$GMP_NAME" --where block=1,2,3 --host yip
check_case "$H" tied/fit fit --by gomaxprocs --corpus "$GMP_NAME" --where block=1,2,3
check_case "$H" tied/fit-all fit --by gomaxprocs --corpus "$GMP_NAME" --where block=1,2,3 --all-levels
check_case "$H" tied/affinity-sweep sweep --by threads_per_proc --corpus gomaxprocs-affinity --where arm=sweep
check_case "$H" tied/smt smt --corpus gomaxprocs-affinity
check_case "$H" tied/yip-sweep sweep --by N --metric Gbps --corpus yip
check_case "$H" tied/yip-fit fit --by N --metric Gbps --corpus yip
check_case "$H" tied/topology topology --show
check_case "$H" tied/topology-cores topology --host shape --cores 4 --threads-per-core 2
check_case "$H" tied/import import "$SKY/$GMP_NAME"
check_case "$C" cap/catalog-families catalog --families
mkdir -p "$T/plots"
# each format draws the plot again: --force replaces what the previous one wrote
check_case "$G" gmp/plot plot scaling --by gomaxprocs --where block=1,2,3 --out "$T/plots/gmp-scaling.svg" --force
check_case "$H" tied/plot plot scaling --by gomaxprocs --corpus "$GMP_NAME" --where block=1,2,3 \
	--out "$T/plots/tied-scaling.svg" --force
check_case "$C" cap/plot-memory plot memory --by sessions --group cfg --where target=medium --where block=1,2,3 \
	--out "$T/plots/cap-memory.svg" --force

check_case "$G" gmp/import import "$SKY/$GMP_NAME"
check_case "$A" affinity/topology-record topology --from "$SHARED/writeups/gomaxprocs-affinity/lscpu.txt" \
	--host epyc
check_case "$C" cap/catalog catalog

# report with default options: each real corpus alone, both together
# (--corpus), the example and each write-up table; report.md complete
# (its footer written) every time
report_case() { # DB LABEL [--corpus NAME]
	local db=$1 label=$2
	shift 2
	e2e_case "${label//\//-}" || return 0
	check_case "$db" "$label" report --out "$T/reports/$label" "$@"
	if tail -n 1 "$T/reports/$label/report.md" 2>/dev/null | grep -q '^coreplan .*; content sha256 of [^:]*: [0-9a-f]\{64\}$'; then
		ok "$label: report.md is complete (footer written)"
	else
		not_ok "$label: report.md is complete (footer written)" "$(tail -n 3 "$T/reports/$label/report.md" 2>&1)"
	fi
	# the report's document on standard output holds every number of report.md
	doc_agree "$label: report --format json holds every number of report.md" \
		"$T/reports/$label/report.md" "$T/out/$label.json"
}
report_case "$G" gmp-report
report_case "$C" cap-report
report_case "$B" both-report-gmp --corpus "$GMP_NAME"
report_case "$B" both-report-cap --corpus "$CAP_NAME"
report_case "$E" example-report
report_case "$A" affinity-report
report_case "$Y" yip-report
report_case "$L" lock-report
report_case "$H" tied-report-gmp --corpus "$GMP_NAME"
report_case "$H" tied-report-yip --corpus yip

# one filter grammar everywhere: '=' inside a list and an unknown field are the same usage error
e2e_case where-grammar
for cmd in "runs" "sweep --by gomaxprocs" "noise --by gomaxprocs" "cores" "report --out $T/r-bad"; do
	e2e_skipping && break
	# shellcheck disable=SC2086
	"$BIN" --db "$G" $cmd --where cfg=mem,target=small >"$T/f.out" 2>"$T/f.err"
	rc=$?
	if [ $rc -eq 2 ] && grep -q "the value 'target=small' holds '='" "$T/f.err"; then
		ok "${cmd%% *}: --where cfg=mem,target=small is refused (exit 2) with the grammar"
	else
		not_ok "${cmd%% *}: --where cfg=mem,target=small is refused (exit 2) with the grammar" "exit $rc: $(cat "$T/f.err")"
	fi
	# shellcheck disable=SC2086
	"$BIN" --db "$G" $cmd --where gomaxproc=1 >"$T/f.out" 2>"$T/f.err"
	rc=$?
	if [ $rc -eq 2 ] && grep -q "no field 'gomaxproc' (did you mean 'gomaxprocs'?)" "$T/f.err"; then
		ok "${cmd%% *}: an unknown field is exit 2 with a suggestion"
	else
		not_ok "${cmd%% *}: an unknown field is exit 2 with a suggestion" "exit $rc: $(cat "$T/f.err")"
	fi
done

e2e_case unknown-view
check_unknown_view "$G" sweep --by gomaxprocs

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
