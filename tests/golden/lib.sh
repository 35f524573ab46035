# lib.sh: the golden cases and their databases, for tests/golden/golden.sh
# and tests/e2e/terminal.sh (source it after setting BIN, ROOT, SHARED and
# TIMEOUT, an array: the command that bounds each run, or empty).

GOLDEN_CASES=$ROOT/tests/golden/cases

# golden_links FOLDER: the names a case's arguments use for the inputs
golden_links() {
	ln -sfn "$ROOT/fixtures" "$1/fixtures" && ln -sfn "$SHARED/sky" "$1/sky" &&
		ln -sfn "$SHARED/writeups" "$1/writeups"
}

# databases: each built by a fixed list of commands (their output is not kept)
golden_setup_db() { # NAME DIR
	local name=$1 dir=$2
	local db=$dir/$name.db
	rm -f "$db"
	(
		cd "$dir" || exit 1
		run() { "${TIMEOUT[@]}" "$BIN" --db "$db" "$@" >/dev/null 2>>"$dir/$name.err"; }
		case $name in
		example) run import -q fixtures/example ;;
		sky)
			run import -q sky/gomaxprocs-scaling-20260816 sky/gcp-x86-capacity-20260816 &&
				run import -q writeups/gomaxprocs-affinity \
					--manifest fixtures/manifests/gomaxprocs-affinity.manifest &&
				run topology --from writeups/gomaxprocs-affinity/lscpu.txt --host epyc
			;;
		tools)
			run import -q fixtures/tools/gobench fixtures/tools/wrk &&
				run import -q --name hyperfine fixtures/tools/hyperfine/sleep_threads.json &&
				run import -q --name gbench fixtures/tools/gbench/bm_sum.json
			;;
		*) echo "unknown database '$name'" >>"$dir/$name.err" && exit 1 ;;
		esac
	)
}

# golden_setup DIR: the databases in DIR (DIR/NAME.db); DIR/.done once all are there
golden_setup() {
	local dir=$1 name
	rm -rf "$dir"
	mkdir -p "$dir" && golden_links "$dir" || return 1
	for name in example sky tools; do
		if ! golden_setup_db "$name" "$dir"; then
			echo "not ok - setup: database $name:"
			sed 's/^/#     /' "$dir/$name.err"
			return 1
		fi
	done
	touch "$dir/.done"
}

# The case's line: NAME DATABASE ARGS...
golden_case_line() {
	awk -v n="$1" '$1 == n && !/^#/ { print; exit }' "$GOLDEN_CASES"
}
golden_case_names() {
	awk '!/^#/ && NF { print $1 }' "$GOLDEN_CASES"
}

# golden_case_args NAME: CASE_DB and CASE_ARGS (an array) of case NAME; 1 when there is none
golden_case_args() {
	local line rest
	line=$(golden_case_line "$1")
	[ -n "$line" ] || return 1
	read -r _ CASE_DB rest <<<"$line"
	eval "CASE_ARGS=($rest)"
}
