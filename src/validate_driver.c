/*
 * The rules of the CUDA 12 and 13 graph features (validate_driver.h):
 * switched-off nodes, launch attributes, typed edges, and conditions no
 * kernel can change.  Each rule is cuda.h's, which says which node kinds,
 * ports, types and attribute values the driver takes; where only the
 * device knows (co-residency, cluster shapes, device attributes) the GPU
 * back end checks it (gpu_attr.c).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fileio.h"
#include "strmap.h"
#include "validate_driver.h"
#include "validate_slice.h"
#include "xmalloc.h"

static const char *const axis_names[3] = {"x", "y", "z"};

/* "2x1x1" */
static void dims(const uint32_t d[3], char *buf, size_t len)
{
	snprintf(buf, len, "%" PRIu32 "x%" PRIu32 "x%" PRIu32, d[0], d[1], d[2]);
}

/* A node that is in the gdef's walk (a node the loader dropped is not). */
static bool walked(const struct gdef *g, const struct node *n)
{
	return n->kind != NK_COUNT && n->seq < g->nall_nodes && g->all_nodes[n->seq] == n;
}

/* Switched-off nodes -------------------------------------------------------- */

/* "a"/"an" before a kind's name, for messages. */
static const char *kind_article(enum node_kind k)
{
	return k == NK_EMPTY || k == NK_ALLOC || k == NK_EVENT_RECORD || k == NK_EVENT_WAIT ||
		k == NK_IF ? "an" : "a";
}

/*
 * Why node n cannot be switched off, or NULL.  cuda.h: "Currently only
 * kernel, memset and memcpy nodes are supported", and the node must be
 * one of the graph that was instantiated: nodes of child graphs and
 * conditional bodies belong to graphs of their own.
 */
static const char *cannot_switch(const struct node *n, char *buf, size_t len)
{
	if (n->kind != NK_KERNEL && n->kind != NK_MEMSET && n->kind != NK_COPY) {
		snprintf(buf, len, "node '%s' is %s %s node, and cuGraphNodeSetEnabled switches "
			 "only kernel, memset and copy nodes", n->id, kind_article(n->kind),
			 node_kind_names[n->kind]);
		return buf;
	}
	const struct node *o = n->graph->owner;
	if (n->graph->parent != NULL) {
		snprintf(buf, len, "node '%s' is in %s '%s', and cuGraphNodeSetEnabled switches "
			 "only nodes of the top-level graph", n->id,
			 o && o->kind == NK_GRAPH ? "child graph" : "the body of conditional node",
			 o ? o->id : "?");
		return buf;
	}
	return NULL;
}

static void check_switched_off(struct gdef *g, struct diag *d)
{
	for (size_t i = 0; i < g->noff; i++) {
		struct node *n = g->off[i].node;
		char why[400];
		if (!walked(g, n))
			continue;
		if (cannot_switch(n, why, sizeof why))
			diag_error(d, g->off[i].pos, "'enabled: false' cannot apply: %s", why);
		else
			n->disabled = true;
	}
}

/* Launch attributes --------------------------------------------------------- */

static void check_cluster(struct diag *d, const struct node *n, const struct kernel_attrs *a)
{
	const struct kernel_node *k = &n->u.kernel;
	char cd[48], pd[48];
	dims(a->cluster, cd, sizeof cd);
	if (kattr_set(a, KATTR_CLUSTER)) {
		struct pos at = a->pos[KATTR_CLUSTER];
		uint64_t blocks = 1;
		for (int i = 0; i < 3; i++) {
			if (a->cluster[i] && k->grid[i] % a->cluster[i])
				diag_error(d, at, "cluster %s of %" PRIu32 " does not divide grid %s of %"
					   PRIu32 ": a grid is a whole number of clusters",
					   axis_names[i], a->cluster[i], axis_names[i], k->grid[i]);
			blocks *= a->cluster[i];
		}
		if (blocks > 8 && !a->non_portable_cluster)
			diag_error(d, at, "a cluster of %" PRIu64 " blocks (%s) is more than the 8 a "
				   "cluster may have portably: set non_portable_cluster: true to allow "
				   "more where the device can", blocks, cd);
	}
	if (!kattr_set(a, KATTR_PREFERRED_CLUSTER))
		return;
	struct pos at = a->pos[KATTR_PREFERRED_CLUSTER];
	dims(a->preferred_cluster, pd, sizeof pd);
	if (!kattr_set(a, KATTR_CLUSTER)) {
		diag_error(d, at, "preferred_cluster needs cluster: it names larger clusters that "
			   "may stand in for the regular ones");
		return;
	}
	for (int i = 0; i < 3; i++) {
		uint32_t p = a->preferred_cluster[i], c = a->cluster[i];
		if (i == 2 && p != c)
			diag_error(d, at, "preferred cluster z of %" PRIu32 " must equal cluster z "
				   "of %" PRIu32, p, c);
		else if (c && p % c)
			diag_error(d, at, "preferred cluster %s of %" PRIu32 " is not a multiple of "
				   "cluster %s of %" PRIu32 " (preferred %s, cluster %s)", axis_names[i],
				   p, axis_names[i], c, pd, cd);
		else if (p && k->grid[i] % p)
			diag_error(d, at, "preferred cluster %s of %" PRIu32 " does not divide grid "
				   "%s of %" PRIu32, axis_names[i], p, axis_names[i], k->grid[i]);
	}
}

/* The window's buffer: known, not graph memory, the window inside it. */
static void check_window_buffer(struct gdef *g, struct diag *d, struct kernel_attrs *a)
{
	struct access_window *w = &a->window;
	struct pos at = a->pos[KATTR_ACCESS_POLICY];
	if (w->buffer.name == NULL)
		return;
	long bi = g->buffer_index ? strmap_get(g->buffer_index, w->buffer.name) : -1;
	w->buffer.idx = bi;
	if (bi < 0) {
		const char **names = xcalloc(g->nbuffers ? g->nbuffers : 1, sizeof *names);
		for (size_t i = 0; i < g->nbuffers; i++)
			names[i] = g->buffers[i].name;
		const char *s = diag_suggest(w->buffer.name, names, g->nbuffers);
		if (s)
			diag_error(d, pos_or(w->buffer.pos, at), "unknown buffer '%s' (did you mean "
				   "'%s'?)", w->buffer.name, s);
		else
			diag_error(d, pos_or(w->buffer.pos, at), "unknown buffer '%s'", w->buffer.name);
		free(names);
		return;
	}
	const struct buffer *b = &g->buffers[bi];
	if (b->memory == MEM_GRAPH) {
		w->buffer.idx = -1;
		diag_error(d, pos_or(w->buffer.pos, at), "an access policy window cannot cover "
			   "buffer '%s': its memory is 'graph', which exists only while the graph "
			   "runs; use device, host or managed memory", b->name);
		return;
	}
	if (b->count == 0)
		return;
	slice_fits(d, "window", b, w->offset, pos_or(w->offset_pos, at), w->has_count,
		   &w->count, pos_or(w->count_pos, at));
}

/* The access policy window: its buffer, then cuda.h's rules on its properties. */
static void check_window(struct gdef *g, struct diag *d, struct kernel_attrs *a)
{
	struct access_window *w = &a->window;
	struct pos at = a->pos[KATTR_ACCESS_POLICY];
	check_window_buffer(g, d, a);
	if (w->hit_ratio > 1)
		diag_error(d, pos_or(w->hit_ratio_pos, at), "hit_ratio of %g is more than 1: it is "
			   "the share of the window's lines given the hit property", w->hit_ratio);
	if (w->miss == ACCESS_PERSISTING)
		diag_error(d, pos_or(w->miss_pos, at), "miss cannot be persisting: cuda.h takes "
			   "normal or streaming for the lines outside the hit ratio");
	if (w->hit == ACCESS_PERSISTING && !g->run.has_persisting_l2)
		diag_warning(d, pos_or(w->hit_pos, at), "a persisting window has no effect without "
			     "L2 set aside for persisting accesses: set run.persisting_l2 (such as "
			     "persisting_l2: 4 MiB)");
}

/*
 * Function attributes belong to the function: two nodes of one kernel
 * that give different values would leave the second's in force for both.
 */
static void check_function_attr(struct diag *d, struct strmap *seen, struct kernel_attrs **list,
				size_t self, enum kattr k)
{
	const struct kernel_attrs *a = list[self];
	const struct kernel_node *kn = &a->node->u.kernel;
	if (!kattr_set(a, k) || kn->function == NULL)
		return;
	long first;
	if (strmap_put(seen, kn->function, (long)self, &first))
		return;
	const struct kernel_attrs *f = list[first];
	bool same = k == KATTR_CARVEOUT ? f->carveout == a->carveout :
		f->non_portable_cluster == a->non_portable_cluster;
	if (same)
		return;
	char mine[16], theirs[16];
	if (k == KATTR_CARVEOUT) {
		snprintf(mine, sizeof mine, "%d", a->carveout);
		snprintf(theirs, sizeof theirs, "%d", f->carveout);
	} else {
		snprintf(mine, sizeof mine, "%s", a->non_portable_cluster ? "true" : "false");
		snprintf(theirs, sizeof theirs, "%s", f->non_portable_cluster ? "true" : "false");
	}
	diag_error(d, a->pos[k], "%s %s for kernel '%s' here, but %s at node '%s': a function "
		   "attribute belongs to the function, so every node of it must agree",
		   kattr_names[k], mine, kn->function, theirs, f->node->id);
	diag_note(d, f->pos[k], "node '%s' gives %s %s", f->node->id, kattr_names[k], theirs);
}

static void check_attrs(struct gdef *g, struct diag *d)
{
	g->kattrs_of = NULL;
	if (g->nkattrs == 0 || g->nall_nodes == 0)
		return;
	g->kattrs_of = arena_alloc(&g->arena, g->nall_nodes * sizeof *g->kattrs_of);
	struct strmap *carve = strmap_new(16), *portable = strmap_new(16);
	for (size_t i = 0; i < g->nkattrs; i++) {
		struct kernel_attrs *a = g->kattrs[i];
		const struct node *n = a->node;
		if (!walked(g, n))
			continue;
		g->kattrs_of[n->seq] = a;
		/* the loader said what is wrong inside it: its attributes are not looked at */
		if (n->bad)
			continue;
		check_cluster(d, n, a);
		if (kattr_set(a, KATTR_ACCESS_POLICY))
			check_window(g, d, a);
		check_function_attr(d, carve, g->kattrs, i, KATTR_CARVEOUT);
		check_function_attr(d, portable, g->kattrs, i, KATTR_NON_PORTABLE_CLUSTER);
	}
	strmap_free(carve);
	strmap_free(portable);
}

/* Typed edges --------------------------------------------------------------- */

/* Module images read for the griddepcontrol.wait scan, once each. */
struct scan {
	struct gdef *g;
	char **text;            /* per module; NULL: not read yet or unreadable */
	size_t *len;
	bool *tried;
};

static const char *module_text(struct scan *sc, long mi, size_t *len)
{
	if (!sc->tried[mi]) {
		const struct module *m = &sc->g->modules[mi];
		sc->tried[mi] = true;
		if (!m->builtin && m->path)
			sc->text[mi] = read_whole_file_max(m->path, READ_MAX_BYTES,
							   &sc->len[mi]);
	}
	*len = sc->len[mi];
	return sc->text[mi];
}

static const char *memfind(const char *hay, size_t n, const char *needle)
{
	size_t k = strlen(needle);
	for (size_t i = 0; i + k <= n; i++)
		if (hay[i] == needle[0] && memcmp(hay + i, needle, k) == 0)
			return hay + i;
	return NULL;
}

/*
 * Does text[0..n) hold word outside a // comment?  (PTX and C++ alike;
 * a block comment is rare enough in either to be read as code.)
 */
static bool holds(const char *text, size_t n, const char *word)
{
	for (const char *p = text; (p = memfind(p, n - (size_t)(p - text), word)) != NULL; p++) {
		const char *line = p;
		while (line > text && line[-1] != '\n')
			line--;
		if (memfind(line, (size_t)(p - line), "//") == NULL)
			return true;
	}
	return false;
}

static bool ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		c == '_' || c == '$' || c == '.';
}

/*
 * The body of PTX entry name in text: from the '{' after its parameters
 * to the matching '}'.  False when there is no such entry.
 */
static bool ptx_entry_body(const char *text, size_t len, const char *name, const char **body,
			   size_t *blen)
{
	size_t nl = strlen(name);
	for (const char *p = text; (p = memfind(p, len - (size_t)(p - text), ".entry")) != NULL;
	     p += 6) {
		const char *q = p + 6;
		const char *end = text + len;
		while (q < end && (*q == ' ' || *q == '\t' || *q == '\n' || *q == '\r'))
			q++;
		if ((size_t)(end - q) < nl || memcmp(q, name, nl) != 0 ||
		    (q + nl < end && ident_char(q[nl])))
			continue;
		const char *open = memchr(q, '{', (size_t)(end - q));
		if (open == NULL)
			return false;
		int depth = 0;
		for (const char *c = open; c < end; c++) {
			if (*c == '{')
				depth++;
			else if (*c == '}' && --depth == 0) {
				*body = open;
				*blen = (size_t)(c - open + 1);
				return true;
			}
		}
		return false;
	}
	return false;
}

enum waits { WAITS_UNKNOWN, WAITS_YES, WAITS_NO };

/*
 * Does kernel node n wait for its programmatic dependencies?  Textually:
 * PTX modules by the body of the kernel's entry (griddepcontrol.wait),
 * CUDA C++ sources by their whole text (cudaGridDependencySynchronize or
 * the PTX instruction inline); the built-in kernels never do.  Cubins and
 * fatbins cannot be read this way: unknown.
 */
static enum waits kernel_waits(struct scan *sc, const struct node *n)
{
	const struct kernel_node *k = &n->u.kernel;
	long mi = k->module.idx;
	if (mi < 0 || k->func == NULL)
		return WAITS_UNKNOWN;
	const struct module *m = &sc->g->modules[mi];
	if (m->builtin)
		return WAITS_NO;
	size_t len;
	const char *text = module_text(sc, mi, &len);
	if (text == NULL)
		return WAITS_UNKNOWN;
	if (m->source)
		return holds(text, len, "griddepcontrol.wait") ||
			holds(text, len, "cudaGridDependencySynchronize") ? WAITS_YES : WAITS_NO;
	/* cubins are ELF; fatbins start with 0xba55ed50 (little-endian) */
	if (len >= 4 && (memcmp(text, "\177ELF", 4) == 0 ||
			 memcmp(text, "\x50\xed\x55\xba", 4) == 0))
		return WAITS_UNKNOWN;
	const char *body;
	size_t blen;
	if (!ptx_entry_body(text, len, k->func, &body, &blen))
		return WAITS_UNKNOWN;
	return holds(body, blen, "griddepcontrol.wait") ? WAITS_YES : WAITS_NO;
}

/* Both ends of t in its graph, or false when a name did not resolve. */
static bool typed_ends(const struct graph *gr, struct typed_edge *t)
{
	long from, to;
	if (t->to) {
		from = t->index < t->to->nafter ? t->to->after[t->index].idx : -1;
		to = (long)t->to->local;
	} else {
		const struct edge *e = &gr->edges[t->index];
		from = e->from.idx;
		to = e->to.idx;
	}
	if (from < 0 || to < 0 || from == to)
		return false;
	t->from_local = from;
	t->to_local = to;
	return true;
}

/* The pair of port and type cuda.h allows, and the kinds at both ends. */
static bool check_typed(struct diag *d, const struct graph *gr, const struct typed_edge *t)
{
	const struct node *a = gr->nodes[t->from_local], *b = gr->nodes[t->to_local];
	struct pos at = t->pos;
	bool ok = true;
	if (t->port == PORT_PROGRAMMATIC && t->type != ETYPE_PROGRAMMATIC) {
		diag_error(d, pos_or(t->port_pos, at), "edge '%s -> %s': port 'programmatic' needs "
			   "type 'programmatic' (cuda.h: CU_GRAPH_KERNEL_NODE_PORT_PROGRAMMATIC must "
			   "be used with CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC)", a->id, b->id);
		ok = false;
	}
	if (t->type == ETYPE_PROGRAMMATIC && t->port == PORT_DEFAULT) {
		diag_error(d, pos_or(t->type_pos, at), "edge '%s -> %s': type 'programmatic' needs "
			   "port 'programmatic' or 'launch_order', found port 'default' (cuda.h: "
			   "CU_GRAPH_DEPENDENCY_TYPE_PROGRAMMATIC must be used with either outgoing "
			   "port)", a->id, b->id);
		ok = false;
	}
	if (t->port != PORT_DEFAULT && a->kind != NK_KERNEL) {
		diag_error(d, pos_or(t->port_pos, at), "edge '%s -> %s': port '%s' is a kernel's, "
			   "but '%s' is %s %s node: only kernel nodes have ports other than default",
			   a->id, b->id, edge_port_names[t->port], a->id, kind_article(a->kind),
			   node_kind_names[a->kind]);
		ok = false;
	}
	if (t->type == ETYPE_PROGRAMMATIC && (a->kind != NK_KERNEL || b->kind != NK_KERNEL)) {
		const struct node *x = a->kind != NK_KERNEL ? a : b;
		diag_error(d, pos_or(t->type_pos, at), "edge '%s -> %s': type 'programmatic' links "
			   "kernel nodes only, but '%s' is %s %s node", a->id, b->id, x->id,
			   kind_article(x->kind), node_kind_names[x->kind]);
		ok = false;
	}
	return ok;
}

/* How often node `to` depends on node from, by after, edges and chain. */
static size_t times_written(const struct graph *gr, long from, long to)
{
	const struct node *n = gr->nodes[to];
	size_t c = 0;
	for (uint32_t k = 0; k < n->nafter; k++)
		c += n->after[k].idx == from;
	for (size_t e = 0; e < gr->nedges; e++)
		c += gr->edges[e].from.idx == from && gr->edges[e].to.idx == to;
	c += gr->chain && n->nafter == 0 && to > 0 && from == to - 1;
	return c;
}

/*
 * A dependency written twice is one edge for the driver: the same edge
 * data twice is harmless, but default and programmatic would leave one
 * of them unsaid.
 */
static void check_twice(struct diag *d, const struct graph *gr, const struct typed_edge *t,
			size_t self)
{
	bool nondefault = t->port != PORT_DEFAULT || t->type != ETYPE_DEFAULT;
	size_t typed = 0;
	for (size_t j = 0; j < gr->ntyped; j++) {
		const struct typed_edge *u = &gr->typed[j];
		if (u->from_local != t->from_local || u->to_local != t->to_local)
			continue;
		typed++;
		if (j < self && (u->port != t->port || u->type != t->type)) {
			diag_error(d, t->pos, "node '%s' depends on '%s' twice, with port '%s' and "
				   "type '%s' here but port '%s' and type '%s' at %u:%u: give the "
				   "dependency once", gr->nodes[t->to_local]->id,
				   gr->nodes[t->from_local]->id, edge_port_names[t->port],
				   edge_type_names[t->type], edge_port_names[u->port],
				   edge_type_names[u->type], u->pos.line, u->pos.col);
			return;
		}
	}
	/* only the first of a pair's typed entries says it */
	for (size_t j = 0; j < self; j++)
		if (gr->typed[j].from_local == t->from_local && gr->typed[j].to_local == t->to_local)
			return;
	if (nondefault && times_written(gr, t->from_local, t->to_local) > typed)
		diag_error(d, t->pos, "node '%s' depends on '%s' twice, once with port '%s' and type "
			   "'%s' and once without edge data: give the dependency once",
			   gr->nodes[t->to_local]->id, gr->nodes[t->from_local]->id,
			   edge_port_names[t->port], edge_type_names[t->type]);
}

static void check_typed_edges(struct gdef *g, struct diag *d, struct graph *gr,
			      struct scan *sc)
{
	/* both ends of every entry first: check_twice compares them */
	bool *ok = xcalloc(gr->ntyped, sizeof *ok);
	for (size_t i = 0; i < gr->ntyped; i++) {
		struct typed_edge *t = &gr->typed[i];
		t->from_local = t->to_local = -1;
		ok[i] = typed_ends(gr, t);
		/* an end the loader had trouble with is not what was meant: left be */
		if (ok[i] && (gr->nodes[t->from_local]->bad || gr->nodes[t->to_local]->bad))
			ok[i] = false;
	}
	for (size_t i = 0; i < gr->ntyped; i++) {
		struct typed_edge *t = &gr->typed[i];
		if (!ok[i] || !check_typed(d, gr, t))
			continue;
		check_twice(d, gr, t, i);
		const struct node *a = gr->nodes[t->from_local], *b = gr->nodes[t->to_local];
		if (t->type != ETYPE_PROGRAMMATIC || kernel_waits(sc, b) != WAITS_NO)
			continue;
		const struct module *m = &g->modules[b->u.kernel.module.idx];
		diag_warning(d, t->pos, "edge '%s -> %s' is programmatic, but kernel '%s'%s%s%s holds "
			     "no griddepcontrol.wait (cudaGridDependencySynchronize) to wait for "
			     "'%s': '%s' may start before '%s' ends and read what it has not yet "
			     "written", a->id, b->id, b->u.kernel.function, m->builtin ? "" : " (",
			     m->builtin ? "" : m->file, m->builtin ? "" : ")", a->id, b->id, a->id);
	}
	free(ok);
}

/* Every graph, in file order: the root's, then those held by its nodes. */
static void each_graph(struct gdef *g, struct diag *d, struct graph *gr, struct scan *sc)
{
	if (gr->ntyped)
		check_typed_edges(g, d, gr, sc);
	for (size_t i = 0; i < gr->nnodes; i++) {
		struct node *n = gr->nodes[i];
		if (n->kind == NK_GRAPH && n->u.child)
			each_graph(g, d, n->u.child, sc);
		else if (node_kind_is_conditional(n->kind))
			for (size_t b = 0; b < n->u.cond.nbodies; b++)
				if (n->u.cond.bodies[b])
					each_graph(g, d, n->u.cond.bodies[b], sc);
	}
}

static void check_edges(struct gdef *g, struct diag *d)
{
	size_t nm = g->nmodules ? g->nmodules : 1;
	struct scan sc = {g, xcalloc(nm, sizeof *sc.text), xcalloc(nm, sizeof *sc.len),
			  xcalloc(nm, sizeof *sc.tried)};
	each_graph(g, d, g->root, &sc);
	for (size_t i = 0; i < g->nmodules; i++)
		free(sc.text[i]);
	free(sc.text);
	free(sc.len);
	free(sc.tried);
}

/* Conditions that never change ---------------------------------------------- */

/* Conditions whose handle args (in structs too) give, per condition: a node that passes it. */
static bool mark_handles(const struct arg *args, size_t n, long *by, long *off, long self,
			 bool disabled, size_t ncond)
{
	bool all = true;
	for (size_t i = 0; i < n; i++) {
		const struct arg *a = &args[i];
		if (a->kind == ARG_STRUCT)
			all &= mark_handles(a->fields, a->nfields, by, off, self, disabled, ncond);
		else if (a->kind == ARG_HANDLE && a->ref.idx >= 0 && (size_t)a->ref.idx < ncond)
			(disabled ? off : by)[a->ref.idx] = self;
		else if (a->kind == ARG_HANDLE)
			all = false;
	}
	return all;
}

/* What a conditional node does at every launch when its condition keeps its default. */
static void fixed_outcome(const struct node *n, uint32_t v, char *buf, size_t len)
{
	switch (n->kind) {
	case NK_IF:
		if (v)
			snprintf(buf, len, "runs its then branch at every launch");
		else if (n->u.cond.nbodies > 1)
			snprintf(buf, len, "runs its else branch at every launch");
		else
			snprintf(buf, len, "never runs its then branch");
		break;
	case NK_WHILE:
		snprintf(buf, len, "never runs its body");
		break;
	default:
		if (v < n->u.cond.nbodies)
			snprintf(buf, len, "runs case %" PRIu32 " at every launch", v);
		else
			snprintf(buf, len, "runs no case (it has %zu)", n->u.cond.nbodies);
		break;
	}
}

/*
 * A condition whose handle no kernel is given keeps its default at every
 * launch: a WHILE that starts true never ends (an error: the run would
 * hang until --timeout), any other always does the same (a warning).
 * Switched-off kernels set nothing.  With warnings false, only errors.
 * Nothing is said when a handle argument named no condition: the one it
 * meant may be the one that looks unused.
 */
static void check_fixed(struct gdef *g, struct diag *d, bool warnings)
{
	size_t nc = g->nconditions;
	if (nc == 0)
		return;
	long *by = xmalloc(nc * sizeof *by), *off = xmalloc(nc * sizeof *off);
	for (size_t i = 0; i < nc; i++)
		by[i] = off[i] = -1;
	bool all = true;
	for (size_t i = 0; i < g->nall_nodes; i++) {
		const struct node *n = g->all_nodes[i];
		if (n->kind == NK_KERNEL)
			all &= mark_handles(n->u.kernel.args, n->u.kernel.nargs, by, off, (long)i,
					    n->disabled, nc);
	}
	if (!all) {
		free(by);
		free(off);
		return;
	}
	for (size_t i = 0; i < g->nall_nodes; i++) {
		const struct node *n = g->all_nodes[i];
		if (!node_kind_is_conditional(n->kind))
			continue;
		long ci = n->u.cond.condition.idx;
		if (ci < 0 || (size_t)ci >= nc || by[ci] >= 0)
			continue;
		const struct condition *c = &g->conditions[ci];
		char why[160] = "";
		if (off[ci] >= 0)
			snprintf(why, sizeof why, "; kernel node '%s', which is given it, is switched off",
				 g->all_nodes[off[ci]]->id);
		if (n->kind == NK_WHILE && c->default_value != 0) {
			diag_error(d, c->pos, "while node '%s' never ends: condition '%s' starts at %"
				   PRIu32 " (its default) at every launch, and no kernel is given its "
				   "handle ({handle: %s}) to clear it%s", n->id, c->name,
				   c->default_value, c->name, why);
			diag_note(d, pos_or(n->u.cond.condition.pos, node_kind_pos(n)), "'%s' loops on "
				  "'%s' here", n->id, c->name);
			continue;
		}
		if (!warnings)
			continue;
		char outcome[96];
		fixed_outcome(n, c->default_value, outcome, sizeof outcome);
		diag_warning(d, c->pos, "%s node '%s' %s: condition '%s' keeps its default, %"
			     PRIu32 ", as no kernel is given its handle ({handle: %s})%s",
			     node_kind_names[n->kind], n->id, outcome, c->name, c->default_value,
			     c->name, why);
	}
	free(by);
	free(off);
}

void validate_driver(struct gdef *g, struct diag *d, bool valid)
{
	unsigned before = d->nerrors;
	check_switched_off(g, d);
	check_attrs(g, d);
	check_edges(g, d);
	/* what conditions always do is worth a warning only in a file that is otherwise right */
	check_fixed(g, d, valid && d->nerrors == before);
}

void validate_driver_fixed(struct gdef *g, struct diag *d)
{
	check_fixed(g, d, true);
}

/* --disable ----------------------------------------------------------------- */

bool gdef_disable(struct gdef *g, const char *const *ids, size_t n, struct diag *d)
{
	unsigned before = d->nerrors;
	const char **all = NULL;
	for (size_t i = 0; i < n; i++) {
		struct node *found = NULL;
		for (size_t j = 0; j < g->nall_nodes && !found; j++)
			if (strcmp(g->all_nodes[j]->id, ids[i]) == 0)
				found = g->all_nodes[j];
		if (found == NULL) {
			if (all == NULL) {
				all = xcalloc(g->nall_nodes ? g->nall_nodes : 1, sizeof *all);
				for (size_t j = 0; j < g->nall_nodes; j++)
					all[j] = g->all_nodes[j]->id;
			}
			const char *s = diag_suggest(ids[i], all, g->nall_nodes);
			if (s)
				diag_error(d, (struct pos){0}, "--disable: no node '%s' (did you mean "
					   "'%s'?)", ids[i], s);
			else
				diag_error(d, (struct pos){0}, "--disable: no node '%s'", ids[i]);
			continue;
		}
		char why[400];
		if (cannot_switch(found, why, sizeof why))
			diag_error(d, (struct pos){0}, "--disable: %s", why);
		else
			found->disabled = true;
	}
	free(all);
	if (d->nerrors == before)
		check_fixed(g, d, false);
	return d->nerrors == before;
}
