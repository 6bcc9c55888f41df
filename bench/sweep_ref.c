/*
 * The hand-written driver-API reference for the sweep benchmark
 * (bench/sweep-bench.py): what a careful C programmer writes, without
 * cugraphrun, to run a graph at several points of one parameter on one
 * instantiation.  A chain of N kernel nodes of an empty kernel; node N/2
 * has a grid of p blocks at point p (1 to POINTS).  The graph is built,
 * instantiated and uploaded once; each later point changes that one node,
 * on the template (cuGraphNodeSetParams, so that it stays in step)
 * and on the executable graph (cuGraphExecNodeSetParams), and
 * nothing else; then REPEAT launches.  It times each point's update, and,
 * unless --counting, instantiating and uploading the graph of that point
 * afresh, for the ratio.
 *
 *   sweep_ref PTX-FILE N POINTS REPEAT [--counting]
 *
 * prints one line: "update_s=MEDIAN instantiate_s=MEDIAN first_instantiate_s=S"
 * (instantiate_s: the fresh instantiations' median, NaN with --counting,
 * which makes no driver call a cugraphrun sweep would not, for
 * bench/cu_count.so to compare).  Like cugraphrun it opens libcuda.so.1 at
 * run time and fetches each entry point through cuGetProcAddress at an
 * explicit ABI version.
 */
#include "config.h"

#include <math.h>
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
	PFN_cuStreamSynchronize_v2000 StreamSynchronize;
	PFN_cuGraphCreate_v10000 GraphCreate;
	PFN_cuGraphAddKernelNode_v12000 GraphAddKernelNode;
	PFN_cuGraphNodeSetParams_v12020 GraphNodeSetParams;
	PFN_cuGraphExecNodeSetParams_v12020 GraphExecNodeSetParams;
	PFN_cuGraphInstantiateWithFlags_v11040 GraphInstantiateWithFlags;
	PFN_cuGraphUpload_v11010 GraphUpload;
	PFN_cuGraphLaunch_v10000 GraphLaunch;
	PFN_cuGraphExecDestroy_v10000 GraphExecDestroy;
} cu;

#define CK(call) REF_CK("sweep_ref", call)

static void load_driver(void)
{
	static const struct ref_entry table[] = {
#define E(name, ver) REF_ENTRY(cu, name, ver)
		E(Init, 2000), E(DeviceGet, 2000), E(DevicePrimaryCtxRetain, 7000),
		E(CtxSetCurrent, 4000), E(ModuleLoadData, 2000), E(ModuleGetFunction, 2000),
		E(StreamCreate, 2000), E(StreamSynchronize, 2000), E(GraphCreate, 10000),
		E(GraphAddKernelNode, 12000), E(GraphNodeSetParams, 12020),
		E(GraphExecNodeSetParams, 12020), E(GraphInstantiateWithFlags, 11040),
		E(GraphUpload, 11010), E(GraphLaunch, 10000), E(GraphExecDestroy, 10000),
#undef E
	};
	ref_load_driver("sweep_ref", &cu, table, sizeof table / sizeof *table);
}

static double median(double *v, size_t n)
{
	if (n == 0)
		return NAN;
	qsort(v, n, sizeof *v, ref_cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

int main(int argc, char **argv)
{
	if (argc < 5 || argc > 6 || (argc == 6 && strcmp(argv[5], "--counting") != 0)) {
		fprintf(stderr, "usage: sweep_ref PTX-FILE N POINTS REPEAT [--counting]\n");
		return 2;
	}
	size_t n = strtoul(argv[2], NULL, 10), points = strtoul(argv[3], NULL, 10);
	int repeat = atoi(argv[4]);
	bool counting = argc == 6;
	if (n < 2 || points < 1 || repeat < 0)
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
	char *ptx = ref_read_file("sweep_ref", argv[1]);
	CK(cu.ModuleLoadData(&mod, ptx));
	CK(cu.ModuleGetFunction(&fn, mod, "empty"));

	CUgraph graph;
	CK(cu.GraphCreate(&graph, 0));
	CUDA_KERNEL_NODE_PARAMS kp = {
		.func = fn, .gridDimX = 1, .gridDimY = 1, .gridDimZ = 1,
		.blockDimX = 1, .blockDimY = 1, .blockDimZ = 1,
	};
	CUgraphNode prev = NULL, changed = NULL;
	for (size_t i = 0; i < n; i++) {
		CUgraphNode node;
		CK(cu.GraphAddKernelNode(&node, graph, prev ? &prev : NULL, prev ? 1 : 0, &kp));
		if (i == n / 2)
			changed = node;
		prev = node;
	}
	CUgraphExec exec;
	double t0 = ref_now_s();
	CK(cu.GraphInstantiateWithFlags(&exec, graph, 0));
	CK(cu.GraphUpload(exec, stream));
	CK(cu.StreamSynchronize(stream));
	double first_inst = ref_now_s() - t0;
	for (int i = 0; i <= repeat; i++)
		CK(cu.GraphLaunch(exec, stream));
	CK(cu.StreamSynchronize(stream));

	double *upd = calloc(points, sizeof *upd), *fresh = calloc(points, sizeof *fresh);
	size_t nfresh = 0;
	/* the changed node's parameters, as the generic calls take them */
	CUgraphNodeParams np;
	memset(&np, 0, sizeof np);
	np.type = CU_GRAPH_NODE_TYPE_KERNEL;
	np.kernel.func = kp.func;
	np.kernel.gridDimY = np.kernel.gridDimZ = 1;
	np.kernel.blockDimX = np.kernel.blockDimY = np.kernel.blockDimZ = 1;
	np.kernel.kernelParams = kp.kernelParams;
	for (size_t p = 1; p < points; p++) {
		np.kernel.gridDimX = (unsigned)p + 1;
		t0 = ref_now_s();
		CK(cu.GraphNodeSetParams(changed, &np));
		CK(cu.GraphExecNodeSetParams(exec, changed, &np));
		upd[p - 1] = ref_now_s() - t0;
		if (!counting) {
			CUgraphExec other;
			t0 = ref_now_s();
			CK(cu.GraphInstantiateWithFlags(&other, graph, 0));
			CK(cu.GraphUpload(other, stream));
			CK(cu.StreamSynchronize(stream));
			fresh[nfresh++] = ref_now_s() - t0;
			CK(cu.GraphExecDestroy(other));
		}
		/* the verification launch and the timed ones, as cugraphrun makes them */
		for (int i = 0; i <= repeat; i++)
			CK(cu.GraphLaunch(exec, stream));
		CK(cu.StreamSynchronize(stream));
	}
	printf("update_s=%.9g instantiate_s=%.9g first_instantiate_s=%.9g\n",
	       median(upd, points - 1), median(fresh, nfresh), first_inst);
	free(upd);
	free(fresh);
	free(ptx);
	return 0;
}
