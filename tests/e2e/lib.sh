# shellcheck shell=bash
# lib.sh: the check helpers the end-to-end scripts share. Source it after
# setting PASS=0 and FAIL=0; each check prints "ok - NAME" or
# "not ok - NAME: details" (TAP-like) and counts itself.
#
# Cases, run by name (as git's t/ --run): `e2e_case NAME [NEEDS...]` opens a
# case (NAME: letters, digits, - _ .; unique in its script), which runs to
# the next one; NEEDS name the earlier cases whose state it reads (run_case
# runs them too).
# E2E_RUN, a comma-separated list of names or globs, selects cases: in the
# others the helpers below do nothing (cpl does not run the binary and
# leaves RC 0 with no output, checks neither print nor count), so only the
# selected cases' commands and checks run, and e2e_case returns 1 (a loop
# over a table can `e2e_case "$name" || continue`). A case named setup*
# always runs: it holds what later cases need (imports); code before the
# first e2e_case always runs. Without E2E_RUN every case runs. A failed
# check says how to rerun its case: tests/e2e/run_case SCRIPT:NAME (which
# also lists the cases: run_case --list).
E2E_CASE=
E2E_SKIP=0
E2E_SCRIPT=$(basename "$0")
e2e_case() { # NAME [NEEDS...]
	E2E_CASE=$1
	E2E_SKIP=0
	if [ -n "${E2E_RUN:-}" ] && ! e2e_selected "$1"; then
		E2E_SKIP=1
		return 1
	fi
	echo "# case $1"
}
e2e_selected() { # NAME: in E2E_RUN (or a setup case)?
	local pat
	local -a pats
	case $1 in setup*) return 0 ;; esac
	IFS=, read -ra pats <<<"${E2E_RUN:-}"
	for pat in "${pats[@]}"; do
		# shellcheck disable=SC2053 # a glob on purpose
		[[ $1 == $pat ]] && return 0
	done
	return 1
}
# e2e_skipping: true inside a case E2E_RUN did not select (a script's own
# helpers and loops can return early on it)
e2e_skipping() { [ "$E2E_SKIP" = 1 ]; }

ok() {
	e2e_skipping && return 0
	echo "ok - $1"
	PASS=$((PASS + 1))
}
skip() { # NAME WHY
	e2e_skipping && return 0
	echo "ok - $1 # skip $2"
	PASS=$((PASS + 1))
}
not_ok() {
	e2e_skipping && return 0
	local name=$1
	shift
	local details="$*"
	local first=${details%%$'\n'*}
	echo "not ok - $name: $first"
	if [ "$first" != "$details" ]; then
		printf '%s\n' "${details#*$'\n'}" | head -n 40 | sed 's/^/#     /'
	fi
	[ -z "$E2E_CASE" ] || echo "#     rerun: tests/e2e/run_case $E2E_SCRIPT:$E2E_CASE"
	FAIL=$((FAIL + 1))
}
check_eq() { # NAME EXPECTED ACTUAL [CONTEXT]
	if [ "$2" == "$3" ]; then
		ok "$1"
	else
		not_ok "$1" "expected '$2', got '$3'${4:+$'\n'$4}"
	fi
}
check_contains() { # NAME TEXT PART
	if [[ "$2" == *"$3"* ]]; then
		ok "$1"
	else
		not_ok "$1" "'$3' not found in:"$'\n'"$2"
	fi
}

# The binary on $DB, as the scripts call it ($BIN, $DB, $T and TIMEOUT are
# the calling script's).
# cpl ARGS...: run the binary on $DB; sets RC, OUT and ERR.
# In a case E2E_RUN did not select, cpl runs nothing (e2e_skip_cpl: RC 0, no
# output); a script's own cpl starts with `e2e_skipping && { e2e_skip_cpl; return 0; }`.
e2e_skip_cpl() {
	RC=0 OUT= ERR=
	: >"$T/.out" && : >"$T/.err"
}
cpl() { cpl_env -- "$@"; }
# cpl_env ENV... -- ARGS...: cpl under env(1) settings (NAME=VALUE; timeout(1)
# runs first, so a PATH without it still times out)
cpl_env() {
	local envs=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		envs+=("$1")
		shift
	done
	shift
	e2e_skipping && { e2e_skip_cpl; return 0; }
	"${TIMEOUT[@]}" env ${envs[@]+"${envs[@]}"} "$BIN" --db "$DB" "$@" >"$T/.out" 2>"$T/.err"
	RC=$?
	OUT=$(cat "$T/.out")
	ERR=$(cat "$T/.err")
}
# tsvget KEYCOL KEY COL: column COL of the row of $T/.out whose KEYCOL is KEY.
tsvget() {
	awk -F'\t' -v kc="$1" -v key="$2" -v vc="$3" '
		NR == 1 { for (i = 1; i <= NF; i++) { if ($i == kc) k = i; if ($i == vc) v = i }; next }
		k && v && $k == key { print $v }' "$T/.out"
}
# tsvcol COL: every value of column COL of $T/.out.
tsvcol() {
	awk -F'\t' -v name="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next }
		c { print $c }' "$T/.out"
}
# tsvget2 KEYCOL KEY KEYCOL2 KEY2 COL: like tsvget, the row matching two keys.
tsvget2() {
	awk -F'\t' -v kc="$1" -v key="$2" -v kc2="$3" -v key2="$4" -v vc="$5" '
		NR == 1 { for (i = 1; i <= NF; i++) { if ($i == kc) k = i; if ($i == kc2) k2 = i; if ($i == vc) v = i }; next }
		k && k2 && v && $k == key && $k2 == key2 { print $v }' "$T/.out"
}
# tsvpairs KEYCOL COL: "key value" lines, columns KEYCOL and COL of $T/.out
tsvpairs() {
	awk -F'\t' -v kc="$1" -v vc="$2" '
		NR == 1 { for (i = 1; i <= NF; i++) { if ($i == kc) k = i; if ($i == vc) v = i }; next }
		k && v { print $k, $v }' "$T/.out"
}
# round X PLACES: X printed with PLACES decimals (awk's printf)
round() { awk -v x="$1" -v p="$2" 'BEGIN { printf "%.*f\n", p, x }'; }
# q DB SQL...: the sqlite3 shell, tab-separated, no header
q() { sqlite3 -batch -noheader -separator $'\t' "$@"; }
# sqlq TEXT: TEXT as an SQL string literal
sqlq() { local s=${1//\'/\'\'}; printf "'%s'" "$s"; }
# dbstate DB: SHA-256 of the file and of its .dump (or "absent")
dbstate() {
	if [ -e "$1" ]; then
		printf '%s %s\n' "$(sha256sum <"$1" | cut -c1-64)" \
			"$(sqlite3 -batch "$1" .dump | sha256sum | cut -c1-64)"
	else
		echo absent
	fi
}
# rcdesc [RC]: RC (default $RC) plus a hint when the process hung or crashed
# (124: timeout(1) stopped it; 137: killed, timeout -k after a hang or a crash)
rcdesc() {
	local rc=${1:-$RC}
	if [ "$rc" -eq 124 ]; then
		echo "$rc (TIMEOUT: hang?)"
	elif [ "$rc" -eq 137 ]; then
		echo "$rc (KILLED: timeout -k after a hang, or signal 9)"
	elif [ "$rc" -gt 128 ]; then
		echo "$rc (CRASH: signal $((rc - 128)))"
	else
		echo "$rc"
	fi
}
cmdline() { printf '%q ' "$BIN" "$@"; }
copy_tree() { cp -R "$1" "$2" && chmod -R u+w "$2"; } # SRC DEST: a writable copy
now() { echo "${EPOCHREALTIME/,/.}"; }
elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; } # START END: seconds
sanitized() { grep -aqE '__asan_init|__tsan_init|__msan_init|__ubsan_handle' "$BIN"; }
# cpl_import_or_exit NAME IMPORT_ARGS...: `cpl import IMPORT_ARGS`, the
# check NAME; failing, the later checks could only fail too: the counts and exit 1
cpl_import_or_exit() {
	cpl import "${@:2}"
	if [ "$RC" -eq 0 ]; then
		ok "$1"
	else
		not_ok "$1" "exit $RC; stderr:"$'\n'"$ERR"
		echo "$PASS passed, $FAIL failed"
		exit 1
	fi
}
# case_folder CASE: CD, $T/cases/CASE (made), and CDB, its copy of $BASEDB, for
# a row of a script's table of cases
case_folder() {
	CD=$T/cases/$1
	mkdir -p "$CD"
	CDB=$CD/db.sqlite
	cp "$BASEDB" "$CDB"
}
# case_problems WANT_RC FRAG STDERR BEFORE AFTER: what is wrong with a case's
# run (RC, the file STDERR, the database states BEFORE and AFTER), as
# "problem; " parts, nothing when all is well: an exit other than WANT_RC,
# a crash or hang, FRAG (re:REGEX, or a fixed string; empty: none) missing
# from stderr, a sanitizer or assertion report; a refusal (or any failure)
# without a "coreplan: error:" line or with the database changed
case_problems() {
	local want_rc=$1 frag=$2 err=$3 before=$4 after=$5
	[ "$RC" = "$want_rc" ] || printf 'exit %s, expected %s; ' "$(rcdesc "$RC")" "$want_rc"
	[ "$RC" -lt 124 ] || printf 'hung or crashed; '
	if [[ "$frag" == re:* ]]; then
		grep -aEq -- "${frag#re:}" "$err" || printf 'stderr lacks /%s/; ' "${frag#re:}"
	elif [ -n "$frag" ]; then
		grep -aFq -- "$frag" "$err" || printf "stderr lacks '%s'; " "$frag"
	fi
	grep -aEq 'runtime error|Sanitizer|[Aa]ssertion|^==[0-9]+==' "$err" && printf 'sanitizer/assertion report on stderr; '
	if [ "$RC" != 0 ] || [ "$want_rc" != 0 ]; then
		grep -aq '^coreplan: error: ' "$err" || printf "no 'coreplan: error:' line; "
		[ "$before" = "$after" ] || printf 'database changed (before %s, after %s); ' "$before" "$after"
	fi
	return 0
}
# check_between NAME VALUE LO HI [CONTEXT]: LO <= VALUE <= HI (awk's numbers)
check_between() {
	if awk -v v="$2" -v lo="$3" -v hi="$4" 'BEGIN { exit !(v != "" && v >= lo && v <= hi) }'; then
		ok "$1"
	else
		not_ok "$1" "'$2' is not within $3-$4${5:+$'\n'$5}"
	fi
}
# check_cell NAME WANT KEYCOL KEY COL [PLACES]: tsvget KEYCOL KEY COL (rounded
# to PLACES decimals when given) is WANT
check_cell() {
	local v
	v=$(tsvget "$3" "$4" "$5")
	[ -z "${6:-}" ] || v=$(round "$v" "$6")
	check_eq "$1" "$2" "$v"
}
# expect_rc NAME WANT: RC must be WANT (details: stderr).
expect_rc() {
	if [ "$RC" -eq "$2" ]; then
		ok "$1"
	else
		not_ok "$1" "exit $RC, expected $2; stderr:"$'\n'"$ERR"
	fi
}
# py_ok NAME PYTHON_ARGS...: `python3 PYTHON_ARGS...` must print "ok" (else
# what it prints is the failure). E2E_PYTHON names another python3.
py_ok() {
	local name=$1 res
	shift
	e2e_skipping && return 0
	res=$("${E2E_PYTHON:-python3}" "$@" 2>&1)
	if [ "$res" == ok ]; then
		ok "$name"
	else
		not_ok "$name" "$res"
	fi
}
# py_check NAME SCRIPT [ARGS...]: `python3 -c SCRIPT $T/.out ARGS...` must print "ok".
py_check() { py_ok "$1" -c "$2" "$T/.out" "${@:3}"; }
# py_file NAME FILE [ARGS...]: the checker tests/e2e/py/FILE, run as
# `python3 FILE $T/.out ARGS...`, must print "ok" (else what it prints is
# the failure); the checkers live in files, not in bash strings.
E2E_PY_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/py
py_file() { py_ok "$1" "$E2E_PY_DIR/$2" "$T/.out" "${@:3}"; }
# doc_agree NAME MD JSON [TSV]: tests/e2e/doc_check.py on one command's
# documents: every number the Markdown shows is a JSON number; tsv = JSON.
E2E_LIB_DIR=$(dirname "$E2E_PY_DIR")
doc_agree() { py_ok "$1" "$E2E_LIB_DIR/doc_check.py" "${@:2}"; }
# doc_check NAME VIEWS ARGS...: md, json and each view's tsv (VIEWS and
# facts) of `coreplan ARGS` (cpl), checked by doc_agree
doc_check() {
	local name=$1 views=$2 v failed=""
	shift 2
	cpl "$@"
	cp "$T/.out" "$T/dc.md"
	[ "$RC" -eq 0 ] || failed+="md exit $RC: $ERR; "
	cpl "$@" --format json
	cp "$T/.out" "$T/dc.json"
	[ "$RC" -eq 0 ] || failed+="json exit $RC: $ERR; "
	for v in $views facts; do
		cpl "$@" --format tsv --view "$v"
		if [ "$RC" -ne 0 ] || [ -n "$failed" ]; then
			not_ok "doc_check $name (view $v)" "${failed}tsv exit $RC: $ERR"
			continue
		fi
		doc_agree "doc_check $name (view $v)" "$T/dc.md" "$T/dc.json" "$T/.out"
	done
}
# report_json NAME DB DIR ARGS...: `report --format json ARGS --out DIR` on
# DB, its document in DIR.json, its stderr in DIR.err; ok when it exits 0
# and writes DIR/report.md
report_json() {
	local name=$1 db=$2 dir=$3
	shift 3
	e2e_skipping && return 0
	if "${TIMEOUT[@]}" "$BIN" --db "$db" report --format json "$@" --out "$dir" >"$dir.json" 2>"$dir.err" &&
		[ -s "$dir/report.md" ]; then
		ok "$name"
	else
		not_ok "$name" "$(cat "$dir.err")"
	fi
}
# same_numbers NAME EXPECTED ACTUAL: "key value" lines, the same keys in
# order and values equal to 1e-12 relative (py/same_numbers.py)
same_numbers() {
	local r
	r=$("$PY" "$E2E_PY_DIR/same_numbers.py" "$2" "$3")
	if [ "$r" = ok ]; then ok "$1"; else not_ok "$1" "expected:"$'\n'"$2"$'\n'"got:"$'\n'"$3"; fi
}
# check_import_runs CORPUS FILE WANT WHAT [IMPORT-OPTIONS...]: DB=$T/CORPUS.db,
# FILE imported as CORPUS (the check "CORPUS: import"), then its runs: WANT
# of them (the check "CORPUS: WHAT", WANT counted by the oracle)
check_import_runs() {
	local corpus=$1 file=$2 want=$3 what=$4
	shift 4
	DB=$T/$corpus.db
	cpl import -q --name "$corpus" "$@" "$file"
	expect_rc "$corpus: import" 0
	cpl runs --corpus "$corpus" --format tsv
	check_eq "$corpus: $what" "$want" "$(($(wc -l <"$T/.out") - 1))"
}
# run_or_skip RUN SKIP_NAME SKIP_WHY PROBE...: the command RUN when the
# command PROBE... succeeds (the tool RUN needs is installed), else the skip
# line SKIP_NAME: SKIP_WHY (a case's body: `if e2e_case real; then ...`)
run_or_skip() {
	local run=$1 skip_name=$2 skip_why=$3
	shift 3
	if "$@" >/dev/null 2>&1; then
		"$run"
	else
		skip "$skip_name" "$skip_why"
	fi
}
# check_noise_levels CORPUS BY METRIC MEDIANS RANGES: `noise --by BY --metric
# METRIC --view levels` on CORPUS; its levels' medians and range_pct are the
# oracle's "level value" lines MEDIANS and RANGES ((max - min) / median * 100)
check_noise_levels() {
	cpl noise --corpus "$1" --by "$2" --metric "$3" --format tsv --view levels
	expect_rc "$1: noise --by $2" 0
	same_numbers "$1: noise level medians = python3" "$4" "$(tsvpairs level median)"
	same_numbers "$1: noise range_pct = python3 (max - min) / median * 100" "$5" "$(tsvpairs level range_pct)"
}
# check_compare_arms CORPUS METRIC A B MEDIANS: `compare --a A --b B --metric
# METRIC --view arms` on CORPUS; its arms' medians are the oracle's lines
# MEDIANS ("a VALUE" and "b VALUE")
check_compare_arms() {
	cpl compare --corpus "$1" --metric "$2" --a "$3" --b "$4" --format tsv --view arms
	expect_rc "$1: compare $3 vs ${4#*=}" 0
	same_numbers "$1: compare arm medians = python3" "$5" "$(tsvpairs arm median)"
}
# jget EXPR: the Python expression EXPR over d, the JSON document in $T/.out
# (e.g. jget 'd["facts"]["per_doubling"]["value"]'); prints the error on failure.
jget() {
	e2e_skipping && return 0
	python3 "$E2E_PY_DIR/jget.py" "$T/.out" "$1" 2>&1
}

# untied_gmp_manifest FILE (the GOMAXPROCS profile without its instance)
source "$(dirname "${BASH_SOURCE[0]}")/untied_gmp.sh"

# e2e_start [--cd] [--need TOOL]... NAME "$@": the start every script
# shares: set -u, pipefail and LC_ALL=C; three arguments (COREPLAN_BINARY
# REPO_ROOT SHARED_CORPORA_DIR, else usage and exit 2), BIN, ROOT and SHARED
# as real paths, the corpora's paths (e2e_paths), COREPLAN_DB unset, T a
# fresh mktemp -d folder (coreplan-NAME.XXXXXX) removed on exit (after the
# script's e2e_cleanup, when it defines one), DB=$T/NAME.db, PASS and FAIL
# at 0, PY (the python3 the oracles run), TIMEOUT (e2e_timeout 300), the
# "# coreplan:" and "# temp:" lines;
# with --cd the script works in $T, with --need each TOOL must be installed
# (e2e_need).
e2e_start() {
	local into_t=0 name
	local -a need=()
	while [ $# -gt 0 ]; do
		case $1 in
		--cd) into_t=1 ;;
		--need) need+=("$2") && shift ;;
		*) break ;;
		esac
		shift
	done
	name=$1
	shift
	set -u
	set -o pipefail
	export LC_ALL=C
	if [ $# -ne 3 ]; then
		echo "usage: $0 COREPLAN_BINARY REPO_ROOT SHARED_CORPORA_DIR" >&2
		exit 2
	fi
	BIN=$(realpath "$1") || exit 2
	ROOT=$(realpath "$2") || exit 2
	SHARED=$(realpath "$3") || exit 2
	e2e_paths
	unset COREPLAN_DB
	T=$(mktemp -d "${TMPDIR:-/tmp}/coreplan-$name.XXXXXX") || exit 2
	trap e2e_exit EXIT
	trap 'exit 130' INT TERM
	[ $into_t = 0 ] || cd "$T" || exit 2
	DB=$T/$name.db
	PASS=0
	FAIL=0
	PY=/usr/bin/python3 # the oracles' python3: the system's, else the one on PATH
	[ -x "$PY" ] || PY=python3
	e2e_timeout 300
	echo "# coreplan: $BIN"
	echo "# temp: $T"
	e2e_need ${need[@]+"${need[@]}"}
}
# e2e_exit: the EXIT trap: the script's e2e_cleanup (background processes),
# then $T, made writable first (cases chmod folders inside it)
e2e_exit() {
	declare -F e2e_cleanup >/dev/null && e2e_cleanup
	chmod -R u+rwX "$T" 2>/dev/null
	rm -rf "$T"
}
# e2e_paths: the inputs the scripts read, by name: the sky corpora (FORMATS.md),
# the write-ups and the repository's fixtures
# shellcheck disable=SC2034 # the scripts read them
e2e_paths() {
	SKY=$SHARED/sky
	WRITEUPS=$SHARED/writeups
	GMP_NAME=gomaxprocs-scaling-20260816
	CAP_NAME=gcp-x86-capacity-20260816
	GMP=$SKY/$GMP_NAME
	CAP=$SKY/$CAP_NAME
	AFF=$WRITEUPS/gomaxprocs-affinity
	AFF_MANIFEST=$ROOT/fixtures/manifests/gomaxprocs-affinity.manifest
	EXAMPLE=$ROOT/fixtures/example
	GCE=$ROOT/fixtures/catalogs/gce.tsv
}
# e2e_timeout ARGS...: TIMEOUT=(timeout ARGS...) where timeout(1) exists, else ()
e2e_timeout() {
	TIMEOUT=()
	if command -v timeout >/dev/null; then TIMEOUT=(timeout "$@"); fi
}
# e2e_need TOOL...: each TOOL on PATH, else one failed prerequisites check and exit 1
e2e_need() {
	local tool
	for tool in "$@"; do
		command -v "$tool" >/dev/null && continue
		case $tool in
		gnuplot) echo "not ok - prerequisites: gnuplot is not installed (apt-get install gnuplot-nox)" ;;
		sqlite3) echo "not ok - prerequisites: the sqlite3 shell is not installed" ;;
		*) echo "not ok - prerequisites: $tool is not installed" ;;
		esac
		echo "0 passed, 1 failed"
		exit 1
	done
}
# schema_v5 DB: undo schema versions 10 (the run rows' trigger, their foreign keys
# back), 9 (trace_samples' trigger, its foreign key back),
# 8 (run_values' trigger), 7
# (instances.cpu_platforms) and 6
# (schema/migrations.c: tool runs stored compactly; run_attrs and
# field_origins views) on a database with no tool
# corpus, as a version-5 binary left it: the tests that build an older
# database from a current one start from here.
schema_v5() {
	sqlite3 "$1" "
DROP TRIGGER run_rows_with_run;
PRAGMA legacy_alter_table = ON;
ALTER TABLE attr_rows RENAME TO attr_rows_v10;
CREATE TABLE attr_rows (
  run_id  INTEGER NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
  source  TEXT NOT NULL,
  name    TEXT NOT NULL,
  file_id INTEGER REFERENCES files(file_id),
  line    INTEGER,
  col     INTEGER,
  value   TEXT,
  num     REAL,
  PRIMARY KEY (run_id, source, name)
) STRICT, WITHOUT ROWID;
INSERT INTO attr_rows SELECT * FROM attr_rows_v10;
DROP TABLE attr_rows_v10;
CREATE INDEX attr_rows_by_name ON attr_rows(name, run_id);
ALTER TABLE idle_banners RENAME TO idle_banners_v10;
CREATE TABLE idle_banners (
  run_id  INTEGER NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
  key     TEXT NOT NULL,
  file_id INTEGER NOT NULL REFERENCES files(file_id),
  status  TEXT NOT NULL,
  value   TEXT NOT NULL,
  num     REAL,
  PRIMARY KEY (run_id, key)
) STRICT, WITHOUT ROWID;
INSERT INTO idle_banners SELECT * FROM idle_banners_v10;
DROP TABLE idle_banners_v10;
ALTER TABLE origin_rows RENAME TO origin_rows_v10;
CREATE TABLE origin_rows (
  run_id INTEGER NOT NULL REFERENCES runs(run_id) ON DELETE CASCADE,
  field  TEXT NOT NULL,
  source TEXT NOT NULL,
  name   TEXT NOT NULL,
  PRIMARY KEY (run_id, field)
) STRICT, WITHOUT ROWID;
INSERT INTO origin_rows SELECT * FROM origin_rows_v10;
DROP TABLE origin_rows_v10;
DROP TRIGGER trace_samples_with_trace;
ALTER TABLE trace_samples RENAME TO trace_samples_v9;
CREATE TABLE trace_samples (
  trace_id     INTEGER NOT NULL REFERENCES traces(trace_id) ON DELETE CASCADE,
  row_no       INTEGER NOT NULL,
  epoch        REAL NOT NULL,
  app_rss_kb   INTEGER,
  mem_avail_kb INTEGER,
  conn         INTEGER,
  cpu_total_j  INTEGER,
  cpu_idle_j   INTEGER,
  app_j        INTEGER,
  threads      INTEGER,
  pg_rss_kb    INTEGER,
  pg_nproc     INTEGER,
  pg_backends  INTEGER,
  pg_j         INTEGER,
  xact_commit  INTEGER,
  wal_records  INTEGER,
  PRIMARY KEY (trace_id, row_no)
) STRICT, WITHOUT ROWID;
INSERT INTO trace_samples SELECT * FROM trace_samples_v9;
DROP TABLE trace_samples_v9;
PRAGMA legacy_alter_table = OFF;
DROP TRIGGER run_values_with_run;
ALTER TABLE instances DROP COLUMN cpu_platforms;
DROP TRIGGER run_attrs_insert; DROP TRIGGER run_attrs_update; DROP TRIGGER run_attrs_delete;
DROP TRIGGER field_origins_insert;
DROP VIEW run_fields; DROP VIEW run_attrs; DROP VIEW field_origins;
DROP TABLE run_values; DROP TABLE set_origins; DROP TABLE set_attrs; DROP TABLE attr_sets;
DROP TABLE attr_names;
ALTER TABLE runs DROP COLUMN attr_set;
DROP INDEX attr_rows_by_name;
ALTER TABLE attr_rows RENAME TO run_attrs;
CREATE INDEX run_attrs_by_name ON run_attrs(name, run_id);
ALTER TABLE origin_rows RENAME TO field_origins;
CREATE VIEW run_fields AS
  SELECT run_id, source, name, value, num FROM run_attrs
  UNION ALL
  SELECT run_id, 'idle', key, value, num FROM idle_banners;
PRAGMA user_version = 5;"
}

# ---- bad-input cases (run.sh part B, hostile.sh) ----
# A row of a table of bad inputs names a setup function, run in the case
# folder $CD with $CASE set (case_prepare): it builds the corpus ($CORP) and
# may set IMPORT (the import arguments), RUNAS (a command prefix) or SKIP (why
# the case cannot run here). Post functions (success cases) check $CDB and
# set POST_MSG on failure. The setups below are the ones both tables hold.
# shellcheck disable=SC2034 # S1 and J1 are read by the scripts' setups
S1=runs/g1-n100-b1/sample.tsv # a trace of fixtures/example
J1=runs/g1-n100-b1/load.json  # a run's load summary in fixtures/example
example_copy() { # a copy of fixtures/example at $CD/$CASE; CORP is its path
	CORP=$CD/$CASE
	copy_tree "$EXAMPLE" "$CORP"
}
ex() { example_copy && IMPORT=(import -q "$CORP"); } # ... and its import
# base_db: BASEDB, $T/base.db, with fixtures/example imported (the database
# each case copies); failing, every case would fail too: the counts and exit 1
base_db() {
	BASEDB=$T/base.db
	"${TIMEOUT[@]}" "$BIN" --db "$BASEDB" import -q "$EXAMPLE" >/dev/null 2>"$T/.err" ||
		{ not_ok "base database: import of fixtures/example" "$(cat "$T/.err")"; echo "$PASS passed, $FAIL failed"; exit 1; }
	dbstate "$BASEDB" >/dev/null # settle the WAL so that the copies are stable
}
table() { # PRINTF-TEXT [EXT]: a single-table corpus $CD/$CASE.EXT (tsv)
	CORP=$CD/$CASE.${2:-tsv}
	# shellcheck disable=SC2059 # the text is a printf format on purpose
	printf "$1" >"$CORP"
	IMPORT=(import -q "$CORP")
}
setcol() { # FILE LINE COLUMN VALUE: set a field of a TSV file
	awk -v l="$2" -v c="$3" -v v="$4" 'BEGIN { FS = OFS = "\t" } NR == l { $c = v } 1' "$1" >"$1.new" && mv "$1.new" "$1"
}
# the bad inputs both tables hold: results.tsv (missing, empty, a header
# only, a row short or long of a field, a BOM, a repeated tag, tput not a
# positive number), a load summary cut or with a stray character, a trace out
# of order or with its counter reset, a tag that is SQL
s_results_missing() { ex; rm "$CORP/results.tsv"; }
s_results_empty() { ex; : >"$CORP/results.tsv"; }
s_header_only() { ex; sed -i '2,$d' "$CORP/results.tsv"; }
s_few_fields() { ex; sed -i '3s/\t[^\t]*$//' "$CORP/results.tsv"; }
s_many_fields() { ex; sed -i '3s/$/\textra/' "$CORP/results.tsv"; }
s_bom() { ex; sed -i '1s/^/\xef\xbb\xbf/' "$CORP/results.tsv"; }
s_dup_tags() { ex; setcol "$CORP/results.tsv" 5 1 g1-n100-b1; }
s_tput_abc() { ex; setcol "$CORP/results.tsv" 2 13 abc; }
s_tput_nan() { ex; setcol "$CORP/results.tsv" 2 13 NaN; }
s_tput_inf() { ex; setcol "$CORP/results.tsv" 2 13 inf; }
s_tput_neg() { ex; setcol "$CORP/results.tsv" 2 13 -475.2; }
s_json_truncated() { ex; truncate -s 300 "$CORP/$J1"; }
s_json_stray() { ex; sed -i '3s/,$/,x/' "$CORP/$J1"; }
s_trace_order() { ex; sed -i '10{h;d};11G' "$CORP/$S1"; }
s_trace_reset() { ex; setcol "$CORP/$S1" 20 5 0; }
s_sql_injection() { table "tag\ttput\n'; DROP TABLE runs; --\t5\nr2\t6\n"; }
s_unreadable() { # root reads anything: run as nobody (setpriv) then
	if [ "$(id -u)" = 0 ] && ! command -v setpriv >/dev/null; then
		SKIP="running as root and setpriv is not installed"
		return
	fi
	ex
	chmod 777 "$CD"
	chmod -R a+rX "$CORP"
	chmod 000 "$CORP/$J1"
	chmod 666 "$CDB"
	[ "$(id -u)" = 0 ] || return 0
	RUNAS=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	if ! "${RUNAS[@]}" "$BIN" --version >/dev/null 2>&1; then
		SKIP="user nobody cannot run $BIN"
	elif "${RUNAS[@]}" cat "$CORP/$J1" >/dev/null 2>&1; then
		SKIP="user nobody can still read a chmod 000 file"
	fi
}
s_spaces_quotes() {
	mkdir -p "$CD/dir with spaces"
	CORP="$CD/dir with spaces/my \"odd\" corpus's copy"
	copy_tree "$EXAMPLE" "$CORP"
	IMPORT=(import -q "$CORP")
}
# case_prepare SETUP NAME: IMPORT, RUNAS, SKIP, POST_MSG and CORP emptied, then
# SETUP run in $CD; false, after a skip line for the check NAME, when SETUP
# set SKIP
# shellcheck disable=SC2034 # the scripts' post functions set POST_MSG
case_prepare() {
	IMPORT=()
	RUNAS=()
	SKIP=""
	POST_MSG=""
	CORP=""
	pushd "$CD" >/dev/null || return 1
	$1
	popd >/dev/null || exit 2
	[ -z "$SKIP" ] || { skip "$2" "$SKIP"; return 1; }
}
# case_import: the case's import (RUNAS, TIMEOUT) into $CDB, its output in
# $CD/stdout and $CD/stderr; sets RC, BEFORE (the database's state before it)
# and CASE_SECS (how long the import took)
# shellcheck disable=SC2034 # the scripts read BEFORE and CASE_SECS
case_import() {
	local t0
	BEFORE=$(dbstate "$CDB")
	t0=$(now)
	"${RUNAS[@]}" "${TIMEOUT[@]}" "$BIN" --db "$CDB" "${IMPORT[@]}" >"$CD/stdout" 2>"$CD/stderr"
	RC=$?
	CASE_SECS=$(elapsed "$t0" "$(now)")
}
