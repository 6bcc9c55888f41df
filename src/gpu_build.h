/*
 * Building the CUDA graph of a validated definition through the driver's
 * explicit graph API, into the struct gpu of the run (gpu_state.h): the
 * driver, device and context (gpu_open), modules and the kernel argument
 * check (gpu_load), buffers and their contents, every node kind's
 * parameters, the graph itself (gpu_build), and the steps a sweep's
 * update path takes on them (gpu_update.c).  gpu_run (gpu_run.c) drives
 * it; gpu_dot.c reads what the builder recorded.
 *
 * Ownership: what it opens, loads and builds is the struct gpu's;
 * gpu_close() releases it all (gpu_state.h says how).
 */
#ifndef CGR_GPU_BUILD_H
#define CGR_GPU_BUILD_H

#include <stdbool.h>
#include <stddef.h>

#include "gpu_state.h"

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
