# sizing_size_inputs_from_the_corpus.py (tests/e2e/sizing.sh): size: inputs from the corpus files (9 sweep runs, 9 memory runs; base 299.3, per doubling 1.7856, SMT 1.2675)
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from sizing_lib import *  # noqa: F401,F403 (the shared helpers)
from sizing_inputs import *  # noqa: F401,F403 (the shared helpers)
base, pd, smt, mem, npts, nmem = inputs(sys.argv[2])
ok = (npts == 9 and nmem == 9 and base[0] == 299.3 and round(pd[0], 4) == 1.7856 and round(smt[0], 4) == 1.2675)
print("ok" if ok else "%r %r %r %r %d %d" % (base, pd, smt, mem, npts, nmem))
