/*
 * The hand-written reference for the GPU benchmark: builds a chain or a fan
 * of N empty-kernel nodes with the driver's explicit graph API, the way a
 * careful C programmer would without cugraphrun, then instantiates, uploads
 * and times launches as cugraphrun does (one verification launch, warm-up,
 * then each timed launch between its own pair of events, queued back to
 * back on one non-blocking stream, one synchronisation at the end; unlike
 * cugraphrun it records no events around the warm-up launches, which are
 * not timed).
 *
 *   gpu_ref chain|fan N PTX-FILE REPEAT WARMUP
 *
 * prints one line: "load_s=... build_s=... median_s=... min_s=... mean_s=...".
 * Like cugraphrun, it opens libcuda.so.1 at run time and fetches each
 * entry point through cuGetProcAddress at an explicit ABI version.
 */
#include "config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda.h>
#include <cudaTypedefs.h>

#include "ref_driver.h"

static struct {
	PFN_cuInit_v2000 Init;
	PFN_cuDeviceGet_v2000 DeviceGet;
	PFN_cuDevicePrimaryCtxRetain_v7000 DevicePrimaryCtxRetain;
	PFN_cuCtxSetCurrent_v4000 CtxSetCurrent;
	PFN_cuModuleLoadData_v2000 ModuleLoadData;
	PFN_cuModuleGetFunction_v2000 ModuleGetFunction;
	PFN_cuStreamCreate_v2000 StreamCreate;
	PFN_cuEventCreate_v2000 EventCreate;
	PFN_cuEventRecord_v2000 EventRecord;
	PFN_cuEventElapsedTime_v12080 EventElapsedTime;
	PFN_cuStreamSynchronize_v2000 StreamSynchronize;
	PFN_cuGraphCreate_v10000 GraphCreate;
	PFN_cuGraphAddKernelNode_v12000 GraphAddKernelNode;
	PFN_cuGraphInstantiateWithFlags_v11040 GraphInstantiateWithFlags;
	PFN_cuGraphUpload_v11010 GraphUpload;
	PFN_cuGraphLaunch_v10000 GraphLaunch;
} cu;

#define CK(call) REF_CK("gpu_ref", call)

static void load_driver(void)
{
	static const struct ref_entry table[] = {
#define E(name, ver) REF_ENTRY(cu, name, ver)
		E(Init, 2000), E(DeviceGet, 2000), E(DevicePrimaryCtxRetain, 7000),
		E(CtxSetCurrent, 4000), E(ModuleLoadData, 2000), E(ModuleGetFunction, 2000),
		E(StreamCreate, 2000), E(EventCreate, 2000), E(EventRecord, 2000),
		E(EventElapsedTime, 12080), E(StreamSynchronize, 2000),
		E(GraphCreate, 10000), E(GraphAddKernelNode, 12000),
		E(GraphInstantiateWithFlags, 11040), E(GraphUpload, 11010),
		E(GraphLaunch, 10000),
#undef E
	};
	ref_load_driver("gpu_ref", &cu, table, sizeof table / sizeof *table);
}

int main(int argc, char **argv)
{
	if (argc != 6 || (strcmp(argv[1], "chain") && strcmp(argv[1], "fan"))) {
		fprintf(stderr, "usage: gpu_ref chain|fan N PTX-FILE REPEAT WARMUP\n");
		return 2;
	}
	bool chain = strcmp(argv[1], "chain") == 0;
	size_t n = strtoul(argv[2], NULL, 10);
	int repeat = atoi(argv[4]), warmup = atoi(argv[5]);
	if (n == 0 || repeat <= 0 || warmup < 0)
		return 2;

	load_driver();
	CUdevice dev;
	CUcontext ctx;
	CUmodule mod;
	CUfunction fn;
	CUstream stream;
	CK(cu.Init(0));
	CK(cu.DeviceGet(&dev, 0));
	CK(cu.DevicePrimaryCtxRetain(&ctx, dev));
	CK(cu.CtxSetCurrent(ctx));
	CK(cu.StreamCreate(&stream, CU_STREAM_NON_BLOCKING));

	/* "load": the module, as cugraphrun's load phase does it. */
	double t0 = ref_now_s();
	char *ptx = ref_read_file("gpu_ref", argv[3]);
	CK(cu.ModuleLoadData(&mod, ptx));
	CK(cu.ModuleGetFunction(&fn, mod, "empty"));
	double load_s = ref_now_s() - t0;

	/* "build": the graph. */
	t0 = ref_now_s();
	CUgraph graph;
	CK(cu.GraphCreate(&graph, 0));
	CUDA_KERNEL_NODE_PARAMS kp = {
		.func = fn, .gridDimX = 1, .gridDimY = 1, .gridDimZ = 1,
		.blockDimX = 1, .blockDimY = 1, .blockDimZ = 1,
	};
	CUgraphNode prev = NULL;
	for (size_t i = 0; i < n; i++) {
		CUgraphNode node;
		bool dep = chain && prev != NULL;
		CK(cu.GraphAddKernelNode(&node, graph, dep ? &prev : NULL, dep ? 1 : 0, &kp));
		prev = node;
	}
	double build_s = ref_now_s() - t0;

	CUgraphExec exec;
	CK(cu.GraphInstantiateWithFlags(&exec, graph, 0));
	CK(cu.GraphUpload(exec, stream));
	CK(cu.GraphLaunch(exec, stream)); /* verification launch */
	CK(cu.StreamSynchronize(stream));

	CUevent *ev = malloc(2 * (size_t)repeat * sizeof *ev);
	double *ms = malloc((size_t)repeat * sizeof *ms);
	if (ev == NULL || ms == NULL)
		return 3;
	for (int i = 0; i < 2 * repeat; i++)
		CK(cu.EventCreate(&ev[i], CU_EVENT_DEFAULT));
	for (int i = 0; i < warmup; i++)
		CK(cu.GraphLaunch(exec, stream));
	for (int i = 0; i < repeat; i++) {
		CK(cu.EventRecord(ev[2 * i], stream));
		CK(cu.GraphLaunch(exec, stream));
		CK(cu.EventRecord(ev[2 * i + 1], stream));
	}
	CK(cu.StreamSynchronize(stream));
	double sum = 0;
	for (int i = 0; i < repeat; i++) {
		float f;
		CK(cu.EventElapsedTime(&f, ev[2 * i], ev[2 * i + 1]));
		ms[i] = f * 1e-3;
		sum += ms[i];
	}
	qsort(ms, (size_t)repeat, sizeof *ms, ref_cmp_double);
	double median = repeat % 2 ? ms[repeat / 2] : (ms[repeat / 2 - 1] + ms[repeat / 2]) / 2;
	printf("load_s=%.9g build_s=%.9g median_s=%.9g min_s=%.9g mean_s=%.9g\n",
	       load_s, build_s, median, ms[0],
	       sum / repeat);
	return 0;
}
