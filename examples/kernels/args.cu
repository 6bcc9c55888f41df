/*
 * Kernels that write back the arguments they received
 * (examples/kernel-args.yaml), one per argument form of the file format,
 * so that a check proves every byte arrived where the C declaration says.
 */
#include <cuda_bf16.h>
#include <cuda_fp16.h>

/* One scalar of each element type, echoed as doubles into out[0..12). */
extern "C" __global__ void echo_scalars(signed char i8, unsigned char u8,
					short i16, unsigned short u16,
					int i32, unsigned u32,
					long long i64, unsigned long long u64,
					__half f16, __nv_bfloat16 bf16,
					float f32, double f64, double *out)
{
	if (blockIdx.x != 0 || threadIdx.x != 0)
		return;
	out[0] = i8;
	out[1] = u8;
	out[2] = i16;
	out[3] = u16;
	out[4] = i32;
	out[5] = u32;
	out[6] = (double)i64;
	out[7] = (double)u64;
	out[8] = __half2float(f16);
	out[9] = __bfloat162float(bf16);
	out[10] = f32;
	out[11] = f64;
}

/*
 * A struct passed by value.  C alignment puts scale at offset 8 (7 bytes of
 * padding after tag), id at 16, n at 20, and rounds the size up to 24: the
 * layout a {struct: [...]} argument packs.
 */
struct launch_params {
	unsigned char tag;
	double scale;
	short id;
	int n;
};

/* The struct's fields in declaration order, then its size, into out[0..5). */
extern "C" __global__ void echo_struct(struct launch_params p, double *out)
{
	if (blockIdx.x != 0 || threadIdx.x != 0)
		return;
	out[0] = p.tag;
	out[1] = p.scale;
	out[2] = p.id;
	out[3] = p.n;
	out[4] = sizeof p;
}

/* Four raw bytes (a {bytes: "..."} argument) as a uchar4, into out[0..4). */
extern "C" __global__ void echo_bytes(uchar4 v, double *out)
{
	if (blockIdx.x != 0 || threadIdx.x != 0)
		return;
	out[0] = v.x;
	out[1] = v.y;
	out[2] = v.z;
	out[3] = v.w;
}

/* A user kernel that takes a conditional handle: open the gate if v != 0. */
extern "C" __global__ void gate(cudaGraphConditionalHandle h, unsigned v)
{
	if (blockIdx.x == 0 && threadIdx.x == 0)
		cudaGraphSetConditional(h, v != 0 ? 1u : 0u);
}
