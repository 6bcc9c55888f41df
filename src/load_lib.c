/*
 * Library nodes: cublas and cufft (load_lib.h).
 *
 * A cublas node's value is a mapping of one key, the routine, whose value
 * maps the routine's parameters; a cufft node's value maps the plan's and
 * the execution's parameters.  Every parameter name of every routine is
 * read into any call; the validator refuses those a routine does not take.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "load_lib.h"
#include "model_lib.h"
#include "xmalloc.h"

#define COUNT(a) (sizeof (a) / sizeof *(a))

/* --- names with an optional prefix (CUBLAS_OP_N or N) --- */

/*
 * One of names[0..n), written with or without prefix: its index, with
 * *pos set; else -1 after an error that suggests the closest name.
 */
static int get_prefixed(struct ld *l, const char *prefix, const char *const *names, size_t n,
			const char *what, const char *noun, const char *name, struct pos *pos)
{
	if (!ld_is_scalar(l) || ld_is_null(l)) {
		ld_expected(l, what, name);
		return -1;
	}
	const char *v = l->es.ev.value;
	size_t pl = strlen(prefix);
	bool with = strncmp(v, prefix, pl) == 0;
	if (with)
		v += pl;
	for (size_t i = 0; i < n; i++)
		if (strcmp(v, names[i]) == 0) {
			if (pos)
				*pos = l->es.ev.pos;
			ld_next(l);
			return (int)i;
		}
	const char *s = diag_suggest(v, names, n);
	if (s) {
		ld_error(l, l->es.ev.pos, "unknown %s '%.60s' for '%s' (did you mean '%s%s'?)", noun,
			 l->es.ev.value, name, with ? prefix : "", s);
	} else {
		char list[256];
		list_names(names, n, list, sizeof list);
		ld_error(l, l->es.ev.pos, "unknown %s '%.60s' for '%s' (expected %s, each with or "
			 "without %s)", noun, l->es.ev.value, name, list, prefix);
	}
	ld_skip(l);
	return -1;
}

/* An operand: a buffer name, or {buffer: name, offset: n}. */
#define T struct lib_operand
static const struct keydef opnd_keys[] = {
	ROW_REF("buffer", T, buffer, "a buffer name"),
	ROW_UINT("offset", T, offset, 0, UINT64_MAX, POS(T, offset_pos)),
};
#undef T
static const struct keytab opnd_tab = KEYTAB(opnd_keys);

static void parse_operand(struct ld *l, struct lib_operand *o, const char *name)
{
	o->buffer.idx = -1;
	if (l->es.ev.type == EV_MAP) {
		char ctx[96];
		struct seen s;
		o->buffer.pos = l->es.ev.pos;
		snprintf(ctx, sizeof ctx, "in '%.60s'", name);
		parse_keys(l, &opnd_tab, o, ctx, &s);
		require_keys(l, &opnd_tab, &s, 1, ctx);
		return;
	}
	get_ref(l, "a buffer name or {buffer, offset}", name, &o->buffer);
}

/* --- cuBLAS --- */

bool blas_routine(const char *key, enum blas_op *op, char *letter)
{
	const char *r = key;
	bool prefixed = strncmp(r, "cublas", 6) == 0 && r[6] >= 'A' && r[6] <= 'Z';
	if (prefixed)
		r += 6;
	for (int i = 0; i < BLAS_OP_COUNT; i++) {
		const struct blas_spec *sp = &blas_specs[i];
		size_t bl = strlen(sp->name);
		*op = (enum blas_op)i;
		*letter = 0;
		/* gemm: the name alone, without the prefix */
		if (!prefixed && strcmp(r, sp->name) == 0)
			return true;
		/* Sgemm, cublasDaxpy */
		if (r[0] && strchr(sp->letters, r[0]) && strcmp(r + 1, sp->name) == 0) {
			*letter = r[0];
			return true;
		}
		/* GemmEx, cublasGemmStridedBatchedEx */
		if (sp->has_ex && (r[0] == sp->name[0] - 'a' + 'A') &&
		    strncmp(r + 1, sp->name + 1, bl - 1) == 0 && strcmp(r + bl, "Ex") == 0)
			return true;
	}
	return false;
}

static struct blas_call *blas_of(void *obj)
{
	return obj;
}

static void key_trans(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct blas_call *c = blas_of(obj);
	int slot = kd->arg == 2 ? 0 : kd->arg;
	int i = get_prefixed(l, "CUBLAS_OP_", blas_trans_names, TRANS_COUNT,
			     "an operation (N, T or C)", "operation", kd->name, NULL);
	if (i < 0)
		return;
	c->trans[slot] = (uint8_t)i;
	c->trans_pos[slot] = kpos;
	c->trans_set |= 1u << kd->arg;
}

/* The ranges the loader gives: cuBLAS's int parameters, its long long strides. */
static void int_range(enum blas_int i, int64_t *lo, int64_t *hi)
{
	*hi = INT32_MAX;
	switch (i) {
	case BI_M:
	case BI_N:
	case BI_K:
		*lo = 0;
		break;
	case BI_STRIDEA:
	case BI_STRIDEB:
	case BI_STRIDEC:
		*lo = 0;
		*hi = INT64_MAX;
		break;
	default:
		*lo = 1;
		break;
	}
}

static void key_blas_int(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct blas_call *c = blas_of(obj);
	int64_t lo, hi, v;
	int_range((enum blas_int)kd->arg, &lo, &hi);
	if (get_i64(l, kd->name, lo, hi, &v, NULL)) {
		c->ints[kd->arg] = v;
		c->ints_set |= 1u << kd->arg;
	}
	c->int_pos[kd->arg] = kpos;
}

static void key_blas_opnd(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	parse_operand(l, &blas_of(obj)->opnd[kd->arg], kd->name);
}

/* alpha, beta: a number (host pointer mode), or a buffer element (device pointer mode). */
static void key_blas_scalar(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct lib_scalar *s = &blas_of(obj)->scalar[kd->arg];
	struct num probe;
	s->pos = l->es.ev.pos;
	s->given = true;
	s->device = !(ld_is_scalar(l) && !ld_is_null(l) &&
		      parse_number(l->es.ev.value, &probe) != SCALAR_SYNTAX);
	if (!s->device) {
		s->given = get_num(l, kd->name, &s->value);
		return;
	}
	if (l->es.ev.type != EV_MAP && !ld_is_scalar(l)) {
		ld_expected(l, "a number, a buffer name or {buffer, offset}", kd->name);
		s->given = false;
		return;
	}
	parse_operand(l, &s->opnd, kd->name);
	s->given = s->opnd.buffer.name != NULL;
}

static void key_compute(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct blas_call *c = blas_of(obj);
	int i = get_prefixed(l, "CUBLAS_COMPUTE_", blas_compute_names, COMPUTE_COUNT,
			     "a compute type (CUBLAS_COMPUTE_32F ...)", "compute type", kd->name,
			     &c->compute_pos);
	if (i >= 0) {
		c->compute = (uint8_t)i;
		c->has_compute = true;
	}
}

static void key_math(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct blas_call *c = blas_of(obj);
	int i = get_prefixed(l, "CUBLAS_", blas_math_names, MATH_COUNT,
			     "a math mode (CUBLAS_DEFAULT_MATH ...)", "math mode", kd->name,
			     &c->math_pos);
	if (i >= 0) {
		c->math = (uint8_t)i;
		c->has_math = true;
	}
}

/* Every parameter of every routine: the validator says which one takes. */
static const struct keydef blas_keys[] = {
	KEY_ARG("transa", key_trans, 0),
	KEY_ARG("transb", key_trans, 1),
	KEY_ARG("trans", key_trans, 2),
	KEY_ARG("m", key_blas_int, BI_M),
	KEY_ARG("n", key_blas_int, BI_N),
	KEY_ARG("k", key_blas_int, BI_K),
	KEY_ARG("alpha", key_blas_scalar, SC_ALPHA),
	KEY_ARG("A", key_blas_opnd, OPND_A),
	KEY_ARG("lda", key_blas_int, BI_LDA),
	KEY_ARG("strideA", key_blas_int, BI_STRIDEA),
	KEY_ARG("B", key_blas_opnd, OPND_B),
	KEY_ARG("ldb", key_blas_int, BI_LDB),
	KEY_ARG("strideB", key_blas_int, BI_STRIDEB),
	KEY_ARG("beta", key_blas_scalar, SC_BETA),
	KEY_ARG("C", key_blas_opnd, OPND_C),
	KEY_ARG("ldc", key_blas_int, BI_LDC),
	KEY_ARG("strideC", key_blas_int, BI_STRIDEC),
	KEY_ARG("batchCount", key_blas_int, BI_BATCH),
	KEY_ARG("x", key_blas_opnd, OPND_X),
	KEY_ARG("incx", key_blas_int, BI_INCX),
	KEY_ARG("y", key_blas_opnd, OPND_Y),
	KEY_ARG("incy", key_blas_int, BI_INCY),
	KEY_ARG("result", key_blas_opnd, OPND_RESULT),
	KEY("computeType", key_compute),
	KEY("mathMode", key_math),
};
static const struct keytab blas_tab = KEYTAB(blas_keys);

static void parse_routine(struct ld *l, struct blas_call *c, const char *key)
{
	char ctx[96];
	struct seen s;
	snprintf(ctx, sizeof ctx, "in '%.60s'", key);
	if (ld_is_null(l)) {
		ld_next(l);
		return;
	}
	if (!want_map(l, "a mapping of the routine's parameters", key))
		return;
	parse_keys(l, &blas_tab, c, ctx, &s);
}

/* The routine names the error offers: the plain ones. */
static void unknown_routine(struct ld *l, const char *key, struct pos kpos)
{
	const char *s = diag_suggest(key, blas_op_names, BLAS_OP_COUNT);
	char list[256];
	list_names(blas_op_names, BLAS_OP_COUNT, list, sizeof list);
	if (s)
		ld_error(l, kpos, "unknown cuBLAS routine '%.60s' (did you mean '%s'?)", key, s);
	else
		ld_error(l, kpos, "unknown cuBLAS routine '%.60s' (expected %s, or a typed name "
			 "such as Sgemm, cublasDaxpy or GemmEx)", key, list);
}

void parse_cublas(struct ld *l, struct node *n)
{
	struct blas_call *c = arena_alloc(&l->g->arena, sizeof *c);
	memset(c, 0, sizeof *c);
	for (int o = 0; o < OPND_COUNT; o++)
		c->opnd[o].buffer.idx = -1;
	c->op = BLAS_OP_COUNT;
	n->u.blas = c;
	if (!want_map(l, "a mapping {ROUTINE: {parameters}}", "cublas"))
		return;
	struct mapiter it;
	map_open(l, &it, NULL);
	struct pos at = it.pos;
	while (map_key(l, &it)) {
		enum blas_op op;
		char letter;
		if (c->op != BLAS_OP_COUNT) {
			/* a merged mapping's routine gives way to the node's own */
			if (it.level == 0 || strcmp(it.key, c->routine) != 0)
				ld_error(l, it.kpos, "a cublas node makes one call, found '%.60s' (at "
					 "%u:%u) and '%.60s'", c->routine, c->op_pos.line,
					 c->op_pos.col, it.key);
			ld_skip(l);
			continue;
		}
		if (!blas_routine(it.key, &op, &letter)) {
			unknown_routine(l, it.key, it.kpos);
			ld_skip(l);
			c->op = BLAS_OP_COUNT + 1;      /* a routine was written: no "needs one" */
			c->routine = gdef_strdup(l->g, it.key);
			c->op_pos = it.kpos;
			continue;
		}
		c->op = (uint8_t)op;
		c->letter = letter;
		c->routine = gdef_strdup(l->g, it.key);
		c->op_pos = it.kpos;
		parse_routine(l, c, c->routine);
	}
	if (c->op == BLAS_OP_COUNT) {
		char list[256];
		list_names(blas_op_names, BLAS_OP_COUNT, list, sizeof list);
		ld_error(l, at, "'cublas' needs a routine: one of %s", list);
	}
	if (c->op > BLAS_OP_COUNT)
		c->op = BLAS_OP_COUNT;
}

/* --- cuFFT --- */

static struct fft_call *fft_of(void *obj)
{
	return obj;
}

static void key_fft_type(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct fft_call *f = fft_of(obj);
	int i = get_prefixed(l, "CUFFT_", fft_type_names, FFT_TYPE_COUNT,
			     "a transform type (CUFFT_C2C ...)", "transform type", kd->name,
			     &f->type_pos);
	if (i >= 0) {
		f->type = (uint8_t)i;
		f->has_type = true;
	}
}

/* n, inembed, onembed: an integer, or a list of one to three. */
static unsigned get_dims(struct ld *l, const char *name, int64_t out[3], struct pos *pos)
{
	*pos = l->es.ev.pos;
	if (l->es.ev.type != EV_SEQ) {
		int64_t v;
		if (!get_i64(l, name, 1, INT64_MAX, &v, NULL))
			return 0;
		out[0] = v;
		return 1;
	}
	unsigned k = 0;
	bool ok = true;
	ld_next(l);
	while (!l->es.fatal && l->es.ev.type != EV_SEQ_END) {
		int64_t v;
		if (k == 3) {
			if (ok)
				ld_error(l, l->es.ev.pos, "'%s' has at most 3 dimensions (cuFFT plans "
					 "are 1-D, 2-D or 3-D)", name);
			ok = false;
			ld_skip(l);
			continue;
		}
		if (get_i64(l, name, 1, INT64_MAX, &v, NULL))
			out[k] = v;
		else
			ok = false;
		k++;
	}
	ld_next(l);
	if (k == 0 && ok) {
		ld_error(l, *pos, "'%s' needs one to three dimensions", name);
		ok = false;
	}
	return ok ? k : 0;
}

static void key_fft_n(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct fft_call *f = fft_of(obj);
	unsigned *rank = kd->arg == 0 ? &f->rank : kd->arg == 1 ? &f->inembed_rank :
		&f->onembed_rank;
	int64_t *v = kd->arg == 0 ? f->n : kd->arg == 1 ? f->inembed : f->onembed;
	struct pos *pos = kd->arg == 0 ? &f->n_pos : kd->arg == 1 ? &f->inembed_pos :
		&f->onembed_pos;
	*rank = get_dims(l, kd->name, v, pos);
	pos->line = kpos.line;
	pos->col = kpos.col;
}

static void key_fft_int(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct fft_call *f = fft_of(obj);
	int64_t v;
	if (get_i64(l, kd->name, 1, INT64_MAX, &v, NULL)) {
		f->ints[kd->arg] = v;
		f->ints_set |= 1u << kd->arg;
	}
	f->int_pos[kd->arg] = kpos;
}

static void key_fft_data(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct fft_call *f = fft_of(obj);
	parse_operand(l, kd->arg ? &f->odata : &f->idata, kd->name);
}

/* direction: CUFFT_FORWARD, CUFFT_INVERSE (with or without CUFFT_), or -1 and 1. */
static void key_fft_direction(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct fft_call *f = fft_of(obj);
	if (ld_is_scalar(l) && (strcmp(l->es.ev.value, "-1") == 0 ||
				strcmp(l->es.ev.value, "1") == 0)) {
		f->direction = l->es.ev.value[0] == '-' ? FFT_FORWARD : FFT_INVERSE;
		f->has_direction = true;
		f->direction_pos = l->es.ev.pos;
		ld_next(l);
		return;
	}
	int i = get_prefixed(l, "CUFFT_", fft_dir_names, FFT_DIR_COUNT,
			     "a direction (CUFFT_FORWARD or CUFFT_INVERSE)", "direction", kd->name,
			     &f->direction_pos);
	if (i >= 0) {
		f->direction = (uint8_t)i;
		f->has_direction = true;
	}
}

static const struct keydef fft_keys[] = {
	KEY("type", key_fft_type),
	KEY_ARG("n", key_fft_n, 0),
	KEY_ARG("batch", key_fft_int, FI_BATCH),
	KEY_ARG("inembed", key_fft_n, 1),
	KEY_ARG("istride", key_fft_int, FI_ISTRIDE),
	KEY_ARG("idist", key_fft_int, FI_IDIST),
	KEY_ARG("onembed", key_fft_n, 2),
	KEY_ARG("ostride", key_fft_int, FI_OSTRIDE),
	KEY_ARG("odist", key_fft_int, FI_ODIST),
	KEY_ARG("idata", key_fft_data, 0),
	KEY_ARG("odata", key_fft_data, 1),
	KEY("direction", key_fft_direction),
};
static const struct keytab fft_tab = KEYTAB(fft_keys);
/* type, n and idata must be written */
#define FFT_REQUIRED ((1u << 0) | (1u << 1) | (1u << 9))

void parse_cufft(struct ld *l, struct node *n)
{
	struct fft_call *f = arena_alloc(&l->g->arena, sizeof *f);
	memset(f, 0, sizeof *f);
	f->idata.buffer.idx = f->odata.buffer.idx = -1;
	n->u.fft = f;
	struct seen s;
	if (!want_map(l, "a mapping {type, n, idata, odata, direction, ...}", "cufft"))
		return;
	parse_keys(l, &fft_tab, f, "in 'cufft'", &s);
	require_keys(l, &fft_tab, &s, FFT_REQUIRED, "in 'cufft'");
}
