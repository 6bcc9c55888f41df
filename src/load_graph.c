/*
 * Graphs, edges, nodes and generators (load_graph.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load_axes.h"
#include "load_graph.h"
#include "load_kernel.h"
#include "load_lib.h"
#include "load_nodes.h"
#include "model_kinds.h"
#include "strmap.h"
#include "xmalloc.h"

static void parse_node(struct ld *l, struct graph *gr);
static void parse_generator(struct ld *l, struct graph *gr);

static void parse_node_list(struct ld *l, struct graph *gr, const char *name)
{
	ld_next(l);
	while (!l->es.fatal && l->es.ev.type != EV_SEQ_END) {
		if (l->es.ev.type != EV_MAP) {
			l->g->lost.nodes = true;
			ld_expected(l, "a node (a mapping with a kind such as 'kernel: {...}')", name);
		} else if (ev_next_is(&l->es, "for")) {
			parse_generator(l, gr);
		} else {
			parse_node(l, gr);
		}
	}
	ld_next(l);
}

/* Columns of n bytes of UTF-8. */
static uint32_t chars(const char *s, size_t n)
{
	uint32_t c = 0;
	for (size_t i = 0; i < n; i++)
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			c++;
	return c;
}

static void add_edge(struct graph *gr, struct name_ref *from, struct name_ref *to,
		     struct pos pos)
{
	struct edge *e = VEC_PUSH(gr->edges, gr->nedges, gr->capedges);
	e->from = *from;
	e->to = *to;
	e->pos = pos;
}

static const char edge_what[] = "an edge (\"a -> b\", \"a -> b -> c\", [a, b] or {from: a, to: b})";

/*
 * One name of an arrow edge: s[a, b) trimmed, or false when empty.  Its
 * column is counted from base when exact, else it is the edge's.
 */
static bool arrow_name(struct ld *l, const char *s, size_t a, size_t b, struct pos base,
		       bool exact, struct name_ref *r)
{
	while (a < b && (s[a] == ' ' || s[a] == '\t'))
		a++;
	while (b > a && (s[b - 1] == ' ' || s[b - 1] == '\t'))
		b--;
	if (a == b)
		return false;
	r->name = gdef_strndup(l->g, s + a, b - a);
	r->pos = exact ? (struct pos){base.line, base.col + chars(s, a)} : base;
	r->idx = -1;
	return true;
}

/* "a -> b -> c": one edge per arrow, each name with its own column. */
static void parse_arrows(struct ld *l, struct graph *gr, const char *name)
{
	const char *s = l->es.ev.value;
	size_t len = l->es.ev.len;
	struct pos base = l->es.ev.pos;
	struct name_ref *refs = NULL;
	size_t n = 0, cap = 0;
	bool ok = true;
	/* Columns inside the text are the file's only if it is written as it reads: one line, no escapes. */
	bool exact = l->es.ev.end.line == base.line &&
		l->es.ev.end.col - base.col == chars(s, len) + (l->es.ev.quoted ? 2 : 0);
	if (exact && l->es.ev.quoted)
		base.col++;
	for (size_t a = 0;;) {
		const char *arrow = strstr(s + a, "->");
		size_t b = arrow ? (size_t)(arrow - s) : len;
		struct name_ref r;
		if (!arrow_name(l, s, a, b, base, exact, &r)) {
			ok = false;
			break;
		}
		*VEC_PUSH(refs, n, cap) = r;
		if (!arrow)
			break;
		a = b + 2;
	}
	if (!ok || n < 2) {
		free(refs);
		ld_expected(l, edge_what, name);
		return;
	}
	/* Names between two arrows belong to two edges, sharing the arena's string. */
	for (size_t i = 0; i + 1 < n; i++)
		add_edge(gr, &refs[i], &refs[i + 1], refs[i].pos);
	free(refs);
	ld_next(l);
}

/* [a, b] */
static void parse_pair(struct ld *l, struct graph *gr, const char *name)
{
	struct pos pos = l->es.ev.pos;
	struct name_ref ends[2] = {{.idx = -1}, {.idx = -1}};
	size_t n = 0;
	bool ok = true;
	ld_next(l);
	while (!l->es.fatal && l->es.ev.type != EV_SEQ_END) {
		struct name_ref r = {0};
		if (!get_ref(l, "a node id", name, &r)) {
			ok = false;
			continue;
		}
		if (n < 2)
			ends[n] = r;
		n++;
	}
	ld_next(l);
	if (ok && n != 2)
		ld_error(l, pos, "an edge list names two nodes [from, to], found %zu", n);
	if (ok && n == 2) {
		add_edge(gr, &ends[0], &ends[1], pos);
	}
}

/*
 * A dependency with edge data, as an after entry {node, port, type} or an
 * edges entry {from, to, port, type} writes it.
 */
struct edge_entry {
	struct name_ref from, to;
	uint8_t port, type;
	struct pos port_pos, type_pos;
};

#define T struct edge_entry
#define ENTRY_PORT ROW_CHOICE("port", T, port, edge_port_names, PORT_COUNT, \
	"an edge port (default, programmatic or launch_order)", "edge port", POS(T, port_pos))
#define ENTRY_TYPE ROW_CHOICE("type", T, type, edge_type_names, ETYPE_COUNT, \
	"an edge type (default or programmatic)", "edge type", POS(T, type_pos))
static const struct keydef after_entry_keys[] = {
	ROW_REF("node", T, from, "a node id"),
	ENTRY_PORT,
	ENTRY_TYPE,
};
static const struct keytab after_entry_tab = KEYTAB(after_entry_keys);

static const struct keydef edge_entry_keys[] = {
	ROW_REF("from", T, from, "a node id"),
	ROW_REF("to", T, to, "a node id"),
	ENTRY_PORT,
	ENTRY_TYPE,
};
#undef ENTRY_TYPE
#undef ENTRY_PORT
#undef T
static const struct keytab edge_entry_tab = KEYTAB(edge_entry_keys);

/* An entry that wrote a port or a type is listed with its graph's typed edges. */
static void add_typed(struct graph *gr, const struct edge_entry *e, struct node *to,
		      size_t index, struct pos pos)
{
	if (e->port_pos.line == 0 && e->type_pos.line == 0)
		return;
	struct typed_edge *t = VEC_PUSH(gr->typed, gr->ntyped, gr->captyped);
	t->to = to;
	t->index = (uint32_t)index;
	t->port = e->port;
	t->type = e->type;
	t->pos = pos;
	t->port_pos = e->port_pos;
	t->type_pos = e->type_pos;
	t->from_local = t->to_local = -1;
}

/* {from: a, to: b, port: programmatic, type: programmatic} */
static void parse_edge_map(struct ld *l, struct graph *gr)
{
	struct edge_entry e = {.from.idx = -1, .to.idx = -1};
	struct pos pos = l->es.ev.pos;
	struct seen s;
	size_t errors = l->es.nerrs;
	parse_keys(l, &edge_entry_tab, &e, "in an edge", &s);
	require_keys(l, &edge_entry_tab, &s, 3, "in an edge");
	if (e.from.name == NULL || e.to.name == NULL)
		return;
	add_edge(gr, &e.from, &e.to, pos);
	/* with an error inside, its port and type are not what was meant: a plain edge */
	if (l->es.nerrs == errors)
		add_typed(gr, &e, NULL, gr->nedges - 1, pos);
}

void parse_edges(struct ld *l, struct graph *gr, const char *name)
{
	if (ld_is_null(l)) {
		ld_next(l);
		return;
	}
	if (!want_seq(l, "a list of edges", name))
		return;
	ld_next(l);
	while (!l->es.fatal && l->es.ev.type != EV_SEQ_END) {
		if (ld_is_scalar(l) && !ld_is_null(l))
			parse_arrows(l, gr, name);
		else if (l->es.ev.type == EV_SEQ)
			parse_pair(l, gr, name);
		else if (l->es.ev.type == EV_MAP)
			parse_edge_map(l, gr);
		else
			ld_expected(l, edge_what, name);
	}
	ld_next(l);
}

static void key_graph_nodes(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	if (want_seq(l, "a list of nodes", kd->name))
		parse_node_list(l, obj, kd->name);
}

static void key_graph_edges(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	parse_edges(l, obj, kd->name);
}

static const struct keydef graph_keys[] = {
	KEY("nodes", key_graph_nodes),
	KEY("edges", key_graph_edges),
	ROW("chain", FIELD_BOOL, struct graph, chain),
};
static const struct keytab graph_tab = KEYTAB(graph_keys);

/* A graph: a list of nodes, or {nodes, edges, chain}. */
void parse_graph(struct ld *l, struct graph *gr, const char *name)
{
	gr->pos = l->es.ev.pos;
	unsigned depth = 0;
	for (const struct graph *p = gr->parent; p; p = p->parent)
		depth++;
	if (depth > LOAD_MAX_GRAPH_DEPTH) {
		/* said at the first graph too deep, not again for each inside it */
		if (depth == LOAD_MAX_GRAPH_DEPTH + 1)
			ld_error(l, gr->pos, "graph nested %u deep: child graphs and conditional bodies "
				 "nest at most %d deep (the root graph's nodes hold graphs of depth 1)",
				 depth, LOAD_MAX_GRAPH_DEPTH);
		l->g->lost.nodes = true;
		ld_skip(l);
		return;
	}
	if (l->es.ev.type == EV_SEQ) {
		parse_node_list(l, gr, name);
	} else if (l->es.ev.type == EV_MAP) {
		char ctx[96];
		struct seen s;
		snprintf(ctx, sizeof ctx, "in graph '%.60s'", name);
		parse_keys(l, &graph_tab, gr, ctx, &s);
	} else {
		l->g->lost.nodes = true;
		ld_expected(l, "a graph (a list of nodes, or a mapping {nodes, edges, chain})", name);
	}
}

/*
 * A graph held by node n (a child graph, a body): the nodes are no longer
 * all in the root graph, so from now on they are listed in l->nodes, the
 * root's so far first.
 */
static struct graph *inner_graph(struct ld *l, struct node *n)
{
	if (!l->nested) {
		const struct graph *root = l->g->root;
		l->nested = true;
		for (size_t i = 0; i < root->nnodes; i++)
			*ARENA_PUSH(&l->scratch, l->nodes, l->nnodes, l->capnodes) = root->nodes[i];
	}
	return graph_new(n->graph, n);
}

static void parse_child(struct ld *l, struct node *n)
{
	n->u.child = inner_graph(l, n);
	parse_graph(l, n->u.child, "graph");
}

/* --- conditional nodes --- */

/* A body of a conditional node: bodies[i], kd->arg being i. */
static void key_cond_body(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct node *n = obj;
	struct graph *gr = inner_graph(l, n);
	gr->body_index = (unsigned)kd->arg;
	n->u.cond.bodies[kd->arg] = gr;
	parse_graph(l, gr, kd->name);
}

static void key_cond_cases(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct cond_node *c = &((struct node *)obj)->u.cond;
	if (!want_seq(l, "a list of graphs (one per case)", kd->name))
		return;
	ld_next(l);
	while (!l->es.fatal && l->es.ev.type != EV_SEQ_END) {
		struct graph *gr = inner_graph(l, obj);
		gr->body_index = (unsigned)c->nbodies;
		*VEC_PUSH(c->bodies, c->nbodies, c->capbodies) = gr;
		parse_graph(l, gr, kd->name);
	}
	ld_next(l);
}

#define COND_CONDITION ROW_REF("condition", struct node, u.cond.condition, "a condition name")
static const struct keydef if_keys[] = {
	COND_CONDITION,
	KEY("then", key_cond_body),
	KEY_ARG("else", key_cond_body, 1),
};
static const struct keytab if_tab = KEYTAB(if_keys);

static const struct keydef while_keys[] = {
	COND_CONDITION,
	KEY("body", key_cond_body),
};
static const struct keytab while_tab = KEYTAB(while_keys);

static const struct keydef switch_keys[] = {
	COND_CONDITION,
	KEY("cases", key_cond_cases),
};
#undef COND_CONDITION
static const struct keytab switch_tab = KEYTAB(switch_keys);

static void parse_cond(struct ld *l, struct node *n)
{
	static const struct keytab *const tabs[] = {&if_tab, &while_tab, &switch_tab};
	static const char *const ctxs[] = {"in 'if'", "in 'while'", "in 'switch'"};
	static const char *const whats[] = {
		"a mapping {condition, then, else}",
		"a mapping {condition, body}",
		"a mapping {condition, cases}",
	};
	struct cond_node *c = &n->u.cond;
	int k = n->kind == NK_IF ? 0 : n->kind == NK_WHILE ? 1 : 2;
	if (n->kind != NK_SWITCH) {
		c->capbodies = n->kind == NK_IF ? 2 : 1;
		c->bodies = xcalloc(c->capbodies, sizeof *c->bodies);
		n->graph->nodes_own = true;
	}
	if (want_map(l, whats[k], node_kind_names[n->kind])) {
		struct seen s;
		parse_keys(l, tabs[k], n, ctxs[k], &s);
		require_keys(l, tabs[k], &s, 3, ctxs[k]);
	}
	if (n->kind == NK_SWITCH)
		return;
	c->nbodies = c->capbodies == 2 && c->bodies[1] ? 2 : 1;
	/* Keep the model whole even when then/body was missing. */
	if (c->bodies[0] == NULL) {
		c->bodies[0] = inner_graph(l, n);
		c->bodies[0]->pos = n->kind_pos;
	}
}

/* --- nodes --- */

typedef void kind_fn(struct ld *l, struct node *n);

static kind_fn *const kind_parsers[NK_COUNT] = {
	[NK_KERNEL] = parse_kernel,
	[NK_MEMSET] = parse_memset,
	[NK_COPY] = parse_copy,
	[NK_EMPTY] = parse_empty,
	[NK_GRAPH] = parse_child,
	[NK_ALLOC] = parse_alloc,
	[NK_FREE] = parse_alloc,
	[NK_EVENT_RECORD] = parse_event_node,
	[NK_EVENT_WAIT] = parse_event_node,
	[NK_HOST] = parse_host,
	[NK_IF] = parse_cond,
	[NK_WHILE] = parse_cond,
	[NK_SWITCH] = parse_cond,
	[NK_MEMOP] = parse_memop,
	[NK_CUBLAS] = parse_cublas,
	[NK_CUFFT] = parse_cufft,
};

/* "kernel_12": the kind's name, '_', n. */
static char *auto_id(struct gdef *g, enum node_kind k, size_t n)
{
	char id[64], *p = id + sizeof id;
	do {
		*--p = (char)('0' + n % 10);
		n /= 10;
	} while (n);
	*--p = '_';
	size_t kl = strlen(node_kind_names[k]);
	p -= kl;
	memcpy(p, node_kind_names[k], kl);
	return gdef_strndup(g, p, (size_t)(id + sizeof id - p));
}

/* Could an id written in the file be an automatic one ("copy_3")? */
static bool looks_automatic(const char *id)
{
	const char *us = strrchr(id, '_');
	if (us == NULL || us[1] < '1' || us[1] > '9')
		return false;
	for (const char *c = us + 1; *c; c++)
		if (*c < '0' || *c > '9')
			return false;
	for (int k = 0; k < NK_COUNT; k++)
		if (strlen(node_kind_names[k]) == (size_t)(us - id) &&
		    memcmp(node_kind_names[k], id, (size_t)(us - id)) == 0)
			return true;
	return false;
}

/*
 * The automatic id, handed out while the node is read, in file order and
 * while it is in the cache: a second pass over 100,000 nodes costs more.
 * assign_ids redoes them all when an id written in the file could clash.
 */
static void node_auto_id(struct ld *l, struct node *n)
{
	n->id = auto_id(l->g, n->kind, ++l->auto_counts[n->kind]);
	n->id_pos = n->pos;
}

static void key_node_kind(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct node *n = obj;
	if (n->kind != NK_COUNT) {
		ld_error(l, kpos, "a node has one kind, found '%.60s' (at %u:%u) and '%.60s'",
			 node_kind_names[n->kind], n->kind_pos.line, n->kind_pos.col, kd->name);
		ld_skip(l);
		return;
	}
	node_init_kind(n, (enum node_kind)kd->arg);
	n->kind_pos = kpos;
	/*
	 * The automatic id of a node that holds a graph, handed out here, in
	 * file order: before the nodes of its bodies.  Other nodes get theirs
	 * at their end (node_auto_id), the same number, once an id written
	 * after the kind has been read: then they take none.
	 */
	static const bool holds_graph[NK_COUNT] = {
		[NK_GRAPH] = true, [NK_IF] = true, [NK_WHILE] = true, [NK_SWITCH] = true,
	};
	if (n->id == NULL && holds_graph[n->kind])
		node_auto_id(l, n);
	/* what a later point may read again alone (POINTS): the kinds that hold values only */
	static const bool values_only[NK_COUNT] = {
		[NK_KERNEL] = true, [NK_MEMSET] = true, [NK_COPY] = true, [NK_HOST] = true,
	};
	long o = values_only[n->kind] ? ld_obj_open(l, CTX_NODE, n, 0, NULL, kpos) : -1;
	kind_parsers[n->kind](l, n);
	ld_obj_close(l, o);
}

static void key_node_id(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct node *n = obj;
	/* An id after the kind of a node that holds a graph: its automatic one took a number. */
	if (n->id != NULL)
		l->renumber = true;
	if (get_text(l, "a node id", kd->name, &n->id, &n->id_pos)) {
		n->id_given = true;
		if (looks_automatic(n->id))
			l->renumber = true;
	} else {
		n->id = NULL;
		l->g->lost.nodes = true;
	}
}

/*
 * One name of an after list.  Most name the node written just before
 * (a chain with ids): that one's id string is shared, not copied, and the
 * validator, seeing the same pointer, finds the node without a lookup.
 */
static bool get_after(struct ld *l, const struct node *n, const char *what,
		      const char *name, struct name_ref *r)
{
	const struct graph *gr = n->graph;
	const struct node *prev = gr->nnodes >= 2 ? gr->nodes[gr->nnodes - 2] : NULL;
	size_t len = l->es.ev.len;
	if (prev && prev->id && ld_is_scalar(l) && !ld_is_null(l) && strlen(prev->id) == len &&
	    memcmp(prev->id, l->es.ev.value, len) == 0) {
		r->name = prev->id;
		r->pos = l->es.ev.pos;
		r->idx = -1;
		ld_next(l);
		return true;
	}
	return get_ref(l, what, name, r);
}

/*
 * One entry of n's after list at *r, index i of it: a node id, or
 * {node, port, type}, which is also listed with the graph's typed edges.
 */
static bool after_entry(struct ld *l, struct node *n, const char *what, const char *name,
			struct name_ref *r, size_t i)
{
	if (l->es.ev.type != EV_MAP)
		return get_after(l, n, what, name, r);
	struct edge_entry e = {.from.idx = -1, .to.idx = -1};
	struct pos pos = l->es.ev.pos;
	struct seen s;
	size_t errors = l->es.nerrs;
	parse_keys(l, &after_entry_tab, &e, "in an after entry", &s);
	require_keys(l, &after_entry_tab, &s, 1, "in an after entry");
	if (e.from.name == NULL)
		return false;
	*r = e.from;
	/* with an error inside, its port and type are not what was meant: a plain after */
	if (l->es.nerrs == errors)
		add_typed(n->graph, &e, n, i, pos);
	return true;
}

/* The after list of n, placed in the arena at its final length. */
static void key_node_after(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct node *n = obj;
	struct name_ref small[8], *v = small;
	size_t count = 0, cap = sizeof small / sizeof *small;
	if (l->es.ev.type != EV_SEQ) {
		if (after_entry(l, n, "a node id, {node: id, port: p, type: t} or a list of them",
				kd->name, &small[0], 0))
			count = 1;
	} else {
		ld_next(l);
		while (!l->es.fatal && l->es.ev.type != EV_SEQ_END) {
			if (count == cap) {
				struct name_ref *nv = xreallocarray(v == small ? NULL : v, cap * 2,
								    sizeof *v);
				if (v == small)
					memcpy(nv, small, sizeof small);
				v = nv;
				cap *= 2;
			}
			if (after_entry(l, n, "a node id or {node: id, port: p, type: t}", kd->name,
					&v[count], count))
				count++;
		}
		ld_next(l);
	}
	/* (One after key per node: a second is a duplicate, skipped unread.) */
	if (count) {
		n->after = arena_alloc(&l->g->arena, count * sizeof *n->after);
		memcpy(n->after, v, count * sizeof *v);
		n->nafter = (uint32_t)count;
	}
	if (v != small)
		free(v);
}

/* enabled: false is listed with where it was written (gdef.off). */
static void key_node_enabled(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	bool on = true;
	if (get_bool(l, kd->name, &on) && !on) {
		struct switched_off *o = VEC_PUSH(l->g->off, l->g->noff, l->g->capoff);
		o->node = obj;
		o->pos = kpos;
	}
}

/* device: N is listed with where it was written (gdef.devs); the validator says which kinds take it. */
static void key_node_device(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	uint64_t v;
	if (get_u64(l, kd->name, 0, GDEF_MAX_FILE_DEVICE, &v, NULL)) {
		struct node_device *nd = VEC_PUSH(l->g->devs, l->g->ndevs, l->g->capdevs);
		nd->node = obj;
		nd->device = (uint8_t)v;
		nd->pos = kpos;
	}
}

static const struct keydef node_keys[] = {
	KEY_ARG("kernel", key_node_kind, NK_KERNEL),
	KEY("id", key_node_id),
	KEY("after", key_node_after),
	KEY_ARG("memset", key_node_kind, NK_MEMSET),
	KEY_ARG("copy", key_node_kind, NK_COPY),
	KEY_ARG("empty", key_node_kind, NK_EMPTY),
	KEY_ARG("graph", key_node_kind, NK_GRAPH),
	KEY_ARG("alloc", key_node_kind, NK_ALLOC),
	KEY_ARG("free", key_node_kind, NK_FREE),
	KEY_ARG("event_record", key_node_kind, NK_EVENT_RECORD),
	KEY_ARG("event_wait", key_node_kind, NK_EVENT_WAIT),
	KEY_ARG("host", key_node_kind, NK_HOST),
	KEY_ARG("if", key_node_kind, NK_IF),
	KEY_ARG("while", key_node_kind, NK_WHILE),
	KEY_ARG("switch", key_node_kind, NK_SWITCH),
	KEY_ARG("memop", key_node_kind, NK_MEMOP),
	KEY_ARG("cublas", key_node_kind, NK_CUBLAS),
	KEY_ARG("cufft", key_node_kind, NK_CUFFT),
	KEY("enabled", key_node_enabled),
	KEY("device", key_node_device),
};
static const struct keytab node_tab = KEYTAB(node_keys);

/* A node without a kind leaves the model: nothing could use it. */
static void drop_node(struct ld *l, struct graph *gr, struct node *n)
{
	gr->nnodes--;
	if (l->nested)
		l->nnodes--;
	/* the node itself, its after list and its strings stay in the arena */
}

static void parse_node(struct ld *l, struct graph *gr)
{
	struct node *n = graph_add_node(gr, NK_COUNT);
	ev_count_node(&l->es, l->es.ev.pos);
	struct seen s;
	size_t errors = l->es.nerrs, inner = l->inner_errs;
	bool replayed = l->es.nframes > 0;
	struct pos alias = l->es.alias_pos;
	size_t evals = l->es.axis_evals;
	n->pos = l->es.ev.pos;
	if (l->nested)
		*ARENA_PUSH(&l->scratch, l->nodes, l->nnodes, l->capnodes) = n;
	parse_keys(l, &node_tab, n, "in a node", &s);
	n->dynamic = l->es.axis_evals != evals;
	if (n->kind == NK_COUNT && s.unknown == 0) {
		char kinds[256];
		list_names(node_kind_names, NK_COUNT, kinds, sizeof kinds);
		ld_error(l, n->pos, "a node needs a kind: one of %s", kinds);
	}
	/* Its own errors, not those of the nodes in its graphs, make it bad. */
	size_t all = l->es.nerrs - errors;
	n->bad = all > l->inner_errs - inner;
	l->inner_errs = inner + all;
	if (n->kind == NK_COUNT && n->id_given) {
		/* kindless, but named: others' after and edges still find it */
		node_init_kind(n, NK_EMPTY);
		n->kind_pos = n->pos;
		n->bad = true;
	}
	if (n->kind == NK_COUNT) {
		drop_node(l, gr, n);
		return;
	}
	if (n->id == NULL)
		node_auto_id(l, n);
	/* only ids written in the graph can clash: automatic ones are new each time */
	if (replayed && n->id_given) {
		struct gdef *g = l->g;
		*VEC_PUSH(g->replayed, g->nreplayed, g->capreplayed) =
			(struct replayed_node){n, alias};
	}
}

void parse_kind(struct ld *l, struct node *n, enum node_kind k)
{
	memset(&n->u, 0, sizeof n->u);
	node_init_kind(n, k);
	kind_parsers[k](l, n);
}

/*
 * KIND_N for nodes without an id, N counting per kind in file order and
 * skipping the ids written in the file.  key_node_kind hands them out as
 * it goes; this pass does it again when that could be wrong: an id
 * written in the file has the form KIND_N, or came after its node's kind.
 */
void assign_ids(struct ld *l)
{
	if (!l->renumber)
		return;
	struct node *const *nodes = l->nested ? l->nodes : l->g->root->nodes;
	size_t nnodes = l->nested ? l->nnodes : l->g->root->nnodes;
	struct strmap *given = NULL;
	size_t counts[NK_COUNT] = {0};
	for (size_t i = 0; i < nnodes; i++)
		if (nodes[i]->id_given) {
			if (given == NULL)
				given = strmap_new(64);
			strmap_put(given, nodes[i]->id, 1, NULL);
		}
	for (size_t i = 0; i < nnodes; i++) {
		struct node *n = nodes[i];
		if (n->id_given)
			continue;
		do {
			n->id = auto_id(l->g, n->kind, ++counts[n->kind]);
		} while (given && strmap_get(given, n->id) >= 0);
		n->id_pos = n->pos;
	}
	strmap_free(given);
}

/* ---------------------------------------------------------------------
 * Generators: {for: {i: RANGE}, nodes: [...]} in a list of nodes
 */

/* for: {VAR: RANGE}: the variable's name into var and its values into range; false after an error. */
static bool generator_for(struct ld *l, char *var, size_t varlen, struct axis *range)
{
	static const char what[] = "a variable and its values, such as {i: {from: 0, to: 15}}";
	struct pos pos = l->es.ev.pos;
	if (!want_map(l, what, "for"))
		return false;
	bool ok = false;
	size_t nvars = 0;
	ld_next(l);
	while (!l->es.fatal && l->es.ev.type != EV_MAP_END) {
		struct pos kpos = l->es.ev.pos;
		if (!ld_is_scalar(l)) {
			ld_expected(l, "a variable name", "for");
			ld_skip(l);
			continue;
		}
		if (nvars++) {
			ld_error(l, kpos, "a generator has one variable, found '%.60s' and '%.60s' (nest "
				 "generators for more)", var, l->es.ev.value);
			ld_next(l);
			ld_skip(l);
			ok = false;
			continue;
		}
		snprintf(var, varlen, "%s", l->es.ev.value);
		ld_next(l);
		long slot = is_identifier(var) ? ev_slot(&l->es, var) : -1;
		if (slot < 0)
			ld_error(l, kpos, "generator variable '%.60s' is not a name expressions can use (a "
				 "letter or '_', then letters, digits or '_')", var);
		else if (l->es.is_axis[slot])
			ld_error(l, kpos, "generator variable '%.60s' is an axis of the file (give the "
				 "generator a name of its own)", var);
		else if (l->es.bound[slot])
			ld_error(l, kpos, "generator variable '%.60s' is already that of a generator around "
				 "this one", var);
		if (slot < 0 || l->es.is_axis[slot] || l->es.bound[slot]) {
			ld_skip(l);
			continue;
		}
		ok = load_range(&l->es, l->sw, range, var);
	}
	ld_next(l);
	if (nvars == 0)
		ld_error(l, pos, "'for' names no variable (expected %s)", what);
	return ok;
}

/*
 * A generator: its nodes, read again from the file once per value of its
 * variable (ev_mark, ev_rewind), into the graph of the list it is in.  In
 * a plain load, the first one makes the file a template.
 */
static void parse_generator(struct ld *l, struct graph *gr)
{
	struct pos pos = l->es.ev.pos;
	if (l->sw == NULL) {
		ev_want_template(&l->es);
		return;
	}
	char var[128] = "";
	struct axis range = {0};
	ld_next(l);                        /* the key 'for' */
	ld_next(l);
	bool ok = generator_for(l, var, sizeof var, &range);
	bool seen = false;
	while (!l->es.fatal && l->es.ev.type != EV_MAP_END) {
		struct pos kpos = l->es.ev.pos;
		if (!ld_is_scalar(l) || strcmp(l->es.ev.value, "nodes") != 0 || seen) {
			if (ld_is_scalar(l) && strcmp(l->es.ev.value, "nodes") == 0)
				ld_error(l, kpos, "duplicate key 'nodes' in a generator");
			else if (ld_is_scalar(l) && strcmp(l->es.ev.value, "for") == 0)
				ld_error(l, kpos, "duplicate key 'for' in a generator");
			else if (!l->es.ev.bad)
				ld_error(l, kpos, "unknown key '%.60s' in a generator (it takes 'for', then "
					 "'nodes')", ld_is_scalar(l) ? l->es.ev.value : "?");
			ld_skip(l);
			ld_skip(l);
			continue;
		}
		seen = true;
		ld_next(l);
		struct ev_mark m;
		if (!want_seq(l, "a list of nodes", "nodes"))
			continue;
		if (!ev_mark(&l->es, &m)) {
			ld_error(l, l->es.ev.pos, "a generator cannot be inside an anchored node, nor its "
				 "nodes an alias");
			ld_skip(l);
			continue;
		}
		if (!ok) {
			ld_skip(l);
			continue;
		}
		if (range.nvalues == 0) {	/* no values: it writes no nodes, nor anchors to repeat */
			l->es.unbound++;
			ld_skip(l);
			l->es.unbound--;
			continue;
		}
		long slot = ev_slot(&l->es, var);
		const struct ev_budget *b = &l->es.budget;
		for (size_t i = 0; i < range.nvalues && !l->es.fatal; i++) {
			size_t nodes = b->nodes_made, events = b->events_made, text = b->text_made;
			if (i)
				ev_rewind(&l->es, &m, pos);
			ev_bind(&l->es, slot, range.values[i]);
			parse_node_list(l, gr, "nodes");
			/* the rest counted before it is expanded (load_events.h: BUDGET) */
			if (i == 0)
				ev_project(&l->es, range.nvalues - 1, b->nodes_made - nodes,
					   b->events_made - events, b->text_made - text, pos);
		}
		ev_unbind(&l->es, slot);
	}
	ld_next(l);
	if (!seen && !l->es.fatal)
		ld_error(l, pos, "missing key 'nodes' in a generator ({for: {i: ...}, nodes: [...]})");
	/* after the body's projection, which says a generator's nodes first */
	ev_count_values(&l->es, range.nvalues, pos);
	axis_free(&range);
}

