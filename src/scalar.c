#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "scalar.h"

const struct elem_info elem_infos[ET_COUNT] = {
	[ET_I8] = {"i8", 1, false, true},
	[ET_U8] = {"u8", 1, false, false},
	[ET_I16] = {"i16", 2, false, true},
	[ET_U16] = {"u16", 2, false, false},
	[ET_I32] = {"i32", 4, false, true},
	[ET_U32] = {"u32", 4, false, false},
	[ET_I64] = {"i64", 8, false, true},
	[ET_U64] = {"u64", 8, false, false},
	[ET_F16] = {"f16", 2, true, true},
	[ET_BF16] = {"bf16", 2, true, true},
	[ET_F32] = {"f32", 4, true, true},
	[ET_F64] = {"f64", 8, true, true},
};

const char *const elem_names[ET_COUNT] = {
	"i8", "u8", "i16", "u16", "i32", "u32", "i64", "u64",
	"f16", "bf16", "f32", "f64",
};

bool elem_from_name(const char *name, enum elem_type *out)
{
	for (int t = 0; t < ET_COUNT; t++)
		if (strcmp(name, elem_names[t]) == 0) {
			*out = (enum elem_type)t;
			return true;
		}
	return false;
}

bool is_null_scalar(const char *s)
{
	return *s == '\0' || strcmp(s, "~") == 0 || strcmp(s, "null") == 0 ||
	       strcmp(s, "Null") == 0 || strcmp(s, "NULL") == 0;
}

bool parse_bool(const char *s, bool *out)
{
	if (!strcmp(s, "true") || !strcmp(s, "True") || !strcmp(s, "TRUE")) {
		*out = true;
		return true;
	}
	if (!strcmp(s, "false") || !strcmp(s, "False") || !strcmp(s, "FALSE")) {
		*out = false;
		return true;
	}
	return false;
}

/* Digits of an unsigned integer, decimal or 0x hex, to the end of s. */
static enum scalar_err parse_magnitude(const char *s, uint64_t *out)
{
	int base = 10;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	}
	if (*s == '\0')
		return SCALAR_SYNTAX;
	uint64_t v = 0;
	if (base == 10) {
		/* Up to 19 plain digits, most numbers of a file, cannot overflow. */
		const char *p = s;
		while (*p >= '0' && *p <= '9' && p - s < 19)
			v = v * 10 + (uint64_t)(*p++ - '0');
		if (*p == '\0') {
			*out = v;
			return SCALAR_OK;
		}
		v = 0;
	}
	bool overflow = false;
	const char *first = s;
	for (; *s; s++) {
		unsigned d;
		if (*s >= '0' && *s <= '9')
			d = (unsigned)(*s - '0');
		else if (base == 16 && *s >= 'a' && *s <= 'f')
			d = (unsigned)(*s - 'a' + 10);
		else if (base == 16 && *s >= 'A' && *s <= 'F')
			d = (unsigned)(*s - 'A' + 10);
		else if (*s == '_' && s != first && s[1] != '\0' && s[1] != '_')
			continue; /* 1_000_000: between digits only */
		else
			return SCALAR_SYNTAX;
		/* No division per digit: it was most of a one-digit number's cost. */
		if (__builtin_mul_overflow(v, (uint64_t)base, &v) || __builtin_add_overflow(v, d, &v))
			overflow = true;
	}
	*out = v;
	return overflow ? SCALAR_RANGE : SCALAR_OK;
}

enum scalar_err parse_int(const char *s, struct num *out)
{
	bool neg = false;
	if (*s == '-' || *s == '+') {
		neg = *s == '-';
		s++;
	}
	uint64_t mag;
	enum scalar_err e = parse_magnitude(s, &mag);
	if (e != SCALAR_OK)
		return e;
	if (!neg || mag == 0) {
		out->kind = NUM_UINT;
		out->u = mag;
		return SCALAR_OK;
	}
	if (mag > (uint64_t)INT64_MAX + 1)
		return SCALAR_RANGE;
	out->kind = NUM_INT;
	out->i = mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mag;
	return SCALAR_OK;
}

enum scalar_err parse_number(const char *s, struct num *out)
{
	enum scalar_err e = parse_int(s, out);
	if (e != SCALAR_SYNTAX)
		return e;
	const char *p = s;
	bool neg = false;
	if (*p == '-' || *p == '+') {
		neg = *p == '-';
		p++;
	}
	/*
	 * The words start with i, n or '.': a buffer name given as a kernel
	 * argument comes by here too (is it an untyped number?), and five
	 * strcasecmp calls each was most of what a sweep's point paid for it.
	 */
	char c0 = (char)(*p | 0x20);
	if ((c0 == 'i' || *p == '.') &&
	    (!strcasecmp(p, "inf") || !strcasecmp(p, ".inf") || !strcasecmp(p, "infinity"))) {
		out->kind = NUM_FLOAT;
		out->f = neg ? -INFINITY : INFINITY;
		return SCALAR_OK;
	}
	if ((c0 == 'n' || *p == '.') && (!strcasecmp(p, "nan") || !strcasecmp(p, ".nan"))) {
		out->kind = NUM_FLOAT;
		out->f = NAN;
		return SCALAR_OK;
	}
	/* strtod reads hex floats and more; require a digit so "e5" is no number. */
	if (strpbrk(s, "0123456789") == NULL)
		return SCALAR_SYNTAX;
	char *end;
	errno = 0;
	double d = strtod(s, &end);
	if (end == s || *end != '\0')
		return SCALAR_SYNTAX;
	if (errno == ERANGE && isinf(d))
		return SCALAR_RANGE;
	out->kind = NUM_FLOAT;
	out->f = d;
	return SCALAR_OK;
}

enum scalar_err parse_u64(const char *s, uint64_t *out)
{
	if (*s == '+')
		s++;
	return parse_magnitude(s, out);
}

/* Split "<number><spaces><unit>" into the number's text and the unit. */
static bool split_unit(const char *s, char *num, size_t numlen, const char **unit)
{
	size_t i = 0;
	if (s[i] == '+' || s[i] == '-')
		i++;
	if (s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
		for (i += 2; isxdigit((unsigned char)s[i]) || s[i] == '_'; i++)
			;
	} else {
		for (; isdigit((unsigned char)s[i]) || s[i] == '.' || s[i] == '_'; i++)
			if ((s[i + 1] == 'e' || s[i + 1] == 'E') &&
			    (isdigit((unsigned char)s[i + 2]) ||
			     ((s[i + 2] == '-' || s[i + 2] == '+') && isdigit((unsigned char)s[i + 3]))))
				i += 2;
	}
	if (i == 0 || i >= numlen)
		return false;
	memcpy(num, s, i);
	num[i] = '\0';
	while (s[i] == ' ' || s[i] == '\t')
		i++;
	*unit = s + i;
	return true;
}

static const struct unit {
	const char *name;
	uint64_t mult;
} size_units[] = {
	{"", 1}, {"B", 1},
	{"KiB", 1ull << 10}, {"MiB", 1ull << 20}, {"GiB", 1ull << 30}, {"TiB", 1ull << 40},
	{"kB", 1000ull}, {"KB", 1000ull}, {"MB", 1000000ull}, {"GB", 1000000000ull},
	{"TB", 1000000000000ull},
}, time_units[] = {
	/* micro: the micro sign, and the Greek mu that cugraphrun(5) prints */
	{"", 1000000000ull}, {"ns", 1}, {"us", 1000ull}, {"µs", 1000ull}, {"μs", 1000ull},
	{"ms", 1000000ull}, {"s", 1000000000ull}, {"min", 60000000000ull},
};

enum scalar_err parse_size(const char *s, uint64_t *out)
{
	char num[64];
	const char *unit;
	if (!split_unit(s, num, sizeof num, &unit))
		return SCALAR_SYNTAX;
	uint64_t v;
	enum scalar_err e = parse_u64(num, &v);
	if (e != SCALAR_OK)
		return e;
	for (size_t i = 0; i < sizeof size_units / sizeof *size_units; i++)
		if (strcmp(unit, size_units[i].name) == 0) {
			if (v > UINT64_MAX / size_units[i].mult)
				return SCALAR_RANGE;
			*out = v * size_units[i].mult;
			return SCALAR_OK;
		}
	return SCALAR_UNIT;
}

enum scalar_err parse_duration(const char *s, uint64_t *ns_out)
{
	char num[64];
	const char *unit;
	if (!split_unit(s, num, sizeof num, &unit))
		return SCALAR_SYNTAX;
	char *end;
	errno = 0;
	double v = strtod(num, &end);
	if (end == num || *end != '\0' || !(v >= 0) || num[0] == '-')
		return SCALAR_SYNTAX;
	for (size_t i = 0; i < sizeof time_units / sizeof *time_units; i++)
		if (strcmp(unit, time_units[i].name) == 0) {
			double ns = v * (double)time_units[i].mult;
			if (!(ns < 1.8e19))
				return SCALAR_RANGE;
			*ns_out = (uint64_t)(ns + 0.5);
			return SCALAR_OK;
		}
	return SCALAR_UNIT;
}

double num_to_double(const struct num *n)
{
	switch (n->kind) {
	case NUM_UINT:
		return (double)n->u;
	case NUM_INT:
		return (double)n->i;
	case NUM_FLOAT:
		break;
	}
	return n->f;
}

int num_format(const struct num *n, char *buf, size_t len)
{
	switch (n->kind) {
	case NUM_UINT:
		return snprintf(buf, len, "%" PRIu64, n->u);
	case NUM_INT:
		return snprintf(buf, len, "%" PRId64, n->i);
	case NUM_FLOAT:
		break;
	}
	/*
	 * The fewest digits that read back as the same double (0.1, not
	 * 0.10000000000000001), and no exponent for a whole number below
	 * 10^17 (1000000, not 1e+06).
	 */
	if (!isfinite(n->f))
		return snprintf(buf, len, "%g", n->f);
	int digits = 1;
	for (char text[40]; digits < 17; digits++) {
		snprintf(text, sizeof text, "%.*g", digits, n->f);
		if (strtod(text, NULL) == n->f)
			break;
	}
	int e = n->f == 0 ? 0 : (int)floor(log10(fabs(n->f)));
	if (e >= digits && e < 17)
		digits = e + 1;
	return snprintf(buf, len, "%.*g", digits, n->f);
}

/* IEEE half and bfloat16, round to nearest even. */
uint16_t f32_to_f16(float f)
{
	uint32_t x;
	memcpy(&x, &f, 4);
	uint32_t sign = (x >> 16) & 0x8000u;
	uint32_t exp = (x >> 23) & 0xffu;
	uint32_t mant = x & 0x7fffffu;
	if (exp == 0xff)
		return (uint16_t)(sign | 0x7c00u | (mant ? 0x200u : 0));
	int e = (int)exp - 127 + 15;
	if (e >= 31)
		return (uint16_t)(sign | 0x7c00u);
	if (e <= 0) {
		if (e < -10)
			return (uint16_t)sign;
		mant |= 0x800000u;
		unsigned shift = (unsigned)(14 - e);
		uint32_t half = mant >> shift;
		uint32_t rem = mant & ((1u << shift) - 1);
		uint32_t mid = 1u << (shift - 1);
		if (rem > mid || (rem == mid && (half & 1)))
			half++;
		return (uint16_t)(sign | half);
	}
	uint32_t half = sign | ((uint32_t)e << 10) | (mant >> 13);
	uint32_t rem = mant & 0x1fffu;
	if (rem > 0x1000u || (rem == 0x1000u && (half & 1)))
		half++; /* may carry into the exponent: still right, up to inf */
	return (uint16_t)half;
}

float f16_to_f32(uint16_t h)
{
	uint32_t sign = (uint32_t)(h & 0x8000u) << 16;
	uint32_t exp = (h >> 10) & 0x1fu;
	uint32_t mant = h & 0x3ffu;
	uint32_t x;
	if (exp == 0x1f) {
		x = sign | 0x7f800000u | (mant << 13);
	} else if (exp == 0) {
		if (mant == 0) {
			x = sign;
		} else {
			float f = ldexpf((float)mant, -24);
			return sign ? -f : f;
		}
	} else {
		x = sign | ((exp - 15 + 127) << 23) | (mant << 13);
	}
	float f;
	memcpy(&f, &x, 4);
	return f;
}

uint16_t f32_to_bf16(float f)
{
	uint32_t x;
	memcpy(&x, &f, 4);
	if ((x & 0x7fffffffu) > 0x7f800000u)
		return (uint16_t)((x >> 16) | 0x40u); /* quiet NaN */
	x += 0x7fffu + ((x >> 16) & 1u);
	return (uint16_t)(x >> 16);
}

float bf16_to_f32(uint16_t h)
{
	uint32_t x = (uint32_t)h << 16;
	float f;
	memcpy(&f, &x, 4);
	return f;
}

const char *num_encode(const struct num *n, enum elem_type t, void *out,
		       char *why_buf, size_t why_len)
{
	const struct elem_info *ei = &elem_infos[t];
	char text[64];
	if (ei->is_float) {
		double d = num_to_double(n);
		switch (t) {
		case ET_F64:
			memcpy(out, &d, 8);
			return NULL;
		case ET_F32: {
			float f = (float)d;
			if (isinf(f) && !isinf(d))
				goto range;
			memcpy(out, &f, 4);
			return NULL;
		}
		case ET_F16: {
			uint16_t h = f32_to_f16((float)d);
			if ((h & 0x7c00u) == 0x7c00u && !(h & 0x3ffu) && !isinf(d))
				goto range;
			memcpy(out, &h, 2);
			return NULL;
		}
		case ET_BF16: {
			uint16_t h = f32_to_bf16((float)d);
			if ((h & 0x7f80u) == 0x7f80u && !(h & 0x7fu) && !isinf(d))
				goto range;
			memcpy(out, &h, 2);
			return NULL;
		}
		default:
			break;
		}
	}
	if (n->kind == NUM_FLOAT) {
		num_format(n, text, sizeof text);
		snprintf(why_buf, why_len, "%s is not an integer, as %s needs", text, ei->name);
		return why_buf;
	}
	/* Integers: range by width and signedness. */
	unsigned bits = ei->size * 8;
	if (n->kind == NUM_UINT) {
		uint64_t max = ei->is_signed ? (UINT64_MAX >> (65 - bits)) :
			(bits == 64 ? UINT64_MAX : (1ull << bits) - 1);
		if (n->u > max)
			goto range;
		uint64_t v = n->u;
		switch (ei->size) {
		case 1: { uint8_t x = (uint8_t)v; memcpy(out, &x, 1); break; }
		case 2: { uint16_t x = (uint16_t)v; memcpy(out, &x, 2); break; }
		case 4: { uint32_t x = (uint32_t)v; memcpy(out, &x, 4); break; }
		default: memcpy(out, &v, 8); break;
		}
		return NULL;
	}
	if (!ei->is_signed)
		goto range;
	int64_t min = bits == 64 ? INT64_MIN : -(int64_t)(1ull << (bits - 1));
	if (n->i < min)
		goto range;
	switch (ei->size) {
	case 1: { int8_t x = (int8_t)n->i; memcpy(out, &x, 1); break; }
	case 2: { int16_t x = (int16_t)n->i; memcpy(out, &x, 2); break; }
	case 4: { int32_t x = (int32_t)n->i; memcpy(out, &x, 4); break; }
	default: memcpy(out, &n->i, 8); break;
	}
	return NULL;
range:
	num_format(n, text, sizeof text);
	snprintf(why_buf, why_len, "%s does not fit %s", text, ei->name);
	return why_buf;
}

double elem_to_double(enum elem_type t, const void *p)
{
	switch (t) {
	case ET_I8: { int8_t x; memcpy(&x, p, 1); return x; }
	case ET_U8: { uint8_t x; memcpy(&x, p, 1); return x; }
	case ET_I16: { int16_t x; memcpy(&x, p, 2); return x; }
	case ET_U16: { uint16_t x; memcpy(&x, p, 2); return x; }
	case ET_I32: { int32_t x; memcpy(&x, p, 4); return x; }
	case ET_U32: { uint32_t x; memcpy(&x, p, 4); return x; }
	case ET_I64: { int64_t x; memcpy(&x, p, 8); return (double)x; }
	case ET_U64: { uint64_t x; memcpy(&x, p, 8); return (double)x; }
	case ET_F16: { uint16_t x; memcpy(&x, p, 2); return f16_to_f32(x); }
	case ET_BF16: { uint16_t x; memcpy(&x, p, 2); return bf16_to_f32(x); }
	case ET_F32: { float x; memcpy(&x, p, 4); return x; }
	case ET_F64: { double x; memcpy(&x, p, 8); return x; }
	case ET_COUNT: break;
	}
	return 0;
}

int elem_format(enum elem_type t, const void *p, char *buf, size_t len)
{
	switch (t) {
	case ET_I64: { int64_t x; memcpy(&x, p, 8); return snprintf(buf, len, "%" PRId64, x); }
	case ET_U64: { uint64_t x; memcpy(&x, p, 8); return snprintf(buf, len, "%" PRIu64, x); }
	case ET_F64: return snprintf(buf, len, "%.17g", elem_to_double(t, p));
	case ET_F32: return snprintf(buf, len, "%.9g", elem_to_double(t, p));
	case ET_F16:
	case ET_BF16: return snprintf(buf, len, "%.5g", elem_to_double(t, p));
	default: return snprintf(buf, len, "%.0f", elem_to_double(t, p));
	}
}

int format_size(uint64_t bytes, char *buf, size_t len)
{
	static const char *const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
	unsigned u = 0;
	while (u + 1 < sizeof units / sizeof *units && bytes >= 1024 && bytes % 1024 == 0) {
		bytes /= 1024;
		u++;
	}
	return snprintf(buf, len, "%" PRIu64 " %s", bytes, units[u]);
}

int format_duration_scaled(double s, char *buf, size_t len, double *scale, int *prec)
{
	static const struct { double scale; const char *unit; } units[] = {
		{1e-9, "ns"}, {1e-6, "us"}, {1e-3, "ms"}, {1, "s"},
	};
	size_t u = 0;
	/* 999.96 us rounds to 1000: that is 1.00 ms, so compare the rounded value. */
	while (u + 1 < sizeof units / sizeof *units && fabs(s) >= units[u + 1].scale * 0.9995)
		u++;
	double v = s / units[u].scale;
	*scale = units[u].scale;
	*prec = fabs(v) >= 99.95 ? 0 : fabs(v) >= 9.995 ? 1 : 2;
	return snprintf(buf, len, "%.*f %s", *prec, v, units[u].unit);
}

int format_duration(double s, char *buf, size_t len)
{
	double scale;
	int prec;
	return format_duration_scaled(s, buf, len, &scale, &prec);
}

bool is_identifier(const char *s)
{
	if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || *s == '_'))
		return false;
	for (s++; *s; s++)
		if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') || *s == '_' ||
		      (*s >= '0' && *s <= '9')))
			return false;
	return true;
}

bool pow2_text(const char *s, double *v)
{
	if (strncmp(s, "2^", 2) != 0 || s[2] == '\0' || strlen(s + 2) > 4 ||
	    strspn(s + 2, "0123456789") != strlen(s + 2))
		return false;
	*v = ldexp(1, atoi(s + 2));
	return true;
}

bool number_text(const char *s, double *v)
{
	if (pow2_text(s, v))
		return true;
	char *end;
	*v = strtod(s, &end);
	return end != s && *end == '\0' && isfinite(*v);
}
