/*
 * A block-wide sum whose block size is a compile-time constant: the YAML
 * sets BLOCK with defines: (examples/block-sum.yaml), so the shared array
 * and __launch_bounds__ fit the launch, and changing the block size is a
 * one-line edit of the YAML, not of the kernel.
 */
#include "warp_sum.cuh"

#ifndef BLOCK
#error "BLOCK must be defined (defines: {BLOCK: 256})"
#endif

/* sum[0] += x[0] + ... + x[n-1]; launch with blockDim.x == BLOCK. */
extern "C" __global__ void __launch_bounds__(BLOCK)
block_sum(const unsigned *x, int n, unsigned long long *sum)
{
	__shared__ unsigned long long part[BLOCK / 32];
	unsigned long long v = 0;
	for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += gridDim.x * BLOCK)
		v += x[i];
	v = warp_sum(v);
	if (threadIdx.x % 32 == 0)
		part[threadIdx.x / 32] = v;
	__syncthreads();
	if (threadIdx.x < 32) {
		v = threadIdx.x < BLOCK / 32 ? part[threadIdx.x] : 0;
		v = warp_sum(v);
		if (threadIdx.x == 0)
			atomicAdd(sum, v);
	}
}
