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
 * The standard deviation is the sample one (divided by n - 1): the timed
 * launches are a sample of what the graph costs, not every launch there is.
 */
void stats_compute(const double *samples, size_t n, struct stats *out)
{
	memset(out, 0, sizeof *out);
	if (n == 0)
		return;
	double *s = stats_sorted(samples, n);
	out->min = s[0];
	out->max = s[n - 1];
	out->median = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += s[i];
	out->mean = sum / (double)n;
	if (n > 1) {
		double ss = 0;
		for (size_t i = 0; i < n; i++)
			ss += (s[i] - out->mean) * (s[i] - out->mean);
		out->stddev = sqrt(ss / (double)(n - 1));
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
