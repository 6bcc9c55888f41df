/*
 * Kernels of the GPU cases for shaped buffers (tests/gpu/cases/shape-*):
 * each writes where an element lies by its pitch, so that a check of the
 * packed contents sees whether the tool and the kernel agree on every
 * row.  extern "C" keeps the names plain.
 */
#include <stddef.h>

/* Element [y][x] of h rows of w ints, pitch bytes apart, is y * 1000 + x. */
extern "C" __global__ void coords2d(char *b, size_t pitch, int w, int h)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x < w && y < h)
		((int *)(b + (size_t)y * pitch))[x] = y * 1000 + x;
}

/* Element [z][y][x] of d slices of h rows of w ints is z * 1000000 + y * 1000 + x. */
extern "C" __global__ void coords3d(char *b, size_t pitch, int w, int h, int d)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	int z = blockIdx.z;
	if (x < w && y < h && z < d)
		((int *)(b + ((size_t)z * h + y) * pitch))[x] = z * 1000000 + y * 1000 + x;
}

/* x[0] += v: one element, at whatever address the argument gives. */
extern "C" __global__ void bump(int *x, int v)
{
	if (blockIdx.x == 0 && threadIdx.x == 0)
		x[0] += v;
}
