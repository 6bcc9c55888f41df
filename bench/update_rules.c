/*
 * The update rules, measured: which changes of a graph the driver applies
 * to an executable graph in place, and which it refuses, the way a
 * cugraphrun sweep asks (per node with cuGraphExecNodeSetParams, or with
 * cuGraphExecUpdate from a template), on the GPU at hand.  Its output
 * fills the table of cugraphrun(5) (UPDATES); bench/sweep-bench.py runs it.
 *
 *   update_rules PTX-FILE        (bench/sweep_kernels.cu compiled to PTX)
 *
 * Each rule builds the graph of a point "before", instantiates it,
 * launches it, applies the change to the graph of the point "after" and,
 * when the driver accepts it, launches again and reads back what the
 * changed node wrote: an update that returns success but has no effect
 * would be caught.  One line per rule:
 *
 *   RULE  <id>  <in place|refused|wrong>  <how>  <what changed>  [<the driver's error>]
 *
 * The graph: fill(k, n, v) -> memset(m) -> copy(c <- k) -> child graph
 * {fill(g, n, v)} -> IF {fill(b, n, v)} [-> alloc, fill, free] [-> empty].
 * The memset and the copy are 1-D, or 2-D and 3-D (rows at a pitch, a
 * 3-D copy's slices) for the rules of shaped buffers (issue 34): a 2-D
 * memset's value, address and dimensions, a multidimensional copy's
 * offsets and extent, per node and from a template.
 * Like cugraphrun it opens libcuda.so.1 at run time and fetches each entry
 * point through cuGetProcAddress at an explicit ABI version.
 */
#include "config.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda.h>
#include <cudaTypedefs.h>

#include "ref_driver.h"

static struct {
	PFN_cuGetErrorName_v6000 GetErrorName;
	PFN_cuInit_v2000 Init;
	PFN_cuDeviceGet_v2000 DeviceGet;
	PFN_cuDevicePrimaryCtxRetain_v7000 DevicePrimaryCtxRetain;
	PFN_cuCtxSetCurrent_v4000 CtxSetCurrent;
	PFN_cuCtxSynchronize_v2000 CtxSynchronize;
	PFN_cuModuleLoadData_v2000 ModuleLoadData;
	PFN_cuModuleGetFunction_v2000 ModuleGetFunction;
	PFN_cuStreamCreate_v2000 StreamCreate;
	PFN_cuStreamSynchronize_v2000 StreamSynchronize;
	PFN_cuMemAlloc_v3020 MemAlloc;
	PFN_cuMemHostAlloc_v2020 MemHostAlloc;
	PFN_cuMemHostGetDevicePointer_v3020 MemHostGetDevicePointer;
	PFN_cuMemsetD32_v3020 MemsetD32;
	PFN_cuMemcpyDtoH_v3020 MemcpyDtoH;
	PFN_cuGraphCreate_v10000 GraphCreate;
	PFN_cuGraphDestroy_v10000 GraphDestroy;
	PFN_cuGraphAddNode_v12020 GraphAddNode;
	PFN_cuGraphChildGraphNodeGetGraph_v10000 GraphChildGraphNodeGetGraph;
	PFN_cuGraphConditionalHandleCreate_v12030 GraphConditionalHandleCreate;
	PFN_cuGraphKernelNodeSetAttribute_v11000 GraphKernelNodeSetAttribute;
	PFN_cuGraphInstantiateWithParams_v12000 GraphInstantiateWithParams;
	PFN_cuGraphLaunch_v10000 GraphLaunch;
	PFN_cuGraphExecDestroy_v10000 GraphExecDestroy;
	PFN_cuGraphNodeSetParams_v12020 GraphNodeSetParams;
	PFN_cuGraphExecNodeSetParams_v12020 GraphExecNodeSetParams;
	PFN_cuGraphExecUpdate_v12000 GraphExecUpdate;
} cu;

#define CK(call)                                                                      \
	do {                                                                          \
		CUresult r_ = (call);                                                 \
		if (r_ != CUDA_SUCCESS) {                                             \
			fprintf(stderr, "update_rules: %s failed: %s\n", #call, err(r_)); \
			exit(3);                                                      \
		}                                                                     \
	} while (0)

static const char *err(CUresult r)
{
	const char *name = NULL;
	if (cu.GetErrorName == NULL || cu.GetErrorName(r, &name) != CUDA_SUCCESS)
		return "an unknown error";
	return name;
}

static void load_driver(void)
{
	static const struct ref_entry table[] = {
#define E(name, ver) REF_ENTRY(cu, name, ver)
		E(GetErrorName, 6000), E(Init, 2000), E(DeviceGet, 2000),
		E(DevicePrimaryCtxRetain, 7000), E(CtxSetCurrent, 4000), E(CtxSynchronize, 2000),
		E(ModuleLoadData, 2000), E(ModuleGetFunction, 2000), E(StreamCreate, 2000),
		E(StreamSynchronize, 2000), E(MemAlloc, 3020), E(MemHostAlloc, 2020),
		E(MemHostGetDevicePointer, 3020), E(MemsetD32, 3020), E(MemcpyDtoH, 3020),
		E(GraphCreate, 10000), E(GraphDestroy, 10000), E(GraphAddNode, 12020),
		E(GraphChildGraphNodeGetGraph, 10000), E(GraphConditionalHandleCreate, 12030),
		E(GraphKernelNodeSetAttribute, 11000), E(GraphInstantiateWithParams, 12000),
		E(GraphLaunch, 10000), E(GraphExecDestroy, 10000),
		E(GraphNodeSetParams, 12020), E(GraphExecNodeSetParams, 12020),
		E(GraphExecUpdate, 12000),
#undef E
	};
	ref_load_driver("update_rules", &cu, table, sizeof table / sizeof *table);
}

#define N 256

static CUcontext ctx;
static CUstream stream;
static CUfunction f_fill, f_fill2;
/* buffers: the kernel's two, the memset's two, the copy's two and a host-mapped one, child, body */
static CUdeviceptr kbuf, kbuf2, mbuf, mbuf2, cdst, cdst2, hdst, gbuf, bbuf;

/* One point's graph. */
struct spec {
	unsigned grid, block, shared;
	bool fill2;                     /* the other function */
	CUdeviceptr kout;
	int kval;
	CUdeviceptr mdst;
	unsigned mval, melem;
	size_t mwidth;
	size_t mheight, mpitch;         /* 0: one row */
	CUdeviceptr cto;
	size_t cbytes;
	/* a multidimensional copy (cheight or cdepth > 1): rows of cbytes at cpitch */
	size_t cheight, cdepth, cpitch, cslice, cdx, csy;
	int child_val, body_val;
	unsigned cond_default, cond_size;
	size_t alloc_bytes;             /* 0: no memory nodes */
	bool extra;                     /* an empty node more */
	int priority;
};

static const struct spec base = {
	.grid = 1, .block = 32, .kval = 5, .mval = 1, .melem = 4, .mwidth = N,
	.cbytes = N * 4, .child_val = 7, .body_val = 9, .cond_default = 1, .cond_size = 1,
};

/* Handles of the nodes a rule changes. */
struct built {
	CUgraph g;
	CUgraphNode k, m, c, child_k, body_k;
	int kv, cv, bv;                 /* argument storage of the kernels */
	int n;
	void *kparams[3], *cparams[3], *bparams[3];
	CUdeviceptr kout;
};

static CUgraphNode add(CUgraph g, CUgraphNode *dep, CUgraphNodeParams *p)
{
	CUgraphNode n;
	CK(cu.GraphAddNode(&n, g, dep, dep && *dep ? 1 : 0, p));
	return n;
}

static void kernel_params(CUgraphNodeParams *p, CUfunction f, unsigned grid, unsigned block,
			  unsigned shared, void **params)
{
	memset(p, 0, sizeof *p);
	p->type = CU_GRAPH_NODE_TYPE_KERNEL;
	p->kernel.func = f;
	p->kernel.gridDimX = grid;
	p->kernel.gridDimY = p->kernel.gridDimZ = 1;
	p->kernel.blockDimX = block;
	p->kernel.blockDimY = p->kernel.blockDimZ = 1;
	p->kernel.sharedMemBytes = shared;
	p->kernel.kernelParams = params;
}

/* The memset node of point s: one row, or mheight rows mpitch bytes apart. */
static void memset_params(CUgraphNodeParams *p, const struct spec *s)
{
	memset(p, 0, sizeof *p);
	p->type = CU_GRAPH_NODE_TYPE_MEMSET;
	p->memset.dst = s->mdst ? s->mdst : mbuf;
	p->memset.value = s->mval;
	p->memset.elementSize = s->melem;
	p->memset.width = s->mwidth;
	p->memset.height = s->mheight ? s->mheight : 1;
	p->memset.pitch = s->mheight > 1 ? s->mpitch : 0;
	p->memset.ctx = ctx;
}

/*
 * The copy node of point s, kbuf to cto, as cugraphrun makes them
 * (gpu_region.c): one row from address to address, or rows and slices
 * with pitches, offsets and rows a slice (cdx: the destination's x, csy
 * the source's y; a 2-D copy's slice is the whole buffer, as a shaped
 * buffer's is: rows of srcY + Height beyond the slice's are refused).
 */
static void copy_params(CUgraphNodeParams *p, const struct spec *s)
{
	memset(p, 0, sizeof *p);
	CUDA_MEMCPY3D *m = &p->memcpy.copyParams;
	p->type = CU_GRAPH_NODE_TYPE_MEMCPY;
	p->memcpy.copyCtx = ctx;
	m->srcMemoryType = CU_MEMORYTYPE_UNIFIED;
	m->srcDevice = kbuf;
	m->dstMemoryType = CU_MEMORYTYPE_UNIFIED;
	m->dstDevice = s->cto ? s->cto : cdst;
	m->WidthInBytes = s->cbytes;
	m->Height = s->cheight ? s->cheight : 1;
	m->Depth = s->cdepth ? s->cdepth : 1;
	if (m->Height > 1 || m->Depth > 1) {
		m->srcPitch = m->dstPitch = s->cpitch;
		/* rows a slice: the buffer's (its N words at that pitch), not the copy's, as
		 * gpu_region.c gives a shaped buffer's; a copy's rows from srcY on within them */
		m->srcHeight = m->dstHeight = s->cslice ? s->cslice : N * 4 / s->cpitch;
		m->srcY = s->csy;
		m->dstXInBytes = s->cdx;
	}
}

static void build(const struct spec *s, struct built *b)
{
	memset(b, 0, sizeof *b);
	b->n = N;
	b->kout = s->kout ? s->kout : kbuf;
	b->kv = s->kval;
	b->cv = s->child_val;
	b->bv = s->body_val;
	b->kparams[0] = &b->kout;
	b->kparams[1] = &b->n;
	b->kparams[2] = &b->kv;
	b->cparams[0] = &gbuf;
	b->cparams[1] = &b->n;
	b->cparams[2] = &b->cv;
	b->bparams[0] = &bbuf;
	b->bparams[1] = &b->n;
	b->bparams[2] = &b->bv;
	CK(cu.GraphCreate(&b->g, 0));
	CUgraphNodeParams p;
	CUgraphNode last = NULL;
	kernel_params(&p, s->fill2 ? f_fill2 : f_fill, s->grid, s->block, s->shared, b->kparams);
	last = b->k = add(b->g, &last, &p);
	if (s->priority) {
		CUkernelNodeAttrValue v;
		memset(&v, 0, sizeof v);
		v.priority = s->priority;
		CK(cu.GraphKernelNodeSetAttribute(b->k, CU_LAUNCH_ATTRIBUTE_PRIORITY, &v));
	}
	memset_params(&p, s);
	last = b->m = add(b->g, &last, &p);
	copy_params(&p, s);
	last = b->c = add(b->g, &last, &p);
	/* a child graph: an empty one added, then filled in place */
	CUgraph child;
	CK(cu.GraphCreate(&child, 0));
	memset(&p, 0, sizeof p);
	p.type = CU_GRAPH_NODE_TYPE_GRAPH;
	p.graph.graph = child;
	CUgraphNode cn = add(b->g, &last, &p);
	CK(cu.GraphDestroy(child));
	CK(cu.GraphChildGraphNodeGetGraph(cn, &child));
	kernel_params(&p, f_fill, 1, 64, 0, b->cparams);
	b->child_k = add(child, NULL, &p);
	last = cn;
	/* IF (or IF-ELSE) on a handle of the root graph with the point's default */
	CUgraphConditionalHandle h;
	CK(cu.GraphConditionalHandleCreate(&h, b->g, ctx, s->cond_default,
					   CU_GRAPH_COND_ASSIGN_DEFAULT));
	memset(&p, 0, sizeof p);
	p.type = CU_GRAPH_NODE_TYPE_CONDITIONAL;
	p.conditional.handle = h;
	p.conditional.type = CU_GRAPH_COND_TYPE_IF;
	p.conditional.size = s->cond_size;
	p.conditional.ctx = ctx;
	CUgraphNode ifn = add(b->g, &last, &p);
	/* the bodies the driver made with the node, in its parameters */
	CUgraph body = p.conditional.phGraph_out[0];
	kernel_params(&p, f_fill, 1, 64, 0, b->bparams);
	b->body_k = add(body, NULL, &p);
	last = ifn;
	if (s->alloc_bytes) {
		memset(&p, 0, sizeof p);
		p.type = CU_GRAPH_NODE_TYPE_MEM_ALLOC;
		p.alloc.poolProps.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
		p.alloc.poolProps.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
		p.alloc.poolProps.location.id = 0;
		p.alloc.bytesize = s->alloc_bytes;
		CUgraphNode an = add(b->g, &last, &p);
		CUdeviceptr mem = p.alloc.dptr;
		memset(&p, 0, sizeof p);
		p.type = CU_GRAPH_NODE_TYPE_MEM_FREE;
		p.free.dptr = mem;
		last = add(b->g, &an, &p);
	}
	if (s->extra) {
		memset(&p, 0, sizeof p);
		p.type = CU_GRAPH_NODE_TYPE_EMPTY;
		last = add(b->g, &last, &p);
	}
}

static CUgraphExec instantiate(CUgraph g, bool priority, CUresult *r)
{
	CUDA_GRAPH_INSTANTIATE_PARAMS ip;
	memset(&ip, 0, sizeof ip);
	ip.flags = priority ? CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY : 0;
	ip.hUploadStream = stream;
	CUgraphExec e = NULL;
	*r = cu.GraphInstantiateWithParams(&e, g, &ip);
	if (*r == CUDA_SUCCESS && ip.result_out != CUDA_GRAPH_INSTANTIATE_SUCCESS)
		*r = CUDA_ERROR_UNKNOWN;
	return *r == CUDA_SUCCESS ? e : NULL;
}

static int readback(CUdeviceptr p)
{
	int v = 0;
	CK(cu.CtxSynchronize());
	CK(cu.MemcpyDtoH(&v, p, sizeof v));
	return v;
}

enum how {
	EXEC_KERNEL, EXEC_KERNEL_CHILD, EXEC_KERNEL_BODY, EXEC_MEMSET, EXEC_MEMCPY,
	EXEC_UPDATE, SECOND_EXEC,
};
static const char *const how_words[] = {
	"cuGraphExecNodeSetParams (kernel)", "cuGraphExecNodeSetParams (child graph)",
	"cuGraphExecNodeSetParams (IF body)", "cuGraphExecNodeSetParams (memset)",
	"cuGraphExecNodeSetParams (copy)", "cuGraphExecUpdate", "a second cuGraphInstantiate",
};

/* Node h's new parameters on the template, then on the executable graph, as cugraphrun sets them. */
static CUresult set_node(CUgraphExec exec, CUgraphNode h, CUgraphNodeParams *p)
{
	CUresult r = cu.GraphNodeSetParams(h, p);
	return r == CUDA_SUCCESS ? cu.GraphExecNodeSetParams(exec, h, p) : r;
}

/* What to read back after the update: a buffer and the value it must hold. */
struct expect {
	CUdeviceptr at;
	int value;
};

static unsigned in_place, refused, wrong;

static void rule(const char *id, const char *what, struct spec before, struct spec after,
		 enum how how, struct expect want)
{
	struct built a, b;
	build(&before, &a);
	CUresult r;
	CUgraphExec exec = instantiate(a.g, before.priority != 0, &r);
	if (exec == NULL) {
		printf("RULE  %-22s %-9s %-48s %s  [%s]\n", id, "setup", how_words[how], what,
		       err(r));
		cu.GraphDestroy(a.g);
		return;
	}
	CK(cu.GraphLaunch(exec, stream));
	CK(cu.StreamSynchronize(stream));
	r = CUDA_SUCCESS;
	CUgraphExecUpdateResultInfo info;
	memset(&info, 0, sizeof info);
	bool made_b = false;
	CUgraphExec second = NULL;
	switch (how) {
	case EXEC_KERNEL:
	case EXEC_KERNEL_CHILD:
	case EXEC_KERNEL_BODY: {
		CUgraphNode h = how == EXEC_KERNEL ? a.k : how == EXEC_KERNEL_CHILD ? a.child_k : a.body_k;
		if (h == NULL) {
			r = CUDA_ERROR_NOT_SUPPORTED;
			break;
		}
		a.kout = after.kout ? after.kout : kbuf;
		a.kv = after.kval;
		a.cv = after.child_val;
		a.bv = after.body_val;
		void **params = how == EXEC_KERNEL ? a.kparams : how == EXEC_KERNEL_CHILD ?
			a.cparams : a.bparams;
		CUgraphNodeParams p;
		kernel_params(&p, how == EXEC_KERNEL && after.fill2 ? f_fill2 : f_fill,
			      how == EXEC_KERNEL ? after.grid : 1, how == EXEC_KERNEL ? after.block : 64,
			      how == EXEC_KERNEL ? after.shared : 0, params);
		r = set_node(exec, h, &p);
		break;
	}
	case EXEC_MEMSET: {
		CUgraphNodeParams p;
		memset_params(&p, &after);
		r = set_node(exec, a.m, &p);
		break;
	}
	case EXEC_MEMCPY: {
		CUgraphNodeParams p;
		copy_params(&p, &after);
		r = set_node(exec, a.c, &p);
		break;
	}
	case EXEC_UPDATE:
		build(&after, &b);
		made_b = true;
		r = cu.GraphExecUpdate(exec, b.g, &info);
		break;
	case SECOND_EXEC:
		second = instantiate(a.g, false, &r);
		break;
	}
	const char *verdict;
	char detail[160] = "";
	if (r != CUDA_SUCCESS) {
		verdict = "refused";
		refused++;
		snprintf(detail, sizeof detail, "  [%s%s%d]", err(r),
			 how == EXEC_UPDATE ? ", result " : "", how == EXEC_UPDATE ? (int)info.result : 0);
		if (how != EXEC_UPDATE)
			snprintf(detail, sizeof detail, "  [%s]", err(r));
	} else {
		CK(cu.GraphLaunch(exec, stream));
		CK(cu.StreamSynchronize(stream));
		int got = want.at ? readback(want.at) : want.value;
		if (got == want.value) {
			verdict = "in place";
			in_place++;
		} else {
			verdict = "wrong";
			wrong++;
			snprintf(detail, sizeof detail, "  [accepted, but the node wrote %d, not %d]",
				 got, want.value);
		}
	}
	printf("RULE  %-22s %-9s %-48s %s%s\n", id, verdict, how_words[how], what, detail);
	if (second)
		cu.GraphExecDestroy(second);
	cu.GraphExecDestroy(exec);
	cu.GraphDestroy(a.g);
	if (made_b)
		cu.GraphDestroy(b.g);
	fflush(stdout);
}

/* The copies' destinations zeroed: what a rule reads there only its new parameters write. */
static void fresh(void)
{
	CK(cu.MemsetD32(cdst, 0, N));
	CK(cu.MemsetD32(hdst, 0, N));
	CK(cu.CtxSynchronize());
}

/*
 * Shaped buffers (cugraphrun(5), Updates): a 2-D memset of 4 rows of 16
 * words 256 bytes apart, a 2-D copy of 4 rows of 64 bytes and a 3-D one
 * of 2 slices of 2 rows of 32 bytes (slices of 4 rows at 128), all within
 * the N * 4 bytes of each buffer.  What the changed node wrote is read
 * where only the new parameters write: its last row, a moved column.
 */
static void shaped_rules(void)
{
	struct spec s, t;
	struct spec m2 = base;
	m2.mwidth = 16;
	m2.mheight = 4;
	m2.mpitch = 256;
	struct spec c2 = base;
	c2.cbytes = 64;
	c2.cheight = 4;
	c2.cpitch = 256;
	struct spec c3 = base;
	c3.cbytes = 32;
	c3.cheight = 2;
	c3.cdepth = 2;
	c3.cpitch = 128;
	c3.cslice = 4;
	/* 2-D memsets, per node */
	s = m2; t = m2; t.mval = 11;
	rule("memset2d-value", "a 2-D memset's value", s, t, EXEC_MEMSET,
	     (struct expect){mbuf + 3 * 256, 11});
	t = m2; t.mdst = mbuf2; t.mval = 12;
	rule("memset2d-buffer", "a 2-D memset's buffer (another allocation)", s, t, EXEC_MEMSET,
	     (struct expect){mbuf2 + 3 * 256, 12});
	t = m2; t.mheight = 2; t.mval = 13;
	rule("memset2d-height", "a 2-D memset's rows (4 to 2)", s, t, EXEC_MEMSET,
	     (struct expect){mbuf + 256, 13});
	t = m2; t.mwidth = 8; t.mval = 14;
	rule("memset2d-width", "a 2-D memset's width (16 to 8 words)", s, t, EXEC_MEMSET,
	     (struct expect){mbuf + 3 * 256, 14});
	t = m2; t.mpitch = 128; t.mval = 15;
	rule("memset2d-pitch", "a 2-D memset's pitch (256 to 128)", s, t, EXEC_MEMSET,
	     (struct expect){mbuf + 3 * 128, 15});
	s = base; s.mwidth = 16; t = m2; t.mval = 16;
	rule("memset1d-to-2d", "a 1-D memset given rows (1 to 4)", s, t, EXEC_MEMSET,
	     (struct expect){mbuf + 3 * 256, 16});
	/* 2-D memsets, from a template */
	s = m2; t = m2; t.mval = 17;
	rule("memset2d-update-value", "a 2-D memset's value, from a template", s, t, EXEC_UPDATE,
	     (struct expect){mbuf + 3 * 256, 17});
	t = m2; t.mheight = 3; t.mval = 18;
	rule("memset2d-update-height", "a 2-D memset's rows, from a template", s, t, EXEC_UPDATE,
	     (struct expect){mbuf + 2 * 256, 18});
	/* multidimensional copies, per node: kbuf holds 5 (the kernel's) */
	s = c2; t = c2; t.cdx = 128;
	fresh();
	rule("copy2d-exec-offset", "a 2-D copy's destination x (0 to 128 bytes)", s, t,
	     EXEC_MEMCPY, (struct expect){cdst + 3 * 256 + 128, 5});
	t = c2; t.cheight = 2; t.cdx = 128;
	fresh();
	rule("copy2d-exec-height", "a 2-D copy's rows (4 to 2)", s, t, EXEC_MEMCPY,
	     (struct expect){cdst + 256 + 128, 5});
	s = base; s.cbytes = 64; t = c2; t.cdx = 128;
	fresh();
	rule("copy1d-to-2d-exec", "a 1-D copy given rows", s, t, EXEC_MEMCPY,
	     (struct expect){cdst + 3 * 256 + 128, 5});
	/* multidimensional copies, from a template */
	s = c2; t = c2; t.cdx = 128; t.cheight = 3; t.csy = 1;
	fresh();
	rule("copy2d-update", "a 2-D copy's rows and offsets, from a template", s, t, EXEC_UPDATE,
	     (struct expect){cdst + 2 * 256 + 128, 5});
	s = c3; t = c3; t.cdx = 64; t.cdepth = 1;
	fresh();
	rule("copy3d-update", "a 3-D copy's slices and offset, from a template", s, t, EXEC_UPDATE,
	     (struct expect){cdst + 128 + 64, 5});
	s = base; s.cbytes = 64; t = c2; t.cdx = 128;
	fresh();
	rule("copy1d-to-2d-update", "a 1-D copy given rows, from a template", s, t, EXEC_UPDATE,
	     (struct expect){cdst + 3 * 256 + 128, 5});
	s = c2; t = c2; t.cto = hdst; t.cdx = 128;
	fresh();
	rule("copy2d-update-mapping", "a 2-D copy to host-mapped memory, from a template", s, t,
	     EXEC_UPDATE, (struct expect){hdst + 3 * 256 + 128, 5});
}

static CUdeviceptr alloc_zero(void)
{
	CUdeviceptr p;
	CK(cu.MemAlloc(&p, N * 4));
	CK(cu.MemsetD32(p, 0, N));
	return p;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: update_rules PTX-FILE\n");
		return 2;
	}
	load_driver();
	CUdevice dev;
	CUmodule mod;
	CK(cu.Init(0));
	CK(cu.DeviceGet(&dev, 0));
	CK(cu.DevicePrimaryCtxRetain(&ctx, dev));
	CK(cu.CtxSetCurrent(ctx));
	CK(cu.StreamCreate(&stream, CU_STREAM_NON_BLOCKING));
	char *ptx = ref_read_file("update_rules", argv[1]);
	CK(cu.ModuleLoadData(&mod, ptx));
	CK(cu.ModuleGetFunction(&f_fill, mod, "fill"));
	CK(cu.ModuleGetFunction(&f_fill2, mod, "fill2"));
	kbuf = alloc_zero();
	kbuf2 = alloc_zero();
	mbuf = alloc_zero();
	mbuf2 = alloc_zero();
	cdst = alloc_zero();
	cdst2 = alloc_zero();
	gbuf = alloc_zero();
	bbuf = alloc_zero();
	void *host;
	CK(cu.MemHostAlloc(&host, N * 4, CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE));
	CK(cu.MemHostGetDevicePointer(&hdst, host, 0));

	struct spec s, t;
	/* kernel nodes of the root graph, one node's parameters at a time */
	s = base; t = base; t.grid = 4;
	rule("kernel-grid", "a kernel's grid", s, t, EXEC_KERNEL, (struct expect){kbuf, 5});
	t = base; t.block = 64;
	rule("kernel-block", "a kernel's block", s, t, EXEC_KERNEL, (struct expect){kbuf, 5});
	t = base; t.shared = 1024;
	rule("kernel-shared", "a kernel's dynamic shared memory", s, t, EXEC_KERNEL,
	     (struct expect){kbuf, 5});
	t = base; t.kval = 6;
	rule("kernel-arg", "a kernel's scalar argument", s, t, EXEC_KERNEL, (struct expect){kbuf, 6});
	t = base; t.kout = kbuf2; t.kval = 8;
	rule("kernel-buffer", "a kernel's buffer (another allocation)", s, t, EXEC_KERNEL,
	     (struct expect){kbuf2, 8});
	t = base; t.fill2 = true;
	rule("kernel-function", "a kernel's function (same module)", s, t, EXEC_KERNEL,
	     (struct expect){kbuf, 1005});
	/* memset and copy nodes */
	t = base; t.mval = 2;
	rule("memset-value", "a memset's value", s, t, EXEC_MEMSET, (struct expect){mbuf, 2});
	t = base; t.mwidth = N / 2; t.mval = 3;
	rule("memset-smaller", "a 1-D memset's count, smaller", s, t, EXEC_MEMSET,
	     (struct expect){mbuf, 3});
	s = base; s.mwidth = N / 2; t = base; t.mval = 4;
	rule("memset-larger", "a 1-D memset's count, larger", s, t, EXEC_MEMSET,
	     (struct expect){mbuf + 4 * (N - 1), 4});
	s = base; t = base; t.mdst = mbuf2; t.mval = 5;
	rule("memset-buffer", "a memset's buffer (another allocation)", s, t, EXEC_MEMSET,
	     (struct expect){mbuf2, 5});
	t = base; t.melem = 1; t.mwidth = N * 4; t.mval = 1;
	rule("memset-element", "a memset's element size (4 to 1 byte)", s, t, EXEC_MEMSET,
	     (struct expect){mbuf, 0x01010101});
	t = base; t.cbytes = N * 2;
	rule("copy-count", "a copy's size", s, t, EXEC_MEMCPY, (struct expect){0, 0});
	t = base; t.cto = cdst2;
	rule("copy-buffer", "a copy's destination (another device allocation)", s, t, EXEC_MEMCPY,
	     (struct expect){cdst2, 5});
	t = base; t.cto = hdst;
	rule("copy-mapping", "a copy's destination (device to host-mapped memory)", s, t,
	     EXEC_MEMCPY, (struct expect){hdst, 5});
	/* nodes reached through their graph */
	t = base; t.child_val = 17;
	rule("child-exec", "a kernel in a child graph, per node", s, t, EXEC_KERNEL_CHILD,
	     (struct expect){gbuf, 17});
	rule("child-update", "a kernel in a child graph, from a template", s, t, EXEC_UPDATE,
	     (struct expect){gbuf, 17});
	t = base; t.body_val = 19;
	rule("body-update", "a kernel in an IF body, from a template", s, t, EXEC_UPDATE,
	     (struct expect){bbuf, 19});
	t = base; t.kval = 21; t.grid = 2;
	rule("kernel-update", "a kernel's grid and argument, from a template", s, t, EXEC_UPDATE,
	     (struct expect){kbuf, 21});
	/* a condition's default: the handle's, made again with the template */
	s = base; s.cond_default = 0; s.body_val = 23; t = base; t.cond_default = 1; t.body_val = 23;
	rule("condition-default", "a condition's default (0 to 1), from a template", s, t,
	     EXEC_UPDATE, (struct expect){bbuf, 23});
	s = base; t = base; t.cond_size = 2;
	rule("condition-size", "an IF given an ELSE (a conditional's size)", s, t, EXEC_UPDATE,
	     (struct expect){0, 0});
	/* memory nodes, topology, attributes */
	s = base; s.alloc_bytes = 1024; t = s; t.alloc_bytes = 2048;
	rule("alloc-size", "an alloc node's size, from a template", s, t, EXEC_UPDATE,
	     (struct expect){0, 0});
	rule("alloc-second-exec", "a graph with memory nodes, instantiated twice", s, s,
	     SECOND_EXEC, (struct expect){0, 0});
	s = base; t = base; t.extra = true;
	rule("topology", "one node more, from a template", s, t, EXEC_UPDATE, (struct expect){0, 0});
	s = base; s.priority = 1; t = s; t.priority = 2;
	rule("priority", "a kernel's priority (use_node_priority), from a template", s, t,
	     EXEC_UPDATE, (struct expect){0, 0});
	shaped_rules();
	printf("rules: %u in place, %u refused, %u accepted with a wrong result\n", in_place,
	       refused, wrong);
	free(ptx);
	return wrong ? 1 : 0;
}
