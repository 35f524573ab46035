# report_svg_text.py (tests/e2e/report.sh): svg_text.py
# svg_text.py FILE TEXT...: each TEXT appears literally in the SVG's text
# (entities decoded).
import sys
import xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
text = "\n".join(t for t in root.itertext())
missing = [w for w in sys.argv[2:] if w not in text]
print("not drawn: " + "; ".join(repr(m) for m in missing) if missing else "ok")
