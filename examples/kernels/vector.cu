/*
 * Element-wise vector kernels shared by several examples (if-else.yaml,
 * graph-memory.yaml).  Grid-stride loops: any grid covers any n.
 */

/* y[i] = s * x[i]. */
extern "C" __global__ void scale(const float *x, float *y, int n, float s)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += gridDim.x * blockDim.x)
		y[i] = s * x[i];
}

/* y[i] = x[i] + x[n-1-i]: an arithmetic sequence folds onto a constant. */
extern "C" __global__ void reverse_add(const float *x, float *y, int n)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += gridDim.x * blockDim.x)
		y[i] = x[i] + x[n - 1 - i];
}
