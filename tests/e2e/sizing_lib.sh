# sizing_lib.sh: the start the sizing scripts share (sourced after E2E_DIR is set):
# BIN, ROOT, SHARED and the corpus paths, T (removed on exit), PASS/FAIL, lib.sh's
# helpers, TIMEOUT, DB, round and PYLIB (a TSV reader and closeness tests for py_check).

set -u
set -o pipefail
export LC_ALL=C

if [ $# -ne 3 ]; then
	echo "usage: $0 COREPLAN_BINARY REPO_ROOT SHARED_CORPORA_DIR" >&2
	exit 2
fi
BIN=$(realpath "$1") || exit 2
ROOT=$(realpath "$2") || exit 2
SHARED=$(realpath "$3") || exit 2
SDM=$ROOT/fixtures/usl/specsdm91.tsv
GCE=$ROOT/fixtures/catalogs/gce.tsv
AWS=$ROOT/fixtures/catalogs/aws.tsv
AFF=$SHARED/writeups/gomaxprocs-affinity
AFF_MANIFEST=$ROOT/fixtures/manifests/gomaxprocs-affinity.manifest
CAP=$SHARED/sky/gcp-x86-capacity-20260816
GMP=$SHARED/sky/gomaxprocs-scaling-20260816
unset COREPLAN_DB

T=$(mktemp -d "${TMPDIR:-/tmp}/coreplan-sizing.XXXXXX") || exit 2
cleanup() { rm -rf "$T"; }
trap cleanup EXIT
trap 'exit 130' INT TERM
cd "$T" || exit 2

PASS=0
FAIL=0
# shared helpers: ok, not_ok, check_eq, check_contains, cpl, tsvget, expect_rc
source "$E2E_DIR/lib.sh"

TIMEOUT=()
command -v timeout >/dev/null && TIMEOUT=(timeout 300)
if ! command -v python3 >/dev/null; then
	echo "not ok - prerequisites: python3 is not installed"
	echo "0 passed, 1 failed"
	exit 1
fi

DB=$T/sizing.db
# round X PLACES
round() { awk -v x="$1" -v p="$2" 'BEGIN { printf "%.*f\n", p, x }'; }
# py_check NAME SCRIPT ARGS...: SCRIPT reads $T/.out (argv[1]); prints "ok" or a reason.

# TSV reader (plain split: no quoting in these files), closeness, printed precision.
# PYLIB: the import of tests/e2e/py/sizing_lib.py, for the python3 -c checks
PYLIB="import sys; sys.path.insert(0, \"$E2E_PY_DIR\")
from sizing_lib import *
"

# Inputs recomputed from the corpus files: base, per doubling (+- t SE),
# SMT (median ratio, range min/max and max/min), memory OLS.
# PYINPUTS: the import of tests/e2e/py/sizing_inputs.py, for the python3 -c checks
PYINPUTS="import sys; sys.path.insert(0, \"$E2E_PY_DIR\")
from sizing_inputs import *
"

# cheapest_rows: the instances whose flags say CHEAPEST (column found by name)
cheapest_rows() {
	awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "flags") f = i; next }
		$f ~ /CHEAPEST/ { print $1 }' "$T/.out" | paste -sd, -
}

echo "# coreplan: $BIN"
echo "# temp: $T"
