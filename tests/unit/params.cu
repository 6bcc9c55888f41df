// Kernels whose parameters tests/unit/check_cubin.c reads from the cubins
// and fatbins nvcc makes of this file (see Makefile.am); each comment says
// what the kernel's parameters are, as the test expects them.
struct S40 { double a[5]; };
struct S12 { int a; char b; float c; };
struct alignas(16) S16 { float x, y, z, w; };
struct Empty {};
struct Big { char c[5000]; };

// none
extern "C" __global__ void none() {}
// 8 4 8
extern "C" __global__ void k(float *p, int n, double d) { if (n) p[0] = (float)d; }
// 40 8
extern "C" __global__ void st(S40 s, float *o) { o[0] = (float)s.a[4]; }
// 1 2 4 8 4 8 8 12 16 1
extern "C" __global__ void many(char a, short b, int c, long long d, float e, double f,
				void *g, S12 h, S16 i, unsigned char j)
{
	if (g)
		*(double *)g = a + b + c + d + e + f + h.a + i.w + j;
}
// 1 8
extern "C" __global__ void empty(Empty e, int *o) { o[0] = 1; }
// 4 5000 8: more than 4 KiB of parameters
extern "C" __global__ void big(int a, Big b, int *o) { o[0] = a + b.c[4999]; }
// _Z4tmplIfLi4EEvPT_S0_: 8 4; _Z4tmplIdLi2EEvPT_S0_: 8 8
template <typename T, int N> __global__ void tmpl(T *p, T v) { p[N] = v; }
template __global__ void tmpl<float, 4>(float *, float);
template __global__ void tmpl<double, 2>(double *, double);
// _ZN2ns4stepEPii: 8 4
namespace ns { __global__ void step(int *x, int y) { x[0] = y; } }
// _Z3varIJEEvDpT_: none
template <typename... T> __global__ void var(T...) {}
template __global__ void var<>();
// calls: 8; _Z5twicei is a device function, no kernel (with -rdc it has an
// .nv.info section of its own all the same)
__device__ __noinline__ int twice(int x) { return 2 * x; }
extern "C" __global__ void calls(int *o) { o[0] = twice(o[1]); }
