/*
 * One template kernel, used at two element types by examples/templates.yaml,
 * and a kernel in a namespace.  cugraphrun compiles this file with NVRTC
 * when the graph runs and finds each instantiation by its C++ name
 * ("k.affine<float>"), so nobody types a mangled name.
 */

/* out[i] = a * in[i] + b, for any arithmetic T. */
template <typename T>
__global__ void affine(T *out, const T *in, T a, T b, int n)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += gridDim.x * blockDim.x)
		out[i] = a * in[i] + b;
}

namespace check {
/* bad[0] += the elements of x that are not want, to count mistakes on the GPU. */
template <typename T>
__global__ void count_not(const T *x, T want, int n, unsigned *bad)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += gridDim.x * blockDim.x)
		if (x[i] != want)
			atomicAdd(bad, 1u);
}
}
