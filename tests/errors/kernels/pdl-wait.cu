// A CUDA C++ module whose kernel waits for its programmatic dependencies.
extern "C" __global__ void use(float *x)
{
	cudaGridDependencySynchronize();
	x[threadIdx.x] += 1.0f;
}
