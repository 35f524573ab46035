#!/usr/bin/env bash
# Hostile inputs for `coreplan import` (and the plot/report paths a hostile
# tag reaches) and for `coreplan catalog` (instance catalog files).
#
#   bash tests/e2e/hostile.sh COREPLAN_BINARY REPO_ROOT SHARED_CORPORA_DIR
#
# One table of cases (CASES below). Each case builds its input in a
# temporary folder and imports it into a copy of a database that already
# holds one good import (fixtures/example). Every case states its exit code
# and a stderr fragment; for every case: no sanitizer report on stderr, no
# crash (exit < 128), no hang (timeout); for every failing case: a
# "coreplan: error:" line and the database byte-identical afterwards
# (SHA-256 of the file and of `sqlite3 DB .dump`); success cases check the
# stored values with a post function.
#
# HOSTILE_ONLY=REGEX runs only the cases whose name matches (bash =~).
# COREPLAN_SKIP_LARGE=1, or a binary built with sanitizers, shrinks the
# many-run-folders case from 100,000 to 10,000 folders.
#
# Everything happens in a mktemp -d folder removed on exit; the repository
# is only read. Prints "ok - NAME" / "not ok - NAME: DETAILS" per check,
# then "N passed, M failed"; exits 1 if any check failed.

E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# ok, skip, not_ok, cases: each hostile input is a case (run_case hostile.sh:NAME)
# shellcheck source=lib.sh
source "$E2E_DIR/lib.sh"
# BIN ROOT SHARED (not read: the same interface as run.sh), EXAMPLE, T, the
# work folder ($T) and the sqlite3 shell: e2e_start
e2e_start --cd --need sqlite3 hostile "$@"
BADFIX=$ROOT/fixtures/bad
SHM="" # a tmpfs folder for the many-folders case, if any
e2e_cleanup() { [ -z "$SHM" ] || rm -rf "$SHM"; }
# the unreadable-file case runs the binary as nobody inside $T
chmod 711 "$T"
e2e_timeout 150
HAVE_PY=1
command -v python3 >/dev/null || HAVE_PY=0

# rcdesc, cmdline, q, sqlq, dbstate, copy_tree, now, elapsed, sanitized and
# the bad-input cases' helpers (ex, table, setcol, S1, J1, case_folder,
# case_prepare, case_import and the setups shared with run.sh): lib.sh

NDIRS=100000
if [ "${COREPLAN_SKIP_LARGE:-0}" = 1 ] || sanitized; then
	NDIRS=10000
fi

base_db

# Setup and post functions: lib.sh, "bad-input cases".
ncorp() { q "$CDB" "SELECT count(*) FROM runs_v WHERE corpus = $(sqlq "$1")"; }
example_intact() { # the pre-imported corpus still has its 13 runs
	local n=$(ncorp example)
	[ "$n" = 13 ] || { POST_MSG="the pre-imported example corpus has $n runs, expected 13"; return 1; }
}

# ---- bad inputs of the import issue ----
s_results_bom_only() { ex; printf '\xef\xbb\xbf' >"$CORP/results.tsv"; }
s_sessions_ten() { ex; setcol "$CORP/results.tsv" 2 3 ten; }
s_tput_1e999() { ex; setcol "$CORP/results.tsv" 2 13 1e999; }
s_tput_minus_zero() { ex; setcol "$CORP/results.tsv" 2 13 -0; }
p_tput_minus_zero() {
	local r=$(q "$CDB" "SELECT tput = 0, printf('%g', tput) FROM runs_v WHERE corpus = $(sqlq "$CASE") AND tag = 'g1-n100-b1'" | tr '\t' ' ')
	[ "$r" = "1 0" ] || { POST_MSG="tput of g1-n100-b1: '$r', expected '1 0' (equal to 0, printed as 0)"; return 1; }
	"$BIN" --db "$CDB" runs --corpus "$CASE" --where tag=g1-n100-b1 --format tsv >"$CD/o.tsv" 2>&1
	r=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "tput") c = i; next } { print $c }' "$CD/o.tsv")
	[ "$r" = 0 ] || { POST_MSG="runs --format tsv shows tput '$r', expected '0'"; return 1; }
}
s_gomaxprocs_overflow() { ex; setcol "$CORP/results.tsv" 2 2 99999999999999999999; }
s_crlf() { ex; sed -i 's/$/\r/' "$CORP/results.tsv" "$CORP/$S1" "$CORP/$J1" "$CORP/runs/g1-n100-b1/idle.txt"; }
p_crlf() {
	local c=$(sqlq "$CASE")
	local r=$(q "$CDB" "SELECT tput = 475.2284019761499, gogc, gomaxprocs, typeof(gomaxprocs), valid FROM runs_v WHERE corpus = $c AND tag = 'g1-n100-b1'" | tr '\t' ' ')
	[ "$r" = "1 default 1 integer 1" ] || { POST_MSG="g1-n100-b1 tput/gogc/gomaxprocs/valid: '$r', expected '1 default 1 integer 1'"; return 1; }
	r=$(q "$CDB" "SELECT count(*) FROM run_fields a JOIN runs_v r USING (run_id)
		WHERE r.corpus = $c AND (instr(a.value, char(13)) OR instr(a.name, char(13)))")
	[ "$r" = 0 ] || { POST_MSG="$r stored values or names keep a CR"; return 1; }
	r=$(q "$CDB" "SELECT printf('%d', epoch), app_rss_kb, mem_avail_kb, conn, cpu_total_j, cpu_idle_j, app_j, threads
		FROM trace_rows WHERE corpus = $c AND tag = 'g1-n100-b1' AND kind = 'sample' ORDER BY row_no" | sha256sum | cut -c1-16)
	local want=$(sha256sum <"$EXAMPLE/$S1" | cut -c1-16)
	[ "$r" = "$want" ] || { POST_MSG="the CRLF sample.tsv is not stored value for value"; return 1; }
}
p_bom() {
	local c=$(sqlq "$CASE")
	local r=$(q "$CDB" "SELECT count(*) FROM run_attrs a JOIN runs_v r USING (run_id) WHERE r.corpus = $c AND a.source = 'results' AND a.name = 'tag'")
	[ "$r" = 12 ] || { POST_MSG="$r results rows have a column named exactly 'tag', expected 12"; return 1; }
	r=$(q "$CDB" "SELECT count(*), sum(listed), sum(tput = 475.2284019761499 AND tag = 'g1-n100-b1') FROM runs_v WHERE corpus = $c" | tr '\t' ' ')
	[ "$r" = "13 12 1" ] || { POST_MSG="runs/listed/g1 tput '$r', expected '13 12 1'"; return 1; }
}
s_csv_quoted() { CORP=$CD/$CASE.csv; cp "$BADFIX/quoted.csv" "$CORP"; IMPORT=(import -q "$CORP"); }
p_csv_quoted() {
	local r=$(q "$CDB" "SELECT tag || '|' || target || '|' || (SELECT value FROM run_attrs a WHERE a.run_id = r.run_id AND a.name = 'note') || '|' || tput
		FROM runs_v r WHERE corpus = $(sqlq "$CASE") ORDER BY tag" | tr '\n' '#')
	local want='r1|a, b|say "hi", then "bye"|10.5#r2|x"y|plain|11.0#'
	[ "$r" = "$want" ] || { POST_MSG="values '$r', expected '$want'"; return 1; }
}
s_tsv_quotes() { table 'tag\tnote\ttput\nr1\t"unbalanced\t5\nr2\t"a ""b"" c"\t6\n'; }
p_tsv_quotes() { # TSV has no quoting: quotes are kept as they are
	local r=$(q "$CDB" "SELECT r.tag || '=' || a.value || '=' || r.tput FROM runs_v r JOIN run_attrs a USING (run_id)
		WHERE r.corpus = $(sqlq "$CASE") AND a.name = 'note' ORDER BY r.tag" | tr '\n' '#')
	local want='r1="unbalanced=5.0#r2="a ""b"" c"=6.0#'
	[ "$r" = "$want" ] || { POST_MSG="values '$r', expected '$want'"; return 1; }
}
s_csv_unterminated() { table 'tag,tput\nr1,"5\nr2,6\n' csv; }
s_empty_tag() { table 'tag\ttput\n\t5\nr2\t6\n'; }
s_trace_epoch_1e999() { ex; setcol "$CORP/$S1" 81 1 1e999; }
s_trace_int_overflow() { ex; setcol "$CORP/$S1" 5 8 99999999999999999999; }
s_json_valid_text() { ex; sed -i 's/"valid": true/"valid": "yes"/' "$CORP/$J1"; }
s_json_sessions_text() { ex; sed -i 's/"sessions_requested": 100/"sessions_requested": "100"/' "$CORP/$J1"; }
s_json_array() { ex; echo '[1, 2]' >"$CORP/$J1"; }
s_json_sessions_25_digits() { ex; sed -i 's/"sessions_requested": 100/"sessions_requested": 1234567890123456789012345/' "$CORP/$J1"; }
s_json_sessions_negative() { ex; sed -i 's/"sessions_requested": 100/"sessions_requested": -5/' "$CORP/$J1"; }
p_json_sessions_negative() { # the generator's own impossible report excludes its run, with the reason
	local r=$(q "$CDB" "SELECT excluded, exclusion_reasons FROM runs_v WHERE corpus = $(sqlq "$CASE") AND tag = 'g1-n100-b1'" | tr '\t' ' ')
	[ "$r" = "1 impossible-value: the generator record says sessions_requested -5 (must be zero or more)" ] ||
		{ POST_MSG="g1-n100-b1 excluded/reasons: '$r', expected excluded as impossible-value"; return 1; }
}
s_name_300_bytes() { ex; IMPORT=(import -q --name "$(printf 'n%.0s' $(seq 300))" "$CORP"); }
s_json_1e999() { ex; sed -i 's/"interactions_per_sec": [0-9.e+-]*/"interactions_per_sec": 1e999/' "$CORP/$J1"; }
s_json_nul_escape() { ex; sed -i 's/"handler_id": "[^"]*"/"handler_id": "a\\u0000b"/' "$CORP/$J1"; }
p_json_nul_escape() { # accepted: the value must then be stored whole, not cut at the NUL
	local r=$(q "$CDB" "SELECT hex(a.value) FROM run_attrs a JOIN runs_v r USING (run_id)
		WHERE r.corpus = $(sqlq "$CASE") AND r.tag = 'g1-n100-b1' AND a.source = 'generator' AND a.name = 'handler_id'")
	[ "$r" = 610062 ] || { POST_MSG="run_attrs generator handler_id stored as hex '$r', expected 610062 (a, NUL, b): the JSON string \"a\\u0000b\" was cut"; return 1; }
}
s_binary() {
	ex
	awk 'BEGIN { srand(11); for (i = 0; i < 8192; i++) printf "%c", int(rand() * 256) }' </dev/null >"$CORP/results.tsv"
	printf '\0\0\0' >>"$CORP/results.tsv"
}
s_binary_json() { ex; head -c 4096 /dev/urandom >"$CORP/$J1"; }
p_spaces_quotes() {
	local name="my \"odd\" corpus's copy"
	local r=$(q "$CDB" "SELECT count(*), (SELECT source_path FROM corpora WHERE name = $(sqlq "$name")) FROM runs_v WHERE corpus = $(sqlq "$name")")
	[ "$r" = "13	$CORP" ] || { POST_MSG="runs/source_path '$r', expected '13	$CORP'"; return 1; }
}
s_path_newline() {
	CORP="$CD/nl"$'\n''`touch X`$(touch X)'
	copy_tree "$EXAMPLE" "$CORP"
	IMPORT=(import -q "$CORP")
}
p_path_newline() {
	local name=nl$'\n''`touch X`$(touch X)'
	local n=$(ncorp "$name")
	[ "$n" = 13 ] || { POST_MSG="corpus named 'nl\\n\`touch X\`\$(touch X)': $n runs, expected 13"; return 1; }
	[ -z "$(find "$T" -name X)" ] || { POST_MSG="a file X appeared: $(find "$T" -name X)"; return 1; }
}

# ---- sizes ----
s_wide_table() { # a 10,000-column header (tag + 9,999 columns), one row
	CORP=$CD/$CASE.tsv
	awk 'BEGIN { printf "tag"; for (i = 1; i < 10000; i++) printf "\tc%d", i; printf "\nr1";
		for (i = 1; i < 10000; i++) printf "\t%d", i; printf "\n" }' >"$CORP"
	IMPORT=(import -q "$CORP")
}
p_wide_table() {
	local r=$(q "$CDB" "SELECT count(*), sum(a.name = 'c9999' AND a.value = '9999') FROM run_attrs a JOIN runs_v r USING (run_id)
		WHERE r.corpus = $(sqlq "$CASE") AND a.source = 'results'" | tr '\t' ' ')
	[ "$r" = "10000 1" ] || { POST_MSG="results attrs / c9999 found: '$r', expected '10000 1'"; return 1; }
}
s_wide_folder() { # results.tsv of the example widened to 10,000 columns
	ex
	awk -F'\t' '{ printf "%s", $0; for (i = NF + 1; i <= 10000; i++) printf "\t%s", (NR == 1 ? "x" i : NR * 100000 + i); printf "\n" }' \
		"$EXAMPLE/results.tsv" >"$CORP/results.tsv"
}
p_wide_folder() {
	local r=$(q "$CDB" "SELECT count(*), sum(a.name = 'x10000' AND a.value = '210000') FROM run_attrs a JOIN runs_v r USING (run_id)
		WHERE r.corpus = $(sqlq "$CASE") AND a.source = 'results'" | tr '\t' ' ')
	[ "$r" = "120000 1" ] || { POST_MSG="results attrs / x10000 of row 2: '$r', expected '120000 1' (12 rows x 10,000 columns)"; return 1; }
}
s_field_1mb() { # a 1 MiB field in results.tsv (a new column, 'x' elsewhere)
	ex
	awk 'BEGIN { FS = OFS = "\t"; s = "y"; while (length(s) < 1048576) s = s s; s = substr(s, 1, 1048576) }
		{ $(NF + 1) = (NR == 1 ? "note" : NR == 2 ? s : "x") } 1' "$EXAMPLE/results.tsv" >"$CORP/results.tsv"
}
p_field_1mb() {
	local r=$(q "$CDB" "SELECT length(a.value), r.tput = 475.2284019761499 FROM run_attrs a JOIN runs_v r USING (run_id)
		WHERE r.corpus = $(sqlq "$CASE") AND r.tag = 'g1-n100-b1' AND a.name = 'note'" | tr '\t' ' ')
	[ "$r" = "1048576 1" ] || { POST_MSG="note length / tput: '$r', expected '1048576 1'"; return 1; }
}
s_field_1mb_csv() { # a 1 MiB quoted CSV field with commas, quotes and newlines
	CORP=$CD/$CASE.csv
	awk 'BEGIN { s = "a,b\"\"c\nd"; while (length(s) < 1048576) s = s s;
		print "tag,tput,note"; print "r1,5,\"" s "\""; print "r2,6,short" }' >"$CORP"
	IMPORT=(import -q "$CORP")
}
p_field_1mb_csv() { # 131,072 copies of 'a,b"c' NEWLINE 'd' (7 bytes each once unquoted)
	local r=$(q "$CDB" "SELECT r.tag, length(a.value), length(a.value) - length(replace(a.value, char(10), '')), hex(substr(a.value, 1, 8))
		FROM run_attrs a JOIN runs_v r USING (run_id) WHERE r.corpus = $(sqlq "$CASE") AND a.name = 'note' ORDER BY r.tag" | tr '\t\n' ' #')
	local want='r1 917504 131072 612C6222630A6461#r2 5 0 73686F7274#'
	[ "$r" = "$want" ] || { POST_MSG="note values (tag, length, newlines, hex of the first bytes) '$r', expected '$want'"; return 1; }
}
s_tag_1mb() { # a 1 MiB run tag in the folder layout (its run folder cannot exist)
	ex
	awk 'BEGIN { FS = OFS = "\t"; s = "t"; while (length(s) < 1048576) s = s s; s = substr(s, 1, 1048576) }
		NR == 2 { $1 = s } 1' "$EXAMPLE/results.tsv" >"$CORP/results.tsv"
}
p_tag_1mb() {
	local r=$(q "$CDB" "SELECT length(r.tag), r.excluded, (SELECT count(*) FROM missing_files m WHERE m.run_id = r.run_id)
		FROM runs_v r WHERE r.corpus = $(sqlq "$CASE") AND length(r.tag) > 1000" | tr '\t' ' ')
	[ "$r" = "1048576 1 4" ] || { POST_MSG="long-tag run: length/excluded/missing files '$r', expected '1048576 1 4'"; return 1; }
}
s_trace_long_line() { # one trace line over TRACE_MAX_LINE (1 MiB)
	ex
	awk 'BEGIN { s = "1"; while (length(s) < 1100000) s = s s; print "1786868355\t" s "\t1\t1\t1\t1\t1\t1" }' >"$CORP/$S1"
}
s_nul_results() { ex; sed -i '7s/plain/pl\x00in/' "$CORP/results.tsv"; }
s_nul_trace() { ex; sed -i '40s/^\([^\t]*\t[^\t]*\t\)./\1\x00/' "$CORP/$S1"; }
s_nul_json() { ex; sed -i '3s|//|/\x00|' "$CORP/$J1"; }
s_deep_json_arrays() { ex; awk 'BEGIN { for (i = 0; i < 10000; i++) printf "["; for (i = 0; i < 10000; i++) printf "]"; print "" }' >"$CORP/$J1"; }
s_deep_json_in_record() { # a valid generator record with one extra key 10,000 objects deep
	ex
	awk 'NR == 2 { printf "  \"deep\": "; for (i = 0; i < 10000; i++) printf "{\"a\": "; printf "1";
		for (i = 0; i < 10000; i++) printf "}"; print "," } 1' "$EXAMPLE/$J1" >"$CORP/$J1"
}
s_deep_folders() { # 1,500 nested folders under a run folder
	ex
	local p=$CORP/runs/g1-n100-b1
	for _ in $(seq 1 1500); do p=$p/d; done
	mkdir -p "$p" 2>/dev/null || { SKIP="cannot create 1,500 nested folders"; return; }
	echo x >"$p/f.txt"
}

# ---- links, special files, many folders ----
s_symlink_loop_runs() { ex; ln -s . "$CORP/runs/loop"; IMPORT=(import "$CORP"); }
p_symlink_loop_runs() {
	local r=$(q "$CDB" "SELECT count(*), sum(tag LIKE '%loop%') FROM runs_v WHERE corpus = $(sqlq "$CASE")" | tr '\t' ' ')
	[ "$r" = "13 0" ] || { POST_MSG="runs / runs named loop: '$r', expected '13 0'"; return 1; }
	r=$(q "$CDB" "SELECT count(*) FROM files f JOIN corpora k USING (corpus_id) WHERE k.name = $(sqlq "$CASE") AND f.path LIKE '%loop%'")
	[ "$r" = 0 ] || { POST_MSG="$r files recorded under the link"; return 1; }
}
s_symlink_loops_everywhere() { # links to ., .. and to each other in several folders
	ex
	ln -s . "$CORP/loop"
	ln -s .. "$CORP/runs/g2-n100-b1/up"
	ln -s b "$CORP/runs/g1-n100-b1/a"
	ln -s a "$CORP/runs/g1-n100-b1/b"
	ln -s "$CORP" "$CORP/runs/g4-n100-b1/abs"
	IMPORT=(import "$CORP")
}
p_symlink_loops_everywhere() {
	local r=$(q "$CDB" "SELECT count(*) FROM runs_v WHERE corpus = $(sqlq "$CASE")")
	[ "$r" = 13 ] || { POST_MSG="$r runs, expected 13"; return 1; }
	r=$(grep -c 'symbolic link' "$CD/stderr")
	[ "$r" = 5 ] || { POST_MSG="$r 'symbolic link' warnings, expected 5 (one per link)"; return 1; }
}
s_fifo_trace() { ex; rm "$CORP/$S1"; mkfifo "$CORP/$S1"; IMPORT=(import "$CORP"); }
p_fifo_trace() {
	local r=$(q "$CDB" "SELECT excluded, exclusion_reasons FROM runs_v WHERE corpus = $(sqlq "$CASE") AND tag = 'g1-n100-b1'" | tr '\t' ' ')
	[[ "$r" == "1 "*no-trace* ]] || { POST_MSG="g1-n100-b1 with a FIFO for sample.tsv: '$r', expected excluded with 'no-trace'"; return 1; }
}
s_fifo_extra() { ex; mkfifo "$CORP/runs/g1-n100-b1/notes.fifo"; IMPORT=(import "$CORP"); }
p_fifo_extra() { local n=$(ncorp "$CASE"); [ "$n" = 13 ] || { POST_MSG="$n runs, expected 13"; return 1; }; }
s_many_dirs() { # $NDIRS empty folders under runs/ (on tmpfs when there is one: fast to remove)
	local base=$CD t0
	if [ -z "$SHM" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then
		SHM=$(mktemp -d /dev/shm/coreplan-hostile.XXXXXX) || SHM=""
	fi
	[ -n "$SHM" ] && base=$SHM
	CORP=$base/$CASE
	copy_tree "$EXAMPLE" "$CORP"
	IMPORT=(import -q "$CORP")
	t0=$(now)
	(cd "$CORP/runs" && seq -f 'empty%06g' 1 "$NDIRS" | xargs mkdir) || SKIP="cannot create $NDIRS folders"
	echo "# $CASE: created $NDIRS folders in $(elapsed "$t0" "$(now)") s under $base"
}
p_many_dirs() {
	local r=$(q "$CDB" "SELECT count(*), sum(listed), sum(NOT listed AND excluded AND exclusion_reasons LIKE 'unlisted%') FROM runs_v
		WHERE corpus = $(sqlq "$CASE")" | tr '\t' ' ')
	local want="$((NDIRS + 13)) 12 $((NDIRS + 1))"
	[ "$r" = "$want" ] || { POST_MSG="runs/listed/unlisted-excluded '$r', expected '$want'"; return 1; }
	r=$(q "$CDB" "SELECT count(*) FROM missing_files m JOIN runs_v r USING (run_id) WHERE r.corpus = $(sqlq "$CASE") AND r.tag LIKE 'empty%'")
	[ "$r" = "$((4 * NDIRS))" ] || { POST_MSG="missing files of the empty folders: $r, expected $((4 * NDIRS)) (load.json, idle.txt, sample.tsv, window.tsv each)"; return 1; }
}

# ---- tags that are code ----
p_sql_injection() {
	local r=$(q "$CDB" "SELECT count(*) FROM runs WHERE tag = '''; DROP TABLE runs; --'" 2>&1)
	[ "$r" = 1 ] || { POST_MSG="runs with the literal tag: '$r'"; return 1; }
	example_intact || return 1
	"$BIN" --db "$CDB" runs --where "tag='; DROP TABLE runs; --" --format tsv >"$CD/o.tsv" 2>&1
	r=$(tail -n +2 "$CD/o.tsv" | cut -f3)
	[ "$r" = "'; DROP TABLE runs; --" ] || { POST_MSG="runs --where tag=... gave '$(cat "$CD/o.tsv")'"; return 1; }
	r=$(q "$CDB" "SELECT count(*) FROM runs")
	[ "$r" = 15 ] || { POST_MSG="runs table has $r rows after the --where, expected 15"; return 1; }
}
s_path_traversal_tag() { # a tag that climbs out of runs/ into an existing run folder
	ex
	local rel=../../../../../../../../../..$CORP/runs/g2-n100-b1
	setcol "$CORP/results.tsv" 2 1 "$rel"
	TRAV_TAG=$rel
}
p_path_traversal_tag() { # the layout's files are looked up among the corpus's own files only
	local r=$(q "$CDB" "SELECT r.excluded, (SELECT count(*) FROM traces t WHERE t.run_id = r.run_id),
		(SELECT count(*) FROM generator_records g WHERE g.run_id = r.run_id),
		(SELECT count(*) FROM missing_files m WHERE m.run_id = r.run_id)
		FROM runs_v r WHERE r.corpus = $(sqlq "$CASE") AND r.tag = $(sqlq "$TRAV_TAG")" | tr '\t' ' ')
	[ "$r" = "1 0 0 4" ] || { POST_MSG="run '../..': excluded/traces/generator records/missing files '$r', expected '1 0 0 4' (nothing read through ..)"; return 1; }
	r=$(q "$CDB" "SELECT count(*) FROM files f JOIN corpora k USING (corpus_id) WHERE k.name = $(sqlq "$CASE") AND f.path LIKE '%..%'")
	[ "$r" = 0 ] || { POST_MSG="$r files recorded with '..' in their path"; return 1; }
}
s_bad_utf8_tag() { table 'tag\ttput\nr\xff\xfe1\t5\nr2\t6\n'; }
p_bad_utf8_tag() {
	[ $HAVE_PY = 1 ] || return 0
	"$BIN" --db "$CDB" runs --corpus "$CASE" --format json >"$CD/o.json" 2>"$CD/o.err"
	local r=$(python3 -c 'import json, sys; d = json.load(open(sys.argv[1], encoding="utf-8")); print(len(d["sections"]["runs"]["rows"]))' "$CD/o.json" 2>&1 | tail -1)
	[ "$r" = 2 ] || { POST_MSG="runs --format json with an invalid UTF-8 tag is not valid UTF-8 JSON: $r"; return 1; }
}
# The tag, the block and a level field carry a newline and backquotes;
# they end up in gnuplot titles, data files, Markdown tables and paths.
s_plot_tag() {
	CORP=$CD/$CASE.csv
	cat >"$CORP" <<'EOF'
tag,gmp,tput,block,arm
"r1
`touch X`",1,10,"b1
`touch X`","a
`touch X`"
"r2 `touch X`",2,19,"b1
`touch X`","a
`touch X`"
"r3 $(touch X)",1,11,"$(touch X)'q","c `touch X`"
"r4 $(touch X)",2,20,"$(touch X)'q","c `touch X`"
EOF
	IMPORT=(import -q "$CORP")
	touch "$CD/marker"
}
x_files() { # any file named X created since the case started
	{
		find "$T" -name X -newer "$CD/marker" 2>/dev/null
		for d in "$ROOT" "${HOME:-/root}" "${TMPDIR:-/tmp}" /; do
			find "$d" -maxdepth 1 -name X -newer "$CD/marker" 2>/dev/null
		done
	} | sort -u
}
p_plot_tag() {
	local c=$(sqlq "$CASE") msg="" r rc x rc_arm
	r=$(q "$CDB" "SELECT count(*) FROM runs_v WHERE corpus = $c AND tag IN ('r1' || char(10) || '\`touch X\`', 'r2 \`touch X\`', 'r3 \$(touch X)', 'r4 \$(touch X)')")
	[ "$r" = 4 ] || msg+="$r of the 4 tags stored literally; "
	mkdir -p "$CD/work" "$CD/plots"
	# --by a numeric field: the hostile text is in tags and block labels. The
	# arms differ beyond the level: plot refuses to pool them (exit 2, naming
	# arm), and --pool arm pools them on purpose.
	(cd "$CD/work" && "${TIMEOUT[@]}" "$BIN" --db "$CDB" plot blocks --by gmp --corpus "$CASE" --out "$CD/plots/p.svg") >"$CD/p.out" 2>"$CD/p.err"
	rc=$?
	if [ $rc != 2 ] || ! grep -q "would pool runs that differ in more than the level (gmp): arm" "$CD/p.err"; then
		msg+="plot blocks --by gmp without --pool: exit $(rcdesc $rc), expected 2 naming arm: $(head -c 300 "$CD/p.err"); "
	fi
	(cd "$CD/work" && "${TIMEOUT[@]}" "$BIN" --db "$CDB" plot blocks --by gmp --pool arm --corpus "$CASE" --out "$CD/plots/p.svg") >"$CD/p.out" 2>"$CD/p.err"
	rc=$?
	if [ $rc != 0 ]; then
		msg+="plot blocks --by gmp: exit $(rcdesc $rc): $(head -c 300 "$CD/p.err"); "
	elif ! grep -q '<svg' "$CD/plots/p.svg" 2>/dev/null; then
		msg+="plot blocks --by gmp: exit 0 but $CD/plots/p.svg is not an SVG ($(stat -c %s "$CD/plots/p.svg" 2>&1)); "
	fi
	# --by the field that holds the newline and backquotes
	(cd "$CD/work" && "${TIMEOUT[@]}" "$BIN" --db "$CDB" plot blocks --by arm --corpus "$CASE" --out "$CD/plots/q.svg") >"$CD/q.out" 2>"$CD/q.err"
	rc=$?
	rc_arm=$rc
	if [ $rc = 0 ]; then
		grep -q '<svg' "$CD/plots/q.svg" 2>/dev/null || msg+="plot blocks --by arm: exit 0 but q.svg is not an SVG; "
	elif [ $rc != 1 ]; then
		msg+="plot blocks --by arm: exit $(rcdesc $rc); "
	else
		grep -q '^coreplan: error: ' "$CD/q.err" || msg+="plot blocks --by arm: exit 1 without a 'coreplan: error:' line; "
		grep -Eqi "arm|numer|number" "$CD/q.err" ||
			msg+="plot blocks --by arm (a text field) fails without saying which field or why: '$(head -c 300 "$CD/q.err" | tr '\n' ' ')' (command: $(cmdline --db "$CDB" plot blocks --by arm --corpus "$CASE" --out "$CD/plots/q.svg")); "
		if [ -e "$CD/plots/q.svg" ] && [ ! -s "$CD/plots/q.svg" ]; then
			msg+="plot blocks --by arm failed but left an empty image q.svg behind; "
		fi
	fi
	(cd "$CD/work" && "${TIMEOUT[@]}" "$BIN" --db "$CDB" report --corpus "$CASE" --out "$CD/r") >"$CD/r.out" 2>"$CD/r.err"
	rc=$?
	if [ $rc != 0 ]; then
		msg+="report: exit $(rcdesc $rc): $(head -c 300 "$CD/r.err"); "
	elif [ ! -s "$CD/r/report.md" ]; then
		msg+="report: exit 0 but no report.md; "
	fi
	grep -aqE 'runtime error|Sanitizer|[Aa]ssertion' "$CD/p.err" "$CD/q.err" "$CD/r.err" && msg+="sanitizer report from plot/report; "
	x=$(x_files)
	[ -z "$x" ] || msg+="a file X was created (the tag was executed): $x; "
	echo "# $CASE: plot --by gmp: $(stat -c %s "$CD/plots/p.svg" 2>/dev/null || echo no) bytes of SVG; plot --by arm: exit $rc_arm, $(stat -c %s "$CD/plots/q.svg" 2>/dev/null || echo no) bytes, stderr $(head -c 120 "$CD/q.err" | tr '\n' ' ')"
	[ -z "$msg" ] || { POST_MSG="${msg%; }"; return 1; }
}

# ---- confined reads (issue 16): links, FIFOs and patterns that leave the folder ----
mini_manifest() { # EXTRA-LINES: a manifest of the example's results table
	printf 'layout = t\n[table main]\nfile = results.tsv\ntag = {tag}\n%s\n' "$1" >"$CORP/coreplan.manifest"
}
s_manifest_symlink() { # a manifest outside that would import fine, through a link
	ex
	printf '# outside the corpus\nlayout = outside\n[table main]\nfile = results.tsv\ntag = {tag}\n' >"$CD/outside.manifest"
	ln -s "$CD/outside.manifest" "$CORP/coreplan.manifest"
}
s_manifest_fifo() { ex; mkfifo "$CORP/coreplan.manifest"; }
s_results_fifo() { ex; rm "$CORP/results.tsv"; mkfifo "$CORP/results.tsv"; }
s_discover_dotdot() { ex; mini_manifest 'discover = ../*/'; }
s_discover_absolute() { ex; mini_manifest "discover = $CD/*/"; }
s_rejected_dotdot() { ex; mini_manifest 'rejected = ../*.REJECTED'; touch "$CD/x.REJECTED"; }
s_file_absolute() { ex; mini_manifest ''; sed -i "s|^file = .*|file = $CORP/results.tsv|" "$CORP/coreplan.manifest"; }
s_discover_link() { # a folder of the pattern is a link to run folders outside
	ex
	mkdir -p "$CD/elsewhere/a" "$CD/elsewhere/b"
	ln -s "$CD/elsewhere" "$CORP/ext"
	mini_manifest 'discover = ext/*/'
}
s_table_link() { # x.tsv links to y.tsv, beside another x.tsv: the target is imported
	mkdir -p "$CD/a" "$CD/b"
	printf 'tag\ttput\nr1\t5\nr2\t6\n' >"$CD/b/y.tsv"
	printf 'tag\ttput\nz1\t9\n' >"$CD/b/x.tsv"
	ln -s ../b/y.tsv "$CD/a/x.tsv"
	CORP=$CD/a/x.tsv
	IMPORT=(import "$CORP")
}
p_table_link() {
	local r=$(q "$CDB" "SELECT group_concat(tag, ',') FROM (SELECT tag FROM runs_v WHERE corpus = 'x' ORDER BY tag)")
	[ "$r" = r1,r2 ] || { POST_MSG="runs of corpus x: '$r', expected 'r1,r2' (the link's target y.tsv)"; return 1; }
	r=$(q "$CDB" "SELECT f.path || ' ' || f.size || ' ' || f.sha256 FROM files f JOIN corpora k USING (corpus_id) WHERE k.name = 'x'")
	local want="y.tsv $(stat -c %s "$CD/b/y.tsv") $(sha256sum <"$CD/b/y.tsv" | cut -c1-64)"
	[ "$r" = "$want" ] || { POST_MSG="files row '$r', expected '$want'"; return 1; }
	grep -qF "is a symbolic link: imported its target '$CD/b/y.tsv'" "$CD/stdout" ||
		{ POST_MSG="the import document does not say the table was a link: $(head -c 600 "$CD/stdout")"; return 1; }
}

# name | setup | expected exit(s, comma-separated) | stderr fragment (grep -F; "re:" = grep -E) | post check
# ---- instance catalogs (coreplan catalog) ----
CAT_HEAD='instance\tprovider\tseries\tvcpus\tthreads_per_core\tsustained_vcpu_fraction\tmemory_gib\tcpu_family\tprice_per_hour\tprice_region\tprice_source\tprice_date\n'
CAT_ROW='e2-small\tgce\te2\t2\t2\t0.25\t2\tgce-e2\t0.01675\tus-central1\tsrc\t2026-11-29\n'
cat_file() { # PRINTF-TEXT: $CD/$CASE.tsv stored with `coreplan catalog`
	CORP=$CD/$CASE.tsv
	printf "$1" >"$CORP"
	IMPORT=(catalog "$CORP")
}
s_cat_header_only() { cat_file "$CAT_HEAD"; }
s_cat_vcpus_overflow() { cat_file "${CAT_HEAD}e2-small\tgce\te2\t99999999999999999999\t2\t0.25\t2\tgce-e2\t0.01\tr\ts\t2026-11-29\n"; }
s_cat_fraction_nan() { cat_file "${CAT_HEAD}e2-small\tgce\te2\t2\t2\tNaN\t2\tgce-e2\t0.01\tr\ts\t2026-11-29\n"; }
s_cat_price_1e999() { cat_file "${CAT_HEAD}e2-small\tgce\te2\t2\t2\t0.25\t2\tgce-e2\t1e999\tr\ts\t2026-11-29\n"; }
s_cat_date_feb30() { cat_file "${CAT_HEAD}e2-small\tgce\te2\t2\t2\t0.25\t2\tgce-e2\t0.01\tr\ts\t2026-02-30\n"; }
s_cat_nul() {
	cat_file "$CAT_HEAD$CAT_ROW"
	printf 'e2-medium\tgce\te2\t2\t2\t0.5\t4\tgce\0e2\t0.03\tr\ts\t2026-11-29\n' >>"$CORP"
}
s_cat_binary() {
	CORP=$CD/$CASE.tsv
	awk 'BEGIN { srand(7); for (i = 0; i < 8192; i++) printf "%c", int(rand() * 256) }' </dev/null >"$CORP"
	IMPORT=(catalog "$CORP")
}
s_cat_good_then_bad() { # two files, the second malformed: nothing stored
	printf "$CAT_HEAD$CAT_ROW" >"$CD/good.tsv"
	cat_file "${CAT_HEAD}x\tgce\te2\t3\t2\t1\t2\tgce-e2\t0.01\tr\ts\t2026-11-29\n"
	IMPORT=(catalog "$CD/good.tsv" "$CORP")
}
s_cat_missing() { CORP=$CD/nosuch.tsv; IMPORT=(catalog "$CORP"); }
s_cat_sql_injection() { # names that are SQL, stored as text
	cat_file "${CAT_HEAD}x'); DROP TABLE runs; --\tgce\te2\t2\t2\t1\t8\tgce-e2\t0.1\tr\t'; DELETE FROM corpora; --\t2026-11-29\n"
	IMPORT=(catalog --name "c'; DROP TABLE catalogs; --" "$CORP")
}
p_cat_sql_injection() {
	local r=$(q "$CDB" "SELECT c.name, i.instance, i.price_source FROM instances i JOIN catalogs c USING (catalog_id)")
	[ "$r" = "c'; DROP TABLE catalogs; --	x'); DROP TABLE runs; --	'; DELETE FROM corpora; --" ] ||
		{ POST_MSG="stored '$r'"; return 1; }
	"$BIN" --db "$CDB" catalog --show --format tsv >"$CD/o.tsv" 2>&1
	r=$(tail -n +2 "$CD/o.tsv" | cut -f1,2)
	[ "$r" = "c'; DROP TABLE catalogs; --	x'); DROP TABLE runs; --" ] || { POST_MSG="catalog --show gave '$(cat "$CD/o.tsv")'"; return 1; }
}
s_cat_field_1mb() { # a 1 MiB price_source
	CORP=$CD/$CASE.tsv
	awk -v h="$CAT_HEAD" 'BEGIN { s = "y"; while (length(s) < 1048576) s = s s; s = substr(s, 1, 1048576);
		printf h; printf "e2-small\tgce\te2\t2\t2\t0.25\t2\tgce-e2\t0.01\tr\t%s\t2026-11-29\n", s }' >"$CORP"
	IMPORT=(catalog "$CORP")
}
p_cat_field_1mb() {
	local r=$(q "$CDB" "SELECT length(price_source) FROM instances")
	[ "$r" = 1048576 ] || { POST_MSG="price_source length '$r', expected 1048576"; return 1; }
}
s_cat_many() { # 50,000 instance types
	CORP=$CD/$CASE.tsv
	awk -v h="$CAT_HEAD" 'BEGIN { printf h; for (i = 1; i <= 50000; i++)
		printf "t%d\tgce\tt\t%d\t2\t1\t8\tgce-t\t%.4f\tr\ts\t2026-11-29\n", i, 2 * (1 + i % 64), i / 1000 }' >"$CORP"
	IMPORT=(catalog "$CORP")
}
p_cat_many() {
	local r=$(q "$CDB" "SELECT count(*), max(line), sum(physical_cores = vcpus / 2) FROM instances" | tr '\t' ' ')
	[ "$r" = "50000 50001 50000" ] || { POST_MSG="instances / last line / derived cores: '$r'"; return 1; }
}

# ---- Go benchmark text (issue 15; importers/tool_gobench.c) ----
GB_HEAD='goos: linux\ngoarch: amd64\npkg: example.com/bench\n'
gb_file() { # PRINTF-TEXT: a single Go benchmark file $CD/$CASE.txt
	CORP=$CD/$CASE.txt
	printf "$1" >"$CORP"
	IMPORT=(import -q "$CORP")
}
gb_folder() { # NEW-TXT-TEXT: a folder with the real old.txt and a hostile new.txt
	CORP=$CD/$CASE
	mkdir -p "$CORP"
	cp "$ROOT/fixtures/tools/gobench/old.txt" "$CORP/old.txt"
	printf "$1" >"$CORP/new.txt"
	IMPORT=(import -q "$CORP")
}
s_gb_iters_text() { gb_file "${GB_HEAD}BenchmarkA-2 \t 1000 \t 5 ns/op\nBenchmarkA-2 \t ten \t 5 ns/op\n"; }
s_gb_nan() { gb_file "${GB_HEAD}BenchmarkA-2 \t 1000 \t NaN ns/op\n"; }
s_gb_1e999() { gb_file "${GB_HEAD}BenchmarkA-2 \t 1000 \t 1e999 ns/op\n"; }
s_gb_no_unit() { gb_file "${GB_HEAD}BenchmarkA-2 \t 1000 \t 5 ns/op \t 7\n"; }
s_gb_unit_twice() { gb_file "${GB_HEAD}BenchmarkA-2 \t 1000 \t 5 ns/op \t 7 ns/op\n"; }
s_gb_reserved_key() { gb_file "${GB_HEAD}gomaxprocs: 8\nBenchmarkA \t 1000 \t 5 ns/op\n"; }
s_gb_nul() { gb_file "${GB_HEAD}BenchmarkA-2 \t 1000 \t 5 ns/op\nBenchmarkA-2 \t 1000 \t 5\0 ns/op\n"; }
s_gb_zero_procs() { gb_file "${GB_HEAD}BenchmarkA-0 \t 1000 \t 5 ns/op\n"; }
s_gb_folder_bad_second() { gb_folder "${GB_HEAD}BenchmarkSum/size=100 \t 2000 \t 97.25 ns/op\nBenchmarkSum/size=100 \t 2000 \t 1e999 ns/op\n"; }
s_gb_folder_mixed() { # old.txt is Go, new.txt a table: neither a Go folder nor a profile
	gb_folder 'tag\ttput\nr1\t3\n'
}
s_gb_format_unknown() { gb_file "${GB_HEAD}BenchmarkA-2 \t 1000 \t 5 ns/op\n"; IMPORT=(import -q --format nosuch "$CORP"); }
s_gb_format_forced_table() { # --format gobench on a TSV table: no result lines
	CORP=$CD/$CASE.tsv
	printf 'tag\ttput\nr1\t3\n' >"$CORP"
	IMPORT=(import -q --format gobench "$CORP")
}
s_gb_file_name_unsafe() { gb_file "${GB_HEAD}BenchmarkA-2 \t 1000 \t 5 ns/op\n"; mv "$CORP" "$CD/new {x}.txt"; CORP="$CD/new {x}.txt"; IMPORT=(import -q "$CORP"); }
# ---- tool outputs (issue 15): hyperfine --export-json, Google Benchmark JSON ----
HF_SAMPLE=$ROOT/fixtures/tools/hyperfine/sleep_threads.json
GBJ_SAMPLE=$ROOT/fixtures/tools/gbench/bm_sum.json
hf() { # SED-SCRIPT: the committed hyperfine sample, edited, as $CASE.json
	CORP=$CD/$CASE.json
	sed "$1" "$HF_SAMPLE" >"$CORP"
	IMPORT=(import -q "$CORP")
}
gbj() { # SED-SCRIPT: the committed Google Benchmark sample, edited
	CORP=$CD/$CASE.json
	sed "$1" "$GBJ_SAMPLE" >"$CORP"
	IMPORT=(import -q "$CORP")
}
s_hf_time_text() { hf '13s/0.012867163940000002/"fast"/'; }
s_hf_time_1e999() { hf '13s/0.012867163940000002/1e999/'; }
s_hf_time_negative() { hf '13s/0.012867163940000002/-0.5/'; }
s_hf_exit_codes_short() { hf '18d'; }
s_hf_exit_code_real() { hf '18s/0/0.5/'; }
s_hf_parameter_clash() { hf '23s/"threads"/"time_s"/'; }
s_hf_truncated() { hf '30,$d'; IMPORT=(import -q --format hyperfine "$CORP"); }
s_hf_results_object() { hf '2s/\[/"none", "x": [/'; IMPORT=(import -q --format hyperfine "$CORP"); }
s_hf_nul() { hf '3s/^/\x00/'; IMPORT=(import -q --format hyperfine "$CORP"); }
s_hf_times_empty() { hf '13,15d'; }
s_gbj_real_time_text() { gbj '65s/3.6944439971332594e+02/"slow"/'; }
s_gbj_cpu_time_1e999() { gbj '50s/: .*,/: 1e999,/'; }
s_gbj_threads_zero() { gbj '63s/1/0/'; }
s_gbj_iterations_25_digits() { gbj '48s/34793/1234567890123456789012345/'; }
s_gbj_time_unit_min() { gbj '51s/"ns"/"min"/'; }
s_gbj_counter_clash() { gbj '52s/"bytes_per_second"/"valid"/'; }
s_gbj_only_aggregates() { gbj 's/"run_type": "iteration"/"run_type": "aggregate"/'; }
s_gbj_num_cpus_text() { gbj '6s/2/"two"/'; }
s_gbj_truncated() { gbj '100,$d'; IMPORT=(import -q --format gbench "$CORP"); }

CASES=(
	# the import issue's list
	"results-missing|s_results_missing|1|results.tsv|"
	"results-empty|s_results_empty|1|re:results\.tsv.*empty|"
	"results-bom-only|s_results_bom_only|1|re:results\.tsv.*empty|"
	"results-header-only|s_header_only|1|results.tsv:1|"
	"row-too-few-fields|s_few_fields|1|results.tsv:3|"
	"row-too-many-fields|s_many_fields|1|results.tsv:3|"
	"tput-non-numeric|s_tput_abc|1|re:results\.tsv:2:13.*abc|"
	"sessions-non-numeric|s_sessions_ten|1|re:results\.tsv:2:3.*ten|"
	"tput-NaN|s_tput_nan|1|re:results\.tsv:2:13.*NaN|"
	"tput-inf|s_tput_inf|1|re:results\.tsv:2:13.*inf|"
	"tput-negative|s_tput_neg|1|results.tsv:2:13|"
	"tput-1e999|s_tput_1e999|1|re:results\.tsv:2:13.*1e999|"
	"tput-minus-zero|s_tput_minus_zero|0||p_tput_minus_zero"
	"gomaxprocs-20-digits|s_gomaxprocs_overflow|1|results.tsv:2:2|"
	"crlf-everywhere|s_crlf|0||p_crlf"
	"utf8-bom-results|s_bom|0||p_bom"
	"csv-quoted-fields|s_csv_quoted|0||p_csv_quoted"
	"tsv-quote-characters|s_tsv_quotes|0||p_tsv_quotes"
	"csv-unterminated-quote|s_csv_unterminated|1|csv-unterminated-quote.csv:2|"
	"duplicate-tags|s_dup_tags|1|re:results\.tsv:5.*line 2|"
	"empty-tag|s_empty_tag|1|empty-tag.tsv:2|"
	"trace-out-of-order|s_trace_order|1|sample.tsv:11|"
	"trace-counter-reset|s_trace_reset|1|re:sample\.tsv:20:5.*cpu_total_j|"
	"trace-epoch-1e999|s_trace_epoch_1e999|1|sample.tsv:81:1|"
	"trace-integer-20-digits|s_trace_int_overflow|1|sample.tsv:5:8|"
	"json-truncated|s_json_truncated|1|re:load\.json:[0-9]+:[0-9]+|"
	"json-invalid|s_json_stray|1|re:load\.json:3:[0-9]+|"
	"json-valid-is-text|s_json_valid_text|1|re:load\.json:29:[0-9]+.*valid|"
	"json-sessions-is-text|s_json_sessions_text|1|re:load\.json:4:[0-9]+.*sessions_requested|"
	"json-top-level-array|s_json_array|1|load.json:1:1|"
	"json-1e999|s_json_1e999|1|re:load\.json:9:[0-9]+.*interactions_per_sec|"
	"json-sessions-25-digits|s_json_sessions_25_digits|1|load.json:4:3: 'sessions_requested' is an integer beyond the 64-bit range|"
	"json-sessions-negative|s_json_sessions_negative|0||p_json_sessions_negative"
	"name-300-bytes|s_name_300_bytes|2|is 300 bytes long: at most 255|"
	"json-string-with-u0000|s_json_nul_escape|0,1|load.json:23|p_json_nul_escape"
	"binary-garbage-results|s_binary|1|results.tsv|"
	"binary-garbage-json|s_binary_json|1|load.json|"
	"unreadable-file|s_unreadable|1|re:load\.json.*Permission denied|"
	"path-spaces-and-quotes|s_spaces_quotes|0||p_spaces_quotes"
	"path-newline-and-backquotes|s_path_newline|0||p_path_newline"
	# sizes
	"header-10000-columns-table|s_wide_table|0||p_wide_table"
	"header-10000-columns-folder|s_wide_folder|0||p_wide_folder"
	"field-1MiB-results|s_field_1mb|0||p_field_1mb"
	"field-1MiB-csv-quoted-newlines|s_field_1mb_csv|0||p_field_1mb_csv"
	"tag-1MiB-folder-layout|s_tag_1mb|0||p_tag_1mb"
	"trace-line-over-1MiB|s_trace_long_line|1|re:sample\.tsv:1:.*longer than|"
	"NUL-mid-results|s_nul_results|1|re:results\.tsv:7:[0-9]+.*NUL|"
	"NUL-mid-trace|s_nul_trace|1|re:sample\.tsv:40:[0-9]+.*NUL|"
	"NUL-in-json|s_nul_json|1|re:load\.json:3:[0-9]+.*NUL|"
	"json-10000-deep-arrays|s_deep_json_arrays|1|re:load\.json:1:[0-9]+.*nested|"
	"json-10000-deep-objects-in-record|s_deep_json_in_record|1|re:load\.json:2:[0-9]+.*nested|"
	"folders-1500-deep|s_deep_folders|1|nested|"
	# instance catalogs
	"catalog-header-only|s_cat_header_only|1|header but no instances|"
	"catalog-vcpus-20-digits|s_cat_vcpus_overflow|1|re:catalog-vcpus-20-digits\.tsv:2:4: vcpus|"
	"catalog-fraction-NaN|s_cat_fraction_nan|1|re:\.tsv:2:6: sustained_vcpu_fraction|"
	"catalog-price-1e999|s_cat_price_1e999|1|re:\.tsv:2:9: price_per_hour|"
	"catalog-date-feb-30|s_cat_date_feb30|1|re:\.tsv:2:12: price_date '2026-02-30'|"
	"catalog-NUL|s_cat_nul|1|re:\.tsv:3:[0-9]+.*NUL|"
	"catalog-binary-garbage|s_cat_binary|1|catalog-binary-garbage.tsv|"
	"catalog-good-then-bad|s_cat_good_then_bad|1|re:\.tsv:2:4: vcpus 3 is not a multiple|"
	"catalog-missing-file|s_cat_missing|1|nosuch.tsv|"
	"catalog-names-sql-injection|s_cat_sql_injection|0||p_cat_sql_injection"
	"catalog-field-1MiB|s_cat_field_1mb|0||p_cat_field_1mb"
	"catalog-50000-instances|s_cat_many|0||p_cat_many"
	# links, special files, many folders
	"symlink-loop-in-runs|s_symlink_loop_runs|0|re:runs/loop.*symbolic link|p_symlink_loop_runs"
	"symlink-loops-everywhere|s_symlink_loops_everywhere|0|symbolic link|p_symlink_loops_everywhere"
	"fifo-as-trace|s_fifo_trace|0|not a regular file|p_fifo_trace"
	"fifo-extra-file|s_fifo_extra|0|not a regular file|p_fifo_extra"
	"many-empty-run-folders|s_many_dirs|0||p_many_dirs"
	# tags that are code
	"tag-sql-injection|s_sql_injection|0||p_sql_injection"
	"tag-path-traversal|s_path_traversal_tag|0||p_path_traversal_tag"
	"tag-invalid-utf8|s_bad_utf8_tag|0||p_bad_utf8_tag"
	"tag-newline-backquotes-plot-report|s_plot_tag|0||p_plot_tag"
	# confined reads (issue 16)
	"manifest-symlink-to-outside|s_manifest_symlink|1|re:coreplan\.manifest' is a symbolic link: not followed|"
	"manifest-fifo|s_manifest_fifo|1|re:coreplan\.manifest' is a FIFO, not a regular file|"
	"results-table-fifo|s_results_fifo|1|results.tsv|"
	"manifest-discover-dotdot|s_discover_dotdot|1|'discover = ../*/' leaves the corpus folder|"
	"manifest-discover-absolute|s_discover_absolute|1|re:'discover = /.*' leaves the corpus folder|"
	"manifest-rejected-dotdot|s_rejected_dotdot|1|'rejected = ../*.REJECTED' leaves the corpus folder|"
	"manifest-file-absolute|s_file_absolute|1|re:'file = /.*' leaves the corpus folder|"
	"manifest-discover-through-link|s_discover_link|1|re:pattern 'ext/\*/': 'ext' is a symbolic link|"
	"single-table-through-link|s_table_link|0||p_table_link"
	# Go benchmark text (issue 15, importers/tool_gobench.c)
	"gobench-iterations-text|s_gb_iters_text|1|re:gobench-iterations-text\.txt:5:[0-9]+: iteration count 'ten'|"
	"gobench-value-NaN|s_gb_nan|1|re:\.txt:4:[0-9]+: value 'NaN' is not a finite decimal number|"
	"gobench-value-1e999|s_gb_1e999|1|re:\.txt:4:[0-9]+: value '1e999' is not a finite decimal number|"
	"gobench-value-without-unit|s_gb_no_unit|1|re:\.txt:4:[0-9]+: value '7' has no unit|"
	"gobench-unit-twice|s_gb_unit_twice|1|re:\.txt:4:[0-9]+: unit 'ns/op'|"
	"gobench-config-key-gomaxprocs|s_gb_reserved_key|1|re:\.txt:4:1: configuration key 'gomaxprocs'|"
	"gobench-NUL|s_gb_nul|1|re:\.txt:5:[0-9]+: NUL byte|"
	"gobench-gomaxprocs-0|s_gb_zero_procs|1|re:\.txt:4:[0-9]+: GOMAXPROCS suffix -0|"
	"gobench-folder-second-file-bad|s_gb_folder_bad_second|1|re:new\.txt:5:[0-9]+: value '1e999'|"
	"gobench-folder-mixed-formats|s_gb_folder_mixed|1|'new.txt' is not a tool's output|"
	"gobench-format-unknown|s_gb_format_unknown|2|unknown format 'nosuch' (output formats text, md, tsv, csv, json, html; tool formats gobench|"
	"gobench-format-forced-on-table|s_gb_format_forced_table|1|no benchmark result lines|"
	"gobench-file-name-braces|s_gb_file_name_unsafe|1|its name may hold only letters|"
	# tool outputs (issue 15): hyperfine --export-json
	"hyperfine-time-text|s_hf_time_text|1|re:hyperfine-time-text\.json:[0-9]+:[0-9]+: [$]\.results\[0\]\.times\[0\]: a string, expected a time in seconds|"
	"hyperfine-time-1e999|s_hf_time_1e999|1|$.results[0].times[0]: a number beyond a double's range|"
	"hyperfine-time-negative|s_hf_time_negative|1|$.results[0].times[0]: -0.5 is negative|"
	"hyperfine-exit-codes-short|s_hf_exit_codes_short|1|$.results[0].exit_codes: 2 entries for 3 times|"
	"hyperfine-exit-code-real|s_hf_exit_code_real|1|$.results[0].exit_codes[0]: 0.5, expected an integer exit code|"
	"hyperfine-parameter-clash|s_hf_parameter_clash|1|$.results[0].parameters.time_s: the name of a column|"
	"hyperfine-truncated|s_hf_truncated|1|re:hyperfine-truncated\.json:[0-9]+:[0-9]+: .*truncated: the file ends where|"
	"hyperfine-results-object|s_hf_results_object|1|$.results: a string, expected an array of results|"
	"hyperfine-NUL|s_hf_nul|1|re:hyperfine-NUL\.json:3:1: .*a NUL byte|"
	"hyperfine-times-empty|s_hf_times_empty|1|$.results[0].times: empty|"
	# tool outputs (issue 15): Google Benchmark --benchmark_format=json
	"gbench-real-time-text|s_gbj_real_time_text|1|$.benchmarks[1].real_time: a string, expected a number|"
	"gbench-cpu-time-1e999|s_gbj_cpu_time_1e999|1|$.benchmarks[0].cpu_time: a number beyond a double's range|"
	"gbench-threads-zero|s_gbj_threads_zero|1|$.benchmarks[1].threads: 0 is below 1|"
	"gbench-iterations-25-digits|s_gbj_iterations_25_digits|1|$.benchmarks[0].iterations:|"
	"gbench-time-unit-min|s_gbj_time_unit_min|1|$.benchmarks[0].time_unit: 'min'|"
	"gbench-counter-clash|s_gbj_counter_clash|1|$.benchmarks[0].valid: a counter named like a column|"
	"gbench-only-aggregates|s_gbj_only_aggregates|1|$.benchmarks: only aggregate rows|"
	"gbench-num-cpus-text|s_gbj_num_cpus_text|1|$.context.num_cpus: a string, expected a number|"
	"gbench-truncated|s_gbj_truncated|1|re:gbench-truncated\.json:[0-9]+:[0-9]+: .*truncated: the file ends where|"
	# wrk text output (importers/tool_wrk.c): a folder of fixtures/tools/wrk with one file spoilt
	"wrk-unknown-latency-unit|s_wrk_unit|1|re:c4-run1\.txt:4:[0-9]+: unknown unit 'parsecs'|"
	"wrk-truncated-before-requests|s_wrk_truncated|1|re:c4-run1\.txt:[0-9]+: wrk output ends before the requests line|"
	"wrk-nul-byte|s_wrk_nul|1|c4-run1.txt:3:8: NUL byte in wrk output|"
	"wrk-percent-over-100|s_wrk_pct|1|re:c4-run1\.txt:4:[0-9]+: percentage 154.73% is over 100|"
	"wrk-lua-trailing-text|s_wrk_lua|0||p_wrk_lua"
	"wrk-zero-connections|s_wrk_zero_conns|1|c4-run1.txt:2:17: wrk runs at least one thread and one connection|"
	"wrk-threads-20-digits|s_wrk_threads_overflow|1|c4-run1.txt:2:3: expected a thread count|"
	"wrk-negative-requests|s_wrk_neg_requests|1|c4-run1.txt:11:3: expected a request count, not '-|"
	"wrk-socket-errors-no-comma|s_wrk_socket_comma|1|re:c4-run1\.txt:12:[0-9]+: expected ',' after the connect count|"
	"wrk-percentiles-out-of-order|s_wrk_pct_order|1|c4-run1.txt:7:6: expected wrk's next latency percentile ('50%')|"
	"wrk-format-on-a-table|s_wrk_format_table|1|re:results\.tsv:1:1: .* is not wrk's, and the Running line never follows|"
	"wrk-requests-per-sec-nan|s_wrk_rps_nan|1|re:c4-run1\.txt:12:[0-9]+: expected a request rate, not 'nan'|"
)

# wrk (tool_wrk.c): a copy of the committed sample folder, c4-run1.txt spoilt
wrk_corpus() {
	CORP=$CD/$CASE
	copy_tree "$ROOT/fixtures/tools/wrk" "$CORP"
	IMPORT=(import -q "$CORP")
	W1=$CORP/c4-run1.txt
}
s_wrk_unit() { wrk_corpus; sed -i '4s/ms /parsecs /' "$W1"; }
s_wrk_truncated() { wrk_corpus; sed -i '6,$d' "$W1"; }
s_wrk_nul() { wrk_corpus; sed -i '3s/^  Threa/  Threa\x00/' "$W1"; }
s_wrk_pct() { wrk_corpus; sed -i '4s/ \([0-9][0-9]\.[0-9][0-9]%\)$/ 154.73%/' "$W1"; }
s_wrk_lua() { wrk_corpus; echo 'hello from a lua done()' >>"$W1"; }
# a Lua script's done() output after Transfer/sec is kept as the run's script_output
p_wrk_lua() {
	local r=$(q "$CDB" "SELECT r.tag, a.value FROM runs_v r JOIN run_attrs a USING (run_id)
		WHERE r.corpus = $(sqlq "$CASE") AND a.name = 'script_output'" | tr '\t' ' ')
	[ "$r" = "c4-run1.txt:1 hello from a lua done()" ] ||
		{ POST_MSG="script_output rows '$r', expected 'c4-run1.txt:1 hello from a lua done()'"; return 1; }
	r=$(ncorp "$CASE")
	[ "$r" = 6 ] || { POST_MSG="$r runs, expected the 6 files' 6"; return 1; }
}
s_wrk_zero_conns() { wrk_corpus; sed -i '2s/ 4 connections/ 0 connections/' "$W1"; }
s_wrk_threads_overflow() { wrk_corpus; sed -i '2s/^  1 threads/  123456789012345678901 threads/' "$W1"; }
s_wrk_neg_requests() { wrk_corpus; sed -i '11s/^  \([0-9]\)/  -\1/' "$W1"; }
s_wrk_socket_comma() { wrk_corpus; sed -i '11a\  Socket errors: connect 0 read 1, write 0, timeout 0' "$W1"; }
s_wrk_pct_order() { wrk_corpus; sed -i '7s/^     50%/     75%/' "$W1"; }
s_wrk_format_table() {
	CORP=$CD/$CASE
	copy_tree "$EXAMPLE" "$CORP"
	IMPORT=(import -q --format wrk "$CORP/results.tsv")
}
s_wrk_rps_nan() { wrk_corpus; sed -i '12s/[0-9.]*$/nan/' "$W1"; }

declare -A ELAPSED
mkdir -p "$T/cases"
chmod 755 "$T/cases"
for spec in "${CASES[@]}"; do
	IFS='|' read -r CASE setup want_rc frag post <<<"$spec"
	# HOSTILE_ONLY=PATTERN (grep -E) runs only the cases whose name matches
	[ -z "${HOSTILE_ONLY:-}" ] || [[ "$CASE" =~ $HOSTILE_ONLY ]] || continue
	e2e_case "$CASE" || continue
	name="hostile: $CASE"
	case_folder "$CASE"
	case_prepare "$setup" "$name" || continue
	case_import
	ELAPSED[$CASE]=$CASE_SECS
	after=$(dbstate "$CDB")
	how="command: ${RUNAS[*]:+${RUNAS[*]} }$(cmdline --db "$CDB" "${IMPORT[@]}")"$'\n'"stderr: $(head -c 2000 "$CD/stderr")"
	problems=""
	[[ ",$want_rc," == *",$RC,"* ]] || problems+="exit $(rcdesc $RC), expected $want_rc; "
	[ "$RC" -lt 128 ] || problems+="crashed or hung; "
	if [ "$RC" != 0 ] && [ -n "$frag" ]; then
		if [[ "$frag" == re:* ]]; then
			grep -aEq -- "${frag#re:}" "$CD/stderr" || problems+="stderr lacks /${frag#re:}/; "
		else
			grep -aFq -- "$frag" "$CD/stderr" || problems+="stderr lacks '$frag'; "
		fi
	elif [ "$RC" = 0 ] && [ -n "$frag" ] && [[ "$want_rc" != *,* ]]; then
		if [[ "$frag" == re:* ]]; then
			grep -aEq -- "${frag#re:}" "$CD/stderr" || problems+="stderr lacks the warning /${frag#re:}/; "
		else
			grep -aFq -- "$frag" "$CD/stderr" || problems+="stderr lacks the warning '$frag'; "
		fi
	fi
	grep -aEq 'runtime error|Sanitizer|[Aa]ssertion|^==[0-9]+==' "$CD/stderr" && problems+="sanitizer/assertion report on stderr; "
	if [ "$RC" != 0 ]; then
		grep -aq '^coreplan: error: ' "$CD/stderr" || problems+="no 'coreplan: error:' line; "
		[ "$BEFORE" = "$after" ] || problems+="database changed (before $BEFORE, after $after); "
	elif [ -n "$post" ]; then
		$post || problems+="$POST_MSG; "
	fi
	[ "$RC" = 0 ] && ! example_intact && problems+="$POST_MSG; "
	if [ -z "$problems" ]; then
		ok "$name (exit $RC, ${ELAPSED[$CASE]} s)"
	else
		not_ok "$name" "${problems%; }"$'\n'"$how"
	fi
	[ -z "${RUNAS[*]}" ] || chmod -R u+rwX "$CD" 2>/dev/null
	rm -rf "${CD:?}"/*
	[[ -z "$SHM" || "$CORP" != "$SHM"/* ]] || rm -rf "${CORP:?}"
done

###########################################################################
# Many run folders: time against a tenth of them (linear or worse?)
###########################################################################
if [ -n "${ELAPSED[many-empty-run-folders]:-}" ]; then
	CASE=many-empty-run-folders-tenth
	CD=$T/cases/$CASE
	mkdir -p "$CD"
	CDB=$CD/db.sqlite
	cp "$BASEDB" "$CDB"
	BIG_N=$NDIRS
	NDIRS=$((BIG_N / 10))
	s_many_dirs >/dev/null
	t0=$(now)
	"${TIMEOUT[@]}" "$BIN" --db "$CDB" "${IMPORT[@]}" >"$CD/stdout" 2>"$CD/stderr"
	RC=$?
	t_small=$(elapsed "$t0" "$(now)")
	t_big=${ELAPSED[many-empty-run-folders]}
	echo "# many empty run folders: $NDIRS in $t_small s, $BIG_N in $t_big s"
	if [ "$RC" != 0 ]; then
		not_ok "many empty run folders: $NDIRS import" "exit $(rcdesc $RC): $(head -c 500 "$CD/stderr")"
	elif awk -v s="$t_small" -v b="$t_big" 'BEGIN { exit !(b <= 20 * s + 2) }'; then
		ok "many empty run folders: $BIG_N take $t_big s, $NDIRS take $t_small s (per-folder cost at most 2x)"
	else
		not_ok "many empty run folders: time grows faster than the folder count" \
			"$BIG_N folders: $t_big s; $NDIRS folders: $t_small s; ratio $(awk -v s="$t_small" -v b="$t_big" 'BEGIN { printf "%.1f", b / s }') for 10x the folders (allowed: 20x + 2 s; linear would be about 10x)"$'\n'"reproduce: mkdir -p c && cp -R $EXAMPLE c/x && (cd c/x/runs && seq -f 'empty%06g' 1 $BIG_N | xargs mkdir) && time $BIN --db c/db import -q c/x"
	fi
	NDIRS=$BIG_N
	rm -rf "${CD:?}"
	[[ -z "$SHM" || "$CORP" != "$SHM"/* ]] || rm -rf "${CORP:?}"
fi

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
