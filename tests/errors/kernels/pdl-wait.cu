// A CUDA C++ module whose kernel waits for its programmatic dependencies:
// griddepcontrol.wait is what cudaGridDependencySynchronize() compiles to,
// written here as PTX so that NVRTC compiles it with no runtime header
// (--validate compiles .cu modules when it can).
extern "C" __global__ void use(float *x)
{
	asm volatile("griddepcontrol.wait;" ::: "memory");
	x[threadIdx.x] += 1.0f;
}
