/*
 * A sweep's update path: from one point's model to the next on the same
 * built and instantiated graph, changing only what differs
 * (sweep_diff.h), the way the driver allows it:
 *
 *   - a buffer whose size, type or memory kind changed is freed and
 *     allocated again, and every node that uses it has new parameters;
 *     a module whose definition changed is loaded again, and its kernel
 *     nodes have new parameters;
 *   - a kernel, memset or copy node with new parameters gets them on the
 *     template graph (cuGraphNodeSetParams, so that it stays in step)
 *     and on the executable graph (cuGraphExecNodeSetParams), on exactly
 *     the nodes whose parameters changed; a node inside a child graph or
 *     a conditional body gets them on the template, and the executable
 *     graph is updated from it with cuGraphExecUpdate;
 *   - a condition's default is the handle's: the template is built again
 *     with new handles and the executable graph updated from it
 *     (cuGraphExecUpdate updates handles' defaults);
 *   - a host node's new text or duration needs no driver call;
 *   - the driver decides: when it refuses (an error from a SetParams,
 *     cuGraphExecUpdate's CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE with its
 *     node and reason), or when the structure changed, or a rule forbids
 *     it (an alloc node's size, a node's priority, the event or condition
 *     a node names, device-updatable kernel nodes), the executable graph
 *     is destroyed first (a graph with memory, conditional or
 *     device-updatable nodes may have one at a time), the graph built and
 *     instantiated again, and the reason said (under -v, and in the
 *     report) with the YAML node or key that forced it.
 *
 * For tests: CUGRAPHRUN_TEST_REFUSE_UPDATE=ID makes the in-place update
 * of node ID fail as if the driver had refused it (CUDA_ERROR_INVALID_VALUE).
 *
 * Ownership: the updater borrows the gpu and the launcher; the reason it
 * gives stays valid until its next update.
 */
#ifndef CGR_GPU_UPDATE_H
#define CGR_GPU_UPDATE_H

#include <stdbool.h>

#include "gpu_build.h"
#include "gpu_launch.h"
#include "report.h"

struct updater {
	struct gpu *gp;                 /* borrowed */
	struct launcher *ln;            /* borrowed: its executable graph */
	/*
	 * The executable graph was instantiated from gp->root, so nodes of
	 * gp->root name its nodes (cuGraphExecNodeSetParams); false after
	 * cuGraphExecUpdate from a template built anew.
	 */
	bool paired;
	const char *label;              /* the point being prepared, for -v */
	char why[512];
};

/*
 * Prepare the point whose model is next, prev's successor: pr->prep,
 * prep_s (finding what changed and the driver's calls; or building,
 * instantiating and uploading), rebuild_why and updated_nodes.  0, or
 * an exit status after a message (3: CUDA; 2: a kernel that does not fit
 * its arguments).
 */
int gpu_update(struct updater *u, const struct gdef *prev, struct gdef *next,
	       struct point_report *pr);

#endif
