/*
 * Checks after the verification launch (buf_check.h): a buffer's host
 * copy compared element by element with what the check expects.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "buf_check.h"
#include "fileio.h"
#include "xmalloc.h"

/* Decode an integer element as 64 bits, sign-extended for signed types. */
static uint64_t int_bits(enum elem_type t, const void *p)
{
	switch (t) {
	case ET_I8: { int8_t x; memcpy(&x, p, 1); return (uint64_t)(int64_t)x; }
	case ET_U8: { uint8_t x; memcpy(&x, p, 1); return x; }
	case ET_I16: { int16_t x; memcpy(&x, p, 2); return (uint64_t)(int64_t)x; }
	case ET_U16: { uint16_t x; memcpy(&x, p, 2); return x; }
	case ET_I32: { int32_t x; memcpy(&x, p, 4); return (uint64_t)(int64_t)x; }
	case ET_U32: { uint32_t x; memcpy(&x, p, 4); return x; }
	default: { uint64_t x; memcpy(&x, p, 8); return x; }
	}
}

/*
 * Whether actual a matches expected e: |a - e| <= atol + rtol * |e|.  NaN
 * matches only NaN, and an infinity only itself; integers compare exactly
 * unless a tolerance is given, and then their difference is taken exactly
 * before it is compared.
 */
static bool elem_matches(enum elem_type t, const void *a, const void *e,
			 double rtol, double atol)
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
	uint64_t x = int_bits(t, a), y = int_bits(t, e);
	bool x_less = ei->is_signed ? (int64_t)x < (int64_t)y : x < y;
	uint64_t diff = x_less ? y - x : x - y;
	double ey = ei->is_signed ? fabs((double)(int64_t)y) : (double)y;
	return (double)diff <= atol + rtol * ey;
}

bool check_buffer(const struct check *c, const struct buffer *b, const void *data,
	       struct diag *d)
{
	enum elem_type t = b->type;
	unsigned es = elem_infos[t].size;
	uint64_t n = b->size / es;
	unsigned char one[8];
	unsigned char *expect = NULL;
	size_t stride = es;
	char why[128];
	const char *err;
	switch (c->expect) {
	case EXPECT_SCALAR:
		err = num_encode(&c->scalar, t, one, why, sizeof why);
		if (err) {
			diag_error(d, c->scalar.pos.line ? c->scalar.pos : c->pos,
				   "check of buffer '%s': %s", b->name, err);
			return false;
		}
		stride = 0;
		break;
	case EXPECT_LIST:
		if (c->nlist != n) {
			diag_error(d, c->expect_pos.line ? c->expect_pos : c->pos,
				   "check of buffer '%s' lists %zu values, expected %" PRIu64
				   " (one per element)", b->name, c->nlist, n);
			return false;
		}
		expect = xmalloc(b->size ? b->size : 1);
		for (size_t i = 0; i < c->nlist; i++) {
			err = num_encode(&c->list[i], t, expect + i * es, why, sizeof why);
			if (err) {
				diag_error(d, c->list[i].pos.line ? c->list[i].pos : c->pos,
					   "check of buffer '%s': %s", b->name, err);
				free(expect);
				return false;
			}
		}
		break;
	case EXPECT_FILE: {
		expect = xmalloc(b->size ? b->size : 1);
		const char *path = c->path ? c->path : c->file;
		struct pos pos = c->expect_pos.line ? c->expect_pos : c->pos;
		uint64_t actual = 0;
		int rc = read_file_exact(path, expect, b->size, &actual);
		if (rc == 1)
			diag_error(d, pos, "expected file '%s' has %" PRIu64 " bytes, buffer '%s' has %" PRIu64,
				   c->file, actual, b->name, b->size);
		else if (rc != 0)
			diag_error(d, pos, "cannot read expected file '%s' for buffer '%s': %s",
				   c->file, b->name, strerror(errno));
		if (rc != 0) {
			free(expect);
			return false;
		}
		break;
	}
	}
	const unsigned char *exp = expect ? expect : one;
	const unsigned char *act = data;
	uint64_t ndiff = 0, first = 0;
	for (uint64_t i = 0; i < n; i++)
		if (!elem_matches(t, act + i * es, exp + i * stride, c->rtol, c->atol))
			if (ndiff++ == 0)
				first = i;
	if (ndiff) {
		char e[64], a[64];
		elem_format(t, exp + first * stride, e, sizeof e);
		elem_format(t, act + first * es, a, sizeof a);
		diag_error(d, c->pos,
			   "check failed: buffer '%s' differs at index %" PRIu64
			   ": expected %s, got %s (%" PRIu64 " of %" PRIu64 " elements differ)",
			   b->name, first, e, a, ndiff, n);
	}
	free(expect);
	return ndiff == 0;
}
