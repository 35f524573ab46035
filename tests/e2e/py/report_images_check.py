# report_images_check.py (tests/e2e/report.sh): images_check.py
# images_check.py DIR [svg|png]: every image report.md references exists
# and is a valid SVG or PNG (of the given kind); so do the data and
# script files named beside them.
import os, re, sys
import xml.etree.ElementTree as ET
d = sys.argv[1]
want = sys.argv[2] if len(sys.argv) > 2 else None
md = open(os.path.join(d, "report.md"), encoding="utf-8").read()
errors, n = [], 0
for ref in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", md):
    n += 1
    p = os.path.join(d, ref)
    ext = os.path.splitext(ref)[1]
    if not os.path.isfile(p) or os.path.getsize(p) == 0:
        errors.append("%s: missing or empty" % ref)
        continue
    if want and ext != "." + want:
        errors.append("%s: not a .%s image" % (ref, want))
    if ext == ".svg":
        try:
            root = ET.parse(p).getroot()
            if not root.tag.endswith("svg"):
                errors.append("%s: root element is %s, not svg" % (ref, root.tag))
        except ET.ParseError as e:
            errors.append("%s: not well-formed XML: %s" % (ref, e))
    elif ext == ".png":
        if open(p, "rb").read(8) != b"\x89PNG\r\n\x1a\n":
            errors.append("%s: no PNG signature" % ref)
    else:
        errors.append("%s: neither .svg nor .png" % ref)
for ref in re.findall(r"\(data: `([^`]+)`, script: `([^`]+)`\)", md):
    for f in ref:
        if not os.path.isfile(os.path.join(d, f)):
            errors.append("%s: named in report.md but missing" % f)
if n == 0 and want != "none":
    errors.append("report.md references no image")
if want == "none" and n:
    errors.append("report.md references %d images" % n)
print("\n".join(errors) if errors else "ok")
