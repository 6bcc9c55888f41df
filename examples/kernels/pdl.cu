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
	/*
	 * About a microsecond of work (2,000 SM clocks) the kernel before has
	 * no part in, counted on the clock: a loop of 256 multiply-adds in its
	 * place changed no launch time on the H100 (a compiler may reduce such
	 * a loop to its closed form).
	 */
	long long t0 = clock64();
	while (clock64() - t0 < 2000)
		;
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
