#!/usr/bin/env bash
# commands_current.sh COREPLAN DOCS: docs/commands.md is what `COREPLAN
# --commands-md` writes, and docs/commands/ holds exactly one page per
# command of its index, each what `COREPLAN --commands-md NAME` writes.
set -u
bin=$1 docs=$2 failed=0
"$bin" --commands-md | diff -u "$docs/commands.md" - || failed=1
names=$(sed -n 's/^| \[`\([a-z-]*\)`\](commands\/.*/\1/p' "$docs/commands.md")
for name in $names; do
	if [ ! -f "$docs/commands/$name.md" ]; then
		echo "no page docs/commands/$name.md"
		failed=1
	else
		"$bin" --commands-md "$name" | diff -u "$docs/commands/$name.md" - || failed=1
	fi
done
for page in "$docs"/commands/*.md; do
	name=$(basename "$page" .md)
	case " $(echo $names) " in
	*" $name "*) ;;
	*) echo "docs/commands/$name.md: no such command in the index" && failed=1 ;;
	esac
done
[ "$failed" -eq 0 ] && echo "docs/commands.md and its $(echo "$names" | wc -w) pages are current"
exit "$failed"
