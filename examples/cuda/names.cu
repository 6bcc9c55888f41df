/*
 * Kernels with C++ names, for the manual's examples of naming them in a
 * CUDA C++ module (cugraphrun(5), Modules): a template instantiated at the
 * node, and a kernel in a namespace.  Neither is extern "C": NVRTC's name
 * expressions find their mangled names.
 */

/* x[i] *= a for the first N elements. */
template <typename T, int N>
__global__ void scale(T *x, T a)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < N)
		x[i] *= a;
}

namespace ns {

/* x[0] += 1, from one thread. */
__global__ void step(float *x)
{
	if (blockIdx.x == 0 && threadIdx.x == 0)
		x[0] += 1.0f;
}

}
