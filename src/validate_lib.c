/*
 * Library nodes' rules (validate_lib.h).
 *
 * Extents are counted in a buffer's elements, saturating at UINT64_MAX, so
 * that absurd dimensions (2^31 x 2^31 x a stride of 2^62) are errors, not
 * overflows.  A matrix of r rows and c columns stored with leading
 * dimension ld spans ld * (c - 1) + r elements (column-major, as cuBLAS
 * stores it); a vector of n elements with increment inc spans
 * 1 + (n - 1) * inc; batch b of a strided batch starts b * stride after
 * the first.
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "validate_lib.h"
#include "xmalloc.h"

static struct pos or_pos(struct pos p, struct pos fallback)
{
	return p.line ? p : fallback;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
	return a && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

/* r x c with leading dimension ld: the elements it spans (0 when empty). */
static uint64_t matrix_span(uint64_t r, uint64_t c, uint64_t ld)
{
	return r == 0 || c == 0 ? 0 : sat_add(sat_mul(ld, c - 1), r);
}

static uint64_t vector_span(uint64_t n, uint64_t inc)
{
	return n == 0 ? 0 : sat_add(sat_mul(n - 1, inc), 1);
}

/* One operand resolved: its buffer, or NULL (reported, or unknown). */
struct opnd_at {
	const struct buffer *b;
	long bi;
	uint64_t lo, hi;                /* the elements it spans: [lo, hi) */
	bool writes;
};

static const struct buffer *resolve_opnd(const struct lib_check *lc, struct lib_operand *o,
					 struct pos fallback, size_t self, long *bi)
{
	*bi = lc->resolve(lc->ctx, &o->buffer, fallback);
	if (*bi < 0)
		return NULL;
	lc->use(lc->ctx, *bi, self);
	return &lc->g->buffers[*bi];
}

/*
 * Operand o spans `need` elements from its offset: an error at it when
 * its buffer has fewer; how says what made the span ("4096 x 4096, lda
 * 4096").  False after an error.
 */
static bool fits(const struct lib_check *lc, const struct node *n, const char *what,
		 const struct lib_operand *o, const struct buffer *b, long bi, uint64_t need,
		 const char *how)
{
	if (b == NULL || !lc->sized[bi] || need == 0)
		return true;
	uint64_t end = sat_add(o->offset, need);
	if (end <= b->count)
		return true;
	char needs[32];
	if (need == UINT64_MAX)
		snprintf(needs, sizeof needs, "more than 2^64");
	else
		snprintf(needs, sizeof needs, "%" PRIu64, need);
	diag_error(lc->d, or_pos(o->buffer.pos, n->kind_pos), "%s of %s node '%s' runs past the "
		   "end of buffer '%s': %s needs %s elements from offset %" PRIu64 ", and the "
		   "buffer has %" PRIu64, what, node_kind_names[n->kind], n->id, b->name, how,
		   needs, o->offset, b->count);
	return false;
}

/* --- cuBLAS --- */

/* The parameters written that a routine does not take: an error at each. */
static void not_taken(const struct lib_check *lc, const struct node *n, struct blas_call *c)
{
	const struct blas_spec *sp = &blas_specs[c->op];
	const char *r = c->routine;
	for (int i = 0; i < BI_COUNT; i++)
		if ((c->ints_set & (1u << i)) && !(sp->ints & (1u << i)))
			diag_error(lc->d, c->int_pos[i], "'%s' is not a parameter of %s",
				   blas_int_names[i], r);
	for (int o = 0; o < OPND_COUNT; o++)
		if (c->opnd[o].buffer.name && !(sp->opnds & (1u << o)))
			diag_error(lc->d, c->opnd[o].buffer.pos, "'%s' is not a parameter of %s",
				   blas_opnd_names[o], r);
	for (int s = 0; s < SC_COUNT; s++)
		if (c->scalar[s].given && !(sp->scalars & (1u << s)))
			diag_error(lc->d, c->scalar[s].pos, "'%s' is not a parameter of %s",
				   blas_scal_names[s], r);
	static const char *const tnames[] = {"transa", "transb", "trans"};
	for (int t = 0; t < 3; t++) {
		bool ok = sp->ntrans == 2 ? t < 2 : sp->ntrans == 1 ? t == 2 : false;
		if ((c->trans_set & (1u << t)) && !ok)
			diag_error(lc->d, c->trans_pos[t == 2 ? 0 : t], "'%s' is not a parameter of "
				   "%s%s", tnames[t], r, sp->ntrans == 2 ? " (it takes transa and "
				   "transb)" : sp->ntrans == 1 ? " (it takes trans)" : "");
	}
	if (c->has_compute && !sp->compute)
		diag_error(lc->d, c->compute_pos, "'computeType' is not a parameter of %s", r);
}

/* The parameters a routine needs and the file left out: an error at the routine. */
static bool needed(const struct lib_check *lc, struct blas_call *c)
{
	const struct blas_spec *sp = &blas_specs[c->op];
	bool ok = true;
	for (int i = 0; i < BI_COUNT; i++)
		if ((sp->ints_required & (1u << i)) && !(c->ints_set & (1u << i))) {
			diag_error(lc->d, c->op_pos, "%s needs '%s'", c->routine, blas_int_names[i]);
			ok = false;
		}
	for (int o = 0; o < OPND_COUNT; o++)
		if ((sp->opnds & (1u << o)) && c->opnd[o].buffer.name == NULL) {
			diag_error(lc->d, c->op_pos, "%s needs '%s'", c->routine, blas_opnd_names[o]);
			ok = false;
		}
	return ok;
}

/* The element type a letter names: S f32, D f64, H f16. */
static enum elem_type letter_type(char letter)
{
	return letter == 'D' ? ET_F64 : letter == 'H' ? ET_F16 : ET_F32;
}

/*
 * cublasGemmEx's table of types (cuBLAS documentation, cublasGemmEx):
 * A and B of one type, C of a type that goes with it, the compute types
 * each pair takes and the one used when none is written.
 */
static const struct gemm_types {
	enum elem_type ab, c;
	unsigned computes;              /* bits 1u << enum blas_compute */
	enum blas_compute dflt;
} gemm_types[] = {
#define CB(x) (1u << COMPUTE_##x)
	{ET_F64, ET_F64, CB(64F) | CB(64F_PEDANTIC), COMPUTE_64F},
	{ET_F32, ET_F32, CB(32F) | CB(32F_PEDANTIC) | CB(32F_FAST_16F) | CB(32F_FAST_16BF) |
		CB(32F_FAST_TF32), COMPUTE_32F},
	{ET_F16, ET_F16, CB(16F) | CB(16F_PEDANTIC) | CB(32F) | CB(32F_PEDANTIC), COMPUTE_32F},
	{ET_F16, ET_F32, CB(32F) | CB(32F_PEDANTIC), COMPUTE_32F},
	{ET_BF16, ET_BF16, CB(32F) | CB(32F_PEDANTIC), COMPUTE_32F},
	{ET_BF16, ET_F32, CB(32F) | CB(32F_PEDANTIC), COMPUTE_32F},
#undef CB
};

/* The scalars' type of a compute type: half for 16F, double for 64F, else float. */
static enum elem_type compute_scale(enum blas_compute k)
{
	return k == COMPUTE_16F || k == COMPUTE_16F_PEDANTIC ? ET_F16 :
		k == COMPUTE_64F || k == COMPUTE_64F_PEDANTIC ? ET_F64 : ET_F32;
}

static void list_types(char *buf, size_t len)
{
	size_t at = 0;
	buf[0] = '\0';
	for (size_t i = 0; i < sizeof gemm_types / sizeof *gemm_types; i++)
		at += (size_t)snprintf(buf + at, len > at ? len - at : 0, "%s%s/%s", i ? ", " : "",
				       elem_names[gemm_types[i].ab], elem_names[gemm_types[i].c]);
}

static void list_computes(unsigned set, char *buf, size_t len)
{
	size_t at = 0;
	buf[0] = '\0';
	for (int k = 0; k < COMPUTE_COUNT; k++)
		if (set & (1u << k))
			at += (size_t)snprintf(buf + at, len > at ? len - at : 0, "%s%s",
					       at ? ", " : "", blas_compute_names[k]);
}

/* GEMM's types and compute type; false after an error. */
static bool gemm_typecheck(const struct lib_check *lc, const struct node *n, struct blas_call *c)
{
	enum elem_type a = c->type[OPND_A], b = c->type[OPND_B], ct = c->type[OPND_C];
	if (a != b) {
		diag_error(lc->d, c->opnd[OPND_B].buffer.pos, "A and B of %s node '%s' are of two "
			   "types (%s and %s): cuBLAS takes them of one", node_kind_names[n->kind],
			   n->id, elem_names[a], elem_names[b]);
		return false;
	}
	const struct gemm_types *t = NULL;
	for (size_t i = 0; i < sizeof gemm_types / sizeof *gemm_types && !t; i++)
		if (gemm_types[i].ab == a && gemm_types[i].c == ct)
			t = &gemm_types[i];
	if (t == NULL) {
		char list[160];
		list_types(list, sizeof list);
		diag_error(lc->d, c->opnd[OPND_C].buffer.pos, "%s of %s A and B into %s C is not "
			   "one of cuBLAS's: A and B / C may be %s", c->routine, elem_names[a],
			   elem_names[ct], list);
		return false;
	}
	if (c->letter && (a != letter_type(c->letter) || ct != a)) {
		diag_error(lc->d, c->op_pos, "%s takes %s A, B and C, and node '%s' gives %s and %s",
			   c->routine, elem_names[letter_type(c->letter)], n->id, elem_names[a],
			   elem_names[ct]);
		return false;
	}
	enum blas_compute k = c->letter == 'H' ? COMPUTE_16F : t->dflt;
	if (c->has_compute) {
		k = (enum blas_compute)c->compute;
		if (!(t->computes & (1u << k))) {
			char list[160];
			list_computes(t->computes, list, sizeof list);
			diag_error(lc->d, c->compute_pos, "compute type %s does not take %s A and B "
				   "into %s C: it may be %s", blas_compute_names[k], elem_names[a],
				   elem_names[ct], list);
			return false;
		}
	}
	c->compute_used = (uint8_t)k;
	c->scale_type = (uint8_t)compute_scale(k);
	return true;
}

/*
 * Level 1 and GEMV: operands of one type, which the routine takes; the
 * scalars' and the execution's type (cublasAxpyEx and the others: float
 * for half, bfloat16 and float data, double for double).
 */
static bool vector_typecheck(const struct lib_check *lc, const struct node *n,
			     struct blas_call *c)
{
	const struct blas_spec *sp = &blas_specs[c->op];
	enum blas_opnd first = sp->opnds & (1u << OPND_A) ? OPND_A : OPND_X;
	enum elem_type t = c->type[first];
	for (int o = 0; o < OPND_COUNT; o++)
		if ((sp->opnds & (1u << o)) && c->type[o] != t) {
			diag_error(lc->d, c->opnd[o].buffer.pos, "%s of %s node '%s' is %s and %s is "
				   "%s: %s takes them of one type", blas_opnd_names[o],
				   node_kind_names[n->kind], n->id, elem_names[c->type[o]],
				   blas_opnd_names[first], elem_names[t], c->routine);
			return false;
		}
	bool gemv = c->op == BLAS_GEMV;
	bool ok = t == ET_F32 || t == ET_F64 || (!gemv && (t == ET_F16 || t == ET_BF16));
	if (c->letter)
		ok = t == letter_type(c->letter);
	if (!ok) {
		diag_error(lc->d, c->opnd[first].buffer.pos, "%s does not take %s data (it takes %s)",
			   c->routine, elem_names[t], c->letter ? elem_names[letter_type(c->letter)] :
			   gemv ? "f32 and f64" : "f16, bf16, f32 and f64");
		return false;
	}
	c->exec_type = (uint8_t)(t == ET_F64 ? ET_F64 : ET_F32);
	c->scale_type = gemv ? (uint8_t)t : c->exec_type;
	return true;
}

/*
 * alpha and beta: numbers of the scalars' type (the host pointer mode),
 * or elements of buffers of that type (the device pointer mode), all of
 * one mode; dot and nrm2 write their result to a buffer, so they are in
 * the device mode.  Defaults: alpha 1, beta 0.
 */
static bool scalars_check(const struct lib_check *lc, const struct node *n,
			  struct blas_call *c, size_t self)
{
	const struct blas_spec *sp = &blas_specs[c->op];
	int host = -1, dev = -1;
	bool ok = true;
	for (int s = 0; s < SC_COUNT; s++)
		if ((sp->scalars & (1u << s)) && c->scalar[s].given)
			*(c->scalar[s].device ? &dev : &host) = s;
	if (host >= 0 && dev >= 0) {
		diag_error(lc->d, c->scalar[host].pos, "%s of %s node '%s' is a number and %s a "
			   "buffer: the pointer mode is the call's, so give both as numbers (host) or "
			   "both as buffers (device)", blas_scal_names[host], node_kind_names[n->kind],
			   n->id, blas_scal_names[dev]);
		return false;
	}
	c->device_mode = dev >= 0 || (sp->opnds & (1u << OPND_RESULT));
	for (int s = 0; s < SC_COUNT; s++) {
		struct lib_scalar *sc = &c->scalar[s];
		if (!(sp->scalars & (1u << s)))
			continue;
		if (!sc->given) {
			if (c->device_mode) {
				diag_error(lc->d, c->op_pos, "%s of node '%s' takes its scalars from "
					   "buffers, and needs '%s' too", c->routine, n->id,
					   blas_scal_names[s]);
				ok = false;
			}
			continue;
		}
		if (!sc->device) {
			unsigned char bytes[8];
			char why[128];
			const char *e = num_encode(&sc->value, (enum elem_type)c->scale_type, bytes,
						   why, sizeof why);
			if (e) {
				diag_error(lc->d, or_pos(sc->value.pos, sc->pos), "%s of %s node '%s': "
					   "%s", blas_scal_names[s], node_kind_names[n->kind], n->id, e);
				ok = false;
			}
			continue;
		}
		long bi;
		const struct buffer *b = resolve_opnd(lc, &sc->opnd, sc->pos, self, &bi);
		if (b == NULL) {
			ok = false;
			continue;
		}
		if (b->type != c->scale_type) {
			diag_error(lc->d, sc->opnd.buffer.pos, "%s of %s node '%s' is read from buffer "
				   "'%s' of %s, and the call's scalars are %s", blas_scal_names[s],
				   node_kind_names[n->kind], n->id, b->name, elem_names[b->type],
				   elem_names[c->scale_type]);
			ok = false;
			continue;
		}
		ok &= fits(lc, n, blas_scal_names[s], &sc->opnd, b, bi, 1, "one scalar");
	}
	return ok;
}

/* The leading dimension ld of a matrix of r rows: at least max(1, r). */
static bool ld_check(const struct lib_check *lc, struct blas_call *c, enum blas_int ld,
		     const char *m, int64_t rows)
{
	int64_t least = rows > 1 ? rows : 1;
	if (c->use[ld] >= least)
		return true;
	diag_error(lc->d, or_pos(c->int_pos[ld], c->op_pos), "%s %" PRId64 " is less than the "
		   "rows of %s (%" PRId64 "): it must be at least max(1, %" PRId64 ")",
		   blas_int_names[ld], c->use[ld], m, rows, rows);
	return false;
}

/*
 * A matrix operand: rows r, columns cl, leading dimension ld, and for a
 * strided batch its stride (default: one matrix after the other).
 */
static bool matrix_check(const struct lib_check *lc, const struct node *n, struct blas_call *c,
			 enum blas_opnd o, int64_t r, int64_t cl, enum blas_int ld,
			 enum blas_int stride, struct opnd_at *at)
{
	if (!ld_check(lc, c, ld, blas_opnd_names[o], r))
		return false;
	uint64_t one = matrix_span((uint64_t)r, (uint64_t)cl, (uint64_t)c->use[ld]);
	uint64_t need = one;
	char how[160];
	int w = snprintf(how, sizeof how, "%" PRId64 " x %" PRId64 " with %s %" PRId64, r, cl,
			 blas_int_names[ld], c->use[ld]);
	if (c->op == BLAS_GEMM_BATCHED) {
		if (!(c->ints_set & (1u << stride)))
			c->use[stride] = (int64_t)(one ? sat_mul((uint64_t)c->use[ld],
								 (uint64_t)cl) : 0);
		uint64_t batch = (uint64_t)c->use[BI_BATCH];
		if (one)
			need = sat_add(sat_mul((uint64_t)c->use[stride], batch - 1), one);
		snprintf(how + w, sizeof how - (size_t)w, ", %" PRIu64 " batches %" PRId64 " apart",
			 batch, c->use[stride]);
		/* a written matrix whose batches overlap: the results would race */
		if (o == OPND_C && batch > 1 && one && (uint64_t)c->use[stride] < one) {
			diag_error(lc->d, or_pos(c->int_pos[stride], c->op_pos), "%s %" PRId64 " is "
				   "less than one C matrix (%" PRIu64 " elements): the batches' "
				   "results would overlap", blas_int_names[stride], c->use[stride], one);
			return false;
		}
	}
	at->lo = c->opnd[o].offset;
	at->hi = sat_add(at->lo, need);
	return fits(lc, n, blas_opnd_names[o], &c->opnd[o], at->b, at->bi, need, how);
}

static bool vector_check(const struct lib_check *lc, const struct node *n, struct blas_call *c,
			 enum blas_opnd o, int64_t len, enum blas_int inc, struct opnd_at *at)
{
	int64_t step = inc == BI_COUNT ? 1 : c->use[inc];
	uint64_t need = vector_span((uint64_t)len, (uint64_t)step);
	char how[96];
	if (inc == BI_COUNT)
		snprintf(how, sizeof how, "one element");
	else
		snprintf(how, sizeof how, "%" PRId64 " elements with %s %" PRId64, len,
			 blas_int_names[inc], step);
	at->lo = c->opnd[o].offset;
	at->hi = sat_add(at->lo, need);
	return fits(lc, n, blas_opnd_names[o], &c->opnd[o], at->b, at->bi, need, how);
}

/* Defaults for what the routine takes and the file left out. */
static void blas_defaults(struct blas_call *c)
{
	const struct blas_spec *sp = &blas_specs[c->op];
	memcpy(c->use, c->ints, sizeof c->use);
	int64_t m = c->ints[BI_M], nn = c->ints[BI_N], k = c->ints[BI_K];
	bool ta = c->trans[0] != TRANS_N, tb = c->trans[1] != TRANS_N;
	int64_t dflt[BI_COUNT] = {
		[BI_INCX] = 1, [BI_INCY] = 1, [BI_BATCH] = 1,
		[BI_LDA] = c->op == BLAS_GEMV ? m : ta ? k : m,
		[BI_LDB] = tb ? nn : k,
		[BI_LDC] = m,
	};
	for (int i = 0; i < BI_COUNT; i++)
		if (!(c->ints_set & (1u << i)) && (sp->ints & (1u << i)))
			c->use[i] = dflt[i] > 1 ? dflt[i] : 1;
}

/* Two operands in one buffer whose spans meet, one of them written. */
static void overlaps(const struct lib_check *lc, const struct node *n, struct blas_call *c,
		     struct opnd_at *at)
{
	for (int i = 0; i < OPND_COUNT; i++)
		for (int j = 0; j < OPND_COUNT; j++) {
			if (i >= j || !at[i].b || !at[j].b || at[i].bi != at[j].bi ||
			    !(at[i].writes || at[j].writes) || at[i].lo >= at[j].hi ||
			    at[j].lo >= at[i].hi)
				continue;
			diag_error(lc->d, c->opnd[j].buffer.pos, "%s and %s of %s node '%s' overlap in "
				   "buffer '%s' (elements %" PRIu64 " to %" PRIu64 " and %" PRIu64
				   " to %" PRIu64 "): cuBLAS takes operands that do not", 
				   blas_opnd_names[i], blas_opnd_names[j], node_kind_names[n->kind],
				   n->id, at[i].b->name, at[i].lo, at[i].hi - 1, at[j].lo, at[j].hi - 1);
			return;
		}
}

static bool blas_extents(const struct lib_check *lc, const struct node *n, struct blas_call *c,
			 struct opnd_at *at)
{
	int64_t m = c->use[BI_M], nn = c->use[BI_N], k = c->use[BI_K];
	bool ta = c->trans[0] != TRANS_N, tb = c->trans[1] != TRANS_N;
	bool ok = true;
	switch ((enum blas_op)c->op) {
	case BLAS_GEMM:
	case BLAS_GEMM_BATCHED:
		ok &= matrix_check(lc, n, c, OPND_A, ta ? k : m, ta ? m : k, BI_LDA, BI_STRIDEA,
				   &at[OPND_A]);
		ok &= matrix_check(lc, n, c, OPND_B, tb ? nn : k, tb ? k : nn, BI_LDB, BI_STRIDEB,
				   &at[OPND_B]);
		ok &= matrix_check(lc, n, c, OPND_C, m, nn, BI_LDC, BI_STRIDEC, &at[OPND_C]);
		break;
	case BLAS_GEMV:
		ok &= matrix_check(lc, n, c, OPND_A, m, nn, BI_LDA, BI_COUNT, &at[OPND_A]);
		ok &= vector_check(lc, n, c, OPND_X, ta ? m : nn, BI_INCX, &at[OPND_X]);
		ok &= vector_check(lc, n, c, OPND_Y, ta ? nn : m, BI_INCY, &at[OPND_Y]);
		break;
	case BLAS_AXPY:
	case BLAS_COPY:
	case BLAS_DOT:
		ok &= vector_check(lc, n, c, OPND_X, nn, BI_INCX, &at[OPND_X]);
		ok &= vector_check(lc, n, c, OPND_Y, nn, BI_INCY, &at[OPND_Y]);
		if (c->op == BLAS_DOT)
			ok &= vector_check(lc, n, c, OPND_RESULT, 1, BI_COUNT, &at[OPND_RESULT]);
		break;
	case BLAS_NRM2:
	case BLAS_SCAL:
		ok &= vector_check(lc, n, c, OPND_X, nn, BI_INCX, &at[OPND_X]);
		if (c->op == BLAS_NRM2)
			ok &= vector_check(lc, n, c, OPND_RESULT, 1, BI_COUNT, &at[OPND_RESULT]);
		break;
	case BLAS_OP_COUNT:
		return false;
	}
	return ok;
}

static void validate_blas(const struct lib_check *lc, struct node *n, size_t self)
{
	struct blas_call *c = n->u.blas;
	c->valid = false;
	if (c->op >= BLAS_OP_COUNT)
		return;
	const struct blas_spec *sp = &blas_specs[c->op];
	unsigned errors = lc->d->nerrors;
	not_taken(lc, n, c);
	bool ok = needed(lc, c);
	struct opnd_at at[OPND_COUNT];
	memset(at, 0, sizeof at);
	for (int o = 0; o < OPND_COUNT; o++) {
		if (!(sp->opnds & (1u << o)) || c->opnd[o].buffer.name == NULL)
			continue;
		at[o].b = resolve_opnd(lc, &c->opnd[o], c->op_pos, self, &at[o].bi);
		at[o].writes = blas_writes(c, (enum blas_opnd)o);
		if (at[o].b == NULL || at[o].b->bad)
			ok = false;
		else
			c->type[o] = (uint8_t)at[o].b->type;
	}
	if (!ok || lc->d->nerrors != errors)
		return;
	ok = c->op == BLAS_GEMM || c->op == BLAS_GEMM_BATCHED ? gemm_typecheck(lc, n, c) :
		vector_typecheck(lc, n, c);
	if (!ok || !scalars_check(lc, n, c, self))
		return;
	blas_defaults(c);
	if (!blas_extents(lc, n, c, at))
		return;
	overlaps(lc, n, c, at);
	c->valid = lc->d->nerrors == errors;
}

/* --- cuFFT --- */

/* The elements one side of a transform spans, in its own values (real or complex). */
static uint64_t side_span(unsigned rank, const int64_t *dims, const int64_t *embed,
			  int64_t stride, int64_t dist, int64_t batch)
{
	uint64_t last = 0;
	for (unsigned i = 0; i < rank; i++)
		last = sat_add(sat_mul(last, (uint64_t)embed[i]), (uint64_t)(dims[i] - 1));
	uint64_t one = sat_add(sat_mul(last, (uint64_t)stride), 1);
	return sat_add(sat_mul((uint64_t)dist, (uint64_t)(batch - 1)), one);
}

static uint64_t product(unsigned rank, const int64_t *d)
{
	uint64_t p = 1;
	for (unsigned i = 0; i < rank; i++)
		p = sat_mul(p, (uint64_t)d[i]);
	return p;
}

/* The direction a real transform implies, and the one a complex transform needs. */
static bool fft_direction(const struct lib_check *lc, const struct node *n, struct fft_call *f)
{
	enum fft_type t = (enum fft_type)f->type;
	if (fft_real_in(t) || fft_real_out(t)) {
		enum fft_dir want = fft_real_in(t) ? FFT_FORWARD : FFT_INVERSE;
		if (f->has_direction && f->direction != want) {
			diag_error(lc->d, f->direction_pos, "%s transforms go %s (CUFFT_%s): "
				   "direction %s does not go with them", fft_type_names[t],
				   fft_dir_names[want], fft_dir_names[want],
				   fft_dir_names[f->direction]);
			return false;
		}
		f->direction = (uint8_t)want;
		return true;
	}
	if (!f->has_direction) {
		diag_error(lc->d, f->type_pos, "cufft node '%s' is %s and needs 'direction' "
			   "(CUFFT_FORWARD or CUFFT_INVERSE)", n->id, fft_type_names[t]);
		return false;
	}
	return true;
}

/* inembed, onembed and the strides and distances go together. */
static bool fft_layout_keys(const struct lib_check *lc, struct fft_call *f)
{
	bool embeds = f->inembed_rank || f->onembed_rank, ok = true;
	if (embeds && (!f->inembed_rank || !f->onembed_rank)) {
		diag_error(lc->d, f->inembed_rank ? f->inembed_pos : f->onembed_pos, "'inembed' and "
			   "'onembed' go together: cufftMakePlanMany takes both or neither");
		ok = false;
	}
	for (unsigned k = 0; k < 2; k++) {
		unsigned r = k ? f->onembed_rank : f->inembed_rank;
		if (r && r != f->rank) {
			diag_error(lc->d, k ? f->onembed_pos : f->inembed_pos, "'%s' has %u "
				   "dimension%s and 'n' %u: they have one each", k ? "onembed" :
				   "inembed", r, r == 1 ? "" : "s", f->rank);
			ok = false;
		}
	}
	for (int i = 0; i < FI_BATCH && !embeds; i++)
		if (f->ints_set & (1u << i)) {
			diag_error(lc->d, f->int_pos[i], "'%s' needs 'inembed' and 'onembed': without "
				   "them cuFFT takes its basic layout and ignores it", fft_int_names[i]);
			ok = false;
		}
	return ok;
}

/*
 * The layout used and the elements each side spans.  Without embeds, the
 * basic layout: values one after another, a batch after the other, and
 * for a real transform in place, rows of the real side padded to
 * 2 * (n/2 + 1) values, as cuFFT lays them out.
 */
static bool fft_spans(const struct lib_check *lc, struct fft_call *f, bool in_place)
{
	enum fft_type t = (enum fft_type)f->type;
	unsigned r = f->rank;
	int64_t half[3], pad[3];
	memcpy(half, f->n, sizeof half);
	memcpy(pad, f->n, sizeof pad);
	half[r - 1] = f->n[r - 1] / 2 + 1;
	pad[r - 1] = 2 * half[r - 1];
	bool real_in = fft_real_in(t), real_out = fft_real_out(t);
	const int64_t *in_dims = real_out ? half : f->n, *out_dims = real_in ? half : f->n;
	f->batch = f->ints_set & (1u << FI_BATCH) ? f->ints[FI_BATCH] : 1;
	const int64_t *in_embed, *out_embed;
	if (f->inembed_rank) {
		for (unsigned k = 0; k < 2; k++) {
			const int64_t *e = k ? f->onembed : f->inembed, *d = k ? out_dims : in_dims;
			for (unsigned i = 1; i < r; i++)
				if (e[i] < d[i]) {
					diag_error(lc->d, k ? f->onembed_pos : f->inembed_pos, "%s[%u] is "
						   "%" PRId64 ", less than the %s side's dimension %" PRId64,
						   k ? "onembed" : "inembed", i, e[i], k ? "output" : "input",
						   d[i]);
					return false;
				}
		}
		in_embed = f->inembed;
		out_embed = f->onembed;
		f->istride = f->ints_set & (1u << FI_ISTRIDE) ? f->ints[FI_ISTRIDE] : 1;
		f->ostride = f->ints_set & (1u << FI_OSTRIDE) ? f->ints[FI_OSTRIDE] : 1;
		f->idist = f->ints_set & (1u << FI_IDIST) ? f->ints[FI_IDIST] :
			(int64_t)sat_mul(product(r, in_embed), (uint64_t)f->istride);
		f->odist = f->ints_set & (1u << FI_ODIST) ? f->ints[FI_ODIST] :
			(int64_t)sat_mul(product(r, out_embed), (uint64_t)f->ostride);
	} else {
		in_embed = in_place && real_in ? pad : in_dims;
		out_embed = in_place && real_out ? pad : out_dims;
		f->istride = f->ostride = 1;
		f->idist = (int64_t)product(r, in_embed);
		f->odist = (int64_t)product(r, out_embed);
	}
	uint64_t in = side_span(r, in_dims, in_embed, f->istride, f->idist, f->batch);
	uint64_t out = side_span(r, out_dims, out_embed, f->ostride, f->odist, f->batch);
	f->in_elems = real_in ? in : sat_mul(in, 2);
	f->out_elems = real_out ? out : sat_mul(out, 2);
	return true;
}

/* An operand's span, with the layout in words for the error. */
static bool fft_fits(const struct lib_check *lc, const struct node *n, const struct fft_call *f,
		     bool out, const struct buffer *b, long bi)
{
	const struct lib_operand *o = out ? &f->odata : &f->idata;
	enum fft_type t = (enum fft_type)f->type;
	bool real = out ? fft_real_out(t) : fft_real_in(t);
	char how[160];
	snprintf(how, sizeof how, "%s %s values, %" PRId64 " batch%s, stride %" PRId64 ", "
		 "distance %" PRId64, out ? "its output of" : "its input of",
		 real ? "real" : "complex", f->batch, f->batch == 1 ? "" : "es",
		 out ? f->ostride : f->istride, out ? f->odist : f->idist);
	if (!real && o->offset % 2) {
		diag_error(lc->d, or_pos(o->offset_pos, o->buffer.pos), "%s of cufft node '%s' "
			   "starts at element %" PRIu64 " of buffer '%s': complex values are pairs of "
			   "elements, so it starts at an even one", out ? "odata" : "idata", n->id,
			   o->offset, b->name);
		return false;
	}
	return fits(lc, n, out ? "odata" : "idata", o, b, bi, out ? f->out_elems : f->in_elems,
		    how);
}

static void validate_fft(const struct lib_check *lc, struct node *n, size_t self)
{
	struct fft_call *f = n->u.fft;
	f->valid = false;
	if (!f->has_type || f->rank == 0 || f->idata.buffer.name == NULL)
		return;
	unsigned errors = lc->d->nerrors;
	bool odata_written = f->odata.buffer.name != NULL;
	if (!odata_written)
		f->odata = f->idata;        /* in place, as cuFFT does when both are one */
	long ib, ob;
	const struct buffer *bin = resolve_opnd(lc, &f->idata, f->type_pos, self, &ib);
	const struct buffer *bout = resolve_opnd(lc, &f->odata, f->type_pos, self, &ob);
	/* both checked, each saying what it finds */
	bool dir_ok = fft_direction(lc, n, f);
	bool layout_ok = fft_layout_keys(lc, f);
	bool ok = dir_ok && layout_ok;
	if (!ok || !bin || !bout || bin->bad || bout->bad)
		return;
	enum fft_type t = (enum fft_type)f->type;
	enum elem_type want = fft_is_double(t) ? ET_F64 : ET_F32;
	for (int k = 0; k < (odata_written ? 2 : 1); k++) {
		const struct buffer *b = k ? bout : bin;
		if (b->type != want) {
			diag_error(lc->d, (k ? f->odata : f->idata).buffer.pos, "%s of cufft node '%s' "
				   "is buffer '%s' of %s, and a %s transform takes %s (complex values "
				   "as pairs of them)", k ? "odata" : "idata", n->id, b->name,
				   elem_names[b->type], fft_type_names[t], elem_names[want]);
			ok = false;
		}
	}
	if (!ok)
		return;
	f->real_type = (uint8_t)want;
	bool in_place = ib == ob && f->idata.offset == f->odata.offset;
	if (!fft_spans(lc, f, in_place) || !fft_fits(lc, n, f, false, bin, ib) ||
	    !fft_fits(lc, n, f, true, bout, ob))
		return;
	uint64_t ilo = f->idata.offset, ihi = sat_add(ilo, f->in_elems);
	uint64_t olo = f->odata.offset, ohi = sat_add(olo, f->out_elems);
	if (ib == ob && !in_place && ilo < ohi && olo < ihi) {
		diag_error(lc->d, f->odata.buffer.pos, "idata and odata of cufft node '%s' overlap "
			   "in buffer '%s' without starting at one element: cuFFT transforms in "
			   "place (one start) or between separate data", n->id, bout->name);
		return;
	}
	f->valid = lc->d->nerrors == errors;
}

void validate_lib_node(const struct lib_check *lc, struct node *n, size_t self)
{
	if (n->kind == NK_CUBLAS && n->u.blas)
		validate_blas(lc, n, self);
	else if (n->kind == NK_CUFFT && n->u.fft)
		validate_fft(lc, n, self);
}

struct dev_walk {
	const struct gdef *g;
	struct diag *d;
	const struct node *n;
	const int *alloc_dev;           /* per buffer: its alloc node's device, or -1 */
};

static void device_one(void *ctx, struct name_ref *ref, struct pos pos, bool writes)
{
	struct dev_walk *w = ctx;
	if (ref->idx < 0 || (size_t)ref->idx >= w->g->nbuffers)
		return;
	const struct buffer *b = &w->g->buffers[ref->idx];
	unsigned dev = node_device(w->g, w->n);
	int on = b->memory == MEM_DEVICE ? b->device :
		b->memory == MEM_GRAPH ? w->alloc_dev[ref->idx] : -1;
	if (on >= 0 && (unsigned)on != dev)
		diag_error(w->d, ref->pos, "%s node '%s' runs on device %u and buffer '%s' is on "
			   "device %d: a library call takes device memory of its own device",
			   node_kind_names[w->n->kind], w->n->id, dev, b->name, on);
}

void validate_lib_devices(const struct gdef *g, struct diag *d)
{
	if (g->device_of == NULL)
		return;
	int *alloc_dev = xmalloc((g->nbuffers ? g->nbuffers : 1) * sizeof *alloc_dev);
	for (size_t i = 0; i < g->nbuffers; i++)
		alloc_dev[i] = -1;
	for (size_t i = 0; i < g->nall_nodes; i++) {
		const struct node *n = g->all_nodes[i];
		if (n->kind == NK_ALLOC && n->u.buffer.idx >= 0 &&
		    (size_t)n->u.buffer.idx < g->nbuffers)
			alloc_dev[n->u.buffer.idx] = (int)node_device(g, n);
	}
	for (size_t i = 0; i < g->nall_nodes; i++) {
		const struct node *n = g->all_nodes[i];
		struct dev_walk w = {g, d, n, alloc_dev};
		if (node_kind_is_library(n->kind) && !n->bad)
			lib_node_uses(n, device_one, &w);
	}
	free(alloc_dev);
}
