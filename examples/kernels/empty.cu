/*
 * The smallest kernel there is: it does nothing, so a graph of them measures
 * launch overhead alone.  examples/gen-chain.py writes chains of k.empty for
 * the scale tests and benchmarks, and of k.empty_args (which ignores its
 * two arguments) with --args.
 */
extern "C" __global__ void empty(void)
{
}

extern "C" __global__ void empty_args(float *x, int n)
{
	(void)x;
	(void)n;
}
