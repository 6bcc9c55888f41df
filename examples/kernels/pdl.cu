/*
 * Programmatic dependent launch (sm_90): each kernel of a chain lets the
 * next one launch at once (griddepcontrol.launch_dependents), then waits
 * until the one before it has finished and its writes are visible
 * (griddepcontrol.wait, what cudaGridDependencySynchronize() compiles to)
 * before it reads.  With programmatic edges the next kernel's launch
 * overlaps this one; with default edges it waits for this one to end.
 *
 * Each kernel adds one to *count by a plain read and write: were a wait
 * missing, two kernels would read the same value and the sum would fall
 * short of the chain's length.  Compiled for compute_90 (Makefile.am).
 */
extern "C" __global__ void step(unsigned *count)
{
	asm volatile("griddepcontrol.launch_dependents;");
	asm volatile("griddepcontrol.wait;" ::: "memory");
	if (threadIdx.x == 0)
		*(volatile unsigned *)count = *(volatile unsigned *)count + 1;
}
