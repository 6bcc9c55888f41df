/*
 * Thread block clusters (sm_90): each block writes its rank in its
 * cluster (%cluster_ctarank) and its cluster's size (%cluster_nctarank),
 * so a check can see how the grid was cut.  Compiled for compute_90
 * (Makefile.am).
 */
extern "C" __global__ void cluster_rank(unsigned *rank, unsigned *size)
{
	unsigned r, n;
	asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
	asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(n));
	unsigned b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
	if (threadIdx.x == 0) {
		rank[b] = r;
		size[b] = n;
	}
}
