#!/usr/bin/env bash
# update.sh: rewrite the golden documents from the binary, then show what
# changed, for review before the commit.
#
#   bash tests/golden/update.sh [NAME...]
#
# NAMEs: cases of tests/golden/cases (default: every case; then expected
# outputs of cases no longer listed are removed). The binary is
# $COREPLAN_BINARY, else build/coreplan (built first when build/ exists);
# the shared corpora are $COREPLAN_SHARED_CORPORA, else ../shared/corpora.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
cd "$ROOT"
BIN=${COREPLAN_BINARY:-}
if [ -z "$BIN" ]; then
	BIN=build/coreplan
	[ ! -d build ] || cmake --build build -j2 --target coreplan >/dev/null
fi
SHARED=${COREPLAN_SHARED_CORPORA:-$ROOT/../shared/corpora}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/coreplan-golden.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
if [ $# -eq 0 ]; then
	# outputs of cases no longer listed go; every listed case writes its own again
	names=$(awk '!/^#/ && NF { print $1 }' tests/golden/cases)
	for f in tests/golden/expected/*; do
		[ -e "$f" ] || continue
		base=$(basename "$f")
		base=${base%%.*}
		grep -qxF -e "$base" <<<"$names" || rm -f "$f"
	done
fi
bash tests/golden/golden.sh update "$BIN" "$ROOT" "$SHARED" "$WORK" "$@" | grep -v '^ok - ' || true
git -C "$ROOT" status --short -- tests/golden/expected
git -C "$ROOT" diff --stat -- tests/golden/expected | tail -n 1
