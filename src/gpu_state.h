/*
 * The GPU layer's shared state of one run, and what every gpu_* room reads
 * from it.  struct gpu holds the driver context, modules and their kernel
 * functions (struct kfunc), buffers, events, conditional handles and the
 * driver graphs as built (struct built_graph, struct node_handle);
 * gpu_build.c opens, fills and closes it, and the rooms below it
 * (gpu_attr, gpu_devices, gpu_kernel) and beside it read and add to it
 * through this header alone, so that none of them reaches back up into
 * the builder.  The small readers here: verbose notes, a buffer element's
 * device address, and during gpu_load a module's image and a kernel's
 * symbol in it.
 *
 * Ownership: a struct gpu owns every CUDA object and allocation it holds;
 * gpu_close() (gpu_build.h) releases them all (and only the host side
 * after a sticky CUDA error, when the driver would fail or block).  It
 * borrows the definition and the diag.  The readers here own nothing.
 */
#ifndef CGR_GPU_STATE_H
#define CGR_GPU_STATE_H

#include <stdbool.h>
#include <stddef.h>

#include "buf_host.h"
#include "cuda_api.h"
#include "diag.h"
#include "model.h"
#include "rtc_image.h"
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
struct gpu_libs;

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
	uint64_t *pitch;                /* per buffer: row to row in bytes as allocated (shape.h) */
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
	/* library nodes' handles, plans and work areas (gpu_lib.h); NULL without */
	struct gpu_libs *lib_state;
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

/* The device address of element offset of buffer b. */
CUdeviceptr gpu_buffer_addr(const struct gpu *gp, long b, uint64_t offset);

/*
 * During gpu_load only: the image a module was loaded from (NULL: none
 * kept), and the name a kernel node's function has in it.  gpu_build.c
 * reads kernels' parameter counts from them, gpu_devices.c loads a module
 * once more per device.
 */
const void *gpu_module_image(const struct gpu *gp, long mi, size_t *len);
const char *gpu_kernel_symbol(const struct gpu *gp, const struct kernel_node *k);

#endif
