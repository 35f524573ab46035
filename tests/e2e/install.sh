#!/usr/bin/env bash
# End-to-end test of `cmake --install`: the installed binary, its shipped
# catalogs and the man page.
#
#   bash tests/e2e/install.sh COREPLAN_BINARY REPO_ROOT [SHARED_CORPORA_DIR [BUILD_DIR]]
#
# BUILD_DIR (default: the binary's folder) is installed with `cmake
# --install BUILD_DIR --prefix P` into a mktemp -d prefix P (removed on
# exit). It checks:
#  files     P/bin/coreplan, P/share/coreplan/catalogs/{gce,aws}.tsv
#            byte-equal to REPO_ROOT/fixtures/catalogs, P/share/man/man1/coreplan.1,
#            the completion scripts P/share/bash-completion/completions/coreplan
#            and P/share/zsh/site-functions/_coreplan byte-equal to what the
#            installed binary's `completion bash|zsh` writes
#  size      P/bin/coreplan size with a given base rate, from an empty folder
#            and no database (an in-memory one): its `catalogs` fact names
#            the installed files, catalog_origin is shipped, and `instances`
#            is the number of data rows of the two catalog files (wc)
#  moved     P moved to another folder: the same command names the new place
#  override  COREPLAN_CATALOG_DIR=a folder holding only gce.tsv: that folder,
#            gce's rows only
#  build     the build-tree binary names REPO_ROOT/fixtures/catalogs
#  man       `groff -ww -z -man` prints no warning; `man -l` renders it; the
#            rendered page has a subsection per command `coreplan --help`
#            lists, and each command's section holds every option, every
#            view and every line of the details its --help prints (so a
#            page that drifted from --help fails)
set -u
BIN=${1:?usage: install.sh COREPLAN_BINARY REPO_ROOT [CORPORA [BUILD_DIR]]}
ROOT=${2:?usage: install.sh COREPLAN_BINARY REPO_ROOT [CORPORA [BUILD_DIR]]}
BIN=$(cd "$(dirname "$BIN")" && pwd -P)/$(basename "$BIN")
BUILD=${4:-$(dirname "$BIN")}
ROOT=$(cd "$ROOT" && pwd -P)
PASS=0
FAIL=0
E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=tests/e2e/lib.sh
source "$E2E_DIR/lib.sh"
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
TIMEOUT=(timeout 120)
unset COREPLAN_CATALOG_DIR COREPLAN_DB

if [ ! -f "$BUILD/cmake_install.cmake" ]; then
	echo "not ok - install: $BUILD is not a CMake build folder (give BUILD_DIR)"
	exit 1
fi

P=$T/prefix
cmake --install "$BUILD" --prefix "$P" >"$T/install.log" 2>&1
RC=$?
ERR=$(cat "$T/install.log")
expect_rc "install: cmake --install succeeds" 0
for f in bin/coreplan share/coreplan/catalogs/gce.tsv share/coreplan/catalogs/aws.tsv \
	share/man/man1/coreplan.1; do
	if [ -f "$P/$f" ]; then ok "install: $f"; else not_ok "install: $f" "missing in $P"; fi
done
# the completion scripts, where bash-completion and zsh look, as the binary writes them
for f in bash:share/bash-completion/completions/coreplan zsh:share/zsh/site-functions/_coreplan; do
	"$P/bin/coreplan" completion "${f%%:*}" >"$T/completion" 2>/dev/null
	if cmp -s "$T/completion" "$P/${f#*:}"; then
		ok "install: ${f#*:} is \`coreplan completion ${f%%:*}\`"
	else
		not_ok "install: ${f#*:} is \`coreplan completion ${f%%:*}\`" "missing or different in $P"
	fi
done
for c in gce aws; do
	if cmp -s "$ROOT/fixtures/catalogs/$c.tsv" "$P/share/coreplan/catalogs/$c.tsv"; then
		ok "install: $c.tsv is the repository's"
	else
		not_ok "install: $c.tsv is the repository's" "differs from $ROOT/fixtures/catalogs/$c.tsv"
	fi
done

# data rows of a catalog: lines after the header that are not empty or comments
rows() { awk 'NR > 1 && NF && $0 !~ /^#/' "$@" | wc -l; }
BOTH=$(($(rows "$ROOT/fixtures/catalogs/gce.tsv") + $(rows "$ROOT/fixtures/catalogs/aws.tsv")))
GCE=$(rows "$ROOT/fixtures/catalogs/gce.tsv")

# size_facts BINARY: size in an empty folder with no database; $T/.out gets its facts
mkdir -p "$T/empty"
size_facts() {
	(cd "$T/empty" && "${TIMEOUT[@]}" "$1" --db "$T/empty/none.db" size --target 1000 \
		--base-rate 100 --base-cpu gce-e2 --per-doubling 1.9 --smt-factor 1.2 \
		--format json --view facts) >"$T/.out" 2>"$T/.err"
	RC=$?
	ERR=$(cat "$T/.err")
}
# fact NAME: one fact's value from $T/.out
fact() {
	python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["facts"][sys.argv[2]]["value"])' \
		"$T/.out" "$1"
}
expect_catalogs() { # NAME DIR INSTANCES CATALOG...
	local name=$1 dir=$2 n=$3 want="shipped: " sep=""
	shift 3
	for c in "$@"; do
		want="$want$sep$c ($dir/$c.tsv)"
		sep=", "
	done
	check_eq "$name: catalogs fact" "$want" "$(fact catalogs)"
	check_eq "$name: catalog_origin" "shipped" "$(fact catalog_origin)"
	check_eq "$name: instances = catalog rows" "$n" "$(fact instances)"
	if [ -e "$T/empty/none.db" ]; then
		not_ok "$name: no database written" "$T/empty/none.db exists"
	else
		ok "$name: no database written"
	fi
}

size_facts "$P/bin/coreplan"
expect_rc "installed size: exit 0" 0
expect_catalogs "installed size" "$P/share/coreplan/catalogs" "$BOTH" aws gce

mkdir -p "$T/elsewhere"
mv "$P" "$T/elsewhere/moved"
P=$T/elsewhere/moved
size_facts "$P/bin/coreplan"
expect_rc "moved prefix: exit 0" 0
expect_catalogs "moved prefix" "$P/share/coreplan/catalogs" "$BOTH" aws gce

mkdir -p "$T/only-gce"
cp "$ROOT/fixtures/catalogs/gce.tsv" "$T/only-gce/"
export COREPLAN_CATALOG_DIR=$T/only-gce
size_facts "$P/bin/coreplan"
unset COREPLAN_CATALOG_DIR
expect_rc "COREPLAN_CATALOG_DIR: exit 0" 0
expect_catalogs "COREPLAN_CATALOG_DIR" "$T/only-gce" "$GCE" gce

size_facts "$BIN"
expect_rc "build-tree size: exit 0" 0
expect_catalogs "build-tree size" "$ROOT/fixtures/catalogs" "$BOTH" aws gce

PAGE=$P/share/man/man1/coreplan.1
if command -v groff >/dev/null; then
	W=$(groff -ww -z -man "$PAGE" 2>&1)
	RC=$?
	check_eq "man: groff -ww -z exits 0" 0 "$RC"
	check_eq "man: groff -ww -z prints no warning" "" "$W"
else
	echo "ok - man: groff -ww -z # SKIP groff not installed"
fi
if command -v man >/dev/null; then
	LC_ALL=C.UTF-8 MANWIDTH=80 man -l "$PAGE" >"$T/page.txt" 2>"$T/man.err"
	RC=$?
	ERR=$(cat "$T/man.err")
	expect_rc "man: man -l renders" 0
	check_eq "man: man -l prints nothing on stderr" "" "$ERR"
	check_contains "man: title" "$(head -n 1 "$T/page.txt")" "COREPLAN(1)"
	for s in NAME SYNOPSIS DESCRIPTION OPTIONS COMMANDS FILES ENVIRONMENT "EXIT STATUS" "SEE ALSO"; do
		if grep -qx "$s" "$T/page.txt"; then ok "man: section $s"; else not_ok "man: section $s" "missing"; fi
	done
	# every command of `coreplan --help`, each with its --help's options, views and details
	"$BIN" --help >"$T/help.txt"
	CMDS=$(awk '/^commands:/ { on = 1; next } on && /^$/ { exit } on { print $1 }' "$T/help.txt")
	N=$(printf '%s\n' "$CMDS" | grep -c .)
	if [ "$N" -ge 10 ]; then ok "man: $N commands in --help"; else not_ok "man: commands in --help" "only $N"; fi
	for c in $CMDS; do
		"$BIN" "$c" --help >"$T/help-$c.txt" 2>&1
		res=$(python3 "$E2E_PY_DIR/install_man_matches_help.py" "$T/page.txt" "$T/help-$c.txt" "$c" "$CMDS")
		case $res in
		ok*) ok "man: $c (${res#ok })" ;;
		*) not_ok "man: $c" "$res" ;;
		esac
	done
else
	echo "ok - man: man -l # SKIP man not installed"
fi

echo "# install: $PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
