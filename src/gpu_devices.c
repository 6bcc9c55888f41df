/*
 * The run's devices (see gpu_devices.h).
 *
 * What the driver does with several contexts in one graph, as cuda.h has
 * it: a kernel node runs in the context its CUfunction's module was
 * loaded in (the params' ctx is ignored when func is set), so a kernel's
 * module is loaded once per device that launches it; memset, memop and
 * conditional node parameters carry a ctx, memcpy ones a copyCtx; an
 * alloc node's poolProps place the memory and its accessDescs map it
 * into the other devices that use it; a conditional handle belongs to the
 * context it was created in.  A kernel that reads another GPU's memory
 * needs peer access (cuCtxEnablePeerAccess), which is enabled here
 * between every two of the file's devices that cuDeviceCanAccessPeer
 * allows; copies between devices need none (the driver stages them), but
 * run faster with it (bench/peer-bench.py measures by how much).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h"
#include "gpu_devices.h"
#include "gpu_devmap.h"
#include "gpu_kernel.h"
#include "model_uses.h"
#include "report.h"
#include "strmap.h"
#include "xmalloc.h"

/* A file names devices 0 to GDEF_MAX_FILE_DEVICE: a 64-bit mask holds a device's peers. */
_Static_assert(GDEF_MAX_FILE_DEVICE < 64, "peers is a 64-bit mask");

static unsigned ndev(const struct gpu *gp)
{
	return gp->devs ? gp->devs->n : 1;
}

CUcontext gpu_devices_ctx_of(const struct gpu *gp, unsigned k)
{
	return k < ndev(gp) && gp->devs ? gp->devs->v[k].ctx : gp->ctx;
}

CUcontext gpu_devices_ctx(const struct gpu *gp, const struct node *n)
{
	return gpu_devices_ctx_of(gp, node_device(gp->g, n));
}

void gpu_devices_kernel(const struct gpu *gp, const struct node *n, CUDA_KERNEL_NODE_PARAMS_v3 *p)
{
	long i = strmap_get(gp->func_index, n->u.kernel.function);
	const struct kfunc *kf = &gp->funcs[i];
	unsigned k = node_device(gp->g, n);
	if (kf->k || k == 0 || k >= ndev(gp) || gp->devs->v[k].funcs == NULL) {
		/* a library's kernel in any context; a module's function in the run's */
		gpu_kernel_target(gp, kf, gpu_devices_ctx_of(gp, k), p);
		return;
	}
	p->func = gp->devs->v[k].funcs[i];
}

void gpu_devices_enter(const struct gpu *gp, unsigned k)
{
	if (k != 0)
		cu.CtxSetCurrent(gpu_devices_ctx_of(gp, k));
}

void gpu_devices_leave(const struct gpu *gp)
{
	if (ndev(gp) > 1)
		cu.CtxSetCurrent(gp->ctx);
}

/* The file's device a buffer lives on: device memory's own, graph memory's alloc node's; -1: every GPU's. */
static int buffer_device(const struct gdef *g, long b)
{
	const struct buffer *buf = &g->buffers[b];
	if (buf->memory == MEM_DEVICE)
		return buf->device;
	if (buf->memory != MEM_GRAPH)
		return -1;
	for (size_t i = 0; i < g->nall_nodes; i++) {
		const struct node *n = g->all_nodes[i];
		if (n->kind == NK_ALLOC && n->u.buffer.idx == b)
			return (int)node_device(g, n);
	}
	return 0;
}

/*
 * The GPUs a suite's worker sees: 0 when the driver cannot say.  The
 * worker opened the driver at its start (gpu_worker_init); when that
 * failed, gpu_run says why for each file, and this says nothing.
 */
static int gpu_count(void)
{
	int count = 0;
	if (cu.Init == NULL || cu.Init(0) != CUDA_SUCCESS || cu.DeviceGetCount(&count) != CUDA_SUCCESS)
		return 0;
	return count;
}

bool gpu_too_few(const struct gdef *g, const struct run_settings *s, char *why, size_t len)
{
	if (g->ndevices <= 1)
		return false;
	int count = gpu_count();
	if (count == 0)
		return false;   /* gpu_run says why */
	int ord[GDEF_MAX_FILE_DEVICE + 1];
	unsigned have = 0;
	if (devmap(s->device, s->device_mask, count, g->ndevices, ord, &have))
		return false;
	char words[256];
	devmap_words(s->device, s->device_mask, count, words, sizeof words);
	snprintf(why, len, "needs %u GPUs, and the suite has %u (%s)", g->ndevices, have, words);
	return true;
}

static bool before(struct pos a, struct pos b)
{
	return b.line == 0 || a.line < b.line || (a.line == b.line && a.col < b.col);
}

/*
 * Where a file first asks for its last device (a node's or a buffer's
 * 'device' key), for the message that the run has too few.
 */
static struct pos last_device_pos(const struct gdef *g)
{
	unsigned last = g->ndevices - 1;
	struct pos at = {0};
	for (size_t i = 0; i < g->ndevs; i++)
		if (g->devs[i].device == last && before(g->devs[i].pos, at))
			at = g->devs[i].pos;
	for (size_t i = 0; i < g->nbuffers; i++)
		if (g->buffers[i].has_device && g->buffers[i].device == last &&
		    before(g->buffers[i].device_pos, at))
			at = g->buffers[i].device_pos;
	return at;
}

/* Device k's GPU and primary context.  0, or 3 after a message. */
static int open_device(struct gpu *gp, unsigned k, int ordinal)
{
	struct gpu_dev *v = &gp->devs->v[k];
	v->ordinal = ordinal;
	CUresult r = cu.DeviceGet(&v->dev, ordinal);
	if (r == CUDA_SUCCESS)
		r = cu.DevicePrimaryCtxRetain(&v->ctx, v->dev);
	if (r != CUDA_SUCCESS) {
		errorx("cannot open GPU %d for device %u of %s: %s", ordinal, k, gp->g->file,
		       cu_strerror(r));
		return 3;
	}
	v->retained = true;
	cu.DeviceGetName(v->name, sizeof v->name, v->dev);
	return 0;
}

/* Why device a cannot reach device b's memory, into buf; NULL when it can. */
static const char *why_unreached(const struct gpu *gp, unsigned a, unsigned b, char *buf,
				 size_t len)
{
	const struct gpu_dev *va = &gp->devs->v[a], *vb = &gp->devs->v[b];
	if (va->peers >> b & 1)
		return NULL;
	int can = 0;
	cu.DeviceCanAccessPeer(&can, va->dev, vb->dev);
	if (gp->devs->no_peer && can)
		snprintf(buf, len, "peer access is off (--no-peer)");
	else if (!can)
		snprintf(buf, len, "the driver says GPU %d cannot access GPU %d's memory "
			 "(cuDeviceCanAccessPeer)", va->ordinal, vb->ordinal);
	else
		snprintf(buf, len, "peer access from GPU %d to GPU %d could not be enabled",
			 va->ordinal, vb->ordinal);
	return buf;
}

/* Peer access between every two devices that can have it; each device's peers. */
static void enable_peers(struct gpu *gp)
{
	struct gpu_devs *ds = gp->devs;
	for (unsigned a = 0; a < ds->n; a++) {
		for (unsigned b = 0; b < ds->n; b++) {
			int can = 0;
			if (a == b) {
				ds->v[a].peers |= 1ull << b;
				continue;
			}
			if (ds->no_peer || ds->v[a].ordinal == ds->v[b].ordinal ||
			    cu.DeviceCanAccessPeer(&can, ds->v[a].dev, ds->v[b].dev) != CUDA_SUCCESS ||
			    !can)
				continue;
			cu.CtxSetCurrent(ds->v[a].ctx);
			CUresult r = cu.CtxEnablePeerAccess(ds->v[b].ctx, 0);
			if (r == CUDA_SUCCESS || r == CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED)
				ds->v[a].peers |= 1ull << b;
			else
				gpu_verbose(gp, "note: peer access from GPU %d to GPU %d: %s",
					    ds->v[a].ordinal, ds->v[b].ordinal, cu_strerror(r));
		}
	}
	cu.CtxSetCurrent(gp->ctx);
}

/* One use of buffer b by node n at pos: an error when n's device cannot reach it. */
static bool reaches_buffer(struct gpu *gp, const struct node *n, long b, struct pos pos)
{
	int bd = buffer_device(gp->g, b);
	unsigned nd = node_device(gp->g, n);
	char why[160];
	if (bd < 0 || (unsigned)bd == nd || !why_unreached(gp, nd, (unsigned)bd, why, sizeof why))
		return true;
	const struct gpu_dev *v = gp->devs->v;
	diag_error(gp->d, pos, "%s node '%s' runs on device %u (GPU %d) and uses buffer '%s' on "
		   "device %d (GPU %d), but %s", node_kind_names[n->kind], n->id, nd,
		   v[nd].ordinal, gp->g->buffers[b].name, bd, v[bd].ordinal, why);
	return false;
}

struct reach {
	struct gpu *gp;
	const struct node *n;
	bool ok;
};

/* A kernel's buffer argument (a struct's field too), told at the argument. */
static bool reach_arg(void *ctx, const struct buf_use *u)
{
	struct reach *r = ctx;
	/* a pitch is a number: the kernel need not reach the buffer for it */
	if (u->role == ROLE_DATA)
		r->ok &= reaches_buffer(r->gp, r->n, u->buffer->idx, u->arg->pos);
	return true;
}

/*
 * Every node that reads or writes a buffer on another device than its
 * own, but for copies (the driver stages a copy that has no peer access):
 * its device must reach that memory.
 */
static bool check_reach(struct gpu *gp)
{
	const struct gdef *g = gp->g;
	bool ok = true;
	for (size_t i = 0; i < g->nall_nodes; i++) {
		const struct node *n = g->all_nodes[i];
		struct pos at = n->kind_pos.line ? n->kind_pos : n->pos;
		switch (n->kind) {
		case NK_KERNEL: {
			struct reach r = {gp, n, true};
			node_buffer_uses(n, reach_arg, &r);
			ok &= r.ok;
			const struct kernel_attrs *a = kernel_attrs_of(g, n);
			if (kattr_set(a, KATTR_ACCESS_POLICY) && a->window.buffer.idx >= 0)
				ok &= reaches_buffer(gp, n, a->window.buffer.idx,
						     a->pos[KATTR_ACCESS_POLICY]);
			break;
		}
		case NK_MEMSET:
			ok &= reaches_buffer(gp, n, n->u.memset.buffer.idx, at);
			break;
		case NK_MEMOP:
			for (size_t k = 0; k < n->u.memop.nops; k++)
				if (n->u.memop.ops[k].buffer.idx >= 0)
					ok &= reaches_buffer(gp, n, n->u.memop.ops[k].buffer.idx,
							     n->u.memop.ops[k].pos);
			break;
		default:
			break;
		}
	}
	return ok;
}

/* Each device in the verbose log: its GPU and the devices whose memory it reaches. */
static void verbose_devices(const struct gpu *gp)
{
	const struct gpu_devs *ds = gp->devs;
	for (unsigned k = 0; k < ds->n && gp->verbosity >= VERB_VERBOSE; k++) {
		char peers[160] = "";
		size_t at = 0;
		for (unsigned b = 0; b < ds->n && at < sizeof peers; b++)
			if (b != k && (ds->v[k].peers >> b & 1))
				at += (size_t)snprintf(peers + at, sizeof peers - at, "%s%u",
						       at ? ", " : "", b);
		gpu_verbose(gp, "device %u: GPU %d (%s); peer access to device%s %s", k,
			    ds->v[k].ordinal, ds->v[k].name, strchr(peers, ',') ? "s" : "",
			    at ? peers : "none");
	}
}

int gpu_devices_open(struct gpu *gp, const struct run_settings *s)
{
	struct gdef *g = gp->g;
	struct gpu_devs *ds = xcalloc(1, sizeof *ds);
	gp->devs = ds;
	ds->n = g->ndevices ? g->ndevices : 1;
	ds->no_peer = s->no_peer;
	ds->v = xcalloc(ds->n, sizeof *ds->v);
	ds->v[0].ordinal = gp->ordinal;
	ds->v[0].dev = gp->dev;
	ds->v[0].ctx = gp->ctx;
	cu.DeviceGetName(ds->v[0].name, sizeof ds->v[0].name, gp->dev);
	if (ds->n == 1)
		return 0;
	if ((s->instantiate & INST_DEVICE_LAUNCH) && g->device_of) {
		errorx("--instantiate=device_launch: %s runs nodes on %u devices, and a "
		       "device-launched graph runs on one", g->file, ds->n);
		return 2;
	}
	int count = 0;
	cu.DeviceGetCount(&count);
	int ord[GDEF_MAX_FILE_DEVICE + 1];
	unsigned have = 0;
	if (!devmap(gp->ordinal, s->device_mask, count, ds->n, ord, &have)) {
		char words[256];
		devmap_words(gp->ordinal, s->device_mask, count, words, sizeof words);
		diag_error(gp->d, last_device_pos(g), "this file needs %u GPUs (its devices 0 to "
			   "%u, from GPU %d on), and this run has %u (%s)", ds->n, ds->n - 1,
			   gp->ordinal, have, words);
		return 3;
	}
	for (unsigned k = 1; k < ds->n; k++)
		if (open_device(gp, k, ord[k]) != 0)
			return 3;
	enable_peers(gp);
	verbose_devices(gp);
	return check_reach(gp) ? 0 : 3;
}

/*
 * The function attributes device 0's function of kernel node n was given,
 * on device k too (f: its module's function there; NULL for a library's kernel).
 */
static bool copy_attrs(struct gpu *gp, const struct node *n, const struct kfunc *kf,
		       CUfunction f, unsigned k)
{
	CUdevice dev = gp->devs->v[k].dev;
	CUresult r = CUDA_SUCCESS;
	if (kf->shared_optin)
		r = gpu_kernel_set_attribute(kf, f, dev,
					     CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
					     (int)kf->shared_optin);
	const struct kernel_attrs *a = kernel_attrs_of(gp->g, n);
	if (r == CUDA_SUCCESS && kattr_set(a, KATTR_NON_PORTABLE_CLUSTER) && a->non_portable_cluster)
		r = gpu_kernel_set_attribute(kf, f, dev,
					     CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1);
	if (r == CUDA_SUCCESS && kattr_set(a, KATTR_CARVEOUT))
		r = gpu_kernel_set_attribute(kf, f, dev,
					     CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
					     a->carveout);
	if (r == CUDA_SUCCESS)
		return true;
	diag_error(gp->d, n->u.kernel.function_pos, "cannot give kernel '%s' on device %u (GPU "
		   "%d) the attributes it has on device 0: %s", n->u.kernel.function, k,
		   gp->devs->v[k].ordinal, cu_strerror(r));
	return false;
}

/* Module mi in device k's context, once. */
static CUmodule device_module(struct gpu *gp, unsigned k, long mi, bool *failed)
{
	struct gpu_dev *v = &gp->devs->v[k];
	if (v->modules[mi] || *failed)
		return v->modules[mi];
	const struct module *m = &gp->g->modules[mi];
	size_t len = 0;
	const void *image = gpu_module_image(gp, mi, &len);
	CUresult r = image ? cu.ModuleLoadDataEx(&v->modules[mi], image, 0, NULL, NULL) :
		CUDA_ERROR_INVALID_IMAGE;
	if (r != CUDA_SUCCESS) {
		v->modules[mi] = NULL;
		*failed = true;
		diag_error(gp->d, m->builtin ? m->pos : m->file_pos, "cannot load module '%s' "
			   "on device %u (GPU %d): %s", m->name, k, v->ordinal, cu_strerror(r));
		return NULL;
	}
	gpu_verbose(gp, "loaded module '%s' on device %u (GPU %d)", m->name, k, v->ordinal);
	return v->modules[mi];
}

int gpu_devices_load(struct gpu *gp)
{
	struct gdef *g = gp->g;
	struct gpu_devs *ds = gp->devs;
	if (ds == NULL || ds->n == 1)
		return 0;
	bool ok = true;
	bool *seen = xcalloc(gp->nfuncs ? gp->nfuncs : 1, sizeof *seen);
	for (unsigned k = 1; k < ds->n && ok; k++) {
		struct gpu_dev *v = &ds->v[k];
		bool failed = false;
		memset(seen, 0, (gp->nfuncs ? gp->nfuncs : 1) * sizeof *seen);
		v->modules = xcalloc(g->nmodules ? g->nmodules : 1, sizeof *v->modules);
		v->funcs = xcalloc(gp->nfuncs ? gp->nfuncs : 1, sizeof *v->funcs);
		cu.CtxSetCurrent(v->ctx);
		for (size_t i = 0; i < g->nall_nodes && ok; i++) {
			const struct node *n = g->all_nodes[i];
			if (n->kind != NK_KERNEL || node_device(g, n) != k)
				continue;
			long fi = strmap_get(gp->func_index, n->u.kernel.function);
			if (fi < 0 || gp->funcs[fi].f == NULL || v->funcs[fi] || seen[fi])
				continue;
			seen[fi] = true;
			if (gp->funcs[fi].k) {
				/* a library's kernel: the node names it and the context */
				ok = copy_attrs(gp, n, &gp->funcs[fi], NULL, k);
				continue;
			}
			CUmodule mod = device_module(gp, k, n->u.kernel.module.idx, &failed);
			if (mod == NULL) {
				ok = false;
				break;
			}
			CUresult r = cu.ModuleGetFunction(&v->funcs[fi], mod,
							  gpu_kernel_symbol(gp, &n->u.kernel));
			if (r != CUDA_SUCCESS) {
				v->funcs[fi] = NULL;
				diag_error(gp->d, n->u.kernel.function_pos, "cannot get function "
					   "'%s' on device %u (GPU %d): %s", n->u.kernel.function, k,
					   v->ordinal, cu_strerror(r));
				ok = false;
				break;
			}
			ok = copy_attrs(gp, n, &gp->funcs[fi], v->funcs[fi], k);
		}
	}
	cu.CtxSetCurrent(gp->ctx);
	free(seen);
	return ok ? 0 : 3;
}

/*
 * Stops the walk at a use of buffer *ctx's contents.  An alloc or a free
 * node needs no access to them; a host node reaches only host memory and
 * a library node only its own device's (the validator says so), so their
 * uses never name another device's graph memory.
 */
static bool not_data_of(void *ctx, const struct buf_use *u)
{
	return u->role != ROLE_DATA || u->buffer->idx != *(const long *)ctx;
}

void gpu_devices_alloc_params(struct gpu *gp, const struct node *n,
			      CUDA_MEM_ALLOC_NODE_PARAMS_v2 *p)
{
	const struct gdef *g = gp->g;
	unsigned k = node_device(g, n);
	long b = n->u.buffer.idx;
	p->poolProps.location.id = gp->devs ? gp->devs->v[k].dev : gp->dev;
	if (ndev(gp) == 1)
		return;
	/* the other devices whose nodes use it, where they may reach it */
	unsigned long long users = 0;
	for (size_t i = 0; i < g->nall_nodes; i++) {
		const struct node *m = g->all_nodes[i];
		unsigned md = node_device(g, m);
		if (md == k || (users >> md & 1) || !(gp->devs->v[md].peers >> k & 1))
			continue;
		if (!node_buffer_uses(m, not_data_of, &b))
			users |= 1ull << md;
	}
	free(gp->devs->access);
	gp->devs->access = xcalloc(ndev(gp), sizeof *gp->devs->access);
	size_t na = 0;
	for (unsigned d = 0; d < ndev(gp); d++)
		if (users >> d & 1) {
			CUmemAccessDesc *a = &gp->devs->access[na++];
			a->location.type = CU_MEM_LOCATION_TYPE_DEVICE;
			a->location.id = gp->devs->v[d].dev;
			a->flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
		}
	p->accessDescs = na ? gp->devs->access : NULL;
	p->accessDescCount = na;
}

struct report_device *gpu_devices_report(const struct gpu *gp, size_t *n)
{
	*n = 0;
	if (ndev(gp) < 2)
		return NULL;
	struct report_device *r = xcalloc(ndev(gp), sizeof *r);
	for (unsigned k = 0; k < ndev(gp); k++) {
		r[k].ordinal = gp->devs->v[k].ordinal;
		r[k].name = gp->devs->v[k].name;
		r[k].peers = gp->devs->v[k].peers;
	}
	*n = ndev(gp);
	return r;
}

void gpu_devices_close(struct gpu *gp, bool cuda)
{
	struct gpu_devs *ds = gp->devs;
	if (ds == NULL)
		return;
	for (unsigned k = 1; k < ds->n; k++) {
		struct gpu_dev *v = &ds->v[k];
		if (cuda && v->retained) {
			cu.CtxSetCurrent(v->ctx);
			for (size_t i = 0; v->modules && i < gp->g->nmodules; i++)
				if (v->modules[i])
					cu.ModuleUnload(v->modules[i]);
			/* graph allocations go back to this device's pool at graph teardown */
			cu.CtxSynchronize();
			cu.DeviceGraphMemTrim(v->dev);
			cu.CtxSetCurrent(gp->ctx);
			cu.DevicePrimaryCtxRelease(v->dev);
		}
		free(v->modules);
		free(v->funcs);
	}
	free(ds->v);
	free(ds->access);
	free(ds);
	gp->devs = NULL;
}
