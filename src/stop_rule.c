/*
 * When the timed launches stop (stop_rule.h).
 */
#include "config.h"

#include <math.h>

#include "stop_rule.h"

const char *const stop_reason_names[STOP_REASON_COUNT] = {
	[STOP_COUNT] = "count", [STOP_PRECISION] = "precision",
	[STOP_TIME] = "time", [STOP_LIMIT] = "limit",
};

/* log P(B = i) for B ~ Binomial(n, 1/2). */
static double log_pmf_half(size_t n, size_t i)
{
	double dn = (double)n, di = (double)i;
	return lgamma(dn + 1) - lgamma(di + 1) - lgamma(dn - di + 1) - dn * log(2.0);
}

/*
 * x_(k+1) and x_(n-k) (1-based ranks) hold the median with probability
 * 1 - 2 P(B <= k) for any continuous distribution: the largest k with
 * P(B <= k) <= 2.5% gives the narrowest 95% interval.  The sum starts
 * 6 standard deviations below the middle, where what is left out is
 * below 1e-9: a check costs O(sqrt(n)), not O(n).
 */
bool median_interval_ranks(size_t n, size_t *lo, size_t *hi)
{
	double sd = sqrt((double)n) / 2, start = (double)n / 2 - 6 * sd;
	size_t i = start > 0 ? (size_t)start : 0;
	double cdf = 0;
	long k = (long)i - 1;
	for (; i <= n / 2; i++) {
		cdf += exp(log_pmf_half(n, i));
		if (cdf > 0.025)
			break;
		k = (long)i;
	}
	if (k < 0)
		return false;
	*lo = (size_t)k;
	*hi = n - 1 - (size_t)k;
	return true;
}

double median_precision(const double *sorted, size_t n)
{
	size_t lo, hi;
	if (!median_interval_ranks(n, &lo, &hi))
		return NAN;
	double median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
	if (!(median > 0))
		return NAN;
	return (sorted[hi] - sorted[lo]) / 2 / median;
}

uint32_t stop_first_batch(const struct stop_rule *r, double first_s)
{
	if (r->counted)
		return r->count;
	/* a graph whose one launch takes 20 ms gets 25, not 50, within the cap */
	double fit = first_s > 0 ? STOP_CAP_S / first_s : STOP_FIRST_BATCH;
	if (fit >= STOP_FIRST_BATCH)
		return STOP_FIRST_BATCH;
	return fit > STOP_MIN_LAUNCHES ? (uint32_t)fit : STOP_MIN_LAUNCHES;
}

/* The next batch: as many again, within the batch's, the cap's and the total's limits. */
static uint32_t next_batch(size_t n, double elapsed_s)
{
	double want = (double)n;
	if (want > STOP_MAX_BATCH)
		want = STOP_MAX_BATCH;
	if (n > 0 && elapsed_s > 0) {
		/* the launches the time left holds at the rate so far, one at least */
		double fit = ceil((STOP_CAP_S - elapsed_s) / (elapsed_s / (double)n));
		if (fit < want)
			want = fit;
	}
	if (want > (double)(STOP_MAX_LAUNCHES - n))
		want = (double)(STOP_MAX_LAUNCHES - n);
	return want < 1 ? 1 : (uint32_t)want;
}

bool stop_after_batch(const struct stop_rule *r, const double *sorted, size_t n,
		      double elapsed_s, enum stop_reason *why, uint32_t *next, double *precision)
{
	*precision = median_precision(sorted, n);
	*next = 0;
	if (r->counted)
		*why = STOP_COUNT;
	else if (n >= STOP_MIN_LAUNCHES && *precision <= STOP_TARGET)
		*why = STOP_PRECISION;
	else if (n >= STOP_MAX_LAUNCHES)
		*why = STOP_LIMIT;
	else if (elapsed_s >= STOP_CAP_S && n >= STOP_MIN_LAUNCHES)
		*why = STOP_TIME;
	else {
		*next = next_batch(n, elapsed_s);
		return false;
	}
	return true;
}
