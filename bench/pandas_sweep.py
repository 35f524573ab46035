#!/usr/bin/env python3
"""pandas_sweep.py: the pandas script a user writes for the sweep summary of
the GOMAXPROCS corpus (bench/pandas_bench.sh's peer): read results.tsv, keep
the complete blocks 1-3 (GOGC default, 100 sessions), and per GOMAXPROCS
level print n, median, min, max, range %, speedup and efficiency over level
1, and the per-doubling factor of a least-squares fit of ln(median) on
log2(level).

  python3 bench/pandas_sweep.py CORPUS_DIR
"""
import sys

import numpy as np
import pandas as pd

runs = pd.read_csv(sys.argv[1] + "/results.tsv", sep="\t", dtype={"block": str})
runs = runs[runs["block"].isin(["1", "2", "3"]) & (runs["gogc"] == "default") & (runs["sessions"] == 100)]
levels = runs.groupby("gomaxprocs")["tput"].agg(["count", "median", "min", "max"])
levels["range_pct"] = 100 * (levels["max"] - levels["min"]) / levels["median"]
base = levels["median"].iloc[0]
levels["speedup"] = levels["median"] / base
levels["efficiency"] = levels["speedup"] / (levels.index / levels.index[0])
slope = np.polyfit(np.log2(levels.index.to_numpy(float)), np.log(levels["median"].to_numpy()), 1)[0]
print(levels.to_csv(sep="\t"), end="")
print("per_doubling\t%.6f" % np.exp(slope))
