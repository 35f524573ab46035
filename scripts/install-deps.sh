#!/usr/bin/env bash
# Install what coreplan needs to build and test on Debian 12, as root.
# Runs apt-get only when something is missing, so it is cheap to repeat.
set -euo pipefail
packages=(gcc make cmake pkg-config libsqlite3-dev sqlite3 libgsl-dev libcsv-dev
  libcmocka-dev libssl-dev gnuplot-nox python3 time util-linux
  chromium chromium-driver fonts-dejavu-core groff-base man-db
  golang-go hyperfine libbenchmark-dev g++ wrk tmux)
# golang-go, hyperfine, libbenchmark-dev + g++, wrk: tests/e2e/tools_*.sh make
# real outputs of those tools (each script skips without its tool)
# chromium, chromium-driver: tests/e2e/browser.sh loads report.html in headless
# Chromium; fonts-dejavu-core: the page's font, so screenshots render alike;
# groff-base, man-db: tests/e2e/install.sh checks the man page (groff -ww -z, man -l)
# tmux: tests/e2e/terminal.sh runs every command in a pane 120 columns wide
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
