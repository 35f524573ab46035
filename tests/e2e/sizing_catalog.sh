#!/usr/bin/env bash
# End-to-end tests of `coreplan size` on given numbers (no database, a catalog of
# one's own) and of `coreplan catalog` (split from sizing.sh; see its header).
#
#   bash tests/e2e/sizing_catalog.sh COREPLAN_BINARY REPO_ROOT SHARED_CORPORA_DIR
#
# Prints "ok - NAME" / "not ok - NAME: DETAILS" per check, then the line
# "N passed, M failed"; exits 1 if any check failed.

E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd) # before any cd
source "$E2E_DIR/sizing_lib.sh"

# a database with runs (the version-3 check copies it) and the request sizing.sh checks
import_untied
# SIZE: sizing_lib.sh
cpl "${SIZE[@]}" --format tsv
expect_rc "size on the shipped catalogs exits 0" 0
cp "$T/.out" "$T/size.tsv"

###########################################################################
# size: numbers given on the command line, a catalog of one's own
###########################################################################
printf 'instance\tprovider\tseries\tvcpus\tthreads_per_core\tsustained_vcpu_fraction\tmemory_gib\tcpu_family\tprice_per_hour\tprice_region\tprice_source\tprice_date\n' >"$T/mine.tsv"
printf 'half\tx\tx\t2\t2\t0.5\t4\tfam-a\t0.03\tr\ts\t2026-01-01\n' >>"$T/mine.tsv"
printf 'two\tx\tx\t4\t2\t1\t16\tfam-a\t0.13\tr\ts\t2026-01-01\n' >>"$T/mine.tsv"
printf 'four\tx\tx\t4\t1\t1\t16\tfam-a\t0.2\tr\ts\t2026-01-01\n' >>"$T/mine.tsv"
printf 'eight\tx\tx\t16\t2\t1\t64\tfam-a\t0.5\tr\ts\t2026-01-01\n' >>"$T/mine.tsv"
GIVEN=(size --catalog "$T/mine.tsv" --target 1000 --base-rate 300 --base-cpu fam-a
	--per-doubling 1.8 --smt-factor 1.25 --format tsv)
cpl "${GIVEN[@]}"
expect_rc "size with given numbers and --catalog exits 0" 0
# half: 2 x 0.5 / 2 = 0.5 core: 300 x 0.5 x 1.25 = 187.5; burst 1 core: 300 x 1.25 = 375
check_cell "size given: half = 300 x 0.5 x 1.25 = 187.5" "187.5" instance half predicted 1
check_contains "size given: half burst 375" "$(tsvget instance half flags)" "burst 375 not sustained"
# two: 300 x 1.8 x 1.25 = 675, short; four: 300 x 1.8^2 = 972, short (1 thread per core)
check_cell "size given: two = 300 x 1.8 x 1.25 = 675" "675.0" instance two predicted 1
check_cell "size given: four = 300 x 1.8^2 x 1 = 972" "972.0" instance four predicted 1
# eight: 300 x 1.8^3 x 1.25 = 2187, meets, the only one, CHEAPEST; no --scaling-from: not flagged extrapolated
check_cell "size given: eight = 300 x 1.8^3 x 1.25 = 2187" "2187.0" instance eight predicted 1
check_eq "size given: eight is the cheapest (only) meeting row, uncalibrated (no runs)" "CHEAPEST; uncalibrated" \
	"$(tsvget instance eight flags)"
# cost per 1k: 0.5 x 1000 / 2187 = 0.22862...
check_cell "size given: eight cost per 1k = 0.5 x 1000 / 2187" "0.2286" instance eight cost_per_1k 4
check_cell "size given: no sessions, no memory figure" "NA" instance eight memory_needed_gib
cpl "${GIVEN[@]}" --headroom 60
# 40% kept: eight 2187 x 0.4 = 874.8, short: nothing meets, nothing marked
check_cell "size given --headroom 60: eight = 2187 x 0.4 = 874.8" "874.8" instance eight predicted 1
check_cell "size given --headroom 60: eight is short" "short" instance eight verdict
check_eq "size given --headroom 60: no CHEAPEST row" "0" "$(grep -c CHEAPEST "$T/.out")"
cpl "${GIVEN[@]}" --sessions 500 --mem-per-session 30000 --mem-fixed 1048576
# (1048576 + 30000 x 500) / 1048576 = 16048576 / 1048576 = 15.305 GiB of app,
# + the default OS reserve 512 MiB = 0.5 GiB: 15.805; more than half's 4 GiB,
# less than two's 16
check_eq "size given: memory (1048576 + 30000 x 500) / 1048576 + 512 / 1024 = 15.81 GiB" "15.81" \
	"$(round "$(tsvget instance two memory_needed_gib)" 2)"
check_cell "size given: the app part 15.31 GiB" "15.31" instance two memory_app_gib 2
check_cell "size given: the OS part 0.5 GiB" "0.50" instance two memory_os_gib 2
check_eq "size given: nothing co-located without --memory-from or --colocated-kb" "0.00" \
	"$(round "$(tsvget instance two memory_colocated_gib)" 2)"
# --os-reserve-mib 0 and --colocated-kb 1048576: 15.305 + 1 = 16.305 > 16: two is memory-bound
cpl "${GIVEN[@]}" --sessions 500 --mem-per-session 30000 --mem-fixed 1048576 --os-reserve-mib 0 \
	--colocated-kb 1048576
check_eq "size given --os-reserve-mib 0 --colocated-kb 1048576: 15.305 + 1 = 16.31 GiB" "16.31" \
	"$(round "$(tsvget instance two memory_needed_gib)" 2)"
check_cell "size given --colocated-kb: two (16 GiB) is now memory-bound" "memory-bound" instance two verdict
cpl "${GIVEN[@]}" --sessions 500 --mem-per-session 30000 --mem-fixed 1048576
check_cell "size given: half (4 GiB) is memory-bound" "memory-bound" instance half verdict
check_cell "size given: two (16 GiB) is not memory-bound" "short" instance two verdict

###########################################################################
# size without a database: given numbers, the shipped catalogs, every cell
###########################################################################
echo "# size without a database"
e2e_case size-no-db
NODB=$T/none.db
NOSIZE=(size --target 1000 --sessions 500 --base-rate 299 --base-cpu gce-e2 --per-doubling 1.78
	--smt-factor 1.27 --mem-per-session 637 --mem-fixed 40000)
for fmt in md json tsv; do
	"${TIMEOUT[@]}" "$BIN" --db "$NODB" "${NOSIZE[@]}" --format "$fmt" >"$T/nodb.$fmt" 2>"$T/.err"
	RC=$?
	ERR=$(cat "$T/.err")
	expect_rc "size without a database --format $fmt exits 0" 0
done
"$BIN" --db "$NODB" "${NOSIZE[@]}" --format tsv --view inputs >"$T/nodb-inputs.tsv" 2>/dev/null
check_eq "size without a database: no database file made" "no" "$([ -e "$NODB" ] && echo yes || echo no)"
cp "$T/nodb.tsv" "$T/.out"
# Every number and word of the instances view, recomputed from the catalog
# files with the formulas of analysis/size.h and the given inputs (no WHERE:
# bounds equal the values; no sweep: nothing is extrapolated).
py_file "size without a database: every cell of the instances view recomputed from aws.tsv, gce.tsv and the given numbers (1e-12)" sizing_catalog_size_without_a_database_every.py "$AWS" "$GCE"
cp "$T/nodb.json" "$T/.out"
py_file "size without a database: facts (target, sessions, headroom, cheapest and its capacity, inputs, catalogs shipped)" sizing_catalog_size_without_a_database_facts.py "$AWS" "$GCE"
cp "$T/nodb-inputs.tsv" "$T/.out"
check_cell "size without a database, inputs view: the base rate as given" "given: base rate 299" input base_rate source
check_cell "size without a database, inputs view: no runs behind a given number" "NA" input base_rate runs
check_cell "size without a database, inputs view: fixed memory as given" "40000" input mem_fixed_kb value
for view in instances inputs; do
	tsv=$T/nodb.tsv
	[ "$view" = inputs ] && tsv=$T/nodb-inputs.tsv
	doc_agree "doc_check size without a database (view $view): md, json and tsv agree" "$T/nodb.md" "$T/nodb.json" "$tsv"
done

###########################################################################
# catalog: instance catalogs in the database
###########################################################################
echo "# catalog"
e2e_case catalog size-no-db
SAVED_DB=$DB
DB=$T/catalog.db
q() { sqlite3 -batch -noheader -separator $'\t' "$DB" "$@"; }
cpl catalog --format json
expect_rc "catalog (no file) on a new database exits 0" 0
check_eq "catalog: stored the two shipped catalogs" "2 0 2 116" \
	"$(jget 'd["facts"]["stored"]["value"], d["facts"]["replaced"]["value"], d["facts"]["catalogs"]["value"], d["facts"]["instances"]["value"]' | tr -d '(),')"
check_eq "catalog: the catalogs table (name order: aws, gce; absolute paths; sha256 of the files)" \
	"aws	$AWS	$(sha256sum "$AWS" | cut -d' ' -f1)
gce	$GCE	$(sha256sum "$GCE" | cut -d' ' -f1)" "$(q 'SELECT name, source_path, sha256 FROM catalogs ORDER BY catalog_id')"
py_file "catalog: every instance row equals its catalog file's line, with the derived cores" sizing_catalog_catalog_every_instance_row_equals.py "$DB" "$AWS" "$GCE"
LOADED=$(q 'SELECT group_concat(loaded_at) FROM catalogs')
cpl catalog --format json
expect_rc "catalog again exits 0" 0
check_eq "catalog again: the database already holds catalogs, none stored" "0 2" \
	"$(jget 'd["facts"]["stored"]["value"], d["facts"]["catalogs"]["value"]' | tr -d '(),')"
check_contains "catalog again: a note says so" "$(jget 'd["sections"]["catalogs"]["notes"]')" "already holds catalogs"
check_eq "catalog again: nothing rewritten" "$LOADED" "$(q 'SELECT group_concat(loaded_at) FROM catalogs')"

cpl catalog --show --format tsv
expect_rc "catalog --show exits 0" 0
check_eq "catalog --show: the instances view's header" \
	"catalog	instance	provider	series	vcpus	threads_per_core	sustained_vcpu_fraction	memory_gib	cpu_family	price_per_hour	price_region	price_source	price_date	physical_cores	sustained_cores	line	cpu_platforms" \
	"$(head -n 1 "$T/.out")"
py_file "catalog --show: one row per file line (aws then gce), fields as in the files" sizing_catalog_catalog_show_one_row_per.py "$AWS" "$GCE"
cpl catalog --show
check_contains "catalog --show md: the instances section" "$OUT" "### Instances"
check_eq "catalog --show md: only that section" "" "$(grep -E '^### (Catalogs|CPU families)' <<<"$OUT")"
cpl catalog --show --format json
cp "$T/.out" "$T/show.json"
cpl catalog --show
cp "$T/.out" "$T/show.md"
cpl catalog --show --format tsv
cp "$T/.out" "$T/show.tsv"
doc_agree "doc_check catalog --show: md, json and tsv agree" "$T/show.md" "$T/show.json" "$T/show.tsv"

cpl catalog --families --format tsv
expect_rc "catalog --families exits 0" 0
py_file "catalog --families: each CPU family and series with its count, vCPU range, instances and CPU platforms (python)" sizing_catalog_catalog_families_each_cpu_family.py "$AWS" "$GCE"
check_eq "catalog --families: gce-e2 lists the eight e2 shapes" \
	"e2-micro, e2-small, e2-medium, e2-standard-2, e2-standard-4, e2-standard-8, e2-standard-16, e2-standard-32" \
	"$(tsvget cpu_family gce-e2 instances)"

# size on the stored catalogs, then replacing gce with a catalog of one's own
cpl "${NOSIZE[@]}" --format json
expect_rc "size on the stored catalogs exits 0" 0
check_eq "size on the stored catalogs: origin database" "database" "$(jget 'd["facts"]["catalog_origin"]["value"]')"
check_eq "size on the stored catalogs: the same rows as on the shipped ones" \
	"$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["sections"]["instances"]["rows"])' "$T/nodb.json")" \
	"$(jget 'd["sections"]["instances"]["rows"]')"
cpl catalog --name gce "$T/mine.tsv" --format json
expect_rc "catalog --name gce mine.tsv (replace) exits 0" 0
check_eq "catalog replace: stored 1, replaced 1, still 2 catalogs, 54 + 4 instances" "1 1 2 58" \
	"$(jget 'd["facts"]["stored"]["value"], d["facts"]["replaced"]["value"], d["facts"]["catalogs"]["value"], d["facts"]["instances"]["value"]' | tr -d '(),')"
check_eq "catalog replace: the action column" "aws:None gce:replaced" \
	"$(jget '" ".join("%s:%s" % (r["catalog"], r["action"]) for r in d["sections"]["catalogs"]["rows"])')"
check_eq "catalog replace: gce keeps its place and now holds mine.tsv" "aws	54
gce	4	$(realpath "$T/mine.tsv")" \
	"$(q 'SELECT c.name, count(*), CASE c.name WHEN "gce" THEN c.source_path END FROM catalogs c JOIN instances USING (catalog_id) GROUP BY c.catalog_id ORDER BY c.catalog_id' | sed 's/\t$//')"
cpl size --target 1000 --base-rate 300 --base-cpu fam-a --per-doubling 1.8 --smt-factor 1.25 --format tsv
expect_rc "size on the replaced catalogs exits 0" 0
check_eq "size on the replaced catalogs: 58 rows" "58" "$(($(grep -c . "$T/.out") - 1))"
check_cell "size on the replaced catalogs: eight = 300 x 1.8^3 x 1.25 = 2187" "2187.0" instance eight predicted 1
# --catalog FILE wins over the stored ones, for that run only: the database does not change
BEFORE=$(sha256sum "$DB" | cut -d' ' -f1)
cpl size --catalog "$GCE" --target 1000 --base-rate 299 --base-cpu gce-e2 --per-doubling 1.78 --format json
expect_rc "size --catalog on a database with catalogs exits 0" 0
check_eq "size --catalog: origin given, catalog gce from the file" "given: gce ($GCE)" "$(jget 'd["facts"]["catalogs"]["value"]')"
check_eq "size --catalog: the file's 62 instances" "62" "$(jget 'len(d["sections"]["instances"]["rows"])')"
check_eq "size --catalog: the database is unchanged" "$BEFORE" "$(sha256sum "$DB" | cut -d' ' -f1)"
check_eq "size --catalog: the stored gce still holds mine.tsv" "4" "$(q "SELECT count(*) FROM instances JOIN catalogs USING (catalog_id) WHERE name = 'gce'")"
mkdir -p "$T/other"
cp "$GCE" "$T/other/gce.tsv"
cpl size --catalog "$GCE" --catalog "$T/other/gce.tsv" --target 1000 --base-rate 299 --base-cpu gce-e2 --per-doubling 1.78
expect_rc "size --catalog: two files of the same name are refused (exit 2)" 2
check_contains "size --catalog: two files of the same name: says so" "$ERR" "are both catalog 'gce'"

# refused catalogs leave the database byte for byte as it was
head -n 2 "$T/mine.tsv" >"$T/badcat.tsv"
printf 'broken\tx\tx\tmany\t2\t1\t8\tfam-a\t0.1\tr\ts\t2026-01-01\n' >>"$T/badcat.tsv"
BEFORE=$(sha256sum "$DB" | cut -d' ' -f1)
cpl catalog "$T/badcat.tsv"
expect_rc "catalog with a malformed file exits 1" 1
check_contains "catalog with a malformed file: names the file, line 3 and column 4" "$ERR" "badcat.tsv:3:4: vcpus 'many'"
check_eq "catalog with a malformed file: the database is byte-identical" "$BEFORE" "$(sha256sum "$DB" | cut -d' ' -f1)"
cpl catalog "$AWS" "$T/badcat.tsv"
expect_rc "catalog with a good and a malformed file exits 1" 1
check_eq "catalog good + malformed: nothing stored, byte-identical" "$BEFORE" "$(sha256sum "$DB" | cut -d' ' -f1)"
cpl catalog --name copy "$AWS"
expect_rc "catalog: an instance type already in another catalog exits 1" 1
check_contains "catalog duplicate: names the instance and both catalogs" "$ERR" "instance 'm6i.large' is in catalog 'aws' (line 2) and in catalog 'copy' (line 2)"
check_eq "catalog duplicate: the database is byte-identical" "$BEFORE" "$(sha256sum "$DB" | cut -d' ' -f1)"
cpl catalog --name x "$AWS" "$GCE"
expect_rc "catalog --name with two files is a usage error (exit 2)" 2
cpl catalog --show "$AWS"
expect_rc "catalog --show FILE is a usage error (exit 2)" 2
cpl catalog --show --families
expect_rc "catalog --show --families is a usage error (exit 2)" 2
check_eq "catalog usage errors: the database is byte-identical" "$BEFORE" "$(sha256sum "$DB" | cut -d' ' -f1)"

# a version-3 database (before catalogs): size refuses it read-only, catalog migrates it
cp "$SAVED_DB" "$T/v3.db"
DB=$T/v3.db
schema_v5 "$DB"
q "DROP TABLE field_origins; DROP TABLE field_prefs; DROP TABLE instances; DROP TABLE catalogs; PRAGMA user_version = 3"
cpl "${NOSIZE[@]}"
expect_rc "size on a version-3 database exits 1" 1
check_contains "size on a version-3 database: asks for a writing command" "$ERR" "schema version 3"
cpl catalog --format json
expect_rc "catalog on a version-3 database exits 0 (migrates)" 0
check_eq "catalog on a version-3 database: now the latest version, the shipped catalogs stored, runs kept" \
	"$(sqlite3 "$SAVED_DB" 'PRAGMA user_version') 2 116 $(sqlite3 "$SAVED_DB" 'SELECT count(*) FROM runs')" \
	"$(q 'PRAGMA user_version') $(q 'SELECT count(*) FROM catalogs') $(q 'SELECT count(*) FROM instances') $(q 'SELECT count(*) FROM runs')"
cpl "${SIZE[@]}" --format tsv
expect_rc "size on the migrated database exits 0" 0
check_eq "size on the migrated database: the same table as on the shipped catalogs" "$(cat "$T/size.tsv")" "$OUT"
DB=$SAVED_DB

###########################################################################
# size: input errors
###########################################################################
printf 'instance\tprovider\tseries\tvcpus\tthreads_per_core\tsustained_vcpu_fraction\tmemory_gib\tcpu_family\tprice_per_hour\tprice_region\tprice_source\tprice_date\n' >"$T/bad.tsv"
printf 'fine\tx\tx\t2\t2\t1\t8\tfam-a\t0.1\tr\ts\t2026-01-01\n' >>"$T/bad.tsv"
printf 'broken\tx\tx\tmany\t2\t1\t8\tfam-a\t0.1\tr\ts\t2026-01-01\n' >>"$T/bad.tsv"
cpl size --catalog "$T/bad.tsv" --target 1000 --base-rate 300 --base-cpu fam-a --per-doubling 1.8
expect_rc "size with a malformed --catalog exits 1" 1
check_contains "size malformed catalog: names the file and line 3" "$ERR" "bad.tsv:3:"
cpl size --catalog "$T/nosuch.tsv" --target 1000 --base-rate 300 --base-cpu fam-a --per-doubling 1.8
expect_rc "size with a missing --catalog exits 1" 1
check_contains "size missing catalog: names the file" "$ERR" "nosuch.tsv"
cpl size --base-rate 300 --base-cpu fam-a --per-doubling 1.8
expect_rc "size without --target is a usage error (exit 2)" 2
check_contains "size without --target: says so" "$ERR" "--target"
cpl size --target 1000 --base-rate 300 --per-doubling 1.8
expect_rc "size --base-rate without --base-cpu is a usage error (exit 2)" 2
check_contains "size --base-rate without --base-cpu: says so" "$ERR" "--base-cpu"
cpl size --target 1000 --base-rate 300 --base-cpu gce-e2
expect_rc "size without scaling is a usage error (exit 2)" 2
check_contains "size without scaling: names --per-doubling" "$ERR" "--per-doubling"
cpl size --target 1000 --per-doubling 1.8
expect_rc "size without a base is a usage error (exit 2)" 2
cpl size --target 1000 --base-rate 300 --base-cpu gce-e2 --per-doubling 1.8 --translate gce-n2
expect_rc "size --translate without =F is a usage error (exit 2)" 2
cpl size --target 1000 --base-rate 300 --base-cpu gce-e2 --per-doubling 1.8 --headroom 100
expect_rc "size --headroom 100 is a usage error (exit 2)" 2


echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
