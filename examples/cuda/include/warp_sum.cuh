/* A warp's sum by shuffles, for examples/cuda/block_sum.cu (found through include:). */
#pragma once

__device__ inline unsigned long long warp_sum(unsigned long long v)
{
	for (int off = 16; off > 0; off /= 2)
		v += __shfl_down_sync(0xffffffffu, v, off);
	return v;
}
