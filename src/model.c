#include "config.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "strmap.h"
#include "xmalloc.h"

const char *const req_lib_names[REQ_LIB_COUNT] = {
	"nvrtc", "cublas", "cublaslt", "cufft", "cusparse", "curand", "cupti",
};

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
	[NK_MEMOP] = "memop",
	[NK_CUBLAS] = "cublas",
	[NK_CUFFT] = "cufft",
};

const char *const reduce_names[RED_COUNT] = {
	[RED_SUM] = "sum", [RED_MIN] = "min", [RED_MAX] = "max", [RED_NORM2] = "norm2",
	[RED_NONZERO] = "nonzero", [RED_DIFFER] = "differ",
};

const char *const bound_names[BOUND_COUNT] = {
	[BOUND_EQ] = "eq", [BOUND_LT] = "lt", [BOUND_LE] = "le", [BOUND_GT] = "gt", [BOUND_GE] = "ge",
	[BOUND_NEAR] = "near",
};

const char *const bound_symbols[BOUND_COUNT] = {
	[BOUND_EQ] = "==", [BOUND_LT] = "<", [BOUND_LE] = "<=", [BOUND_GT] = ">", [BOUND_GE] = ">=",
	[BOUND_NEAR] = "near",
};
const char *const arg_access_names[ARG_ACCESS_COUNT] = {"", "read", "write", "readwrite"};
const char *const edge_port_names[PORT_COUNT] = {"default", "programmatic", "launch_order"};
const char *const edge_type_names[ETYPE_COUNT] = {"default", "programmatic"};

const char *const kattr_names[KATTR_COUNT] = {
	[KATTR_ACCESS_POLICY] = "access_policy",
	[KATTR_COOPERATIVE] = "cooperative",
	[KATTR_CLUSTER] = "cluster",
	[KATTR_CLUSTER_SCHEDULING] = "cluster_scheduling",
	[KATTR_DOMAIN_MAP] = "mem_sync_domain_map",
	[KATTR_DOMAIN] = "mem_sync_domain",
	[KATTR_PREFERRED_CLUSTER] = "preferred_cluster",
	[KATTR_DEVICE_UPDATABLE] = "device_updatable",
	[KATTR_NVLINK_CENTRIC] = "nvlink_centric",
	[KATTR_NON_PORTABLE_CLUSTER] = "non_portable_cluster",
	[KATTR_CARVEOUT] = "carveout",
};

const char *const cluster_scheduling_names[CLUSTER_SCHED_COUNT] = {
	"default", "spread", "load_balancing",
};
const char *const access_prop_names[ACCESS_COUNT] = {"normal", "streaming", "persisting"};
const char *const sync_domain_names[DOMAIN_COUNT] = {"default", "remote"};

const char *const memop_kind_names[MEMOP_COUNT] = {
	[MEMOP_WRITE] = "write", [MEMOP_WAIT] = "wait",
	[MEMOP_FLUSH] = "flush_remote_writes", [MEMOP_BARRIER] = "barrier",
};
const char *const memop_compare_names[CMP_COUNT] = {"geq", "eq", "and", "nor"};
const char *const memop_scope_names[SCOPE_COUNT] = {"sys", "gpu"};

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
	case ARG_PITCH:
		return 8;
	case ARG_SCALAR:
		return elem_infos[a->type].size;
	case ARG_BYTES:
		return a->nbytes;
	case ARG_STRUCT: {
		size_t off = 0, align = arg_align(a);
		for (size_t i = 0; i < a->nfields; i++) {
			size_t fa = arg_align(&a->fields[i]);
			off = align_up(off, fa) + arg_size(&a->fields[i]);
		}
		return align_up(off, align);
	}
	}
	return 0;
}

size_t arg_align(const struct arg *a)
{
	switch (a->kind) {
	case ARG_BUFFER:
	case ARG_HANDLE:
	case ARG_PITCH:
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
	g->file = gdef_strdup(g, file);
	const char *slash = strrchr(file, '/');
	g->dir = gdef_strndup(g, file, slash ? (size_t)(slash - file) + 1 : 0);
	g->root = graph_new(NULL, NULL);
	g->root->arena = &g->arena;
	g->ndevices = 1;
	return g;
}

char *gdef_strdup(struct gdef *g, const char *s)
{
	return arena_strdup(&g->arena, s);
}

char *gdef_strndup(struct gdef *g, const char *s, size_t n)
{
	return arena_strndup(&g->arena, s, n);
}

struct graph *graph_new(struct graph *parent, struct node *owner)
{
	struct graph *gr = xcalloc(1, sizeof *gr);
	gr->parent = parent;
	gr->owner = owner;
	gr->arena = parent ? parent->arena : owner ? owner->graph->arena : NULL;
	if (owner)
		owner->graph->nodes_own = true;
	return gr;
}

struct node *graph_add_node(struct graph *gr, enum node_kind kind)
{
	struct node *n = arena_alloc(gr->arena, sizeof *n);
	n->kind = kind;
	n->graph = gr;
	n->local = (uint32_t)gr->nnodes;
	*ARENA_PUSH(gr->arena, gr->nodes, gr->nnodes, gr->capnodes) = n;
	return n;
}

struct name_ref *node_add_after(struct node *n)
{
	struct name_ref *after = arena_alloc(n->graph->arena, (n->nafter + 1) * sizeof *after);
	if (n->nafter)
		memcpy(after, n->after, n->nafter * sizeof *after);
	n->after = after;
	return &after[n->nafter++];
}

struct arg *kernel_add_arg(struct node *n)
{
	struct kernel_node *k = &n->u.kernel;
	struct arg *args = arena_alloc(n->graph->arena, (k->nargs + 1) * sizeof *args);
	if (k->nargs)
		memcpy(args, k->args, k->nargs * sizeof *args);
	k->args = args;
	return &args[k->nargs++];
}

char *gdef_resolve_path(struct gdef *g, const char *written)
{
	if (written[0] == '/' || g->dir[0] == '\0')
		return gdef_strdup(g, written);
	return arena_printf(&g->arena, "%s%s", g->dir, written);
}

void gdef_input_files(const struct gdef *g, gdef_input_fn *fn, void *ctx)
{
	for (size_t i = 0; i < g->nmodules; i++) {
		const struct module *m = &g->modules[i];
		if (m->path)
			fn(ctx, m->source ? "module source" : "module file", m->file, m->path,
			   m->file_pos.line ? m->file_pos : m->pos);
	}
	for (size_t i = 0; i < g->nbuffers; i++) {
		const struct init *in = &g->buffers[i].init;
		if (in->kind == INIT_FILE && in->path)
			fn(ctx, "init file", in->file, in->path,
			   in->file_pos.line ? in->file_pos : g->buffers[i].pos);
	}
	for (size_t i = 0; i < g->nchecks; i++) {
		const struct check *c = &g->checks[i];
		if (c->expect == EXPECT_FILE && c->path)
			fn(ctx, "expect file", c->file, c->path,
			   c->expect_pos.line ? c->expect_pos : c->pos);
	}
	/* host libraries named by a path (a name alone is the loader's to find) */
	for (size_t i = 0; i < g->nall_nodes; i++) {
		const struct node *n = g->all_nodes[i];
		if (n->kind == NK_HOST && n->u.host.action == HOST_CALL && n->u.host.fn->library &&
		    strchr(n->u.host.fn->library, '/') && n->u.host.fn->path)
			fn(ctx, "host library", n->u.host.fn->library, n->u.host.fn->path,
			   n->u.host.fn->library_pos.line ? n->u.host.fn->library_pos : n->pos);
	}
}

/* What a node holds outside the arena: its nested graphs. */
static void node_free(struct node *n)
{
	switch (n->kind) {
	case NK_GRAPH:
		graph_free(n->u.child);
		break;
	case NK_IF:
	case NK_WHILE:
	case NK_SWITCH:
		for (size_t i = 0; i < n->u.cond.nbodies; i++)
			graph_free(n->u.cond.bodies[i]);
		free(n->u.cond.bodies);
		break;
	default:
		break;
	}
}

void graph_free(struct graph *gr)
{
	if (gr == NULL)
		return;
	for (size_t i = 0; gr->nodes_own && i < gr->nnodes; i++)
		node_free(gr->nodes[i]);
	free(gr->edges);
	free(gr->typed);
	free(gr);
}

void gdef_free(struct gdef *g)
{
	if (g == NULL)
		return;
	/* a derived model shares most of itself with its base: derive_free */
	assert(g->derive == NULL);
	for (size_t i = 0; i < g->nmodules; i++) {
		free(g->modules[i].defines);
		free(g->modules[i].includes);
		free(g->modules[i].options);
	}
	free(g->modules);
	for (size_t i = 0; i < g->nbuffers; i++)
		free(g->buffers[i].init.list);
	free(g->buffers);
	free(g->events);
	free(g->conditions);
	graph_free(g->root);
	for (size_t i = 0; i < g->nchecks; i++)
		free(g->checks[i].list);
	free(g->checks);
	free(g->replayed);
	free(g->kattrs);
	free(g->off);
	free(g->devs);
	strmap_free(g->module_index);
	strmap_free(g->buffer_index);
	strmap_free(g->event_index);
	strmap_free(g->condition_index);
	strmap_free(g->node_index);
	arena_free(&g->arena);
	free(g);
}

const struct node *gdef_device_updatable(const struct gdef *g)
{
	/* only a kernel with launch attributes can be one */
	for (size_t i = 0; i < g->nkattrs; i++)
		if (g->kattrs[i]->node->u.kernel.device_updatable)
			return g->kattrs[i]->node;
	return NULL;
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

/* "N things" or "1 thing", appended at *used; words are "buffer"/"buffers". */
static void count_words(char *buf, size_t len, size_t *used, size_t n, const char *one,
			const char *many, const char *sep)
{
	if (*used >= len)
		return;
	int w = snprintf(buf + *used, len - *used, "%s%zu %s", sep, n, n == 1 ? one : many);
	if (w > 0)
		*used += (size_t)w;
}

void gdef_summary(const struct gdef *g, char *buf, size_t len)
{
	size_t kinds[NK_COUNT], total = 0, used = 0, modules = 0;
	graph_count_kinds(g->root, kinds, true);
	for (int k = 0; k < NK_COUNT; k++)
		total += kinds[k];
	for (size_t i = 0; i < g->nmodules; i++)
		modules += !g->modules[i].builtin;
	buf[0] = '\0';
	count_words(buf, len, &used, total, "node", "nodes", "");
	const char *open = " (";
	for (int k = 0; k < NK_COUNT && used < len; k++) {
		if (kinds[k] == 0)
			continue;
		int w = snprintf(buf + used, len - used, "%s%zu %s", open, kinds[k],
				 node_kind_names[k]);
		if (w > 0)
			used += (size_t)w;
		open = ", ";
	}
	if (total && used < len)
		used += (size_t)snprintf(buf + used, len - used, ")");
	count_words(buf, len, &used, g->nbuffers, "buffer", "buffers", ", ");
	count_words(buf, len, &used, modules, "module", "modules", ", ");
	count_words(buf, len, &used, g->nevents, "event", "events", ", ");
	count_words(buf, len, &used, g->nconditions, "condition", "conditions", ", ");
	count_words(buf, len, &used, g->nchecks, "check", "checks", ", ");
}
