# lib.sh: the check helpers the end-to-end scripts share. Source it after
# setting PASS=0 and FAIL=0; each check prints "ok - NAME" or
# "not ok - NAME: details" (TAP-like) and counts itself.

ok() { echo "ok - $1"; PASS=$((PASS + 1)); }
not_ok() {
	local name=$1
	shift
	local details="$*"
	local first=${details%%$'\n'*}
	echo "not ok - $name: $first"
	if [ "$first" != "$details" ]; then
		printf '%s\n' "${details#*$'\n'}" | head -n 40 | sed 's/^/#     /'
	fi
	FAIL=$((FAIL + 1))
}
check_eq() { # NAME EXPECTED ACTUAL [CONTEXT]
	if [ "$2" == "$3" ]; then
		ok "$1"
	else
		not_ok "$1" "expected '$2', got '$3'${4:+$'\n'$4}"
	fi
}
check_contains() { # NAME TEXT PART
	if [[ "$2" == *"$3"* ]]; then
		ok "$1"
	else
		not_ok "$1" "'$3' not found in:"$'\n'"$2"
	fi
}
