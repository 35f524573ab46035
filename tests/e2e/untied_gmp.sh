# untied_gmp.sh: sourced by the end-to-end scripts (lib.sh sources it).

# untied_gmp_manifest FILE: write FILE, the built-in sky-gomaxprocs profile
# WITHOUT its `instance=e2-standard-8` (its CPU family and model kept), for checks of that corpus
# untied (`import --manifest FILE`: levels assumed physical, no host). The
# binary cannot print a built-in profile: this is a copy of gomaxprocs_text in
# importers/profiles.c (keep the two in step); each script checks the untied
# import reads the corpus as the profile does (29 runs) and ties none.
untied_gmp_manifest() {
	cat >"$1" <<'MANIFEST'
# Sky GOMAXPROCS scaling sweep (FORMATS.md, corpus 1), untied: no instance
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
set = cpu_family=gce-e2 cpu_model=amd-epyc-7b12
MANIFEST
}
