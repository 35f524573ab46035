# gen_corpus.awk: write a synthetic GOMAXPROCS x sessions sweep corpus for
# bench/analysis_bench.sh, all files from this one awk process:
#
#   DIR/coreplan.manifest   the corpus manifest (README.md, "Corpus layouts
#                           and manifests")
#   DIR/results.tsv         one row per run, in execution order: tag,
#                           gomaxprocs, sessions, block, rep, tput,
#                           established, valid, patch_rate, app_cores
#   DIR/samples/TAG.tsv     one headerless 8-column 1 Hz trace per run:
#                           epoch app_rss_kb mem_avail_kb conn cpu_total_j
#                           cpu_idle_j app_j threads
#
#   awk -v dir=DIR [-v blocks=50] [-v sessions="50 100 200 400"] [-v reps=10]
#       [-v rows=500] [-v seed=1] [-v set="clk_tck=100 nproc=8"] -f bench/gen_corpus.awk
#
# set: a manifest `set` line (the runs' clk_tck and nproc, so `cores` computes
# every run's CPU figures over its plateau; without it they are unknown).
#
# Runs = 5 levels (gomaxprocs 1 2 4 8 16) x blocks x sessions x reps
# (defaults: 5 x 50 x 4 x 10 = 10,000 runs; x 500 rows = 5,000,000 trace
# rows). Within a block the level order is rotated, so blocks are
# counterbalanced. tput follows an Amdahl-like curve in gomaxprocs times a
# sessions saturation factor, with ~2% Gaussian run noise and a small
# per-block offset. About 2% of the runs are excluded on import: valid = 0
# (0.5%), patch_rate below 0.9 (0.5%), fewer sessions established (1%).
# In every trace epoch rises by 1 s per row and cpu_total_j, cpu_idle_j and
# app_j never decrease; the other columns wander within realistic bounds.
# Deterministic for a given seed. The directory DIR must exist; samples/ is
# created here.
function gauss() {
	# Box-Muller; rand() is in [0, 1), so 1 - rand() is in (0, 1]
	return sqrt(-2 * log(1 - rand())) * cos(6.283185307179586 * rand())
}

BEGIN {
	if (dir == "") {
		print "gen_corpus.awk: -v dir=DIR is required" > "/dev/stderr"
		exit 2
	}
	if (blocks == "") blocks = 50
	if (sessions == "") sessions = "50 100 200 400"
	if (reps == "") reps = 10
	if (rows == "") rows = 500
	if (seed == "") seed = 1
	srand(seed)
	nlev = split("1 2 4 8 16", lev, " ")
	nses = split(sessions, ses, " ")
	if (system("mkdir -p '" dir "/samples'") != 0)
		exit 1

	man = dir "/coreplan.manifest"
	print "# synthetic corpus written by bench/gen_corpus.awk" > man
	print "layout = bench-analysis" > man
	print "" > man
	print "[table main]" > man
	print "file = results.tsv" > man
	print "tag = {tag}" > man
	print "trace = samples/{tag}.tsv" > man
	print "trace-columns = epoch app_rss_kb mem_avail_kb conn cpu_total_j cpu_idle_j app_j threads" > man
	print "require-trace = yes" > man
	if (set != "")
		print "set = " set > man
	close(man)

	res = dir "/results.tsv"
	OFS = "\t"
	print "tag", "gomaxprocs", "sessions", "block", "rep", "tput", "established", \
		"valid", "patch_rate", "app_cores" > res

	epoch = 1786868355
	total = 620915; idle = 573140; app = 1
	nruns = 0
	for (b = 1; b <= blocks; b++) {
		boff = 1 + 0.004 * gauss()          # the block's small common offset
		for (k = 0; k < nlev; k++) {
			g = lev[(b - 1 + k) % nlev + 1]  # rotated level order
			for (si = 1; si <= nses; si++) {
				s = ses[si]
				for (r = 1; r <= reps; r++) {
					tag = "g" g "-n" s "-b" b "-r" r
					# Amdahl (serial fraction 0.06) times session saturation
					ideal = 1450 * g / (1 + 0.06 * (g - 1))
					sat = s / (s + 12 * g)
					tput = ideal * sat * boff * (1 + 0.02 * gauss())
					if (tput < 1) tput = 1
					cores = tput * 620e-6 * (1 + 0.03 * gauss())
					if (cores > g) cores = g
					u = rand()
					valid = (u < 0.005) ? 0 : 1
					patch = (u >= 0.005 && u < 0.010) ? 0.80 + 0.05 * rand() \
						: 0.95 + 0.04 * rand()
					est = (u >= 0.010 && u < 0.020) ? s - 1 - int(rand() * 5) : s
					printf "%s\t%d\t%d\t%d\t%d\t%.2f\t%d\t%d\t%.4f\t%.3f\n", \
						tag, g, s, b, r, tput, est, valid, patch, cores > res

					# the run's trace: 500 rows at 1 Hz
					f = dir "/samples/" tag ".tsv"
					rss = 27000 + s * 90; avail = 32156956; conn = 0
					threads = 5 + g
					appj = int(cores * 100 + 0.5)       # jiffies per second (USER_HZ 100)
					for (i = 0; i < rows; i++) {
						printf "%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\n", \
							epoch, rss, avail, conn, total, idle, app, threads > f
						epoch++
						rss += int(rand() * 2001) - 1000
						if (rss < 20000) rss = 20000
						avail += int(rand() * 4001) - 2000
						if (conn < s) conn += int(s / 10) + 1
						if (conn > s) conn = s
						busy = appj + int(rand() * 20)
						total += 200
						idle += (busy < 200) ? 200 - busy : 0
						app += appj + int(rand() * 3)
						if (rand() < 0.01) threads += (rand() < 0.5 && threads > 5) ? -1 : 1
					}
					close(f)
					epoch += 60                         # pause between runs
					nruns++
				}
			}
		}
	}
	close(res)
	printf "%d runs, %d trace rows\n", nruns, nruns * rows
}
