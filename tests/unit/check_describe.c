/*
 * Unit tests for the DOT writer: small definitions built by hand (with the
 * fields the validator would fill), written with describe_write, read back
 * with libcgraph's agread and checked for structure.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <graphviz/cgraph.h>
#include <graphviz/gvc.h>

#include "describe.h"
#include "model.h"
#include "unit.h"
#include "xmalloc.h"

/* Building validated models by hand ------------------------------------ */

/* The definition being built, whose arena holds the helpers' strings. */
static struct gdef *cur;

static struct gdef *new_def(const char *file)
{
	return cur = gdef_new(file);
}

static struct name_ref ref(const char *name, long idx)
{
	return (struct name_ref){.name = gdef_strdup(cur, name), .idx = idx};
}

static struct buffer *add_buffer(struct gdef *g, const char *name, enum elem_type t,
				 uint64_t count, enum mem_kind mem)
{
	struct buffer *b = VEC_PUSH(g->buffers, g->nbuffers, g->capbuffers);
	b->name = gdef_strdup(cur, name);
	b->type = t;
	b->count = count;
	b->size = count * elem_infos[t].size;
	b->memory = mem;
	return b;
}

static long buffer_idx(const struct gdef *g, const char *name)
{
	for (size_t i = 0; i < g->nbuffers; i++)
		if (strcmp(g->buffers[i].name, name) == 0)
			return (long)i;
	ck_abort_msg("no buffer %s", name);
	return -1;
}

static struct node *add(struct graph *gr, enum node_kind k, const char *id)
{
	struct node *n = graph_add_node(gr, k);
	n->id = gdef_strdup(cur, id);
	n->id_given = true;
	if (k == NK_KERNEL)
		for (int i = 0; i < 3; i++)
			n->u.kernel.grid[i] = n->u.kernel.block[i] = 1;
	return n;
}

/* n runs after on (both in the same graph), as the validator records it. */
static void dep(struct node *n, const struct node *on)
{
	for (size_t i = 0; i < n->graph->nnodes; i++)
		if (n->graph->nodes[i] == on) {
			/* deps live in the arena, as the validator leaves them */
			size_t *deps = arena_alloc(n->graph->arena, (n->ndeps + 1) * sizeof *deps);
			for (size_t k = 0; k < n->ndeps; k++)
				deps[k] = n->deps[k];
			deps[n->ndeps++] = i;
			n->deps = deps;
			n->capdeps = n->ndeps;
			return;
		}
	ck_abort_msg("%s is not in the graph of %s", on->id, n->id);
}

static struct node *kernel(struct graph *gr, const char *id, const char *function,
			   uint32_t grid, uint32_t block)
{
	struct node *n = add(gr, NK_KERNEL, id);
	n->u.kernel.function = gdef_strdup(cur, function);
	n->u.kernel.grid[0] = grid;
	n->u.kernel.block[0] = block;
	return n;
}

static void kernel_buffer_arg(struct gdef *g, struct node *n, const char *buf)
{
	struct arg *a = kernel_add_arg(n);
	a->kind = ARG_BUFFER;
	a->ref = ref(buf, buffer_idx(g, buf));
}

/* A buffer argument with 'access:' (ARG_ACCESS_UNSAID: without). */
static void kernel_access_arg(struct gdef *g, struct node *n, const char *buf,
			      enum arg_access access)
{
	kernel_buffer_arg(g, n, buf);
	n->u.kernel.args[n->u.kernel.nargs - 1].access = (uint8_t)access;
}

static void kernel_i32_arg(struct node *n, int64_t v)
{
	struct arg *a = kernel_add_arg(n);
	a->kind = ARG_SCALAR;
	a->type = ET_I32;
	a->num = (struct num){.kind = NUM_INT, .i = v};
}

/* A module of the definition: the built-in one when path is NULL. */
static long add_module(struct gdef *g, const char *name, const char *path)
{
	struct module *m = VEC_PUSH(g->modules, g->nmodules, g->capmodules);
	m->name = gdef_strdup(cur, name);
	m->builtin = path == NULL;
	m->path = path ? gdef_strdup(cur, path) : NULL;
	return (long)g->nmodules - 1;
}

/* Kernel n calls func of module mi, as the validator resolves "m.func". */
static void kernel_of(struct node *n, const char *module, long mi, const char *func)
{
	n->u.kernel.module = ref(module, mi);
	n->u.kernel.func = gdef_strdup(cur, func);
}

static struct graph *add_body(struct node *n)
{
	struct graph *body = graph_new(n->graph, n);
	if (n->kind == NK_GRAPH) {
		n->u.child = body;
	} else {
		body->body_index = (unsigned)n->u.cond.nbodies;
		*VEC_PUSH(n->u.cond.bodies, n->u.cond.nbodies, n->u.cond.capbodies) = body;
	}
	return body;
}

static struct node *cond(struct graph *gr, enum node_kind k, const char *id, const char *c)
{
	struct node *n = add(gr, k, id);
	n->u.cond.condition = ref(c, 0);
	return n;
}

/* Writing and reading back ---------------------------------------------- */

/* describe_write's output as a string (caller frees). */
static char *describe_text(const struct gdef *g, bool buffers)
{
	struct describe_opts o = {.buffers = buffers};
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(describe_write(g, &o, f), 0);
	ck_assert_int_eq(fclose(f), 0);
	return text;
}

/* describe_write's output parsed by agread. */
static Agraph_t *describe_read(const struct gdef *g, bool buffers)
{
	char *text = describe_text(g, buffers);
	FILE *f = fmemopen(text, strlen(text), "r");
	ck_assert_ptr_nonnull(f);
	Agraph_t *dot = agread(f, NULL);
	fclose(f);
	ck_assert_msg(dot != NULL, "agread failed on:\n%s", text);
	free(text);
	return dot;
}

static Agnode_t *node_named(Agraph_t *dot, const char *name)
{
	Agnode_t *n = agnode(dot, (char *)name, 0);
	ck_assert_msg(n != NULL, "no DOT node %s", name);
	return n;
}

static const char *attr(void *obj, const char *name)
{
	const char *v = agget(obj, (char *)name);
	return v ? v : "";
}

static Agedge_t *edge(Agraph_t *dot, const char *t, const char *h)
{
	Agnode_t *tn = agnode(dot, (char *)t, 0), *hn = agnode(dot, (char *)h, 0);
	if (tn == NULL || hn == NULL)
		return NULL;
	return agedge(dot, tn, hn, NULL, 0);
}

static Agraph_t *subgraph(Agraph_t *dot, const char *name)
{
	Agraph_t *s = agsubg(dot, (char *)name, 0);
	ck_assert_msg(s != NULL, "no subgraph %s", name);
	return s;
}

/* Tests -------------------------------------------------------------- */

START_TEST(test_chain)
{
	struct gdef *g = new_def("dir/chain.yaml");
	g->name = gdef_strdup(cur, "stencil");
	struct node *a = kernel(g->root, "init", "k.init", 64, 256);
	struct node *b = kernel(g->root, "step", "k.step", 64, 256);
	struct node *c = kernel(g->root, "done", "k.done", 1, 1);
	dep(b, a);
	dep(c, b);
	dep(c, a);

	Agraph_t *dot = describe_read(g, false);
	ck_assert_str_eq(agnameof(dot), "stencil");
	ck_assert(agisdirected(dot));
	ck_assert_int_eq(agnnodes(dot), 3);
	ck_assert_int_eq(agnedges(dot), 3);
	ck_assert_str_eq(attr(node_named(dot, "step"), "label"),
			 "step\\nkernel k.step\\ngrid 64 block 256");
	ck_assert_str_eq(attr(node_named(dot, "step"), "shape"), "box");
	ck_assert_ptr_nonnull(edge(dot, "init", "step"));
	ck_assert_ptr_nonnull(edge(dot, "step", "done"));
	ck_assert_ptr_nonnull(edge(dot, "init", "done"));
	ck_assert_ptr_null(edge(dot, "step", "init"));
	ck_assert_ptr_null(agfstsubg(dot));
	agclose(dot);
	gdef_free(g);
}
END_TEST

START_TEST(test_labels)
{
	struct gdef *g = new_def("labels.yaml");
	add_buffer(g, "x", ET_F32, 1024, MEM_DEVICE);
	add_buffer(g, "h", ET_F32, 1024, MEM_HOST);
	add_buffer(g, "tmp", ET_U8, 4096, MEM_GRAPH);
	add_buffer(g, "m", ET_I16, 100, MEM_MANAGED);

	struct node *k = kernel(g->root, "k2", "mod.blur", 8, 16);
	k->u.kernel.grid[1] = 8;
	k->u.kernel.block[1] = 16;
	k->u.kernel.block[2] = 2;
	k->u.kernel.shared = 4096;
	k->u.kernel.has_priority = true;
	k->u.kernel.priority = -2;
	struct node *k3 = kernel(g->root, "k3", "mod.f", 2, 32);
	k3->u.kernel.has_priority = true;
	k3->u.kernel.priority = 1;

	struct node *ms = add(g->root, NK_MEMSET, "clear");
	ms->u.memset.buffer = ref("x", 0);
	ms->u.memset.value = (struct num){.kind = NUM_UINT, .u = 0};
	ms->u.memset.count = 1024;
	struct node *ms2 = add(g->root, NK_MEMSET, "fill");
	ms2->u.memset.buffer = ref("x", 0);
	ms2->u.memset.value = (struct num){.kind = NUM_FLOAT, .f = 0.5};
	ms2->u.memset.offset = 16;
	ms2->u.memset.count = 256;
	struct node *ms3 = add(g->root, NK_MEMSET, "neg");
	ms3->u.memset.buffer = ref("m", 3);
	ms3->u.memset.value = (struct num){.kind = NUM_INT, .i = -1};
	ms3->u.memset.count = 100;

	struct node *up = add(g->root, NK_COPY, "up");
	up->u.copy.from.buffer = ref("h", 1);
	up->u.copy.to.buffer = ref("x", 0);
	up->u.copy.count = 1024;
	struct node *down = add(g->root, NK_COPY, "down");
	down->u.copy.from.buffer = ref("x", 0);
	down->u.copy.from.offset = 512;
	down->u.copy.to.buffer = ref("h", 1);
	down->u.copy.to.offset = 8;
	down->u.copy.count = 16;
	struct node *dd = add(g->root, NK_COPY, "dd");
	dd->u.copy.from.buffer = ref("m", 3);
	dd->u.copy.to.buffer = ref("tmp", 2);
	dd->u.copy.count = 100;
	struct node *hh = add(g->root, NK_COPY, "hh");
	hh->u.copy.from.buffer = ref("h", 1);
	hh->u.copy.to.buffer = ref("h", 1);
	hh->u.copy.to.offset = 512;
	hh->u.copy.count = 512;

	struct node *al = add(g->root, NK_ALLOC, "a1");
	al->u.buffer = ref("tmp", 2);
	struct node *fr = add(g->root, NK_FREE, "f1");
	fr->u.buffer = ref("tmp", 2);
	struct node *er = add(g->root, NK_EVENT_RECORD, "rec");
	er->u.event = ref("done", 0);
	struct node *ew = add(g->root, NK_EVENT_WAIT, "wait");
	ew->u.event = ref("done", 0);
	struct node *hp = add(g->root, NK_HOST, "say");
	hp->u.host.action = HOST_PRINT;
	hp->u.host.text = gdef_strdup(cur, "hello");
	struct node *hs = add(g->root, NK_HOST, "nap");
	hs->u.host.action = HOST_SLEEP;
	hs->u.host.sleep_ns = 100000;
	struct node *hd = add(g->root, NK_HOST, "show");
	hd->u.host.action = HOST_DUMP;
	hd->u.host.buffer = ref("h", 1);
	add(g->root, NK_EMPTY, "join");

	Agraph_t *dot = describe_read(g, false);
	static const struct {
		const char *id, *label, *shape;
	} want[] = {
		{"k2", "k2\\nkernel mod.blur\\ngrid 8x8 block 16x16x2\\nshared 4 KiB priority -2", "box"},
		{"k3", "k3\\nkernel mod.f\\ngrid 2 block 32\\npriority 1", "box"},
		{"clear", "clear\\nmemset x = 0\\n4 KiB", "parallelogram"},
		{"fill", "fill\\nmemset x[16..] = 0.5\\n1 KiB", "parallelogram"},
		{"neg", "neg\\nmemset m = -1\\n200 B", "parallelogram"},
		{"up", "up\\ncopy h -> x\\nHtoD 4 KiB", "cds"},
		{"down", "down\\ncopy x[512..] -> h[8..]\\nDtoH 64 B", "cds"},
		{"dd", "dd\\ncopy m -> tmp\\nDtoD 200 B", "cds"},
		{"hh", "hh\\ncopy h -> h[512..]\\nHtoH 2 KiB", "cds"},
		{"a1", "a1\\nalloc tmp\\n4 KiB", "invhouse"},
		{"f1", "f1\\nfree tmp\\n4 KiB", "house"},
		{"rec", "rec\\nevent_record done", "rarrow"},
		{"wait", "wait\\nevent_wait done", "larrow"},
		{"say", "say\\nhost print \"hello\"", "hexagon"},
		{"nap", "nap\\nhost sleep 100 us", "hexagon"},
		{"show", "show\\nhost dump h", "hexagon"},
		{"join", "join\\nempty", "circle"},
	};
	ck_assert_int_eq(agnnodes(dot), (int)(sizeof want / sizeof *want));
	ck_assert_int_eq(agnedges(dot), 0);
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		Agnode_t *n = node_named(dot, want[i].id);
		ck_assert_str_eq(attr(n, "label"), want[i].label);
		ck_assert_str_eq(attr(n, "shape"), want[i].shape);
	}
	agclose(dot);
	gdef_free(g);
}
END_TEST

START_TEST(test_clusters)
{
	struct gdef *g = new_def("cond.yaml");
	g->name = gdef_strdup(cur, "cond");
	struct node *pre = add(g->root, NK_EMPTY, "pre");
	struct node *loop = cond(g->root, NK_WHILE, "loop", "again");
	dep(loop, pre);
	struct graph *body = add_body(loop);
	struct node *inc = kernel(body, "inc", "k.inc", 1, 1);
	struct node *test = cond(body, NK_IF, "test", "odd");
	dep(test, inc);
	struct graph *then = add_body(test);
	kernel(then, "t1", "k.t", 1, 1);
	struct graph *els = add_body(test);
	struct node *e1 = add(els, NK_EMPTY, "e1");
	struct node *e2 = kernel(els, "e2", "k.e", 1, 1);
	dep(e2, e1);
	struct node *sw = cond(g->root, NK_SWITCH, "pick", "which");
	dep(sw, loop);
	kernel(add_body(sw), "c0", "k.c0", 1, 1);
	add_body(sw);       /* case 1: empty */
	struct node *child = add(g->root, NK_GRAPH, "sub");
	dep(child, sw);
	struct graph *cg = add_body(child);
	struct node *s1 = kernel(cg, "s1", "k.s", 1, 1);
	struct node *s2 = kernel(cg, "s2", "k.s", 1, 1);
	dep(s2, s1);

	Agraph_t *dot = describe_read(g, false);
	ck_assert_str_eq(attr(dot, "compound"), "true");
	ck_assert_str_eq(attr(node_named(dot, "loop"), "label"), "loop\\nwhile again");
	ck_assert_str_eq(attr(node_named(dot, "test"), "label"), "test\\nif odd");
	ck_assert_str_eq(attr(node_named(dot, "pick"), "label"), "pick\\nswitch which\\n2 cases");
	ck_assert_str_eq(attr(node_named(dot, "sub"), "label"), "sub\\ngraph\\n2 nodes");

	/* Clusters nest like the bodies and hold exactly their nodes. */
	Agraph_t *cl = subgraph(dot, "cluster_loop_0");
	ck_assert_str_eq(attr(cl, "label"), "body");
	ck_assert_int_eq(agnnodes(cl), 5);      /* inc, test, t1, e1, e2 */
	Agraph_t *ct = subgraph(cl, "cluster_test_0");
	Agraph_t *ce = subgraph(cl, "cluster_test_1");
	ck_assert_str_eq(attr(ct, "label"), "then");
	ck_assert_str_eq(attr(ce, "label"), "else");
	ck_assert_ptr_nonnull(agnode(ct, (char *)"t1", 0));
	ck_assert_ptr_null(agnode(ct, (char *)"e1", 0));
	ck_assert_int_eq(agnnodes(ce), 2);
	ck_assert_ptr_null(agsubg(dot, (char *)"cluster_test_0", 0));
	Agraph_t *c0 = subgraph(dot, "cluster_pick_0");
	Agraph_t *c1 = subgraph(dot, "cluster_pick_1");
	ck_assert_str_eq(attr(c0, "label"), "case 0");
	ck_assert_str_eq(attr(c1, "label"), "case 1");
	Agraph_t *cs = subgraph(dot, "cluster_sub_0");
	ck_assert_str_eq(attr(cs, "label"), "graph");
	ck_assert_int_eq(agnnodes(cs), 2);

	/* Each body is linked from its node to an entry node, clipped at the cluster. */
	static const struct {
		const char *from, *to, *cluster;
	} links[] = {
		{"loop", "inc", "cluster_loop_0"},
		{"test", "t1", "cluster_test_0"},
		{"test", "e1", "cluster_test_1"},
		{"pick", "c0", "cluster_pick_0"},
		{"pick", "cluster_pick_1_empty", "cluster_pick_1"},
		{"sub", "s1", "cluster_sub_0"},
	};
	for (size_t i = 0; i < sizeof links / sizeof *links; i++) {
		Agedge_t *e = edge(dot, links[i].from, links[i].to);
		ck_assert_msg(e != NULL, "no link %s -> %s", links[i].from, links[i].to);
		ck_assert_str_eq(attr(e, "lhead"), links[i].cluster);
	}
	/* The empty case's placeholder lives in its cluster. */
	Agnode_t *ph = agnode(c1, (char *)"cluster_pick_1_empty", 0);
	ck_assert_ptr_nonnull(ph);
	ck_assert_str_eq(attr(ph, "label"), "(empty)");

	/* Dependencies stay plain edges, inside their graph. */
	ck_assert_ptr_nonnull(edge(dot, "pre", "loop"));
	ck_assert_str_eq(attr(edge(dot, "pre", "loop"), "lhead"), "");
	ck_assert_ptr_nonnull(agedge(cl, node_named(dot, "inc"), node_named(dot, "test"), NULL, 0));
	ck_assert_ptr_nonnull(agedge(ce, node_named(dot, "e1"), node_named(dot, "e2"), NULL, 0));
	ck_assert_ptr_nonnull(agedge(cs, node_named(dot, "s1"), node_named(dot, "s2"), NULL, 0));
	ck_assert_ptr_nonnull(edge(dot, "loop", "pick"));
	ck_assert_ptr_nonnull(edge(dot, "pick", "sub"));
	/* 12 graph nodes + 1 placeholder; 6 dependencies + 6 links. */
	ck_assert_int_eq(agnnodes(dot), 13);
	ck_assert_int_eq(agnedges(dot), 12);
	agclose(dot);
	gdef_free(g);
}
END_TEST

START_TEST(test_buffers)
{
	struct gdef *g = new_def("bufs.yaml");
	add_buffer(g, "x", ET_F32, 256, MEM_DEVICE);
	add_buffer(g, "h", ET_F32, 256, MEM_HOST);
	add_buffer(g, "tmp", ET_I32, 64, MEM_GRAPH);
	add_buffer(g, "unused", ET_U8, 1, MEM_MANAGED);
	struct node *al = add(g->root, NK_ALLOC, "a");
	al->u.buffer = ref("tmp", 2);
	struct node *up = add(g->root, NK_COPY, "up");
	up->u.copy.from.buffer = ref("h", 1);
	up->u.copy.to.buffer = ref("x", 0);
	up->u.copy.count = 256;
	struct node *z = add(g->root, NK_MEMSET, "z");
	z->u.memset.buffer = ref("tmp", 2);
	z->u.memset.count = 64;
	struct node *k = kernel(g->root, "k", "m.f", 1, 256);
	kernel_buffer_arg(g, k, "x");
	kernel_buffer_arg(g, k, "tmp");
	kernel_buffer_arg(g, k, "x");   /* twice: one edge */
	struct node *fr = add(g->root, NK_FREE, "f");
	fr->u.buffer = ref("tmp", 2);
	struct node *same = add(g->root, NK_COPY, "same");
	same->u.copy.from.buffer = ref("h", 1);
	same->u.copy.to.buffer = ref("h", 1);
	same->u.copy.to.offset = 128;
	same->u.copy.count = 128;
	struct node *hd = add(g->root, NK_HOST, "show");
	hd->u.host.action = HOST_DUMP;
	hd->u.host.buffer = ref("h", 1);
	dep(up, al);
	dep(z, up);
	dep(k, z);
	dep(fr, k);

	/* Without the option: no buffer nodes. */
	Agraph_t *plain = describe_read(g, false);
	ck_assert_int_eq(agnnodes(plain), 7);
	ck_assert_int_eq(agnedges(plain), 4);
	ck_assert_ptr_null(agnode(plain, (char *)"buf_x", 0));
	agclose(plain);

	Agraph_t *dot = describe_read(g, true);
	ck_assert_int_eq(agnnodes(dot), 11);
	Agnode_t *bx = node_named(dot, "buf_x");
	ck_assert_str_eq(attr(bx, "shape"), "cylinder");
	ck_assert_str_eq(attr(bx, "label"), "x\\nf32 x 256 (1 KiB)\\ndevice");
	ck_assert_str_eq(attr(node_named(dot, "buf_tmp"), "label"), "tmp\\ni32 x 64 (256 B)\\ngraph");
	ck_assert_str_eq(attr(node_named(dot, "buf_unused"), "label"),
			 "unused\\nu8 x 1 (1 B)\\nmanaged");
	ck_assert_ptr_null(agfstedge(dot, node_named(dot, "buf_unused")));
	/* labels clear of the shapes' corners and curves */
	ck_assert_str_eq(attr(bx, "margin"), "0.11,0.1");
	ck_assert_str_eq(attr(node_named(dot, "up"), "margin"), "0.2,0.1");
	ck_assert_str_eq(attr(node_named(dot, "k"), "margin"), "");

	/*
	 * Reads from the buffer, writes into it; a kernel whose module is not
	 * known neither way (no arrowheads).  The first use of each buffer
	 * places it (constraint), every other is drawn without moving it.
	 */
	static const struct {
		const char *tail, *head, *dir, *style, *constraint;
	} want[] = {
		{"a", "buf_tmp", "", "dotted", ""},             /* alloc makes it */
		{"buf_h", "up", "", "dashed", ""},              /* copy: from -> node -> to */
		{"up", "buf_x", "", "dashed", ""},
		{"z", "buf_tmp", "", "dashed", "false"},        /* memset writes */
		{"k", "buf_x", "none", "dashed", "false"},      /* kernel args: not known */
		{"k", "buf_tmp", "none", "dashed", "false"},
		{"buf_tmp", "f", "", "dotted", "false"},        /* free ends it */
		{"same", "buf_h", "both", "dashed", "false"},   /* reads and writes h */
		{"buf_h", "show", "", "dashed", "false"},       /* dump reads */
	};
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		Agedge_t *e = edge(dot, want[i].tail, want[i].head);
		ck_assert_msg(e != NULL, "no edge %s -> %s", want[i].tail, want[i].head);
		ck_assert_str_eq(attr(e, "style"), want[i].style);
		ck_assert_str_eq(attr(e, "constraint"), want[i].constraint);
		ck_assert_str_eq(attr(e, "dir"), want[i].dir);
		ck_assert_ptr_null(edge(dot, want[i].head, want[i].tail));
	}
	/* 4 dependencies + 9 buffer edges (the repeated arg adds none). */
	ck_assert_int_eq(agnedges(dot), 13);
	ck_assert_str_eq(attr(edge(dot, "a", "up"), "style"), "");
	ck_assert_str_eq(attr(edge(dot, "a", "up"), "constraint"), "");
	agclose(dot);
	gdef_free(g);
}
END_TEST

START_TEST(test_deterministic)
{
	/* Many clusters: their order must follow the file, not the heap. */
	struct gdef *g = new_def("many.yaml");
	char id[32];
	for (int i = 0; i < 40; i++) {
		snprintf(id, sizeof id, "n%02d", 39 - i);
		struct node *n = cond(g->root, NK_IF, id, "c");
		snprintf(id, sizeof id, "body%02d", 39 - i);
		kernel(add_body(n), id, "k.f", 1, 1);
	}
	char *a = describe_text(g, true);
	char *b = describe_text(g, true);
	ck_assert_msg(strcmp(a, b) == 0, "two writes of the same definition differ");
	/* Names are plain strings, never written as HTML-like <...>. */
	ck_assert_ptr_null(strchr(a, '<'));
	const char *prev = a;
	for (int i = 0; i < 40; i++) {
		snprintf(id, sizeof id, "subgraph cluster_n%02d_0 {", 39 - i);
		const char *at = strstr(a, id);
		ck_assert_msg(at != NULL && at > prev, "%s missing or out of order", id);
		prev = at;
	}
	free(a);
	free(b);
	gdef_free(g);
}
END_TEST

START_TEST(test_names)
{
	/* No name: the file's base name; made-up names avoid the ids in use. */
	struct gdef *g = new_def("some/dir/my-graph.yaml");
	add_buffer(g, "x", ET_U8, 16, MEM_DEVICE);
	struct node *a = add(g->root, NK_MEMSET, "buf_x");
	a->u.memset.buffer = ref("x", 0);
	a->u.memset.count = 16;
	struct node *s = cond(g->root, NK_WHILE, "w", "c");
	add_body(s);
	add(g->root, NK_EMPTY, "cluster_w_0_empty");

	Agraph_t *dot = describe_read(g, true);
	ck_assert_str_eq(agnameof(dot), "my-graph");
	ck_assert_str_eq(attr(dot, "label"), "my-graph");
	ck_assert_str_eq(attr(node_named(dot, "buf_x"), "label"), "buf_x\\nmemset x = 0\\n16 B");
	ck_assert_str_eq(attr(node_named(dot, "buf_x_2"), "shape"), "cylinder");
	ck_assert_ptr_nonnull(edge(dot, "buf_x", "buf_x_2"));
	ck_assert_str_eq(attr(node_named(dot, "cluster_w_0_empty"), "label"),
			 "cluster_w_0_empty\\nempty");
	Agraph_t *c = subgraph(dot, "cluster_w_0");
	ck_assert_ptr_nonnull(agnode(c, (char *)"cluster_w_0_empty_2", 0));
	ck_assert_ptr_null(agnode(c, (char *)"cluster_w_0_empty", 0));
	ck_assert_int_eq(agnnodes(dot), 5);
	agclose(dot);
	gdef_free(g);
}
END_TEST

START_TEST(test_escaping)
{
	struct gdef *g = new_def("esc.yaml");
	g->name = gdef_strdup(cur, "quote \" and \\N");
	struct node *h = add(g->root, NK_HOST, "p");
	h->u.host.action = HOST_PRINT;
	h->u.host.text = gdef_strdup(cur, "a \"b\" \\n\nc\td");
	struct node *l = add(g->root, NK_HOST, "long");
	l->u.host.action = HOST_PRINT;
	/* 39 ASCII bytes, then a 2-byte character across the 40-byte cut */
	l->u.host.text = gdef_strdup(cur, "012345678901234567890123456789012345678\xc3\xa9tail");

	/*
	 * Ids DOT must quote, and one starting with '%', which libcgraph's
	 * reader takes for a local name (so it is found by its label here).
	 */
	struct node *pct = add(g->root, NK_EMPTY, "%odd");
	struct node *sp = add(g->root, NK_EMPTY, "a b");
	dep(sp, pct);
	char *text = describe_text(g, false);
	ck_assert_ptr_nonnull(strstr(text, "\"%odd\" -> \"a b\";"));
	free(text);

	Agraph_t *dot = describe_read(g, false);
	ck_assert_str_eq(agnameof(dot), "quote \" and \\N");
	Agnode_t *an = node_named(dot, "a b");
	ck_assert_str_eq(attr(an, "label"), "a b\\nempty");
	Agedge_t *in = agfstin(dot, an);
	ck_assert_ptr_nonnull(in);
	ck_assert_str_eq(attr(agtail(in), "label"), "%odd\\nempty");
	ck_assert_int_eq(agnnodes(dot), 4);
	ck_assert_str_eq(attr(dot, "label"), "quote \" and \\\\N");
	ck_assert_str_eq(attr(node_named(dot, "p"), "label"),
			 "p\\nhost print \"a \"b\" \\\\n\\nc d\"");
	ck_assert_str_eq(attr(node_named(dot, "long"), "label"),
			 "long\\nhost print \"012345678901234567890123456789012345678...\"");
	agclose(dot);
	gdef_free(g);
}
END_TEST

START_TEST(test_trailing_backslash)
{
	/* Names ending in a backslash, which agwrite would let escape their quote. */
	struct gdef *g = new_def("bs.yaml");
	g->name = gdef_strdup(cur, "g\\");
	add_buffer(g, "b\\", ET_U8, 4, MEM_DEVICE);
	struct node *one = add(g->root, NK_MEMSET, "a\\");
	one->u.memset.buffer = ref("b\\", 0);
	one->u.memset.count = 4;
	struct node *two = add(g->root, NK_EMPTY, "a\\\\");
	dep(two, one);

	Agraph_t *dot = describe_read(g, true);
	ck_assert_str_eq(attr(dot, "label"), "g\\\\");
	ck_assert_int_eq(agnnodes(dot), 3);
	Agnode_t *an = node_named(dot, "a\\\\");
	ck_assert_str_eq(attr(an, "label"), "a\\\\\\\\\\nempty");
	Agedge_t *in = agfstin(dot, an);
	ck_assert_ptr_nonnull(in);
	ck_assert_str_eq(attr(agtail(in), "label"), "a\\\\\\nmemset b\\\\ = 0\\n4 B");
	agclose(dot);
	gdef_free(g);
}
END_TEST

START_TEST(test_write_error)
{
	FILE *full = fopen("/dev/full", "w");
	if (full == NULL)
		return;         /* no /dev/full here: nothing to test */
	struct gdef *g = new_def("err.yaml");
	for (int i = 0; i < 200; i++) {
		char id[16];
		snprintf(id, sizeof id, "n%d", i);
		add(g->root, NK_EMPTY, id);
	}
	struct describe_opts o = {0};
	ck_assert_int_eq(describe_write(g, &o, full), -1);
	fclose(full);
	gdef_free(g);
}
END_TEST

START_TEST(test_buffer_access)
{
	struct gdef *g = new_def("access.yaml");
	add_buffer(g, "x", ET_F32, 256, MEM_DEVICE);
	add_buffer(g, "y", ET_F32, 256, MEM_DEVICE);
	add_buffer(g, "s", ET_F32, 256, MEM_DEVICE);
	add_buffer(g, "p", ET_I32, 1, MEM_DEVICE);
	long builtin = add_module(g, "builtin", NULL);
	long v = add_module(g, "v", TOP_SRCDIR "/examples/kernels/vector.ptx");
	/* reverse_add(const float *a, float *b, int n): reads a, writes b */
	struct node *ra = kernel(g->root, "ra", "v.reverse_add", 1, 256);
	kernel_of(ra, "v", v, "reverse_add");
	kernel_buffer_arg(g, ra, "x");
	kernel_buffer_arg(g, ra, "y");
	kernel_i32_arg(ra, 256);
	/* the file's word over the module's: y read and written */
	struct node *ra2 = kernel(g->root, "ra2", "v.reverse_add", 1, 256);
	kernel_of(ra2, "v", v, "reverse_add");
	kernel_access_arg(g, ra2, "y", ARG_ACCESS_READWRITE);
	kernel_buffer_arg(g, ra2, "x");
	kernel_i32_arg(ra2, 256);
	/* a kernel the module does not have: only the file's words count */
	struct node *hk = kernel(g->root, "hk", "v.nosuch", 1, 1);
	kernel_of(hk, "v", v, "nosuch");
	kernel_access_arg(g, hk, "x", ARG_ACCESS_WRITE);
	struct arg *st = kernel_add_arg(hk);
	st->kind = ARG_STRUCT;
	st->nfields = 2;
	st->fields = arena_alloc(&g->arena, 2 * sizeof *st->fields);
	st->fields[0] = (struct arg){.kind = ARG_SCALAR, .type = ET_I32};
	st->fields[1] = (struct arg){.kind = ARG_BUFFER, .access = ARG_ACCESS_READ,
				     .ref = ref("s", buffer_idx(g, "s"))};
	kernel_buffer_arg(g, hk, "y");
	/* the built-in countdown decrements its counter: reads and writes it */
	struct node *tick = kernel(g->root, "tick", "builtin.countdown", 1, 1);
	kernel_of(tick, "builtin", builtin, "countdown");
	struct arg *h = kernel_add_arg(tick);
	h->kind = ARG_HANDLE;
	kernel_buffer_arg(g, tick, "p");

	Agraph_t *dot = describe_read(g, true);
	static const struct {
		const char *tail, *head, *dir;
	} want[] = {
		{"buf_x", "ra", ""},            /* read */
		{"ra", "buf_y", ""},            /* written */
		{"ra2", "buf_y", "both"},       /* access: readwrite */
		{"ra2", "buf_x", ""},           /* the module: written */
		{"hk", "buf_x", ""},            /* access: write */
		{"buf_s", "hk", ""},            /* a struct field's access: read */
		{"hk", "buf_y", "none"},        /* nobody knows */
		{"tick", "buf_p", "both"},      /* builtin.countdown */
	};
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		Agedge_t *e = edge(dot, want[i].tail, want[i].head);
		ck_assert_msg(e != NULL, "no edge %s -> %s", want[i].tail, want[i].head);
		ck_assert_str_eq(attr(e, "dir"), want[i].dir);
		ck_assert_str_eq(attr(e, "style"), "dashed");
		ck_assert_ptr_null(edge(dot, want[i].head, want[i].tail));
	}
	agclose(dot);
	gdef_free(g);
}
END_TEST

START_TEST(test_buffer_order)
{
	struct gdef *g = new_def("order.yaml");
	add_buffer(g, "a", ET_F32, 16, MEM_DEVICE);
	add_buffer(g, "b", ET_F32, 16, MEM_DEVICE);
	add_buffer(g, "c", ET_F32, 16, MEM_DEVICE);
	add_buffer(g, "d", ET_F32, 16, MEM_DEVICE);
	add_buffer(g, "e", ET_F32, 16, MEM_DEVICE);
	struct node *k1 = kernel(g->root, "k1", "m.f", 1, 1);
	kernel_access_arg(g, k1, "b", ARG_ACCESS_READ);
	kernel_access_arg(g, k1, "a", ARG_ACCESS_READ);
	kernel_access_arg(g, k1, "e", ARG_ACCESS_WRITE);
	struct node *k2 = kernel(g->root, "k2", "m.f", 1, 1);
	kernel_access_arg(g, k2, "a", ARG_ACCESS_READ);
	kernel_access_arg(g, k2, "c", ARG_ACCESS_WRITE);
	dep(k2, k1);

	Agraph_t *dot = describe_read(g, true);
	/* b and a above k1 (read first), e below it: each ranked by its first use */
	ck_assert_str_eq(attr(edge(dot, "buf_b", "k1"), "constraint"), "");
	ck_assert_str_eq(attr(edge(dot, "buf_a", "k1"), "constraint"), "");
	ck_assert_str_eq(attr(edge(dot, "k1", "buf_e"), "constraint"), "");
	ck_assert_str_eq(attr(edge(dot, "buf_a", "k2"), "constraint"), "false");
	ck_assert_str_eq(attr(edge(dot, "k2", "buf_c"), "constraint"), "");
	/* b left of a, on the same side of k1: an invisible flat edge; none across sides */
	Agedge_t *ba = edge(dot, "buf_b", "buf_a");
	ck_assert_ptr_nonnull(ba);
	ck_assert_str_eq(attr(ba, "style"), "invis");
	ck_assert_str_eq(attr(ba, "minlen"), "0");
	ck_assert_ptr_null(edge(dot, "buf_a", "buf_e"));
	ck_assert_ptr_null(agfstedge(dot, node_named(dot, "buf_d")));
	/* the flow weighs more than the data */
	ck_assert_str_eq(attr(edge(dot, "k1", "k2"), "weight"), "4");

	/* and so dot lays it out: b left of a above k1, e below k1, c below k2 */
	GVC_t *gvc = gvContext();
	ck_assert_int_eq(gvLayout(gvc, dot, "dot"), 0);
	attach_attrs(dot);
	struct {
		const char *name;
		double x, y;
	} at[] = {{"buf_b", 0, 0}, {"buf_a", 0, 0}, {"k1", 0, 0}, {"buf_e", 0, 0}, {"k2", 0, 0},
		  {"buf_c", 0, 0}};
	for (size_t i = 0; i < sizeof at / sizeof *at; i++)
		ck_assert_int_eq(sscanf(attr(node_named(dot, at[i].name), "pos"), "%lf,%lf",
					&at[i].x, &at[i].y), 2);
	ck_assert_double_lt(at[0].x, at[1].x);
	ck_assert_double_eq(at[0].y, at[1].y);
	ck_assert_double_gt(at[1].y, at[2].y);  /* dot's y grows upwards */
	ck_assert_double_lt(at[3].y, at[2].y);
	ck_assert_double_lt(at[5].y, at[4].y);
	gvFreeLayout(gvc, dot);
	gvFreeContext(gvc);
	agclose(dot);
	/* and only in the buffer diagram */
	dot = describe_read(g, false);
	ck_assert_str_eq(attr(edge(dot, "k1", "k2"), "weight"), "");
	agclose(dot);
	gdef_free(g);
}
END_TEST

static Suite *describe_suite(void)
{
	Suite *s = suite_create("describe");
	TCase *tc = tcase_create("dot");
	tcase_add_test(tc, test_chain);
	tcase_add_test(tc, test_labels);
	tcase_add_test(tc, test_clusters);
	tcase_add_test(tc, test_buffers);
	tcase_add_test(tc, test_buffer_access);
	tcase_add_test(tc, test_buffer_order);
	tcase_add_test(tc, test_deterministic);
	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_escaping);
	tcase_add_test(tc, test_trailing_backslash);
	tcase_add_test(tc, test_write_error);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_MAIN(describe_suite)
