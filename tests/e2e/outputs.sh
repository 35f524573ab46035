#!/usr/bin/env bash
# Output files: what `coreplan plot`, `size --plot` and `report --out`
# write, and what they must never touch (issue 16, item 1).
#
#   bash tests/e2e/outputs.sh COREPLAN_BINARY REPO_ROOT SHARED_CORPORA_DIR
#
# On a copy of fixtures/example imported into a database in a mktemp -d
# folder (removed on exit; the repository is only read):
#   - names: a plot's data and script are NAME.svg.tsv and NAME.svg.gp, so
#     `plot --out CORPUS/results.svg` leaves the corpus's results.tsv as it
#     was and `--out runs/TAG/sample.svg` the run's trace; --help says so
#   - refusals: an existing file coreplan did not write at any output name
#     (with or without --force), its own earlier plot without --force, an
#     output edited since, symbolic links planted at every output name
#     (their targets must stay as they were), a FIFO (no hang), names
#     starting with '|' or '<' (gnuplot's pipes: no PWNED file may appear),
#     `report --out` into a corpus, into a folder with a file coreplan did
#     not write, through a planted report.md or plots/ link
#   - failures: a fake gnuplot that scribbles on its output and fails, and
#     no gnuplot at all, leave an earlier image, data and script as they
#     were; a report again clears its earlier plots (nothing stale stays)
#     and says why each image is missing (not installed / gnuplot failed)
#   - a report draws all its plots with one gnuplot (a gnuplot on PATH that
#     counts its starts), the same files as otherwise
# Every refusal: exit 1 or 2 with one "coreplan: error:" line naming the
# path, nothing on stdout, and the database (SHA-256 of the file and of
# its .dump) and every output folder involved (each entry's type, link
# target and SHA-256) byte-identical before and after.
#
# Prints "ok - NAME" / "not ok - NAME: DETAILS" per check, then
# "N passed, M failed"; exits 1 if any check failed.

# ok, not_ok, check_eq, check_contains, cpl_env, e2e_start (BIN, ROOT,
# SHARED: not read, the same interface as run.sh, T, TIMEOUT), dbstate
# shellcheck source=lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
e2e_start --cd --need sqlite3 --need sha256sum --need gnuplot outputs "$@"
e2e_timeout 60

DB=$T/db.sqlite
CORP=$T/corpora/ex # the example corpus, imported as "ex"
mkdir -p "$T/corpora" && cp -R "$ROOT/fixtures/example" "$CORP" && chmod -R u+w "$CORP"
TAG=g1-n100-b1

# CPL_PATH: the PATH the binary runs with (default: ours).
CPL_PATH=$PATH
cpl() { cpl_env PATH="$CPL_PATH" -- "$@"; }

# tree_state DIR: every entry under DIR with its type and link target, and
# each regular file's SHA-256 (FIFOs are never read)
tree_state() {
	[ -e "$1" ] || [ -L "$1" ] || { echo "$1: absent"; return; }
	(cd "$1" && find . -mindepth 1 -printf '%P\t%y\t%l\n' | sort | while IFS=$'\t' read -r p y l; do
		if [ "$y" = f ]; then
			printf '%s\tf\t%s\n' "$p" "$(sha256sum <"$p" | cut -c1-64)"
		else
			printf '%s\t%s\t%s\n' "$p" "$y" "$l"
		fi
	done)
}
state() { # DIR...: the database and every folder
	dbstate "$DB"
	local d
	for d in "$@"; do
		echo "== $d"
		tree_state "$d"
	done
}
pwned() { # any file named PWNED* anywhere under $T, in the repository or /tmp
	{
		find "$T" -name 'PWNED*' 2>/dev/null
		find "$ROOT" "${TMPDIR:-/tmp}" -maxdepth 1 -name 'PWNED*' 2>/dev/null
	} | sort -u
}

# refuse NAME WANT_RC FRAGMENT DIR... -- ARGS...: coreplan ARGS exits
# WANT_RC with one error line holding FRAGMENT, prints nothing on stdout,
# and leaves the database and every DIR as they were.
refuse() {
	local name=$1 want=$2 frag=$3 before after problems=""
	shift 3
	local dirs=()
	while [ "$1" != -- ]; do
		dirs+=("$1")
		shift
	done
	shift
	before=$(state "${dirs[@]}")
	cpl "$@"
	after=$(state "${dirs[@]}")
	[ "$RC" = "$want" ] || problems+="exit $RC, expected $want; "
	[ "$RC" -lt 124 ] || problems+="crashed or hung; "
	[ "$(grep -c '^coreplan: error: ' <<<"$ERR")" = 1 ] || problems+="not one 'coreplan: error:' line; "
	[[ "$ERR" == *"$frag"* ]] || problems+="stderr lacks '$frag'; "
	[ -z "$OUT" ] || problems+="stdout not empty; "
	[ "$before" = "$after" ] || problems+="the database or an output folder changed: $(diff <(echo "$before") <(echo "$after") | grep '^[<>]' | head -n 6 | tr '\n' ' '); "
	[ -z "$(pwned)" ] || problems+="a command ran: $(pwned | tr '\n' ' '); "
	if [ -z "$problems" ]; then
		ok "$name"
	else
		not_ok "$name" "${problems%; }"$'\n'"command: $*"$'\n'"stderr: $ERR"
	fi
}
# same_file NAME FILE HASH: FILE's SHA-256 is HASH
same_file() {
	check_eq "$1" "$3" "$(sha256sum <"$2" 2>&1 | cut -c1-64)"
}
sha() { sha256sum <"$1" | cut -c1-64; }


cpl import -q "$CORP"
if [ "$RC" -ne 0 ]; then
	not_ok "import the example corpus" "exit $RC: $ERR"
	echo "$PASS passed, $FAIL failed"
	exit 1
fi
ok "import the example corpus"
dbstate "$DB" >/dev/null # settle the WAL so that the states compare

# the fake gnuplot: reads its input line by line as gnuplot does (a report
# sends every plot to one gnuplot and waits for each), follows its `cd`,
# scribbles on the first output its script names, then fails
mkdir -p "$T/fakebin" "$T/nobin"
cat >"$T/fakebin/gnuplot" <<'EOF'
#!/bin/sh
while IFS= read -r line; do
	case $line in
	"cd '"*"'")
		dir=${line#"cd '"}
		cd "${dir%"'"}" || exit 1
		;;
	"set output '"*"'")
		out=${line#"set output '"}
		printf 'scribbled' >"${out%"'"}"
		break
		;;
	esac
done
echo "fake gnuplot: failing on purpose" >&2
exit 1
EOF
chmod 755 "$T/fakebin/gnuplot"
FAKE_PATH=$T/fakebin:/usr/bin:/bin

SCALING=(plot scaling --by gomaxprocs --corpus ex)
SIZE=(size --target 1000 --sessions 500 --base-rate 299 --base-cpu gce-e2 --per-doubling 1.78
	--smt-factor 1.27 --mem-per-session 637 --mem-fixed 40000)

###########################################################################
# names that cannot collide with the image's siblings
###########################################################################
echo "# names"
e2e_case names
RESULTS_SHA=$(sha "$CORP/results.tsv")
TRACE_SHA=$(sha "$CORP/runs/$TAG/sample.tsv")
RUNS_BEFORE=$(tree_state "$CORP/runs")
cpl "${SCALING[@]}" --out "$CORP/results.svg"
expect_rc "plot --out CORPUS/results.svg exits 0" 0
same_file "plot --out CORPUS/results.svg: the corpus's results.tsv is as it was" "$CORP/results.tsv" "$RESULTS_SHA"
check_eq "plot --out CORPUS/results.svg: writes results.svg, results.svg.tsv, results.svg.gp (and its marker)" \
	".coreplan-outputs results.svg results.svg.gp results.svg.tsv" \
	"$(cd "$CORP" && ls -A | grep -E '^(results\.svg|\.coreplan)' | sort | paste -sd' ' -)"
cpl plot trace --tag "$TAG" --corpus ex --out "$CORP/runs/$TAG/sample.svg"
expect_rc "plot trace --out runs/TAG/sample.svg exits 0" 0
same_file "plot --out runs/TAG/sample.svg: the run's trace sample.tsv is as it was" \
	"$CORP/runs/$TAG/sample.tsv" "$TRACE_SHA"
check_eq "plot --out runs/TAG/sample.svg: only sample.svg, sample.svg.tsv, sample.svg.gp and the marker added" \
	"$(printf '%s\n' "$RUNS_BEFORE" \
		"$TAG/.coreplan-outputs" "$TAG/sample.svg" "$TAG/sample.svg.gp" "$TAG/sample.svg.tsv" | cut -f1 | sort)" \
	"$(tree_state "$CORP/runs" | cut -f1 | sort)"
check_contains "plot --help names the data and script files" "$("$BIN" plot --help 2>&1)" \
	"DIR/NAME.svg.tsv (the data)"
check_contains "plot --help: --force replaces only coreplan's files" "$("$BIN" plot --help 2>&1)" \
	"--force replaces only files an"
check_contains "size --help names the plot's data and script files" "$("$BIN" size --help 2>&1)" \
	"DIR/NAME.svg.tsv and DIR/NAME.svg.gp"
check_contains "report --help: a folder holding a corpus is refused" "$("$BIN" report --help 2>&1)" \
	"A DIR that holds a corpus"
check_contains "docs/files.md: the plot files' names" "$(cat "$ROOT/docs/files.md")" "NAME.svg.tsv"

###########################################################################
# plot and size --plot: refusals change nothing
###########################################################################
echo "# plot refusals"
e2e_case plot-refusals
O=$T/o
mkdir -p "$O"
printf 'my own drawing\n' >"$O/mine.svg"
refuse "plot over a file coreplan did not write (the image) exits 1" 1 \
	"cannot write '$O/mine.svg': it exists and coreplan did not write it" "$O" -- \
	"${SCALING[@]}" --out "$O/mine.svg"
refuse "plot --force over a file coreplan did not write: still refused" 1 \
	"cannot write '$O/mine.svg': it exists and coreplan did not write it" "$O" -- \
	"${SCALING[@]}" --out "$O/mine.svg" --force
printf 'my data\n' >"$O/d.svg.tsv"
refuse "plot over a file coreplan did not write (the data name) exits 1" 1 \
	"cannot write '$O/d.svg.tsv': it exists and coreplan did not write it" "$O" -- \
	"${SCALING[@]}" --out "$O/d.svg" --force
printf 'my script\n' >"$O/s.svg.gp"
refuse "size --plot over a file coreplan did not write (the script name) exits 1" 1 \
	"cannot write '$O/s.svg.gp': it exists and coreplan did not write it" "$O" -- \
	"${SIZE[@]}" --plot "$O/s.svg" --force

cpl "${SCALING[@]}" --out "$O/own.svg"
expect_rc "plot --out own.svg exits 0" 0
refuse "plot again over its own plot without --force exits 1" 1 \
	"cannot write '$O/own.svg': it exists (coreplan wrote it; --force replaces it)" "$O" -- \
	"${SCALING[@]}" --out "$O/own.svg"
cpl "${SCALING[@]}" --out "$O/own.svg" --force
expect_rc "plot again with --force replaces its own plot (exit 0)" 0
cpl "${SIZE[@]}" --plot "$O/sz.svg"
expect_rc "size --plot sz.svg exits 0" 0
refuse "size --plot again without --force exits 1" 1 \
	"cannot write '$O/sz.svg': it exists (coreplan wrote it; --force replaces it)" "$O" -- \
	"${SIZE[@]}" --plot "$O/sz.svg"
printf '# edited by hand\n' >>"$O/own.svg.gp"
refuse "plot --force over its own script edited since exits 1" 1 \
	"cannot write '$O/own.svg.gp': it changed since coreplan wrote it" "$O" -- \
	"${SCALING[@]}" --out "$O/own.svg" --force
refuse "plot --out x.tsv (not .svg or .png) is a usage error" 2 "must end in .svg or .png" "$O" -- \
	"${SCALING[@]}" --out "$O/x.tsv"
refuse "size --plot x (no extension) is a usage error" 2 "must end in .svg or .png" "$O" -- \
	"${SIZE[@]}" --plot "$O/x"
refuse "plot --out with a newline in the name is a usage error" 2 "control character" "$O" -- \
	"${SCALING[@]}" --out "$O/a"$'\n'"b.svg"

# symbolic links planted at every name, the old ones (x.tsv, x.gp) included
V=$T/victims
L=$T/links
mkdir -p "$V" "$L"
for n in x.svg x.svg.tsv x.svg.gp x.tsv x.gp y.svg y.svg.tsv y.svg.gp y.tsv y.gp; do
	printf 'victim %s\n' "$n" >"$V/$n"
	ln -s "$V/$n" "$L/$n"
done
refuse "plot --out through links at every output name exits 1" 1 "is a symbolic link" "$L" "$V" -- \
	"${SCALING[@]}" --out "$L/x.svg"
refuse "plot --force through links: still refused, the targets untouched" 1 "is a symbolic link" "$L" "$V" -- \
	"${SCALING[@]}" --out "$L/x.svg" --force
refuse "size --plot through links at every output name exits 1" 1 "is a symbolic link" "$L" "$V" -- \
	"${SIZE[@]}" --plot "$L/y.svg" --force
for n in svg svg.tsv svg.gp; do
	mkdir -p "$T/one-$n"
	printf 'victim\n' >"$V/one-$n"
	ln -s "$V/one-$n" "$T/one-$n/p.$n"
	refuse "plot with one link planted at p.$n exits 1, its target untouched" 1 \
		"cannot write '$T/one-$n/p.$n': it is a symbolic link" "$T/one-$n" "$V" -- \
		"${SCALING[@]}" --out "$T/one-$n/p.svg" --force
done
mkdir -p "$T/fifo"
mkfifo "$T/fifo/f.svg.tsv"
refuse "plot with a FIFO at the data name exits 1 (no hang)" 1 \
	"cannot write '$T/fifo/f.svg.tsv': it exists and coreplan did not write it" "$T/fifo" -- \
	"${SCALING[@]}" --out "$T/fifo/f.svg"

# names gnuplot reads as pipes: refused, nothing runs (relative PWNED would land in the cwd)
P=$T/pipes
mkdir -p "$P"
cd "$P" || exit 2
refuse "plot --out '|touch PWNED;x.svg' is refused (exit 2), runs nothing" 2 \
	"starts with '|', which gnuplot reads as a command to run" "$P" -- \
	"${SCALING[@]}" --out "|touch PWNED;x.svg"
refuse "plot --out 'DIR/|touch PWNED;x.svg' is refused, runs nothing" 2 "starts with '|'" "$P" -- \
	"${SCALING[@]}" --out "$P/|touch PWNED2;x.svg"
refuse "plot --out '<touch PWNED;x.svg' (its data would start with '<') is refused, runs nothing" 2 \
	"starts with '<'" "$P" -- "${SCALING[@]}" --out "$P/<touch PWNED3;x.svg"
refuse "size --plot '|touch PWNED;y.svg' is refused, runs nothing" 2 "starts with '|'" "$P" -- \
	"${SIZE[@]}" --plot "|touch PWNED4;y.svg"
cd "$T" || exit 2
cpl "${SCALING[@]}" --out "$P/\$data.svg"
expect_rc "plot --out '\$data.svg' (a gnuplot datablock name) draws: names reach gnuplot behind ./" 0
check_eq "no command ran for any pipe name" "" "$(pwned)"

###########################################################################
# failed plots leave the earlier plot as it was
###########################################################################
echo "# failed plots"
e2e_case failed-plots
F=$T/failed
mkdir -p "$F"
cpl "${SCALING[@]}" --out "$F/p.svg"
expect_rc "plot --out failed/p.svg exits 0" 0
cpl "${SIZE[@]}" --plot "$F/sz.svg"
expect_rc "size --plot failed/sz.svg exits 0" 0
CPL_PATH=$FAKE_PATH
refuse "plot over its earlier plot with a failing gnuplot, no --force: exits 1, the plot as it was" 1 \
	"$F/p.svg" "$F" -- "${SCALING[@]}" --out "$F/p.svg"
refuse "plot --force with a failing gnuplot exits 1, the earlier image, data and script as they were" 1 \
	"gnuplot failed on '$F/p.svg'" "$F" -- "${SCALING[@]}" --out "$F/p.svg" --force
refuse "size --plot --force with a failing gnuplot exits 1, the earlier plot as it was" 1 \
	"gnuplot failed on '$F/sz.svg'" "$F" -- "${SIZE[@]}" --plot "$F/sz.svg" --force
refuse "plot with a failing gnuplot and no earlier plot exits 1, writes nothing" 1 \
	"gnuplot failed" "$F" -- "${SCALING[@]}" --out "$F/new.svg"
CPL_PATH=$T/nobin
refuse "plot --force without gnuplot exits 1, the earlier plot as it was" 1 \
	"gnuplot is not installed" "$F" -- "${SCALING[@]}" --out "$F/p.svg" --force
CPL_PATH=$PATH
check_eq "the failed plots left no temporary folder" "" "$(ls -A "$F" | grep '^\.coreplan-tmp')"

###########################################################################
# report --out
###########################################################################
echo "# report"
e2e_case report
refuse "report --out CORPUS exits 1: a folder holding a corpus is refused, the corpus untouched" 1 \
	"cannot write a report into '$CORP': it holds a corpus" "$CORP" -- \
	report --corpus ex --out "$CORP"
mkdir -p "$T/r-foreign"
printf 'notes\n' >"$T/r-foreign/notes.txt"
refuse "report --out DIR holding a file coreplan did not write exits 1" 1 \
	"cannot write '$T/r-foreign/notes.txt': it exists and coreplan did not write it" "$T/r-foreign" -- \
	report --corpus ex --out "$T/r-foreign"
mkdir -p "$T/r-link"
printf 'victim report\n' >"$V/report.md"
ln -s "$V/report.md" "$T/r-link/report.md"
refuse "report --out DIR whose report.md is a planted link exits 1, its target untouched" 1 \
	"cannot write '$T/r-link/report.md': it is a symbolic link" "$T/r-link" "$V" -- \
	report --corpus ex --out "$T/r-link"
mkdir -p "$T/r-plots" "$V/plots"
printf 'victim plot\n' >"$V/plots/keep.svg"
ln -s "$V/plots" "$T/r-plots/plots"
refuse "report --out DIR whose plots/ is a planted link exits 1, the linked folder untouched" 1 \
	"cannot write '$T/r-plots/plots': it is a symbolic link" "$T/r-plots" "$V" -- \
	report --corpus ex --out "$T/r-plots"

R=$T/r
cpl report --corpus ex --out "$R"
expect_rc "report --out r exits 0" 0
check_eq "report: 3 plots drawn (scaling, blocks, trace)" 3 "$(ls "$R/plots" | grep -c '\.svg$')"
printf 'mine\n' >"$R/plots/extra.txt"
refuse "report again with a file coreplan did not write in plots/ exits 1" 1 \
	"cannot write '$R/plots/extra.txt': it exists and coreplan did not write it" "$R" -- \
	report --corpus ex --out "$R"
rm "$R/plots/extra.txt"
cpl report --corpus ex --out "$R"
expect_rc "report again into its earlier report exits 0" 0
cpl report --corpus ex --out "$T/r-fresh"
check_eq "report again: the same files as a report into a new folder" "" "$(diff -r "$R" "$T/r-fresh" 2>&1)"

# no gnuplot: the earlier report's images are cleared, report.md says why
CPL_PATH=$T/nobin
cpl report --corpus ex --out "$R"
CPL_PATH=$PATH
expect_rc "report again without gnuplot exits 0" 0
check_eq "report again without gnuplot: no stale image of the earlier report stays in plots/" "" \
	"$(ls "$R/plots" | grep -E '\.(svg|png)$')"
check_eq "report without gnuplot: report.md references no image" 0 "$(grep -c '^!\[' "$R/report.md")"
check_eq "report without gnuplot: each of the 3 plots says gnuplot is not installed" 3 \
	"$(grep -c '^\*Plot not drawn: gnuplot is not installed' "$R/report.md")"

# a failing gnuplot: the real reason, for the plots and the sizing plot
cat >"$T/size.conf" <<'EOF'
target = 1000
sessions = 500
base-rate = 299
base-cpu = gce-e2
per-doubling = 1.78
smt-factor = 1.27
mem-per-session = 637
mem-fixed = 40000
EOF
cpl report --corpus ex --config "$T/size.conf" --out "$T/r-size"
expect_rc "report with a sizing section exits 0" 0
check_eq "report with sizing: 4 images (scaling, blocks, trace, sizing)" 4 "$(grep -c '^!\[' "$T/r-size/report.md")"
# one gnuplot for the whole report: a gnuplot on PATH that logs each start, then runs the real one
mkdir -p "$T/countbin"
printf '#!/bin/sh\necho start >>"%s"\nexec "%s" "$@"\n' "$T/gnuplot-starts" "$(command -v gnuplot)" \
	>"$T/countbin/gnuplot"
chmod 755 "$T/countbin/gnuplot"
CPL_PATH=$T/countbin:$PATH
cpl report --corpus ex --config "$T/size.conf" --out "$T/r-count"
CPL_PATH=$PATH
check_eq "report with 4 plots starts gnuplot once" "0 1" "$RC $(wc -l <"$T/gnuplot-starts" 2>/dev/null)"
check_eq "report through one gnuplot: the same files as the report before" "" \
	"$(diff -r "$T/r-size" "$T/r-count" 2>&1)"
CPL_PATH=$FAKE_PATH
cpl report --corpus ex --config "$T/size.conf" --out "$T/r-size"
CPL_PATH=$PATH
expect_rc "report again with a failing gnuplot exits 0 (the report stands without its pictures)" 0
check_eq "failing gnuplot: every missing image says gnuplot failed (4)" 4 \
	"$(grep -c '^\*Plot not drawn: gnuplot failed on .*failing on purpose' "$T/r-size/report.md")"
check_eq "failing gnuplot: no note says gnuplot is not installed" 0 \
	"$(grep -c 'gnuplot is not installed' "$T/r-size/report.md")"
check_contains "failing gnuplot: the sizing section says gnuplot failed, not 'no instance has a prediction'" \
	"$(sed -n '/^## Sizing/,$p' "$T/r-size/report.md")" "*Plot not drawn: gnuplot failed on '$T/r-size/plots/04-sizing.svg'"
check_eq "failing gnuplot: no image, stale or scribbled, in plots/" "" \
	"$(ls "$T/r-size/plots" | grep -E '\.(svg|png)$')"
check_eq "no temporary folder left in any report folder" "" \
	"$(find "$T" -name '.coreplan-tmp-*' 2>/dev/null)"

check_eq "no command ran anywhere (final check)" "" "$(pwned)"
echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
