/*
 * Damped Jacobi relaxation (examples/sweep-jacobi.yaml), the iteration of
 * the CUDA sample jacobiCudaGraphs, on the tridiagonal system
 *
 *     4 x[i] - x[i-1] - x[i+1] = b[i]        (x[-1] = x[n] = 0)
 *
 * one sweep per launch of the kernel: xnew = (1 - omega) x + omega J(x),
 * where J(x)[i] = (b[i] + x[i-1] + x[i+1]) / 4.  With b[i] = 2 inside and
 * 3 at both ends the solution is x = 1 everywhere.  For 0 < omega <= 1
 * each sweep shrinks the largest error by a factor 1 - omega / 2 at
 * least (the rows of the iteration matrix sum to that in absolute value),
 * so 40 sweeps from x = 0 leave it below 0.75^40 = 1e-5 at omega = 0.5.
 */
extern "C" __global__ void jacobi(int n, float omega, const float *b, const float *x,
				  float *xnew)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += gridDim.x * blockDim.x) {
		float left = i > 0 ? x[i - 1] : 0.0f;
		float right = i + 1 < n ? x[i + 1] : 0.0f;
		float j = (b[i] + left + right) * 0.25f;
		xnew[i] = (1.0f - omega) * x[i] + omega * j;
	}
}
