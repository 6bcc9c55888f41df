/*
 * The GPUs of one run whose file names several devices (cugraphrun(5),
 * Devices): which GPU each device is (gpu_devmap.h), each one's primary
 * context, peer access between them, and what lives per context: modules
 * and kernel functions (a kernel node runs where its CUfunction's module
 * was loaded), the context of memset, copy, memop and conditional nodes
 * and of conditional handles, the place and the access of graph
 * allocations.  Device 0 is the run's own GPU, which gpu_open opened
 * (gp->dev, gp->ctx, gp->modules, gp->funcs); a file on one device never
 * gets further than gpu_devices_open's first lines.  Kernels from a
 * library (--modules=library) need no second load: a node names the
 * CUkernel and its device's context (gpu_kernel.h); modules (the
 * default) are loaded again in each other device's context here.
 *
 * Ownership: the struct gpu_devs belongs to its struct gpu (gp->devs) and
 * holds the other devices' contexts (retained), modules and functions;
 * gpu_devices_close releases them (gpu_close calls it) and accepts a gpu
 * without any.
 */
#ifndef CGR_GPU_DEVICES_H
#define CGR_GPU_DEVICES_H

#include <stdbool.h>
#include <stddef.h>

#include "gpu_state.h"

/* One of the file's devices. */
struct gpu_dev {
	int ordinal;
	CUdevice dev;
	CUcontext ctx;
	bool retained;                  /* its primary context is retained here (not device 0's) */
	char name[256];
	unsigned long long peers;       /* bit k: this device reaches device k's memory (peer access on) */
	/* --modules=module only: its own loads of the modules (device 0 uses gp->modules) */
	CUmodule *modules;              /* per g->modules */
	CUfunction *funcs;              /* per gp->funcs */
};

struct gpu_devs {
	struct gpu_dev *v;
	unsigned n;                     /* the file's g->ndevices */
	bool no_peer;                   /* --no-peer */
	CUmemAccessDesc *access;        /* scratch for an alloc node's access descriptors */
};

/*
 * After gpu_open: the file's other devices on their GPUs, their contexts
 * retained, peer access on between every two of them that can have it
 * (unless --no-peer), and each node that reaches into another device's
 * memory checked against it.  0, or 3 after a message (too few GPUs, a
 * GPU that cannot reach another's memory), or 2 (--instantiate=
 * device_launch with a node off device 0).
 */
int gpu_devices_open(struct gpu *gp, const struct run_settings *s);
/*
 * During gpu_load, after device 0's modules, functions and their shared
 * memory opt-ins: the other devices' kernels with the same function
 * attributes there (cuKernelSetAttribute for a library's kernel, on each
 * device), their modules loaded in those devices' contexts first.  0, or
 * 3 after a message.
 */
int gpu_devices_load(struct gpu *gp);

/* The context node n runs in. */
CUcontext gpu_devices_ctx(const struct gpu *gp, const struct node *n);
/* The context of device k (0: the run's). */
CUcontext gpu_devices_ctx_of(const struct gpu *gp, unsigned k);
/* What kernel node n launches, in its device's context: a module's function there, or a library's kernel and the context. */
void gpu_devices_kernel(const struct gpu *gp, const struct node *n, CUDA_KERNEL_NODE_PARAMS_v3 *p);
/* Where alloc node n allocates, and the other devices that use its buffer. */
void gpu_devices_alloc_params(struct gpu *gp, const struct node *n, CUDA_MEM_ALLOC_NODE_PARAMS_v2 *p);
/*
 * Make device k's context current for an allocation there; the run's is
 * made current again by gpu_devices_leave.
 */
void gpu_devices_enter(const struct gpu *gp, unsigned k);
void gpu_devices_leave(const struct gpu *gp);

struct report_device;
/* A file on several devices: each one's GPU for the report (malloc'd); NULL (0) for one. */
struct report_device *gpu_devices_report(const struct gpu *gp, size_t *n);

/* The other devices' modules and contexts released (not after a sticky error: host memory only). */
void gpu_devices_close(struct gpu *gp, bool cuda);

#endif
