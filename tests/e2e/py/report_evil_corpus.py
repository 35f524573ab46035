# report_evil_corpus.py (tests/e2e/report.sh): evil corpus
import shutil, sys
d, t, trace = sys.argv[1], sys.argv[2], sys.argv[3]
col = "lev'el `touch %s/pwned4`" % t
blocks = ["b'1 `touch %s/pwned5`" % t,
          'b2 system("touch %s/pwned6")' % t,
          "b3 x'; !touch %s/pwned7" % t]
rows = []
i = 0
for b, bl in enumerate(blocks):
    for g in (1, 2, 4, 8):
        i += 1
        if i == 1:
            tag = "r1'`touch pwned8` system(\"touch pwned9\")"
        elif i % 2:
            tag = "r%d'`touch pwned10`" % i
        else:
            tag = 'r%d system("touch pwned11") | x' % i
        rows.append([tag, str(g), str(g), bl, "%.1f" % (100 * g ** 0.8 + b)])
with open(d + "/runs.tsv", "w") as f:
    f.write("\t".join(["tag", "gomaxprocs", col, "block", "tput"]) + "\n")
    for r in rows:
        f.write("\t".join(r) + "\n")
shutil.copy(trace, d + "/traces/" + rows[0][0] + ".tsv")
with open(d + "/coreplan.manifest", "w") as f:
    f.write("layout = hostile\n[table main]\nfile = runs.tsv\ntag = {tag}\n"
            "trace = traces/{tag}.tsv\nset = clk_tck=100 nproc=8\n"
            "trace-columns = epoch app_rss_kb mem_avail_kb conn cpu_total_j cpu_idle_j app_j threads\n")
