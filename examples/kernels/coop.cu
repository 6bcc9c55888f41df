/*
 * A barrier across the whole grid, which only a cooperative launch makes
 * safe: every block must be resident at once, or those that arrived
 * first would spin while the rest wait for their multiprocessors.  Each
 * block writes its own value, meets every other at the barrier, then
 * reads its neighbour's: out[b] = in[(b + 1) % blocks] = 10 * ((b + 1) %
 * blocks).  *arrived must be 0 before each launch (a memset node).
 */
extern "C" __global__ void grid_rotate(unsigned *in, unsigned *out, unsigned *arrived)
{
	unsigned b = blockIdx.x, n = gridDim.x;
	if (threadIdx.x != 0)
		return;
	((volatile unsigned *)in)[b] = 10 * b;
	__threadfence();
	atomicAdd(arrived, 1);
	while (atomicAdd(arrived, 0) < n)
		;
	__threadfence();
	out[b] = ((volatile unsigned *)in)[(b + 1) % n];
}
