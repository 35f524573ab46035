# cores_trust_counts.py (tests/e2e/cores.sh): prints the runs at each trust
# level of system.tsv (argv[1]) with tick_min argv[2], in the layout argv[3]
# (%(trusted)d, %(degraded)d, %(untrustworthy)d), for check_eq/check_contains
from cores_lib import *  # noqa: F401,F403 (the shared helpers)
print(sys.argv[3] % trust_counts(rows(sys.argv[1]), float(sys.argv[2])))
