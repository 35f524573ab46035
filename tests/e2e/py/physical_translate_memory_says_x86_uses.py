# physical_translate_memory_says_x86_uses.py (tests/e2e/physical.sh): translate: memory says x86 uses less than M1, 15-19% (rounded), idle 18.4 and loaded 14.8
# argv[1]: the command's output ($T/.out); the rest: as the script passes them
import re, sys
lines = open(sys.argv[1]).read().split("\n")
head = lines[0].split("\t")
by = {}
for l in lines[1:]:
    if l:
        r = dict(zip(head, l.split("\t"))); by[r["kind"]] = r
bad = []
for kind, pct, when in (("idle_memory", "18.4", "at idle"), ("loaded_memory", "14.8", "under load")):
    w = by[kind]["in_words"]
    g = re.fullmatch(r"gce-e2 uses ([0-9.]+)%% less than apple-m1 %s" % when, w)
    if not g:
        bad.append("%s: in_words %r" % (kind, w)); continue
    if g.group(1) != pct or not 15 <= round(float(g.group(1))) <= 19:
        bad.append("%s: %s%%, expected %s%% (the seed: 15-19%%)" % (kind, g.group(1), pct))
print("\n".join(bad) if bad else "ok")
