/*
 * Capture mode (cugraphrun(1), MODES): stream mode's issue (gpu_stream.h)
 * once under stream capture on the launch's stream, into the graph that
 * gp->root then holds and the launcher instantiates and launches as any
 * other.  The conditions' handles are created in the capture's graph
 * before the first step, as gpu_build creates them on the root before any
 * node: a kernel may set a condition before the node that reads it.  A
 * conditional node is added to the capture where it stands
 * (cuStreamGetCaptureInfo's dependencies, then
 * cuStreamUpdateCaptureDependencies), and each of its bodies filled by
 * capturing into it on a stream of its own (cuStreamBeginCaptureToGraph,
 * driver 12.3), as libraries do.  The capture is relaxed: nothing here
 * makes a call that a stricter mode guards against, and none of this
 * process's other threads touches CUDA meanwhile.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "gpu_devices.h"
#include "gpu_stream.h"
#include "xmalloc.h"

#define CAPTURE_MODE CU_STREAM_CAPTURE_MODE_RELAXED

/* The conditions' handles, in the graph the launch's stream captures into.  0 or 3. */
static int make_handles(struct gstream *gs)
{
	struct gpu *gp = gs->gp;
	const struct gdef *g = gp->g;
	CUstreamCaptureStatus status;
	cuuint64_t id;
	CUgraph graph = NULL;
	const CUgraphNode *deps;
	const CUgraphEdgeData *data;
	size_t ndeps;
	CUresult r = cu.StreamGetCaptureInfo(gp->stream, &status, &id, &graph, &deps, &data, &ndeps);
	if (r == CUDA_SUCCESS && status != CU_STREAM_CAPTURE_STATUS_ACTIVE)
		r = CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
	if (r != CUDA_SUCCESS) {
		errorx("capture mode: cannot find the graph being captured: %s", cu_strerror(r));
		return 3;
	}
	free(gp->handles);
	gp->handles = xcalloc(g->nconditions, sizeof *gp->handles);
	for (size_t i = 0; i < g->nconditions; i++) {
		const struct condition *c = &g->conditions[i];
		r = cu.GraphConditionalHandleCreate(&gp->handles[i], graph,
						    gpu_devices_ctx_of(gp, c->device),
						    c->default_value, CU_GRAPH_COND_ASSIGN_DEFAULT);
		if (r != CUDA_SUCCESS) {
			diag_error(gp->d, c->pos, "capture mode: cannot create conditional handle "
				   "'%s': %s", c->name, cu_strerror(r));
			return 3;
		}
	}
	return 0;
}

/* A conditional node's driver type. */
static CUgraphConditionalNodeType cond_type(enum node_kind k)
{
	return k == NK_IF ? CU_GRAPH_COND_TYPE_IF :
		k == NK_WHILE ? CU_GRAPH_COND_TYPE_WHILE : CU_GRAPH_COND_TYPE_SWITCH;
}

/* Body plan p captured into graph: on its own stream, begun and ended there. */
static CUresult capture_body(struct gstream *gs, struct gplan *p, CUgraph graph,
			     const struct node *n)
{
	CUstream bs = p->streams[0];
	CUresult r = cu.StreamBeginCaptureToGraph(bs, graph, NULL, NULL, 0, CAPTURE_MODE);
	if (r != CUDA_SUCCESS) {
		gs->failed = n;
		gs->failed_call = "cuStreamBeginCaptureToGraph (its body)";
		return r;
	}
	r = gstream_issue_plan(gs, p, NULL);
	CUgraph out = NULL;
	CUresult e = cu.StreamEndCapture(bs, &out);
	if (r == CUDA_SUCCESS && e != CUDA_SUCCESS) {
		gs->failed = n;
		gs->failed_call = "cuStreamEndCapture (its body)";
		r = e;
	}
	return r;
}

/* Conditional step i of p, on s (gs->cond): the node added to the capture, its bodies captured. */
static CUresult capture_cond(struct gstream *gs, struct gplan *p, size_t i, CUstream s)
{
	struct gpu *gp = gs->gp;
	const struct pstep *st = &p->sp->steps[i];
	struct gstep *g = &p->steps[i];
	const struct node *n = st->n;
	CUstreamCaptureStatus status;
	cuuint64_t id;
	CUgraph graph = NULL;
	const CUgraphNode *deps = NULL;
	const CUgraphEdgeData *data = NULL;
	size_t ndeps = 0;
	CUresult r = cu.StreamGetCaptureInfo(s, &status, &id, &graph, &deps, &data, &ndeps);
	if (r == CUDA_SUCCESS && status != CU_STREAM_CAPTURE_STATUS_ACTIVE)
		r = CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
	CUgraphNodeParams cp;
	memset(&cp, 0, sizeof cp);
	cp.type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
	cp.conditional.handle = gp->handles[n->u.cond.condition.idx];
	cp.conditional.type = cond_type(n->kind);
	cp.conditional.size = n->kind == NK_WHILE ? 1 : (unsigned)n->u.cond.nbodies;
	cp.conditional.ctx = gpu_devices_ctx(gp, n);
	CUgraphNode node = NULL;
	/* the dependencies are valid until the next call on s: added at once */
	if (r == CUDA_SUCCESS)
		r = cu_graph_add_node(&node, graph, deps, data, ndeps, &cp);
	if (r == CUDA_SUCCESS)
		r = cu.StreamUpdateCaptureDependencies(s, &node, NULL, 1,
						       CU_STREAM_SET_CAPTURE_DEPENDENCIES);
	if (r != CUDA_SUCCESS) {
		gs->failed = n;
		gs->failed_call = "adding it to the capture";
		return r;
	}
	for (size_t b = 0; b < st->nbodies && r == CUDA_SUCCESS; b++)
		r = capture_body(gs, g->bodies[b], cp.conditional.phGraph_out[b], n);
	gstream_device(gs, st->device);
	return r;
}

int gstream_capture(struct gstream *gs)
{
	struct gpu *gp = gs->gp;
	gs->failed = NULL;
	gs->failed_call = NULL;
	gs->cond = capture_cond;
	CUresult r = cu.StreamBeginCapture(gp->stream, CAPTURE_MODE);
	if (r != CUDA_SUCCESS) {
		errorx("capture mode: cannot begin capturing the launch's stream: %s",
		       cu_strerror(r));
		return 3;
	}
	int rc = gp->g->nconditions ? make_handles(gs) : 0;
	if (rc == 0)
		r = gstream_issue_plan(gs, gs->root, NULL);
	gstream_device(gs, 0);
	/* ended whatever happened: a stream left capturing refuses all else */
	CUgraph graph = NULL;
	CUresult e = cu.StreamEndCapture(gp->stream, &graph);
	if (rc == 0 && r != CUDA_SUCCESS) {
		if (gs->failed)
			diag_error(gp->d, gs->failed->pos, "capture mode: %s of node '%s' failed: %s",
				   gs->failed_call, gs->failed->id, cu_strerror(r));
		else
			errorx("capture mode: %s failed: %s",
			       gs->failed_call ? gs->failed_call : "the issue", cu_strerror(r));
		rc = 3;
	} else if (rc == 0 && e != CUDA_SUCCESS) {
		errorx("capture mode: the capture ended with an error: %s", cu_strerror(e));
		rc = 3;
	}
	if (rc != 0) {
		if (graph)
			cu.GraphDestroy(graph);
		return rc;
	}
	gp->root = graph;
	return 0;
}
