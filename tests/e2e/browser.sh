#!/usr/bin/env bash
# End-to-end test of report.html in a real browser (headless Chromium).
#
#   bash tests/e2e/browser.sh COREPLAN_BINARY REPO_ROOT SHARED_CORPORA_DIR
#
# Imports both sky corpora (SHARED/sky/*), writes their reports with --html
# (the capacity corpus with --target 1000 --sessions 300-500; the GOMAXPROCS
# one also with --png, its plots as data: URIs), and checks
# each report.html with tests/e2e/browser_check.py (chromedriver over the
# W3C WebDriver protocol, Python's standard library only): loaded from its
# file:// URL at 1280 px, no console error, nothing fetched, no script,
# every image and inline SVG drawn with a size, no table (nor the page)
# wider than the viewport, no duplicate id, no #link to nowhere. Also:
#   - report.html is byte-identical across two runs (and report.md with and
#     without --html);
#   - the checker can fail: a page with a missing image and a table wider
#     than the page is reported, naming both.
# Screenshots (full page and first screen, 1280 px wide) are kept in
# $COREPLAN_ARTEFACTS, default REPO_ROOT/build/tests/artefacts/browser; the
# folder is printed.
#
# Without chromium or chromedriver (Debian: chromium, chromium-driver;
# scripts/install-deps.sh installs them) the test prints one "skip" line
# and exits 0. Prints "ok - NAME" / "not ok - NAME: DETAILS" per check,
# then "N passed, M failed"; exits 1 if any check failed.

E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# ok, not_ok, e2e_start (BIN, ROOT, SHARED, the corpora's paths, T)
source "$E2E_DIR/lib.sh"
e2e_start --cd browser "$@"
CHROMIUM=${CHROMIUM:-$(command -v chromium || command -v chromium-browser || true)}
CHROMEDRIVER=${CHROMEDRIVER:-$(command -v chromedriver || true)}
if [ -z "$CHROMIUM" ] || [ -z "$CHROMEDRIVER" ]; then
	echo "skip - browser: chromium or chromedriver is not installed (apt-get install chromium chromium-driver)"
	echo "0 passed, 0 failed"
	exit 0
fi
e2e_need python3
ART=${COREPLAN_ARTEFACTS:-$ROOT/build/tests/artefacts}/browser
mkdir -p "$ART" || exit 2
DB=$T/sky.db
echo "# chromium: $CHROMIUM ($("$CHROMIUM" --version 2>/dev/null | head -1))"
echo "# screenshots: $ART"

if "$BIN" --db "$DB" import --quiet "$SKY/$GMP_NAME" "$SKY/$CAP_NAME" >import.out 2>import.err; then
	ok "import both sky corpora"
else
	not_ok "import both sky corpora" "$(cat import.err)"
fi

# report NAME ARGS...: DIR NAME with report.md and report.html
report() {
	local name=$1
	shift
	if "$BIN" --db "$DB" report --out "$T/$name" --html "$@" >"$name.out" 2>"$name.err" &&
		[ -s "$T/$name/report.html" ] && [ -s "$T/$name/report.md" ]; then
		ok "$name: report --html writes report.md and report.html"
	else
		not_ok "$name: report --html writes report.md and report.html" "$(head -c 600 "$name.err")"
	fi
}
report gmp --corpus "$GMP_NAME"
report cap --corpus "$CAP_NAME" --target 1000 --sessions 300-500
# PNG plots: inlined as data: URIs, each must decode (naturalWidth > 0)
report gmp-png --corpus "$GMP_NAME" --png

# the same inputs, the same page; report.md does not depend on --html
"$BIN" --db "$DB" report --out "$T/cap2" --html --corpus "$CAP_NAME" --target 1000 \
	--sessions 300-500 >/dev/null 2>&1
"$BIN" --db "$DB" report --out "$T/cap3" --corpus "$CAP_NAME" --target 1000 \
	--sessions 300-500 >/dev/null 2>&1
if cmp -s "$T/cap/report.html" "$T/cap2/report.html" && cmp -s "$T/cap/report.md" "$T/cap3/report.md" &&
	[ ! -e "$T/cap3/report.html" ]; then
	ok "cap: report.html byte-identical across runs; report.md the same with and without --html"
else
	not_ok "cap: report.html byte-identical across runs; report.md the same with and without --html" \
		"$(cmp "$T/cap/report.html" "$T/cap2/report.html"; cmp "$T/cap/report.md" "$T/cap3/report.md")"
fi

# self-contained by construction: no script, no external reference
bad=""
for page in "$T/gmp/report.html" "$T/cap/report.html"; do
	[ -f "$page" ] || continue
	grep -qi '<script\|<link\|<iframe\|javascript:\|https\?://[^"]*"\s*/\?>' "$page" &&
		bad+="$page: $(grep -oi '<script[^>]*>\|<link[^>]*>\|<iframe\|javascript:' "$page" | head -3)"$'\n'
	n_img=$(grep -c '^!\[' "${page%.html}.md")
	n_fig=$(grep -o '<figure id="figure-' "$page" | wc -l)
	[ "$n_img" -eq "$n_fig" ] || bad+="$page: $n_img images in report.md, $n_fig figures"$'\n'
done
if [ -z "$bad" ]; then
	ok "report.html has no script or external reference, one figure per image of report.md"
else
	not_ok "report.html has no script or external reference, one figure per image of report.md" "$bad"
fi

# each page in the browser; screenshots kept
rm -f "$ART"/*.png
python3 "$E2E_DIR/browser_check.py" --chromedriver "$CHROMEDRIVER" --chromium "$CHROMIUM" \
	"$ART" "$T/gmp/report.html" "$T/cap/report.html" "$T/gmp-png/report.html" >browser.out 2>&1
rc=$?
while IFS= read -r line; do
	case $line in
	"ok - "*) PASS=$((PASS + 1)); echo "$line" ;;
	"not ok - "*) FAIL=$((FAIL + 1)); echo "$line" ;;
	*) echo "# $line" ;;
	esac
done <browser.out
[ $rc -eq 0 ] || [ $rc -eq 1 ] || not_ok "browser_check.py" "exit $rc"
for shot in gmp-report cap-report gmp-png-report; do
	if [ -s "$ART/$shot.png" ] && [ "$(head -c 8 "$ART/$shot.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]; then
		ok "screenshot $ART/$shot.png"
	else
		not_ok "screenshot $ART/$shot.png" "missing or not a PNG"
	fi
done

# the checker can fail: a missing image and a table wider than the page
mkdir -p "$T/broken"
{
	echo '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>broken</title></head><body>'
	echo '<h1 id="broken">Broken</h1><figure><img alt="missing plot" src="plots/no-such.png"></figure>'
	printf '<table><tr>'
	for i in $(seq 1 60); do printf '<td>column_%02d_value_that_is_long</td>' "$i"; done
	echo '</tr></table></body></html>'
} >"$T/broken/report.html"
python3 "$E2E_DIR/browser_check.py" --chromedriver "$CHROMEDRIVER" --chromium "$CHROMIUM" \
	"$T/broken-shots" "$T/broken/report.html" >broken.out 2>&1
rc=$?
if [ $rc -eq 1 ] && grep -q "image 1 (missing plot).*missing or broken" broken.out &&
	grep -q "table 1 .* px wide" broken.out && grep -q "console error" broken.out; then
	ok "the checker fails a page with a missing image and a too-wide table"
else
	not_ok "the checker fails a page with a missing image and a too-wide table" "exit $rc: $(cat broken.out)"
fi

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
