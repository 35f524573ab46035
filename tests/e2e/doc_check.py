#!/usr/bin/env python3
"""doc_check: does a command's JSON hold every number its Markdown shows?

    python3 doc_check.py OUT.md OUT.json [OUT.tsv]

Checks (prints "ok", or one line per problem and exits 1):
  - the JSON parses and has the document shape (schema/README.md, "JSON output"):
    coreplan, format, command, title, facts, sections, left_out;
  - every number in the Markdown body (the footer after the last "---" line,
    code spans and table alignment rows aside) is backed by the JSON as a
    *number* (a fact value or a table cell) that rounds to the same digits,
    or appears inside data text (a text cell, a text fact, a left-out run's
    tag or reason). Numbers that exist only in prose (titles, notes, text)
    do not count: a script could not get them without parsing sentences;
  - with OUT.tsv, the tsv's header names a table section of the JSON and
    every tsv cell equals the JSON cell to the last digit.

A Markdown number is a token such as 12, -0.5, 1.7781, 95% or 1.2e+06 that is
not part of a word (log2, e2-small, g1-n100 are not numbers).
"""
import json
import math
import re
import sys

NUMBER = re.compile(r"(?<![\w.\\])(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)(?![\d])")


def md_body(md):
    lines = md.split("\n")
    # the footer: after the last line that is exactly "---"
    for i in range(len(lines) - 1, -1, -1):
        if lines[i] == "---":
            lines = lines[:i]
            break
    body = []
    for line in lines:
        if re.fullmatch(r"\|[\s:|-]+\|", line):
            continue  # alignment row
        line = re.sub(r"`[^`]*`", " ", line)  # code spans: commands, options
        body.append(line)
    return body


def md_numbers(md):
    out = []
    for line in md_body(md):
        for m in NUMBER.finditer(line):
            tok = m.group(1)
            start = m.start(1)
            # a hyphen that joins words or ranges ("1-8", "300-500") is not a sign
            if tok.startswith("-") and start > 0 and (line[start - 1].isalnum()):
                tok = tok[1:]
            out.append((tok, line.strip()))
    return out


def walk(value, numbers, texts, path=()):
    """Collect JSON numbers and data strings (not titles, notes, text)."""
    if isinstance(value, bool):
        numbers.append(1.0 if value else 0.0)
    elif isinstance(value, (int, float)):
        numbers.append(float(value))
    elif isinstance(value, str):
        if path and path[-1] in ("title", "notes", "text", "label", "unit", "name", "type"):
            return
        if len(path) >= 2 and path[-2] in ("notes", "text"):
            return
        texts.append(value)
    elif isinstance(value, list):
        for v in value:
            walk(v, numbers, texts, path + (path[-1] if path else "",))
    elif isinstance(value, dict):
        for k, v in value.items():
            walk(v, numbers, texts, path + (k,))


def decimals(tok):
    mant = re.split(r"[eE]", tok)[0]
    return len(mant.split(".")[1]) if "." in mant else 0


def norm(text):
    return "0" + text[2:] if text.startswith("-0") and set(text[1:]) <= set("0.") else text


def backed(tok, numbers, shown, texts):
    if "e" in tok.lower():
        want = float(tok)
        digits = len(re.sub(r"[^0-9]", "", re.split(r"[eE]", tok)[0]))
        if any(math.isclose(v, want, rel_tol=0.6 * 10 ** (1 - digits)) for v in numbers):
            return True
        # a data string's digits that read as one ("0e9242070" of a hash
        # 0e9242070f49...): backed by that string, as any other token is
        return any(re.search(r"(?<![\d.])" + re.escape(tok) + r"(?![\d])", s) for s in texts)
    d = decimals(tok)
    t = norm(tok.lstrip("+"))
    if t in shown.get(d, ()):
        return True
    # a percentage shown from a fraction (0.9 -> 90%) is not accepted: it must be a fact
    return any(re.search(r"(?<![\d.])" + re.escape(tok) + r"(?![\d])", s) for s in texts)


def check(md_path, json_path, tsv_path=None):
    problems = []
    md = open(md_path, encoding="utf-8").read()
    try:
        d = json.load(open(json_path, encoding="utf-8"))
    except ValueError as e:
        return ["json does not parse: %s" % e]
    for key in ("coreplan", "format", "command", "title", "facts", "sections", "left_out"):
        if key not in d:
            problems.append("json has no '%s'" % key)
    if problems:
        return problems
    numbers, texts = [], []
    walk(d["facts"], numbers, texts, ("facts",))
    walk(d["sections"], numbers, texts, ("sections",))
    walk(d["left_out"], numbers, texts, ("left_out",))
    shown = {}
    for dd in range(0, 18):
        shown[dd] = {norm("%.*f" % (dd, v)) for v in numbers if math.isfinite(v)}
    seen = set()
    for tok, line in md_numbers(md):
        if (tok, line) in seen:
            continue
        seen.add((tok, line))
        if not backed(tok, numbers, shown, texts):
            problems.append("md number %s has no JSON number behind it: %s" % (tok, line[:160]))
    if tsv_path:
        problems += check_tsv(d, tsv_path)
    return problems


def check_tsv(d, tsv_path):
    lines = open(tsv_path, encoding="utf-8").read().rstrip("\n").split("\n")
    head = lines[0].split("\t")
    if head == ["name", "value", "unit", "label"]:
        return []
    for name, sec in d["sections"].items():
        cols = [c["name"] for c in sec.get("columns", [])]
        if cols != head:
            continue
        rows = sec["rows"]
        if len(rows) != len(lines) - 1:
            return ["tsv has %d rows, json section %s %d" % (len(lines) - 1, name, len(rows))]
        bad = []
        for r, line in zip(rows, lines[1:]):
            for c, cell in zip(cols, line.split("\t")):
                v = r[c]
                if v is None:
                    ok = cell == "NA"
                elif isinstance(v, bool):
                    ok = cell == ("1" if v else "0")
                elif isinstance(v, (int, float)):
                    ok = cell != "NA" and float(cell) == float(v)
                else:
                    ok = cell == re.sub(r"[\t\r\n]", " ", v)
                if not ok:
                    bad.append("tsv %s.%s: %r != json %r" % (name, c, cell, v))
        return bad[:20]
    return ["tsv header %s matches no json section" % head[:6]]


def main():
    if len(sys.argv) not in (3, 4):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    problems = check(*sys.argv[1:])
    if problems:
        print("\n".join(problems[:40]))
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
