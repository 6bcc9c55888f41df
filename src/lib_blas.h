/*
 * One cublas node's call on a stream (cugraphrun(5), Library nodes): the
 * handle's settings for this node (stream, workspace, pointer mode, math
 * mode) and then its routine, by the Ex routines with the operands'
 * types (cublasGemmEx, cublasGemmStridedBatchedEx, cublasAxpyEx,
 * cublasCopyEx, cublasDotEx, cublasNrm2Ex, cublasScalEx) and cublasSgemv
 * or cublasDgemv.  Settings go with every call: the handle is the
 * device's, shared by its nodes, and a stream's capture records what is
 * set when each call is made (a host-mode scalar's value among them).
 * No struct gpu here: addresses come in, a status goes out.
 */
#ifndef CGR_LIB_BLAS_H
#define CGR_LIB_BLAS_H

#include "lib_api.h"
#include "model_lib.h"

/* What a call is given: device addresses of its operands and device scalars, its workspace. */
struct blas_args {
	CUdeviceptr opnd[OPND_COUNT];   /* 0 for those the routine does not take */
	CUdeviceptr scalar[SC_COUNT];   /* the device pointer mode's */
	CUdeviceptr workspace;
	size_t workspace_size;
};

/*
 * Validated call c through handle h on stream s.  CUBLAS_STATUS_SUCCESS,
 * or the first status that is not, with *what the call that gave it
 * ("cublasGemmEx", "cublasSetWorkspace").
 */
cublasStatus_t lib_blas_issue(cublasHandle_t h, const struct blas_call *c,
			      const struct blas_args *a, CUstream s, const char **what);

/* The workspace one call is given: 32 MiB from compute capability 9.0 on, 4 MiB before (cuBLAS's advice). */
size_t lib_blas_workspace(int cc_major);

#endif
