/*
 * Unit tests of library nodes without a GPU: the routine names the
 * loader takes (src/load_lib.c), what the validator fills in and says
 * (src/validate_lib.c: defaults, extents, labels), the work-area slots
 * (src/model_lib.c, lib_slots), the peak table (src/flops.c), and, in a
 * build with cuBLAS's and cuFFT's headers, opening the real libraries
 * and finding every entry point by the name the library exports
 * (src/lib_api.c; each test runs in a process of its own, as lib_open
 * remembers its answer).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "flops.h"
#include "load.h"
#include "load_lib.h"
#include "load_sweep.h"
#include "model_lib.h"
#include "prof_stat.h"
#include "sweep_diff.h"
#include "validate.h"
#include "xmalloc.h"
#include "unit.h"

#ifdef HAVE_CUDALIBS
#include <dlfcn.h>

#include "lib_api.h"

/* Symbol sym of the library already loaded from path. */
static void *dlsym_of(const char *path, const char *sym)
{
	void *h = dlopen(path, RTLD_NOW | RTLD_NOLOAD);
	return h ? dlsym(h, sym) : NULL;
}
#endif

/* A text loaded and validated: the model, and what was said. */
struct res {
	struct gdef *g;
	char *msgs;
	size_t len;
	bool ok;
};

static struct res load(const char *body)
{
	struct res r = {0};
	char *text = xasprintf("cugraphrun: 1\n%s", body);
	FILE *out = open_memstream(&r.msgs, &r.len);
	struct diag d;
	diag_init(&d, "t.yaml", out);
	d.max_errors = 100;
	r.g = gdef_load_string("t.yaml", text, strlen(text), NULL, &d);
	r.ok = r.g && d.nerrors == 0 && gdef_validate_with(r.g, &d, NULL);
	fclose(out);
	free(text);
	return r;
}

static void res_free(struct res *r)
{
	gdef_free(r->g);
	free(r->msgs);
}

/* The node called id, loaded and validated without a message. */
static const struct node *node_ok(struct res *r, const char *id)
{
	ck_assert_msg(r->ok, "unexpected messages:\n%s", r->msgs);
	for (size_t i = 0; i < r->g->nall_nodes; i++)
		if (strcmp(r->g->all_nodes[i]->id, id) == 0)
			return r->g->all_nodes[i];
	ck_abort_msg("no node %s", id);
	return NULL;
}

START_TEST(test_routine_names)
{
	static const struct {
		const char *name;
		enum blas_op op;
		char letter;
	} good[] = {
		{"gemm", BLAS_GEMM, 0}, {"Sgemm", BLAS_GEMM, 'S'}, {"cublasHgemm", BLAS_GEMM, 'H'},
		{"GemmEx", BLAS_GEMM, 0}, {"cublasGemmStridedBatchedEx", BLAS_GEMM_BATCHED, 0},
		{"DgemmStridedBatched", BLAS_GEMM_BATCHED, 'D'}, {"cublasSgemv", BLAS_GEMV, 'S'},
		{"cublasDaxpy", BLAS_AXPY, 'D'}, {"AxpyEx", BLAS_AXPY, 0}, {"Scopy", BLAS_COPY, 'S'},
		{"cublasSdot", BLAS_DOT, 'S'}, {"Nrm2Ex", BLAS_NRM2, 0}, {"scal", BLAS_SCAL, 0},
	};
	for (size_t i = 0; i < sizeof good / sizeof *good; i++) {
		enum blas_op op;
		char letter;
		ck_assert_msg(blas_routine(good[i].name, &op, &letter), "%s", good[i].name);
		ck_assert_int_eq(op, good[i].op);
		ck_assert_int_eq(letter, good[i].letter);
	}
	/* no H for level 1, no GemvEx, the prefix only before a capital, lower-case letters */
	static const char *const bad[] = {
		"Hdot", "GemvEx", "cublasgemm", "sgemm", "cublas", "gemmEx", "Zgemm", "SgemmEx", "",
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		enum blas_op op;
		char letter;
		ck_assert_msg(!blas_routine(bad[i], &op, &letter), "'%s' taken", bad[i]);
	}
}
END_TEST

static const char buffers[] =
	"buffers:\n"
	"  a: {type: f16, count: 16777216}\n"
	"  b: {type: f16, count: 16777216}\n"
	"  c: {type: f32, count: 16777216}\n"
	"  x: {type: f32, count: 4096}\n"
	"  y: {type: f32, count: 4096}\n"
	"  r: {type: f32, count: 1}\n"
	"  z: {type: f64, count: 64}\n";

START_TEST(test_gemm_defaults_and_label)
{
	char *text = xasprintf("%snodes:\n"
		"  - id: mm\n"
		"    cublas: {gemm: {m: 4096, n: 4096, k: 4096, A: a, B: b, C: c}}\n"
		"  - id: tn\n"
		"    cublas: {GemmEx: {transa: T, transb: CUBLAS_OP_N, m: 64, n: 32, k: 16, A: x,\n"
		"             B: y, C: {buffer: y, offset: 1024}, computeType: CUBLAS_COMPUTE_32F_FAST_TF32,\n"
		"             alpha: 2, beta: 1}}\n"
		"  - id: sb\n"
		"    cublas: {gemmStridedBatched: {m: 8, n: 8, k: 8, A: x, B: x, C: y, batchCount: 4}}\n"
		"  - id: d\n"
		"    cublas: {cublasSdot: {n: 100, x: x, incx: 2, y: y, result: r}}\n",
		buffers);
	struct res r = load(text);
	const struct node *mm = node_ok(&r, "mm");
	const struct blas_call *c = mm->u.blas;
	ck_assert(c->valid);
	ck_assert_int_eq(c->use[BI_LDA], 4096);
	ck_assert_int_eq(c->use[BI_LDB], 4096);
	ck_assert_int_eq(c->use[BI_LDC], 4096);
	ck_assert_int_eq(c->compute_used, COMPUTE_32F);
	ck_assert_int_eq(c->scale_type, ET_F32);
	ck_assert(!c->device_mode);
	char label[256];
	lib_label(mm, label, sizeof label);
	ck_assert_str_eq(label, "cublas gemm 4096x4096x4096 f16->f32");
	const struct node *tn = node_ok(&r, "tn");
	/* op(A) = A^T is 64 x 16: A is 16 x 64, lda 16 */
	ck_assert_int_eq(tn->u.blas->use[BI_LDA], 16);
	ck_assert_int_eq(tn->u.blas->use[BI_LDB], 16);
	lib_label(tn, label, sizeof label);
	ck_assert_str_eq(label, "cublas gemm TN 64x32x16 f32 32F_FAST_TF32");
	const struct node *sb = node_ok(&r, "sb");
	ck_assert_int_eq(sb->u.blas->use[BI_STRIDEA], 64);
	ck_assert_int_eq(sb->u.blas->use[BI_STRIDEC], 64);
	lib_label(sb, label, sizeof label);
	ck_assert_str_eq(label, "cublas gemmStridedBatched 8x8x8 f32 batch 4");
	const struct node *d = node_ok(&r, "d");
	ck_assert(d->u.blas->device_mode);
	lib_label(d, label, sizeof label);
	ck_assert_str_eq(label, "cublas dot 100 f32");
	res_free(&r);
	free(text);
}
END_TEST

START_TEST(test_blas_errors_each)
{
	static const struct {
		const char *node, *want;
	} cases[] = {
		{"{gemm: {m: 64, n: 64, k: 64, A: x, B: x, C: y, ldc: 3}}",
		 "t.yaml:11:60: error: ldc 3 is less than the rows of C (64): it must be at "
		 "least max(1, 64)\n"},
		{"{gemm: {m: 64, n: 64, k: 65, A: x, B: x, C: y}}",
		 "t.yaml:11:45: error: A of cublas node 'cublas_1' runs past the end of buffer "
		 "'x': 64 x 65 with lda 64 needs 4160 elements from offset 0, and the buffer "
		 "has 4096\n"
		 "t.yaml:11:51: error: B of cublas node 'cublas_1' runs past the end of buffer "
		 "'x': 65 x 64 with ldb 65 needs 4160 elements from offset 0, and the buffer "
		 "has 4096\n"},
		{"{axpy: {n: 2049, alpha: 1, x: x, incx: 2, y: y}}",
		 "t.yaml:11:43: error: x of cublas node 'cublas_1' runs past the end of buffer "
		 "'x': 2049 elements with incx 2 needs 4097 elements from offset 0, and the "
		 "buffer has 4096\n"},
		{"{Dgemv: {m: 8, n: 8, A: x, x: x, y: y}}",
		 "t.yaml:11:37: error: Dgemv does not take f32 data (it takes f64)\n"},
		{"{gemm: {m: 8, n: 8, k: 8, A: x, B: x, C: y, alpha: r, beta: 0}}",
		 "t.yaml:11:73: error: beta of cublas node 'cublas_1' is a number and alpha a "
		 "buffer: the pointer mode is the call's, so give both as numbers (host) or "
		 "both as buffers (device)\n"},
		{"{gemmStridedBatched: {m: 8, n: 8, k: 8, A: x, B: x, C: y, batchCount: 2, "
		 "strideC: 63}}",
		 "t.yaml:11:86: error: strideC 63 is less than one C matrix (64 elements): the "
		 "batches' results would overlap\n"},
		{"{scal: {n: 8, alpha: z, x: x}}",
		 "t.yaml:11:34: error: alpha of cublas node 'cublas_1' is read from buffer 'z' "
		 "of f64, and the call's scalars are f32\n"},
		{"{copy: {n: 10, x: x, y: {buffer: x, offset: 5}}}",
		 "t.yaml:11:46: error: x and y of cublas node 'cublas_1' overlap in buffer 'x' "
		 "(elements 0 to 9 and 5 to 14): cuBLAS takes operands that do not\n"},
		{"{gemm: {m: 8, n: 8, k: 8, A: a, B: b, C: a, computeType: 32F_FAST_TF32}}",
		 "t.yaml:11:70: error: compute type 32F_FAST_TF32 does not take f16 A and B "
		 "into f16 C: it may be 16F, 16F_PEDANTIC, 32F, 32F_PEDANTIC\n"},
		{"{axpy: {n: 8, x: x, y: y, lda: 3, trans: N}}",
		 "t.yaml:11:39: error: 'lda' is not a parameter of axpy\n"
		 "t.yaml:11:47: error: 'trans' is not a parameter of axpy\n"},
		{"{gemm: {m: 8, k: 8, A: x, C: y}}",
		 "t.yaml:11:14: error: gemm needs 'n'\n"
		 "t.yaml:11:14: error: gemm needs 'B'\n"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char *text = xasprintf("%snodes:\n  - cublas: %s\n", buffers, cases[i].node);
		struct res r = load(text);
		ck_assert_msg(strcmp(r.msgs, cases[i].want) == 0, "case %zu: got\n%swant\n%s", i,
			      r.msgs, cases[i].want);
		res_free(&r);
		free(text);
	}
}
END_TEST

/* cuFFT's layouts: basic (in place padded), advanced, and the elements each side spans. */
START_TEST(test_fft_spans)
{
	char *text = xasprintf("%snodes:\n"
		"  - {id: ip, cufft: {type: R2C, n: 30, idata: x}}\n"
		"  - {id: op, cufft: {type: CUFFT_R2C, n: 30, idata: x, odata: y}}\n"
		"  - {id: cc, cufft: {type: C2C, n: [4, 8], batch: 3, idata: x, odata: y, "
		"direction: INVERSE}}\n"
		"  - {id: adv, cufft: {type: C2C, n: 8, inembed: 10, onembed: 8, idist: 10, odist: 8,\n"
		"                      batch: 3, idata: x, odata: y, direction: -1}}\n"
		"  - {id: cr, cufft: {type: C2R, n: [6, 6], idata: x, odata: y}}\n",
		buffers);
	struct res r = load(text);
	const struct fft_call *f = node_ok(&r, "ip")->u.fft;
	ck_assert(f->valid);
	/* in place: 30 reals read, 16 complex values (32 elements) written over them */
	ck_assert_uint_eq(f->in_elems, 30);
	ck_assert_uint_eq(f->out_elems, 32);
	ck_assert_int_eq(f->direction, FFT_FORWARD);
	f = node_ok(&r, "op")->u.fft;
	ck_assert_uint_eq(f->in_elems, 30);
	ck_assert_uint_eq(f->out_elems, 32);
	f = node_ok(&r, "cc")->u.fft;
	ck_assert_uint_eq(f->in_elems, 2 * 96);
	ck_assert_uint_eq(f->out_elems, 2 * 96);
	ck_assert_int_eq(f->idist, 32);
	f = node_ok(&r, "adv")->u.fft;
	/* batch 2 starts at 20, its last value at 27: 28 complex values */
	ck_assert_uint_eq(f->in_elems, 2 * 28);
	ck_assert_uint_eq(f->out_elems, 2 * 24);
	f = node_ok(&r, "cr")->u.fft;
	ck_assert_uint_eq(f->in_elems, 2 * 6 * 4);
	ck_assert_uint_eq(f->out_elems, 36);
	char label[256];
	lib_label(node_ok(&r, "cc"), label, sizeof label);
	ck_assert_str_eq(label, "cufft C2C 4x8 batch 3 inverse");
	lib_label(node_ok(&r, "ip"), label, sizeof label);
	ck_assert_str_eq(label, "cufft R2C 30 in place");
	res_free(&r);
	free(text);
}
END_TEST

START_TEST(test_fft_errors)
{
	static const struct {
		const char *node, *want;
	} cases[] = {
		{"{type: C2C, n: 4096, idata: x}",
		 "t.yaml:11:19: error: cufft node 'cufft_1' is C2C and needs 'direction' "
		 "(CUFFT_FORWARD or CUFFT_INVERSE)\n"},
		{"{type: C2C, n: 2049, idata: x, direction: FORWARD}",
		 "t.yaml:11:40: error: idata of cufft node 'cufft_1' runs past the end of "
		 "buffer 'x': its input of complex values, 1 batch, stride 1, distance 2049 "
		 "needs 4098 elements from offset 0, and the buffer has 4096\n"},
		{"{type: Z2Z, n: 8, idata: x, direction: FORWARD}",
		 "t.yaml:11:37: error: idata of cufft node 'cufft_1' is buffer 'x' of f32, and "
		 "a Z2Z transform takes f64 (complex values as pairs of them)\n"},
		{"{type: C2C, n: 8, idata: {buffer: x, offset: 1}, odata: y, direction: 1}",
		 "t.yaml:11:57: error: idata of cufft node 'cufft_1' starts at element 1 of "
		 "buffer 'x': complex values are pairs of elements, so it starts at an even "
		 "one\n"},
		{"{type: R2C, n: 8, idata: x, direction: INVERSE}",
		 "t.yaml:11:51: error: R2C transforms go FORWARD (CUFFT_FORWARD): direction "
		 "INVERSE does not go with them\n"},
		{"{type: C2C, n: 8, idata: x, odata: {buffer: x, offset: 2}, direction: 1}",
		 "t.yaml:11:56: error: idata and odata of cufft node 'cufft_1' overlap in "
		 "buffer 'x' without starting at one element: cuFFT transforms in place (one "
		 "start) or between separate data\n"},
		{"{type: C2C, n: [8, 8], inembed: [8, 4], onembed: [8, 8], idata: x, odata: y, "
		 "direction: 1}",
		 "t.yaml:11:35: error: inembed[1] is 4, less than the input side's dimension 8\n"},
		{"{type: C2C, n: 8, inembed: 8, idata: x, direction: 1}",
		 "t.yaml:11:30: error: 'inembed' and 'onembed' go together: cufftMakePlanMany "
		 "takes both or neither\n"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char *text = xasprintf("%snodes:\n  - cufft: %s\n", buffers, cases[i].node);
		struct res r = load(text);
		ck_assert_msg(strcmp(r.msgs, cases[i].want) == 0, "case %zu: got\n%swant\n%s", i,
			      r.msgs, cases[i].want);
		res_free(&r);
		free(text);
	}
}
END_TEST

/* The slot of node id after lib_slots. */
static uint32_t slot(const struct gdef *g, const uint32_t *slot_of, const char *id)
{
	for (size_t i = 0; i < g->nall_nodes; i++)
		if (strcmp(g->all_nodes[i]->id, id) == 0)
			return slot_of[i];
	ck_abort_msg("no node %s", id);
	return UINT32_MAX;
}

START_TEST(test_slots)
{
	char *text = xasprintf("%s"
		"conditions: {again: {default: 0}}\n"
		"nodes:\n"
		"  - {id: s, cublas: {scal: {n: 8, alpha: 2, x: x}}}\n"
		"  - {id: a, after: s, cublas: {scal: {n: 8, alpha: 2, x: x}}}\n"
		"  - {id: b, after: s, cublas: {scal: {n: 8, alpha: 2, x: y}}}\n"
		"  - {id: f, after: s, cufft: {type: C2C, n: 8, idata: y, direction: 1}}\n"
		"  - {id: j, after: [a, b, f], empty: {}}\n"
		"  - {id: t, after: j, cublas: {scal: {n: 8, alpha: 2, x: x}}}\n"
		"  - id: w\n"
		"    after: t\n"
		"    while:\n"
		"      condition: again\n"
		"      body:\n"
		"        - {id: in1, cublas: {scal: {n: 8, alpha: 2, x: x}}}\n"
		"        - {id: in2, cublas: {scal: {n: 8, alpha: 2, x: y}}}\n"
		"        - {id: in3, after: in1, cublas: {scal: {n: 8, alpha: 2, x: x}}}\n"
		"  - {id: u, after: w, cublas: {scal: {n: 8, alpha: 2, x: x}}}\n",
		buffers);
	struct res r = load(text);
	ck_assert_msg(r.ok, "%s", r.msgs);
	uint32_t *of = xcalloc(r.g->nall_nodes, sizeof *of);
	size_t n = lib_slots(r.g, of);
	/* a, b and f run at once: three slots, no more */
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(slot(r.g, of, "s"), 0);
	ck_assert_uint_eq(slot(r.g, of, "a"), 0);
	ck_assert_uint_eq(slot(r.g, of, "b"), 1);
	ck_assert_uint_eq(slot(r.g, of, "f"), 2);
	ck_assert_uint_eq(slot(r.g, of, "t"), 0);
	/* the body after t; in1 and in2 at once, in3 after in1 */
	ck_assert_uint_eq(slot(r.g, of, "in1"), 0);
	ck_assert_uint_eq(slot(r.g, of, "in2"), 1);
	ck_assert_uint_eq(slot(r.g, of, "in3"), 0);
	/* after the loop, which ends after everything in it */
	ck_assert_uint_eq(slot(r.g, of, "u"), 0);
	free(of);
	res_free(&r);
	free(text);
}
END_TEST

/* A point that changes a host-mode scalar, or moves nothing: what a sweep must recapture. */
START_TEST(test_change)
{
	char *a = xasprintf("%snodes:\n  - {id: s, cublas: {scal: {n: 8, alpha: 2, x: x}}}\n",
			    buffers);
	char *b = xasprintf("%snodes:\n  - {id: s, cublas: {scal: {n: 8, alpha: 3, x: x}}}\n",
			    buffers);
	struct res ra = load(a), rb = load(b), rc = load(a);
	const struct node *na = node_ok(&ra, "s"), *nb = node_ok(&rb, "s"), *nc = node_ok(&rc, "s");
	ck_assert_str_eq(lib_change(na, nb), "alpha");
	ck_assert_ptr_null(lib_change(na, nc));
	ck_assert(lib_node_names(na, "x"));
	ck_assert(!lib_node_names(na, "y"));
	res_free(&ra);
	res_free(&rb);
	res_free(&rc);
	free(a);
	free(b);
}
END_TEST

/* What a sweep does between two points (sweep_diff.h): a changed call or a moved operand rebuilds. */
START_TEST(test_sweep_diff)
{
	static const char text[] =
		"cugraphrun: 1\n"
		"axes:\n"
		"  zip: {n: [64, 64, 128, 128], a: [2, 3, 3, 3], step: [1, 2, 3, 4]}\n"
		"buffers: {x: {type: f32, count: \"${n}\"}}\n"
		"nodes: [{id: s, cublas: {scal: {n: 8, alpha: \"${a}\", x: x}}}]\n";
	char *msgs = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&msgs, &len);
	struct diag d;
	diag_init(&d, "t.yaml", out);
	struct sweep *sw = sweep_load_string("t.yaml", text, strlen(text), NULL, NULL, 0, &d);
	ck_assert_ptr_nonnull(sw);
	ck_assert(sweep_validate(sw, &d, NULL));
	fclose(out);
	ck_assert_msg(d.nerrors == 0, "%s", msgs);
	ck_assert_uint_eq(sw->npoints, 4);
	struct model_diff md;
	/* alpha 2 -> 3: a host scalar, fixed in the captured call */
	model_diff(sw->models[0], sw->models[1], &md);
	ck_assert(md.rebuild && !md.structural);
	ck_assert_msg(strstr(md.why, "cublas node 's' changed its 'alpha' (a library call is "
			     "captured again") != NULL, "%s", md.why);
	model_diff_free(&md);
	/* x allocated again under the call */
	model_diff(sw->models[1], sw->models[2], &md);
	ck_assert(md.rebuild && md.realloc[0]);
	ck_assert_msg(strstr(md.why, "cublas node 's' names buffer 'x', allocated again (a library "
			     "call is captured again)") != NULL, "%s", md.why);
	ck_assert(node_uses_buffer(sw->models[2]->all_nodes[0], 0));
	/* the profile counts the records of the kernels a library node's call launched */
	ck_assert(prof_kind_is_device_work(NK_CUBLAS) && prof_kind_is_device_work(NK_CUFFT));
	model_diff_free(&md);
	/* nothing changed: nothing to do */
	model_diff(sw->models[2], sw->models[3], &md);
	ck_assert(!md.rebuild && !md.structural && !md.any_realloc);
	model_diff_free(&md);
	sweep_release(sw);
	free(msgs);
}
END_TEST

START_TEST(test_peaks)
{
	const char *why;
	/* H100 SXM: 132 SMs at 1.98 GHz */
	double f16 = flops_peak(9, 0, 132, 1980000, FT_F16, &why);
	ck_assert_ptr_null(why);
	ck_assert_double_eq_tol(f16, 4096.0 * 132 * 1.98e9 / 1e12, 1e-6);
	ck_assert_double_eq_tol(flops_peak(8, 0, 108, 1410000, FT_TF32, &why), 155.9, 0.1);
	ck_assert(isnan(flops_peak(7, 5, 40, 1590000, FT_TF32, &why)));
	ck_assert_str_eq(why, "sm_75 has no tf32 units");
	ck_assert(isnan(flops_peak(10, 0, 148, 1900000, FT_F16, &why)));
	ck_assert_str_eq(why, "sm_100 is not in the peak table");
	struct flops_rate r = flops_of(2e12, 2e-3, 2000);
	ck_assert_double_eq_tol(r.tflop_per_s, 1000, 1e-9);
	ck_assert_double_eq_tol(r.peak_percent, 50, 1e-9);
	r = flops_of(2e12, NAN, 2000);
	ck_assert(isnan(r.tflop_per_s) && isnan(r.peak_percent));
}
END_TEST

#ifdef HAVE_CUDALIBS
/* The model's numbers are cuBLAS's and cuFFT's. */
START_TEST(test_enum_values)
{
	static const int computes[COMPUTE_COUNT] = {
		[COMPUTE_16F] = CUBLAS_COMPUTE_16F, [COMPUTE_16F_PEDANTIC] = CUBLAS_COMPUTE_16F_PEDANTIC,
		[COMPUTE_32F] = CUBLAS_COMPUTE_32F, [COMPUTE_32F_PEDANTIC] = CUBLAS_COMPUTE_32F_PEDANTIC,
		[COMPUTE_32F_FAST_16F] = CUBLAS_COMPUTE_32F_FAST_16F,
		[COMPUTE_32F_FAST_16BF] = CUBLAS_COMPUTE_32F_FAST_16BF,
		[COMPUTE_32F_FAST_TF32] = CUBLAS_COMPUTE_32F_FAST_TF32,
		[COMPUTE_64F] = CUBLAS_COMPUTE_64F, [COMPUTE_64F_PEDANTIC] = CUBLAS_COMPUTE_64F_PEDANTIC,
	};
	for (int k = 0; k < COMPUTE_COUNT; k++)
		ck_assert_int_eq(blas_compute_values[k], computes[k]);
	static const int types[FFT_TYPE_COUNT] = {
		[FFT_C2C] = CUFFT_C2C, [FFT_R2C] = CUFFT_R2C, [FFT_C2R] = CUFFT_C2R,
		[FFT_Z2Z] = CUFFT_Z2Z, [FFT_D2Z] = CUFFT_D2Z, [FFT_Z2D] = CUFFT_Z2D,
	};
	for (int t = 0; t < FFT_TYPE_COUNT; t++)
		ck_assert_int_eq(fft_type_values[t], types[t]);
	ck_assert_int_eq(blas_math_values[MATH_TF32], CUBLAS_TF32_TENSOR_OP_MATH);
	ck_assert_int_eq(blas_math_values[MATH_PEDANTIC], CUBLAS_PEDANTIC_MATH);
	ck_assert_str_eq(lib_file(LIB_CUBLAS), CUBLAS_LIB_NAME);
	ck_assert_str_eq(lib_file(LIB_CUFFT), CUFFT_LIB_NAME);
}
END_TEST

/*
 * The toolkit's libraries, opened as a run opens them: every entry point
 * found by its exported name, the version the headers' major.  Skipped,
 * saying so, where the toolkit has no libraries.
 */
START_TEST(test_open_real)
{
	char why[512];
	if (!lib_open(LIB_CUBLAS, why, sizeof why)) {
		fprintf(stderr, "check_lib: skipped: no cuBLAS here (%s)\n", why);
		return;
	}
	ck_assert_int_eq(cublas.major, CUBLAS_VER_MAJOR);
	ck_assert_ptr_nonnull(cublas.Create);
	ck_assert_ptr_nonnull(cublas.GemmStridedBatchedEx);
	ck_assert_ptr_nonnull(cublas.Dgemv);
	ck_assert_ptr_nonnull(cublas.path);
	/* the _v2 name, not the legacy API's */
	ck_assert_ptr_eq(*(void **)&cublas.SetStream, dlsym_of(cublas.path, "cublasSetStream_v2"));
	ck_assert_int_eq(strncmp(lib_blas_status(CUBLAS_STATUS_NOT_SUPPORTED),
				 "CUBLAS_STATUS_NOT_SUPPORTED (", 29), 0);
	ck_assert(lib_open(LIB_CUFFT, why, sizeof why));
	ck_assert_int_eq(cufft.version / 1000, CUFFT_VER_MAJOR);
	ck_assert_ptr_nonnull(cufft.MakePlanMany64);
	ck_assert_ptr_nonnull(cufft.ExecZ2D);
	ck_assert_str_eq(lib_fft_status(CUFFT_INVALID_SIZE),
			 "CUFFT_INVALID_SIZE (the transform size is not supported)");
}
END_TEST

/* A library that cannot be had: the reason, the same when asked again. */
START_TEST(test_open_missing)
{
	char why[512], again[512];
	setenv("CUGRAPHRUN_CUFFT", "/nonexistent/libcufft.so.12", 1);
	ck_assert(!lib_open(LIB_CUFFT, why, sizeof why));
	ck_assert_msg(strstr(why, "/nonexistent/libcufft.so.12") != NULL, "%s", why);
	ck_assert(!lib_open(LIB_CUFFT, again, sizeof again));
	ck_assert_str_eq(why, again);
	unsetenv("CUGRAPHRUN_CUFFT");
}
END_TEST
#endif

static Suite *lib_suite(void)
{
	Suite *s = suite_create("lib");
	TCase *tc = tcase_create("front");
	tcase_add_test(tc, test_routine_names);
	tcase_add_test(tc, test_gemm_defaults_and_label);
	tcase_add_test(tc, test_blas_errors_each);
	tcase_add_test(tc, test_fft_spans);
	tcase_add_test(tc, test_fft_errors);
	tcase_add_test(tc, test_slots);
	tcase_add_test(tc, test_change);
	tcase_add_test(tc, test_sweep_diff);
	tcase_add_test(tc, test_peaks);
	suite_add_tcase(s, tc);
#ifdef HAVE_CUDALIBS
	TCase *api = tcase_create("api");
	tcase_set_timeout(api, 60);
	tcase_add_test(api, test_enum_values);
	tcase_add_test(api, test_open_real);
	tcase_add_test(api, test_open_missing);
	suite_add_tcase(s, api);
#endif
	return s;
}

UNIT_MAIN(lib_suite)
