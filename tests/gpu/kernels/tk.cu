/*
 * Kernels of the GPU test suite (tests/gpu/cases).  bundle.sh compiles
 * this file three ways, to tk.ptx, tk.cubin (sm_90) and tk.fatbin, so
 * that every module format is loaded by some case.  Each kernel leaves a
 * result a check can read: the suite tests what ran, not only that
 * something did.  extern "C" keeps the names plain.
 */
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <stdint.h>

/* x[0] += 1, once per launch whatever the grid. */
extern "C" __global__ void add_one(int *x)
{
	if (blockIdx.x == 0 && threadIdx.x == 0)
		atomicAdd(x, 1);
}

/* x[i] += v for every i < n. */
extern "C" __global__ void add_n(int *x, int n, int v)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		x[i] += v;
}

/*
 * Append tag to a log: log[0] counts entries, log[1 + k] is the k-th tag,
 * for the first cap entries (the log's count - 1).
 * Branch choices and iteration orders show up as the exact sequence.
 */
extern "C" __global__ void mark(int *log, int tag, int cap)
{
	if (blockIdx.x == 0 && threadIdx.x == 0) {
		int k = atomicAdd(log, 1);
		/* the log is sized for one launch; later ones only count */
		if (k < cap)
			log[1 + k] = tag;
	}
}

/* out[linear thread id] = linear thread id, over a 3-D grid of 3-D blocks. */
extern "C" __global__ void ids(int *out)
{
	int bx = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
	int nt = blockDim.x * blockDim.y * blockDim.z;
	int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
	out[bx * nt + t] = bx * nt + t;
}

/* Sum in through dynamic shared memory: out[0] = sum of in[0..blockDim). */
extern "C" __global__ void shared_sum(const int *in, int *out)
{
	extern __shared__ int s[];
	s[threadIdx.x] = in[threadIdx.x];
	__syncthreads();
	if (threadIdx.x == 0) {
		int sum = 0;
		for (unsigned i = 0; i < blockDim.x; i++)
			sum += s[i];
		out[0] = sum;
	}
}

struct mix {
	char c;
	double d;
	short s;
};

/*
 * Every argument form: scalars of several widths, a struct with padding,
 * raw bytes, a buffer with an offset.  out receives each value as a
 * double, in order.
 */
extern "C" __global__ void args(double *out, int8_t a, uint16_t b, int c, float f,
				long long d, double e, struct mix m, unsigned raw)
{
	out[0] = a;
	out[1] = b;
	out[2] = c;
	out[3] = f;
	out[4] = (double)d;
	out[5] = e;
	out[6] = m.c;
	out[7] = m.d;
	out[8] = m.s;
	out[9] = raw;
}

/* A half and a bf16 argument, widened. */
extern "C" __global__ void halves(float *out, unsigned short h, unsigned short bf)
{
	__half_raw r;
	r.x = h;
	out[0] = __half2float(__half(r));
	unsigned int bits = (unsigned int)bf << 16;
	out[1] = __uint_as_float(bits);
}

/* Store a pointer's value, to compare addresses of graph allocations. */
extern "C" __global__ void store_ptr(unsigned long long *out, const void *p)
{
	*out = (unsigned long long)p;
}

/* flag[0] = (a[0] == a[1]). */
extern "C" __global__ void same(int *flag, const unsigned long long *a)
{
	flag[0] = a[0] == a[1];
}

/* p[i] = v for i < n. */
extern "C" __global__ void fill(int *p, int n, int v)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		p[i] = v;
}

/* dst[i] = src[i] * k for i < n. */
extern "C" __global__ void scale(int *dst, const int *src, int n, int k)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
		dst[i] = src[i] * k;
}

/* Spin for about ns nanoseconds of GPU time, so that event spans are visible. */
extern "C" __global__ void spin(unsigned long long ns)
{
	unsigned long long t0;
	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
	for (;;) {
		unsigned long long t;
		asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
		if (t - t0 >= ns)
			break;
	}
}

/* Does nothing: a WHILE body that never clears its condition. */
extern "C" __global__ void nothing(void)
{
}

/* Traps: the launch fails with an illegal instruction. */
extern "C" __global__ void trap(void)
{
	asm volatile("trap;");
}

/* Sets a handle to v, from one thread. */
extern "C" __global__ void set_cond(cudaGraphConditionalHandle h, unsigned v)
{
	if (blockIdx.x == 0 && threadIdx.x == 0)
		cudaGraphSetConditional(h, v);
}

/* p[0] ^= 1: a flag that alternates from one iteration to the next. */
extern "C" __global__ void toggle(int *p)
{
	if (blockIdx.x == 0 && threadIdx.x == 0)
		p[0] ^= 1;
}
