/*
 * Library calls: names, each routine's parameters, the buffers a call
 * names, labels and changes (model_lib.h).
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_lib.h"
#include "xmalloc.h"

const char *const blas_op_names[BLAS_OP_COUNT] = {
	[BLAS_GEMM] = "gemm", [BLAS_GEMM_BATCHED] = "gemmStridedBatched", [BLAS_GEMV] = "gemv",
	[BLAS_AXPY] = "axpy", [BLAS_COPY] = "copy", [BLAS_DOT] = "dot", [BLAS_NRM2] = "nrm2",
	[BLAS_SCAL] = "scal",
};

const char *const blas_opnd_names[OPND_COUNT] = {
	[OPND_A] = "A", [OPND_B] = "B", [OPND_C] = "C", [OPND_X] = "x", [OPND_Y] = "y",
	[OPND_RESULT] = "result",
};

const char *const blas_int_names[BI_COUNT] = {
	[BI_M] = "m", [BI_N] = "n", [BI_K] = "k", [BI_LDA] = "lda", [BI_LDB] = "ldb",
	[BI_LDC] = "ldc", [BI_STRIDEA] = "strideA", [BI_STRIDEB] = "strideB",
	[BI_STRIDEC] = "strideC", [BI_BATCH] = "batchCount", [BI_INCX] = "incx",
	[BI_INCY] = "incy",
};

const char *const blas_scal_names[SC_COUNT] = {[SC_ALPHA] = "alpha", [SC_BETA] = "beta"};

const char *const blas_trans_names[TRANS_COUNT] = {"N", "T", "C"};

const char *const blas_compute_names[COMPUTE_COUNT] = {
	[COMPUTE_16F] = "16F", [COMPUTE_16F_PEDANTIC] = "16F_PEDANTIC",
	[COMPUTE_32F] = "32F", [COMPUTE_32F_PEDANTIC] = "32F_PEDANTIC",
	[COMPUTE_32F_FAST_16F] = "32F_FAST_16F", [COMPUTE_32F_FAST_16BF] = "32F_FAST_16BF",
	[COMPUTE_32F_FAST_TF32] = "32F_FAST_TF32", [COMPUTE_64F] = "64F",
	[COMPUTE_64F_PEDANTIC] = "64F_PEDANTIC",
};

/* cublas_api.h's cublasComputeType_t (lib_api.c checks them against the header) */
const int blas_compute_values[COMPUTE_COUNT] = {
	[COMPUTE_16F] = 64, [COMPUTE_16F_PEDANTIC] = 65, [COMPUTE_32F] = 68,
	[COMPUTE_32F_PEDANTIC] = 69, [COMPUTE_32F_FAST_16F] = 74, [COMPUTE_32F_FAST_16BF] = 75,
	[COMPUTE_32F_FAST_TF32] = 77, [COMPUTE_64F] = 70, [COMPUTE_64F_PEDANTIC] = 71,
};

const char *const blas_math_names[MATH_COUNT] = {
	[MATH_DEFAULT] = "DEFAULT_MATH", [MATH_PEDANTIC] = "PEDANTIC_MATH",
	[MATH_TF32] = "TF32_TENSOR_OP_MATH",
};
const int blas_math_values[MATH_COUNT] = {[MATH_DEFAULT] = 0, [MATH_PEDANTIC] = 2, [MATH_TF32] = 3};

#define B(x) (1u << (x))
const struct blas_spec blas_specs[BLAS_OP_COUNT] = {
	[BLAS_GEMM] = {"gemm",
		B(BI_M) | B(BI_N) | B(BI_K) | B(BI_LDA) | B(BI_LDB) | B(BI_LDC),
		B(BI_M) | B(BI_N) | B(BI_K),
		B(OPND_A) | B(OPND_B) | B(OPND_C), B(SC_ALPHA) | B(SC_BETA), 2, true, "SDH", true},
	[BLAS_GEMM_BATCHED] = {"gemmStridedBatched",
		B(BI_M) | B(BI_N) | B(BI_K) | B(BI_LDA) | B(BI_LDB) | B(BI_LDC) |
		B(BI_STRIDEA) | B(BI_STRIDEB) | B(BI_STRIDEC) | B(BI_BATCH),
		B(BI_M) | B(BI_N) | B(BI_K) | B(BI_BATCH),
		B(OPND_A) | B(OPND_B) | B(OPND_C), B(SC_ALPHA) | B(SC_BETA), 2, true, "SDH", true},
	[BLAS_GEMV] = {"gemv", B(BI_M) | B(BI_N) | B(BI_LDA) | B(BI_INCX) | B(BI_INCY),
		B(BI_M) | B(BI_N), B(OPND_A) | B(OPND_X) | B(OPND_Y), B(SC_ALPHA) | B(SC_BETA),
		1, false, "SD", false},
	[BLAS_AXPY] = {"axpy", B(BI_N) | B(BI_INCX) | B(BI_INCY), B(BI_N),
		B(OPND_X) | B(OPND_Y), B(SC_ALPHA), 0, false, "SD", true},
	[BLAS_COPY] = {"copy", B(BI_N) | B(BI_INCX) | B(BI_INCY), B(BI_N),
		B(OPND_X) | B(OPND_Y), 0, 0, false, "SD", true},
	[BLAS_DOT] = {"dot", B(BI_N) | B(BI_INCX) | B(BI_INCY), B(BI_N),
		B(OPND_X) | B(OPND_Y) | B(OPND_RESULT), 0, 0, false, "SD", true},
	[BLAS_NRM2] = {"nrm2", B(BI_N) | B(BI_INCX), B(BI_N), B(OPND_X) | B(OPND_RESULT), 0, 0,
		false, "SD", true},
	[BLAS_SCAL] = {"scal", B(BI_N) | B(BI_INCX), B(BI_N), B(OPND_X), B(SC_ALPHA), 0, false,
		"SD", true},
};
#undef B

const char *const fft_type_names[FFT_TYPE_COUNT] = {
	[FFT_C2C] = "C2C", [FFT_R2C] = "R2C", [FFT_C2R] = "C2R", [FFT_Z2Z] = "Z2Z",
	[FFT_D2Z] = "D2Z", [FFT_Z2D] = "Z2D",
};
/* cufft.h's cufftType (lib_api.c checks them against the header) */
const int fft_type_values[FFT_TYPE_COUNT] = {
	[FFT_C2C] = 0x29, [FFT_R2C] = 0x2a, [FFT_C2R] = 0x2c, [FFT_Z2Z] = 0x69,
	[FFT_D2Z] = 0x6a, [FFT_Z2D] = 0x6c,
};
const char *const fft_dir_names[FFT_DIR_COUNT] = {"FORWARD", "INVERSE"};
const char *const fft_int_names[FI_COUNT] = {
	[FI_ISTRIDE] = "istride", [FI_IDIST] = "idist", [FI_OSTRIDE] = "ostride",
	[FI_ODIST] = "odist", [FI_BATCH] = "batch",
};

bool fft_is_double(enum fft_type t)
{
	return t == FFT_Z2Z || t == FFT_D2Z || t == FFT_Z2D;
}

bool fft_real_in(enum fft_type t)
{
	return t == FFT_R2C || t == FFT_D2Z;
}

bool fft_real_out(enum fft_type t)
{
	return t == FFT_C2R || t == FFT_Z2D;
}

bool blas_writes(const struct blas_call *c, enum blas_opnd o)
{
	return o == OPND_C || o == OPND_RESULT || (o == OPND_Y && c->op != BLAS_DOT) ||
	       (o == OPND_X && c->op == BLAS_SCAL);
}

void lib_node_uses(const struct node *n, lib_use_fn *fn, void *ctx)
{
	if (n->kind == NK_CUBLAS && n->u.blas) {
		struct blas_call *c = n->u.blas;
		for (int o = 0; o < OPND_COUNT; o++)
			if (c->opnd[o].buffer.name)
				fn(ctx, &c->opnd[o].buffer, c->opnd[o].buffer.pos,
				   blas_writes(c, (enum blas_opnd)o));
		for (int s = 0; s < SC_COUNT; s++)
			if (c->scalar[s].given && c->scalar[s].device &&
			    c->scalar[s].opnd.buffer.name)
				fn(ctx, &c->scalar[s].opnd.buffer, c->scalar[s].pos, false);
	} else if (n->kind == NK_CUFFT && n->u.fft) {
		struct fft_call *f = n->u.fft;
		/* cuFFT may overwrite the input of an out-of-place complex-to-real transform */
		if (f->idata.buffer.name)
			fn(ctx, &f->idata.buffer, f->idata.buffer.pos,
			   fft_real_out((enum fft_type)f->type));
		if (f->odata.buffer.name)
			fn(ctx, &f->odata.buffer, f->odata.buffer.pos, true);
	}
}

struct names_find {
	const char *name;
	bool found;
};

static void names_one(void *ctx, struct name_ref *ref, struct pos pos, bool writes)
{
	struct names_find *nf = ctx;
	if (ref->name && strcmp(ref->name, nf->name) == 0)
		nf->found = true;
}

bool lib_node_names(const struct node *n, const char *buffer)
{
	struct names_find nf = {buffer, false};
	if (buffer)
		lib_node_uses(n, names_one, &nf);
	return nf.found;
}

/* The value of integer i for the label: the one used, else as written, else "?". */
static void blas_int_text(const struct blas_call *c, enum blas_int i, char *buf, size_t len)
{
	if (c->valid)
		snprintf(buf, len, "%" PRId64, c->use[i]);
	else if (c->ints_set & (1u << i))
		snprintf(buf, len, "%" PRId64, c->ints[i]);
	else
		snprintf(buf, len, "?");
}

static void blas_label(const struct blas_call *c, char *buf, size_t len)
{
	if (c->op >= BLAS_OP_COUNT) {
		snprintf(buf, len, "cublas ?");
		return;
	}
	const struct blas_spec *sp = &blas_specs[c->op];
	int at = snprintf(buf, len, "cublas %s", sp->name);
	char a[24], b[24], k[24];
	if (sp->ntrans == 2 && (c->trans[0] != TRANS_N || c->trans[1] != TRANS_N))
		at += snprintf(buf + at, len > (size_t)at ? len - at : 0, " %s%s",
			       blas_trans_names[c->trans[0]], blas_trans_names[c->trans[1]]);
	else if (sp->ntrans == 1 && c->trans[0] != TRANS_N)
		at += snprintf(buf + at, len > (size_t)at ? len - at : 0, " %s",
			       blas_trans_names[c->trans[0]]);
	if (sp->ints & (1u << BI_M)) {
		blas_int_text(c, BI_M, a, sizeof a);
		blas_int_text(c, BI_N, b, sizeof b);
		if (sp->ints & (1u << BI_K)) {
			blas_int_text(c, BI_K, k, sizeof k);
			at += snprintf(buf + at, len > (size_t)at ? len - at : 0, " %sx%sx%s", a, b, k);
		} else {
			at += snprintf(buf + at, len > (size_t)at ? len - at : 0, " %sx%s", a, b);
		}
	} else {
		blas_int_text(c, BI_N, a, sizeof a);
		at += snprintf(buf + at, len > (size_t)at ? len - at : 0, " %s", a);
	}
	if (!c->valid)
		return;
	enum blas_opnd in = sp->opnds & (1u << OPND_A) ? OPND_A : OPND_X;
	enum blas_opnd out = sp->opnds & (1u << OPND_C) ? OPND_C :
		sp->opnds & (1u << OPND_RESULT) ? OPND_RESULT : in;
	if (c->type[in] == c->type[out])
		at += snprintf(buf + at, len > (size_t)at ? len - at : 0, " %s",
			       elem_names[c->type[in]]);
	else
		at += snprintf(buf + at, len > (size_t)at ? len - at : 0, " %s->%s",
			       elem_names[c->type[in]], elem_names[c->type[out]]);
	if (sp->compute && c->has_compute)
		at += snprintf(buf + at, len > (size_t)at ? len - at : 0, " %s",
			       blas_compute_names[c->compute_used]);
	if (c->op == BLAS_GEMM_BATCHED)
		at += snprintf(buf + at, len > (size_t)at ? len - at : 0, " batch %" PRId64,
			       c->use[BI_BATCH]);
	if (c->device_mode && sp->scalars)
		snprintf(buf + at, len > (size_t)at ? len - at : 0, " (device scalars)");
}

static void fft_label(const struct fft_call *f, char *buf, size_t len)
{
	int at = snprintf(buf, len, "cufft %s ", f->has_type ? fft_type_names[f->type] : "?");
	if (f->rank == 0)
		at += snprintf(buf + at, len > (size_t)at ? len - at : 0, "?");
	for (unsigned i = 0; i < f->rank; i++)
		at += snprintf(buf + at, len > (size_t)at ? len - at : 0, "%s%" PRId64,
			       i ? "x" : "", f->n[i]);
	int64_t batch = f->valid ? f->batch :
		f->ints_set & (1u << FI_BATCH) ? f->ints[FI_BATCH] : 1;
	if (batch != 1)
		at += snprintf(buf + at, len > (size_t)at ? len - at : 0, " batch %" PRId64, batch);
	if (f->has_type && !fft_real_in((enum fft_type)f->type) &&
	    !fft_real_out((enum fft_type)f->type) && f->has_direction)
		at += snprintf(buf + at, len > (size_t)at ? len - at : 0, " %s",
			       f->direction == FFT_FORWARD ? "forward" : "inverse");
	if (f->idata.buffer.name && f->odata.buffer.name &&
	    strcmp(f->idata.buffer.name, f->odata.buffer.name) == 0 &&
	    f->idata.offset == f->odata.offset)
		snprintf(buf + at, len > (size_t)at ? len - at : 0, " in place");
}

void lib_label(const struct node *n, char *buf, size_t len)
{
	if (len)
		buf[0] = '\0';
	if (n->kind == NK_CUBLAS && n->u.blas)
		blas_label(n->u.blas, buf, len);
	else if (n->kind == NK_CUFFT && n->u.fft)
		fft_label(n->u.fft, buf, len);
	else
		snprintf(buf, len, "%s", node_kind_names[n->kind]);
}

void lib_node_own(struct gdef *g, struct node *n)
{
	if (n->kind == NK_CUBLAS && n->u.blas) {
		struct blas_call *c = arena_alloc(&g->arena, sizeof *c);
		*c = *n->u.blas;
		n->u.blas = c;
	} else if (n->kind == NK_CUFFT && n->u.fft) {
		struct fft_call *f = arena_alloc(&g->arena, sizeof *f);
		*f = *n->u.fft;
		n->u.fft = f;
	}
}

/* lib_slots' state: the library nodes numbered, and a bitset of them per node. */
struct slots {
	const struct gdef *g;
	uint32_t *lib_of;               /* per all_nodes index: its number, or UINT32_MAX */
	size_t nlib, words;
	uint64_t *done;                 /* per all_nodes index: words bits, done when it ends */
	struct slot {
		unsigned device;
		uint32_t last;          /* the slot's last library node's number */
	} *v;
	size_t n, cap;
	uint32_t *slot_of;
};

static uint64_t *done_of(struct slots *s, const struct node *n)
{
	return s->done + (size_t)n->seq * s->words;
}

/* A library node whose predecessors are `before`: the first slot its last user precedes. */
static void assign(struct slots *s, const struct node *n, const uint64_t *before)
{
	unsigned dev = node_device(s->g, n);
	size_t k;
	for (k = 0; k < s->n; k++) {
		uint32_t last = s->v[k].last;
		if (s->v[k].device == dev && (before[last / 64] >> (last % 64) & 1))
			break;
	}
	if (k == s->n) {
		struct slot *sl = VEC_PUSH(s->v, s->n, s->cap);
		sl->device = dev;
	}
	s->v[k].last = s->lib_of[n->seq];
	s->slot_of[n->seq] = (uint32_t)k;
}

static void walk_slots(struct slots *s, const struct graph *gr, const uint64_t *in);

/* Node n, whose predecessors' done sets are final: its own, and its bodies'. */
static void slot_node(struct slots *s, const struct node *n, const uint64_t *in)
{
	uint64_t *d = done_of(s, n);
	memcpy(d, in, s->words * sizeof *d);
	for (uint32_t k = 0; k < n->ndeps; k++) {
		const uint64_t *p = done_of(s, n->graph->nodes[n->deps[k]]);
		for (size_t w = 0; w < s->words; w++)
			d[w] |= p[w];
	}
	if (node_kind_is_library(n->kind)) {
		assign(s, n, d);
		uint32_t li = s->lib_of[n->seq];
		d[li / 64] |= 1ull << (li % 64);
	}
	const struct graph *const *bodies = NULL;
	size_t nb = 0;
	if (n->kind == NK_GRAPH) {
		bodies = (const struct graph *const *)&n->u.child;
		nb = n->u.child ? 1 : 0;
	} else if (node_kind_is_conditional(n->kind)) {
		bodies = (const struct graph *const *)n->u.cond.bodies;
		nb = n->u.cond.nbodies;
	}
	if (nb == 0)
		return;
	/* the bodies begin after what n waits for; n ends after all they do */
	uint64_t *start = xmalloc(s->words * sizeof *start);
	memcpy(start, d, s->words * sizeof *start);
	for (size_t b = 0; b < nb; b++) {
		if (bodies[b] == NULL)
			continue;
		walk_slots(s, bodies[b], start);
		for (size_t i = 0; i < bodies[b]->nnodes; i++) {
			const uint64_t *p = done_of(s, bodies[b]->nodes[i]);
			for (size_t w = 0; w < s->words; w++)
				d[w] |= p[w];
		}
	}
	free(start);
}

static void walk_slots(struct slots *s, const struct graph *gr, const uint64_t *in)
{
	for (size_t t = 0; t < gr->nnodes; t++)
		slot_node(s, gr->nodes[gr->topo ? gr->topo[t] : t], in);
}

size_t lib_slots(const struct gdef *g, uint32_t *slot_of)
{
	struct slots s = {.g = g, .slot_of = slot_of};
	s.lib_of = xmalloc((g->nall_nodes ? g->nall_nodes : 1) * sizeof *s.lib_of);
	for (size_t i = 0; i < g->nall_nodes; i++)
		s.lib_of[i] = node_kind_is_library(g->all_nodes[i]->kind) ? (uint32_t)s.nlib++ :
			UINT32_MAX;
	if (s.nlib == 0) {
		free(s.lib_of);
		return 0;
	}
	s.words = (s.nlib + 63) / 64;
	s.done = xcalloc(g->nall_nodes * s.words, sizeof *s.done);
	uint64_t *none = xcalloc(s.words, sizeof *none);
	walk_slots(&s, g->root, none);
	size_t n = s.n;
	free(none);
	free(s.done);
	free(s.v);
	free(s.lib_of);
	return n;
}

static bool same_name(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	return strcmp(a, b) == 0;
}

static bool same_opnd(const struct lib_operand *a, const struct lib_operand *b)
{
	return same_name(a->buffer.name, b->buffer.name) && a->offset == b->offset;
}

static bool same_num(const struct num *a, const struct num *b)
{
	if (a->kind != b->kind)
		return false;
	/* bitwise for floats: -0.0 and 0.0 are different scalars */
	return a->kind == NUM_FLOAT ? memcmp(&a->f, &b->f, sizeof a->f) == 0 : a->u == b->u;
}

static const char *blas_change(const struct blas_call *a, const struct blas_call *b)
{
	if (a->op != b->op || a->letter != b->letter)
		return "routine";
	if (memcmp(a->trans, b->trans, sizeof a->trans) != 0)
		return "trans";
	for (int i = 0; i < BI_COUNT; i++)
		if (a->use[i] != b->use[i])
			return blas_int_names[i];
	for (int o = 0; o < OPND_COUNT; o++)
		if (!same_opnd(&a->opnd[o], &b->opnd[o]))
			return blas_opnd_names[o];
	for (int s = 0; s < SC_COUNT; s++) {
		const struct lib_scalar *x = &a->scalar[s], *y = &b->scalar[s];
		if (x->given != y->given || x->device != y->device ||
		    (x->device ? !same_opnd(&x->opnd, &y->opnd) : !same_num(&x->value, &y->value)))
			return blas_scal_names[s];
	}
	if (a->compute_used != b->compute_used)
		return "computeType";
	if (a->has_math != b->has_math || a->math != b->math)
		return "mathMode";
	return NULL;
}

static const char *fft_change(const struct fft_call *a, const struct fft_call *b)
{
	if (a->type != b->type)
		return "type";
	if (a->rank != b->rank || memcmp(a->n, b->n, sizeof a->n) != 0)
		return "n";
	if (a->inembed_rank != b->inembed_rank || memcmp(a->inembed, b->inembed, sizeof a->inembed))
		return "inembed";
	if (a->onembed_rank != b->onembed_rank || memcmp(a->onembed, b->onembed, sizeof a->onembed))
		return "onembed";
	if (a->batch != b->batch || a->istride != b->istride || a->idist != b->idist ||
	    a->ostride != b->ostride || a->odist != b->odist)
		return "batch";
	if (!same_opnd(&a->idata, &b->idata))
		return "idata";
	if (!same_opnd(&a->odata, &b->odata))
		return "odata";
	if (a->direction != b->direction)
		return "direction";
	return NULL;
}

const char *lib_change(const struct node *a, const struct node *b)
{
	if (a->kind != b->kind)
		return node_kind_names[b->kind];
	if (a->kind == NK_CUBLAS)
		return a->u.blas == b->u.blas ? NULL : blas_change(a->u.blas, b->u.blas);
	if (a->kind == NK_CUFFT)
		return a->u.fft == b->u.fft ? NULL : fft_change(a->u.fft, b->u.fft);
	return NULL;
}
