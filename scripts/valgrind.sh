#!/usr/bin/env bash
# The end-to-end tests with every coreplan invocation under valgrind's
# memcheck: a wrapper stands in for the binary, so each command of each
# test runs as `valgrind --error-exitcode=99 --leak-check=full coreplan ...`.
# Slow (minutes); not part of CI. Needs: apt-get install valgrind.
#   bash scripts/valgrind.sh [test ...]   (default: e2e e2e_analysis e2e_cores)
set -euo pipefail
cd "$(dirname "$0")/.."
tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=(run analysis cores)
cmake -S . -B build-valgrind -DCMAKE_BUILD_TYPE=Debug >/dev/null
cmake --build build-valgrind -j"$(nproc)" >/dev/null
wrapper=$(mktemp -d)/coreplan
trap 'rm -rf "$(dirname "$wrapper")"' EXIT
cat >"$wrapper" <<WRAP
#!/usr/bin/env bash
exec valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
  "$PWD/build-valgrind/coreplan" "\$@"
WRAP
chmod +x "$wrapper"
status=0
for t in "${tests[@]}"; do
	echo "== tests/e2e/$t.sh under valgrind"
	COREPLAN_SKIP_LARGE=1 bash "tests/e2e/$t.sh" "$wrapper" "$PWD" "$PWD/../shared/corpora" || status=1
done
exit $status
