/*
 * One explicit step of the heat equation on a plate (examples/heat2d.yaml):
 * h rows of w floats, each buffer's rows at its own pitch (the driver's,
 * given by the graph as {pitch: x}).  Interior columns 1 .. w-2 take
 *
 *     out = in + a * (left + right + up + down - 4 in)
 *
 * with the rows beyond the first and the last reflected (insulated
 * edges).  Columns 0 and w-1 are the boundary: the graph's 2-D memsets
 * hold them fixed, and this kernel never writes them.
 */
#include <stddef.h>

extern "C" __global__ void heat_step(const char *in, size_t in_pitch, char *out,
				     size_t out_pitch, int w, int h, float a)
{
	int x = blockIdx.x * blockDim.x + threadIdx.x;
	int y = blockIdx.y * blockDim.y + threadIdx.y;
	if (x < 1 || x >= w - 1 || y >= h)
		return;
	const float *row = (const float *)(in + (size_t)y * in_pitch);
	const float *up = (const float *)(in + (size_t)(y > 0 ? y - 1 : y) * in_pitch);
	const float *down = (const float *)(in + (size_t)(y < h - 1 ? y + 1 : y) * in_pitch);
	float c = row[x];
	((float *)(out + (size_t)y * out_pitch))[x] =
		c + a * (row[x - 1] + row[x + 1] + up[x] + down[x] - 4.0f * c);
}
