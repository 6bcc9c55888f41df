/*
 * Formulas of inits and checks (buf_formula.h).
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf_formula.h"
#include "expr_vec.h"
#include "shape.h"
#include "xmalloc.h"

const char *const formula_vars[FORMULA_NVARS] = {"i", "j", "k"};

/*
 * The one place that reads a buffer's shape for formulas: its axes as
 * written (shape.h), slowest first, i's first; a buffer without one, or
 * of one axis, has one dimension of its count.  The rest of this file
 * (the indices of a block, the names a formula may use) follows.
 */
unsigned formula_dims(const struct buffer *b, uint64_t ext[FORMULA_NVARS])
{
	unsigned rank = b->shape.rank > 1 ? b->shape.rank : 1;
	ext[0] = b->count;
	ext[1] = ext[2] = 1;
	for (unsigned d = 0; rank > 1 && d < rank && d < FORMULA_NVARS; d++)
		ext[d] = b->shape.dim[d];
	return rank;
}

/* Element e's indices, i's first. */
static void indices(unsigned dims, const uint64_t ext[FORMULA_NVARS], uint64_t e,
		    uint64_t idx[FORMULA_NVARS])
{
	for (unsigned d = dims; d-- > 1;) {
		idx[d] = e % ext[d];
		e /= ext[d];
	}
	idx[0] = e;
	for (unsigned d = dims; d < FORMULA_NVARS; d++)
		idx[d] = 0;
}

/* The buffer's own words for where an element is (shape.h), so that all messages agree. */
void formula_where(const struct buffer *b, uint64_t e, char *buf, size_t len)
{
	char xyz[72];          /* three 20-digit indices in brackets */
	buffer_index_words(b, e, xyz, sizeof xyz);
	snprintf(buf, len, "%s%s", xyz[0] ? " " : "", xyz);
}

struct pos formula_pos(const struct formula *f, uint32_t off)
{
	struct pos p = f->pos;
	if (f->exact)
		p.col += f->lead + off;
	return p;
}

struct formula_prog {
	struct tmpl *t;
	struct tmpl_vec *vec;
	enum elem_type type;
	unsigned dims;
	uint64_t ext[FORMULA_NVARS];
	int64_t *idx[FORMULA_NVARS];    /* a block's indices, per variable */
};

struct link_ctx {
	unsigned dims;
};

static long lookup(void *ctx, const char *name)
{
	const struct link_ctx *c = ctx;
	for (unsigned k = 0; k < c->dims; k++)
		if (strcmp(name, formula_vars[k]) == 0)
			return k;
	return -1;
}

/* Why name is no variable of a formula of b. */
static __attribute__((cold)) void unknown(const struct buffer *b, unsigned dims,
					  const char *name, struct expr_err *err)
{
	static const char *const ordinal[] = {"first", "second", "third"};
	err->code = "buf-formula-unknown-name";
	for (unsigned k = dims; k < FORMULA_NVARS; k++)
		if (strcmp(name, formula_vars[k]) == 0) {
			err->code = "buf-formula-index-dimension";
			if (dims == 1)
				snprintf(err->msg, sizeof err->msg, "'%s' indexes a shaped buffer's "
					 "%s dimension, and buffer '%.24s' has no shape: its one "
					 "index is 'i'", name, ordinal[k], b->name);
			else
				snprintf(err->msg, sizeof err->msg, "'%s' indexes a %s dimension, "
					 "and buffer '%.24s' has %u", name, ordinal[k], b->name, dims);
			return;
		}
	snprintf(err->msg, sizeof err->msg, "unknown name '%.24s' (a formula's variables are "
		 "%s; write an axis or generator value as ${%.24s})", name,
		 dims == 1 ? "i" : dims == 2 ? "i and j" : "i, j and k", name);
}

struct formula_prog *formula_compile(const struct formula *f, const struct buffer *b,
				     struct expr_err *err)
{
	const char *text = f->text ? f->text : "";
	struct tmpl *t = tmpl_parse_expr(text, strlen(text), err);
	if (t == NULL)
		return NULL;
	struct formula_prog *p = xcalloc(1, sizeof *p);
	p->t = t;
	p->type = b->type;
	p->dims = formula_dims(b, p->ext);
	struct link_ctx c = {p->dims};
	if (!tmpl_link(t, lookup, &c, err)) {
		size_t off;
		for (size_t k = 0; k < tmpl_nnames(t); k++)
			if (lookup(&c, tmpl_name(t, k, &off)) < 0 && off == err->off) {
				unknown(b, p->dims, tmpl_name(t, k, NULL), err);
				break;
			}
		formula_free(p);
		return NULL;
	}
	p->vec = tmpl_vec_new(t, p->dims);
	for (unsigned k = 0; k < FORMULA_NVARS; k++)
		p->idx[k] = xmalloc(TMPL_VEC_MAX * sizeof *p->idx[k]);
	return p;
}

void formula_free(struct formula_prog *p)
{
	if (p == NULL)
		return;
	tmpl_vec_free(p->vec);
	tmpl_free(p->t);
	for (unsigned k = 0; k < FORMULA_NVARS; k++)
		free(p->idx[k]);
	free(p);
}

/* The indices of elements first to first + n - 1. */
static void block_indices(struct formula_prog *p, uint64_t first, size_t n)
{
	if (p->dims == 1) {
		int64_t *x = p->idx[0];
		for (size_t k = 0; k < n; k++)
			x[k] = (int64_t)(first + k);
		return;
	}
	uint64_t idx[FORMULA_NVARS];
	indices(p->dims, p->ext, first, idx);
	for (size_t k = 0; k < n; k++) {
		for (unsigned d = 0; d < p->dims; d++)
			p->idx[d][k] = (int64_t)idx[d];
		/* the next element: the last index steps, and carries */
		for (unsigned d = p->dims; d-- > 0;) {
			if (++idx[d] < p->ext[d] || d == 0)
				break;
			idx[d] = 0;
		}
	}
}

/* One value into out as type t, as num_encode would; false with why. */
static bool encode_one(enum elem_type t, const struct expr_val *v, void *out, char *why,
		       size_t len)
{
	struct num n;
	char buf[128];
	if (v->type == EXPR_FLOAT && !elem_infos[t].is_float) {
		struct strbuf sb = {0};
		expr_format(v, &sb);
		snprintf(why, len, "%s is a float, and %s takes integers (int(), floor() or "
			 "round() make one)", sb.buf, elem_infos[t].name);
		strbuf_free(&sb);
		return false;
	}
	if (!expr_to_num(v, &n, buf, sizeof buf)) {
		snprintf(why, len, "the value %s", buf);
		return false;
	}
	const char *e = num_encode(&n, t, out, buf, sizeof buf);
	if (e)
		snprintf(why, len, "%s", e);
	return e == NULL;
}

/* Integers into an integer type: its range checked, then stored. */
#define STORE_INTS(T, lo, hi)                                                   \
	do {                                                                    \
		T *o = out;                                                     \
		for (size_t k = 0; k < n; k++) {                                \
			if (x[k] < (lo) || x[k] > (hi))                         \
				return k;                                       \
			o[k] = (T)x[k];                                         \
		}                                                               \
		return n;                                                       \
	} while (0)

/* n ints into type t at out: how many were stored before one did not fit. */
static size_t store_ints(enum elem_type t, const int64_t *x, size_t n, void *out)
{
	switch (t) {
	case ET_I8: STORE_INTS(int8_t, INT8_MIN, INT8_MAX);
	case ET_U8: STORE_INTS(uint8_t, 0, UINT8_MAX);
	case ET_I16: STORE_INTS(int16_t, INT16_MIN, INT16_MAX);
	case ET_U16: STORE_INTS(uint16_t, 0, UINT16_MAX);
	case ET_I32: STORE_INTS(int32_t, INT32_MIN, INT32_MAX);
	case ET_U32: STORE_INTS(uint32_t, 0, UINT32_MAX);
	case ET_I64: STORE_INTS(int64_t, INT64_MIN, INT64_MAX);
	case ET_U64: STORE_INTS(uint64_t, 0, INT64_MAX);
	case ET_F64: {
		double *o = out;
		for (size_t k = 0; k < n; k++)
			o[k] = (double)x[k];
		return n;
	}
	case ET_F32: {
		float *o = out;
		for (size_t k = 0; k < n; k++)
			o[k] = (float)(double)x[k];
		return n;
	}
	default:
		return 0;
	}
}

/* n floats into a float type t at out: how many before one overflowed (or 0: not done here). */
static size_t store_floats(enum elem_type t, const double *x, size_t n, void *out)
{
	if (t == ET_F64) {
		memcpy(out, x, n * sizeof *x);
		return n;
	}
	if (t != ET_F32)
		return 0;
	float *o = out;
	for (size_t k = 0; k < n; k++) {
		o[k] = (float)x[k];
		if (isinf(o[k]) && !isinf(x[k]))
			return k;
	}
	return n;
}

/* A block's values into out; false at the first one (*bad) that does not fit. */
static bool store(struct formula_prog *p, const struct tmpl_vec_res *r, size_t n, void *out,
		  size_t *bad, char *why, size_t len)
{
	unsigned es = elem_infos[p->type].size;
	size_t done = 0;
	if (r->type == EXPR_INT)
		done = store_ints(p->type, r->i, n, out);
	else if (r->type == EXPR_FLOAT && elem_infos[p->type].is_float)
		done = store_floats(p->type, r->f, n, out);
	/* what the loops do not do, or where they stopped: one at a time, with the message */
	for (size_t k = done; k < n; k++) {
		struct expr_val v = r->type == EXPR_INT ? expr_int(r->i[k]) :
			r->type == EXPR_FLOAT ? expr_float(r->f[k]) : r->v[k];
		if (!encode_one(p->type, &v, (unsigned char *)out + k * es, why, len)) {
			*bad = k;
			return false;
		}
	}
	return true;
}

bool formula_values(struct formula_prog *p, uint64_t first, uint64_t n, void *out,
		    uint64_t *at, char *why, size_t len, struct expr_err *span)
{
	unsigned es = elem_infos[p->type].size;
	unsigned char *o = out;
	*span = (struct expr_err){0};
	for (uint64_t done = 0; done < n;) {
		size_t m = n - done < TMPL_VEC_MAX ? (size_t)(n - done) : TMPL_VEC_MAX;
		block_indices(p, first + done, m);
		struct tmpl_vec_res r;
		size_t bad = 0;
		if (!tmpl_vec_eval(p->vec, (const int64_t *const *)p->idx, m, &r, &bad, span)) {
			*at = first + done + bad;
			snprintf(why, len, "%s", span->msg);
			return false;
		}
		if (!store(p, &r, m, o + done * es, &bad, why, len)) {
			*at = first + done + bad;
			*span = (struct expr_err){0};
			return false;
		}
		done += m;
	}
	return true;
}

void formula_report(const struct formula *f, const struct buffer *b, const char *what,
		    uint64_t at, const char *why, const struct expr_err *span, struct diag *d)
{
	char where[96];
	formula_where(b, at, where, sizeof where);
	/* an error of the expression at its operator; a value that does not fit at the formula */
	struct pos pos = span->msg[0] ? formula_pos(f, span->off) : f->pos;
	diag_error(d, pos, "%s at index %" PRIu64 "%s: %s", what, at, where, why);
}

bool formula_check(const struct formula *f, const struct buffer *b, uint64_t first,
		   uint64_t count, const char *what, struct diag *d)
{
	struct expr_err err;
	struct formula_prog *p = formula_compile(f, b, &err);
	if (p == NULL) {
		diag_code(err.code);
		diag_error(d, formula_pos(f, err.off), "%s: %s", what, err.msg);
		return false;
	}
	unsigned char one[8];
	uint64_t ends[2] = {first, first + count - 1}, at;
	char why[200];
	bool ok = true;
	for (int k = 0; k < (count > 1 ? 2 : 1) && ok; k++)
		if (!formula_values(p, ends[k], 1, one, &at, why, sizeof why, &err)) {
			formula_report(f, b, what, at, why, &err, d);
			ok = false;
		}
	formula_free(p);
	return ok;
}
