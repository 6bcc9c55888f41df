/*
 * Comparing the models of two points of a sweep (sweep_diff.h).
 */
#include "config.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model_lib.h"
#include "shape.h"
#include "model_uses.h"
#include "sweep_diff.h"
#include "xmalloc.h"

static bool same_str(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	return a == b || strcmp(a, b) == 0;
}

static bool same_num(const struct num *a, const struct num *b)
{
	if (a->kind != b->kind)
		return false;
	switch (a->kind) {
	case NUM_UINT:
		return a->u == b->u;
	case NUM_INT:
		return a->i == b->i;
	case NUM_FLOAT:
		/* bitwise: -0.0 and 0.0 are different arguments, a NaN the same */
		return memcmp(&a->f, &b->f, sizeof a->f) == 0;
	}
	return false;
}

/* "why" for d, once: the first reason found is the one said. */
static void because(struct model_diff *d, bool structural, const char *file, struct pos pos,
		    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static void because(struct model_diff *d, bool structural, const char *file, struct pos pos,
		    const char *fmt, ...)
{
	if (d->structural || d->rebuild)
		return;
	if (structural)
		d->structural = true;
	else
		d->rebuild = true;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(d->why, sizeof d->why, fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < sizeof d->why && pos.line)
		snprintf(d->why + n, sizeof d->why - (size_t)n, " (%s:%u:%u)", file, pos.line,
			 pos.col);
}

static bool same_args(const struct arg *a, size_t na, const struct arg *b, size_t nb);

/* The same shape and pitch: a buffer whose layout changes is allocated again. */
static bool same_shape(const struct buffer_shape *a, const struct buffer_shape *b)
{
	return a->rank == b->rank && memcmp(a->dim, b->dim, sizeof a->dim) == 0 &&
	       a->pitch == b->pitch && a->pitch_auto == b->pitch_auto;
}
static void moved_under(struct model_diff *d, const struct gdef *b);

static bool same_arg(const struct arg *a, const struct arg *b)
{
	if (a->kind != b->kind)
		return false;
	switch (a->kind) {
	case ARG_BUFFER:
		return same_str(a->ref.name, b->ref.name) && a->offset == b->offset;
	case ARG_HANDLE:
	case ARG_PITCH:
		return same_str(a->ref.name, b->ref.name);
	case ARG_SCALAR:
		return a->type == b->type && same_num(&a->num, &b->num);
	case ARG_BYTES:
		return a->nbytes == b->nbytes && memcmp(a->bytes, b->bytes, a->nbytes) == 0;
	case ARG_STRUCT:
		return same_args(a->fields, a->nfields, b->fields, b->nfields);
	}
	return false;
}

static bool same_args(const struct arg *a, size_t na, const struct arg *b, size_t nb)
{
	if (na != nb)
		return false;
	for (size_t i = 0; i < na; i++)
		if (!same_arg(&a[i], &b[i]))
			return false;
	return true;
}

/*
 * A kind's update rule: the key of node y that changed from x (or NULL),
 * with the rules of the update as reasons (y's model is b).
 */
typedef const char *update_fn(struct model_diff *d, const struct gdef *b, const struct node *x,
			      const struct node *y);

/* The first key of a kernel node whose value differs, or NULL. */
static const char *kernel_change(const struct kernel_node *a, const struct kernel_node *b)
{
	if (!same_str(a->function, b->function))
		return "function";
	if (memcmp(a->grid, b->grid, sizeof a->grid) != 0)
		return "grid";
	if (memcmp(a->block, b->block, sizeof a->block) != 0)
		return "block";
	if (a->shared != b->shared)
		return "shared";
	if (!same_args(a->args, a->nargs, b->args, b->nargs))
		return "args";
	return NULL;
}

/* Do two validated regions lie alike (both flat, or the same first elements and extent)? */
static bool same_place(const struct region *a, const struct region *b, unsigned end)
{
	if (a == NULL || b == NULL)
		return a == b;
	return memcmp(a->first[end], b->first[end], sizeof a->first[end]) == 0;
}

static bool same_extent(const struct region *a, const struct region *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	return memcmp(a->ext, b->ext, sizeof a->ext) == 0;
}

static const char *copy_update(struct model_diff *d, const struct gdef *g, const struct node *x,
			       const struct node *y)
{
	const struct copy_node *a = &x->u.copy, *b = &y->u.copy;
	(void)d, (void)g;
	if (!same_place(a->region, b->region, END_FROM))
		return "from";
	if (!same_place(a->region, b->region, END_TO))
		return "to";
	if (!same_extent(a->region, b->region))
		return "shape";
	if (!same_str(a->from.buffer.name, b->from.buffer.name) || a->from.offset != b->from.offset)
		return "from";
	if (!same_str(a->to.buffer.name, b->to.buffer.name) || a->to.offset != b->to.offset)
		return "to";
	if (a->bytes != b->bytes)
		return "count";
	return NULL;
}

static const char *memset_update(struct model_diff *d, const struct gdef *g,
				 const struct node *x, const struct node *y)
{
	const struct memset_node *a = &x->u.memset, *b = &y->u.memset;
	(void)d, (void)g;
	if (!same_str(a->buffer.name, b->buffer.name))
		return "buffer";
	if (!same_num(&a->value, &b->value))
		return "value";
	if (a->offset != b->offset || !same_place(a->region, b->region, 0))
		return "offset";
	if (!same_extent(a->region, b->region))
		return "shape";
	if (a->count != b->count)
		return "count";
	return NULL;
}

static const char *host_change(const struct host_node *a, const struct host_node *b)
{
	if (a->action != b->action || !same_str(a->text, b->text) ||
	    a->sleep_ns != b->sleep_ns || !same_str(a->buffer.name, b->buffer.name))
		return "host";
	/* a call reads its node at each run: its arg and its buffers' contents follow */
	if (a->action == HOST_CALL && !same_str(a->fn->arg, b->fn->arg))
		return "host";
	return NULL;
}

/*
 * A host call's function, found when the graph is built: another library
 * or function (or other buffers, whose list it was given) builds again.
 */
static bool host_fn_moved(const struct host_fn *a, const struct host_fn *b)
{
	if (!same_str(a->path, b->path) || !same_str(a->function, b->function) ||
	    a->nbuffers != b->nbuffers)
		return true;
	for (size_t i = 0; i < a->nbuffers; i++)
		if (!same_str(a->buffers[i].name, b->buffers[i].name))
			return true;
	return false;
}

/* The index in all_nodes of the node that holds gr, or -1 for the root. */
static long owner_of(const struct graph *gr)
{
	return gr->owner ? (long)gr->owner->seq : -1;
}

/* Same place, kind, id and dependencies?  Else a reason, structural. */
static void node_structure(struct model_diff *d, const struct gdef *b, const struct node *x,
			   const struct node *y)
{
	if (x->kind != y->kind) {
		because(d, true, b->file, y->kind_pos, "node '%s' changed kind: %s -> %s", y->id,
			node_kind_names[x->kind], node_kind_names[y->kind]);
		return;
	}
	if (!same_str(x->id, y->id)) {
		because(d, true, b->file, y->id_pos.line ? y->id_pos : y->pos,
			"node '%s' stands where node '%s' was", y->id, x->id);
		return;
	}
	if (owner_of(x->graph) != owner_of(y->graph) ||
	    x->graph->body_index != y->graph->body_index) {
		because(d, true, b->file, y->pos, "node '%s' is in another graph now", y->id);
		return;
	}
	bool deps = x->ndeps == y->ndeps;
	for (size_t i = 0; deps && i < x->ndeps; i++)
		deps = x->deps[i] == y->deps[i];
	if (!deps) {
		because(d, true, b->file, y->pos, "node '%s' depends on other nodes now", y->id);
		return;
	}
	if (node_kind_is_conditional(y->kind) && x->u.cond.nbodies != y->u.cond.nbodies)
		because(d, true, b->file, y->kind_pos, "%s node '%s' has %zu bodies now (it had "
			"%zu)", node_kind_names[y->kind], y->id, y->u.cond.nbodies,
			x->u.cond.nbodies);
}

static bool same_memops(const struct memop_node *x, const struct memop_node *y)
{
	if (x->nops != y->nops)
		return false;
	for (size_t i = 0; i < x->nops; i++) {
		const struct memop *p = &x->ops[i], *q = &y->ops[i];
		if (p->kind != q->kind || !same_str(p->buffer.name, q->buffer.name) ||
		    p->offset != q->offset || !same_num(&p->value, &q->value) ||
		    p->has_value != q->has_value || p->compare != q->compare ||
		    p->flush != q->flush || p->scope != q->scope || p->bits != q->bits)
			return false;
	}
	return true;
}

static bool same_attrs(const struct kernel_attrs *x, const struct kernel_attrs *y)
{
	return x->set == y->set &&
	       memcmp(x->cluster, y->cluster, sizeof x->cluster) == 0 &&
	       memcmp(x->preferred_cluster, y->preferred_cluster, sizeof x->preferred_cluster) == 0 &&
	       x->cluster_scheduling == y->cluster_scheduling && x->domain == y->domain &&
	       memcmp(x->domain_map, y->domain_map, sizeof x->domain_map) == 0 &&
	       x->cooperative == y->cooperative && x->nvlink_centric == y->nvlink_centric &&
	       x->non_portable_cluster == y->non_portable_cluster && x->carveout == y->carveout &&
	       x->window.offset == y->window.offset && x->window.count == y->window.count &&
	       x->window.hit_ratio == y->window.hit_ratio &&
	       x->window.hit == y->window.hit && x->window.miss == y->window.miss &&
	       same_str(x->window.buffer.name, y->window.buffer.name);
}

static const char *kernel_update(struct model_diff *d, const struct gdef *b, const struct node *x,
				 const struct node *y)
{
	if (x->u.kernel.has_priority != y->u.kernel.has_priority ||
	    x->u.kernel.priority != y->u.kernel.priority) {
		because(d, false, b->file, y->u.kernel.priority_pos.line ?
			y->u.kernel.priority_pos : y->pos, "the priority of kernel node "
			"'%s' changed (a node's attributes are set when it is added)", y->id);
		return "priority";
	}
	return kernel_change(&x->u.kernel, &y->u.kernel);
}

static const char *host_update(struct model_diff *d, const struct gdef *b, const struct node *x,
			       const struct node *y)
{
	if (y->u.host.action == HOST_CALL && x->u.host.action == HOST_CALL &&
	    host_fn_moved(x->u.host.fn, y->u.host.fn)) {
		because(d, false, b->file, y->kind_pos, "host node '%s' calls another "
			"function (a host function is found when the graph is built)", y->id);
		return "call";
	}
	return host_change(&x->u.host, &y->u.host);
}

static const char *memory_update(struct model_diff *d, const struct gdef *b,
				 const struct node *x, const struct node *y)
{
	if (same_str(x->u.buffer.name, y->u.buffer.name))
		return NULL;
	because(d, false, b->file, y->u.buffer.pos, "%s node '%s' names another "
		"buffer (memory nodes cannot be updated)", node_kind_names[y->kind], y->id);
	return "buffer";
}

static const char *event_update(struct model_diff *d, const struct gdef *b, const struct node *x,
				const struct node *y)
{
	if (same_str(x->u.event.name, y->u.event.name))
		return NULL;
	because(d, false, b->file, y->u.event.pos, "%s node '%s' names another event",
		node_kind_names[y->kind], y->id);
	return "event";
}

static const char *cond_update(struct model_diff *d, const struct gdef *b, const struct node *x,
			       const struct node *y)
{
	if (same_str(x->u.cond.condition.name, y->u.cond.condition.name))
		return NULL;
	because(d, false, b->file, y->u.cond.condition.pos, "%s node '%s' names "
		"another condition (a conditional node's parameters cannot be "
		"updated)", node_kind_names[y->kind], y->id);
	return "condition";
}

static const char *memop_update(struct model_diff *d, const struct gdef *b, const struct node *x,
				const struct node *y)
{
	if (same_memops(&x->u.memop, &y->u.memop))
		return NULL;
	because(d, false, b->file, y->kind_pos, "memop node '%s' changed (the graph "
		"is built again for it)", y->id);
	return "memop";
}

static const char *lib_update(struct model_diff *d, const struct gdef *b, const struct node *x,
			      const struct node *y)
{
	const char *key = lib_change(x, y);
	if (key)
		because(d, false, b->file, y->kind_pos, "%s node '%s' changed its '%s' (a "
			"library call is captured again: the graph is built again)",
			node_kind_names[y->kind], y->id, key);
	return key;
}

/* Each kind's update rule; NULL: nothing of its own to change (empty, graph). */
static update_fn *const kind_updates[NK_COUNT] = {
	[NK_KERNEL] = kernel_update,
	[NK_MEMSET] = memset_update,
	[NK_COPY] = copy_update,
	[NK_HOST] = host_update,
	[NK_ALLOC] = memory_update,
	[NK_FREE] = memory_update,
	[NK_EVENT_RECORD] = event_update,
	[NK_EVENT_WAIT] = event_update,
	[NK_IF] = cond_update,
	[NK_WHILE] = cond_update,
	[NK_SWITCH] = cond_update,
	[NK_MEMOP] = memop_update,
	[NK_CUBLAS] = lib_update,
	[NK_CUFFT] = lib_update,
};

/* A node's parameters: the key that changed (or NULL); rules of the update as reasons. */
static const char *node_params(struct model_diff *d, const struct gdef *b, const struct node *x,
			       const struct node *y)
{
	update_fn *fn = (unsigned)y->kind < NK_COUNT ? kind_updates[y->kind] : NULL;
	return fn ? fn(d, b, x, y) : NULL;
}

/*
 * What the driver features of a node may change between points: whether
 * it is switched on, and a kernel's launch attributes (set when the node
 * is added).  Either rebuilds the graph; NULL when neither changed.
 */
static const char *feature_change(struct model_diff *d, const struct gdef *a,
				  const struct gdef *b, const struct node *x, const struct node *y)
{
	if (x->disabled != y->disabled) {
		because(d, false, b->file, y->pos, "node '%s' is switched %s now", y->id,
			y->disabled ? "off" : "on");
		return "enabled";
	}
	const struct kernel_attrs *ka = kernel_attrs_of(a, x), *kb = kernel_attrs_of(b, y);
	if (ka == NULL && kb == NULL)
		return NULL;
	if (ka == NULL || kb == NULL || !same_attrs(ka, kb)) {
		because(d, false, b->file, y->pos, "the launch attributes of kernel node '%s' "
			"changed (they are set when the node is added)", y->id);
		return "attributes";
	}
	return NULL;
}

/* Dependencies with edge data, graph by graph (both of one structure): the same? */
static bool same_typed(const struct graph *x, const struct graph *y)
{
	if (x == NULL || y == NULL)
		return x == y;
	if (x->ntyped != y->ntyped)
		return false;
	for (size_t i = 0; i < x->ntyped; i++) {
		const struct typed_edge *p = &x->typed[i], *q = &y->typed[i];
		if (p->port != q->port || p->type != q->type || p->from_local != q->from_local ||
		    p->to_local != q->to_local)
			return false;
	}
	for (size_t i = 0; i < x->nnodes; i++) {
		const struct node *m = x->nodes[i], *n = y->nodes[i];
		if (m->kind == NK_GRAPH && !same_typed(m->u.child, n->u.child))
			return false;
		if (node_kind_is_conditional(m->kind))
			for (size_t k = 0; k < m->u.cond.nbodies; k++)
				if (!same_typed(m->u.cond.bodies[k], n->u.cond.bodies[k]))
					return false;
	}
	return true;
}

bool module_same(const struct module *a, const struct module *b)
{
	if (!same_str(a->path, b->path) || a->source != b->source || !same_str(a->std, b->std) ||
	    a->ndefines != b->ndefines || a->noptions != b->noptions ||
	    a->nincludes != b->nincludes)
		return false;
	for (size_t i = 0; i < a->ndefines; i++)
		if (!same_str(a->defines[i].name, b->defines[i].name) ||
		    !same_str(a->defines[i].value, b->defines[i].value))
			return false;
	for (size_t i = 0; i < a->noptions; i++)
		if (!same_str(a->options[i].text, b->options[i].text))
			return false;
	for (size_t i = 0; i < a->nincludes; i++)
		if (!same_str(a->includes[i].path, b->includes[i].path))
			return false;
	return true;
}

/* The lists of named things: same length and names, in order. */
#define SAME_NAMES(d, b, arr, n, what)                                                   \
	do {                                                                             \
		if (a->n != b->n) {                                                      \
			because(d, true, b->file, (struct pos){0}, "the file has %zu %s now " \
				"(it had %zu)", b->n, what, a->n);                       \
			break;                                                           \
		}                                                                        \
		for (size_t i_ = 0; i_ < b->n; i_++)                                     \
			if (!same_str(a->arr[i_].name, b->arr[i_].name)) {               \
				because(d, true, b->file, b->arr[i_].pos, "'%s' stands where " \
					"'%s' was in the %s", b->arr[i_].name,           \
					a->arr[i_].name, what);                          \
				break;                                                   \
			}                                                                \
	} while (0)

/* Does node n (of b) get new parameters: a key changed, or a buffer it uses moved? */
static bool touched(const struct model_diff *d, const struct gdef *b, size_t i)
{
	if (d->changed[i])
		return true;
	for (size_t k = 0; d->any_realloc && k < b->nbuffers; k++)
		if (d->realloc[k] && node_uses_buffer(b->all_nodes[i], (long)k))
			return true;
	return false;
}

/* Memset m's buffer in g, or NULL (a model with errors). */
static const struct buffer *buffer_at(const struct gdef *g, long idx)
{
	return idx >= 0 && (size_t)idx < g->nbuffers ? &g->buffers[idx] : NULL;
}

/*
 * The driver's rules for shaped operations (cuda.h: cuGraphExecUpdate,
 * and the per-kind rules that cuGraphExecNodeSetParams applies, written
 * at cuGraphExecMemsetNodeSetParams and cuGraphExecMemcpyNodeSetParams):
 * a 2-D memset takes a new address and value only, so one whose
 * dimensions change is built again.  A copy with multidimensional
 * operands, before or after, that changes is built again too: measured
 * (bench/update_rules, on an H200 with driver 580),
 * cuGraphExecNodeSetParams refuses its offsets and rows
 * (CUDA_ERROR_INVALID_VALUE) and cuGraphExecUpdate its extent
 * (CU_GRAPH_EXEC_UPDATE_ERROR_PARAMETERS_CHANGED).
 */
static void shaped_rules(struct model_diff *d, const struct gdef *a, const struct gdef *b)
{
	for (size_t i = 0; i < b->nall_nodes && !d->rebuild; i++) {
		const struct node *x = a->all_nodes[i], *y = b->all_nodes[i];
		if (y->kind == NK_COPY) {
			const struct copy_node *p = &x->u.copy, *q = &y->u.copy;
			const struct buffer *pf = buffer_at(a, p->from.buffer.idx),
				*pt = buffer_at(a, p->to.buffer.idx),
				*qf = buffer_at(b, q->from.buffer.idx),
				*qt = buffer_at(b, q->to.buffer.idx);
			bool multidim = pf && pt && qf && qt &&
				(copy_is_multidim(p, pf, pt) || copy_is_multidim(q, qf, qt));
			if (multidim && touched(d, b, i))
				because(d, false, b->file, y->pos, "copy node '%s' of rows or slices "
					"changed, and the driver updates such a copy in no way "
					"(cuGraphExecNodeSetParams refuses its offsets and rows, "
					"cuGraphExecUpdate its extent)", y->id);
			continue;
		}
		if (y->kind != NK_MEMSET || !touched(d, b, i))
			continue;
		const struct buffer *bx = buffer_at(a, x->u.memset.buffer.idx),
			*by = buffer_at(b, y->u.memset.buffer.idx);
		struct memset_geom gx, gy;
		if (bx == NULL || by == NULL ||
		    memset_geom(&x->u.memset, bx, buffer_pitch(bx), &gx) != SPAN_OK ||
		    memset_geom(&y->u.memset, by, buffer_pitch(by), &gy) != SPAN_OK)
			continue;
		if ((gx.height > 1 || gy.height > 1) &&
		    (gx.width != gy.width || gx.height != gy.height || gx.elem != gy.elem ||
		     gx.pitch != gy.pitch))
			because(d, false, b->file, y->pos, "the rows of 2-D memset node '%s' changed "
				"(%" PRIu64 " of %" PRIu64 " %u-byte words, %" PRIu64 " bytes apart; "
				"they were %" PRIu64 " of %" PRIu64 " %u-byte words, %" PRIu64 " bytes "
				"apart), and the driver updates only a 2-D memset's address and value",
				y->id, gy.height, gy.width, gy.elem, gy.pitch, gx.height, gx.width,
				gx.elem, gx.pitch);
	}
}

void model_diff(const struct gdef *a, const struct gdef *b, struct model_diff *d)
{
	memset(d, 0, sizeof *d);
	d->realloc = xcalloc(b->nbuffers ? b->nbuffers : 1, sizeof *d->realloc);
	d->reload = xcalloc(b->nmodules ? b->nmodules : 1, sizeof *d->reload);
	d->changed = xcalloc(b->nall_nodes ? b->nall_nodes : 1, sizeof *d->changed);
	d->cond_default = xcalloc(b->nconditions ? b->nconditions : 1, sizeof *d->cond_default);
	SAME_NAMES(d, b, modules, nmodules, "modules");
	SAME_NAMES(d, b, buffers, nbuffers, "buffers");
	SAME_NAMES(d, b, events, nevents, "events");
	SAME_NAMES(d, b, conditions, nconditions, "conditions");
	if (d->structural) {
		d->lists_differ = true;
		return;
	}
	for (size_t i = 0; i < b->nmodules; i++)
		if (!module_same(&a->modules[i], &b->modules[i])) {
			d->reload[i] = true;
			d->any_reload = true;
		}
	for (size_t i = 0; i < b->nbuffers; i++) {
		const struct buffer *x = &a->buffers[i], *y = &b->buffers[i];
		if (x->size == y->size && x->type == y->type && x->memory == y->memory &&
		    same_shape(&x->shape, &y->shape))
			continue;
		if (x->memory == MEM_GRAPH || y->memory == MEM_GRAPH)
			because(d, false, b->file, y->pos, "buffer '%s' is graph memory and its size, "
				"type or kind changed (an alloc node cannot be updated)", y->name);
		d->realloc[i] = true;
		d->any_realloc = true;
	}
	for (size_t i = 0; i < b->nconditions; i++)
		if (a->conditions[i].default_value != b->conditions[i].default_value) {
			d->cond_default[i] = true;
			d->any_cond_default = true;
		}
	/* the buffers' and modules' changes stand; a structure that differs rebuilds the rest */
	bool rebuild = d->rebuild;
	d->rebuild = false;
	if (a->nall_nodes != b->nall_nodes)
		because(d, true, b->file, (struct pos){0}, "the graph has %zu nodes now (it had %zu)",
			b->nall_nodes, a->nall_nodes);
	for (size_t i = 0; i < b->nall_nodes && !d->structural; i++)
		node_structure(d, b, a->all_nodes[i], b->all_nodes[i]);
	if (!d->structural && !same_typed(a->root, b->root))
		because(d, true, b->file, (struct pos){0}, "the edge data of some dependency "
			"changed (a port or a type is part of the graph's structure)");
	if (d->structural)
		return;
	d->rebuild = rebuild;
	if (d->any_realloc)
		moved_under(d, b);
	for (size_t i = 0; i < b->nall_nodes; i++) {
		const struct node *x = a->all_nodes[i], *y = b->all_nodes[i];
		if (!x->dynamic && !y->dynamic)
			continue;
		d->changed[i] = feature_change(d, a, b, x, y);
		if (d->changed[i] == NULL)
			d->changed[i] = node_params(d, b, x, y);
		d->nchanged += d->changed[i] != NULL;
	}
	shaped_rules(d, a, b);
}

void model_diff_free(struct model_diff *d)
{
	free(d->realloc);
	free(d->reload);
	free(d->changed);
	free(d->cond_default);
	memset(d, 0, sizeof *d);
}

bool graph_has_device_updatable(const struct gdef *g)
{
	return gdef_device_updatable(g) != NULL;
}

/* Stops the walk at buffer *b. */
static bool not_buffer(void *ctx, const struct buf_use *u)
{
	return u->buffer->idx != *(const long *)ctx;
}

bool node_uses_buffer(const struct node *n, long b)
{
	return !node_buffer_uses(n, not_buffer, &b);
}

/*
 * A buffer allocated again moves: a memop node's addresses, the work a
 * library node captured and a kernel's access-policy window are set when
 * the graph is built, and no update call takes new ones, so a point that
 * moves a buffer they name rebuilds.
 */
static void moved_under(struct model_diff *d, const struct gdef *b)
{
	for (size_t i = 0; i < b->nall_nodes && !d->rebuild; i++) {
		const struct node *n = b->all_nodes[i];
		if (n->kind != NK_MEMOP && !node_kind_is_library(n->kind))
			continue;
		for (size_t k = 0; k < b->nbuffers; k++)
			if (d->realloc[k] && node_uses_buffer(n, (long)k)) {
				because(d, false, b->file, n->pos, "%s node '%s' names buffer '%s', "
					"allocated again (%s)", node_kind_names[n->kind], n->id,
					b->buffers[k].name, n->kind == NK_MEMOP ? "a memop node's "
					"addresses cannot be updated" : "a library call is captured "
					"again");
				break;
			}
	}
	for (size_t i = 0; i < b->nkattrs && !d->rebuild; i++) {
		const struct kernel_attrs *a = b->kattrs[i];
		long k = a->window.buffer.idx;
		if (kattr_set(a, KATTR_ACCESS_POLICY) && k >= 0 && (size_t)k < b->nbuffers &&
		    d->realloc[k])
			because(d, false, b->file, a->node->pos, "the access-policy window of kernel "
				"node '%s' is over buffer '%s', allocated again (a launch attribute "
				"is not updated)", a->node->id, b->buffers[k].name);
	}
}
