#!/usr/bin/env bash
# Run every libFuzzer target for a given time, two at a time (this machine
# has 2 cores), seeded from tests/fuzz/corpus/<target>/; new interesting
# inputs go to a scratch corpus, crashes to bench/fuzz-out/<target>/.
#   bash bench/fuzz.sh [SECONDS per target, default 600] [targets...]
# Needs clang (libFuzzer): apt-get install clang. Prints, per target, the
# executions, their rate and whether a crash was found. A crash input must
# be copied into tests/fuzz/corpus/<target>/ once fixed, so it replays in CI.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(table trace genrec banner manifest catalog lscpu wrk)
build=build-fuzz
CC=clang cmake -S . -B "$build" -DCOREPLAN_FUZZ=ON -DCOREPLAN_TESTS=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build" -j2 >/dev/null
out=bench/fuzz-out
mkdir -p "$out"
run_one() {
	local t=$1 work="$out/$t"
	rm -rf "$work"
	mkdir -p "$work/corpus" "$work/crashes"
	( cd "$work" && nice -n 19 "../../../$build/tests/fuzz/fuzz_$t" -max_total_time="$seconds" -rss_limit_mb=1024 \
		-max_len=65536 -timeout=10 -artifact_prefix=crashes/ -print_final_stats=1 \
		corpus "../../../tests/fuzz/corpus/$t" >log.txt 2>&1 ) || true
	local execs rate
	execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$work/log.txt" | grep -o '[0-9]*$' || echo '?')
	rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$work/log.txt" | grep -o '[0-9]*$' || echo '?')
	if ls "$work/crashes" | grep -q .; then
		echo "$t: $execs executions ($rate/s) in ${seconds}s: CRASH: $(ls "$work/crashes" | head -3 | tr '\n' ' ')"
	else
		echo "$t: $execs executions ($rate/s) in ${seconds}s: no crash"
	fi
}
i=0
for t in "${targets[@]}"; do
	run_one "$t" &
	i=$((i + 1))
	if [ $((i % 2)) -eq 0 ]; then wait; fi
done
wait
