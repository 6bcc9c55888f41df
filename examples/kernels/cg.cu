/*
 * The kernels of examples/cg-cublas.yaml, NVIDIA's conjugateGradientCudaGraphs
 * sample as a file: its two scalar kernels as the sample writes them, the
 * matrix-vector product of its tridiagonal matrix (the sample calls
 * cusparseSpMV on the CSR form; here a kernel over the three diagonals of
 * the same matrix), and the sample's host loop test made a kernel that
 * sets the WHILE node's condition.
 */
#include <cuda_runtime.h>

/* b = r1 / r0, as the sample's r1_div_x. */
extern "C" __global__ void r1_div_x(const float *r1, const float *r0, float *b)
{
	if (blockIdx.x * blockDim.x + threadIdx.x == 0)
		b[0] = r1[0] / r0[0];
}

/* na = -a, as the sample's a_minus. */
extern "C" __global__ void a_minus(const float *a, float *na)
{
	if (blockIdx.x * blockDim.x + threadIdx.x == 0)
		na[0] = -a[0];
}

/*
 * y = A x for the symmetric tridiagonal A of the sample: diag[i] on the
 * diagonal, off[i] at (i, i + 1) and (i + 1, i); off[n - 1] is not used.
 */
extern "C" __global__ void spmv(const float *diag, const float *off, const float *x, float *y,
				int n)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += gridDim.x * blockDim.x) {
		float s = diag[i] * x[i];
		if (i > 0)
			s += off[i - 1] * x[i - 1];
		if (i + 1 < n)
			s += off[i] * x[i + 1];
		y[i] = s;
	}
}

/*
 * The sample's loop test, after an iteration: k is counted on, and the
 * loop goes on while r1 > tol^2 and k <= max_iter (one thread).
 */
extern "C" __global__ void converge(cudaGraphConditionalHandle h, const float *r1, int *k,
				    float tol2, int max_iter)
{
	if (blockIdx.x * blockDim.x + threadIdx.x == 0) {
		int next = k[0] + 1;
		k[0] = next;
		cudaGraphSetConditional(h, r1[0] > tol2 && next <= max_iter ? 1u : 0u);
	}
}
