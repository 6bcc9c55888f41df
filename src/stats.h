/*
 * Summary statistics over a sample of times: what the report prints for
 * the timed launches and the profile for each node.  Nothing is owned.
 */
#ifndef CGR_STATS_H
#define CGR_STATS_H

#include <stddef.h>

struct stats {
	double median, min, mean, max, stddev; /* seconds */
};

/* Statistics over n samples (seconds); zeros when n is 0. */
void stats_compute(const double *samples, size_t n, struct stats *out);
/* (a + b) / 2 without overflow: the median of an even count, and the bootstrap's. */
double stats_midpoint(double a, double b);
/* v[0..n) in ascending order, in place. */
void stats_sort(double *v, size_t n);
/* The n samples in ascending order, malloc'd (the caller frees it). */
double *stats_sorted(const double *samples, size_t n);
/*
 * The q-quantile (0 <= q <= 1) of n sorted values, between the two
 * nearest order statistics (numpy's default; q = 0.5 is the median as
 * stats_compute takes it); NaN when n is 0.
 */
double stats_quantile(const double *sorted, size_t n, double q);
/*
 * The median of v[0..n), found in place in O(n) (the values are left in
 * another order): for arrays too large to copy; NaN when n is 0.
 */
double stats_median_inplace(double *v, size_t n);

#endif
