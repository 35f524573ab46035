#!/usr/bin/env bash
# End-to-end tests of the coreplan binary.
#
#   bash tests/e2e/run.sh COREPLAN_BINARY REPO_ROOT SHARED_CORPORA_DIR
#
# A. golden checks on the real corpora (SHARED_CORPORA_DIR/sky, /writeups),
#    re-import, formats, usage errors, schema version;
# B. a table of bad inputs: each builds a corpus in a temporary folder and
#    states the exit code, a message fragment and, for errors, that the
#    database is byte-identical afterwards;
# C. a ~300 MB trace imported in bounded memory (skipped when
#    COREPLAN_SKIP_LARGE=1 or the binary is built with sanitizers).
#
# Everything happens in a mktemp -d folder removed on exit; files under the
# repository and SHARED_CORPORA_DIR are only read (checked at the end).
# Prints "ok - NAME" / "not ok - NAME: DETAILS" per check, then the line
# "N passed, M failed"; exits 1 if any check failed.

E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# ok, skip, not_ok (the first line of its details on the result line, the
# rest indented below), check_eq, check_contains, cases (e2e_case), rcdesc,
# cmdline, q, sqlq, dbstate, copy_tree; e2e_start (BIN, ROOT, SHARED, the
# corpora's paths, T, TIMEOUT); the helpers below replace lib.sh's cpl,
# tsvcol and tsvget
source "$E2E_DIR/lib.sh"
e2e_start --cd --need sqlite3 e2e "$@"
BADFIX=$ROOT/fixtures/bad
# the unreadable-file case runs the binary as nobody inside $T
chmod 711 "$T"
HAVE_PY=1
command -v python3 >/dev/null || HAVE_PY=0

# cpl ARGS...: run the binary; sets RC, OUT and ERR (file contents).
cpl() {
	e2e_skipping && { e2e_skip_cpl; return 0; }
	"${TIMEOUT[@]}" "$BIN" "$@" >"$T/.out" 2>"$T/.err"
	RC=$?
	OUT=$(cat "$T/.out")
	ERR=$(cat "$T/.err")
}
# tsvcol FILE NAME: the values of column NAME (header row) of a TSV file.
tsvcol() {
	awk -F'\t' -v name="$2" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == name) c = i; next }
		c { print $c }' "$1"
}
# tsvget FILE KEYCOL KEY COL: column COL of the row whose KEYCOL is KEY.
tsvget() {
	awk -F'\t' -v kc="$2" -v key="$3" -v vc="$4" '
		NR == 1 { for (i = 1; i <= NF; i++) { if ($i == kc) k = i; if ($i == vc) v = i }; next }
		k && v && $k == key { print $v }' "$1"
}
treesum() { # a hash of every file under the given folders (read-only check)
	find "$@" -type f -print0 2>/dev/null | sort -z | xargs -0 sha256sum | sha256sum | cut -c1-64
}

SRC_SUM_BEFORE=$(treesum "$ROOT/fixtures" "$SKY" "$WRITEUPS")

###########################################################################
# A. Real corpora
###########################################################################
echo "# A. real corpora"
e2e_case setup-real # the database the A cases read
DB=$T/real.db

cpl --db "$DB" import -q --format json "$GMP" "$CAP"
if [ "$RC" -eq 0 ]; then
	ok "import both sky corpora"
else
	not_ok "import both sky corpora" "exit $(rcdesc), stderr:"$'\n'"$ERR"$'\n'"command: $(cmdline --db "$DB" import -q "$GMP" "$CAP")"
fi
if [ $HAVE_PY = 1 ]; then
	# the imported view against the folders: files = find -type f, trace rows = wc -l of the traces
	gmp_files=$(cd "$GMP" && find . -type f | wc -l)
	gmp_trace_rows=$(cd "$GMP" && find runs -type f \( -name sample.tsv -o -name window.tsv \) -exec cat {} + | wc -l)
	cap_files=$(cd "$CAP" && find . -type f | wc -l)
	cap_trace_rows=$(cd "$CAP" && { find samples -type f -name '*.tsv'; find core -type f -name sample.tsv; } | xargs cat | wc -l)
	check_eq "import json: one row per PATH, in order, status new" \
		"$GMP_NAME new $CAP_NAME new 2" \
		"$(jget '" ".join(r["name"] + " " + r["status"] for r in d["sections"]["imported"]["rows"]) + " " + str(d["facts"]["corpus_count"]["value"])')"
	check_eq "import json: $GMP_NAME runs/listed/unlisted/excluded/missing_files 29 24 5 5 7, files and trace rows as in the folder" \
		"29 24 5 5 7 $gmp_files $gmp_trace_rows" \
		"$(jget '" ".join(str(d["sections"]["imported"]["rows"][0][k]) for k in ("runs", "listed", "unlisted", "excluded", "missing_files", "files", "trace_rows"))')"
	check_eq "import json: $CAP_NAME runs/listed/unlisted/excluded 55 53 2 2, files and trace rows as in the folder" \
		"55 53 2 2 $cap_files $cap_trace_rows" \
		"$(jget '" ".join(str(d["sections"]["imported"]["rows"][1][k]) for k in ("runs", "listed", "unlisted", "excluded", "files", "trace_rows"))')"
	check_eq "import json: runs_imported is the sum of the rows' runs (84)" "84" "$(jget 'd["facts"]["runs_imported"]["value"]')"
	check_eq "import json: the summary sentence per corpus as a note" \
		"imported '$GMP_NAME' (layout sky-gomaxprocs): 29 runs (24 listed, 5 unlisted), 5 excluded, $gmp_trace_rows trace rows, $gmp_files files, 7 missing files" \
		"$(jget 'd["sections"]["imported"]["notes"][0]')"
fi

e2e_case corpora
cpl --db "$DB" corpora --format tsv
echo "$OUT" >"$T/corpora.tsv"
names=$(tsvcol "$T/corpora.tsv" name | sort | tr '\n' ' ')
check_eq "corpora --format tsv lists both corpora" "$CAP_NAME $GMP_NAME " "$names" "$OUT"
check_eq "corpora: $GMP_NAME listed/unlisted/missing_files" "24 5 7" \
	"$(tsvget "$T/corpora.tsv" name $GMP_NAME listed) $(tsvget "$T/corpora.tsv" name $GMP_NAME unlisted) $(tsvget "$T/corpora.tsv" name $GMP_NAME missing_files)"
check_eq "corpora: $CAP_NAME listed/unlisted" "53 2" \
	"$(tsvget "$T/corpora.tsv" name $CAP_NAME listed) $(tsvget "$T/corpora.tsv" name $CAP_NAME unlisted)"

for pair in "$GMP_NAME 29" "$CAP_NAME 55"; do
	set -- $pair
	cpl --db "$DB" runs --corpus "$1" --format tsv --include-excluded
	n=$(printf '%s\n' "$OUT" | tail -n +2 | grep -c .)
	check_eq "runs --include-excluded lists $2 runs of $1" "$2" "$n" "exit $RC; $ERR"
done

e2e_case files
# every file of the folder is recorded
for c in "$GMP" "$CAP"; do
	name=$(basename "$c")
	want=$(cd "$c" && find . -type f | sed 's|^\./||' | sort | sha256sum | cut -c1-16)
	got=$(q "$DB" "SELECT f.path FROM files f JOIN corpora c USING (corpus_id) WHERE c.name = $(sqlq "$name") ORDER BY f.path" | sort | sha256sum | cut -c1-16)
	check_eq "files table has every file of $name" "$want" "$got"
done

e2e_case traces
# traces: stored rows = wc -l of each file, and every trace file is a trace
for c in "$GMP" "$CAP"; do
	name=$(basename "$c")
	q "$DB" "SELECT f.path, t.rows, count(s.row_no), coalesce(max(s.row_no), 0)
		FROM traces t JOIN files f USING (file_id) JOIN corpora c ON c.corpus_id = f.corpus_id
		LEFT JOIN trace_samples s USING (trace_id)
		WHERE c.name = $(sqlq "$name") GROUP BY t.trace_id ORDER BY f.path" >"$T/traces.txt"
	bad=""
	ntr=0
	while IFS=$'\t' read -r path rows stored maxrow; do
		ntr=$((ntr + 1))
		wcl=$(wc -l <"$c/$path")
		if [ "$rows" != "$wcl" ] || [ "$stored" != "$wcl" ] || [ "$maxrow" != "$wcl" ]; then
			bad+="$path: wc -l $wcl, traces.rows $rows, trace_samples $stored (max row_no $maxrow)"$'\n'
		fi
	done <"$T/traces.txt"
	if [ "$ntr" -gt 0 ] && [ -z "$bad" ]; then
		ok "$name: rows of all $ntr traces equal wc -l"
	else
		not_ok "$name: trace rows equal wc -l" "$ntr traces; mismatches:"$'\n'"$bad"
	fi
	if [ "$name" = "$GMP_NAME" ]; then
		want=$(cd "$c" && find runs -type f \( -name sample.tsv -o -name window.tsv \) | sort | tr '\n' ' ')
	else
		want=$(cd "$c" && { find samples -type f -name '*.tsv'; find core -type f -name sample.tsv; } | sort | tr '\n' ' ')
	fi
	got=$(cut -f1 "$T/traces.txt" | sort | tr '\n' ' ')
	check_eq "$name: every trace file is a trace" "$want" "$got"
done

e2e_case trace-contents
# trace contents, value for value
trace_dump() { # DB CORPUS PATH COLUMNS-SQL
	q "$1" "SELECT $4 FROM trace_samples s JOIN traces t USING (trace_id) JOIN files f USING (file_id)
		JOIN corpora c ON c.corpus_id = f.corpus_id
		WHERE c.name = $(sqlq "$2") AND f.path = $(sqlq "$3") ORDER BY s.row_no"
}
p=runs/g1-n100-b1/sample.tsv
if diff <(trace_dump "$DB" $GMP_NAME $p "printf('%d', epoch), app_rss_kb, mem_avail_kb, conn, cpu_total_j, cpu_idle_j, app_j, threads") \
	"$GMP/$p" >"$T/diff.txt"; then
	ok "$GMP_NAME $p stored value for value"
else
	not_ok "$GMP_NAME $p stored value for value" "diff (db vs file):"$'\n'"$(head -20 "$T/diff.txt")"
fi
p=samples/small-pg-n300-b1r1.tsv
if diff <(trace_dump "$DB" $CAP_NAME $p "printf('%d', epoch), app_rss_kb, pg_rss_kb, pg_nproc, pg_backends, mem_avail_kb, conn, cpu_total_j, cpu_idle_j, app_j, pg_j, xact_commit, wal_records") \
	"$CAP/$p" >"$T/diff.txt"; then
	ok "$CAP_NAME $p stored value for value"
else
	not_ok "$CAP_NAME $p stored value for value" "diff (db vs file):"$'\n'"$(head -20 "$T/diff.txt")"
fi
p=core/core-mem-p5-n25-r1/sample.tsv
res=$(paste <(trace_dump "$DB" $CAP_NAME $p "printf('%.9f', epoch), app_rss_kb, app_j") "$CAP/$p" |
	awk -F'\t' '{ d = $1 - $4; if (d < 0) d = -d; if (d > 1e-6 || $2 != $5 || $3 != $6) { print NR": "$0; bad++ } }
		END { if (NR == 0) print "no rows"; }' | head -5)
if [ -z "$res" ]; then
	ok "$CAP_NAME $p: fractional epochs within 1 us, other columns equal"
else
	not_ok "$CAP_NAME $p: fractional epochs within 1 us" "$res"
fi

e2e_case run-attrs
# every column of each results table is in run_attrs
attr_check() { # CORPUS-NAME SUBCORPUS FILE EXPECTED-ROWS EXPECTED-COLS
	local rc_=$(awk -F'\t' 'NR == 1 { c = NF } END { print NR - 1, c }' "$3")
	check_eq "$1 ${2:-main}: $(basename "$3") is $4 rows x $5 columns (awk)" "$4 $5" "$rc_"
	local n=$(q "$DB" "SELECT count(*) FROM run_attrs a JOIN runs r USING (run_id) JOIN corpora c USING (corpus_id)
		WHERE c.name = $(sqlq "$1") AND r.subcorpus = $(sqlq "$2") AND a.source = 'results'")
	check_eq "$1 ${2:-main}: run_attrs(source=results) rows = rows x columns" "$(($4 * $5))" "$n"
	local want=$(head -1 "$3" | tr '\t' '\n' | sort | tr '\n' ' ')
	local got=$(q "$DB" "SELECT DISTINCT a.name FROM run_attrs a JOIN runs r USING (run_id) JOIN corpora c USING (corpus_id)
		WHERE c.name = $(sqlq "$1") AND r.subcorpus = $(sqlq "$2") AND a.source = 'results'" | sort | tr '\n' ' ')
	check_eq "$1 ${2:-main}: run_attrs names = header" "$want" "$got"
}
attr_check $GMP_NAME "" "$GMP/results.tsv" 24 25
attr_check $CAP_NAME "" "$CAP/results.tsv" 47 33
attr_check $CAP_NAME m1 "$CAP/m1/m1.tsv" 3 14
attr_check $CAP_NAME core "$CAP/core/results.tsv" 3 19

e2e_case typed
# typed spot checks
check_eq "g1-n100-b1: tput REAL 475.2284019761499, gomaxprocs INTEGER 1" "real 1 integer 1" \
	"$(q "$DB" "SELECT typeof(tput), tput = 475.2284019761499, typeof(gomaxprocs), gomaxprocs FROM runs WHERE tag = 'g1-n100-b1'" | tr '\t' ' ')"
check_eq "g1-n100-b1: block TEXT '1', valid 1, gogc 'default', duration_s 45" "text 1 1 default 45.0" \
	"$(q "$DB" "SELECT typeof(block), block, valid, gogc, duration_s FROM runs WHERE tag = 'g1-n100-b1'" | tr '\t' ' ')"
check_eq "small-mem-n100-b1r1: sessions INTEGER 100 (from level)" "integer 100 results level" \
	"$(q "$DB" "SELECT typeof(r.sessions), r.sessions, a.source, a.name FROM runs r JOIN run_attrs a USING (run_id)
		WHERE r.tag = 'small-mem-n100-b1r1' AND a.source = 'results' AND a.name = 'level' AND a.value = '100'" | tr '\t' ' ')"
want=$(tsvget "$CAP/system.tsv" run small-mem-n100-b1r1 load_app_kb)/$(tsvget "$CAP/system.tsv" run small-mem-n100-b1r1 app_cores)
check_eq "small-mem-n100-b1r1: load_rss_kb and app_cores from system.tsv, not the inline columns" "$want" \
	"$(q "$DB" "SELECT printf('%d', load_rss_kb) || '/' || printf('%.3f', app_cores) FROM runs WHERE tag = 'small-mem-n100-b1r1'")"
for rep in 1 2 3; do
	v=$(tsvget "$CAP/m1/m1.tsv" rep $rep tput)
	check_eq "m1-r$rep: tput from m1/m1.tsv ($v)" "1 m1/m1.tsv $v" \
		"$(q "$DB" "SELECT r.tput = $v, f.path, a.value FROM runs r JOIN run_attrs a USING (run_id) JOIN files f ON f.file_id = a.file_id
			WHERE r.subcorpus = 'm1' AND r.tag = 'm1-r$rep' AND a.source = 'results' AND a.name = 'tput'" | tr '\t' ' ')"
done
check_eq "core-mem-p5-n25-r2: tput from ips 288.9, cpu_s from cpu_s_win 45.16" "1 1" \
	"$(q "$DB" "SELECT tput = 288.9, cpu_s = 45.16 FROM runs WHERE subcorpus = 'core' AND tag = 'core-mem-p5-n25-r2'" | tr '\t' ' ')"

e2e_case exclusions
# exclusions
cpl --db "$DB" runs --excluded --format tsv
echo "$OUT" >"$T/excluded.tsv"
rej_text=$(cat "$CAP/json/medium-pgnofsync-n100-bfsr1.REJECTED")
reasons=$(tsvget "$T/excluded.tsv" tag medium-pgnofsync-n100-bfsr1 reasons)
if [[ "$reasons" == *rejected* && "$reasons" == *"$rej_text"* ]]; then
	ok "runs --excluded: medium-pgnofsync-n100-bfsr1 rejected with the .REJECTED text"
else
	not_ok "runs --excluded: medium-pgnofsync-n100-bfsr1 rejected with the .REJECTED text" \
		"reasons '$reasons', expected 'rejected' and '$rej_text'"
fi
for tag in g1-n100-b0-trial g8-n100-b0-trial prof-g1-n100 prof-g4-n100 prof-g8-n100 trial-r1-superseded; do
	got="$(tsvget "$T/excluded.tsv" tag $tag listed) $(tsvget "$T/excluded.tsv" tag $tag excluded)"
	reasons=$(tsvget "$T/excluded.tsv" tag $tag reasons)
	if [ "$got" = "0 1" ] && [[ "$reasons" == unlisted* ]]; then
		ok "runs --excluded: $tag listed=0, excluded 'unlisted'"
	else
		not_ok "runs --excluded: $tag listed=0, excluded 'unlisted'" "listed/excluded '$got', reasons '$reasons'"
	fi
done
check_eq "exactly 7 runs excluded" 7 "$(tail -n +2 "$T/excluded.tsv" | grep -c .)"
check_eq "listed flag in the db for the unlisted runs" "0 0 0 0 0 0" \
	"$(q "$DB" "SELECT listed FROM runs WHERE tag IN ('g1-n100-b0-trial', 'g8-n100-b0-trial', 'prof-g1-n100', 'prof-g4-n100', 'prof-g8-n100', 'trial-r1-superseded')" | tr '\n' ' ' | sed 's/ $//')"
check_eq "missing files: the trial's window.tsv, the prof runs' idle.txt" \
	"g1-n100-b0-trial window runs/g1-n100-b0-trial/window.tsv|prof-g1-n100 idle runs/prof-g1-n100/idle.txt|prof-g4-n100 idle runs/prof-g4-n100/idle.txt|prof-g8-n100 idle runs/prof-g8-n100/idle.txt|" \
	"$(q "$DB" "SELECT r.tag, m.kind, m.expected_path FROM missing_files m JOIN runs r USING (run_id)
		WHERE m.kind = 'idle' OR r.tag = 'g1-n100-b0-trial' ORDER BY r.tag, m.kind" | tr '\t' ' ' | tr '\n' '|')"

# --where on canonical and non-canonical fields
cpl --db "$DB" runs --corpus $GMP_NAME --where gomaxprocs=1,2 --where block=1 --format tsv
echo "$OUT" >"$T/w.tsv"
check_eq "runs --where gomaxprocs=1,2 --where block=1" "g1-n100-b1 g2-n100-b1" \
	"$(tsvcol "$T/w.tsv" tag | tr '\n' ' ' | sed 's/ $//')" "exit $RC $ERR"
cpl --db "$DB" runs --where outcomes.ok=21489 --format tsv
echo "$OUT" >"$T/w.tsv"
check_eq "runs --where outcomes.ok=21489 (generator key)" "g1-n100-b1" "$(tsvcol "$T/w.tsv" tag | tr '\n' ' ' | sed 's/ $//')" "exit $RC $ERR"
cpl --db "$DB" runs --where clk_tck=100 --where gomaxprocs=8 --where block=1 --format tsv
echo "$OUT" >"$T/w.tsv"
check_eq "runs --where clk_tck=100 (idle-banner key)" "g8-n100-b1" "$(tsvcol "$T/w.tsv" tag | tr '\n' ' ' | sed 's/ $//')" "exit $RC $ERR"

e2e_case exclusion-rules
# each rule on a run's own columns, one table of seven runs; the expected
# rows are written by hand from the rules (schema/README.md, exclusions):
# sessions-short when established < sessions, invalid when valid = 0,
# patch-rate below --patch-floor, generator-saturated; r6 breaks all four,
# r7 has none of the columns (NULL: no rule holds)
mkdir -p "$T/rules"
{
	printf 'tag\tsessions\testablished\tvalid\tpatch_rate\tgen_saturated\ttput\n'
	printf '%s\n' "r1	10	10	1	0.95	0	100" "r2	10	7	1	0.95	0	100" \
		"r3	10	10	0	0.95	0	100" "r4	10	10	1	0.5	0	100" "r5	10	10	1	0.95	1	100" \
		"r6	10	3	0	0.1	1	100" "r7						100"
} >"$T/rules/results.tsv"
cpl --db "$T/rules.db" import -q "$T/rules/results.tsv" --name rules --patch-floor 0.8
check_eq "exclusion rules: import" 0 "$RC" "$ERR"
check_eq "exclusion rules: one row per run and broken rule, with its detail" \
	"r2|sessions-short|7 of 10 requested sessions were established;r3|invalid|the generator marked the run invalid;r4|patch-rate|patch_rate 0.5 is below the floor 0.8;r5|generator-saturated|the generator reported that it may have been saturated;r6|generator-saturated|the generator reported that it may have been saturated;r6|invalid|the generator marked the run invalid;r6|patch-rate|patch_rate 0.1 is below the floor 0.8;r6|sessions-short|3 of 10 requested sessions were established;" \
	"$(q "$T/rules.db" "SELECT r.tag, e.reason, e.detail FROM exclusions e JOIN runs r USING (run_id) ORDER BY 1, 2" | tr '\t' '|' | tr '\n' ';')"

e2e_case formats
# formats
cpl --db "$DB" runs --include-excluded --format tsv
echo "$OUT" >"$T/all.tsv"
ntsv=$(tail -n +2 "$T/all.tsv" | grep -c .)
if [ $HAVE_PY = 1 ]; then
	cpl --db "$DB" runs --include-excluded --format json
	res=$(jget 'len(d["sections"]["runs"]["rows"]), d["facts"]["runs"]["value"], d["facts"]["excluded_not_shown"]["value"]')
	check_eq "runs --format json parses, as many runs as tsv (fact runs too; none hidden)" "($ntsv, $ntsv, 0)" "$res"
	res=$(jget '[c["name"] for c in d["sections"]["runs"]["columns"]] == "'"$(head -1 "$T/all.tsv" | tr '\t' ' ')"'".split(" ")')
	check_eq "runs --format json: the same columns as tsv" "True" "$res"
	cpl --db "$DB" runs --include-excluded --format csv
	printf '%s\n' "$OUT" >"$T/all.csv"
	res=$(python3 "$E2E_PY_DIR/run_runs_format_same_columns_tsv.py" "$T/all.csv" 2>&1)
	check_eq "runs --format csv parses, same header and rows as tsv" "$ntsv $(head -1 "$T/all.tsv")" "$res"
	cpl --db "$DB" runs --excluded --format json
	res=$(jget 'len(d["sections"]["runs"]["rows"]), all(r["reasons"] for r in d["sections"]["runs"]["rows"])')
	check_eq "runs --excluded --format json parses" "(7, True)" "$res"
	cpl --db "$DB" corpora --format json
	res=$(jget 'sorted(r["name"] for r in d["sections"]["corpora"]["rows"]), d["facts"]["corpus_count"]["value"]')
	check_eq "corpora --format json parses" "(['$CAP_NAME', '$GMP_NAME'], 2)" "$res"
	# excluded runs the default listing leaves out: a fact and a note, nothing on stderr
	cpl --db "$DB" runs --format json
	check_eq "runs: excluded_not_shown = the runs --excluded lists (7)" "7" "$(jget 'd["facts"]["excluded_not_shown"]["value"]')"
	cpl --db "$DB" runs
	check_eq "runs (md): nothing on stderr" "" "$ERR"
	check_eq "runs (md): the left-out note quotes the fact" "1" \
		"$(grep -c '^- 7 runs left out: excluded (use --include-excluded or --excluded to see them)$' "$T/.out")"
	# --where subcorpus= is the main sub-corpus: the capacity corpus's results.tsv rows,
	# each tag rebuilt as <target>-<cfg>-n<level>-b<block>r<rep> (FORMATS.md)
	want=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
		{ printf "%s-%s-n%s-b%sr%s\n", $h["target"], $h["cfg"], $h["level"], $h["block"], $h["rep"] }' "$CAP/results.tsv" | sort)
	nwant=$(printf '%s\n' "$want" | grep -c .)
	cpl --db "$DB" runs --corpus "$CAP_NAME" --where subcorpus= --format tsv
	check_eq "runs --where subcorpus= lists exactly the capacity corpus's results.tsv runs ($nwant)" "$want" \
		"$(tsvcol "$T/.out" tag | sort)" "exit $RC; $ERR"
	cpl --db "$DB" runs --corpus "$CAP_NAME" --where subcorpus= --format json
	check_eq "runs --where subcorpus= json: runs = $nwant; excluded_not_shown = the .REJECTED files (the rejected run is main)" \
		"$nwant $(find "$CAP/json" -name '*.REJECTED' | wc -l)" \
		"$(jget 'str(d["facts"]["runs"]["value"]) + " " + str(d["facts"]["excluded_not_shown"]["value"])')"
else
	skip "formats json/csv" "python3 is not installed"
fi

e2e_case reimport
# re-import unchanged: nothing written
dbstate "$DB" >/dev/null
before=$(dbstate "$DB")
cpl --db "$DB" import "$GMP"
after=$(dbstate "$DB")
if [ "$RC" -eq 0 ] && [[ "$OUT" == *"unchanged '$GMP_NAME': nothing to do"* ]] && [ "$before" = "$after" ]; then
	ok "re-import of an unchanged corpus: 'unchanged', db byte-identical"
else
	not_ok "re-import of an unchanged corpus" "exit $(rcdesc), output '$OUT$ERR', db before $before after $after"
fi
if [ $HAVE_PY = 1 ]; then
	cpl --db "$DB" import --format json "$GMP"
	check_eq "re-import json: status unchanged, no counts (nothing read), runs_imported 0" \
		"unchanged None None 0" \
		"$(jget '" ".join(str(x) for x in (d["sections"]["imported"]["rows"][0]["status"], d["sections"]["imported"]["rows"][0]["runs"], d["sections"]["imported"]["rows"][0]["files"], d["facts"]["runs_imported"]["value"]))')"
fi
# --quiet turns progress off (drawn only on a terminal anyway); the summary stays
cpl --db "$DB" import -q "$GMP"
check_eq "import -q: the summary on stdout, nothing on stderr" "1 " \
	"$(grep -c "^- unchanged '$GMP_NAME': nothing to do$" "$T/.out") $ERR"

e2e_case changed-content
# changed content under the same name: refused, then --replace
mkdir -p "$T/changed"
copy_tree "$GMP" "$T/changed/$GMP_NAME"
awk 'BEGIN { FS = OFS = "\t" } NR == 1 { for (i = 1; i <= NF; i++) if ($i == "tput") c = i }
	$1 == "g1-n100-b1" { $c = "500.25" } 1' "$GMP/results.tsv" >"$T/changed/$GMP_NAME/results.tsv"
before=$(dbstate "$DB")
cpl --db "$DB" import "$T/changed/$GMP_NAME"
after=$(dbstate "$DB")
if [ "$RC" -eq 1 ] && [[ "$ERR" == *--replace* ]] && [ "$before" = "$after" ]; then
	ok "changed corpus under the same name refused (exit 1, mentions --replace, db unchanged)"
else
	not_ok "changed corpus under the same name refused" "exit $(rcdesc), stderr '$ERR', db before $before after $after"
fi
cpl --db "$DB" import --replace --format tsv "$T/changed/$GMP_NAME"
check_eq "import --replace of the changed corpus" 0 "$RC" "$ERR"
check_eq "import --replace: status replaced, 29 runs (tsv)" "replaced 29" \
	"$(tsvget "$T/.out" name "$GMP_NAME" status) $(tsvget "$T/.out" name "$GMP_NAME" runs)"
check_eq "--replace stored the new value" "500.25 29 55" \
	"$(q "$DB" "SELECT (SELECT tput FROM runs WHERE tag = 'g1-n100-b1'),
		(SELECT count(*) FROM runs_v WHERE corpus = '$GMP_NAME'), (SELECT count(*) FROM runs_v WHERE corpus = '$CAP_NAME')" | tr '\t' ' ')"
cpl --db "$DB" runs --where tag=g1-n100-b1 --format tsv
echo "$OUT" >"$T/w.tsv"
check_eq "runs shows the replaced value" "500.25" "$(tsvcol "$T/w.tsv" tput)"

e2e_case example
# the example corpus
EDB=$T/example.db
cpl --db "$EDB" import "$EXAMPLE"
check_eq "import fixtures/example" 0 "$RC" "$ERR"
cpl --db "$EDB" corpora --format tsv
echo "$OUT" >"$T/c.tsv"
check_eq "example: 13 runs, 12 listed" "13 12" "$(tsvget "$T/c.tsv" name example runs) $(tsvget "$T/c.tsv" name example listed)"

e2e_case source-path
# corpora.source_path must be usable later: absolute even for a relative PATH
mkdir -p "$T/rel"
copy_tree "$EXAMPLE" "$T/rel/relcorpus"
(cd "$T/rel" && "${TIMEOUT[@]}" "$BIN" --db "$T/rel.db" import -q relcorpus) >/dev/null 2>&1
sp=$(q "$T/rel.db" "SELECT source_path FROM corpora WHERE name = 'relcorpus'" 2>&1)
check_eq "corpora.source_path is absolute after 'import relcorpus' (relative PATH)" "$T/rel/relcorpus" "$sp" \
	"command: cd $T/rel && $BIN --db $T/rel.db import relcorpus"

e2e_case single-tables
# single headed tables as corpora
WDB=$T/writeups.db
cpl --db "$WDB" import "$WRITEUPS/yip-sharding/level1.tsv" "$WRITEUPS/gomaxprocs-affinity/runs.tsv"
check_eq "import two single tables (level1.tsv, runs.tsv)" 0 "$RC" "$ERR"
cpl --db "$WDB" corpora --format tsv
echo "$OUT" >"$T/c.tsv"
check_eq "single tables: corpora level1 (4 runs, layout table) and runs (30 runs)" "4 table 30 table" \
	"$(tsvget "$T/c.tsv" name level1 runs) $(tsvget "$T/c.tsv" name level1 layout) $(tsvget "$T/c.tsv" name runs runs) $(tsvget "$T/c.tsv" name runs layout)"
cpl --db "$WDB" runs --corpus runs --format tsv
echo "$OUT" >"$T/r.tsv"
res=$(awk -F'\t' 'FNR == 1 { for (i = 1; i <= NF; i++) { if ($i == "tag") t = i; if ($i == "tput") v = i }; next }
	FILENAME == ARGV[1] { want[$t] = $v; next }
	{ n++; if (!($t in want) || want[$t] + 0 != $v + 0) print "run " $t ": tput " $v ", file says " want[$t] }
	END { if (n != 30) print n " runs listed, expected 30" }' "$WRITEUPS/gomaxprocs-affinity/runs.tsv" "$T/r.tsv")
if [ -z "$res" ]; then ok "runs.tsv: 30 runs listed, tput equal to the file"; else not_ok "runs.tsv: runs listed with tput" "$res"; fi
cpl --db "$WDB" runs --corpus level1 --where N=4 --format tsv
n=$(printf '%s\n' "$OUT" | tail -n +2 | grep -c .)
gb=$(q "$WDB" "SELECT a.value FROM run_attrs a JOIN runs r USING (run_id) JOIN corpora c USING (corpus_id)
	WHERE c.name = 'level1' AND a.name = 'Gbps' AND r.run_id IN (SELECT run_id FROM run_attrs WHERE name = 'N' AND value = '4')")
check_eq "level1.tsv: --where N=4 selects 1 run, its Gbps is 6.50" "1 6.50" "$n $gb" "$ERR"
cpl --db "$WDB" runs --where arm=pin --format tsv
check_eq "runs --where arm=pin selects 6 runs" 6 "$(printf '%s\n' "$OUT" | tail -n +2 | grep -c .)" "$ERR"
cpl --db "$WDB" runs --where arm=pin,shard --format tsv
check_eq "runs --where arm=pin,shard selects 18 runs" 18 "$(printf '%s\n' "$OUT" | tail -n +2 | grep -c .)" "$ERR"
e2e_case where-any
# The comma in --where means "any of": cpuset=0,4,1,5 asks for cpuset 0, 4,
# 1 or 5, none of which exists, so the three runs whose cpuset is the text
# "0,4,1,5" cannot be selected this way (there is no escape for a comma).
cpl --db "$WDB" runs --where cpuset=0,4,1,5 --format tsv
check_eq "runs --where cpuset=0,4,1,5 means cpuset in {0,4,1,5}: 0 runs (documented)" "0 0" \
	"$RC $(printf '%s\n' "$OUT" | tail -n +2 | grep -c .)" "$ERR"

e2e_case usage-errors
# usage errors and database errors
cpl --bogus
check_eq "unknown option exits 2" 2 "$RC" "$ERR"
cpl --db "$DB" frobnicate
check_eq "unknown command exits 2" 2 "$RC" "$ERR"
cpl --db "$DB" runs --format xml
check_eq "runs --format xml exits 2" 2 "$RC" "$ERR"
cpl --db "$DB" runs --where nofieldsign
check_eq "runs --where without = exits 2" 2 "$RC" "$ERR"
e2e_case unknown-names
# an unknown field or corpus: the one check every command uses (exit 2, a suggestion)
for bad in "--where gomaxprocz=1" "--where nosuch=1" "--corpus nosuch"; do
	cpl --db "$DB" runs $bad
	runs_rc=$RC runs_err=$(head -1 "$T/.err")
	cpl --db "$DB" sweep --by gomaxprocs $bad
	if [ "$runs_rc" = 2 ] && [ "$RC" = 2 ] && [ "$runs_err" = "$(head -1 "$T/.err")" ] && [[ "$runs_err" == "coreplan: error: no "* ]]; then
		ok "runs $bad: exit 2, the same message as sweep ('$runs_err')"
	else
		not_ok "runs $bad: exit 2, the same message as sweep" "runs: exit $runs_rc '$runs_err'; sweep: exit $RC '$(head -1 "$T/.err")'"
	fi
done
cpl --db "$DB" runs --where gomaxprocz=1
check_contains "runs --where gomaxprocz=1 suggests gomaxprocs" "$ERR" "did you mean 'gomaxprocs'?"
cpl --db "$DB" import --patch-floor 2 "$EXAMPLE"
check_eq "import --patch-floor 2 exits 2" 2 "$RC" "$ERR"
cpl --db "$DB" import
check_eq "import without PATH exits 2" 2 "$RC" "$ERR"
cpl --db "$T/nonexistent.db" runs
if [ "$RC" -eq 1 ] && [[ "$ERR" == *"no database"* && "$ERR" == *nonexistent.db* ]] && [ ! -e "$T/nonexistent.db" ]; then
	ok "runs on a missing database: exit 1, clear message, no file created"
else
	not_ok "runs on a missing database" "exit $(rcdesc), stderr '$ERR', file created: $([ -e "$T/nonexistent.db" ] && echo yes || echo no)"
fi
e2e_case empty-database
# a database without corpora (a failed import leaves the empty schema)
cpl --db "$T/empty.db" import "$T/nonexistent-corpus"
cpl --db "$T/empty.db" corpora
if [ "$RC" -eq 0 ] && [[ "$ERR" == *"warning: no corpora in '$T/empty.db'"* ]] &&
	grep -q '^- no corpora in the database: run `coreplan import PATH` first$' "$T/.out"; then
	ok "corpora on a database without corpora: exit 0, a warning on stderr and a note"
else
	not_ok "corpora on a database without corpora: a warning and a note" "exit $(rcdesc), stderr '$ERR', stdout:"$'\n'"$OUT"
fi
if [ $HAVE_PY = 1 ]; then
	cpl --db "$T/empty.db" corpora --format json
	check_eq "corpora json without corpora: an empty table, corpus_count 0, the note" \
		"0 0 1" "$(jget '" ".join(str(x) for x in (len(d["sections"]["corpora"]["rows"]), d["facts"]["corpus_count"]["value"], len(d["sections"]["corpora"]["notes"])))')"
fi
cpl --db "$T/v99.db" import -q "$EXAMPLE"
sqlite3 "$T/v99.db" 'PRAGMA user_version = 99'
dbstate "$T/v99.db" >/dev/null
before=$(dbstate "$T/v99.db")
for cmd in "runs" "corpora" "catalog" "import -q $EXAMPLE"; do
	cpl --db "$T/v99.db" $cmd
	after=$(dbstate "$T/v99.db")
	if [ "$RC" -eq 1 ] && [[ "$ERR" == *newer* ]] && [ "$before" = "$after" ]; then
		ok "user_version 99 refused by '$cmd' (exit 1, 'newer', file unchanged)"
	else
		not_ok "user_version 99 refused by '$cmd'" "exit $(rcdesc), stderr '$ERR', db before $before after $after"
	fi
done

###########################################################################
# B. Bad-input catalogue
###########################################################################
echo "# B. bad inputs"
e2e_case setup-bad-inputs # each bad input is a case: bad-NAME (run_case run.sh:bad-NAME)
BASEDB=$T/base.db
"${TIMEOUT[@]}" "$BIN" --db "$BASEDB" import -q "$EXAMPLE" >/dev/null 2>"$T/.err" ||
	not_ok "B: base database" "import of fixtures/example failed: $(cat "$T/.err")"
dbstate "$BASEDB" >/dev/null

# Setup and post functions (lib.sh, "bad-input cases", holds ex, table,
# setcol, S1, J1 and the setups this table shares with hostile.sh).

s_tput_hex() { ex; setcol "$CORP/results.tsv" 2 13 0x1db; }
s_sessions_neg() { ex; setcol "$CORP/results.tsv" 2 3 -100; }
s_p50_neg() { ex; setcol "$CORP/results.tsv" 2 14 -3.5; }
s_gomaxprocs_frac() { ex; setcol "$CORP/results.tsv" 2 2 1.5; }
s_valid_maybe() { ex; setcol "$CORP/results.tsv" 2 19 maybe; }
s_crlf() { ex; sed -i 's/$/\r/' "$CORP/results.tsv" "$CORP/$S1"; }
p_crlf() {
	local c=$(sqlq "$CASE")
	local r=$(q "$CDB" "SELECT tput = 475.2284019761499, gogc, gomaxprocs, typeof(gomaxprocs) FROM runs_v WHERE corpus = $c AND tag = 'g1-n100-b1'" | tr '\t' ' ')
	[ "$r" = "1 default 1 integer" ] || { POST_MSG="g1-n100-b1 tput/gogc/gomaxprocs: '$r', expected '1 default 1 integer'"; return 1; }
	r=$(q "$CDB" "SELECT count(*) FROM run_attrs a JOIN runs r USING (run_id) JOIN corpora k USING (corpus_id)
		WHERE k.name = $c AND (instr(a.value, char(13)) OR instr(a.name, char(13)))")
	[ "$r" = 0 ] || { POST_MSG="$r run_attrs values or names keep a CR"; return 1; }
	trace_dump "$CDB" "$CASE" "$S1" "printf('%d', epoch), app_rss_kb, mem_avail_kb, conn, cpu_total_j, cpu_idle_j, app_j, threads" >"$CD/dump.tsv"
	diff -q "$CD/dump.tsv" "$EXAMPLE/$S1" >/dev/null ||
		{ POST_MSG="the CRLF sample.tsv is not stored value for value: $(diff "$CD/dump.tsv" "$EXAMPLE/$S1" | head -4 | tr '\n' ' ')"; return 1; }
}
p_bom() {
	local c=$(sqlq "$CASE")
	local r=$(q "$CDB" "SELECT count(*) FROM run_attrs a JOIN runs r USING (run_id) JOIN corpora k USING (corpus_id)
		WHERE k.name = $c AND a.source = 'results' AND a.name = 'tag'")
	[ "$r" = 12 ] || { POST_MSG="$r results rows have a column named exactly 'tag', expected 12"; return 1; }
	r=$(q "$CDB" "SELECT count(*), sum(listed) FROM runs_v WHERE corpus = $c AND tag LIKE 'g%'" | tr '\t' ' ')
	[ "$r" = "13 12" ] || { POST_MSG="runs/listed '$r', expected '13 12'"; return 1; }
}
s_csv_quoted() { CORP=$CD/quoted.csv; cp "$BADFIX/quoted.csv" "$CORP"; IMPORT=(import -q "$CORP"); }
p_csv_quoted() {
	local r=$(q "$CDB" "SELECT tag || '|' || target || '|' || (SELECT value FROM run_attrs a WHERE a.run_id = r.run_id AND a.name = 'note') FROM runs_v r WHERE corpus = 'quoted' ORDER BY tag" | tr '\n' '#')
	local want='r1|a, b|say "hi", then "bye"#r2|x"y|plain#'
	[ "$r" = "$want" ] || { POST_MSG="values '$r', expected '$want'"; return 1; }
	if [ $HAVE_PY = 1 ]; then
		"$BIN" --db "$CDB" runs --corpus quoted --format csv >"$CD/q.csv" 2>/dev/null
		r=$(python3 "$E2E_PY_DIR/run_csv_read_back.py" "$CD/q.csv" 2>&1)
		[ "$r" = 'r1|a, b#r2|x"y' ] || { POST_MSG="runs --format csv read back as '$r'"; return 1; }
	fi
}
s_blank_line() { ex; sed -i '5s/.*//' "$CORP/results.tsv"; }
s_dup_header() { ex; sed -i '1s/\tsessions\t/\tgomaxprocs\t/' "$CORP/results.tsv"; }
s_trace_app_j_half() { ex; setcol "$CORP/$S1" 20 7 1; }
s_trace_backstep() { # app_j one jiffy below the previous row: tolerated, counted
	ex
	local prev=$(awk -F'\t' 'NR == 19 { print $7 }' "$CORP/$S1")
	setcol "$CORP/$S1" 20 7 $((prev - 1))
}
p_trace_backstep() {
	local r=$(q "$CDB" "SELECT t.rows, t.backsteps FROM traces t JOIN files f USING (file_id) JOIN corpora k ON k.corpus_id = f.corpus_id
		WHERE k.name = $(sqlq "$CASE") AND f.path = '$S1'" | tr '\t' ' ')
	[ "$r" = "81 1" ] || { POST_MSG="rows/backsteps '$r', expected '81 1'"; return 1; }
}
s_trace_ragged() { ex; sed -i '7s/\t[0-9]*$//' "$CORP/$S1"; }
s_trace_text() { ex; setcol "$CORP/$S1" 7 8 x12; }
s_trace_na_epoch() { ex; setcol "$CORP/$S1" 7 1 NA; }
s_trace_nul() { ex; printf '1786868500\t1\0\n' >>"$CORP/$S1"; }
s_trace_empty() { ex; : >"$CORP/$S1"; }
p_trace_empty() { # a listed run whose required trace is empty has no trace
	local r=$(q "$CDB" "SELECT excluded, exclusion_reasons FROM runs_v WHERE corpus = $(sqlq "$CASE") AND tag = 'g1-n100-b1'" | tr '\t' ' ')
	[[ "$r" == "1 "*empty-trace* ]] || { POST_MSG="g1-n100-b1 with an empty sample.tsv: excluded/reasons '$r', expected excluded with empty-trace"; return 1; }
}
s_trace_missing() { ex; rm "$CORP/$S1"; }
p_trace_missing() {
	local r=$(q "$CDB" "SELECT excluded, exclusion_reasons FROM runs_v WHERE corpus = $(sqlq "$CASE") AND tag = 'g1-n100-b1'" | tr '\t' ' ')
	[[ "$r" == "1 "*no-trace* ]] || { POST_MSG="excluded/reasons '$r', expected excluded with 'no-trace'"; return 1; }
	r=$(q "$CDB" "SELECT m.kind, m.expected_path FROM missing_files m JOIN runs_v r USING (run_id) WHERE r.corpus = $(sqlq "$CASE")" | tr '\t' ' ')
	[ "$r" = "trace $S1" ] || { POST_MSG="missing_files '$r', expected 'trace $S1'"; return 1; }
}
s_json_wrong_type() { ex; sed -i 's/"valid": true/"valid": "yes"/' "$CORP/$J1"; }
s_json_empty() { ex; : >"$CORP/$J1"; }
s_binary() { # 4 KiB of random bytes (fixed seed) with NULs, quotes and all
	ex
	awk 'BEGIN { srand(7); for (i = 0; i < 4096; i++) printf "%c", int(rand() * 256) }' </dev/null >"$CORP/results.tsv"
	printf '\0\0\0' >>"$CORP/results.tsv"
}
s_nul_row() { ex; printf 'g9-n100-b1\t8\0x\n' >>"$CORP/results.tsv"; }
p_spaces_quotes() {
	local name="my \"odd\" corpus's copy"
	"$BIN" --db "$CDB" runs --corpus "$name" --format tsv >"$CD/o.tsv" 2>"$CD/o.err"
	local n=$(tail -n +2 "$CD/o.tsv" | grep -c .)
	[ "$n" = 12 ] || { POST_MSG="runs --corpus '$name': $n runs, expected 12 ($(cat "$CD/o.err"))"; return 1; }
	local sp=$(q "$CDB" "SELECT source_path FROM corpora WHERE name = $(sqlq "$name")")
	[ "$sp" = "$CORP" ] || { POST_MSG="source_path '$sp', expected '$CORP'"; return 1; }
}
s_tag_quote_folder() { # a run tag with a quote, in results.tsv and the run folder
	ex
	mv "$CORP/runs/g1-n100-b1" "$CORP/runs/g1-n100-b1\"q"
	setcol "$CORP/results.tsv" 2 1 'g1-n100-b1"q'
}
p_tag_quote_folder() {
	local r=$(q "$CDB" "SELECT tag, tput = 475.2284019761499, (SELECT count(*) FROM traces t WHERE t.run_id = r.run_id) FROM runs_v r
		WHERE corpus = $(sqlq "$CASE") AND tag = 'g1-n100-b1\"q'" | tr '\t' ' ')
	[ "$r" = 'g1-n100-b1"q 1 2' ] || { POST_MSG="run 'g1-n100-b1\"q': '$r', expected 'g1-n100-b1\"q 1 2' (tag, tput ok, 2 traces)"; return 1; }
}
s_tag_quote_table() { table 'tag\ttput\nx"y\t6\nit'"'"'s\t7\n'; }
p_tag_quote_table() {
	local r=$(q "$CDB" "SELECT tag || '=' || tput FROM runs_v WHERE corpus = $(sqlq "$CASE") ORDER BY tag" | tr '\n' ' ')
	[ "$r" = "it's=7.0 x\"y=6.0 " ] || { POST_MSG="runs '$r', expected 'it's=7.0 x\"y=6.0'"; return 1; }
}
p_sql_injection() {
	local r=$(q "$CDB" "SELECT count(*) FROM runs WHERE tag = '''; DROP TABLE runs; --'" 2>&1)
	[ "$r" = 1 ] || { POST_MSG="runs with the literal tag: '$r'"; return 1; }
	r=$(q "$CDB" "SELECT count(*) FROM runs_v WHERE corpus = 'example'")
	[ "$r" = 13 ] || { POST_MSG="the example corpus has $r runs left, expected 13"; return 1; }
	"$BIN" --db "$CDB" runs --where "tag='; DROP TABLE runs; --" --format tsv >"$CD/o.tsv" 2>&1
	r=$(tail -n +2 "$CD/o.tsv" | cut -f3)
	[ "$r" = "'; DROP TABLE runs; --" ] || { POST_MSG="runs --where tag=... gave '$(cat "$CD/o.tsv")'"; return 1; }
	r=$(q "$CDB" "SELECT count(*) FROM runs")
	[ "$r" = 15 ] || { POST_MSG="runs table has $r rows after the --where, expected 15"; return 1; }
}
s_idle_no_equals() { ex; sed -i 's/ nproc=8/ nproc8/' "$CORP/runs/g1-n100-b1/idle.txt"; }
s_tput_empty_folder() { ex; setcol "$CORP/results.tsv" 2 13 ""; }
p_tput_empty_folder() { # documented: an empty results value is missing, the generator record supplies tput
	local r=$(q "$CDB" "SELECT r.tput = 475.2284019761499, a.value, typeof(a.num) FROM runs_v r JOIN run_attrs a USING (run_id)
		WHERE r.corpus = $(sqlq "$CASE") AND r.tag = 'g1-n100-b1' AND a.source = 'results' AND a.name = 'tput'" | tr '\t' ' ')
	[ "$r" = "1  null" ] || { POST_MSG="tput = load.json's value / results value / typeof(num): '$r', expected '1  null'"; return 1; }
}
s_tput_empty_table() { table 'tag\ttput\nr1\t\nr2\t5\n'; }
p_tput_empty_table() {
	local r=$(q "$CDB" "SELECT tag || ':' || typeof(tput) FROM runs_v WHERE corpus = $(sqlq "$CASE") ORDER BY tag" | tr '\n' ' ')
	[ "$r" = "r1:null r2:real " ] || { POST_MSG="tput types '$r', expected 'r1:null r2:real'"; return 1; }
}
s_manifest_unknown_key() {
	ex
	cp "$BADFIX/unknown-key.manifest" "$CD/unknown-key.manifest"
	IMPORT=(import -q --manifest "$CD/unknown-key.manifest" "$CORP")
}
s_multi_path_atomic() { # a good corpus and a bad one in one command: nothing stored
	CORP=$CD/good
	copy_tree "$EXAMPLE" "$CD/good"
	copy_tree "$EXAMPLE" "$CD/bad"
	setcol "$CD/bad/results.tsv" 13 13 abc
	IMPORT=(import -q "$CD/good" "$CD/bad")
}
s_symlink() { ex; ln -s /etc/hostname "$CORP/runs/g1-n100-b1/extra.txt"; IMPORT=(import "$CORP"); }
p_symlink() {
	local r=$(q "$CDB" "SELECT count(*) FROM files f JOIN corpora k USING (corpus_id) WHERE k.name = $(sqlq "$CASE") AND f.path LIKE '%extra.txt'")
	[ "$r" = 0 ] || { POST_MSG="the symbolic link is in table files"; return 1; }
}
s_no_final_newline() { ex; printf '%s' "$(cat "$CORP/results.tsv")" >"$CORP/results.tsv.new" && mv "$CORP/results.tsv.new" "$CORP/results.tsv"; }
p_no_final_newline() {
	local r=$(q "$CDB" "SELECT count(*), sum(listed) FROM runs_v WHERE corpus = $(sqlq "$CASE")" | tr '\t' ' ')
	[ "$r" = "13 12" ] || { POST_MSG="runs/listed '$r', expected '13 12'"; return 1; }
}

# name | setup | expected exit | stderr fragment (grep -F; "re:" = grep -E) | post check
CASES=(
	"results-missing|s_results_missing|1|results.tsv|"
	"results-empty|s_results_empty|1|re:results\.tsv.*empty|"
	"results-header-only|s_header_only|1|results.tsv:1|"
	"row-too-few-fields|s_few_fields|1|results.tsv:3|"
	"row-too-many-fields|s_many_fields|1|results.tsv:3|"
	"tput-abc|s_tput_abc|1|re:results\.tsv:2:13.*abc|"
	"tput-nan|s_tput_nan|1|re:results\.tsv:2:13.*NaN|"
	"tput-inf|s_tput_inf|1|re:results\.tsv:2:13.*inf|"
	"tput-negative|s_tput_neg|1|results.tsv:2:13|"
	"tput-hex|s_tput_hex|1|results.tsv:2:13|"
	"sessions-negative|s_sessions_neg|1|results.tsv:2:3|"
	"p50-negative|s_p50_neg|1|results.tsv:2:14|"
	"gomaxprocs-fraction|s_gomaxprocs_frac|1|results.tsv:2:2|"
	"valid-not-bool|s_valid_maybe|1|results.tsv:2:19|"
	"crlf-results-and-trace|s_crlf|0||p_crlf"
	"utf8-bom-results|s_bom|0||p_bom"
	"csv-quoted-fields|s_csv_quoted|0||p_csv_quoted"
	"duplicate-tags|s_dup_tags|1|re:results\.tsv:5.*line 2|"
	"blank-line-in-table|s_blank_line|1|results.tsv:5|"
	"duplicate-header-column|s_dup_header|1|results.tsv:1:3|"
	"no-final-newline|s_no_final_newline|0||p_no_final_newline"
	"trace-out-of-order|s_trace_order|1|sample.tsv:11|"
	"trace-counter-reset|s_trace_reset|1|re:sample\.tsv:20:5.*cpu_total_j|"
	"trace-app_j-below-half|s_trace_app_j_half|1|sample.tsv:20:7|"
	"trace-app_j-small-backstep|s_trace_backstep|0||p_trace_backstep"
	"trace-ragged-line|s_trace_ragged|1|sample.tsv:7|"
	"trace-non-numeric|s_trace_text|1|re:sample\.tsv:7:8.*x12|"
	"trace-NA-epoch|s_trace_na_epoch|1|sample.tsv:7:1|"
	"trace-NUL-byte|s_trace_nul|1|re:sample\.tsv:82.*NUL|"
	"trace-empty-file|s_trace_empty|0||p_trace_empty"
	"trace-missing-file|s_trace_missing|0||p_trace_missing"
	"json-truncated|s_json_truncated|1|re:load\.json:[0-9]+:[0-9]+|"
	"json-stray-character|s_json_stray|1|re:load\.json:3:[0-9]+|"
	"json-wrong-type|s_json_wrong_type|1|re:load\.json:29:[0-9]+.*valid|"
	"json-empty|s_json_empty|1|load.json|"
	"binary-garbage-results|s_binary|1|binary|"
	"NUL-in-results-row|s_nul_row|1|re:results\.tsv:14.*NUL|"
	"unreadable-file|s_unreadable|1|re:load\.json.*Permission denied|"
	"path-spaces-and-quotes|s_spaces_quotes|0||p_spaces_quotes"
	"tag-with-quote-folder|s_tag_quote_folder|0||p_tag_quote_folder"
	"tag-with-quote-table|s_tag_quote_table|0||p_tag_quote_table"
	"tag-sql-injection|s_sql_injection|0||p_sql_injection"
	"idle-banner-without-equals|s_idle_no_equals|1|idle.txt:1|"
	"tput-empty-folder-falls-back-to-load.json|s_tput_empty_folder|0||p_tput_empty_folder"
	"tput-empty-table-is-NULL|s_tput_empty_table|0||p_tput_empty_table"
	"manifest-unknown-key|s_manifest_unknown_key|1|unknown-key.manifest:9|"
	"two-paths-one-bad-nothing-stored|s_multi_path_atomic|1|results.tsv:13:13|"
	"symlink-not-followed|s_symlink|0|symbolic link|p_symlink"
)

mkdir -p "$T/cases"
chmod 755 "$T/cases"
for spec in "${CASES[@]}"; do
	IFS='|' read -r CASE setup want_rc frag post <<<"$spec"
	e2e_case "bad-$CASE" || continue
	name="bad input: $CASE"
	case_folder "$CASE"
	case_prepare "$setup" "$name" || continue
	case_import
	ERR=$(cat "$CD/stderr")
	after=$(dbstate "$CDB")
	how="command: ${RUNAS[*]:+${RUNAS[*]} }$(cmdline --db "$CDB" "${IMPORT[@]}")"$'\n'"stderr: $ERR"
	problems=$(case_problems "$want_rc" "$frag" "$CD/stderr" "$BEFORE" "$after")
	if [ "$want_rc" = 0 ] && [ "$RC" = 0 ] && [ -n "$post" ]; then
		$post || problems+="$POST_MSG; "
	fi
	if [ -z "$problems" ]; then
		ok "$name"
	else
		not_ok "$name" "${problems%; }"$'\n'"$how"
	fi
	# the case's copy is no longer needed (keeps $T small)
	chmod -R u+rwX "$CD" 2>/dev/null
	rm -rf "${CD:?}"/*
done

###########################################################################
# C. A large trace in bounded memory
###########################################################################
echo "# C. large trace"
e2e_case large-trace
LIMIT_KB=65536
if [ "${COREPLAN_SKIP_LARGE:-0}" = 1 ]; then
	skip "large trace" "COREPLAN_SKIP_LARGE=1"
elif grep -aqE '__asan_init|__tsan_init|__msan_init|__ubsan_handle' "$BIN"; then
	skip "large trace" "the binary is built with sanitizers"
else
	CASE=large
	LD=$T/large
	mkdir -p "$LD"
	copy_tree "$EXAMPLE" "$LD/large"
	NROWS=5000000
	awk -v n=$NROWS 'BEGIN { OFS = "\t"; for (i = 0; i < n; i++)
		print 1786868355 + i, 100000 + i % 1000, 32156956, 200, 1000000000 + 8 * i, 500000000 + 4 * i, 100000000 + 2 * i, 12 }' \
		>"$LD/large/$S1"
	size=$(stat -c %s "$LD/large/$S1")
	peak=""
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -o "$LD/time.txt" -f '%M' "${TIMEOUT[@]}" "$BIN" --db "$LD/db.sqlite" import -q "$LD/large" >"$LD/stdout" 2>"$LD/stderr"
		RC=$?
		peak=$(tail -1 "$LD/time.txt")
		how="/usr/bin/time -f %M"
	else
		"$BIN" --db "$LD/db.sqlite" import -q "$LD/large" >"$LD/stdout" 2>"$LD/stderr" &
		pid=$!
		peak=0
		while kill -0 $pid 2>/dev/null; do
			v=$(awk '/^VmHWM:/ { print $2 }' /proc/$pid/status 2>/dev/null)
			[ -n "$v" ] && [ "$v" -gt "$peak" ] && peak=$v
			sleep 0.05
		done
		wait $pid
		RC=$?
		how="VmHWM polling"
	fi
	if [ "$RC" = 0 ]; then
		ok "large trace ($((size / 1000000)) MB, $NROWS rows) imports"
	else
		not_ok "large trace imports" "exit $(rcdesc), stderr: $(cat "$LD/stderr")"
	fi
	if [[ "$peak" =~ ^[0-9]+$ ]] && [ "$peak" -lt $LIMIT_KB ]; then
		ok "large trace: peak RSS ${peak} kB < $LIMIT_KB kB ($how)"
	else
		not_ok "large trace: peak RSS < $LIMIT_KB kB" "peak '$peak' kB ($how)"
	fi
	r=$(q "$LD/db.sqlite" "SELECT t.rows, (SELECT count(*) FROM trace_samples s WHERE s.trace_id = t.trace_id),
		(SELECT app_j FROM trace_samples s WHERE s.trace_id = t.trace_id AND s.row_no = $NROWS)
		FROM traces t JOIN files f USING (file_id) WHERE f.path = '$S1'" 2>&1 | tr '\t' ' ')
	check_eq "large trace: $NROWS rows stored, last row intact" "$NROWS $NROWS $((100000000 + 2 * (NROWS - 1)))" "$r"
	rm -rf "$LD"
fi

###########################################################################
SRC_SUM_AFTER=$(treesum "$ROOT/fixtures" "$SKY" "$WRITEUPS")
check_eq "fixtures and shared corpora unmodified" "$SRC_SUM_BEFORE" "$SRC_SUM_AFTER"

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
