#!/usr/bin/env bash
# End-to-end tests of the hyperfine importer (importers/tool_hyperfine.c).
#
#   bash tests/e2e/tools_hyperfine.sh COREPLAN_BINARY REPO_ROOT SHARED_CORPORA_DIR
#
# In a mktemp -d folder (removed on exit):
#   - real output: `hyperfine --parameter-scan threads 1 4 --runs 6
#     --export-json` of `sleep 0.0{threads}` (skipped with a 'skip' line when
#     hyperfine is not installed), imported by content detection: one run per
#     timing, `sweep --by threads --metric time_s` medians per level equal to
#     python3's statistics.median of each result's `times`, `noise` (level
#     medians and range_pct, (max - min) / median * 100, from python3) and
#     `compare --a threads=1 --b threads=4` (arm medians from python3 too,
#     and b is slower: a time, lower is better);
#   - a failing command timed with -i: its runs are excluded (exit code 1);
#   - the committed sample fixtures/tools/hyperfine/sleep_threads.json,
#     imported with --format hyperfine: the same checks against python3.
# Prints "ok - NAME" / "not ok - NAME: DETAILS" per check, then
# "N passed, M failed"; exits 1 if any check failed.

E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
. "$E2E_DIR/lib.sh"
e2e_start hyperfine "$@"
SAMPLE=$ROOT/fixtures/tools/hyperfine/sleep_threads.json
e2e_timeout 120

# per-level medians of a hyperfine file, "level median" lines (python3 reads the JSON)
py_medians() { # FILE PARAM
	"$PY" "$E2E_PY_DIR/tools_hyperfine_medians.py" "$1" "$2"
}
py_range() { # FILE PARAM: "level range_pct" per result
	"$PY" "$E2E_PY_DIR/tools_hyperfine_range.py" "$1" "$2"
}
# tsvpairs, same_numbers, check_noise_levels, check_compare_arms: lib.sh

# checks FILE CORPUS [IMPORT-OPTIONS...]: import, sweep, noise, compare
checks() {
	local file=$1 corpus=$2
	shift 2
	check_import_runs "$corpus" "$file" \
		"$("$PY" -c 'import json, sys; print(sum(len(r["times"]) for r in json.load(open(sys.argv[1]))["results"]))' "$file")" \
		"one run per timing" "$@"
	cpl sweep --corpus "$corpus" --by threads --metric time_s --format tsv
	expect_rc "$corpus: sweep --by threads" 0
	same_numbers "$corpus: sweep medians = python3 statistics.median of times" \
		"$(py_medians "$file" threads)" "$(tsvpairs level median)"
	check_eq "$corpus: a time: speedup at 4 below 1 (sleep grows with threads)" 1 \
		"$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "speedup") s = i; next } $1 == 4 { print ($s < 1) }' "$T/.out")"
	check_noise_levels "$corpus" threads time_s "$(py_medians "$file" threads)" "$(py_range "$file" threads)"
	check_compare_arms "$corpus" time_s threads=1 threads=4 \
		"$(py_medians "$file" threads | awk '$1 == 1 { print "a", $2 } $1 == 4 { print "b", $2 }')"
	check_eq "$corpus: compare verdict (b sleeps 4x longer)" slower "$(tsvget arm b verdict)"
}

# real: a hyperfine parameter scan and a failing command run here (only in this case)
real_output() {
	(cd "$T" && hyperfine --style none --parameter-scan threads 1 4 --runs 6 \
		--export-json "$T/scan.json" 'sleep 0.0{threads}' >/dev/null 2>"$T/hf.err")
	if [ -s "$T/scan.json" ]; then
		checks "$T/scan.json" real
		cpl runs --corpus real --format tsv --fields
		# a failing command: hyperfine -i records exit code 1 per run
		(cd "$T" && hyperfine --style none -i --runs 2 --export-json "$T/fail.json" 'false' >/dev/null 2>&1)
		DB=$T/fail.db
		cpl import -q "$T/fail.json"
		expect_rc "failing command: import" 0
		cpl runs --excluded --format tsv
		check_eq "failing command: both runs excluded" 2 "$(($(wc -l <"$T/.out") - 1))"
	else
		not_ok "hyperfine output" "$(cat "$T/hf.err")"
	fi
}
if e2e_case real; then
	run_or_skip real_output "real hyperfine output" "hyperfine is not installed" command -v hyperfine
fi
e2e_case sample
checks "$SAMPLE" sample --format hyperfine

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
