#!/usr/bin/env bash
# End-to-end tests of `coreplan topology`, `coreplan smt` and `coreplan
# translate`: physical cores, what SMT threads are worth, and carrying
# figures from one CPU to another.
#
#   bash tests/e2e/physical.sh COREPLAN_BINARY REPO_ROOT SHARED_CORPORA_DIR
#
# In a mktemp -d folder (removed on exit) it checks: `topology` on this
# machine against nproc and the distinct (physical_package_id, core_id)
# pairs of /sys/devices/system/cpu (counted here in bash) and against this
# machine's `lscpu -p`; `topology --from` on the affinity write-up's
# lscpu.txt (8 logical, 4 physical, 2 per core) and on bad input; `smt` on
# SHARED/writeups/gomaxprocs-affinity imported with
# REPO_ROOT/fixtures/manifests/gomaxprocs-affinity.manifest, against the
# figures of seed 000 (0.70, 1.27, 1.17, ~5.07, 4.92) and python3 medians
# of runs.tsv; `smt` without a host (usage, exit 2); a cpuset naming a CPU
# twice (the same set) or a CPU the host lacks (an error naming the run);
# `translate` M1 -> x86 on SHARED/sky/gcp-x86-capacity-20260816, one factor
# per kind, against seed 001 (2.96x, x86 uses 15-19% less memory) and
# python3 medians and means of m1/m1.tsv and core/results.tsv (cpu_time with
# m1's 51 s cpu_s bounded to the 45 s window, FORMATS.md); `translate
# --apply` (each figure with its own kind's factor, the kinds from the
# units and names), `--check subcorpus=core` against core/results.tsv's
# medians, `--apply-medians`, and the refusals (the view applied); JSON output parsed with
# python3: rows and the facts (smt's figures and bounds, translate's
# factors, intervals and mixed-statistics bounds, against python3; topology
# --show reads a database it never creates); doc_check.py on topology
# --show, smt and translate (every number the Markdown shows is a JSON
# number; tsv = JSON).
#
# Prints "ok - NAME" / "not ok - NAME: DETAILS" per check, then the line
# "N passed, M failed"; exits 1 if any check failed.

E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd) # before any cd
# shared helpers: e2e_start (BIN, ROOT, SHARED, the corpora's paths, T, DB,
# TIMEOUT), ok, not_ok, check_eq, check_contains, cpl, tsvget, tsvget2,
# round, expect_rc, py_file
source "$E2E_DIR/lib.sh"
e2e_start --cd --need python3 physical "$@"
SYSCPU=/sys/devices/system/cpu

# TSV reader (plain split: the corpora have no quoting) and a closeness test.
# (PYLIB: tests/e2e/py/physical_lib.py)

###########################################################################
# topology on this machine
###########################################################################
echo "# topology: this machine"
e2e_case topology-here
cpl topology --host here --format tsv
expect_rc "topology (probe this machine) exits 0" 0
NPROC=$(nproc)
check_cell "topology: logical_cpus = nproc ($NPROC)" "$NPROC" host here logical_cpus
# distinct (physical_package_id, core_id) pairs of the online CPUs
PAIRS=$(for d in "$SYSCPU"/cpu[0-9]*; do
	[ -r "$d/topology/core_id" ] || continue
	echo "$(cat "$d/topology/physical_package_id") $(cat "$d/topology/core_id")"
done | sort -u | wc -l)
check_eq "topology: physical_cores = distinct (package, core) pairs in $SYSCPU ($PAIRS)" \
	"$PAIRS" "$(tsvget host here physical_cores)"
check_cell "topology: source sysfs" "sysfs" host here source
HERE_LOGICAL=$(tsvget host here logical_cpus)
HERE_PHYSICAL=$(tsvget host here physical_cores)
HERE_PER_CORE=$(tsvget host here threads_per_core)
if [ -n "$HERE_LOGICAL" ] && [ -n "$HERE_PHYSICAL" ] && [ -n "$HERE_PER_CORE" ] &&
	[ $((HERE_PHYSICAL * HERE_PER_CORE)) -ge "$HERE_LOGICAL" ] && [ "$HERE_PHYSICAL" -le "$HERE_LOGICAL" ]; then
	ok "topology: physical_cores <= logical_cpus <= physical_cores x threads_per_core"
else
	not_ok "topology: physical_cores <= logical_cpus <= physical_cores x threads_per_core" "$OUT"
fi
cpl topology --format tsv
expect_rc "topology without --host exits 0" 0
check_eq "topology: the default host name is this machine's name" "$(hostname)" \
	"$(awk -F'\t' 'NR == 2 { print $1 }' "$T/.out")"

if command -v lscpu >/dev/null && lscpu -p >"$T/lscpu-here.txt" 2>/dev/null; then
	cpl topology --from "$T/lscpu-here.txt" --host here-lscpu --format tsv
	expect_rc "topology --from this machine's lscpu -p exits 0" 0
	check_eq "topology: this machine's lscpu -p gives the probe's logical CPUs" "$HERE_LOGICAL" \
		"$(tsvget host here-lscpu logical_cpus)"
	check_eq "topology: this machine's lscpu -p gives the probe's physical cores" "$HERE_PHYSICAL" \
		"$(tsvget host here-lscpu physical_cores)"
else
	echo "# lscpu not available: skipping the lscpu -p comparison"
fi

###########################################################################
# topology --from the affinity host's lscpu -p
###########################################################################
echo "# topology: the affinity write-up's host"
e2e_case topology-affinity topology-here
cpl topology --from "$AFF/lscpu.txt" --host epyc --format tsv
expect_rc "topology --from lscpu.txt --host epyc exits 0" 0
check_cell "topology epyc: 8 logical CPUs" "8" host epyc logical_cpus
check_cell "topology epyc: 4 physical cores" "4" host epyc physical_cores
check_cell "topology epyc: 2 threads per core" "2" host epyc threads_per_core
check_cell "topology epyc: 1 socket" "1" host epyc sockets
check_cell "topology epyc: siblings 0/4 1/5 2/6 3/7" "0,4 1,5 2,6 3,7" host epyc cores
check_cell "topology epyc: source lscpu -p" "lscpu -p" host epyc source

cpl topology --show --format json
expect_rc "topology --show --format json exits 0" 0
py_file "topology --show --format json parses: epyc and here" physical_topology_show_format_parses_epyc.py
# the lscpu.txt counted here: CPU lines, distinct (socket, core) pairs, each core's CPUs
py_file "topology --show --format json: epyc's counts and cores list match python3 on lscpu.txt" physical_topology_show_format_epyc_s.py "$AFF/lscpu.txt"

cpl topology --show --host epyc
expect_rc "topology --show --host epyc exits 0" 0
check_contains "topology --show --host epyc: the md table names epyc" "$OUT" "| epyc "

printf '0,4\n1,5\n4,5\n' >"$T/bad-siblings.txt"
cpl topology --from "$T/bad-siblings.txt" --host bad
expect_rc "topology --from a CPU in two sibling sets exits 1" 1
check_contains "topology: the sibling-set error names file:line" "$ERR" "bad-siblings.txt:3:"
printf '# CPU,Core,Socket,Node\n0,0,0,0\n1,x,0,0\n' >"$T/bad-lscpu.txt"
cpl topology --from "$T/bad-lscpu.txt" --host bad
expect_rc "topology --from a non-number exits 1" 1
check_contains "topology: the non-number error names file:line:col" "$ERR" "bad-lscpu.txt:3:2:"
cpl topology --show --host bad
expect_rc "topology: a failed --from stores nothing (--show --host bad exits 1)" 1
cpl topology --show --from "$AFF/lscpu.txt"
expect_rc "topology --show --from is a usage error (exit 2)" 2
# --show only reads: a missing database is an error, not created; a recording creates it
DB_MAIN=$DB
DB=$T/none.db
cpl topology --show
expect_rc "topology --show on a missing database exits 1" 1
if [ -e "$T/none.db" ]; then
	not_ok "topology --show does not create the database" "$T/none.db exists"
else
	ok "topology --show does not create the database"
fi
cpl topology --from "$AFF/lscpu.txt" --format json
expect_rc "topology --from without --host (database created) exits 0" 0
check_eq "topology --from without --host: the host is the file's base name; facts action, hosts" \
	"lscpu recorded 1" \
	"$(jget 'd["sections"]["hosts"]["rows"][0]["host"], d["facts"]["action"]["value"], d["facts"]["hosts"]["value"]' | tr -d "(),'")"
DB=$DB_MAIN

###########################################################################
# smt on the affinity write-up
###########################################################################
echo "# smt"
e2e_case smt topology-affinity
cpl import -q "$AFF" --manifest "$AFF_MANIFEST"
expect_rc "import gomaxprocs-affinity with its manifest" 0
cpl smt --corpus gomaxprocs-affinity --format tsv
expect_rc "smt --corpus gomaxprocs-affinity --format tsv exits 0" 0
cp "$T/.out" "$T/smt.tsv"
# figure | seed value (rounded as the seed rounds it) | places | num_n | den_n
while IFS='|' read -r fig want places num_n den_n; do
	v=$(tsvget figure "$fig" value)
	check_eq "smt $fig rounds to $want" "$want" "$(round "${v:-nan}" "$places")" "value '$v'"
	check_eq "smt $fig: numerator n = $num_n, denominator n = $den_n" "$num_n $den_n" \
		"$(tsvget figure "$fig" num_n) $(tsvget figure "$fig" den_n)"
	nr=$(tsvget figure "$fig" num_runs)
	dr=$(tsvget figure "$fig" den_runs)
	if [ "$(tr ',' '\n' <<<"$nr" | grep -c .)" == "$num_n" ] &&
		[ "$(tr ',' '\n' <<<"$dr" | grep -c .)" == "$den_n" ]; then
		ok "smt $fig: num_runs and den_runs list the runs"
	else
		not_ok "smt $fig: num_runs and den_runs list the runs" "num_runs '$nr' den_runs '$dr'"
	fi
done <<'EOF'
shared_vs_distinct|0.70|2|3|3
smt_factor|1.27|2|3|3
smt_step|1.17|2|6|3
ceiling|5.07|2|3|3
sharded 8x1|4.92|2|3|3
EOF
# the seed's "about 5x" ceiling: 4 physical cores x 1.27
check_cell "smt ceiling is about 5 (4 x 1.27)" "5" figure ceiling value 0
check_contains "smt step: the 8-thread arm includes the shard-1x8 control runs" \
	"$(tsvget figure smt_step num_runs)" "shard-1x8-r1"
check_contains "smt sharded 8x1: note says 97% of the ceiling 5.07" \
	"$(tsvget figure "sharded 8x1" note)" "97% of the ceiling 5.07"

# Each figure against python3 medians of runs.tsv (values and range bounds).
py_file "smt: every figure and its bounds match python3 medians of runs.tsv (1e-9)" physical_smt_every_figure_bounds_python3.py "$AFF/runs.tsv"

cpl smt --corpus gomaxprocs-affinity
expect_rc "smt (md) exits 0" 0
check_contains "smt md: the host line" "$OUT" "host gomaxprocs-affinity: 8 logical CPUs on 4 physical cores (2 per core)"
check_contains "smt md: the smt_factor row states the spreading assumption" "$OUT" "assumed"

cpl smt --corpus gomaxprocs-affinity --format json
expect_rc "smt --format json exits 0" 0
py_file "smt --format json parses: 7 figures, smt_factor 1.2675" physical_smt_format_parses_7_figures.py
# every figure a fact with its bounds (name with _ for spaces), against python3
# medians of runs.tsv; host, counts, runs and the placement assumption
py_file "smt --format json facts: each figure, _lo and _hi match python3 medians of runs.tsv; host, logical_cpus, physical_cores, runs, placement" physical_smt_format_facts_each_figure.py "$AFF/runs.tsv"

cpl smt --corpus gomaxprocs-affinity --host epyc --format tsv
expect_rc "smt --host epyc (the same topology recorded by hand) exits 0" 0
check_eq "smt --host epyc: the same smt_factor" "$(awk -F'\t' '$1 == "smt_factor" { print $2 }' "$T/smt.tsv")" \
	"$(tsvget figure smt_factor value)"

# Without a host: the manifest minus its topology line, in its own database.
grep -v '^topology' "$AFF_MANIFEST" >"$T/nohost.manifest"
DB_MAIN=$DB
DB=$T/nohost.db
cpl import -q --name nohost "$AFF" --manifest "$T/nohost.manifest"
expect_rc "import the affinity corpus without a topology" 0
cpl smt --corpus nohost
expect_rc "smt without a host is a usage error (exit 2)" 2
check_contains "smt without a host: says how to record a topology" "$ERR" "coreplan topology --from FILE --host NAME"
check_contains "smt without a host: says to pass --host" "$ERR" "--host"
cpl smt --corpus nohost --host nosuch
expect_rc "smt --host with an unknown host exits 1" 1
check_contains "smt --host nosuch: names the host" "$ERR" "'nosuch'"
cpl topology --from "$AFF/lscpu.txt" --host epyc
cpl smt --corpus nohost --host epyc --format tsv
expect_rc "smt --corpus nohost --host epyc exits 0" 0
check_eq "smt --host epyc on the corpus without a topology: the same smt_step" \
	"$(awk -F'\t' '$1 == "smt_step" { print $2 }' "$T/smt.tsv")" "$(tsvget figure smt_step value)"

# The affinity corpus with one cpuset edited: a CPU listed twice is the
# same set (0,4,1,5,0 = 0,4,1,5); a CPU the host lacks is an error naming
# the run.
mkdir -p "$T/dup" "$T/off"
cp "$AFF/lscpu.txt" "$T/dup/"
cp "$AFF/lscpu.txt" "$T/off/"
awk -F'\t' 'BEGIN { OFS = "\t" } $1 == "pin-siblings-r2" { $6 = "0,4,1,5,0" } { print }' \
	"$AFF/runs.tsv" >"$T/dup/runs.tsv"
awk -F'\t' 'BEGIN { OFS = "\t" } $1 == "pin-distinct-r3" { $6 = "0,1,2,9" } { print }' \
	"$AFF/runs.tsv" >"$T/off/runs.tsv"
cpl import -q --name dup "$T/dup" --manifest "$AFF_MANIFEST"
expect_rc "import the affinity corpus with pin-siblings-r2 on 0,4,1,5,0" 0
cpl smt --corpus dup --format tsv
expect_rc "smt: a cpuset naming CPU 0 twice (0,4,1,5,0) is read as 0,4,1,5 (exit 0)" 0
check_eq "smt: with 0,4,1,5,0 the smt_factor is unchanged" \
	"$(awk -F'\t' '$1 == "smt_factor" { print $2 }' "$T/smt.tsv")" "$(tsvget figure smt_factor value)"
cpl import -q --name off "$T/off" --manifest "$AFF_MANIFEST"
expect_rc "import the affinity corpus with pin-distinct-r3 on 0,1,2,9" 0
cpl smt --corpus off --format tsv
expect_rc "smt: a cpuset naming CPU 9 on an 8-CPU host exits 1" 1
check_contains "smt: the error names CPU 9" "$ERR" "CPU 9"
check_contains "smt: the error names the run" "$ERR" "pin-distinct-r3"
DB=$DB_MAIN

###########################################################################
# translate: M1 -> x86 on the capacity corpus, one factor per kind
###########################################################################
echo "# translate"
e2e_case translate
cpl import -q "$CAP"
expect_rc "import gcp-x86-capacity-20260816" 0
XL=(translate --from subcorpus=m1 --to subcorpus=core)
cpl "${XL[@]}" --format tsv
expect_rc "translate --from subcorpus=m1 --to subcorpus=core --format tsv exits 0" 0
cp "$T/.out" "$T/translate.tsv"
check_eq "translate: one row per kind, in order" \
	"rate cpu_time idle_memory loaded_memory session_slope latency" \
	"$(awk -F'\t' 'NR > 1 { printf "%s%s", (NR > 2 ? " " : ""), $1 }' "$T/translate.tsv")"
RATE=$(tsvget kind rate factor)
check_eq "translate: the median rate factor rounds to 3.00" "3.00" "$(round "${RATE:-nan}" 2)"

# every kind's factor from the files: m1.tsv and core/results.tsv (python3 medians and means);
# cpu_time: m1's cpu_s spans 3 + 3 + 45 = 51 s (FORMATS.md), its window's CPU lies between
# cpu_s x 45/51 and cpu_s, the run's value their midpoint; core's cpu_s_win is the window's
py_file "translate: every kind's factor, mean factor, range (and cpu_time's ends) match python3 (1e-9)" physical_translate_every_kind_s_factor.py "$CAP"
check_contains "translate: cpu_time states how the windows were matched" \
	"$(tsvget kind cpu_time method)" \
	"windows mismatched, carried into the interval: apple-m1: cpu_s spans ramp 3 s + warm-up 3 s + window 45 s = 51 s, so its CPU per counted interaction lies between cpu_s x 45/51 (the window's share) and all of cpu_s; gce-e2: cpu_s covers the counted window"
check_contains "translate: cpu_time in words gives both ends" "$(tsvget kind cpu_time in_words)" \
	"gce-e2 needs 2.97x the CPU time per operation of apple-m1 (2.79x to 3.16x as the windows are bounded)"
check_contains "translate: the slope says why it is not measured" "$(tsvget kind session_slope in_words)" \
	"not measured: apple-m1's runs have one session count (25): no per-session slope"
check_contains "translate: latency says why it may be translated" "$(tsvget kind latency method)" \
	"both arms closed-loop (think time 0) at 25 sessions, the app CPU-saturated"
check_eq "translate: the latency factor is 103.254 / 30.021 (4 decimals)" \
	"$(awk 'BEGIN { printf "%.4f", 103.254 / 30.021 }')" "$(round "$(tsvget kind latency factor)" 4)"

py_file "translate: memory says x86 uses less than M1, 15-19% (rounded), idle 18.4 and loaded 14.8" physical_translate_memory_says_x86_uses.py "$T/translate.tsv"

cpl "${XL[@]}"
expect_rc "translate (md) exits 0" 0
check_contains "translate md: the rate row names its kind and status" "$OUT" "| rate          | measured "
check_contains "translate md: the slope row is not measured" "$OUT" "| session_slope | not measured "
MIXED=$(sed -n 's/.*between \([0-9.]*\) (mean(from) \/ median(to)) and \([0-9.]*\) (median(from) \/ mean(to)).*/\1 \2/p' <<<"$OUT")
if [ -n "$MIXED" ] && awk -v lo="${MIXED% *}" -v hi="${MIXED#* }" 'BEGIN { exit !(lo < 2.96 && 2.96 < hi) }'; then
	ok "translate md: the mixed-statistics range ($MIXED) contains the seed's 2.96"
else
	not_ok "translate md: the mixed-statistics range contains the seed's 2.96" "range '$MIXED' in:"$'\n'"$OUT"
fi

cpl "${XL[@]}" --format json
expect_rc "translate --format json exits 0" 0
py_file "translate --format json facts: each kind's factor and interval (the table's), mixed bounds, arms" physical_translate_format_facts_each_kind.py "$CAP"

cpl "${XL[@]}" --seed 7 --format tsv
cp "$T/.out" "$T/seed7a.tsv"
cpl "${XL[@]}" --seed 7 --format tsv
if cmp -s "$T/.out" "$T/seed7a.tsv"; then
	ok "translate --seed 7 twice: the same intervals"
else
	not_ok "translate --seed 7 twice: the same intervals" "$(diff "$T/seed7a.tsv" "$T/.out")"
fi

###########################################################################
# translate --apply and --check
###########################################################################
echo "# translate --apply"
e2e_case translate-apply translate
# the capacity write-up's M1 figures (seed 001), plus rates of other units
printf 'name\tvalue\tunit\nthroughput\t897\tint/s\ncpu per interaction\t1199\t\xc2\xb5s\nidle rss\t34752\tkB\nloaded rss\t63328\tkB\nper-session slope\t585\tkB/session\np50 latency\t30\tms\npeak\t1200\tqps\nnet\t1.2\tGbps\ndisk\t50\tMB/s\n' \
	>"$T/figures.tsv"
cpl "${XL[@]}" --apply "$T/figures.tsv" --check subcorpus=core --format tsv --view applied
expect_rc "translate --apply figures.tsv --check subcorpus=core --view applied exits 0" 0
cp "$T/.out" "$T/applied.tsv"
check_eq "apply: one row per figure" "9" "$(($(wc -l <"$T/applied.tsv") - 1))"
py_file "apply: each figure with its own kind's factor and interval (rates divided, the rest multiplied)" physical_apply_each_figure_own_kind.py "$T/translate.tsv"
# the corpus's x86 figures (core/results.tsv medians: ips 299.3, cpu_ms_per_int 3.3470,
# rss_idle_kb 28272, rss_load_med_kb 53956, p50_ms 103.254) inside each translated interval
py_file "apply: the x86 medians of core/results.tsv lie inside the translations of the M1 figures" physical_apply_x86_medians_core_results.py "$CAP"
check_eq "apply: 30 ms p50 becomes 30 x 3.4394 = 103.18 ms (the latency factor, not the rate's 89.9)" \
	"103.18" "$(round "$(tsvget name "p50 latency" translated)" 2)"

cpl "${XL[@]}" --apply "$T/figures.tsv" --check subcorpus=core --format json
expect_rc "apply --check --format json exits 0" 0
py_file "apply --check --format json: 5 inside, 0 outside, the check runs are the to-arm's (note)" physical_apply_check_format_5_inside.py

cpl "${XL[@]}" --apply-medians --check subcorpus=core --format tsv --view applied
expect_rc "translate --apply-medians --check exits 0" 0
check_eq "apply-medians: the M1 medians of rate, cpu_time, idle, loaded and latency" \
	"rate cpu_time idle_memory loaded_memory latency" \
	"$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "kind") k = i; next } { printf "%s%s", (NR > 2 ? " " : ""), $k }' "$T/.out")"
check_eq "apply-medians: the M1 median rate 897.08 int/s becomes the x86 median 299.3" "299.300" \
	"$(round "$(tsvget kind rate translated)" 3)"

printf 'value,unit,kind\n100,int/s,\n20,ms,latency\n' >"$T/figures.csv"
cpl "${XL[@]}" --apply "$T/figures.csv" --format tsv --view applied
expect_rc "apply: a CSV without a name column, with a kind column, exits 0" 0
check_eq "apply: 100 int/s from the CSV" "$(awk -v f="$RATE" 'BEGIN { printf "%.6f", 100 / f }')" \
	"$(round "$(tsvget kind rate translated)" 6)"
check_cell "apply: the kind column decides (20 ms as latency)" "kind column" kind latency kind_from

# refusals: file:line:col, nothing on stdout
refuse() { # NAME CONTENT WHERE MESSAGE
	printf "$2" >"$T/refuse.tsv"
	cpl "${XL[@]}" --apply "$T/refuse.tsv" --format tsv --view applied
	expect_rc "apply: $1 exits 1" 1
	check_contains "apply: $1 is named at its place" "$ERR" "refuse.tsv:$3: $4"
	check_eq "apply: nothing on stdout after $1" "" "$OUT"
}
refuse "an unknown unit" 'name\tvalue\tunit\nok\t10\tint/s\nlength\t3\tfurlongs\n' 3:3 \
	"unknown unit 'furlongs' (known: rates int/s"
check_contains "apply: the unknown unit's message lists the memory per session units" "$ERR" "kB/session"
refuse "a value that is not a number" 'name\tvalue\tunit\nx\tmany\tms\n' 2:2 "'many' is not a finite number"
refuse "an infinite value" 'name\tvalue\tunit\nx\tinf\tms\n' 2:2 "'inf' is not a finite number"
refuse "a negative rate" 'name\tvalue\tunit\nx\t-3\tint/s\n' 2:2 "'-3' is negative: a rate figure cannot be below 0"
refuse "a value translated out of range" 'name\tvalue\tunit\nx\t1e308\tms\n' 2:2 \
	"'1e308' ms translates to a value out of range"
refuse "a kind that does not fit its unit" 'name\tvalue\tunit\tkind\nx\t3\tkB\tlatency\n' 2:4 \
	"kind 'latency' needs a time"

printf 'name\tamount\nx\t3\n' >"$T/no-unit.tsv"
cpl "${XL[@]}" --apply "$T/no-unit.tsv"
expect_rc "apply: a table without value and unit columns exits 1" 1
check_contains "apply: says which columns it needs" "$ERR" "'value' and 'unit'"

cpl "${XL[@]}" --check subcorpus=nothing
expect_rc "translate --check naming no runs exits 1" 1
check_contains "translate --check naming no runs says so" "$ERR" "no runs for 'subcorpus=nothing'"

cpl translate --from subcorpus=m1
expect_rc "translate without --to is a usage error (exit 2)" 2

###########################################################################
# doc_check: every number the Markdown shows is a JSON number; tsv = JSON
###########################################################################
echo "# doc_check"
e2e_case doc-check smt translate-apply
# doc_check NAME VIEWS ARGS... (lib.sh)
doc_check "topology --show" hosts topology --show
doc_check "smt --corpus gomaxprocs-affinity" figures smt --corpus gomaxprocs-affinity
doc_check "translate m1 -> core" "factors applied" "${XL[@]}"
doc_check "translate m1 -> core --apply --check" "factors applied" "${XL[@]}" --apply "$T/figures.tsv" \
	--check subcorpus=core
doc_check "translate m1 -> core --apply-medians" "factors applied" "${XL[@]}" --apply-medians

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
