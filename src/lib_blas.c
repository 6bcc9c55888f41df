/*
 * A cublas node's call (lib_blas.h).
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "lib_blas.h"

size_t lib_blas_workspace(int cc_major)
{
	return (size_t)(cc_major >= 9 ? 32 : 4) << 20;
}

static const void *dptr(CUdeviceptr p)
{
	return (const void *)(uintptr_t)p;
}

/* A host-mode scalar in the scalars' type: as written, or its default (alpha 1, beta 0). */
static void host_scalar(const struct blas_call *c, enum blas_scal s, unsigned char out[8])
{
	struct num v = {.kind = NUM_UINT, .u = s == SC_ALPHA ? 1 : 0};
	char why[128];
	if (c->scalar[s].given && !c->scalar[s].device)
		v = c->scalar[s].value;
	memset(out, 0, 8);
	/* the validator checked that it fits */
	num_encode(&v, (enum elem_type)c->scale_type, out, why, sizeof why);
}

/* The handle's settings for this call. */
static cublasStatus_t settings(cublasHandle_t h, const struct blas_call *c,
			       const struct blas_args *a, CUstream s, const char **what)
{
	cublasStatus_t r;
	/* cublasSetStream puts the default workspace back: the workspace comes after it */
	*what = "cublasSetStream";
	if ((r = cublas.SetStream(h, s)) != CUBLAS_STATUS_SUCCESS)
		return r;
	*what = "cublasSetWorkspace";
	if ((r = cublas.SetWorkspace(h, (void *)(uintptr_t)a->workspace,
				     a->workspace_size)) != CUBLAS_STATUS_SUCCESS)
		return r;
	*what = "cublasSetPointerMode";
	if ((r = cublas.SetPointerMode(h, c->device_mode ? CUBLAS_POINTER_MODE_DEVICE :
				       CUBLAS_POINTER_MODE_HOST)) != CUBLAS_STATUS_SUCCESS)
		return r;
	*what = "cublasSetMathMode";
	return cublas.SetMathMode(h, (cublasMath_t)(c->has_math ? blas_math_values[c->math] :
						    CUBLAS_DEFAULT_MATH));
}

static cublasStatus_t gemm(cublasHandle_t h, const struct blas_call *c, const struct blas_args *a,
			   const void *alpha, const void *beta, const char **what)
{
	const int64_t *u = c->use;
	cublasOperation_t ta = (cublasOperation_t)c->trans[0], tb = (cublasOperation_t)c->trans[1];
	cublasComputeType_t k = (cublasComputeType_t)blas_compute_values[c->compute_used];
	cudaDataType at = lib_data_type((enum elem_type)c->type[OPND_A]);
	cudaDataType ct = lib_data_type((enum elem_type)c->type[OPND_C]);
	void *C = (void *)(uintptr_t)a->opnd[OPND_C];
	if (c->op == BLAS_GEMM) {
		*what = "cublasGemmEx";
		return cublas.GemmEx(h, ta, tb, (int)u[BI_M], (int)u[BI_N], (int)u[BI_K], alpha,
				     dptr(a->opnd[OPND_A]), at, (int)u[BI_LDA],
				     dptr(a->opnd[OPND_B]), at, (int)u[BI_LDB], beta, C, ct,
				     (int)u[BI_LDC], k, CUBLAS_GEMM_DEFAULT);
	}
	*what = "cublasGemmStridedBatchedEx";
	return cublas.GemmStridedBatchedEx(h, ta, tb, (int)u[BI_M], (int)u[BI_N], (int)u[BI_K],
					   alpha, dptr(a->opnd[OPND_A]), at, (int)u[BI_LDA],
					   (long long)u[BI_STRIDEA], dptr(a->opnd[OPND_B]), at,
					   (int)u[BI_LDB], (long long)u[BI_STRIDEB], beta, C, ct,
					   (int)u[BI_LDC], (long long)u[BI_STRIDEC],
					   (int)u[BI_BATCH], k, CUBLAS_GEMM_DEFAULT);
}

static cublasStatus_t gemv(cublasHandle_t h, const struct blas_call *c, const struct blas_args *a,
			   const void *alpha, const void *beta, const char **what)
{
	const int64_t *u = c->use;
	cublasOperation_t t = (cublasOperation_t)c->trans[0];
	if (c->type[OPND_A] == ET_F64) {
		*what = "cublasDgemv";
		return cublas.Dgemv(h, t, (int)u[BI_M], (int)u[BI_N], alpha,
				    dptr(a->opnd[OPND_A]), (int)u[BI_LDA], dptr(a->opnd[OPND_X]),
				    (int)u[BI_INCX], beta, (double *)(uintptr_t)a->opnd[OPND_Y],
				    (int)u[BI_INCY]);
	}
	*what = "cublasSgemv";
	return cublas.Sgemv(h, t, (int)u[BI_M], (int)u[BI_N], alpha, dptr(a->opnd[OPND_A]),
			    (int)u[BI_LDA], dptr(a->opnd[OPND_X]), (int)u[BI_INCX], beta,
			    (float *)(uintptr_t)a->opnd[OPND_Y], (int)u[BI_INCY]);
}

/* Level 1: the Ex routines, data of the operands' type, scalars and execution in f32 or f64. */
static cublasStatus_t level1(cublasHandle_t h, const struct blas_call *c, const struct blas_args *a,
			     const void *alpha, const char **what)
{
	const int64_t *u = c->use;
	int n = (int)u[BI_N], incx = (int)u[BI_INCX], incy = (int)u[BI_INCY];
	cudaDataType t = lib_data_type((enum elem_type)c->type[OPND_X]);
	cudaDataType e = lib_data_type((enum elem_type)c->exec_type);
	cudaDataType st = lib_data_type((enum elem_type)c->scale_type);
	const void *x = dptr(a->opnd[OPND_X]);
	void *y = (void *)(uintptr_t)a->opnd[OPND_Y];
	void *res = (void *)(uintptr_t)a->opnd[OPND_RESULT];
	switch ((enum blas_op)c->op) {
	case BLAS_AXPY:
		*what = "cublasAxpyEx";
		return cublas.AxpyEx(h, n, alpha, st, x, t, incx, y, t, incy, e);
	case BLAS_COPY:
		*what = "cublasCopyEx";
		return cublas.CopyEx(h, n, x, t, incx, y, t, incy);
	case BLAS_DOT:
		*what = "cublasDotEx";
		return cublas.DotEx(h, n, x, t, incx, dptr(a->opnd[OPND_Y]), t, incy, res, t, e);
	case BLAS_NRM2:
		*what = "cublasNrm2Ex";
		return cublas.Nrm2Ex(h, n, x, t, incx, res, t, e);
	case BLAS_SCAL:
		*what = "cublasScalEx";
		return cublas.ScalEx(h, n, alpha, st, (void *)(uintptr_t)a->opnd[OPND_X], t, incx, e);
	default:
		*what = "cuBLAS";
		return CUBLAS_STATUS_NOT_SUPPORTED;
	}
}

cublasStatus_t lib_blas_issue(cublasHandle_t h, const struct blas_call *c,
			      const struct blas_args *a, CUstream s, const char **what)
{
	cublasStatus_t r = settings(h, c, a, s, what);
	if (r != CUBLAS_STATUS_SUCCESS)
		return r;
	/* host: the values, read now; device: the buffers' elements, read when the graph runs */
	unsigned char hv[SC_COUNT][8];
	const void *sc[SC_COUNT];
	for (int k = 0; k < SC_COUNT; k++) {
		host_scalar(c, (enum blas_scal)k, hv[k]);
		sc[k] = c->device_mode ? dptr(a->scalar[k]) : hv[k];
	}
	switch ((enum blas_op)c->op) {
	case BLAS_GEMM:
	case BLAS_GEMM_BATCHED:
		return gemm(h, c, a, sc[SC_ALPHA], sc[SC_BETA], what);
	case BLAS_GEMV:
		return gemv(h, c, a, sc[SC_ALPHA], sc[SC_BETA], what);
	default:
		return level1(h, c, a, sc[SC_ALPHA], what);
	}
}
