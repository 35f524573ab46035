# hosts_import_s_row_tied_runs.py (tests/e2e/hosts.sh): import's row: tied_runs and hosts are the runs tied above
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
from hosts_lib import *  # noqa: F401,F403 (the shared helpers)
row = rows(sys.argv[2])[0]
n = sum(len(rows(sys.argv[3].replace("cap-runs", "cap-" + h))) for h in ("e2-small", "e2-medium", "e2-standard-4"))
ok = int(row["tied_runs"]) == n and row["hosts"] == "e2-medium, e2-small, e2-standard-4"
print("ok" if ok else "%s %s, want %d" % (row["tied_runs"], row["hosts"], n))
