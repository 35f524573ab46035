#!/usr/bin/env bash
# report_outdir.sh: the hostile catalogue's output-folder cases (issue 23.3):
# `report --out DIR` replaces only what its own marker lists as the
# report's, so a plot the user drew into DIR with `coreplan plot --out`
# survives; a plot drawn into DIR/plots (which the next report replaces)
# refuses the report, named; `--out OLD/plots` under an earlier report and
# `--out CORPUS/...` inside an imported corpus are refused before anything
# is made; a report killed with SIGKILL at every point where it changes a
# folder (tests/e2e/c/killshim.c, an LD_PRELOAD library counting mkdir,
# mkdtemp, rename, link and unlink calls) leaves only what the next report
# into DIR removes: after it, no .coreplan-tmp-* stays and the user's plot
# is byte for byte what `plot` wrote (sha256sum before and after).
#
#   bash tests/e2e/report_outdir.sh COREPLAN_BINARY REPO_ROOT SHARED_CORPORA_DIR
source "$(dirname "$0")/lib.sh"
e2e_start report-outdir "$@"
e2e_timeout 120
DB=$T/db
CORP=$T/corp
cp -r "$ROOT/fixtures/example" "$CORP"
"$BIN" --db "$DB" import -q "$CORP" >/dev/null 2>&1 ||
	{ echo "not ok - setup: cannot import fixtures/example"; exit 1; }
command -v gnuplot >/dev/null || { echo "1..0 # skip gnuplot is missing (the plots are the point)"; exit 0; }

# fresh DIR: a report, then the user's own plot beside it
fresh() { # DIR
	rm -rf "$1"
	"$BIN" --db "$DB" report --out "$1" >/dev/null 2>"$T/fresh.err" &&
		"$BIN" --db "$DB" plot --by gomaxprocs --out "$1/mine.svg" scaling >/dev/null 2>>"$T/fresh.err"
}
# the user's plot files' checksums, and DIR's entries (names, one line each)
sums() { (cd "$1" && sha256sum mine.svg mine.svg.tsv mine.svg.gp 2>&1); }
entries() { (cd "$1" && find . -mindepth 1 -maxdepth 1 | sort | tr '\n' ' '); }
WANT_ENTRIES="./.coreplan-outputs ./mine.svg ./mine.svg.gp ./mine.svg.tsv ./plots ./report.md "

if e2e_case user-plot-survives; then
	fresh "$T/R" || not_ok "setup of $T/R" "$(cat "$T/fresh.err")"
	before=$(sums "$T/R")
	cpl report --out "$T/R"
	expect_rc "report over a folder holding the user's plot succeeds" 0
	check_eq "the user's plot, its data and script are kept byte for byte" "$before" "$(sums "$T/R")"
	check_eq "the folder holds the report and the user's plot" "$WANT_ENTRIES" "$(entries "$T/R")"
	grep -q $'\tplot\tmine.svg$' "$T/R/.coreplan-outputs" &&
		grep -q $'\treport\treport.md$' "$T/R/.coreplan-outputs" &&
		ok "the marker records who wrote each file (plot, report)" ||
		not_ok "the marker records who wrote each file" "$(cat "$T/R/.coreplan-outputs")"
fi

if e2e_case plot-in-plots-refused; then
	fresh "$T/P" || not_ok "setup of $T/P" "$(cat "$T/fresh.err")"
	"$BIN" --db "$DB" plot --by gomaxprocs --out "$T/P/plots/extra.svg" scaling >/dev/null 2>&1
	md=$(sha256sum <"$T/P/report.md")
	cpl report --out "$T/P"
	expect_rc "a report whose plots/ holds the user's plot is refused" 1
	check_contains "the refusal names the user's file and its writer" "$ERR" \
		"'$T/P/plots/extra.svg"
	check_contains "the refusal says who wrote it" "$ERR" "written by 'coreplan plot'"
	[ -f "$T/P/plots/extra.svg" ] && [ "$md" = "$(sha256sum <"$T/P/report.md")" ] &&
		ok "the user's plot and the earlier report stay" ||
		not_ok "the user's plot and the earlier report stay" "$(ls -la "$T/P" "$T/P/plots")"
fi

if e2e_case nested-out-refused; then
	fresh "$T/N" || not_ok "setup of $T/N" "$(cat "$T/fresh.err")"
	before=$(cd "$T/N" && find . | sort | xargs -d '\n' sha256sum 2>/dev/null)
	cpl report --out "$T/N/plots"
	expect_rc "report --out OLD/plots under an earlier report is refused" 1
	check_contains "the refusal names the earlier report's folder" "$ERR" "'$T/N/plots', which 'coreplan report' wrote"
	cpl report --out "$T/N/plots/deeper"
	expect_rc "report --out OLD/plots/deeper is refused too" 1
	check_eq "the earlier report is unchanged" "$before" \
		"$(cd "$T/N" && find . | sort | xargs -d '\n' sha256sum 2>/dev/null)"
fi

if e2e_case corpus-tree-refused; then
	before=$(cd "$CORP" && find . | sort)
	for out in "$CORP/runs/new" "$CORP/runs" "$CORP/x/y" "$T/./corp/../corp/z"; do
		cpl report --out "$out"
		expect_rc "report --out ${out#"$T"/} inside the imported corpus is refused" 1
		check_contains "the refusal for ${out#"$T"/} names the corpus" "$ERR" \
			"it is inside corpus 'corp', imported from '$CORP'"
	done
	check_eq "nothing was made in the corpus" "$before" "$(cd "$CORP" && find . | sort)"
	ln -s "$CORP/runs" "$T/link-to-runs"
	cpl report --out "$T/link-to-runs/new"
	expect_rc "a link into the corpus is refused (the resolved path counts)" 1
fi

if e2e_case foreign-stage-kept; then
	fresh "$T/F" || not_ok "setup of $T/F" "$(cat "$T/fresh.err")"
	mkdir "$T/F/.coreplan-tmp-mine" && echo keep >"$T/F/.coreplan-tmp-mine/notes"
	echo keep >"$T/F/.coreplan-tmp-file"
	cpl report --out "$T/F"
	expect_rc "report beside folders named like stages but without coreplan's marker" 0
	[ "$(cat "$T/F/.coreplan-tmp-mine/notes" "$T/F/.coreplan-tmp-file")" = $'keep\nkeep' ] &&
		ok "what only looks like a stage stays" || not_ok "what only looks like a stage stays" "$(ls -la "$T/F")"
fi

if e2e_case killed-report-cleaned; then
	SHIM=$T/killshim.so
	if ! cc -shared -fPIC -O1 -o "$SHIM" "$ROOT/tests/e2e/c/killshim.c" -ldl 2>"$T/cc.err"; then
		skip "killed reports" "no C compiler for the kill shim: $(head -c 200 "$T/cc.err")"
	else
		# a sanitizer build: the shim may come before the ASan runtime
		export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
		fresh "$T/K" || not_ok "setup of $T/K" "$(cat "$T/fresh.err")"
		sums_before=$(sums "$T/K")
		# how many folder changes an unkilled report over this folder makes
		LD_PRELOAD=$SHIM COREPLAN_KILL_COUNT=$T/count "$BIN" --db "$DB" report --out "$T/K" >/dev/null 2>&1
		total=$(cat "$T/count" 2>/dev/null || echo 0)
		[ "$total" -gt 10 ] && ok "an unkilled report changes folders $total times" ||
			not_ok "the shim counts the report's folder changes" "count '$total'"
		bad=""
		for ((n = 1; n <= total; n++)); do
			fresh "$T/K" || { bad+="setup at $n: $(cat "$T/fresh.err"); "; continue; }
			# in a subshell, so bash's "Killed" goes to /dev/null with it
			rc=$( (LD_PRELOAD=$SHIM COREPLAN_KILL_AT=$n "$BIN" --db "$DB" report --out "$T/K" \
				>/dev/null 2>&1; echo $?) 2>/dev/null)
			[ "$rc" = 137 ] || { bad+="kill at $n: exit $rc, not SIGKILL; "; continue; }
			"${TIMEOUT[@]}" "$BIN" --db "$DB" report --out "$T/K" >/dev/null 2>"$T/next.err" ||
				{ bad+="after a kill at $n the next report failed: $(head -c 300 "$T/next.err"); "; continue; }
			[ "$(entries "$T/K")" = "$WANT_ENTRIES" ] ||
				bad+="after a kill at $n the next report left: $(entries "$T/K"); "
			[ "$(sums "$T/K")" = "$sums_before" ] || bad+="after a kill at $n the user's plot changed; "
		done
		[ -z "$bad" ] && ok "a report killed at each of $total points: the next report cleans up" ||
			not_ok "a report killed at each point: the next report cleans up" "$bad"
	fi
fi

echo "# $PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
