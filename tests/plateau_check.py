#!/usr/bin/env python3
# Oracle for tests/test_binders.c: app cores of e2-medium pg (blocks 1-3)
# from samples/*.tsv, with system.tsv's window (ramp kept) and with the
# plateau rule of analysis/window.h (the leading ramp rows left out).
# Run from the capacity corpus directory: python3 tests/plateau_check.py
import sys,glob,os,statistics
def win(rows,keep_ramp=False):
    conn=[r[6] for r in rows]; mx=max(conn)
    idx=[i for i,c in enumerate(conn) if c>=0.8*mx]
    lo,hi=idx[0],idx[-1]
    if hi-lo>4: lo+=1; hi-=1
    if not keep_ramp:
        w=conn[lo:hi+1]; med=statistics.median(w)
        k=lo
        while k<hi and conn[k]<med and conn[k+1]>=conn[k]: k+=1
        if k>lo: k+=1
        if hi-k+1>=5: lo=k
    return lo,hi
for f in sorted(glob.glob('samples/medium-pg-*-b[123]*.tsv')):
    rows=[list(map(float,l.split('\t'))) for l in open(f) if l.strip()]
    out=[]
    for kr in (True,False):
        lo,hi=win(rows,kr)
        dt=rows[hi][0]-rows[lo][0]
        a=(rows[hi][9]-rows[lo][9])/100/dt
        pg=(rows[hi][10]-rows[lo][10])/100/dt
        rss=statistics.median([r[1] for r in rows[lo:hi+1]])
        avail=min(r[5] for r in rows[lo:hi+1])
        out.append("app %.3f pg %.3f rss %d avail %d" % (a,pg,rss,avail))
    print(os.path.basename(f),'| ramp kept:',out[0],'| plateau:',out[1])
