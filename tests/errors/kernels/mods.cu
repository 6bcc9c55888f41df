// Kernels of the golden tests that check kernel nodes against modules
// (tests/errors/mod-*.yaml).  make compiles this file with nvcc into
// nvcc-mods.ptx (compute_75), nvcc-mods.cubin (sm_90), nvcc-mods.fatbin
// (sm_80 and sm_90 cubins, compute_90 PTX, nothing compressed) and
// nvcc-mods-z.fatbin (an sm_90 cubin, compressed); --validate compiles it
// with NVRTC where a case names it as a CUDA C++ module.
struct pair {
	double a, b;
};

extern "C" __global__ void fill(int *p, int n, int v)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
		p[i] = v;
}

extern "C" __global__ void scale(float *p, float f, unsigned n)
{
	for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
		p[i] *= f;
}

extern "C" __global__ void add_pair(pair q, double *out)
{
	out[0] = q.a + q.b;
}

extern "C" __global__ void small(unsigned char b, short s, int *out)
{
	out[0] = b + s;
}

extern "C" __global__ void nothing()
{
}

// a device function, not a kernel: never among a module's functions
__device__ __noinline__ int twice(int x)
{
	return 2 * x;
}

extern "C" __global__ void doubled(int *x)
{
	x[0] = twice(x[0]);
}

template <typename T, int N>
__global__ void tmpl(T *p, T v)
{
	p[N] = v;
}
template __global__ void tmpl<float, 4>(float *, float);
