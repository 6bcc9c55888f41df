/*
 * Rank statistics (stats_rank.h).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "stats.h"
#include "stats_rank.h"
#include "xmalloc.h"

double rank_u(const double *x, size_t nx, const double *y, size_t ny)
{
	double u = 0;
	for (size_t j = 0; j < ny; j++)
		for (size_t i = 0; i < nx; i++)
			u += y[j] > x[i] ? 1.0 : y[j] == x[i] ? 0.5 : 0.0;
	return u;
}

double rank_p_min(size_t nx, size_t ny)
{
	/* C(nx + ny, ny) as a double, built so that it stays exact while it can */
	double c = 1;
	for (size_t k = 1; k <= ny; k++)
		c = c * (double)(nx + k) / (double)k;
	return fmin(1.0, 2.0 / c);
}

/*
 * The number of orderings with U = u, for u in 0..nx*ny, is the
 * coefficient of q^u in the Gaussian binomial [nx + ny choose ny]_q
 * = prod_{k=1..ny} (1 - q^(nx+k)) / (1 - q^k).  Multiplying by
 * (1 - q^a) and dividing by (1 - q^k) are each one pass over the
 * coefficients, so the whole distribution costs O(ny * nx * ny), without
 * the counts ever being enumerated.  Coefficients are scaled by the
 * total at the end; doubles hold C(nx + ny, ny) to far beyond any count
 * of processes.
 */
static double *u_counts(size_t nx, size_t ny)
{
	/* Only coefficients up to deg matter, and each pass reads lower ones alone. */
	size_t deg = nx * ny;
	double *c = xcalloc(deg + 1, sizeof *c);
	c[0] = 1;
	for (size_t k = 1; k <= ny; k++) {
		size_t a = nx + k;
		for (size_t i = deg; i >= a && i <= deg; i--)   /* times (1 - q^a), downwards */
			c[i] -= c[i - a];
		for (size_t i = k; i <= deg; i++)               /* over (1 - q^k), upwards */
			c[i] += c[i - k];
	}
	return c;
}

/*
 * The distribution's cost is ny passes over nx * ny counts: past this, U
 * is as normal as it gets, and its normal approximation (with continuity
 * correction) is used instead.
 */
#define RANK_EXACT_WORK 20000000.0

static double rank_p_normal(double u, size_t nx, size_t ny)
{
	double m = (double)nx, n = (double)ny;
	double mean = m * n / 2, sd = sqrt(m * n * (m + n + 1) / 12);
	double z = (fabs(u - mean) - 0.5) / sd;
	return z <= 0 ? 1.0 : fmin(1.0, erfc(z / sqrt(2.0)));
}

double rank_p(double u, size_t nx, size_t ny)
{
	if (nx == 0 || ny == 0)
		return NAN;
	/* the smaller group's count of passes: U of y over x is the mirror of x over y */
	if (ny > nx) {
		size_t t = nx;
		nx = ny;
		ny = t;
		u = (double)nx * (double)ny - u;
	}
	if ((double)ny * (double)nx * (double)ny > RANK_EXACT_WORK)
		return rank_p_normal(u, nx, ny);
	size_t deg = nx * ny;
	double *c = u_counts(nx, ny);
	double total = 0, below = 0, above = 0;
	for (size_t i = 0; i <= deg; i++) {
		total += c[i];
		if ((double)i <= u)
			below += c[i];
		if ((double)i >= u)
			above += c[i];
	}
	free(c);
	return fmin(1.0, 2.0 * fmin(below, above) / total);
}

double rank_shift(const double *x, size_t nx, const double *y, size_t ny)
{
	if (nx == 0 || ny == 0)
		return NAN;
	size_t n = nx * ny;
	double *r = xmalloc(n * sizeof *r);
	for (size_t j = 0; j < ny; j++)
		for (size_t i = 0; i < nx; i++)
			r[j * nx + i] = y[j] / x[i];
	stats_sort(r, n);
	double m = n % 2 ? r[n / 2] : r[n / 2 - 1] / 2 + r[n / 2] / 2;
	free(r);
	return m;
}
