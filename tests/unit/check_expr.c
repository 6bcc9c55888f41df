/* Unit tests for src/expr.c (the expression language of templates) and src/strbuf.c. */
#include "config.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr.h"
#include "strbuf.h"
#include "strmap.h"
#include "unit.h"

/*
 * The variables every test sees.  Slots are deliberately not in name
 * order, so that a wrong link shows.
 */
static const struct var {
	const char *name;
	struct expr_val val;
} test_vars[] = {
	{"j", {.type = EXPR_INT, .i = 7}},
	{"n", {.type = EXPR_INT, .i = 1000}},
	{"i", {.type = EXPR_INT, .i = 3}},
	{"T", {.type = EXPR_STR, .len = 5, .s = "float"}},
	{"U", {.type = EXPR_STR, .len = 6, .s = "double"}},
	{"x", {.type = EXPR_FLOAT, .f = 2.5}},
	{"big", {.type = EXPR_INT, .i = INT64_MAX}},
	{"small", {.type = EXPR_INT, .i = INT64_MIN}},
	{"neg", {.type = EXPR_INT, .i = -7}},
	{"zero", {.type = EXPR_INT, .i = 0}},
	{"empty", {.type = EXPR_STR, .len = 0, .s = ""}},
	{"bad", {.type = EXPR_STR, .len = 5, .s = "flaot"}},
	{"nan", {.type = EXPR_FLOAT, .f = NAN}},
	{"inf", {.type = EXPR_FLOAT, .f = INFINITY}},
};
#define N_VARS (sizeof test_vars / sizeof *test_vars)

static struct expr_val vals[N_VARS];

static long lookup(void *ctx, const char *name)
{
	(void)ctx;
	for (size_t k = 0; k < N_VARS; k++)
		if (strcmp(name, test_vars[k].name) == 0)
			return (long)k;
	return -1;
}

static void setup(void)
{
	for (size_t k = 0; k < N_VARS; k++)
		vals[k] = test_vars[k].val;
}

/*
 * A value or an error as one line, so that tests compare strings:
 * "int 3", "float 2.5", "str abc", "E2+1 division by zero in '/'"
 * (the error's offset, its length, its message).
 */
static char line[512];

static const char *describe(bool ok, const struct expr_val *v, const struct expr_err *err)
{
	if (!ok) {
		snprintf(line, sizeof line, "E%" PRIu32 "+%" PRIu32 " %s", err->off, err->len, err->msg);
		return line;
	}
	struct strbuf sb = {0};
	expr_format(v, &sb);
	const char *kind = v->type == EXPR_INT ? "int" : v->type == EXPR_FLOAT ? "float" : "str";
	snprintf(line, sizeof line, "%s %s", kind, sb.buf ? sb.buf : "");
	strbuf_free(&sb);
	return line;
}

/* Parse (as a template, or a bare expression), link against test_vars and evaluate. */
static const char *run_text(const char *text, size_t len, bool bare)
{
	struct expr_err err;
	memset(&err, 0xa5, sizeof err);
	struct tmpl *t = bare ? tmpl_parse_expr(text, len, &err) : tmpl_parse(text, len, &err);
	if (t == NULL) {
		ck_assert_uint_le(err.off, len);
		return describe(false, NULL, &err);
	}
	struct expr_val v;
	bool ok = tmpl_link(t, lookup, NULL, &err);
	struct strbuf sb = {0};
	if (ok)
		ok = tmpl_eval(t, vals, &sb, &v, &err);
	describe(ok, &v, &err);
	strbuf_free(&sb);
	tmpl_free(t);
	return line;
}

/* A bare expression: offsets count from its first byte. */
static const char *ex(const char *expr)
{
	return run_text(expr, strlen(expr), true);
}

/* A template. */
static const char *tp(const char *text)
{
	return run_text(text, strlen(text), false);
}

struct case_ {
	const char *in;
	const char *out;
};

static void check_cases(const struct case_ *c, size_t n, bool bare)
{
	for (size_t k = 0; k < n; k++) {
		const char *got = bare ? ex(c[k].in) : tp(c[k].in);
		if (strcmp(got, c[k].out) != 0)
			ck_abort_msg("%s: got \"%s\", expected \"%s\"", c[k].in, got, c[k].out);
	}
}
#define CHECK_EXPRS(cases) check_cases(cases, sizeof cases / sizeof *cases, true)
#define CHECK_TMPLS(cases) check_cases(cases, sizeof cases / sizeof *cases, false)

START_TEST(test_precedence)
{
	static const struct case_ cases[] = {
		{"1 + 2 * 3", "int 7"},
		{"(1 + 2) * 3", "int 9"},
		{"10 - 4 - 3", "int 3"},          /* left associative */
		{"100 / 10 / 5", "int 2"},
		{"2 ** 3 ** 2", "int 512"},       /* right associative */
		{"(2 ** 3) ** 2", "int 64"},
		{"-2 ** 2", "int -4"},            /* ** binds tighter than unary minus */
		{"(-2) ** 2", "int 4"},
		{"2 ** -1", "E2+2 negative exponent -1 in '**' of integers (make one a float)"},
		{"2.0 ** -1", "float 0.5"},
		{"-i ** 2", "int -9"},
		{"!0 + 1", "int 2"},              /* unary binds tighter than + */
		{"1 << 2 + 1", "int 8"},          /* + before << */
		{"1 < 2 == 1", "int 1"},          /* < before == */
		{"1 + 1 < 3", "int 1"},
		{"8 >> 1 < 5", "int 1"},          /* >> before < */
		{"1 == 1 && 0 == 0", "int 1"},
		{"1 || 0 && 0", "int 1"},         /* && before || */
		{"(1 || 0) && 0", "int 0"},
		{"0 ? 1 : 0 ? 2 : 3", "int 3"},   /* ?: right associative */
		{"1 ? 0 ? 4 : 5 : 6", "int 5"},
		{"1 ? 2 : 3 + 10", "int 2"},      /* ?: lowest */
		{"0 || 1 ? 7 : 8", "int 7"},
		{"7 % 4 * 2", "int 6"},
		{"2 * 7 % 4", "int 2"},
		{"- - 5", "int 5"},
		{"-+-5", "int 5"},
		{"!!7", "int 1"},
		{"! 0 == 1", "int 1"},
		{"2**2**-1 ", "E4+2 negative exponent -1 in '**' of integers (make one a float)"},
		{" \t\n\r1\n+\t2 ", "int 3"},
		{"n/256", "int 3"},
		{"((((i))))", "int 3"},
	};
	CHECK_EXPRS(cases);
}
END_TEST

START_TEST(test_int_ops)
{
	static const struct case_ cases[] = {
		{"7 / 2", "int 3"},
		{"-7 / 2", "int -3"},             /* truncates toward zero */
		{"7 / -2", "int -3"},
		{"-7 % 2", "int -1"},             /* sign of the dividend */
		{"7 % -2", "int 1"},
		{"0x1F + 0X10", "int 47"},
		{"010", "int 10"},                /* no octal */
		{"9223372036854775807", "int 9223372036854775807"},
		{"-9223372036854775808", "int -9223372036854775808"},
		{"-9223372036854775807 - 1", "int -9223372036854775808"},
		{"big + 1", "E4+1 integer overflow in '+'"},
		{"small - 1", "E6+1 integer overflow in '-'"},
		{"big * 2", "E4+1 integer overflow in '*'"},
		{"small / -1", "E6+1 integer overflow in '/'"},
		{"small % -1", "int 0"},
		{"-small", "E0+1 integer overflow in '-'"},
		{"- -9223372036854775808", "E0+1 integer overflow in '-'"},
		{"+small", "int -9223372036854775808"},
		{"1 / 0", "E2+1 division by zero in '/'"},
		{"1 % zero", "E2+1 division by zero in '%'"},
		{"1 << 62", "int 4611686018427387904"},
		{"1 << 63", "E2+2 integer overflow in '<<'"},
		{"-1 << 63", "int -9223372036854775808"},
		{"3 << 62", "E2+2 integer overflow in '<<'"},
		{"1 << 64", "E2+2 shift count 64 out of range in '<<' (0 to 63)"},
		{"1 >> -1", "E2+2 shift count -1 out of range in '>>' (0 to 63)"},
		{"8 >> 63", "int 0"},
		{"-5 >> 1", "int -3"},            /* arithmetic */
		{"small >> 63", "int -1"},
		{"2 ** 62", "int 4611686018427387904"},
		{"2 ** 63", "E2+2 integer overflow in '**'"},
		{"(-2) ** 63", "int -9223372036854775808"},
		{"(-2) ** 64", "E5+2 integer overflow in '**'"},
		{"3 ** 40", "E2+2 integer overflow in '**'"},
		{"3 ** 39", "int 4052555153018976267"},
		{"0 ** 0", "int 1"},
		{"0 ** big", "int 0"},
		{"1 ** big", "int 1"},
		{"(-1) ** big", "int -1"},
		{"(-1) ** (big - 1)", "int 1"},
		{"10 ** 18", "int 1000000000000000000"},
		{"10 ** 19", "E3+2 integer overflow in '**'"},
		{"big - big", "int 0"},
		{"i * j - n", "int -979"},
	};
	CHECK_EXPRS(cases);
}
END_TEST

START_TEST(test_float_ops)
{
	static const struct case_ cases[] = {
		{"1.5", "float 1.5"},
		{".5", "float 0.5"},
		{"1.", "float 1.0"},
		{"1e-3", "float 0.001"},
		{"2.5E+2", "float 250.0"},
		{"1e3", "float 1000.0"},
		{"1 + 0.5", "float 1.5"},
		{"i / 2.0", "float 1.5"},
		{"x * 2", "float 5.0"},
		{"7.5 % 2", "float 1.5"},
		{"-7.5 % 2", "float -1.5"},
		{"1.0 / 0", "E4+1 division by zero in '/'"},
		{"1 % 0.0", "E2+1 division by zero in '%'"},
		{"2.0 ** 0.5", "float 1.4142135623730951"},
		{"big + 1.0", "float 9.223372036854776e+18"},
		{"1e308 * 10", "float inf"},
		{"-1e308 * 10", "float -inf"},
		{"inf - inf", "float nan"},
		{"-0.0", "float -0.0"},
		{"0.1 + 0.2", "float 0.30000000000000004"},
		{"1.0 << 2", "E4+2 float 1.0 in '<<' (shifts take integers)"},
		{"1 >> x", "E2+2 float 2.5 in '>>' (shifts take integers)"},
		{"-x", "float -2.5"},
		{"+x", "float 2.5"},
		{"1e999", "E0+5 float 1e999 is too large"},
		{"1e-999", "float 0.0"},
	};
	CHECK_EXPRS(cases);
}
END_TEST

START_TEST(test_compare)
{
	static const struct case_ cases[] = {
		{"1 < 2", "int 1"}, {"2 < 1", "int 0"}, {"1 <= 1", "int 1"}, {"1 > 1", "int 0"},
		{"1 >= 1", "int 1"}, {"1 == 1", "int 1"}, {"1 != 1", "int 0"},
		{"2 == 2.0", "int 1"},
		{"2.5 > 2", "int 1"},
		{"2 < 2.5", "int 1"},
		{"-2.5 < -2", "int 1"},
		/* exactly, not through a double: 2**53 + 1 is no double */
		{"9007199254740993 > 9007199254740992.0", "int 1"},
		{"9007199254740992.0 < 9007199254740993", "int 1"},
		{"9007199254740993 == 9007199254740992.0", "int 0"},
		{"big < 9223372036854775808.0", "int 1"},
		{"big == 9223372036854775808.0", "int 0"},
		{"small == -9223372036854775808.0", "int 1"},
		{"small > -1e300", "int 1"},
		{"nan == nan", "int 0"},
		{"nan != nan", "int 1"},
		{"nan < 1", "int 0"},
		{"1 >= nan", "int 0"},
		{"1 != nan", "int 1"},
		{"T == 'float'", "int 1"},
		{"T != 'float'", "int 0"},
		{"T == U", "int 0"},
		{"T < U", "int 0"},               /* 'd' before 'f' */
		{"U < T", "int 1"},
		{"'ab' < 'abc'", "int 1"},        /* a prefix first */
		{"'abc' <= 'abc'", "int 1"},
		{"empty == ''", "int 1"},
		{"'\xc3\xa9' > 'z'", "int 1"},    /* bytes, unsigned */
		{"T == 1", "E2+2 comparing string 'float' with a number in '=='"},
		{"1 < T", "E2+1 comparing string 'float' with a number in '<'"},
	};
	CHECK_EXPRS(cases);
}
END_TEST

START_TEST(test_logic)
{
	static const struct case_ cases[] = {
		{"2 && 3", "int 1"},
		{"2 && 0", "int 0"},
		{"0 || 0.5", "int 1"},
		{"0 || 0", "int 0"},
		{"!2.5", "int 0"},
		{"!0.0", "int 1"},
		{"!nan", "int 0"},                /* NaN is true, as in C */
		{"nan ? 1 : 2", "int 1"},
		/* short-circuit: what is not evaluated cannot fail */
		{"0 && 1 / 0", "int 0"},
		{"1 || 1 / 0", "int 1"},
		{"1 && 1 / 0", "E7+1 division by zero in '/'"},
		{"zero ? 1 / zero : 42", "int 42"},
		{"n > 0 ? 100 / n : 1 / 0", "int 0"},
		{"0 && T", "int 0"},
		{"1 || T", "int 1"},
		{"i ? T : x", "str float"},       /* the branches may differ in type */
		{"zero ? T : x", "float 2.5"},
		/* strings are no conditions */
		{"T && 1", "E2+2 string 'float' as a condition in '&&'"},
		{"1 && T", "E2+2 string 'float' as a condition in '&&'"},
		{"0 || T", "E2+2 string 'float' as a condition in '||'"},
		{"T ? 1 : 2", "E2+1 string 'float' as a condition in '?'"},
		{"!T", "E0+1 string 'float' as a condition in '!'"},
		{"T + 1", "E2+1 string 'float' in '+' (arithmetic takes numbers)"},
		{"1 * T", "E2+1 string 'float' in '*' (arithmetic takes numbers)"},
		{"-T", "E0+1 string 'float' in '-' (arithmetic takes numbers)"},
		{"+'a'", "E0+1 string 'a' in '+' (arithmetic takes numbers)"},
		{"T << 1", "E2+2 string 'float' in '<<' (arithmetic takes numbers)"},
		{"0 ? 1 : 2 && T", "E10+2 string 'float' as a condition in '&&'"},
	};
	CHECK_EXPRS(cases);
}
END_TEST

START_TEST(test_functions)
{
	static const struct case_ cases[] = {
		{"min(3, 1, 2)", "int 1"},
		{"max(3, 1, 2)", "int 3"},
		{"min(3, 1.5)", "float 1.5"},
		{"max(3, 1.5)", "float 3.0"},     /* any float makes float */
		{"min(small, big)", "int -9223372036854775808"},
		{"max(1, nan)", "float nan"},
		{"min(nan, 1)", "float nan"},
		{"min(1, T)", "E0+3 string 'float' in 'min' (it takes numbers)"},
		{"ceil_div(n, 256)", "int 4"},
		{"ceil_div(1024, 256)", "int 4"},
		{"ceil_div(0, 7)", "int 0"},
		{"ceil_div(big, 2)", "int 4611686018427387904"},
		{"ceil_div(big, big)", "int 1"},
		{"ceil_div(1, 0)", "E0+8 division by zero in 'ceil_div'"},
		{"ceil_div(1, -2)", "E0+8 negative divisor -2 in 'ceil_div'"},
		{"ceil_div(-1, 2)", "E0+8 negative dividend -1 in 'ceil_div'"},
		{"ceil_div(x, 2)", "E0+8 float 2.5 in 'ceil_div' (it takes integers)"},
		{"ceil_div(T, 2)", "E0+8 string 'float' in 'ceil_div' (it takes numbers)"},
		{"abs(-3)", "int 3"},
		{"abs(neg)", "int 7"},
		{"abs(-2.5)", "float 2.5"},
		{"abs(small)", "E0+3 integer overflow in 'abs'"},
		{"floor(2.5)", "int 2"},
		{"floor(-2.5)", "int -3"},
		{"ceil(2.1)", "int 3"},
		{"ceil(-2.9)", "int -2"},
		{"round(2.5)", "int 3"},
		{"round(-2.5)", "int -3"},        /* halves away from zero */
		{"round(2.49)", "int 2"},
		{"floor(7)", "int 7"},
		{"round(1e300)", "float 1e+300"}, /* no int holds it */
		{"floor(9223372036854775808.0)", "float 9.223372036854776e+18"},
		{"floor(-9223372036854775808.0)", "int -9223372036854775808"},
		{"ceil(inf)", "float inf"},
		{"round(nan)", "float nan"},
		{"sqrt(16)", "float 4.0"},
		{"sqrt(2)", "float 1.4142135623730951"},
		{"sqrt(-1)", "float nan"},         /* IEEE 754 */
		{"log2(1024)", "float 10.0"},
		{"log2(0)", "float -inf"},
		{"pow(2, 10)", "float 1024.0"},
		{"pow(2, -1)", "float 0.5"},
		{"int(2.9)", "int 2"},
		{"int(-2.9)", "int -2"},
		{"int(7)", "int 7"},
		{"int(-9223372036854775808.0)", "int -9223372036854775808"},
		{"int(9223372036854775808.0)", "E0+3 float 9.223372036854776e+18 out of range in 'int'"},
		{"int(nan)", "E0+3 float nan in 'int' (NaN has no integer value)"},
		{"int(-inf)", "E0+3 float -inf out of range in 'int'"},
		{"int(T)", "E0+3 string 'float' in 'int' (it takes numbers)"},
		{"float(3)", "float 3.0"},
		{"float(x)", "float 2.5"},
		{"float(big)", "float 9.223372036854776e+18"},
		{"min(1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,"
		 "30,31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,"
		 "58,59,60,61,62,63,0)", "int 0"},
		{"max(ceil_div(n, 256) * 256, min(n, 10))", "int 1024"},
		{"min ( 2 , 1 )", "int 1"},
	};
	CHECK_EXPRS(cases);
}
END_TEST

START_TEST(test_sizeof)
{
	static const struct case_ cases[] = {
		{"sizeof('u8')", "int 1"}, {"sizeof('i8')", "int 1"}, {"sizeof('u16')", "int 2"},
		{"sizeof('i16')", "int 2"}, {"sizeof('u32')", "int 4"}, {"sizeof('i32')", "int 4"},
		{"sizeof('u64')", "int 8"}, {"sizeof('i64')", "int 8"}, {"sizeof('f16')", "int 2"},
		{"sizeof('bf16')", "int 2"}, {"sizeof('f32')", "int 4"}, {"sizeof('f64')", "int 8"},
		{"sizeof(T)", "int 4"}, {"sizeof(U)", "int 8"},
		{"sizeof('half')", "int 2"}, {"sizeof('__half')", "int 2"},
		{"sizeof('__nv_bfloat16')", "int 2"}, {"sizeof('nv_bfloat16')", "int 2"},
		{"sizeof('char')", "int 1"}, {"sizeof('signed char')", "int 1"},
		{"sizeof('unsigned char')", "int 1"}, {"sizeof('bool')", "int 1"},
		{"sizeof('short')", "int 2"}, {"sizeof('unsigned short')", "int 2"},
		{"sizeof('int')", "int 4"}, {"sizeof('unsigned')", "int 4"},
		{"sizeof('unsigned int')", "int 4"}, {"sizeof('long')", "int 8"},
		{"sizeof('unsigned long')", "int 8"}, {"sizeof('long long')", "int 8"},
		{"sizeof('unsigned long long')", "int 8"}, {"sizeof('size_t')", "int 8"},
		{"sizeof('int8_t')", "int 1"}, {"sizeof('int16_t')", "int 2"},
		{"sizeof('int32_t')", "int 4"}, {"sizeof('int64_t')", "int 8"},
		{"sizeof('uint8_t')", "int 1"}, {"sizeof('uint16_t')", "int 2"},
		{"sizeof('uint32_t')", "int 4"}, {"sizeof('uint64_t')", "int 8"},
		{"n * sizeof(T)", "int 4000"},
		{"sizeof(bad)", "E0+6 unknown type 'flaot' in 'sizeof' (did you mean 'float'?)"},
		{"sizeof('F32')", "E0+6 unknown type 'F32' in 'sizeof' (did you mean 'f32'?)"},
		{"sizeof('quaternion')", "E0+6 unknown type 'quaternion' in 'sizeof'"},
		{"sizeof('')", "E0+6 unknown type '' in 'sizeof'"},
		{"sizeof('float ')", "E0+6 unknown type 'float ' in 'sizeof' (did you mean 'float'?)"},
		{"sizeof(4)", "E0+6 4 in 'sizeof' (it takes a type name such as 'f32')"},
		{"sizeof(x)", "E0+6 float 2.5 in 'sizeof' (it takes a type name such as 'f32')"},
	};
	CHECK_EXPRS(cases);
}
END_TEST

/* Formatting: the shortest text that reads back as the same double. */
static const char *fmt(struct expr_val v)
{
	static char buf[64];
	struct strbuf sb = {0};
	expr_format(&v, &sb);
	snprintf(buf, sizeof buf, "%s", sb.buf);
	strbuf_free(&sb);
	return buf;
}

/* The text before the fast path (fmt_float_short): printf's, tried at 15 to 17 digits. */
static const char *fmt_printf(double f)
{
	static char buf[64];
	int n = 0;
	for (int prec = fabs(f) < DBL_MIN ? 1 : 15; prec <= 17; prec++) {
		n = snprintf(buf, 32, "%.*g", prec, f);
		if (strtod(buf, NULL) == f)
			break;
	}
	if (strpbrk(buf, ".e") == NULL)
		memcpy(buf + n, ".0", 3);
	return buf;
}

/* The fast path for short decimals writes what printf wrote, everywhere near it. */
START_TEST(test_format_short)
{
	static const double some[] = {
		0.5, 0.625, 1.5, 2.0, 3.0, 1e-4, 0.0001234, 0.1, 0.2, 0.3, 0.7, 1.1, 2.675,
		999999999.0, 999999999.5, 123456.123456, 0.015625, 1e8, 1e9 - 1e-6, 1e-4 - 1e-20,
		4503599627370496.0, 0.1 + 0.2, 1.0 / 3, 100.0, 1234.5678, 0.000123456,
	};
	for (size_t i = 0; i < sizeof some / sizeof *some; i++)
		for (int sign = -1; sign <= 1; sign += 2) {
			double f = sign * some[i];
			char want[64];
			snprintf(want, sizeof want, "%s", fmt_printf(f));
			ck_assert_msg(strcmp(fmt(expr_float(f)), want) == 0, "%.17g: %s, printf %s", f,
				      fmt(expr_float(f)), want);
		}
	/* decimals of up to 7 places, and their neighbours, over the range the fast path takes */
	uint64_t x = 0x2545f4914f6cdd1du;
	for (int k = 0; k < 200000; k++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		int places = (int)(x % 8);
		double scale = 1;
		for (int p = 0; p < places; p++)
			scale *= 10;
		double f = (double)((x >> 8) % 2000000000u) / scale;
		if (k % 3 == 1)
			f = nextafter(f, INFINITY);
		else if (k % 3 == 2)
			f = nextafter(f, 0);
		char want[64];
		snprintf(want, sizeof want, "%s", fmt_printf(f));
		ck_assert_msg(strcmp(fmt(expr_float(f)), want) == 0, "%.17g: %s, printf %s", f,
			      fmt(expr_float(f)), want);
	}
}
END_TEST

START_TEST(test_format)
{
	ck_assert_str_eq(fmt(expr_int(0)), "0");
	ck_assert_str_eq(fmt(expr_int(-12)), "-12");
	ck_assert_str_eq(fmt(expr_int(INT64_MAX)), "9223372036854775807");
	ck_assert_str_eq(fmt(expr_int(INT64_MIN)), "-9223372036854775808");
	ck_assert_str_eq(fmt(expr_float(2)), "2.0");
	ck_assert_str_eq(fmt(expr_float(0.1)), "0.1");
	ck_assert_str_eq(fmt(expr_float(1.0 / 3)), "0.3333333333333333");
	ck_assert_str_eq(fmt(expr_float(2.0 / 3)), "0.6666666666666666");
	ck_assert_str_eq(fmt(expr_float(1e20)), "1e+20");
	ck_assert_str_eq(fmt(expr_float(1e-7)), "1e-07");
	ck_assert_str_eq(fmt(expr_float(0.1 + 0.2)), "0.30000000000000004");
	ck_assert_str_eq(fmt(expr_float(1e23)), "1e+23");
	ck_assert_str_eq(fmt(expr_float(123456789012345.0)), "123456789012345.0");
	ck_assert_str_eq(fmt(expr_float(-0.0)), "-0.0");
	/* subnormals have fewer digits than %.15g prints */
	ck_assert_str_eq(fmt(expr_float(5e-324)), "5e-324");
	ck_assert_str_eq(fmt(expr_float(-1.5e-320)), "-1.5e-320");
	ck_assert_str_eq(fmt(expr_float(1.7976931348623157e308)), "1.7976931348623157e+308");
	ck_assert_str_eq(fmt(expr_float(INFINITY)), "inf");
	ck_assert_str_eq(fmt(expr_float(-INFINITY)), "-inf");
	ck_assert_str_eq(fmt(expr_float(NAN)), "nan");
	ck_assert_str_eq(fmt(expr_str("a b", 3)), "a b");
	/* Round trip: every finite double reads back from its text, exactly. */
	uint64_t x = 0x9e3779b97f4a7c15u;
	for (int k = 0; k < 20000; k++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		double d;
		memcpy(&d, &x, sizeof d);
		if (!isfinite(d))
			continue;
		const char *s = fmt(expr_float(d));
		char *end;
		double back = strtod(s, &end);
		ck_assert_msg(*end == '\0' && memcmp(&back, &d, sizeof d) == 0, "%a printed as %s", d, s);
		ck_assert_msg(strpbrk(s, ".e") != NULL, "%s reads back as an int", s);
	}
	/* ... and a float's text parses back in the language to the same float. */
	static const double samples[] = {0.1, 1.0 / 3, 1e20, 1e-7, 6.02214076e23, 2.0, 123.5};
	for (size_t k = 0; k < sizeof samples / sizeof *samples; k++) {
		char text[64];
		snprintf(text, sizeof text, "%s", fmt(expr_float(samples[k])));
		char want[80];
		snprintf(want, sizeof want, "float %s", text);
		ck_assert_str_eq(ex(text), want);
	}
}
END_TEST

START_TEST(test_templates)
{
	static const struct case_ cases[] = {
		{"${n}", "int 1000"},                     /* whole: the type stays */
		{"${ x }", "float 2.5"},
		{"${T}", "str float"},
		{"${'lit'}", "str lit"},
		{"k${i}", "str k3"},
		{"k${i}_${j}", "str k3_7"},
		{"${i}${j}", "str 37"},                   /* two pieces: a string */
		{" ${n}", "str  1000"},
		{"${n} ", "str 1000 "},
		{"k.scale<${T}>", "str k.scale<float>"},
		{"${x}", "float 2.5"},
		{"v${x}", "str v2.5"},
		{"v${x * 2}", "str v5.0"},
		{"${ceil_div(n, 256)}", "int 4"},
		{"plain text", "str plain text"},
		{"", "str "},
		{"$", "str $"},
		{"$$", "str $$"},
		{"a$b", "str a$b"},
		{"cost: $5", "str cost: $5"},
		{"$${n}", "str ${n}"},                    /* the escape */
		{"$${", "str ${"},
		{"a$${b}c${i}", "str a${b}c3"},
		{"$$${i}", "str $${i}"},                  /* left to right: $ then $${ */
		{"${'$'}${i}", "str $3"},
		{"${'}'}", "str }"},                      /* '}' in a string */
		{"${'a}b' == 'a}b'}", "int 1"},
		{"x${'{'}y", "str x{y"},
		{"${i}}", "str 3}"},
		{"}{", "str }{"},
		{"${T}${empty}", "str float"},
		{"${empty}", "str "},
		{"${i}$", "str 3$"},
		{"${i < j ? 'lt' : 'ge'}", "str lt"},
		/* errors: offsets in the whole text */
		{"ab${", "E2+2 unterminated '${'"},
		{"ab${n", "E2+2 unterminated '${'"},
		{"${n}${", "E4+2 unterminated '${'"},
		{"${'abc}", "E2+1 unterminated string"},
		{"${}", "E2+0 expected an expression after '${'"},
		{"x ${ }", "E5+0 expected an expression after '${'"},
		{"${1 +}", "E5+0 expected an expression after '+'"},
		{"${1 + }", "E6+0 expected an expression after '+'"},
		{"k${nn}", "E3+2 unknown name 'nn'"},
		{"${i}${1/0}", "E7+1 division by zero in '/'"},
		{"${a${b}}", "E3+1 unexpected character '$'"},
		{"${1 2}", "E4+1 unexpected '2' after the expression"},
	};
	CHECK_TMPLS(cases);
}
END_TEST

START_TEST(test_template_api)
{
	ck_assert(!tmpl_has_expr("plain", 5));
	ck_assert(!tmpl_has_expr("", 0));
	ck_assert(!tmpl_has_expr("$5 and $x", 9));
	ck_assert(!tmpl_has_expr("$", 1));
	ck_assert(tmpl_has_expr("${n}", 4));
	ck_assert(tmpl_has_expr("$${n}", 5));     /* the escape needs unescaping */
	ck_assert(tmpl_has_expr("a$ ${", 5));     /* the error needs reporting */
	ck_assert(!tmpl_has_expr("${n}", 1));     /* the length counts, not the NUL */

	struct expr_err err;
	struct tmpl *t = tmpl_parse("k${i}_${j}_${i + n}", 19, &err);
	ck_assert_ptr_nonnull(t);
	ck_assert(!tmpl_is_whole(t));
	ck_assert_uint_eq(tmpl_nexprs(t), 3);
	ck_assert_uint_eq(tmpl_nnames(t), 3);
	size_t off;
	ck_assert_str_eq(tmpl_name(t, 0, &off), "i");
	ck_assert_uint_eq(off, 3);
	ck_assert_str_eq(tmpl_name(t, 1, &off), "j");
	ck_assert_uint_eq(off, 8);
	ck_assert_str_eq(tmpl_name(t, 2, NULL), "n");

	/* Evaluating before linking is refused, not a crash. */
	struct strbuf sb = {0};
	struct expr_val v;
	ck_assert(!tmpl_eval(t, vals, &sb, &v, &err));
	ck_assert_str_eq(err.msg, "template evaluated before tmpl_link");

	/* Link through a strmap, then relink against other slots. */
	struct strmap *m = strmap_new(4);
	strmap_put(m, "i", 0, NULL);
	strmap_put(m, "j", 1, NULL);
	strmap_put(m, "n", 2, NULL);
	ck_assert(tmpl_link(t, tmpl_lookup_strmap, m, &err));
	struct expr_val a[3] = {expr_int(1), expr_int(2), expr_int(10)};
	strbuf_add(&sb, "pre:", 4);
	ck_assert(tmpl_eval(t, a, &sb, &v, &err));
	ck_assert_int_eq(v.type, EXPR_STR);
	ck_assert_uint_eq(v.len, 7);
	ck_assert_str_eq(v.s, "k1_2_11");
	ck_assert_str_eq(sb.buf, "pre:k1_2_11");   /* appended */
	ck_assert_ptr_eq(v.s, sb.buf + 4);
	/*
	 * The result appended to the buffer it lives in, which moves on the
	 * way (found by fuzzing; the sanitizer build sees the old buffer read).
	 */
	struct strbuf self = {0};
	for (int k = 0; k < 50; k++)
		strbuf_addc(&self, '-');
	ck_assert(tmpl_eval(t, a, &self, &v, &err));
	ck_assert_uint_eq(self.cap, 64);
	expr_format(&v, &self);
	ck_assert_uint_gt(self.cap, 64);
	ck_assert_uint_eq(self.len, 64);
	ck_assert_str_eq(self.buf + 50, "k1_2_11k1_2_11");
	strbuf_free(&self);
	/* An evaluation error leaves out as it was. */
	a[2] = expr_int(INT64_MAX);
	ck_assert(!tmpl_eval(t, a, &sb, &v, &err));
	ck_assert_str_eq(err.msg, "integer overflow in '+'");
	ck_assert_uint_eq(err.off, 15);
	ck_assert_str_eq(sb.buf, "pre:k1_2_11");
	ck_assert_uint_eq(sb.len, 11);

	struct strmap *m2 = strmap_new(4);
	strmap_put(m2, "n", 0, NULL);
	strmap_put(m2, "j", 1, NULL);
	strmap_put(m2, "i", 2, NULL);
	ck_assert(tmpl_link(t, tmpl_lookup_strmap, m2, &err));
	struct expr_val b[3] = {expr_int(100), expr_int(20), expr_int(3)};
	strbuf_truncate(&sb, 0);
	ck_assert(tmpl_eval(t, b, &sb, &v, &err));
	ck_assert_str_eq(v.s, "k3_20_103");
	/* A failed link leaves the template unlinked. */
	struct strmap *m3 = strmap_new(4);
	strmap_put(m3, "i", 0, NULL);
	ck_assert(!tmpl_link(t, tmpl_lookup_strmap, m3, &err));
	ck_assert_str_eq(err.msg, "unknown name 'j'");
	ck_assert_uint_eq(err.off, 8);
	ck_assert_uint_eq(err.len, 1);
	ck_assert(!tmpl_eval(t, b, &sb, &v, &err));
	strmap_free(m);
	strmap_free(m2);
	strmap_free(m3);
	tmpl_free(t);

	/* Whole: no strbuf needed, strings borrowed from the variables. */
	t = tmpl_parse("${T}", 4, &err);
	ck_assert(tmpl_is_whole(t));
	ck_assert(tmpl_link(t, lookup, NULL, &err));
	ck_assert(tmpl_eval(t, vals, NULL, &v, &err));
	ck_assert_ptr_eq(v.s, test_vars[3].val.s);
	tmpl_free(t);
	/* ... or from the template. */
	t = tmpl_parse("${'abc'}", 8, &err);
	ck_assert(tmpl_is_whole(t));
	ck_assert_uint_eq(tmpl_nnames(t), 0);
	ck_assert(tmpl_eval(t, NULL, NULL, &v, &err)); /* no names: no link */
	ck_assert_uint_eq(v.len, 3);
	ck_assert_str_eq(v.s, "abc");
	tmpl_free(t);

	/* Constant templates. */
	t = tmpl_parse("a$${b}", 6, &err);
	ck_assert(!tmpl_is_whole(t));
	ck_assert_uint_eq(tmpl_nexprs(t), 0);
	strbuf_truncate(&sb, 0);
	ck_assert(tmpl_eval(t, NULL, &sb, &v, &err));
	ck_assert_str_eq(v.s, "a${b}");
	tmpl_free(t);
	struct strbuf empty = {0};
	t = tmpl_parse("", 0, &err);
	ck_assert(tmpl_eval(t, NULL, &empty, &v, &err));
	ck_assert_uint_eq(v.len, 0);
	ck_assert_str_eq(v.s, "");
	tmpl_free(t);
	tmpl_free(NULL);

	/* Any bytes: the text is given by length, NULs included. */
	t = tmpl_parse("a\0${i}", 6, &err);
	ck_assert(tmpl_link(t, lookup, NULL, &err));
	strbuf_truncate(&sb, 0);
	ck_assert(tmpl_eval(t, vals, &sb, &v, &err));
	ck_assert_uint_eq(v.len, 3);
	ck_assert(memcmp(v.s, "a\0" "3", 3) == 0);
	tmpl_free(t);
	t = tmpl_parse("${i}", 3, &err); /* the '}' is past the end */
	ck_assert_ptr_null(t);
	ck_assert_str_eq(err.msg, "unterminated '${'");
	strbuf_free(&sb);
}
END_TEST

START_TEST(test_parse_errors)
{
	static const struct case_ cases[] = {
		{"", "E0+0 expected an expression"},
		{"   ", "E3+0 expected an expression"},
		{"1 +", "E3+0 expected an expression after '+'"},
		{"1 + * 2", "E4+1 expected an expression after '+'"},
		{"-", "E1+0 expected an expression after '-'"},
		{"(", "E1+0 expected an expression after '('"},
		{"(1", "E2+0 expected ')' to match '('"},
		{"(1 2)", "E3+1 expected ')' to match '('"},
		{"1)", "E1+1 unexpected ')' after the expression"},
		{"1 2", "E2+1 unexpected '2' after the expression"},
		{"n m", "E2+1 unexpected 'm' after the expression"},
		{"1 ? 2", "E5+0 expected ':' for '?'"},
		{"1 ? 2 :", "E7+0 expected an expression after ':'"},
		{"1 ?: 2", "E3+1 expected an expression after '?'"},
		{"min(1,)", "E6+1 expected an expression after ','"},
		{"min(1 2)", "E6+1 expected ',' or ')' after an argument of 'min'"},
		{"min(1", "E5+0 expected ',' or ')' after an argument of 'min'"},
		{"min(", "E4+0 expected an expression after '('"},
		{"ceildiv(n, 2)", "E0+7 unknown function 'ceildiv' (did you mean 'ceil_div'?)"},
		{"mni(1, 2)", "E0+3 unknown function 'mni' (did you mean 'min'?)"},
		{"frobnicate(1)", "E0+10 unknown function 'frobnicate'"},
		{"ceil_div(1)", "E0+8 'ceil_div' takes 2 arguments, found 1"},
		{"ceil_div(1, 2, 3)", "E0+8 'ceil_div' takes 2 arguments, found 3"},
		{"abs()", "E0+3 'abs' takes 1 argument, found 0"},
		{"abs(1, 2)", "E0+3 'abs' takes 1 argument, found 2"},
		{"min(1)", "E0+3 'min' takes 2 to 64 arguments, found 1"},
		{"max()", "E0+3 'max' takes 2 to 64 arguments, found 0"},
		{"1 = 2", "E2+1 unexpected '=' (did you mean '=='?)"},
		{"1 & 2", "E2+1 unexpected '&' (did you mean '&&'?)"},
		{"1 | 2", "E2+1 unexpected '|' (did you mean '||'?)"},
		{"1 # 2", "E2+1 unexpected character '#'"},
		{"1 ^ 2", "E2+1 unexpected character '^'"},
		{"a.b", "E1+1 unexpected character '.'"},
		{"\x01", "E0+1 unexpected character '\\x01'"},
		{"\xff", "E0+1 unexpected character '\\xff'"},
		{"\xc3\xa9", "E0+2 unexpected character '\xc3\xa9'"},
		{"1 \xe2\x89\xa4 2", "E2+3 unexpected character '\xe2\x89\xa4'"}, /* ≤ */
		{"\xc3", "E0+1 unexpected character '\\xc3'"},     /* cut short */
		{"${n}", "E0+1 unexpected character '$'"},
		{"n}", "E1+1 unexpected character '}'"},
		{"'abc", "E0+1 unterminated string"},
		{"1 + 'abc", "E4+1 unterminated string"},
		{"12ab", "E0+4 malformed number '12ab'"},
		{"1.2.3", "E0+5 malformed number '1.2.3'"},
		{"0x", "E0+2 malformed number '0x'"},
		{"0xg", "E0+3 malformed number '0xg'"},
		{"1e", "E0+2 malformed number '1e'"},
		{"1e+", "E0+2 malformed number '1e'"},  /* then '+': the number is what is wrong */
		{"2x", "E0+2 malformed number '2x'"},
		{"1_000", "E0+5 malformed number '1_000'"},
		{"9223372036854775808", "E0+19 integer 9223372036854775808 is too large (at most 9223372036854775807)"},
		{"-9223372036854775808 ** 2", "E1+19 integer 9223372036854775808 is too large (at most 9223372036854775807)"},
		{"-9223372036854775809", "E1+19 integer 9223372036854775809 is too large (at most 9223372036854775807)"},
		{"99999999999999999999999", "E0+23 integer 99999999999999999999999 is too large (at most 9223372036854775807)"},
		{"0x8000000000000000", "E0+18 integer 0x8000000000000000 is too large (at most 9223372036854775807)"},
		{"0x7fffffffffffffff", "int 9223372036854775807"},
		{"0x10000000000000000", "E0+19 integer 0x10000000000000000 is too large (at most 9223372036854775807)"},
		/* the first error wins */
		{"1 + # + (", "E4+1 unexpected character '#'"},
		{"nn + 1", "E0+2 unknown name 'nn'"},
		{"i + nope * nope", "E4+4 unknown name 'nope'"},
		{"min", "E0+3 unknown name 'min'"}, /* a name without '(' is a variable */
	};
	CHECK_EXPRS(cases);
	/* A long token is cut in the message. */
	ck_assert_str_eq(ex("1 + 1234567890123456789012345678901234567890123456789x"),
			 "E4+50 malformed number '1234567890123456789012345678901234567890...'");
}
END_TEST

/* text of n times open, then core, then n times close */
static char *nest(const char *open, const char *core, const char *close, int n)
{
	size_t lo = strlen(open), lc = strlen(core), lz = strlen(close);
	char *s = malloc(n * (lo + lz) + lc + 1), *p = s;
	for (int k = 0; k < n; k++, p += lo)
		memcpy(p, open, lo);
	memcpy(p, core, lc);
	p += lc;
	for (int k = 0; k < n; k++, p += lz)
		memcpy(p, close, lz);
	*p = '\0';
	return s;
}

START_TEST(test_limits)
{
	/* 63 parentheses are fine, 64 are one level too many (the whole is one). */
	char *s = nest("(", "1", ")", 63);
	ck_assert_str_eq(ex(s), "int 1");
	free(s);
	s = nest("(", "1", ")", 64);
	ck_assert_str_eq(ex(s), "E64+1 expression nested too deeply (more than 64 levels)");
	free(s);
	/* Deep nesting of every kind is refused, never a stack overflow. */
	s = nest("(", "1", ")", 100000);
	ck_assert_str_eq(ex(s), "E64+1 expression nested too deeply (more than 64 levels)");
	free(s);
	s = nest("-", "1", "", 100000);
	ck_assert_str_eq(ex(s), "E64+1 expression nested too deeply (more than 64 levels)");
	free(s);
	s = nest("abs(", "1", ")", 100000);
	ck_assert_str_eq(ex(s), "E256+3 expression nested too deeply (more than 64 levels)");
	free(s);
	s = nest("2**", "1", "", 100000);
	ck_assert_str_eq(ex(s), "E192+1 expression nested too deeply (more than 64 levels)");
	free(s);
	s = nest("1?1:", "1", "", 100000);
	ck_assert_str_eq(ex(s), "E254+1 expression nested too deeply (more than 64 levels)");
	free(s);
	s = nest("(", "1", ")", 100000);
	char *t = malloc(strlen(s) + 4);
	sprintf(t, "${%s}", s);
	ck_assert_str_eq(tp(t), "E66+1 expression nested too deeply (more than 64 levels)");
	free(t);
	free(s);
	/* Long flat expressions are fine: evaluation is a loop, not a recursion. */
	s = nest("1+", "1", "", 100000);
	ck_assert_str_eq(ex(s), "int 100001");
	free(s);
	s = nest("i*0+", "n", "", 50000);
	ck_assert_str_eq(ex(s), "int 1000");
	free(s);
	s = nest("0||", "1", "", 50000);
	ck_assert_str_eq(ex(s), "int 1");
	free(s);
	/* Values pending at once are bounded: 63 nested calls of 63 arguments each. */
	s = nest("min(1,1,1,1,1,1,1,1,", "1", ")", 63);
	ck_assert_str_eq(ex(s), "E644+0 expression too complex (more than 256 values at once)");
	free(s);
	/* Distinct names are bounded; uses of one name are not. */
	struct strbuf names = {0};
	for (int k = 0; k <= EXPR_MAX_NAMES; k++)
		strbuf_printf(&names, "+v%d", k);
	ck_assert_str_eq(ex(names.buf + 1), "E246+3 too many names (more than 64)");
	strbuf_truncate(&names, 0);
	for (int k = 0; k < EXPR_MAX_NAMES; k++)
		strbuf_printf(&names, "+v%d", k);
	ck_assert_str_eq(ex(names.buf + 1), "E0+2 unknown name 'v0'"); /* parsed, but unknown here */
	strbuf_free(&names);
	s = nest("min(1,", "1", ")", 63);
	ck_assert_str_eq(ex(s), "int 1");
	free(s);
	/* 65 arguments */
	s = nest("1,", "1", "", 64);
	char *call = malloc(strlen(s) + 8);
	sprintf(call, "max(%s)", s);
	ck_assert_str_eq(ex(call), "E132+1 too many arguments for 'max' (at most 64)");
	free(call);
	free(s);
	/* The length of a template. */
	size_t big = TMPL_MAX_LEN + 1;
	s = malloc(big);
	memset(s, 'a', big);
	ck_assert_str_eq(run_text(s, big, false), "E0+0 template too long (more than 1048576 bytes)");
	ck_assert(strncmp(run_text(s, big - 1, false), "str aaaaaaaa", 12) == 0);
	free(s);
}
END_TEST

START_TEST(test_convert)
{
	char why[128];
	uint64_t u;
	int64_t i;
	double d;
	struct num num;
	struct expr_val v = expr_int(300);
	ck_assert(expr_to_u64(&v, 0, 1000, &u, why, sizeof why));
	ck_assert_uint_eq(u, 300);
	ck_assert(!expr_to_u64(&v, 0, 255, &u, why, sizeof why));
	ck_assert_str_eq(why, "is 300, out of range (0 to 255)");
	ck_assert(!expr_to_u64(&v, 301, UINT64_MAX, &u, why, sizeof why));
	ck_assert_str_eq(why, "is 300, out of range (301 to 18446744073709551615)");
	v = expr_int(-1);
	ck_assert(!expr_to_u64(&v, 0, UINT64_MAX, &u, why, sizeof why));
	ck_assert_str_eq(why, "is -1, out of range (0 to 18446744073709551615)");
	ck_assert(expr_to_i64(&v, -1, 1, &i, why, sizeof why));
	ck_assert_int_eq(i, -1);
	ck_assert(!expr_to_i64(&v, 0, 1, &i, why, sizeof why));
	ck_assert_str_eq(why, "is -1, out of range (0 to 1)");
	v = expr_int(INT64_MIN);
	ck_assert(expr_to_i64(&v, INT64_MIN, INT64_MAX, &i, why, sizeof why));
	ck_assert(i == INT64_MIN);
	v = expr_float(2.5);
	ck_assert(!expr_to_u64(&v, 0, 10, &u, why, sizeof why));
	ck_assert_str_eq(why, "is 2.5, not an integer");
	v = expr_float(4);
	ck_assert(!expr_to_i64(&v, 0, 10, &i, why, sizeof why));
	ck_assert_str_eq(why, "is 4.0, not an integer");
	ck_assert(expr_to_double(&v, &d, why, sizeof why));
	ck_assert(d == 4);
	v = expr_int(7);
	ck_assert(expr_to_double(&v, &d, why, sizeof why));
	ck_assert(d == 7);
	v = expr_str("float", 5);
	ck_assert(!expr_to_u64(&v, 0, 10, &u, why, sizeof why));
	ck_assert_str_eq(why, "is 'float', not a number");
	ck_assert(!expr_to_double(&v, &d, why, sizeof why));
	ck_assert_str_eq(why, "is 'float', not a number");
	ck_assert(!expr_to_num(&v, &num, why, sizeof why));
	ck_assert_str_eq(why, "is 'float', not a number");
	v = expr_str("a\nb\x01", 4);
	ck_assert(!expr_to_i64(&v, 0, 10, &i, why, sizeof why));
	ck_assert_str_eq(why, "is 'a\\x0ab\\x01', not a number");
	/* to struct num, then scalar.c's own range check against an element type */
	char buf[8], whybuf[64];
	v = expr_int(300);
	ck_assert(expr_to_num(&v, &num, why, sizeof why));
	ck_assert_int_eq(num.kind, NUM_UINT);
	ck_assert_str_eq(num_encode(&num, ET_U8, buf, whybuf, sizeof whybuf), "300 does not fit u8");
	v = expr_int(-5);
	ck_assert(expr_to_num(&v, &num, why, sizeof why));
	ck_assert_int_eq(num.kind, NUM_INT);
	ck_assert_int_eq(num.i, -5);
	v = expr_float(0.5);
	ck_assert(expr_to_num(&v, &num, why, sizeof why));
	ck_assert_int_eq(num.kind, NUM_FLOAT);
	ck_assert(num_encode(&num, ET_F32, buf, whybuf, sizeof whybuf) == NULL);
}
END_TEST

START_TEST(test_strbuf)
{
	struct strbuf sb = {0};
	strbuf_truncate(&sb, 0);                  /* empty and unallocated: fine */
	for (int k = 0; k < 1000; k++)
		strbuf_addc(&sb, (char)('a' + k % 26));
	ck_assert_uint_eq(sb.len, 1000);
	ck_assert_uint_eq(strlen(sb.buf), 1000);
	ck_assert_uint_gt(sb.cap, 1000);
	strbuf_truncate(&sb, 3);
	ck_assert_str_eq(sb.buf, "abc");
	strbuf_printf(&sb, "-%d-%s", 42, "x");
	ck_assert_str_eq(sb.buf, "abc-42-x");
	char long_text[300];
	memset(long_text, 'z', sizeof long_text - 1);
	long_text[sizeof long_text - 1] = '\0';
	strbuf_printf(&sb, "%s", long_text);
	ck_assert_uint_eq(sb.len, 8 + 299);
	ck_assert_uint_eq(strlen(sb.buf), sb.len);
	/* Appending its own text, across a move of the buffer. */
	strbuf_free(&sb);
	strbuf_add(&sb, "abcdefghijklmnopqrstuvwxyz0123456789", 36);
	ck_assert_uint_eq(sb.cap, 64);
	strbuf_add(&sb, sb.buf, sb.len);
	ck_assert_uint_gt(sb.cap, 64);
	ck_assert_str_eq(sb.buf, "abcdefghijklmnopqrstuvwxyz0123456789abcdefghijklmnopqrstuvwxyz0123456789");
	strbuf_add(&sb, sb.buf + 70, 2);          /* no move */
	ck_assert_str_eq(sb.buf + 70, "8989");
	strbuf_free(&sb);
	ck_assert_ptr_null(sb.buf);
	strbuf_printf(&sb, "%d", 7);
	ck_assert_str_eq(sb.buf, "7");
	strbuf_free(&sb);
}
END_TEST

/*
 * Random int expressions against a reference written here: a random tree,
 * printed with only the parentheses precedence needs (so the parser's
 * precedence and associativity are what is tested), evaluated by a plain
 * recursion with 128-bit arithmetic for overflow.  The engine must give
 * the same value, or the same error at the same operator.
 */
enum { R_LIT, R_VAR, R_UN, R_BIN, R_COND, R_CALL };

static const struct rop {
	const char *text;
	int prec;                           /* ** is 9, unary 8, primaries 10 */
} rbin[] = {
	{"+", 6}, {"-", 6}, {"*", 7}, {"/", 7}, {"%", 7}, {"<<", 5}, {">>", 5}, {"**", 9},
	{"==", 3}, {"!=", 3}, {"<", 4}, {"<=", 4}, {">", 4}, {">=", 4}, {"&&", 2}, {"||", 1},
}, run_ops[] = {{"-", 8}, {"+", 8}, {"!", 8}}, rcalls[] = {
	{"min", 3}, {"max", 3}, {"ceil_div", 2}, {"abs", 1},  /* prec: most arguments */
};

struct rnode {
	int kind, op, nargs;
	int64_t lit;
	size_t var;
	struct rnode *kid[3];
	size_t off;                         /* of its operator or name in the text */
};

static struct rnode rpool[4096];
static size_t rused;
static uint64_t rstate = 0x2545f4914f6cdd1du;

static uint64_t rnd(void)
{
	rstate ^= rstate << 13;
	rstate ^= rstate >> 7;
	rstate ^= rstate << 17;
	return rstate;
}

static unsigned pick(unsigned n)
{
	return (unsigned)(rnd() % n);
}

/* Int variables of test_vars. */
static const char *const rvars[] = {"i", "j", "n", "neg", "big", "small", "zero"};

static struct rnode *gen(int depth)
{
	struct rnode *r = &rpool[rused++];
	memset(r, 0, sizeof *r);
	unsigned what = depth <= 0 ? pick(2) : pick(10);
	if (what == 0) {
		static const int64_t special[] = {
			INT64_MAX, INT64_MIN, 1LL << 62, 1LL << 32, -(1LL << 31),
			3037000499, 3037000500, 4611686018427387903, -1, 63, 64,
		};
		r->kind = R_LIT;
		r->lit = pick(4) == 0 ? special[pick(sizeof special / sizeof *special)] :
			(int64_t)pick(70) - 5;
	} else if (what == 1) {
		r->kind = R_VAR;
		r->var = pick(sizeof rvars / sizeof *rvars);
	} else if (what == 2) {
		r->kind = R_UN;
		r->op = (int)pick(3);
		r->kid[0] = gen(depth - 1);
	} else if (what <= 6) {
		r->kind = R_BIN;
		r->op = (int)pick(sizeof rbin / sizeof *rbin);
		r->kid[0] = gen(depth - 1);
		r->kid[1] = gen(depth - 1);
	} else if (what <= 7) {
		r->kind = R_COND;
		for (int k = 0; k < 3; k++)
			r->kid[k] = gen(depth - 1);
	} else {
		r->kind = R_CALL;
		r->op = (int)pick(sizeof rcalls / sizeof *rcalls);
		r->nargs = r->op < 2 ? 2 + (int)pick(2) : rcalls[r->op].prec;
		for (int k = 0; k < r->nargs; k++)
			r->kid[k] = gen(depth - 1);
	}
	return r;
}

static int rprec(const struct rnode *r)
{
	switch (r->kind) {
	case R_LIT: return r->lit < 0 ? 8 : 10; /* -5 is a unary minus */
	case R_UN: return 8;
	case R_BIN: return rbin[r->op].prec;
	case R_COND: return 0;
	default: return 10;
	}
}

/* s after a random blank or none; returns where s starts. */
static size_t rput(struct strbuf *sb, const char *s)
{
	static const char *const blanks[] = {"", "", "", " ", " ", "\n", "\t"};
	const char *b = blanks[pick(7)];
	strbuf_add(sb, b, strlen(b));
	size_t off = sb->len;
	strbuf_add(sb, s, strlen(s));
	return off;
}

/* Print r where the context takes precedence need or more without parentheses. */
static void rprint(struct rnode *r, int need, struct strbuf *sb)
{
	bool paren = rprec(r) < need || pick(12) == 0;
	if (pick(3) == 0)
		strbuf_addc(sb, ' ');
	if (paren)
		strbuf_addc(sb, '(');
	char num[32];
	switch (r->kind) {
	case R_LIT:
		snprintf(num, sizeof num, "%" PRId64, r->lit);
		rput(sb, num);
		break;
	case R_VAR:
		rput(sb, rvars[r->var]);
		break;
	case R_UN:
		r->off = rput(sb, run_ops[r->op].text);
		if (pick(2))
			strbuf_addc(sb, ' ');
		rprint(r->kid[0], 8, sb);
		break;
	case R_BIN: {
		int p = rbin[r->op].prec;
		bool pow = p == 9;
		rprint(r->kid[0], pow ? 10 : p, sb);
		if (pick(2))
			strbuf_addc(sb, ' ');
		r->off = rput(sb, rbin[r->op].text);
		if (pick(2))
			strbuf_addc(sb, ' ');
		rprint(r->kid[1], pow ? 8 : p + 1, sb);
		break;
	}
	case R_COND:
		rprint(r->kid[0], 1, sb);
		strbuf_addc(sb, ' ');
		r->off = rput(sb, "?");
		rprint(r->kid[1], 0, sb);
		rput(sb, " :");
		rprint(r->kid[2], 0, sb);
		break;
	case R_CALL:
		r->off = rput(sb, rcalls[r->op].text);
		rput(sb, "(");
		for (int k = 0; k < r->nargs; k++) {
			if (k)
				rput(sb, ",");
			rprint(r->kid[k], 0, sb);
		}
		rput(sb, ")");
		break;
	}
	if (paren)
		strbuf_addc(sb, ')');
}

struct rres {
	bool ok;
	int64_t v;
	size_t off, len;
	char msg[160];
};

static bool rfail(struct rres *res, const struct rnode *r, const char *text, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static bool rfail(struct rres *res, const struct rnode *r, const char *text, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(res->msg, sizeof res->msg, fmt, ap);
	va_end(ap);
	res->ok = false;
	res->off = r->off;
	res->len = strlen(text);
	return false;
}

static bool fits(__int128 x)
{
	return x >= INT64_MIN && x <= INT64_MAX;
}

static bool reval(const struct rnode *r, int64_t *out, struct rres *res)
{
	int64_t a, b;
	switch (r->kind) {
	case R_LIT:
		*out = r->lit;
		return true;
	case R_VAR:
		*out = vals[lookup(NULL, rvars[r->var])].i;
		return true;
	case R_UN:
		if (!reval(r->kid[0], &a, res))
			return false;
		if (r->op == 2)
			*out = a == 0;
		else if (r->op == 1)
			*out = a;
		else if (a == INT64_MIN)
			return rfail(res, r, "-", "integer overflow in '-'");
		else
			*out = -a;
		return true;
	case R_COND:
		if (!reval(r->kid[0], &a, res))
			return false;
		return reval(r->kid[a ? 1 : 2], out, res);
	case R_CALL: {
		int64_t v[3];
		for (int k = 0; k < r->nargs; k++)
			if (!reval(r->kid[k], &v[k], res))
				return false;
		const char *name = rcalls[r->op].text;
		switch (r->op) {
		case 0:
		case 1:
			*out = v[0];
			for (int k = 1; k < r->nargs; k++)
				if (r->op == 0 ? v[k] < *out : v[k] > *out)
					*out = v[k];
			return true;
		case 2:
			if (v[1] == 0)
				return rfail(res, r, name, "division by zero in 'ceil_div'");
			if (v[1] < 0)
				return rfail(res, r, name, "negative divisor %" PRId64 " in 'ceil_div'", v[1]);
			if (v[0] < 0)
				return rfail(res, r, name, "negative dividend %" PRId64 " in 'ceil_div'", v[0]);
			*out = (int64_t)(((__int128)v[0] + v[1] - 1) / v[1]);
			return true;
		default:
			if (v[0] == INT64_MIN)
				return rfail(res, r, name, "integer overflow in 'abs'");
			*out = v[0] < 0 ? -v[0] : v[0];
			return true;
		}
	}
	default:
		break;
	}
	const char *op = rbin[r->op].text;
	if (!reval(r->kid[0], &a, res))
		return false;
	if (!strcmp(op, "&&") || !strcmp(op, "||")) {
		bool is_and = op[0] == '&';
		if ((a != 0) != is_and) {
			*out = !is_and;
			return true;
		}
		if (!reval(r->kid[1], &b, res))
			return false;
		*out = b != 0;
		return true;
	}
	if (!reval(r->kid[1], &b, res))
		return false;
	__int128 x = 0;
	if (!strcmp(op, "+")) {
		x = (__int128)a + b;
	} else if (!strcmp(op, "-")) {
		x = (__int128)a - b;
	} else if (!strcmp(op, "*")) {
		x = (__int128)a * b;
	} else if (!strcmp(op, "/") || !strcmp(op, "%")) {
		if (b == 0)
			return rfail(res, r, op, "division by zero in '%s'", op);
		/* C: truncation toward zero, the remainder with the dividend's sign */
		x = op[0] == '/' ? (__int128)a / b : (__int128)a % b;
	} else if (!strcmp(op, "<<") || !strcmp(op, ">>")) {
		if (b < 0 || b > 63)
			return rfail(res, r, op, "shift count %" PRId64 " out of range in '%s' (0 to 63)", b, op);
		__int128 p2 = (__int128)1 << b;
		if (op[0] == '<') {
			x = (__int128)a * p2;
		} else {
			x = (__int128)a / p2;       /* floor, not truncation */
			if (x * p2 != a && a < 0)
				x--;
		}
	} else if (!strcmp(op, "**")) {
		if (b < 0)
			return rfail(res, r, op, "negative exponent %" PRId64 " in '**' of integers (make one a float)", b);
		x = 1;
		for (int64_t k = 0; k < b; k++) {
			x *= a;
			if (!fits(x))
				break;
			if (x == 0 || x == 1 || (x == -1 && a == -1)) {
				/* 0, 1 and -1 repeat: finish by parity */
				if (a == -1)
					x = (b % 2) ? -1 : 1;
				break;
			}
		}
	} else {
		static const char *const cmps[] = {"==", "!=", "<", "<=", ">", ">="};
		bool res6[] = {a == b, a != b, a < b, a <= b, a > b, a >= b};
		for (int k = 0; k < 6; k++)
			if (!strcmp(op, cmps[k]))
				x = res6[k];
	}
	if (!fits(x))
		return rfail(res, r, op, "integer overflow in '%s'", op);
	*out = (int64_t)x;
	return true;
}

START_TEST(test_random_against_reference)
{
	struct strbuf sb = {0};
	int errors = 0, values = 0;
	for (int iter = 0; iter < 30000; iter++) {
		rused = 0;
		struct rnode *root = gen(1 + (int)pick(6));
		strbuf_truncate(&sb, 0);
		rprint(root, 0, &sb);
		char want[256];
		struct rres res = {.ok = true};
		int64_t v;
		if (reval(root, &v, &res)) {
			snprintf(want, sizeof want, "int %" PRId64, v);
			values++;
		} else {
			snprintf(want, sizeof want, "E%zu+%zu %s", res.off, res.len, res.msg);
			errors++;
		}
		const char *got = run_text(sb.buf, sb.len, true);
		if (strcmp(got, want) != 0)
			ck_abort_msg("expression #%d \"%s\": got \"%s\", expected \"%s\"", iter, sb.buf,
				     got, want);
	}
	/* both outcomes are common enough to mean something */
	ck_assert_int_gt(errors, 3000);
	ck_assert_int_gt(values, 10000);
	strbuf_free(&sb);
}
END_TEST

/*
 * Any bytes: templates of random bytes from an alphabet that makes parts
 * of the language likely must parse or fail cleanly, within their text,
 * with a message fit for a terminal (the sanitizer build checks memory).
 */
START_TEST(test_random_bytes)
{
	static const char alphabet[] = "${}$${}()'+-*/%<>=!&|?:,. \n0123456789eExijnT_"
		"minaxceil_divsqrtsizeof\x00\x01\xff\xc3\xa9";
	char text[64];
	int parsed = 0;
	struct strbuf sb = {0};
	for (int iter = 0; iter < 100000; iter++) {
		size_t len = pick(sizeof text);
		for (size_t k = 0; k < len; k++)
			text[k] = alphabet[pick(sizeof alphabet - 1)];
		if (pick(2) && len >= 3) {
			text[0] = '$';
			text[1] = '{';
			text[len - 1] = '}';
		}
		struct expr_err err;
		memset(&err, 0, sizeof err);
		bool bare = pick(4) == 0;
		struct tmpl *t = bare ? tmpl_parse_expr(text, len, &err) : tmpl_parse(text, len, &err);
		bool ok = t != NULL;
		if (ok && tmpl_link(t, lookup, NULL, &err)) {
			struct expr_val v;
			strbuf_truncate(&sb, 0);
			ok = tmpl_eval(t, vals, &sb, &v, &err);
			parsed++;
		} else {
			ok = false;
		}
		if (!ok) {
			ck_assert_uint_le(err.off, len);
			ck_assert_uint_le(err.len, len - err.off);
			ck_assert_uint_gt(strlen(err.msg), 0);
			for (const char *m = err.msg; *m; m++)
				ck_assert_msg((unsigned char)*m >= 0x20, "control byte in \"%s\"", err.msg);
		}
		tmpl_free(t);
	}
	ck_assert_int_gt(parsed, 1000);
	strbuf_free(&sb);
}
END_TEST

static Suite *expr_suite(void)
{
	Suite *s = suite_create("expr");
	TCase *tc = tcase_create("core");
	tcase_add_checked_fixture(tc, setup, NULL);
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_precedence);
	tcase_add_test(tc, test_int_ops);
	tcase_add_test(tc, test_float_ops);
	tcase_add_test(tc, test_compare);
	tcase_add_test(tc, test_logic);
	tcase_add_test(tc, test_functions);
	tcase_add_test(tc, test_sizeof);
	tcase_add_test(tc, test_format);
	tcase_add_test(tc, test_format_short);
	tcase_add_test(tc, test_templates);
	tcase_add_test(tc, test_template_api);
	tcase_add_test(tc, test_parse_errors);
	tcase_add_test(tc, test_limits);
	tcase_add_test(tc, test_convert);
	tcase_add_test(tc, test_strbuf);
	tcase_add_test(tc, test_random_against_reference);
	tcase_add_test(tc, test_random_bytes);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_MAIN(expr_suite)
