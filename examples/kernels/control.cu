/*
 * Kernels that turn data into control flow (while-countdown.yaml,
 * if-else.yaml, switch.yaml).  The conditional handle is set elsewhere, by
 * builtin.set_from reading what these kernels wrote, so the decisions can
 * be checked after the launch like any other result.
 */

/* counter[0] += 1, from one thread: how many times a graph body ran. */
extern "C" __global__ void tick(unsigned *counter)
{
	if (blockIdx.x == 0 && threadIdx.x == 0)
		counter[0] += 1;
}

/*
 * flag[0] = 1 if x[0] + ... + x[n-1] > threshold, else 0.  One block;
 * blockDim.x a power of two, at most 1024.
 */
extern "C" __global__ void sum_exceeds(const float *x, int n, float threshold,
				       unsigned *flag)
{
	__shared__ float s[1024];
	float acc = 0.0f;
	for (int i = threadIdx.x; i < n; i += blockDim.x)
		acc += x[i];
	s[threadIdx.x] = acc;
	__syncthreads();
	for (unsigned w = blockDim.x / 2; w > 0; w /= 2) {
		if (threadIdx.x < w)
			s[threadIdx.x] += s[threadIdx.x + w];
		__syncthreads();
	}
	if (threadIdx.x == 0)
		flag[0] = s[0] > threshold ? 1u : 0u;
}

/*
 * cls[i] = the size class of a problem of size[i] elements, as a library
 * would pick a code path: 0 fits a warp (< 32), 1 a block (< 1024), 2 a
 * grid of blocks (< 65536), 3 a grid-stride loop (< 2^24), and 7 for sizes
 * no path handles (a SWITCH with four cases then runs none).
 */
extern "C" __global__ void size_class(const unsigned *size, unsigned *cls, int n)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += gridDim.x * blockDim.x) {
		unsigned s = size[i];
		cls[i] = s < 32u ? 0u : s < 1024u ? 1u : s < 65536u ? 2u :
		    s < (1u << 24) ? 3u : 7u;
	}
}
