/*
 * A Jacobi sweep for A x = b, A the tridiagonal matrix with 4 on its
 * diagonal and -1 beside it (examples/jacobi.yaml): every x[i] is solved
 * for from its row, with its neighbours' values of the sweep before.
 */

/*
 * out[i] = (b[i] + in[i - 1] + in[i + 1]) / 4, neighbours past the ends
 * being 0, and delta[i] = out[i] - in[i]: how far this sweep moved x[i],
 * the residual whose size says that the iteration has converged.
 */
extern "C" __global__ void jacobi_step(const float *in, float *out, const float *b,
				       float *delta, int n)
{
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += gridDim.x * blockDim.x) {
		float left = i > 0 ? in[i - 1] : 0.0f;
		float right = i + 1 < n ? in[i + 1] : 0.0f;
		float x = (b[i] + left + right) * 0.25f;
		delta[i] = x - in[i];
		out[i] = x;
	}
}
