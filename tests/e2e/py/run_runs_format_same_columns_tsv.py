# run_runs_format_same_columns_tsv.py (tests/e2e/run.sh): runs --format json: the same columns as tsv
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import csv,sys
rows = list(csv.reader(open(sys.argv[1], newline="")))
print(len(rows) - 1, "\t".join(rows[0]))
