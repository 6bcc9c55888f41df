/*
 * Derived models (model_derive.h).
 *
 * Why a derived model is the model a full reading would give.  The loader
 * is a function of the file's events: two points whose events differ only
 * in the text of some scalars differ only in what the handlers that read
 * those scalars made of them.  load_point.c (POINTS) derives a point only when
 * every scalar whose text changed lies inside one of the objects of
 * load_events.h (enum ev_ctx_kind), read from the raw log alone; each
 * such object is read again, whole, from its own events into a copy
 * (initialised as the loader initialises a new one), and must come out
 * the same but in values (derive_same_*).  So the derived model holds
 * the full reading's objects, and shares the rest, which is the same.
 *
 * What the validator makes of it.  The base passed validation without an
 * error or a warning.  Of the validator's passes, only these read the
 * values derive_same_* lets change: size_buffer and check_init (a
 * buffer's count, size and init), check_kernel (grid, block, shared
 * memory, arguments against their buffers), check_memset, check_copy,
 * check_memop and check_host (theirs, against their buffers), check_expect
 * and check_tolerance (a check's), check_fixed (a condition's default:
 * validate_driver.h); and, in validate_driver.c, the launch attributes'
 * rules (a cluster against the grid, an access window against its
 * buffer), which load_point.c keeps out: a kernel with launch attributes,
 * or an access window on a buffer whose values change, is read in full.
 * Everything else the validator fills in or checks depends on names,
 * kinds, keys and the graph's shape, which are the base's.  So
 * derive_refresh takes the base's results for all of it, and
 * gdef_validate_derived runs exactly those checks on the dirty objects:
 * those read again, the nodes and checks that name a buffer read again,
 * and check_fixed when a condition was.  Any error or warning there sends
 * the point to a full reading and validation, which says it as ever.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model_derive.h"
#include "model_kinds.h"
#include "ptrmap.h"
#include "model_uses.h"
#include "xmalloc.h"

struct gdef *gdef_derive(struct gdef *base)
{
	struct gdef *g = xmalloc(sizeof *g);
	*g = *base;
	memset(&g->arena, 0, sizeof g->arena);
	/* a few copies: a node is 232 bytes, a graph's list of 100 nodes 800 */
	g->arena.first = 2048;
	g->derive = xcalloc(1, sizeof *g->derive);
	g->derive->base = base;
	return g;
}

void derive_own(struct gdef *g, void *block)
{
	struct derive *dv = g->derive;
	if (block)
		*VEC_PUSH(dv->owned, dv->nowned, dv->capowned) = block;
}

void derive_free(struct gdef *g)
{
	if (g == NULL || g->derive == NULL) {
		gdef_free(g);
		return;
	}
	struct derive *dv = g->derive;
	for (size_t i = 0; i < dv->nowned; i++)
		free(dv->owned[i]);
	free(dv->owned);
	if (dv->buffer_dirty)
		free(g->buffers);
	if (dv->condition_dirty)
		free(g->conditions);
	if (dv->check_dirty)
		free(g->checks);
	free(dv->buffer_dirty);
	free(dv->condition_dirty);
	free(dv->check_dirty);
	for (size_t i = 0; i < dv->ngraphs; i++)
		free(dv->graphs[i].copy_at);
	ptrmap_free(dv->graph_of);
	free(dv->nodes);
	free(dv->graphs);
	free(dv);
	arena_free(&g->arena);
	free(g);
}

static struct derived_graph *derive_graph(struct gdef *g, struct graph *bg);

/* A region the validator fills in: the copy's own, in g's arena. */
static struct region *own_region(struct gdef *g, const struct region *r)
{
	if (r == NULL)
		return NULL;
	struct region *own = arena_alloc(&g->arena, sizeof *own);
	*own = *r;
	return own;
}

/* The regions of node n, its own (n: a copy in g). */
static void own_regions(struct gdef *g, struct node *n)
{
	if (n->kind == NK_MEMSET)
		n->u.memset.region = own_region(g, n->u.memset.region);
	else if (n->kind == NK_COPY)
		n->u.copy.region = own_region(g, n->u.copy.region);
	else if (n->kind == NK_HOST)
		n->u.host.region = own_region(g, n->u.host.region);
}

/* Base node n's place in its graph's list: its local, unless that is not it. */
static size_t place_of(const struct graph *bg, const struct node *n)
{
	if (n->local < bg->nnodes && bg->nodes[n->local] == n)
		return n->local;
	for (size_t i = 0; i < bg->nnodes; i++)
		if (bg->nodes[i] == n)
			return i;
	return bg->nnodes;
}

/* A copy of base node n in gr, which holds it at place i (or nowhere: nnodes). */
static struct node *copy_node(struct gdef *g, struct node *n, struct graph *gr, size_t i)
{
	struct node *own = arena_alloc(&g->arena, sizeof *own);
	*own = *n;
	own->graph = gr;
	/* a host set's or copy's fields are filled in by the validator: its own copy */
	if (own->kind == NK_HOST && own->u.host.set) {
		own->u.host.set = arena_alloc(&g->arena, sizeof *own->u.host.set);
		*own->u.host.set = *n->u.host.set;
	}
	if (own->kind == NK_HOST && own->u.host.copy) {
		own->u.host.copy = arena_alloc(&g->arena, sizeof *own->u.host.copy);
		*own->u.host.copy = *n->u.host.copy;
		own->u.host.copy->region = own_region(g, own->u.host.copy->region);
	}
	if (own->kind == NK_HOST && own->u.host.set)
		own->u.host.set->region = own_region(g, own->u.host.set->region);
	own_regions(g, own);
	if (i < gr->nnodes)
		gr->nodes[i] = own;
	return own;
}

struct node *derive_node(struct gdef *g, struct node *n, bool dirty)
{
	struct derive *dv = g->derive;
	struct derived_graph *dg = derive_graph(g, n->graph);
	size_t i = place_of(dg->base, n);
	long k = -1;
	if (i < dg->base->nnodes) {
		k = (long)dg->copy_at[i] - 1;
	} else {
		/* (not in its graph's list: never so in a model the loader made) */
		for (size_t j = 0; k < 0 && j < dv->nnodes; j++)
			if (dv->nodes[j].base == n)
				k = (long)j;
	}
	if (k >= 0) {
		dv->nodes[k].dirty |= dirty;
		return dv->nodes[k].own;
	}
	struct node *own = copy_node(g, n, dg->own, i);
	if (i < dg->base->nnodes)
		dg->copy_at[i] = (uint32_t)dv->nnodes + 1;
	*VEC_PUSH(dv->nodes, dv->nnodes, dv->capnodes) = (struct derived_node){n, own, dirty};
	return own;
}

/*
 * Base graph bg's copy in g: its own list of nodes, and the node that
 * holds it copied too (so up to the root), pointing at it.
 */
static struct derived_graph *derive_graph(struct gdef *g, struct graph *bg)
{
	struct derive *dv = g->derive;
	if (dv->ngraphs && dv->graphs[dv->last_graph].base == bg)
		return &dv->graphs[dv->last_graph];
	long k = dv->graph_of ? ptrmap_get(dv->graph_of, bg) : -1;
	if (k >= 0) {
		dv->last_graph = (size_t)k;
		return &dv->graphs[k];
	}
	struct graph *own = arena_alloc(&g->arena, sizeof *own);
	*own = *bg;
	own->nodes = arena_alloc(&g->arena, (bg->nnodes ? bg->nnodes : 1) * sizeof *own->nodes);
	if (bg->nnodes)
		memcpy(own->nodes, bg->nodes, bg->nnodes * sizeof *own->nodes);
	own->capnodes = bg->nnodes;
	if (dv->graph_of == NULL)
		dv->graph_of = ptrmap_new(4);
	ptrmap_put(dv->graph_of, bg, dv->ngraphs);
	uint32_t *copy_at = xcalloc(bg->nnodes ? bg->nnodes : 1, sizeof *copy_at);
	*VEC_PUSH(dv->graphs, dv->ngraphs, dv->capgraphs) =
		(struct derived_graph){bg, own, copy_at};
	k = (long)dv->ngraphs - 1;
	dv->last_graph = (size_t)k;
	if (bg->owner == NULL) {
		g->root = own;
		return &dv->graphs[k];
	}
	struct node *o = derive_node(g, bg->owner, false);
	own->owner = o;
	own->parent = o->graph;
	if (o->kind == NK_GRAPH) {
		o->u.child = own;
	} else {
		struct cond_node *c = &o->u.cond;
		if (c->bodies == bg->owner->u.cond.bodies) {
			struct graph **b = arena_alloc(&g->arena,
						       (c->nbodies ? c->nbodies : 1) * sizeof *b);
			if (c->nbodies)
				memcpy(b, c->bodies, c->nbodies * sizeof *b);
			c->bodies = b;
			c->capbodies = c->nbodies;
		}
		for (size_t i = 0; i < c->nbodies; i++)
			if (c->bodies[i] == bg)
				c->bodies[i] = own;
	}
	/* (derive_node may have grown dv->graphs, and found another: by its index) */
	dv->last_graph = (size_t)k;
	return &dv->graphs[k];
}

/* g's own copy of one of the base's arrays, with a dirty flag per element. */
static void *own_array(void **arr, size_t n, size_t elem, bool **dirty)
{
	if (*dirty == NULL) {
		void *copy = xmalloc((n ? n : 1) * elem);
		if (n)
			memcpy(copy, *arr, n * elem);
		*arr = copy;
		*dirty = xcalloc(n ? n : 1, sizeof **dirty);
	}
	return *arr;
}

struct buffer *derive_buffer(struct gdef *g, size_t i)
{
	struct derive *dv = g->derive;
	own_array((void **)&g->buffers, g->nbuffers, sizeof *g->buffers, &dv->buffer_dirty);
	g->capbuffers = g->nbuffers;
	dv->buffer_dirty[i] = true;
	return &g->buffers[i];
}

struct condition *derive_condition(struct gdef *g, size_t i)
{
	struct derive *dv = g->derive;
	own_array((void **)&g->conditions, g->nconditions, sizeof *g->conditions,
		  &dv->condition_dirty);
	g->capconditions = g->nconditions;
	dv->condition_dirty[i] = true;
	return &g->conditions[i];
}

struct check *derive_check(struct gdef *g, size_t i)
{
	struct derive *dv = g->derive;
	own_array((void **)&g->checks, g->nchecks, sizeof *g->checks, &dv->check_dirty);
	g->capchecks = g->nchecks;
	dv->check_dirty[i] = true;
	g->checks[i].region = own_region(g, g->checks[i].region);
	return &g->checks[i];
}

/* Graph own takes base's validated fields, keeping its own list of nodes and place. */
static void refresh_graph(struct graph *own, const struct graph *base)
{
	struct node **nodes = own->nodes;
	struct graph *parent = own->parent;
	struct node *owner = own->owner;
	*own = *base;
	own->nodes = nodes;
	own->capnodes = own->nnodes;
	own->parent = parent;
	own->owner = owner;
}

/* A copy made to reach a dirty node: all of base's, but its graph and the graphs it holds. */
static void refresh_holder(struct node *own, const struct node *base)
{
	struct graph *gr = own->graph;
	struct graph *child = own->kind == NK_GRAPH ? own->u.child : NULL;
	struct graph **bodies = node_kind_is_conditional(own->kind) ? own->u.cond.bodies : NULL;
	size_t cap = node_kind_is_conditional(own->kind) ? own->u.cond.capbodies : 0;
	*own = *base;
	own->graph = gr;
	if (own->kind == NK_GRAPH)
		own->u.child = child;
	else if (node_kind_is_conditional(own->kind)) {
		own->u.cond.bodies = bodies;
		own->u.cond.capbodies = cap;
	}
}

/*
 * A dirty node: its values are its own; what the validator fills in
 * outside them (struct node's "validator:" fields) is the base's.  Those
 * inside them (a memset's count, a copy's bytes, resolved names) the
 * checks of gdef_validate_derived fill in again.
 */
static void refresh_dirty(struct node *own, const struct node *base)
{
	own->deps = base->deps;
	own->ndeps = base->ndeps;
	own->capdeps = base->capdeps;
	own->id_first = base->id_first;
	own->disabled = base->disabled;
	own->where = base->where;
	own->local = base->local;
	own->top = base->top;
	own->seq = base->seq;
	if (own->id == NULL)
		own->id = base->id;
	/* a node without values (alloc and free, dirty for their buffer's size): all the base's */
	if (node_kind_info(own->kind) == NULL || !node_kind_info(own->kind)->own_fields)
		own->u = base->u;
}

void derive_refresh(struct gdef *g)
{
	struct derive *dv = g->derive;
	const struct gdef *b = dv->base;
	if (dv->refreshed)
		return;
	dv->refreshed = true;
	for (size_t i = 0; i < dv->ngraphs; i++)
		refresh_graph(dv->graphs[i].own, dv->graphs[i].base);
	for (size_t i = 0; i < dv->nnodes; i++) {
		const struct derived_node *p = &dv->nodes[i];
		if (p->dirty)
			refresh_dirty(p->own, p->base);
		else
			refresh_holder(p->own, p->base);
	}
	g->module_index = b->module_index;
	g->buffer_index = b->buffer_index;
	g->event_index = b->event_index;
	g->condition_index = b->condition_index;
	g->node_index = b->node_index;
	g->kattrs_of = b->kattrs_of;
	g->nall_nodes = b->nall_nodes;
	/* as the validator lists them: a flat graph's own list, else file order */
	if (!b->root->nodes_own) {
		g->all_nodes = g->root->nodes;
	} else if (dv->nnodes == 0) {
		g->all_nodes = b->all_nodes;
	} else {
		g->all_nodes = arena_alloc(&g->arena, (b->nall_nodes ? b->nall_nodes : 1) *
					   sizeof *g->all_nodes);
		if (b->nall_nodes)
			memcpy(g->all_nodes, b->all_nodes, b->nall_nodes * sizeof *g->all_nodes);
		for (size_t i = 0; i < dv->nnodes; i++)
			g->all_nodes[dv->nodes[i].base->seq] = dv->nodes[i].own;
	}
	for (size_t i = 0; dv->buffer_dirty && i < g->nbuffers; i++)
		if (!dv->buffer_dirty[i])
			g->buffers[i] = b->buffers[i];
	for (size_t i = 0; dv->condition_dirty && i < g->nconditions; i++) {
		if (!dv->condition_dirty[i])
			g->conditions[i] = b->conditions[i];
		else
			g->conditions[i].user = b->conditions[i].user;
	}
	for (size_t i = 0; dv->check_dirty && i < g->nchecks; i++)
		if (!dv->check_dirty[i])
			g->checks[i] = b->checks[i];
}

/* --- the same but in values ------------------------------------------------ */

static bool same_str(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	return a == b || strcmp(a, b) == 0;
}

static bool same_ref(const struct name_ref *a, const struct name_ref *b)
{
	return same_str(a->name, b->name);
}

/* The same region form: both flat, or the same numbers of indices and extents. */
static bool same_region(const struct region *a, const struct region *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	return a->at[0].n == b->at[0].n && a->at[1].n == b->at[1].n &&
	       a->shape.n == b->shape.n;
}

static bool same_args(const struct arg *a, const struct arg *b, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (a[i].kind != b[i].kind)
			return false;
		switch (a[i].kind) {
		case ARG_BUFFER:
		case ARG_HANDLE:
		case ARG_PITCH:
			if (!same_ref(&a[i].ref, &b[i].ref))
				return false;
			break;
		case ARG_SCALAR:
			if (a[i].type != b[i].type)
				return false;
			break;
		case ARG_BYTES:
			if (a[i].nbytes != b[i].nbytes)
				return false;
			break;
		case ARG_STRUCT:
			if (a[i].nfields != b[i].nfields ||
			    !same_args(a[i].fields, b[i].fields, a[i].nfields))
				return false;
			break;
		}
	}
	return true;
}

/* A host call's function and buffers (its arg is a value). */
static bool same_host_fn(const struct host_fn *a, const struct host_fn *b)
{
	if (!same_str(a->path, b->path) || !same_str(a->function, b->function) ||
	    a->nbuffers != b->nbuffers)
		return false;
	for (size_t i = 0; i < a->nbuffers; i++)
		if (!same_ref(&a->buffers[i], &b->buffers[i]))
			return false;
	return true;
}

bool derive_same_node(const struct node *a, const struct node *b)
{
	if (a->kind != b->kind)
		return false;
	switch (a->kind) {
	case NK_KERNEL: {
		const struct kernel_node *x = &a->u.kernel, *y = &b->u.kernel;
		return same_str(x->function, y->function) && same_ref(&x->module, &y->module) &&
		       same_str(x->func, y->func) && x->nargs == y->nargs &&
		       same_args(x->args, y->args, x->nargs) &&
		       x->has_priority == y->has_priority && x->priority == y->priority &&
		       x->device_updatable == y->device_updatable && !x->has_attrs &&
		       !y->has_attrs;
	}
	case NK_MEMSET:
		return same_ref(&a->u.memset.buffer, &b->u.memset.buffer) &&
		       a->u.memset.has_count == b->u.memset.has_count &&
		       same_region(a->u.memset.region, b->u.memset.region);
	case NK_COPY:
		return same_ref(&a->u.copy.from.buffer, &b->u.copy.from.buffer) &&
		       same_ref(&a->u.copy.to.buffer, &b->u.copy.to.buffer) &&
		       a->u.copy.has_count == b->u.copy.has_count &&
		       same_region(a->u.copy.region, b->u.copy.region);
	case NK_HOST:
		return a->u.host.action == b->u.host.action &&
		       same_ref(&a->u.host.buffer, &b->u.host.buffer) &&
		       same_region(a->u.host.region, b->u.host.region) &&
		       (a->u.host.action != HOST_CALL || same_host_fn(a->u.host.fn, b->u.host.fn));
	default:
		return false;
	}
}

bool derive_same_buffer(const struct buffer *a, const struct buffer *b)
{
	return same_str(a->name, b->name) && a->type == b->type && a->memory == b->memory &&
	       a->has_count == b->has_count && a->has_size == b->has_size &&
	       a->init.kind == b->init.kind && same_str(a->init.file, b->init.file) &&
	       same_str(a->init.path, b->init.path) && a->shape.rank == b->shape.rank &&
	       a->shape.has_pitch == b->shape.has_pitch &&
	       a->shape.pitch_auto == b->shape.pitch_auto;
}

bool derive_same_condition(const struct condition *a, const struct condition *b)
{
	return same_str(a->name, b->name) && a->has_default == b->has_default;
}

bool derive_same_check(const struct check *a, const struct check *b)
{
	return same_ref(&a->buffer, &b->buffer) && a->expect == b->expect &&
	       same_str(a->file, b->file) && same_str(a->path, b->path) &&
	       same_region(a->region, b->region);
}

bool derive_same_run(const struct run_defaults *a, const struct run_defaults *b)
{
	/* repeat, warmup and timeout are values: nothing in the validator reads them */
	return a->has_repeat == b->has_repeat && a->has_warmup == b->has_warmup &&
	       a->has_timeout == b->has_timeout && a->has_device == b->has_device &&
	       a->device == b->device && a->has_instantiate == b->has_instantiate &&
	       a->instantiate == b->instantiate && a->expect_fail == b->expect_fail &&
	       same_str(a->skip, b->skip) && a->has_persisting_l2 == b->has_persisting_l2 &&
	       a->persisting_l2 == b->persisting_l2 &&
	       a->has_verify_launches == b->has_verify_launches;
}

/* Stops the walk at the buffer named ctx. */
static bool not_named(void *ctx, const struct buf_use *u)
{
	return !same_str(u->buffer->name, ctx);
}

bool derive_node_names_buffer(const struct node *n, const char *buffer)
{
	return !node_buffer_uses(n, not_named, (void *)buffer);
}
