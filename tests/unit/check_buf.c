/*
 * Unit tests for checks on a buffer's host copy beyond element-by-element
 * equality: reductions against known answers (src/buf_reduce.c: integers
 * exactly, floats against a sum in higher precision), slices, one buffer
 * against another, bounds and NaN (src/buf_check.c), and their messages.
 * Models are built by hand, without the loader.
 */
#include "config.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf_check.h"
#include "buf_data.h"
#include "buf_host.h"
#include "buf_reduce.h"
#include "diag.h"
#include "model.h"
#include "scalar.h"
#include "unit.h"
#include "unit_cap.h"
#include "xmalloc.h"

static struct num U(uint64_t u)
{
	return (struct num){.kind = NUM_UINT, .u = u};
}

static struct num I(int64_t i)
{
	return i < 0 ? (struct num){.kind = NUM_INT, .i = i} : U((uint64_t)i);
}

static struct num F(double f)
{
	return (struct num){.kind = NUM_FLOAT, .f = f};
}

static struct buffer buf(const char *name, enum elem_type t, uint64_t count)
{
	return (struct buffer){.name = (char *)name, .type = t, .count = count,
			       .size = count * elem_infos[t].size};
}

static void reduce_all(enum reduce_kind r, enum elem_type t, const void *data, uint64_t n,
		       struct figure *f)
{
	reduce_slice(r, t, data, 0, n, NULL, 0, 0, f);
}

/* A deterministic generator (splitmix64) for test data. */
static uint64_t next_u64(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Reductions: integers ------------------------------------------------------ */

START_TEST(test_sum_integers_exact)
{
	/* 1000 times the largest u64: beyond 64 bits, exact in 128. */
	uint64_t *u = xmalloc(1000 * sizeof *u);
	for (int i = 0; i < 1000; i++)
		u[i] = UINT64_MAX;
	struct figure f;
	reduce_all(RED_SUM, ET_U64, u, 1000, &f);
	ck_assert(f.is_int);
	ck_assert(f.i == (__int128)1000 * UINT64_MAX);
	char text[64];
	figure_format(&f, 9, text, sizeof text);
	ck_assert_str_eq(text, "18446744073709551615000");
	free(u);

	/* Signed: three times INT64_MIN, and a slice that cancels to 0. */
	int64_t s[5] = {INT64_MIN, INT64_MIN, INT64_MIN, INT64_MAX, 1};
	reduce_all(RED_SUM, ET_I64, s, 3, &f);
	ck_assert(f.i == (__int128)3 * INT64_MIN);
	figure_format(&f, 9, text, sizeof text);
	ck_assert_str_eq(text, "-27670116110564327424");
	reduce_slice(RED_SUM, ET_I64, s + 2, 2, 3, NULL, 0, 0, &f);
	ck_assert(f.i == 0);

	/* Gauss: 0 + 1 + ... + 65535 over u16, and i8 with negatives. */
	uint16_t *w = xmalloc(65536 * sizeof *w);
	for (uint32_t i = 0; i < 65536; i++)
		w[i] = (uint16_t)i;
	reduce_all(RED_SUM, ET_U16, w, 65536, &f);
	ck_assert(f.i == (__int128)65535 * 65536 / 2);
	free(w);
	int8_t b[4] = {-128, 127, -1, -100};
	reduce_all(RED_SUM, ET_I8, b, 4, &f);
	ck_assert(f.i == -102);
}
END_TEST

START_TEST(test_min_max_integers)
{
	int32_t x[6] = {5, -7, 3, -7, 12, 12};
	struct figure f;
	reduce_slice(RED_MIN, ET_I32, x, 100, 6, NULL, 0, 0, &f);
	ck_assert(f.is_int && f.i == -7 && f.has_at && f.at == 101);
	reduce_slice(RED_MAX, ET_I32, x, 100, 6, NULL, 0, 0, &f);
	ck_assert(f.i == 12 && f.at == 104);
	uint64_t big[2] = {1, UINT64_MAX};
	reduce_all(RED_MAX, ET_U64, big, 2, &f);
	ck_assert(f.i == (__int128)UINT64_MAX);
	/* u64 max is above every i64, and compared exactly: */
	ck_assert_int_eq(figure_cmp(&f, &(struct num){.kind = NUM_UINT, .u = UINT64_MAX}), 0);
	ck_assert_int_eq(figure_cmp(&f, &(struct num){.kind = NUM_UINT, .u = UINT64_MAX - 1}), 1);
	/* as a double, 2^64 - 1 rounds to 2^64: the integer is below it */
	ck_assert_int_eq(figure_cmp(&f, &(struct num){.kind = NUM_FLOAT, .f = 0x1p64}), -1);
}
END_TEST

START_TEST(test_norm2_integers)
{
	int32_t x[2] = {3, -4};
	struct figure f;
	reduce_all(RED_NORM2, ET_I32, x, 2, &f);
	ck_assert(!f.is_int);
	ck_assert(f.f == 5);
	/* Squares that overflow 128 bits: summed in long double instead. */
	uint64_t big[4] = {UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX};
	reduce_all(RED_NORM2, ET_U64, big, 4, &f);
	long double want = 2.0L * (long double)UINT64_MAX;
	ck_assert(fabsl(f.f - want) <= want * LDBL_EPSILON * 4);
	/* i64 min squared is 2^126: still exact */
	int64_t m[1] = {INT64_MIN};
	reduce_all(RED_NORM2, ET_I64, m, 1, &f);
	ck_assert(f.f == 0x1p63L);
}
END_TEST

START_TEST(test_nonzero_differ)
{
	float x[6] = {0.0f, -0.0f, NAN, 2.0f, 1.0f, 1.0001f};
	struct figure f;
	reduce_slice(RED_NONZERO, ET_F32, x, 10, 6, NULL, 0, 0, &f);
	/* -0 is zero; NaN is not */
	ck_assert(f.is_int && f.i == 4 && f.has_at && f.at == 12);
	float one = 1.0f;
	reduce_slice(RED_DIFFER, ET_F32, x, 10, 6, &one, 0, 0, &f);
	ck_assert(f.i == 5 && f.at == 10);
	/* with a tolerance, 1.0001 matches 1 */
	reduce_slice(RED_DIFFER, ET_F32, x, 10, 6, &one, 0, 1e-3, &f);
	ck_assert(f.i == 4);
	int16_t y[3] = {7, 7, 7};
	int16_t seven = 7;
	reduce_all(RED_NONZERO, ET_I16, y, 3, &f);
	ck_assert(f.i == 3 && f.at == 0);
	reduce_slice(RED_DIFFER, ET_I16, y, 0, 3, &seven, 0, 0, &f);
	ck_assert(f.i == 0 && !f.has_at);
}
END_TEST

/* Reductions: floats ------------------------------------------------------ */

#ifdef __SIZEOF_FLOAT128__
/* The same sum in binary128, index order: 113 bits, the reference. */
static __float128 sum_q(const double *x, size_t n, __float128 *abs_sum)
{
	__float128 s = 0, a = 0;
	for (size_t i = 0; i < n; i++) {
		s += x[i];
		a += x[i] < 0 ? -(__float128)x[i] : (__float128)x[i];
	}
	*abs_sum = a;
	return s;
}
#endif

START_TEST(test_sum_floats_reference)
{
#ifdef __SIZEOF_FLOAT128__
	/*
	 * Random doubles of every magnitude from 1e-8 to 1e8 and both signs,
	 * so that most of the sum cancels: a plain sum in double (or long
	 * double) is off by far more than the bound Neumaier's sum keeps,
	 * 2u|S| + n u^2 sum|x| with u = LDBL_EPSILON / 2.
	 */
	enum { N = 20000 };
	double *x = xmalloc(N * sizeof *x);
	uint64_t seed = 42;
	for (int round = 0; round < 5; round++) {
		for (int i = 0; i < N; i++) {
			uint64_t r = next_u64(&seed);
			double mant = (double)(r >> 11) * 0x1p-53;
			int e = (int)(r % 17) - 8;
			x[i] = (r & 1 ? -1 : 1) * mant * pow(10, e);
		}
		struct figure f;
		reduce_all(RED_SUM, ET_F64, x, N, &f);
		__float128 abs_sum, ref = sum_q(x, N, &abs_sum);
		long double u = LDBL_EPSILON / 2;
		__float128 err = (__float128)f.f - ref;
		if (err < 0)
			err = -err;
		__float128 bound = 2 * (__float128)u * (ref < 0 ? -ref : ref) +
			(__float128)N * u * u * abs_sum;
		ck_assert_msg(err <= bound, "round %d: error %Lg above the bound %Lg", round,
			      (long double)err, (long double)bound);
		/* a plain double sum does worse: the test can tell them apart */
		double plain = 0;
		for (int i = 0; i < N; i++)
			plain += x[i];
		__float128 perr = (__float128)plain - ref;
		if (perr < 0)
			perr = -perr;
		ck_assert(perr > err);
	}
	free(x);
#endif
}
END_TEST

START_TEST(test_sum_floats_known)
{
	/* 1e20 + 1 - 1e20 + 1, repeated: 2 per round, which a plain sum loses. */
	enum { R = 1000 };
	double *x = xmalloc(4 * R * sizeof *x);
	for (int i = 0; i < R; i++) {
		x[4 * i] = 1e20;
		x[4 * i + 1] = 1;
		x[4 * i + 2] = -1e20;
		x[4 * i + 3] = 1;
	}
	struct figure f;
	reduce_all(RED_SUM, ET_F64, x, 4 * R, &f);
	ck_assert(f.f == 2 * R);
	free(x);

	/* f32 iota: integers below 2^24 are exact; so is their sum. */
	float *y = xmalloc(4096 * sizeof *y);
	for (int i = 0; i < 4096; i++)
		y[i] = (float)i;
	reduce_all(RED_SUM, ET_F32, y, 4096, &f);
	ck_assert(f.f == 4096.0L * 4095 / 2);
	/* 0.1f a thousand times: the f32 value summed exactly, not 100 */
	for (int i = 0; i < 1000; i++)
		y[i] = 0.1f;
	reduce_all(RED_SUM, ET_F32, y, 1000, &f);
	ck_assert(f.f == 1000.0L * (long double)0.1f);
	free(y);

	/* f16 and bf16 elements are converted exactly. */
	uint16_t h[3] = {f32_to_f16(0.5f), f32_to_f16(-2.0f), f32_to_f16(65504.0f)};
	reduce_all(RED_SUM, ET_F16, h, 3, &f);
	ck_assert(f.f == 65502.5L);
	uint16_t bf[2] = {f32_to_bf16(3.0f), f32_to_bf16(1e30f)};
	reduce_all(RED_SUM, ET_BF16, bf, 2, &f);
	ck_assert(f.f == 3.0L + (long double)bf16_to_f32(bf[1]));
}
END_TEST

START_TEST(test_not_finite)
{
	double x[4] = {1, INFINITY, 2, -INFINITY};
	struct figure f;
	reduce_all(RED_SUM, ET_F64, x, 2, &f);
	ck_assert(isinf(f.f) && f.f > 0 && !f.has_nan);
	reduce_all(RED_SUM, ET_F64, x, 4, &f);
	ck_assert(isnan(f.f));
	reduce_all(RED_NORM2, ET_F64, x + 2, 2, &f);
	ck_assert(isinf(f.f) && f.f > 0);
	x[2] = NAN;
	reduce_slice(RED_MIN, ET_F64, x, 50, 4, NULL, 0, 0, &f);
	ck_assert(isnan(f.f) && f.has_nan && f.nan_at == 52 && f.at == 52);
	/* NaN compares with nothing, not even through near */
	ck_assert(!figure_holds(&f, BOUND_LE, &(struct num){.kind = NUM_FLOAT, .f = INFINITY}, 0, 0));
	ck_assert(!figure_holds(&f, BOUND_GE, &(struct num){.kind = NUM_FLOAT, .f = -INFINITY}, 0, 0));
	ck_assert(!figure_holds(&f, BOUND_NEAR, &(struct num){.kind = NUM_FLOAT, .f = 0}, 1, 1e300));
}
END_TEST

START_TEST(test_figure_bounds)
{
	struct figure f = {.is_int = true, .i = 3};
	/* an integer against a fraction, exactly */
	ck_assert(figure_holds(&f, BOUND_LT, &(struct num){.kind = NUM_FLOAT, .f = 3.5}, 0, 0));
	ck_assert(figure_holds(&f, BOUND_GT, &(struct num){.kind = NUM_FLOAT, .f = 2.5}, 0, 0));
	ck_assert(!figure_holds(&f, BOUND_EQ, &(struct num){.kind = NUM_FLOAT, .f = 3.0000001}, 0, 0));
	ck_assert(figure_holds(&f, BOUND_EQ, &(struct num){.kind = NUM_FLOAT, .f = 3.0}, 0, 0));
	ck_assert(figure_holds(&f, BOUND_LE, &(struct num){.kind = NUM_UINT, .u = 3}, 0, 0));
	ck_assert(!figure_holds(&f, BOUND_LT, &(struct num){.kind = NUM_UINT, .u = 3}, 0, 0));
	ck_assert(figure_holds(&f, BOUND_GE, &(struct num){.kind = NUM_INT, .i = -3}, 0, 0));
	/* 2^53 + 1 is no double: exact against the integer, not the double */
	f.i = ((__int128)1 << 53) + 1;
	ck_assert(figure_holds(&f, BOUND_EQ, &(struct num){.kind = NUM_UINT, .u = (1ull << 53) + 1}, 0, 0));
	ck_assert(figure_holds(&f, BOUND_GT, &(struct num){.kind = NUM_FLOAT, .f = 0x1p53}, 0, 0));
	/* near: |x - v| <= atol + rtol |v| */
	struct figure g = {.f = 3.1416L};
	struct num pi = {.kind = NUM_FLOAT, .f = 3.14159};
	ck_assert(figure_holds(&g, BOUND_NEAR, &pi, 1e-5, 0));
	ck_assert(!figure_holds(&g, BOUND_NEAR, &pi, 1e-6, 0));
	ck_assert(figure_holds(&g, BOUND_NEAR, &pi, 0, 2e-5));
	g.f = INFINITY;
	ck_assert(!figure_holds(&g, BOUND_NEAR, &pi, 1e300, 1e300));
	ck_assert(figure_holds(&g, BOUND_NEAR, &(struct num){.kind = NUM_FLOAT, .f = INFINITY}, 0, 0));
}
END_TEST

/* Checks and their messages ------------------------------------------------ */

static struct check reduce_check(enum reduce_kind r, enum bound_op op, struct num v)
{
	struct check c = {.pos = {7, 5}, .kind = CHECK_REDUCE, .reduce = r};
	c.cmp.ops = 1u << op;
	c.cmp.bound[op].value = v;
	return c;
}

START_TEST(test_check_sum_tolerance)
{
	struct buffer b = buf("x", ET_F32, 4);
	float x[4] = {0.5f, 1.25f, 1.0f, 0.39159f};
	struct check c = reduce_check(RED_SUM, BOUND_NEAR, F(3.14159));
	c.cmp.rtol = 1e-6;
	struct cap k;
	cap_open(&k, "t.yaml");
	ck_assert(check_buffer(&c, &b, x, NULL, &k.d));
	ck_assert_str_eq(cap_text(&k), "");
	x[3] = 0.3917f;
	ck_assert(!check_buffer(&c, &b, x, NULL, &k.d));
	ck_assert_str_eq(cap_text(&k),
		"t.yaml:7:5: error: check failed: the sum of buffer 'x' is 3.1417; expected "
		"near 3.14159 (rtol 1e-06, atol 0); it is off by 0.00011\n");
	cap_close(&k);
}
END_TEST

START_TEST(test_check_residual)
{
	/* norm2 of a residual under a bound, on a slice */
	struct buffer b = buf("r", ET_F64, 6);
	double r[6] = {99, 1e-12, -2e-12, 2e-12, 0, 99};
	struct check c = reduce_check(RED_NORM2, BOUND_LE, F(1e-10));
	c.offset = 1;
	c.count = 4;
	struct cap k;
	cap_open(&k, "t.yaml");
	ck_assert(check_buffer(&c, &b, r, NULL, &k.d));
	r[4] = 3e-10;
	ck_assert(!check_buffer(&c, &b, r, NULL, &k.d));
	ck_assert_str_eq(cap_text(&k),
		"t.yaml:7:5: error: check failed: the norm2 (Euclidean norm) of elements 1 to 4 "
		"of buffer 'r' is 3.00015e-10; expected <= 1e-10\n");
	cap_close(&k);
}
END_TEST

START_TEST(test_check_min_max_range)
{
	struct buffer b = buf("p", ET_I32, 5);
	int32_t p[5] = {0, 3, 1, -2, 9};
	struct check c = reduce_check(RED_MIN, BOUND_GE, I(0));
	c.cmp.ops |= 1u << BOUND_LE;
	c.cmp.bound[BOUND_LE].value = U(10);
	struct cap k;
	cap_open(&k, "t.yaml");
	ck_assert(!check_buffer(&c, &b, p, NULL, &k.d));
	ck_assert_str_eq(cap_text(&k),
		"t.yaml:7:5: error: check failed: the min of buffer 'p' is -2 (at index 3); "
		"expected <= 10 and >= 0\n");
	p[3] = 2;
	ck_assert(check_buffer(&c, &b, p, NULL, &k.d));
	cap_close(&k);
}
END_TEST

START_TEST(test_check_counts)
{
	struct buffer b = buf("e", ET_U8, 8);
	uint8_t e[8] = {0, 0, 0, 4, 0, 0, 1, 0};
	struct check c = reduce_check(RED_NONZERO, BOUND_EQ, U(0));
	struct cap k;
	cap_open(&k, "t.yaml");
	ck_assert(!check_buffer(&c, &b, e, NULL, &k.d));
	ck_assert_str_eq(cap_text(&k),
		"t.yaml:7:5: error: check failed: buffer 'e' has 2 nonzero elements (the first "
		"at index 3); expected == 0\n");
	cap_close(&k);

	struct buffer f = buf("v", ET_F32, 4);
	float v[4] = {7, 7.5f, 7, 9};
	struct check d = reduce_check(RED_DIFFER, BOUND_LE, U(1));
	d.differ_from = U(7);
	cap_open(&k, "t.yaml");
	ck_assert(!check_buffer(&d, &f, v, NULL, &k.d));
	ck_assert_str_eq(cap_text(&k),
		"t.yaml:7:5: error: check failed: buffer 'v' has 2 elements that differ from 7 "
		"(the first at index 1: 7.5); expected <= 1\n");
	/* with atol 0.5, 7.5 matches 7 */
	d.atol = 0.5;
	ck_assert(check_buffer(&d, &f, v, NULL, &k.d));
	cap_close(&k);
}
END_TEST

START_TEST(test_check_finite)
{
	struct buffer b = buf("y", ET_F16, 4);
	uint16_t y[4] = {f32_to_f16(1), f32_to_f16(INFINITY), f32_to_f16(NAN), f32_to_f16(2)};
	struct check c = {.pos = {9, 5}, .kind = CHECK_FINITE};
	struct cap k;
	cap_open(&k, "t.yaml");
	ck_assert(!check_buffer(&c, &b, y, NULL, &k.d));
	ck_assert_str_eq(cap_text(&k),
		"t.yaml:9:5: error: check failed: buffer 'y' holds 2 NaN or infinite elements, "
		"the first at index 1: inf\n");
	c.offset = 3;
	c.count = 1;
	ck_assert(check_buffer(&c, &b, y, NULL, &k.d));
	cap_close(&k);
}
END_TEST

START_TEST(test_check_slice_and_buffers)
{
	struct buffer a = buf("out", ET_I32, 6), r = buf("ref", ET_I32, 8);
	int32_t out[6] = {9, 1, 2, 3, 4, 9};
	int32_t ref[8] = {0, 0, 1, 2, 3, 5, 0, 0};
	/* out[1..5) against ref[2..6) */
	struct check c = {.pos = {11, 5}, .kind = CHECK_EXPECT, .expect = EXPECT_BUFFER,
			  .offset = 1, .count = 4, .has_count = true, .ref_offset = 2,
			  .ref = {.name = "ref", .idx = 1}};
	const struct buffer bufs[2] = {a, r};
	const void *datas[2] = {out, ref};
	const struct check_others o = {bufs, datas};
	struct cap k;
	cap_open(&k, "t.yaml");
	ck_assert(!check_buffer(&c, &a, out, &o, &k.d));
	ck_assert_str_eq(cap_text(&k),
		"t.yaml:11:5: error: check failed: buffer 'out' differs from buffer 'ref' at "
		"index 4: expected 5 ('ref'[5]), got 4 (1 of the 4 elements from index 1 "
		"differ)\n");
	ref[5] = 4;
	ck_assert(check_buffer(&c, &a, out, &o, &k.d));
	cap_close(&k);

	/* a scalar on a slice leaves the rest alone */
	struct check s = {.pos = {12, 5}, .kind = CHECK_EXPECT, .expect = EXPECT_SCALAR,
			  .scalar = U(9), .offset = 5, .count = 1, .has_count = true};
	cap_open(&k, "t.yaml");
	ck_assert(check_buffer(&s, &a, out, NULL, &k.d));
	s.offset = 4;
	ck_assert(!check_buffer(&s, &a, out, NULL, &k.d));
	ck_assert_str_eq(cap_text(&k),
		"t.yaml:12:5: error: check failed: buffer 'out' differs at index 4: expected 9, "
		"got 4\n");
	cap_close(&k);
}
END_TEST

/* expect: {formula: ...}: every element against the formula at its index. */
START_TEST(test_check_formula)
{
	enum { N = 10000 };
	struct buffer b = buf("y", ET_F32, N);
	float *y = xmalloc(N * sizeof *y);
	for (int i = 0; i < N; i++)
		y[i] = 2.0f * (float)i + 1;
	struct check c = {.pos = {7, 5}, .kind = CHECK_EXPECT, .expect = EXPECT_FORMULA,
			  .count = N, .has_count = true,
			  .formula = {.text = "2 * i + 1", .pos = {7, 30}, .exact = true, .lead = 1}};
	struct cap k;
	cap_open(&k, "t.yaml");
	ck_assert(check_buffer(&c, &b, y, NULL, &k.d));
	/* two wrong elements, in different blocks: the first named, both counted */
	y[4097] = 0;
	y[9000] = -1;
	ck_assert(!check_buffer(&c, &b, y, NULL, &k.d));
	ck_assert_str_eq(cap_text(&k),
		"t.yaml:7:5: error: check failed: buffer 'y' differs at index 4097: expected 8195, "
		"got 0 (2 of 10000 elements differ)\n");
	cap_close(&k);

	/* a slice: i is the index in the buffer, not in the slice */
	c.offset = 9001;
	c.count = 5;
	cap_open(&k, "t.yaml");
	ck_assert(check_buffer(&c, &b, y, NULL, &k.d));
	/* a tolerance applies as to any expect */
	c.formula.text = "2 * i + 1.001";
	ck_assert(!check_buffer(&c, &b, y, NULL, &k.d));
	c.rtol = 1e-5;
	ck_assert(check_buffer(&c, &b, y, NULL, &k.d));
	cap_close(&k);

	/* an error at an element: where, at its operator */
	c = (struct check){.pos = {8, 5}, .kind = CHECK_EXPECT, .expect = EXPECT_FORMULA,
			   .count = N, .has_count = true,
			   .formula = {.text = "1 / (i - 300)", .pos = {8, 30}, .exact = true, .lead = 1}};
	cap_open(&k, "t.yaml");
	ck_assert(!check_buffer(&c, &b, y, NULL, &k.d));
	ck_assert_str_eq(cap_text(&k),
		"t.yaml:8:33: error: expected value of buffer 'y' at index 300: division by zero "
		"in '/'\n");
	cap_close(&k);

	/* integers: exact, and a value the type cannot hold is said */
	struct buffer u = buf("u", ET_U8, 300);
	uint8_t *ud = xcalloc(300, 1);
	for (int i = 0; i < 256; i++)
		ud[i] = (uint8_t)i;
	c = (struct check){.pos = {9, 5}, .kind = CHECK_EXPECT, .expect = EXPECT_FORMULA,
			   .count = 256, .has_count = true,
			   .formula = {.text = "i", .pos = {9, 30}}};
	cap_open(&k, "t.yaml");
	ck_assert(check_buffer(&c, &u, ud, NULL, &k.d));
	c.count = 300;
	ck_assert(!check_buffer(&c, &u, ud, NULL, &k.d));
	c.formula.text = "i / 2.0";
	ck_assert(!check_buffer(&c, &u, ud, NULL, &k.d));
	ck_assert_str_eq(cap_text(&k),
		"t.yaml:9:30: error: expected value of buffer 'u' at index 256: 256 does not fit u8\n"
		"t.yaml:9:30: error: expected value of buffer 'u' at index 0: 0.0 is a float, and u8 "
		"takes integers (int(), floor() or round() make one)\n");
	cap_close(&k);
	free(ud);
	free(y);
}
END_TEST

/* init: {formula: ...} fills each element from its index. */
START_TEST(test_init_formula)
{
	struct buffer b = buf("x", ET_I32, 1000);
	b.init.kind = INIT_FORMULA;
	b.init.pos = (struct pos){3, 10};
	b.init.formula = (struct formula){.text = "i % 7 == 0 ? -i : i * i", .pos = {3, 30}};
	int32_t *x = xmalloc(1000 * sizeof *x);
	struct cap k;
	cap_open(&k, "t.yaml");
	ck_assert_int_eq(buffer_fill_init(&b, x, &k.d), 0);
	for (int i = 0; i < 1000; i++)
		ck_assert_int_eq(x[i], i % 7 == 0 ? -i : i * i);
	/* an element out of the type's range: the first one, by index */
	b.init.formula.text = "i * 3000000";
	ck_assert_int_eq(buffer_fill_init(&b, x, &k.d), -1);
	ck_assert_str_eq(cap_text(&k),
		"t.yaml:3:30: error: init of buffer 'x' at index 716: 2148000000 does not fit i32\n");
	cap_close(&k);
	free(x);
}
END_TEST

/* The comparison a block at a time is elem_matches element by element. */
START_TEST(test_elems_differ_is_elem_matches)
{
	static const enum elem_type types[] = {ET_F32, ET_F64, ET_I32, ET_U32, ET_I64, ET_U64,
					       ET_F16, ET_I8};
	static const double tols[][2] = {{0, 0}, {1e-3, 0}, {0, 0.5}, {1e-6, 1e-6}};
	uint64_t st = 7;
	unsigned char a[64 * 8], e[64 * 8];
	for (int round = 0; round < 2000; round++) {
		enum elem_type t = types[round % 8];
		unsigned es = elem_infos[t].size;
		size_t n = 1 + next_u64(&st) % 64;
		for (size_t k = 0; k < n * es; k++) {
			a[k] = (unsigned char)next_u64(&st);
			e[k] = next_u64(&st) % 3 ? a[k] : (unsigned char)next_u64(&st);
		}
		/* some NaNs and infinities where the type has them */
		if (t == ET_F32 && round % 5 == 0) {
			float nan = NAN, inf = INFINITY;
			memcpy(a, &nan, 4);
			memcpy(e + 4 * (n - 1), &inf, 4);
		}
		const double *tol = tols[round % 4];
		size_t want = 0, first = 0, got_first = 0;
		for (size_t k = 0; k < n; k++)
			if (!elem_matches(t, a + k * es, e + k * es, tol[0], tol[1]) && want++ == 0)
				first = k;
		uint64_t got = elems_differ(t, a, e, n, tol[0], tol[1], &got_first);
		ck_assert_uint_eq(got, want);
		if (want)
			ck_assert_uint_eq(got_first, first);
	}
}
END_TEST

/* A bound from another buffer: a kernel's result against the sum of its input. */
START_TEST(test_check_bound_buffer)
{
	struct buffer in = buf("in", ET_F32, 4), res = buf("result", ET_F64, 2);
	float x[4] = {0.25f, 0.5f, 1.0f, 2.0f};
	double r[2] = {-1, 3.75};
	const struct buffer bufs[2] = {in, res};
	const void *datas[2] = {x, r};
	const struct check_others o = {bufs, datas};
	struct check c = {.pos = {13, 5}, .kind = CHECK_REDUCE, .reduce = RED_SUM,
			  .cmp = {.ops = 1u << BOUND_NEAR, .rtol = 1e-6}};
	c.cmp.bound[BOUND_NEAR].ref = (struct name_ref){.name = "result", .idx = 1};
	c.cmp.bound[BOUND_NEAR].offset = 1;
	long used[BOUND_COUNT + 1];
	ck_assert_uint_eq(check_others_used(&c, used), 1);
	ck_assert_int_eq(used[0], 1);
	struct cap k;
	cap_open(&k, "t.yaml");
	ck_assert(check_buffer(&c, &in, x, &o, &k.d));
	r[1] = 3.7;
	ck_assert(!check_buffer(&c, &in, x, &o, &k.d));
	ck_assert_str_eq(cap_text(&k),
		"t.yaml:13:5: error: check failed: the sum of buffer 'in' is 3.75; expected near "
		"3.7 ('result'[1]) (rtol 1e-06, atol 0); it is off by 0.05\n");
	cap_close(&k);

	/* an integer element is a bound exactly: the max against a count */
	struct buffer cnt = buf("count", ET_U64, 1), v = buf("v", ET_I32, 3);
	uint64_t n[1] = {UINT64_MAX};
	int32_t w[3] = {1, -5, 4};
	const struct buffer b2[2] = {v, cnt};
	const void *d2[2] = {w, n};
	const struct check_others o2 = {b2, d2};
	struct check m = {.pos = {14, 5}, .kind = CHECK_REDUCE, .reduce = RED_MIN,
			  .cmp = {.ops = 1u << BOUND_GE}};
	m.cmp.bound[BOUND_GE].ref = (struct name_ref){.name = "count", .idx = 1};
	cap_open(&k, "t.yaml");
	ck_assert(!check_buffer(&m, &v, w, &o2, &k.d));
	ck_assert_str_eq(cap_text(&k),
		"t.yaml:14:5: error: check failed: the min of buffer 'v' is -5 (at index 1); "
		"expected >= 18446744073709551615 ('count'[0])\n");
	cap_close(&k);
}
END_TEST

/* A message prints a float with more digits when nine would hide the miss. */
START_TEST(test_check_digits)
{
	struct buffer b = buf("z", ET_F64, 1);
	double z[1] = {1.0000000001};
	struct check c = reduce_check(RED_SUM, BOUND_EQ, U(1));
	struct cap k;
	cap_open(&k, "t.yaml");
	ck_assert(!check_buffer(&c, &b, z, NULL, &k.d));
	ck_assert_str_eq(cap_text(&k),
		"t.yaml:7:5: error: check failed: the sum of buffer 'z' is 1.0000000001; "
		"expected == 1\n");
	cap_close(&k);
}
END_TEST

/* Host actions ------------------------------------------------------------ */

/* A definition with buffers a (i32 x 6, host) and b (f32 x 4, managed). */
struct host_fixture {
	struct gdef *g;
	int32_t a[6];
	float b[4];
	void *host[2];
	struct host_env env;
	char *out;
	size_t outlen;
};

static void host_fixture(struct host_fixture *x, bool quiet)
{
	x->g = gdef_new("t.yaml");
	struct buffer *a = VEC_PUSH(x->g->buffers, x->g->nbuffers, x->g->capbuffers);
	*a = buf("a", ET_I32, 6);
	a->memory = MEM_HOST;
	struct buffer *b = VEC_PUSH(x->g->buffers, x->g->nbuffers, x->g->capbuffers);
	*b = buf("b", ET_F32, 4);
	b->memory = MEM_MANAGED;
	for (int i = 0; i < 6; i++)
		x->a[i] = i;
	for (int i = 0; i < 4; i++)
		x->b[i] = 0.5f * (float)i;
	x->host[0] = x->a;
	x->host[1] = x->b;
	x->out = NULL;
	FILE *f = open_memstream(&x->out, &x->outlen);
	ck_assert_ptr_nonnull(f);
	x->env = (struct host_env){.g = x->g, .host = x->host, .out = f, .quiet = quiet};
}

static const char *host_output(struct host_fixture *x)
{
	fflush(x->env.out);
	return x->out;
}

static void host_fixture_free(struct host_fixture *x)
{
	fclose(x->env.out);
	free(x->out);
	x->g->buffers[0].name = x->g->buffers[1].name = NULL;
	gdef_free(x->g);
}

static struct node host_node(enum host_action a)
{
	struct node n = {.kind = NK_HOST};
	n.u.host.action = a;
	return n;
}

START_TEST(test_host_dump_once)
{
	struct host_fixture x;
	host_fixture(&x, false);
	struct node n = host_node(HOST_DUMP);
	n.u.host.buffer = (struct name_ref){.name = "a", .idx = 0};
	n.u.host.offset = 1;
	n.u.host.count = 3;
	struct host_call call = {.env = &x.env, .n = &n};
	/*
	 * three verification launches (run.verify_launches: 3), the last one
	 * armed, then 3 warm-up and 20 timed: one line, the third launch's
	 */
	for (int i = 0; i < 26; i++) {
		host_dump_arm(&x.env, i == 2);
		host_run(&call);
		x.a[2] += 10;
	}
	ck_assert_str_eq(host_output(&x), "a[1..4) = [1, 22, 3]\n");
	ck_assert_uint_eq(call.runs, 26);
	/* every: true prints on each run */
	n.u.host.every = true;
	n.u.host.has_count = true;
	n.u.host.count = 2;
	host_run(&call);
	host_run(&call);
	ck_assert_str_eq(host_output(&x), "a[1..4) = [1, 22, 3]\n"
			 "a[1..3) = [1, 262]\n"
			 "a[1..3) = [1, 262]\n");
	host_fixture_free(&x);
}
END_TEST

START_TEST(test_host_quiet)
{
	struct host_fixture x;
	host_fixture(&x, true);
	struct node p = host_node(HOST_PRINT), d = host_node(HOST_DUMP), s = host_node(HOST_SET);
	p.u.host.text = "hello";
	d.u.host.buffer = (struct name_ref){.name = "b", .idx = 1};
	d.u.host.count = 4;
	struct memset_node set = {.buffer = {.name = "b", .idx = 1}, .value = F(-1.5),
				  .offset = 0, .count = 4};
	s.u.host.set = &set;
	struct host_call cp = {.env = &x.env, .n = &p}, cd = {.env = &x.env, .n = &d},
		cs = {.env = &x.env, .n = &s};
	host_dump_arm(&x.env, true);
	host_run(&cp);
	host_run(&cd);
	host_run(&cs);
	/* -q: nothing printed, but set still acts */
	ck_assert_str_eq(host_output(&x), "");
	for (int i = 0; i < 4; i++)
		ck_assert(x.b[i] == -1.5f);
	host_fixture_free(&x);
}
END_TEST

START_TEST(test_host_print_each_run)
{
	struct host_fixture x;
	host_fixture(&x, false);
	struct node p = host_node(HOST_PRINT);
	p.u.host.text = "tick";
	struct host_call cp = {.env = &x.env, .n = &p};
	host_run(&cp);
	host_run(&cp);
	ck_assert_str_eq(host_output(&x), "tick\ntick\n");
	host_fixture_free(&x);
}
END_TEST

START_TEST(test_host_set_copy)
{
	struct host_fixture x;
	host_fixture(&x, false);
	/* set a slice: a[2..5) = 7 */
	struct node s = host_node(HOST_SET);
	struct memset_node set = {.buffer = {.name = "a", .idx = 0}, .value = I(7),
				  .offset = 2, .count = 3};
	s.u.host.set = &set;
	struct host_call cs = {.env = &x.env, .n = &s};
	host_run(&cs);
	const int32_t want[6] = {0, 1, 7, 7, 7, 5};
	ck_assert(memcmp(x.a, want, sizeof want) == 0);
	/* copy 2 floats (8 bytes) from b[1] to a[0]: the bytes, as a copy node moves them */
	struct node c = host_node(HOST_COPY);
	struct copy_node cpy = {.from = {.buffer = {.name = "b", .idx = 1}, .offset = 1},
				.to = {.buffer = {.name = "a", .idx = 0}, .offset = 0},
				.count = 2, .bytes = 8};
	c.u.host.copy = &cpy;
	struct host_call cc = {.env = &x.env, .n = &c};
	host_run(&cc);
	ck_assert(memcmp(&x.a[0], &x.b[1], 8) == 0);
	ck_assert_int_eq(x.a[2], 7);
	ck_assert_str_eq(host_output(&x), "");
	host_fixture_free(&x);
}
END_TEST

static Suite *buf_suite(void)
{
	Suite *s = suite_create("buf");
	TCase *tc = tcase_create("reduce");
	tcase_add_test(tc, test_sum_integers_exact);
	tcase_add_test(tc, test_min_max_integers);
	tcase_add_test(tc, test_norm2_integers);
	tcase_add_test(tc, test_nonzero_differ);
	tcase_add_test(tc, test_sum_floats_reference);
	tcase_add_test(tc, test_sum_floats_known);
	tcase_add_test(tc, test_not_finite);
	tcase_add_test(tc, test_figure_bounds);
	suite_add_tcase(s, tc);
	tc = tcase_create("check");
	tcase_add_test(tc, test_check_sum_tolerance);
	tcase_add_test(tc, test_check_residual);
	tcase_add_test(tc, test_check_min_max_range);
	tcase_add_test(tc, test_check_counts);
	tcase_add_test(tc, test_check_finite);
	tcase_add_test(tc, test_check_slice_and_buffers);
	tcase_add_test(tc, test_check_formula);
	tcase_add_test(tc, test_init_formula);
	tcase_add_test(tc, test_elems_differ_is_elem_matches);
	tcase_add_test(tc, test_check_bound_buffer);
	tcase_add_test(tc, test_check_digits);
	suite_add_tcase(s, tc);
	tc = tcase_create("host");
	tcase_add_test(tc, test_host_dump_once);
	tcase_add_test(tc, test_host_quiet);
	tcase_add_test(tc, test_host_print_each_run);
	tcase_add_test(tc, test_host_set_copy);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_MAIN(buf_suite)
