#!/usr/bin/env bash
# update-commands-md.sh [COREPLAN]: rewrite docs/commands.md (the index) and
# docs/commands/NAME.md (one page a command) from the option tables, with
# the built binary (default build/coreplan). ctest docs_commands_current
# fails when they differ from what the binary writes.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/coreplan}
"$bin" --commands-md >docs/commands.md
mkdir -p docs/commands
rm -f docs/commands/*.md # pages of commands that are gone go with them
for name in $(sed -n 's/^| \[`\([a-z-]*\)`\](commands\/.*/\1/p' docs/commands.md); do
	"$bin" --commands-md "$name" >"docs/commands/$name.md"
done
echo "docs/commands.md and $(ls docs/commands | wc -l) pages in docs/commands/"
