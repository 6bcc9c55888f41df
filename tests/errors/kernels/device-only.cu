// CUDA C++ with a device function and no kernel (no __global__).
__device__ int twice(int x)
{
	return 2 * x;
}
