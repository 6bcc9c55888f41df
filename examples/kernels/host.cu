/*
 * Kernels that write memory the host reads directly
 * (examples/host-actions.yaml): managed memory, and pinned host memory
 * mapped into the device's address space (zero-copy).
 */

/* out[i] = i * i. */
extern "C" __global__ void squares(int *out, int n)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += gridDim.x * blockDim.x)
		out[i] = i * i;
}

/* out[i] = in[i] + k; in and out may be pinned host memory. */
extern "C" __global__ void add_scalar(const int *in, int *out, int n, int k)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += gridDim.x * blockDim.x)
		out[i] = in[i] + k;
}
