#!/usr/bin/env bash
# golden.sh: the golden documents (tests/golden/README.md).
#
#   golden.sh setup  COREPLAN_BINARY REPO_ROOT SHARED_CORPORA_DIR WORK
#   golden.sh check  COREPLAN_BINARY REPO_ROOT SHARED_CORPORA_DIR WORK [NAME...]
#   golden.sh update COREPLAN_BINARY REPO_ROOT SHARED_CORPORA_DIR WORK [NAME...]
#
# setup builds the databases the cases run on in WORK/db (check and update
# do it first when it has not been done). check runs each case of
# tests/golden/cases (every case without NAMEs) with --format md, json and
# text (COLUMNS=120) and compares what it wrote, made byte-stable (below),
# with expected/NAME.md, NAME.json, NAME.txt and, for a report, the
# report.md it wrote with NAME.report.md: "ok - NAME md" or "not ok - NAME
# md: differs" with the diff (expected, then actual) under it; the line
# "N passed, M failed"; exit 1 when a case failed. update writes the
# expected outputs instead.
#
# Byte-stable: the repository and the shared corpora folders read <repo>
# and <shared>, and a time stamp 0000-00-00T00:00:00Z. A Markdown table
# that held such a path is compared with its cells' padding squeezed (the
# path's length set the column widths); the terminal text of such a case is
# not kept (its layout follows the path's length).
set -u
set -o pipefail
export LC_ALL=C
unset COREPLAN_DB

if [ $# -lt 5 ]; then
	echo "usage: $0 setup|check|update COREPLAN_BINARY REPO_ROOT SHARED_CORPORA_DIR WORK [NAME...]" >&2
	exit 2
fi
MODE=$1
BIN=$(realpath "$2") || exit 2
ROOT=$(realpath "$3") || exit 2
SHARED=$(realpath "$4") || exit 2
mkdir -p "$5" || exit 2
WORK=$(realpath "$5") || exit 2
shift 5
GOLDEN=$ROOT/tests/golden
EXPECTED=$GOLDEN/expected
# shellcheck source=lib.sh
source "$GOLDEN/lib.sh"
TIMEOUT=()
command -v timeout >/dev/null && TIMEOUT=(timeout 300)
PASS=0
FAIL=0

# normalize FILE FORMAT: the byte-stable form of a case's output, in place
normalize() {
	local file=$1 format=$2 had_path=0
	grep -qF -e "$ROOT" -e "$SHARED" "$file" && had_path=1
	# the longer path first: the shared corpora may live inside the repository
	if [ ${#SHARED} -gt ${#ROOT} ]; then
		sed -i -e "s|$SHARED|<shared>|g" -e "s|$ROOT|<repo>|g" "$file"
	else
		sed -i -e "s|$ROOT|<repo>|g" -e "s|$SHARED|<shared>|g" "$file"
	fi
	sed -i -E 's/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z/0000-00-00T00:00:00Z/g' "$file"
	if [ $had_path = 1 ] && [ "$format" = md ]; then
		sed -i -E '/^\|/ { s/ +\|/ |/g; s/\| +/| /g; s/-{3,}/---/g }' "$file"
	fi
	return $((1 - had_path)) # 0: it held a path
}

ok() { echo "ok - $1"; PASS=$((PASS + 1)); }
not_ok() {
	echo "not ok - $1: $2"
	[ -z "${3:-}" ] || printf '%s\n' "$3" | head -n 80 | sed 's/^/#     /'
	FAIL=$((FAIL + 1))
}

# compare NAME.EXT ACTUAL: check or update one expected file
compare() {
	local want=$EXPECTED/$1 got=$2
	if [ "$MODE" = update ]; then
		cp "$got" "$want"
		ok "$1 written"
	elif [ ! -f "$want" ]; then
		not_ok "$1" "no expected output (tests/golden/update.sh $CASE writes it)"
	elif cmp -s "$want" "$got"; then
		ok "$1"
	else
		not_ok "$1" "differs from tests/golden/expected/$1 (tests/golden/update.sh $CASE rewrites it)" \
			"$(diff -u --label "expected/$1" --label actual "$want" "$got")"
	fi
}

# run_case NAME: run it in each format, then compare
run_case() {
	local name=$1 dir format rc path ext
	CASE=$name
	if ! golden_case_args "$name"; then
		not_ok "$name" "no such case in tests/golden/cases"
		return
	fi
	for format in md json text; do
		dir=$WORK/case-$name
		rm -rf "$dir"
		mkdir -p "$dir" && golden_links "$dir" || return
		[ "$CASE_DB" = new ] || cp "$WORK/db/$CASE_DB.db" "$dir/g.db" || return
		(cd "$dir" && COLUMNS=120 "${TIMEOUT[@]}" "$BIN" --db g.db "${CASE_ARGS[@]}" --format "$format" \
			>"$dir/out" 2>"$dir/err")
		rc=$?
		ext=$format
		[ "$format" = text ] && ext=txt
		if [ $rc -ne 0 ]; then
			not_ok "$name.$ext" "exit $rc" "$(cat "$dir/err")"
			continue
		fi
		path=1
		normalize "$dir/out" "$format" || path=0
		if [ "$format" = text ] && [ $path = 1 ]; then
			[ "$MODE" != update ] || rm -f "$EXPECTED/$name.txt"
			continue
		fi
		compare "$name.$ext" "$dir/out"
		if [ "$format" = md ] && [ -f "$dir/report/report.md" ]; then
			cp "$dir/report/report.md" "$dir/report.md"
			normalize "$dir/report.md" md
			compare "$name.report.md" "$dir/report.md"
		fi
	done
	rm -rf "$WORK/case-$name"
}

case $MODE in
setup)
	golden_setup "$WORK/db" || exit 1
	exit 0
	;;
check | update) ;;
*)
	echo "$0: unknown mode '$MODE' (setup, check or update)" >&2
	exit 2
	;;
esac
[ -f "$WORK/db/.done" ] || golden_setup "$WORK/db" || exit 1
mkdir -p "$EXPECTED" || exit 2
if [ $# -eq 0 ]; then
	mapfile -t NAMES < <(golden_case_names)
else
	NAMES=("$@")
fi
for n in "${NAMES[@]}"; do
	run_case "$n"
done
echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
