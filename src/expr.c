#include "config.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "diag.h"
#include "expr.h"
#include "expr_code.h"
#include "strmap.h"
#include "utf8.h"
#include "xmalloc.h"

/* Each operator as written, for messages. */
static const char *const op_text[OP_COUNT] = {
	[OP_NEG] = "-", [OP_PLUS] = "+", [OP_NOT] = "!",
	[OP_ADD] = "+", [OP_SUB] = "-", [OP_MUL] = "*", [OP_DIV] = "/", [OP_MOD] = "%",
	[OP_POW] = "**", [OP_SHL] = "<<", [OP_SHR] = ">>",
	[OP_EQ] = "==", [OP_NE] = "!=", [OP_LT] = "<", [OP_LE] = "<=", [OP_GT] = ">",
	[OP_GE] = ">=", [OP_AND] = "&&", [OP_OR] = "||", [OP_JFALSE] = "?",
};

/* ------------------------------------------------------------------ */
/* Messages */

static bool set_err(struct expr_err *err, uint32_t off, uint32_t len, const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));

static bool set_err(struct expr_err *err, uint32_t off, uint32_t len, const char *fmt, va_list ap)
{
	err->off = off;
	err->len = len;
	err->code = diag_code_of(fmt, ap);
	vsnprintf(err->msg, sizeof err->msg, fmt, ap);
	return false;
}

/*
 * s[0..n) for a message, in at most about 40 bytes: well-formed UTF-8 as
 * is, other bytes and controls as \xNN, "..." when cut.  Any bytes are
 * safe here: this is how fuzzed input reaches a terminal.
 */
static const char *quote_bytes(const char *s, size_t n, char *buf, size_t len)
{
	size_t o = 0, i = 0;
	while (i < n) {
		size_t k;
		int32_t cp = utf8_next((const unsigned char *)s + i, n - i, &k);
		bool plain = cp >= 0x20 && cp != 0x7f;
		size_t need = plain ? k : 4;
		if (o + need + 4 > len || o >= 40) {
			memcpy(buf + o, "...", 4);
			return buf;
		}
		if (plain)
			memcpy(buf + o, s + i, k);
		else
			snprintf(buf + o, 5, "\\x%02x", (unsigned char)s[i]);
		o += need;
		i += k;
	}
	buf[o] = '\0';
	return buf;
}

/* ------------------------------------------------------------------ */
/* Formatting */

/* i in decimal into buf (at least 21 bytes); returns the length. */
static size_t fmt_int(int64_t i, char *buf)
{
	char tmp[20];
	uint64_t u = i < 0 ? -(uint64_t)i : (uint64_t)i;
	size_t n = 0, k = 0;
	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (i < 0)
		buf[k++] = '-';
	while (n)
		buf[k++] = tmp[--n];
	buf[k] = '\0';
	return k;
}

/*
 * f into buf (at least 32 bytes), with the fewest digits that read back
 * exactly, then ".0" when the digits alone would read back as an int.
 * Every decimal of up to 15 digits survives a round trip through a normal
 * double (DBL_DIG), so a %.15g that reads back is the shortest there is,
 * and only 16 and 17 digits are left to try.  Subnormals have fewer
 * digits: for them, count up from 1.
 */
/*
 * The common case without printf: f is m / 10^k for an integer m and k of
 * at most 6, with 1e-4 <= |f| < 1e9 (where %g writes no exponent), as a
 * sweep's 0.625 or 1.5 are.  IEEE division is correctly rounded and so is
 * reading a decimal back, so m / 10^k == f says that the k-digit decimal
 * reads back as f; with its fewest k it has at most 15 digits, and %.15g
 * writes the same digits (no other decimal of 15 digits lies as near f).
 * Writes it and returns its length, or 0 when f is not such a number.
 * A sweep formats every float it substitutes, point after point: the
 * snprintf and strtod below cost some 3,000 instructions a value.
 */
static size_t fmt_float_short(double f, char *buf)
{
	static const double pow10[] = {1, 10, 100, 1e3, 1e4, 1e5, 1e6};
	double a = fabs(f);
	if (!(a >= 1e-4 && a < 1e9))
		return 0;
	for (int k = 0; k <= 6; k++) {
		double m = nearbyint(a * pow10[k]);
		if (m / pow10[k] != a)
			continue;
		uint64_t u = (uint64_t)m, whole = u, frac = 0;
		for (int i = 0; i < k; i++)
			whole /= 10;
		frac = u - whole * (uint64_t)pow10[k];
		size_t n = 0;
		if (f < 0)
			buf[n++] = '-';
		n += fmt_int((int64_t)whole, buf + n);
		buf[n++] = '.';
		if (k == 0) {
			buf[n++] = '0';
		} else {
			for (int i = k - 1; i >= 0; i--) {
				buf[n + (size_t)i] = (char)('0' + frac % 10);
				frac /= 10;
			}
			n += (size_t)k;
		}
		buf[n] = '\0';
		return n;
	}
	return 0;
}

static size_t fmt_float(double f, char *buf)
{
	if (isnan(f))
		return (size_t)snprintf(buf, 32, "nan");
	if (isinf(f))
		return (size_t)snprintf(buf, 32, f < 0 ? "-inf" : "inf");
	size_t quick = fmt_float_short(f, buf);
	if (quick)
		return quick;
	int n = 0;
	for (int prec = fabs(f) < DBL_MIN ? 1 : 15; prec <= 17; prec++) {
		n = snprintf(buf, 32, "%.*g", prec, f);
		if (strtod(buf, NULL) == f)
			break;
	}
	if (strpbrk(buf, ".e") == NULL) {
		memcpy(buf + n, ".0", 3);
		n += 2;
	}
	return (size_t)n;
}

void expr_format(const struct expr_val *v, struct strbuf *out)
{
	char buf[32];
	switch (v->type) {
	case EXPR_INT:
		strbuf_add(out, buf, fmt_int(v->i, buf));
		return;
	case EXPR_FLOAT:
		strbuf_add(out, buf, fmt_float(v->f, buf));
		return;
	case EXPR_STR:
		strbuf_add(out, v->s, v->len);
		return;
	}
}

/* A value for a message: 300, 2.5, 'float'. */
static const char *show(const struct expr_val *v, char *buf, size_t len)
{
	char q[64];
	switch (v->type) {
	case EXPR_INT:
		fmt_int(v->i, buf);
		break;
	case EXPR_FLOAT:
		fmt_float(v->f, buf);
		break;
	case EXPR_STR:
		snprintf(buf, len, "'%s'", quote_bytes(v->s, v->len, q, sizeof q));
		break;
	}
	return buf;
}

/* The same with its kind: "string 'float'", "float 2.5", "3". */
static const char *show_kind(const struct expr_val *v, char *buf, size_t len)
{
	char tmp[72];
	show(v, tmp, sizeof tmp);
	snprintf(buf, len, "%s%s", v->type == EXPR_STR ? "string " :
		 v->type == EXPR_FLOAT ? "float " : "", tmp);
	return buf;
}

/* ------------------------------------------------------------------ */
/* Functions: each takes its arguments at a[0..n) and leaves its value in a[0]. */

typedef bool func_fn(struct expr_val *a, unsigned n, const struct ins *in, struct expr_err *err);

static func_fn fn_abs, fn_ceil, fn_ceil_div, fn_float, fn_floor, fn_int, fn_log2, fn_max,
	fn_min, fn_pow, fn_round, fn_sizeof, fn_sqrt;

/* In name order, as the header lists them. */
static const struct func {
	const char *name;
	uint8_t min, max;           /* arguments */
	func_fn *fn;
} funcs[] = {
	{"abs", 1, 1, fn_abs},
	{"ceil", 1, 1, fn_ceil},
	{"ceil_div", 2, 2, fn_ceil_div},
	{"float", 1, 1, fn_float},
	{"floor", 1, 1, fn_floor},
	{"int", 1, 1, fn_int},
	{"log2", 1, 1, fn_log2},
	{"max", 2, EXPR_MAX_ARGS, fn_max},
	{"min", 2, EXPR_MAX_ARGS, fn_min},
	{"pow", 2, 2, fn_pow},
	{"round", 1, 1, fn_round},
	{"sizeof", 1, 1, fn_sizeof},
	{"sqrt", 1, 1, fn_sqrt},
};
#define N_FUNCS (sizeof funcs / sizeof *funcs)

static const char *fname(const struct ins *in)
{
	return funcs[in->aux].name;
}

/* ------------------------------------------------------------------ */
/* Evaluation */

/* Where an instruction's error points: the operator or the function name. */
static uint32_t ins_len(const struct ins *in)
{
	if (in->op == OP_CALL)
		return (uint32_t)strlen(fname(in));
	if (in->op == OP_BOOL)
		return 2;
	return op_text[in->op] ? (uint32_t)strlen(op_text[in->op]) : 0;
}

/* An error of the evaluation, at instruction in's text: false. */
static bool eval_error(struct expr_err *err, const struct ins *in, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), cold));

static bool eval_error(struct expr_err *err, const struct ins *in, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	set_err(err, in->off, ins_len(in), fmt, ap);
	va_end(ap);
	return false;
}

static __attribute__((cold)) bool eval_error_string(struct expr_err *err,
						    const struct ins *in, const char *name,
						    const struct expr_val *v, const char *why)
{
	char buf[96];
	return eval_error(err, in, "%s in '%s' (%s)", show_kind(v, buf, sizeof buf), name, why);
}

static __attribute__((cold)) bool overflow(struct expr_err *err, const struct ins *in,
					   const char *name)
{
	return eval_error(err, in, "integer overflow in '%s'", name);
}

static inline double as_float(const struct expr_val *v)
{
	return v->type == EXPR_INT ? (double)v->i : v->f;
}

/* A condition: a number, true when nonzero. */
static inline bool truth(const struct ins *in, const char *name, const struct expr_val *v,
			 bool *out, struct expr_err *err)
{
	switch (v->type) {
	case EXPR_INT:
		*out = v->i != 0;
		return true;
	case EXPR_FLOAT:
		*out = v->f != 0; /* NaN is true, as in C */
		return true;
	case EXPR_STR:
		break;
	}
	char buf[96];
	return eval_error(err, in, "%s as a condition in '%s'", show_kind(v, buf, sizeof buf), name);
}

/* a op b for two ints into *r; false on overflow or a bad count. */
static bool arith_int(const struct ins *in, int64_t a, int64_t b, int64_t *r,
		      struct expr_err *err)
{
	const char *name = op_text[in->op];
	switch ((enum op)in->op) {
	case OP_ADD:
		if (__builtin_add_overflow(a, b, r))
			return overflow(err, in, name);
		return true;
	case OP_SUB:
		if (__builtin_sub_overflow(a, b, r))
			return overflow(err, in, name);
		return true;
	case OP_MUL:
		if (__builtin_mul_overflow(a, b, r))
			return overflow(err, in, name);
		return true;
	case OP_DIV:
	case OP_MOD:
		if (b == 0)
			return eval_error(err, in, "division by zero in '%s'", name);
		if (b == -1) {
			/* INT64_MIN / -1 overflows; its remainder is 0 but C leaves it undefined */
			if (in->op == OP_MOD) {
				*r = 0;
				return true;
			}
			if (a == INT64_MIN)
				return overflow(err, in, name);
		}
		*r = in->op == OP_DIV ? a / b : a % b;
		return true;
	case OP_POW: {
		if (b < 0)
			return eval_error(err, in, "negative exponent %" PRId64 " in '**' of integers (make one a float)", b);
		/* By squaring: |base| only grows, so a square that overflows
		 * means the result does too, unless no bit of b is left. */
		int64_t acc = 1, base = a;
		for (uint64_t e = (uint64_t)b; e; ) {
			if ((e & 1) && __builtin_mul_overflow(acc, base, &acc))
				return overflow(err, in, name);
			e >>= 1;
			if (e && __builtin_mul_overflow(base, base, &base))
				return overflow(err, in, name);
		}
		*r = acc;
		return true;
	}
	case OP_SHL:
	case OP_SHR:
		if (b < 0 || b > 63)
			return eval_error(err, in, "shift count %" PRId64 " out of range in '%s' (0 to 63)", b, name);
		if (in->op == OP_SHR) {
			*r = a >> b; /* arithmetic: GCC and Clang define it so */
			return true;
		}
		*r = (int64_t)((uint64_t)a << b);
		if (*r >> b != a)
			return overflow(err, in, name);
		return true;
	default:
		break;
	}
	return false;
}

/* Binary arithmetic into *a. */
static bool arith(const struct ins *in, struct expr_val *a, const struct expr_val *b,
		  struct expr_err *err)
{
	if (a->type == EXPR_INT && b->type == EXPR_INT)
		return arith_int(in, a->i, b->i, &a->i, err);
	const char *name = op_text[in->op];
	const struct expr_val *bad = a->type == EXPR_STR ? a : b->type == EXPR_STR ? b : NULL;
	if (bad)
		return eval_error_string(err, in, name, bad, "arithmetic takes numbers");
	if (in->op == OP_SHL || in->op == OP_SHR)
		return eval_error_string(err, in, name, a->type == EXPR_FLOAT ? a : b, "shifts take integers");
	double x = as_float(a), y = as_float(b), r = 0;
	switch ((enum op)in->op) {
	case OP_ADD: r = x + y; break;
	case OP_SUB: r = x - y; break;
	case OP_MUL: r = x * y; break;
	case OP_DIV:
	case OP_MOD:
		if (y == 0)
			return eval_error(err, in, "division by zero in '%s'", name);
		r = in->op == OP_DIV ? x / y : fmod(x, y);
		break;
	case OP_POW: r = pow(x, y); break;
	default: break;
	}
	*a = expr_float(r);
	return true;
}

enum { CMP_LT = -1, CMP_EQ = 0, CMP_GT = 1, CMP_UNORDERED = 2 };

/* An int with a double, exactly: no rounding of the int to a double. */
static int cmp_int_float(int64_t i, double d)
{
	if (isnan(d))
		return CMP_UNORDERED;
	if (d >= 9223372036854775808.0)
		return CMP_LT;
	if (d < -9223372036854775808.0)
		return CMP_GT;
	int64_t t = (int64_t)d;           /* in range: toward zero */
	if (i != t)
		return i < t ? CMP_LT : CMP_GT;
	double frac = d - (double)t;      /* exact */
	return frac > 0 ? CMP_LT : frac < 0 ? CMP_GT : CMP_EQ;
}

static bool compare(const struct ins *in, struct expr_val *a, const struct expr_val *b,
		    struct expr_err *err)
{
	int c;
	if (a->type == EXPR_INT && b->type == EXPR_INT) {
		c = a->i < b->i ? CMP_LT : a->i > b->i ? CMP_GT : CMP_EQ;
	} else if (a->type == EXPR_STR && b->type == EXPR_STR) {
		int m = memcmp(a->s, b->s, a->len < b->len ? a->len : b->len);
		c = m < 0 ? CMP_LT : m > 0 ? CMP_GT :
			a->len < b->len ? CMP_LT : a->len > b->len ? CMP_GT : CMP_EQ;
	} else if (a->type == EXPR_STR || b->type == EXPR_STR) {
		char buf[96];
		return eval_error(err, in, "comparing %s with a number in '%s'",
				  show_kind(a->type == EXPR_STR ? a : b, buf, sizeof buf), op_text[in->op]);
	} else if (a->type == EXPR_INT) {
		c = cmp_int_float(a->i, b->f);
	} else if (b->type == EXPR_INT) {
		c = cmp_int_float(b->i, a->f);
		if (c != CMP_UNORDERED)
			c = -c;
	} else {
		c = a->f < b->f ? CMP_LT : a->f > b->f ? CMP_GT : a->f == b->f ? CMP_EQ : CMP_UNORDERED;
	}
	bool r = false;
	switch ((enum op)in->op) {
	case OP_EQ: r = c == CMP_EQ; break;
	case OP_NE: r = c != CMP_EQ; break;
	case OP_LT: r = c == CMP_LT; break;
	case OP_LE: r = c == CMP_LT || c == CMP_EQ; break;
	case OP_GT: r = c == CMP_GT; break;
	case OP_GE: r = c == CMP_GT || c == CMP_EQ; break;
	default: break;
	}
	*a = expr_int(r);
	return true;
}

static bool unary(const struct ins *in, struct expr_val *v, struct expr_err *err)
{
	const char *name = op_text[in->op];
	if (in->op == OP_NOT) {
		bool b = false;
		if (!truth(in, name, v, &b, err))
			return false;
		*v = expr_int(!b);
		return true;
	}
	switch (v->type) {
	case EXPR_INT:
		if (in->op == OP_NEG) {
			if (v->i == INT64_MIN)
				return overflow(err, in, name);
			v->i = -v->i;
		}
		return true;
	case EXPR_FLOAT:
		if (in->op == OP_NEG)
			v->f = -v->f;
		return true;
	case EXPR_STR:
		break;
	}
	return eval_error_string(err, in, name, v, "arithmetic takes numbers");
}

/* ------------------------------------------------------------------ */
/* The functions of the funcs table */

/* Every argument a number, or an error naming the function. */
static bool numbers(const struct expr_val *a, unsigned n, const struct ins *in,
		    struct expr_err *err)
{
	for (unsigned k = 0; k < n; k++)
		if (a[k].type == EXPR_STR)
			return eval_error_string(err, in, fname(in), &a[k], "it takes numbers");
	return true;
}

static bool ints(const struct expr_val *a, unsigned n, const struct ins *in,
		 struct expr_err *err)
{
	if (!numbers(a, n, in, err))
		return false;
	for (unsigned k = 0; k < n; k++)
		if (a[k].type != EXPR_INT)
			return eval_error_string(err, in, fname(in), &a[k], "it takes integers");
	return true;
}

static bool min_max(struct expr_val *a, unsigned n, const struct ins *in,
		    struct expr_err *err, bool want_max)
{
	if (!numbers(a, n, in, err))
		return false;
	bool all_int = true;
	for (unsigned k = 0; k < n; k++)
		all_int &= a[k].type == EXPR_INT;
	if (all_int) {
		int64_t r = a[0].i;
		for (unsigned k = 1; k < n; k++)
			if (want_max ? a[k].i > r : a[k].i < r)
				r = a[k].i;
		a[0] = expr_int(r);
		return true;
	}
	double r = as_float(&a[0]);
	for (unsigned k = 1; k < n && !isnan(r); k++) {
		double x = as_float(&a[k]);
		if (isnan(x) || (want_max ? x > r : x < r))
			r = x;
	}
	a[0] = expr_float(r);
	return true;
}

static bool fn_min(struct expr_val *a, unsigned n, const struct ins *in, struct expr_err *err)
{
	return min_max(a, n, in, err, false);
}

static bool fn_max(struct expr_val *a, unsigned n, const struct ins *in, struct expr_err *err)
{
	return min_max(a, n, in, err, true);
}

static bool fn_ceil_div(struct expr_val *a, unsigned n, const struct ins *in, struct expr_err *err)
{
	if (!ints(a, n, in, err))
		return false;
	int64_t x = a[0].i, y = a[1].i;
	if (y == 0)
		return eval_error(err, in, "division by zero in 'ceil_div'");
	if (y < 0)
		return eval_error(err, in, "negative divisor %" PRId64 " in 'ceil_div'", y);
	if (x < 0)
		return eval_error(err, in, "negative dividend %" PRId64 " in 'ceil_div'", x);
	/* not (x + y - 1) / y: that overflows near INT64_MAX */
	a[0].i = x / y + (x % y != 0);
	return true;
}

static bool fn_abs(struct expr_val *a, unsigned n, const struct ins *in, struct expr_err *err)
{
	if (!numbers(a, n, in, err))
		return false;
	if (a[0].type == EXPR_FLOAT) {
		a[0].f = fabs(a[0].f);
		return true;
	}
	if (a[0].i == INT64_MIN)
		return overflow(err, in, "abs");
	a[0].i = a[0].i < 0 ? -a[0].i : a[0].i;
	return true;
}

/* floor, ceil, round: an int when the result fits int64. */
static bool to_int_if_fits(struct expr_val *v, double r)
{
	if (r >= -9223372036854775808.0 && r < 9223372036854775808.0)
		*v = expr_int((int64_t)r);
	else
		*v = expr_float(r);
	return true;
}

static bool fn_floor(struct expr_val *a, unsigned n, const struct ins *in, struct expr_err *err)
{
	if (!numbers(a, n, in, err))
		return false;
	return a[0].type == EXPR_INT || to_int_if_fits(&a[0], floor(a[0].f));
}

static bool fn_ceil(struct expr_val *a, unsigned n, const struct ins *in, struct expr_err *err)
{
	if (!numbers(a, n, in, err))
		return false;
	return a[0].type == EXPR_INT || to_int_if_fits(&a[0], ceil(a[0].f));
}

static bool fn_round(struct expr_val *a, unsigned n, const struct ins *in, struct expr_err *err)
{
	if (!numbers(a, n, in, err))
		return false;
	return a[0].type == EXPR_INT || to_int_if_fits(&a[0], round(a[0].f));
}

static bool fn_sqrt(struct expr_val *a, unsigned n, const struct ins *in, struct expr_err *err)
{
	if (!numbers(a, n, in, err))
		return false;
	a[0] = expr_float(sqrt(as_float(&a[0])));
	return true;
}

static bool fn_log2(struct expr_val *a, unsigned n, const struct ins *in, struct expr_err *err)
{
	if (!numbers(a, n, in, err))
		return false;
	a[0] = expr_float(log2(as_float(&a[0])));
	return true;
}

static bool fn_pow(struct expr_val *a, unsigned n, const struct ins *in, struct expr_err *err)
{
	if (!numbers(a, n, in, err))
		return false;
	a[0] = expr_float(pow(as_float(&a[0]), as_float(&a[1])));
	return true;
}

static bool fn_int(struct expr_val *a, unsigned n, const struct ins *in, struct expr_err *err)
{
	if (!numbers(a, n, in, err))
		return false;
	if (a[0].type == EXPR_INT)
		return true;
	double f = a[0].f;
	if (isnan(f))
		return eval_error(err, in, "float nan in 'int' (NaN has no integer value)");
	if (!(f >= -9223372036854775808.0 && f < 9223372036854775808.0)) {
		char buf[32];
		fmt_float(f, buf);
		return eval_error(err, in, "float %s out of range in 'int'", buf);
	}
	a[0] = expr_int((int64_t)f);
	return true;
}

static bool fn_float(struct expr_val *a, unsigned n, const struct ins *in, struct expr_err *err)
{
	if (!numbers(a, n, in, err))
		return false;
	a[0] = expr_float(as_float(&a[0]));
	return true;
}

/* C and CUDA spellings of element types, beside the format's own (elem_infos). */
static const struct c_type {
	const char *name;
	uint8_t size;
} c_types[] = {
	{"char", 1}, {"signed char", 1}, {"unsigned char", 1}, {"bool", 1},
	{"short", 2}, {"unsigned short", 2},
	{"int", 4}, {"unsigned", 4}, {"unsigned int", 4},
	{"long", 8}, {"unsigned long", 8}, {"long long", 8}, {"unsigned long long", 8},
	{"size_t", 8},
	{"int8_t", 1}, {"int16_t", 2}, {"int32_t", 4}, {"int64_t", 8},
	{"uint8_t", 1}, {"uint16_t", 2}, {"uint32_t", 4}, {"uint64_t", 8},
	{"float", 4}, {"double", 8},
	{"half", 2}, {"__half", 2}, {"__nv_bfloat16", 2}, {"nv_bfloat16", 2},
};
#define N_C_TYPES (sizeof c_types / sizeof *c_types)

/* s[0..n) is name: out at the first byte that differs, no strlen of each name. */
static bool same(const char *s, size_t n, const char *name)
{
	for (size_t k = 0; k < n; k++)
		if (name[k] == '\0' || name[k] != s[k])
			return false;
	return name[n] == '\0';
}

static __attribute__((cold)) bool unknown_type(const struct expr_val *v, const struct ins *in,
					       struct expr_err *err)
{
	const char *names[ET_COUNT + N_C_TYPES];
	for (size_t k = 0; k < ET_COUNT; k++)
		names[k] = elem_infos[k].name;
	for (size_t k = 0; k < N_C_TYPES; k++)
		names[ET_COUNT + k] = c_types[k].name;
	char word[65], q[64];
	size_t n = v->len < 64 ? v->len : 64;
	memcpy(word, v->s, n);
	word[n] = '\0';
	const char *near = NULL;
	/* F32 is f32 before it is i32, which is as few edits away */
	for (size_t k = 0; k < ET_COUNT + N_C_TYPES && near == NULL; k++)
		if (strcasecmp(word, names[k]) == 0)
			near = names[k];
	if (near == NULL && strlen(word) == v->len)
		near = diag_suggest(word, names, ET_COUNT + N_C_TYPES);
	return eval_error(err, in, "unknown type '%s' in 'sizeof'%s%s%s",
			  quote_bytes(v->s, v->len, q, sizeof q),
			  near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
}

static bool fn_sizeof(struct expr_val *a, unsigned n, const struct ins *in, struct expr_err *err)
{
	if (a[0].type != EXPR_STR)
		return eval_error_string(err, in, "sizeof", &a[0], "it takes a type name such as 'f32'");
	for (size_t k = 0; k < ET_COUNT; k++)
		if (same(a[0].s, a[0].len, elem_infos[k].name)) {
			a[0] = expr_int(elem_infos[k].size);
			return true;
		}
	for (size_t k = 0; k < N_C_TYPES; k++)
		if (same(a[0].s, a[0].len, c_types[k].name)) {
			a[0] = expr_int(c_types[k].size);
			return true;
		}
	return unknown_type(&a[0], in, err);
}

/* Execute code[start..start + n) into *res. */
static bool exec_code(const struct tmpl *t, uint32_t start, uint32_t n, const struct expr_val *vars,
		struct expr_val *res, struct expr_err *err)
{
	struct expr_val st[EXPR_MAX_STACK];
	struct expr_val *sp = st;       /* the next free slot */
	const struct ins *code = t->code;
	for (uint32_t pc = start, end = start + n; pc < end; pc++) {
		const struct ins *in = &code[pc];
		bool b = false;
		switch ((enum op)in->op) {
		case OP_INT:
			*sp++ = expr_int(in->u.i);
			break;
		case OP_FLOAT:
			*sp++ = expr_float(in->u.f);
			break;
		case OP_STR:
			*sp++ = expr_str(t->pool + in->u.str.at, in->u.str.len);
			break;
		case OP_LOAD:
			*sp++ = vars[in->u.load.slot];
			break;
		case OP_NEG:
		case OP_PLUS:
		case OP_NOT:
			if (!unary(in, &sp[-1], err))
				return false;
			break;
		case OP_ADD:
		case OP_SUB:
		case OP_MUL:
		case OP_DIV:
		case OP_MOD:
		case OP_POW:
		case OP_SHL:
		case OP_SHR:
			sp--;
			if (!arith(in, &sp[-1], sp, err))
				return false;
			break;
		case OP_EQ:
		case OP_NE:
		case OP_LT:
		case OP_LE:
		case OP_GT:
		case OP_GE:
			sp--;
			if (!compare(in, &sp[-1], sp, err))
				return false;
			break;
		case OP_AND:
		case OP_OR:
			sp--;
			if (!truth(in, op_text[in->op], sp, &b, err))
				return false;
			if (b == (in->op == OP_OR)) {
				*sp++ = expr_int(b);
				pc = in->u.to - 1;
			}
			break;
		case OP_BOOL:
			if (!truth(in, op_text[in->aux], &sp[-1], &b, err))
				return false;
			sp[-1] = expr_int(b);
			break;
		case OP_JFALSE:
			sp--;
			if (!truth(in, "?", sp, &b, err))
				return false;
			if (!b)
				pc = in->u.to - 1;
			break;
		case OP_JUMP:
			pc = in->u.to - 1;
			break;
		case OP_CALL:
			sp -= in->argc;
			if (!funcs[in->aux].fn(sp, in->argc, in, err))
				return false;
			sp++;
			break;
		case OP_NONE:
		case OP_COUNT:
			break;
		}
	}
	*res = st[0];
	return true;
}

const char *expr_func_name(const struct ins *in)
{
	return fname(in);
}

bool expr_apply(const struct ins *in, struct expr_val *sp, struct expr_err *err)
{
	bool b = false;
	switch ((enum op)in->op) {
	case OP_NEG:
	case OP_PLUS:
	case OP_NOT:
		return unary(in, sp, err);
	case OP_ADD:
	case OP_SUB:
	case OP_MUL:
	case OP_DIV:
	case OP_MOD:
	case OP_POW:
	case OP_SHL:
	case OP_SHR:
		return arith(in, &sp[0], &sp[1], err);
	case OP_EQ:
	case OP_NE:
	case OP_LT:
	case OP_LE:
	case OP_GT:
	case OP_GE:
		return compare(in, &sp[0], &sp[1], err);
	case OP_BOOL:
		if (!truth(in, op_text[in->aux], sp, &b, err))
			return false;
		sp[0] = expr_int(b);
		return true;
	case OP_CALL:
		return funcs[in->aux].fn(sp, in->argc, in, err);
	default:
		break;
	}
	return false;
}

bool tmpl_eval(const struct tmpl *t, const struct expr_val *vars, struct strbuf *out,
	       struct expr_val *res, struct expr_err *err)
{
	if (!t->linked) {
		err->off = t->names[0].off;
		err->len = t->names[0].len;
		err->code = "expr-not-linked";
		snprintf(err->msg, sizeof err->msg, "template evaluated before tmpl_link");
		return false;
	}
	if (t->whole)
		return exec_code(t, t->pieces[0].at, t->pieces[0].len, vars, res, err);
	size_t start = out->len;
	for (uint32_t k = 0; k < t->npieces; k++) {
		const struct piece *p = &t->pieces[k];
		if (!p->expr) {
			strbuf_add(out, t->pool + p->at, p->len);
			continue;
		}
		struct expr_val v;
		if (!exec_code(t, p->at, p->len, vars, &v, err)) {
			strbuf_truncate(out, start);
			return false;
		}
		expr_format(&v, out);
	}
	*res = expr_str(out->buf ? out->buf + start : "", (uint32_t)(out->len - start));
	return true;
}

/* ------------------------------------------------------------------ */
/* Lexing */

enum tok_kind {
	T_END, T_BAD, T_INT, T_FLOAT, T_STR, T_NAME,
	T_LPAREN, T_RPAREN, T_COMMA, T_QUEST, T_COLON, T_NOT,
	T_OROR, T_ANDAND, T_EQ, T_NE, T_LT, T_LE, T_GT, T_GE, T_SHL, T_SHR,
	T_PLUS, T_MINUS, T_STAR, T_SLASH, T_PERCENT, T_POW,
	T_COUNT
};

/* Two characters first, so that "<=" is not "<" then "=". */
static const struct punct {
	char text[3];
	uint8_t kind;
} puncts[] = {
	{"**", T_POW}, {"<<", T_SHL}, {">>", T_SHR}, {"<=", T_LE}, {">=", T_GE},
	{"==", T_EQ}, {"!=", T_NE}, {"&&", T_ANDAND}, {"||", T_OROR},
	{"(", T_LPAREN}, {")", T_RPAREN}, {",", T_COMMA}, {"?", T_QUEST}, {":", T_COLON},
	{"!", T_NOT}, {"<", T_LT}, {">", T_GT}, {"+", T_PLUS}, {"-", T_MINUS},
	{"*", T_STAR}, {"/", T_SLASH}, {"%", T_PERCENT},
};

/* Characters that are no operator alone, but half of one. */
static const struct near_op {
	char c;
	const char *meant;
} near_ops[] = {{'=', "=="}, {'&', "&&"}, {'|', "||"}};

/* Binary operators by token: precedence (1 lowest, 0 none) and instruction. */
static const struct binop {
	uint8_t prec;
	uint8_t op;
} binops[T_COUNT] = {
	[T_OROR] = {1, OP_OR}, [T_ANDAND] = {2, OP_AND},
	[T_EQ] = {3, OP_EQ}, [T_NE] = {3, OP_NE},
	[T_LT] = {4, OP_LT}, [T_LE] = {4, OP_LE}, [T_GT] = {4, OP_GT}, [T_GE] = {4, OP_GE},
	[T_SHL] = {5, OP_SHL}, [T_SHR] = {5, OP_SHR},
	[T_PLUS] = {6, OP_ADD}, [T_MINUS] = {6, OP_SUB},
	[T_STAR] = {7, OP_MUL}, [T_SLASH] = {7, OP_DIV}, [T_PERCENT] = {7, OP_MOD},
};

static const uint8_t unops[T_COUNT] = {[T_MINUS] = OP_NEG, [T_PLUS] = OP_PLUS, [T_NOT] = OP_NOT};

struct tok {
	enum tok_kind kind;
	uint32_t off, len;
	union {
		uint64_t u;         /* T_INT; UINT64_MAX when beyond */
		double f;           /* T_FLOAT */
	} v;
};

struct parser {
	const char *text;
	uint32_t pos;               /* the lexer's, in text */
	uint32_t end;               /* of the expression being parsed */
	struct tok tok;             /* the current token */
	struct tok prev;            /* the one before, for "after '+'" (len 0: none) */
	int depth;                  /* nesting, against EXPR_MAX_DEPTH */
	int stack;                  /* values the code so far leaves, against EXPR_MAX_STACK */
	struct ins *code;
	size_t ncode, capcode;
	char *pool;
	size_t npool, cappool;
	struct name *names;
	size_t nnames, capnames;
	struct piece *pieces;
	size_t npieces, cappieces;
	struct expr_err *err;
	bool failed;                /* err holds the first error; later ones are dropped */
};

static bool perr(struct parser *p, uint32_t off, uint32_t len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5), cold));

static bool perr(struct parser *p, uint32_t off, uint32_t len, const char *fmt, ...)
{
	if (p->failed)
		return false;
	p->failed = true;
	va_list ap;
	va_start(ap, fmt);
	set_err(p->err, off, len, fmt, ap);
	va_end(ap);
	return false;
}

static const char *tok_text(const struct parser *p, const struct tok *t, char *buf, size_t len)
{
	return quote_bytes(p->text + t->off, t->len, buf, len);
}

static inline bool is_digit(int c)
{
	return c >= '0' && c <= '9';
}

static inline bool is_alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static inline bool is_xdigit(int c)
{
	return is_digit(c) || ((c | 0x20) >= 'a' && (c | 0x20) <= 'f');
}

static inline bool is_blank(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* A number at t->off; errors only when report (peeks do not report). */
static void lex_number(struct parser *p, struct tok *t, bool report)
{
	const char *s = p->text;
	uint32_t q = t->off, end = p->end;
	bool is_float = false, bad = false;
	uint64_t u = 0;
	if (s[q] == '0' && q + 1 < end && (s[q + 1] | 0x20) == 'x') {
		uint32_t first = q += 2;
		for (; q < end && is_xdigit(s[q]); q++) {
			unsigned d = is_digit(s[q]) ? (unsigned)(s[q] - '0') : (unsigned)((s[q] | 0x20) - 'a' + 10);
			u = u >> 60 ? UINT64_MAX : u << 4 | d;
		}
		bad = q == first;
	} else {
		for (; q < end && is_digit(s[q]); q++)
			if (u != UINT64_MAX && (__builtin_mul_overflow(u, 10, &u) ||
						__builtin_add_overflow(u, (unsigned)(s[q] - '0'), &u)))
				u = UINT64_MAX;
		if (q < end && s[q] == '.') {
			is_float = true;
			for (q++; q < end && is_digit(s[q]); q++)
				;
		}
		if (q < end && (s[q] | 0x20) == 'e') {
			uint32_t e = q + 1;
			if (e < end && (s[e] == '+' || s[e] == '-'))
				e++;
			if (e < end && is_digit(s[e])) {
				is_float = true;
				for (q = e; q < end && is_digit(s[q]); q++)
					;
			}
		}
	}
	/* 12ab, 1.2.3, 0x, 1e: the whole run is the malformed number */
	if (q < end && (is_alpha(s[q]) || is_digit(s[q]) || s[q] == '.'))
		bad = true;
	if (bad)
		while (q < end && (is_alpha(s[q]) || is_digit(s[q]) || s[q] == '.'))
			q++;
	t->len = q - t->off;
	char buf[64];
	if (bad) {
		t->kind = T_BAD;
		if (report)
			perr(p, t->off, t->len, "malformed number '%s'", tok_text(p, t, buf, sizeof buf));
		return;
	}
	if (!is_float) {
		t->kind = T_INT;
		t->v.u = u;
		return;
	}
	/* strtod wants a C string; a literal longer than this one is silly but valid */
	char small[128];
	char *copy = t->len < sizeof small ? small : xmalloc(t->len + 1);
	memcpy(copy, s + t->off, t->len);
	copy[t->len] = '\0';
	t->kind = T_FLOAT;
	t->v.f = strtod(copy, NULL);
	if (copy != small)
		free(copy);
	if (isinf(t->v.f)) {
		t->kind = T_BAD;
		if (report)
			perr(p, t->off, t->len, "float %s is too large", tok_text(p, t, buf, sizeof buf));
	}
}

/* The token at pos into *t; the lexer position after it. */
static uint32_t lex(struct parser *p, uint32_t pos, struct tok *t, bool report)
{
	const char *s = p->text;
	while (pos < p->end && is_blank(s[pos]))
		pos++;
	t->off = pos;
	t->len = 0;
	t->kind = T_END;
	if (pos >= p->end)
		return pos;
	unsigned char c = (unsigned char)s[pos];
	if (is_digit(c) || (c == '.' && pos + 1 < p->end && is_digit(s[pos + 1]))) {
		lex_number(p, t, report);
		return t->off + t->len;
	}
	if (is_alpha(c)) {
		uint32_t q = pos + 1;
		while (q < p->end && (is_alpha(s[q]) || is_digit(s[q])))
			q++;
		t->kind = T_NAME;
		t->len = q - pos;
		return q;
	}
	if (c == '\'') {
		const char *close = memchr(s + pos + 1, '\'', p->end - pos - 1);
		if (close == NULL) {
			t->kind = T_BAD;
			t->len = 1;
			if (report)
				perr(p, pos, 1, "unterminated string");
			return p->end;
		}
		t->kind = T_STR;
		t->len = (uint32_t)(close - (s + pos)) + 1;
		return pos + t->len;
	}
	for (size_t k = 0; k < sizeof puncts / sizeof *puncts; k++) {
		const struct punct *pu = &puncts[k];
		if (c == (unsigned char)pu->text[0] &&
		    (pu->text[1] == '\0' || (pos + 1 < p->end && s[pos + 1] == pu->text[1]))) {
			t->kind = pu->kind;
			t->len = pu->text[1] ? 2 : 1;
			return pos + t->len;
		}
	}
	/* a whole UTF-8 character, so that a stray '≤' shows as itself */
	size_t n;
	utf8_next((const unsigned char *)s + pos, p->end - pos, &n);
	t->kind = T_BAD;
	t->len = (uint32_t)n;
	if (!report)
		return pos + t->len;
	for (size_t k = 0; k < sizeof near_ops / sizeof *near_ops; k++)
		if (c == (unsigned char)near_ops[k].c) {
			perr(p, pos, 1, "unexpected '%c' (did you mean '%s'?)", c, near_ops[k].meant);
			return pos + 1;
		}
	char buf[16];
	perr(p, pos, t->len, "unexpected character '%s'", quote_bytes(s + pos, n, buf, sizeof buf));
	return pos + t->len;
}

/* On to the next token, the one read kept as p->prev. */
static void advance(struct parser *p)
{
	p->prev = p->tok;
	p->pos = lex(p, p->pos, &p->tok, true);
}

static enum tok_kind peek(struct parser *p)
{
	struct tok t;
	lex(p, p->pos, &t, false);
	return t.kind;
}

/* ------------------------------------------------------------------ */
/* Parsing to code */

static struct ins *emit(struct parser *p, enum op op, uint32_t off)
{
	struct ins *in = VEC_PUSH(p->code, p->ncode, p->capcode);
	in->op = (uint8_t)op;
	in->off = off;
	return in;
}

/* A value pushed: the evaluator's stack is EXPR_MAX_STACK deep. */
static bool push(struct parser *p, uint32_t off)
{
	if (++p->stack > EXPR_MAX_STACK)
		return perr(p, off, 0, "expression too complex (more than %d values at once)",
			    EXPR_MAX_STACK);
	return true;
}

static uint32_t pool_add(struct parser *p, const char *s, size_t n)
{
	while (p->cappool - p->npool < n + 1) {
		p->cappool = p->cappool ? 2 * p->cappool : 64;
		p->pool = xreallocarray(p->pool, p->cappool, 1);
	}
	uint32_t at = (uint32_t)p->npool;
	memcpy(p->pool + at, s, n);
	p->pool[at + n] = '\0';
	p->npool += n + 1;
	return at;
}

static bool enter(struct parser *p)
{
	if (++p->depth > EXPR_MAX_DEPTH)
		return perr(p, p->tok.off, p->tok.len, "expression nested too deeply (more than %d levels)",
			    EXPR_MAX_DEPTH);
	return true;
}

static bool parse_expr(struct parser *p);
static bool parse_unary(struct parser *p);

static __attribute__((cold)) bool expected_expr(struct parser *p)
{
	char buf[64];
	if (p->prev.len == 0)
		return perr(p, p->tok.off, p->tok.len, "expected an expression");
	return perr(p, p->tok.off, p->tok.len, "expected an expression after '%s'",
		    tok_text(p, &p->prev, buf, sizeof buf));
}

static const struct func *find_func(const char *s, size_t n)
{
	for (size_t k = 0; k < N_FUNCS; k++)
		if (same(s, n, funcs[k].name))
			return &funcs[k];
	return NULL;
}

static __attribute__((cold)) bool unknown_func(struct parser *p, const struct tok *name)
{
	const char *names[N_FUNCS];
	for (size_t k = 0; k < N_FUNCS; k++)
		names[k] = funcs[k].name;
	char word[65], buf[64];
	const char *near = NULL;
	if (name->len <= 64) {
		memcpy(word, p->text + name->off, name->len);
		word[name->len] = '\0';
		near = diag_suggest(word, names, N_FUNCS);
	}
	return perr(p, name->off, name->len, "unknown function '%s'%s%s%s",
		    tok_text(p, name, buf, sizeof buf), near ? " (did you mean '" : "",
		    near ? near : "", near ? "'?)" : "");
}

static bool parse_call(struct parser *p, const struct tok *name)
{
	const struct func *f = find_func(p->text + name->off, name->len);
	if (f == NULL)
		return unknown_func(p, name);
	advance(p); /* ( */
	unsigned argc = 0;
	if (p->tok.kind != T_RPAREN) {
		for (;;) {
			if (argc == EXPR_MAX_ARGS)
				return perr(p, p->tok.off, p->tok.len, "too many arguments for '%s' (at most %d)",
					    f->name, EXPR_MAX_ARGS);
			if (!parse_expr(p))
				return false;
			argc++;
			if (p->tok.kind == T_RPAREN)
				break;
			if (p->tok.kind != T_COMMA)
				return perr(p, p->tok.off, p->tok.len,
					    "expected ',' or ')' after an argument of '%s'", f->name);
			advance(p);
		}
	}
	advance(p); /* ) */
	if (argc < f->min || argc > f->max) {
		char takes[32];
		if (f->min == f->max)
			snprintf(takes, sizeof takes, "%u argument%s", f->min, f->min == 1 ? "" : "s");
		else
			snprintf(takes, sizeof takes, "%u to %u arguments", f->min, f->max);
		return perr(p, name->off, name->len, "'%s' takes %s, found %u", f->name, takes, argc);
	}
	struct ins *in = emit(p, OP_CALL, name->off);
	in->argc = (uint8_t)argc;
	in->aux = (uint8_t)(f - funcs);
	p->stack -= (int)argc - 1;
	return true;
}

static bool parse_name(struct parser *p, const struct tok *t)
{
	const char *s = p->text + t->off;
	size_t k = 0;
	while (k < p->nnames && !(p->names[k].len == t->len && memcmp(p->pool + p->names[k].at, s, t->len) == 0))
		k++;
	if (k == p->nnames) {
		/* a bound, so that finding a name stays cheap on any text */
		if (k == EXPR_MAX_NAMES)
			return perr(p, t->off, t->len, "too many names (more than %d)", EXPR_MAX_NAMES);
		struct name *nm = VEC_PUSH(p->names, p->nnames, p->capnames);
		nm->at = pool_add(p, s, t->len);
		nm->len = t->len;
		nm->off = t->off;
	}
	if (!push(p, t->off))
		return false;
	emit(p, OP_LOAD, t->off)->u.load.name = (uint32_t)k;
	return true;
}

static bool parse_primary(struct parser *p)
{
	struct tok t = p->tok;
	char buf[64];
	switch (t.kind) {
	case T_INT:
		if (t.v.u > INT64_MAX)
			return perr(p, t.off, t.len, "integer %s is too large (at most %" PRId64 ")",
				    tok_text(p, &t, buf, sizeof buf), INT64_MAX);
		advance(p);
		if (!push(p, t.off))
			return false;
		emit(p, OP_INT, t.off)->u.i = (int64_t)t.v.u;
		return true;
	case T_FLOAT:
		advance(p);
		if (!push(p, t.off))
			return false;
		emit(p, OP_FLOAT, t.off)->u.f = t.v.f;
		return true;
	case T_STR: {
		advance(p);
		if (!push(p, t.off))
			return false;
		struct ins *in = emit(p, OP_STR, t.off);
		in->u.str.len = t.len - 2;
		in->u.str.at = pool_add(p, p->text + t.off + 1, t.len - 2);
		return true;
	}
	case T_NAME:
		advance(p);
		if (p->tok.kind == T_LPAREN)
			return parse_call(p, &t);
		return parse_name(p, &t);
	case T_LPAREN:
		advance(p);
		if (!parse_expr(p))
			return false;
		if (p->tok.kind != T_RPAREN)
			return perr(p, p->tok.off, p->tok.len, "expected ')' to match '('");
		advance(p);
		return true;
	default:
		break;
	}
	return expected_expr(p);
}

/* power = primary ( '**' unary )? */
static bool parse_power(struct parser *p)
{
	if (!parse_primary(p))
		return false;
	if (p->tok.kind != T_POW)
		return true;
	uint32_t off = p->tok.off;
	advance(p);
	if (!enter(p))
		return false;
	bool ok = parse_unary(p);
	p->depth--;
	if (!ok)
		return false;
	emit(p, OP_POW, off);
	p->stack--;
	return true;
}

static bool parse_unary(struct parser *p)
{
	uint8_t op = unops[p->tok.kind];
	if (op == OP_NONE)
		return parse_power(p);
	uint32_t off = p->tok.off;
	advance(p);
	/* -9223372036854775808: the one literal that exists only negated */
	if (op == OP_NEG && p->tok.kind == T_INT && p->tok.v.u == (uint64_t)INT64_MAX + 1 &&
	    peek(p) != T_POW) {
		advance(p);
		if (!push(p, off))
			return false;
		emit(p, OP_INT, off)->u.i = INT64_MIN;
		return true;
	}
	if (!enter(p))
		return false;
	size_t start = p->ncode;
	bool ok = parse_unary(p);
	p->depth--;
	if (!ok)
		return false;
	/* A sign on a number literal is part of it: -1 is one instruction. */
	struct ins *lit = &p->code[start];
	if (op != OP_NOT && p->ncode == start + 1 &&
	    ((lit->op == OP_INT && lit->u.i != INT64_MIN) || lit->op == OP_FLOAT)) {
		if (op == OP_NEG && lit->op == OP_INT)
			lit->u.i = -lit->u.i;
		else if (op == OP_NEG)
			lit->u.f = -lit->u.f;
		return true;
	}
	emit(p, (enum op)op, off);
	return true;
}

/* Precedence climbing over the binops table: operators of prec >= minprec. */
static bool parse_binary(struct parser *p, int minprec)
{
	if (!parse_unary(p))
		return false;
	for (;;) {
		const struct binop *b = &binops[p->tok.kind];
		if (b->prec == 0 || b->prec < minprec)
			return true;
		uint32_t off = p->tok.off;
		advance(p);
		if (b->op == OP_AND || b->op == OP_OR) {
			size_t jump = p->ncode;
			emit(p, (enum op)b->op, off);
			p->stack--;
			if (!parse_binary(p, b->prec + 1))
				return false;
			emit(p, OP_BOOL, off)->aux = b->op;
			p->code[jump].u.to = (uint32_t)p->ncode;
		} else {
			if (!parse_binary(p, b->prec + 1))
				return false;
			emit(p, (enum op)b->op, off);
			p->stack--;
		}
	}
}

/* expr = binary ( '?' expr ':' expr )? */
static bool parse_expr(struct parser *p)
{
	if (!enter(p))
		return false;
	bool ok = false;
	if (!parse_binary(p, 1))
		goto out;
	if (p->tok.kind == T_QUEST) {
		uint32_t off = p->tok.off;
		advance(p);
		size_t jfalse = p->ncode;
		emit(p, OP_JFALSE, off);
		p->stack--;
		if (!parse_expr(p))
			goto out;
		if (p->tok.kind != T_COLON) {
			perr(p, p->tok.off, p->tok.len, "expected ':' for '?'");
			goto out;
		}
		size_t jump = p->ncode;
		emit(p, OP_JUMP, p->tok.off);
		advance(p);
		p->code[jfalse].u.to = (uint32_t)p->ncode;
		p->stack--; /* the else branch starts where the then branch did */
		if (!parse_expr(p))
			goto out;
		p->code[jump].u.to = (uint32_t)p->ncode;
	}
	ok = true;
out:
	p->depth--;
	return ok;
}

/*
 * The expression in text[start..end) as one more piece; after is the
 * "${" before it (len 0 for a bare expression), for "expected an
 * expression after '${'".
 */
static bool parse_piece(struct parser *p, uint32_t start, uint32_t end, uint32_t after_len)
{
	p->pos = start;
	p->end = end;
	p->depth = 0;
	p->stack = 0;
	p->tok = (struct tok){.kind = T_END, .off = start - after_len, .len = after_len};
	advance(p);
	uint32_t first = (uint32_t)p->ncode;
	if (!parse_expr(p))
		return false;
	if (p->tok.kind != T_END) {
		char buf[64];
		return perr(p, p->tok.off, p->tok.len, "unexpected '%s' after the expression",
			    tok_text(p, &p->tok, buf, sizeof buf));
	}
	struct piece *pc = VEC_PUSH(p->pieces, p->npieces, p->cappieces);
	pc->expr = true;
	pc->at = first;
	pc->len = (uint32_t)p->ncode - first;
	return true;
}

/* Literal text, joined to the literal piece before it when there is one. */
static void add_literal(struct parser *p, const char *s, size_t n)
{
	if (n == 0)
		return;
	struct piece *last = p->npieces ? &p->pieces[p->npieces - 1] : NULL;
	if (last && !last->expr) {
		/* the pool's last bytes are that piece and its '\0': overwrite the '\0' */
		p->npool--;
		pool_add(p, s, n);
		last->len += (uint32_t)n;
		return;
	}
	struct piece *pc = VEC_PUSH(p->pieces, p->npieces, p->cappieces);
	pc->at = pool_add(p, s, n);
	pc->len = (uint32_t)n;
}

/*
 * The '}' that closes the "${" at dollar, skipping 'strings'; false and
 * the error when there is none.
 */
static bool find_close(struct parser *p, uint32_t dollar, uint32_t len, uint32_t *close)
{
	const char *s = p->text;
	for (uint32_t q = dollar + 2; q < len; q++) {
		if (s[q] == '}') {
			*close = q;
			return true;
		}
		if (s[q] == '\'') {
			const char *e = memchr(s + q + 1, '\'', len - q - 1);
			if (e == NULL)
				return perr(p, q, 1, "unterminated string");
			q = (uint32_t)(e - s);
		}
	}
	return perr(p, dollar, 2, "unterminated '${'");
}

static bool parse_template(struct parser *p, uint32_t len)
{
	const char *s = p->text;
	uint32_t pos = 0;
	while (pos < len) {
		const char *d = memchr(s + pos, '$', len - pos);
		if (d == NULL) {
			add_literal(p, s + pos, len - pos);
			break;
		}
		uint32_t i = (uint32_t)(d - s);
		if (i + 2 < len && s[i + 1] == '$' && s[i + 2] == '{') {
			add_literal(p, s + pos, i - pos);
			add_literal(p, "${", 2);
			pos = i + 3;
			continue;
		}
		if (i + 1 < len && s[i + 1] == '{') {
			add_literal(p, s + pos, i - pos);
			uint32_t close = 0;
			if (!find_close(p, i, len, &close) || !parse_piece(p, i + 2, close, 2))
				return false;
			pos = close + 1;
			continue;
		}
		add_literal(p, s + pos, i + 1 - pos); /* a lone '$' */
		pos = i + 1;
	}
	return true;
}

/* Everything the parser collected, in one allocation. */
static struct tmpl *pack(struct parser *p)
{
	size_t o_code = (sizeof(struct tmpl) + 7) & ~(size_t)7;
	size_t o_pieces = o_code + p->ncode * sizeof(struct ins);
	size_t o_names = o_pieces + p->npieces * sizeof(struct piece);
	size_t o_pool = o_names + p->nnames * sizeof(struct name);
	char *block = xmalloc(o_pool + p->npool);
	struct tmpl *t = (struct tmpl *)(void *)block;
	memset(t, 0, sizeof *t);
	struct ins *code = (struct ins *)(void *)(block + o_code);
	struct piece *pieces = (struct piece *)(void *)(block + o_pieces);
	struct name *names = (struct name *)(void *)(block + o_names);
	char *pool = block + o_pool;
	if (p->ncode)
		memcpy(code, p->code, p->ncode * sizeof *code);
	if (p->npieces)
		memcpy(pieces, p->pieces, p->npieces * sizeof *pieces);
	if (p->nnames)
		memcpy(names, p->names, p->nnames * sizeof *names);
	if (p->npool)
		memcpy(pool, p->pool, p->npool);
	t->code = code;
	t->ncode = (uint32_t)p->ncode;
	t->pieces = pieces;
	t->names = names;
	t->pool = pool;
	t->npieces = (uint32_t)p->npieces;
	t->nnames = (uint32_t)p->nnames;
	for (size_t k = 0; k < p->npieces; k++)
		t->nexprs += pieces[k].expr;
	t->linked = p->nnames == 0;
	return t;
}

static struct tmpl *parse(const char *text, size_t len, bool bare, struct expr_err *err)
{
	if (len > TMPL_MAX_LEN) {
		err->off = 0;
		err->len = 0;
		err->code = "expr-template-too-long";
		snprintf(err->msg, sizeof err->msg, "template too long (more than %u bytes)",
			 TMPL_MAX_LEN);
		return NULL;
	}
	struct parser p = {.text = text, .err = err};
	bool ok = bare ? parse_piece(&p, 0, (uint32_t)len, 0) : parse_template(&p, (uint32_t)len);
	struct tmpl *t = NULL;
	if (ok) {
		t = pack(&p);
		/* one piece, an expression: no literal text around it (none is empty) */
		t->whole = t->npieces == 1 && t->pieces[0].expr;
	}
	free(p.code);
	free(p.pool);
	free(p.names);
	free(p.pieces);
	return t;
}

struct tmpl *tmpl_parse(const char *text, size_t len, struct expr_err *err)
{
	return parse(text, len, false, err);
}

struct tmpl *tmpl_parse_expr(const char *text, size_t len, struct expr_err *err)
{
	return parse(text, len, true, err);
}

void tmpl_free(struct tmpl *t)
{
	free(t);
}

bool tmpl_is_whole(const struct tmpl *t)
{
	return t->whole;
}

size_t tmpl_nexprs(const struct tmpl *t)
{
	return t->nexprs;
}

size_t tmpl_nnames(const struct tmpl *t)
{
	return t->nnames;
}

const char *tmpl_name(const struct tmpl *t, size_t i, size_t *off)
{
	if (off)
		*off = t->names[i].off;
	return t->pool + t->names[i].at;
}

long tmpl_lookup_strmap(void *ctx, const char *name)
{
	return strmap_get(ctx, name);
}

bool tmpl_link(struct tmpl *t, tmpl_lookup_fn lookup, void *ctx, struct expr_err *err)
{
	t->linked = false;
	/* slots by name index, on the stack for the usual few names */
	uint32_t small[16];
	uint32_t *slots = t->nnames <= 16 ? small : xreallocarray(NULL, t->nnames, sizeof *slots);
	bool ok = true;
	for (uint32_t k = 0; k < t->nnames && ok; k++) {
		const struct name *nm = &t->names[k];
		long s = lookup(ctx, t->pool + nm->at);
		if (s < 0 || s > INT32_MAX) {
			char buf[64];
			err->off = nm->off;
			err->len = nm->len;
			err->code = "expr-unknown-name";
			snprintf(err->msg, sizeof err->msg, "unknown name '%s'",
				 quote_bytes(t->pool + nm->at, nm->len, buf, sizeof buf));
			ok = false;
		}
		slots[k] = (uint32_t)s;
	}
	if (ok) {
		for (uint32_t k = 0; k < t->ncode; k++)
			if (t->code[k].op == OP_LOAD)
				t->code[k].u.load.slot = slots[t->code[k].u.load.name];
		t->linked = true;
	}
	if (slots != small)
		free(slots);
	return ok;
}

/* ------------------------------------------------------------------ */
/* Values to the loader's needs */

static __attribute__((cold)) bool why_not(const struct expr_val *v, const char *what, char *why,
					  size_t why_len)
{
	char buf[96];
	snprintf(why, why_len, "is %s, not %s", show(v, buf, sizeof buf), what);
	return false;
}

bool expr_to_i64(const struct expr_val *v, int64_t min, int64_t max, int64_t *out,
		 char *why, size_t why_len)
{
	if (v->type == EXPR_STR)
		return why_not(v, "a number", why, why_len);
	if (v->type == EXPR_FLOAT)
		return why_not(v, "an integer", why, why_len);
	if (v->i < min || v->i > max) {
		char buf[32];
		fmt_int(v->i, buf);
		snprintf(why, why_len, "is %s, out of range (%" PRId64 " to %" PRId64 ")", buf, min, max);
		return false;
	}
	*out = v->i;
	return true;
}

bool expr_to_u64(const struct expr_val *v, uint64_t min, uint64_t max, uint64_t *out,
		 char *why, size_t why_len)
{
	if (v->type == EXPR_STR)
		return why_not(v, "a number", why, why_len);
	if (v->type == EXPR_FLOAT)
		return why_not(v, "an integer", why, why_len);
	if (v->i < 0 || (uint64_t)v->i < min || (uint64_t)v->i > max) {
		char buf[32];
		fmt_int(v->i, buf);
		snprintf(why, why_len, "is %s, out of range (%" PRIu64 " to %" PRIu64 ")", buf, min, max);
		return false;
	}
	*out = (uint64_t)v->i;
	return true;
}

bool expr_to_double(const struct expr_val *v, double *out, char *why, size_t why_len)
{
	if (v->type == EXPR_STR)
		return why_not(v, "a number", why, why_len);
	*out = as_float(v);
	return true;
}

bool expr_to_num(const struct expr_val *v, struct num *out, char *why, size_t why_len)
{
	switch (v->type) {
	case EXPR_INT:
		out->kind = v->i < 0 ? NUM_INT : NUM_UINT;
		if (v->i < 0)
			out->i = v->i;
		else
			out->u = (uint64_t)v->i;
		return true;
	case EXPR_FLOAT:
		out->kind = NUM_FLOAT;
		out->f = v->f;
		return true;
	case EXPR_STR:
		break;
	}
	return why_not(v, "a number", why, why_len);
}
