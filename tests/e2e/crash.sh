#!/usr/bin/env bash
# Crash safety and concurrency of `coreplan import`.
#
#   bash tests/e2e/crash.sh COREPLAN_BINARY REPO_ROOT SHARED_CORPORA_DIR
#
# A. crash safety: a database holding a small corpus; an import of a large
#    corpus (fixtures/example with one run's sample.tsv replaced by
#    3,000,000 generated rows) killed with SIGKILL at several points (timed,
#    and, with gdb on x86-64, in the middle of the COMMIT's WAL writes and in
#    the middle of the checkpoint that follows it). After each kill: a
#    reader sees the old state, `PRAGMA integrity_check` (sqlite3 shell,
#    which recovers the WAL) is ok, the corpora listing (minus imported_at)
#    and the row count of every table are those from before the import (or,
#    when the process had already committed, exactly those of a complete
#    import), and a later import of the large corpus succeeds.
# B. concurrency: two imports of different corpora into the same fresh
#    database, started together: each succeeds, or fails with exit 1 and
#    "database busy" after the documented 5 s busy timeout; the database is
#    consistent and each corpus complete or absent.
# C. a reader during an import: `coreplan runs` run repeatedly while the
#    large import runs sees the new corpus with none or all of its runs.
# D. a failed final sync: an import into a new file, every fsync and
#    fdatasync failing (tests/e2e/c/syncfail.c, LD_PRELOAD), exits 1 saying
#    the import was written, and the file holds it.
#
# COREPLAN_SKIP_LARGE=1 (or a binary built with sanitizers) shrinks the
# large trace to 300,000 rows. Prints "ok - NAME" / "not ok - NAME:
# DETAILS" per check, then "N passed, M failed"; exits 1 if any failed.

E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# ok, skip, not_ok, check_eq; cases A, B and C (crash-safety, concurrency,
# reader: each runs only when selected, `if e2e_case NAME; then ... fi`);
# e2e_start (BIN, ROOT, SHARED: not read, the same interface as run.sh, T);
# rcdesc, q, now, elapsed, sanitized, copy_tree
source "$E2E_DIR/lib.sh"
BGPIDS=()
e2e_cleanup() {
	local p
	for p in "${BGPIDS[@]}"; do kill -9 "$p" 2>/dev/null; done
}
e2e_start --cd --need sqlite3 crash "$@"
e2e_timeout 120

rmdb() { rm -f "$1" "$1-wal" "$1-shm" "$1-journal"; }
sanitizer_report() { grep -aqE 'runtime error|Sanitizer|[Aa]ssertion|^==[0-9]+==' "$@" 2>/dev/null; }

# listing DB: `coreplan corpora --format tsv` without the imported_at column
listing() {
	"${TIMEOUT[@]}" "$BIN" --db "$1" corpora --format tsv 2>&1 |
		awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "imported_at") c = i }
			{ s = ""; for (i = 1; i <= NF; i++) if (i != c) s = s (s == "" ? "" : "\t") $i; print s }'
}
# counts DB: "table rows" for every table of the database
counts() {
	local t sql=""
	for t in $(q "$1" "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"); do
		sql+="${sql:+ UNION ALL }SELECT '$t', count(*) FROM \"$t\""
	done
	q "$1" "$sql" | tr '\t' ' '
}
# state DB: listing and counts
state() { listing "$1"; echo "--"; counts "$1"; }
diffstate() { diff <(printf '%s\n' "$1") <(printf '%s\n' "$2") | head -20; }

NROWS=3000000
if [ "${COREPLAN_SKIP_LARGE:-0}" = 1 ] || sanitized; then
	NROWS=300000
fi

echo "# coreplan: $BIN"
echo "# temp: $T"

###########################################################################
# Corpora and the reference states
###########################################################################
SMALL=$T/small
BIG=$T/big
copy_tree "$EXAMPLE" "$SMALL"
copy_tree "$EXAMPLE" "$BIG"
S1=runs/g1-n100-b1/sample.tsv
t0=$(now)
# the columns of sample.tsv: epoch app_rss_kb mem_avail_kb conn cpu_total_j
# cpu_idle_j app_j threads; epoch and the jiffy counters increase
awk -v n=$NROWS 'BEGIN { OFS = "\t"; for (i = 0; i < n; i++)
	print 1786868355 + i, 100000 + i % 1000, 32156956 - i % 500, 200, 1000000000 + 8 * i, 500000000 + 4 * i, 100000000 + 2 * i, 12 }' \
	>"$BIG/$S1"
echo "# large corpus: $NROWS trace rows, $(($(stat -c %s "$BIG/$S1") / 1000000)) MB, generated in $(elapsed "$t0" "$(now)") s"
BIG_ROWS=$((NROWS + 1835 - $(wc -l <"$EXAMPLE/$S1")))

DB0=$T/db0.sqlite
"${TIMEOUT[@]}" "$BIN" --db "$DB0" import -q "$SMALL" >/dev/null 2>"$T/err" ||
	{ not_ok "setup: import of the small corpus" "$(cat "$T/err")"; echo "$PASS passed, $FAIL failed"; exit 1; }
q "$DB0" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
STATE0=$(state "$DB0")

REF=$T/ref.sqlite
cp "$DB0" "$REF"
t0=$(now)
"${TIMEOUT[@]}" "$BIN" --db "$REF" import -q "$BIG" >/dev/null 2>"$T/err"
RC=$?
D=$(elapsed "$t0" "$(now)")
if [ "$RC" = 0 ]; then
	ok "reference import of the large corpus ($NROWS trace rows) in $D s"
else
	not_ok "reference import of the large corpus" "exit $(rcdesc $RC): $(cat "$T/err")"
fi
STATE1=$(state "$REF")
check_eq "reference: the large corpus has 13 runs and $BIG_ROWS trace rows" "13 $BIG_ROWS" \
	"$(q "$REF" "SELECT count(*), (SELECT sum(rows) FROM traces t JOIN runs r2 USING (run_id) WHERE r2.corpus_id = c.corpus_id)
		FROM runs r JOIN corpora c USING (corpus_id) WHERE c.name = 'big'" | tr '\t' ' ')"
rmdb "$REF"

###########################################################################
# A. kill -9 during the import
###########################################################################
echo "# A. crash safety"
if e2e_case crash-safety; then
HAVE_GDB=0
if command -v gdb >/dev/null && [ "$(uname -m)" = x86_64 ]; then
	HAVE_GDB=1
fi

# after_kill LABEL DB KILLED RC: the checks after a kill (KILLED: 1 by
# kill -9, RC its exit code; 0 the process had exited before; 2 by gdb)
after_kill() {
	local label=$1 db=$2 killed=$3 rc=$4 st which problems="" r t0
	# a reader first, before anything recovers the WAL
	r=$(listing "$db")
	if [ "$r" != "${STATE0%%$'\n'--*}" ] && [ "$r" != "${STATE1%%$'\n'--*}" ]; then
		problems+="coreplan corpora on the killed database (hot WAL): '$r'; "
	fi
	r=$(q "$db" "PRAGMA integrity_check" 2>&1 | tr '\n' ' ')
	[ "$r" = "ok " ] || problems+="integrity_check: '$r'; "
	r=$(q "$db" "PRAGMA foreign_key_check" 2>&1 | head -3 | tr '\n' ' ')
	[ -z "$r" ] || problems+="foreign_key_check: '$r'; "
	# the tables whose rows go with their run or trace by trigger, not by a
	# foreign key (schema versions 8-10): no row left without its parent
	r=$(q "$db" "SELECT (SELECT count(*) FROM run_values WHERE run_id NOT IN (SELECT run_id FROM runs))
		+ (SELECT count(*) FROM attr_rows WHERE run_id NOT IN (SELECT run_id FROM runs))
		+ (SELECT count(*) FROM idle_banners WHERE run_id NOT IN (SELECT run_id FROM runs))
		+ (SELECT count(*) FROM origin_rows WHERE run_id NOT IN (SELECT run_id FROM runs))
		+ (SELECT count(*) FROM trace_samples WHERE trace_id NOT IN (SELECT trace_id FROM traces))" 2>&1)
	[ "$r" = 0 ] || problems+="rows left without their run or trace: '$r'; "
	st=$(state "$db")
	if [ "$st" = "$STATE0" ]; then
		which="state before the import"
	elif [ "$st" = "$STATE1" ]; then
		which="complete import (had committed)"
	else
		which="PARTIAL"
		problems+="the database is neither as before nor the complete import:"$'\n'"$(diffstate "$STATE0" "$st")"$'\n'"; "
	fi
	if [ "$killed" = 1 ] && [ "$rc" != 137 ]; then
		problems+="exit $(rcdesc "$rc"), expected 137 (SIGKILL); "
	fi
	if [ -z "$problems" ]; then
		case $killed in
		0) which+="; the import had finished before the kill" ;;
		2) which+="; killed by gdb" ;;
		esac
		ok "kill $label: $which; integrity ok"
	else
		not_ok "kill $label" "${problems%; }"
	fi
	# a later import succeeds and is complete
	t0=$(now)
	"${TIMEOUT[@]}" "$BIN" --db "$db" import -q "$BIG" >/dev/null 2>"$T/later.err"
	rc=$?
	st=$(state "$db")
	if [ "$rc" = 0 ] && [ "$st" = "$STATE1" ]; then
		ok "kill $label: a later import succeeds, complete ($(elapsed "$t0" "$(now)") s)"
	else
		not_ok "kill $label: a later import succeeds" "exit $(rcdesc $rc): $(head -c 500 "$T/later.err")"$'\n'"$(diffstate "$STATE1" "$st")"
	fi
	sanitizer_report "$T/kill.err" "$T/later.err" && not_ok "kill $label: no sanitizer report" "$(head -c 800 "$T/kill.err" "$T/later.err")"
}

KDB=$T/k.sqlite
# plus three quarters of the reference duration (late in the import), if later than 2.2 s
timed_points="0.2 0.5 1 2 $(awk -v d="$D" 'BEGIN { if (d * 0.75 > 2.2) printf "%.2f", d * 0.75 }')"
for t in $timed_points; do
	rmdb "$KDB"
	cp "$DB0" "$KDB"
	"$BIN" --db "$KDB" import -q "$BIG" >/dev/null 2>"$T/kill.err" &
	pid=$!
	BGPIDS=("$pid")
	sleep "$t"
	killed=0
	if kill -0 "$pid" 2>/dev/null; then
		kill -9 "$pid" 2>/dev/null && killed=1
	fi
	wait "$pid" 2>/dev/null
	rc=$?
	# a process that has exited but is not yet reaped still takes kill -0
	# and kill -9 without effect: exit 0 means the import had finished
	[ "$killed" = 1 ] && [ "$rc" = 0 ] && killed=0
	BGPIDS=()
	after_kill "after $t s" "$KDB" "$killed" "$rc"
done

# gdb_kill LABEL GDB-COMMANDS...: run the import under gdb, stop at
# sqlite3_exec(db, "COMMIT") ("COMM" = 0x4d4d4f43 at the second argument,
# rsi on x86-64), then follow the commands; gdb's `kill` sends SIGKILL.
gdb_kill() {
	local label=$1
	shift
	local args=() c
	for c in "$@"; do args+=(-ex "$c"); done
	rmdb "$KDB"
	cp "$DB0" "$KDB"
	"${TIMEOUT[@]}" gdb -q -batch -nx -ex 'set breakpoint pending on' -ex 'set pagination off' -ex 'set confirm off' \
		-ex 'break sqlite3_exec if *(int *)$rsi == 0x4d4d4f43' -ex run -ex 'delete 1' "${args[@]}" -ex 'info inferiors' -ex kill \
		--args "$BIN" --db "$KDB" import -q "$BIG" >"$T/gdb.out" 2>"$T/kill.err"
	if ! grep -q 'Breakpoint 1,' "$T/gdb.out"; then
		skip "kill $label" "gdb did not stop at COMMIT: $(grep -v '^\[' "$T/gdb.out" | tail -3 | tr '\n' ' ')"
		return
	fi
	if grep -q 'exited normally\|exited with code' "$T/gdb.out"; then
		not_ok "kill $label" "the import ran to its end under gdb: $(grep -E 'exited' "$T/gdb.out")"
		return
	fi
	echo "# kill $label: stopped at $(grep -E '^Catchpoint [0-9]+ \(' "$T/gdb.out" | tail -1 | sed 's/, 0x.* in / in /' | cut -c1-150)"
	after_kill "$label" "$KDB" 2 0
}
if [ $HAVE_GDB = 1 ]; then
	# 10 WAL writes into the COMMIT (before its last frame)
	gdb_kill "in COMMIT (10th WAL write, gdb)" 'catch syscall pwrite64' 'ignore 2 19' continue
	# after the commit, 100 writes into the checkpoint's copy back to the database file
	gdb_kill "in the checkpoint after COMMIT (100th write, gdb)" 'catch syscall fsync fdatasync' continue 'delete 2' \
		'catch syscall pwrite64' 'ignore 3 199' continue
else
	skip "kill in COMMIT" "needs gdb on x86-64"
	skip "kill in the checkpoint" "needs gdb on x86-64"
fi
rmdb "$KDB"
fi # crash-safety

###########################################################################
# B. two imports into one fresh database at the same moment
###########################################################################
echo "# B. concurrency"
if e2e_case concurrency; then
# conc_round LABEL DIR-A DIR-B: both imports started together on a fresh db
conc_round() {
	local label=$1 a=$2 b=$3 db=$T/conc.sqlite problems="" i rc el name n msg dir err
	local -a pids=()
	rmdb "$db"
	rm -f "$T/ca.rc" "$T/cb.rc"
	# each job records its exit code and its own duration
	timed_import() { # DB DIR OUT ERR RCFILE
		local s=$(now) rc
		"$BIN" --db "$1" import -q "$2" >"$3" 2>"$4"
		rc=$?
		echo "$rc $(elapsed "$s" "$(now)")" >"$5"
	}
	timed_import "$db" "$a" "$T/ca.out" "$T/ca.err" "$T/ca.rc" &
	pids+=($!)
	timed_import "$db" "$b" "$T/cb.out" "$T/cb.err" "$T/cb.rc" &
	pids+=($!)
	BGPIDS=("${pids[@]}")
	wait "${pids[@]}"
	BGPIDS=()
	local rcs=() els=() f
	for f in "$T/ca.rc" "$T/cb.rc"; do
		read -r rc el <"$f" || { rc=255 el=0; }
		rcs+=("$rc")
		els+=("$el")
	done
	local r=$(q "$db" "PRAGMA integrity_check" 2>&1 | tr '\n' ' ')
	[ "$r" = "ok " ] || problems+="integrity_check '$r'; "
	local summary=""
	for i in 0 1; do
		if [ $i = 0 ]; then dir=$a err=$T/ca.err; else dir=$b err=$T/cb.err; fi
		name=$(basename "$dir")
		rc=${rcs[$i]}
		n=$(q "$db" "SELECT count(*) FROM runs r JOIN corpora c USING (corpus_id) WHERE c.name = '$name'" 2>&1)
		local nc=$(q "$db" "SELECT count(*) FROM corpora WHERE name = '$name'" 2>&1)
		sanitizer_report "$err" && problems+="$name: sanitizer report; "
		if [ "$rc" = 0 ]; then
			[ "$n $nc" = "13 1" ] || problems+="$name: exit 0 but $nc corpora rows, $n runs (expected 13); "
			summary+="$name ok (${els[$i]} s); "
		elif [ "$rc" = 1 ]; then
			msg=$(head -c 300 "$err" | tr '\n' ' ')
			[[ "$msg" == *"database busy"* ]] || problems+="$name: exit 1 without 'database busy': '$msg'; "
			awk -v e="${els[$i]}" 'BEGIN { exit !(e >= 4.9) }' ||
				problems+="$name: failed after ${els[$i]} s, before the 5 s busy timeout: '$msg'; "
			[ "$n $nc" = "0 0" ] || problems+="$name: failed but $nc corpora rows, $n runs are stored; "
			summary+="$name busy after ${els[$i]} s; "
		else
			problems+="$name: exit $(rcdesc "$rc"): $(head -c 300 "$err"); "
		fi
	done
	if [ -z "$problems" ]; then
		ok "concurrent imports, $label: ${summary%; }"
	else
		not_ok "concurrent imports, $label" "${problems%; }"$'\n'"reproduce: rm -f db; $BIN --db db import -q $a & $BIN --db db import -q $b & wait"
	fi
	rmdb "$db"
}
copy_tree "$EXAMPLE" "$T/alpha"
copy_tree "$EXAMPLE" "$T/beta"
for i in 1 2 3 4 5; do
	conc_round "small + small, fresh database, round $i" "$T/alpha" "$T/beta"
done
conc_round "large + small, fresh database" "$BIG" "$T/alpha"
conc_round "small + large, fresh database" "$T/alpha" "$BIG"
# a second large corpus: the same files, hard-linked, under another name
cp -al "$BIG" "$T/big2" 2>/dev/null || copy_tree "$BIG" "$T/big2"
conc_round "large + large, fresh database" "$BIG" "$T/big2"
rm -rf "$T/big2"

# a writer that holds the lock longer than the busy timeout: the import
# must give up after 5 s with "database busy", exit 1, database unchanged
HDB=$T/held.sqlite
cp "$DB0" "$HDB"
HOLD_S=8
dbsum() { printf '%s %s' "$(sha256sum <"$1" | cut -c1-16)" "$(sqlite3 -batch "$1" .dump | sha256sum | cut -c1-16)"; }
before=$(dbsum "$HDB")
(echo 'BEGIN IMMEDIATE;'; sleep $HOLD_S; echo 'COMMIT;') | sqlite3 "$HDB" &
holder=$!
BGPIDS=("$holder")
sleep 0.5
t0=$(now)
"${TIMEOUT[@]}" "$BIN" --db "$HDB" import -q "$T/alpha" >/dev/null 2>"$T/held.err"
rc=$?
el=$(elapsed "$t0" "$(now)")
wait "$holder"
BGPIDS=()
after=$(dbsum "$HDB")
msg=$(head -c 300 "$T/held.err" | tr '\n' ' ')
if [ "$rc" = 1 ] && [[ "$msg" == *"database busy"* ]] && awk -v e="$el" -v h=$HOLD_S 'BEGIN { exit !(e >= 4.9 && e < h - 0.5) }' &&
	[ "$before" = "$after" ]; then
	ok "import against a write lock held ${HOLD_S} s: exit 1 after $el s, 'database busy', database unchanged"
else
	not_ok "import against a write lock held ${HOLD_S} s" "exit $(rcdesc $rc) after $el s (expected 1 after 5 s), stderr '$msg', database $before -> $after"$'\n'"reproduce: (echo 'BEGIN IMMEDIATE;'; sleep 8; echo 'COMMIT;') | sqlite3 DB & sleep 0.5; time $BIN --db DB import -q CORPUS"
fi
rmdb "$HDB"
fi # concurrency

###########################################################################
# C. a reader during an import
###########################################################################
echo "# C. reader during an import"
if e2e_case reader; then
RDB=$T/r.sqlite
cp "$DB0" "$RDB"
"$BIN" --db "$RDB" import -q "$BIG" >/dev/null 2>"$T/imp.err" &
pid=$!
BGPIDS=("$pid")
nread=0
seen=""
bad=""
while kill -0 "$pid" 2>/dev/null; do
	"${TIMEOUT[@]}" "$BIN" --db "$RDB" runs --include-excluded --format tsv >"$T/runs.tsv" 2>"$T/runs.err"
	rc=$?
	n=$(awk -F'\t' 'NR > 1 && $1 == "big"' "$T/runs.tsv" | wc -l)
	m=$(awk -F'\t' 'NR > 1 && $1 == "small"' "$T/runs.tsv" | wc -l)
	nread=$((nread + 1))
	if [ "$rc" != 0 ] || { [ "$n" != 0 ] && [ "$n" != 13 ]; } || [ "$m" != 13 ]; then
		bad+="read $nread: exit $(rcdesc $rc), big $n runs, small $m runs, stderr '$(head -c 200 "$T/runs.err")'; "
	fi
	[[ " $seen " == *" $n "* ]] || seen+=" $n"
done
wait "$pid"
rc=$?
BGPIDS=()
"$BIN" --db "$RDB" runs --include-excluded --format tsv >"$T/runs.tsv" 2>&1
n=$(awk -F'\t' 'NR > 1 && $1 == "big"' "$T/runs.tsv" | wc -l)
check_eq "reader: the import under the readers succeeds and then shows 13 runs" "0 13" "$rc $n" "$(head -c 300 "$T/imp.err")"
if [ -n "$bad" ]; then
	not_ok "reader during the import: none or all of the new runs" "${bad%; }"
elif [ "$nread" -lt 3 ]; then
	skip "reader during the import" "only $nread reads completed during the import"
else
	ok "reader during the import: $nread reads, each saw 0 or 13 runs of the new corpus (seen:$seen)"
fi
rmdb "$RDB"

# a read transaction held open across a whole import keeps its snapshot,
# and does not stop the import
RDB=$T/r2.sqlite
cp "$DB0" "$RDB"
mkfifo "$T/ctl"
sqlite3 -batch -noheader "$RDB" <"$T/ctl" >"$T/reader.out" 2>&1 &
reader=$!
BGPIDS=("$reader")
exec 7>"$T/ctl"
echo "BEGIN; SELECT count(*) FROM runs;" >&7
sleep 0.3
t0=$(now)
"${TIMEOUT[@]}" "$BIN" --db "$RDB" import -q "$BIG" >/dev/null 2>"$T/imp.err"
rc=$?
el=$(elapsed "$t0" "$(now)")
echo "SELECT count(*) FROM runs; COMMIT; SELECT count(*) FROM runs;" >&7
exec 7>&-
wait "$reader"
BGPIDS=()
check_eq "an import under an open read transaction succeeds ($el s); the reader keeps its snapshot (13 13), then sees 26" \
	"0 13 13 26" "$rc $(tr '\n' ' ' <"$T/reader.out" | sed 's/ $//')" "$(head -c 300 "$T/imp.err")"
r=$(q "$RDB" "PRAGMA integrity_check" 2>&1 | tr '\n' ' ')
check_eq "integrity after the import under a reader" "ok " "$r"
rmdb "$RDB"
fi # reader

###########################################################################
# D. the final sync of a new database file fails
###########################################################################
# The import into a file it creates is stored whole, then synced once at the
# close (schema/db.c): a failed sync (tests/e2e/c/syncfail.c makes every
# fsync and fdatasync fail with EIO) is exit 1 with a message that says the
# import was written, and the file holds exactly what a normal import
# stores; an import into an existing file is unaffected (its syncs are
# SQLite's, whose failure at the close leaves the commit in the WAL).
echo "# D. a failed final sync"
if e2e_case sync-fail; then
SHIM=$T/syncfail.so
if ! cc -shared -fPIC -O1 -o "$SHIM" "$ROOT/tests/e2e/c/syncfail.c" 2>"$T/cc.err"; then
	skip "a failed final sync" "no C compiler for the shim: $(head -c 200 "$T/cc.err")"
else
	SDB=$T/synced.sqlite
	[ -d "$T/alpha" ] || copy_tree "$EXAMPLE" "$T/alpha"
	rmdb "$SDB"
	# env after timeout: the shim takes itself out of the environment of what it loads into
	"${TIMEOUT[@]}" env ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		LD_PRELOAD="$SHIM" "$BIN" --db "$SDB" import -q "$T/alpha" >"$T/sf.out" 2>"$T/sf.err"
	rc=$?
	msg=$(head -c 400 "$T/sf.err" | tr '\n' ' ')
	n=$(q "$SDB" "SELECT count(*) FROM runs" 2>&1)
	if [ "$rc" = 1 ] && [[ "$msg" == *"was written but syncing"*"Input/output error"* ]] && [ "$n" = 13 ]; then
		ok "a failed final sync of a new file: exit 1, 'was written but syncing ... Input/output error', the 13 runs stored"
	else
		not_ok "a failed final sync of a new file" "exit $(rcdesc "$rc") (expected 1), stderr '$msg', $n runs (expected 13)"
	fi
	# the null case: the same import without the shim exits 0 and prints no error
	rmdb "$SDB"
	"${TIMEOUT[@]}" "$BIN" --db "$SDB" import -q "$T/alpha" >/dev/null 2>"$T/sf0.err"
	check_eq "the same import without the shim: exit 0, no message" "0 0" "$? $(wc -c <"$T/sf0.err")"
	rmdb "$SDB"
fi
fi # sync-fail

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
