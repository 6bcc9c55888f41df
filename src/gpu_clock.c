/*
 * The timed launches' own kernels and the GPU's UUID (gpu_clock.h).
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "gpu_clock.h"

/*
 * Hand-written PTX, JIT-compiled by the driver for whatever GPU runs it
 * (ISA 7.0 and sm_70: every driver cugraphrun takes reads it).  Each
 * kernel is launched as one thread.
 *
 * cgr_clock_probe(out, cycles): spin until %clock64 has advanced by
 * cycles, then store the cycles and the %globaltimer nanoseconds that
 * passed meanwhile at out[0] and out[1].
 *
 * cgr_block(flag, want, timeout): wait until flag[0] - want >= 0 (as a
 * signed difference, so that the sequence may wrap), or until timeout
 * nanoseconds have passed, and then set flag[1].
 */
static const char clock_ptx[] =
	".version 7.0\n"
	".target sm_70\n"
	".address_size 64\n"
	"\n"
	".visible .entry cgr_clock_probe(.param .u64 out_param, .param .u64 cycles_param)\n"
	"{\n"
	"	.reg .pred %p<2>;\n"
	"	.reg .b64 %rd<11>;\n"
	"	ld.param.u64 %rd1, [out_param];\n"
	"	ld.param.u64 %rd2, [cycles_param];\n"
	"	cvta.to.global.u64 %rd1, %rd1;\n"
	"	mov.u64 %rd3, %globaltimer;\n"
	"	mov.u64 %rd4, %clock64;\n"
	"$L_spin:\n"
	"	mov.u64 %rd5, %clock64;\n"
	"	sub.s64 %rd6, %rd5, %rd4;\n"
	"	setp.lt.u64 %p1, %rd6, %rd2;\n"
	"	@%p1 bra $L_spin;\n"
	"	mov.u64 %rd7, %globaltimer;\n"
	"	mov.u64 %rd8, %clock64;\n"
	"	sub.s64 %rd9, %rd8, %rd4;\n"
	"	sub.s64 %rd10, %rd7, %rd3;\n"
	"	st.volatile.global.u64 [%rd1], %rd9;\n"
	"	st.volatile.global.u64 [%rd1+8], %rd10;\n"
	"	ret;\n"
	"}\n"
	"\n"
	".visible .entry cgr_block(.param .u64 flag_param, .param .u32 want_param,\n"
	"	.param .u64 timeout_param)\n"
	"{\n"
	"	.reg .pred %p<3>;\n"
	"	.reg .b32 %r<5>;\n"
	"	.reg .b64 %rd<6>;\n"
	"	ld.param.u64 %rd1, [flag_param];\n"
	"	ld.param.u32 %r1, [want_param];\n"
	"	ld.param.u64 %rd2, [timeout_param];\n"
	"	cvta.to.global.u64 %rd1, %rd1;\n"
	"	mov.u64 %rd3, %globaltimer;\n"
	"$L_wait:\n"
	"	ld.volatile.global.u32 %r2, [%rd1];\n"
	"	sub.s32 %r3, %r2, %r1;\n"
	"	setp.ge.s32 %p1, %r3, 0;\n"
	"	@%p1 bra $L_done;\n"
	"	mov.u64 %rd4, %globaltimer;\n"
	"	sub.s64 %rd5, %rd4, %rd3;\n"
	"	setp.lt.u64 %p2, %rd5, %rd2;\n"
	"	@%p2 bra $L_wait;\n"
	"	mov.u32 %r4, 1;\n"
	"	st.volatile.global.u32 [%rd1+4], %r4;\n"
	"$L_done:\n"
	"	ret;\n"
	"}\n";

/* 16 words: the release, the gave-up flag, two spare, then two probes of two 64-bit values. */
#define CLOCK_WORDS 16
#define PROBE_WORD(slot) (4 + 4 * (slot))

CUresult gpu_clock_open(struct gpu_clock *c, const char **what)
{
	if (c->mod)
		return CUDA_SUCCESS;
	*what = "cannot load its module";
	CUresult r = cu.ModuleLoadDataEx(&c->mod, clock_ptx, 0, NULL, NULL);
	if (r == CUDA_SUCCESS && (r = cu.ModuleGetFunction(&c->probe, c->mod,
							   "cgr_clock_probe")) == CUDA_SUCCESS)
		r = cu.ModuleGetFunction(&c->block, c->mod, "cgr_block");
	void *host = NULL;
	if (r == CUDA_SUCCESS) {
		*what = "cannot map host memory for it";
		r = cu.MemHostAlloc(&host, CLOCK_WORDS * sizeof *c->host,
				    CU_MEMHOSTALLOC_DEVICEMAP);
	}
	if (r == CUDA_SUCCESS) {
		c->host = host;
		memset(host, 0, CLOCK_WORDS * sizeof *c->host);
		r = cu.MemHostGetDevicePointer(&c->dev, host, 0);
	}
	if (r != CUDA_SUCCESS)
		gpu_clock_close(c);
	return r;
}

void gpu_clock_close(struct gpu_clock *c)
{
	if (c->host)
		cu.MemFreeHost((void *)c->host);
	if (c->mod)
		cu.ModuleUnload(c->mod);
	memset(c, 0, sizeof *c);
}

static CUresult launch_one(CUfunction f, CUstream st, void **params)
{
	return cu.LaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, st, params, NULL);
}

CUresult gpu_clock_probe(struct gpu_clock *c, CUstream st, int slot)
{
	volatile uint32_t *w = c->host + PROBE_WORD(slot);
	for (int i = 0; i < 4; i++)
		w[i] = 0;
	CUdeviceptr out = c->dev + PROBE_WORD(slot) * sizeof *c->host;
	unsigned long long cycles = CLOCK_PROBE_CYCLES;
	void *params[] = {&out, &cycles};
	return launch_one(c->probe, st, params);
}

/* The 64-bit value at word w (little-endian, as both sides store it). */
static uint64_t word64(const struct gpu_clock *c, int w)
{
	return (uint64_t)c->host[w] | (uint64_t)c->host[w + 1] << 32;
}

double gpu_clock_mhz(const struct gpu_clock *c, int slot)
{
	if (c->host == NULL)
		return NAN;
	uint64_t cycles = word64(c, PROBE_WORD(slot)), ns = word64(c, PROBE_WORD(slot) + 2);
	/* cycles per nanosecond are GHz */
	return ns ? (double)cycles / (double)ns * 1000 : NAN;
}

CUresult gpu_clock_block(struct gpu_clock *c, CUstream st, uint32_t *seq)
{
	uint32_t want = c->seq + 1;
	unsigned long long timeout = CLOCK_BLOCK_TIMEOUT_NS;
	CUdeviceptr flag = c->dev;
	void *params[] = {&flag, &want, &timeout};
	CUresult r = launch_one(c->block, st, params);
	if (r == CUDA_SUCCESS)
		c->seq = *seq = want;
	return r;
}

void gpu_clock_release(struct gpu_clock *c, uint32_t seq)
{
	/* everything queued before it is in the driver's hands before the GPU may go on */
	__sync_synchronize();
	c->host[0] = seq;
	__sync_synchronize();
}

bool gpu_clock_gave_up(struct gpu_clock *c)
{
	if (c->host == NULL || c->host[1] == 0)
		return false;
	c->host[1] = 0;
	return true;
}

bool gpu_uuid(CUdevice dev, uint8_t uuid[16])
{
	CUuuid u;
	if (cu.DeviceGetUuid == NULL || cu.DeviceGetUuid(&u, dev) != CUDA_SUCCESS)
		return false;
	memcpy(uuid, u.bytes, 16);
	return true;
}
