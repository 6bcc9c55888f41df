/*
 * One cufft node's plan and execution (cugraphrun(5), Library nodes).
 * The plan is made before any capture (cufftMakePlanMany64 allocates),
 * without a work area of its own (cufftSetAutoAllocation 0): the caller
 * gives it one, shared with the nodes that never run beside it
 * (model_lib.h, lib_slots).  The direction is the execution's, so one
 * plan serves a forward and an inverse transform alike.  No struct gpu
 * here: the current context is the plan's device.
 */
#ifndef CGR_LIB_FFT_H
#define CGR_LIB_FFT_H

#include "lib_api.h"
#include "model_lib.h"

/*
 * The plan of validated call f in the current context, and the work area
 * it needs in *work.  CUFFT_SUCCESS, or the status with *what the call
 * that gave it (no plan is left then).
 */
cufftResult lib_fft_plan(const struct fft_call *f, cufftHandle *plan, size_t *work,
			 const char **what);
/* f's transform with plan on stream s, from in to out, in the work area. */
cufftResult lib_fft_issue(cufftHandle plan, const struct fft_call *f, CUdeviceptr in,
			  CUdeviceptr out, CUdeviceptr work, CUstream s, const char **what);
/* Do two calls make the same plan (type, sizes, layout, batch)? */
bool lib_fft_same_plan(const struct fft_call *a, const struct fft_call *b);

#endif
