/*
 * --describe: the description-level DOT of a validated definition, built
 * with libcgraph and written with agwrite (or drawn: describe_render.h).
 * One DOT node per graph node (named by its YAML id), one edge per
 * dependency, a cluster per child graph or conditional body linked from
 * its node, and optionally one node per buffer with an edge to each node
 * that touches it, in the direction the data goes (model_uses.h says how
 * each kind uses its buffers, kernel_access.h what a kernel does).
 *
 * Output is deterministic (file order, same bytes for the same input): see
 * seq_iddisc below for why cgraph needs help with that.
 */
#include "config.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <graphviz/cgraph.h>

#include "describe.h"
#include "kernel_access.h"
#include "model_lib.h"
#include "model_uses.h"
#include "strbuf.h"
#include "shape.h"
#include "strmap.h"
#include "xmalloc.h"

/* Longest host print text shown in a label, in bytes. */
#define LABEL_TEXT_MAX 40

/*
 * libcgraph 2.42 takes char * for names and values it only reads; the
 * casts live here and nowhere else.
 */
static Agraph_t *cg_subg(Agraph_t *g, const char *name)
{
	return agsubg(g, (char *)name, 1);
}

static Agnode_t *cg_node(Agraph_t *g, const char *name)
{
	return agnode(g, (char *)name, 1);
}

static Agedge_t *cg_edge(Agraph_t *g, Agnode_t *t, Agnode_t *h)
{
	return agedge(g, t, h, NULL, 1);
}

static void cg_set(void *obj, const char *attr, const char *value)
{
	agsafeset(obj, (char *)attr, (char *)value, (char *)"");
}

static void cg_declare(Agraph_t *g, int kind, const char *attr, const char *def)
{
	agattr(g, kind, (char *)attr, (char *)def);
}

/*
 * Object ids in creation order, and names kept here.  cgraph's default
 * discipline uses the address of the interned name as the id, and agwrite
 * orders subgraphs by id, so the order of clusters in the output would
 * follow malloc.  (Leaving names to cgraph's internal map instead leaks its
 * entries in 2.42.)  Graphs and nodes have a name map each; edges are
 * anonymous.  Names must be cgraph's own strings (agstrdup): agwrite looks
 * in front of them for the flag that marks HTML strings.
 */
struct seq_ids {
	Agraph_t *root;
	struct strmap *graphs, *nodes;  /* name -> id; keys are in names */
	char **names;                   /* names[id - 1], NULL when anonymous */
	size_t nnames, capnames;
};

static void *seq_open(Agraph_t *g, Agdisc_t *disc)
{
	struct seq_ids *s = xcalloc(1, sizeof *s);
	s->root = g;
	s->graphs = strmap_new(16);
	s->nodes = strmap_new(64);
	return s;
}

static long seq_map(void *state, int objtype, char *str, IDTYPE *id, int createflag)
{
	struct seq_ids *s = state;
	struct strmap *m = objtype == AGRAPH ? s->graphs : objtype == AGNODE ? s->nodes : NULL;
	if (str != NULL) {
		if (m == NULL)
			return 0;
		long found = strmap_get(m, str);
		if (found >= 0) {
			*id = (IDTYPE)found;
			return 1;
		}
	}
	if (!createflag)
		return 0;
	char *name = str ? agstrdup(s->root, str) : NULL;
	*VEC_PUSH(s->names, s->nnames, s->capnames) = name;
	*id = (IDTYPE)s->nnames;
	if (name)
		strmap_put(m, name, (long)s->nnames, NULL);
	return 1;
}

static long seq_alloc(void *state, int objtype, IDTYPE id)
{
	return 0;
}

/* Names live until close: nothing is deleted while describing. */
static void seq_free(void *state, int objtype, IDTYPE id)
{
}

static char *seq_print(void *state, int objtype, IDTYPE id)
{
	struct seq_ids *s = state;
	return id >= 1 && id <= s->nnames ? s->names[id - 1] : NULL;
}

static void seq_close(void *state)
{
	struct seq_ids *s = state;
	/* agclose calls this before it drops its string table. */
	for (size_t i = 0; i < s->nnames; i++)
		if (s->names[i])
			agstrfree(s->root, s->names[i]);
	free(s->names);
	strmap_free(s->graphs);
	strmap_free(s->nodes);
	free(s);
}

static void seq_register(void *state, int objtype, void *obj)
{
}

static Agiddisc_t seq_iddisc = {
	seq_open, seq_map, seq_alloc, seq_free, seq_print, seq_close, seq_register,
};

/* Memory and I/O stay cgraph's defaults (NULL members). */
static Agdisc_t seq_disc = {.id = &seq_iddisc};

/* An empty label, its text "" (a strbuf holds none before its first append). */
static void label_reset(struct strbuf *b)
{
	strbuf_grow(b, 0);
	strbuf_truncate(b, 0);
}

/* A line break inside a DOT label. */
static void sb_line(struct strbuf *b)
{
	strbuf_addc(b, '\\');
	strbuf_addc(b, 'n');
}

/*
 * Text from the file (ids, names, print text): a backslash is doubled so
 * that DOT shows it instead of reading an escape (\N, \l), newlines become
 * label line breaks and other control characters spaces.  max > 0 cuts the
 * text at a UTF-8 character boundary and adds "...".  Quotes are agwrite's.
 */
static void sb_text(struct strbuf *b, const char *s, size_t max)
{
	size_t len = strlen(s);
	bool cut = max > 0 && len > max;
	if (cut) {
		len = max;
		while (len > 0 && ((unsigned char)s[len] & 0xc0) == 0x80)
			len--;
	}
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '\\') {
			strbuf_addc(b, '\\');
			strbuf_addc(b, '\\');
		} else if (c == '\n') {
			sb_line(b);
		} else if (c < 0x20 || c == 0x7f) {
			strbuf_addc(b, ' ');
		} else {
			strbuf_addc(b, (char)c);
		}
	}
	if (cut)
		strbuf_printf(b, "...");
}

static void sb_size(struct strbuf *b, uint64_t bytes)
{
	char tmp[48];
	format_size(bytes, tmp, sizeof tmp);
	strbuf_printf(b, "%s", tmp);
}

/* A number roughly as written; floats short, as a person would write them. */
static void sb_num(struct strbuf *b, const struct num *n)
{
	switch (n->kind) {
	case NUM_UINT:
		strbuf_printf(b, "%" PRIu64, n->u);
		break;
	case NUM_INT:
		strbuf_printf(b, "%" PRId64, n->i);
		break;
	case NUM_FLOAT:
		strbuf_printf(b, "%g", n->f);
		break;
	}
}

/* "64", "8x8" or "8x8x2": trailing ones left out. */
static void sb_dims(struct strbuf *b, const uint32_t d[3])
{
	if (d[2] != 1)
		strbuf_printf(b, "%" PRIu32 "x%" PRIu32 "x%" PRIu32, d[0], d[1], d[2]);
	else if (d[1] != 1)
		strbuf_printf(b, "%" PRIu32 "x%" PRIu32, d[0], d[1]);
	else
		strbuf_printf(b, "%" PRIu32, d[0]);
}

/* A DOT graph node made for a graph node, in creation (file) order. */
struct made {
	const struct node *node;
	Agnode_t *an;
};

struct writer {
	const struct gdef *g;
	Agraph_t *root;
	/* DOT node names and subgraph names in use (keys are ids or owned) */
	struct strmap *names, *gnames;
	char **owned;
	size_t nowned, capowned;
	struct made *made;
	size_t nmade, capmade;
	struct strbuf label;
	const struct describe_overlay *overlay;   /* NULL: none */
	bool buffers;           /* the buffer diagram (put_buffers) */
};

/*
 * agwrite quotes a name but copies its backslashes as they are, so a name
 * ending in an odd number of them would escape its own closing quote and
 * the DOT would not parse.  Such a name is given one more backslash.
 */
static char *dot_safe(const char *s)
{
	size_t len = strlen(s), k = 0;
	while (k < len && s[len - 1 - k] == '\\')
		k++;
	return k % 2 ? xasprintf("%s\\", s) : xstrdup(s);
}

/* base (made DOT-safe), or base_2, base_3... whichever is free in m; owned by w. */
static const char *fresh_name(struct writer *w, struct strmap *m, const char *base)
{
	char *stem = dot_safe(base), *name = xstrdup(stem);
	for (unsigned k = 2; strmap_get(m, name) >= 0; k++) {
		free(name);
		name = xasprintf("%s_%u", stem, k);
	}
	free(stem);
	strmap_put(m, name, 0, NULL);
	*VEC_PUSH(w->owned, w->nowned, w->capowned) = name;
	return name;
}

/* The buffer a validated reference names, or NULL. */
static const struct buffer *buf_of(const struct writer *w, const struct name_ref *r)
{
	if (r->name == NULL || r->idx < 0 || (size_t)r->idx >= w->g->nbuffers)
		return NULL;
	return &w->g->buffers[r->idx];
}

static uint64_t elems_bytes(const struct buffer *b, uint64_t count)
{
	return b ? count * elem_infos[b->type].size : 0;
}

/* "x" or "x[16..]" for an offset in elements. */
static void sb_place(struct strbuf *b, const struct name_ref *r, uint64_t offset)
{
	sb_text(b, r->name ? r->name : "?", 0);
	if (offset)
		strbuf_printf(b, "[%" PRIu64 "..]", offset);
}

/* "T[0:64, 0:1]": end e of a validated region over the buffer r names. */
static void sb_region(struct strbuf *b, const struct writer *w, const struct name_ref *r,
		      const struct region *reg, unsigned e)
{
	const struct buffer *buf = buf_of(w, r);
	char words[160];
	sb_text(b, r->name ? r->name : "?", 0);
	if (buf) {
		region_words(reg, e, buf, words, sizeof words);
		strbuf_printf(b, "%s", words);
	}
}

typedef void label_fn(struct writer *w, const struct node *n, struct strbuf *b);

/*
 * A kernel's launch attributes, a line each as the format writes them:
 * "cluster 2x1x1", "cooperative", "window x: 1 MiB persisting".
 */
static void label_attrs(struct writer *w, const struct kernel_attrs *a, struct strbuf *b)
{
	for (int k = 0; k < KATTR_COUNT; k++) {
		if (!kattr_set(a, (enum kattr)k))
			continue;
		const struct access_window *win = &a->window;
		switch ((enum kattr)k) {
		case KATTR_ACCESS_POLICY:
			sb_line(b);
			strbuf_printf(b, "window ");
			sb_text(b, win->buffer.name ? win->buffer.name : "?", 0);
			if (win->offset)
				strbuf_printf(b, "[%" PRIu64 "..]", win->offset);
			if (buf_of(w, &win->buffer)) {
				strbuf_printf(b, ": ");
				sb_size(b, elems_bytes(buf_of(w, &win->buffer), win->count));
				strbuf_printf(b, ",");
			}
			if (win->hit_ratio < 1)
				strbuf_printf(b, " %g %s, else %s", win->hit_ratio, access_prop_names[win->hit],
					  access_prop_names[win->miss]);
			else
				strbuf_printf(b, " %s", access_prop_names[win->hit]);
			break;
		case KATTR_CLUSTER:
		case KATTR_PREFERRED_CLUSTER:
			sb_line(b);
			strbuf_printf(b, "%s ", k == KATTR_CLUSTER ? "cluster" : "preferred cluster");
			sb_dims(b, k == KATTR_CLUSTER ? a->cluster : a->preferred_cluster);
			break;
		case KATTR_CLUSTER_SCHEDULING:
			sb_line(b);
			strbuf_printf(b, "cluster scheduling %s",
				  cluster_scheduling_names[a->cluster_scheduling]);
			break;
		case KATTR_DOMAIN:
			sb_line(b);
			strbuf_printf(b, "sync domain %s", sync_domain_names[a->domain]);
			break;
		case KATTR_DOMAIN_MAP:
			sb_line(b);
			strbuf_printf(b, "domains default %u remote %u", a->domain_map[DOMAIN_DEFAULT],
				  a->domain_map[DOMAIN_REMOTE]);
			break;
		case KATTR_CARVEOUT:
			sb_line(b);
			strbuf_printf(b, "carveout %d%%", a->carveout);
			break;
		case KATTR_COOPERATIVE:
		case KATTR_DEVICE_UPDATABLE:
		case KATTR_NVLINK_CENTRIC:
		case KATTR_NON_PORTABLE_CLUSTER: {
			static const char *const words[KATTR_COUNT] = {
				[KATTR_COOPERATIVE] = "cooperative",
				[KATTR_DEVICE_UPDATABLE] = "device-updatable",
				[KATTR_NVLINK_CENTRIC] = "NVLink-centric",
				[KATTR_NON_PORTABLE_CLUSTER] = "non-portable cluster",
			};
			const bool on[KATTR_COUNT] = {
				[KATTR_COOPERATIVE] = a->cooperative,
				[KATTR_DEVICE_UPDATABLE] = a->node->u.kernel.device_updatable,
				[KATTR_NVLINK_CENTRIC] = a->nvlink_centric,
				[KATTR_NON_PORTABLE_CLUSTER] = a->non_portable_cluster,
			};
			if (on[k]) {
				sb_line(b);
				strbuf_printf(b, "%s", words[k]);
			}
			break;
		}
		case KATTR_COUNT:
			break;
		}
	}
}

static void label_kernel(struct writer *w, const struct node *n, struct strbuf *b)
{
	const struct kernel_node *k = &n->u.kernel;
	strbuf_printf(b, "kernel ");
	sb_text(b, k->function ? k->function : "?", 0);
	sb_line(b);
	strbuf_printf(b, "grid ");
	sb_dims(b, k->grid);
	strbuf_printf(b, " block ");
	sb_dims(b, k->block);
	if (k->shared || k->has_priority)
		sb_line(b);
	if (k->shared) {
		strbuf_printf(b, "shared ");
		sb_size(b, k->shared);
	}
	if (k->has_priority)
		strbuf_printf(b, "%spriority %d", k->shared ? " " : "", k->priority);
	const struct kernel_attrs *a = kernel_attrs_of(w->g, n);
	if (a)
		label_attrs(w, a, b);
}

/* One line per operation: "write flag = 1", "wait flag >= 3, flush", "barrier gpu". */
static void label_memop(struct writer *w, const struct node *n, struct strbuf *b)
{
	static const char *const cmp[CMP_COUNT] = {">=", "==", "&", "nor"};
	strbuf_printf(b, "memop");
	for (size_t i = 0; i < n->u.memop.nops; i++) {
		const struct memop *op = &n->u.memop.ops[i];
		sb_line(b);
		switch (op->kind) {
		case MEMOP_WRITE:
		case MEMOP_WAIT:
			strbuf_printf(b, "%s ", memop_kind_names[op->kind]);
			sb_text(b, op->buffer.name ? op->buffer.name : "?", 0);
			if (op->offset)
				strbuf_printf(b, "[%" PRIu64 "]", op->offset);
			strbuf_printf(b, " %s ", op->kind == MEMOP_WRITE ? "=" : cmp[op->compare]);
			sb_num(b, &op->value);
			if (op->flush)
				strbuf_printf(b, ", flush");
			break;
		case MEMOP_FLUSH:
			strbuf_printf(b, "flush remote writes");
			break;
		case MEMOP_BARRIER:
			strbuf_printf(b, "barrier %s", memop_scope_names[op->scope]);
			break;
		case MEMOP_COUNT:
			break;
		}
	}
}

static void label_memset(struct writer *w, const struct node *n, struct strbuf *b)
{
	const struct memset_node *m = &n->u.memset;
	strbuf_printf(b, "memset ");
	if (m->region)
		sb_region(b, w, &m->buffer, m->region, 0);
	else
		sb_place(b, &m->buffer, m->offset);
	strbuf_printf(b, " = ");
	sb_num(b, &m->value);
	sb_line(b);
	sb_size(b, elems_bytes(buf_of(w, &m->buffer), m->count));
}

/* H for pinned host memory; device, managed and graph memory count as D. */
static char mem_side(const struct buffer *b)
{
	return b && b->memory == MEM_HOST ? 'H' : 'D';
}

static void label_copy(struct writer *w, const struct node *n, struct strbuf *b)
{
	const struct copy_node *c = &n->u.copy;
	const struct buffer *from = buf_of(w, &c->from.buffer);
	const struct buffer *to = buf_of(w, &c->to.buffer);
	strbuf_printf(b, "copy ");
	if (c->region) {
		sb_region(b, w, &c->from.buffer, c->region, END_FROM);
		strbuf_printf(b, " -> ");
		sb_region(b, w, &c->to.buffer, c->region, END_TO);
	} else {
		sb_place(b, &c->from.buffer, c->from.offset);
		strbuf_printf(b, " -> ");
		sb_place(b, &c->to.buffer, c->to.offset);
	}
	sb_line(b);
	strbuf_printf(b, "%cto%c ", mem_side(from), mem_side(to));
	sb_size(b, elems_bytes(from, c->count));
}

static void label_empty(struct writer *w, const struct node *n, struct strbuf *b)
{
	strbuf_printf(b, "empty");
}

static void label_graph(struct writer *w, const struct node *n, struct strbuf *b)
{
	size_t nn = n->u.child ? n->u.child->nnodes : 0;
	strbuf_printf(b, "graph");
	sb_line(b);
	strbuf_printf(b, "%zu node%s", nn, nn == 1 ? "" : "s");
}

/* alloc and free: the buffer and its size. */
static void label_mem(struct writer *w, const struct node *n, struct strbuf *b)
{
	const struct buffer *buf = buf_of(w, &n->u.buffer);
	strbuf_printf(b, "%s ", node_kind_names[n->kind]);
	sb_text(b, n->u.buffer.name ? n->u.buffer.name : "?", 0);
	if (buf) {
		sb_line(b);
		sb_size(b, buf->size);
	}
}

static void label_event(struct writer *w, const struct node *n, struct strbuf *b)
{
	strbuf_printf(b, "%s ", node_kind_names[n->kind]);
	sb_text(b, n->u.event.name ? n->u.event.name : "?", 0);
}

static void label_host(struct writer *w, const struct node *n, struct strbuf *b)
{
	const struct host_node *h = &n->u.host;
	char tmp[48];
	switch (h->action) {
	case HOST_PRINT:
		strbuf_printf(b, "host print \"");
		sb_text(b, h->text ? h->text : "", LABEL_TEXT_MAX);
		strbuf_printf(b, "\"");
		break;
	case HOST_SLEEP:
		format_duration((double)h->sleep_ns * 1e-9, tmp, sizeof tmp);
		strbuf_printf(b, "host sleep %s", tmp);
		break;
	case HOST_DUMP:
		strbuf_printf(b, "host dump ");
		if (h->region)
			sb_region(b, w, &h->buffer, h->region, 0);
		else
			sb_text(b, h->buffer.name ? h->buffer.name : "?", 0);
		break;
	case HOST_SET:
		/* as a memset's label: where it starts, the value, how much */
		strbuf_printf(b, "host set ");
		if (h->set->region)
			sb_region(b, w, &h->set->buffer, h->set->region, 0);
		else
			sb_place(b, &h->set->buffer, h->set->offset);
		num_format(&h->set->value, tmp, sizeof tmp);
		strbuf_printf(b, " = %s", tmp);
		sb_line(b);
		sb_size(b, elems_bytes(buf_of(w, &h->set->buffer), h->set->count));
		break;
	case HOST_COPY:
		strbuf_printf(b, "host copy ");
		if (h->copy->region) {
			sb_region(b, w, &h->copy->from.buffer, h->copy->region, END_FROM);
			strbuf_printf(b, " -> ");
			sb_region(b, w, &h->copy->to.buffer, h->copy->region, END_TO);
		} else {
			sb_place(b, &h->copy->from.buffer, h->copy->from.offset);
			strbuf_printf(b, " -> ");
			sb_place(b, &h->copy->to.buffer, h->copy->to.offset);
		}
		sb_line(b);
		sb_size(b, elems_bytes(buf_of(w, &h->copy->from.buffer), h->copy->count));
		break;
	case HOST_CALL:
		strbuf_printf(b, "host call ");
		sb_text(b, h->fn->function ? h->fn->function : "?", 0);
		strbuf_printf(b, "(");
		for (size_t i = 0; i < h->fn->nbuffers; i++) {
			strbuf_printf(b, "%s", i ? ", " : "");
			sb_text(b, h->fn->buffers[i].name ? h->fn->buffers[i].name : "?", 0);
		}
		strbuf_printf(b, ")");
		sb_line(b);
		sb_text(b, h->fn->library ? h->fn->library : "?", LABEL_TEXT_MAX);
		break;
	}
}

static void label_cond(struct writer *w, const struct node *n, struct strbuf *b)
{
	const struct cond_node *c = &n->u.cond;
	strbuf_printf(b, "%s ", node_kind_names[n->kind]);
	sb_text(b, c->condition.name ? c->condition.name : "?", 0);
	if (n->kind == NK_SWITCH) {
		sb_line(b);
		strbuf_printf(b, "%zu case%s", c->nbodies, c->nbodies == 1 ? "" : "s");
	}
}

/* "cublas gemm 4096x4096x4096 f16->f32" (model_lib.h) */
static void label_lib(struct writer *w, const struct node *n, struct strbuf *b)
{
	char text[256];
	lib_label(n, text, sizeof text);
	sb_text(b, text, 0);
}

/*
 * How each kind looks: a shape, the label lines after the id, and a margin
 * around the label where the shape's own corners would touch it (arrows'
 * heads, a cds's point, a box3d's side), NULL where dot's default clears.
 */
static const struct kind_look {
	const char *shape;
	label_fn *label;
	const char *margin;
} kind_looks[NK_COUNT] = {
	[NK_KERNEL] = {"box", label_kernel, NULL},
	[NK_MEMSET] = {"parallelogram", label_memset, NULL},
	[NK_COPY] = {"cds", label_copy, "0.2,0.1"},
	[NK_EMPTY] = {"circle", label_empty, NULL},
	[NK_GRAPH] = {"box3d", label_graph, "0.15,0.1"},
	[NK_ALLOC] = {"invhouse", label_mem, NULL},
	[NK_FREE] = {"house", label_mem, NULL},
	[NK_EVENT_RECORD] = {"rarrow", label_event, "0.2,0.12"},
	[NK_EVENT_WAIT] = {"larrow", label_event, "0.2,0.12"},
	[NK_HOST] = {"hexagon", label_host, NULL},
	[NK_IF] = {"diamond", label_cond, NULL},
	[NK_WHILE] = {"Mdiamond", label_cond, NULL},
	[NK_SWITCH] = {"octagon", label_cond, NULL},
	[NK_MEMOP] = {"component", label_memop, "0.2,0.08"},
	[NK_CUBLAS] = {"box", label_lib, NULL},
	[NK_CUFFT] = {"box", label_lib, NULL},
};

/* The kinds that run on a device of their own (cugraphrun(5), Devices). */
static bool runs_on_device(enum node_kind k)
{
	return k == NK_KERNEL || k == NK_MEMSET || k == NK_COPY || k == NK_MEMOP ||
		k == NK_ALLOC || k == NK_GRAPH || node_kind_is_conditional(k) ||
		node_kind_is_library(k);
}

static Agnode_t *put_node(struct writer *w, Agraph_t *sg, const struct node *n)
{
	/* The id itself, unless it would not survive agwrite (see dot_safe). */
	char *safe = dot_safe(n->id);
	Agnode_t *an = cg_node(sg, strcmp(safe, n->id) == 0 ? n->id :
			       fresh_name(w, w->names, n->id));
	free(safe);
	struct strbuf *b = &w->label;
	label_reset(b);
	sb_text(b, n->id, 0);
	sb_line(b);
	kind_looks[n->kind].label(w, n, b);
	/* a file on several devices: where each node that runs on one does */
	if (w->g->device_of && runs_on_device(n->kind)) {
		sb_line(b);
		strbuf_printf(b, "on device %u", node_device(w->g, n));
	}
	struct describe_mark mk = {0};
	bool marked = w->overlay && w->overlay->mark(w->overlay->ctx, n, &mk);
	if (marked && mk.note) {
		sb_line(b);
		sb_text(b, mk.note, 0);
	}
	if (n->disabled) {
		sb_line(b);
		strbuf_printf(b, "(switched off)");
	}
	cg_set(an, "label", b->buf);
	cg_set(an, "shape", kind_looks[n->kind].shape);
	if (kind_looks[n->kind].margin)
		cg_set(an, "margin", kind_looks[n->kind].margin);
	bool fill = marked && mk.fill, bold = marked && mk.bold;
	if (fill || bold || n->disabled) {
		char style[32];
		snprintf(style, sizeof style, "%s%s%s%s%s", fill ? "filled" : "",
			 fill && bold ? "," : "", bold ? "bold" : "",
			 (fill || bold) && n->disabled ? "," : "", n->disabled ? "dashed" : "");
		cg_set(an, "style", style);
		if (fill)
			cg_set(an, "fillcolor", mk.fill);
		if (bold)
			cg_set(an, "penwidth", "3");
	}
	struct made *m = VEC_PUSH(w->made, w->nmade, w->capmade);
	m->node = n;
	m->an = an;
	return an;
}

static Agnode_t *put_graph(struct writer *w, Agraph_t *sg, const struct graph *gr);

/* Which body this is, as a cluster label. */
static void body_label(const struct node *n, size_t i, char *buf, size_t len)
{
	switch (n->kind) {
	case NK_IF:
		snprintf(buf, len, "%s", i == 0 ? "then" : "else");
		break;
	case NK_WHILE:
		snprintf(buf, len, "body");
		break;
	case NK_SWITCH:
		snprintf(buf, len, "case %zu", i);
		break;
	default:
		snprintf(buf, len, "graph");
		break;
	}
}

/*
 * A child graph or conditional body as cluster_<id>_<i> inside sg, linked
 * from the owner's DOT node to the body's first entry node (lhead clips the
 * edge at the cluster's border).  An empty body gets a placeholder node so
 * that the link has a target.
 */
static void put_body(struct writer *w, Agraph_t *sg, const struct node *owner,
		     Agnode_t *owner_an, const struct graph *body, size_t i)
{
	char label[32];
	char *base = xasprintf("cluster_%s_%zu", owner->id, i);
	const char *cname = fresh_name(w, w->gnames, base);
	free(base);
	Agraph_t *c = cg_subg(sg, cname);
	body_label(owner, i, label, sizeof label);
	cg_set(c, "label", label);
	cg_set(c, "style", owner->kind == NK_GRAPH ? "rounded" : "rounded,dashed");
	Agnode_t *target = body ? put_graph(w, c, body) : NULL;
	if (target == NULL) {
		char *pbase = xasprintf("%s_empty", cname);
		target = cg_node(c, fresh_name(w, w->names, pbase));
		free(pbase);
		cg_set(target, "label", "(empty)");
		cg_set(target, "shape", "plaintext");
	}
	Agedge_t *e = cg_edge(sg, owner_an, target);
	cg_set(e, "lhead", cname);
	cg_set(e, "style", "bold");
	/* as heavy as a dependency: the body stays by its node among the data */
	if (w->buffers)
		cg_set(e, "weight", "4");
}

/* The nodes of gr into sg, then its dependencies; returns its first entry node. */
static Agnode_t *put_graph(struct writer *w, Agraph_t *sg, const struct graph *gr)
{
	Agnode_t **an = xcalloc(gr->nnodes ? gr->nnodes : 1, sizeof *an);
	Agnode_t *entry = NULL;
	for (size_t i = 0; i < gr->nnodes; i++) {
		const struct node *n = gr->nodes[i];
		an[i] = put_node(w, sg, n);
		if (entry == NULL && n->ndeps == 0)
			entry = an[i];
		if (n->kind == NK_GRAPH)
			put_body(w, sg, n, an[i], n->u.child, 0);
		else if (node_kind_is_conditional(n->kind))
			for (size_t b = 0; b < n->u.cond.nbodies; b++)
				put_body(w, sg, n, an[i], n->u.cond.bodies[b], b);
	}
	for (size_t i = 0; i < gr->nnodes; i++) {
		const struct node *n = gr->nodes[i];
		for (size_t d = 0; d < n->ndeps; d++) {
			if (n->deps[d] >= gr->nnodes)
				continue;
			Agedge_t *e = cg_edge(sg, an[n->deps[d]], an[i]);
			/* heavier than the data: the flow's column stays straight */
			if (w->buffers)
				cg_set(e, "weight", "4");
			if (w->overlay && w->overlay->edge_bold &&
			    w->overlay->edge_bold(w->overlay->ctx, gr->nodes[n->deps[d]], n)) {
				cg_set(e, "style", "bold");
				cg_set(e, "penwidth", "3");
			}
		}
	}
	/* edge data: the port and type beside the dependency, dashed */
	for (size_t t = 0; t < gr->ntyped; t++) {
		const struct typed_edge *te = &gr->typed[t];
		if (te->from_local < 0 || te->to_local < 0 ||
		    (te->port == PORT_DEFAULT && te->type == ETYPE_DEFAULT))
			continue;
		Agedge_t *e = agedge(sg, an[te->from_local], an[te->to_local], NULL, 0);
		if (e == NULL)
			continue;
		char label[64];
		if (te->type == ETYPE_DEFAULT)
			snprintf(label, sizeof label, "%s", edge_port_names[te->port]);
		else if (te->port == PORT_PROGRAMMATIC)
			snprintf(label, sizeof label, "programmatic");
		else
			snprintf(label, sizeof label, "%s, %s", edge_port_names[te->port],
				 edge_type_names[te->type]);
		cg_set(e, "label", label);
		cg_set(e, "style", "dashed");
	}
	if (entry == NULL && gr->nnodes > 0)
		entry = an[0];
	free(an);
	return entry;
}

/*
 * The buffer diagram.  A person draws data beside the flow: a buffer next
 * to the node that first uses it, a read as an arrow from the buffer into
 * the node, a write as an arrow out of the node into the buffer.  So each
 * buffer is ranked by its first use alone (above its first user when that
 * reads it, below it otherwise), every other use is drawn without moving
 * anything (constraint=false), buffers that one node places on one side
 * keep their first-use order left to right, and the dependencies and the
 * links to bodies weigh more than the data, which keeps the flow's column
 * straight and each body by its node.
 */

/* One node's use of one buffer: the accesses of its uses merged. */
struct use {
	size_t made;            /* the node: w->made index */
	long buf;
	unsigned known;         /* USE_READ | USE_WRITE, as far as known */
	bool unknown;           /* some use of it whose access is not known */
	enum use_role role;
};

struct use_list {
	struct use *v;
	size_t n, cap;
	size_t node_start;      /* the current node's first use in v */
	size_t made;
	struct writer *w;
	struct kernel_access *ka;
	const struct node *node;
};

/* What a use is drawn as. */
enum use_look { LOOK_READ, LOOK_WRITE, LOOK_READWRITE, LOOK_UNKNOWN, LOOK_UNUSED,
	LOOK_ALLOC, LOOK_FREE, LOOK_COUNT };

static const struct edge_look {
	bool from_buffer;       /* drawn from the buffer to the node */
	const char *dir;        /* NULL: an arrowhead at the head */
	const char *style;
} edge_looks[LOOK_COUNT] = {
	[LOOK_READ] = {true, NULL, "dashed"},
	[LOOK_WRITE] = {false, NULL, "dashed"},
	[LOOK_READWRITE] = {false, "both", "dashed"},
	/* no arrowheads: not a guess at either direction */
	[LOOK_UNKNOWN] = {false, "none", "dashed"},
	/* a kernel argument its kernel never uses as an address */
	[LOOK_UNUSED] = {false, "none", "dotted"},
	/* the buffer comes out of its alloc node and goes into its free node */
	[LOOK_ALLOC] = {false, NULL, "dotted"},
	[LOOK_FREE] = {true, NULL, "dotted"},
};

static enum use_look look_of(const struct use *u)
{
	static const enum use_look by_known[] = {LOOK_UNUSED, LOOK_READ, LOOK_WRITE,
		LOOK_READWRITE};
	if (u->role == ROLE_ALLOC || u->role == ROLE_FREE)
		return u->role == ROLE_ALLOC ? LOOK_ALLOC : LOOK_FREE;
	/* what is not known might add either, unless both are known already */
	if (u->unknown && u->known != USE_READWRITE)
		return LOOK_UNKNOWN;
	return by_known[u->known & USE_READWRITE];
}

/* One use of the node at hand, merged into its use of that buffer. */
static bool collect_use(void *ctx, const struct buf_use *bu)
{
	struct use_list *l = ctx;
	const struct name_ref *r = bu->buffer;
	/* a pitch passed is no use of the buffer's contents: nothing drawn */
	if (buf_of(l->w, r) == NULL || bu->role == ROLE_PITCH)
		return true;
	enum use_access a = kernel_access_of(l->ka, l->node, bu);
	struct use *u = NULL;
	for (size_t i = l->node_start; i < l->n && u == NULL; i++)
		if (l->v[i].buf == r->idx)
			u = &l->v[i];
	if (u == NULL) {
		u = VEC_PUSH(l->v, l->n, l->cap);
		u->made = l->made;
		u->buf = r->idx;
		u->role = bu->role;
	}
	if (a == USE_UNKNOWN)
		u->unknown = true;
	else
		u->known |= a;
	return true;
}

/* Every node's uses, node by node in file order. */
static void collect_uses(struct writer *w, struct use_list *l)
{
	l->w = w;
	l->ka = kernel_access_new(w->g);
	for (size_t i = 0; i < w->nmade; i++) {
		l->node_start = l->n;
		l->made = i;
		l->node = w->made[i].node;
		node_buffer_uses(l->node, collect_use, l);
	}
	kernel_access_free(l->ka);
	l->ka = NULL;
}

/* The cylinder of buffer i. */
static Agnode_t *put_buffer(struct writer *w, size_t i)
{
	const struct gdef *g = w->g;
	const struct buffer *buf = &g->buffers[i];
	struct strbuf *b = &w->label;
	char *base = xasprintf("buf_%s", buf->name);
	Agnode_t *bn = cg_node(w->root, fresh_name(w, w->names, base));
	free(base);
	label_reset(b);
	sb_text(b, buf->name, 0);
	sb_line(b);
	if (buf->shape.rank) {
		char sh[96];
		shape_words(buf, sh, sizeof sh);
		strbuf_printf(b, "%s %s (", elem_infos[buf->type].name, sh);
	} else {
		strbuf_printf(b, "%s x %" PRIu64 " (", elem_infos[buf->type].name, buf->count);
	}
	sb_size(b, buf->size);
	strbuf_printf(b, ")");
	if (buf->shape.pitch_auto) {
		sb_line(b);
		strbuf_printf(b, "pitch auto");
	} else if (buffer_padded(buf)) {
		sb_line(b);
		strbuf_printf(b, "pitch ");
		sb_size(b, buf->shape.pitch);
	}
	sb_line(b);
	strbuf_printf(b, "%s", mem_kind_names[buf->memory]);
	if (buf->memory == MEM_DEVICE && (g->device_of || g->ndevices > 1))
		strbuf_printf(b, " memory on device %u", buf->device);
	cg_set(bn, "label", b->buf);
	cg_set(bn, "shape", "cylinder");
	/* the top's curve stands inside the box: clear of the first line */
	cg_set(bn, "margin", "0.11,0.1");
	return bn;
}

/* The edge of use u between its node and the buffer's cylinder bn. */
static Agedge_t *put_use(struct writer *w, const struct use *u, Agnode_t *bn)
{
	const struct edge_look *lk = &edge_looks[look_of(u)];
	Agnode_t *an = w->made[u->made].an;
	Agedge_t *e = lk->from_buffer ? cg_edge(w->root, bn, an) : cg_edge(w->root, an, bn);
	cg_set(e, "style", lk->style);
	if (lk->dir)
		cg_set(e, "dir", lk->dir);
	return e;
}

/* One cylinder per buffer, in the order of first use, and an edge per use. */
static void put_buffers(struct writer *w)
{
	const struct gdef *g = w->g;
	struct use_list l = {0};
	collect_uses(w, &l);
	size_t *first = xcalloc(g->nbuffers ? g->nbuffers : 1, sizeof *first);
	Agnode_t **bn = xcalloc(g->nbuffers ? g->nbuffers : 1, sizeof *bn);
	for (size_t i = 0; i < g->nbuffers; i++)
		first[i] = SIZE_MAX;
	for (size_t k = 0; k < l.n; k++)
		if (first[l.v[k].buf] == SIZE_MAX) {
			first[l.v[k].buf] = k;
			bn[l.v[k].buf] = put_buffer(w, (size_t)l.v[k].buf);
		}
	/* those no node uses (a check's alone), after the others */
	for (size_t i = 0; i < g->nbuffers; i++)
		if (bn[i] == NULL)
			bn[i] = put_buffer(w, i);
	const struct use *placed = NULL;        /* the last use that placed a buffer */
	for (size_t k = 0; k < l.n; k++) {
		const struct use *u = &l.v[k];
		Agedge_t *e = put_use(w, u, bn[u->buf]);
		if (first[u->buf] != k) {
			cg_set(e, "constraint", "false");
			continue;
		}
		/* beside the last one its node placed on the same side: to its right */
		if (placed && placed->made == u->made &&
		    edge_looks[look_of(placed)].from_buffer == edge_looks[look_of(u)].from_buffer) {
			Agedge_t *o = cg_edge(w->root, bn[placed->buf], bn[u->buf]);
			cg_set(o, "style", "invis");
			cg_set(o, "minlen", "0");
		}
		placed = u;
	}
	free(l.v);
	free(first);
	free(bn);
}

/* Every node id into w->names, so that made-up names avoid them. */
static void reserve_ids(struct writer *w, const struct graph *gr)
{
	for (size_t i = 0; i < gr->nnodes; i++) {
		const struct node *n = gr->nodes[i];
		strmap_put(w->names, n->id, 0, NULL);
		if (n->kind == NK_GRAPH && n->u.child)
			reserve_ids(w, n->u.child);
		else if (node_kind_is_conditional(n->kind))
			for (size_t b = 0; b < n->u.cond.nbodies; b++)
				if (n->u.cond.bodies[b])
					reserve_ids(w, n->u.cond.bodies[b]);
	}
}

/* The graph's name: the file's name:, else the file's base name less .yaml. */
static char *graph_name(const struct gdef *g)
{
	if (g->name && g->name[0])
		return xstrdup(g->name);
	const char *base = strrchr(g->file, '/');
	base = base ? base + 1 : g->file;
	size_t len = strlen(base);
	static const char *const exts[] = {".yaml", ".yml"};
	for (size_t i = 0; i < sizeof exts / sizeof *exts; i++) {
		size_t el = strlen(exts[i]);
		if (len > el && strcmp(base + len - el, exts[i]) == 0) {
			len -= el;
			break;
		}
	}
	return len ? xstrndup(base, len) : xstrdup("graph");
}

/* The DOT of root drawn as f to out (describe_render.h); 0, or -1 after a message. */
static int draw(Agraph_t *root, enum describe_format f, FILE *out)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	int rc = mem ? agwrite(root, mem) : -1;
	if (mem && fclose(mem) != 0)
		rc = -1;
	if (rc != 0)
		errorx("cannot write the description: %m");
	else
		rc = describe_render(text, f, out);     /* says itself why it failed */
	free(text);
	return rc;
}

int describe_write(const struct gdef *g, const struct describe_opts *o, FILE *out)
{
	struct writer w = {.g = g, .overlay = o ? o->overlay : NULL, .buffers = o && o->buffers};
	char *name = graph_name(g), *dotname = dot_safe(name);
	w.root = agopen(dotname, Agdirected, &seq_disc);
	if (w.root == NULL) {
		errorx("cannot build the description graph");
		free(name);
		free(dotname);
		return -1;
	}
	w.names = strmap_new(64);
	w.gnames = strmap_new(16);
	strmap_put(w.gnames, dotname, 0, NULL);

	/* Declared up front so that the header lists them in a fixed order. */
	cg_declare(w.root, AGRAPH, "compound", "true");
	cg_declare(w.root, AGRAPH, "labelloc", "t");
	cg_declare(w.root, AGRAPH, "label", "");
	cg_declare(w.root, AGRAPH, "style", "");
	cg_declare(w.root, AGNODE, "label", "\\N");
	cg_declare(w.root, AGNODE, "shape", "box");
	cg_declare(w.root, AGEDGE, "style", "");
	cg_declare(w.root, AGEDGE, "dir", "");
	cg_declare(w.root, AGEDGE, "lhead", "");
	cg_declare(w.root, AGEDGE, "constraint", "");
	if (w.buffers) {
		/* room between a node and a buffer beside it for two arrowheads */
		cg_declare(w.root, AGRAPH, "nodesep", "0.6");
		cg_declare(w.root, AGEDGE, "minlen", "");
		cg_declare(w.root, AGEDGE, "weight", "");
	}
	{
		struct strbuf *b = &w.label;
		label_reset(b);
		sb_text(b, name, 0);
		cg_set(w.root, "label", b->buf);
	}

	reserve_ids(&w, g->root);
	put_graph(&w, w.root, g->root);
	if (w.buffers)
		put_buffers(&w);

	bool drawn = o && o->format != DESCRIBE_DOT;
	int rc = drawn ? draw(w.root, o->format, out) : 0;
	if (rc == 0 && ((!drawn && agwrite(w.root, out) != 0) || fflush(out) != 0 || ferror(out))) {
		errorx("cannot write the description: %m");
		rc = -1;
	}
	agclose(w.root);
	strmap_free(w.names);
	strmap_free(w.gnames);
	for (size_t i = 0; i < w.nowned; i++)
		free(w.owned[i]);
	free(w.owned);
	free(w.made);
	strbuf_free(&w.label);
	free(name);
	free(dotname);
	return rc;
}
