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

# import_cap_aff PREFIX: the capacity corpus and the affinity table with its
# manifest into $DB (PREFIX starts the checks' names)
import_cap_aff() {
	cpl import -q "$CAP"
	expect_rc "${1}import gcp-x86-capacity-20260816" 0
	cpl import -q "$AFF" --manifest "$AFF_MANIFEST"
	expect_rc "${1}import gomaxprocs-affinity with its manifest" 0
}
# import_untied: the GOMAXPROCS sweep untied (the profile without its
# instance, untied_gmp_manifest: 29 runs, none tied), then import_cap_aff
import_untied() {
	untied_gmp_manifest "$T/gmp-untied.manifest"
	cpl import -q "$GMP" --manifest "$T/gmp-untied.manifest" --format tsv
	expect_rc "import gomaxprocs-scaling-20260816 untied (the profile without its instance)" 0
	check_eq "import untied: 29 runs, none tied" "29 0" \
		"$(tsvget name "$GMP_NAME" runs) $(tsvget name "$GMP_NAME" tied_runs)"
	import_cap_aff ""
}
# SIZE: the request sizing.sh and sizing_catalog.sh check (the PostgreSQL store
# its memory runs measure; every input from the corpora)
SIZE=(size --target 1000 --sessions 500 --store postgres --base-from 'subcorpus=core'
	--scaling-from 'corpus=gomaxprocs-scaling-20260816 block=1,2,3 gomaxprocs=1,2,4'
	--smt-from 'corpus=gomaxprocs-affinity'
	--memory-from 'corpus=gcp-x86-capacity-20260816 target=medium cfg=pg block=1,2,3'
	--measured-where 'block=1,2,3')
