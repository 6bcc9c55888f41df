/*
 * Kernels of the GPU test suite that use what only sm_90 has: bundle.sh
 * compiles files that say compute_90 here for compute_90 (PTX), sm_90
 * (cubin) and both (fatbin).  extern "C" keeps the names plain.
 */

/*
 * Programmatic dependent launch: let the next kernel launch at once, wait
 * for the one before, then *count += 1 by a plain read and write (a
 * missing wait would lose an update).
 */
extern "C" __global__ void step(unsigned *count)
{
	asm volatile("griddepcontrol.launch_dependents;");
	asm volatile("griddepcontrol.wait;" ::: "memory");
	if (threadIdx.x == 0)
		*(volatile unsigned *)count = *(volatile unsigned *)count + 1;
}

/*
 * ok[block] = 1 when the block's cluster has `a` or `b` blocks and its
 * rank is below that: a preferred cluster (b blocks) may stand in for a
 * regular one (a blocks) wherever the device can, so either is right.
 */
extern "C" __global__ void cluster_ok(unsigned *ok, unsigned a, unsigned b)
{
	unsigned r, n;
	asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
	asm volatile("mov.u32 %0, %%cluster_nctarank;" : "=r"(n));
	if (threadIdx.x == 0)
		ok[blockIdx.x] = (n == a || n == b) && r < n;
}
