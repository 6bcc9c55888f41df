/*
 * The CUDA driver, opened at run time.  cugraphrun never links libcuda: it
 * dlopen()s libcuda.so.1, takes cuGetProcAddress_v2 from it, and fetches
 * every other entry point through it with the ABI version this code was
 * written for (one table below), so that a newer driver never hands us an
 * entry point with a different signature (cuGraphAddNode has two).  An
 * entry point newer than the driver is left NULL; callers check the
 * driver's version for the feature first.  For tests, the environment
 * variable CUGRAPHRUN_TEST_DRIVER_VERSION (e.g. 12040) makes cugraphrun act
 * as on that older driver: entry points newer than it stay NULL, exactly
 * as a real old driver would leave them.
 *
 * <cuda.h> is included here and in the GPU layer (gpu_*.c, gpu_dot.c)
 * and nowhere else.  The table is a process-wide singleton: cu_open()
 * fills it once, nothing owns it, it is never closed (the driver stays
 * loaded until exit, as CUDA expects).
 */
#ifndef CGR_CUDA_API_H
#define CGR_CUDA_API_H

#include <stdbool.h>
#include <stddef.h>

#include <cuda.h>
#include <cudaTypedefs.h>

/*
 * X(name without "cu", ABI version, required).  The version is the CUDA
 * version whose signature the PFN_cu<name>_v<version> typedef describes
 * and the code calls; "required" entries must exist for any run.
 */
#define CU_API_TABLE(X)                                   \
	X(GetErrorName, 6000, 1)                          \
	X(GetErrorString, 6000, 1)                        \
	X(Init, 2000, 1)                                  \
	X(DeviceGetCount, 2000, 1)                        \
	X(DeviceGet, 2000, 1)                             \
	X(DeviceGetName, 2000, 1)                         \
	X(DeviceGetAttribute, 2000, 1)                    \
	X(DevicePrimaryCtxRetain, 7000, 1)                \
	X(DevicePrimaryCtxRelease, 11000, 1)              \
	X(CtxSetCurrent, 4000, 1)                         \
	X(DeviceCanAccessPeer, 4000, 1)                   \
	X(CtxEnablePeerAccess, 4000, 1)                   \
	X(CtxSynchronize, 2000, 1)                        \
	X(StreamCreate, 2000, 1)                          \
	X(StreamDestroy, 4000, 1)                         \
	X(StreamQuery, 2000, 1)                           \
	X(EventCreate, 2000, 1)                           \
	X(EventDestroy, 4000, 1)                          \
	X(EventRecord, 2000, 1)                           \
	X(EventQuery, 2000, 1)                            \
	X(EventElapsedTime, 2000, 1)                      \
	X(ModuleLoadDataEx, 2010, 1)                      \
	X(ModuleUnload, 2000, 1)                          \
	X(ModuleGetFunction, 2000, 1)                     \
	X(ModuleGetFunctionCount, 12040, 0)               \
	X(ModuleEnumerateFunctions, 12040, 0)             \
	X(FuncGetName, 12030, 0)                          \
	X(FuncGetParamInfo, 12040, 0)                     \
	X(LibraryLoadData, 12000, 0)                      \
	X(LibraryUnload, 12000, 0)                        \
	X(LibraryGetKernel, 12000, 0)                     \
	X(LibraryGetKernelCount, 12040, 0)                \
	X(LibraryEnumerateKernels, 12040, 0)              \
	X(KernelGetFunction, 12000, 0)                    \
	X(KernelGetName, 12030, 0)                        \
	X(KernelSetAttribute, 12000, 0)                   \
	X(CtxPushCurrent, 4000, 1)                        \
	X(CtxPopCurrent, 4000, 1)                         \
	X(FuncGetAttribute, 2020, 1)                      \
	X(FuncSetAttribute, 9000, 1)                      \
	X(OccupancyMaxActiveBlocksPerMultiprocessor, 6050, 1) \
	X(OccupancyMaxActiveClusters, 11070, 1)           \
	X(CtxGetLimit, 3010, 1)                           \
	X(CtxSetLimit, 3010, 1)                           \
	X(MemAlloc, 3020, 1)                              \
	X(MemFree, 3020, 1)                               \
	X(MemHostAlloc, 2020, 1)                          \
	X(MemFreeHost, 2000, 1)                           \
	X(MemHostGetDevicePointer, 3020, 1)               \
	X(MemAllocManaged, 6000, 1)                       \
	X(MemcpyHtoD, 3020, 1)                            \
	X(MemcpyDtoH, 3020, 1)                            \
	X(DeviceGraphMemTrim, 11040, 1)                   \
	X(DeviceGetGraphMemAttribute, 11040, 1)           \
	X(DeviceSetGraphMemAttribute, 11040, 1)           \
	X(GraphCreate, 10000, 1)                          \
	X(GraphDestroy, 10000, 1)                         \
	X(GraphAddNode, 12030, 0)                         \
	X(GraphChildGraphNodeGetGraph, 10000, 1)          \
	X(GraphKernelNodeSetAttribute, 11000, 1)          \
	X(GraphNodeSetEnabled, 11060, 1)                  \
	X(GraphConditionalHandleCreate, 12030, 0)         \
	X(GraphInstantiateWithParams, 12000, 1)           \
	X(GraphUpload, 11010, 1)                          \
	X(GraphLaunch, 10000, 1)                          \
	X(GraphExecDestroy, 10000, 1)                     \
	X(GraphDebugDotPrint, 11030, 1)                   \
	/* a sweep's update path (gpu_update.c) */        \
	X(GraphNodeSetParams, 12020, 1)                   \
	X(GraphExecNodeSetParams, 12020, 1)               \
	X(GraphExecUpdate, 12000, 0)                      \
	/* the timed launches' helpers (gpu_clock.c, gpu_timed.c) */ \
	X(DeviceGetUuid, 11040, 0)                        \
	X(LaunchKernel, 4000, 1)                          \
	X(MemsetD8Async, 3020, 1)                         \
	/* a file's requires: (gpu_requires.c) */         \
	X(DeviceTotalMem, 3020, 0)                        \
	/* shaped buffers: pitch: auto (gpu_build.c) */   \
	X(MemAllocPitch, 3020, 1)                         \
	CU_API_CAPTURE(X)                                 \
	CU_API_MODES(X)

/*
 * Library nodes (gpu_lib.c): a library's calls captured straight into the
 * graph or a conditional body, after the node's dependencies, and the
 * nodes the capture made found from its last ones back.  None required: a
 * file without library nodes needs none, and gpu_build.c's features say
 * which driver a file with them needs.
 */
#define CU_API_CAPTURE(X)                                 \
	X(StreamBeginCaptureToGraph, 12030, 0)            \
	X(StreamEndCapture, 10000, 0)                     \
	X(StreamGetCaptureInfo, 12030, 0)                 \
	X(GraphNodeGetDependencies, 12030, 0)

/*
 * Stream and capture modes (gpu_stream.c, gpu_capture.c): the calls a
 * stream program makes, and stream capture.  None required: a graph run
 * needs none, and a run in modes says which one its driver lacks.
 */
#define CU_API_MODES(X)                                   \
	X(LaunchKernelEx, 11060, 0)                       \
	X(MemsetD16Async, 3020, 0)                        \
	X(MemsetD32Async, 3020, 0)                        \
	X(MemcpyAsync, 4000, 0)                           \
	X(MemsetD2D8Async, 3020, 0)                       \
	X(MemsetD2D16Async, 3020, 0)                      \
	X(MemsetD2D32Async, 3020, 0)                      \
	X(Memcpy3DAsync, 3020, 0)                         \
	X(MemcpyHtoDAsync, 3020, 0)                       \
	X(MemcpyDtoHAsync, 3020, 0)                       \
	X(LaunchHostFunc, 10000, 0)                       \
	X(DeviceGetDefaultMemPool, 11020, 0)              \
	X(MemPoolGetAttribute, 11020, 0)                  \
	X(MemPoolSetAttribute, 11020, 0)                  \
	X(MemPoolSetAccess, 11020, 0)                     \
	X(MemAllocFromPoolAsync, 11020, 0)                \
	X(MemFreeAsync, 11020, 0)                         \
	X(StreamBatchMemOp, 11070, 0)                     \
	X(StreamWaitEvent, 3020, 0)                       \
	X(EventRecordWithFlags, 11010, 0)                 \
	X(StreamBeginCapture, 10010, 0)                   \
	X(StreamUpdateCaptureDependencies, 12030, 0)

#define CU_API_FIELD(name, ver, req) PFN_cu##name##_v##ver name;

struct cu_api {
	CU_API_TABLE(CU_API_FIELD)
	/* cuGraphAddNode's first ABI (no edge data), for 12.2 drivers */
	PFN_cuGraphAddNode_v12020 GraphAddNode_v12020;
	int driver_version;             /* cuDriverGetVersion: 13000 */
};

/* The table, valid after cu_open() returned true. */
extern struct cu_api cu;

/* The oldest driver cugraphrun runs on at all (cuGraphAddNode). */
#define CU_MIN_DRIVER 12020

/*
 * Open the driver and fill cu.  On failure print why (no driver: "no CUDA
 * driver found (libcuda.so.1: ...)"; too old) and return false.  Calling
 * it again after success does nothing.
 */
bool cu_open(void);

/*
 * The driver started for a run on GPU device: cu_open, cuInit and the
 * count of GPUs, which it returns; -1 after a message when there is no
 * driver or it does not start, -2 after one when device is not among
 * them.  The one start of a lone run (gpu_open) and a suite's worker.
 */
int cu_start(int device);

/*
 * A CUresult in words, "what happened (CUDA_ERROR_NAME)", in a static
 * buffer that the next call overwrites.
 */
const char *cu_strerror(CUresult r);
/* The same for an instantiate result. */
const char *cu_inst_result_str(CUgraphInstantiateResult r);

/* "12.8" from 12080 into buf. */
const char *cu_version_str(int version, char *buf, size_t len);

/* The first driver that takes edge data (cuGraphAddNode_v2, ABI 12030). */
#define CU_EDGE_DATA_DRIVER 12030

/*
 * cuGraphAddNode in whichever ABI the driver has.  data (edge data per
 * dependency) may be NULL; when it is not, the driver must take edge
 * data (CU_EDGE_DATA_DRIVER: gpu_open refuses a file that needs it on an
 * older one).
 */
CUresult cu_graph_add_node(CUgraphNode *out, CUgraph g, const CUgraphNode *deps,
			   const CUgraphEdgeData *data, size_t ndeps, CUgraphNodeParams *params);

#endif
