/*
 * The plan of a stream issue (stream_plan.h): the graph flattened into
 * items (child graphs in place, with an entry and an exit), Kahn's order
 * over them, then each placed on a stream with the waits its vector
 * clock does not cover.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"
#include "stream_plan.h"
#include "xmalloc.h"

const char *const pstep_kind_names[PS_COUNT] = {
	"begin", "node", "empty", "cond", "reset", "end",
};
const char *const pev_names[PEV_COUNT] = {"done", "triggered", "begun-prog", "begun"};

#define NONE UINT32_MAX

/* A dependency of an item, with the edge data it was written with. */
struct idep {
	uint32_t item;
	uint8_t port, type;             /* enum edge_port, enum edge_type */
};

/* A step before it is placed: the flattened graph. */
struct item {
	uint8_t kind;                   /* enum pstep_kind: PS_NODE, PS_EMPTY, PS_COND, PS_RESET */
	uint8_t device;
	const struct node *n;
	struct idep *deps;
	size_t ndeps, capdeps;
	uint32_t left;                  /* dependents not placed yet */
	uint32_t indeg;                 /* Kahn: dependencies not placed yet */
	uint32_t step;                  /* its step once placed */
};

/* What is known done on each stream: the last position there (0: nothing). */
struct clock {
	uint32_t *v;
	size_t n;
};

struct stream_state {
	uint8_t device;
	uint32_t tail;                  /* its last step, or NONE */
	uint32_t pos;                   /* steps on it so far */
};

/* The planner of one plan. */
struct planner {
	const struct gdef *g;
	const struct splan_opts *o;
	struct item *items;
	size_t nitems, capitems;
	struct splan *p;
	size_t capsteps;
	struct stream_state *streams;
	size_t capstreams;
	/* per step: its start clock (freed once nothing needs it) and position */
	struct clock *start;
	uint32_t *pos;
	uint32_t *item_of;              /* per step: its item, or NONE (begin, end) */
	uint8_t device0;                /* the plan's stream 0's device */
};

/* The model ------------------------------------------------------------------ */

static uint32_t add_item(struct planner *pl, uint8_t kind, uint8_t device, const struct node *n)
{
	struct item *it = VEC_PUSH(pl->items, pl->nitems, pl->capitems);
	memset(it, 0, sizeof *it);
	it->kind = kind;
	it->device = device;
	it->n = n;
	it->step = NONE;
	return (uint32_t)(pl->nitems - 1);
}

static void add_dep(struct planner *pl, uint32_t to, uint32_t from, uint8_t port, uint8_t type)
{
	struct item *it = &pl->items[to];
	*VEC_PUSH(it->deps, it->ndeps, it->capdeps) = (struct idep){from, port, type};
}

static uint8_t device_of(const struct planner *pl, const struct node *n)
{
	return (uint8_t)node_device(pl->g, n);
}

/* The edge data of dependency from -> to of gr (both local indices), or the default. */
static void edge_of(const struct graph *gr, size_t from, size_t to, uint8_t *port, uint8_t *type)
{
	*port = PORT_DEFAULT;
	*type = ETYPE_DEFAULT;
	for (size_t i = 0; i < gr->ntyped; i++) {
		const struct typed_edge *t = &gr->typed[i];
		if (t->to_local == (long)to && t->from_local == (long)from) {
			*port = t->port;
			*type = t->type;
			return;
		}
	}
}

/* The item kind node n becomes. */
static uint8_t kind_of(const struct node *n)
{
	if (n->disabled || n->kind == NK_EMPTY)
		return PS_EMPTY;
	return node_kind_is_conditional(n->kind) ? PS_COND : PS_NODE;
}

/*
 * gr's nodes as items in its topological order, those without a
 * dependency after enter (NONE: none); returns the item whose completion
 * is each node's (per local index, malloc'd).
 */
static uint32_t *flatten(struct planner *pl, const struct graph *gr, uint32_t enter)
{
	uint32_t *exit = xcalloc(gr->nnodes ? gr->nnodes : 1, sizeof *exit);
	/* typed edges are few: looked up per dependency only where the graph has any */
	for (size_t t = 0; t < gr->nnodes; t++) {
		const struct node *nd = gr->nodes[gr->topo[t]];
		bool child = nd->kind == NK_GRAPH && !nd->disabled;
		uint32_t it = add_item(pl, child ? PS_EMPTY : kind_of(nd), device_of(pl, nd), nd);
		for (size_t k = 0; k < nd->ndeps; k++) {
			uint8_t port = PORT_DEFAULT, type = ETYPE_DEFAULT;
			if (gr->ntyped)
				edge_of(gr, nd->deps[k], nd->local, &port, &type);
			add_dep(pl, it, exit[nd->deps[k]], port, type);
		}
		if (nd->ndeps == 0 && enter != NONE)
			add_dep(pl, it, enter, PORT_DEFAULT, ETYPE_DEFAULT);
		exit[nd->local] = it;
		if (!child)
			continue;
		/* the child's nodes between its entry (it) and its exit */
		const struct graph *c = nd->u.child;
		uint32_t *cx = flatten(pl, c, it);
		uint32_t x = add_item(pl, PS_EMPTY, device_of(pl, nd), nd);
		bool *used = xcalloc(c->nnodes ? c->nnodes : 1, sizeof *used);
		for (size_t i = 0; i < c->nnodes; i++)
			for (size_t k = 0; k < c->nodes[i]->ndeps; k++)
				used[c->nodes[i]->deps[k]] = true;
		for (size_t i = 0; i < c->nnodes; i++)
			if (!used[i])
				add_dep(pl, x, cx[i], PORT_DEFAULT, ETYPE_DEFAULT);
		if (c->nnodes == 0)
			add_dep(pl, x, it, PORT_DEFAULT, ETYPE_DEFAULT);
		free(used);
		free(cx);
		exit[nd->local] = x;
	}
	return exit;
}

/* Each condition whose handle an argument list passes: bit per device in *devs. */
static void handle_devices(const struct gdef *g, const struct arg *args, size_t n,
			   unsigned long long *devs)
{
	for (size_t i = 0; i < n; i++) {
		if (args[i].kind == ARG_HANDLE && args[i].ref.idx >= 0)
			*devs |= 1ull << g->conditions[args[i].ref.idx].device;
		else if (args[i].kind == ARG_STRUCT)
			handle_devices(g, args[i].fields, args[i].nfields, devs);
	}
}

/*
 * Stream mode: the conditions' words are set to their defaults at the
 * start of each launch.  Device 0's at BEGIN, on the launch's stream
 * before the fork, so that every step knows it done; every other
 * device's in a RESET item of its own, which every kernel that sets one
 * of its conditions, and every conditional node that reads one, comes
 * after.
 */
static void add_resets(struct planner *pl)
{
	const struct gdef *g = pl->g;
	uint32_t reset[GDEF_MAX_FILE_DEVICE + 1];
	unsigned long long any = 0;
	for (size_t c = 0; c < g->nconditions; c++)
		any |= 1ull << g->conditions[c].device;
	pl->p->reset_at_begin = any & 1;
	any &= ~1ull;
	if (any == 0)
		return;
	size_t n = pl->nitems;
	for (unsigned d = 0; d <= GDEF_MAX_FILE_DEVICE; d++)
		reset[d] = any >> d & 1 ? add_item(pl, PS_RESET, (uint8_t)d, NULL) : NONE;
	for (size_t i = 0; i < n; i++) {
		const struct item *it = &pl->items[i];
		unsigned long long devs = 0;
		if (it->kind == PS_NODE && it->n->kind == NK_KERNEL)
			handle_devices(g, it->n->u.kernel.args, it->n->u.kernel.nargs, &devs);
		else if (it->kind == PS_COND && it->n->u.cond.condition.idx >= 0)
			devs |= 1ull << g->conditions[it->n->u.cond.condition.idx].device;
		devs &= any;
		for (unsigned d = 0; d <= GDEF_MAX_FILE_DEVICE; d++)
			if (devs >> d & 1)
				add_dep(pl, (uint32_t)i, reset[d], PORT_DEFAULT, ETYPE_DEFAULT);
	}
}

/* Kahn's order -------------------------------------------------------------- */

/* A min-heap of keys: the item's index, RESET first, conditional nodes after all others. */
struct heap {
	uint64_t *v;
	size_t n, cap;
};

static uint64_t key_of(const struct planner *pl, uint32_t i)
{
	uint8_t k = pl->items[i].kind;
	return (uint64_t)(k == PS_RESET ? 0 : k == PS_COND ? 2 : 1) << 32 | i;
}

static void heap_push(struct heap *h, uint64_t k)
{
	size_t i = h->n;
	*VEC_PUSH(h->v, h->n, h->cap) = k;
	while (i > 0 && h->v[(i - 1) / 2] > h->v[i]) {
		uint64_t t = h->v[i];
		h->v[i] = h->v[(i - 1) / 2];
		h->v[(i - 1) / 2] = t;
		i = (i - 1) / 2;
	}
}

static uint64_t heap_pop(struct heap *h)
{
	uint64_t top = h->v[0];
	h->v[0] = h->v[--h->n];
	for (size_t i = 0;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < h->n && h->v[l] < h->v[m])
			m = l;
		if (r < h->n && h->v[r] < h->v[m])
			m = r;
		if (m == i)
			break;
		uint64_t t = h->v[i];
		h->v[i] = h->v[m];
		h->v[m] = t;
		i = m;
	}
	return top;
}

/* The items in the order they are issued (malloc'd, nitems of them). */
static uint32_t *kahn(struct planner *pl)
{
	size_t n = pl->nitems;
	size_t *off = xcalloc(n + 1, sizeof *off);
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < pl->items[i].ndeps; k++)
			off[pl->items[i].deps[k].item + 1]++;
	for (size_t i = 0; i < n; i++)
		off[i + 1] += off[i];
	uint32_t *succ = xcalloc(off[n] ? off[n] : 1, sizeof *succ);
	size_t *at = xcalloc(n + 1, sizeof *at);
	memcpy(at, off, (n + 1) * sizeof *at);
	for (size_t i = 0; i < n; i++) {
		struct item *it = &pl->items[i];
		it->indeg = it->ndeps;
		for (size_t k = 0; k < it->ndeps; k++) {
			pl->items[it->deps[k].item].left++;
			succ[at[it->deps[k].item]++] = (uint32_t)i;
		}
	}
	struct heap h = {0};
	for (size_t i = 0; i < n; i++)
		if (pl->items[i].indeg == 0)
			heap_push(&h, key_of(pl, (uint32_t)i));
	uint32_t *order = xcalloc(n ? n : 1, sizeof *order);
	size_t done = 0;
	while (h.n) {
		uint32_t i = (uint32_t)heap_pop(&h);
		order[done++] = i;
		for (size_t s = off[i]; s < off[i + 1]; s++)
			if (--pl->items[succ[s]].indeg == 0)
				heap_push(&h, key_of(pl, succ[s]));
	}
	free(h.v);
	free(at);
	free(succ);
	free(off);
	return order;
}

/* Clocks ----------------------------------------------------------------- */

static uint32_t clock_at(const struct clock *c, size_t s)
{
	return s < c->n ? c->v[s] : 0;
}

static void clock_raise(struct clock *c, size_t s, uint32_t v)
{
	if (s >= c->n) {
		c->v = xreallocarray(c->v, s + 1, sizeof *c->v);
		memset(c->v + c->n, 0, (s + 1 - c->n) * sizeof *c->v);
		c->n = s + 1;
	}
	if (c->v[s] < v)
		c->v[s] = v;
}

static void clock_merge(struct clock *into, const struct clock *from)
{
	for (size_t s = 0; s < from->n; s++)
		if (from->v[s])
			clock_raise(into, s, from->v[s]);
}

/* What is known done once step i is: what it knew at its start, and its stream up to it. */
static void merge_done(const struct planner *pl, struct clock *into, uint32_t i)
{
	clock_merge(into, &pl->start[i]);
	clock_raise(into, pl->p->steps[i].stream, pl->pos[i]);
}

/* Step i's clock is needed no more: no dependent left to place, not a stream's last. */
static void release(struct planner *pl, uint32_t i)
{
	uint32_t it = pl->item_of[i];
	if (it != NONE && pl->items[it].left > 0)
		return;
	if (pl->streams[pl->p->steps[i].stream].tail == i)
		return;
	free(pl->start[i].v);
	pl->start[i].v = NULL;
	pl->start[i].n = 0;
}

/* Placing ------------------------------------------------------------------ */

/* What of the step before a dependency with this edge data waits for. */
static uint8_t ev_of(uint8_t port, uint8_t type)
{
	if (port == PORT_PROGRAMMATIC)
		return PEV_TRIGGERED;
	if (port == PORT_LAUNCH_ORDER)
		return type == ETYPE_PROGRAMMATIC ? PEV_BEGUN_PROG : PEV_BEGUN;
	return PEV_DONE;
}

/* Does step st launch a kernel (the only steps that give or take programmatic events)? */
static bool launches_kernel(const struct pstep *st)
{
	return st->kind == PS_NODE && st->n->kind == NK_KERNEL;
}

/*
 * What x waits for of dependency d (placed): a programmatic event only
 * between two kernel launches (a disabled kernel launches nothing, and
 * a programmatic wait is for a kernel to make), else its completion.
 */
static uint8_t ev_for(const struct planner *pl, const struct item *x, const struct idep *d)
{
	uint8_t ev = ev_of(d->port, d->type);
	const struct pstep *ds = &pl->p->steps[pl->items[d->item].step];
	bool kx = x->kind == PS_NODE && x->n->kind == NK_KERNEL;
	if (!launches_kernel(ds) || (ev != PEV_DONE && ev != PEV_BEGUN && !kx))
		return PEV_DONE;
	return ev;
}

static bool programmatic(const struct idep *d)
{
	return d->port == PORT_PROGRAMMATIC && d->type == ETYPE_PROGRAMMATIC;
}

static uint32_t new_stream(struct planner *pl, uint8_t device)
{
	struct stream_state *s = VEC_PUSH(pl->streams, pl->p->nstreams, pl->capstreams);
	*s = (struct stream_state){device, NONE, 0};
	return (uint32_t)(pl->p->nstreams - 1);
}

static struct pstep *new_step(struct planner *pl, uint8_t kind, uint8_t device,
			      const struct node *n, uint32_t item)
{
	size_t cap = pl->capsteps;
	struct pstep *st = VEC_PUSH(pl->p->steps, pl->p->nsteps, pl->capsteps);
	if (pl->capsteps != cap) {
		pl->start = xreallocarray(pl->start, pl->capsteps, sizeof *pl->start);
		pl->pos = xreallocarray(pl->pos, pl->capsteps, sizeof *pl->pos);
		pl->item_of = xreallocarray(pl->item_of, pl->capsteps, sizeof *pl->item_of);
	}
	memset(st, 0, sizeof *st);
	st->kind = kind;
	st->device = device;
	st->n = n;
	size_t i = pl->p->nsteps - 1;
	pl->start[i] = (struct clock){0};
	pl->pos[i] = 0;
	pl->item_of[i] = item;
	return st;
}

/* The step goes last on stream s, knowing clock c at its start (taken over). */
static void put(struct planner *pl, uint32_t i, uint32_t s, struct clock *c)
{
	struct stream_state *ss = &pl->streams[s];
	uint32_t before = ss->tail;
	pl->p->steps[i].stream = s;
	pl->pos[i] = ++ss->pos;
	ss->tail = i;
	pl->start[i] = *c;
	if (before != NONE)
		release(pl, before);
}

static void add_wait(struct planner *pl, struct pstep *st, uint32_t on, uint8_t ev)
{
	st->waits = xreallocarray(st->waits, st->nwaits + 1, sizeof *st->waits);
	st->waits[st->nwaits++] = (struct pwait){on, ev};
	pl->p->steps[on].gives |= (uint8_t)(1u << ev);
}

/*
 * The stream item x goes on, and the dependency it continues there (NULL:
 * none).  *known: what x knows once every dependency it has is met.
 */
static uint32_t choose(struct planner *pl, const struct item *x, const struct clock *known,
		       const struct idep **cont)
{
	*cont = NULL;
	/* a programmatic edge's kernel first: the dependent may start before it ends */
	for (int pass = 0; pass < 2 && *cont == NULL; pass++)
		for (size_t k = 0; k < x->ndeps; k++) {
			const struct idep *d = &x->deps[k];
			uint32_t ds = pl->items[d->item].step;
			const struct pstep *dst = &pl->p->steps[ds];
			if ((pass == 0) != programmatic(d) || d->port == PORT_LAUNCH_ORDER ||
			    dst->device != x->device || pl->streams[dst->stream].tail != ds)
				continue;
			*cont = d;
			return dst->stream;
		}
	/* a stream whose last step x knows is done; else a new one; else the oldest */
	uint32_t oldest = NONE, count = 0;
	unsigned max = pl->o->max_streams ? pl->o->max_streams : SPLAN_MAX_STREAMS;
	for (uint32_t s = 0; s < pl->p->nstreams; s++) {
		const struct stream_state *ss = &pl->streams[s];
		if (ss->device != x->device)
			continue;
		count++;
		if (clock_at(known, s) >= ss->pos)
			return s;
		if (oldest == NONE || ss->tail < pl->streams[oldest].tail)
			oldest = s;
	}
	return count < max ? new_stream(pl, x->device) : oldest;
}

/* Dependencies by their steps, the latest first: its clock covers most of the others. */
static int by_step_desc(const void *a, const void *b)
{
	uint32_t x = ((const struct pwait *)a)->step, y = ((const struct pwait *)b)->step;
	return (x < y) - (x > y);
}

static void place(struct planner *pl, uint32_t xi)
{
	struct item *x = &pl->items[xi];
	/* what x knows once all is met: BEGIN, and each dependency as it waits for it */
	struct clock known = {0};
	clock_raise(&known, 0, 1);
	for (size_t k = 0; k < x->ndeps; k++) {
		uint32_t ds = pl->items[x->deps[k].item].step;
		if (ev_for(pl, x, &x->deps[k]) == PEV_DONE)
			merge_done(pl, &known, ds);
		else
			clock_merge(&known, &pl->start[ds]);
	}
	const struct idep *cont;
	uint32_t s = choose(pl, x, &known, &cont);
	free(known.v);
	uint32_t i = (uint32_t)pl->p->nsteps;
	struct pstep *st = new_step(pl, x->kind, x->device, x->n, xi);
	x->step = i;
	/*
	 * Its start: what the stream's last step knew, and that step done;
	 * after a programmatic edge on this stream, only what it knew, and
	 * only if that covers every other dependency on the stream.
	 */
	struct clock c = {0};
	uint32_t tail = pl->streams[s].tail;
	bool serial = cont && programmatic(cont) && ev_for(pl, x, cont) == PEV_TRIGGERED;
	if (tail != NONE) {
		clock_merge(&c, &pl->start[tail]);
		for (uint32_t k = 0; serial && k < x->ndeps; k++) {
			uint32_t ds = pl->items[x->deps[k].item].step;
			if (ds != tail && pl->p->steps[ds].stream == s && clock_at(&c, s) < pl->pos[ds])
				serial = false;
		}
		if (!serial)
			clock_raise(&c, s, pl->pos[tail]);
	}
	st->serial = serial;
	struct pwait *deps = xcalloc(x->ndeps ? x->ndeps : 1, sizeof *deps);
	for (size_t k = 0; k < x->ndeps; k++)
		deps[k] = (struct pwait){pl->items[x->deps[k].item].step, ev_for(pl, x, &x->deps[k])};
	qsort(deps, x->ndeps, sizeof *deps, by_step_desc);
	for (size_t k = 0; k < x->ndeps; k++) {
		uint32_t ds = deps[k].step;
		uint8_t ev = deps[k].ev;
		if (serial && ds == tail)
			continue;
		if (clock_at(&c, pl->p->steps[ds].stream) >= pl->pos[ds])
			continue;
		/* on its own stream, only a step before the one it follows: done by then */
		if (pl->p->steps[ds].stream == s)
			continue;
		st = &pl->p->steps[i];
		add_wait(pl, st, ds, ev);
		if (ev == PEV_DONE)
			merge_done(pl, &c, ds);
		else
			clock_merge(&c, &pl->start[ds]);
	}
	free(deps);
	/* another stream waits for its launch to start, unless it knows that already */
	if (s != 0 && clock_at(&c, 0) < 1) {
		add_wait(pl, &pl->p->steps[i], 0, PEV_DONE);
		merge_done(pl, &c, 0);
	}
	put(pl, i, s, &c);
	for (size_t k = 0; k < x->ndeps; k++) {
		struct item *d = &pl->items[x->deps[k].item];
		d->left--;
		release(pl, d->step);
	}
}

/* BEGIN, first on stream 0. */
static void place_begin(struct planner *pl)
{
	new_stream(pl, pl->device0);
	new_step(pl, PS_BEGIN, pl->device0, NULL, NONE);
	struct clock c = {0};
	put(pl, 0, 0, &c);
}

/* END, last on stream 0: every other stream's last step done. */
static void place_end(struct planner *pl)
{
	uint32_t i = (uint32_t)pl->p->nsteps;
	new_step(pl, PS_END, pl->device0, NULL, NONE);
	struct clock c = {0};
	merge_done(pl, &c, pl->streams[0].tail);
	/* the latest last steps first: each may cover others */
	for (;;) {
		uint32_t best = NONE;
		for (uint32_t s = 1; s < pl->p->nstreams; s++) {
			const struct stream_state *ss = &pl->streams[s];
			if (ss->tail == NONE || clock_at(&c, s) >= ss->pos)
				continue;
			if (best == NONE || ss->tail > pl->streams[best].tail)
				best = s;
		}
		if (best == NONE)
			break;
		uint32_t t = pl->streams[best].tail;
		add_wait(pl, &pl->p->steps[i], t, PEV_DONE);
		merge_done(pl, &c, t);
	}
	put(pl, i, 0, &c);
}

struct splan *splan_make(const struct gdef *g, const struct graph *gr, const struct splan_opts *o)
{
	struct planner pl = {.g = g, .o = o};
	pl.p = xcalloc(1, sizeof *pl.p);
	pl.device0 = gr->owner ? (uint8_t)node_device(g, gr->owner) : 0;
	free(flatten(&pl, gr, NONE));
	if (o->words && gr->parent == NULL)
		add_resets(&pl);
	uint32_t *order = kahn(&pl);
	place_begin(&pl);
	for (size_t k = 0; k < pl.nitems; k++)
		place(&pl, order[k]);
	place_end(&pl);
	/* each conditional node's bodies, a plan each (no RESET: the root's did it) */
	struct splan_opts bo = *o;
	bo.words = false;
	for (size_t i = 0; i < pl.p->nsteps; i++) {
		struct pstep *st = &pl.p->steps[i];
		if (st->kind != PS_COND)
			continue;
		st->nbodies = st->n->u.cond.nbodies;
		st->bodies = xcalloc(st->nbodies ? st->nbodies : 1, sizeof *st->bodies);
		for (size_t b = 0; b < st->nbodies; b++)
			st->bodies[b] = splan_make(g, st->n->u.cond.bodies[b], &bo);
	}
	pl.p->stream_device = xcalloc(pl.p->nstreams ? pl.p->nstreams : 1, 1);
	for (size_t s = 0; s < pl.p->nstreams; s++)
		pl.p->stream_device[s] = pl.streams[s].device;
	for (size_t i = 0; i < pl.p->nsteps; i++)
		free(pl.start[i].v);
	for (size_t i = 0; i < pl.nitems; i++)
		free(pl.items[i].deps);
	free(order);
	free(pl.items);
	free(pl.streams);
	free(pl.start);
	free(pl.pos);
	free(pl.item_of);
	return pl.p;
}

void splan_free(struct splan *p)
{
	if (p == NULL)
		return;
	for (size_t i = 0; i < p->nsteps; i++) {
		struct pstep *st = &p->steps[i];
		for (size_t b = 0; b < st->nbodies; b++)
			splan_free(st->bodies[b]);
		free(st->bodies);
		free(st->waits);
	}
	free(p->steps);
	free(p->stream_device);
	free(p);
}

/* The plan in words ---------------------------------------------------------- */

static void dump(const struct splan *p, int depth, struct strbuf *sb)
{
	for (size_t i = 0; i < p->nsteps; i++) {
		const struct pstep *st = &p->steps[i];
		strbuf_printf(sb, "%*s%zu %s", 2 * depth, "", i, pstep_kind_names[st->kind]);
		if (st->n)
			strbuf_printf(sb, " %s", st->n->id);
		if (st->kind == PS_RESET || st->device)
			strbuf_printf(sb, " d%u", st->device);
		strbuf_printf(sb, " s%u", st->stream);
		if (st->kind == PS_BEGIN && p->reset_at_begin)
			strbuf_printf(sb, " reset");
		for (uint32_t w = 0; w < st->nwaits; w++)
			strbuf_printf(sb, "%s%u:%s", w ? "," : " wait ", st->waits[w].step,
			    pev_names[st->waits[w].ev]);
		if (st->serial)
			strbuf_printf(sb, " serial");
		for (unsigned e = 0, first = 1; e < PEV_COUNT; e++)
			if (st->gives >> e & 1) {
				strbuf_printf(sb, "%s%s", first ? " gives " : "+", pev_names[e]);
				first = 0;
			}
		strbuf_printf(sb, "\n");
		for (size_t b = 0; b < st->nbodies; b++) {
			strbuf_printf(sb, "%*sbody %zu:\n", 2 * depth + 2, "", b);
			dump(st->bodies[b], depth + 2, sb);
		}
	}
}

char *splan_dump(const struct splan *p)
{
	struct strbuf sb = {0};
	strbuf_printf(&sb, "%s", "");
	dump(p, 0, &sb);
	return sb.buf;
}
