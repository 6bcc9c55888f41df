/*
 * Level-1 BLAS on the GPU, and a way to check it there (examples/saxpy.yaml).
 *
 * Both kernels use a grid-stride loop, so any grid covers any n: the YAML
 * can pick a grid for the GPU at hand without touching the code.
 */

/* out[i] = a * x[i] + y[i], rounded once (fused multiply-add). */
extern "C" __global__ void saxpy(int n, float a, const float *x, const float *y,
				 float *out)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += gridDim.x * blockDim.x)
		out[i] = fmaf(a, x[i], y[i]);
}

/*
 * err[0] = max(err[0], max |a[i] - b[i]|); err[0] must hold 0 (or any
 * non-negative float) before the launch.  Non-negative floats order like
 * their bit patterns, so an integer atomicMax on the bits is a float max;
 * each warp reduces first so that only one lane per warp touches memory.
 */
extern "C" __global__ void max_abs_diff(int n, const float *a, const float *b,
					float *err)
{
	float m = 0.0f;
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += gridDim.x * blockDim.x)
		m = fmaxf(m, fabsf(a[i] - b[i]));
	for (int off = 16; off > 0; off /= 2)
		m = fmaxf(m, __shfl_down_sync(0xffffffffu, m, off));
	if ((threadIdx.x & 31) == 0)
		atomicMax((unsigned int *)err, __float_as_uint(m));
}
