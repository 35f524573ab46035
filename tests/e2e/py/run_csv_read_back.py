# run_csv_read_back.py (tests/e2e/run.sh): the tags of a runs --format csv output (argv[1]) read back with the csv module
import csv,sys
rows = list(csv.DictReader(open(sys.argv[1], newline="")))
print("#".join(r["tag"] + "|" + r["target"] for r in rows))
