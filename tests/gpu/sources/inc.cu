/* A kernel whose result comes from a header found through include:. */
#include "value.cuh"

extern "C" __global__ void put(int *x)
{
	x[0] = HEADER_VALUE;
}
