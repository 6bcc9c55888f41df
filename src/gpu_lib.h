/*
 * Library nodes on the GPU (cugraphrun(5), Library nodes): cuBLAS and
 * cuFFT opened for a file that has cublas or cufft nodes (lib_api.h),
 * and each such node's call captured into the graph where the node
 * stands, after its dependencies.
 *
 * The libraries use the context current to the calling thread, and
 * gpu_open makes the device's primary context current, so they run in
 * the run's context; a node on another device of the file runs in that
 * device's (gpu_devices_enter).  Per device: one cuBLAS handle and one
 * stream to capture on.  Before any capture (nothing may allocate
 * during one): every cufft node's plan, and the work areas, one per slot
 * of nodes that never run at once (model_lib.h, lib_slots), each as
 * large as its largest user needs (cuBLAS's workspace, cuFFT's work
 * area).  A node's call is then captured with cuStreamBeginCaptureToGraph
 * straight into its graph (the root, a child graph or a conditional body)
 * after its dependencies; the nodes the capture made are the YAML node's,
 * and the last of them (or an empty node that joins them) is what the
 * nodes after it depend on.
 *
 * Ownership: a struct gpu's library state (gp->lib_state) holds the
 * handles, streams, plans and work areas; gpu_lib_close releases them.
 * Plans and work areas live as long as the run: a sweep's point whose
 * calls changed rebuilds the graph and gets new plans where they differ
 * (sweep_diff.h), once the old executable graph is gone.
 */
#ifndef CGR_GPU_LIB_H
#define CGR_GPU_LIB_H

#include <stdbool.h>
#include <stddef.h>

#include "gpu_state.h"

/*
 * The libraries, handles, streams, plans and work areas gp->g's library
 * nodes need, before its graph is built.  0; 3 after a message (a
 * library missing, a plan refused, memory).  Nothing (and nothing
 * loaded) for a file without library nodes.
 */
int gpu_lib_prepare(struct gpu *gp);

/*
 * Library node n captured into graph h after deps (and their edge data,
 * or NULL).  *made: the nodes the capture made, in the order they were
 * made, the joining empty node last if one was needed (malloc'd, the
 * caller frees it); *out: the node the nodes after n depend on.  0, or 3
 * after a message at the node.
 */
int gpu_lib_capture(struct gpu *gp, struct node *n, CUgraph h, const CUgraphNode *deps,
		    const CUgraphEdgeData *data, size_t ndeps, CUgraphNode **made,
		    size_t *nmade, CUgraphNode *out);

/*
 * Library node n's call issued on stream s (a mode that runs the graph's
 * work as stream launches, or a capture of its own), once gpu_lib_prepare
 * has run.  0, or 3 after a message.
 */
int gpu_lib_issue(struct gpu *gp, const struct node *n, CUstream s);

/*
 * Every library node's call issued once on its device's library stream
 * and waited for, as before a node is captured into the explicit graph:
 * capture mode's capture then loads nothing (a node on graph memory is
 * left alone).  0, or 3 after a message.
 */
int gpu_lib_warm_up(struct gpu *gp);

/*
 * The driver the libraries need (LIB_MIN_DRIVER: CUDA 13 for cuBLAS 13
 * and cuFFT 12), checked when the driver opens: false after an error at
 * the file's first library node when this driver is older.
 */
bool gpu_lib_check_driver(const struct gdef *g, struct diag *d);

/* Release what gpu_lib_prepare made; without cuda (a sticky error) host memory only. */
void gpu_lib_close(struct gpu *gp, bool cuda);

#endif
