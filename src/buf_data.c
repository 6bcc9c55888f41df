/*
 * Buffer contents on the host side: init forms, dumps and the host dump
 * action (buf_check.c compares them with checks).  Everything works on the bytes of one buffer in host byte
 * order, element by element, through the element table of scalar.h.
 *
 * The random init form is defined here, once, so that the same seed gives
 * the same bytes on every machine and every build:
 *
 *   - The generator is xoshiro256** (Blackman and Vigna, 2018).  Its state
 *     s[0..3] is four successive outputs of splitmix64 started at the seed.
 *   - Element i, from 0 up, takes the next 64-bit outputs r in order.
 *   - Float types: u = (r >> 11) / (2^53 - 1), a double in [0, 1];
 *     v = min + u * (max - min) in double, without a fused multiply-add,
 *     then rounded to the element type (nearest, ties to even).
 *   - Integer types: n = max - min + 1 (modulo 2^64; 0 means all 2^64
 *     values).  Outputs below (2^64 - n) mod n are skipped so that every
 *     value is equally likely; then v = min + r mod n, uniform in
 *     [min, max] inclusive.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf_data.h"
#include "buf_formula.h"
#include "rng.h"
#include "diag.h"
#include "fileio.h"
#include "xmalloc.h"

/* Where an init error points: the init itself, else its buffer. */
static struct pos init_pos(const struct buffer *b)
{
	return b->init.pos.line ? b->init.pos : b->pos;
}

static const char *init_path(const struct init *in)
{
	return in->path ? in->path : in->file;
}

/* Store v in a float element type; false when it overflows to infinity. */
static bool encode_double(enum elem_type t, double v, void *out)
{
	struct num n = {.kind = NUM_FLOAT, .f = v};
	char why[64];
	return num_encode(&n, t, out, why, sizeof why) == NULL;
}

/* The low size bytes of v, host byte order: the element type's wrap-around. */
static void encode_wrapped(uint64_t v, unsigned size, void *out)
{
	switch (size) {
	case 1: { uint8_t x = (uint8_t)v; memcpy(out, &x, 1); break; }
	case 2: { uint16_t x = (uint16_t)v; memcpy(out, &x, 2); break; }
	case 4: { uint32_t x = (uint32_t)v; memcpy(out, &x, 4); break; }
	default: memcpy(out, &v, 8); break;
	}
}

/* a + b * c in double, rounded twice: a fused multiply-add would differ by machine. */
static double add_product(double a, double b, double c)
{
	volatile double p = b * c;
	return a + p;
}

/* An integer num as 64 bits two's complement; false for a float. */
static bool num_bits(const struct num *n, uint64_t *out)
{
	switch (n->kind) {
	case NUM_UINT:
		*out = n->u;
		return true;
	case NUM_INT:
		*out = (uint64_t)n->i;
		return true;
	case NUM_FLOAT:
		break;
	}
	return false;
}

/* Report that n (named what) cannot be used for b's integer type. */
static void not_integer(const struct buffer *b, const char *what, const struct num *n,
			struct diag *d)
{
	char text[64];
	num_format(n, text, sizeof text);
	diag_error(d, n->pos.line ? n->pos : init_pos(b),
		   "%s %s of buffer '%s' is not an integer, as %s needs", what, text,
		   b->name, elem_names[b->type]);
}

/* Encode n into out as b's type, reporting why it does not fit. */
static bool encode_num(const struct buffer *b, const struct num *n, void *out,
		       struct diag *d)
{
	char why[128];
	const char *err = num_encode(n, b->type, out, why, sizeof why);
	if (err == NULL)
		return true;
	diag_error(d, n->pos.line ? n->pos : init_pos(b), "init of buffer '%s': %s",
		   b->name, err);
	return false;
}

static int fill_iota(const struct buffer *b, unsigned char *out, uint64_t n,
		     struct diag *d)
{
	enum elem_type t = b->type;
	unsigned es = elem_infos[t].size;
	if (elem_infos[t].is_float) {
		double start = num_to_double(&b->init.start);
		double step = num_to_double(&b->init.step);
		for (uint64_t i = 0; i < n; i++) {
			double v = add_product(start, (double)i, step);
			if (!encode_double(t, v, out + i * es)) {
				diag_error(d, init_pos(b),
					   "iota of buffer '%s' reaches %g at index %" PRIu64
					   ", beyond the range of %s",
					   b->name, v, i, elem_names[t]);
				return -1;
			}
		}
		return 0;
	}
	/* Integers: start must fit the type; the sequence wraps like the type. */
	uint64_t start, step;
	if (!num_bits(&b->init.start, &start)) {
		not_integer(b, "iota start", &b->init.start, d);
		return -1;
	}
	if (!num_bits(&b->init.step, &step)) {
		not_integer(b, "iota step", &b->init.step, d);
		return -1;
	}
	if (!encode_num(b, &b->init.start, out, d))
		return -1;
	for (uint64_t i = 0; i < n; i++)
		encode_wrapped(start + i * step, es, out + i * es);
	return 0;
}

static int fill_random(const struct buffer *b, unsigned char *out, uint64_t n,
		       struct diag *d)
{
	enum elem_type t = b->type;
	unsigned es = elem_infos[t].size;
	struct rng r;
	rng_seed(&r, b->init.seed);
	if (elem_infos[t].is_float) {
		double lo = num_to_double(&b->init.min);
		double span = num_to_double(&b->init.max) - lo;
		for (uint64_t i = 0; i < n; i++) {
			double u = (double)(rng_next(&r) >> 11) / 9007199254740991.0;
			double v = add_product(lo, u, span);
			if (!encode_double(t, v, out + i * es)) {
				diag_error(d, init_pos(b),
					   "random values of buffer '%s' reach %g, beyond the range of %s",
					   b->name, v, elem_names[t]);
				return -1;
			}
		}
		return 0;
	}
	uint64_t lo, hi;
	unsigned char scratch[8];
	if (!num_bits(&b->init.min, &lo)) {
		not_integer(b, "random min", &b->init.min, d);
		return -1;
	}
	if (!num_bits(&b->init.max, &hi)) {
		not_integer(b, "random max", &b->init.max, d);
		return -1;
	}
	if (!encode_num(b, &b->init.min, scratch, d) || !encode_num(b, &b->init.max, scratch, d))
		return -1;
	bool greater = elem_infos[t].is_signed ? (int64_t)lo > (int64_t)hi : lo > hi;
	if (greater) {
		char a[64], z[64];
		num_format(&b->init.min, a, sizeof a);
		num_format(&b->init.max, z, sizeof z);
		diag_error(d, init_pos(b), "random min %s of buffer '%s' is greater than its max %s",
			   a, b->name, z);
		return -1;
	}
	uint64_t range = hi - lo + 1;
	uint64_t threshold = range ? -range % range : 0;
	for (uint64_t i = 0; i < n; i++) {
		uint64_t x;
		do
			x = rng_next(&r);
		while (x < threshold);
		encode_wrapped(range ? lo + x % range : x, es, out + i * es);
	}
	return 0;
}

static int fill_file(const struct buffer *b, void *out, struct diag *d)
{
	const char *path = init_path(&b->init);
	struct pos pos = b->init.file_pos.line ? b->init.file_pos : init_pos(b);
	uint64_t actual = 0;
	switch (read_file_exact(path, out, b->size, &actual)) {
	case 0:
		return 0;
	case 1:
		diag_error(d, pos,
			   "init file '%s' of buffer '%s' now has %" PRIu64
			   " bytes, expected %" PRIu64 " (it changed since it was checked)",
			   b->init.file, b->name, actual, b->size);
		return -1;
	default:
		diag_error(d, pos, "cannot read init file '%s' of buffer '%s': %s",
			   b->init.file, b->name, strerror(errno));
		return -1;
	}
}

static int fill_formula(const struct buffer *b, void *out, uint64_t n, struct diag *d)
{
	struct expr_err err;
	struct formula_prog *p = formula_compile(&b->init.formula, b, &err);
	char what[160], why[200];
	snprintf(what, sizeof what, "init of buffer '%s'", b->name);
	if (p == NULL) {
		diag_code(err.code);
		diag_error(d, formula_pos(&b->init.formula, err.off), "%s: %s", what, err.msg);
		return -1;
	}
	uint64_t at;
	bool ok = formula_values(p, 0, n, out, &at, why, sizeof why, &err);
	if (!ok)
		formula_report(&b->init.formula, b, what, at, why, &err, d);
	formula_free(p);
	return ok ? 0 : -1;
}

int buffer_fill_init(const struct buffer *b, void *out, struct diag *d)
{
	unsigned es = elem_infos[b->type].size;
	uint64_t n = b->size / es;
	unsigned char *p = out;
	switch (b->init.kind) {
	case INIT_ZERO:
		memset(out, 0, b->size);
		return 0;
	case INIT_SCALAR:
		if (!encode_num(b, &b->init.scalar, p, d))
			return -1;
		for (uint64_t i = 1; i < n; i++)
			memcpy(p + i * es, p, es);
		return 0;
	case INIT_LIST:
		if (b->init.nlist != n) {
			diag_error(d, init_pos(b),
				   "init of buffer '%s' has %zu values, expected %" PRIu64
				   " (one per element)", b->name, b->init.nlist, n);
			return -1;
		}
		for (uint64_t i = 0; i < n; i++)
			if (!encode_num(b, &b->init.list[i], p + i * es, d))
				return -1;
		return 0;
	case INIT_IOTA:
		return fill_iota(b, p, n, d);
	case INIT_RANDOM:
		return fill_random(b, p, n, d);
	case INIT_FILE:
		return fill_file(b, out, d);
	case INIT_FORMULA:
		return fill_formula(b, out, n, d);
	}
	return -1;
}

/* NumPy's dtype for each element type, without the byte order mark. */
static const char *const npy_dtypes[ET_COUNT] = {
	[ET_I8] = "i1", [ET_U8] = "u1", [ET_I16] = "i2", [ET_U16] = "u2",
	[ET_I32] = "i4", [ET_U32] = "u4", [ET_I64] = "i8", [ET_U64] = "u8",
	[ET_F16] = "f2",
	/* NumPy has no bfloat16: the raw bits as u2 (view them with ml_dtypes). */
	[ET_BF16] = "u2",
	[ET_F32] = "f4", [ET_F64] = "f8",
};

static bool host_little_endian(void)
{
	const uint16_t one = 1;
	unsigned char c;
	memcpy(&c, &one, 1);
	return c == 1;
}

/*
 * The NumPy format 1.0 header: magic, version, a little-endian length and
 * a Python dict literal padded with spaces to a multiple of 64 bytes in
 * all, ending in a newline, as numpy.lib.format writes it.
 */
static bool write_npy_header(FILE *f, const struct buffer *b, uint64_t n)
{
	char dict[224], shape[96];
	unsigned size = elem_infos[b->type].size;
	char order = size == 1 ? '|' : host_little_endian() ? '<' : '>';
	/* a shaped buffer keeps its axes, as Python writes the tuple: (64,), (64, 100) */
	size_t used = 0;
	snprintf(shape, sizeof shape, "%" PRIu64 ",", b->shape.rank ? b->shape.dim[0] : n);
	for (unsigned k = 0; b->shape.rank > 1 && k < b->shape.rank && used < sizeof shape; k++) {
		int w = snprintf(shape + used, sizeof shape - used, "%s%" PRIu64, k ? ", " : "",
				 b->shape.dim[k]);
		used += w > 0 ? (size_t)w : 0;
	}
	int len = snprintf(dict, sizeof dict,
			   "{'descr': '%c%s', 'fortran_order': False, 'shape': (%s), }",
			   order, npy_dtypes[b->type], shape);
	size_t total = 10 + (size_t)len + 1;
	size_t pad = (64 - total % 64) % 64;
	size_t hlen = (size_t)len + pad + 1;
	unsigned char pre[10] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0,
				 (unsigned char)(hlen & 0xff), (unsigned char)(hlen >> 8)};
	if (fwrite(pre, 1, sizeof pre, f) != sizeof pre || fputs(dict, f) == EOF)
		return false;
	for (size_t i = 0; i < pad; i++)
		if (putc(' ', f) == EOF)
			return false;
	return putc('\n', f) != EOF;
}

/* Whether path ends in ext. */
int dump_write(const char *path, const struct buffer *b, const void *data)
{
	unsigned es = elem_infos[b->type].size;
	uint64_t n = b->size / es;
	FILE *f = output_open(path);
	if (f == NULL)
		return -1;
	bool ok = true;
	if (path_has_ext(path, ".txt")) {
		const unsigned char *p = data;
		char text[64];
		for (uint64_t i = 0; ok && i < n; i++) {
			elem_format(b->type, p + i * es, text, sizeof text);
			ok = fprintf(f, "%s\n", text) > 0;
		}
	} else {
		if (path_has_ext(path, ".npy"))
			ok = write_npy_header(f, b, n);
		ok = ok && fwrite(data, 1, b->size, f) == b->size;
	}
	return output_close(f, path, ok ? OUTPUT_OK : OUTPUT_FAILED) == 0 ? 0 : -1;
}

void buffer_print_elems(FILE *out, enum elem_type type, const void *data, uint64_t count,
			size_t max)
{
	unsigned es = elem_infos[type].size;
	const unsigned char *p = data;
	char text[64];
	uint64_t shown = count < max ? count : max;
	fputc('[', out);
	for (uint64_t i = 0; i < shown; i++) {
		elem_format(type, p + i * es, text, sizeof text);
		fprintf(out, "%s%s", i ? ", " : "", text);
	}
	if (shown < count)
		fprintf(out, "%s... (%" PRIu64 " more)", shown ? ", " : "", count - shown);
	fputs("]\n", out);
}

void buffer_print_range(FILE *out, const struct buffer *b, const void *data, uint64_t offset,
			uint64_t count, size_t max)
{
	const unsigned char *p = (const unsigned char *)data + offset * elem_infos[b->type].size;
	fprintf(out, "%s[%" PRIu64 "..%" PRIu64 ") = ", diag_esc(b->name), offset, offset + count);
	buffer_print_elems(out, b->type, p, count, max);
}

void buffer_print(FILE *out, const struct buffer *b, const void *data, size_t max)
{
	buffer_print_range(out, b, data, 0, b->size / elem_infos[b->type].size, max);
}
