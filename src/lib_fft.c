/*
 * A cufft node's plan and execution (lib_fft.h).
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "lib_fft.h"

cufftResult lib_fft_plan(const struct fft_call *f, cufftHandle *plan, size_t *work,
			 const char **what)
{
	long long n[3], in[3], on[3];
	for (unsigned i = 0; i < 3; i++) {
		n[i] = f->n[i];
		in[i] = f->inembed[i];
		on[i] = f->onembed[i];
	}
	*what = "cufftCreate";
	cufftResult r = cufft.Create(plan);
	if (r != CUFFT_SUCCESS)
		return r;
	*what = "cufftSetAutoAllocation";
	r = cufft.SetAutoAllocation(*plan, 0);
	if (r == CUFFT_SUCCESS) {
		*what = "cufftMakePlanMany64";
		bool embeds = f->inembed_rank != 0;
		r = cufft.MakePlanMany64(*plan, (int)f->rank, n, embeds ? in : NULL, f->istride,
					 f->idist, embeds ? on : NULL, f->ostride, f->odist,
					 (cufftType)fft_type_values[f->type], f->batch, work);
	}
	if (r != CUFFT_SUCCESS) {
		cufft.Destroy(*plan);
		*plan = 0;
	}
	return r;
}

cufftResult lib_fft_issue(cufftHandle plan, const struct fft_call *f, CUdeviceptr in,
			  CUdeviceptr out, CUdeviceptr work, CUstream s, const char **what)
{
	*what = "cufftSetStream";
	cufftResult r = cufft.SetStream(plan, s);
	if (r != CUFFT_SUCCESS)
		return r;
	/* a plan that needs no work area (cufftMakePlanMany64 said 0) is given none */
	*what = "cufftSetWorkArea";
	if (work && (r = cufft.SetWorkArea(plan, (void *)(uintptr_t)work)) != CUFFT_SUCCESS)
		return r;
	void *i = (void *)(uintptr_t)in, *o = (void *)(uintptr_t)out;
	int dir = f->direction == FFT_FORWARD ? CUFFT_FORWARD : CUFFT_INVERSE;
	switch ((enum fft_type)f->type) {
	case FFT_C2C:
		*what = "cufftExecC2C";
		return cufft.ExecC2C(plan, i, o, dir);
	case FFT_R2C:
		*what = "cufftExecR2C";
		return cufft.ExecR2C(plan, i, o);
	case FFT_C2R:
		*what = "cufftExecC2R";
		return cufft.ExecC2R(plan, i, o);
	case FFT_Z2Z:
		*what = "cufftExecZ2Z";
		return cufft.ExecZ2Z(plan, i, o, dir);
	case FFT_D2Z:
		*what = "cufftExecD2Z";
		return cufft.ExecD2Z(plan, i, o);
	case FFT_Z2D:
		*what = "cufftExecZ2D";
		return cufft.ExecZ2D(plan, i, o);
	case FFT_TYPE_COUNT:
		break;
	}
	*what = "cuFFT";
	return CUFFT_INVALID_TYPE;
}

bool lib_fft_same_plan(const struct fft_call *a, const struct fft_call *b)
{
	return a->type == b->type && a->rank == b->rank &&
	       memcmp(a->n, b->n, sizeof a->n) == 0 && a->inembed_rank == b->inembed_rank &&
	       memcmp(a->inembed, b->inembed, sizeof a->inembed) == 0 &&
	       a->onembed_rank == b->onembed_rank &&
	       memcmp(a->onembed, b->onembed, sizeof a->onembed) == 0 && a->batch == b->batch &&
	       a->istride == b->istride && a->idist == b->idist && a->ostride == b->ostride &&
	       a->odist == b->odist;
}
