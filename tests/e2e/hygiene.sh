#!/usr/bin/env bash
# Database hygiene, typed inputs and safe text (issue 16, items 4 to 6).
#
#   bash tests/e2e/hygiene.sh COREPLAN_BINARY REPO_ROOT SHARED_CORPORA_DIR
#
# Every case works on a copy of a database that holds fixtures/example (and,
# for the read-only cases, the capacity corpus of SHARED_CORPORA_DIR/sky):
#   - another program's SQLite file is refused, by a writing and a reading
#     command, named with what it holds, and left byte-identical (not
#     switched to WAL, no coreplan table added);
#   - read-only storage (run as user nobody: root writes anywhere): a WAL
#     database in a read-only folder is read (immutable, with a warning) and
#     gives what the writable copy gives; a -wal with commits that cannot
#     be read is a clear error;
#   - `import >/dev/full` exits 1 with the database byte-identical;
#   - a --name over 255 bytes is refused, one of 255 stored whole; a long
#     host name is never shown cut;
#   - text where a number is needed (memory --by variant, sweep --metric
#     variant) is an error naming the field and the value; "NA" cells of a
#     real corpus stay missing values (left out); option values out of
#     range are usage errors; a 25-digit integer in a generator record is an
#     error at its file, line and column; a negative sessions_requested
#     excludes the run with its reason;
#   - corpus text with ESC, HTML and Markdown metacharacters reaches no
#     terminal raw (md, tsv, csv, stderr) and reads as itself in report.md;
#   - `report` with `by` twice in --config (a sanitizer build reports any
#     leak on stderr);
#   - the fuzz replays (BINARY's folder/tests/replay_*, or
#     $COREPLAN_REPLAY_DIR) leave nothing in TMPDIR or /tmp.
# Every refusal must leave the database byte-identical (SHA-256 of the file
# and of `sqlite3 DB .dump`) and print a "coreplan: error:" line; no case
# may crash, hang or print a sanitizer report.
#
# Everything happens in a mktemp -d folder removed on exit. Prints
# "ok - NAME" / "not ok - NAME: DETAILS" per check, then "N passed, M
# failed"; exits 1 if any check failed.

# ok, not_ok, check_eq, check_contains, cpl_env, e2e_start (BIN, ROOT,
# SHARED, the corpora's paths, T, TIMEOUT), q, dbstate
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
e2e_start --cd --need sqlite3 --need python3 hygiene "$@"
REPLAYS=${COREPLAN_REPLAY_DIR:-$(dirname "$BIN")/tests}
chmod 711 "$T" # the read-only cases run the binary as nobody inside $T
has_esc() { grep -q $'\x1b' "$@"; }

# run [ENV...] -- ARGS...: the binary on $DB; sets RC, OUT, ERR (files $T/.out, $T/.err)
run() { cpl_env "$@"; }
# no problems a sanitizer or a crash would show
clean_exit() { # NAME
	if [ "$RC" -ge 124 ]; then
		not_ok "$1: no crash or hang" "exit $RC; stderr: $(head -c 400 "$T/.err")"
	elif grep -aqE 'runtime error|Sanitizer|^==[0-9]+==' "$T/.err"; then
		not_ok "$1: no sanitizer report" "$(head -c 600 "$T/.err")"
	fi
}
# refused NAME RC FRAGMENT BEFORE: exit RC, "coreplan: error:" with FRAGMENT, $DB as BEFORE
refused() {
	clean_exit "$1"
	check_eq "$1: exit $2" "$2" "$RC" "$ERR"
	check_contains "$1: the error says why" "$ERR" "$3"
	case "$ERR" in *"coreplan: error: "*) ;; *) not_ok "$1: a 'coreplan: error:' line" "$ERR" ;; esac
	check_eq "$1: database byte-identical" "$4" "$(dbstate "$DB")"
}

BASE=$T/base.db
"$BIN" --db "$BASE" import -q "$EXAMPLE" >/dev/null 2>"$T/.err" ||
	{ not_ok "base database: import of fixtures/example" "$(cat "$T/.err")"; echo "$PASS passed, $FAIL failed"; exit 1; }
dbstate "$BASE" >/dev/null # settle the WAL
fresh() { DB=$T/$1.db; cp "$BASE" "$DB"; }

###########################################################################
# another program's database
###########################################################################
e2e_case foreign-database
DB=$T/foreign.db
sqlite3 "$DB" "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT); CREATE TABLE orders (id, user_id);
	CREATE TABLE items (x); CREATE TABLE notes (y); INSERT INTO users VALUES (1, 'ann');"
before=$(dbstate "$DB")
run -- import -q "$EXAMPLE"
refused "foreign database: import" 1 "holds 4 tables (users, orders, items, ...) and no coreplan schema" "$before"
check_eq "foreign database: still in rollback-journal mode, no -wal" "delete absent" \
	"$(q "$DB" 'PRAGMA journal_mode') $([ -e "$DB-wal" ] && echo present || echo absent)"
check_eq "foreign database: no coreplan table added" "0" "$(q "$DB" "SELECT count(*) FROM sqlite_schema WHERE name = 'corpora'")"
run -- runs
refused "foreign database: a reading command" 1 "no coreplan schema" "$before"
DB=$T/foreign-view.db
sqlite3 "$DB" "CREATE VIEW v AS SELECT 1 AS one; PRAGMA user_version = 3;"
before=$(dbstate "$DB")
run -- topology --host h --cores 2
refused "foreign database with a view and a user_version: topology" 1 "holds 1 schema object" "$before"

###########################################################################
# read-only storage (as nobody)
###########################################################################
e2e_case read-only
RUNAS=(setpriv --reuid=65534 --regid=65534 --clear-groups)
ro_skip=""
if [ "$(id -u)" != 0 ]; then
	RUNAS=()
elif ! command -v setpriv >/dev/null; then
	ro_skip="running as root and setpriv is not installed"
elif ! "${RUNAS[@]}" "$BIN" --version >/dev/null 2>&1; then
	ro_skip="user nobody cannot run $BIN"
fi
ro_run() { # DB ARGS...: as nobody; sets RC, OUT, ERR
	local db=$1
	shift
	"${RUNAS[@]}" "${TIMEOUT[@]}" "$BIN" --db "$db" "$@" >"$T/.out" 2>"$T/.err"
	RC=$?
	OUT=$(cat "$T/.out")
	ERR=$(cat "$T/.err")
}
if [ -n "$ro_skip" ]; then
	skip "read-only storage" "$ro_skip"
else
	fresh rw
	if [ -d "$CAP" ]; then
		"$BIN" --db "$DB" import -q "$CAP" >/dev/null 2>"$T/.err" || not_ok "read-only: import of $CAP_NAME" "$(cat "$T/.err")"
	fi
	dbstate "$DB" >/dev/null
	"$BIN" --db "$DB" runs --format tsv >"$T/rw-runs.tsv" 2>/dev/null
	"$BIN" --db "$DB" sweep --corpus example --by gomaxprocs --format tsv >"$T/rw-sweep.tsv" 2>/dev/null
	mkdir -p "$T/ro" "$T/ro-wal"
	cp "$DB" "$T/ro/db"
	check_eq "read-only: the copy is a WAL database" "wal" "$(q "$T/ro/db" 'PRAGMA journal_mode')"
	rm -f "$T/ro/db-wal" "$T/ro/db-shm"
	chmod 444 "$T/ro/db"
	chmod 555 "$T/ro"
	before=$(dbstate "$T/ro/db")
	ro_run "$T/ro/db" runs --format tsv
	clean_exit "read-only folder: runs"
	check_eq "read-only folder and file: runs exits 0" 0 "$RC" "$ERR"
	if cmp -s "$T/.out" "$T/rw-runs.tsv"; then
		ok "read-only folder: runs gives what the writable copy gives ($(($(wc -l <"$T/rw-runs.tsv") - 1)) runs)"
	else
		not_ok "read-only folder: runs gives what the writable copy gives" "$(diff "$T/rw-runs.tsv" "$T/.out" | head -5)"
	fi
	check_contains "read-only folder: a warning says results may be stale" "$ERR" "coreplan: warning: '$T/ro/db' cannot be written here"
	ro_run "$T/ro/db" sweep --corpus example --by gomaxprocs --format tsv
	check_eq "read-only folder: sweep exits 0 and matches the writable copy" "0 same" \
		"$RC $(cmp -s "$T/.out" "$T/rw-sweep.tsv" && echo same || echo differs)" "$ERR"
	check_eq "read-only folder: the database is unchanged, no -shm or -wal left" "$before none" \
		"$(dbstate "$T/ro/db") $(ls "$T/ro" | grep -c -- '-shm\|-wal' | sed 's/^0$/none/')"
	# a chmod a-w file in a folder nobody may write
	mkdir -p "$T/ro-file"
	cp "$DB" "$T/ro-file/db"
	chmod 444 "$T/ro-file/db"
	chmod 777 "$T/ro-file"
	ro_run "$T/ro-file/db" runs --format tsv
	clean_exit "chmod a-w file: runs"
	check_eq "chmod a-w file in a writable folder: runs exits 0 and matches the writable copy" "0 same" \
		"$RC $(cmp -s "$T/.out" "$T/rw-runs.tsv" && echo same || echo differs)" "$ERR"
	# a -wal with commits, no -shm, in a read-only folder: immutable would miss them
	cp "$DB" "$T/ro-wal/db"
	(cd "$T/ro-wal" && python3 -c "
import os, sqlite3
c = sqlite3.connect('db')
c.execute('PRAGMA wal_autocheckpoint = 0')
c.execute(\"UPDATE corpora SET imported_at = 'later'\")
c.commit()
os._exit(0)")
	rm -f "$T/ro-wal/db-shm"
	chmod 444 "$T/ro-wal/db" "$T/ro-wal/db-wal"
	chmod 555 "$T/ro-wal"
	# (no dbstate here: the sqlite3 shell, as root, would checkpoint the -wal away)
	if [ -s "$T/ro-wal/db-wal" ]; then
		ro_run "$T/ro-wal/db" runs
		clean_exit "read-only folder with a -wal"
		check_eq "read-only folder with commits in -wal but no -shm: exit 1" 1 "$RC" "$ERR"
		check_contains "read-only folder with commits in -wal: the error names the write-ahead log" "$ERR" "write-ahead log '$T/ro-wal/db-wal' holds commits"
	else
		skip "read-only folder with a -wal" "python3 left no -wal file"
	fi
	chmod 755 "$T/ro" "$T/ro-wal" "$T/ro-file"
fi

###########################################################################
# import >/dev/full
###########################################################################
e2e_case dev-full
fresh full
mkdir -p "$T/c"
cp -R "$EXAMPLE" "$T/c/second" && chmod -R u+w "$T/c/second"
before=$(dbstate "$DB")
for fmt in md json; do
	"${TIMEOUT[@]}" "$BIN" --db "$DB" import "$T/c/second" --format "$fmt" >/dev/full 2>"$T/.err"
	RC=$?
	ERR=$(cat "$T/.err")
	refused "import --format $fmt >/dev/full" 1 "nothing was stored" "$before"
	check_eq "import --format $fmt >/dev/full: corpus 'second' not stored" 0 "$(q "$DB" "SELECT count(*) FROM corpora WHERE name = 'second'")"
done
run -- import -q "$T/c/second"
check_eq "import after the failed writes: exit 0, 'second' stored" "0 1" "$RC $(q "$DB" "SELECT count(*) FROM corpora WHERE name = 'second'")" "$ERR"

###########################################################################
# long names
###########################################################################
e2e_case long-names
fresh names
N300=$(printf 'n%.0s' $(seq 300))
N255=$(printf 'n%.0s' $(seq 255))
before=$(dbstate "$DB")
run -- import -q --name "$N300" "$EXAMPLE"
refused "--name of 300 bytes" 2 "is 300 bytes long: at most 255" "$before"
run -- import -q --name "$N255" "$EXAMPLE"
check_eq "--name of 255 bytes: stored whole" "0 255" "$RC $(q "$DB" "SELECT max(length(name)) FROM corpora")" "$ERR"
H600=$(printf 'h%.0s' $(seq 600))
run -- topology --host "$H600" --cores 4
check_eq "topology --host of 600 bytes: stored whole" "0 600" "$RC $(q "$DB" "SELECT max(length(name)) FROM hosts")" "$ERR"
run -- import --host "$H600" --name long-host "$EXAMPLE" --format tsv
hosts=$(tsvget name long-host hosts)
if [ "$RC" = 0 ] && { [ "$hosts" = "$H600" ] || [[ "$hosts" != *hhhhhhhhhh* ]]; }; then
	ok "import --host of 600 bytes: the hosts cell shows the name whole or not at all ('${hosts:0:60}')"
else
	not_ok "import --host of 600 bytes: the hosts cell shows the name whole or not at all" "exit $RC, cell of ${#hosts} bytes: ${hosts:0:80}..."
fi
check_eq "import --host of 600 bytes: the runs' topology_host is whole" "600" \
	"$(q "$DB" "SELECT max(length(a.value)) FROM run_attrs a JOIN runs_v r USING (run_id) WHERE r.corpus = 'long-host' AND a.name = 'topology_host'")"

###########################################################################
# typed inputs
###########################################################################
e2e_case typed-inputs
fresh typed
before=$(dbstate "$DB")
run -- memory --by variant --where gomaxprocs=1
refused "memory --by variant (text levels)" 1 "--by variant: run 'g1-n100-b1' has 'plain', text, not a number" "$before"
run -- sweep --by gomaxprocs --metric variant
refused "sweep --metric variant (a text metric)" 1 "--metric variant: run 'g1-n100-b1' has 'plain'" "$before"
run -- sweep --by gomaxprocs --metric gogc
refused "sweep --metric gogc (text 'default')" 1 "has 'default', text, not a number" "$before"
run -- noise --by variant
refused "noise --by variant" 1 "--by variant" "$before"
if [ -d "$CAP" ]; then
	fresh cap
	"$BIN" --db "$DB" import -q "$CAP" >/dev/null 2>&1
	# xact_per_s is "NA" in the runs without PostgreSQL: missing, not text
	run -- sweep --corpus "$CAP_NAME" --by sessions --metric xact_per_s --where target=medium --pool block,cfg,store --format json
	check_eq "sweep --metric xact_per_s on $CAP_NAME: NA cells are left out, not an error" 0 "$RC" "$ERR"
	na=$(jget 'sum(1 for r in d["left_out"] if "no numeric value for --metric xact_per_s" in r["reason"])')
	want=$(q "$DB" "SELECT count(*) FROM runs_v r JOIN run_attrs a USING (run_id) WHERE r.corpus = '$CAP_NAME'
		AND r.target = 'medium' AND NOT r.excluded AND a.source = 'results' AND a.name = 'xact_per_s' AND a.value = 'NA'")
	check_eq "sweep --metric xact_per_s: the left-out runs are the NA ones ($want in the database)" "$want" "$na"
	DB=$T/typed.db
fi
for spec in "size --target 1000 --sessions 1.5|--sessions|'1.5'" \
	"size --target 1000 --sessions 25 --per-doubling 0|--per-doubling needs a factor above 0|'0'" \
	"size --target 1000 --sessions 25 --smt-factor 0|--smt-factor needs a factor above 0|'0'" \
	"size --target 1000 --sessions 1234567890123456789012345|whole session counts|1234567890123456789012345" \
	"size --target 1000 --sessions -3|whole session counts from 1|'-3'" \
	"noise --by gomaxprocs --burst-factor 0.5|--burst-factor needs a number above 1|'0.5'"; do
	IFS='|' read -r args frag value <<<"$spec"
	read -ra words <<<"$args"
	run -- "${words[@]}"
	refused "$args" 2 "$frag" "$before"
	check_contains "$args: the message quotes the value" "$ERR" "$value"
done
printf 'target = 1000\nsessions = 1.5\n' >"$T/bad.conf"
run -- report --config "$T/bad.conf" --out "$T/bad-report"
refused "report --config with sessions = 1.5" 2 "whole session counts" "$before"
check_eq "report --config with sessions = 1.5: no output folder created" absent "$([ -e "$T/bad-report" ] && echo present || echo absent)"

# a 25-digit integer in a generator record
fresh big
cp -R "$EXAMPLE" "$T/c/big" && chmod -R u+w "$T/c/big"
sed -i 's/"sessions_requested": 100/"sessions_requested": 1234567890123456789012345/' "$T/c/big/runs/g1-n100-b1/load.json"
before=$(dbstate "$DB")
run -- import -q "$T/c/big"
refused "a 25-digit sessions_requested in a generator record" 1 "runs/g1-n100-b1/load.json:4:3: 'sessions_requested' is an integer beyond the 64-bit range" "$before"

# a negative sessions_requested: the run is excluded, with the reason
fresh neg
cp -R "$EXAMPLE" "$T/c/neg" && chmod -R u+w "$T/c/neg"
sed -i 's/"sessions_requested": 100/"sessions_requested": -5/' "$T/c/neg/runs/g1-n100-b1/load.json"
run -- import -q "$T/c/neg"
check_eq "generator sessions_requested -5: import exits 0" 0 "$RC" "$ERR"
check_eq "generator sessions_requested -5: the run is excluded with the reason" \
	"1|impossible-value: the generator record says sessions_requested -5 (must be zero or more)" \
	"$(q "$DB" "SELECT excluded || '|' || exclusion_reasons FROM runs_v WHERE corpus = 'neg' AND tag = 'g1-n100-b1'")"
run -- sweep --corpus neg --by gomaxprocs --pool block --format json
check_eq "generator sessions_requested -5: sweep lists the run as left out" "1" \
	"$(jget 'sum(1 for r in d["left_out"] if r["tag"] == "g1-n100-b1" and "sessions_requested -5" in r["reason"])')"

###########################################################################
# safe text
###########################################################################
e2e_case safe-text
fresh text
mkdir -p "$T/t"
# the tags, a block, a field and the corpus's own name carry ESC, HTML and Markdown
HOSTILE_TSV="$T/t/h<b>x*.tsv"
printf 'tag\tgomaxprocs\tsessions\ttput\tblock\tvalid\tnote\n' >"$HOSTILE_TSV"
printf '# <script>*x*`y`|z\x1b[31m\t1\t10\t5\t<b>1</b>|*\ttrue\t\x1b]0;pwn\x07<i>n</i>\n' >>"$HOSTILE_TSV"
printf 'r2\t2\t10\t9\t<b>1</b>|*\ttrue\tplain\nr3\t1\t10\t6\tb2\ttrue\tp\nr4\t2\t10\t10\tb2\ttrue\tq\n' >>"$HOSTILE_TSV"
printf '1. bad\x1b[0m\t2\t10\t10\tb2\tfalse\tx\n' >>"$HOSTILE_TSV"
run -- import -q "$HOSTILE_TSV"
check_eq "hostile text: import exits 0" 0 "$RC" "$ERR"
NAME='h<b>x*'
for fmt in md tsv csv json; do
	run -- runs --corpus "$NAME" --include-excluded --format "$fmt"
	if [ "$RC" = 0 ] && ! has_esc "$T/.out" && ! grep -q $'\x07' "$T/.out"; then
		ok "runs --format $fmt: no ESC or BEL byte on stdout"
	else
		not_ok "runs --format $fmt: no ESC or BEL byte on stdout" "exit $RC: $(grep -a $'\x1b' "$T/.out" | head -2 | cat -v)"
	fi
done
run -- runs --corpus "$NAME" --include-excluded --format tsv
check_contains "runs --format tsv: ESC shown as \\x1B" "$OUT" '# <script>*x*`y`|z\x1B[31m'
run -- runs --corpus "$NAME" --include-excluded
check_contains "runs (md): the tag cell escaped" "$OUT" '| # &lt;script>\*x\*\`y\`\|z\x1B\[31m |'
check_contains "runs (md): the corpus name escaped in the footer" "$OUT" 'corpora h&lt;b>x\*; '
run -- sweep --corpus "$NAME" --by gomaxprocs --metric note
if [ "$RC" = 1 ] && ! has_esc "$T/.err" && ! grep -q $'\x07' "$T/.err"; then
	ok "an error quoting the corpus's text: no ESC or BEL byte on stderr"
else
	not_ok "an error quoting the corpus's text: no ESC or BEL byte on stderr" "exit $RC: $(cat -v "$T/.err" | head -3)"
fi
check_contains "an error quoting the corpus's text: ESC shown as \\x1B" "$ERR" "run '# <script>*x*\`y\`|z\\x1B[31m' has '\\x1B]0;pwn\\x07<i>n</i>'"
run -- report --corpus "$NAME" --out "$T/t/report"
check_eq "report on the hostile corpus exits 0" 0 "$RC" "$ERR"
MD=$T/t/report/report.md
if [ -s "$MD" ] && ! has_esc "$MD" && ! grep -q $'\x07' "$MD"; then
	ok "report.md: no ESC or BEL byte"
else
	not_ok "report.md: no ESC or BEL byte" "$(grep -an $'\x1b' "$MD" | head -3 | cat -v)"
fi
raw=$(grep -anE '<(script|b|i|/b|/i)>' "$MD" | grep -v '^[0-9]*:!\[' | head -3)
check_eq "report.md: no raw HTML tag from the corpus" "" "$raw"
check_contains "report.md: the left-out tag starting with a number is not a list" "$(cat "$MD")" '- 1\. bad\x1B\[0m: invalid: the generator marked the run invalid'
check_contains "report.md: the tag's Markdown reads as itself in a table" "$(cat "$MD")" '# &lt;script>\*x\*\`y\`\|z\x1B\[31m'
python3 "$E2E_PY_DIR/hygiene_md_safe_text.py" "$MD" >"$T/.py" 2>&1
check_eq "report.md: every table row keeps its columns" ok "$(cat "$T/.py")"

###########################################################################
# report with `by` twice in --config (a sanitizer build reports a leak)
###########################################################################
e2e_case config-twice
fresh twice
printf 'by = gomaxprocs\nby = gomaxprocs\ngroup = block\ngroup = block\n' >"$T/twice.conf"
run ASAN_OPTIONS=detect_leaks=1:halt_on_error=1 -- report --config "$T/twice.conf" --out "$T/twice"
clean_exit "report with by twice in --config"
check_eq "report with by and group twice in --config: exit 0, report.md written" "0 yes" \
	"$RC $([ -s "$T/twice/report.md" ] && echo yes || echo no)" "$ERR"

###########################################################################
# fuzz replays leave nothing in TMPDIR or /tmp
###########################################################################
e2e_case fuzz-tmp
if ! ls "$REPLAYS"/replay_* >/dev/null 2>&1; then
	skip "fuzz replays leave nothing behind" "no replay programs in $REPLAYS"
else
	for r in "$REPLAYS"/replay_*; do
		name=${r##*/replay_}
		corpus=$ROOT/tests/fuzz/corpus/$name
		[ -d "$corpus" ] || continue
		mkdir -p "$T/tmpdir-$name"
		touch "$T/mark-$name"
		sleep 0.01
		TMPDIR=$T/tmpdir-$name "$r" "$corpus" >"$T/.out" 2>"$T/.err" &
		pid=$!
		wait "$pid"
		RC=$?
		left=$(ls -A "$T/tmpdir-$name")
		# the old replays wrote /tmp/coreplan-fuzz-PID.*: only a file of our
		# pid written after our mark counts (a PID is reused; an older file of
		# that name is another run's, and stays where it is)
		intmp=$(find /tmp -maxdepth 1 -name "coreplan-fuzz-$pid.*" -newer "$T/mark-$name" 2>/dev/null | tr '\n' ' ')
		if [ "$RC" = 0 ] && [ -z "$left" ] && [ -z "$intmp" ]; then
			ok "fuzz replay $name: exit 0, nothing left in TMPDIR or /tmp"
		else
			not_ok "fuzz replay $name: exit 0, nothing left in TMPDIR or /tmp" "exit $RC; TMPDIR holds '$left'; /tmp holds '$intmp'"
		fi
	done
fi

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
