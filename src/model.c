#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "strmap.h"
#include "xmalloc.h"

const char *const mem_kind_names[MEM_COUNT] = {
	[MEM_DEVICE] = "device",
	[MEM_HOST] = "host",
	[MEM_MANAGED] = "managed",
	[MEM_GRAPH] = "graph",
};

const char *const node_kind_names[NK_COUNT] = {
	[NK_KERNEL] = "kernel",
	[NK_MEMSET] = "memset",
	[NK_COPY] = "copy",
	[NK_EMPTY] = "empty",
	[NK_GRAPH] = "graph",
	[NK_ALLOC] = "alloc",
	[NK_FREE] = "free",
	[NK_EVENT_RECORD] = "event_record",
	[NK_EVENT_WAIT] = "event_wait",
	[NK_HOST] = "host",
	[NK_IF] = "if",
	[NK_WHILE] = "while",
	[NK_SWITCH] = "switch",
};

const char *const inst_flag_names[INST_FLAG_COUNT] = {
	"upload", "auto_free_on_launch", "use_node_priority", "device_launch",
};

bool node_kind_is_conditional(enum node_kind k)
{
	return k == NK_IF || k == NK_WHILE || k == NK_SWITCH;
}

size_t arg_size(const struct arg *a)
{
	switch (a->kind) {
	case ARG_BUFFER:
	case ARG_HANDLE:
		return 8;
	case ARG_SCALAR:
		return elem_infos[a->type].size;
	case ARG_BYTES:
		return a->nbytes;
	case ARG_STRUCT: {
		size_t off = 0, align = arg_align(a);
		for (size_t i = 0; i < a->nfields; i++) {
			size_t fa = arg_align(&a->fields[i]);
			off = (off + fa - 1) / fa * fa + arg_size(&a->fields[i]);
		}
		return (off + align - 1) / align * align;
	}
	}
	return 0;
}

size_t arg_align(const struct arg *a)
{
	switch (a->kind) {
	case ARG_BUFFER:
	case ARG_HANDLE:
		return 8;
	case ARG_SCALAR:
		return elem_infos[a->type].size;
	case ARG_BYTES:
		return 1;
	case ARG_STRUCT: {
		size_t align = 1;
		for (size_t i = 0; i < a->nfields; i++) {
			size_t fa = arg_align(&a->fields[i]);
			if (fa > align)
				align = fa;
		}
		return align;
	}
	}
	return 1;
}

struct gdef *gdef_new(const char *file)
{
	struct gdef *g = xcalloc(1, sizeof *g);
	g->file = xstrdup(file);
	const char *slash = strrchr(file, '/');
	g->dir = slash ? xstrndup(file, (size_t)(slash - file) + 1) : xstrdup("");
	g->root = graph_new(NULL, NULL);
	return g;
}

struct graph *graph_new(struct graph *parent, struct node *owner)
{
	struct graph *gr = xcalloc(1, sizeof *gr);
	gr->parent = parent;
	gr->owner = owner;
	return gr;
}

struct node *graph_add_node(struct graph *gr, enum node_kind kind)
{
	struct node *n = xcalloc(1, sizeof *n);
	n->kind = kind;
	n->graph = gr;
	*VEC_PUSH(gr->nodes, gr->nnodes, gr->capnodes) = n;
	return n;
}

char *gdef_resolve_path(const struct gdef *g, const char *written)
{
	if (written[0] == '/' || g->dir[0] == '\0')
		return xstrdup(written);
	return xasprintf("%s%s", g->dir, written);
}

static void free_ref(struct name_ref *r)
{
	free(r->name);
}

static void free_args(struct arg *args, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free_ref(&args[i].ref);
		free(args[i].bytes);
		free_args(args[i].fields, args[i].nfields);
	}
	free(args);
}

static void node_free(struct node *n)
{
	if (n == NULL)
		return;
	free(n->id);
	for (size_t i = 0; i < n->nafter; i++)
		free_ref(&n->after[i]);
	free(n->after);
	free(n->deps);
	switch (n->kind) {
	case NK_KERNEL:
		free(n->u.kernel.function);
		free_ref(&n->u.kernel.module);
		free(n->u.kernel.func);
		free_args(n->u.kernel.args, n->u.kernel.nargs);
		break;
	case NK_MEMSET:
		free_ref(&n->u.memset.buffer);
		break;
	case NK_COPY:
		free_ref(&n->u.copy.from.buffer);
		free_ref(&n->u.copy.to.buffer);
		break;
	case NK_GRAPH:
		graph_free(n->u.child);
		break;
	case NK_ALLOC:
	case NK_FREE:
		free_ref(&n->u.buffer);
		break;
	case NK_EVENT_RECORD:
	case NK_EVENT_WAIT:
		free_ref(&n->u.event);
		break;
	case NK_HOST:
		free(n->u.host.text);
		free_ref(&n->u.host.buffer);
		break;
	case NK_IF:
	case NK_WHILE:
	case NK_SWITCH:
		free_ref(&n->u.cond.condition);
		for (size_t i = 0; i < n->u.cond.nbodies; i++)
			graph_free(n->u.cond.bodies[i]);
		free(n->u.cond.bodies);
		break;
	case NK_EMPTY:
	case NK_COUNT:
		break;
	}
	free(n);
}

void graph_free(struct graph *gr)
{
	if (gr == NULL)
		return;
	for (size_t i = 0; i < gr->nnodes; i++)
		node_free(gr->nodes[i]);
	free(gr->nodes);
	for (size_t i = 0; i < gr->nedges; i++) {
		free_ref(&gr->edges[i].from);
		free_ref(&gr->edges[i].to);
	}
	free(gr->edges);
	free(gr->topo);
	free(gr);
}

void gdef_free(struct gdef *g)
{
	if (g == NULL)
		return;
	free(g->file);
	free(g->dir);
	free(g->name);
	free(g->description);
	for (size_t i = 0; i < g->nmodules; i++) {
		free(g->modules[i].name);
		free(g->modules[i].file);
		free(g->modules[i].path);
	}
	free(g->modules);
	for (size_t i = 0; i < g->nbuffers; i++) {
		struct buffer *b = &g->buffers[i];
		free(b->name);
		free(b->init.list);
		free(b->init.file);
		free(b->init.path);
	}
	free(g->buffers);
	for (size_t i = 0; i < g->nevents; i++)
		free(g->events[i].name);
	free(g->events);
	for (size_t i = 0; i < g->nconditions; i++)
		free(g->conditions[i].name);
	free(g->conditions);
	graph_free(g->root);
	for (size_t i = 0; i < g->nchecks; i++) {
		free_ref(&g->checks[i].buffer);
		free(g->checks[i].list);
		free(g->checks[i].file);
		free(g->checks[i].path);
	}
	free(g->checks);
	strmap_free(g->module_index);
	strmap_free(g->buffer_index);
	strmap_free(g->event_index);
	strmap_free(g->condition_index);
	strmap_free(g->node_index);
	free(g->all_nodes);
	free(g);
}

static void count_kinds(const struct graph *gr, size_t counts[NK_COUNT], bool recurse)
{
	for (size_t i = 0; i < gr->nnodes; i++) {
		const struct node *n = gr->nodes[i];
		counts[n->kind]++;
		if (!recurse)
			continue;
		if (n->kind == NK_GRAPH)
			count_kinds(n->u.child, counts, true);
		else if (node_kind_is_conditional(n->kind))
			for (size_t b = 0; b < n->u.cond.nbodies; b++)
				count_kinds(n->u.cond.bodies[b], counts, true);
	}
}

void graph_count_kinds(const struct graph *gr, size_t counts[NK_COUNT], bool recurse)
{
	memset(counts, 0, NK_COUNT * sizeof *counts);
	count_kinds(gr, counts, recurse);
}
