/*
 * A template evaluated at many points at once: a check's or an init's
 * formula (buf_formula.h) at every element of a buffer, with the
 * element's indices as its variables.  The same values, and the same
 * errors, as tmpl_eval at each point in turn (expr.h says what they are);
 * only faster: each instruction runs over a block of up to
 * TMPL_VEC_MAX points, where tmpl_eval runs the whole program once per
 * point.
 *
 * How: the block's values are arrays of ints or of floats, or one value
 * for all points (a constant).  The common operators on ints and floats
 * are loops of their own; any other instruction (a call, a comparison of
 * an int with a float, ...) is applied point by point by expr.c's own
 * code (expr_apply).  &&, || and ?: evaluate both sides and choose.
 * Whenever the block cannot follow the one-point evaluation exactly (an
 * error anywhere, a side that the one-point evaluation would not have
 * evaluated included; values of different types at different points),
 * the block is evaluated again one point at a time with tmpl_eval, which
 * gives the exact values or the first point's error.  Errors cost time,
 * never a different answer.
 *
 * Ownership: a struct tmpl_vec owns its scratch (one per thread) and
 * borrows its template, which must outlive it and stay linked.  The
 * result's arrays are the tmpl_vec's, valid until its next evaluation.
 */
#ifndef CGR_EXPR_VEC_H
#define CGR_EXPR_VEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "expr.h"

/* Points per block: tmpl_vec_eval takes at most this many at once. */
#define TMPL_VEC_MAX 256

struct tmpl_vec;

/* The values at n points: all ints, all floats, or each its own. */
struct tmpl_vec_res {
	/* EXPR_INT: i[0..n); EXPR_FLOAT: f[0..n); EXPR_STR: v[0..n), of mixed types */
	enum expr_type type;
	const int64_t *i;
	const double *f;
	const struct expr_val *v;
};

/*
 * A vector evaluator of t, a whole template (tmpl_is_whole) linked to
 * slots below nvars; NULL when t is not whole.
 */
struct tmpl_vec *tmpl_vec_new(const struct tmpl *t, size_t nvars);
void tmpl_vec_free(struct tmpl_vec *v);

/*
 * t at n <= TMPL_VEC_MAX points, variable s at point k being the int
 * vars[s][k] (every slot below nvars given).  True and *res; false, with
 * *bad the first point (0 to n - 1) whose evaluation fails and *err its
 * error.
 */
bool tmpl_vec_eval(struct tmpl_vec *v, const int64_t *const *vars, size_t n,
		   struct tmpl_vec_res *res, size_t *bad, struct expr_err *err);

/* How many blocks of v's so far went one point at a time (tests, benchmarks). */
size_t tmpl_vec_slow_blocks(const struct tmpl_vec *v);

#endif
