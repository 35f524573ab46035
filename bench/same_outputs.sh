#!/usr/bin/env bash
# same_outputs.sh: every command's outputs from two coreplan binaries,
# byte for byte, on the real corpora and the shipped fixtures.
#
#   bench/same_outputs.sh BEFORE AFTER [SHARED_CORPORA_DIR]
#
#   BEFORE, AFTER       two coreplan binaries (e.g. one built from main before
#                       a speed change, and the change)
#   SHARED_CORPORA_DIR  the folder holding sky/ and writeups/ (default
#                       ../shared/corpora beside this repository)
#
# Each binary in turn, in the same work folder (so paths in the outputs are
# the same): imports the two sky corpora, the example corpus, the
# gomaxprocs-affinity write-up with its manifest, the USL fixture, the
# tool fixtures, a small synthetic sweep (bench/gen_corpus.awk) and one run
# with a 1,100,000-row trace (bench/gen_trace.awk; LONG_ROWS=N for another
# length, 0 for none) into a fresh database, then runs the command list below
# (about 900 commands: every analysis command in md, json and tsv, `trace`
# of every run, plots, reports with --html and --png, `size --plot`,
# `translate --apply`, and commands that must fail). Standard output,
# standard error, the exit status and every file written are kept per
# command; the two sides' trees are compared with diff -r. The only
# rewrite is the import time (`imported_at`, today's date in ISO form),
# which differs between any two imports.
#
# Prints one line per command that differs (its number and arguments) and
# the first lines of the diff; exits 0 when both sides are identical, 1 when
# any output differs, 2 on a usage error. Takes about a minute per binary.
#
# Environment: KEEP=1 keeps the work folder (printed at the start).
set -u
set -o pipefail
export LC_ALL=C

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)
# shellcheck source=lib.sh
source "$here/lib.sh" # bench_manifest
if [ $# -lt 2 ] || [ $# -gt 3 ]; then
	echo "usage: $0 BEFORE AFTER [SHARED_CORPORA_DIR]" >&2
	exit 2
fi
before=$(realpath "$1") || exit 2
after=$(realpath "$2") || exit 2
shared=$(realpath "${3:-$repo/../shared/corpora}") || exit 2
for b in "$before" "$after"; do
	[ -x "$b" ] || { echo "same_outputs.sh: $b is not an executable" >&2; exit 2; }
done
[ -d "$shared/sky" ] || { echo "same_outputs.sh: no sky/ in $shared" >&2; exit 2; }

T=$(mktemp -d "${TMPDIR:-/tmp}/coreplan-same.XXXXXX") || exit 2
if [ "${KEEP:-0}" = 1 ]; then
	echo "work folder: $T"
else
	trap 'rm -rf "$T"' EXIT
fi
trap 'exit 130' INT TERM

GMP=gomaxprocs-scaling-20260816
CAP=gcp-x86-capacity-20260816
SKY=$shared/sky
AFF=$shared/writeups/gomaxprocs-affinity
FIX=$repo/fixtures
W=$T/work # the same for both sides: paths in the outputs match
DB=$W/cp.db
O=$W/files # every file a command writes goes under here
# the shipped catalogs from one place: each binary would find its own source tree's
export COREPLAN_CATALOG_DIR=$repo/fixtures/catalogs

# The size inputs of the capacity report (tests/e2e/report.sh's config).
write_configs() {
	cat >"$W/cap.conf" <<EOF
where = block=1,2,3,soak
target = 1000
sessions = 500
base-from = subcorpus=core
scaling-from = corpus=$GMP block=1,2,3 gomaxprocs=1,2,4
memory-from = corpus=$CAP target=medium cfg=pg block=1,2,3
series = e2
EOF
	# a synthetic sweep with CPU figures (bench/gen_corpus.awk, deterministic): 80 runs
	mkdir -p "$W/gen"
	awk -v dir="$W/gen" -v blocks=2 -v reps=2 -v rows=240 -v set="clk_tck=100 nproc=8" \
		-f "$here/gen_corpus.awk" >/dev/null
	# one run with a trace longer than a median holds (STREAM_MEDIAN_HOLD rows): the
	# streamed paths (bench/gen_trace.awk, deterministic)
	if [ "${LONG_ROWS:-1100000}" -gt 0 ]; then
		mkdir -p "$W/long/runs/long"
		printf 'run\ttput\tsessions\nlong\t100\t400\n' >"$W/long/results.tsv"
		awk -v n="${LONG_ROWS:-1100000}" -f "$here/gen_trace.awk" >"$W/long/runs/long/sample.tsv"
		bench_manifest "$W/long.manifest" "clk_tck=100 nproc=8"
	fi
	printf 'name\tvalue\tunit\nips\t300\tinteractions/s\nrss\t90000\tkB\np95\t120\tms\nslope\t600\tkB/session\n' >"$W/apply.tsv"
}

# The commands, one a line, split as the shell splits words ($GMP, $CAP,
# $W, $O expanded). Lines starting with # are comments.
commands() {
	cat <<'EOF'
import -q $SKY/$CAP $SKY/$GMP $FIX/example
import -q $AFF --manifest $FIX/manifests/gomaxprocs-affinity.manifest
import -q $FIX/usl/specsdm91.tsv
import -q --name gobench-old $FIX/tools/gobench/old.txt
import -q --name gobench-new $FIX/tools/gobench/new.txt
import -q $FIX/tools/hyperfine/sleep_threads.json
import -q $FIX/tools/gbench/bm_sum.json
import -q $FIX/tools/wrk
import $FIX/bad/quoted.csv
import -q --name gen $W/gen
import -q --name long --manifest $W/long.manifest $W/long
cores --corpus long --format json
cores --corpus long --frac 0.5 --trim 3
trace long --corpus long --format tsv
trace long --corpus long --format csv
trace long --corpus long --format json
report --out $O/report-long --corpus long
import $FIX/example --manifest $FIX/bad/unknown-key.manifest
topology --from $AFF/lscpu.txt --host epyc
topology --show
topology --show --format json
corpora --format json
runs
runs --format json
runs --corpus $CAP --format tsv
runs --corpus $GMP --fields
runs --corpus $GMP --excluded --format tsv
runs --where nosuchfield=1
sweep --by gomaxprocs --corpus $GMP --where block=1,2,3
sweep --by gomaxprocs --corpus $GMP --where block=1,2,3 --format json
sweep --by gomaxprocs --corpus $GMP --where block=1,2,3 --format tsv
sweep --by gomaxprocs --corpus $GMP --where block=1,2,3 --base 2 --stop-below 0.5 --format tsv
sweep --by gomaxprocs --corpus $GMP --where block=1,2,3 --metric p50_ms --format json
sweep --by gomaxprocs --corpus example
sweep --by sessions --corpus $CAP --where block=1,2,3 --where target=small --where cfg=pg --format json
sweep --by sessions --corpus $CAP --where block=1,2,3 --metric err --pool target,cfg --format tsv
sweep --by sessions --corpus $CAP
noise --by gomaxprocs --corpus $GMP --where block=1,2,3
noise --by gomaxprocs --corpus $GMP --where block=1,2,3 --format json
noise --by gomaxprocs --corpus example --format tsv
noise --by sessions --corpus $CAP --where block=1,2,3 --group target,cfg --format json
compare --corpus $GMP --where block=1,2,3 --a gomaxprocs=2 --b gomaxprocs=4 --format json
compare --corpus $GMP --a gomaxprocs=1 --b gomaxprocs=8
compare --corpus $GMP --by gomaxprocs --a gogc=100 --b gogc=800 --format json
compare --corpus $GMP --pair-by gomaxprocs --a gogc=100 --b gogc=800 --format tsv
compare --corpus $CAP --by sessions --where cfg=pg --where block=1,2,3 --a target=small --b target=medium
compare --corpus $CAP --a subcorpus=core --b 'target=medium cfg=mem sessions=100 block=1,2,3' --format json
compare --corpus $GMP --a gomaxprocs=1 --b gomaxprocs=8 --view arms --format tsv
compare --a file=old.txt --b file=new.txt --by name --metric ns_per_op
compare --a file=old.txt --b file=new.txt --by name --metric ns_per_op --view benchstat
sweep --by gomaxprocs --corpus gobench-old --metric ns_per_op --pool name
cores
cores --format json
cores --format tsv
cores --corpus $CAP --frac 1.0 --trim 2 --format tsv
cores --corpus $GMP --tick-min 0.9
cores --corpus gen --format json
memory --by sessions --corpus gen --group gomaxprocs --metric rss_median_kb --format json
memory --by sessions --corpus gen --pool gomaxprocs --metric tput
report --out $O/report-gen --corpus gen --group sessions
memory --by sessions --group cfg --corpus $CAP --where target=medium --where block=1,2,3
memory --by sessions --group cfg --corpus $CAP --where target=medium --where block=1,2,3 --format json
memory --by sessions --group cfg --corpus $CAP --where target=medium --where block=1,2,3 --view slopes --format tsv
memory --by sessions --group cfg --corpus $CAP --where target=medium --where block=1,2,3 --view ratios --format tsv
memory --by sessions --group cfg --corpus $CAP --where target=medium --where block=1,2,3 --metric rss_median_kb --format json
memory --by sessions --corpus $CAP --metric rss_median_kb --pool subcorpus,target,cfg,block
memory --by sessions --corpus $CAP --where block=1,2,3 --group target,cfg --format json
memory --by sessions --corpus $CAP --where subcorpus=m1 --metric rss_mean_kb
memory --by sessions --corpus $CAP
fit --corpus $GMP --by gomaxprocs --where block=1,2,3
fit --corpus $GMP --by gomaxprocs --where block=1,2,3 --format json
fit --corpus $GMP --by gomaxprocs --where block=1,2,3 --all-levels --format tsv
fit --corpus $GMP --by gomaxprocs --where block=1,2,3 --model usl --format tsv
fit --corpus specsdm91 --by load --metric throughput --format json
smt --corpus gomaxprocs-affinity
smt --corpus gomaxprocs-affinity --format json
smt --corpus gomaxprocs-affinity --host epyc --format tsv
translate --from subcorpus=m1 --to subcorpus=core
translate --from subcorpus=m1 --to subcorpus=core --format json
translate --from subcorpus=m1 --to subcorpus=core --format tsv --view factors
translate --from subcorpus=m1 --to subcorpus=core --apply $W/apply.tsv --apply-medians
translate --from subcorpus=m1 --to subcorpus=core --apply-medians --check subcorpus=core --format json
translate --from subcorpus=m1
catalog --show --format tsv
catalog --families
size --target 1000 --sessions 500 --base-from subcorpus=core --scaling-from 'corpus=gomaxprocs-scaling-20260816 block=1,2,3 gomaxprocs=1,2,4' --smt-from corpus=gomaxprocs-affinity --memory-from 'corpus=gcp-x86-capacity-20260816 target=medium cfg=pg block=1,2,3' --measured-where block=1,2,3
size --target 1000 --sessions 500 --base-from subcorpus=core --scaling-from 'corpus=gomaxprocs-scaling-20260816 block=1,2,3 gomaxprocs=1,2,4' --smt-from corpus=gomaxprocs-affinity --memory-from 'corpus=gcp-x86-capacity-20260816 target=medium cfg=pg block=1,2,3' --measured-where block=1,2,3 --format json
size --target 1000 --sessions 500 --base-from subcorpus=core --scaling-from 'corpus=gomaxprocs-scaling-20260816 block=1,2,3 gomaxprocs=1,2,4' --memory-from 'corpus=gcp-x86-capacity-20260816 target=medium cfg=pg block=1,2,3' --format tsv --view inputs
size --target 1000 --sessions 500 --base-from subcorpus=core --scaling-from 'corpus=gomaxprocs-scaling-20260816 block=1,2,3 gomaxprocs=1,2,4' --memory-from 'corpus=gcp-x86-capacity-20260816 target=medium cfg=pg block=1,2,3' --format tsv --view measured
size --target 1000 --base-from subcorpus=m1 --per-doubling 1.8 --translate gce-e2=from:subcorpus=m1,to:subcorpus=core --format json
size --target 1000 --sessions 500 --base-rate 299 --base-cpu gce-e2 --per-doubling 1.78 --smt-factor 1.27 --mem-per-session 637 --mem-fixed 40000 --plot $O/size/size.svg
size --list-families --format tsv
plot scaling --by gomaxprocs --corpus $GMP --where block=1,2,3 --out $O/plot/scaling.svg
plot scaling --by gomaxprocs --corpus $GMP --where block=1,2,3 --out $O/plot/scaling.png
plot blocks --by gomaxprocs --corpus $GMP --where block=1,2,3 --out $O/plot/blocks.svg --format json
plot trace --corpus example --tag g4-n100-b2 --out $O/plot/trace.svg
plot memory --by sessions --group cfg --corpus $CAP --where target=medium --where block=1,2,3 --out $O/plot/memory.svg
plot scaling --by gomaxprocs --corpus example --out $O/plot/example.svg --host epyc
report --out $O/report-gmp --corpus $GMP --where block=1,2,3
report --out $O/report-gmp-html --corpus $GMP --where block=1,2,3 --html
report --out $O/report-gmp-png --corpus $GMP --where block=1,2,3 --png
report --out $O/report-cap --corpus $CAP --config $W/cap.conf --html
report --out $O/report-example --corpus example --format json
report --out $O/report-gobench --corpus gobench-old
report --out $O/report-usl --corpus specsdm91
report --out $O/report-gmp --corpus $GMP --where block=1,2,3
EOF
}

# run_side BINARY NAME: the imports and commands into $T/NAME
run_side() {
	local bin=$1 name=$2 side=$T/$2 i=0 line
	rm -rf "$W"
	mkdir -p "$W" "$O/size" "$O/plot" "$side"
	write_configs
	while IFS= read -r line; do
		[ -z "$line" ] || [ "${line:0:1}" = "#" ] && continue
		i=$((i + 1))
		eval "set -- $line"
		printf '%s\n' "$line" >"$side/$(printf %03d $i).cmd"
		(cd "$W" && "$bin" --db "$DB" "$@" >"$side/$(printf %03d $i).out" 2>"$side/$(printf %03d $i).err")
		echo $? >"$side/$(printf %03d $i).rc"
	done < <(commands)
	# every run's trace, in each format
	"$bin" --db "$DB" runs --format tsv --include-excluded 2>/dev/null |
		awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "tag") c = i; if ($i == "corpus") k = i }; next }
			{ print $k "\t" $c }' | sort -u >"$side/tags"
	while IFS=$'\t' read -r corpus tag; do
		for f in md tsv json; do
			i=$((i + 1))
			printf 'trace %s --corpus %s --format %s\n' "$tag" "$corpus" "$f" >"$side/$(printf %03d $i).cmd"
			(cd "$W" && "$bin" --db "$DB" trace "$tag" --corpus "$corpus" --format "$f" \
				>"$side/$(printf %03d $i).out" 2>"$side/$(printf %03d $i).err")
			echo $? >"$side/$(printf %03d $i).rc"
		done
	done <"$side/tags"
	mv "$O" "$side/files"
	# the import time is the one thing two imports cannot share
	local today
	today=$(date -u +%Y-%m-%d)
	grep -rlE "${today}T[0-9:]{8}Z" "$side" 2>/dev/null | while IFS= read -r f; do
		sed -i -E "s/${today}T[0-9:]{8}Z/IMPORT-TIME/g" "$f"
	done
	echo "$name: $i commands, $(find "$side/files" -type f | wc -l) files written"
}

echo "before: $before"
echo "after:  $after"
run_side "$before" before
run_side "$after" after

if diff -rq "$T/before" "$T/after" >"$T/diffs"; then
	echo "identical: every output, exit status and file of $(ls "$T/before"/*.cmd | wc -l) commands"
	exit 0
fi
echo "DIFFERENT:"
while IFS= read -r l; do
	f=$(sed -E 's/^Files ([^ ]+) and .*/\1/; s/^Only in ([^:]+): (.*)/\1\/\2/' <<<"$l")
	n=$(basename "$f" | grep -oE '^[0-9]{3}')
	if [ -n "$n" ] && [ -f "$T/before/$n.cmd" ]; then
		echo "  $n: $(cat "$T/before/$n.cmd") ($(basename "$f"))"
	else
		echo "  $l"
	fi
done <"$T/diffs"
diff -r "$T/before" "$T/after" | head -n 40
exit 1
