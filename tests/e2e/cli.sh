#!/usr/bin/env bash
# End-to-end tests of the command line itself: `coreplan help`, did-you-mean
# for a misspelt command, option, choice, field and config key, the ranges
# the option tables state, and the generated shell completion.
#
#   bash tests/e2e/cli.sh COREPLAN_BINARY REPO_ROOT SHARED_CORPORA_DIR
#
# In a mktemp -d folder (removed on exit), on a database of fixtures/example:
#   help        `coreplan help` prints what `coreplan --help` prints and
#               `coreplan help CMD` what `coreplan CMD --help` prints, byte
#               for byte, for every command --help lists;
#   suggestions exact error messages (exit 2): a misspelt command (swep),
#               a misspelt one after help, a word close to none, a misspelt
#               option (--formt), choice (--format jsn), field
#               (--where gomaxproc=1) and report config key (tagret);
#   ranges      a value outside the spec's range is refused with the range
#               in words, and --help states it in symbols;
#   bash        the script `coreplan completion bash` writes, sourced into
#               bash with COMP_WORDS/COMP_CWORD set as bash sets them:
#               commands, options (every option the command's --help usage
#               line lists, and only those: the independent source),
#               choices, --opt=value, field names, FIELD=, comma lists,
#               files, folders, help's COMMAND and plot's KIND;
#   zsh         when zsh is installed: the script parses (zsh -n) and, in
#               an interactive zsh on a pseudo-terminal, TAB completes a
#               command, an option, a choice and FIELD=.
# Prints "ok - NAME" / "not ok - NAME: DETAILS" per check, then
# "N passed, M failed"; exits 1 if any check failed.

E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
. "$E2E_DIR/lib.sh"
e2e_start cli "$@"
e2e_timeout 120
DB=$T/example.db
cpl import -q "$ROOT/fixtures/example"
expect_rc "import fixtures/example" 0

# The commands `coreplan --help` lists (its "commands:" block).
"$BIN" --help >"$T/global.txt"
COMMANDS=$(awk '/^commands:/ { on = 1; next } on && /^$/ { exit } on { print $1 }' "$T/global.txt")
check_eq "--help lists the help and completion commands" "yes yes" \
	"$(grep -qx help <<<"$COMMANDS" && echo yes) $(grep -qx completion <<<"$COMMANDS" && echo yes)"

###########################################################################
# help
###########################################################################
cpl help
check_eq "help: exit 0, the text of --help" "0 yes" "$RC $(cmp -s "$T/.out" "$T/global.txt" && echo yes)" "$ERR"
bad=
for c in $COMMANDS; do
	"$BIN" help "$c" >"$T/help.txt" 2>&1 || bad+=" $c(exit $?)"
	"$BIN" "$c" --help >"$T/dash.txt" 2>&1
	cmp -s "$T/help.txt" "$T/dash.txt" || bad+=" $c"
done
check_eq "help CMD prints CMD --help for each of the $(wc -w <<<"$COMMANDS") commands" "" "$bad"
cpl help sweep
check_contains "help sweep: the usage line" "$OUT" "usage: coreplan sweep [--metric FIELD]"

###########################################################################
# did you mean
###########################################################################
# refused NAME WANT_FIRST_LINE ARGS...: exit 2 and exactly that first line on stderr
refused() {
	local name=$1 want=$2
	shift 2
	cpl "$@"
	check_eq "$name" "2|$want" "$RC|$(head -1 "$T/.err")" "$ERR"
}
refused "swep: suggests sweep" "coreplan: error: unknown command 'swep' (did you mean 'sweep'?)" swep --by gomaxprocs
refused "improt: suggests import" "coreplan: error: unknown command 'improt' (did you mean 'import'?)" improt x
refused "help swep: suggests sweep" "coreplan: error: unknown command 'swep' (did you mean 'sweep'?)" help swep
refused "frobnicate: no suggestion" "coreplan: error: unknown command 'frobnicate' (coreplan help lists the commands)" frobnicate
refused "--formt: suggests --format" "coreplan: error: unknown option '--formt' (did you mean '--format'?)" \
	sweep --by gomaxprocs --formt json
refused "--lower-is-beter: suggests --lower-is-better" \
	"coreplan: error: unknown option '--lower-is-beter' (did you mean '--lower-is-better'?)" \
	sweep --by gomaxprocs --lower-is-beter
refused "--zzz: no suggestion" "coreplan: error: unknown option '--zzz'" sweep --by gomaxprocs --zzz
refused "--dbb (global): suggests --db" "coreplan: error: unknown option '--dbb' (did you mean '--db'?)" --dbb x runs
refused "--format jsn: suggests json" \
	"coreplan: error: --format needs one of text, md, tsv, csv, json, html, got 'jsn' (did you mean 'json'?)" \
	runs --format jsn
refused "--model usl2: suggests usl" \
	"coreplan: error: --model needs one of usl, amdahl, power, all, got 'usl2' (did you mean 'usl'?)" \
	fit --by gomaxprocs --model usl2
cpl sweep --by gomaxprocs --where gomaxproc=1
check_eq "--where gomaxproc=1: suggests gomaxprocs" \
	"2|coreplan: error: no field 'gomaxproc' (did you mean 'gomaxprocs'?): not a canonical field and no imported run has a column of that name ('coreplan runs --help' lists the canonical fields)" \
	"$RC|$(head -1 "$T/.err")"
printf 'tagret = 1000\n' >"$T/typo.conf"
cpl report --config "$T/typo.conf" --out "$T/r"
check_eq "report config key tagret: suggests target" \
	"coreplan: error: $T/typo.conf:1:1: unknown key 'tagret' (did you mean 'target'?)" "$(head -1 "$T/.err")"

###########################################################################
# ranges: in words when refused, in symbols in --help
###########################################################################
refused "cores --frac 0: the range in words" \
	"coreplan: error: --frac needs a number above 0 and at most 1, got '0'" cores --frac 0
refused "cores --trim -1: an unsigned count" \
	"coreplan: error: --trim needs a whole number from 0 to 100000, got '-1'" cores --trim -1
refused "compare --resamples 5" \
	"coreplan: error: --resamples needs a whole number from 100 to 10000000, got '5'" \
	compare --a gomaxprocs=1 --b gomaxprocs=2 --resamples 5
refused "compare --lower-is-better --higher-is-better: one or the other" \
	"coreplan: error: give --lower-is-better or --higher-is-better, not both" \
	compare --a gomaxprocs=1 --b gomaxprocs=2 --higher-is-better --lower-is-better
cpl cores --help
OUT=$(printf '%s' "$OUT" | tr '\n' ' ' | tr -s ' ') # help wraps at 80 columns
check_contains "cores --help states --frac's range" "$OUT" "(default 0.8; 1.0 = only rows at the maximum) [0 < F <= 1]"
cpl sweep --help
OUT=$(printf '%s' "$OUT" | tr '\n' ' ' | tr -s ' ')
check_contains "sweep --help states --metric-kind's choices" "$OUT" "[rate|time|latency|memory|cpu|count|fraction|ratio]"

###########################################################################
# bash completion
###########################################################################
"$BIN" completion bash >"$T/coreplan.bash" 2>"$T/.err"
check_eq "completion bash: exit 0" "0" "$?" "$(cat "$T/.err")"
mkdir -p "$T/files/sub dir" && touch "$T/files/runs.tsv" "$T/files/readme"
# comp WORDS...: the completions bash offers for the command line WORDS
# (the last is the word at the cursor), one per line, sorted
comp() {
	bash --norc --noprofile -c '
		source "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); COMPREPLY=()
		_coreplan 2>/dev/null
		printf "%s\n" "${COMPREPLY[@]}"' bash "$T/coreplan.bash" "$@" | sort | paste -sd' '
}
check_eq "bash: coreplan sw" "sweep" "$(comp coreplan sw)"
check_eq "bash: coreplan s (all commands with s)" "size smt sweep" "$(comp coreplan s)"
check_eq "bash: after --db FILE" "sweep" "$(comp coreplan --db x.db sw)"
check_eq "bash: after --db=FILE" "sweep" "$(comp coreplan --db = x.db sw)"
check_eq "bash: global options" "--db --help --version" "$(comp coreplan --)"
check_eq "bash: sweep --fo" "--format" "$(comp coreplan sweep --fo)"
check_eq "bash: sweep --format j" "json" "$(comp coreplan sweep --format j)"
check_eq "bash: sweep --format=" "csv html json md text tsv" "$(comp coreplan sweep --format =)"
check_eq "bash: sweep --format=j" "json" "$(comp coreplan sweep --format = j)"
check_eq "bash: sweep --view (its views and facts)" "facts levels" "$(comp coreplan sweep --view '')"
check_eq "bash: sweep --by gomaxp" "gomaxprocs" "$(comp coreplan sweep --by gomaxp)"
check_eq "bash: sweep --where gomaxp gives FIELD=" "gomaxprocs=" "$(comp coreplan sweep --where gomaxp)"
check_eq "bash: noise --group target,cf (after the comma)" "target,cfg" "$(comp coreplan noise --group target,cf)"
check_eq "bash: sweep --frac (a number: nothing)" "" "$(comp coreplan sweep --frac '')"
check_eq "bash: help sw" "sweep" "$(comp coreplan help sw)"
check_eq "bash: completion (the shells)" "bash zsh" "$(comp coreplan completion '')"
check_eq "bash: plot (the kinds)" "blocks memory scaling trace" "$(comp coreplan plot '')"
check_eq "bash: import PATH (files and folders)" "$T/files/readme $T/files/runs.tsv $T/files/sub dir" \
	"$(comp coreplan import "$T/files/")"
check_eq "bash: report --out DIR (folders)" "$T/files/sub dir" "$(comp coreplan report --out "$T/files/")"
check_eq "bash: an unknown command completes nothing" "" "$(comp coreplan swep --)"
# every command's options, as its --help usage line lists them
bad=
for c in $COMMANDS; do
	want=$({ "$BIN" "$c" --help | sed '/^$/q' | grep -o '\[--[a-z-]*' | tr -d '['; echo --help; } | sort | paste -sd' ')
	got=$(comp coreplan "$c" --)
	[ "$want" == "$got" ] || bad+=$'\n'"$c: --help has '$want', completion '$got'"
done
check_eq "bash: each command completes exactly the options its --help lists" "" "$bad"
got=$(comp coreplan '')
check_eq "bash: the commands are those --help lists" "$(sort <<<"$COMMANDS" | paste -sd' ')" "$got"

###########################################################################
# zsh completion
###########################################################################
if command -v zsh >/dev/null; then
	mkdir -p "$T/zfunc"
	"$BIN" completion zsh >"$T/zfunc/_coreplan"
	zsh -n "$T/zfunc/_coreplan" 2>"$T/.err"
	check_eq "zsh: the script parses" "0" "$?" "$(cat "$T/.err")"
	# each case: a command line, TAB, then the line zsh made of it
	cat >"$T/zt.zsh" <<-'EOF'
		zmodload zsh/zpty || exit 3
		zpty -b z 'zsh -f -i'
		zpty -w z "PS1='> '; fpath=($1 \$fpath); autoload -U compinit; compinit -u -d $2/zcompdump; coreplan() { :; }"
		try() {
			local out= chunk i
			zpty -w -n z "$1"$'\t'
			sleep 0.5
			zpty -w -n z $'\x01echo LINE: \x05\n'
			for i in {1..50}; do
				while zpty -r -t z chunk; do out+=$chunk; done
				[[ $out == *$'\n'LINE:* ]] && break
				sleep 0.1
			done
			print -r -- "${${(f)out//$'\r'/}[(R)LINE:*]}"
		}
		try 'coreplan swe'
		try 'coreplan sweep --form'
		try 'coreplan sweep --format js'
		try 'coreplan noise --where gomaxp'
		zpty -d z
	EOF
	got=$("${TIMEOUT[@]}" zsh -f "$T/zt.zsh" "$T/zfunc" "$T" 2>&1)
	check_eq "zsh: TAB completes a command, an option, a choice and FIELD=" \
		"LINE: coreplan sweep|LINE: coreplan sweep --format|LINE: coreplan sweep --format json|LINE: coreplan noise --where gomaxprocs=" \
		"$(paste -sd'|' <<<"$got")"
else
	skip "zsh completion" "zsh is not installed"
fi

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
