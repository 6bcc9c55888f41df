/*
 * Dense matrix product, the textbook tiled version (examples/events.yaml).
 *
 * C = A * B for n x n row-major matrices, n a multiple of TILE.  Launch with
 * block [TILE, TILE] and grid [n / TILE, n / TILE]: each thread computes one
 * element of C, and each block stages TILE x TILE tiles of A and B through
 * static shared memory so that every element is read from global memory
 * n / TILE times instead of n.
 */
#define TILE 16

extern "C" __global__ void matmul(const float *A, const float *B, float *C, int n)
{
	__shared__ float a[TILE][TILE];
	__shared__ float b[TILE][TILE];
	int row = blockIdx.y * TILE + threadIdx.y;
	int col = blockIdx.x * TILE + threadIdx.x;
	float acc = 0.0f;

	for (int t = 0; t < n; t += TILE) {
		a[threadIdx.y][threadIdx.x] = A[row * n + t + threadIdx.x];
		b[threadIdx.y][threadIdx.x] = B[(t + threadIdx.y) * n + col];
		__syncthreads();
		for (int k = 0; k < TILE; k++)
			acc += a[threadIdx.y][k] * b[k][threadIdx.x];
		__syncthreads();
	}
	C[row * n + col] = acc;
}
