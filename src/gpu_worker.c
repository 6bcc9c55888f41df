/*
 * A suite worker's one driver start (see suite.h): the parent never calls
 * CUDA, so the worker finds the GPU count for --devices=all here, and it
 * holds its GPU's primary context until it exits, so that each file's
 * gpu_open/gpu_close retain and release it without creating it anew.
 */
#include "config.h"

#include "cuda_api.h"
#include "diag.h"
#include "gpu.h"

int gpu_worker_init(int device)
{
	int count = 0;
	/* the messages a lone file's gpu_open gives */
	if (!cu_open())
		return -1;
	CUresult r = cu.Init(0);
	if (r == CUDA_ERROR_NO_DEVICE) {
		errorx("no CUDA device found (%s)", cu_strerror(r));
		return -1;
	}
	if (r == CUDA_SUCCESS)
		r = cu.DeviceGetCount(&count);
	if (r != CUDA_SUCCESS) {
		errorx("cannot initialise CUDA: %s", cu_strerror(r));
		return -1;
	}
	if (device >= count) {
		errorx("no CUDA device %d: this machine has %d (0 to %d)", device, count,
		       count - 1);
		return -2;
	}
	CUdevice dev;
	CUcontext ctx;
	/* never released: a worker leaves with _exit, and the process's end frees it */
	if (device < count && cu.DeviceGet(&dev, device) == CUDA_SUCCESS)
		cu.DevicePrimaryCtxRetain(&ctx, dev);
	return count;
}
