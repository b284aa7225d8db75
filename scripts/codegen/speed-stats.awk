# SPDX-License-Identifier: GPL-2.0-only
#
# speed-stats.awk - the statistics of make codegen SPEED=1: per benchmark,
# the samples of the reference's runs (GCC), the new compiler's (Clang)
# and the A/A control's (a second set of runs of the reference's kernel),
# compared as one JSON object a line.
#
# Usage: awk -f speed-stats.awk SAMPLES
# A line of SAMPLES is "BENCHMARK GROUP VALUE": GROUP ref, new or aa, VALUE
# a throughput (more is faster). Benchmarks come out in the order of their
# first line. Per benchmark:
#   ref, new, aa   {n, median} of each group (aa null when it has none)
#   ratio          median(new) / median(ref)
#   ci             its 95 % confidence interval by bootstrap, percentile
#                  method: B = 2000 resamples, each group resampled with
#                  replacement to its own size (first ref, then new), from
#                  the Park-Miller generator (x = 16807 x mod 2^31 - 1)
#                  seeded with 20261207 afresh for every interval, so that
#                  an interval depends on its samples alone; the bounds
#                  are the 50th smallest and the 50th largest of the 2000
#                  ratios
#   p, p_method    Mann-Whitney U, two-sided: "exact" (the distribution of
#                  U counted) without ties and with n_ref + n_new <= 40,
#                  else "normal" (the normal approximation with the tie
#                  correction and a continuity correction of 1/2)
#   aa_ratio, aa_ci  median(aa) / median(ref) and its interval, likewise
#   aa_spread      how far the A/A interval reaches from 1: the harness's
#                  noise, max(1 - lo, hi - 1)
#   verdict        "significant: new faster" or "significant: new slower"
#                  when ci excludes 1 and |ratio - 1| > aa_spread; "within
#                  A/A noise" when ci excludes 1 but the difference does
#                  not exceed the spread; "no A/A control" when ci excludes
#                  1 and there is no aa group; else "not significant"
# A malformed line, a group with fewer than 2 samples or a benchmark
# without ref or new is "FILE:LINE: WHY" (or "FILE: BENCHMARK: WHY") on
# stderr, exit 2 and nothing on stdout.

function bad(why) {
	printf "%s\n", why > "/dev/stderr"
	err = 1
	exit 2
}

# the next number of the generator, in 1 .. 2^31 - 2; 16807 x stays below
# 2^53, so every awk computes it exactly in a double
function rnd() {
	seed = (seed * 16807) % 2147483647
	return seed
}

# sort a[1..n] ascending (Shell sort with Ciura's gaps: mawk has no asort)
function sort(a, n,    g, gi, i, j, v, gaps, ng) {
	ng = split("701 301 132 57 23 10 4 1", gaps, " ")
	for (gi = 1; gi <= ng; gi++) {
		g = gaps[gi] + 0
		for (i = g + 1; i <= n; i++) {
			v = a[i]
			for (j = i; j > g && a[j - g] > v; j -= g)
				a[j] = a[j - g]
			a[j] = v
		}
	}
}

function median(a, n,    c, i) {
	for (i = 1; i <= n; i++)
		c[i] = a[i]
	sort(c, n)
	return n % 2 ? c[(n + 1) / 2] : (c[n / 2] + c[n / 2 + 1]) / 2
}

# copy group G of benchmark K into a[1..]; returns its size
function group(k, g, a,    i) {
	for (i = 1; i <= cnt[k, g]; i++)
		a[i] = val[k, g, i]
	return cnt[k, g]
}

# boot(K, G): the percentile interval of median(G) / median(ref) for
# benchmark K, into lo and hi
function boot(k, g,    b, i, nr, nn, r, n, rs, ns, ratios) {
	nr = group(k, "ref", r)
	nn = group(k, g, n)
	seed = SEED
	for (b = 1; b <= B; b++) {
		for (i = 1; i <= nr; i++)
			rs[i] = r[rnd() % nr + 1]
		for (i = 1; i <= nn; i++)
			ns[i] = n[rnd() % nn + 1]
		ratios[b] = median(ns, nn) / median(rs, nr)
	}
	sort(ratios, B)
	lo = ratios[TAIL]
	hi = ratios[B + 1 - TAIL]
}

# the standard normal distribution function (Zelen and Severo's
# polynomial, Abramowitz and Stegun 26.2.17: error below 7.5e-8)
function phi(x,    t, y) {
	t = 1 / (1 + 0.2316419 * (x < 0 ? -x : x))
	y = 1.781477937 + t * (-1.821255978 + t * 1.330274429)
	y = 0.319381530 + t * (-0.356563782 + t * y)
	y = 0.3989422804014327 * exp(-x * x / 2) * t * y
	return x < 0 ? y : 1 - y
}

# mann_whitney(K): the two-sided p of the U test of new against ref for
# benchmark K, into p and p_method
function mann_whitney(k,    nr, nn, r, n, all, grp, N, i, j, t, rank, R, U, ties, mu, sd, z,
		f, u, m, le, ge, tot) {
	nr = group(k, "ref", r)
	nn = group(k, "new", n)
	N = nr + nn
	for (i = 1; i <= nr; i++)
		all[i] = r[i]
	for (i = 1; i <= nn; i++)
		all[nr + i] = n[i]
	sort(all, N)
	# midranks: a value's rank is the mean of the ranks its ties take
	ties = 0
	for (i = 1; i <= N; i = j) {
		for (j = i; j <= N && all[j] == all[i]; j++)
			;
		t = j - i
		rank[all[i] ""] = (i + j - 1) / 2
		ties += t * t * t - t
	}
	R = 0
	for (i = 1; i <= nn; i++)
		R += rank[n[i] ""]
	U = R - nn * (nn + 1) / 2
	if (ties == 0 && N <= 40) {
		# f[m, u]: the arrangements of m new among the first i values
		# whose U is u, built value by value
		f[0, 0] = 1
		for (i = 1; i <= N; i++)
			for (m = (i < nn ? i : nn); m >= 1; m--)
				for (u = (m * (i - m)); u >= 0; u--)
					f[m, u] = (u - (i - m) >= 0 ? f[m - 1, u - (i - m)] : 0) + ((m, u) in f ? f[m, u] : 0)
		# the loop above adds i - m for each ref value below a new one
		le = ge = tot = 0
		for (u = 0; u <= nr * nn; u++) {
			t = ((nn, u) in f) ? f[nn, u] : 0
			tot += t
			if (u <= U)
				le += t
			if (u >= U)
				ge += t
		}
		p = 2 * (le < ge ? le : ge) / tot
		p_method = "exact"
	} else {
		mu = nr * nn / 2
		sd = sqrt(nr * nn / 12 * ((N + 1) - ties / (N * (N - 1))))
		z = U - mu
		z = z > 0.5 ? z - 0.5 : z < -0.5 ? z + 0.5 : 0
		p = sd > 0 ? 2 * (1 - phi((z < 0 ? -z : z) / sd)) : 1
		p_method = "normal"
	}
	if (p > 1)
		p = 1
}

function num(x) {
	return sprintf("%.6f", x)
}

# a median: an integer as one, a half as a decimal
function med(x) {
	return x == int(x) ? sprintf("%d", x) : sprintf("%.1f", x)
}

BEGIN {
	B = 2000
	TAIL = 50
	SEED = 20261207
}

/^[ \t]*(#|$)/ { next }

{
	if (NF != 3 || ($2 != "ref" && $2 != "new" && $2 != "aa") ||
	    $3 !~ /^[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?$/)
		bad(FILENAME ":" FNR ": not \"BENCHMARK ref|new|aa VALUE\": '" $0 "'")
	if (!($1 in seen)) {
		seen[$1] = 1
		order[++nb] = $1
	}
	val[$1, $2, ++cnt[$1, $2]] = $3 + 0
}

END {
	if (err)
		exit 2
	if (nb == 0)
		bad(FILENAME ": no samples")
	for (i = 1; i <= nb; i++) {
		k = order[i]
		if (cnt[k, "ref"] < 2 || cnt[k, "new"] < 2)
			bad(FILENAME ": " k ": fewer than 2 samples of ref or new")
		if (cnt[k, "aa"] == 1)
			bad(FILENAME ": " k ": 1 sample of aa")
	}
	for (i = 1; i <= nb; i++) {
		k = order[i]
		nr = group(k, "ref", r)
		nn = group(k, "new", n)
		mr = median(r, nr)
		mn = median(n, nn)
		if (mr <= 0)
			bad(FILENAME ": " k ": the median of ref is 0")
		ratio = mn / mr
		boot(k, "new")
		clo = lo
		chi = hi
		mann_whitney(k)
		out = sprintf("{\"benchmark\": \"%s\", \"ref\": {\"n\": %d, \"median\": %s}, \"new\": {\"n\": %d, \"median\": %s}, ",
			k, nr, med(mr), nn, med(mn))
		out = out sprintf("\"ratio\": %s, \"ci\": [%s, %s], \"p\": %s, \"p_method\": \"%s\", ",
			num(ratio), num(clo), num(chi), num(p), p_method)
		excl = clo > 1 || chi < 1
		if (cnt[k, "aa"] > 0) {
			na = group(k, "aa", a)
			ma = median(a, na)
			boot(k, "aa")
			spread = (1 - lo > hi - 1) ? 1 - lo : hi - 1
			if (spread < 0)
				spread = 0
			diff = ratio > 1 ? ratio - 1 : 1 - ratio
			out = out sprintf("\"aa\": {\"n\": %d, \"median\": %s}, \"aa_ratio\": %s, \"aa_ci\": [%s, %s], \"aa_spread\": %s, ",
				na, med(ma), num(ma / mr), num(lo), num(hi), num(spread))
			verdict = !excl ? "not significant" : \
				diff > spread ? (ratio > 1 ? "significant: new faster" : "significant: new slower") : \
				"within A/A noise"
		} else {
			out = out "\"aa\": null, \"aa_ratio\": null, \"aa_ci\": null, \"aa_spread\": null, "
			verdict = excl ? "no A/A control" : "not significant"
		}
		printf "%s\"verdict\": \"%s\"}\n", out, verdict
	}
}
