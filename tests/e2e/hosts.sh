#!/usr/bin/env bash
# End-to-end tests of runs tied to their host and of levels counted in
# physical cores (issue 12, parts 1 and 2), on the real corpora:
#
#   bash tests/e2e/hosts.sh COREPLAN_BINARY REPO_ROOT SHARED_CORPORA_DIR
#
# In a mktemp -d folder (removed on exit) it checks:
#   - topology --host yip --cores 6 --threads-per-core 2 (siblings i and i+6,
#     as python3 numbers them) and its usage errors;
#   - import --host: an unknown host is a usage error listing the recorded
#     ones; every run of the GOMAXPROCS corpus is tied to epyc (the
#     affinity write-up's lscpu.txt, the same box); importing again without
#     --host keeps the tie (unchanged); another --host needs --replace;
#     --replace of a changed table without --host keeps it;
#   - the capacity corpus: each run tied to e2-{target} (core: e2-standard-4),
#     those hosts recorded from the shipped gce.tsv (vcpus / threads_per_core
#     physical cores, source catalog), m1 untied; --instance NAME; an unknown
#     instance (usage error), an instance no catalog lists (warning, no host);
#   - which wins: --host over a manifest's topology, the manifest over an instance;
#   - sweep --by gomaxprocs --where block=1,2,3 on the tied corpus: level 8 is
#     smt with its step (median 8 / median 4 from results.tsv), no "scaling
#     stops", scaling continues, the physical per-doubling (least squares of
#     ln median on log2 level over levels 1, 2, 4, computed here in python3)
#     and efficiency; with the affinity table tied to epyc too, the SMT factor
#     its pin arm measures (median of 0,4,1,5 / median of the unpinned g2 arm);
#   - the same corpus untied (the profile without its instance, --manifest): levels assumed physical, said so, scaling stops at 8;
#   - fit: levels 1, 2 and 4 fitted (points counted from results.tsv), the power
#     law against SciPy; --all-levels fits 8 too;
#   - the yip table with the 6-core, 12-thread host: level 12 is smt, its
#     step 10.55 / 8.99, the physical fit over 1, 4, 6 (sweep and fit);
#   - plot scaling: the SMT region shaded from 4 cores, the power law over
#     levels 1, 2, 4; the report's sweep section labels level 8 smt.
# python3 (no NumPy) computes every expected figure from the files; the two
# nonlinear power-law fits are SciPy figures copied here, named where used.
# Prints "ok - NAME" / "not ok - NAME: DETAILS" per check, then the line
# "N passed, M failed"; exits 1 if any check failed.

E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd) # before any cd
# shared helpers: e2e_start (BIN, ROOT, SHARED, the corpora's paths, T, DB,
# TIMEOUT), ok, not_ok, check_eq, check_contains, cpl, tsvget, expect_rc, py_check, jget
source "$E2E_DIR/lib.sh"
e2e_start --cd --need python3 hosts "$@"
YIP=$WRITEUPS/yip-sharding/level1.tsv
# DB=$UDB cpl ...: the same on a second database, of runs not tied to any host
UDB=$T/untied.db

# TSV reader (plain split: these files have no quoting), medians and the
# least squares of ln(y) on log2(x) (slope b: factor exp(b), SE exp(b) * se(b)).
# (PYLIB: tests/e2e/py/hosts_lib.py)

###########################################################################
# topology: a host known only by its shape
###########################################################################
echo "# topology --cores"
e2e_case topology-cores
cpl topology --from "$AFF/lscpu.txt" --host epyc --format tsv
expect_rc "topology --from lscpu.txt --host epyc exits 0" 0
cpl topology --host yip --cores 6 --threads-per-core 2 --format tsv
expect_rc "topology --host yip --cores 6 --threads-per-core 2 exits 0" 0
check_cell "topology yip: 12 logical CPUs" 12 host yip logical_cpus
check_cell "topology yip: 6 physical cores" 6 host yip physical_cores
check_cell "topology yip: 2 threads per core" 2 host yip threads_per_core
check_cell "topology yip: source given" given host yip source
check_eq "topology yip: siblings i and i+6, as Linux numbers them (python3)" \
	"$(python3 -c 'print(" ".join(",".join(str(c) for c in range(k, 12, 6)) for k in range(6)))')" \
	"$(tsvget host yip cores)"
cpl topology --cores 6 --threads-per-core 2
expect_rc "topology --cores without --host is a usage error (exit 2)" 2
check_contains "topology --cores without --host: the message says so" "$ERR" "--cores needs --host NAME"
cpl topology --from "$AFF/lscpu.txt" --cores 4 --host x
expect_rc "topology --from with --cores is a usage error (exit 2)" 2
cpl topology --threads-per-core 2 --host x
expect_rc "topology --threads-per-core without --cores is a usage error (exit 2)" 2
cpl topology --cores 0 --host x
expect_rc "topology --cores 0 is a usage error (exit 2)" 2

###########################################################################
# import --host: the GOMAXPROCS corpus on its box
###########################################################################
echo "# import --host"
e2e_case import-host topology-cores
cpl import -q "$GMP" --host epic
expect_rc "import --host epic (not recorded) is a usage error (exit 2)" 2
check_contains "import --host epic: the message lists the recorded hosts" "$ERR" \
	"--host 'epic' is not a recorded host (recorded: epyc, yip)"
cpl corpora --format tsv
check_cell "import --host epic stored nothing" "" name "$GMP_NAME" runs
cpl import -q "$GMP" --host epyc --format tsv
expect_rc "import $GMP_NAME --host epyc exits 0" 0
check_cell "import --host epyc: status new" new name "$GMP_NAME" status
NRUNS=$(tsvget name "$GMP_NAME" runs)
cpl runs --corpus "$GMP_NAME" --include-excluded --where topology_host=epyc --format tsv
check_eq "import --host epyc: every run of the corpus names topology_host epyc" "$NRUNS" \
	"$(($(wc -l <"$T/.out") - 1))"
cpl import -q "$GMP" --format tsv
expect_rc "import again without --host exits 0" 0
check_eq "import again without --host: unchanged (the stored tie is kept)" unchanged \
	"$(tsvget name "$GMP_NAME" status)"
cpl runs --corpus "$GMP_NAME" --include-excluded --where topology_host=epyc --format tsv
check_eq "import again without --host: still tied to epyc" "$NRUNS" "$(($(wc -l <"$T/.out") - 1))"
cpl import -q "$GMP" --host yip
expect_rc "import with another --host and no --replace exits 1" 1
check_contains "import with another --host: says which tie changes and --replace" "$ERR" \
	"--host ties it to 'yip', it was tied to 'epyc'): pass --replace"

# --replace of a changed table without --host keeps the stored host
cp "$YIP" "$T/ycopy.tsv"
cpl import -q "$T/ycopy.tsv" --host yip
expect_rc "import ycopy.tsv --host yip exits 0" 0
sed -i 's/^12\t10.55/12\t10.56/' "$T/ycopy.tsv"
cpl import -q "$T/ycopy.tsv" --replace --format tsv
check_eq "import --replace of a changed table without --host: replaced" replaced \
	"$(tsvget name ycopy status)"
cpl runs --corpus ycopy --where topology_host=yip --format tsv
check_eq "import --replace without --host keeps the stored host (4 rows)" 4 "$(($(wc -l <"$T/.out") - 1))"

###########################################################################
# the capacity corpus: instances give the topology
###########################################################################
echo "# instances"
e2e_case instances import-host
cpl import -q "$CAP" --format tsv
expect_rc "import $CAP_NAME exits 0" 0
cp "$T/.out" "$T/cap-import.tsv"
cpl topology --show --format tsv
cp "$T/.out" "$T/hosts.tsv"
py_file "the instances' hosts are gce.tsv's shapes: vcpus / threads_per_core cores, source catalog" hosts_instances_hosts_gce_tsv_s.py "$GCE"
check_eq "e2-small: 1 physical core of 2 threads (the shipped catalog: 2 vCPUs, 2 per core)" \
	"1 2" "$(awk -F'\t' 'NR==1{for(i=1;i<=NF;i++)c[$i]=i;next} $c["host"]=="e2-small"{print $c["physical_cores"], $c["logical_cpus"]}' "$T/hosts.tsv")"
cpl runs --corpus "$CAP_NAME" --include-excluded --format tsv
cp "$T/.out" "$T/cap-runs.tsv"
for h in e2-small e2-medium e2-standard-4; do
	cpl runs --corpus "$CAP_NAME" --include-excluded --where "topology_host=$h" --format tsv
	cp "$T/.out" "$T/cap-$h.tsv"
done
py_file "each capacity run is tied to e2-{target} (core: e2-standard-4, the profile's instance); m1 to none" hosts_each_capacity_run_tied_e2.py "$T/cap-runs.tsv"
py_file "import's row: tied_runs and hosts are the runs tied above" hosts_import_s_row_tied_runs.py "$T/cap-import.tsv" "$T/cap-runs.tsv"

# --instance on a table; an unknown instance; one no catalog lists
cpl import -q "$YIP" --name yinst --instance e2-standard-8
expect_rc "import --instance e2-standard-8 exits 0" 0
cpl topology --show --host e2-standard-8 --format tsv
check_eq "--instance e2-standard-8: recorded from the catalog as gce.tsv's 8 vCPUs / 2 per core" \
	"$(awk -F'\t' '$1=="e2-standard-8"{print $4 / $5, $4}' "$GCE")" \
	"$(tsvget host e2-standard-8 physical_cores) $(tsvget host e2-standard-8 logical_cpus)"
cpl runs --corpus yinst --where topology_host=e2-standard-8 --where instance=e2-standard-8 --format tsv
check_eq "--instance: every run gets the instance and its host" 4 "$(($(wc -l <"$T/.out") - 1))"
cpl import -q "$YIP" --name ybad --instance e2-standard-7
expect_rc "import --instance e2-standard-7 (in no catalog) is a usage error (exit 2)" 2
check_contains "import --instance e2-standard-7: the message names it" "$ERR" \
	"--instance 'e2-standard-7': no catalog lists that instance"
printf 'tag\tinstance\tthreads\ttput\nr1\te2-small\t1\t10\n' >"$T/own.tsv"
cpl import -q "$T/own.tsv" --instance e2-medium
expect_rc "--instance against a run's own other instance exits 1" 1
check_contains "--instance against a run's own instance: the message names both" "$ERR" \
	"run 'r1': its instance is 'e2-small', but --instance says 'e2-medium'"
printf 'tag\ttopology_host\tthreads\ttput\nr1\tyip\t1\t10\n' >"$T/ownhost.tsv"
cpl import -q "$T/ownhost.tsv" --host epyc
expect_rc "--host against a run's own topology_host column exits 1" 1
check_contains "--host against a run's own topology_host: the message names both" "$ERR" \
	"run 'r1': its topology_host is 'yip', but --host says 'epyc'"
printf 'tag\tinstance\tthreads\ttput\nr1\tzz-9\t1\t10\nr2\tzz-9\t2\t19\n' >"$T/zz.tsv"
cpl import -q "$T/zz.tsv"
expect_rc "import of runs naming an instance no catalog lists exits 0" 0
check_contains "an instance no catalog lists: a warning says its runs have no topology" "$ERR" \
	"instance 'zz-9' (run 'r1' and others) is in no catalog"
cpl runs --corpus zz --where topology_host=zz-9 --format tsv
check_eq "an instance no catalog lists: no host" 1 "$(wc -l <"$T/.out")"

# which wins: --host over the manifest's topology over the instance
mkdir -p "$T/mcorp"
cp "$AFF/lscpu.txt" "$T/mcorp/lscpu.txt"
printf 'tag\tthreads\ttput\nr1\t1\t10\nr2\t8\t40\n' >"$T/mcorp/results.tsv"
printf 'layout = t\n[table main]\nfile = results.tsv\ntag = {tag}\ntopology = lscpu.txt\nset = instance=e2-small\n' \
	>"$T/mcorp/coreplan.manifest"
cpl import -q "$T/mcorp"
cpl runs --corpus mcorp --where topology_host=mcorp --format tsv
check_eq "the manifest's topology wins over the instance (host mcorp)" 2 "$(($(wc -l <"$T/.out") - 1))"
cpl import -q "$T/mcorp" --name mcorp-y --host yip
cpl runs --corpus mcorp-y --where topology_host=yip --format tsv
check_eq "--host wins over the manifest's topology (host yip)" 2 "$(($(wc -l <"$T/.out") - 1))"

###########################################################################
# sweep in physical cores: the GOMAXPROCS corpus on epyc
###########################################################################
echo "# sweep"
e2e_case sweep instances
cpl sweep --corpus "$GMP_NAME" --by gomaxprocs --where block=1,2,3 --format json
expect_rc "sweep --by gomaxprocs --where block=1,2,3 (tied) exits 0" 0
cp "$T/.out" "$T/sweep.json"
# (SWEEP_PY: tests/e2e/py/hosts_sweep.py)
py_file "sweep: levels 1, 2, 4 are physical, 8 smt (4 physical cores in lscpu.txt)" hosts_sweep_levels_1_2_4.py \
	"$GMP/results.tsv" "$AFF/lscpu.txt"
py_file "sweep: level 8's step is median 8 / median 4 (1796.2 / 1538.8 = 1.1673), as a cell and a fact" hosts_sweep_level_8_s_step.py "$GMP/results.tsv"
py_file "sweep: no 'scaling stops' (level 8 is SMT, not an application limit); scaling continues" hosts_sweep_no_scaling_stops_level.py "$GMP/results.tsv"
py_file "sweep: physical per-doubling = least squares over levels 1, 2, 4 (python3: about 1.78), with its SE" hosts_sweep_physical_per_doubling_least.py "$GMP/results.tsv"
py_file "sweep: physical efficiency = speedup / level at level 4; host epyc, 4 physical cores" hosts_sweep_physical_efficiency_speedup_level.py "$GMP/results.tsv"
py_file "sweep: the whole-sweep fit over 1, 2, 4, 8 stays (python3 least squares)" hosts_sweep_whole_sweep_fit_1.py \
	"$GMP/results.tsv"
cpl sweep --corpus "$GMP_NAME" --by gomaxprocs --where block=1,2,3
check_contains "sweep md: level 8 is SMT, no factor measured yet" "$OUT" \
	"level 8 is SMT siblings of levels 1-4's physical cores: step 1.167 over level 4; SMT, not an application limit (no SMT factor measured on this host"

# the affinity table on the same box: the SMT factor its pin arm measures
cpl import -q "$AFF/runs.tsv" --name gomaxprocs-affinity --host epyc
expect_rc "import the affinity table --host epyc exits 0" 0
cpl sweep --corpus "$GMP_NAME" --by gomaxprocs --where block=1,2,3 --format json
cp "$T/.out" "$T/sweep2.json"
py_file "sweep: the SMT factor measured on epyc = median(0,4,1,5 pinned) / median(unpinned g2) of runs.tsv" hosts_sweep_smt_factor_measured_epyc.py "$AFF/runs.tsv"
cpl sweep --corpus "$GMP_NAME" --by gomaxprocs --where block=1,2,3
check_contains "sweep md: the step against the SMT factor measured on this host" "$OUT" \
	"level 8 is SMT siblings of levels 1-4's physical cores: step 1.167 over level 4; an SMT factor of 1.268 was measured on this host (corpus gomaxprocs-affinity"

# untied: assumed physical, and said so. The built-in profile ties the corpus
# to e2-standard-8 (FORMATS.md's app box); the untied case is the same profile
# without that line (lib.sh: untied_gmp_manifest).
untied_gmp_manifest "$T/gmp-untied.manifest"
DB=$UDB cpl import -q "$GMP" --manifest "$T/gmp-untied.manifest" --format tsv
check_eq "import --manifest (the profile untied): 29 runs, none tied" "29 0" \
	"$(tsvget name "$GMP_NAME" runs) $(tsvget name "$GMP_NAME" tied_runs)"
DB=$UDB cpl sweep --corpus "$GMP_NAME" --by gomaxprocs --where block=1,2,3
check_contains "sweep untied: levels are assumed physical, and the document says how to tie them" "$OUT" \
	"levels are assumed to be physical cores (no topology recorded: coreplan import --host / a manifest's topology)"
DB=$UDB cpl sweep --corpus "$GMP_NAME" --by gomaxprocs --where block=1,2,3 --format json
check_eq "sweep untied: level 8 assumed physical, scaling stops there (as before)" \
	"assumed physical stops 8" \
	"$(jget '[r["core_kind"] for r in d["sections"]["levels"]["rows"]][3] + " " + d["facts"]["scaling"]["value"] + " %g" % d["facts"]["stop_level"]["value"]')"
DB=$UDB cpl topology --from "$AFF/lscpu.txt" --host epyc
DB=$UDB cpl sweep --corpus "$GMP_NAME" --by gomaxprocs --where block=1,2,3 --host epyc --format json
check_eq "sweep --host epyc on untied runs: level 8 smt, scaling continues" "smt continues" \
	"$(jget '[r["core_kind"] for r in d["sections"]["levels"]["rows"]][3] + " " + d["facts"]["scaling"]["value"]')"

# runs on two hosts pooled on purpose: assumed physical, with the reason
cpl import -q "$GMP" --name gmp-on-yip --host yip
cpl sweep --by gomaxprocs --where "corpus=$GMP_NAME,gmp-on-yip" --where block=1,2,3 --pool corpus
expect_rc "sweep over runs on two hosts (--pool corpus) exits 0" 0
check_contains "sweep over two hosts: levels assumed physical, the hosts named" "$OUT" \
	"levels are assumed to be physical cores (the runs ran on different hosts ('"

###########################################################################
# fit: physical-core levels by default
###########################################################################
echo "# fit"
e2e_case fit sweep
cpl fit --corpus "$GMP_NAME" --by gomaxprocs --where block=1,2,3 --format json
expect_rc "fit --by gomaxprocs --where block=1,2,3 (tied) exits 0" 0
py_file "fit: levels 1, 2 and 4 fitted, 8 left out; points counted from results.tsv" hosts_fit_levels_1_2_4.py \
	"$GMP/results.tsv"
# scipy.optimize.curve_fit(a * N**b) over the 9 runs at gomaxprocs 1, 2, 4 (blocks 1-3 of
# results.tsv): a = 483.88243934, b = 0.83643275, 2^b = 1.7856294776161965 (SciPy 1.10.1)
check_eq "fit: the power law over levels 1, 2, 4 (SciPy curve_fit: 2^b = 1.785629)" 1.785629 \
	"$(jget '"%.6f" % d["facts"]["power_per_doubling"]["value"]')"
cpl fit --corpus "$GMP_NAME" --by gomaxprocs --where block=1,2,3
check_contains "fit md: the note names the levels left out and --all-levels" "$OUT" \
	"fitted over the physical-core levels 1, 2, 4 of host epyc (4 physical cores, 8 logical CPUs); level 8 (3 runs: SMT siblings) left out: --all-levels fits every level"
cpl fit --corpus "$GMP_NAME" --by gomaxprocs --where block=1,2,3 --all-levels --format json
check_eq "fit --all-levels: every level fitted, 12 points" "1, 2, 4, 8 12 True" \
	"$(jget 'd["facts"]["levels_fitted"]["value"] + " %d " % d["facts"]["points_fitted"]["value"] + str(d["facts"]["all_levels"]["value"])')"
DB=$UDB cpl import -q "$GMP" --name gmp-bare --manifest "$T/gmp-untied.manifest"
DB=$UDB cpl fit --corpus gmp-bare --by gomaxprocs --where block=1,2,3
check_contains "fit untied: every level assumed physical and fitted, said so" "$OUT" \
	"levels are assumed to be physical cores and all fitted (no topology recorded"

###########################################################################
# the yip table on a 6-core, 12-thread host
###########################################################################
echo "# yip"
e2e_case yip fit
cpl import -q "$YIP" --name yip --host yip
expect_rc "import level1.tsv --host yip exits 0" 0
# N is no name known to count workers (hyperfine's parameter n is not one):
# without --workers N no speedup, efficiency or SMT classification (issue 25)
cpl sweep --corpus yip --by N --metric Gbps --format json
check_eq "yip sweep without --workers: N is not assumed to count workers" "False" \
	"$(jget 'd["facts"]["level_counts_workers"]["value"]')" "exit $RC; $ERR"
cpl sweep --corpus yip --by N --workers N --metric Gbps --format json
expect_rc "sweep --by N --workers N --metric Gbps (yip) exits 0" 0
check_eq "yip sweep --workers N: declared" "True declared with --workers" \
	"$(jget '"%s %s" % (d["facts"]["level_counts_workers"]["value"], d["facts"]["level_counts_workers_from"]["value"])')"
py_file "yip sweep: level 12 smt (6 cores), 1, 4, 6 physical; step 10.55 / 8.99; physical fit over 1, 4, 6" hosts_yip_sweep_level_12_smt.py "$YIP"
cpl fit --corpus yip --by N --workers N --metric Gbps --format json
# scipy.optimize.curve_fit(a * N**b) over N = 1, 4, 6 (1.80, 6.50, 8.99): b = 0.87141091,
# 2^b = 1.8294511719144064 (SciPy 1.10.1)
check_eq "yip fit: levels 1, 4, 6 fitted, 12 left out; power 2^b = 1.829451 (SciPy)" "1, 4, 6 12 1.829451" \
	"$(jget 'd["facts"]["levels_fitted"]["value"] + " " + d["facts"]["levels_left_out"]["value"] + " %.6f" % d["facts"]["power_per_doubling"]["value"]')"

###########################################################################
# the scaling plot and the report
###########################################################################
echo "# plot and report"
e2e_case plot-report yip
mkdir -p "$T/plots"
cpl plot scaling --corpus "$GMP_NAME" --by gomaxprocs --where block=1,2,3 --out "$T/plots/gmp.svg" --format json
if [ "$RC" -eq 3 ] || grep -q "gnuplot is not installed" "$T/.err"; then
	ok "plot scaling: gnuplot is not installed (skipped)"
else
	expect_rc "plot scaling (tied) exits 0" 0
	check_eq "plot scaling: host epyc, 4 physical cores, the power law over levels 1, 2, 4" "epyc 4 1, 2, 4" \
		"$(jget 'd["facts"]["host"]["value"] + " %d " % d["facts"]["physical_cores"]["value"] + d["facts"]["power_levels"]["value"]')"
	GP=$(cat "$T/plots/gmp.svg.gp")
	check_contains "plot scaling: the region beyond 4 physical cores shaded (to level 8)" "$GP" \
		"set object 1 rect from 4, graph 0 to 8, graph 1"
	check_contains "plot scaling: SMT levels are a series of their own" "$GP" "title 'SMT sibling levels: median, min-max'"
	check_contains "plot scaling: the power law says it is over physical cores" "$GP" \
		"title 'power law fitted over the physical-core levels'"
	check_contains "plot scaling: the title names the host" "$GP" "set title 'tput by gomaxprocs on epyc (4 physical cores, 8 logical CPUs): "
	py_file "plot scaling: the data's SMT block holds level 8's median (python3 from results.tsv)" hosts_plot_scaling_data_s_smt.py \
		"$T/plots/gmp.svg.tsv" "$GMP/results.tsv"
fi
cpl report --corpus "$GMP_NAME" --where block=1,2,3 --out "$T/report"
expect_rc "report (tied gmp, blocks 1-3) exits 0" 0
RMD=$(cat "$T/report/report.md" 2>/dev/null)
check_contains "report: the sweep section counts level 8 as SMT" "$RMD" \
	"level 8 is SMT siblings of levels 1-4's physical cores: step 1.167 over level 4"
check_contains "report: the fit section fits levels 1, 2, 4" "$RMD" \
	"fitted over the physical-core levels 1, 2, 4 of host epyc"
if grep -q "scaling stops" "$T/report/report.md"; then
	not_ok "report: no 'scaling stops'" "$(grep -n "scaling stops" "$T/report/report.md" | head -3)"
else
	ok "report: no 'scaling stops'"
fi

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
