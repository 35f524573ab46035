#!/usr/bin/env python3
"""Every relative link of the given Markdown files (a folder: its *.md) reaches a file, and every
#anchor a heading of it (GitHub's anchors: lowercase, punctuation but - and _
dropped, blanks as -, a repeated heading -1, -2). Prints "ok" or the broken
links; exit 1 when one is broken."""
import os, re, sys

def anchors(path):
    seen, out, fence = {}, set(), False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            fence = not fence
        if fence or not re.match(r"#{1,6} ", line):
            continue
        text = re.sub(r"[`*_\[\]]|\]\([^)]*\)", "", line.split(" ", 1)[1].strip())
        a = re.sub(r"[^\w\- ]", "", text.lower(), flags=re.UNICODE).replace(" ", "-")
        n = seen.get(a, 0)
        seen[a] = n + 1
        out.add(a if n == 0 else "%s-%d" % (a, n))
    return out

files = []
for arg in sys.argv[1:]:  # a folder stands for its *.md files
    files += sorted(os.path.join(arg, f) for f in os.listdir(arg) if f.endswith(".md")) if os.path.isdir(arg) else [arg]
bad = []
for md in files:
    text = open(md, encoding="utf-8").read()
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        path, _, frag = target.partition("#")
        full = os.path.normpath(os.path.join(os.path.dirname(md), path)) if path else md
        if not os.path.exists(full):
            bad.append("%s: %s: no such file" % (md, target))
        elif frag and full.endswith(".md") and frag not in anchors(full):
            bad.append("%s: %s: no such heading" % (md, target))
print("\n".join(bad) if bad else "ok")
sys.exit(1 if bad else 0)
