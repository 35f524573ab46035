#!/usr/bin/env bash
# The report reaches the conclusions the seeds reach (issue 26).
#
#   bash tests/e2e/conclusions.sh COREPLAN_BINARY REPO_ROOT SHARED_CORPORA_DIR
#
# Each real corpus (sky/*/ folders, writeups/*/*.tsv tables) is imported
# alone into a fresh database with default options and reported with
# default options, as a new user would; the capacity corpus also with the
# mandate's target (--target 1000 --sessions 300-500) and the affinity table
# also tied to its lscpu.txt. tests/e2e/conclusions_check.py recomputes each
# conclusion from the corpus files (python's statistics module, FORMATS.md's
# window rule over the samples), checks the Findings state it to the seed's
# rounding, and names the seed sentence. fixtures/null (nothing saturates,
# no lever moves anything, no errors) must claim no binder, lever or knee.
E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# ok, not_ok, e2e_start (BIN, ROOT, SHARED, T)
source "$E2E_DIR/lib.sh"
e2e_start --cd conclusions "$@"

# case NAME PATH [IMPORT ARGS...] -- [REPORT ARGS...]: a fresh database, report as json
report_case() {
	local name=$1 path=$2
	shift 2
	local imp=() rep=() seen=0
	for a in "$@"; do
		if [ "$a" == "--" ]; then seen=1; elif [ $seen -eq 0 ]; then imp+=("$a"); else rep+=("$a"); fi
	done
	if ! "$BIN" --db "$T/$name.db" import -q "${imp[@]}" "$path" >/dev/null 2>"$T/$name.err"; then
		not_ok "$name: import and report exit 0" "$(cat "$T/$name.err")"
		return
	fi
	report_json "$name: import and report exit 0" "$T/$name.db" "$T/$name" ${rep[@]+"${rep[@]}"}
}
# check_case CASE NAME: the checker's lines for report NAME
check_case() {
	local line
	while IFS= read -r line; do
		case $line in
		"ok - "*) ok "${line#ok - }" ;;
		"not ok - "*) not_ok "${line#not ok - }" ;;
		*) [ -n "$line" ] && not_ok "$1 checker" "$line" ;;
		esac
	done < <("$PY" "$E2E_DIR/conclusions_check.py" "$1" "$SHARED" "$T/$2.json" 2>&1)
}

report_case gmp "$SHARED/sky/gomaxprocs-scaling-20260816"
check_case gmp gmp
report_case capacity "$SHARED/sky/gcp-x86-capacity-20260816"
check_case capacity capacity
"$BIN" --db "$T/cap-target.db" import -q "$SHARED/sky/gcp-x86-capacity-20260816" >/dev/null 2>&1
report_json "capacity with the mandate's target: report exits 0" "$T/cap-target.db" "$T/cap-target" \
	--target 1000 --sessions 300-500
check_case capacity_target cap-target
report_case affinity "$SHARED/writeups/gomaxprocs-affinity/runs.tsv"
check_case affinity_alone affinity
"$BIN" --db "$T/affinity-tied.db" topology --from "$SHARED/writeups/gomaxprocs-affinity/lscpu.txt" \
	--host epyc >/dev/null 2>&1 || not_ok "topology --from lscpu.txt" "exit $?"
report_case affinity-tied "$SHARED/writeups/gomaxprocs-affinity/runs.tsv" --host epyc
check_case affinity_tied affinity-tied
report_case emitter "$SHARED/writeups/emitter-lock/scaling.tsv"
check_case emitter_lock emitter
report_case yip "$SHARED/writeups/yip-sharding/level1.tsv"
check_case yip yip
report_case null "$ROOT/fixtures/null/runs.tsv"
check_case null null

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
