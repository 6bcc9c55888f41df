/*
 * Rank statistics over two groups of per-process figures (--compare's
 * verdict, compare.c): the Mann-Whitney U test with its exact two-sided
 * p-value, and the Hodges-Lehmann estimate of the shift between the
 * groups, as a ratio.  Both are distribution-free: a process's median
 * launch time is one value, whatever its launches look like, and neither
 * asks the values to be normal, which per-process medians are not (modes,
 * drift, one slow process).  Nothing is owned; nothing is kept between
 * calls.
 */
#ifndef CGR_STATS_RANK_H
#define CGR_STATS_RANK_H

#include <stddef.h>

/*
 * U of y against x: the number of pairs (x[i], y[j]) with y[j] > x[i],
 * a tie counting one half.  0 .. nx * ny.
 */
double rank_u(const double *x, size_t nx, const double *y, size_t ny);

/*
 * The exact two-sided p-value of u for groups of nx and ny values: twice
 * the smaller tail of U's distribution when both groups come from one
 * distribution (every ordering of the nx + ny values equally likely),
 * at most 1.  Ties are counted in u as halves and the distribution taken
 * as without ties, which errs towards larger p-values (no false
 * significance from ties).  Exact while the distribution is cheap (about
 * 20 million steps: 13 against 4 takes 208, 300 against 300 is past it);
 * past that, the normal approximation with continuity correction, which
 * such counts make close.  NaN when a group is empty.
 */
double rank_p(double u, size_t nx, size_t ny);

/* The smallest p-value rank_p can give for these counts: 2 / C(nx + ny, ny). */
double rank_p_min(size_t nx, size_t ny);

/*
 * The Hodges-Lehmann shift of y over x as a ratio: the median of
 * y[j] / x[i] over every pair.  Values must be positive; NaN when a group
 * is empty.
 */
double rank_shift(const double *x, size_t nx, const double *y, size_t ny);

#endif
