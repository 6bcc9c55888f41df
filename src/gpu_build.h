/*
 * The GPU layer's shared state: the driver context, modules, buffers,
 * events and conditional handles of one run, and the CUDA graph built from
 * a validated definition through the driver's explicit graph API.  gpu_run
 * (gpu_run.c) drives it; gpu_dot.c reads what the builder recorded.
 *
 * Ownership: a struct gpu owns every CUDA object and allocation it holds;
 * gpu_close() releases them all (and only the host side after a sticky
 * CUDA error, when the driver would fail or block).  It borrows the
 * definition and the diag.
 */
#ifndef CGR_GPU_BUILD_H
#define CGR_GPU_BUILD_H

#include <stdbool.h>
#include <stddef.h>

#include "buf_host.h"
#include "cuda_api.h"
#include "diag.h"
#include "model.h"
#include "rtc_nvrtc.h"
#include "run_settings.h"

/* The built-in module's PTX, generated from src/builtin.cu (builtin_ptx.c). */
extern const char builtin_ptx[];

/*
 * One driver graph as built: the model graph it holds and its nodes in
 * creation order, which is how cuGraphDebugDotPrint numbers them.
 */
struct built_graph {
	const struct graph *gr;
	CUgraph h;
	struct node **created;
	size_t ncreated, capcreated;
};

/* A driver node and the YAML node it was made for. */
struct node_handle {
	CUgraphNode h;
	struct node *n;
};

/* A kernel function as loaded, with its parameter sizes when known. */
struct kfunc {
	CUfunction f;
	bool has_params;                /* cuFuncGetParamInfo answered */
	size_t nparams;
	size_t *sizes;
	/* dynamic shared memory it was opted in to beyond the default 48 KiB (0: none) */
	uint64_t shared_optin;
};

struct gpu {
	struct gdef *g;                 /* borrowed */
	struct diag *d;                 /* borrowed */
	enum verbosity verbosity;
	CUdevice dev;
	int cc_major, cc_minor;         /* the device's compute capability */
	CUcontext ctx;
	bool ctx_retained;
	CUstream stream;
	/* a launch failed: the context is unusable, skip CUDA teardown */
	bool sticky;
	CUmodule *modules;              /* per g->modules */
	/* source modules: what NVRTC or the cache gave, per g->modules */
	struct rtc_image *images;
	bool no_cache;                  /* --no-cache */
	unsigned nsources, ncached;     /* source modules loaded, of them from the cache */
	double compile_s;               /* wall time of compiling or finding them */
	/*
	 * per g->modules, during gpu_load: a module file's bytes and length,
	 * for the kernels' parameter layouts (cubin.h); a source's image stays
	 * in images[] as long.  Both are freed when gpu_load ends.
	 */
	char **file_bytes;
	size_t *file_len;
	struct strmap *func_index;      /* "module.function" -> funcs index */
	struct kfunc *funcs;
	size_t nfuncs, capfuncs;
	CUdeviceptr *dptr;              /* per buffer; graph buffers: set by the alloc node */
	void **host;                    /* per buffer: host address of host/managed memory */
	CUevent *events;                /* per g->events */
	bool *recorded;                 /* per event: some node records it */
	CUgraphConditionalHandle *handles; /* per g->conditions */
	CUgraph root;
	struct built_graph **built;
	size_t nbuilt, capbuilt;
	struct node_handle *nodes;      /* every driver node made, in creation order */
	size_t nnodes, capnodes;
	struct host_env host_env;       /* what host nodes' actions share (buf_host.h) */
	struct host_call **calls;
	size_t ncalls, capcalls;
	unsigned char *argbuf;          /* scratch for packing kernel arguments */
	size_t argcap;
};

/* Print a note on stderr when verbose. */
void gpu_verbose(const struct gpu *gp, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Driver, device, primary context and stream.  Returns 0 or an exit status (3). */
int gpu_open(struct gpu *gp, struct gdef *g, int device, enum verbosity v, struct diag *d);
/*
 * Modules, functions, the kernel argument check and the dynamic shared
 * memory opt-in.  0 or 3 (load, shared memory refused) / 2 (args).
 */
int gpu_load(struct gpu *gp);
/* Buffers (not graph-owned ones), events, conditional handles.  0 or 3. */
int gpu_alloc(struct gpu *gp);
/* Copy every buffer's init contents to it.  0 or 3. */
int gpu_init_buffers(struct gpu *gp);
/* The whole graph, into gp->root.  0 or 3. */
int gpu_build(struct gpu *gp);
/* Release everything; safe on a partly opened gpu and twice. */
void gpu_close(struct gpu *gp);

/* The YAML node a driver node was made for, or NULL. */
struct node *gpu_node_of(const struct gpu *gp, CUgraphNode h);
/* What was built for a model graph, or NULL. */
const struct built_graph *gpu_built_of(const struct gpu *gp, const struct graph *gr);

#endif
