#!/usr/bin/env bash
# hostile_values.sh: the hostile catalogue's cases on names, the database
# path and a full disk (issue 23.4; values in tool files are in
# tools_hostile.sh, results tables in hostile.sh). Each case runs under a
# time budget (timeout) and a peak-RSS budget (/usr/bin/time), set by orders
# of magnitude above the measured cost, and checks the exit code, the
# message and that a refused command left the database as it was (sha256 of
# the file and of its dump).
#
#   bash tests/e2e/hostile_values.sh COREPLAN_BINARY REPO_ROOT SHARED_CORPORA_DIR
source "$(dirname "$0")/lib.sh"
e2e_start hostile-values "$@"
[ -x /usr/bin/time ] || { echo "1..0 # skip /usr/bin/time is missing"; exit 0; }
command -v sqlite3 >/dev/null || { echo "1..0 # skip sqlite3 is missing"; exit 0; }
dbstate() { { sha256sum <"$1"; sqlite3 "$1" .dump | sha256sum; } | cut -c1-16 | tr '\n' ' '; }
BASEDB=$T/base.db
"$BIN" --db "$BASEDB" import -q "$ROOT/fixtures/tools/gobench" >/dev/null 2>&1 ||
	{ echo "not ok - setup: cannot import fixtures/tools/gobench"; exit 1; }

# run NAME WANT_RC FRAGMENT SECONDS MB DB ARGS...: coreplan --db DB ARGS...
# FRAGMENT: grep -F on stderr. DB's state (when a file) must not change on a refusal.
run() {
	local name=$1 want=$2 frag=$3 budget_s=$4 budget_mb=$5 db=$6 rc secs kb before="" after="" problems=""
	shift 6
	[ -f "$db" ] && before=$(dbstate "$db")
	timeout "$budget_s" /usr/bin/time -f '%e %M' -o "$T/time" "$BIN" --db "$db" "$@" >"$T/out" 2>"$T/err"
	rc=$?
	read -r secs kb < <(tail -n 1 "$T/time" 2>/dev/null) || { secs=999; kb=0; }
	[ "$rc" = 124 ] && problems+="still running after $budget_s s (killed); "
	[ "$rc" = "$want" ] || problems+="exit $rc, expected $want; "
	[ -z "$frag" ] || grep -aFq -- "$frag" "$T/err" || problems+="stderr lacks '$frag'; "
	[ -f "$db" ] && after=$(dbstate "$db")
	[ "$rc" = 0 ] || [ "$before" = "$after" ] || problems+="the database changed; "
	grep -aEq 'runtime error|Sanitizer|^==[0-9]+==' "$T/err" && problems+="sanitizer report; "
	if ! grep -aqE '__asan_init|__ubsan_handle' "$BIN"; then
		[ "$((kb / 1024))" -le "$budget_mb" ] || problems+="peak RSS $((kb / 1024)) MB, budget $budget_mb MB; "
	fi
	if [ -z "$problems" ]; then
		ok "hostile values: $name (exit $rc, $secs s, $((kb / 1024)) MB)"
	else
		not_ok "hostile values: $name" "${problems%; }"$'\n'"stderr: $(head -c 1500 "$T/err")"
	fi
}

# --db that is no regular file: refused at once (a FIFO hung `runs` before)
if e2e_case db-not-a-file; then
	mkfifo "$T/fifo.db" && mkdir "$T/folder.db"
	run "--db FIFO, runs" 1 "cannot open database '$T/fifo.db': it is a FIFO, not a database file" 10 64 "$T/fifo.db" runs
	run "--db FIFO, import" 1 "it is a FIFO, not a database file" 10 64 "$T/fifo.db" \
		import "$ROOT/fixtures/tools/gobench"
	run "--db folder, runs" 1 "cannot open database '$T/folder.db': it is a folder" 10 64 "$T/folder.db" runs
	run "--db folder, import" 1 "it is a folder, not a database file" 10 64 "$T/folder.db" \
		import "$ROOT/fixtures/tools/gobench"
	run "--db device" 1 "it is a character device, not a database file" 10 64 /dev/null runs
	[ -p "$T/fifo.db" ] && [ -d "$T/folder.db" ] && [ -z "$(ls -A "$T/folder.db")" ] &&
		ok "the FIFO and the folder are left as they were" ||
		not_ok "the FIFO and the folder are left as they were" "$(ls -la "$T")"
fi

# names with control characters inside a corpus: refused, the name escaped (\x0A)
if e2e_case control-character-names; then
	for c in newline tab escape delete; do
		case $c in newline) ch=$'\n' esc='\x0A' ;; tab) ch=$'\t' esc='\x09' ;;
			escape) ch=$'\e' esc='\x1B' ;; delete) ch=$'\x7f' esc='\x7F' ;; esac
		rm -rf "$T/corp" && cp -r "$ROOT/fixtures/example" "$T/corp"
		mv "$T/corp/runs/g1-n100-b1" "$T/corp/runs/g1-n100${ch}b1"
		cp "$BASEDB" "$T/case.db"
		run "a run folder with a $c in its name" 1 "'runs/g1-n100${esc}b1': a control character in its name" \
			30 64 "$T/case.db" import "$T/corp"
		rm -rf "$T/corp" && cp -r "$ROOT/fixtures/example" "$T/corp"
		echo x >"$T/corp/runs/g2-n100-b1/notes${ch}.txt"
		run "a file with a $c in its name" 1 "'runs/g2-n100-b1/notes${esc}.txt': a control character" \
			30 64 "$T/case.db" import "$T/corp"
	done
	mkdir -p "$T/tool" && cp "$ROOT/fixtures/tools/gobench/new.txt" "$T/tool/a"$'\n'"b.txt"
	run "a tool file with a newline in its name" 1 "cannot import 'a\x0Ab.txt'" 10 64 "$T/case.db" \
		import "$T/tool/a"$'\n'"b.txt"
fi

# a full disk: the message says so (it read "disk I/O error" alone), the database unchanged
if e2e_case full-disk; then
	MNT=$T/small
	mkdir -p "$MNT"
	if ! mount -t tmpfs -o size=1m tmpfs "$MNT" 2>/dev/null; then
		skip "full disk" "cannot mount a small tmpfs here (not root, or no mount rights)"
	else
		trap 'umount "$MNT" 2>/dev/null; rm -rf "$T"' EXIT
		cp "$BASEDB" "$MNT/x.db"
		cat /dev/zero >"$MNT/fill" 2>/dev/null
		run "import on a full disk" 1 "No space left on device" 30 64 "$MNT/x.db" import "$ROOT/fixtures/example"
		run "runs on a full disk (no room for the -shm)" 1 "No space left on device" 30 64 "$MNT/x.db" runs
		# room to open, not to commit: the import is rolled back, the disk named
		rm -f "$MNT/fill" "$MNT/x.db-wal" "$MNT/x.db-shm"
		avail=$(df -k --output=avail "$MNT" | tail -n 1)
		head -c $(((avail - 120) * 1024)) /dev/zero >"$MNT/fill" 2>/dev/null
		run "an import that fills the disk" 1 "full" 30 64 "$MNT/x.db" import "$ROOT/fixtures/example"
		rm -f "$MNT/fill"
		run "the database reads after the full disk" 0 "" 30 64 "$MNT/x.db" corpora --format tsv
		# the base holds the gobench corpus alone (its runs name example.com/bench,
		# so the corpus names are checked, not the text)
		check_eq "the failed import left no corpus" gobench \
			"$(awk -F'\t' 'NR > 1 { print $1 }' "$T/out" | paste -sd, -)"
		umount "$MNT"
	fi
fi

echo "# $PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
