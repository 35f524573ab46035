#!/usr/bin/env bash
# End-to-end tests of the wrk importer (importers/tool_wrk.c): a folder of
# wrk 4.1 outputs, one file per run, is a corpus.
#
#   bash tests/e2e/tools_wrk.sh COREPLAN_BINARY REPO_ROOT SHARED_CORPORA_DIR
#
# Real output: when wrk is installed, starts python3 -m http.server on a
# free port of 127.0.0.1 serving a temp folder, runs
# `wrk -t1 -cC -d1s --latency` at C = 1, 4, 8, twice each, into a folder
# (one file per run) and imports it; also the committed sample
# fixtures/tools/wrk (made the same way by wrk 4.1.0, Debian 4.1.0-3).
# On both: 6 runs with connections/wrk_threads read from the files' own
# header lines; `sweep --by connections --metric requests_per_s` gives per
# level n = 2 and the median of the two Requests/sec figures awk reads from
# the files; `noise --by connections` runs and reports the same per-level
# medians; `compare --a connections=1 --b connections=8` reports the arms'
# medians awk computes. A single file imports with --format wrk.
# Prints "ok - NAME" / "not ok - NAME: DETAILS" per check, then
# "N passed, M failed"; exits 1 if any check failed.

E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
source "$E2E_DIR/lib.sh"
e2e_start --cd wrk "$@"
SAMPLE=$ROOT/fixtures/tools/wrk
SERVER_PID=""
e2e_cleanup() { [ -z "$SERVER_PID" ] || kill "$SERVER_PID" 2>/dev/null; }
DB=$T/w.db

# awk_median DIR CONNS: the median of the Requests/sec figures of DIR's
# files whose "T threads and C connections" line says CONNS (read by awk
# from wrk's own text, independently of the importer).
awk_rps() { # DIR CONNS: one Requests/sec value per file
	local f
	for f in "$1"/*; do
		awk -v c="$2" '/ threads and .* connections$/ { conns = $4 }
			/^Requests\/sec:/ { rps = $2 }
			END { if (conns == c) print rps }' "$f"
	done
}
awk_median() {
	awk_rps "$1" "$2" | sort -g | awk '{ v[NR] = $1 } END {
		if (NR % 2) printf "%.6f\n", v[(NR + 1) / 2]; else printf "%.6f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
num6() { awk -v x="$1" 'BEGIN { printf "%.6f\n", x }'; }

# check_median NAME DIR CONNS KEYCOL KEY: the median of the row of $T/.out
# whose KEYCOL is KEY equals awk_median DIR CONNS (6 decimals; the check
# "NAME (VALUE)")
check_median() {
	local want
	want=$(awk_median "$2" "$3")
	check_eq "$1 ($want)" "$want" "$(num6 "$(tsvget "$4" "$5" median)")" "$OUT"
}
# check_corpus NAME DIR CORPUS: the checks every wrk folder gets
check_corpus() {
	local name=$1 dir=$2 corpus=$3 c
	cpl runs --corpus "$corpus" --format tsv
	expect_rc "$name: runs" 0
	check_eq "$name: 6 runs, one per file" 6 "$(($(wc -l <"$T/.out") - 1))"
	cpl sweep --corpus "$corpus" --by connections --metric requests_per_s --format tsv
	expect_rc "$name: sweep --by connections --metric requests_per_s" 0
	for c in 1 4 8; do
		check_eq "$name: sweep level $c has 2 runs" 2 "$(tsvget level "$c" n)" "$OUT"
		check_median "$name: sweep level $c median = awk's median of Requests/sec" "$dir" "$c" level "$c"
	done
	cpl noise --corpus "$corpus" --by connections --metric requests_per_s --format tsv
	expect_rc "$name: noise --by connections" 0
	for c in 1 8; do
		check_median "$name: noise level $c median = awk's" "$dir" "$c" level "$c"
	done
	cpl compare --corpus "$corpus" --metric requests_per_s --a connections=1 \
		--b connections=8 --view arms --format tsv
	expect_rc "$name: compare connections=1 vs 8" 0
	check_median "$name: compare arm a median = awk's" "$dir" 1 arm a
	check_median "$name: compare arm b median = awk's" "$dir" 8 arm b
}

###########################################################################
echo "# committed sample fixtures/tools/wrk"
###########################################################################
e2e_case sample
cp -R "$SAMPLE" "$T/wrk-sample" && chmod -R u+w "$T/wrk-sample"
cpl import -q "$T/wrk-sample"
expect_rc "sample: import of the folder (detected as wrk)" 0
check_corpus sample "$T/wrk-sample" wrk-sample

###########################################################################
echo "# real wrk output against a local server"
###########################################################################
e2e_case real
if e2e_skipping; then
	: # wrk runs only for this case
elif ! command -v wrk >/dev/null || ! command -v python3 >/dev/null; then
	skip "real: wrk runs" "wrk or python3 is not installed"
else
	mkdir -p "$T/www" "$T/wrk-real"
	echo hello >"$T/www/index.html"
	PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	python3 -m http.server "$PORT" --bind 127.0.0.1 --directory "$T/www" >/dev/null 2>&1 &
	SERVER_PID=$!
	up=0
	for _ in $(seq 50); do
		if python3 -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), 1)' "$PORT" 2>/dev/null; then
			up=1
			break
		fi
		sleep 0.1
	done
	if [ "$up" = 0 ]; then
		not_ok "real: the local HTTP server did not start on port $PORT"
	else
		for c in 1 4 8; do
			for r in 1 2; do
				wrk -t1 -c"$c" -d1s --latency "http://127.0.0.1:$PORT/" \
					>"$T/wrk-real/c$c-run$r.txt" 2>"$T/.wrkerr" ||
					not_ok "real: wrk -c$c run $r" "$(cat "$T/.wrkerr")"
			done
		done
		kill "$SERVER_PID" 2>/dev/null
		wait "$SERVER_PID" 2>/dev/null
		SERVER_PID=""
		cpl import -q "$T/wrk-real"
		expect_rc "real: import of wrk's output folder" 0
		check_corpus real "$T/wrk-real" wrk-real
		# the p99 latency of one run, from its Latency Distribution line
		want=$(awk '$1 == "99%" { v = $2; u = v; sub(/[a-z]+$/, "", v); sub(/^[0-9.]+/, "", u);
			f = (u == "us") ? 0.001 : (u == "ms") ? 1 : (u == "s") ? 1000 : -1;
			printf "%.6f\n", v * f }' "$T/wrk-real/c4-run1.txt")
		cpl sweep --corpus wrk-real --where file=c4-run1.txt --by connections \
			--metric latency_p99_ms --format tsv
		got=$(num6 "$(tsvget level 4 median)")
		check_eq "real: c4-run1 latency_p99_ms = awk's 99% line ($want ms)" "$want" "$got" "$OUT"
	fi
fi

###########################################################################
echo "# runs wrk reported errors for are kept with their counts"
###########################################################################
e2e_case errors
# fixtures/tools/wrk-errors: real wrk 4.1 runs, c8-404.txt against a missing
# page (Non-2xx or 3xx responses: 598), c2-closed.txt against a responder
# closing every connection (Socket errors: ... read 18806 ..., 0 requests)
cp -R "$ROOT/fixtures/tools/wrk-errors" "$T/wrk-errors" && chmod -R u+w "$T/wrk-errors"
cpl import -q "$T/wrk-errors"
expect_rc "errors: import (nothing refused for wrk's error counts)" 0
want=$(awk '/Non-2xx or 3xx responses:/ { print $5 }' "$T/wrk-errors/c8-404.txt")
cpl sweep --corpus wrk-errors --where file=c8-404.txt --by connections --metric non_2xx_errors_count --format tsv
check_eq "errors: non_2xx_errors_count = wrk's Non-2xx line ($want)" "$want" "$(tsvget level 8 median)" "$OUT$ERR"
want=$(awk '/Socket errors:/ { sub(/,/, "", $6); print $6 }' "$T/wrk-errors/c2-closed.txt")
cpl sweep --corpus wrk-errors --where file=c2-closed.txt --by connections --metric socket_read_errors_count --format tsv
check_eq "errors: socket_read_errors_count = wrk's Socket errors line ($want)" "$want" "$(tsvget level 2 median)" "$OUT$ERR"
# a sample folder with the 404 run added: the runs differ in url, so a sweep
# refuses to pool them; --where non_2xx_errors_count=0 keeps the clean runs
cp -R "$T/wrk-sample" "$T/wrk-mixed" && cp "$T/wrk-errors/c8-404.txt" "$T/wrk-mixed/"
cpl import -q "$T/wrk-mixed"
expect_rc "errors: import of the sample plus the 404 run" 0
cpl sweep --corpus wrk-mixed --by connections --metric requests_per_s --format tsv
expect_rc "errors: sweep over clean and 404 runs refuses to pool their urls" 2
check_contains "errors: the refusal names url" "$ERR" "url"
cpl sweep --corpus wrk-mixed --by connections --metric requests_per_s --where non_2xx_errors_count=0 --format tsv
expect_rc "errors: sweep --where non_2xx_errors_count=0" 0
check_eq "errors: level 8 keeps the 2 clean runs" 2 "$(tsvget level 8 n)" "$OUT"
check_eq "errors: level 8 median = awk's over the clean files" "$(awk_median "$T/wrk-sample" 8)" "$(num6 "$(tsvget level 8 median)")" "$OUT"

###########################################################################
echo "# one file with --format wrk"
###########################################################################
e2e_case single-file
cp "$SAMPLE/c4-run1.txt" "$T/one.out"
cpl import -q --format wrk "$T/one.out"
expect_rc "single file: import --format wrk" 0
cpl runs --corpus one --format tsv
check_eq "single file: one run" 1 "$(($(wc -l <"$T/.out") - 1))"

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
