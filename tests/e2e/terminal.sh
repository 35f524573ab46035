#!/usr/bin/env bash
# End-to-end test of what a person sees at a terminal: every golden case
# (tests/golden/cases: each command on the shipped fixtures and the real
# corpora) run in a tmux pane 120 columns wide, its standard output the
# pane's terminal and no --format given, so coreplan picks the terminal
# writer (text) itself.
#
#   bash tests/e2e/terminal.sh COREPLAN_BINARY REPO_ROOT SHARED_CORPORA_DIR
#
# Standard error goes to a file (its progress and warnings are one line
# each, which a terminal wraps). Per case, from the pane's whole history (tmux capture-pane -J joins the
# lines tmux wrapped, so a line that did not fit shows as one longer line):
# the exit status is 0; no line is wider than 120 characters (counted in
# characters by python3, as the terminal counts them for this text); it is
# the text format (a title underlined with '=', no Markdown table row, no
# Markdown escape such as &lt; or \*). The pane is checked to be 120 wide
# first. Skipped (one 'ok # skip' line) when tmux is not installed.

E2E_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$E2E_DIR/lib.sh"
e2e_start terminal "$@"
export LC_ALL=C.UTF-8
WIDTH=120

if ! command -v tmux >/dev/null || ! command -v python3 >/dev/null; then
	skip "terminal: every command at $WIDTH columns" "tmux or python3 is not installed"
	echo "$PASS passed, $FAIL failed"
	exit 0
fi
# shellcheck source=../golden/lib.sh
source "$ROOT/tests/golden/lib.sh"
if ! golden_setup "$T/db" >"$T/setup.out"; then
	not_ok "terminal: databases" "$(cat "$T/setup.out")"
	echo "$PASS passed, $FAIL failed"
	exit 1
fi

SOCK=coreplan-terminal-$$
printf 'set -g history-limit 200000\nset -g status off\n' >"$T/tmux.conf"
tm() { tmux -L "$SOCK" -f "$T/tmux.conf" "$@"; }
cleanup_tmux() { tm kill-server 2>/dev/null; }
trap 'cleanup_tmux; rm -rf "$T"' EXIT

# run_in_pane NAME DIR ARGS...: the command in a new session's pane; sets
# RC and writes what the pane shows (its whole history) to $T/NAME.screen.
# The shell then prints an end mark and waits: once the mark shows, tmux has
# drawn all the command wrote (a pane whose process is gone can lose the
# output tmux has not read yet).
run_in_pane() {
	local name=$1 dir=$2 i mark="--- end of $1 ---"
	shift 2
	rm -f "$T/$name.rc"
	{
		printf '%q ' cd "$dir"
		printf '&& '
		printf '%q ' "${TIMEOUT[@]}" "$BIN" --db g.db "$@"
		# stderr (progress, warnings: one line each, wrapped by the terminal) to a file
		printf '2>%q; echo $? >%q; echo %q; sleep 600\n' "$T/$name.err" "$T/$name.rc" "$mark"
	} >"$T/$name.cmd"
	tm new-session -d -s "$name" -x "$WIDTH" -y 50 "bash $(printf '%q' "$T/$name.cmd")"
	for i in $(seq 3100); do
		[ -s "$T/$name.rc" ] && break
		sleep 0.1
	done
	for i in $(seq 100); do
		tm capture-pane -p -J -S - -E - -t "$name" >"$T/$name.screen"
		grep -qxF -e "$mark" "$T/$name.screen" && break
		sleep 0.1
	done
	RC=$(cat "$T/$name.rc" 2>/dev/null || echo "none (still running)")
	grep -vxF -e "$mark" "$T/$name.screen" >"$T/$name.out"
	mv "$T/$name.out" "$T/$name.screen"
	tm kill-session -t "$name"
}

# the pane is as wide as asked (else the width checks say nothing)
tm new-session -d -s probe -x "$WIDTH" -y 50 "sleep 30"
check_eq "terminal: a tmux pane is $WIDTH columns wide" "$WIDTH" \
	"$(tm display-message -p -t probe '#{pane_width}')"
tm kill-session -t probe

mapfile -t NAMES < <(golden_case_names)
for name in "${NAMES[@]}"; do
	golden_case_args "$name"
	dir=$T/case-$name
	mkdir -p "$dir" && golden_links "$dir"
	[ "$CASE_DB" = new ] || cp "$T/db/$CASE_DB.db" "$dir/g.db"
	run_in_pane "$name" "$dir" "${CASE_ARGS[@]}"
	if [ "$RC" != 0 ]; then
		not_ok "$name: exit 0 in a tmux pane" "exit $RC"$'\n'"$(cat "$T/$name.err")"
		continue
	fi
	res=$(python3 "$E2E_PY_DIR/terminal_screen.py" "$T/$name.screen" "$WIDTH" 2>&1)
	if [ "$res" = ok ]; then
		ok "$name: $(wc -l <"$T/$name.screen") lines, none wider than $WIDTH columns, plain text"
	else
		not_ok "$name: every line fits $WIDTH columns, plain text" "$res"
	fi
done

# the commands that print text, not a document: help (as wide as the widest help)
for args in "help" "help sweep" "help size" "help report" "sweep --help" "import --help"; do
	name=help-${args// /-}
	mkdir -p "$T/$name"
	# shellcheck disable=SC2086 # the words of args
	run_in_pane "$name" "$T/$name" $args
	res=$(python3 "$E2E_PY_DIR/terminal_help.py" "$T/$name.screen" "$WIDTH" 2>&1)
	if [ "$RC" = 0 ] && [ "$res" = ok ]; then
		ok "coreplan $args: no line wider than $WIDTH columns"
	else
		not_ok "coreplan $args: exit 0, no line wider than $WIDTH columns" "exit $RC"$'\n'"$res"
	fi
done

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
