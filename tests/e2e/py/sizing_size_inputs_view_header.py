# sizing_size_inputs_view_header.py (tests/e2e/sizing.sh): size inputs view: header
# the old Markdown line "- base rate per physical core: ...", its range from core/results.tsv
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
from sizing_inputs import *  # noqa: F401,F403 (the shared helpers)
base = inputs(sys.argv[1])[0]
print("median tput of 3 runs (subcorpus=core), range %g-%g, on gce-e2" % (base[1], base[2]))
