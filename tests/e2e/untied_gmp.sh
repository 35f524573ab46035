# untied_gmp.sh: sourced by the end-to-end scripts (lib.sh sources it).

# gmp_manifest FILE SET: write FILE, a copy of the built-in sky-gomaxprocs
# profile (gomaxprocs_text in importers/profiles.c: keep the two in step; the
# binary cannot print a built-in profile) with `set = SET` for its own set
# line (the profile's is `instance=e2-standard-8 cpu_family=... cpu_model=...`).
gmp_manifest() {
	cat >"$1" <<MANIFEST
# Sky GOMAXPROCS scaling sweep (FORMATS.md, corpus 1), set = $2
layout = sky-gomaxprocs

[table main]
file = results.tsv
tag = {tag}
tag-parse = g{gomaxprocs}-n{sessions}-b{block} | prof-g{gomaxprocs}-n{sessions}
run-dir = runs/{tag}
discover = runs/*/
generator = {run-dir}/load.json
idle = {run-dir}/idle.txt
trace = {run-dir}/sample.tsv
trace-columns = epoch app_rss_kb mem_avail_kb conn cpu_total_j cpu_idle_j app_j threads
window = {run-dir}/window.tsv
require-trace = yes
text = {run-dir}/goroutine.txt
set = $2
MANIFEST
}
# untied_gmp_manifest FILE: the profile WITHOUT its `instance=e2-standard-8`
# (its CPU family and model kept), for checks of that corpus untied (`import
# --manifest FILE`: levels assumed physical, no host); each script checks the
# untied import reads the corpus as the profile does (29 runs) and ties none.
untied_gmp_manifest() { gmp_manifest "$1" "cpu_family=gce-e2 cpu_model=amd-epyc-7b12"; }
