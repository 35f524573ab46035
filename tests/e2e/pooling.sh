#!/usr/bin/env bash
# End-to-end tests of "no silent pooling" (analysis/pooling.h) and of field
# sources (FIELD@SOURCE, manifest prefer rules, runs --fields) on the real
# corpora.
#
#   bash tests/e2e/pooling.sh COREPLAN_BINARY REPO_ROOT SHARED_CORPORA_DIR
#
# Imports the two sky corpora and the emitter-lock table into a database in
# a mktemp -d folder (removed on exit) and checks:
#   - sweep on the emitter-lock table without --where variant= refuses
#     (exit 2) naming variant (before, after); with --pool variant its level 4
#     pools 51000 and 99000 (range 64%) and says so; --where variant=before
#     is a clean sweep;
#   - the GOMAXPROCS corpus: sweep --where block=1,2,3 unchanged (3 runs per
#     level, medians from results.tsv); without a block filter sweep, noise
#     and fit refuse naming gogc, sessions and the gctrace block 7;
#   - the capacity corpus, medium/pg: block fs (level 100 only) is a block
#     kind: refused, --pool block pools it (6 runs at 100), --where
#     block=1,2,3 is clean; memory and noise (with --group) likewise;
#   - the default report on the GOMAXPROCS corpus: its main group holds
#     exactly the block 1-3 runs (3 per level), the gctrace block and the
#     GOGC=400/800 arms are groups of their own;
#   - field sources: xact_per_s and load_app_kb read system.tsv by default
#     and results.tsv with @results (medians per level recomputed in python
#     from the two files); an unknown source is a usage error listing the
#     sources; runs --fields says which source the plain name reads.
# Prints "ok - NAME" / "not ok - NAME: DETAILS" per check, then
# "N passed, M failed"; exits 1 if any check failed.

E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# ok, not_ok, check_eq, check_contains, cpl, expect_rc, tsvcol, jget, py_file,
# e2e_start (BIN, ROOT, SHARED, the corpora's paths, T, TIMEOUT)
source "$E2E_DIR/lib.sh"
e2e_start --cd --need python3 pooling "$@"
LOCK=$WRITEUPS/emitter-lock/scaling.tsv
DB=$T/p.db

cpl import -q "$GMP" "$CAP" "$LOCK"
expect_rc "import both sky corpora and the emitter-lock table" 0

###########################################################################
echo "# emitter-lock: variant"
e2e_case emitter-lock
###########################################################################
cpl sweep --corpus scaling --by cores --metric qps
expect_rc "lock: sweep --by cores --metric qps without --where variant= exits 2" 2
check_contains "lock: the refusal names variant and its values" "$ERR" "variant (before, after)"
check_contains "lock: the refusal says how to go on" "$ERR" \
	"Keep one condition with --where variant=before, or pool on purpose with --pool variant"
check_eq "lock: nothing on stdout" "" "$OUT"

cpl sweep --corpus scaling --by cores --metric qps --pool variant --format json
expect_rc "lock: --pool variant exits 0" 0
# python3 over scaling.tsv: level 4 holds 51000 (before) and 99000 (after):
# median (51000 + 99000) / 2 = 75000, range_pct (99000 - 51000) / 75000 * 100 = 64
py_file "lock --pool variant: level 4 pools 51000 and 99000 (range 64%); the document says so" pooling_lock_pool_variant_level_4.py "$LOCK"

cpl sweep --corpus scaling --by cores --metric qps --where variant=before --format json
expect_rc "lock: --where variant=before exits 0" 0
check_eq "lock --where variant=before: level 4 is 51000 alone, nothing pooled" "1 51000 False" \
	"$(jget '"%d %g %s" % ([(r["n"], r["median"]) for r in d["sections"]["levels"]["rows"] if r["level"] == 4][0] + ("pooled" in d["facts"],))')"

###########################################################################
echo "# GOMAXPROCS corpus"
e2e_case gomaxprocs
###########################################################################
cpl sweep --corpus "$GMP_NAME" --by gomaxprocs --where block=1,2,3 --format json
expect_rc "gmp: sweep --by gomaxprocs --where block=1,2,3 exits 0" 0
py_file "gmp --where block=1,2,3: 3 runs per level, medians as results.tsv's, nothing pooled" pooling_gmp_where_block_1_2.py "$GMP"

for cmd in sweep noise fit; do
	cpl "$cmd" --corpus "$GMP_NAME" --by gomaxprocs
	expect_rc "gmp: $cmd --by gomaxprocs without a block filter exits 2" 2
	check_contains "gmp: $cmd names gogc and its values" "$ERR" "gogc (default, 100, 400, 800)"
	check_contains "gmp: $cmd names sessions" "$ERR" "sessions (100, 25, 400)"
	check_contains "gmp: $cmd names the gctrace block 7 as a block kind" "$ERR" \
		"block 7 (levels 1, 8 of 1, 2, 4, 8; gogc=default, sessions=100) is its own arm"
	check_contains "gmp: $cmd suggests the complete blocks" "$ERR" "--where block=1,2,3"
done
cpl noise --corpus "$GMP_NAME" --by gomaxprocs
check_contains "gmp: noise (which has --group) suggests it" "$ERR" "split with --group gogc,sessions"
cpl sweep --corpus "$GMP_NAME" --by gomaxprocs --where gogc=default --where sessions=100
expect_rc "gmp: gogc and sessions fixed, block 7 still refused" 2
check_contains "gmp: ... with the block kind named" "$ERR" "block 7 (levels 1, 8 of 1, 2, 4, 8)"
cpl sweep --corpus "$GMP_NAME" --by gomaxprocs --where gogc=default --where sessions=100 --pool block --format json
expect_rc "gmp: --pool block pools the gctrace arm on purpose" 0
check_eq "gmp --pool block: 4 runs at levels 1 and 8, the fact pooled names block 7" \
	"4 4 True" "$(jget '"%d %d %s" % (*[r["n"] for r in d["sections"]["levels"]["rows"] if r["level"] in (1, 8)], "7 (levels 1, 8" in d["facts"]["pooled"]["value"])')"

###########################################################################
echo "# capacity corpus: block fs"
e2e_case capacity-fs
###########################################################################
cpl sweep --corpus "$CAP_NAME" --by sessions --where target=medium --where cfg=pg
expect_rc "cap: sweep medium/pg with block fs (level 100 only) exits 2" 2
check_contains "cap: the refusal names block fs and its level" "$ERR" \
	"block fs (levels 100 of 100, 300, 500) is its own arm, not a replicate of the complete blocks (1, 2, 3"
check_contains "cap: ... and says how to go on" "$ERR" \
	"Keep the complete blocks with --where block=1,2,3, or pool on purpose with --pool block"
cpl sweep --corpus "$CAP_NAME" --by sessions --where target=medium --where cfg=pg --pool block --format json
expect_rc "cap: --pool block exits 0" 0
py_file "cap --pool block: level 100 pools blocks 1-3 and fs (6 runs, results.tsv's median)" pooling_cap_pool_block_level_100.py "$CAP"
cpl sweep --corpus "$CAP_NAME" --by sessions --where target=medium --where cfg=pg --where block=1,2,3 --format tsv
expect_rc "cap: --where block=1,2,3 is a clean sweep" 0
check_eq "cap --where block=1,2,3: 3 runs per level" "3 3 3" "$(tsvcol n | paste -sd' ')"
cpl memory --corpus "$CAP_NAME" --by sessions --where target=medium --where cfg=pg
expect_rc "cap: memory with block fs exits 2" 2
check_contains "cap: memory names block fs" "$ERR" "block fs (levels 100 of 100, 300, 500)"
cpl memory --corpus "$CAP_NAME" --by sessions --where block=1,2,3
expect_rc "cap: memory over both targets and configurations exits 2" 2
check_contains "cap: memory names target and cfg, store following cfg" "$ERR" \
	"target (medium, small), cfg (mem, pg), store (memory, postgres; varies with cfg)"
check_contains "cap: memory suggests --group target,cfg" "$ERR" "split with --group target,cfg"
cpl memory --corpus "$CAP_NAME" --by sessions --where block=1,2,3 --group target,cfg --format json
expect_rc "cap: memory --group target,cfg exits 0" 0
cpl noise --corpus "$CAP_NAME" --by sessions --group target,cfg --where block=1,2,3,soak
expect_rc "cap: noise with the soak block exits 2" 2
check_contains "cap: noise names block soak in its group" "$ERR" \
	"block soak (levels 300 of 100, 300, 500; target=small, cfg=pg) is its own arm"

###########################################################################
echo "# report on the GOMAXPROCS corpus, default options"
e2e_case report
###########################################################################
cpl report --corpus "$GMP_NAME" --out "$T/gmp"
expect_rc "gmp: report with default options exits 0" 0
MD=$T/gmp/report.md
groups=$(sed -n '/^## Sweep$/,/^## Noise$/s/^### Group //p' "$MD")
check_contains "gmp report: a group for the complete blocks of the main sweep" "$groups" \
	"gogc=default sessions=100 block=1,2,3"
check_contains "gmp report: the gctrace block 7 is a group of its own" "$groups" \
	"gogc=default sessions=100 block=7"
check_contains "gmp report: GOGC=400 is a group of its own" "$groups" "gogc=400 sessions=100"
check_contains "gmp report: GOGC=800 is a group of its own" "$groups" "gogc=800 sessions=100"
# the main group's sweep table: exactly the block 1-3 runs, 3 per level
main=$(awk '$0 == "### Group gogc=default sessions=100 block=1,2,3" { on = 1; next }
	on && /^### / { exit } on && /^\| *[0-9]+ \|/ { print $2 ":" $4 }' "$MD")
check_eq "gmp report: the main group has 3 runs at each level 1, 2, 4, 8" "1:3 2:3 4:3 8:3" \
	"$(paste -sd' ' <<<"$main")"
cpl sweep --corpus "$GMP_NAME" --by gomaxprocs --where gogc=default --where sessions=100 \
	--where block=1,2,3 --format json
check_eq "gmp report: the main group is sweep --where gogc=default --where sessions=100 --where block=1,2,3 (12 runs)" \
	"12" "$(jget 'd["facts"]["runs"]["value"]')"
for sec in Noise "Scaling models"; do
	body=$(awk -v s="## $sec" '$0 == s { on = 1; next } on && /^## / { exit } on' "$MD")
	check_contains "gmp report: $sec per group, the main one included" "$body" \
		"### Group gogc=default sessions=100 block=1,2,3"
done
body=$(awk '$0 == "## Memory per session" { on = 1; next } on && /^## / { exit } on' "$MD")
check_contains "gmp report: memory per GOMAXPROCS (sessions 100 and 400 at 1 thread)" "$body" \
	"### Group gogc=default gomaxprocs=1"

###########################################################################
echo "# field sources"
e2e_case field-sources
###########################################################################
# medians per sessions level of medium/pg blocks 1-3, from system.tsv and from results.tsv
# (FIELD_PY: tests/e2e/py/pooling_field.py)
CSEL=(--corpus "$CAP_NAME" --by sessions --where target=medium --where cfg=pg --where block=1,2,3)
for name in xact_per_s load_app_kb; do
	cpl sweep "${CSEL[@]}" --metric "$name" --format json
	expect_rc "cap: sweep --metric $name exits 0" 0
	py_file "cap: $name reads system.tsv's values by default" pooling_field.py "$CAP" "$name" system.tsv
	cpl sweep "${CSEL[@]}" --metric "$name@join" --format json
	py_file "cap: $name@join is system.tsv's" pooling_field.py "$CAP" "$name" system.tsv
	cpl sweep "${CSEL[@]}" --metric "$name@results" --format json
	expect_rc "cap: sweep --metric $name@results exits 0" 0
	py_file "cap: $name@results reads results.tsv's inline values" pooling_field.py "$CAP" "$name" results.tsv
done
# the two differ: the inline figure is defective (FORMATS.md), so the test can fail
cpl sweep "${CSEL[@]}" --metric xact_per_s@results --format tsv
inline=$(tsvget level 100 median)
cpl sweep "${CSEL[@]}" --metric xact_per_s --format tsv
check_eq "cap: at 100 sessions the inline xact_per_s median (220.9) is not system.tsv's (282.4)" \
	"220.9 282.4" "$inline $(tsvget level 100 median)"
cpl sweep "${CSEL[@]}" --metric xact_per_s@generator
expect_rc "cap: a source that does not hold the field exits 2" 2
check_contains "cap: ... listing the sources the field has" "$ERR" \
	"no run has 'xact_per_s' in source 'generator' ('xact_per_s@generator'): the sources of 'xact_per_s' are results, join"
cpl sweep "${CSEL[@]}" --metric xact_per_s@nowhere
expect_rc "cap: an unknown source exits 2" 2
check_contains "cap: ... naming it and the field's sources" "$ERR" \
	"unknown source 'nowhere' in 'xact_per_s@nowhere': the sources of 'xact_per_s' are results, join"
cpl runs --corpus "$CAP_NAME" --where xact_per_s@results=220.9 --format tsv
check_eq "cap: --where xact_per_s@results=220.9 selects the run with that inline figure" \
	"medium-pg-n100-b2r1" "$(tsvcol tag)"
cpl runs --corpus "$CAP_NAME" --where xact_per_s=220.9 --format tsv
check_eq "cap: --where xact_per_s=220.9 (system.tsv's) selects none" "" "$(tsvcol tag)"

cpl runs --fields --corpus "$CAP_NAME" --where subcorpus= --format json
expect_rc "cap: runs --fields exits 0" 0
py_file "cap runs --fields: the plain names read system.tsv where FORMATS.md calls results.tsv defective" pooling_cap_runs_fields_plain_names.py
cpl runs --fields --corpus "$GMP_NAME" --format tsv
check_eq "gmp runs --fields: app_cores is the canonical field filled from results.tsv (24 runs)" \
	"results app_cores 24 24 app_cores@results" \
	"$(awk -F'\t' '$1 == "app_cores" { print $2, $3, $4, $5, $6 }' "$T/.out")"

###########################################################################
echo "# a version-4 database (before field sources)"
e2e_case v4-database
###########################################################################
cp "$DB" "$T/v4.db"
NEW_DB=$DB # created by this binary: the current schema in one step (schema_current.c)
# (a version-4 binary imported the capacity corpus with the profile text before
# its prefer lines: another content hash, so the corpus reads as changed)
schema_v5 "$T/v4.db"
sqlite3 "$T/v4.db" "DROP TABLE field_origins; DROP TABLE field_prefs; PRAGMA user_version = 4;
	UPDATE corpora SET content_hash = 'imported-by-v4' WHERE name = '$CAP_NAME'"
DB=$T/v4.db
cpl sweep "${CSEL[@]}" --metric xact_per_s
expect_rc "v4: a reading command refuses the older schema" 1
check_contains "v4: ... asking for a writing command" "$ERR" "schema version 4"
cpl import -q "$LOCK"
expect_rc "v4: a writing command (an unchanged import) migrates" 0
check_eq "v4: now the latest version (10), no preference stored yet" "10 0" \
	"$(sqlite3 "$DB" 'PRAGMA user_version') $(sqlite3 "$DB" 'SELECT count(*) FROM field_prefs')"
check_eq "v4 migrated step by step: the same schema text as a new database (sqlite3 .schema)" \
	"$(sqlite3 "$NEW_DB" .schema)" "$(sqlite3 "$DB" .schema)"
cpl sweep "${CSEL[@]}" --metric xact_per_s --format tsv
check_eq "v4 migrated: without the stored preference the plain name reads the first source (results.tsv)" \
	"220.9" "$(tsvget level 100 median)"
cpl import -q "$CAP"
expect_rc "v4 migrated: the capacity corpus reads as changed (exit 1 without --replace)" 1
cpl import -q --replace "$CAP"
expect_rc "v4 migrated: import --replace re-reads it" 0
cpl sweep "${CSEL[@]}" --metric xact_per_s --format tsv
check_eq "v4 migrated, capacity re-imported: system.tsv's again" "282.4" "$(tsvget level 100 median)"

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
