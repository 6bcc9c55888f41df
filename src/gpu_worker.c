/*
 * A suite worker's one driver start (see suite.h): the parent never calls
 * CUDA, so the worker finds the GPU count for --devices=all here, and it
 * holds its GPU's primary context until it exits, so that each file's
 * gpu_open/gpu_close retain and release it without creating it anew.
 */
#include "config.h"

#include "cuda_api.h"
#include "gpu.h"

int gpu_worker_init(int device)
{
	/* the start, and its messages, of a lone file's gpu_open */
	int count = cu_start(device);
	CUdevice dev;
	CUcontext ctx;
	/* never released: a worker leaves with _exit, and the process's end frees it */
	if (count > 0 && cu.DeviceGet(&dev, device) == CUDA_SUCCESS)
		cu.DevicePrimaryCtxRetain(&ctx, dev);
	return count;
}
