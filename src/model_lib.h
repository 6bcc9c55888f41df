/*
 * Library calls in a graph (cugraphrun(5), Library nodes): the plain C
 * picture of a cublas node (one cuBLAS routine) and a cufft node (one
 * cuFFT plan and its execution), with no cuBLAS, cuFFT or CUDA types in
 * it, so that the loader, the validator and --describe use it without a
 * GPU or the libraries.  Parameters keep the names the libraries'
 * documentation gives them (transa, lda, strideA, batchCount, incx; n,
 * inembed, idist, idata), in tables indexed by the enums below, and each
 * routine's table row (blas_specs) says which it takes: the loader reads
 * every name into any call, the validator refuses those the routine does
 * not take.
 *
 * Ownership: a node's struct blas_call or struct fft_call lives in the
 * gdef's arena (node.u.blas, node.u.fft), as its strings do.  Fields
 * marked "validator:" are filled in by validate_lib.c; the rest is what
 * the file wrote.
 */
#ifndef CGR_MODEL_LIB_H
#define CGR_MODEL_LIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"

/* --- cuBLAS --- */

/* The routines, by their names without type letter (cuBLAS: cublas<t>gemm). */
enum blas_op {
	BLAS_GEMM, BLAS_GEMM_BATCHED, BLAS_GEMV, BLAS_AXPY, BLAS_COPY, BLAS_DOT, BLAS_NRM2,
	BLAS_SCAL, BLAS_OP_COUNT
};
extern const char *const blas_op_names[BLAS_OP_COUNT];

/* Matrix and vector operands, named as cuBLAS names them ("A", "x", "result"). */
enum blas_opnd { OPND_A, OPND_B, OPND_C, OPND_X, OPND_Y, OPND_RESULT, OPND_COUNT };
extern const char *const blas_opnd_names[OPND_COUNT];

/* Integer parameters: dimensions, leading dimensions, strides, increments. */
enum blas_int {
	BI_M, BI_N, BI_K, BI_LDA, BI_LDB, BI_LDC, BI_STRIDEA, BI_STRIDEB, BI_STRIDEC,
	BI_BATCH, BI_INCX, BI_INCY, BI_COUNT
};
extern const char *const blas_int_names[BI_COUNT];

/* Scalars: alpha and beta. */
enum blas_scal { SC_ALPHA, SC_BETA, SC_COUNT };
extern const char *const blas_scal_names[SC_COUNT];

/* cublasOperation_t: N, T, C (CUBLAS_OP_N ...), in its order. */
enum blas_trans { TRANS_N, TRANS_T, TRANS_C, TRANS_COUNT };
extern const char *const blas_trans_names[TRANS_COUNT];

/*
 * cublasComputeType_t, in the format's order; blas_compute_values gives
 * cuBLAS's numbers (CUBLAS_COMPUTE_32F_FAST_TF32 is 77).  Names are
 * written with or without the CUBLAS_COMPUTE_ prefix.
 */
enum blas_compute {
	COMPUTE_16F, COMPUTE_16F_PEDANTIC, COMPUTE_32F, COMPUTE_32F_PEDANTIC,
	COMPUTE_32F_FAST_16F, COMPUTE_32F_FAST_16BF, COMPUTE_32F_FAST_TF32, COMPUTE_64F,
	COMPUTE_64F_PEDANTIC, COMPUTE_COUNT
};
extern const char *const blas_compute_names[COMPUTE_COUNT];     /* "32F_FAST_TF32" */
extern const int blas_compute_values[COMPUTE_COUNT];

/* cublasMath_t, with or without the CUBLAS_ prefix; cuBLAS's numbers. */
enum blas_math { MATH_DEFAULT, MATH_PEDANTIC, MATH_TF32, MATH_COUNT };
extern const char *const blas_math_names[MATH_COUNT];   /* "DEFAULT_MATH" ... */
extern const int blas_math_values[MATH_COUNT];

/* Which parameters a routine takes (blas_specs[op]). */
struct blas_spec {
	const char *name;               /* "gemm" */
	unsigned ints;                  /* bits 1u << enum blas_int it takes */
	unsigned ints_required;         /* of them, those without a default */
	unsigned opnds;                 /* bits 1u << enum blas_opnd, all required */
	unsigned scalars;               /* bits 1u << enum blas_scal */
	unsigned ntrans;                /* 0, 1 (trans) or 2 (transa, transb) */
	bool compute;                   /* takes computeType */
	const char *letters;            /* type letters its typed names take ("SDH") */
	bool has_ex;                    /* cuBLAS has an Ex form (GemmEx) */
};
extern const struct blas_spec blas_specs[BLAS_OP_COUNT];

/* Does the routine write operand o (C, result, y but dot's, scal's x)? */
bool blas_writes(const struct blas_call *c, enum blas_opnd o);

/* A buffer operand: a buffer, and the element it starts at. */
struct lib_operand {
	struct name_ref buffer;         /* name NULL: not written */
	uint64_t offset;                /* elements */
	struct pos offset_pos;
};

/*
 * alpha or beta: a number (the host pointer mode: fixed when the node is
 * captured) or an element of a buffer (the device pointer mode: read when
 * the graph runs).
 */
struct lib_scalar {
	bool given;
	bool device;                    /* a buffer element: opnd */
	struct num value;               /* a number */
	struct lib_operand opnd;
	struct pos pos;
};

struct blas_call {
	uint8_t op;                     /* enum blas_op */
	char letter;                    /* 'S', 'D', 'H' of a typed name (Sgemm), else 0 */
	char *routine;                  /* the routine's key, as written */
	struct pos op_pos;
	uint8_t trans[2];               /* enum blas_trans: transa, transb (gemv: trans) */
	struct pos trans_pos[2];
	unsigned trans_set;
	int64_t ints[BI_COUNT];
	struct pos int_pos[BI_COUNT];
	unsigned ints_set;              /* bit i: ints[i] written */
	struct lib_operand opnd[OPND_COUNT];
	struct lib_scalar scalar[SC_COUNT];
	bool has_compute, has_math;
	uint8_t compute;                /* enum blas_compute */
	uint8_t math;                   /* enum blas_math */
	struct pos compute_pos, math_pos;
	/* validator: the values used (defaults filled in), when valid */
	bool valid;
	bool device_mode;               /* CUBLAS_POINTER_MODE_DEVICE */
	int64_t use[BI_COUNT];
	uint8_t type[OPND_COUNT];       /* enum elem_type of each operand given */
	uint8_t scale_type;             /* enum elem_type of alpha and beta */
	uint8_t exec_type;              /* level 1: the execution type (f32 or f64) */
	uint8_t compute_used;           /* gemm: enum blas_compute */
};

/* --- cuFFT --- */

/* cufftType, in the format's order (CUFFT_C2C ...); cuFFT's numbers. */
enum fft_type { FFT_C2C, FFT_R2C, FFT_C2R, FFT_Z2Z, FFT_D2Z, FFT_Z2D, FFT_TYPE_COUNT };
extern const char *const fft_type_names[FFT_TYPE_COUNT];        /* "C2C" */
extern const int fft_type_values[FFT_TYPE_COUNT];

/* The directions: CUFFT_FORWARD (-1) and CUFFT_INVERSE (1). */
enum fft_dir { FFT_FORWARD, FFT_INVERSE, FFT_DIR_COUNT };
extern const char *const fft_dir_names[FFT_DIR_COUNT];          /* "FORWARD" */

/* The integer parameters of cufftMakePlanMany beside n and the embeds. */
enum fft_int { FI_ISTRIDE, FI_IDIST, FI_OSTRIDE, FI_ODIST, FI_BATCH, FI_COUNT };
extern const char *const fft_int_names[FI_COUNT];

struct fft_call {
	uint8_t type;                   /* enum fft_type */
	bool has_type;
	struct pos type_pos;
	unsigned rank;                  /* 1 to 3: how many n gives; 0: not read */
	int64_t n[3];
	struct pos n_pos;
	unsigned inembed_rank, onembed_rank;    /* 0: not written */
	int64_t inembed[3], onembed[3];
	struct pos inembed_pos, onembed_pos;
	int64_t ints[FI_COUNT];
	struct pos int_pos[FI_COUNT];
	unsigned ints_set;
	struct lib_operand idata, odata;
	bool has_direction;
	uint8_t direction;              /* enum fft_dir */
	struct pos direction_pos;
	/* validator, when valid: the layout used, and the elements each side spans */
	bool valid;
	int64_t batch, istride, idist, ostride, odist;
	uint64_t in_elems, out_elems;   /* buffer elements (a complex value is two) */
	uint8_t real_type;              /* f32 or f64 */
};

/* Is a transform of this type double precision, real to complex, complex to real? */
bool fft_is_double(enum fft_type t);
bool fft_real_in(enum fft_type t);
bool fft_real_out(enum fft_type t);

/* --- both --- */

/*
 * Each buffer a library node names (operands, device scalars), with
 * whether the call writes it: fn(ctx, ref, writes).  The node must be a
 * cublas or cufft node; refs not written are skipped.
 */
typedef void lib_use_fn(void *ctx, struct name_ref *ref, struct pos pos, bool writes);
void lib_node_uses(const struct node *n, lib_use_fn *fn, void *ctx);
/* Does library node n name buffer (by name)? */
bool lib_node_names(const struct node *n, const char *buffer);

/*
 * What --describe says of a validated node, one line:
 * "cublas gemm 4096x4096x4096 f16->f32", "cufft C2C 16777216 forward".
 * Parameters that are not valid are said as written, or "?".
 */
void lib_label(const struct node *n, char *buf, size_t len);

/*
 * Give node n (of g, a derived model) its own copy of its call, in g's
 * arena: a derived model's node shares its base's until its values are
 * checked again (model_derive.h), and the check fills in fields.
 */
void lib_node_own(struct gdef *g, struct node *n);

/*
 * Work areas: cuBLAS's workspace and cuFFT's work area, which a library
 * node's kernels use while it runs and which two nodes may share only
 * when one always ends before the other begins.  A validated g's library
 * nodes, each given a slot in slot_of[all_nodes index] (other nodes'
 * entries are left alone), such that the nodes of one slot run on one
 * device and each is ordered after the one before by the dependencies of
 * the graphs (a node inside a child graph or a conditional body after
 * what its holder depends on, and before what depends on its holder).
 * The number of slots, the most library nodes that can run at once on a
 * device at most, or 0 for none; a greedy colouring, in the order the
 * graphs run.  Memory: a bit per library node per node.
 */
size_t lib_slots(const struct gdef *g, uint32_t *slot_of);

/* Do the two calls of two points of a sweep differ?  The first key that does, or NULL. */
const char *lib_change(const struct node *a, const struct node *b);

#endif
