/*
 * Launch attributes and the device's say on them (gpu_attr.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu_attr.h"
#include "gpu_kernel.h"
#include "scalar.h"
#include "strmap.h"

int gpu_device_attr(const struct gpu *gp, CUdevice_attribute a)
{
	const char *off = getenv("CUGRAPHRUN_TEST_NO_DEVICE_ATTR");
	for (const char *p = off; p && *p;) {
		char *end;
		long v = strtol(p, &end, 10);
		if (end == p)
			break;
		if (v == (long)a)
			return 0;
		p = *end == ',' ? end + 1 : end;
	}
	int v = 0;
	if (cu.DeviceGetAttribute(&v, a, gp->dev) != CUDA_SUCCESS)
		return 0;
	return v;
}

/* "device 0 (sm_90)", for messages. */
static void device_words(const struct gpu *gp, char *buf, size_t len)
{
	snprintf(buf, len, "device %d (sm_%d%d)", gp->ordinal, gp->cc_major, gp->cc_minor);
}

/* The attribute's absence as an error at pos: what needs it, and which one. */
static bool need_attr(struct gpu *gp, CUdevice_attribute a, const char *name, struct pos pos,
		      const char *what)
{
	if (gpu_device_attr(gp, a))
		return true;
	char dev[64];
	device_words(gp, dev, sizeof dev);
	diag_error(gp->d, pos, "%s needs %s, which %s does not have", what, name, dev);
	return false;
}

/* The persisting-L2 set-aside ----------------------------------------------- */

static int set_persisting_l2(struct gpu *gp)
{
	const struct run_defaults *r = &gp->g->run;
	if (!r->has_persisting_l2)
		return 0;
	char want[32], most[32], dev[64];
	format_size(r->persisting_l2, want, sizeof want);
	uint64_t max = (uint64_t)gpu_device_attr(gp, CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_L2_CACHE_SIZE);
	if (r->persisting_l2 > max) {
		format_size(max, most, sizeof most);
		device_words(gp, dev, sizeof dev);
		diag_error(gp->d, r->persisting_l2_pos, "run.persisting_l2 of %s is more than %s "
			   "can set aside for persisting accesses (CU_DEVICE_ATTRIBUTE_MAX_PERSISTING_"
			   "L2_CACHE_SIZE: %s)", want, dev, most);
		return 3;
	}
	size_t before = 0;
	CUresult rc = cu.CtxGetLimit(&before, CU_LIMIT_PERSISTING_L2_CACHE_SIZE);
	if (rc == CUDA_SUCCESS)
		rc = cu.CtxSetLimit(CU_LIMIT_PERSISTING_L2_CACHE_SIZE, (size_t)r->persisting_l2);
	if (rc != CUDA_SUCCESS) {
		diag_error(gp->d, r->persisting_l2_pos, "cannot set aside %s of L2 for persisting "
			   "accesses: %s", want, cu_strerror(rc));
		return 3;
	}
	/* a rebuild (a sweep's point) sets it again: the context's own limit is the first one */
	if (!gp->l2_set)
		gp->l2_before = before;
	gp->l2_set = true;
	gpu_verbose(gp, "set aside %s of L2 for persisting accesses", want);
	return 0;
}

void gpu_attr_close(struct gpu *gp)
{
	if (gp->l2_set)
		cu.CtxSetLimit(CU_LIMIT_PERSISTING_L2_CACHE_SIZE, gp->l2_before);
	gp->l2_set = false;
}

/* Memory operations: each device attribute an operation needs ------------- */

static bool check_memops(struct gpu *gp, const struct node *n)
{
	static const struct {
		CUdevice_attribute a;
		const char *name, *what;
	} needs[] = {
		{CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS,
		 "CU_DEVICE_ATTRIBUTE_CAN_USE_64_BIT_STREAM_MEM_OPS", "a 64-bit value"},
		{CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR,
		 "CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_WAIT_VALUE_NOR", "a nor comparison"},
		{CU_DEVICE_ATTRIBUTE_CAN_FLUSH_REMOTE_WRITES,
		 "CU_DEVICE_ATTRIBUTE_CAN_FLUSH_REMOTE_WRITES", "a flush of remote writes"},
	};
	bool ok = true;
	for (size_t i = 0; i < n->u.memop.nops; i++) {
		const struct memop *op = &n->u.memop.ops[i];
		const bool uses[] = {
			op->bits == 64,
			op->kind == MEMOP_WAIT && op->compare == CMP_NOR,
			op->kind == MEMOP_FLUSH || (op->kind == MEMOP_WAIT && op->flush),
		};
		for (size_t k = 0; k < sizeof needs / sizeof *needs; k++) {
			char what[160];
			if (!uses[k])
				continue;
			snprintf(what, sizeof what, "operation %zu of memop node '%s' (%s, %s)", i + 1,
				 n->id, memop_kind_names[op->kind], needs[k].what);
			ok &= need_attr(gp, needs[k].a, needs[k].name, op->pos, what);
		}
	}
	return ok;
}

/* Function attributes and the device's limits, per attributed kernel ------ */

static struct kfunc *func_of(struct gpu *gp, const struct node *n)
{
	long i = gp->func_index ? strmap_get(gp->func_index, n->u.kernel.function) : -1;
	return i >= 0 ? &gp->funcs[i] : NULL;
}

static bool set_func_attr(struct gpu *gp, const struct node *n, const struct kfunc *kf,
			  CUfunction_attribute fa, int value, struct pos pos, const char *key)
{
	CUresult r = gpu_kernel_set_attribute(kf, kf->f, gp->dev, fa, value);
	if (r == CUDA_SUCCESS)
		return true;
	diag_error(gp->d, pos, "cannot give kernel '%s' %s %d (node '%s'): %s",
		   n->u.kernel.function, key, value, n->id, cu_strerror(r));
	return false;
}

/* A cooperative grid must fit on the device at once: the occupancy query says how much does. */
static bool check_cooperative(struct gpu *gp, const struct node *n, const struct kernel_attrs *a,
			      CUfunction f)
{
	const struct kernel_node *k = &n->u.kernel;
	struct pos at = a->pos[KATTR_COOPERATIVE];
	if (!need_attr(gp, CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH,
		       "CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH", at,
		       "a cooperative kernel node (cooperative: true)"))
		return false;
	int threads = (int)(k->block[0] * k->block[1] * k->block[2]), per_sm = 0;
	CUresult r = cu.OccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, f, threads,
								   (size_t)k->shared);
	if (r != CUDA_SUCCESS) {
		diag_error(gp->d, at, "cannot ask how many blocks of kernel '%s' fit at once: %s",
			   k->function, cu_strerror(r));
		return false;
	}
	uint64_t sms = (uint64_t)gpu_device_attr(gp, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
	uint64_t blocks = (uint64_t)k->grid[0] * k->grid[1] * k->grid[2];
	uint64_t fit = (uint64_t)per_sm * sms;
	if (blocks <= fit)
		return true;
	char dev[64];
	device_words(gp, dev, sizeof dev);
	diag_error(gp->d, at, "cooperative node '%s' launches %llu blocks, but at most %llu "
		   "blocks of kernel '%s' (%d threads, %llu bytes of dynamic shared memory) are "
		   "resident at once on %s (%d per multiprocessor, %llu multiprocessors): a "
		   "cooperative grid must be resident whole", n->id, (unsigned long long)blocks,
		   (unsigned long long)fit, k->function, threads, (unsigned long long)k->shared,
		   dev, per_sm, (unsigned long long)sms);
	return false;
}

/* A cluster shape the device can schedule at all (cuOccupancyMaxActiveClusters). */
static bool check_cluster(struct gpu *gp, const struct node *n, const struct kernel_attrs *a,
			  CUfunction f)
{
	const struct kernel_node *k = &n->u.kernel;
	struct pos at = a->pos[KATTR_CLUSTER];
	if (!need_attr(gp, CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH, "CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH",
		       at, "a thread block cluster (cluster:)"))
		return false;
	CUlaunchAttribute attr;
	memset(&attr, 0, sizeof attr);
	attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
	attr.value.clusterDim.x = a->cluster[0];
	attr.value.clusterDim.y = a->cluster[1];
	attr.value.clusterDim.z = a->cluster[2];
	CUlaunchConfig cfg = {
		.gridDimX = k->grid[0], .gridDimY = k->grid[1], .gridDimZ = k->grid[2],
		.blockDimX = k->block[0], .blockDimY = k->block[1], .blockDimZ = k->block[2],
		.sharedMemBytes = (unsigned)k->shared, .hStream = gp->stream,
		.attrs = &attr, .numAttrs = 1,
	};
	int clusters = 0;
	CUresult r = cu.OccupancyMaxActiveClusters(&clusters, f, &cfg);
	char dev[64];
	device_words(gp, dev, sizeof dev);
	if (r == CUDA_SUCCESS && clusters > 0)
		return true;
	unsigned blocks = a->cluster[0] * a->cluster[1] * a->cluster[2];
	if (r != CUDA_SUCCESS)
		diag_error(gp->d, at, "%s cannot schedule clusters of %u blocks (%ux%ux%u) of kernel "
			   "'%s', as node '%s' asks: %s", dev, blocks, a->cluster[0], a->cluster[1],
			   a->cluster[2], k->function, n->id, cu_strerror(r));
	else
		diag_error(gp->d, at, "%s has room for no cluster of %u blocks (%ux%ux%u) of kernel "
			   "'%s' with %u threads and %llu bytes of dynamic shared memory each, as node "
			   "'%s' asks (cuOccupancyMaxActiveClusters: 0)", dev, blocks, a->cluster[0],
			   a->cluster[1], a->cluster[2], k->function,
			   k->block[0] * k->block[1] * k->block[2], (unsigned long long)k->shared,
			   n->id);
	return false;
}

static bool check_window(struct gpu *gp, const struct node *n, const struct kernel_attrs *a)
{
	const struct access_window *w = &a->window;
	if (w->buffer.idx < 0)
		return true;
	uint64_t bytes = w->count * elem_infos[gp->g->buffers[w->buffer.idx].type].size;
	uint64_t max = (uint64_t)gpu_device_attr(gp, CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE);
	if (bytes <= max)
		return true;
	char have[32], most[32], dev[64];
	format_size(bytes, have, sizeof have);
	format_size(max, most, sizeof most);
	device_words(gp, dev, sizeof dev);
	diag_error(gp->d, a->pos[KATTR_ACCESS_POLICY], "node '%s''s access policy window of %s "
		   "is larger than %s takes (CU_DEVICE_ATTRIBUTE_MAX_ACCESS_POLICY_WINDOW_SIZE: %s)",
		   n->id, have, dev, most);
	return false;
}

static bool check_domains(struct gpu *gp, const struct node *n, const struct kernel_attrs *a)
{
	int count = gpu_device_attr(gp, CU_DEVICE_ATTRIBUTE_MEM_SYNC_DOMAIN_COUNT);
	bool ok = true;
	for (int i = 0; i < DOMAIN_COUNT; i++) {
		if (a->domain_map[i] < count)
			continue;
		char dev[64];
		device_words(gp, dev, sizeof dev);
		diag_error(gp->d, a->pos[KATTR_DOMAIN_MAP], "node '%s' maps the %s domain to id %u, "
			   "but %s has %d memory synchronisation domains (ids 0 to %d; "
			   "CU_DEVICE_ATTRIBUTE_MEM_SYNC_DOMAIN_COUNT)", n->id, sync_domain_names[i],
			   a->domain_map[i], dev, count, count - 1);
		ok = false;
	}
	return ok;
}

static bool prepare_kernel(struct gpu *gp, const struct node *n, const struct kernel_attrs *a)
{
	struct kfunc *kf = func_of(gp, n);
	if (kf == NULL || kf->f == NULL)
		return true;    /* gpu_load said why */
	bool ok = true;
	if (kattr_set(a, KATTR_NON_PORTABLE_CLUSTER) && a->non_portable_cluster)
		ok &= set_func_attr(gp, n, kf, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED,
				    1, a->pos[KATTR_NON_PORTABLE_CLUSTER], "non_portable_cluster");
	if (kattr_set(a, KATTR_CARVEOUT))
		ok &= set_func_attr(gp, n, kf, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
				    a->carveout, a->pos[KATTR_CARVEOUT], "carveout");
	if (kattr_set(a, KATTR_COOPERATIVE) && a->cooperative)
		ok &= check_cooperative(gp, n, a, kf->f);
	if (kattr_set(a, KATTR_CLUSTER) && ok)
		ok &= check_cluster(gp, n, a, kf->f);
	if (kattr_set(a, KATTR_ACCESS_POLICY))
		ok &= check_window(gp, n, a);
	if (kattr_set(a, KATTR_DOMAIN_MAP))
		ok &= check_domains(gp, n, a);
	return ok;
}

int gpu_attr_prepare(struct gpu *gp)
{
	struct gdef *g = gp->g;
	bool ok = true;
	for (size_t i = 0; i < g->nall_nodes; i++) {
		const struct node *n = g->all_nodes[i];
		const struct kernel_attrs *a = kernel_attrs_of(g, n);
		if (a)
			ok &= prepare_kernel(gp, n, a);
		else if (n->kind == NK_MEMOP)
			ok &= check_memops(gp, n);
	}
	if (!ok)
		return 3;
	return set_persisting_l2(gp);
}

/* Launch attributes, set on each kernel node -------------------------------- */

typedef bool fill_fn(const struct gpu *gp, const struct kernel_attrs *a,
		     CUlaunchAttributeValue *v);

static bool fill_window(const struct gpu *gp, const struct kernel_attrs *a,
			CUlaunchAttributeValue *v)
{
	const struct access_window *w = &a->window;
	v->accessPolicyWindow.base_ptr =
		(void *)(uintptr_t)gpu_buffer_addr(gp, w->buffer.idx, w->offset);
	v->accessPolicyWindow.num_bytes =
		(size_t)(w->count * elem_infos[gp->g->buffers[w->buffer.idx].type].size);
	v->accessPolicyWindow.hitRatio = (float)w->hit_ratio;
	/* model.h's access properties are cuda.h's values */
	v->accessPolicyWindow.hitProp = (CUaccessProperty)w->hit;
	v->accessPolicyWindow.missProp = (CUaccessProperty)w->miss;
	return true;
}

static bool fill_cooperative(const struct gpu *gp, const struct kernel_attrs *a,
			     CUlaunchAttributeValue *v)
{
	v->cooperative = a->cooperative;
	return true;
}

static bool fill_cluster(const struct gpu *gp, const struct kernel_attrs *a,
			 CUlaunchAttributeValue *v)
{
	v->clusterDim.x = a->cluster[0];
	v->clusterDim.y = a->cluster[1];
	v->clusterDim.z = a->cluster[2];
	return true;
}

static bool fill_scheduling(const struct gpu *gp, const struct kernel_attrs *a,
			    CUlaunchAttributeValue *v)
{
	v->clusterSchedulingPolicyPreference = (CUclusterSchedulingPolicy)a->cluster_scheduling;
	return true;
}

static bool fill_domain_map(const struct gpu *gp, const struct kernel_attrs *a,
			    CUlaunchAttributeValue *v)
{
	v->memSyncDomainMap.default_ = a->domain_map[DOMAIN_DEFAULT];
	v->memSyncDomainMap.remote = a->domain_map[DOMAIN_REMOTE];
	return true;
}

static bool fill_domain(const struct gpu *gp, const struct kernel_attrs *a,
			CUlaunchAttributeValue *v)
{
	v->memSyncDomain = (CUlaunchMemSyncDomain)a->domain;
	return true;
}

static bool fill_preferred(const struct gpu *gp, const struct kernel_attrs *a,
			   CUlaunchAttributeValue *v)
{
	v->preferredClusterDim.x = a->preferred_cluster[0];
	v->preferredClusterDim.y = a->preferred_cluster[1];
	v->preferredClusterDim.z = a->preferred_cluster[2];
	return true;
}

/* Opting in is for good: 'device_updatable: false' sets nothing. */
static bool fill_updatable(const struct gpu *gp, const struct kernel_attrs *a,
			   CUlaunchAttributeValue *v)
{
	v->deviceUpdatableKernelNode.deviceUpdatable = 1;
	return a->node->u.kernel.device_updatable;
}

static bool fill_nvlink(const struct gpu *gp, const struct kernel_attrs *a,
			CUlaunchAttributeValue *v)
{
	v->nvlinkUtilCentricScheduling = a->nvlink_centric;
	return true;
}

/* In enum kattr's order, which sets a cluster before its preferred substitute. */
static const struct {
	enum kattr k;
	CUlaunchAttributeID id;
	fill_fn *fill;
} launch_attrs[] = {
	{KATTR_ACCESS_POLICY, CU_LAUNCH_ATTRIBUTE_ACCESS_POLICY_WINDOW, fill_window},
	{KATTR_COOPERATIVE, CU_LAUNCH_ATTRIBUTE_COOPERATIVE, fill_cooperative},
	{KATTR_CLUSTER, CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION, fill_cluster},
	{KATTR_CLUSTER_SCHEDULING, CU_LAUNCH_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE,
	 fill_scheduling},
	{KATTR_DOMAIN_MAP, CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN_MAP, fill_domain_map},
	{KATTR_DOMAIN, CU_LAUNCH_ATTRIBUTE_MEM_SYNC_DOMAIN, fill_domain},
	{KATTR_PREFERRED_CLUSTER, CU_LAUNCH_ATTRIBUTE_PREFERRED_CLUSTER_DIMENSION, fill_preferred},
	{KATTR_DEVICE_UPDATABLE, CU_LAUNCH_ATTRIBUTE_DEVICE_UPDATABLE_KERNEL_NODE, fill_updatable},
	{KATTR_NVLINK_CENTRIC, CU_LAUNCH_ATTRIBUTE_NVLINK_UTIL_CENTRIC_SCHEDULING, fill_nvlink},
};

static bool set_one(struct gpu *gp, const struct node *n, CUgraphNode h, CUlaunchAttributeID id,
		    const CUlaunchAttributeValue *v, struct pos pos, const char *key)
{
	CUresult r = cu.GraphKernelNodeSetAttribute(h, id, v);
	if (r == CUDA_SUCCESS)
		return true;
	diag_error(gp->d, pos, "cannot set launch attribute '%s' of node '%s': %s", key, n->id,
		   cu_strerror(r));
	return false;
}

int gpu_attr_set(struct gpu *gp, const struct node *n, CUgraphNode h)
{
	const struct kernel_node *k = &n->u.kernel;
	CUlaunchAttributeValue v;
	bool ok = true;
	if (k->has_priority) {
		memset(&v, 0, sizeof v);
		v.priority = k->priority;
		ok &= set_one(gp, n, h, CU_LAUNCH_ATTRIBUTE_PRIORITY, &v, k->priority_pos, "priority");
	}
	const struct kernel_attrs *a = kernel_attrs_of(gp->g, n);
	for (size_t i = 0; a && i < sizeof launch_attrs / sizeof *launch_attrs; i++) {
		if (!kattr_set(a, launch_attrs[i].k))
			continue;
		memset(&v, 0, sizeof v);
		if (launch_attrs[i].fill(gp, a, &v))
			ok &= set_one(gp, n, h, launch_attrs[i].id, &v, a->pos[launch_attrs[i].k],
				      kattr_names[launch_attrs[i].k]);
	}
	return ok ? 0 : 3;
}
