/*
 * examples/while-countdown.yaml built with the CUDA driver API alone, no
 * cugraphrun: three WHILE loops of 0, 1 and N trips (builtin.set_from,
 * builtin.countdown, control.tick), launched L times, the tallies checked
 * after each launch.  It shows that compute-sanitizer's failures on
 * conditional graphs are not cugraphrun's (see tests/gpu/run.sh).  Build
 * and run by hand on a GPU machine (not part of the suite):
 *
 *   gcc -I/usr/local/cuda/include -o wc_repro tests/gpu/sanitizer-repro.c \
 *       -L/usr/local/cuda/lib64/stubs -lcuda
 *   ./wc_repro src/builtin.ptx examples/kernels/control.ptx L N
 *   compute-sanitizer --tool memcheck ./wc_repro ... L N
 *
 * Measured on an H100 (driver 580.159.04, compute-sanitizer 2025.3.1):
 * plain, 6 launches of 0/1/50 trips: OK; under memcheck: 6 x 50 OK,
 * 6 x 5 "FAIL launch 1 of 6: CUDA_ERROR_ILLEGAL_ADDRESS", 20 x 5 OK.
 */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define CK(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { const char *s_; cuGetErrorName(r_, &s_); \
	printf("FAIL %s at line %d: %s\n", #x, __LINE__, s_); exit(1); } } while (0)
static char *slurp(const char *p) {
	FILE *f = fopen(p, "rb"); if (!f) { perror(p); exit(1); }
	fseek(f, 0, SEEK_END); long n = ftell(f); rewind(f);
	char *b = malloc(n + 1); if (fread(b, 1, n, f) != (size_t)n) exit(1); b[n] = 0; fclose(f); return b;
}
static CUgraphNode kernel(CUgraph g, CUfunction f, void **params, CUgraphNode *deps, size_t nd) {
	CUDA_KERNEL_NODE_PARAMS kp; memset(&kp, 0, sizeof kp);
	kp.func = f; kp.gridDimX = kp.gridDimY = kp.gridDimZ = 1; kp.blockDimX = kp.blockDimY = kp.blockDimZ = 1;
	kp.kernelParams = params;
	CUgraphNode n; CK(cuGraphAddKernelNode(&n, g, deps, nd, &kp)); return n;
}
int main(int argc, char **argv) {
	int launches = argc > 3 ? atoi(argv[3]) : 6;
	int trips[3] = {0, 1, 50};
	if (argc > 4) trips[2] = atoi(argv[4]);
	CUdevice dev; CUcontext ctx; CUstream st;
	CK(cuInit(0)); CK(cuDeviceGet(&dev, 0)); CK(cuDevicePrimaryCtxRetain(&ctx, dev)); CK(cuCtxSetCurrent(ctx));
	CK(cuStreamCreate(&st, 0));
	CUmodule mb, mc; CK(cuModuleLoadData(&mb, slurp(argv[1]))); CK(cuModuleLoadData(&mc, slurp(argv[2])));
	CUfunction set_from, countdown, tick;
	CK(cuModuleGetFunction(&set_from, mb, "set_from")); CK(cuModuleGetFunction(&countdown, mb, "countdown"));
	CK(cuModuleGetFunction(&tick, mc, "tick"));
	CUdeviceptr n, left, runs;
	CK(cuMemAlloc(&n, 12)); CK(cuMemAlloc(&left, 12)); CK(cuMemAlloc(&runs, 12));
	CK(cuMemcpyHtoD(n, trips, 12));
	CUgraph g; CK(cuGraphCreate(&g, 0));
	CUDA_MEMCPY3D cp; memset(&cp, 0, sizeof cp);
	cp.srcMemoryType = cp.dstMemoryType = CU_MEMORYTYPE_DEVICE; cp.srcDevice = n; cp.dstDevice = left;
	cp.WidthInBytes = 12; cp.Height = cp.Depth = 1;
	CUgraphNode copy, reset; CK(cuGraphAddMemcpyNode(&copy, g, NULL, 0, &cp, ctx));
	CUDA_MEMSET_NODE_PARAMS ms; memset(&ms, 0, sizeof ms);
	ms.dst = runs; ms.elementSize = 4; ms.width = 3; ms.height = 1; ms.value = 0;
	CK(cuGraphAddMemsetNode(&reset, g, NULL, 0, &ms, ctx));
	CUgraphConditionalHandle h[3]; CUdeviceptr lp[3], rp[3];
	void *sp[3][2], *cpar[3][2], *tp[3][1];
	for (int i = 0; i < 3; i++) {
		lp[i] = left + 4 * i; rp[i] = runs + 4 * i;
		CK(cuGraphConditionalHandleCreate(&h[i], g, ctx, 0, CU_GRAPH_COND_ASSIGN_DEFAULT));
		sp[i][0] = &h[i]; sp[i][1] = &lp[i];
		CUgraphNode open = kernel(g, set_from, sp[i], &copy, 1);
		CUgraphNodeParams p; memset(&p, 0, sizeof p);
		p.type = CU_GRAPH_NODE_TYPE_CONDITIONAL; p.conditional.handle = h[i];
		p.conditional.type = CU_GRAPH_COND_TYPE_WHILE; p.conditional.size = 1; p.conditional.ctx = ctx;
		CUgraphNode deps[2] = {open, reset}, w;
		CK(cuGraphAddNode(&w, g, deps, NULL, 2, &p));
		CUgraph body = p.conditional.phGraph_out[0];
		tp[i][0] = &rp[i];
		CUgraphNode t = kernel(body, tick, tp[i], NULL, 0);
		cpar[i][0] = &h[i]; cpar[i][1] = &lp[i];
		kernel(body, countdown, cpar[i], &t, 1);
	}
	CUgraphExec ex; CK(cuGraphInstantiate(&ex, g, 0));
	for (int k = 0; k < launches; k++) {
		CK(cuGraphLaunch(ex, st));
		CUresult r = cuStreamSynchronize(st);
		if (r != CUDA_SUCCESS) { const char *s; cuGetErrorName(r, &s); printf("FAIL launch %d of %d: %s\n", k + 1, launches, s); return 1; }
		unsigned got[3]; CK(cuMemcpyDtoH(got, runs, 12));
		if (got[0] != (unsigned)trips[0] || got[1] != (unsigned)trips[1] || got[2] != (unsigned)trips[2]) {
			printf("FAIL launch %d: runs %u %u %u\n", k + 1, got[0], got[1], got[2]); return 1; }
	}
	printf("OK %d launches, trips %d %d %d\n", launches, trips[0], trips[1], trips[2]);
	return 0;
}
