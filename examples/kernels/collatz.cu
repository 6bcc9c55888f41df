/*
 * The Collatz map as graph control flow (examples/nested-conditionals.yaml):
 *
 *     while n > 1:
 *         if n is odd: n = 3n + 1
 *         n = n / 2
 *
 * st points at one state of four u32: st[0] the current n, st[1] the odd
 * steps (3n + 1), st[2] the halvings (= WHILE iterations), st[3] the
 * largest n seen.  Every kernel runs as grid 1, block 1: the state is one
 * scalar chain, and a conditional handle must be set by a single thread.
 */

/* Start from start[0]; open the loop only if there is work (n > 1). */
extern "C" __global__ void collatz_start(cudaGraphConditionalHandle loop,
					 const unsigned *start, unsigned *st)
{
	unsigned n = start[0];
	st[0] = n;
	st[1] = 0;
	st[2] = 0;
	st[3] = n;
	cudaGraphSetConditional(loop, n > 1 ? 1u : 0u);
}

/* The IF's condition: is n odd? */
extern "C" __global__ void collatz_is_odd(cudaGraphConditionalHandle odd,
					  const unsigned *st)
{
	cudaGraphSetConditional(odd, st[0] & 1u);
}

/* The IF's body: n = 3n + 1. */
extern "C" __global__ void collatz_triple(unsigned *st)
{
	unsigned n = 3u * st[0] + 1u;
	st[0] = n;
	st[1] += 1;
	if (n > st[3])
		st[3] = n;
}

/* The last node of the WHILE body: n = n / 2, and go on while n > 1. */
extern "C" __global__ void collatz_halve(cudaGraphConditionalHandle loop,
					 unsigned *st)
{
	unsigned n = st[0] / 2u;
	st[0] = n;
	st[2] += 1;
	cudaGraphSetConditional(loop, n > 1 ? 1u : 0u);
}
