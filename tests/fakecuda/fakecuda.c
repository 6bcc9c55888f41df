/*
 * A fake libcuda.so.1 for the tests that need no GPU: enough of the
 * driver API, fetched the way cugraphrun fetches it (cuGetProcAddress_v2),
 * for a run of a file to go through the GPU back end end to end on a
 * machine without one: graph, stream and capture modes (tests/modes.test).
 * It is no simulator, and proves nothing about a GPU:
 *
 *   - "device" memory is host memory (malloc), so memsets, copies,
 *     memory operations and host nodes act, and checks read real bytes;
 *   - every stream runs its work at once, in the order it is queued, so
 *     streams never overlap (an ordering bug between streams goes unseen);
 *   - kernels do nothing, except the built-in module's (set, set_from,
 *     countdown and their stream-mode variants set_word, set_from_word,
 *     countdown_word), the test kernels "inc" (p[0] += 1, a u32) and
 *     "twice" (p[0] *= 2), and the GPU suite's add_one, add_n, set_cond
 *     and mark (tests/gpu/kernels/tk.cu), found by name, so that
 *     conditional nodes and host loops run real trips, orders show in a
 *     buffer, and the GPU suite's modes cases can be tried here;
 *   - graphs run their nodes in creation order (cugraphrun adds them in a
 *     topological order; a capture adds them in issue order), conditional
 *     nodes on their handles' values.
 *
 * It checks what the driver would refuse, as errors the run reports: an
 * event recorded on a stream of another context, a timing event given to
 * a launch's programmatic or completion event attribute, a handle that is
 * not one, a capture ended while a stream that joined it has work after
 * its last join (CUDA_ERROR_STREAM_CAPTURE_UNJOINED), a stream used for a
 * second capture, a graph with handles launched past a while's 100,000th
 * trip.  FAKECUDA_GPUS=N gives N devices (default 1); FAKECUDA_LOG=FILE
 * appends one line per call it counts: "launch", "wait", "record",
 * "capture-node", for the tests to count.
 *
 * Not built into cugraphrun: Makefile.am builds it for the tests alone.
 */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda.h>
#include <cudaTypedefs.h>

#define EXPORT __attribute__((visibility("default")))

enum { M_CTX = 0x5c7, M_STREAM, M_EVENT, M_GRAPH, M_NODE, M_EXEC, M_MOD, M_FUNC };

struct fctx {
	int magic;
	int dev;
};

struct fnode;

struct fgraph {
	int magic;
	struct fnode **nodes;
	size_t n, cap;
	int refs;                       /* the graph itself, and each exec of it */
};

struct ffunc {
	int magic;
	char name[64];
	struct fctx *ctx;
};

struct fnode {
	int magic;
	CUgraphNodeType type;
	CUgraphNodeParams p;
	struct ffunc *fn;               /* a kernel's */
	unsigned char args[4][8];       /* a kernel's first arguments, of those it runs */
	struct fgraph *child;
	struct fgraph **bodies;
	unsigned nbodies;
	void *mem;                      /* an alloc node's */
	CUstreamBatchMemOpParams *ops;
	struct fnode **deps;            /* in its graph */
	size_t ndeps;
	bool mark;                      /* reached from the end of a capture */
};

struct fevent {
	int magic;
	struct fctx *ctx;
	unsigned flags;
	bool recorded;
	bool asked;                     /* queried since its last record */
	double t;
	unsigned long cap;              /* recorded in this capture (0: none) */
	struct fnode **deps;
	size_t ndeps;
};

struct fstream {
	int magic;
	struct fctx *ctx;
	unsigned long cap;              /* capturing into capture cap (0: not) */
	struct fgraph *graph;
	bool origin;
	size_t first;                   /* the origin: the first node of its capture in graph */
	struct fnode **deps;
	size_t ndeps;
};

struct fexec {
	int magic;
	struct fgraph *g;
	bool *off;                      /* per node of g: switched off */
};

struct fmodule {
	int magic;
	struct ffunc funcs[64];
	int nfuncs;
	struct fctx *ctx;
};

static struct fctx ctxs[8];
static struct fctx *current;
static int ngpus = 1;
static double now_us;
static unsigned long captures;
/* conditional handles: value and default, by handle - 1 */
static unsigned handle_value[4096], handle_default[4096];
static bool handle_assign[4096];
static unsigned nhandles;
/* every stream, for the end of a capture */
static struct fstream *streams[4096];
static size_t nstreams;

static void logline(const char *what)
{
	const char *path = getenv("FAKECUDA_LOG");
	if (path == NULL)
		return;
	FILE *f = fopen(path, "a");
	if (f) {
		fprintf(f, "%s\n", what);
		fclose(f);
	}
}

static void *xmalloc0(size_t n)
{
	void *p = calloc(1, n ? n : 1);
	if (p == NULL)
		abort();
	return p;
}

/* Graphs ------------------------------------------------------------------ */

static struct fgraph *graph_new(void)
{
	struct fgraph *g = xmalloc0(sizeof *g);
	g->magic = M_GRAPH;
	g->refs = 1;
	return g;
}

static void graph_unref(struct fgraph *g);

static void node_free(struct fnode *n)
{
	if (n->child)
		graph_unref(n->child);
	for (unsigned b = 0; b < n->nbodies; b++)
		graph_unref(n->bodies[b]);
	free(n->bodies);
	free(n->mem);
	free(n->ops);
	free(n->deps);
	free(n);
}

static void graph_unref(struct fgraph *g)
{
	if (g == NULL || --g->refs > 0)
		return;
	for (size_t i = 0; i < g->n; i++)
		node_free(g->nodes[i]);
	free(g->nodes);
	free(g);
}

/* A kernel's function: a module's (its name), or NULL for a library's or nothing. */
static bool builtin_name(const char *name)
{
	static const char *const names[] = {
		"set", "set_from", "countdown", "set_word", "set_from_word", "countdown_word",
		"inc", "twice", "add_one", "add_n", "set_cond", "mark",
	};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (strcmp(names[i], name) == 0)
			return true;
	return false;
}

static struct fnode *node_new(CUgraphNodeType type, const CUgraphNodeParams *p)
{
	struct fnode *n = xmalloc0(sizeof *n);
	n->magic = M_NODE;
	n->type = type;
	if (p)
		n->p = *p;
	return n;
}

static void graph_push(struct fgraph *g, struct fnode *n)
{
	if (g->n == g->cap) {
		g->cap = g->cap ? 2 * g->cap : 16;
		g->nodes = realloc(g->nodes, g->cap * sizeof *g->nodes);
		if (g->nodes == NULL)
			abort();
	}
	g->nodes[g->n++] = n;
}

/* A kernel's function and built-in arguments, kept for its runs. */
static CUresult kernel_bind(struct fnode *n, CUfunction f, void **params)
{
	struct ffunc *fn = (struct ffunc *)f;
	if (fn == NULL || fn->magic != M_FUNC)
		return CUDA_ERROR_INVALID_HANDLE;
	n->fn = fn;
	/* the arguments' slots are 16-byte aligned (cugraphrun's packing): 8 bytes each read */
	int nargs = strcmp(fn->name, "add_n") == 0 || strcmp(fn->name, "mark") == 0 ? 3 : 2;
	for (int i = 0; i < nargs && params && builtin_name(fn->name); i++)
		if (params[i])
			memcpy(n->args[i], params[i], 8);
	return CUDA_SUCCESS;
}

/* Running ------------------------------------------------------------------- */

static CUresult graph_run(struct fgraph *g, const bool *off);

static uint64_t arg64(const struct fnode *n, int i)
{
	uint64_t v;
	memcpy(&v, n->args[i], 8);
	return v;
}

static CUresult set_handle(uint64_t h, unsigned v)
{
	if (h == 0 || h > nhandles)
		return CUDA_ERROR_INVALID_HANDLE;
	handle_value[h - 1] = v;
	return CUDA_SUCCESS;
}

static CUresult kernel_run(const struct fnode *n)
{
	const char *f = n->fn->name;
	uint64_t a = arg64(n, 0), b = arg64(n, 1);
	logline("kernel");
	if (strcmp(f, "set") == 0)
		return set_handle(a, (unsigned)b);
	if (strcmp(f, "set_from") == 0)
		return set_handle(a, *(unsigned *)(uintptr_t)b);
	if (strcmp(f, "countdown") == 0) {
		int *ctr = (int *)(uintptr_t)b;
		return set_handle(a, --*ctr > 0);
	}
	if (strcmp(f, "set_word") == 0)
		*(unsigned *)(uintptr_t)a = (unsigned)b;
	else if (strcmp(f, "set_from_word") == 0)
		*(unsigned *)(uintptr_t)a = *(unsigned *)(uintptr_t)b;
	else if (strcmp(f, "countdown_word") == 0)
		*(unsigned *)(uintptr_t)a = --*(int *)(uintptr_t)b > 0;
	else if (strcmp(f, "inc") == 0)
		*(unsigned *)(uintptr_t)a += 1;
	else if (strcmp(f, "twice") == 0)
		*(unsigned *)(uintptr_t)a *= 2;
	else if (strcmp(f, "add_one") == 0)
		*(int *)(uintptr_t)a += 1;
	else if (strcmp(f, "set_cond") == 0)
		return set_handle(a, (unsigned)b);
	else if (strcmp(f, "add_n") == 0) {
		int *x = (int *)(uintptr_t)a, cnt = (int)(uint32_t)b, v = (int)(uint32_t)arg64(n, 2);
		for (int i = 0; i < cnt; i++)
			x[i] += v;
	} else if (strcmp(f, "mark") == 0) {
		int *log = (int *)(uintptr_t)a, k = log[0]++;
		if (k < (int)(uint32_t)arg64(n, 2))
			log[1 + k] = (int)(uint32_t)b;
	}
	return CUDA_SUCCESS;
}

static void memset_run(CUdeviceptr dst, unsigned value, size_t width, size_t count)
{
	for (size_t i = 0; i < count; i++)
		memcpy((char *)(uintptr_t)dst + i * width, &value, width);
}

/* A memset node's rows (height 1: one run), each at dst + row * pitch. */
static void memset2d_run(const CUDA_MEMSET_NODE_PARAMS_v2 *m)
{
	size_t rows = m->height ? m->height : 1;
	for (size_t r = 0; r < rows; r++)
		memset_run(m->dst + r * m->pitch, m->value, m->elementSize, m->width);
}

/* A copy's rows and slices, device (host, unified) addresses at their pitches. */
static void copy3d_run(const CUDA_MEMCPY3D *c)
{
	size_t h = c->Height ? c->Height : 1, d = c->Depth ? c->Depth : 1;
	size_t sp = c->srcPitch ? c->srcPitch : c->WidthInBytes;
	size_t dp = c->dstPitch ? c->dstPitch : c->WidthInBytes;
	size_t sh = c->srcHeight ? c->srcHeight : h, dh = c->dstHeight ? c->dstHeight : h;
	const char *src = c->srcMemoryType == CU_MEMORYTYPE_HOST ? (const char *)c->srcHost :
		(const char *)(uintptr_t)c->srcDevice;
	char *dst = c->dstMemoryType == CU_MEMORYTYPE_HOST ? (char *)c->dstHost :
		(char *)(uintptr_t)c->dstDevice;
	for (size_t z = 0; z < d; z++)
		for (size_t y = 0; y < h; y++)
			memmove(dst + ((c->dstZ + z) * dh + c->dstY + y) * dp + c->dstXInBytes,
				src + ((c->srcZ + z) * sh + c->srcY + y) * sp + c->srcXInBytes,
				c->WidthInBytes);
}

static CUresult memops_run(unsigned count, const CUstreamBatchMemOpParams *ops)
{
	for (unsigned i = 0; i < count; i++) {
		const CUstreamBatchMemOpParams *o = &ops[i];
		if (o->operation == CU_STREAM_MEM_OP_WRITE_VALUE_32)
			*(uint32_t *)(uintptr_t)o->writeValue.address = o->writeValue.value;
		else if (o->operation == CU_STREAM_MEM_OP_WRITE_VALUE_64)
			*(uint64_t *)(uintptr_t)o->writeValue.address = o->writeValue.value64;
	}
	return CUDA_SUCCESS;
}

static CUresult node_run(struct fnode *n)
{
	const CUgraphNodeParams *p = &n->p;
	switch (n->type) {
	case CU_GRAPH_NODE_TYPE_KERNEL:
		return kernel_run(n);
	case CU_GRAPH_NODE_TYPE_MEMSET:
		memset2d_run(&p->memset);
		return CUDA_SUCCESS;
	case CU_GRAPH_NODE_TYPE_MEMCPY:
		copy3d_run(&p->memcpy.copyParams);
		return CUDA_SUCCESS;
	case CU_GRAPH_NODE_TYPE_HOST:
		p->host.fn(p->host.userData);
		return CUDA_SUCCESS;
	case CU_GRAPH_NODE_TYPE_GRAPH:
		return graph_run(n->child, NULL);
	case CU_GRAPH_NODE_TYPE_EVENT_RECORD: {
		struct fevent *e = (struct fevent *)p->eventRecord.event;
		e->recorded = true;
		e->asked = false;
		e->t = now_us;
		return CUDA_SUCCESS;
	}
	case CU_GRAPH_NODE_TYPE_BATCH_MEM_OP:
		return memops_run(n->p.memOp.count, n->ops);
	case CU_GRAPH_NODE_TYPE_CONDITIONAL: {
		uint64_t h = p->conditional.handle;
		if (h == 0 || h > nhandles)
			return CUDA_ERROR_INVALID_HANDLE;
		unsigned v = handle_value[h - 1];
		if (p->conditional.type == CU_GRAPH_COND_TYPE_IF)
			return v ? graph_run(n->bodies[0], NULL) :
				n->nbodies > 1 ? graph_run(n->bodies[1], NULL) : CUDA_SUCCESS;
		if (p->conditional.type == CU_GRAPH_COND_TYPE_SWITCH)
			return v < n->nbodies ? graph_run(n->bodies[v], NULL) : CUDA_SUCCESS;
		for (unsigned trips = 0; handle_value[h - 1]; trips++) {
			if (trips == 100000)
				return CUDA_ERROR_LAUNCH_TIMEOUT;
			CUresult r = graph_run(n->bodies[0], NULL);
			if (r != CUDA_SUCCESS)
				return r;
		}
		return CUDA_SUCCESS;
	}
	default:
		return CUDA_SUCCESS;
	}
}

static CUresult graph_run(struct fgraph *g, const bool *off)
{
	for (size_t i = 0; i < g->n; i++) {
		now_us += 1;
		if (off && off[i])
			continue;
		CUresult r = node_run(g->nodes[i]);
		if (r != CUDA_SUCCESS)
			return r;
	}
	return CUDA_SUCCESS;
}

/* Streams: at once, or into the capture ---------------------------------------- */

static struct fstream *stream_of(CUstream s)
{
	struct fstream *fs = (struct fstream *)s;
	return fs && fs->magic == M_STREAM ? fs : NULL;
}

static void set_deps(struct fstream *s, struct fnode *const *deps, size_t n)
{
	free(s->deps);
	s->deps = xmalloc0(n * sizeof *s->deps);
	memcpy(s->deps, deps, n * sizeof *deps);
	s->ndeps = n;
}

/* Node n's dependencies: a copy of deps. */
static void node_deps(struct fnode *n, struct fnode *const *deps, size_t count)
{
	free(n->deps);
	n->deps = xmalloc0(count * sizeof *n->deps);
	memcpy(n->deps, deps, count * sizeof *deps);
	n->ndeps = count;
}

/* Work on s: a node of the capture, after what s depends on; or run now. */
static CUresult enqueue(struct fstream *s, struct fnode *n)
{
	if (s->cap) {
		node_deps(n, s->deps, s->ndeps);
		graph_push(s->graph, n);
		set_deps(s, &n, 1);
		logline("capture-node");
		return CUDA_SUCCESS;
	}
	now_us += 1;
	CUresult r = node_run(n);
	node_free(n);
	return r;
}

static CUresult check_stream(CUstream s, struct fstream **out)
{
	*out = stream_of(s);
	return *out ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

/* A node of parameters p issued on stream s: the stream's work of each *Async call. */
static CUresult issue(CUstream s, CUgraphNodeParams p)
{
	struct fstream *fs;
	CUresult r = check_stream(s, &fs);
	return r ? r : enqueue(fs, node_new(p.type, &p));
}

/* The entry points ---------------------------------------------------------------- */

static CUresult f_GetErrorName(CUresult r, const char **s)
{
	static char buf[64];
	snprintf(buf, sizeof buf, "CUDA_ERROR_%d", (int)r);
	*s = buf;
	return CUDA_SUCCESS;
}

static CUresult f_GetErrorString(CUresult r, const char **s)
{
	*s = r == CUDA_ERROR_STREAM_CAPTURE_UNJOINED ? "capture unjoined (fake)" :
		r == CUDA_ERROR_INVALID_HANDLE ? "invalid handle (fake)" : "error (fake)";
	return CUDA_SUCCESS;
}

static CUresult f_Init(unsigned flags)
{
	const char *n = getenv("FAKECUDA_GPUS");
	ngpus = n && atoi(n) > 0 && atoi(n) <= 8 ? atoi(n) : 1;
	for (int i = 0; i < 8; i++)
		ctxs[i] = (struct fctx){M_CTX, i};
	return CUDA_SUCCESS;
}

static CUresult f_DriverGetVersion(int *v)
{
	*v = 13000;
	return CUDA_SUCCESS;
}

static CUresult f_DeviceGetCount(int *n)
{
	*n = ngpus;
	return CUDA_SUCCESS;
}

static CUresult f_DeviceGet(CUdevice *d, int i)
{
	if (i < 0 || i >= ngpus)
		return CUDA_ERROR_INVALID_DEVICE;
	*d = i;
	return CUDA_SUCCESS;
}

static CUresult f_DeviceGetName(char *name, int len, CUdevice d)
{
	snprintf(name, (size_t)len, "Fake GPU %d", (int)d);
	return CUDA_SUCCESS;
}

static CUresult f_DeviceGetAttribute(int *v, CUdevice_attribute a, CUdevice d)
{
	switch (a) {
	case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *v = 9; break;
	case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *v = 0; break;
	case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *v = 132; break;
	case CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE: *v = 2619000; break;
	case CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH: *v = 5120; break;
	case CU_DEVICE_ATTRIBUTE_MEM_SYNC_DOMAIN_COUNT: *v = 4; break;
	default: *v = 1 << 20; break;
	}
	return CUDA_SUCCESS;
}

static CUresult f_DevicePrimaryCtxRetain(CUcontext *c, CUdevice d)
{
	*c = (CUcontext)&ctxs[d];
	return CUDA_SUCCESS;
}

static CUresult f_DevicePrimaryCtxRelease(CUdevice d)
{
	return CUDA_SUCCESS;
}

static CUresult f_CtxSetCurrent(CUcontext c)
{
	struct fctx *x = (struct fctx *)c;
	if (x && x->magic != M_CTX)
		return CUDA_ERROR_INVALID_CONTEXT;
	current = x;
	return CUDA_SUCCESS;
}

static CUresult f_CtxPushCurrent(CUcontext c)
{
	return f_CtxSetCurrent(c);
}

static CUresult f_CtxPopCurrent(CUcontext *c)
{
	if (c)
		*c = (CUcontext)current;
	current = &ctxs[0];
	return CUDA_SUCCESS;
}

static CUresult f_DeviceCanAccessPeer(int *can, CUdevice a, CUdevice b)
{
	*can = 1;
	return CUDA_SUCCESS;
}

static CUresult f_CtxEnablePeerAccess(CUcontext c, unsigned flags)
{
	return CUDA_SUCCESS;
}

static CUresult f_CtxSynchronize(void)
{
	return CUDA_SUCCESS;
}

static CUresult f_StreamCreate(CUstream *s, unsigned flags)
{
	struct fstream *fs = xmalloc0(sizeof *fs);
	fs->magic = M_STREAM;
	fs->ctx = current;
	if (nstreams < sizeof streams / sizeof *streams)
		streams[nstreams++] = fs;
	*s = (CUstream)fs;
	return CUDA_SUCCESS;
}

static CUresult f_StreamDestroy(CUstream s)
{
	struct fstream *fs = stream_of(s);
	if (fs == NULL)
		return CUDA_ERROR_INVALID_HANDLE;
	for (size_t i = 0; i < nstreams; i++)
		if (streams[i] == fs)
			streams[i] = streams[--nstreams];
	fs->magic = 0;
	free(fs->deps);
	free(fs);
	return CUDA_SUCCESS;
}

static CUresult f_StreamQuery(CUstream s)
{
	return stream_of(s) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

static CUresult f_EventCreate(CUevent *e, unsigned flags)
{
	struct fevent *fe = xmalloc0(sizeof *fe);
	fe->magic = M_EVENT;
	fe->ctx = current;
	fe->flags = flags;
	*e = (CUevent)fe;
	return CUDA_SUCCESS;
}

static CUresult f_EventDestroy(CUevent e)
{
	struct fevent *fe = (struct fevent *)e;
	if (fe == NULL || fe->magic != M_EVENT)
		return CUDA_ERROR_INVALID_HANDLE;
	fe->magic = 0;
	free(fe->deps);
	free(fe);
	return CUDA_SUCCESS;
}

/* An event recorded on s: now, or the point of the capture s has reached. */
static CUresult record(struct fevent *e, struct fstream *s)
{
	if (e == NULL || e->magic != M_EVENT)
		return CUDA_ERROR_INVALID_HANDLE;
	/* the driver's rule: an event and its stream in one context */
	if (e->ctx != s->ctx)
		return CUDA_ERROR_INVALID_HANDLE;
	logline("record");
	if (s->cap) {
		e->cap = s->cap;
		free(e->deps);
		e->deps = xmalloc0(s->ndeps * sizeof *e->deps);
		memcpy(e->deps, s->deps, s->ndeps * sizeof *s->deps);
		e->ndeps = s->ndeps;
		return CUDA_SUCCESS;
	}
	e->cap = 0;
	e->recorded = true;
	e->asked = false;
	e->t = now_us;
	return CUDA_SUCCESS;
}

static CUresult f_EventRecord(CUevent e, CUstream s)
{
	struct fstream *fs;
	CUresult r = check_stream(s, &fs);
	return r ? r : record((struct fevent *)e, fs);
}

static CUresult f_EventRecordWithFlags(CUevent e, CUstream s, unsigned flags)
{
	struct fstream *fs;
	CUresult r = check_stream(s, &fs);
	if (r)
		return r;
	if (!(flags & CU_EVENT_RECORD_EXTERNAL))
		return record((struct fevent *)e, fs);
	if (!fs->cap)
		return CUDA_ERROR_ILLEGAL_STATE;
	CUgraphNodeParams p;
	memset(&p, 0, sizeof p);
	p.type = CU_GRAPH_NODE_TYPE_EVENT_RECORD;
	p.eventRecord.event = e;
	return enqueue(fs, node_new(p.type, &p));
}

/*
 * The first query after a record says not ready, as a GPU still at work
 * does, so that every wait asks again (one that took it for a failure
 * passed here while the GPU failed it).
 */
static CUresult f_EventQuery(CUevent e)
{
	struct fevent *x = (struct fevent *)e;
	if (x == NULL)
		return CUDA_ERROR_INVALID_HANDLE;
	if (x->recorded && !x->asked) {
		x->asked = true;
		return CUDA_ERROR_NOT_READY;
	}
	return CUDA_SUCCESS;
}

static CUresult f_EventElapsedTime(float *ms, CUevent a, CUevent b)
{
	struct fevent *x = (struct fevent *)a, *y = (struct fevent *)b;
	if (!x->recorded || !y->recorded || (x->flags & CU_EVENT_DISABLE_TIMING))
		return CUDA_ERROR_INVALID_HANDLE;
	*ms = (float)((y->t - x->t) * 1e-3);
	return CUDA_SUCCESS;
}

static CUresult f_StreamWaitEvent(CUstream s, CUevent e, unsigned flags)
{
	struct fstream *fs;
	struct fevent *fe = (struct fevent *)e;
	CUresult r = check_stream(s, &fs);
	if (r)
		return r;
	if (fe == NULL || fe->magic != M_EVENT)
		return CUDA_ERROR_INVALID_HANDLE;
	logline("wait");
	if (flags & CU_EVENT_WAIT_EXTERNAL) {
		if (!fs->cap)
			return CUDA_ERROR_ILLEGAL_STATE;
		CUgraphNodeParams p;
		memset(&p, 0, sizeof p);
		p.type = CU_GRAPH_NODE_TYPE_WAIT_EVENT;
		p.eventWait.event = e;
		return enqueue(fs, node_new(p.type, &p));
	}
	if (fe->cap == 0)
		return CUDA_SUCCESS;
	/* an event of a capture: s joins it, or takes its dependencies too */
	struct fstream *o = NULL;
	for (size_t i = 0; i < nstreams && o == NULL; i++)
		if (streams[i]->cap == fe->cap)
			o = streams[i];
	if (o == NULL)
		return CUDA_ERROR_STREAM_CAPTURE_INVALIDATED;
	if (fs->cap == 0) {
		fs->cap = fe->cap;
		fs->graph = o->graph;
		fs->origin = false;
		set_deps(fs, fe->deps, fe->ndeps);
		return CUDA_SUCCESS;
	}
	if (fs->cap != fe->cap)
		return CUDA_ERROR_STREAM_CAPTURE_ISOLATION;
	struct fnode **all = xmalloc0((fs->ndeps + fe->ndeps) * sizeof *all);
	memcpy(all, fs->deps, fs->ndeps * sizeof *all);
	memcpy(all + fs->ndeps, fe->deps, fe->ndeps * sizeof *all);
	free(fs->deps);
	fs->deps = all;
	fs->ndeps += fe->ndeps;
	return CUDA_SUCCESS;
}

static CUresult f_ModuleLoadDataEx(CUmodule *m, const void *image, unsigned n,
				   CUjit_option *opts, void **vals)
{
	struct fmodule *fm = xmalloc0(sizeof *fm);
	fm->magic = M_MOD;
	fm->ctx = current;
	*m = (CUmodule)fm;
	return CUDA_SUCCESS;
}

static CUresult f_ModuleUnload(CUmodule m)
{
	struct fmodule *fm = (struct fmodule *)m;
	if (fm == NULL || fm->magic != M_MOD)
		return CUDA_ERROR_INVALID_HANDLE;
	fm->magic = 0;
	free(fm);
	return CUDA_SUCCESS;
}

static CUresult f_ModuleGetFunction(CUfunction *f, CUmodule m, const char *name)
{
	struct fmodule *fm = (struct fmodule *)m;
	if (fm == NULL || fm->magic != M_MOD)
		return CUDA_ERROR_INVALID_HANDLE;
	for (int i = 0; i < fm->nfuncs; i++)
		if (strcmp(fm->funcs[i].name, name) == 0) {
			*f = (CUfunction)&fm->funcs[i];
			return CUDA_SUCCESS;
		}
	if (fm->nfuncs == 64)
		return CUDA_ERROR_OUT_OF_MEMORY;
	struct ffunc *fn = &fm->funcs[fm->nfuncs++];
	fn->magic = M_FUNC;
	fn->ctx = fm->ctx;
	snprintf(fn->name, sizeof fn->name, "%s", name);
	*f = (CUfunction)fn;
	return CUDA_SUCCESS;
}

static CUresult f_FuncGetAttribute(int *v, CUfunction_attribute a, CUfunction f)
{
	*v = a == CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK ? 1024 : 0;
	return CUDA_SUCCESS;
}

static CUresult f_FuncSetAttribute(CUfunction f, CUfunction_attribute a, int v)
{
	return CUDA_SUCCESS;
}

static CUresult f_OccupancyMaxActiveBlocksPerMultiprocessor(int *n, CUfunction f, int threads,
							    size_t shared)
{
	*n = 16;
	return CUDA_SUCCESS;
}

static CUresult f_OccupancyMaxActiveClusters(int *n, CUfunction f, const CUlaunchConfig *c)
{
	*n = 16;
	return CUDA_SUCCESS;
}

static size_t l2_limit;

static CUresult f_CtxGetLimit(size_t *v, CUlimit l)
{
	*v = l2_limit;
	return CUDA_SUCCESS;
}

static CUresult f_CtxSetLimit(CUlimit l, size_t v)
{
	l2_limit = v;
	return CUDA_SUCCESS;
}

static CUresult f_MemAlloc(CUdeviceptr *p, size_t n)
{
	*p = (CUdeviceptr)(uintptr_t)xmalloc0(n);
	return CUDA_SUCCESS;
}

/* Rows padded to 512 bytes, as the H100's driver pads them. */
static CUresult f_MemAllocPitch(CUdeviceptr *p, size_t *pitch, size_t width, size_t height,
				unsigned elem)
{
	*pitch = (width + 511) / 512 * 512;
	return f_MemAlloc(p, *pitch * (height ? height : 1));
}

static CUresult f_MemFree(CUdeviceptr p)
{
	free((void *)(uintptr_t)p);
	return CUDA_SUCCESS;
}

static CUresult f_MemHostAlloc(void **p, size_t n, unsigned flags)
{
	*p = xmalloc0(n);
	return CUDA_SUCCESS;
}

static CUresult f_MemFreeHost(void *p)
{
	free(p);
	return CUDA_SUCCESS;
}

static CUresult f_MemHostGetDevicePointer(CUdeviceptr *d, void *p, unsigned flags)
{
	*d = (CUdeviceptr)(uintptr_t)p;
	return CUDA_SUCCESS;
}

static CUresult f_MemAllocManaged(CUdeviceptr *p, size_t n, unsigned flags)
{
	return f_MemAlloc(p, n);
}

static CUresult f_MemcpyHtoD(CUdeviceptr d, const void *s, size_t n)
{
	memcpy((void *)(uintptr_t)d, s, n);
	return CUDA_SUCCESS;
}

static CUresult f_MemcpyDtoH(void *d, CUdeviceptr s, size_t n)
{
	memcpy(d, (const void *)(uintptr_t)s, n);
	return CUDA_SUCCESS;
}

static CUresult f_DeviceGraphMemTrim(CUdevice d)
{
	return CUDA_SUCCESS;
}

static CUresult f_DeviceGetGraphMemAttribute(CUdevice d, CUgraphMem_attribute a, void *v)
{
	*(cuuint64_t *)v = 0;
	return CUDA_SUCCESS;
}

static CUresult f_DeviceSetGraphMemAttribute(CUdevice d, CUgraphMem_attribute a, void *v)
{
	return CUDA_SUCCESS;
}

static CUresult f_GraphCreate(CUgraph *g, unsigned flags)
{
	*g = (CUgraph)graph_new();
	return CUDA_SUCCESS;
}

static CUresult f_GraphDestroy(CUgraph g)
{
	struct fgraph *fg = (struct fgraph *)g;
	if (fg == NULL || fg->magic != M_GRAPH)
		return CUDA_ERROR_INVALID_HANDLE;
	graph_unref(fg);
	return CUDA_SUCCESS;
}

/* A node made from p: the driver's copies of what it points to. */
static CUresult node_from(CUgraphNodeParams *p, struct fnode **out)
{
	struct fnode *n = node_new(p->type, p);
	CUresult r = CUDA_SUCCESS;
	switch (p->type) {
	case CU_GRAPH_NODE_TYPE_KERNEL:
		r = kernel_bind(n, p->kernel.func ? p->kernel.func : (CUfunction)p->kernel.kern,
				p->kernel.kernelParams);
		break;
	case CU_GRAPH_NODE_TYPE_GRAPH:
		n->child = graph_new();
		break;
	case CU_GRAPH_NODE_TYPE_MEM_ALLOC:
		n->mem = xmalloc0(p->alloc.bytesize);
		p->alloc.dptr = (CUdeviceptr)(uintptr_t)n->mem;
		break;
	case CU_GRAPH_NODE_TYPE_BATCH_MEM_OP:
		n->ops = xmalloc0(p->memOp.count * sizeof *n->ops);
		memcpy(n->ops, p->memOp.paramArray, p->memOp.count * sizeof *n->ops);
		break;
	case CU_GRAPH_NODE_TYPE_CONDITIONAL: {
		uint64_t h = p->conditional.handle;
		if (h == 0 || h > nhandles) {
			r = CUDA_ERROR_INVALID_VALUE;
			break;
		}
		n->nbodies = p->conditional.size;
		n->bodies = xmalloc0(n->nbodies * sizeof *n->bodies);
		for (unsigned b = 0; b < n->nbodies; b++)
			n->bodies[b] = graph_new();
		p->conditional.phGraph_out = (CUgraph *)n->bodies;
		n->p = *p;
		break;
	}
	default:
		break;
	}
	if (r != CUDA_SUCCESS) {
		node_free(n);
		return r;
	}
	*out = n;
	return CUDA_SUCCESS;
}

static CUresult f_GraphAddNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps,
			       const CUgraphEdgeData *data, size_t n, CUgraphNodeParams *p)
{
	struct fgraph *fg = (struct fgraph *)g;
	struct fnode *node;
	if (fg == NULL || fg->magic != M_GRAPH)
		return CUDA_ERROR_INVALID_HANDLE;
	for (size_t i = 0; i < n; i++)
		if (deps[i] == NULL || ((struct fnode *)deps[i])->magic != M_NODE)
			return CUDA_ERROR_INVALID_VALUE;
	CUresult r = node_from(p, &node);
	if (r)
		return r;
	node_deps(node, (struct fnode *const *)deps, n);
	graph_push(fg, node);
	*out = (CUgraphNode)node;
	return CUDA_SUCCESS;
}

static CUresult f_GraphAddNode_v1(CUgraphNode *out, CUgraph g, const CUgraphNode *deps, size_t n,
				  CUgraphNodeParams *p)
{
	return f_GraphAddNode(out, g, deps, NULL, n, p);
}

static CUresult f_GraphChildGraphNodeGetGraph(CUgraphNode node, CUgraph *g)
{
	struct fnode *n = (struct fnode *)node;
	if (n == NULL || n->magic != M_NODE || n->child == NULL)
		return CUDA_ERROR_INVALID_VALUE;
	*g = (CUgraph)n->child;
	return CUDA_SUCCESS;
}

/* A sweep's update path (gpu_update.c), which a run in modes does not take: refused. */
static CUresult f_GraphNodeSetParams(CUgraphNode node, CUgraphNodeParams *p)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult f_GraphExecNodeSetParams(CUgraphExec e, CUgraphNode node, CUgraphNodeParams *p)
{
	return CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult f_GraphKernelNodeSetAttribute(CUgraphNode node, CUlaunchAttributeID id,
					      const CUlaunchAttributeValue *v)
{
	return CUDA_SUCCESS;
}

static CUresult f_GraphConditionalHandleCreate(CUgraphConditionalHandle *h, CUgraph g,
					       CUcontext c, unsigned def, unsigned flags)
{
	if (nhandles == sizeof handle_value / sizeof *handle_value)
		return CUDA_ERROR_OUT_OF_MEMORY;
	handle_default[nhandles] = def;
	handle_value[nhandles] = def;
	handle_assign[nhandles] = flags & CU_GRAPH_COND_ASSIGN_DEFAULT;
	*h = ++nhandles;
	return CUDA_SUCCESS;
}

static CUresult f_GraphInstantiateWithParams(CUgraphExec *e, CUgraph g,
					     CUDA_GRAPH_INSTANTIATE_PARAMS *ip)
{
	struct fgraph *fg = (struct fgraph *)g;
	if (fg == NULL || fg->magic != M_GRAPH)
		return CUDA_ERROR_INVALID_HANDLE;
	struct fexec *x = xmalloc0(sizeof *x);
	x->magic = M_EXEC;
	x->g = fg;
	x->off = xmalloc0(fg->n * sizeof *x->off);
	fg->refs++;
	ip->result_out = CUDA_GRAPH_INSTANTIATE_SUCCESS;
	*e = (CUgraphExec)x;
	return CUDA_SUCCESS;
}

static CUresult f_GraphNodeSetEnabled(CUgraphExec e, CUgraphNode node, unsigned on)
{
	struct fexec *x = (struct fexec *)e;
	for (size_t i = 0; i < x->g->n; i++)
		if (x->g->nodes[i] == (struct fnode *)node) {
			x->off[i] = !on;
			return CUDA_SUCCESS;
		}
	return CUDA_ERROR_INVALID_VALUE;
}

static CUresult f_GraphUpload(CUgraphExec e, CUstream s)
{
	return CUDA_SUCCESS;
}

static CUresult f_GraphLaunch(CUgraphExec e, CUstream s)
{
	struct fexec *x = (struct fexec *)e;
	struct fstream *fs;
	CUresult r = check_stream(s, &fs);
	if (r)
		return r;
	if (x == NULL || x->magic != M_EXEC)
		return CUDA_ERROR_INVALID_HANDLE;
	logline("graph-launch");
	for (unsigned h = 0; h < nhandles; h++)
		if (handle_assign[h])
			handle_value[h] = handle_default[h];
	return graph_run(x->g, x->off);
}

static CUresult f_GraphExecDestroy(CUgraphExec e)
{
	struct fexec *x = (struct fexec *)e;
	if (x == NULL || x->magic != M_EXEC)
		return CUDA_ERROR_INVALID_HANDLE;
	x->magic = 0;
	graph_unref(x->g);
	free(x->off);
	free(x);
	return CUDA_SUCCESS;
}

static CUresult f_GraphDebugDotPrint(CUgraph g, const char *path, unsigned flags)
{
	FILE *f = fopen(path, "w");
	if (f == NULL)
		return CUDA_ERROR_OPERATING_SYSTEM;
	fputs("digraph fake {\n}\n", f);
	fclose(f);
	return CUDA_SUCCESS;
}

/* What bench/modes_ref calls besides: for its smoke test without a GPU. */
static CUresult f_ModuleLoadData(CUmodule *m, const void *image)
{
	return f_ModuleLoadDataEx(m, image, 0, NULL, NULL);
}

static CUresult f_StreamSynchronize(CUstream s)
{
	return stream_of(s) ? CUDA_SUCCESS : CUDA_ERROR_INVALID_HANDLE;
}

static CUresult f_GraphAddKernelNode(CUgraphNode *out, CUgraph g, const CUgraphNode *deps,
				     size_t n, const CUDA_KERNEL_NODE_PARAMS_v2 *kp)
{
	CUgraphNodeParams p;
	memset(&p, 0, sizeof p);
	p.type = CU_GRAPH_NODE_TYPE_KERNEL;
	p.kernel.func = kp->func;
	p.kernel.kern = kp->kern;
	p.kernel.kernelParams = kp->kernelParams;
	return f_GraphAddNode(out, g, deps, NULL, n, &p);
}

static CUresult f_GraphInstantiateWithFlags(CUgraphExec *e, CUgraph g, unsigned long long flags)
{
	CUDA_GRAPH_INSTANTIATE_PARAMS ip;
	memset(&ip, 0, sizeof ip);
	return f_GraphInstantiateWithParams(e, g, &ip);
}

/* Stream work --------------------------------------------------------------------- */

/* The launch attributes a launch's events take must be events without timing. */
static CUresult launch_events(const CUlaunchConfig *c, struct fstream *s)
{
	for (unsigned i = 0; i < c->numAttrs; i++) {
		const CUlaunchAttribute *a = &c->attrs[i];
		CUevent e = a->id == CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_EVENT ?
			a->value.programmaticEvent.event :
			a->id == CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT ?
			a->value.launchCompletionEvent.event : NULL;
		if (a->id == CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE && !s->cap)
			return CUDA_ERROR_INVALID_VALUE;
		if (e == NULL)
			continue;
		struct fevent *fe = (struct fevent *)e;
		if (fe->magic != M_EVENT || !(fe->flags & CU_EVENT_DISABLE_TIMING))
			return CUDA_ERROR_INVALID_VALUE;
		CUresult r = record(fe, s);
		if (r)
			return r;
	}
	return CUDA_SUCCESS;
}

/*
 * cuLaunchKernel: the timing module's kernels alone (gpu_clock.c), on a
 * stream that runs at once.  The probe reports 2,000,000 cycles in 1 ms
 * (2,000 MHz); the blocking kernel has nothing to wait for.  Not logged:
 * the calls a launch makes are the stream issue's.
 */
static CUresult f_LaunchKernel(CUfunction f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
			       unsigned by, unsigned bz, unsigned shared, CUstream st,
			       void **params, void **extra)
{
	(void)gx, (void)gy, (void)gz, (void)bx, (void)by, (void)bz, (void)shared, (void)extra;
	struct fstream *s;
	CUresult r = check_stream(st, &s);
	if (r)
		return r;
	struct ffunc *fn = (struct ffunc *)f;
	if (fn == NULL || fn->magic != M_FUNC)
		return CUDA_ERROR_INVALID_HANDLE;
	if (s->cap)
		return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
	if (strcmp(fn->name, "cgr_clock_probe") == 0) {
		uint64_t out, cycles = 2000000, ns = 1000000;
		memcpy(&out, params[0], sizeof out);
		memcpy((void *)(uintptr_t)out, &cycles, 8);
		memcpy((void *)(uintptr_t)(out + 8), &ns, 8);
		return CUDA_SUCCESS;
	}
	return strcmp(fn->name, "cgr_block") == 0 ? CUDA_SUCCESS : CUDA_ERROR_NOT_SUPPORTED;
}

static CUresult f_LaunchKernelEx(const CUlaunchConfig *c, CUfunction f, void **params,
				 void **extra)
{
	struct fstream *s;
	CUresult r = check_stream(c->hStream, &s);
	if (r)
		return r;
	struct ffunc *fn = (struct ffunc *)f;
	if (fn && fn->magic == M_FUNC && fn->ctx != s->ctx)
		return CUDA_ERROR_INVALID_CONTEXT;
	CUgraphNodeParams p;
	memset(&p, 0, sizeof p);
	p.type = CU_GRAPH_NODE_TYPE_KERNEL;
	p.kernel.func = f;
	struct fnode *n = node_new(p.type, &p);
	if ((r = kernel_bind(n, f, params)) != CUDA_SUCCESS) {
		node_free(n);
		return r;
	}
	logline("launch");
	if ((r = enqueue(s, n)) != CUDA_SUCCESS)
		return r;
	/* its events fire as it ends, here (the capture: after its node) */
	return launch_events(c, s);
}

static CUresult memset2d_async(CUdeviceptr d, size_t pitch, unsigned v, unsigned width,
				size_t w, size_t h, CUstream s)
{
	return issue(s, (CUgraphNodeParams){.type = CU_GRAPH_NODE_TYPE_MEMSET,
		.memset = {.dst = d, .pitch = pitch, .value = v, .elementSize = width, .width = w,
			   .height = h}});
}

static CUresult memset_async(CUdeviceptr d, unsigned v, unsigned width, size_t n, CUstream s)
{
	return memset2d_async(d, 0, v, width, n, 1, s);
}

static CUresult f_MemsetD2D8Async(CUdeviceptr d, size_t pitch, unsigned char v, size_t w,
				  size_t h, CUstream s)
{
	return memset2d_async(d, pitch, v, 1, w, h, s);
}

static CUresult f_MemsetD2D16Async(CUdeviceptr d, size_t pitch, unsigned short v, size_t w,
				   size_t h, CUstream s)
{
	return memset2d_async(d, pitch, v, 2, w, h, s);
}

static CUresult f_MemsetD2D32Async(CUdeviceptr d, size_t pitch, unsigned v, size_t w,
				   size_t h, CUstream s)
{
	return memset2d_async(d, pitch, v, 4, w, h, s);
}

static CUresult f_Memcpy3DAsync(const CUDA_MEMCPY3D *c, CUstream s)
{
	return issue(s, (CUgraphNodeParams){.type = CU_GRAPH_NODE_TYPE_MEMCPY,
		.memcpy = {.copyParams = *c}});
}

static CUresult f_MemsetD8Async(CUdeviceptr d, unsigned char v, size_t n, CUstream s)
{
	return memset_async(d, v, 1, n, s);
}

static CUresult f_MemsetD16Async(CUdeviceptr d, unsigned short v, size_t n, CUstream s)
{
	return memset_async(d, v, 2, n, s);
}

static CUresult f_MemsetD32Async(CUdeviceptr d, unsigned v, size_t n, CUstream s)
{
	return memset_async(d, v, 4, n, s);
}

static CUresult copy_async(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s)
{
	return issue(s, (CUgraphNodeParams){.type = CU_GRAPH_NODE_TYPE_MEMCPY,
		.memcpy = {.copyParams = {.dstDevice = dst, .srcDevice = src, .WidthInBytes = n}}});
}

static CUresult f_MemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t n, CUstream s)
{
	return copy_async(dst, src, n, s);
}

static CUresult f_MemcpyHtoDAsync(CUdeviceptr dst, const void *src, size_t n, CUstream s)
{
	return copy_async(dst, (CUdeviceptr)(uintptr_t)src, n, s);
}

static CUresult f_MemcpyDtoHAsync(void *dst, CUdeviceptr src, size_t n, CUstream s)
{
	struct fstream *fs;
	CUresult r = check_stream(s, &fs);
	if (r == CUDA_SUCCESS && fs->cap)
		return CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED;
	return r ? r : copy_async((CUdeviceptr)(uintptr_t)dst, src, n, s);
}

static CUresult f_LaunchHostFunc(CUstream s, CUhostFn fn, void *user)
{
	return issue(s, (CUgraphNodeParams){.type = CU_GRAPH_NODE_TYPE_HOST,
		.host = {.fn = fn, .userData = user}});
}

static int pool_token[8];

static CUresult f_DeviceGetDefaultMemPool(CUmemoryPool *p, CUdevice d)
{
	*p = (CUmemoryPool)&pool_token[d];
	return CUDA_SUCCESS;
}

static cuuint64_t pool_threshold[8];

static CUresult f_MemPoolGetAttribute(CUmemoryPool p, CUmemPool_attribute a, void *v)
{
	*(cuuint64_t *)v = pool_threshold[(int *)p - pool_token];
	return CUDA_SUCCESS;
}

static CUresult f_MemPoolSetAttribute(CUmemoryPool p, CUmemPool_attribute a, void *v)
{
	pool_threshold[(int *)p - pool_token] = *(cuuint64_t *)v;
	return CUDA_SUCCESS;
}

static CUresult f_MemPoolSetAccess(CUmemoryPool p, const CUmemAccessDesc *d, size_t n)
{
	return CUDA_SUCCESS;
}

static CUresult f_MemAllocFromPoolAsync(CUdeviceptr *out, size_t n, CUmemoryPool pool,
					CUstream s)
{
	struct fstream *fs;
	CUresult r = check_stream(s, &fs);
	if (r)
		return r;
	if (pool == NULL)
		return CUDA_ERROR_INVALID_VALUE;
	if (!fs->cap)
		return f_MemAlloc(out, n);
	CUgraphNodeParams p;
	memset(&p, 0, sizeof p);
	p.type = CU_GRAPH_NODE_TYPE_MEM_ALLOC;
	p.alloc.bytesize = n;
	struct fnode *node;
	node_from(&p, &node);
	*out = node->p.alloc.dptr = p.alloc.dptr;
	return enqueue(fs, node);
}

static CUresult f_MemFreeAsync(CUdeviceptr d, CUstream s)
{
	struct fstream *fs;
	CUresult r = check_stream(s, &fs);
	if (r)
		return r;
	if (!fs->cap)
		return f_MemFree(d);
	return issue(s, (CUgraphNodeParams){.type = CU_GRAPH_NODE_TYPE_MEM_FREE,
		.free = {.dptr = d}});
}

static CUresult f_StreamBatchMemOp(CUstream s, unsigned count, CUstreamBatchMemOpParams *ops,
				   unsigned flags)
{
	struct fstream *fs;
	CUresult r = check_stream(s, &fs);
	if (r)
		return r;
	CUgraphNodeParams p;
	memset(&p, 0, sizeof p);
	p.type = CU_GRAPH_NODE_TYPE_BATCH_MEM_OP;
	p.memOp.count = count;
	p.memOp.paramArray = ops;
	struct fnode *n;
	node_from(&p, &n);
	return enqueue(fs, n);
}

/* Capture --------------------------------------------------------------------------- */

static CUresult begin(struct fstream *s, struct fgraph *g, const CUgraphNode *deps, size_t n)
{
	if (s->cap)
		return CUDA_ERROR_ILLEGAL_STATE;
	s->cap = ++captures;
	s->graph = g;
	s->origin = true;
	s->first = g->n;
	set_deps(s, (struct fnode *const *)deps, n);
	return CUDA_SUCCESS;
}

static CUresult f_StreamBeginCapture(CUstream s, CUstreamCaptureMode mode)
{
	struct fstream *fs;
	CUresult r = check_stream(s, &fs);
	return r ? r : begin(fs, graph_new(), NULL, 0);
}

static CUresult f_StreamBeginCaptureToGraph(CUstream s, CUgraph g, const CUgraphNode *deps,
					    const CUgraphEdgeData *data, size_t n,
					    CUstreamCaptureMode mode)
{
	struct fstream *fs;
	CUresult r = check_stream(s, &fs);
	if (r)
		return r;
	struct fgraph *fg = (struct fgraph *)g;
	if (fg == NULL || fg->magic != M_GRAPH)
		return CUDA_ERROR_INVALID_HANDLE;
	/* the graph stays the caller's: a reference while it is captured into */
	fg->refs++;
	return begin(fs, fg, deps, n);
}

static void reach(struct fnode *n)
{
	if (n->mark)
		return;
	n->mark = true;
	for (size_t i = 0; i < n->ndeps; i++)
		reach(n->deps[i]);
}

/*
 * The end of a capture: every node it captured must be reached from the
 * origin's dependencies (the driver's CUDA_ERROR_STREAM_CAPTURE_UNJOINED);
 * every stream that joined it leaves it.
 */
static CUresult f_StreamEndCapture(CUstream s, CUgraph *out)
{
	struct fstream *fs;
	CUresult r = check_stream(s, &fs);
	if (r)
		return r;
	if (!fs->cap || !fs->origin)
		return CUDA_ERROR_STREAM_CAPTURE_UNMATCHED;
	struct fgraph *g = fs->graph;
	for (size_t i = fs->first; i < g->n; i++)
		g->nodes[i]->mark = false;
	for (size_t i = 0; i < fs->ndeps; i++)
		reach(fs->deps[i]);
	bool unjoined = false;
	for (size_t i = fs->first; i < g->n; i++)
		unjoined |= !g->nodes[i]->mark;
	unsigned long id = fs->cap;
	for (size_t i = 0; i < nstreams; i++) {
		struct fstream *o = streams[i];
		if (o->cap != id)
			continue;
		o->cap = 0;
		o->origin = false;
		o->graph = NULL;
		free(o->deps);
		o->deps = NULL;
		o->ndeps = 0;
	}
	if (unjoined) {
		graph_unref(g);
		*out = NULL;
		return CUDA_ERROR_STREAM_CAPTURE_UNJOINED;
	}
	/* a graph captured into by BeginCaptureToGraph: the caller's reference is its own */
	*out = (CUgraph)g;
	if (g->refs > 1)
		g->refs--;
	return CUDA_SUCCESS;
}

static CUresult f_StreamGetCaptureInfo(CUstream s, CUstreamCaptureStatus *status, cuuint64_t *id,
				       CUgraph *g, const CUgraphNode **deps,
				       const CUgraphEdgeData **data, size_t *n)
{
	struct fstream *fs;
	CUresult r = check_stream(s, &fs);
	if (r)
		return r;
	*status = fs->cap ? CU_STREAM_CAPTURE_STATUS_ACTIVE : CU_STREAM_CAPTURE_STATUS_NONE;
	if (id)
		*id = fs->cap;
	if (g)
		*g = (CUgraph)fs->graph;
	if (deps)
		*deps = (const CUgraphNode *)fs->deps;
	if (data)
		*data = NULL;
	if (n)
		*n = fs->ndeps;
	return CUDA_SUCCESS;
}

static CUresult f_StreamUpdateCaptureDependencies(CUstream s, CUgraphNode *deps,
						  const CUgraphEdgeData *data, size_t n,
						  unsigned flags)
{
	struct fstream *fs;
	CUresult r = check_stream(s, &fs);
	if (r)
		return r;
	if (!fs->cap || flags != CU_STREAM_SET_CAPTURE_DEPENDENCIES)
		return CUDA_ERROR_ILLEGAL_STATE;
	set_deps(fs, (struct fnode *const *)deps, n);
	return CUDA_SUCCESS;
}

/* cuGetProcAddress ---------------------------------------------------------------- */

#define E(name, ver) {"cu" #name, ver, (void *)f_##name}
static const struct {
	const char *name;
	int version;                    /* the ABI it has from (0: any) */
	void *fn;
} table[] = {
	E(GetErrorName, 0), E(GetErrorString, 0), E(Init, 0), E(DriverGetVersion, 0),
	E(DeviceGetCount, 0), E(DeviceGet, 0), E(DeviceGetName, 0), E(DeviceGetAttribute, 0),
	E(DevicePrimaryCtxRetain, 0), E(DevicePrimaryCtxRelease, 0), E(CtxSetCurrent, 0),
	E(CtxPushCurrent, 0), E(CtxPopCurrent, 0), E(DeviceCanAccessPeer, 0),
	E(CtxEnablePeerAccess, 0), E(CtxSynchronize, 0), E(StreamCreate, 0),
	E(StreamDestroy, 0), E(StreamQuery, 0), E(EventCreate, 0), E(EventDestroy, 0),
	E(EventRecord, 0), E(EventRecordWithFlags, 0), E(EventQuery, 0),
	E(EventElapsedTime, 0), E(StreamWaitEvent, 0), E(ModuleLoadDataEx, 0),
	E(ModuleUnload, 0), E(ModuleGetFunction, 0), E(FuncGetAttribute, 0),
	E(FuncSetAttribute, 0), E(OccupancyMaxActiveBlocksPerMultiprocessor, 0),
	E(OccupancyMaxActiveClusters, 0), E(CtxGetLimit, 0), E(CtxSetLimit, 0), E(MemAlloc, 0),
	E(MemFree, 0), E(MemHostAlloc, 0), E(MemFreeHost, 0), E(MemHostGetDevicePointer, 0),
	E(MemAllocManaged, 0), E(MemcpyHtoD, 0), E(MemcpyDtoH, 0), E(DeviceGraphMemTrim, 0),
	E(DeviceGetGraphMemAttribute, 0), E(DeviceSetGraphMemAttribute, 0), E(GraphCreate, 0),
	E(GraphDestroy, 0), E(GraphAddNode, 12030), {"cuGraphAddNode", 12020, (void *)f_GraphAddNode_v1},
	E(GraphChildGraphNodeGetGraph, 0), E(GraphKernelNodeSetAttribute, 0),
	E(GraphNodeSetEnabled, 0), E(GraphConditionalHandleCreate, 0),
	E(GraphInstantiateWithParams, 0), E(GraphUpload, 0), E(GraphLaunch, 0),
	E(GraphExecDestroy, 0), E(GraphDebugDotPrint, 0), E(LaunchKernelEx, 0), E(LaunchKernel, 0),
	E(MemsetD8Async, 0), E(MemsetD16Async, 0), E(MemsetD32Async, 0), E(MemcpyAsync, 0),
	E(MemcpyHtoDAsync, 0), E(MemcpyDtoHAsync, 0), E(LaunchHostFunc, 0),
	E(DeviceGetDefaultMemPool, 0), E(MemPoolGetAttribute, 0), E(MemPoolSetAttribute, 0),
	E(MemPoolSetAccess, 0), E(MemAllocFromPoolAsync, 0), E(MemFreeAsync, 0),
	E(StreamBatchMemOp, 0), E(StreamBeginCapture, 0), E(StreamBeginCaptureToGraph, 0),
	E(StreamEndCapture, 0), E(StreamGetCaptureInfo, 0),
	E(StreamUpdateCaptureDependencies, 0), E(ModuleLoadData, 0), E(StreamSynchronize, 0),
	E(GraphAddKernelNode, 0), E(GraphInstantiateWithFlags, 0), E(GraphNodeSetParams, 0),
	E(GraphExecNodeSetParams, 0), E(MemAllocPitch, 0), E(MemsetD2D8Async, 0),
	E(MemsetD2D16Async, 0), E(MemsetD2D32Async, 0), E(Memcpy3DAsync, 0),
};
#undef E

/* Checked against the ABIs cugraphrun calls, at compile time. */
static PFN_cuGraphAddNode_v12030 check_add = f_GraphAddNode;
static PFN_cuGraphAddNode_v12020 check_add1 = f_GraphAddNode_v1;
static PFN_cuLaunchKernelEx_v11060 check_launch = f_LaunchKernelEx;
static PFN_cuLaunchKernel_v4000 check_launch_plain = f_LaunchKernel;
static PFN_cuStreamGetCaptureInfo_v12030 check_info = f_StreamGetCaptureInfo;
static PFN_cuStreamUpdateCaptureDependencies_v12030 check_update =
	f_StreamUpdateCaptureDependencies;
static PFN_cuStreamBeginCaptureToGraph_v12030 check_to_graph = f_StreamBeginCaptureToGraph;
static PFN_cuStreamBeginCapture_v10010 check_begin = f_StreamBeginCapture;
static PFN_cuStreamBatchMemOp_v11070 check_memop = f_StreamBatchMemOp;
static PFN_cuMemAllocFromPoolAsync_v11020 check_pool = f_MemAllocFromPoolAsync;
static PFN_cuMemAllocPitch_v3020 check_pitch = f_MemAllocPitch;
static PFN_cuMemsetD2D32Async_v3020 check_set2d = f_MemsetD2D32Async;
static PFN_cuMemcpy3DAsync_v3020 check_copy3d = f_Memcpy3DAsync;
static PFN_cuGraphInstantiateWithParams_v12000 check_inst = f_GraphInstantiateWithParams;
static PFN_cuGraphAddKernelNode_v12000 check_add_kernel = f_GraphAddKernelNode;
static PFN_cuGraphNodeSetParams_v12020 check_set = f_GraphNodeSetParams;
static PFN_cuGraphExecNodeSetParams_v12020 check_exec_set = f_GraphExecNodeSetParams;

static CUresult fake_gpa(const char *symbol, void **pfn, int version, cuuint64_t flags,
			 CUdriverProcAddressQueryResult *found)
{
	(void)check_add, (void)check_add1, (void)check_launch, (void)check_info;
	(void)check_update, (void)check_to_graph, (void)check_begin, (void)check_memop;
	(void)check_pool, (void)check_inst, (void)check_add_kernel, (void)check_set;
	(void)check_pitch, (void)check_set2d, (void)check_copy3d;
	(void)check_exec_set, (void)check_launch_plain;
	*pfn = NULL;
	/* the entry with the newest ABI not newer than asked for */
	int best = -1;
	for (size_t i = 0; i < sizeof table / sizeof *table; i++)
		if (strcmp(table[i].name, symbol) == 0 && table[i].version <= version &&
		    (best < 0 || table[i].version > table[best].version))
			best = (int)i;
	if (best < 0) {
		if (found)
			*found = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
		return CUDA_ERROR_NOT_FOUND;
	}
	*pfn = table[best].fn;
	if (found)
		*found = CU_GET_PROC_ADDRESS_SUCCESS;
	return CUDA_SUCCESS;
}

EXPORT CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int version,
				    cuuint64_t flags, CUdriverProcAddressQueryResult *found)
{
	return fake_gpa(symbol, pfn, version, flags, found);
}

EXPORT CUresult cuDriverGetVersion(int *v)
{
	return f_DriverGetVersion(v);
}
