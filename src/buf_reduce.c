/*
 * Figures of a slice and their bounds (buf_reduce.h): the precision and
 * order of every sum are part of the format (cugraphrun(5), Checks).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "buf_reduce.h"

/* An integer element, sign-extended for signed types, as 128 bits. */
static __int128 int_value(enum elem_type t, const void *p)
{
	switch (t) {
	case ET_I8: { int8_t x; memcpy(&x, p, 1); return x; }
	case ET_U8: { uint8_t x; memcpy(&x, p, 1); return x; }
	case ET_I16: { int16_t x; memcpy(&x, p, 2); return x; }
	case ET_U16: { uint16_t x; memcpy(&x, p, 2); return x; }
	case ET_I32: { int32_t x; memcpy(&x, p, 4); return x; }
	case ET_U32: { uint32_t x; memcpy(&x, p, 4); return x; }
	case ET_I64: { int64_t x; memcpy(&x, p, 8); return x; }
	default: { uint64_t x; memcpy(&x, p, 8); return x; }
	}
}

bool elem_matches(enum elem_type t, const void *a, const void *e, double rtol, double atol)
{
	const struct elem_info *ei = &elem_infos[t];
	if (ei->is_float) {
		double x = elem_to_double(t, a), y = elem_to_double(t, e);
		if (isnan(x) || isnan(y))
			return isnan(x) && isnan(y);
		if (x == y)
			return true;
		/* inf <= rtol * inf would let any value match an infinity */
		if (isinf(x) || isinf(y))
			return false;
		return fabs(x - y) <= atol + rtol * fabs(y);
	}
	if (rtol == 0 && atol == 0)
		return memcmp(a, e, ei->size) == 0;
	__int128 x = int_value(t, a), y = int_value(t, e);
	__int128 diff = x < y ? y - x : x - y;
	double ey = y < 0 ? -(double)y : (double)y;
	return (double)diff <= atol + rtol * ey;
}

/* elem_matches for two doubles of a float type. */
static inline bool float_matches(double x, double y, double rtol, double atol)
{
	if (x == y)
		return true;
	if (isnan(x) || isnan(y))
		return isnan(x) && isnan(y);
	if (isinf(x) || isinf(y))
		return false;
	return fabs(x - y) <= atol + rtol * fabs(y);
}

#define COUNT_DIFFER(T, same)                                                   \
	do {                                                                    \
		const T *x = a, *y = e;                                         \
		for (size_t k = 0; k < n; k++)                                  \
			if (!(same) && ndiff++ == 0)                            \
				*first = k;                                     \
	} while (0)

uint64_t elems_differ(enum elem_type t, const void *a, const void *e, size_t n, double rtol,
		      double atol, size_t *first)
{
	uint64_t ndiff = 0;
	bool exact = rtol == 0 && atol == 0;
	switch (t) {
	case ET_F32:
		COUNT_DIFFER(float, float_matches(x[k], y[k], rtol, atol));
		return ndiff;
	case ET_F64:
		COUNT_DIFFER(double, float_matches(x[k], y[k], rtol, atol));
		return ndiff;
	case ET_I32:
	case ET_U32:
		if (exact) {
			COUNT_DIFFER(uint32_t, x[k] == y[k]);
			return ndiff;
		}
		break;
	case ET_I64:
	case ET_U64:
		if (exact) {
			COUNT_DIFFER(uint64_t, x[k] == y[k]);
			return ndiff;
		}
		break;
	default:
		break;
	}
	unsigned es = elem_infos[t].size;
	const unsigned char *pa = a, *pe = e;
	for (size_t k = 0; k < n; k++)
		if (!elem_matches(t, pa + k * es, pe + k * es, rtol, atol) && ndiff++ == 0)
			*first = k;
	return ndiff;
}

/*
 * Neumaier's compensated sum in long double: s + c is the sum, with the
 * low-order bits that each addition to s lost gathered in c.
 */
struct ksum {
	long double s, c;
	bool nan, pinf, ninf;           /* non-finite terms, kept out of s and c */
};

static void ksum_add(struct ksum *k, long double x)
{
	if (isnan(x)) {
		k->nan = true;
		return;
	}
	if (isinf(x)) {
		if (x > 0)
			k->pinf = true;
		else
			k->ninf = true;
		return;
	}
	long double t = k->s + x;
	if (fabsl(k->s) >= fabsl(x))
		k->c += (k->s - t) + x;
	else
		k->c += (x - t) + k->s;
	k->s = t;
}

static long double ksum_total(const struct ksum *k)
{
	if (k->nan || (k->pinf && k->ninf))
		return NAN;
	if (k->pinf)
		return INFINITY;
	if (k->ninf)
		return -INFINITY;
	return k->s + k->c;
}

static void sum_floats(enum elem_type t, const unsigned char *p, unsigned es, uint64_t n,
		       bool squares, struct figure *out)
{
	struct ksum k = {0};
	for (uint64_t i = 0; i < n; i++) {
		long double x = elem_to_double(t, p + i * es);
		ksum_add(&k, squares ? x * x : x);
	}
	out->is_int = false;
	out->f = ksum_total(&k);
}

/* The sum of squares of integers, exactly while it fits 128 unsigned bits. */
static void norm2_ints(enum elem_type t, const unsigned char *p, unsigned es, uint64_t n,
		       struct figure *out)
{
	unsigned __int128 total = 0;
	bool fits = true;
	for (uint64_t i = 0; i < n && fits; i++) {
		__int128 x = int_value(t, p + i * es);
		unsigned __int128 m = (unsigned __int128)(x < 0 ? -x : x), sq;
		fits = !__builtin_mul_overflow(m, m, &sq) && !__builtin_add_overflow(total, sq, &total);
	}
	out->is_int = false;
	if (fits) {
		out->f = sqrtl((long double)total);
		return;
	}
	struct ksum k = {0};
	for (uint64_t i = 0; i < n; i++) {
		long double x = (long double)int_value(t, p + i * es);
		ksum_add(&k, x * x);
	}
	out->f = sqrtl(ksum_total(&k));
}

/* The first NaN of a float slice, for messages and min/max. */
static void find_nan(enum elem_type t, const unsigned char *p, unsigned es, uint64_t first,
		     uint64_t n, struct figure *out)
{
	if (!elem_infos[t].is_float)
		return;
	for (uint64_t i = 0; i < n; i++)
		if (isnan(elem_to_double(t, p + i * es))) {
			out->has_nan = true;
			out->nan_at = first + i;
			return;
		}
}

static void min_max(enum elem_type t, const unsigned char *p, unsigned es, uint64_t first,
		    uint64_t n, bool max, struct figure *out)
{
	uint64_t best = 0;
	out->has_at = n > 0;
	if (elem_infos[t].is_float) {
		out->is_int = false;
		if (out->has_nan) {
			out->f = NAN;
			out->at = out->nan_at;
			return;
		}
		double b = elem_to_double(t, p);
		for (uint64_t i = 1; i < n; i++) {
			double x = elem_to_double(t, p + i * es);
			if (max ? x > b : x < b) {
				b = x;
				best = i;
			}
		}
		out->f = b;
	} else {
		out->is_int = true;
		__int128 b = int_value(t, p);
		for (uint64_t i = 1; i < n; i++) {
			__int128 x = int_value(t, p + i * es);
			if (max ? x > b : x < b) {
				b = x;
				best = i;
			}
		}
		out->i = b;
	}
	out->at = first + best;
}

void reduce_slice(enum reduce_kind r, enum elem_type t, const void *data, uint64_t first,
		  uint64_t n, const void *from, double rtol, double atol, struct figure *out)
{
	const unsigned char *p = data;
	unsigned es = elem_infos[t].size;
	bool is_float = elem_infos[t].is_float;
	memset(out, 0, sizeof *out);
	find_nan(t, p, es, first, n, out);
	switch (r) {
	case RED_SUM:
		if (is_float) {
			sum_floats(t, p, es, n, false, out);
		} else {
			out->is_int = true;
			for (uint64_t i = 0; i < n; i++)
				out->i += int_value(t, p + i * es);
		}
		break;
	case RED_NORM2:
		if (is_float) {
			sum_floats(t, p, es, n, true, out);
			out->f = sqrtl(out->f);
		} else {
			norm2_ints(t, p, es, n, out);
		}
		break;
	case RED_MIN:
	case RED_MAX:
		min_max(t, p, es, first, n, r == RED_MAX, out);
		break;
	case RED_NONZERO:
	case RED_DIFFER: {
		static const unsigned char zero[8];
		out->is_int = true;
		for (uint64_t i = 0; i < n; i++) {
			const unsigned char *x = p + i * es;
			bool counts = r == RED_DIFFER ? !elem_matches(t, x, from, rtol, atol) :
				is_float ? elem_to_double(t, x) != 0 : memcmp(x, zero, es) != 0;
			if (counts && out->i++ == 0) {
				out->has_at = true;
				out->at = first + i;
			}
		}
		break;
	}
	case RED_COUNT:
		break;
	}
}

/* -1, 0, 1 as a < b, a == b, a > b. */
static int sign3(__int128 a, __int128 b)
{
	return (a > b) - (a < b);
}

int figure_cmp(const struct figure *f, const struct num *v)
{
	if (f->is_int && v->kind != NUM_FLOAT)
		return sign3(f->i, v->kind == NUM_INT ? (__int128)v->i : (__int128)v->u);
	if (f->is_int) {
		/* An integer against a double, exactly: through floor(d). */
		double d = v->f;
		if (isnan(d))
			return 2;
		if (isinf(d))
			return d > 0 ? -1 : 1;
		double fl = floor(d);
		if (fl >= 0x1p127)
			return -1;
		if (fl < -0x1p127)
			return 1;
		__int128 F = (__int128)fl;
		if (f->i != F)
			return sign3(f->i, F);
		return fl == d ? 0 : -1;
	}
	long double x = f->f;
	long double y = v->kind == NUM_FLOAT ? (long double)v->f :
		v->kind == NUM_INT ? (long double)v->i : (long double)v->u;
	if (isnan(x) || isnan(y))
		return 2;
	return (x > y) - (x < y);
}

static long double figure_ld(const struct figure *f)
{
	return f->is_int ? (long double)f->i : f->f;
}

static long double num_ld(const struct num *v)
{
	return v->kind == NUM_FLOAT ? (long double)v->f :
		v->kind == NUM_INT ? (long double)v->i : (long double)v->u;
}

bool figure_holds(const struct figure *f, enum bound_op op, const struct num *v, double rtol,
		  double atol)
{
	int c = figure_cmp(f, v);
	switch (op) {
	case BOUND_EQ:
		return c == 0;
	case BOUND_LT:
		return c == -1;
	case BOUND_LE:
		return c == -1 || c == 0;
	case BOUND_GT:
		return c == 1;
	case BOUND_GE:
		return c == 1 || c == 0;
	case BOUND_NEAR: {
		if (c == 0)
			return true;
		if (c == 2)
			return false;
		long double x = figure_ld(f), y = num_ld(v);
		/* inf <= rtol * inf would let any value be near an infinity */
		if (isinf(x) || isinf(y))
			return false;
		return fabsl(x - y) <= (long double)atol + (long double)rtol * fabsl(y);
	}
	case BOUND_COUNT:
		break;
	}
	return false;
}

/* A 128-bit integer in decimal. */
static int int128_format(__int128 v, char *buf, size_t len)
{
	char digits[48], *p = digits + sizeof digits;
	unsigned __int128 m = v < 0 ? -(unsigned __int128)v : (unsigned __int128)v;
	*--p = '\0';
	do {
		*--p = (char)('0' + (int)(m % 10));
		m /= 10;
	} while (m);
	if (v < 0)
		*--p = '-';
	return snprintf(buf, len, "%s", p);
}

int figure_format(const struct figure *f, int digits, char *buf, size_t len)
{
	if (f->is_int)
		return int128_format(f->i, buf, len);
	if (isnan(f->f))
		return snprintf(buf, len, "nan");
	if (isinf(f->f))
		return snprintf(buf, len, "%sinf", f->f < 0 ? "-" : "");
	return snprintf(buf, len, "%.*Lg", digits, f->f);
}

int figure_distance(const struct figure *f, const struct num *v, char *buf, size_t len)
{
	if (f->is_int && v->kind != NUM_FLOAT) {
		__int128 w = v->kind == NUM_INT ? (__int128)v->i : (__int128)v->u;
		return int128_format(f->i > w ? f->i - w : w - f->i, buf, len);
	}
	return snprintf(buf, len, "%.3Lg", fabsl(figure_ld(f) - num_ld(v)));
}
