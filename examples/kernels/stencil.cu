/*
 * One explicit step of 1-D diffusion (examples/stencil.yaml):
 *
 *     out[i] = w[0] * in[i-1] + w[1] * in[i] + w[2] * in[i+1]
 *
 * with in[-1] = in[n] = 0 (ends held cold).  The weights live in a buffer,
 * so one kernel serves any 3-point stencil; the YAML loads them from a file.
 */
extern "C" __global__ void stencil3(const float *in, float *out, const float *w,
				    int n)
{
	float w0 = w[0], w1 = w[1], w2 = w[2];
	for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
	     i += gridDim.x * blockDim.x) {
		float left = i > 0 ? in[i - 1] : 0.0f;
		float right = i + 1 < n ? in[i + 1] : 0.0f;
		out[i] = w0 * left + w1 * in[i] + w2 * right;
	}
}
