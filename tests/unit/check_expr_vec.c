/*
 * Unit tests for src/expr_vec.c: a template at many points at once must
 * give what tmpl_eval gives at each point, values and types, and the
 * first failing point's error; the fast path must be taken where it can.
 */
#include "config.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "expr_vec.h"
#include "strbuf.h"
#include "unit.h"

static const char *const names[] = {"i", "j", "k"};

static long lookup(void *ctx, const char *name)
{
	(void)ctx;
	for (long s = 0; s < 3; s++)
		if (strcmp(name, names[s]) == 0)
			return s;
	return -1;
}

static uint64_t state = 0x9e3779b97f4a7c15u;

static uint64_t rnd(void)
{
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return state;
}

static unsigned pick(unsigned n)
{
	return (unsigned)(rnd() % n);
}

/* A random expression over i, j, k into sb. */
static void gen(struct strbuf *sb, int depth)
{
	static const char *const lits[] = {
		"0", "1", "2", "3", "7", "10", "255", "256", "0.5", "2.5", "-1", "1e300", "0.0",
		"9223372036854775807", "4611686018427387904", "3037000500", "63", "64", "'f32'",
		"1e-300", "0x10",
	};
	static const char *const bins[] = {
		"+", "-", "*", "/", "%", "**", "<<", ">>", "==", "!=", "<", "<=", ">", ">=", "&&",
		"||",
	};
	static const char *const calls1[] = {
		"abs", "floor", "ceil", "round", "sqrt", "log2", "int", "float",
	};
	static const char *const calls2[] = {"min", "max", "ceil_div", "pow"};
	char buf[64];
	unsigned what = depth <= 0 ? pick(2) : pick(12);
	switch (what) {
	case 0: {
		const char *l = lits[pick(sizeof lits / sizeof *lits)];
		strbuf_add(sb, l, strlen(l));
		return;
	}
	case 1:
		strbuf_add(sb, names[pick(3)], 1);
		return;
	case 2:
		strbuf_addc(sb, "-+!"[pick(3)]);
		strbuf_addc(sb, '(');
		gen(sb, depth - 1);
		strbuf_addc(sb, ')');
		return;
	case 3:
		strbuf_addc(sb, '(');
		gen(sb, depth - 1);
		strbuf_add(sb, " ? ", 3);
		gen(sb, depth - 1);
		strbuf_add(sb, " : ", 3);
		gen(sb, depth - 1);
		strbuf_addc(sb, ')');
		return;
	case 4: {
		const char *f = calls1[pick(sizeof calls1 / sizeof *calls1)];
		snprintf(buf, sizeof buf, "%s(", f);
		strbuf_add(sb, buf, strlen(buf));
		gen(sb, depth - 1);
		strbuf_addc(sb, ')');
		return;
	}
	case 5: {
		const char *f = calls2[pick(sizeof calls2 / sizeof *calls2)];
		snprintf(buf, sizeof buf, "%s(", f);
		strbuf_add(sb, buf, strlen(buf));
		gen(sb, depth - 1);
		strbuf_addc(sb, ',');
		gen(sb, depth - 1);
		strbuf_addc(sb, ')');
		return;
	}
	default: {
		const char *op = bins[pick(sizeof bins / sizeof *bins)];
		strbuf_addc(sb, '(');
		gen(sb, depth - 1);
		strbuf_addc(sb, ' ');
		strbuf_add(sb, op, strlen(op));
		strbuf_addc(sb, ' ');
		gen(sb, depth - 1);
		strbuf_addc(sb, ')');
		return;
	}
	}
}

/* Two values the same: type, and value (the bits of a float; NaNs alike). */
static bool same(const struct expr_val *a, const struct expr_val *b)
{
	if (a->type != b->type)
		return false;
	switch (a->type) {
	case EXPR_INT:
		return a->i == b->i;
	case EXPR_FLOAT:
		return (isnan(a->f) && isnan(b->f)) || memcmp(&a->f, &b->f, sizeof a->f) == 0;
	case EXPR_STR:
		return a->len == b->len && memcmp(a->s, b->s, a->len) == 0;
	}
	return false;
}

static struct expr_val res_at(const struct tmpl_vec_res *r, size_t k)
{
	switch (r->type) {
	case EXPR_INT:
		return expr_int(r->i[k]);
	case EXPR_FLOAT:
		return expr_float(r->f[k]);
	default:
		return r->v[k];
	}
}

/*
 * text at n points of vars (3 arrays), both ways; aborts with the first
 * difference.  Returns whether the block failed (an error at some point).
 */
static bool compare_ways(const char *text, struct tmpl *t, struct tmpl_vec *v, int64_t *vars[3],
			 size_t n)
{
	struct tmpl_vec_res r;
	size_t bad = 99999;
	struct expr_err verr, serr;
	bool ok = tmpl_vec_eval(v, (const int64_t *const *)vars, n, &r, &bad, &verr);
	for (size_t k = 0; k < n; k++) {
		struct expr_val pt[3] = {expr_int(vars[0][k]), expr_int(vars[1][k]),
					 expr_int(vars[2][k])}, one;
		bool sok = tmpl_eval(t, pt, NULL, &one, &serr);
		if (!sok) {
			ck_assert_msg(!ok, "%s at i=%" PRId64 " j=%" PRId64 " k=%" PRId64 ": vector "
				      "gave a value, one point the error %s", text, vars[0][k],
				      vars[1][k], vars[2][k], serr.msg);
			ck_assert_msg(bad == k, "%s: first failing point %zu, vector said %zu", text,
				      k, bad);
			ck_assert_msg(strcmp(serr.msg, verr.msg) == 0 && serr.off == verr.off &&
				      serr.len == verr.len, "%s: error \"%s\"@%u+%u, vector \"%s\"@%u+%u",
				      text, serr.msg, serr.off, serr.len, verr.msg, verr.off, verr.len);
			return true;
		}
		ck_assert_msg(ok || k < bad, "%s: the vector failed at point %zu (%s), one point "
			      "did not", text, bad, verr.msg);
		if (!ok)
			continue;       /* no values from the vector: the points before its failure */
		struct expr_val got = res_at(&r, k);
		struct strbuf a = {0}, b = {0};
		if (!same(&got, &one)) {
			expr_format(&got, &a);
			expr_format(&one, &b);
			ck_abort_msg("%s at i=%" PRId64 " j=%" PRId64 " k=%" PRId64 ": vector %s (type "
				     "%d), one point %s (type %d)", text, vars[0][k], vars[1][k],
				     vars[2][k], a.buf, got.type, b.buf, one.type);
		}
	}
	ck_assert_msg(ok, "%s: vector failed, no point did", text);
	return false;
}

static struct tmpl *compile(const char *text)
{
	struct expr_err err;
	struct tmpl *t = tmpl_parse_expr(text, strlen(text), &err);
	if (t && !tmpl_link(t, lookup, NULL, &err)) {
		tmpl_free(t);
		t = NULL;
	}
	return t;
}

START_TEST(test_random_against_one_point)
{
	struct strbuf sb = {0};
	int64_t *vars[3];
	for (int s = 0; s < 3; s++)
		vars[s] = malloc(TMPL_VEC_MAX * sizeof *vars[s]);
	static const int64_t extreme[] = {INT64_MAX, INT64_MIN, -1, 0, 1, 3037000500, -64};
	size_t failed = 0, fine = 0, fast = 0;
	for (int iter = 0; iter < 4000; iter++) {
		strbuf_truncate(&sb, 0);
		gen(&sb, 1 + (int)pick(5));
		struct tmpl *t = compile(sb.buf);
		if (t == NULL)
			continue;
		struct tmpl_vec *v = tmpl_vec_new(t, 3);
		ck_assert_ptr_nonnull(v);
		for (int round = 0; round < 4; round++) {
			size_t n = 1 + pick(TMPL_VEC_MAX);
			for (size_t k = 0; k < n; k++) {
				vars[0][k] = round == 0 ? (int64_t)k : (int64_t)pick(200) - 100;
				vars[1][k] = round < 2 ? (int64_t)(k % 7) : (int64_t)pick(9);
				vars[2][k] = round == 3 && pick(8) == 0 ?
					extreme[pick(sizeof extreme / sizeof *extreme)] : (int64_t)pick(5);
			}
			size_t slow = tmpl_vec_slow_blocks(v);
			if (compare_ways(sb.buf, t, v, vars, n))
				failed++;
			else
				fine++;
			fast += tmpl_vec_slow_blocks(v) == slow;
		}
		tmpl_vec_free(v);
		tmpl_free(t);
	}
	/* both outcomes, and the fast path, common enough to mean something */
	ck_assert_uint_gt(failed, 1000);
	ck_assert_uint_gt(fine, 4000);
	ck_assert_uint_gt(fast, 3000);
	for (int s = 0; s < 3; s++)
		free(vars[s]);
	strbuf_free(&sb);
}
END_TEST

/* Formulas that are plain arithmetic go the fast way, every block. */
START_TEST(test_fast_path_taken)
{
	static const char *const texts[] = {
		"2 * i + 1", "i * 0.5 - 3", "(i % 64) * 2.0 + i / 64", "i < 10 ? 1.5 : 2.5",
		"i > 0 && j > 0", "!i || j", "-i", "i == j ? i : j", "i / 3 * 3 == i",
		"1.0 / (i + 1)", "i % 7 == 0 ? 100 / (i + 1) : 0",
	};
	int64_t *vars[3];
	for (int s = 0; s < 3; s++) {
		vars[s] = malloc(TMPL_VEC_MAX * sizeof *vars[s]);
		for (size_t k = 0; k < TMPL_VEC_MAX; k++)
			vars[s][k] = (int64_t)(k * (s + 1));
	}
	for (size_t x = 0; x < sizeof texts / sizeof *texts; x++) {
		struct tmpl *t = compile(texts[x]);
		ck_assert_ptr_nonnull(t);
		struct tmpl_vec *v = tmpl_vec_new(t, 3);
		compare_ways(texts[x], t, v, vars, TMPL_VEC_MAX);
		ck_assert_msg(tmpl_vec_slow_blocks(v) == 0, "%s went one point at a time", texts[x]);
		tmpl_vec_free(v);
		tmpl_free(t);
	}
	for (int s = 0; s < 3; s++)
		free(vars[s]);
}
END_TEST

/* A branch not taken may fail: the block goes the slow way, and gives the right values. */
START_TEST(test_branch_not_taken)
{
	struct tmpl *t = compile("i > 0 ? 100 / i : -1");
	struct tmpl_vec *v = tmpl_vec_new(t, 3);
	int64_t a[4] = {0, 1, 2, 50}, z[4] = {0};
	int64_t *vars[3] = {a, z, z};
	struct tmpl_vec_res r;
	size_t bad;
	struct expr_err err;
	ck_assert(tmpl_vec_eval(v, (const int64_t *const *)vars, 4, &r, &bad, &err));
	ck_assert_int_eq(r.type, EXPR_INT);
	ck_assert_int_eq(r.i[0], -1);
	ck_assert_int_eq(r.i[1], 100);
	ck_assert_int_eq(r.i[3], 2);
	ck_assert_uint_eq(tmpl_vec_slow_blocks(v), 1);
	tmpl_vec_free(v);
	tmpl_free(t);
	/* mixed types at different points: each its own */
	t = compile("i > 1 ? 2.5 : 3");
	v = tmpl_vec_new(t, 3);
	ck_assert(tmpl_vec_eval(v, (const int64_t *const *)vars, 4, &r, &bad, &err));
	ck_assert_int_eq(r.type, EXPR_STR);
	ck_assert_int_eq(r.v[0].type, EXPR_INT);
	ck_assert_int_eq(r.v[2].type, EXPR_FLOAT);
	tmpl_vec_free(v);
	tmpl_free(t);
	/* the first failing point's error */
	t = compile("10 / (i - 2)");
	v = tmpl_vec_new(t, 3);
	ck_assert(!tmpl_vec_eval(v, (const int64_t *const *)vars, 4, &r, &bad, &err));
	ck_assert_uint_eq(bad, 2);
	ck_assert_str_eq(err.msg, "division by zero in '/'");
	ck_assert_uint_eq(err.off, 3);
	tmpl_vec_free(v);
	tmpl_free(t);
}
END_TEST

static Suite *expr_vec_suite(void)
{
	Suite *s = suite_create("expr_vec");
	TCase *tc = tcase_create("core");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_random_against_one_point);
	tcase_add_test(tc, test_fast_path_taken);
	tcase_add_test(tc, test_branch_not_taken);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_MAIN(expr_vec_suite)
