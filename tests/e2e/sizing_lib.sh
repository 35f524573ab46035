# sizing_lib.sh: the start the sizing scripts share (sourced after E2E_DIR is
# set): lib.sh's e2e_start (BIN, ROOT, SHARED, the corpora's paths, T removed
# on exit, DB, TIMEOUT, PASS/FAIL) and check helpers (round among them), the
# usl and catalog fixtures, PYLIB (a TSV reader and closeness tests for
# py_check) and PYINPUTS.
source "$E2E_DIR/lib.sh"
e2e_start --cd --need python3 sizing "$@"
SDM=$ROOT/fixtures/usl/specsdm91.tsv
AWS=$ROOT/fixtures/catalogs/aws.tsv

# py_check NAME SCRIPT ARGS...: SCRIPT reads $T/.out (argv[1]); prints "ok" or a reason.

# TSV reader (plain split: no quoting in these files), closeness, printed precision.
# PYLIB: the import of tests/e2e/py/sizing_lib.py, for the python3 -c checks
PYLIB="import sys; sys.path.insert(0, \"$E2E_PY_DIR\")
from sizing_lib import *
"

# Inputs recomputed from the corpus files: base, per doubling (+- 1.96 SE),
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
