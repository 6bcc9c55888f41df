/*
 * Figures of a buffer's slice for checks (sum, min, max, the Euclidean
 * norm, how many elements are not zero or differ from a value) and their
 * comparison with a check's bounds, on the host copy after the
 * verification launch.  No CUDA and no allocation: buf_check.c calls it,
 * the unit tests check it against known answers.
 *
 * Precision and order (cugraphrun(5), Checks, says the same):
 *   - integer sums are exact, in signed 128-bit arithmetic: a buffer of
 *     at most 2^40 elements of at most 64 bits cannot overflow it;
 *   - float sums add the elements in index order, each converted exactly
 *     to long double, with Neumaier's compensated summation in long
 *     double; a NaN, or infinities of both signs, make the sum NaN;
 *   - norm2 is the long double square root of the sum of squares: squares
 *     of integers summed exactly in unsigned 128 bits while that fits (in
 *     long double as floats are otherwise), squares of floats in long
 *     double, summed as sums are;
 *   - min and max are exact, and NaN when the slice holds a NaN;
 *   - nonzero and differ count exactly (NaN is not zero).
 * A figure is compared with an integer bound exactly when it is an
 * integer itself (integer sums, min, max, counts), otherwise in long
 * double.
 */
#ifndef CGR_BUF_REDUCE_H
#define CGR_BUF_REDUCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "scalar.h"

/* One figure: an exact integer, or a long double. */
struct figure {
	bool is_int;
	__int128 i;                     /* is_int */
	long double f;                  /* otherwise (NaN, an infinity too) */
	/* min, max: where; nonzero, differ: the first such element */
	bool has_at;
	uint64_t at;                    /* an index in the buffer */
	bool has_nan;                   /* the slice holds a NaN: the first is at nan_at */
	uint64_t nan_at;
};

/*
 * Reduction r of the n elements of type t at data, the first of which is
 * element first of its buffer (for the indices in *out).  from (encoded in
 * t), rtol and atol are RED_DIFFER's: an element differs when it does not
 * match as a check's expect would match it (elem_matches).
 */
void reduce_slice(enum reduce_kind r, enum elem_type t, const void *data, uint64_t first,
		  uint64_t n, const void *from, double rtol, double atol, struct figure *out);

/*
 * Whether actual a matches expected e, elements of type t:
 * |a - e| <= atol + rtol * |e|.  NaN matches only NaN, and an infinity
 * only itself; integers compare exactly unless a tolerance is given, and
 * then their difference is taken exactly before it is compared.
 */
bool elem_matches(enum elem_type t, const void *a, const void *e, double rtol, double atol);

/*
 * How many of the n elements at a differ from those at e, matched as
 * elem_matches matches them; *first (when some do) the index of the
 * first.  The same answer as elem_matches element by element, in loops of
 * their own for the common types.
 */
uint64_t elems_differ(enum elem_type t, const void *a, const void *e, size_t n, double rtol,
		      double atol, size_t *first);

/*
 * -1, 0 or 1 as f is below, equal to or above v; 2 when they are
 * unordered (a NaN).
 */
int figure_cmp(const struct figure *f, const struct num *v);

/* Whether f holds against bound op v (BOUND_NEAR with rtol and atol). */
bool figure_holds(const struct figure *f, enum bound_op op, const struct num *v, double rtol,
		  double atol);

/* f as text: an integer exactly, a float with digits significant digits. */
int figure_format(const struct figure *f, int digits, char *buf, size_t len);

/* |f - v| as text with 3 significant digits, for "off by" in messages. */
int figure_distance(const struct figure *f, const struct num *v, char *buf, size_t len);

#endif
