/*
 * The smallest kernel there is: it does nothing, so a graph of them measures
 * launch overhead alone.  examples/gen-chain.py writes chains of k.empty for
 * the scale tests and benchmarks.
 */
extern "C" __global__ void empty(void)
{
}
