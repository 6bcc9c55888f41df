/*
 * Kernels of examples/two-gpus.yaml, which splits a vector across two GPUs.
 * Grid-stride loops: any grid covers any n.
 */

/* y[i] = a * x[i] + b. */
extern "C" __global__ void axpb(const float *x, float *y, int n, float a, float b)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += gridDim.x * blockDim.x)
		y[i] = a * x[i] + b;
}

/* out[i] = x[i] + y[n-1-i]: the two halves of an affine sequence fold onto a constant. */
extern "C" __global__ void fold(const float *x, const float *y, float *out, int n)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += gridDim.x * blockDim.x)
		out[i] = x[i] + y[n - 1 - i];
}
