#!/usr/bin/env bash
# Confined reads (issue 16, "Corpus reads are confined" and "Hangs"): what
# coreplan reads is a regular file, inside the corpus folder for corpus
# files, within a size limit, and exactly the bytes it hashed.
#
#   bash tests/e2e/confined.sh COREPLAN_BINARY REPO_ROOT SHARED_CORPORA_DIR
#
# One table of cases (CASES below), each run on a copy of a database that
# already holds one good import (fixtures/example):
#   - a corpus's own coreplan.manifest that is a symbolic link (to a file
#     outside holding a secret) or a FIFO;
#   - paths named on the command line that are FIFOs, /dev/zero or too
#     large (--config, --catalog, catalog FILE, --apply, --manifest,
#     topology --from);
#   - files changed during an import: the import is run under gdb, stopped
#     at a function it calls after hashing every file and before parsing any
#     (trace_writer_new, which prepare_all() calls once, in this binary and
#     in the ones before it), and a script then appends rows, rewrites a
#     file in place with its size and modification time kept, or swaps a
#     file or a run folder for a symbolic link or a FIFO; one more case
#     stops where a trace is being parsed (trace_writer_import_infile, the
#     trace already open) and appends to it. A file of at most 256 KiB is
#     parsed from the bytes its hashing read, so the "kept-" cases must
#     import the corpus as it was hashed (the database equal to an import
#     of a pristine copy); the others change a trace made larger than
#     that, which is read again and must be refused. gdb makes the timing
#     deterministic: no race, no test hook in the binary. Without gdb
#     these cases are skipped.
# Every case states its exit code and a stderr fragment. For every case: no
# sanitizer report, no crash (exit < 128), no hang (timeout; the FIFO
# cases would block forever on a binary that opens them without
# O_NONBLOCK); for every refusal: a "coreplan: error:" line naming the
# file, the database byte-identical afterwards (SHA-256 of the file and of
# `sqlite3 DB .dump`), and no text of a secret file on stdout, stderr or in
# the database.
#
# Everything happens in a mktemp -d folder removed on exit; the repository
# is only read. Prints "ok - NAME" / "not ok - NAME: DETAILS" per check,
# then "N passed, M failed"; exits 1 if any check failed.

# ok, not_ok, check_eq, e2e_start (BIN, ROOT, SHARED: not read, the same
# interface as run.sh, the corpora's paths, T), rcdesc, cmdline, dbstate,
# copy_tree, now, elapsed, base_db, S1, J1, example_copy
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
PIDS=() # processes a killed gdb may have left stopped or blocked
e2e_cleanup() {
	for pid in "${PIDS[@]}"; do
		kill -9 "$pid" 2>/dev/null
	done
}
e2e_start --cd --need sqlite3 confined "$@"
# 30 s: a refusal takes well under a second, even under the sanitizers
e2e_timeout -k 5 30
HAVE_GDB=0
command -v gdb >/dev/null && HAVE_GDB=1

# Let a reader blocked opening a FIFO go on (a binary that opens FIFOs
# without O_NONBLOCK): open each for reading and writing, which never
# blocks, and close it again.
unblock_fifos() {
	local f
	while IFS= read -r f; do
		timeout 2 bash -c 'exec 3<>"$1"; sleep 0.2; exec 3>&-' _ "$f" 2>/dev/null
	done < <(find "$1" -type p 2>/dev/null)
}

base_db

# A file outside every corpus whose text must never be read: a valid
# manifest (so a binary that follows the link imports it and stores it),
# and a password-file line (so one that fails prints it in its message).
SECRET=SECRET-4711-do-not-read
mkdir -p "$T/outside"
printf '# %s\nlayout = stolen\n[table main]\nfile = results.tsv\ntag = {tag}\n' "$SECRET" >"$T/outside/manifest"
printf 'root:%s:20228:0:99999:7:::\n' "$SECRET" >"$T/outside/shadow"

# Setup functions run in the case folder $CD with $CASE set; they set CMD
# (the arguments after --db DB), and for a gdb case BREAK (the function)
# and write $CD/mutate.sh (what happens while the import is stopped).
# S1, J1, example_copy: lib.sh; ex here sets CMD, not IMPORT.
ex() { example_copy && CMD=(import -q "$CORP"); }
fifo() { mkfifo "$CD/fifo"; FIFO=$CD/fifo; }
mutate() { printf '%s\n' "cd '$CORP' || exit 1" "$@" >"$CD/mutate.sh"; }

# ---- a corpus's own manifest ----
s_manifest_link_manifest() { ex; ln -s "$T/outside/manifest" "$CORP/coreplan.manifest"; }
s_manifest_link_shadow() { ex; ln -s "$T/outside/shadow" "$CORP/coreplan.manifest"; }
s_manifest_link_relative() { ex; ln -s ../../../outside/manifest "$CORP/coreplan.manifest"; }
s_manifest_fifo() { ex; mkfifo "$CORP/coreplan.manifest"; }

# ---- paths named on the command line ----
s_config_dev_zero() { CMD=(report --config /dev/zero --out "$CD/out"); }
s_config_fifo() { fifo; CMD=(report --config "$FIFO" --out "$CD/out"); }
s_config_big() { # 17 MiB of comment lines
	awk 'BEGIN { s = "# xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx";
		for (i = 0; i < 17 * 1048576 / 80; i++) print s }' >"$CD/big.conf"
	CMD=(report --config "$CD/big.conf" --out "$CD/out")
}
s_catalog_fifo() { fifo; CMD=(catalog "$FIFO"); }
s_catalog_dev_zero() { CMD=(catalog /dev/zero); }
s_size_catalog_fifo() { fifo; CMD=(size --catalog "$FIFO" --target 100); }
s_apply_fifo() { fifo; CMD=(translate --apply "$FIFO" --from tag=x --to tag=y); }
s_apply_dev_zero() { CMD=(translate --apply /dev/zero --from tag=x --to tag=y); }
s_manifest_opt_fifo() { fifo; ex; CMD=(import -q --manifest "$FIFO" "$CORP"); }
s_manifest_opt_dev_zero() { ex; CMD=(import -q --manifest /dev/zero "$CORP"); }
s_manifest_opt_big() { # 2 MiB: over the 1 MiB manifest limit
	ex
	awk 'BEGIN { for (i = 0; i < 2 * 1048576 / 64; i++) printf "# %061d\n", i }' >"$CD/big.manifest"
	CMD=(import -q --manifest "$CD/big.manifest" "$CORP")
}
s_topology_fifo() { fifo; CMD=(topology --from "$FIFO" --host h); }
s_topology_dev_zero() { CMD=(topology --from /dev/zero --host h); }

# ---- files changed between hashing and parsing (gdb) ----
# A file of at most 256 KiB (corpus_files.c KEEP_FILE_MAX) is parsed from
# the bytes its hashing read: a change after the hashing cannot reach the
# database, which must then equal the import of the corpus as it was
# (k_as_hashed). A larger file is read again and must be the file hashed:
# big() makes a trace that large (its last row repeated: the same epoch,
# counters not decreasing, valid) before the import, so the refusals of
# the second read are tested on it.
big() { # big FILE...: each over 256 KiB
	local f
	for f in "$@"; do
		awk '{ print } END { for (i = 0; i < 300 * 1024 / length($0); i++) print }' "$CORP/$f" >"$CORP/$f.big"
		mv "$CORP/$f.big" "$CORP/$f"
	done
}
pristine() { copy_tree "$CORP" "$CD/pristine"; } # the corpus as the hashing will read it
g_results_appended() { # a well-formed row for a run that was not there when hashed
	ex
	pristine
	BREAK=trace_writer_new
	CHECK=k_as_hashed
	mutate "awk -F'\t' -v OFS='\t' 'NR == 2 { \$1 = \"g9-n100-b9\"; print }' results.tsv >>results.tsv"
}
g_json_rewritten() { # same size, same modification time, other bytes
	ex
	pristine
	BREAK=trace_writer_new
	CHECK=k_as_hashed
	mutate "cp -p $J1 ../j.orig" "sed -i 's/\"sessions_requested\": 100,/\"sessions_requested\": 999,/' $J1" \
		"touch -r ../j.orig $J1" "cmp -s ../j.orig $J1 && echo 'not rewritten' >&2" "rm ../j.orig"
}
g_small_trace_to_link() { # a link to a file holding the secret: never opened
	ex
	pristine
	BREAK=trace_writer_new
	CHECK=k_as_hashed
	cp "$T/outside/shadow" "$T/outside/$CASE.tsv"
	mutate "rm $S1" "ln -s '$T/outside/$CASE.tsv' $S1"
}
g_results_to_fifo() { # never opened again: no hang, the rows as hashed
	ex
	pristine
	BREAK=trace_writer_new
	CHECK=k_as_hashed
	mutate "rm results.tsv" "mkfifo results.tsv"
}
g_trace_appended() { # the last row once more
	ex
	big "$S1"
	BREAK=trace_writer_new
	mutate "tail -n 1 $S1 >>$S1"
}
g_trace_rewritten() { # same size, same modification time, other bytes
	ex
	big "$S1"
	BREAK=trace_writer_new
	mutate "cp -p $S1 ../s.orig" "sed -i '\$ s/[0-9]\$/x/' $S1" "sed -i '\$ s/x\$/0/' $S1" \
		"sed -i '1 s/^1/2/' $S1" "touch -r ../s.orig $S1" "cmp -s ../s.orig $S1 && echo 'not rewritten' >&2" \
		"rm ../s.orig"
}
g_trace_to_link() { # a copy outside with the same rows, a link left in its place
	ex
	big "$S1"
	BREAK=trace_writer_new
	cp "$CORP/$S1" "$T/outside/$CASE.tsv"
	mutate "rm $S1" "ln -s '$T/outside/$CASE.tsv' $S1"
}
g_trace_to_fifo() {
	ex
	big "$S1"
	BREAK=trace_writer_new
	mutate "rm $S1" "mkfifo $S1"
}
g_run_dir_to_link() { # the run folder moved outside, a link left in its place
	ex
	big "$S1"
	BREAK=trace_writer_new
	mutate "mv runs/g1-n100-b1 '$T/outside/$CASE-run'" "ln -s '$T/outside/$CASE-run' runs/g1-n100-b1"
}
g_trace_appended_while_read() { # stopped with the first trace open, before its first read
	ex
	# shellcheck disable=SC2046 # run folder names have no spaces
	big $(cd "$CORP" && ls runs/*/sample.tsv)
	BREAK=trace_writer_import_infile
	mutate "for f in runs/*/sample.tsv; do tail -n 1 \$f >>\$f; done"
}
# k_as_hashed: the database equals one that imported the pristine copy
# under the case's name (paths, import and host times blanked on both sides)
k_as_hashed() {
	local ref=$CD/ref.sqlite
	cp "$BASEDB" "$ref"
	"$BIN" --db "$ref" import -q --name "$CASE" "$CD/pristine" >/dev/null 2>"$CD/ref.err" ||
		printf 'the pristine copy did not import: %s; ' "$(head -c 300 "$CD/ref.err")"
	cp "$CDB" "$CD/got.sqlite"
	for db in "$ref" "$CD/got.sqlite"; do
		sqlite3 -batch "$db" "UPDATE corpora SET source_path = '', imported_at = ''; UPDATE hosts SET recorded_at = ''" ||
			printf 'cannot blank %s; ' "$db"
	done
	[ "$(dbstate "$ref" | cut -d' ' -f2)" = "$(dbstate "$CD/got.sqlite" | cut -d' ' -f2)" ] ||
		printf 'the database is not the import of the corpus as hashed (%s); ' \
			"$(diff <(sqlite3 -batch "$ref" .dump) <(sqlite3 -batch "$CD/got.sqlite" .dump) | head -c 600 | tr '\n' ' ')"
}

# name | setup | expected exit | stderr fragment (grep -F; "re:" = grep -E)
CASES=(
	"manifest-link-to-a-manifest|s_manifest_link_manifest|1|re:coreplan\.manifest' is a symbolic link: not followed"
	"manifest-link-to-a-password-file|s_manifest_link_shadow|1|re:coreplan\.manifest' is a symbolic link: not followed"
	"manifest-relative-link|s_manifest_link_relative|1|re:coreplan\.manifest' is a symbolic link: not followed"
	"manifest-fifo|s_manifest_fifo|1|re:coreplan\.manifest' is a FIFO, not a regular file"
	"config-dev-zero|s_config_dev_zero|1|'/dev/zero' is a character device, not a regular file"
	"config-fifo|s_config_fifo|1|re:/fifo' is a FIFO, not a regular file"
	"config-17MiB|s_config_big|1|re:big\.conf: larger than 16 MiB"
	"catalog-file-fifo|s_catalog_fifo|1|re:/fifo' is a FIFO, not a regular file"
	"catalog-file-dev-zero|s_catalog_dev_zero|1|'/dev/zero' is a character device, not a regular file"
	"size-catalog-fifo|s_size_catalog_fifo|1|re:/fifo' is a FIFO, not a regular file"
	"translate-apply-fifo|s_apply_fifo|1|re:/fifo' is a FIFO, not a regular file"
	"translate-apply-dev-zero|s_apply_dev_zero|1|'/dev/zero' is a character device, not a regular file"
	"import-manifest-fifo|s_manifest_opt_fifo|1|re:/fifo' is a FIFO, not a regular file"
	"import-manifest-dev-zero|s_manifest_opt_dev_zero|1|'/dev/zero' is a character device, not a regular file"
	"import-manifest-2MiB|s_manifest_opt_big|1|re:big\.manifest: larger than 1 MiB"
	"topology-from-fifo|s_topology_fifo|1|re:/fifo' is a FIFO, not a regular file"
	"topology-from-dev-zero|s_topology_dev_zero|1|'/dev/zero' is a character device, not a regular file"
	"kept-results-rows-appended-after-hashing|g_results_appended|0|"
	"kept-json-rewritten-same-size-and-mtime|g_json_rewritten|0|"
	"kept-trace-swapped-for-a-link|g_small_trace_to_link|0|"
	"kept-results-swapped-for-a-fifo|g_results_to_fifo|0|"
	"trace-rows-appended-after-hashing|g_trace_appended|1|'$S1' changed during the import"
	"trace-rewritten-same-size-and-mtime|g_trace_rewritten|1|'$S1' changed during the import"
	"trace-swapped-for-a-link|g_trace_to_link|1|'$S1' is a symbolic link: not followed"
	"trace-swapped-for-a-fifo|g_trace_to_fifo|1|'$S1' is a FIFO, not a regular file"
	"run-folder-swapped-for-a-link|g_run_dir_to_link|1|re:'g1-n100-b1' is a symbolic link: not followed"
	"trace-appended-while-it-is-read|g_trace_appended_while_read|1|re:sample\.tsv' changed while it was read"
)

# Run the import under gdb: stop at $BREAK, run mutate.sh, continue. Sets
# RC from gdb's report of the exit, STOPPED when the breakpoint was hit.
gdb_run() {
	local pid code
	# LeakSanitizer cannot run under ptrace: a sanitizer build leaves it out here only
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
		"${TIMEOUT[@]}" gdb -q -batch -nx -ex 'set breakpoint pending on' -ex 'set pagination off' \
		-ex 'set confirm off' -ex "break $BREAK" \
		-ex "run --db $(printf '%q ' "$CDB" "${CMD[@]}")>$CD/stdout 2>$CD/stderr" \
		-ex 'info inferiors' -ex "shell bash $CD/mutate.sh" -ex continue \
		"$BIN" >"$CD/gdb.out" 2>&1
	RC=$?
	pid=$(awk '$1 == "*" && $3 == "process" { print $4; exit }' "$CD/gdb.out")
	if [ -n "$pid" ]; then
		PIDS+=("$pid")
		unblock_fifos "$CD"
		kill -9 "$pid" 2>/dev/null
	fi
	STOPPED=0
	grep -q '^Breakpoint 1, ' "$CD/gdb.out" && STOPPED=1
	if grep -q 'exited normally\]' "$CD/gdb.out"; then
		RC=0
	elif code=$(grep -o 'exited with code [0-7]*\]' "$CD/gdb.out" | grep -o '[0-7][0-7]*'); then
		RC=$((8#$code))
	elif [ "$RC" -lt 124 ]; then
		RC=125 # gdb ended without the inferior exiting
	fi
}

mkdir -p "$T/cases"
for spec in "${CASES[@]}"; do
	IFS='|' read -r CASE setup want_rc frag <<<"$spec"
	e2e_case "$CASE" || continue # run_case confined.sh:NAME
	name="confined: $CASE"
	case_folder "$CASE"
	CMD=()
	BREAK=""
	CHECK=""
	CORP=""
	STOPPED=1
	pushd "$CD" >/dev/null || continue
	$setup
	popd >/dev/null || exit 2
	if [ -n "$BREAK" ] && [ "$HAVE_GDB" = 0 ]; then
		skip "$name" "needs gdb"
		continue
	fi
	before=$(dbstate "$CDB")
	t0=$(now)
	if [ -n "$BREAK" ]; then
		gdb_run
	else
		"${TIMEOUT[@]}" "$BIN" --db "$CDB" "${CMD[@]}" >"$CD/stdout" 2>"$CD/stderr"
		RC=$?
		unblock_fifos "$CD"
	fi
	took=$(elapsed "$t0" "$(now)")
	after=$(dbstate "$CDB")
	how="command: $(cmdline --db "$CDB" "${CMD[@]}")${BREAK:+ (under gdb, stopped at $BREAK: $(tail -n +2 "$CD/mutate.sh" | tr '\n' ';'))}"$'\n'"stderr: $(head -c 1500 "$CD/stderr" 2>/dev/null)"
	problems=""
	[ "$STOPPED" = 1 ] || problems+="gdb never stopped at $BREAK (the binary does not call it: $(grep -E 'exited|Breakpoint|No symbol' "$CD/gdb.out" | head -3 | tr '\n' ' ')); "
	problems+=$(case_problems "$want_rc" "$frag" "$CD/stderr" "$before" "$after")
	[ -z "$CHECK" ] || problems+=$($CHECK)
	if grep -aqF "$SECRET" "$CD/stdout" "$CD/stderr" 2>/dev/null; then
		problems+="the secret file's text was printed; "
	fi
	sqlite3 -batch "$CDB" .dump >"$CD/dump.sql" 2>&1
	if grep -qF "$SECRET" "$CD/dump.sql"; then
		problems+="the secret file's text is in the database; "
	fi
	if [ -z "$problems" ]; then
		ok "$name (exit $RC, $took s)"
	else
		not_ok "$name" "${problems%; }"$'\n'"$how"
	fi
	rm -rf "${CD:?}"
done

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
