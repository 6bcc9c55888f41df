/*
 * Programmatic dependent launch (sm_90): each kernel of a chain lets the
 * next one launch at once (griddepcontrol.launch_dependents), then waits
 * until the one before it has finished and its writes are visible
 * (griddepcontrol.wait, what cudaGridDependencySynchronize() compiles to)
 * before it reads.  With programmatic edges the next kernel's launch
 * overlaps this one; with default edges it waits for this one to end.
 *
 * Each kernel first runs a prologue that needs nothing from the kernel
 * before it (what PDL is for: a kernel's set-up overlaps the tail of the
 * one before), then adds one to *count by a plain read and write: were a
 * wait missing, two kernels would read the same value and the sum would
 * fall short of the chain's length.  Compiled for compute_90 (Makefile.am).
 */
extern "C" __global__ void step(unsigned *count)
{
	asm volatile("griddepcontrol.launch_dependents;");
	/* 256 dependent multiply-adds, about 0.6 us on an H100, kept by the asm */
	unsigned h = threadIdx.x;
	for (int k = 0; k < 256; k++)
		h = h * 1664525u + 1013904223u;
	asm volatile("" : : "r"(h));
	asm volatile("griddepcontrol.wait;" ::: "memory");
	if (threadIdx.x == 0)
		*(volatile unsigned *)count = *(volatile unsigned *)count + 1;
}

/*
 * The same chain with no prologue: only the trigger, the wait and the
 * counter, for bench/pdl-bench.py's comparison with a hand-written chain
 * of one-block kernels.
 */
extern "C" __global__ void step_bare(unsigned *count)
{
	asm volatile("griddepcontrol.launch_dependents;");
	asm volatile("griddepcontrol.wait;" ::: "memory");
	if (threadIdx.x == 0)
		*(volatile unsigned *)count = *(volatile unsigned *)count + 1;
}
