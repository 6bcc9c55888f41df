/*
 * The built-in module "builtin": kernels that set conditional handles, so
 * that simple control flow (a countdown, a branch on data) needs no CUDA
 * code of the user's.  Compiled to PTX at build time and embedded in the
 * binary (see Makefile.am); cugraphrun(5) documents them.
 *
 * Each acts from one thread only (thread 0 of block 0), whatever grid and
 * block they are launched with: concurrent cudaGraphSetConditional calls on
 * one handle are undefined behaviour, and the counter must drop once per
 * launch, not once per thread.  extern "C" keeps the names plain for
 * cuModuleGetFunction.
 */
#include <cuda_runtime.h>

/* True in exactly one thread of the whole grid. */
static __device__ __forceinline__ bool builtin_leader(void)
{
	return blockIdx.x == 0 && blockIdx.y == 0 && blockIdx.z == 0 &&
	    threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0;
}

/* builtin.set: {handle: c}, {u32: v}.  Sets the handle to v. */
extern "C" __global__ void set(cudaGraphConditionalHandle h, unsigned v)
{
	if (builtin_leader())
		cudaGraphSetConditional(h, v);
}

/* builtin.set_from: {handle: c}, buffer.  Sets the handle to p[0] (a u32). */
extern "C" __global__ void set_from(cudaGraphConditionalHandle h, const unsigned *p)
{
	if (builtin_leader())
		cudaGraphSetConditional(h, p[0]);
}

/*
 * builtin.countdown: {handle: c}, buffer.  Decrements ctr[0] (an i32), then
 * sets the handle to 1 while ctr[0] is still above 0, else 0: as the last
 * node of a WHILE body with the condition's default 1 and ctr[0] = N >= 1,
 * the body runs N times.
 */
extern "C" __global__ void countdown(cudaGraphConditionalHandle h, int *ctr)
{
	if (builtin_leader()) {
		int left = ctr[0] - 1;
		ctr[0] = left;
		cudaGraphSetConditional(h, left > 0 ? 1u : 0u);
	}
}

/*
 * Stream mode's variants (cugraphrun(1), MODES; not for files to name: the
 * validator knows only the three above).  A condition's handle exists
 * only in a graph, so in stream mode a condition lives in a word of device
 * memory (a u32), which each variant writes where its original calls
 * cudaGraphSetConditional; the host reads the word back after the kernels
 * before a conditional node and decides, as programs did before
 * conditional nodes.  Same parameters, the word's address in place of the
 * handle (both 8 bytes), so that the node's arguments pack unchanged.
 */
extern "C" __global__ void set_word(unsigned *word, unsigned v)
{
	if (builtin_leader())
		*word = v;
}

extern "C" __global__ void set_from_word(unsigned *word, const unsigned *p)
{
	if (builtin_leader())
		*word = p[0];
}

extern "C" __global__ void countdown_word(unsigned *word, int *ctr)
{
	if (builtin_leader()) {
		int left = ctr[0] - 1;
		ctr[0] = left;
		*word = left > 0 ? 1u : 0u;
	}
}
