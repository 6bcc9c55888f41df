/*
 * Devices (validate_devices.h).  A node runs on the device its 'device:'
 * names, else on its graph's: a child graph's or conditional node's
 * device is that of the nodes inside it, and the root graph's is 0, the
 * run's own GPU.  What the driver refuses about several contexts in one
 * graph is an error here, at the line that causes it:
 *   - cuGraphConditionalHandleCreate ties a handle to a context, and only
 *     a kernel of that context may set it (cudaGraphSetConditional);
 *   - a conditional node's bodies are built in the node's context;
 *   - a graph instantiated for device launch runs on one device.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_kinds.h"
#include "validate_devices.h"
#include "xmalloc.h"

/* The kinds that take 'device' (model_kinds.h: on_device), for messages. */
static const char takers[] = "kernel, memset, copy, memop, alloc, graph, if, while, switch, "
	"cublas and cufft nodes";

/* Why a buffer of each memory kind takes no 'device', after "buffer 'x' is ... memory, ". */
static const char *const no_device_why[MEM_COUNT] = {
	[MEM_HOST] = "which every GPU reaches: 'device' is for device memory",
	[MEM_MANAGED] = "which moves to the GPU that uses it: 'device' is for device memory",
	[MEM_GRAPH] = "which lives on its alloc node's device: give 'device' to the "
		"alloc node",
};

struct dctx {
	struct gdef *g;
	struct diag *d;
	const struct node_device **written;     /* per all_nodes index: its key, or NULL */
	uint8_t *dev;                           /* per all_nodes index */
	bool any;                               /* some node is off device 0 */
};

/* A node that is in the gdef's walk (a node the loader dropped is not). */
static bool walked(const struct gdef *g, const struct node *n)
{
	return n->kind != NK_COUNT && n->seq < g->nall_nodes && g->all_nodes[n->seq] == n;
}

/*
 * The devices of gr's nodes, inherited from dev where they name none;
 * cond is the nearest conditional node holding gr, or NULL.
 */
static void walk(struct dctx *c, const struct graph *gr, unsigned dev, const struct node *cond)
{
	for (size_t i = 0; i < gr->nnodes; i++) {
		const struct node *n = gr->nodes[i];
		if (!walked(c->g, n))
			continue;
		const struct node_device *w = c->written[n->seq];
		unsigned nd = dev;
		if (w && node_kinds[n->kind].on_device) {
			nd = w->device;
			if (cond && nd != c->dev[cond->seq])
				diag_error(c->d, w->pos, "node '%s' is on device %u, but it is in a "
					   "body of %s node '%s', which runs on device %u: a "
					   "conditional body runs on its node's device", n->id, nd,
					   node_kind_names[cond->kind], cond->id, c->dev[cond->seq]);
		}
		c->dev[n->seq] = (uint8_t)nd;
		c->any |= nd != 0;
		if (n->kind == NK_GRAPH)
			walk(c, n->u.child, nd, cond);
		for (size_t b = 0; node_kind_is_conditional(n->kind) && b < n->u.cond.nbodies; b++)
			walk(c, n->u.cond.bodies[b], nd, n);
	}
}

/* The handle arguments of kernel n (in structs too) against their conditions' devices. */
static void check_handles(struct dctx *c, const struct node *n, const struct arg *args,
			  size_t nargs)
{
	const struct gdef *g = c->g;
	for (size_t i = 0; i < nargs; i++) {
		const struct arg *a = &args[i];
		if (a->kind == ARG_STRUCT) {
			check_handles(c, n, a->fields, a->nfields);
			continue;
		}
		if (a->kind != ARG_HANDLE || a->ref.idx < 0 || (size_t)a->ref.idx >= g->nconditions)
			continue;
		const struct condition *cd = &g->conditions[a->ref.idx];
		if (cd->user < 0 || (size_t)cd->user >= g->nall_nodes)
			continue;
		const struct node *owner = g->all_nodes[cd->user];
		if (c->dev[n->seq] == cd->device)
			continue;
		diag_error(c->d, a->pos, "kernel node '%s' runs on device %u, but condition '%s' "
			   "belongs to %s node '%s' on device %u: a condition is set only from its "
			   "own context, by kernels on its node's device", n->id, c->dev[n->seq],
			   cd->name, node_kind_names[owner->kind], owner->id, cd->device);
	}
}

/* 'device' on buffers: device memory only; returns the highest device number given. */
static unsigned check_buffers(struct dctx *c)
{
	unsigned most = 0;
	for (size_t i = 0; i < c->g->nbuffers; i++) {
		const struct buffer *b = &c->g->buffers[i];
		if (!b->has_device)
			continue;
		if (b->memory != MEM_DEVICE) {
			diag_error(c->d, b->device_pos, "buffer '%s' is %s memory, %s", b->name,
				   mem_kind_names[b->memory], no_device_why[b->memory]);
			continue;
		}
		if (b->device > most)
			most = b->device;
	}
	return most;
}

bool validate_one_device(const struct gdef *g, struct diag *d)
{
	if (g->ndevices <= 1)
		return true;
	struct pos at = {0};
	const char *what = "a buffer";
	unsigned dev = 0;
	for (size_t i = 0; i < g->ndevs && at.line == 0; i++)
		if (walked(g, g->devs[i].node) && g->devs[i].device != 0) {
			at = g->devs[i].pos;
			what = "a node";
			dev = g->devs[i].device;
		}
	for (size_t i = 0; i < g->nbuffers; i++) {
		const struct buffer *b = &g->buffers[i];
		if (b->has_device && b->device != 0 && (at.line == 0 || b->device_pos.line < at.line ||
		    (b->device_pos.line == at.line && b->device_pos.col < at.col))) {
			at = b->device_pos;
			what = "a buffer";
			dev = b->device;
		}
	}
	diag_error(d, at, "%s on device %u in a sweep, which runs on one GPU: its points are "
		   "updated in place in one context (cugraphrun(5), Devices)", what, dev);
	return false;
}

void validate_devices(struct gdef *g, struct diag *d)
{
	g->device_of = NULL;
	g->ndevices = 1;
	struct dctx c = {.g = g, .d = d};
	unsigned most = check_buffers(&c);
	if (g->ndevs == 0 || g->nall_nodes == 0) {
		g->ndevices = most + 1;
		for (size_t i = 0; i < g->nconditions; i++)
			g->conditions[i].device = 0;
		return;
	}
	c.written = xcalloc(g->nall_nodes, sizeof *c.written);
	c.dev = xcalloc(g->nall_nodes, sizeof *c.dev);
	for (size_t i = 0; i < g->ndevs; i++) {
		const struct node_device *w = &g->devs[i];
		const struct node *n = w->node;
		if (!walked(g, n))
			continue;
		c.written[n->seq] = w;
		if (!node_kinds[n->kind].on_device)
			diag_error(d, w->pos, "node '%s' is %s %s node, which runs on no device of its "
				   "own: 'device' is for %s", n->id, node_kinds[n->kind].article,
				   node_kind_names[n->kind], takers);
	}
	walk(&c, g->root, 0, NULL);
	for (size_t i = 0; i < g->nconditions; i++) {
		struct condition *cd = &g->conditions[i];
		cd->device = cd->user >= 0 && (size_t)cd->user < g->nall_nodes ?
			c.dev[cd->user] : 0;
	}
	for (size_t i = 0; i < g->nall_nodes; i++) {
		const struct node *n = g->all_nodes[i];
		if (c.dev[i] > most)
			most = c.dev[i];
		if (n->kind == NK_KERNEL)
			check_handles(&c, n, n->u.kernel.args, n->u.kernel.nargs);
	}
	const struct run_defaults *r = &g->run;
	bool device_launch = r->has_instantiate && (r->instantiate & INST_DEVICE_LAUNCH);
	for (size_t i = 0; device_launch && i < g->ndevs; i++) {
		const struct node_device *w = &g->devs[i];
		if (!walked(g, w->node) || !node_kinds[w->node->kind].on_device || w->device == 0)
			continue;
		diag_error(d, w->pos, "node '%s' is on device %u, but the graph is instantiated "
			   "with 'device_launch' (run.instantiate), and a device-launched graph "
			   "runs on one device", w->node->id, w->device);
		break;
	}
	g->ndevices = most + 1;
	if (c.any) {
		g->device_of = arena_alloc(&g->arena, g->nall_nodes);
		memcpy(g->device_of, c.dev, g->nall_nodes);
	}
	free(c.written);
	free(c.dev);
}
