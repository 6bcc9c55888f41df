/*
 * Kernels of the GPU suite's source-module cases (cases/src-*.yaml),
 * compiled by cugraphrun with NVRTC: an extern "C" kernel, a template
 * and a namespaced kernel whose result a define changes.
 */
#ifndef VALUE
#define VALUE 1
#endif

/* p[i] = v for i < n */
extern "C" __global__ void fill(int *p, int n, int v)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += gridDim.x * blockDim.x)
		p[i] = v;
}

/* p[i] *= f * N for i < n */
template <typename T, int N>
__global__ void scale(T *p, T f, int n)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += gridDim.x * blockDim.x)
		p[i] *= f * N;
}

namespace ns {
/* x[0] = VALUE, set with defines: */
__global__ void put(int *x)
{
	x[0] = VALUE;
}
}
