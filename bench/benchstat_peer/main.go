// benchstat_peer: a test-only peer of Go's benchstat (golang.org/x/perf/cmd/benchstat),
// written from its documented rules with the standard library only, because
// benchstat itself cannot be installed offline (it is a Go module fetched from
// the network; Debian ships no package). It prints benchstat's default text
// output for FILE... (tables by configuration and unit, rows by full name,
// columns by file; median with its order-statistic 95% interval; two-sided
// Mann-Whitney U, exact given ties for small samples; geomean rows;
// footnotes), so coreplan's view can be checked against an independent
// program on real `go test -bench` output (tests/e2e/tools_benchstat.sh) and
// timed against it (bench/tools_bench.sh). Its output on benchstat's own
// testdata matches benchstat's goldens (the same script checks that).
//
//	go run bench/benchstat_peer/main.go old.txt new.txt
package main

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

type cell struct{ v []float64 }

type table struct {
	cfg   string // "k=v\x00..." over the configuration keys
	unit  string
	order [2]int
	cells map[[2]int]*cell // (row, col)
}

var (
	rowNames  []string
	rowIndex  = map[string]int{}
	keyOrder  []string
	keyIndex  = map[string]int{}
	valueRank = map[string]map[string]int{}
	unitRank  = map[string]int{}
	tables    = map[string]*table{}
	tableList []*table
	cfgValues = map[string]map[string]string{}
)

func tidy(unit string) (string, float64) {
	switch unit {
	case "ns/op":
		return "sec/op", 1e-9
	case "MB/s":
		return "B/s", 1e6
	}
	parts := strings.SplitN(unit, "/", 2)
	f := 1.0
	num := parts[0]
	fields := strings.FieldsFunc(num, func(r rune) bool { return r == '*' || r == '-' || r == ' ' })
	for _, t := range fields {
		if t == "ns" {
			f /= 1e9
			num = strings.Replace(num, "ns", "sec", 1)
		} else if t == "MB" {
			f *= 1e6
			num = strings.Replace(num, "MB", "B", 1)
		}
	}
	if len(parts) == 2 {
		return num + "/" + parts[1], f
	}
	return num, f
}

func binary(unit string) bool {
	num := strings.SplitN(unit, "/", 2)[0]
	for _, t := range strings.FieldsFunc(num, func(r rune) bool { return r == '*' || r == '-' || r == ' ' }) {
		if t == "B" || t == "MB" || t == "bytes" {
			return true
		}
	}
	return false
}

func rank(m map[string]int, k string) int {
	if r, ok := m[k]; ok {
		return r
	}
	m[k] = len(m)
	return m[k]
}

func read(path string, col int) {
	f, err := os.Open(path)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	defer f.Close()
	config := map[string]string{}
	var keys []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		line := strings.TrimRight(sc.Text(), "\r")
		if i := strings.Index(line, ":"); i > 0 && line[0] >= 'a' && line[0] <= 'z' &&
			!strings.ContainsAny(line[:i], " \tABCDEFGHIJKLMNOPQRSTUVWXYZ") &&
			(i+1 == len(line) || line[i+1] == ' ' || line[i+1] == '\t') {
			k, v := line[:i], strings.TrimSpace(line[i+1:])
			if _, ok := config[k]; !ok {
				keys = append(keys, k)
			}
			config[k] = v
			continue
		}
		if !strings.HasPrefix(line, "Benchmark") {
			continue
		}
		w := strings.Fields(line)
		if len(w) < 4 || len(w)%2 != 0 {
			continue
		}
		if _, err := strconv.ParseUint(w[1], 10, 64); err != nil {
			continue
		}
		name := strings.TrimPrefix(w[0], "Benchmark")
		var b strings.Builder
		for _, k := range keys {
			if config[k] == "" {
				continue
			}
			if _, ok := keyIndex[k]; !ok {
				keyIndex[k] = len(keyOrder)
				keyOrder = append(keyOrder, k)
				valueRank[k] = map[string]int{}
			}
			rank(valueRank[k], config[k])
			fmt.Fprintf(&b, "%s=%s\x00", k, config[k])
		}
		cfg := b.String()
		if _, ok := cfgValues[cfg]; !ok {
			m := map[string]string{}
			for k, v := range config {
				if v != "" {
					m[k] = v
				}
			}
			cfgValues[cfg] = m
		}
		r := rank(rowIndex, name)
		if r == len(rowNames) {
			rowNames = append(rowNames, name)
		}
		for i := 2; i+1 < len(w); i += 2 {
			v, err := strconv.ParseFloat(w[i], 64)
			if err != nil {
				continue
			}
			unit := w[i+1]
			rank(unitRank, unit)
			key := cfg + "\x01" + unit
			t := tables[key]
			if t == nil {
				t = &table{cfg: cfg, unit: unit, cells: map[[2]int]*cell{}}
				tables[key] = t
				tableList = append(tableList, t)
			}
			c := t.cells[[2]int{r, col}]
			if c == nil {
				c = &cell{}
				t.cells[[2]int{r, col}] = c
			}
			_, fac := tidy(unit)
			c.v = append(c.v, v*fac)
		}
	}
}

// ---- statistics ----

func median(x []float64) float64 { return (x[(len(x)-1)/2] + x[len(x)/2]) / 2 }

func binomPMF(k, n int) float64 {
	if k < 0 || k > n {
		return 0
	}
	lg := func(x int) float64 { v, _ := math.Lgamma(float64(x + 1)); return v }
	return math.Exp(lg(n) - lg(k) - lg(n-k) - float64(n)*math.Ln2)
}

func normCDF(x, mu, sigma float64) float64 { return 0.5 * math.Erfc(-(x-mu)/(sigma*math.Sqrt2)) }

// The interval of the median, from order statistics: [lo, hi] as 1-based orders.
func medianOrders(n int, conf float64) (int, int) {
	if n <= 30 {
		x := int(math.Ceil(float64(n+1)*0.5)) - 1
		acc, l, r := binomPMF(x, n), x, x+1
		lp, rp := binomPMF(l-1, n), binomPMF(r, n)
		for acc < conf && (lp > 0 || rp > 0) {
			if lp >= rp {
				acc += lp
				l--
				lp = binomPMF(l-1, n)
			} else {
				acc += rp
				r++
				rp = binomPMF(r, n)
			}
		}
		return l, r
	}
	mu, sigma := float64(n)*0.5, math.Sqrt(float64(n)*0.25)
	// the normal quantile by bisection on the CDF
	q := (1 - conf) / 2
	lo, hi := -10.0, 10.0
	for i := 0; i < 200; i++ {
		m := (lo + hi) / 2
		if normCDF(m, 0, 1) < q {
			lo = m
		} else {
			hi = m
		}
	}
	l1 := mu + sigma*lo
	r1 := 2*mu - l1
	l := int(math.Floor(math.Floor(l1-0.5)+0.5)) + 1
	r := int(math.Floor(math.Ceil(r1-0.5)+0.5)) + 1
	cov := normCDF(float64(r)-0.5, mu, sigma) - normCDF(float64(l)-0.5, mu, sigma)
	if b := normCDF(float64(r-1)-0.5, mu, sigma) - normCDF(float64(l)-0.5, mu, sigma); b >= conf && b < cov {
		r--
	}
	return l, r
}

type summary struct{ center, lo, hi float64 }

func summarize(x []float64) summary {
	n := len(x)
	l, r := medianOrders(n, 0.95)
	s := summary{median(x), math.Inf(-1), math.Inf(1)}
	if l >= 1 {
		s.lo = x[l-1]
	}
	if r <= n {
		s.hi = x[r-1]
	}
	return s
}

func sign(x float64) int {
	if x > 0 {
		return 1
	} else if x < 0 {
		return -1
	}
	return 0
}

func pctRange(s summary) string {
	if math.IsInf(s.lo, 0) || math.IsInf(s.hi, 0) {
		return "∞"
	}
	if sign(s.center) != sign(s.lo) || sign(s.center) != sign(s.hi) {
		return "?"
	}
	if s.center == 0 {
		return "0%"
	}
	return fmt.Sprintf("%.0f%%", 100*math.Max(s.hi/s.center-1, 1-s.lo/s.center))
}

// The two-sided U test: p, and whether all values were equal.
func utest(a, b []float64) (float64, bool) {
	type tv struct {
		v   float64
		arm int
	}
	all := make([]tv, 0, len(a)+len(b))
	for _, v := range a {
		all = append(all, tv{v, 0})
	}
	for _, v := range b {
		all = append(all, tv{v, 1})
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].v < all[j].v })
	n, na, nb := len(all), len(a), len(b)
	rank2 := make([]int, n) // doubled mid-ranks
	r2a, groups, ties, tieSum := 0, 0, false, 0.0
	for i := 0; i < n; {
		j := i + 1
		for j < n && all[j].v == all[i].v {
			j++
		}
		for k := i; k < j; k++ {
			rank2[k] = i + 1 + j
			if all[k].arm == 0 {
				r2a += rank2[k]
			}
		}
		if t := float64(j - i); j-i > 1 {
			ties = true
			tieSum += t*t*t - t
		}
		groups++
		i = j
	}
	if groups == 1 {
		return 1, true
	}
	u2a := r2a - na*(na+1)
	u2b := 2*na*nb - u2a
	exact := na <= 50 && nb <= 50
	if ties {
		exact = na <= 25 && nb <= 25
	}
	if exact {
		if u2a == u2b {
			return 1, false
		}
		umin := u2a
		if u2b < umin {
			umin = u2b
		}
		// count the subsets of na doubled ranks by their sum
		total := 0
		for _, r := range rank2 {
			total += r
		}
		cnt := make([][]float64, na+1)
		for k := range cnt {
			cnt[k] = make([]float64, total+1)
		}
		cnt[0][0] = 1
		for i, r := range rank2 {
			top := i + 1
			if top > na {
				top = na
			}
			for k := top; k >= 1; k-- {
				for s := total; s >= r; s-- {
					cnt[k][s] += cnt[k-1][s-r]
				}
			}
		}
		var le, sum float64
		for s, c := range cnt[na] {
			sum += c
			if c > 0 && s-na*(na+1) <= umin {
				le += c
			}
		}
		return math.Min(1, 2*le/sum), false
	}
	dn := float64(n)
	mu := float64(na) * float64(nb) / 2
	sigma := math.Sqrt(float64(na) * float64(nb) * ((dn + 1) - tieSum/(dn*(dn-1))) / 12)
	num := float64(u2a)/2 - mu
	num -= float64(sign(num)) * 0.5
	z := num / sigma
	return 2 * math.Min(normCDF(z, 0, 1), 1-normCDF(z, 0, 1)), false
}

func geomean(x []float64) float64 {
	m := 0.0
	for i, v := range x {
		if v <= 0 {
			return math.NaN()
		}
		m += (math.Log(v) - m) / float64(i+1)
	}
	if len(x) == 0 {
		return math.NaN()
	}
	return math.Exp(m)
}

// ---- numbers: benchunit's scale ----

type scaler struct {
	prec   int
	factor float64
	prefix string
}

func th(s string, exp int) float64 {
	v, _ := strconv.ParseFloat(fmt.Sprintf("%se%d", s, exp), 64)
	return v
}

func commonScale(vals []float64, bin bool) scaler {
	min := 0.0
	for _, v := range vals {
		v = math.Abs(v)
		if v != 0 && (min == 0 || v < min) {
			min = v
		}
	}
	if min == 0 {
		return scaler{3, 1, ""}
	}
	var last scaler
	if !bin {
		for i, p := range []string{"T", "G", "M", "k", "", "m", "µ", "n"} {
			exp := 12 - 3*i
			f := math.Pow(10, float64(exp))
			switch {
			case min >= th("99.995", exp):
				return scaler{1, f, p}
			case min >= th("9.9995", exp):
				return scaler{2, f, p}
			case min >= th(".99995", exp):
				return scaler{3, f, p}
			}
			last = scaler{0, f, p}
		}
	} else {
		for i, p := range []string{"Ti", "Gi", "Mi", "Ki", ""} {
			f := math.Pow(2, float64(40-10*i))
			switch {
			case min >= 99.995*f:
				return scaler{1, f, p}
			case min >= 9.9995*f:
				return scaler{2, f, p}
			case min >= .99995*f:
				return scaler{3, f, p}
			}
			last = scaler{0, f, p}
		}
	}
	v := min / last.factor
	for i, exp := 0, -1; exp > -9; i, exp = i+1, exp-1 {
		if v >= th("9.9995", exp) || exp == -8 {
			return scaler{i + 3, last.factor, last.prefix}
		}
	}
	return last
}

func (s scaler) format(v float64) string {
	return strconv.FormatFloat(v/s.factor, 'f', s.prec, 64) + s.prefix
}

// ---- layout: a grid of cells, each column as wide as its widest cell ----

type tcell struct {
	row, col, span int
	val, margin    string
	align          int // 0 left, 1 center, 2 right
}

type grid struct {
	cells    []tcell
	row, col int
	ncols    int
	shrink   map[int]bool
	nonempty bool
}

func (g *grid) newRow() {
	if len(g.cells) > 0 {
		g.row++
	}
	g.col = 0
}

func (g *grid) put(span int, val string, align int, margin *string) {
	m := " "
	if g.col == 0 || val == "" {
		m = ""
	}
	if margin != nil {
		m = *margin
	}
	g.cells = append(g.cells, tcell{g.row, g.col, span, val, m, align})
	g.col += span
	if g.col > g.ncols {
		g.ncols = g.col
	}
}

func rc(s string) int { return utf8.RuneCountInString(s) }

func (g *grid) render(w *strings.Builder) {
	lm := make([]int, g.ncols+1)
	ws := make([]int, g.ncols+1)
	for _, c := range g.cells {
		if rc(c.margin) > lm[c.col] {
			lm[c.col] = rc(c.margin)
		}
	}
	maxSpan := 0
	for _, c := range g.cells {
		if c.span > maxSpan {
			maxSpan = c.span
		}
	}
	for span := 1; span <= maxSpan; span++ {
		for _, c := range g.cells {
			if c.span != span {
				continue
			}
			need := rc(c.val) + lm[c.col]
			if span == 1 {
				if need > ws[c.col] {
					ws[c.col] = need
				}
				continue
			}
			have := 0
			for k := c.col; k < c.col+span; k++ {
				have += ws[k]
			}
			if have >= need {
				continue
			}
			var grow []int
			for k := c.col; k < c.col+span; k++ {
				if g.shrink[k] {
					need -= ws[k]
				} else {
					grow = append(grow, k)
				}
			}
			sort.SliceStable(grow, func(i, j int) bool { return ws[grow[i]] > ws[grow[j]] })
			left := len(grow)
			for _, k := range grow {
				avg := (need + left - 1) / left
				if ws[k] < avg {
					ws[k] = avg
				}
				need -= ws[k]
				left--
			}
		}
	}
	offs := make([]int, g.ncols+2)
	for i := 0; i < g.ncols; i++ {
		offs[i+1] = offs[i] + ws[i]
	}
	row, off := 0, 0
	for _, c := range g.cells {
		if strings.TrimSpace(c.val) == "" && strings.TrimSpace(c.margin) == "" {
			continue
		}
		for c.row > row {
			w.WriteString("\n")
			row++
			off = 0
		}
		w.WriteString(strings.Repeat(" ", offs[c.col]-off+lm[c.col]-rc(c.margin)) + c.margin)
		off = offs[c.col] + lm[c.col]
		tw := offs[c.col+c.span] - offs[c.col] - lm[c.col]
		s := c.val
		if c.align == 2 && rc(s) < tw {
			s = strings.Repeat(" ", tw-rc(s)) + s
		} else if c.align == 1 && rc(s) < tw {
			s = strings.Repeat(" ", (tw-rc(s))/2) + s
		}
		w.WriteString(s)
		off += rc(s)
	}
	if len(g.cells) > 0 {
		w.WriteString("\n")
	}
}

var sup = []string{"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"}

func superscript(i int) string {
	s := ""
	for _, d := range strconv.Itoa(i) {
		s += sup[d-'0']
	}
	return s
}

func startCol(exp int) int {
	if exp == 0 {
		return 1
	}
	return 1 + 3 + (exp-1)*6
}

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: benchstat_peer OLD NEW")
		os.Exit(2)
	}
	labels := []string{filepath.Base(os.Args[1]), filepath.Base(os.Args[2])}
	read(os.Args[1], 0)
	read(os.Args[2], 1)
	for _, t := range tableList {
		t.order = [2]int{0, unitRank[t.unit]}
	}
	sort.SliceStable(tableList, func(i, j int) bool {
		a, b := tableList[i], tableList[j]
		for _, k := range keyOrder {
			ra, rb := valueRank[k][cfgValues[a.cfg][k]], valueRank[k][cfgValues[b.cfg][k]]
			if ra != rb {
				return ra < rb
			}
		}
		return unitRank[a.unit] < unitRank[b.unit]
	})
	var out strings.Builder
	var prev map[string]string
	for ti, t := range tableList {
		if ti > 0 {
			out.WriteString("\n")
		}
		cur := cfgValues[t.cfg]
		for _, k := range keyOrder {
			if v, ok := cur[k]; ok && (prev == nil || prev[k] != v) {
				fmt.Fprintf(&out, "%s: %s\n", k, v)
			}
		}
		prev = cur
		tidied, _ := tidy(t.unit)
		bin := binary(t.unit)
		var notes []string
		note := func(msgs []string) string {
			var marks []string
			for _, m := range msgs {
				i := -1
				for k, n := range notes {
					if n == m {
						i = k
					}
				}
				if i < 0 {
					notes = append(notes, m)
					i = len(notes) - 1
				}
				marks = append(marks, superscript(i+1))
			}
			return strings.Join(marks, " ")
		}
		g := &grid{shrink: map[int]bool{}}
		bar, bar2, two := " │ ", " │", "  "
		redge := startCol(3)
		g.newRow()
		for e := 0; e < 2; e++ {
			g.col = startCol(e)
			g.put(startCol(e+1)-startCol(e), labels[e], 1, &bar)
		}
		g.col = redge
		g.put(1, "", 0, &bar2)
		g.newRow()
		for e := 0; e < 2; e++ {
			l := startCol(e)
			g.col = l
			g.put(3, tidied, 1, &bar)
			if e > 0 {
				g.put(3, "vs base", 0, &two)
			}
			for j := l + 1; j < g.col; j++ {
				g.shrink[j] = true
			}
		}
		g.col = redge
		g.put(1, "", 0, &bar2)
		var rows []int
		for k := range t.cells {
			if !contains(rows, k[0]) {
				rows = append(rows, k[0])
			}
		}
		sort.Ints(rows)
		var cs [2][]float64
		var ratios []float64
		nbase := 0
		badRatio := false
		for _, r := range rows {
			var s [2]summary
			var have [2]bool
			var centers []float64
			for c := 0; c < 2; c++ {
				if ce := t.cells[[2]int{r, c}]; ce != nil {
					sort.Float64s(ce.v)
					s[c], have[c] = summarize(ce.v), true
					centers = append(centers, s[c].center)
				}
			}
			if have[0] {
				nbase++
			}
			sc := commonScale(centers, bin)
			g.newRow()
			g.put(1, rowNames[r], 0, nil)
			for c := 0; c < 2; c++ {
				if !have[c] {
					continue
				}
				ce := t.cells[[2]int{r, c}]
				cs[c] = append(cs[c], s[c].center)
				g.col = startCol(c)
				g.put(1, sc.format(s[c].center), 2, nil)
				pm := " ± "
				g.put(1, pctRange(s[c]), 2, &pm)
				var msgs []string
				if math.IsInf(s[c].lo, 0) || math.IsInf(s[c].hi, 0) {
					msgs = append(msgs, "need >= 6 samples for confidence interval at level 0.95")
				}
				g.put(1, note(msgs), 0, nil)
				if c == 1 && have[0] {
					a := t.cells[[2]int{r, 0}]
					p, equal := utest(a.v, ce.v)
					d := ""
					switch {
					case p > 0.05:
						d = "~"
					case s[0].center == s[1].center:
						d = "0.00%"
					case s[0].center == 0:
						d = "?"
					default:
						d = fmt.Sprintf("%+.2f%%", (s[1].center/s[0].center-1)*100)
					}
					g.put(1, d, 2, nil)
					ps := ""
					if p != 0 {
						ps = fmt.Sprintf("p=%0.3f ", p)
					}
					if len(a.v) == len(ce.v) {
						ps += fmt.Sprintf("n=%d", len(a.v))
					} else {
						ps += fmt.Sprintf("n=%d+%d", len(a.v), len(ce.v))
					}
					g.put(1, "("+ps+")", 0, nil)
					msgs = nil
					if equal {
						msgs = append(msgs, "all samples are equal")
					} else if p > 0.05 && len(a.v) < 4 && len(ce.v) < 4 {
						msgs = append(msgs, "need >= 4 samples to detect a difference at alpha level 0.05")
					}
					g.put(1, note(msgs), 0, nil)
					switch {
					case s[1].center == s[0].center:
						ratios = append(ratios, 1)
					case s[0].center == 0:
						badRatio = true
						ratios = append(ratios, 0)
					default:
						ratios = append(ratios, s[1].center/s[0].center)
					}
				}
			}
		}
		if len(rows) > 1 {
			g.newRow()
			g.put(1, "geomean", 0, nil)
			for c := 0; c < 2; c++ {
				gm := geomean(cs[c])
				var msgs []string
				if !math.IsNaN(gm) {
					g.col = startCol(c)
					g.put(1, commonScale([]float64{gm}, bin).format(gm), 2, nil)
				} else if len(cs[c]) > 0 {
					msgs = append(msgs, "summaries must be >0 to compute geomean")
				}
				if c > 0 {
					g.col = startCol(c) + 3
					if r := geomean(ratios); !badRatio && !math.IsNaN(r) {
						g.put(1, fmt.Sprintf("%+.2f%%", (r-1)*100), 2, nil)
					} else {
						g.put(1, "?", 2, nil)
					}
					if len(ratios) != nbase {
						msgs = append([]string{"benchmark set differs from baseline; geomeans may not be comparable"}, msgs...)
					}
				}
				g.col = startCol(c+1) - 1
				g.put(1, note(msgs), 0, nil)
			}
		}
		g.render(&out)
		for i, n := range notes {
			fmt.Fprintf(&out, "%s %s\n", superscript(i+1), n)
		}
	}
	os.Stdout.WriteString(out.String())
}

func contains(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}
