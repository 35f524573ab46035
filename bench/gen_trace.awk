# gen_trace.awk: print a synthetic 8-column 1 Hz trace shaped like the
# gomaxprocs corpus's runs/<tag>/sample.tsv (no header, TAB-separated):
#   epoch app_rss_kb mem_avail_kb conn cpu_total_j cpu_idle_j app_j threads
# Epochs never decrease (mostly +1 s, sometimes +2 s or a repeated second),
# cpu_total_j / cpu_idle_j / app_j are monotonic counters, the others wander
# within realistic bounds. Deterministic for a given seed.
#
#   awk -v n=2000000 [-v seed=1] -f bench/gen_trace.awk > trace.tsv
BEGIN {
	if (n == "")
		n = 2000000
	if (seed == "")
		seed = 1
	srand(seed)
	epoch = 1786868355; rss = 27680; avail = 32156956; conn = 0
	total = 620915; idle = 573140; app = 1; threads = 5
	for (i = 0; i < n; i++) {
		# %.0f, not print: mawk prints integers >= 2^31 as 2.14748e+09
		printf "%.0f\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\t%.0f\n", \
			epoch, rss, avail, conn, total, idle, app, threads
		r = rand()
		epoch += (r < 0.05) ? 0 : (r < 0.15 ? 2 : 1)
		rss += int(rand() * 2001) - 1000
		if (rss < 20000) rss = 20000
		if (rss > 400000) rss = 400000
		avail += int(rand() * 4001) - 2000
		if (avail < 1000000) avail = 1000000
		conn += int(rand() * 21) - 10
		if (conn < 0) conn = 0
		if (conn > 400) conn = 400
		busy = int(rand() * 700)
		total += 800 + int(rand() * 10)
		idle += 800 - busy
		app += int(busy * rand())
		threads += (rand() < 0.01) ? (rand() < 0.5 ? -1 : 1) : 0
		if (threads < 5) threads = 5
	}
}
