#!/usr/bin/env bash
# compare_views.sh: every view `compare --help` declares works on any corpus.
# On runs that are not a tool's (one metric per run) --view benchstat and
# --view comparepy fall back to compare's own benchstat and compare.py rows;
# tests/e2e/py/compare_views.py recomputes them from the corpus table
# (medians, means, compare.py's change, the exact Mann-Whitney p by
# enumeration, standard library only).
#
#   bash tests/e2e/compare_views.sh COREPLAN_BINARY REPO_ROOT SHARED_CORPORA_DIR
# lib.sh: e2e_start (BIN, ROOT, SHARED, T, TIMEOUT), cpl, expect_rc, py_file, cases
source "$(dirname "$0")/lib.sh"
e2e_start compare-views "$@"

views_case() { # NAME TABLE METRIC ARM_A ARM_B [WHERE F=V...]
	local name=$1 table=$2 metric=$3 a=$4 b=$5 view w
	local -a where=()
	shift 5
	for w in "$@"; do where+=(--where "$w"); done
	e2e_case "$name" setup || return 0
	for view in benchstat comparepy; do
		cpl compare --a "$a" --b "$b" --metric "$metric" --view "$view" --format json "${where[@]}"
		expect_rc "$name: --view $view exits 0 on runs that are not a tool's" 0
		py_file "$name: --view $view: benchstat and compare.py rows recomputed from $(basename "$table")" \
			compare_views.py "$table" "$metric" "$a" "$b" "$@"
	done
}

e2e_case setup
DB=$T/aff.db
cpl import -q "$SHARED/writeups/gomaxprocs-affinity/runs.tsv"
expect_rc "import the affinity table" 0
views_case affinity "$SHARED/writeups/gomaxprocs-affinity/runs.tsv" tput \
	'arm=shard procs=1' 'arm=shard procs=8'
DB=$T/gmp.db
cpl import -q "$SHARED/sky/gomaxprocs-scaling-20260816"
expect_rc "import the GOMAXPROCS corpus" 0
views_case gmp "$SHARED/sky/gomaxprocs-scaling-20260816/results.tsv" tput \
	'gomaxprocs=1 gogc=default' 'gomaxprocs=2 gogc=default' sessions=100 variant=plain

echo "# $PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
