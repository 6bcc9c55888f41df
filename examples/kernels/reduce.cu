/*
 * Two-stage reductions (examples/reduction.yaml, examples/graph-memory.yaml).
 *
 * Stage one runs many blocks over the input; each block folds its share
 * into one value in dynamic shared memory (blockDim.x floats: the node's
 * `shared` size) and writes it to out[blockIdx.x].  Stage two is the same
 * kernel on one block over those partial results.  blockDim.x must be a
 * power of two.
 */

/* The tree fold of s[0..blockDim.x) into s[0] with op; every thread calls it. */
template <typename Op>
static __device__ void block_fold(float *s, Op op)
{
	for (unsigned w = blockDim.x / 2; w > 0; w /= 2) {
		if (threadIdx.x < w)
			s[threadIdx.x] = op(s[threadIdx.x], s[threadIdx.x + w]);
		__syncthreads();
	}
}

/* Fold in[0..n) with op from identity, one result per block in out. */
template <typename Op>
static __device__ void reduce(const float *in, int n, float *out, float identity,
			      Op op)
{
	extern __shared__ float s[];
	float acc = identity;
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += gridDim.x * blockDim.x)
		acc = op(acc, in[i]);
	s[threadIdx.x] = acc;
	__syncthreads();
	block_fold(s, op);
	if (threadIdx.x == 0)
		out[blockIdx.x] = s[0];
}

struct add_op {
	__device__ float operator()(float a, float b) const { return a + b; }
};
struct min_op {
	__device__ float operator()(float a, float b) const { return fminf(a, b); }
};
struct max_op {
	__device__ float operator()(float a, float b) const { return fmaxf(a, b); }
};

/* out[blockIdx.x] = the sum of this block's share of in[0..n). */
extern "C" __global__ void block_sum(const float *in, int n, float *out)
{
	reduce(in, n, out, 0.0f, add_op());
}

/* out[blockIdx.x] = the minimum of this block's share of in[0..n). */
extern "C" __global__ void block_min(const float *in, int n, float *out)
{
	reduce(in, n, out, __int_as_float(0x7f800000), min_op());
}

/* out[blockIdx.x] = the maximum of this block's share of in[0..n). */
extern "C" __global__ void block_max(const float *in, int n, float *out)
{
	reduce(in, n, out, __int_as_float(0xff800000), max_op());
}

/* out[0] = in[0] / d: turns a sum into a mean. */
extern "C" __global__ void divide(const float *in, float d, float *out)
{
	if (blockIdx.x == 0 && threadIdx.x == 0)
		out[0] = in[0] / d;
}
