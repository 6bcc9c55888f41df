/*
 * Looking at graph-owned memory from inside the graph
 * (examples/graph-memory.yaml).  An alloc node fixes its buffer's address
 * when the graph is built; a later alloc may get the same address once the
 * first is freed.  These kernels record an address and compare another
 * with it, so a check can prove the reuse.
 */

/* saved[0] = the address p. */
extern "C" __global__ void save_addr(const void *p, unsigned long long *saved)
{
	if (blockIdx.x == 0 && threadIdx.x == 0)
		saved[0] = (unsigned long long)p;
}

/* same[0] = 1 if p is the address in saved[0], else 0. */
extern "C" __global__ void same_addr(const void *p,
				     const unsigned long long *saved,
				     unsigned *same)
{
	if (blockIdx.x == 0 && threadIdx.x == 0)
		same[0] = (unsigned long long)p == saved[0] ? 1u : 0u;
}
