/*
 * --compare's verdict on one match (compare_judge.h).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_judge.h"
#include "stats.h"
#include "stats_rank.h"
#include "xmalloc.h"

const char *const verdict_words[VERDICT_COUNT] = {
	[VERDICT_SAME] = "SAME", [VERDICT_FASTER] = "FASTER",
	[VERDICT_UNCERTAIN] = "UNCERTAIN", [VERDICT_SLOWER] = "SLOWER",
};

const char *const verdict_names[VERDICT_COUNT] = {
	[VERDICT_SAME] = "same", [VERDICT_FASTER] = "faster",
	[VERDICT_UNCERTAIN] = "uncertain", [VERDICT_SLOWER] = "slower",
};

const char *const doubt_names[DOUBT_COUNT] = {
	[DOUBT_NONE] = NULL, [DOUBT_NO_LAUNCHES] = "no_launches",
	[DOUBT_FEW_LAUNCHES] = "few_launches", [DOUBT_FEW_PROCESSES] = "few_processes",
	[DOUBT_CLOCK] = "clock", [DOUBT_OUTLIER] = "outlier", [DOUBT_NEW_MODE] = "new_mode",
	[DOUBT_SPREAD] = "spread",
};

/* The q-quantile of sorted v[0..n), linearly between order statistics. */
static double quantile(const double *v, size_t n, double q)
{
	double at = q * (double)(n - 1);
	size_t lo = (size_t)at;
	if (lo + 1 >= n)
		return v[n - 1];
	return v[lo] + (v[lo + 1] - v[lo]) * (at - (double)lo);
}

static double median_of(const double *v, size_t n)
{
	double *s = stats_sorted(v, n);
	double m = quantile(s, n, 0.5);
	free(s);
	return m;
}

/* One side's values: each process's median (or cycles), and its clocks. */
struct side {
	double *t, *cycles, *clock;
	size_t n;
	bool few, clocks;       /* a process of too few launches; every clock known */
};

static void side_of(const struct proc_fig *p, size_t n, struct side *s)
{
	s->t = xmalloc((n ? n : 1) * sizeof *s->t);
	s->cycles = xmalloc((n ? n : 1) * sizeof *s->cycles);
	s->clock = xmalloc((n ? n : 1) * sizeof *s->clock);
	s->n = 0;
	s->few = false;
	s->clocks = true;
	for (size_t i = 0; i < n; i++) {
		if (p[i].launches == 0 || !(p[i].median_s > 0))
			continue;
		s->few |= p[i].launches < COMPARE_MIN_LAUNCHES;
		s->clocks &= p[i].clock_mhz > 0;
		s->t[s->n] = p[i].median_s;
		s->clock[s->n] = p[i].clock_mhz;
		s->cycles[s->n] = p[i].median_s * p[i].clock_mhz;
		s->n++;
	}
}

static void side_free(struct side *s)
{
	free(s->t);
	free(s->cycles);
	free(s->clock);
}

static enum verdict decide(double p, double shift, double t)
{
	if (p < COMPARE_ALPHA && shift > 1 + t)
		return VERDICT_SLOWER;
	if (p < COMPARE_ALPHA && shift < 1 - t)
		return VERDICT_FASTER;
	return fabs(shift - 1) <= t ? VERDICT_SAME : VERDICT_UNCERTAIN;
}

/* An UNCERTAIN shift beyond t, explained by where the new processes lie. */
static enum doubt placed(const struct side *b, const struct side *c, struct judgement *j)
{
	double lo = b->t[0], hi = b->t[0];
	for (size_t i = 1; i < b->n; i++) {
		lo = fmin(lo, b->t[i]);
		hi = fmax(hi, b->t[i]);
	}
	size_t k = 0;
	for (size_t i = 0; i < c->n; i++)
		if (j->shift > 1 ? c->t[i] > hi : c->t[i] < lo) {
			if (k++ == 0)
				j->outlier = i;
		}
	return k == 0 ? DOUBT_SPREAD : k == 1 ? DOUBT_OUTLIER : DOUBT_NEW_MODE;
}

void compare_judge(const struct proc_fig *base, size_t nbase, const struct proc_fig *cur,
		   size_t n, double t, struct judgement *j)
{
	*j = (struct judgement){
		.verdict = VERDICT_UNCERTAIN, .base_median = NAN, .median = NAN, .shift = NAN,
		.shift_cycles = NAN, .p = NAN, .p_min = NAN, .spread = NAN, .threshold = t,
		.clock_ratio = NAN, .clock_low = NAN,
	};
	struct side b, c;
	side_of(base, nbase, &b);
	side_of(cur, n, &c);
	j->nbase = b.n;
	j->n = c.n;
	if (b.n == 0 || c.n == 0) {
		j->doubt = DOUBT_NO_LAUNCHES;
		goto out;
	}
	j->base_median = median_of(b.t, b.n);
	j->median = median_of(c.t, c.n);
	j->p_min = rank_p_min(b.n, c.n);
	j->shift = rank_shift(b.t, b.n, c.t, c.n);
	j->p = rank_p(rank_u(b.t, b.n, c.t, c.n), b.n, c.n);
	double *s = stats_sorted(b.t, b.n);
	j->spread = (quantile(s, b.n, 0.9) - quantile(s, b.n, 0.1)) / j->base_median;
	free(s);
	j->threshold = fmax(t, j->spread);
	j->verdict = decide(j->p, j->shift, j->threshold);

	bool drop = false, apart = false;
	if (b.clocks && c.clocks) {
		double bc = median_of(b.clock, b.n);
		j->clock_ratio = median_of(c.clock, c.n) / bc;
		j->clock_low = c.clock[0] / bc;
		for (size_t i = 1; i < c.n; i++)
			j->clock_low = fmin(j->clock_low, c.clock[i] / bc);
		drop = j->clock_low < COMPARE_CLOCK_DROP;
		apart = fabs(j->clock_ratio - 1) > COMPARE_CLOCK_APART;
	}
	if (apart) {
		j->shift_cycles = rank_shift(b.cycles, b.n, c.cycles, c.n);
		double pc = rank_p(rank_u(b.cycles, b.n, c.cycles, c.n), b.n, c.n);
		if (decide(pc, j->shift_cycles, j->threshold) != j->verdict)
			drop = true;
	}
	if (b.few || c.few)
		j->doubt = DOUBT_FEW_LAUNCHES;
	else if (j->p_min > COMPARE_ALPHA)
		j->doubt = DOUBT_FEW_PROCESSES;
	else if (drop)
		j->doubt = DOUBT_CLOCK;
	else if (j->verdict == VERDICT_UNCERTAIN)
		j->doubt = placed(&b, &c, j);
	if (j->doubt != DOUBT_NONE)
		j->verdict = VERDICT_UNCERTAIN;
out:
	side_free(&b);
	side_free(&c);
}

void judgement_why(const struct judgement *j, char *buf, size_t len)
{
	switch (j->doubt) {
	case DOUBT_NONE:
		snprintf(buf, len, "p = %.2g, shift x%.3f", j->p, j->shift);
		break;
	case DOUBT_NO_LAUNCHES:
		snprintf(buf, len, "no timed launches %s", j->nbase ? "here" : "in the base");
		break;
	case DOUBT_FEW_LAUNCHES:
		snprintf(buf, len, "a process has fewer than %d timed launches: too few to judge",
			 COMPARE_MIN_LAUNCHES);
		break;
	case DOUBT_FEW_PROCESSES:
		snprintf(buf, len, "%zu base process%s and %zu here can reach p = %.2g at best, "
			 "above the test's level %g: grow the base to %d processes (--processes=%d "
			 "when it is recorded, or several base reports)", j->nbase,
			 j->nbase == 1 ? "" : "es", j->n, j->p_min, COMPARE_ALPHA,
			 COMPARE_BASE_PROCESSES, COMPARE_BASE_PROCESSES);
		break;
	case DOUBT_CLOCK:
		if (j->clock_low < COMPARE_CLOCK_DROP)
			snprintf(buf, len, "a process here ran its SM clock at x%.2f of the base's: "
				 "a clock drop (throttling?)", j->clock_low);
		else
			snprintf(buf, len, "the SM clocks differ (here x%.3f of the base's): the "
				 "time says x%.3f, the cycles x%.3f", j->clock_ratio, j->shift,
				 j->shift_cycles);
		break;
	case DOUBT_OUTLIER:
		snprintf(buf, len, "process %zu here lies beyond every base process, the others "
			 "within: an outlier process (shift x%.3f, p = %.2g)", j->outlier + 1,
			 j->shift, j->p);
		break;
	case DOUBT_NEW_MODE:
		snprintf(buf, len, "some processes here lie beyond every base process and some "
			 "within: a mode the base never showed (shift x%.3f, p = %.2g)", j->shift,
			 j->p);
		break;
	case DOUBT_SPREAD:
		snprintf(buf, len, "shifted x%.3f, but within the base's own range of processes "
			 "(p = %.2g)", j->shift, j->p);
		break;
	}
}
