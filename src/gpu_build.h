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

/*
 * A kernel function as loaded, with its parameter sizes when known.  From
 * a library (--modules=library) it is the context-independent k, and f
 * is its function in the run's context (gpu_kernel.h resolves it for
 * another).
 */
struct kfunc {
	CUfunction f;
	CUkernel k;                     /* from a library, else NULL */
	bool has_params;                /* cuFuncGetParamInfo answered */
	size_t nparams;
	size_t *sizes;
	/* dynamic shared memory it was opted in to beyond the default 48 KiB (0: none) */
	uint64_t shared_optin;
};

struct gpu_devs;

struct gpu {
	struct gdef *g;                 /* borrowed */
	struct diag *d;                 /* borrowed */
	enum verbosity verbosity;
	CUdevice dev;
	int ordinal;                    /* the device's number (--device) */
	int cc_major, cc_minor;         /* the device's compute capability */
	/* 2 x memory clock x bus width / 8 (3,352 on an H100 SXM); NaN: the driver does not say */
	double peak_gb_per_s;
	CUcontext ctx;
	bool ctx_retained;
	CUstream stream;
	/* a launch failed: the context is unusable, skip CUDA teardown */
	bool sticky;
	CUmodule *modules;              /* per g->modules (--modules=module) */
	bool use_library;               /* --modules=library: */
	CUlibrary *libs;                /* per g->modules (--modules=library) */
	/* source modules: what NVRTC or the cache gave, per g->modules */
	struct rtc_image *images;
	bool no_cache;                  /* --no-cache */
	enum module_api module_api;     /* --modules, for gpu_load */
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
	CUstreamBatchMemOpParams *opbuf; /* scratch for a memop node's operations */
	size_t opcap;
	/* run.persisting_l2 set the context's limit (gpu_attr.c), which was this */
	bool l2_set;
	size_t l2_before;
	/* the file's devices beyond the run's own GPU (gpu_devices.h); NULL before gpu_devices_open */
	struct gpu_devs *devs;
	/* a sweep: every point's model (the names source modules are compiled with) */
	struct gdef *const *models;
	size_t nmodels;
	char *const *labels;            /* each point's label, for its errors */
	CUgraphNode *handle_of;         /* per all_nodes index: the node made for it */
	/* modules or libraries a sweep's point replaced: unloaded at the end (gpu_kernel.c) */
	struct retired_module { CUmodule mod; CUlibrary lib; } *retired;
	size_t nretired, capretired;
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
/*
 * During gpu_load only (gpu_devices.c loads a module once per device): the
 * image a module was loaded from (NULL: none kept), and the name a kernel
 * node's function has in it.
 */
const void *gpu_module_image(const struct gpu *gp, long mi, size_t *len);
const char *gpu_kernel_symbol(const struct gpu *gp, const struct kernel_node *k);
/* Buffers (not graph-owned ones), events, conditional handles.  0 or 3. */
int gpu_alloc(struct gpu *gp);
/* Copy every buffer's init contents to it.  0 or 3. */
int gpu_init_buffers(struct gpu *gp);
/* The whole graph, into gp->root.  0 or 3. */
int gpu_build(struct gpu *gp);
/* Release everything; safe on a partly opened gpu and twice. */
void gpu_close(struct gpu *gp);

/* The device address of element offset of buffer b. */
CUdeviceptr gpu_buffer_addr(const struct gpu *gp, long b, uint64_t offset);

/* --- what a sweep's update path (gpu_update.c) needs --- */

/*
 * Kernel node n's function (loaded once per "module.function"), its
 * dynamic shared memory opt-in and the argument check.  0, 2 (a missing
 * function, arguments that do not fit) or 3.  *noted: the note that the
 * driver cannot report parameters was given.
 */
int gpu_prepare_kernel(struct gpu *gp, const struct node *n, bool *noted);
/* Has kernel node n's function been found (gpu_prepare_kernel) for the modules loaded now? */
bool gpu_func_known(const struct gpu *gp, const struct node *n);
/* Release what gpu_load kept for gpu_prepare_kernel (module images). */
void gpu_load_done(struct gpu *gp);
/*
 * Release gp->g's buffers, events, functions and modules (those kept
 * loaded until gpu_close: an executable graph may still use them), so
 * that gpu_load and gpu_alloc can start over for another model.
 */
void gpu_release(struct gpu *gp);
/* Load module i of gp->g again (its definition changed); functions are found anew.  0, 2, 3. */
int gpu_reload_module(struct gpu *gp, size_t i);
/* Buffer i, allocated before as memory kind was, allocated again for gp->g.  0 or 3. */
int gpu_realloc_buffer(struct gpu *gp, size_t i, enum mem_kind was);
/*
 * The driver's parameters for node n, by kind (a child graph node: a new
 * empty graph in *empty_child, the caller's to destroy).  0, or 3.
 */
int gpu_node_params(struct gpu *gp, struct node *n, CUgraphNodeParams *p,
		    CUgraph *empty_child);
/* The model is g now, of the same structure as the one built: nodes, graphs, host calls follow. */
void gpu_rebind(struct gpu *gp, struct gdef *g);
/* A built graph taken out of a struct gpu: its driver graph, nodes, host calls, handles. */
struct gpu_graph_state {
	CUgraph root;
	struct built_graph **built;
	size_t nbuilt;
	struct node_handle *nodes;
	struct host_call **calls;
	size_t ncalls;
	CUgraphNode *handle_of;
	CUgraphConditionalHandle *handles;
};
/* Take the built graph out of gp (which then has none, ready for gpu_build). */
void gpu_detach_graph(struct gpu *gp, struct gpu_graph_state *st);
/*
 * Destroy a detached graph and free what it holds; no executable graph
 * may use it any more (its host nodes' calls are freed).
 */
void gpu_free_graph_state(struct gpu_graph_state *st);

/* The YAML node a driver node was made for, or NULL. */
struct node *gpu_node_of(const struct gpu *gp, CUgraphNode h);
/* What was built for a model graph, or NULL. */
const struct built_graph *gpu_built_of(const struct gpu *gp, const struct graph *gr);

#endif
