/*
 * Summary statistics (stats.h).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "xmalloc.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

void stats_sort(double *v, size_t n)
{
	qsort(v, n, sizeof *v, cmp_double);
}

double *stats_sorted(const double *samples, size_t n)
{
	double *s = xmalloc((n ? n : 1) * sizeof *s);
	if (n)
		memcpy(s, samples, n * sizeof *s);
	stats_sort(s, n);
	return s;
}

/*
 * Half way between a and b: (a + b) / 2, the same to the last bit, where
 * a + b does not overflow; else from the halves (two times of 1e308).
 */
double stats_midpoint(double a, double b)
{
	double m = (a + b) / 2;
	return isinf(m) && isfinite(a) && isfinite(b) ? a / 2 + b / 2 : m;
}

/*
 * The standard deviation is the sample one (divided by n - 1): the timed
 * launches are a sample of what the graph costs, not every launch there is.
 * Sums that would overflow are taken over the samples scaled down by the
 * largest; the results are the same as unscaled ones otherwise.
 */
void stats_compute(const double *samples, size_t n, struct stats *out)
{
	memset(out, 0, sizeof *out);
	if (n == 0)
		return;
	double *s = stats_sorted(samples, n);
	out->min = s[0];
	out->max = s[n - 1];
	out->median = n % 2 ? s[n / 2] : stats_midpoint(s[n / 2 - 1], s[n / 2]);
	double big = fmax(fabs(s[0]), fabs(s[n - 1]));
	/* past 1e150 a square overflows; n of them summed, sooner */
	double scale = isfinite(big) && big > 1e150 ? big : 1;
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += s[i] / scale;
	double mean = sum / (double)n;
	out->mean = mean * scale;
	if (n > 1) {
		double ss = 0;
		for (size_t i = 0; i < n; i++)
			ss += (s[i] / scale - mean) * (s[i] / scale - mean);
		out->stddev = sqrt(ss / (double)(n - 1)) * scale;
	}
	free(s);
}

double stats_quantile(const double *sorted, size_t n, double q)
{
	if (n == 0)
		return NAN;
	double at = q * (double)(n - 1);
	size_t lo = (size_t)floor(at);
	if (lo + 1 >= n)
		return sorted[n - 1];
	return sorted[lo] + (at - (double)lo) * (sorted[lo + 1] - sorted[lo]);
}

/* Hoare's selection: v[k] as it would be sorted, smaller values before it. */
static void select_kth(double *v, size_t n, size_t k)
{
	size_t lo = 0, hi = n - 1;
	while (lo < hi) {
		double pivot = v[lo + (hi - lo) / 2];
		size_t i = lo, j = hi;
		while (i <= j) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i <= j) {
				double t = v[i];
				v[i] = v[j];
				v[j] = t;
				i++;
				if (j == 0)
					break;
				j--;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			return;
	}
}

double stats_median_inplace(double *v, size_t n)
{
	if (n == 0)
		return NAN;
	select_kth(v, n, n / 2);
	double upper = v[n / 2];
	if (n % 2)
		return upper;
	/* the lower middle: the largest of what lies before */
	double lower = v[0];
	for (size_t i = 1; i < n / 2; i++)
		if (v[i] > lower)
			lower = v[i];
	return stats_midpoint(lower, upper);
}
