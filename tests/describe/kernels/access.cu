/*
 * Kernels for the buffer diagram's golden test (tests/describe/
 * access-buffers.yaml): one per way a kernel can use a pointer, so that
 * the PTX reading (src/ptx_access.h) is checked on what nvcc writes.
 * Never run.  The PTX beside it is made with
 *   nvcc -ptx -arch=compute_75 -o access.ptx access.cu
 */

/* out = in: reads in, writes out */
extern "C" __global__ void copy(const float *in, float *out, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		out[i] = in[i];
}

/* x *= a: reads and writes x */
extern "C" __global__ void scale(float *x, float a, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] *= a;
}

/* an atomic: reads and writes hits */
extern "C" __global__ void count(unsigned *hits)
{
	atomicAdd(hits, 1u);
}

/* the address itself is stored: what p's memory sees is not known */
extern "C" __global__ void keep(const float *p, unsigned long long *saved)
{
	saved[0] = (unsigned long long)p;
}

/* p is never used */
extern "C" __global__ void ignore(float *p)
{
}

/* a struct by value: src read, dst written through its fields */
struct move {
	const float *src;
	float *dst;
	int n;
};

extern "C" __global__ void gather(struct move m)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < m.n)
		m.dst[i] = m.src[m.n - 1 - i];
}

/* p handed to a function that is not inlined: not followed */
__device__ __noinline__ void bump(float *p)
{
	p[threadIdx.x] += 1.0f;
}

extern "C" __global__ void call(float *p)
{
	bump(p);
}
