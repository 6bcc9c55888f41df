/*
 * Kernels of the sweep benchmarks (bench/sweep-bench.py, update_rules.c):
 * compiled to PTX by the GPU bundle (tests/gpu/bundle.sh).
 */
#include <cuda_runtime.h>

extern "C" __global__ void empty(void)
{
}

/* One argument that the kernel must read (a sweep over it changes the node). */
extern "C" __global__ void arg(int v)
{
	if (v == -123456789)
		asm volatile("trap;");
}

/* p[i] = v for i < n. */
extern "C" __global__ void fill(int *p, int n, int v)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
		p[i] = v;
}

/* p[i] = v + 1000 for i < n: another function of the same signature. */
extern "C" __global__ void fill2(int *p, int n, int v)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
		p[i] = v + 1000;
}

/* Sets a conditional handle. */
extern "C" __global__ void set_cond(cudaGraphConditionalHandle h, unsigned v)
{
	if (blockIdx.x == 0 && threadIdx.x == 0)
		cudaGraphSetConditional(h, v);
}
