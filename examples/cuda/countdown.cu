/*
 * A WHILE loop's body that decides, on the GPU, whether the loop goes on
 * (examples/while-source.yaml).  NVRTC has no runtime headers to include
 * for cudaGraphSetConditional, so the device function is declared here as
 * cuda.core's tests do; the type cudaGraphConditionalHandle is NVRTC's own.
 */
extern "C" __device__ __cudart_builtin__ void CUDARTAPI
cudaGraphSetConditional(cudaGraphConditionalHandle handle, unsigned int value);

/* steps[0] += 1; the loop ends once it reaches limit. */
extern "C" __global__ void step(cudaGraphConditionalHandle again, int *steps, int limit)
{
	if (blockIdx.x == 0 && threadIdx.x == 0) {
		int s = ++steps[0];
		cudaGraphSetConditional(again, s < limit);
	}
}
