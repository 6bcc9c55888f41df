/*
 * The hand-written reference of the modes benchmark (bench/modes-bench.py,
 * issue 33): a chain of N one-block empty kernels, or a fan of N, run
 * the two ways a careful C programmer would, without cugraphrun (or a
 * chain with kernels beside it, below):
 *
 *   stream  every launch issues the N kernels with cuLaunchKernelEx; a
 *           chain on one stream, a fan on N streams forked from the
 *           launch's stream by an event and joined back by one event
 *           each (what cugraphrun's stream mode plans for these shapes);
 *   graph   the same as one graph, built with cuGraphAddKernelNode,
 *           instantiated and uploaded once, launched with cuGraphLaunch.
 *
 * Each is timed as cugraphrun times a mode: one verification launch, the
 * warm-up, then REPEAT launches each between its own pair of events,
 * queued back to back on one non-blocking stream (the GPU time per
 * launch: their median); then REPEAT launches more back to back with no
 * event between them, the host's time in the submitting calls summed
 * (submit) and the wall time to the end of the last one, seen by a spin
 * on an event (wall), each over REPEAT.
 *
 *   modes_ref chain|fan|mix N PTX-FILE REPEAT WARMUP [graph-first]
 *
 * (mix N: a chain of N with 4 kernels beside it, the GPU case
 * modes-table's shape; graph-first: the graph timed before the stream
 * launches, whose streams are then made after it)
 *
 * prints one line of key=value: stream_gpu_s, stream_submit_s,
 * stream_wall_s, graph_build_s, graph_inst_s (instantiate and upload),
 * graph_gpu_s, graph_submit_s, graph_wall_s.  No code of cugraphrun's:
 * libcuda.so.1 opened at run time, each entry point through
 * cuGetProcAddress at an explicit ABI version (ref_driver.h).
 */
#include "config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	PFN_cuStreamWaitEvent_v3020 StreamWaitEvent;
	PFN_cuEventCreate_v2000 EventCreate;
	PFN_cuEventRecord_v2000 EventRecord;
	PFN_cuEventQuery_v2000 EventQuery;
	PFN_cuEventElapsedTime_v2000 EventElapsedTime;
	PFN_cuStreamSynchronize_v2000 StreamSynchronize;
	PFN_cuLaunchKernelEx_v11060 LaunchKernelEx;
	PFN_cuGraphCreate_v10000 GraphCreate;
	PFN_cuGraphAddKernelNode_v12000 GraphAddKernelNode;
	PFN_cuGraphInstantiateWithFlags_v11040 GraphInstantiateWithFlags;
	PFN_cuGraphUpload_v11010 GraphUpload;
	PFN_cuGraphLaunch_v10000 GraphLaunch;
} cu;

#define CK(call) REF_CK("modes_ref", call)

static void load_driver(void)
{
	static const struct ref_entry table[] = {
#define E(name, ver) REF_ENTRY(cu, name, ver)
		E(Init, 2000), E(DeviceGet, 2000), E(DevicePrimaryCtxRetain, 7000),
		E(CtxSetCurrent, 4000), E(ModuleLoadData, 2000), E(ModuleGetFunction, 2000),
		E(StreamCreate, 2000), E(StreamWaitEvent, 3020), E(EventCreate, 2000),
		E(EventRecord, 2000), E(EventQuery, 2000), E(EventElapsedTime, 2000),
		E(StreamSynchronize, 2000), E(LaunchKernelEx, 11060), E(GraphCreate, 10000),
		E(GraphAddKernelNode, 12000), E(GraphInstantiateWithFlags, 11040),
		E(GraphUpload, 11010), E(GraphLaunch, 10000),
#undef E
	};
	ref_load_driver("modes_ref", &cu, table, sizeof table / sizeof *table);
}

/*
 * What one launch of either kind needs: a chain of nchain kernels on the
 * launch's stream and nside kernels beside it, one per stream (a chain:
 * nside 0; a fan of N: a chain of 1 and N - 1 beside; mix N: a chain of N
 * and 4 beside, the GPU case modes-table's shape).
 */
struct shape {
	size_t nchain, nside;
	CUfunction fn;
	CUstream main;                  /* the launch's stream */
	CUstream *side;                 /* the nside other streams */
	CUevent fork, *join;            /* their events (no timing) */
	CUgraphExec exec;               /* NULL: stream launches */
};

/* One launch issued on streams: the chain on main, the others forked and joined. */
static void stream_launch(const struct shape *sh)
{
	CUlaunchConfig cfg = {
		.gridDimX = 1, .gridDimY = 1, .gridDimZ = 1,
		.blockDimX = 1, .blockDimY = 1, .blockDimZ = 1,
		.hStream = sh->main,
	};
	if (sh->nside)
		CK(cu.EventRecord(sh->fork, sh->main));
	for (size_t i = 0; i < sh->nchain; i++)
		CK(cu.LaunchKernelEx(&cfg, sh->fn, NULL, NULL));
	for (size_t i = 0; i < sh->nside; i++) {
		cfg.hStream = sh->side[i];
		CK(cu.StreamWaitEvent(cfg.hStream, sh->fork, 0));
		CK(cu.LaunchKernelEx(&cfg, sh->fn, NULL, NULL));
		CK(cu.EventRecord(sh->join[i], cfg.hStream));
	}
	for (size_t i = 0; i < sh->nside; i++)
		CK(cu.StreamWaitEvent(sh->main, sh->join[i], 0));
}

static void launch(const struct shape *sh)
{
	if (sh->exec)
		CK(cu.GraphLaunch(sh->exec, sh->main));
	else
		stream_launch(sh);
}

static void wait_event(CUevent e)
{
	CUresult r;
	while ((r = cu.EventQuery(e)) == CUDA_ERROR_NOT_READY)
		;
	CK(r);
}

/*
 * The timing of one way: verification launch, warm-up, REPEAT launches
 * between events (median GPU time), REPEAT more back to back (submit and
 * wall per launch).
 */
static void timed(const struct shape *sh, int repeat, int warmup, CUevent *ev, double *ms,
		  double *gpu_s, double *submit_s, double *wall_s)
{
	launch(sh);
	CK(cu.StreamSynchronize(sh->main));
	for (int i = 0; i < warmup; i++)
		launch(sh);
	for (int i = 0; i < repeat; i++) {
		CK(cu.EventRecord(ev[2 * i], sh->main));
		launch(sh);
		CK(cu.EventRecord(ev[2 * i + 1], sh->main));
	}
	wait_event(ev[2 * repeat - 1]);
	for (int i = 0; i < repeat; i++) {
		float f;
		CK(cu.EventElapsedTime(&f, ev[2 * i], ev[2 * i + 1]));
		ms[i] = f;
	}
	qsort(ms, (size_t)repeat, sizeof *ms, ref_cmp_double);
	*gpu_s = (repeat % 2 ? ms[repeat / 2] : (ms[repeat / 2 - 1] + ms[repeat / 2]) / 2) * 1e-3;
	double host = 0, t0 = ref_now_s();
	for (int i = 0; i < repeat; i++) {
		double a = ref_now_s();
		launch(sh);
		host += ref_now_s() - a;
	}
	CK(cu.EventRecord(ev[0], sh->main));
	wait_event(ev[0]);
	*wall_s = (ref_now_s() - t0) / repeat;
	*submit_s = host / repeat;
}

/* The graph of the shape: built, instantiated and uploaded once; times into *build_s, *inst_s. */
static CUgraphExec make_graph(const struct shape *sh, double *build_s, double *inst_s)
{
	double t0 = ref_now_s();
	CUgraph graph;
	CK(cu.GraphCreate(&graph, 0));
	CUDA_KERNEL_NODE_PARAMS kp = {
		.func = sh->fn, .gridDimX = 1, .gridDimY = 1, .gridDimZ = 1,
		.blockDimX = 1, .blockDimY = 1, .blockDimZ = 1,
	};
	CUgraphNode prev = NULL;
	for (size_t i = 0; i < sh->nchain + sh->nside; i++) {
		CUgraphNode node;
		bool dep = i < sh->nchain && prev != NULL;
		CK(cu.GraphAddKernelNode(&node, graph, dep ? &prev : NULL, dep ? 1 : 0, &kp));
		prev = node;
	}
	*build_s = ref_now_s() - t0;
	t0 = ref_now_s();
	CUgraphExec exec;
	CK(cu.GraphInstantiateWithFlags(&exec, graph, 0));
	CK(cu.GraphUpload(exec, sh->main));
	CK(cu.StreamSynchronize(sh->main));
	*inst_s = ref_now_s() - t0;
	return exec;
}

int main(int argc, char **argv)
{
	bool graph_first = argc == 7 && strcmp(argv[6], "graph-first") == 0;
	if ((argc != 6 && !graph_first) ||
	    (strcmp(argv[1], "chain") && strcmp(argv[1], "fan") && strcmp(argv[1], "mix"))) {
		fprintf(stderr, "usage: modes_ref chain|fan|mix N PTX-FILE REPEAT WARMUP [graph-first]\n");
		return 2;
	}
	size_t n = strtoul(argv[2], NULL, 10);
	int repeat = atoi(argv[4]), warmup = atoi(argv[5]);
	if (n == 0 || repeat <= 0 || warmup < 0)
		return 2;
	struct shape sh = {.nchain = n};
	if (strcmp(argv[1], "fan") == 0)
		sh.nchain = 1, sh.nside = n - 1;
	else if (strcmp(argv[1], "mix") == 0)
		sh.nside = 4;

	load_driver();
	CUdevice dev;
	CUcontext ctx;
	CUmodule mod;
	CK(cu.Init(0));
	CK(cu.DeviceGet(&dev, 0));
	CK(cu.DevicePrimaryCtxRetain(&ctx, dev));
	CK(cu.CtxSetCurrent(ctx));
	CK(cu.StreamCreate(&sh.main, CU_STREAM_NON_BLOCKING));
	char *ptx = ref_read_file("modes_ref", argv[3]);
	CK(cu.ModuleLoadData(&mod, ptx));
	CK(cu.ModuleGetFunction(&sh.fn, mod, "empty"));
	CUevent *ev = malloc(2 * (size_t)repeat * sizeof *ev);
	double *ms = malloc((size_t)repeat * sizeof *ms);
	sh.side = calloc(sh.nside + 1, sizeof *sh.side);
	sh.join = calloc(sh.nside + 1, sizeof *sh.join);
	if (ev == NULL || ms == NULL || sh.side == NULL || sh.join == NULL)
		return 3;
	for (int i = 0; i < 2 * repeat; i++)
		CK(cu.EventCreate(&ev[i], CU_EVENT_DEFAULT));

	/* stream launches, then the graph (or, graph-first, the other way round) */
	double s_gpu, s_submit, s_wall, build_s = 0, inst_s = 0, g_gpu, g_submit, g_wall;
	struct shape gsh = sh;
	if (graph_first) {
		gsh.exec = make_graph(&gsh, &build_s, &inst_s);
		timed(&gsh, repeat, warmup, ev, ms, &g_gpu, &g_submit, &g_wall);
	}
	if (sh.nside) {
		CK(cu.EventCreate(&sh.fork, CU_EVENT_DISABLE_TIMING));
		for (size_t i = 0; i < sh.nside; i++) {
			CK(cu.StreamCreate(&sh.side[i], CU_STREAM_NON_BLOCKING));
			CK(cu.EventCreate(&sh.join[i], CU_EVENT_DISABLE_TIMING));
		}
	}
	timed(&sh, repeat, warmup, ev, ms, &s_gpu, &s_submit, &s_wall);
	if (!graph_first) {
		gsh.exec = make_graph(&gsh, &build_s, &inst_s);
		timed(&gsh, repeat, warmup, ev, ms, &g_gpu, &g_submit, &g_wall);
	}

	printf("stream_gpu_s=%.9g stream_submit_s=%.9g stream_wall_s=%.9g graph_build_s=%.9g "
	       "graph_inst_s=%.9g graph_gpu_s=%.9g graph_submit_s=%.9g graph_wall_s=%.9g\n",
	       s_gpu, s_submit, s_wall, build_s, inst_s, g_gpu, g_submit, g_wall);
	return 0;
}
