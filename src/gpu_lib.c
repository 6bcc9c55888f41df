/*
 * Library nodes on the GPU (gpu_lib.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_devices.h"
#include "gpu_lib.h"
#include "lib_blas.h"
#include "lib_fft.h"
#include "xmalloc.h"

/* One device's: its capture stream and its cuBLAS handle. */
struct lib_dev {
	CUstream stream;
	cublasHandle_t blas;
};

/* One slot's work area, on its device. */
struct lib_slot {
	unsigned device;
	CUdeviceptr ptr;
	size_t size;
};

/* One node's (by all_nodes index): its slot, and a cufft node's plan with what made it. */
struct lib_node_rt {
	uint32_t slot;
	bool has_plan;
	unsigned plan_device;
	cufftHandle plan;
	struct fft_call made_with;
	size_t work;
};

struct gpu_libs {
	struct lib_dev *devs;
	size_t ndevs;
	struct lib_slot *slots;
	size_t nslots;
	struct lib_node_rt *nodes;
	size_t nnodes;
};

bool gpu_lib_check_driver(const struct gdef *g, struct diag *d)
{
	if (cu.driver_version >= LIB_MIN_DRIVER)
		return true;
	for (size_t i = 0; i < g->nall_nodes; i++) {
		const struct node *n = g->all_nodes[i];
		if (!node_kind_is_library(n->kind))
			continue;
		char need[16], have[16];
		diag_error(d, n->kind_pos, "node '%s' is a %s node, and %s (%s) needs a CUDA %s "
			   "driver or newer; this driver is CUDA %s", n->id, node_kind_names[n->kind],
			   n->kind == NK_CUBLAS ? "cuBLAS" : "cuFFT",
			   lib_file(n->kind == NK_CUBLAS ? LIB_CUBLAS : LIB_CUFFT),
			   cu_version_str(LIB_MIN_DRIVER, need, sizeof need),
			   cu_version_str(cu.driver_version, have, sizeof have));
		return false;
	}
	return true;
}

/* What n needs, and the first node that needs each library. */
static void find_users(const struct gdef *g, const struct node *first[LIB_COUNT])
{
	first[LIB_CUBLAS] = first[LIB_CUFFT] = NULL;
	for (size_t i = 0; i < g->nall_nodes; i++) {
		const struct node *n = g->all_nodes[i];
		enum lib_which w = n->kind == NK_CUBLAS ? LIB_CUBLAS : LIB_CUFFT;
		if (node_kind_is_library(n->kind) && first[w] == NULL)
			first[w] = n;
	}
}

/* Open the libraries the nodes use: 0, or 3 after an error at the first user. */
static int open_libs(struct gpu *gp, const struct node *first[LIB_COUNT])
{
	static const char *const what[LIB_COUNT] = {"cuBLAS", "cuFFT"};
	int rc = 0;
	for (int w = 0; w < LIB_COUNT; w++) {
		char why[512];
		if (first[w] == NULL || lib_open((enum lib_which)w, why, sizeof why))
			continue;
		diag_error(gp->d, first[w]->kind_pos, "%s node '%s' needs %s, which cannot be "
			   "loaded (%s); it comes with the CUDA toolkit (%s): put its folder (such "
			   "as /usr/local/cuda/lib64) on LD_LIBRARY_PATH, or set CUDA_HOME",
			   node_kind_names[first[w]->kind], first[w]->id, what[w], why,
			   lib_file((enum lib_which)w));
		rc = 3;
	}
	if (rc == 0 && first[LIB_CUBLAS])
		gpu_verbose(gp, "cuBLAS %d.%d.%d from %s", cublas.major, cublas.minor, cublas.patch,
			    cublas.path);
	if (rc == 0 && first[LIB_CUFFT])
		gpu_verbose(gp, "cuFFT %d from %s", cufft.version, cufft.path);
	return rc;
}

/* Device k's stream and (when cuBLAS is used) handle, made once, in its context. */
static int open_device(struct gpu *gp, struct gpu_libs *st, unsigned k, bool blas,
		       const struct node *n)
{
	if (k >= st->ndevs) {
		st->devs = xreallocarray(st->devs, k + 1, sizeof *st->devs);
		memset(st->devs + st->ndevs, 0, (k + 1 - st->ndevs) * sizeof *st->devs);
		st->ndevs = k + 1;
	}
	struct lib_dev *ld = &st->devs[k];
	CUresult r = CUDA_SUCCESS;
	cublasStatus_t b = CUBLAS_STATUS_SUCCESS;
	gpu_devices_enter(gp, k);
	if (ld->stream == NULL)
		r = cu.StreamCreate(&ld->stream, CU_STREAM_NON_BLOCKING);
	if (r == CUDA_SUCCESS && blas && ld->blas == NULL)
		b = cublas.Create(&ld->blas);
	gpu_devices_leave(gp);
	if (r != CUDA_SUCCESS) {
		ld->stream = NULL;
		diag_error(gp->d, n->kind_pos, "cannot make a stream to capture %s node '%s' on: %s",
			   node_kind_names[n->kind], n->id, cu_strerror(r));
		return 3;
	}
	if (b != CUBLAS_STATUS_SUCCESS) {
		ld->blas = NULL;
		diag_error(gp->d, n->kind_pos, "cannot make a cuBLAS handle for %s node '%s' on "
			   "device %u: %s (cublasCreate)", node_kind_names[n->kind], n->id, k,
			   lib_blas_status(b));
		return 3;
	}
	return 0;
}

static void destroy_plan(struct gpu *gp, struct lib_node_rt *rt)
{
	if (!rt->has_plan)
		return;
	gpu_devices_enter(gp, rt->plan_device);
	cufft.Destroy(rt->plan);
	gpu_devices_leave(gp);
	rt->has_plan = false;
}

/* Cufft node n's plan: the one it has when it would be the same, else a new one. */
static int make_plan(struct gpu *gp, const struct node *n, struct lib_node_rt *rt)
{
	const struct fft_call *f = n->u.fft;
	unsigned dev = node_device(gp->g, n);
	if (rt->has_plan && rt->plan_device == dev && lib_fft_same_plan(&rt->made_with, f))
		return 0;
	destroy_plan(gp, rt);
	const char *what = "";
	gpu_devices_enter(gp, dev);
	cufftResult r = lib_fft_plan(f, &rt->plan, &rt->work, &what);
	gpu_devices_leave(gp);
	if (r != CUFFT_SUCCESS) {
		char label[256];
		lib_label(n, label, sizeof label);
		diag_error(gp->d, n->kind_pos, "cuFFT cannot plan cufft node '%s' (%s): %s (%s)",
			   n->id, label, lib_fft_status(r), what);
		return 3;
	}
	rt->has_plan = true;
	rt->plan_device = dev;
	rt->made_with = *f;
	gpu_verbose(gp, "cufft node '%s': plan made, work area %zu bytes", n->id, rt->work);
	return 0;
}

/* The per-node state sized for g; the plans of nodes beyond it, or no longer cufft, go. */
static void fit_nodes(struct gpu *gp, struct gpu_libs *st)
{
	const struct gdef *g = gp->g;
	for (size_t i = 0; i < st->nnodes; i++)
		if (i >= g->nall_nodes || g->all_nodes[i]->kind != NK_CUFFT)
			destroy_plan(gp, &st->nodes[i]);
	if (g->nall_nodes > st->nnodes) {
		st->nodes = xreallocarray(st->nodes, g->nall_nodes, sizeof *st->nodes);
		memset(st->nodes + st->nnodes, 0, (g->nall_nodes - st->nnodes) * sizeof *st->nodes);
		st->nnodes = g->nall_nodes;
	}
}

/* Each slot's work area, as large as its largest user needs; grown (never shrunk) as needed. */
static int fit_slots(struct gpu *gp, struct gpu_libs *st, size_t nslots)
{
	const struct gdef *g = gp->g;
	size_t *need = xcalloc(nslots ? nslots : 1, sizeof *need);
	unsigned *dev = xcalloc(nslots ? nslots : 1, sizeof *dev);
	size_t blas_ws = lib_blas_workspace(gp->cc_major);
	for (size_t i = 0; i < g->nall_nodes; i++) {
		const struct node *n = g->all_nodes[i];
		if (!node_kind_is_library(n->kind))
			continue;
		const struct lib_node_rt *rt = &st->nodes[i];
		size_t want = n->kind == NK_CUBLAS ? blas_ws : rt->work;
		if (want > need[rt->slot])
			need[rt->slot] = want;
		dev[rt->slot] = node_device(g, n);
	}
	if (nslots > st->nslots) {
		st->slots = xreallocarray(st->slots, nslots, sizeof *st->slots);
		memset(st->slots + st->nslots, 0, (nslots - st->nslots) * sizeof *st->slots);
		st->nslots = nslots;
	}
	int rc = 0;
	for (size_t s = 0; s < nslots && rc == 0; s++) {
		struct lib_slot *sl = &st->slots[s];
		if (sl->ptr && sl->device == dev[s] && sl->size >= need[s])
			continue;
		gpu_devices_enter(gp, sl->device);
		if (sl->ptr)
			cu.MemFree(sl->ptr);
		gpu_devices_leave(gp);
		sl->ptr = 0;
		sl->size = 0;
		sl->device = dev[s];
		if (need[s] == 0)
			continue;
		gpu_devices_enter(gp, sl->device);
		CUresult r = cu.MemAlloc(&sl->ptr, need[s]);
		gpu_devices_leave(gp);
		if (r != CUDA_SUCCESS) {
			sl->ptr = 0;
			errorx("cannot allocate %zu bytes of work area for library nodes on device "
			       "%u: %s", need[s], sl->device, cu_strerror(r));
			rc = 3;
			break;
		}
		sl->size = need[s];
		gpu_verbose(gp, "library work area %zu: %zu bytes on device %u", s, sl->size,
			    sl->device);
	}
	free(need);
	free(dev);
	return rc;
}

int gpu_lib_prepare(struct gpu *gp)
{
	const struct gdef *g = gp->g;
	const struct node *first[LIB_COUNT];
	find_users(g, first);
	if (first[LIB_CUBLAS] == NULL && first[LIB_CUFFT] == NULL)
		return 0;
	int rc = open_libs(gp, first);
	if (rc != 0)
		return rc;
	if (gp->lib_state == NULL)
		gp->lib_state = xcalloc(1, sizeof *gp->lib_state);
	struct gpu_libs *st = gp->lib_state;
	fit_nodes(gp, st);
	uint32_t *slot_of = xcalloc(g->nall_nodes ? g->nall_nodes : 1, sizeof *slot_of);
	size_t nslots = lib_slots(g, slot_of);
	for (size_t i = 0; i < g->nall_nodes && rc == 0; i++) {
		const struct node *n = g->all_nodes[i];
		if (!node_kind_is_library(n->kind))
			continue;
		st->nodes[i].slot = slot_of[i];
		rc = open_device(gp, st, node_device(g, n), n->kind == NK_CUBLAS, n);
		if (rc == 0 && n->kind == NK_CUFFT)
			rc = make_plan(gp, n, &st->nodes[i]);
	}
	free(slot_of);
	if (rc == 0)
		rc = fit_slots(gp, st, nslots);
	return rc;
}

/* Issue node n's call on stream s (its device's context current).  0, or 3 after a message. */
static int issue(struct gpu *gp, const struct node *n, CUstream s)
{
	struct gpu_libs *st = gp->lib_state;
	const struct lib_node_rt *rt = &st->nodes[n->seq];
	const struct lib_slot *sl = &st->slots[rt->slot];
	const char *what = "";
	char status[320];
	if (n->kind == NK_CUBLAS) {
		const struct blas_call *c = n->u.blas;
		struct blas_args a = {.workspace = sl->ptr, .workspace_size = sl->size};
		for (int o = 0; o < OPND_COUNT; o++)
			if (c->opnd[o].buffer.name && c->opnd[o].buffer.idx >= 0)
				a.opnd[o] = gpu_buffer_addr(gp, c->opnd[o].buffer.idx, c->opnd[o].offset);
		for (int k = 0; k < SC_COUNT; k++)
			if (c->scalar[k].given && c->scalar[k].device)
				a.scalar[k] = gpu_buffer_addr(gp, c->scalar[k].opnd.buffer.idx,
							      c->scalar[k].opnd.offset);
		cublasStatus_t r = lib_blas_issue(st->devs[node_device(gp->g, n)].blas, c, &a, s,
						  &what);
		if (r == CUBLAS_STATUS_SUCCESS)
			return 0;
		snprintf(status, sizeof status, "%s", lib_blas_status(r));
	} else {
		const struct fft_call *f = n->u.fft;
		cufftResult r = lib_fft_issue(rt->plan, f,
					      gpu_buffer_addr(gp, f->idata.buffer.idx, f->idata.offset),
					      gpu_buffer_addr(gp, f->odata.buffer.idx, f->odata.offset),
					      sl->ptr, s, &what);
		if (r == CUFFT_SUCCESS)
			return 0;
		snprintf(status, sizeof status, "%s", lib_fft_status(r));
	}
	char label[256];
	lib_label(n, label, sizeof label);
	diag_error(gp->d, n->kind_pos, "%s node '%s' (%s): %s failed: %s",
		   node_kind_names[n->kind], n->id, label, what, status);
	return 3;
}

int gpu_lib_issue(struct gpu *gp, const struct node *n, CUstream s)
{
	unsigned dev = node_device(gp->g, n);
	gpu_devices_enter(gp, dev);
	int rc = issue(gp, n, s);
	gpu_devices_leave(gp);
	return rc;
}

struct graph_use {
	const struct gdef *g;
	bool any;
};

static void graph_use_one(void *ctx, struct name_ref *ref, struct pos pos, bool writes)
{
	struct graph_use *u = ctx;
	if (ref->idx >= 0 && u->g->buffers[ref->idx].memory == MEM_GRAPH)
		u->any = true;
}

/*
 * A call issued once outside capture, before it is captured: what a
 * library loads or sets up on a call's first use (the kernels the
 * driver loads lazily, a heuristic's cache) then happens here, where it
 * may, and not inside the capture.  It runs on the buffers as they are
 * before being filled (gpu_init_buffers fills them after the graph is
 * built), and is waited for; a node on graph memory is not warmed up,
 * its addresses holding nothing outside the graph.  0, or 3 after a
 * message (the call refused: capturing it would fail alike).
 */
static int warm_up(struct gpu *gp, const struct node *n, CUstream s)
{
	struct graph_use u = {gp->g, false};
	lib_node_uses(n, graph_use_one, &u);
	if (u.any)
		return 0;
	int rc = issue(gp, n, s);
	CUresult r = rc == 0 ? cu.CtxSynchronize() : CUDA_SUCCESS;
	if (r != CUDA_SUCCESS) {
		diag_error(gp->d, n->kind_pos, "%s node '%s' failed when run once before its "
			   "capture: %s", node_kind_names[n->kind], n->id, cu_strerror(r));
		gp->sticky = true;
		return 3;
	}
	return rc;
}

int gpu_lib_warm_up(struct gpu *gp)
{
	struct gpu_libs *st = gp->lib_state;
	int rc = 0;
	for (size_t i = 0; st && i < gp->g->nall_nodes && rc == 0; i++) {
		const struct node *n = gp->g->all_nodes[i];
		if (!node_kind_is_library(n->kind) || n->disabled)
			continue;
		unsigned dev = node_device(gp->g, n);
		/* on the device's library stream, as gpu_lib_capture warms a node up */
		gpu_devices_enter(gp, dev);
		rc = warm_up(gp, n, st->devs[dev].stream);
		gpu_devices_leave(gp);
	}
	return rc;
}

/* Is h one of v[0..n)? */
static bool among(const CUgraphNode *v, size_t n, CUgraphNode h)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == h)
			return true;
	return false;
}

/*
 * The nodes a capture made, from its last ones (sinks) back to the nodes
 * it began after (deps): every node it made leads to a last one, and
 * depends on what it made or on deps alone.  Their order among
 * themselves is not the order made, but they were made one after the
 * other, and all stand for the same YAML node.  0, or a driver error.
 */
static CUresult captured(const CUgraphNode *sinks, size_t nsinks, const CUgraphNode *deps,
			 size_t ndeps, CUgraphNode **made, size_t *nmade)
{
	CUgraphNode *stack = NULL, *up = NULL;
	CUgraphEdgeData *data = NULL;
	size_t nstack = 0, capstack = 0, capup = 0, cap = 0;
	CUresult r = CUDA_SUCCESS;
	*made = NULL;
	*nmade = 0;
	for (size_t i = 0; i < nsinks; i++)
		*VEC_PUSH(stack, nstack, capstack) = sinks[i];
	while (nstack > 0 && r == CUDA_SUCCESS) {
		CUgraphNode h = stack[--nstack];
		if (among(deps, ndeps, h) || among(*made, *nmade, h))
			continue;
		*VEC_PUSH(*made, *nmade, cap) = h;
		size_t k = 0;
		if ((r = cu.GraphNodeGetDependencies(h, NULL, NULL, &k)) != CUDA_SUCCESS || k == 0)
			continue;
		if (k > capup) {
			capup = k;
			up = xreallocarray(up, capup, sizeof *up);
			data = xreallocarray(data, capup, sizeof *data);
		}
		if ((r = cu.GraphNodeGetDependencies(h, up, data, &k)) != CUDA_SUCCESS)
			continue;
		for (size_t j = 0; j < k; j++)
			*VEC_PUSH(stack, nstack, capstack) = up[j];
	}
	free(stack);
	free(up);
	free(data);
	/* made last first: reversed, roughly the order made */
	for (size_t i = 0; i < *nmade / 2; i++) {
		CUgraphNode t = (*made)[i];
		(*made)[i] = (*made)[*nmade - 1 - i];
		(*made)[*nmade - 1 - i] = t;
	}
	return r;
}

/* An empty node after deps (none captured) or after the capture's last nodes. */
static CUresult join(CUgraph h, const CUgraphNode *after, const CUgraphEdgeData *data,
		     size_t nafter, CUgraphNode *out)
{
	CUgraphNodeParams p;
	memset(&p, 0, sizeof p);
	p.type = CU_GRAPH_NODE_TYPE_EMPTY;
	return cu_graph_add_node(out, h, after, data, nafter, &p);
}

/* The capture's last nodes, copied before it ends (the driver's array is its own). */
static CUresult capture_end(CUstream s, CUgraphNode **sinks, size_t *nsinks)
{
	CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
	const CUgraphNode *last = NULL;
	const CUgraphEdgeData *edata = NULL;
	size_t n = 0;
	CUgraph g = NULL;
	CUresult r = cu.StreamGetCaptureInfo(s, &status, NULL, &g, &last, &edata, &n);
	*nsinks = 0;
	*sinks = NULL;
	if (r == CUDA_SUCCESS && status == CU_STREAM_CAPTURE_STATUS_ACTIVE && n > 0) {
		*sinks = xcalloc(n, sizeof **sinks);
		memcpy(*sinks, last, n * sizeof **sinks);
		*nsinks = n;
	}
	CUresult e = cu.StreamEndCapture(s, &g);
	return r != CUDA_SUCCESS ? r : e;
}

int gpu_lib_capture(struct gpu *gp, struct node *n, CUgraph h, const CUgraphNode *deps,
		    const CUgraphEdgeData *data, size_t ndeps, CUgraphNode **made,
		    size_t *nmade, CUgraphNode *out)
{
	struct gpu_libs *st = gp->lib_state;
	unsigned dev = node_device(gp->g, n);
	CUstream s = st->devs[dev].stream;
	CUgraphNode *sinks = NULL;
	size_t nsinks = 0;
	*made = NULL;
	*nmade = 0;
	gpu_devices_enter(gp, dev);
	int rc = warm_up(gp, n, s);
	if (rc != 0) {
		gpu_devices_leave(gp);
		return rc;
	}
	/* thread-local: an allocation the library made while capturing would be an error here */
	CUresult r = cu.StreamBeginCaptureToGraph(s, h, deps, data, ndeps,
						  CU_STREAM_CAPTURE_MODE_THREAD_LOCAL);
	if (r == CUDA_SUCCESS) {
		rc = issue(gp, n, s);
		r = capture_end(s, &sinks, &nsinks);
	}
	gpu_devices_leave(gp);
	if (rc != 0) {
		free(sinks);
		return rc;
	}
	if (r == CUDA_SUCCESS)
		r = captured(sinks, nsinks, deps, ndeps, made, nmade);
	if (r != CUDA_SUCCESS) {
		diag_error(gp->d, n->kind_pos, "cannot capture %s node '%s' into the graph: %s",
			   node_kind_names[n->kind], n->id, cu_strerror(r));
		free(sinks);
		return 3;
	}
	if (*nmade > 0 && nsinks == 1 && among(*made, *nmade, sinks[0])) {
		*out = sinks[0];
	} else {
		/* nothing captured (n = 0), or several last nodes: one node for those after n */
		r = *nmade ? join(h, sinks, NULL, nsinks, out) : join(h, deps, data, ndeps, out);
		if (r == CUDA_SUCCESS) {
			size_t cap = *nmade;
			*VEC_PUSH(*made, *nmade, cap) = *out;
		}
	}
	free(sinks);
	if (r != CUDA_SUCCESS) {
		diag_error(gp->d, n->kind_pos, "cannot add the node that ends %s node '%s': %s",
			   node_kind_names[n->kind], n->id, cu_strerror(r));
		return 3;
	}
	gpu_verbose(gp, "captured %s node '%s': %zu node%s", node_kind_names[n->kind], n->id,
		    *nmade, *nmade == 1 ? "" : "s");
	return 0;
}

void gpu_lib_close(struct gpu *gp, bool cuda)
{
	struct gpu_libs *st = gp->lib_state;
	if (st == NULL)
		return;
	for (size_t i = 0; cuda && i < st->nnodes; i++)
		destroy_plan(gp, &st->nodes[i]);
	for (size_t s = 0; cuda && s < st->nslots; s++)
		if (st->slots[s].ptr) {
			gpu_devices_enter(gp, st->slots[s].device);
			cu.MemFree(st->slots[s].ptr);
			gpu_devices_leave(gp);
		}
	for (size_t k = 0; cuda && k < st->ndevs; k++) {
		gpu_devices_enter(gp, (unsigned)k);
		if (st->devs[k].blas)
			cublas.Destroy(st->devs[k].blas);
		if (st->devs[k].stream)
			cu.StreamDestroy(st->devs[k].stream);
		gpu_devices_leave(gp);
	}
	free(st->devs);
	free(st->slots);
	free(st->nodes);
	free(st);
	gp->lib_state = NULL;
}
