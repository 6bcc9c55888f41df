/*
 * Stream mode: the plan made real and issued at every launch
 * (gpu_stream.h).
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_build.h"
#include "gpu_devices.h"
#include "gpu_lib.h"
#include "gpu_stream.h"
#include "modes.h"
#include "monotime.h"
#include "sweep_diff.h"
#include "xmalloc.h"

/* The driver's calls a mode makes, and whether this driver has each. */
struct call_need {
	bool have;
	const char *name;
	bool capture;                   /* capture mode's alone */
	bool conditional;               /* only for a file with conditional nodes */
};

static bool have_calls(const struct gpu *gp, bool capture)
{
	const struct call_need need[] = {
		{cu.LaunchKernelEx != NULL, "cuLaunchKernelEx", false, false},
		{cu.MemsetD8Async && cu.MemsetD16Async && cu.MemsetD32Async, "cuMemsetD8Async", false, false},
		{cu.MemcpyAsync != NULL, "cuMemcpyAsync", false, false},
		{cu.MemsetD2D8Async && cu.MemsetD2D16Async && cu.MemsetD2D32Async,
		 "cuMemsetD2D8Async", false, false},
		{cu.Memcpy3DAsync != NULL, "cuMemcpy3DAsync", false, false},
		{cu.LaunchHostFunc != NULL, "cuLaunchHostFunc", false, false},
		{cu.StreamWaitEvent != NULL, "cuStreamWaitEvent", false, false},
		{cu.StreamBatchMemOp != NULL, "cuStreamBatchMemOp", false, false},
		{cu.DeviceGetDefaultMemPool && cu.MemPoolGetAttribute && cu.MemPoolSetAttribute &&
		 cu.MemPoolSetAccess, "cuDeviceGetDefaultMemPool", false, false},
		{cu.MemAllocFromPoolAsync && cu.MemFreeAsync, "cuMemAllocFromPoolAsync", false, false},
		{cu.MemcpyDtoHAsync != NULL, "cuMemcpyDtoHAsync", false, true},
		{cu.StreamBeginCapture && cu.StreamEndCapture, "cuStreamBeginCapture", true, false},
		{cu.EventRecordWithFlags != NULL, "cuEventRecordWithFlags", true, false},
		{cu.StreamGetCaptureInfo != NULL, "cuStreamGetCaptureInfo (CUDA 12.3)", true, true},
		{cu.StreamBeginCaptureToGraph != NULL, "cuStreamBeginCaptureToGraph (CUDA 12.3)", true,
		 true},
		{cu.StreamUpdateCaptureDependencies != NULL,
		 "cuStreamUpdateCaptureDependencies (CUDA 12.3)", true, true},
	};
	char ver[16];
	for (size_t i = 0; i < sizeof need / sizeof *need; i++) {
		if (need[i].have || (need[i].capture && !capture) ||
		    (need[i].conditional && gp->g->nconditions == 0))
			continue;
		errorx("%s mode needs %s, which this driver (CUDA %s) does not have",
		       capture ? "capture" : "stream", need[i].name,
		       cu_version_str(cu.driver_version, ver, sizeof ver));
		return false;
	}
	return true;
}

void gstream_device(struct gstream *gs, unsigned k)
{
	if (k == gs->cur_device)
		return;
	if (k == 0)
		gpu_devices_leave(gs->gp);
	else
		gpu_devices_enter(gs->gp, k);
	gs->cur_device = k;
}

/* A step's issue failed: remember which, for the message. */
static CUresult failed(struct gstream *gs, const struct node *n, const char *call, CUresult r)
{
	if (r != CUDA_SUCCESS && gs->failed_call == NULL) {
		gs->failed = n;
		gs->failed_call = call;
	}
	return r;
}

/* Readying a step's parameters -------------------------------------------- */

#define SLOT_ALIGN 16

static size_t slot(size_t n)
{
	return (n + SLOT_ALIGN - 1) / SLOT_ALIGN * SLOT_ALIGN;
}

/* A kernel's kernelParams, copied into one block of its own (gpu_node_params' are reused). */
static void **copy_params(void *const *src, const struct kernel_node *k)
{
	size_t head = slot((k->nargs + 1) * sizeof(void *)), total = head;
	for (size_t i = 0; i < k->nargs; i++)
		total += slot(arg_size(&k->args[i]));
	char *block = xcalloc(1, total);
	void **params = (void **)block;
	char *at = block + head;
	for (size_t i = 0; i < k->nargs; i++) {
		size_t size = arg_size(&k->args[i]);
		memcpy(at, src[i], size);
		params[i] = at;
		at += slot(size);
	}
	return params;
}

/* The copies a readied step owns. */
static void free_copies(struct gstep *g)
{
	if (!g->ready)
		return;
	if (g->p.type == CU_GRAPH_NODE_TYPE_KERNEL)
		free(g->p.kernel.kernelParams);
	else if (g->p.type == CU_GRAPH_NODE_TYPE_BATCH_MEM_OP)
		free(g->p.memOp.paramArray);
	g->ready = false;
}

/*
 * The function a kernel step launches: the node's (a library's kernel
 * cast, which cuLaunchKernelEx takes, in the stream's context), or in
 * stream mode a built-in kernel's variant that writes the condition's
 * word (builtin.cu), from the module as the device has it.
 */
static CUresult kernel_function(struct gstream *gs, const struct pstep *st, struct gstep *g)
{
	struct gpu *gp = gs->gp;
	const struct kernel_node *k = &st->n->u.kernel;
	const struct module *m = &gp->g->modules[k->module.idx];
	const char *variant = !gs->capture && m->builtin ? mode_builtin_variant(k->func) : NULL;
	if (variant == NULL) {
		g->f = g->p.kernel.func ? g->p.kernel.func : (CUfunction)g->p.kernel.kern;
		return CUDA_SUCCESS;
	}
	if (gp->use_library) {
		CUkernel kern = NULL;
		CUresult r = cu.LibraryGetKernel(&kern, gp->libs[k->module.idx], variant);
		g->f = (CUfunction)kern;
		return r;
	}
	CUmodule mod = gp->modules[k->module.idx];
	if (st->device && gp->devs && gp->devs->v[st->device].modules)
		mod = gp->devs->v[st->device].modules[k->module.idx];
	return cu.ModuleGetFunction(&g->f, mod, variant);
}

static void add_attr(struct gstep *g, CUlaunchAttributeID id, CUlaunchAttributeValue v)
{
	g->attrs[g->nattrs].id = id;
	g->attrs[g->nattrs++].value = v;
}

/*
 * The launch attributes of a kernel step: the node's, then those of the
 * plan's programmatic edges (stream_plan.h).  One PROGRAMMATIC_EVENT per
 * launch: a kernel that both triggers one wait and starts another gives
 * the triggered event to both (gplan_events), a later start for the
 * launch_order one, never an early one.
 */
static void kernel_attrs(struct gstream *gs, const struct pstep *st, struct gstep *g)
{
	CUlaunchAttributeValue v;
	g->nattrs = gpu_attr_launch(gs->gp, st->n, g->attrs);
	/* a node's priority counts where the graph's would: under use_node_priority */
	if (!(gs->ln->s->instantiate & INST_USE_NODE_PRIORITY)) {
		unsigned k = 0;
		for (unsigned i = 0; i < g->nattrs; i++)
			if (g->attrs[i].id != CU_LAUNCH_ATTRIBUTE_PRIORITY)
				g->attrs[k++] = g->attrs[i];
		g->nattrs = k;
	}
	if (st->serial) {
		memset(&v, 0, sizeof v);
		v.programmaticStreamSerializationAllowed = 1;
		add_attr(g, CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION, v);
	}
	bool trig = st->gives >> PEV_TRIGGERED & 1, start = st->gives >> PEV_BEGUN_PROG & 1;
	if (trig || start) {
		memset(&v, 0, sizeof v);
		v.programmaticEvent.event = g->ev[trig ? PEV_TRIGGERED : PEV_BEGUN_PROG];
		v.programmaticEvent.triggerAtBlockStart = !trig;
		add_attr(g, CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT, v);
	}
	if (st->gives >> PEV_BEGUN & 1) {
		memset(&v, 0, sizeof v);
		v.launchCompletionEvent.event = g->ev[PEV_BEGUN];
		add_attr(g, CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT, v);
	}
}

/* Does node n use graph memory, whose address each launch's allocation may change? */
static bool uses_graph_memory(const struct gdef *g, const struct node *n)
{
	if (n->kind == NK_ALLOC || n->kind == NK_FREE)
		return false;
	for (size_t b = 0; b < g->nbuffers; b++)
		if (g->buffers[b].memory == MEM_GRAPH && node_uses_buffer(n, (long)b))
			return true;
	return false;
}

/* Node step st's parameters, function and attributes, as gpu_build gives its node.  0, or 3. */
static int ready_step(struct gstream *gs, const struct pstep *st, struct gstep *g)
{
	struct gpu *gp = gs->gp;
	free_copies(g);
	/* a library node is the library's call, issued on the stream (gpu_lib.h) */
	if (node_kind_is_library(st->n->kind)) {
		g->ready = true;
		return 0;
	}
	CUgraph empty = NULL;
	/* the builder's parameters of every kind (a step is never a child graph node) */
	if (gpu_node_params(gp, (struct node *)st->n, &g->p, &empty) != 0)
		return 3;
	if (empty)
		cu.GraphDestroy(empty);
	if (g->p.type == CU_GRAPH_NODE_TYPE_KERNEL) {
		CUresult r = kernel_function(gs, st, g);
		if (r != CUDA_SUCCESS) {
			diag_error(gp->d, st->n->pos, "cannot get the stream variant of kernel '%s' "
				   "(node '%s'): %s", st->n->u.kernel.function, st->n->id,
				   cu_strerror(r));
			return 3;
		}
		g->p.kernel.kernelParams = copy_params(g->p.kernel.kernelParams, &st->n->u.kernel);
		kernel_attrs(gs, st, g);
	} else if (g->p.type == CU_GRAPH_NODE_TYPE_BATCH_MEM_OP) {
		size_t n = g->p.memOp.count;
		CUstreamBatchMemOpParams *ops = xcalloc(n ? n : 1, sizeof *ops);
		memcpy(ops, g->p.memOp.paramArray, n * sizeof *ops);
		g->p.memOp.paramArray = ops;
	}
	g->repack = !gs->capture && uses_graph_memory(gp->g, st->n);
	g->ready = true;
	return 0;
}

/* Making the plan real ------------------------------------------------------ */

static CUresult new_event(struct gstream *gs, unsigned device, CUevent *ev)
{
	/* an event is recorded on a stream of its own context */
	gpu_devices_enter(gs->gp, device);
	CUresult r = cu.EventCreate(ev, CU_EVENT_DISABLE_TIMING);
	gpu_devices_leave(gs->gp);
	if (r != CUDA_SUCCESS)
		*ev = NULL;
	return r;
}

/* The events step st gives; a launch has one PROGRAMMATIC_EVENT (kernel_attrs). */
static CUresult gplan_events(struct gstream *gs, const struct pstep *st, struct gstep *g)
{
	CUresult r = CUDA_SUCCESS;
	for (unsigned e = 0; e < PEV_COUNT && r == CUDA_SUCCESS; e++) {
		if (!(st->gives >> e & 1))
			continue;
		if (e == PEV_BEGUN_PROG && (st->gives >> PEV_TRIGGERED & 1))
			g->ev[e] = g->ev[PEV_TRIGGERED];
		else
			r = new_event(gs, st->device, &g->ev[e]);
	}
	if (r == CUDA_SUCCESS && st->kind == PS_COND && !gs->capture)
		r = new_event(gs, st->device, &g->poll);
	return r;
}

/*
 * Stream mode and capture mode allocate graph memory from the device's
 * default pool: its threshold raised so that what a launch frees stays
 * for the next (a careful program's setting; the pool gives it back at
 * every synchronisation otherwise), the alloc node's peers given access.
 */
static CUresult alloc_pool(struct gstream *gs, const struct pstep *st, const struct gstep *g)
{
	struct gpu *gp = gs->gp;
	unsigned d = st->device;
	CUresult r = CUDA_SUCCESS;
	if (gs->pools[d] == NULL) {
		CUdevice dev = gp->devs ? gp->devs->v[d].dev : gp->dev;
		cuuint64_t most = UINT64_MAX;
		r = cu.DeviceGetDefaultMemPool(&gs->pools[d], dev);
		if (r == CUDA_SUCCESS)
			r = cu.MemPoolGetAttribute(gs->pools[d], CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
						   &gs->threshold[d]);
		if (r == CUDA_SUCCESS)
			r = cu.MemPoolSetAttribute(gs->pools[d], CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
						   &most);
		if (r != CUDA_SUCCESS)
			gs->pools[d] = NULL;
	}
	if (r == CUDA_SUCCESS && g->p.alloc.accessDescCount)
		r = cu.MemPoolSetAccess(gs->pools[d], g->p.alloc.accessDescs,
					g->p.alloc.accessDescCount);
	return r;
}

static void gplan_free(struct gstream *gs, struct gplan *p, bool cuda);

/* Plan sp made real: its streams, events, bodies and (stream mode) steps.  NULL after a message. */
static struct gplan *gplan_make(struct gstream *gs, const struct splan *sp, bool root)
{
	struct gpu *gp = gs->gp;
	struct gplan *p = xcalloc(1, sizeof *p);
	p->sp = sp;
	p->steps = xcalloc(sp->nsteps ? sp->nsteps : 1, sizeof *p->steps);
	p->streams = xcalloc(sp->nstreams ? sp->nstreams : 1, sizeof *p->streams);
	p->own = xcalloc(sp->nstreams ? sp->nstreams : 1, sizeof *p->own);
	CUresult r = CUDA_SUCCESS;
	const struct node *at = NULL;
	for (size_t s = 0; s < sp->nstreams && r == CUDA_SUCCESS; s++) {
		/* the root's home is the launch's stream; a body's, its conditional node's in stream mode */
		if (s == 0 && (root || !gs->capture)) {
			p->streams[0] = root ? gp->stream : NULL;
			gs->nstreams += root;
			continue;
		}
		gpu_devices_enter(gp, sp->stream_device[s]);
		r = cu.StreamCreate(&p->streams[s], CU_STREAM_NON_BLOCKING);
		gpu_devices_leave(gp);
		p->own[s] = r == CUDA_SUCCESS;
		gs->nstreams++;
	}
	for (size_t i = 0; i < sp->nsteps && r == CUDA_SUCCESS; i++) {
		const struct pstep *st = &sp->steps[i];
		struct gstep *g = &p->steps[i];
		at = st->n;
		r = gplan_events(gs, st, g);
		if (r != CUDA_SUCCESS)
			break;
		if (st->kind == PS_NODE && (!gs->capture || st->n->kind == NK_ALLOC) &&
		    ready_step(gs, st, g) != 0) {
			gplan_free(gs, p, true);
			return NULL;
		}
		if (st->kind == PS_NODE && st->n->kind == NK_ALLOC &&
		    (r = alloc_pool(gs, st, g)) != CUDA_SUCCESS)
			break;
		if (st->kind != PS_COND)
			continue;
		g->bodies = xcalloc(st->nbodies ? st->nbodies : 1, sizeof *g->bodies);
		for (size_t b = 0; b < st->nbodies; b++)
			if ((g->bodies[b] = gplan_make(gs, st->bodies[b], false)) == NULL) {
				gplan_free(gs, p, true);
				return NULL;
			}
	}
	if (r != CUDA_SUCCESS) {
		if (at)
			diag_error(gp->d, at->pos, "cannot make the streams and events of node '%s' "
				   "for %s mode: %s", at->id, gs->capture ? "capture" : "stream",
				   cu_strerror(r));
		else
			errorx("cannot make the streams and events of %s mode: %s",
			       gs->capture ? "capture" : "stream", cu_strerror(r));
		gplan_free(gs, p, true);
		return NULL;
	}
	return p;
}

static void gplan_free(struct gstream *gs, struct gplan *p, bool cuda)
{
	if (p == NULL)
		return;
	for (size_t i = 0; i < p->sp->nsteps; i++) {
		struct gstep *g = &p->steps[i];
		for (size_t b = 0; g->bodies && b < p->sp->steps[i].nbodies; b++)
			gplan_free(gs, g->bodies[b], cuda);
		free(g->bodies);
		free_copies(g);
		for (unsigned e = 0; cuda && e < PEV_COUNT; e++)
			if (g->ev[e] && !(e == PEV_BEGUN_PROG && g->ev[e] == g->ev[PEV_TRIGGERED]))
				cu.EventDestroy(g->ev[e]);
		if (cuda && g->poll)
			cu.EventDestroy(g->poll);
	}
	for (size_t s = 0; cuda && s < p->sp->nstreams; s++)
		if (p->own[s])
			cu.StreamDestroy(p->streams[s]);
	free(p->steps);
	free(p->streams);
	free(p->own);
	free(p);
}

/*
 * Stream mode: each condition's word in device memory on its device, and
 * the pinned host words they are read back into; gp->handles holds each
 * word's address, which the kernels' arguments pack where a handle goes.
 */
static int make_words(struct gstream *gs)
{
	struct gpu *gp = gs->gp;
	const struct gdef *g = gp->g;
	unsigned nd = g->ndevices ? g->ndevices : 1;
	size_t nc = g->nconditions, *count = xcalloc(nd, sizeof *count);
	gs->word = xcalloc(nc, sizeof *gs->word);
	for (size_t c = 0; c < nc; c++)
		count[g->conditions[c].device]++;
	CUresult r = CUDA_SUCCESS;
	for (unsigned d = 0; d < nd && r == CUDA_SUCCESS; d++) {
		if (count[d] == 0)
			continue;
		gpu_devices_enter(gp, d);
		r = cu.MemAlloc(&gs->blocks[d], count[d] * sizeof(uint32_t));
		gpu_devices_leave(gp);
		if (r != CUDA_SUCCESS)
			gs->blocks[d] = 0;
		count[d] = 0;
	}
	if (r == CUDA_SUCCESS)
		r = cu.MemHostAlloc((void **)&gs->host_words, nc * sizeof(uint32_t),
				    CU_MEMHOSTALLOC_PORTABLE);
	free(count);
	if (r != CUDA_SUCCESS) {
		gs->host_words = NULL;
		errorx("cannot allocate the conditions' words for stream mode: %s", cu_strerror(r));
		return 3;
	}
	size_t *at = xcalloc(nd, sizeof *at);
	free(gp->handles);
	gp->handles = xcalloc(nc, sizeof *gp->handles);
	for (size_t c = 0; c < nc; c++) {
		unsigned d = g->conditions[c].device;
		gs->word[c] = gs->blocks[d] + at[d]++ * sizeof(uint32_t);
		gp->handles[c] = (CUgraphConditionalHandle)gs->word[c];
	}
	free(at);
	return 0;
}

static CUresult host_cond(struct gstream *gs, struct gplan *p, size_t i, CUstream s);

int gstream_open(struct gpu *gp, struct launcher *ln, bool capture, struct gstream **out)
{
	*out = NULL;
	if (!have_calls(gp, capture))
		return 3;
	/* function attributes and what only the device can say, as before a graph's nodes */
	int rc = gpu_attr_prepare(gp);
	/* library nodes' plans and work areas, and under capture their first use outside it */
	if (rc == 0)
		rc = gpu_lib_prepare(gp);
	if (rc == 0 && capture)
		rc = gpu_lib_warm_up(gp);
	if (rc != 0)
		return rc;
	struct gstream *gs = xcalloc(1, sizeof *gs);
	unsigned nd = gp->g->ndevices ? gp->g->ndevices : 1;
	gs->gp = gp;
	gs->ln = ln;
	gs->capture = capture;
	gs->cond = capture ? NULL : host_cond;
	gs->launch = -1;
	gs->pools = xcalloc(nd, sizeof *gs->pools);
	gs->threshold = xcalloc(nd, sizeof *gs->threshold);
	gs->blocks = xcalloc(nd, sizeof *gs->blocks);
	struct splan_opts o = {.words = !capture};
	gs->plan = splan_make(gp->g, gp->g->root, &o);
	if (!capture && gp->g->nconditions && (rc = make_words(gs)) != 0) {
		gstream_close(gs);
		return rc;
	}
	gs->root = gplan_make(gs, gs->plan, true);
	if (gs->root == NULL) {
		gstream_close(gs);
		return 3;
	}
	gpu_verbose(gp, "%s mode: %zu steps on %u stream%s", capture ? "capture" : "stream",
		    gs->plan->nsteps, gs->nstreams, gs->nstreams == 1 ? "" : "s");
	*out = gs;
	return 0;
}

void gstream_close(struct gstream *gs)
{
	if (gs == NULL)
		return;
	struct gpu *gp = gs->gp;
	bool cuda = !gp->sticky && gp->ctx_retained;
	gplan_free(gs, gs->root, cuda);
	unsigned nd = gp->g->ndevices ? gp->g->ndevices : 1;
	for (unsigned d = 0; cuda && d < nd; d++) {
		if (gs->pools[d])
			cu.MemPoolSetAttribute(gs->pools[d], CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
					       &gs->threshold[d]);
		if (gs->blocks[d]) {
			gpu_devices_enter(gp, d);
			cu.MemFree(gs->blocks[d]);
			gpu_devices_leave(gp);
		}
	}
	if (cuda && gs->host_words)
		cu.MemFreeHost(gs->host_words);
	/* stream mode's handles are the words, gone now; capture's belong to its graph */
	if (!gs->capture) {
		free(gp->handles);
		gp->handles = NULL;
	}
	free(gs->word);
	free(gs->blocks);
	free(gs->pools);
	free(gs->threshold);
	splan_free(gs->plan);
	free(gs);
}

unsigned gstream_streams(const struct gstream *gs)
{
	return gs->nstreams;
}

unsigned gstream_host_waits(const struct gstream *gs)
{
	return gs->last_waits;
}

void gstream_number(struct gstream *gs, long k)
{
	gs->launch = k;
}

/* Issuing ------------------------------------------------------------------- */

/* A memset of several rows at a pitch: cuMemsetD2D*Async of its element size. */
static CUresult issue_memset2d(struct gstream *gs, const struct node *n,
			       const CUDA_MEMSET_NODE_PARAMS_v2 *m, CUstream s)
{
	switch (m->elementSize) {
	case 1:
		return failed(gs, n, "cuMemsetD2D8Async", cu.MemsetD2D8Async(m->dst, m->pitch,
			      (unsigned char)m->value, m->width, m->height, s));
	case 2:
		return failed(gs, n, "cuMemsetD2D16Async", cu.MemsetD2D16Async(m->dst, m->pitch,
			      (unsigned short)m->value, m->width, m->height, s));
	default:
		return failed(gs, n, "cuMemsetD2D32Async", cu.MemsetD2D32Async(m->dst, m->pitch,
			      m->value, m->width, m->height, s));
	}
}

/* A copy of one run of bytes from device address to device address (a buffer's slice). */
static bool copy_is_flat(const CUDA_MEMCPY3D *c)
{
	return c->Height <= 1 && c->Depth <= 1 && c->srcXInBytes == 0 && c->dstXInBytes == 0 &&
	       c->srcY == 0 && c->dstY == 0 && c->srcZ == 0 && c->dstZ == 0 &&
	       c->srcMemoryType != CU_MEMORYTYPE_ARRAY && c->dstMemoryType != CU_MEMORYTYPE_ARRAY;
}

static CUresult issue_node(struct gstream *gs, const struct pstep *st, struct gstep *g,
			   CUstream s)
{
	struct gpu *gp = gs->gp;
	const struct node *n = st->n;
	/* capture readies each step as it goes; stream mode again where graph memory moved */
	if ((!g->ready || g->repack) && ready_step(gs, st, g) != 0)
		return failed(gs, n, "its parameters", CUDA_ERROR_INVALID_VALUE);
	if (node_kind_is_library(n->kind))
		return failed(gs, n, "its library's call",
			      gpu_lib_issue(gp, n, s) == 0 ? CUDA_SUCCESS : CUDA_ERROR_UNKNOWN);
	const CUgraphNodeParams *p = &g->p;
	CUevent ev;
	switch (p->type) {
	case CU_GRAPH_NODE_TYPE_KERNEL: {
		CUlaunchConfig cfg = {
			.gridDimX = p->kernel.gridDimX, .gridDimY = p->kernel.gridDimY,
			.gridDimZ = p->kernel.gridDimZ, .blockDimX = p->kernel.blockDimX,
			.blockDimY = p->kernel.blockDimY, .blockDimZ = p->kernel.blockDimZ,
			.sharedMemBytes = p->kernel.sharedMemBytes, .hStream = s,
			.attrs = g->nattrs ? (CUlaunchAttribute *)g->attrs : NULL,
			.numAttrs = g->nattrs,
		};
		return failed(gs, n, "cuLaunchKernelEx",
			      cu.LaunchKernelEx(&cfg, g->f, p->kernel.kernelParams, NULL));
	}
	case CU_GRAPH_NODE_TYPE_MEMSET:
		/* a shaped buffer's rows (cugraphrun(5) Shapes): one 2-D memset */
		if (p->memset.height > 1)
			return issue_memset2d(gs, n, &p->memset, s);
		switch (p->memset.elementSize) {
		case 1:
			return failed(gs, n, "cuMemsetD8Async", cu.MemsetD8Async(p->memset.dst,
				      (unsigned char)p->memset.value, p->memset.width, s));
		case 2:
			return failed(gs, n, "cuMemsetD16Async", cu.MemsetD16Async(p->memset.dst,
				      (unsigned short)p->memset.value, p->memset.width, s));
		default:
			return failed(gs, n, "cuMemsetD32Async", cu.MemsetD32Async(p->memset.dst,
				      p->memset.value, p->memset.width, s));
		}
	case CU_GRAPH_NODE_TYPE_MEMCPY: {
		const CUDA_MEMCPY3D *c = &p->memcpy.copyParams;
		/* rows or slices, or an end at a pitch of its own: the copy as the node has it */
		if (!copy_is_flat(c))
			return failed(gs, n, "cuMemcpy3DAsync", cu.Memcpy3DAsync(c, s));
		return failed(gs, n, "cuMemcpyAsync",
			      cu.MemcpyAsync(c->dstDevice, c->srcDevice, c->WidthInBytes, s));
	}
	case CU_GRAPH_NODE_TYPE_HOST:
		return failed(gs, n, "cuLaunchHostFunc",
			      cu.LaunchHostFunc(s, p->host.fn, p->host.userData));
	case CU_GRAPH_NODE_TYPE_MEM_ALLOC: {
		CUdeviceptr a = 0;
		CUresult r = cu.MemAllocFromPoolAsync(&a, p->alloc.bytesize, gs->pools[st->device], s);
		gp->dptr[n->u.buffer.idx] = a;
		return failed(gs, n, "cuMemAllocFromPoolAsync", r);
	}
	case CU_GRAPH_NODE_TYPE_MEM_FREE:
		return failed(gs, n, "cuMemFreeAsync", cu.MemFreeAsync(gp->dptr[n->u.buffer.idx], s));
	case CU_GRAPH_NODE_TYPE_EVENT_RECORD:
		ev = p->eventRecord.event;
		/* under capture, an event record node: a plain record would only join streams */
		return failed(gs, n, "cuEventRecord", gs->capture ?
			      cu.EventRecordWithFlags(ev, s, CU_EVENT_RECORD_EXTERNAL) :
			      cu.EventRecord(ev, s));
	case CU_GRAPH_NODE_TYPE_WAIT_EVENT:
		ev = p->eventWait.event;
		return failed(gs, n, "cuStreamWaitEvent", cu.StreamWaitEvent(s, ev,
			      gs->capture ? CU_EVENT_WAIT_EXTERNAL : CU_EVENT_WAIT_DEFAULT));
	case CU_GRAPH_NODE_TYPE_BATCH_MEM_OP:
		return failed(gs, n, "cuStreamBatchMemOp",
			      cu.StreamBatchMemOp(s, p->memOp.count, p->memOp.paramArray, 0));
	default:
		return failed(gs, n, "its kind", CUDA_ERROR_NOT_SUPPORTED);
	}
}

/* Stream mode: the words of device k's conditions set to their defaults, on s. */
static CUresult reset_words(struct gstream *gs, unsigned k, CUstream s)
{
	const struct gdef *g = gs->gp->g;
	CUresult r = CUDA_SUCCESS;
	for (size_t c = 0; c < g->nconditions && r == CUDA_SUCCESS; c++)
		if (g->conditions[c].device == k)
			r = cu.MemsetD32Async(gs->word[c], g->conditions[c].default_value, 1, s);
	return failed(gs, NULL, "cuMemsetD32Async (a condition's default)", r);
}

/*
 * The launch's deadline (--timeout) has passed: it ends as a launch that
 * hangs does.  Counted from the launch's first host wait, not from its
 * start: issuing the steps before it takes microseconds, and reading the
 * clock at every launch would put a clock_gettime between the launch's
 * events, which is a system call where the clock source has no vDSO.
 */
static void check_deadline(struct gstream *gs)
{
	uint64_t ns = gs->ln->s->timeout_ns;
	if (ns == 0)
		return;
	double now = monotime();
	if (isnan(gs->launch_start))
		gs->launch_start = now;
	else if (now > gs->launch_start + (double)ns * 1e-9)
		launcher_timed_out(gs->ln, gs->launch);
}

/*
 * Condition c's word, read back after what s has queued: a copy to the
 * host, an event the host waits for, polling (a while that never ends
 * meets the deadline here, as a graph's launch would in the launcher).
 */
static CUresult read_word(struct gstream *gs, const struct node *n, struct gstep *g, CUstream s,
			  uint32_t *v)
{
	long c = n->u.cond.condition.idx;
	CUresult r = cu.MemcpyDtoHAsync(&gs->host_words[c], gs->word[c], sizeof(uint32_t), s);
	if (r == CUDA_SUCCESS)
		r = cu.EventRecord(g->poll, s);
	/* (each 'not ready' asks again: it is no failure) */
	if (r == CUDA_SUCCESS)
		while ((r = cu.EventQuery(g->poll)) == CUDA_ERROR_NOT_READY)
			check_deadline(gs);
	check_deadline(gs);
	gs->waits++;
	*v = ((volatile uint32_t *)gs->host_words)[c];
	return failed(gs, n, "reading its condition back", r);
}

/*
 * Stream mode's conditional node: the host reads the word and issues the
 * body it picks in place, on the node's stream; a while reads it again
 * after each pass.  The body's streams join s at its end.
 */
static CUresult host_cond(struct gstream *gs, struct gplan *p, size_t i, CUstream s)
{
	const struct pstep *st = &p->sp->steps[i];
	struct gstep *g = &p->steps[i];
	const struct node *n = st->n;
	uint32_t v;
	CUresult r = read_word(gs, n, g, s, &v);
	if (r != CUDA_SUCCESS)
		return r;
	switch (n->kind) {
	case NK_IF:
		if (v || st->nbodies > 1)
			r = gstream_issue_plan(gs, g->bodies[v ? 0 : 1], s);
		break;
	case NK_SWITCH:
		if (v < st->nbodies)
			r = gstream_issue_plan(gs, g->bodies[v], s);
		break;
	case NK_WHILE:
		while (v && r == CUDA_SUCCESS) {
			r = gstream_issue_plan(gs, g->bodies[0], s);
			if (r == CUDA_SUCCESS)
				r = read_word(gs, n, g, s, &v);
		}
		break;
	default:
		break;
	}
	gstream_device(gs, st->device);
	return r;
}

CUresult gstream_issue_plan(struct gstream *gs, struct gplan *p, CUstream home)
{
	const struct splan *sp = p->sp;
	if (home)
		p->streams[0] = home;
	for (size_t i = 0; i < sp->nsteps; i++) {
		const struct pstep *st = &sp->steps[i];
		struct gstep *g = &p->steps[i];
		CUstream s = p->streams[st->stream];
		CUresult r = CUDA_SUCCESS;
		gstream_device(gs, st->device);
		for (uint32_t w = 0; w < st->nwaits && r == CUDA_SUCCESS; w++)
			r = failed(gs, st->n, "cuStreamWaitEvent (a dependency on another stream)",
				   cu.StreamWaitEvent(s, p->steps[st->waits[w].step].ev[st->waits[w].ev],
						      CU_EVENT_WAIT_DEFAULT));
		if (r == CUDA_SUCCESS && st->kind == PS_NODE)
			r = issue_node(gs, st, g, s);
		else if (r == CUDA_SUCCESS && st->kind == PS_RESET)
			r = reset_words(gs, st->device, s);
		else if (r == CUDA_SUCCESS && st->kind == PS_BEGIN && sp->reset_at_begin)
			r = reset_words(gs, 0, s);
		else if (r == CUDA_SUCCESS && st->kind == PS_COND)
			r = gs->cond(gs, p, i, s);
		if (r == CUDA_SUCCESS && (st->gives >> PEV_DONE & 1))
			r = failed(gs, st->n, "cuEventRecord (for a step on another stream)",
				   cu.EventRecord(g->ev[PEV_DONE], s));
		if (r != CUDA_SUCCESS)
			return r;
	}
	return CUDA_SUCCESS;
}

CUresult gstream_issue(void *arg)
{
	struct gstream *gs = arg;
	gs->launch_start = NAN;         /* check_deadline reads the clock at the first wait */
	gs->waits = 0;
	gs->failed = NULL;
	gs->failed_call = NULL;
	CUresult r = gstream_issue_plan(gs, gs->root, NULL);
	gstream_device(gs, 0);
	gs->last_waits = gs->waits;
	gs->launch++;
	/* the launcher says which launch failed; this says where */
	if (r != CUDA_SUCCESS && gs->failed)
		diag_error(gs->gp->d, gs->failed->pos, "stream mode: %s of node '%s' failed: %s",
			   gs->failed_call, gs->failed->id, cu_strerror(r));
	else if (r != CUDA_SUCCESS && gs->failed_call)
		diag_error(gs->gp->d, (struct pos){0}, "stream mode: %s failed: %s", gs->failed_call,
			   cu_strerror(r));
	return r;
}
