# formats_html_check.py (tests/e2e/formats.sh): the html page argv[2] well-formed, no script, one table per table of the md argv[1]
# html: well-formed (every element closed in order), no script, one table per md table
import html.parser, re, sys
md = open(sys.argv[1]).read()
page = open(sys.argv[2]).read()
void = {"meta", "wbr", "hr", "br", "img"}
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack, self.bad, self.tables = [], [], 0
    def handle_starttag(self, tag, attrs):
        self.tables += tag == "table"
        if tag in ("script", "link", "iframe"):
            self.bad.append("a <%s> element" % tag)
        if tag not in void:
            self.stack.append(tag)
    def handle_endtag(self, tag):
        if not self.stack or self.stack.pop() != tag:
            self.bad.append("</%s> closes nothing open" % tag)
p = P()
p.feed(page)
want = len(re.findall(r"^\|.*\n\|[-:| ]+\|$", md, re.M))
if p.stack: p.bad.append("left open: %s" % p.stack)
if p.tables != want: p.bad.append("%d tables, md has %d" % (p.tables, want))
print("; ".join(p.bad) or "ok")
