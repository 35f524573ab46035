#!/usr/bin/env bash
# End-to-end tests of `coreplan size` on the real corpora: measured cells beside
# predictions, which of them count as an instance's capacity, verdicts, memory
# parts, validation (split from sizing.sh; see its header for the checks).
#
#   bash tests/e2e/sizing_measured.sh COREPLAN_BINARY REPO_ROOT SHARED_CORPORA_DIR
#
# Prints "ok - NAME" / "not ok - NAME: DETAILS" per check, then the line
# "N passed, M failed"; exits 1 if any check failed.

E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd) # before any cd
source "$E2E_DIR/sizing_lib.sh"

# the untied database (sizing.sh's): the size checks without a host use it
import_untied

###########################################################################
# size on corpora tied to their host (issue 12): scaling over physical
# cores, measured beside predicted, verdicts, memory parts, validation
###########################################################################
echo "# size: physical cores and measurement"
e2e_case size-physical
SAVED_DB=$DB
DB=$T/host.db
# The GOMAXPROCS box is the affinity write-up's (lscpu.txt: 8 logical CPUs,
# 4 physical cores, 2 per core). Its runs are tied to that host with a copy
# of importers/profiles.c's sky-gomaxprocs profile plus `set =
# topology_host=epyc` (README.md, manifests).
gmp_manifest "$T/gmp-host.manifest" topology_host=epyc
cpl topology --from "$AFF/lscpu.txt" --host epyc
expect_rc "host db: topology --from lscpu.txt --host epyc" 0
cpl import -q "$GMP" --manifest "$T/gmp-host.manifest"
expect_rc "host db: import the GOMAXPROCS corpus tied to host epyc" 0
import_cap_aff "host db: " # the affinity table: host gomaxprocs-affinity

CAPW="corpus=gcp-x86-capacity-20260816"
REF=(size --target 1000 --sessions 500 --base-from "$CAPW subcorpus=core"
	--scaling-from 'corpus=gomaxprocs-scaling-20260816 block=1,2,3'
	--smt-from 'corpus=gomaxprocs-affinity'
	--memory-from "$CAPW target=medium cfg=pg block=1,2,3" --store postgres)
cpl "${REF[@]}" --format tsv --view inputs
expect_rc "size (the issue's command, GOMAXPROCS=8 left in) exits 0" 0
cp "$T/.out" "$T/ref-inputs.tsv"
check_cell "size with 8 left in: fitted over the physical-core levels 1, 2, 4" "1, 2, 4" input per_doubling levels
check_cell "size with 8 left in: level 8 left out as SMT (3 runs)" "8 (smt: 3 runs)" input per_doubling left_out
check_cell "size with 8 left in: the host named" "epyc" input per_doubling host
check_cell "size with 8 left in: 9 runs fitted" "9" input per_doubling runs
check_contains "size with 8 left in: the source says physical-core levels on host epyc" \
	"$(tsvget input per_doubling source)" "the physical-core levels on host epyc (4 physical cores, 8 logical CPUs); left out: 8 (smt: 3 runs)"
# python Gauss-Newton power law over gomaxprocs 1, 2, 4 (PYINPUTS): 2^b = 1.7856
py_file "size with 8 left in: per doubling and its bounds = the python fit over gomaxprocs 1, 2, 4 of blocks 1-3 (1e-9)" \
	sizing_measured_size_with_8_left_in.py "$SHARED"
cpl "${REF[@]}" --format tsv
cp "$T/.out" "$T/ref.tsv"
REF_CHEAPEST=$(cheapest_rows)
check_eq "size with 8 left in: the cheapest that meets is e2-standard-8" "e2-standard-8" "$REF_CHEAPEST"
check_contains "size: e2-standard-16 (8 physical cores, 4 measured) is extrapolated" "$(tsvget instance e2-standard-16 flags)" "extrapolated"
check_contains "size: e2-standard-8 is the cheapest" "$(tsvget instance e2-standard-8 flags)" "CHEAPEST"
check_eq "size: e2-standard-8 (4 physical cores, as measured) is not extrapolated in cores" "" \
	"$(tsvget instance e2-standard-8 flags | tr ';' '\n' | grep '^ *extrapolated:')"
# GOMAXPROCS=8 taken out: the same scaling input and the same cheapest
OUT8=("${REF[@]}")
OUT8[8]='corpus=gomaxprocs-scaling-20260816 block=1,2,3 gomaxprocs=1,2,4'
cpl "${OUT8[@]}" --format tsv --view inputs
expect_rc "size with GOMAXPROCS=8 taken out exits 0" 0
check_eq "size: the scaling input (value, bounds, levels, runs) is the same with 8 taken out" \
	"$(awk -F'\t' '$1 == "per_doubling" { print $2, $3, $4, $6, $10 }' "$T/ref-inputs.tsv")" \
	"$(awk -F'\t' '$1 == "per_doubling" { print $2, $3, $4, $6, $10 }' "$T/.out")"
check_cell "size with 8 taken out: nothing left out" "NA" input per_doubling left_out
cpl "${OUT8[@]}" --format tsv
check_eq "size: the cheapest that meets is the same with 8 taken out" "$REF_CHEAPEST" "$(cheapest_rows)"
check_eq "size: every row is the same with 8 taken out" "$(cat "$T/ref.tsv")" "$OUT"

# a synthetic sweep on the same host: X = 100 N^0.8 at 1, 2, 4 (physical),
# 8 (SMT) and 16 (beyond the 8 logical CPUs): only 1, 2, 4 are fitted, so
# per doubling is 2^0.8 = 1.7411011265922482 (python: 2 ** 0.8)
mkdir -p "$T/synth"
cp "$AFF/lscpu.txt" "$T/synth/lscpu.txt"
{
	printf 'tag\tgomaxprocs\ttput\n'
	for n in 1 2 4 8 16; do
		printf 's%s\t%s\t%s\n' "$n" "$n" "$(python3 -c "print(repr(100 * $n ** 0.8))")"
	done
} >"$T/synth/sweep.tsv"
printf 'layout = synthetic-sweep\n\n[table main]\nfile = sweep.tsv\ntag = {tag}\ntopology = lscpu.txt\n' >"$T/synth/coreplan.manifest"
cpl import -q "$T/synth"
expect_rc "host db: import a synthetic sweep tied to its lscpu.txt" 0
cpl size --target 1000 --base-rate 299 --base-cpu gce-e2 --scaling-from 'corpus=synth' --format tsv --view inputs
expect_rc "size --scaling-from the synthetic sweep exits 0" 0
check_eq "size synthetic sweep: per doubling 2^0.8 over 1, 2, 4 only" "1.741101126592 1, 2, 4 3" \
	"$(round "$(tsvget input per_doubling value)" 12) $(tsvget input per_doubling levels) $(tsvget input per_doubling runs)"
check_eq "size synthetic sweep: 8 left out as SMT, 16 as beyond the logical CPUs" "8 (smt: 1 run), 16 (beyond: 1 run)" \
	"$(tsvget input per_doubling left_out)"
cpl size --target 1000 --base-rate 299 --base-cpu gce-e2 --scaling-from 'corpus=gomaxprocs-scaling-20260816 block=1,2,3 gomaxprocs=4,8'
expect_rc "size --scaling-from one physical-core level is a usage error (exit 2)" 2
check_contains "size --scaling-from one physical-core level: says which and what was left out" "$ERR" \
	"hold 1 physical-core level of gomaxprocs on host 'epyc' (4; left out: 8 (smt: 3 runs))"
cpl size --target 1000 --base-rate 299 --base-cpu gce-e2 --scaling-from 'corpus=gomaxprocs-scaling-20260816,synth gomaxprocs=1,2,4'
expect_rc "size --scaling-from runs of two hosts is a usage error (exit 2)" 2
check_contains "size --scaling-from two hosts: names both and says to narrow" "$ERR" "ran on different hosts ('epyc' on run"
check_contains "size --scaling-from two hosts: names the synthetic host" "$ERR" "'synth' on run"

# without a host: every level assumed physical, and the input says so
DB=$SAVED_DB
cpl "${REF[@]}" --format json
expect_rc "size on the corpus with no host exits 0" 0
check_eq "size without a host: levels 1, 2, 4, 8 fitted, assumed physical, no host" \
	"1, 2, 4, 8|assumed physical cores (no host topology)|None|0" \
	"$(jget '"%s|%s|%s|%s" % (d["facts"]["scaling_levels"]["value"], d["facts"]["scaling_level_kind"]["value"], d["facts"]["scaling_host"]["value"], d["facts"]["scaling_runs_left_out"]["value"])')"
check_contains "size without a host: the source says the levels are assumed physical" \
	"$(jget 'd["facts"]["per_doubling_source"]["value"]')" "so every level is assumed to count physical cores"
check_contains "size without a host: a note says so" "$(jget 'd["sections"]["inputs"]["notes"]')" "assumed to count physical cores"
DB=$T/host.db

# the JSON: every input's provenance as facts and inputs-view cells
cpl "${REF[@]}" --format json
cp "$T/.out" "$T/ref.json"
py_file "size json: provenance facts of each input (runs, WHERE, statistic, source; scaling levels, left out, host)" sizing_measured_size_json_provenance_facts_of.py

# measured beside predicted: e2-small and e2-medium at 500 sessions, each store apart
cpl "${REF[@]}" --format tsv --view measured
expect_rc "size --view measured exits 0" 0
cp "$T/.out" "$T/ref-measured.tsv"
check_eq "size measured: one row per instance and store at 500 sessions" \
	"e2-small cfg=mem,e2-small cfg=pg,e2-medium cfg=mem,e2-medium cfg=pg" \
	"$(awk -F'\t' 'NR > 1 && $2 == 500 && $5 > 0 { print $1, $3 }' "$T/.out" | paste -sd, -)"
# the target's store is postgres (--store): only the pg cells count; the
# mem cells are listed with the reason, and so are the cells at counts not asked
MCOLS='NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }'
check_eq "size measured: the cells that decide are the pg store's at 500 sessions" \
	"e2-small cfg=pg,e2-medium cfg=pg" \
	"$(awk -F'\t' "$MCOLS"' $c["decides"] == 1 { print $1, $3 }' "$T/.out" | paste -sd, -)"
check_eq "size measured: the mem cells at 500 are left out for their store" \
	"store memory, the target's postgres (given),store memory, the target's postgres (given)" \
	"$(awk -F'\t' "$MCOLS"' $2 == 500 && $3 == "cfg=mem" { print $c["left_out_because"] }' "$T/.out" | paste -sd, -)"
check_eq "size measured: e2-small at 300 sessions is listed, not asked" "300 sessions: not asked (500)" \
	"$(awk -F'\t' "$MCOLS"' $1 == "e2-small" && $2 == 300 && $3 == "cfg=pg" { print $c["left_out_because"] }' "$T/.out")"
check_eq "size measured: the core runs (GOMAXPROCS=1 on e2-standard-4) never count" \
	"gomaxprocs 1: 1 of its 4 vCPUs; store memory, the target's postgres (given); 25 sessions: not asked (500)" \
	"$(awk -F'\t' "$MCOLS"' $1 == "e2-standard-4" && $2 == 25 { print $c["left_out_because"] }' "$T/.out")"
cp "$T/.out" "$T/ref-measured-all.tsv"
awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next } $c["decides"] == 1' \
	"$T/.out" >"$T/ref-measured.tsv"
awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print; next } $c["decides"] == 1 || ($2 == 500 && $5 > 0)' \
	"$T/ref-measured-all.tsv" >"$T/.out"
# results.tsv of the capacity corpus, tput at level 500, blocks 1-3, per target and cfg (python medians)
py_file "size measured: median, range, n and shortfall of each store against python (results.tsv); pg: 65.7 and 245.2, mem: 84.2 and 305.0; 1000 / 65.7 = 15.2x, 1000 / 245.2 = 4.08x" sizing_measured_size_measured_median_range_n.py "$SHARED"
py_file "size measured: the model disagrees (python bounds from the corpus inputs): e2-small below predicted_low, e2-medium above predicted_high, ratio = median / that bound; the model predicts about 95 and 190" \
	sizing_measured_size_measured_the_model_disagrees.py "$SHARED" "$GCE"
cp "$T/ref-measured.tsv" "$T/.out"
check_eq "size measured: the worst cell of each is the pg store" "e2-small cfg=pg,e2-medium cfg=pg" \
	"$(awk -F'\t' 'NR > 1 && $16 == "1" { print $1, $3 }' "$T/.out" | paste -sd, -)"
cp "$T/ref.tsv" "$T/.out"
for inst in e2-small e2-medium; do
	check_cell "size $inst: the verdict rests on measurement" "measured" instance $inst verdict_basis
	check_eq "size $inst: short (on the pg store at 500 sessions)" "short cfg=pg at 500 sessions" \
		"$(tsvget instance $inst verdict) $(tsvget instance $inst measured_at)"
done
check_cell "size e2-small: measured shortfall 15.22x (the write-up's ~15x)" "15.22" instance e2-small measured_shortfall 2
check_cell "size e2-medium: measured shortfall 4.08x (the write-up's ~4x)" "4.08" instance e2-medium measured_shortfall 2
check_contains "size e2-small: flagged measured below prediction" "$(tsvget instance e2-small flags)" "measured below prediction"
check_contains "size e2-medium: flagged measured above prediction" "$(tsvget instance e2-medium flags)" "measured above prediction"
check_cell "size e2-small: the model's shortfall is kept beside (10.54x)" "10.54" instance e2-small shortfall 2
check_cell "size: rows nobody measured rest on the prediction" "predicted" instance e2-standard-8 verdict_basis

# each verdict on the real corpora
check_cell "size verdict meets: e2-standard-8 (predicted_low >= 1000)" "meets" instance e2-standard-8 verdict
check_cell "size verdict short: e2-standard-4 (predicted < 1000)" "short" instance e2-standard-4 verdict
check_cell "size verdict memory-bound: e2-micro (1 GiB)" "memory-bound" instance e2-micro verdict
check_cell "size verdict unmeasured CPU: n2-standard-8" "unmeasured CPU" instance n2-standard-8 verdict
# marginal: a target between e2-standard-8's lower bound and its prediction (python, from the corpus inputs)
MARGINAL=$(python3 -c "$PYLIB$PYINPUTS"'
base, pd, smt, _, _, _ = inputs(sys.argv[1])
i = [r for r in rows(sys.argv[2]) if r["instance"] == "e2-standard-8"][0]
lo, p = predict(i, base, pd, smt, 1), predict(i, base, pd, smt, 0)
print(round((lo + p) / 2))' "$SHARED" "$GCE")
M_REQ=("${REF[@]}")
M_REQ[2]=$MARGINAL
cpl "${M_REQ[@]}" --format tsv
check_cell "size verdict marginal: e2-standard-8 at target $MARGINAL (between its lower bound and its prediction)" "marginal" instance e2-standard-8 verdict
check_eq "size at target $MARGINAL: the cheapest that meets is e2-standard-16 (marginal does not meet)" "e2-standard-16" "$(cheapest_rows)"
# measured verdicts on e2-small at 500 sessions: pg min 63.45, median 65.72; mem min 75.38
for tv in "60 meets" "65 marginal" "70 short"; do
	set -- $tv
	M_REQ[2]=$1
	cpl "${M_REQ[@]}" --format tsv
	check_eq "size --target $1: e2-small $2 on measurement (the pg store: min 63.45, median 65.72)" "$2 measured" \
		"$(tsvget instance e2-small verdict) $(tsvget instance e2-small verdict_basis)"
done
check_eq "size --target 70: e2-small predicted 95 (low 89) would meet: measurement overrules it" "95" \
	"$(round "$(tsvget instance e2-small predicted)" 0)"

# memory: the app from the OLS, PostgreSQL from the pg runs' traces, the OS reserve
cp "$T/ref-inputs.tsv" "$T/.out"
py_file "size memory (pg runs, a pg_rss_kb trace column): co-located = median over the 9 runs of the plateau median of pg_rss_kb (python from samples/*.tsv)" \
	sizing_measured_size_memory_pg_runs_a.py "$SHARED"
cp "$T/ref.tsv" "$T/.out"
py_file "size memory: each part of e2-small's row (app OLS at 500, PostgreSQL, 512 MiB) and their sum (python)" sizing_measured_size_memory_each_part_of.py "$SHARED"
MEM_REQ=("${REF[@]}")
MEM_REQ[12]="$CAPW target=medium cfg=mem block=1,2,3"
cpl "${MEM_REQ[@]}" --format tsv --view inputs
expect_rc "size --memory-from the mem runs exits 0" 0
check_cell "size memory (mem runs, pg_rss_kb 0 in the traces): nothing co-located" "0" input colocated_kb value
check_contains "size memory (mem runs): the source says the traces show no PostgreSQL" "$(tsvget input colocated_kb source)" "the traces show no PostgreSQL"
MEM_REQ[12]='corpus=gomaxprocs-scaling-20260816 gomaxprocs=8 block=1,2,3,9'
cpl "${MEM_REQ[@]}" --format tsv --view inputs
expect_rc "size --memory-from the GOMAXPROCS runs (no pg_rss_kb column) exits 0" 0
check_cell "size memory (GOMAXPROCS runs): nothing co-located" "0" input colocated_kb value
check_contains "size memory (GOMAXPROCS runs): the source says the traces have no pg_rss_kb column" "$(tsvget input colocated_kb source)" "no pg_rss_kb column"
cpl "${REF[@]}" --os-reserve-mib 256 --format tsv
check_cell "size --os-reserve-mib 256: the OS part 0.25 GiB" "0.25" instance e2-small memory_os_gib 2
check_cell "size --os-reserve-mib 256: e2-micro (1 GiB) still memory-bound (0.35 + 0.49 + 0.25)" "memory-bound" instance e2-micro verdict
cpl "${REF[@]}" --os-reserve-mib 0 --colocated-kb 0 --format tsv
check_cell "size --os-reserve-mib 0 --colocated-kb 0: e2-micro fits its 1 GiB (the app alone, 0.35 GiB)" "short" instance e2-micro verdict

# a range and a list of session counts (blocks 1-3): measured at each, the worst decides, memory at the largest
for sess in 300,500 300-500; do
	S_REQ=("${REF[@]}")
	S_REQ[4]=$sess
	cpl "${S_REQ[@]}" --measured-where block=1,2,3 --format json
	expect_rc "size --sessions $sess exits 0" 0
	cp "$T/.out" "$T/sess.json"
	py_file "size --sessions $sess: each session count listed per store, medians (python), the worst cell decides, memory at 500" sizing_measured_size_sessions_each_session_count.py "$SHARED" "${sess/,/, }"
done
check_contains "size --sessions 300-500: the title says the range" "$(jget 'd["title"]')" "at 300-500 sessions"
# e2-small pg at 300 (blocks 1-3) has the lowest median: the verdict rests there
check_eq "size --sessions 300-500: e2-small's worst cell is cfg=pg at 300 sessions" "cfg=pg at 300 sessions" \
	"$(jget '[r for r in d["sections"]["instances"]["rows"] if r["instance"] == "e2-small"][0]["measured_at"]')"
# without --measured-where, the soak block (300 sessions only) and the fsync block (100 only) are arms of their own
S_REQ[4]=100-500
cpl "${S_REQ[@]}" --format tsv --view measured
py_file "size --sessions 100-500 without --measured-where: the soak and fsync blocks are cells of their own (python medians)" sizing_measured_size_sessions_100_500_without.py "$SHARED"
# a listed count without runs is listed with n 0 and decides nothing
S_REQ[4]=400,500
cpl "${S_REQ[@]}" --format tsv --view measured
check_eq "size --sessions 400,500: the unmeasured 400 is listed per measured instance with n 0" \
	"e2-small 0,e2-medium 0,e2-standard-4 0" \
	"$(awk -F'\t' 'NR > 1 && $2 == 400 { print $1, $5 }' "$T/.out" | paste -sd, -)"

# inputs validated against the catalogs (usage errors, exit 2, naming the valid ones)
for bad in "--base-cpu xeon" "--base-cpu AMD_EPYC_7B12" "--base-cpu gce-e3"; do
	set -- $bad
	cpl size --target 1000 --base-rate 299 "$1" "$2" --per-doubling 1.78
	expect_rc "size $bad is a usage error (exit 2)" 2
	check_contains "size $bad: names it and lists the families" "$ERR" "unknown CPU family '$2' for --base-cpu (the catalogs' families: aws-c7g, aws-c7i, aws-m6i, aws-m7a, aws-m7g, aws-m7i, gce-c3, gce-c4, gce-c4-granite, gce-e2, gce-n2, gce-n2d, gce-t2a, gce-t2d;"
done
cpl size --target 1000 --base-rate 299 --base-cpu 'AMD EPYC 7B12' --per-doubling 1.78
expect_rc "size --base-cpu 'AMD EPYC 7B12' is a usage error (exit 2)" 2
cpl size --target 1000 --base-rate 299 --base-cpu e2-standard-4 --per-doubling 1.78 --format json
expect_rc "size --base-cpu e2-standard-4 (an instance name) exits 0" 0
check_eq "size --base-cpu e2-standard-4: stands for its family gce-e2" "gce-e2" "$(jget 'd["facts"]["base_cpu"]["value"]')"
cpl "${REF[@]}" --translate bogus=2
expect_rc "size --translate bogus=2 is a usage error (exit 2)" 2
check_contains "size --translate bogus=2: names it and lists the families" "$ERR" \
	"unknown CPU family or platform 'bogus' for --translate (the catalogs' families: aws-c7g,"
check_contains "size --translate bogus=2: ... and the platforms" "$ERR" \
	"the CPU platforms the catalogs and runs name: amd-epyc-7b12,amd-epyc-7b13,amd-epyc-9r14,intel-xeon-2.2ghz,"
cpl "${REF[@]}" --translate n2-standard-8=1.1 --format tsv --view families
expect_rc "size --translate n2-standard-8=1.1 (an instance name) exits 0" 0
check_eq "size --translate n2-standard-8=1.1: gce-n2 translated by 1.1" "translated 1.1" \
	"$(tsvget cpu_family gce-n2 rate_basis) $(tsvget cpu_family gce-n2 translation_factor)"
check_cell "size families view: gce-e2 is the base" "base" cpu_family gce-e2 rate_basis
check_cell "size families view: aws-m7i is unmeasured" "unmeasured" cpu_family aws-m7i rate_basis
cpl "${REF[@]}" --translate gce-e2=1.1
expect_rc "size --translate of the base's own family is a usage error (exit 2)" 2
cpl "${REF[@]}" --series zz
expect_rc "size --series zz is a usage error (exit 2)" 2
check_contains "size --series zz: names it and lists the series" "$ERR" "unknown series 'zz' for --series (the catalogs' series: c3, c4, c7g, c7i, e2, m6i, m7a, m7g, m7i, n2, n2d, t2a, t2d)"
cpl size --list-families --format tsv
expect_rc "size --list-families (no --target) exits 0" 0
py_file "size --list-families: each CPU family and series of the shipped catalogs (python groups)" sizing_measured_size_list_families_each_cpu.py "$AWS" "$GCE"
cpl size --list-families --view instances
expect_rc "size --list-families --view instances is a usage error (exit 2)" 2
# no topology for the SMT runs: the affinity table imported as a plain table (corpus runs)
cpl import -q "$AFF/runs.tsv"
expect_rc "host db: import runs.tsv alone (corpus runs, no host)" 0
SMT_REQ=("${REF[@]}")
SMT_REQ[10]='corpus=runs'
cpl "${SMT_REQ[@]}"
expect_rc "size --smt-from on runs with no host is a usage error (exit 2)" 2
check_contains "size --smt-from with no host: says how to tie the runs to a host" "$ERR" "coreplan topology --from FILE --host NAME' and tie the runs to it"
check_contains "size --smt-from with no host: offers --smt-factor" "$ERR" "or give --smt-factor F"
if [[ "$ERR" == *"pass --host"* ]]; then
	not_ok "size --smt-from with no host: suggests no --host option (size has none)" "$ERR"
else
	ok "size --smt-from with no host: suggests no --host option (size has none)"
fi

# the plot: measured points (median, min-max) beside the predictions
mkdir -p "$T/plots"
cpl "${REF[@]}" --series e2 --plot "$T/plots/measured.svg" --format json
expect_rc "size --plot with measured instances exits 0" 0
cp "$T/.out" "$T/plot.json"
py_file "size --plot: a measured series with one point per eligible cell (median, min, max: the two pg cells at 500) beside the predicted boxes" sizing_measured_size_plot_a_measured_series.py "$T/plots/measured.svg.tsv"
if command -v gnuplot >/dev/null; then
	check_contains "size --plot: the SVG names the measured series" "$(cat "$T/plots/measured.svg")" "measured (median, min-max)"
fi

# doc_check: every view in md, json and tsv, for the request and a range
for req in ref range; do
	R=("${REF[@]}")
	[ "$req" = range ] && R[4]=100-500
	cpl "${R[@]}"
	cp "$T/.out" "$T/dc-$req.md"
	cpl "${R[@]}" --format json
	cp "$T/.out" "$T/dc-$req.json"
	for view in instances inputs measured fleets families; do
		cpl "${R[@]}" --format tsv --view $view
		cp "$T/.out" "$T/dc-$req-$view.tsv"
		doc_agree "doc_check size ($req, view $view): md, json and tsv agree" "$T/dc-$req.md" "$T/dc-$req.json" "$T/dc-$req-$view.tsv"
	done
done
DB=$SAVED_DB

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
