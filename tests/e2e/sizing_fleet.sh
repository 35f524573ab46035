#!/usr/bin/env bash
# End-to-end tests of `coreplan size` against the checks the corpora offer
# (issue 21): which measured cells count as an instance's capacity, the
# model's calibration and leave-one-out check, CPU platforms, the store and
# sessions factors, extrapolation in every dimension, fleets.
#
#   bash tests/e2e/sizing_fleet.sh COREPLAN_BINARY REPO_ROOT SHARED_CORPORA_DIR
#
# The two sky corpora and the affinity write-up imported into one database
# with their built-in profiles (the GOMAXPROCS corpus tied to e2-standard-8,
# its runs on amd-epyc-7b12; the capacity corpus's core runs on
# intel-xeon-2.2ghz). Every expected number is recomputed in python3 from
# the corpus files (PYMODEL below: results.tsv, core/results.tsv,
# runs.tsv of the write-up, the catalog file), never read back from coreplan:
#  - the `size --help` example: no GOMAXPROCS=1 cell decides; the cells that
#    decide are the pg cells of e2-small/e2-medium at 300 and 500 sessions
#    (python medians); each eligible cell's model, measured/model ratio, the
#    shared-core calibration (n, median, min, max) and its leave-one-out
#    bounds and miss; the dedicated group uncalibrated; the cheapest pick
#    the same with and without --smt-from and --measured-where;
#  - each eligibility rule: the worker level (core runs at GOMAXPROCS 1 of
#    4 vCPUs, g1/g2/g4 of e2-standard-8's 8), pinning (a synthetic corpus:
#    cpuset 0-1 of 4 vCPUs), the store, the platform (EPYC cells against the
#    Xeon base), the configuration (gogc 800 against the sweep's default),
#    block kinds (the fsync arm), session counts not asked;
#  - the platform flag without a factor, and the translation to EPYC with
#    the factor median core ips / median g1 tput;
#  - the store factor (e2-medium pg/mem at 100 sessions) and the sessions
#    curve (e2-medium pg 100/300/500), the e2-standard-4 prediction chained
#    from them; --sessions 2500 flagged 5x past sessions and memory;
#  - "How many e2-standard-4 for 1000 int/s at 500 sessions, PostgreSQL
#    store": 3 on the capacity corpus's Xeon (2 at the central estimate),
#    2 on EPYC, with each factor named; the cheapest fleet; the sharded arm
#    (8 x 1 thread 4.92x one process against the ceiling 4 cores x SMT).
#
# Prints "ok - NAME" / "not ok - NAME: DETAILS" per check, then the line
# "N passed, M failed"; exits 1 if any check failed.

E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd) # before any cd
source "$E2E_DIR/sizing_lib.sh"

cpl import -q "$GMP"
expect_rc "import gomaxprocs-scaling-20260816 (its profile: e2-standard-8, amd-epyc-7b12)" 0
import_cap_aff ""

# The model from the corpus files: the inputs (PYINPUTS), the e2-medium
# medians by store and session count (blocks 1-3), the store factor at
# 100 sessions (the count nearest the core runs' 25), the sessions factor
# with the lower neighbour between measured counts.
# (PYMODEL: tests/e2e/py/sizing_model.py)
XEPYC='amd-epyc-7b12=from:subcorpus=core,to:corpus=gomaxprocs-scaling-20260816 gomaxprocs=1 block=1,2,3'
EX=(size --target 1000 --sessions 300,500 --store postgres --base-from subcorpus=core
	--scaling-from 'corpus=gomaxprocs-scaling-20260816 block=1,2,3'
	--store-from 'target=medium block=1,2,3'
	--memory-from 'target=medium cfg=pg block=1,2,3' --measured-where block=1,2,3)

###########################################################################
echo "# the size --help example"
###########################################################################
e2e_case size-example
cpl "${EX[@]}" --format json
expect_rc "size (the --help example) exits 0" 0
cp "$T/.out" "$T/ex.json"
py_file "example: no cell decides whose runs used fewer workers than the instance's vCPUs (catalog), none has gomaxprocs=1" sizing_fleet_example_no_cell_decides_whose.py "$GCE"
py_file "example: the deciding cells are e2-small and e2-medium pg at 300 and 500 sessions, medians and n as results.tsv (blocks 1-3)" sizing_fleet_example_the_deciding_cells_are.py "$SHARED" "$GCE"
# the capacity corpus's core runs: GOMAXPROCS=1 (core/idle.txt) on an e2-standard-4 (4 vCPUs)
check_eq "example: the core runs are read with GOMAXPROCS 1 (core/idle.txt)" "gomaxprocs=1" \
	"$(grep -o 'gomaxprocs=[0-9]*' "$CAP/core/core-mem-p5-n25-r1/idle.txt")"
py_file "example: e2-standard-8's cells: g1, g2, g4 left out for their workers, every one for its platform (amd-epyc-7b12 against the base's intel-xeon-2.2ghz) and store" sizing_fleet_example_e2_standard_8_s.py

py_file "example: each eligible cell's model, measured/model, the shared-core calibration and the leave-one-out bounds and misses (python)" sizing_fleet_example_each_eligible_cell_s.py "$SHARED" "$GCE"
CHEAP=$(jget 'd["facts"]["cheapest"]["value"]')
for opts in "--smt-from corpus=gomaxprocs-affinity --measured-where block=1,2,3" "--smt-from corpus=gomaxprocs-affinity" ""; do
	R=("${EX[@]}")
	unset 'R[${#R[@]}-1]' 'R[${#R[@]}-1]' # without --measured-where block=1,2,3
	R=(${R[@]+"${R[@]}"})
	# shellcheck disable=SC2086
	cpl "${R[@]}" $opts --format json
	check_eq "example without --measured-where, ${opts:-no --smt-from}: the same cheapest ($CHEAP)" "$CHEAP" \
		"$(jget 'd["facts"]["cheapest"]["value"]')"
done
# without --measured-where the core runs (no block field) are cells of e2-standard-4 too
check_contains "example without --measured-where: the core cell (e2-standard-4) is left out: 1 of its 4 vCPUs" \
	"$(jget '[r["left_out_because"] for r in d["sections"]["measured"]["rows"] if r["instance"] == "e2-standard-4" and r["n"]][0]')" \
	"gomaxprocs 1: 1 of its 4 vCPUs"
check_eq "example without --measured-where: the same cells decide as with block=1,2,3 (the soak is an arm of its own)" \
	"$(python3 -c 'import json,sys; print(sorted((r["instance"], r["sessions"], r["group"]) for r in json.load(open(sys.argv[1]))["sections"]["measured"]["rows"] if r["decides"]))' "$T/ex.json")" \
	"$(jget 'sorted((r["instance"], r["sessions"], r["group"]) for r in d["sections"]["measured"]["rows"] if r["decides"])')"
check_eq "example: the SMT factor measured without --smt-from is --smt-from's" \
	"$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["facts"]["smt_factor"]["value"])' "$T/ex.json")" \
	"$(jget 'd["facts"]["smt_factor"]["value"]')"

###########################################################################
echo "# eligibility: configuration, block kinds, pinning"
###########################################################################
e2e_case eligibility
# EPYC and the memory store at 100 sessions: the GOMAXPROCS=8 cells' platform
# and store are the target's; gogc 800 is not the sweep's (default)
cpl size --target 1000 --sessions 100 --base-from 'corpus=gomaxprocs-scaling-20260816 gomaxprocs=1 block=1,2,3' \
	--scaling-from 'corpus=gomaxprocs-scaling-20260816 block=1,2,3' --format tsv --view measured
expect_rc "size on the EPYC base at 100 sessions exits 0" 0
check_eq "eligibility: the EPYC base sizes for its own platform and store" "1" \
	"$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $1 == "e2-standard-8" && $2 == 100 && $3 == "gogc=default, gomaxprocs=8" { print $c["eligible"] }' "$T/.out")"
check_eq "eligibility: gogc 800 is not the target's configuration (the sweep's default)" \
	"gogc 800, the target's default (the --scaling-from runs')" \
	"$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $1 == "e2-standard-8" && $3 == "gogc=800, gomaxprocs=8" { print $c["left_out_because"] }' "$T/.out")"
check_eq "eligibility: the fsync arm (block fs, 100 sessions only) is an arm of its own" \
	"store postgres, the target's memory (assumed: the base runs'); block fs holds only some of its session counts: an arm of its own (a soak, a trace or contrast arm), not a replicate; --measured-where block=fs takes it" \
	"$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $1 == "e2-medium" && $3 == "cfg=pg, block=fs" { print $c["left_out_because"] }' "$T/.out")"
# the e2-standard-8 g8 cell at 100 (blocks 1-3 and the gctrace block 7, pooled as one cell by pooling's rule)
py_file "eligibility: the g8 cell at 100 sessions is the median of results.tsv's g8 default-GOGC runs at 100 (blocks 1-3, 7)" sizing_fleet_eligibility_the_g8_cell_at.py "$SHARED"

# pinning and workers on a corpus of one's own (e2-standard-4: 4 vCPUs)
mkdir -p "$T/pin"
printf 'tag\tgomaxprocs\tcpuset\tsessions\ttput\n' >"$T/pin/runs.tsv"
printf 'whole-%s\t4\tall\t100\t%s\n' 1 600 2 610 >>"$T/pin/runs.tsv"
printf 'pinned-%s\t4\t0-1\t100\t%s\n' 1 400 2 410 >>"$T/pin/runs.tsv"
printf 'half-%s\t2\tall\t100\t%s\n' 1 350 2 360 >>"$T/pin/runs.tsv"
printf 'layout = pin\n[table main]\nfile = runs.tsv\ntag = {tag}\nset = instance=e2-standard-4 store=memory cpu_model=intel-xeon-2.2ghz cpu_family=gce-e2\n' \
	>"$T/pin/coreplan.manifest"
cpl import -q "$T/pin"
expect_rc "import a corpus pinned to CPU sets of e2-standard-4" 0
cpl size --corpus pin --target 500 --sessions 100 --base-rate 300 --base-cpu gce-e2 --platform intel-xeon-2.2ghz \
	--store memory --per-doubling 1.8 --series e2 --format tsv --view measured
expect_rc "size on the pinned corpus exits 0" 0
for want in "gomaxprocs=4, cpuset=0-1|pinned to 2 of its 4 vCPUs (cpuset 0-1)" \
	"gomaxprocs=2, cpuset=all|gomaxprocs 2: 2 of its 4 vCPUs" "gomaxprocs=4, cpuset=all|NA"; do
	check_eq "eligibility: ${want%%|*}: ${want#*|}" "${want#*|}" \
		"$(awk -F'\t' -v g="${want%%|*}" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $3 == g { print $c["left_out_because"] }' "$T/.out")"
done
check_eq "eligibility: the whole-instance cell decides; median (600 + 610) / 2" "1 605" \
	"$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } $c["decides"] == 1 { print $c["decides"], $c["median"] }' "$T/.out")"

###########################################################################
echo "# platforms, the store and sessions factors, extrapolation"
###########################################################################
e2e_case factors
cpl "${EX[@]}" --platform amd-epyc-7b12 --format tsv
expect_rc "size --platform amd-epyc-7b12 without a factor exits 0" 0
check_contains "platform: e2-standard-8 flagged other platform, the base's named" "$(tsvget instance e2-standard-8 flags)" \
	"other platform: sized for amd-epyc-7b12 (given), the base rate measured on intel-xeon-2.2ghz, no factor"
cpl "${EX[@]}" --platform amd-epyc-7b12 --translate "$XEPYC" --format tsv
expect_rc "size --platform amd-epyc-7b12 --translate (measured) exits 0" 0
py_file "platform: e2-standard-4 on EPYC = the Xeon chain / (median core ips / median g1 tput, blocks 1-3)" sizing_fleet_platform_e2_standard_4_on.py "$SHARED" "$GCE"

cpl "${EX[@]}" --format tsv --view inputs
py_file "factors: the store factor (e2-medium pg/mem at 100) and the sessions factor at 500 (pg 500/100), bounds from the ranges (python)" sizing_fleet_factors_the_store_factor_e2.py "$SHARED" "$GCE"
cpl "${EX[@]}" --format tsv
py_file "factors: every e2 row = base x scale x SMT x store factor x the sessions factor where lowest of 300, 500 (python)" sizing_fleet_factors_every_e2_row_base.py "$SHARED" "$GCE"
B25=("${EX[@]}")
B25[4]=2500
cpl "${B25[@]}" --format tsv
check_contains "extrapolation: --sessions 2500 is 5x the largest count measured (500)" "$(tsvget instance e2-standard-8 flags)" \
	"sessions extrapolated: 2500, 5.00x the largest measured (500)"
check_contains "extrapolation: memory at 2500 sessions is 5x the slope's largest (500)" "$(tsvget instance e2-standard-8 flags)" \
	"memory extrapolated: 2500 sessions, 5.00x the largest the slope was fitted at (500)"
check_contains "extrapolation: e2-standard-16 is 2x the fitted cores (4)" "$(tsvget instance e2-standard-16 flags)" \
	"extrapolated: 8 physical cores, 2.00x the largest fitted (4)"

###########################################################################
echo "# fleets: how many e2-standard-4 for 1000 int/s at 500 sessions, PostgreSQL store"
###########################################################################
e2e_case fleets
FLEET=(size --target 1000 --sessions 500 --store postgres --base-from subcorpus=core
	--scaling-from 'corpus=gomaxprocs-scaling-20260816 block=1,2,3'
	--store-from 'target=medium block=1,2,3' --memory-from 'target=medium cfg=pg block=1,2,3'
	--series e2 --fleet e2-standard-4)
cpl "${FLEET[@]}" --format tsv
expect_rc "size --fleet e2-standard-4 exits 0" 0
check_eq "fleet: the view fleets by default, one row" "2" "$(grep -c . "$T/.out")"
py_file "fleet: 3 e2-standard-4 on the capacity corpus's Xeon (the lower bound meets), 2 at the central estimate and the upper bound; each at ceil(500 / 3) = 167 sessions, its sessions factor at 300 (python)" sizing_fleet_fleet_3_e2_standard_4.py "$SHARED" "$GCE"
cpl "${FLEET[@]}" --format tsv --view inputs
py_file "fleet: the factors it rests on are named with their runs (platform: the base's; store: e2-medium 100 sessions; sessions: e2-medium pg 100-500)" sizing_fleet_fleet_the_factors_it_rests.py
cpl "${FLEET[@]}" --platform amd-epyc-7b12 --translate "$XEPYC" --format tsv
check_eq "fleet: about 2 on EPYC (n, central, upper)" "2 2 2" \
	"$(tsvget instance e2-standard-4 n) $(tsvget instance e2-standard-4 n_central) $(tsvget instance e2-standard-4 n_optimistic)"
cpl "${FLEET[@]}" --format json
py_file "fleet: the shared-nothing assumption with the sharded arm: 8 x 1 thread over one single-thread process against 4 cores x the SMT factor (python, runs.tsv)" sizing_fleet_fleet_the_shared_nothing_assumption.py "$SHARED"
F2=("${FLEET[@]}")
unset 'F2[${#F2[@]}-1]' 'F2[${#F2[@]}-1]'
F2=(${F2[@]+"${F2[@]}"})
cpl "${F2[@]}" --format tsv --view fleets
py_file "fleet: the cheapest fleet of the e2 series is the lowest n x price among those whose lower bound meets (python over the view's rows)" sizing_fleet_fleet_the_cheapest_fleet_of.py
cpl "${F2[@]}" --fleet n2-standard-99
expect_rc "size --fleet of an instance not sized is a usage error (exit 2)" 2
check_contains "size --fleet unknown: names it" "$ERR" "--fleet 'n2-standard-99' is no instance sized here"

###########################################################################
echo "# the report's sizing finding"
###########################################################################
e2e_case finding
{
	echo "target = 200"
	echo "sessions = 300,500"
	echo "store = postgres"
	echo "base-from = subcorpus=core"
	echo "scaling-from = corpus=gomaxprocs-scaling-20260816 block=1,2,3"
	echo "store-from = target=medium block=1,2,3"
	echo "memory-from = target=medium cfg=pg block=1,2,3"
	echo "measured-where = block=1,2,3"
} >"$T/size.conf"
cpl report --corpus gcp-x86-capacity-20260816 --config "$T/size.conf" --out "$T/rep"
expect_rc "report with the sizing config exits 0" 0
FINDING=$(grep '^- Cheapest instance that meets the target' "$T/rep/report.md")
# e2-medium meets 200 on its pg cells: the worst, 500 sessions, median of results.tsv (blocks 1-3)
WORST=$(python3 -c "$PYLIB"'
v = [float(x["tput"]) for x in rows(sys.argv[1] + "/sky/gcp-x86-capacity-20260816/results.tsv")
     if x["target"] == "medium" and x["cfg"] == "pg" and x["level"] == "500" and x["block"] in ("1", "2", "3")]
print("%.1f, n = %d" % (statistics.median(v), len(v)))' "$SHARED")
check_contains "finding: the verdict and what it rests on (e2-medium, its worst pg cell: python median)" "$FINDING" \
	"(e2-medium): meets the target: predicted"
check_contains "finding: ... resting on its own whole-instance runs" "$FINDING" \
	"resting on its own whole-instance runs (the worst cell, cfg=pg at 500 sessions: median $WORST)"
check_contains "finding: ... and the calibration (4 pg cells of e2-small and e2-medium)" "$FINDING" \
	"calibrated on 4 measured cells of 2 shared-core instances: measured / predicted"
sed -i 's/^target = 200/target = 1000/' "$T/size.conf"
rm -rf "$T/rep"
cpl report --corpus gcp-x86-capacity-20260816 --config "$T/size.conf" --out "$T/rep"
FINDING=$(grep '^- Cheapest instance that meets the target' "$T/rep/report.md")
check_contains "finding at 1000: resting on the model alone, and says it is uncalibrated" "$FINDING" \
	"resting on the model alone (no whole-instance run of it at the target's conditions); uncalibrated: no eligible measured cell of a dedicated instance"
check_contains "finding at 1000: the extrapolation in cores is named" "$FINDING" "2.00x the physical cores fitted"

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
