/*
 * Unit tests for src/validate.c.  Models are built by hand (as the loader
 * would fill them, positions included) so that each rule is tested alone;
 * every test asserts the exact messages and the fields the validator fills.
 */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "diag.h"
#include "load.h"
#include "model.h"
#include "strmap.h"
#include "validate.h"
#include "xmalloc.h"
#include "unit.h"

#define MODULE_FILE TOP_SRCDIR "/tests/errors/kernels/k.ptx"

static struct pos P(uint32_t line, uint32_t col)
{
	return (struct pos){line, col};
}

/* The definition being built, whose arena holds the helpers' strings. */
static struct gdef *cur;

/* A definition as the loader leaves it: the built-in module first. */
static struct gdef *new_gdef(void)
{
	struct gdef *g = cur = gdef_new("t.yaml");
	struct module *m = VEC_PUSH(g->modules, g->nmodules, g->capmodules);
	m->name = gdef_strdup(cur, "builtin");
	m->builtin = true;
	return g;
}

static struct module *add_module(struct gdef *g, const char *name, const char *file,
				 struct pos p)
{
	struct module *m = VEC_PUSH(g->modules, g->nmodules, g->capmodules);
	m->name = gdef_strdup(cur, name);
	m->pos = p;
	m->file = gdef_strdup(cur, file);
	m->file_pos = P(p.line, p.col + 3);
	return m;
}

static struct buffer *add_buffer(struct gdef *g, const char *name, enum elem_type t,
				 uint64_t count, enum mem_kind mem, struct pos p)
{
	struct buffer *b = VEC_PUSH(g->buffers, g->nbuffers, g->capbuffers);
	b->name = gdef_strdup(cur, name);
	b->pos = p;
	b->type = t;
	b->has_count = true;
	b->count = count;
	b->count_pos = P(p.line, p.col + 10);
	b->memory = mem;
	b->init.pos = P(p.line, p.col + 20);
	return b;
}

static struct condition *add_condition(struct gdef *g, const char *name, struct pos p)
{
	struct condition *c = VEC_PUSH(g->conditions, g->nconditions, g->capconditions);
	c->name = gdef_strdup(cur, name);
	c->pos = p;
	c->user = -1;
	return c;
}

static struct event *add_event(struct gdef *g, const char *name, struct pos p)
{
	struct event *e = VEC_PUSH(g->events, g->nevents, g->capevents);
	e->name = gdef_strdup(cur, name);
	e->pos = p;
	return e;
}

static struct node *node(struct graph *gr, enum node_kind k, const char *id, struct pos p)
{
	struct node *n = graph_add_node(gr, k);
	if (id) {
		n->id = gdef_strdup(cur, id);
		n->id_given = true;
	}
	n->pos = n->id_pos = n->kind_pos = p;
	return n;
}

static void set_ref(struct name_ref *r, const char *name, struct pos p)
{
	r->name = gdef_strdup(cur, name);
	r->pos = p;
	r->idx = -1;
}

static void after(struct node *n, const char *id, struct pos p)
{
	set_ref(node_add_after(n), id, p);
}

static void edge(struct graph *gr, const char *from, const char *to, struct pos p)
{
	struct edge *e = VEC_PUSH(gr->edges, gr->nedges, gr->capedges);
	set_ref(&e->from, from, p);
	set_ref(&e->to, to, P(p.line, p.col + 5));
	e->pos = p;
}

static struct node *kernel(struct graph *gr, const char *id, const char *fn, struct pos p)
{
	struct node *n = node(gr, NK_KERNEL, id, p);
	struct kernel_node *k = &n->u.kernel;
	k->function = gdef_strdup(cur, fn);
	k->function_pos = P(p.line, p.col + 1);
	for (int i = 0; i < 3; i++)
		k->grid[i] = k->block[i] = 1;
	k->grid_pos = P(p.line, p.col + 2);
	k->block_pos = P(p.line, p.col + 3);
	k->shared_pos = P(p.line, p.col + 4);
	k->args_pos = P(p.line, p.col + 5);
	return n;
}

static struct arg *add_arg(struct node *n, enum arg_kind kind, struct pos p)
{
	struct arg *a = kernel_add_arg(n);
	a->kind = kind;
	a->pos = p;
	a->ref.idx = -1;
	return a;
}

static struct arg *arg_buffer(struct node *n, const char *buf, struct pos p)
{
	struct arg *a = add_arg(n, ARG_BUFFER, p);
	set_ref(&a->ref, buf, p);
	return a;
}

static struct arg *arg_handle(struct node *n, const char *cond, struct pos p)
{
	struct arg *a = add_arg(n, ARG_HANDLE, p);
	set_ref(&a->ref, cond, p);
	return a;
}

static struct num num_u(uint64_t u, struct pos p)
{
	return (struct num){.pos = p, .kind = NUM_UINT, .u = u};
}

static struct num num_i(int64_t i, struct pos p)
{
	return (struct num){.pos = p, .kind = NUM_INT, .i = i};
}

static struct num num_f(double f, struct pos p)
{
	return (struct num){.pos = p, .kind = NUM_FLOAT, .f = f};
}

static struct arg *arg_scalar(struct node *n, enum elem_type t, struct num v, struct pos p)
{
	struct arg *a = add_arg(n, ARG_SCALAR, p);
	a->type = t;
	a->num = v;
	return a;
}

static struct node *memset_node(struct graph *gr, const char *id, const char *buf,
				struct num value, struct pos p)
{
	struct node *n = node(gr, NK_MEMSET, id, p);
	set_ref(&n->u.memset.buffer, buf, P(p.line, p.col + 1));
	n->u.memset.value = value;
	n->u.memset.offset_pos = P(p.line, p.col + 2);
	n->u.memset.count_pos = P(p.line, p.col + 3);
	return n;
}

static struct node *copy_node(struct graph *gr, const char *id, const char *from,
			      const char *to, struct pos p)
{
	struct node *n = node(gr, NK_COPY, id, p);
	set_ref(&n->u.copy.from.buffer, from, P(p.line, p.col + 1));
	set_ref(&n->u.copy.to.buffer, to, P(p.line, p.col + 2));
	n->u.copy.count_pos = P(p.line, p.col + 3);
	return n;
}

static struct node *ref_node(struct graph *gr, enum node_kind k, const char *id,
			     const char *name, struct pos p)
{
	struct node *n = node(gr, k, id, p);
	set_ref(k == NK_EVENT_RECORD || k == NK_EVENT_WAIT ? &n->u.event : &n->u.buffer,
		name, P(p.line, p.col + 1));
	return n;
}

static struct graph *add_body(struct node *n)
{
	struct graph *body = graph_new(n->graph, n);
	body->body_index = (unsigned)n->u.cond.nbodies;
	*VEC_PUSH(n->u.cond.bodies, n->u.cond.nbodies, n->u.cond.capbodies) = body;
	return body;
}

static struct node *cond_node(struct graph *gr, enum node_kind k, const char *id,
			      const char *cond, struct pos p)
{
	struct node *n = node(gr, k, id, p);
	set_ref(&n->u.cond.condition, cond, P(p.line, p.col + 1));
	return n;
}

static struct node *child_node(struct graph *gr, const char *id, struct pos p)
{
	struct node *n = node(gr, NK_GRAPH, id, p);
	n->u.child = graph_new(gr, n);
	return n;
}

/* Validate g; the messages printed, as one string (caller frees). */
static char *validate(struct gdef *g, bool *ok)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct diag d;
	diag_init(&d, "t.yaml", f);
	bool valid = gdef_validate(g, &d);
	ck_assert_int_eq(valid, d.nerrors == 0);
	diag_finish(&d);
	fclose(f);
	if (ok)
		*ok = valid;
	return buf;
}

/* Validate and compare the messages with the expected text. */
static void expect(struct gdef *g, const char *want)
{
	bool ok;
	char *got = validate(g, &ok);
	ck_assert_str_eq(got, want);
	ck_assert_int_eq(ok, strstr(want, ": error: ") == NULL);
	free(got);
}

/* Dependencies ----------------------------------------------------------- */

START_TEST(test_deps_after_and_topo)
{
	struct gdef *g = new_gdef();
	struct graph *r = g->root;
	struct node *c = node(r, NK_EMPTY, "c", P(1, 3));
	struct node *b = node(r, NK_EMPTY, "b", P(2, 3));
	struct node *a = node(r, NK_EMPTY, "a", P(3, 3));
	after(c, "b", P(1, 10));
	after(c, "a", P(1, 12));
	after(b, "a", P(2, 10));
	edge(r, "a", "c", P(5, 5));     /* a duplicate of c's after: a */
	expect(g, "");
	ck_assert_uint_eq(c->ndeps, 2);
	ck_assert_uint_eq(c->deps[0], 1);
	ck_assert_uint_eq(c->deps[1], 2);
	ck_assert_uint_eq(b->ndeps, 1);
	ck_assert_uint_eq(b->deps[0], 2);
	ck_assert_uint_eq(a->ndeps, 0);
	ck_assert_int_eq(c->after[0].idx, 1);
	ck_assert_int_eq(c->after[1].idx, 2);
	ck_assert_int_eq(r->edges[0].from.idx, 2);
	ck_assert_int_eq(r->edges[0].to.idx, 0);
	ck_assert_uint_eq(r->topo[0], 2);
	ck_assert_uint_eq(r->topo[1], 1);
	ck_assert_uint_eq(r->topo[2], 0);
	ck_assert_uint_eq(g->nall_nodes, 3);
	ck_assert_ptr_eq(g->all_nodes[0], c);
	ck_assert_int_eq(strmap_get(g->node_index, "a"), 2);
	gdef_free(g);
}
END_TEST

START_TEST(test_chain_and_edges)
{
	struct gdef *g = new_gdef();
	struct graph *r = g->root;
	r->chain = true;
	node(r, NK_EMPTY, "a", P(1, 3));
	struct node *b = node(r, NK_EMPTY, "b", P(2, 3));
	struct node *c = node(r, NK_EMPTY, "c", P(3, 3));
	struct node *d = node(r, NK_EMPTY, "d", P(4, 3));
	after(c, "a", P(3, 10));        /* with after, chain adds nothing */
	edge(r, "b", "d", P(6, 5));     /* d: chain c, edge b */
	expect(g, "");
	ck_assert_uint_eq(b->ndeps, 1);
	ck_assert_uint_eq(b->deps[0], 0);
	ck_assert_uint_eq(c->ndeps, 1);
	ck_assert_uint_eq(c->deps[0], 0);
	ck_assert_uint_eq(d->ndeps, 2);
	ck_assert_uint_eq(d->deps[0], 2);
	ck_assert_uint_eq(d->deps[1], 1);
	for (size_t i = 0; i < 4; i++)
		ck_assert_uint_eq(r->topo[i], i);
	gdef_free(g);
}
END_TEST

START_TEST(test_cycle)
{
	struct gdef *g = new_gdef();
	struct graph *r = g->root;
	struct node *a = node(r, NK_EMPTY, "a", P(1, 3));
	struct node *b = node(r, NK_EMPTY, "b", P(2, 3));
	struct node *c = node(r, NK_EMPTY, "c", P(3, 3));
	node(r, NK_EMPTY, "d", P(4, 3));
	after(a, "c", P(1, 10));
	after(b, "a", P(2, 10));
	after(c, "b", P(3, 10));
	/* a second cycle, d <-> d via an edge: reported as self-dependency */
	edge(r, "d", "d", P(6, 5));
	expect(g, "t.yaml:6:5: error: edge 'd -> d' makes node 'd' depend on itself\n"
		  "t.yaml:1:3: error: dependency cycle: a -> b -> c -> a\n");
	gdef_free(g);
}
END_TEST

START_TEST(test_two_cycles)
{
	struct gdef *g = new_gdef();
	struct graph *r = g->root;
	struct node *x = node(r, NK_EMPTY, "x", P(1, 3));
	struct node *y = node(r, NK_EMPTY, "y", P(2, 3));
	struct node *z = node(r, NK_EMPTY, "z", P(3, 3));
	struct node *p = node(r, NK_EMPTY, "p", P(4, 3));
	struct node *q = node(r, NK_EMPTY, "q", P(5, 3));
	after(x, "y", P(1, 10));
	after(y, "x", P(2, 10));
	after(z, "y", P(3, 10));        /* after a cycle, but on none */
	after(p, "q", P(4, 10));
	after(q, "p", P(5, 10));
	expect(g, "t.yaml:1:3: error: dependency cycle: x -> y -> x\n"
		  "t.yaml:4:3: error: dependency cycle: p -> q -> p\n");
	(void)z;
	gdef_free(g);
}
END_TEST

START_TEST(test_self_and_unknown)
{
	struct gdef *g = new_gdef();
	struct graph *r = g->root;
	struct node *a = node(r, NK_EMPTY, "first", P(1, 3));
	node(r, NK_EMPTY, "second", P(2, 3));
	after(a, "first", P(1, 10));
	after(a, "secnd", P(1, 12));
	after(a, "zzz", P(1, 14));
	expect(g, "t.yaml:1:10: error: node 'first' cannot depend on itself\n"
		  "t.yaml:1:12: error: unknown node 'secnd' (did you mean 'second'?)\n"
		  "t.yaml:1:14: error: unknown node 'zzz'\n");
	gdef_free(g);
}
END_TEST

START_TEST(test_after_other_graph)
{
	struct gdef *g = new_gdef();
	add_condition(g, "c", P(1, 3));
	struct graph *r = g->root;
	struct node *w = cond_node(r, NK_WHILE, "loop", "c", P(3, 3));
	struct graph *body = add_body(w);
	node(body, NK_EMPTY, "inner", P(5, 7));
	struct node *o = node(r, NK_EMPTY, "outer", P(7, 3));
	after(o, "inner", P(7, 20));
	edge(body, "outer", "inner", P(6, 9));
	expect(g, "t.yaml:7:20: error: 'inner' is not in this graph: after and edges link "
		  "nodes of the same graph\n"
		  "t.yaml:5:7: note: 'inner' is in the body of while node 'loop'\n"
		  "t.yaml:6:9: error: 'outer' is not in this graph: after and edges link "
		  "nodes of the same graph\n"
		  "t.yaml:7:3: note: 'outer' is in the root graph\n");
	ck_assert_uint_eq(g->nall_nodes, 3);
	ck_assert_ptr_eq(g->all_nodes[1]->graph, body);
	gdef_free(g);
}
END_TEST

START_TEST(test_duplicate_ids)
{
	struct gdef *g = new_gdef();
	struct graph *r = g->root;
	node(r, NK_EMPTY, "k", P(1, 3));
	node(r, NK_EMPTY, "k", P(2, 3));
	node(r, NK_EMPTY, "empty_4", P(3, 3));
	struct node *auto4 = node(r, NK_EMPTY, NULL, P(4, 3));    /* becomes empty_4 */
	expect(g, "t.yaml:2:3: error: duplicate node id 'k'\n"
		  "t.yaml:1:3: note: 'k' was first used here\n"
		  "t.yaml:4:3: error: duplicate node id 'empty_4': it is the default id of "
		  "this empty node; give the node an explicit 'id'\n"
		  "t.yaml:3:3: note: 'empty_4' was first used here\n");
	ck_assert_str_eq(auto4->id, "empty_4");
	gdef_free(g);
}
END_TEST

START_TEST(test_duplicate_names)
{
	struct gdef *g = new_gdef();
	add_buffer(g, "x", ET_U8, 1, MEM_DEVICE, P(2, 3));
	add_buffer(g, "x", ET_U8, 1, MEM_DEVICE, P(3, 3));
	add_event(g, "e", P(5, 5));
	add_event(g, "e", P(5, 8));
	add_module(g, "builtin", MODULE_FILE, P(7, 3));
	struct node *n = ref_node(g->root, NK_EVENT_RECORD, "r", "e", P(9, 3));
	(void)n;
	expect(g, "t.yaml:7:3: error: module name 'builtin' is reserved for the built-in "
		  "kernels\n"
		  "t.yaml:3:3: error: duplicate buffer name 'x'\n"
		  "t.yaml:2:3: note: 'x' was first defined here\n"
		  "t.yaml:5:8: error: duplicate event name 'e'\n"
		  "t.yaml:5:5: note: 'e' was first defined here\n");
	gdef_free(g);
}
END_TEST

/* A long chain validates in linear time; a long cycle is reported abridged. */
START_TEST(test_large_chain)
{
	enum { N = 100000 };
	struct gdef *g = new_gdef();
	g->root->chain = true;
	for (size_t i = 0; i < N; i++) {
		char id[32];
		snprintf(id, sizeof id, "n%zu", i);
		node(g->root, NK_EMPTY, id, P((uint32_t)i + 1, 3));
	}
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	expect(g, "");
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double s = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	/* A few ms normally; generous for sanitizer builds on a busy machine. */
	ck_assert_msg(s < 1.0, "validating %d nodes took %.3f s", N, s);
	for (size_t i = 0; i < N; i++)
		ck_assert_uint_eq(g->root->topo[i], i);
	ck_assert_uint_eq(g->root->nodes[N - 1]->deps[0], N - 2);

	/* close the chain into one big cycle */
	after(g->root->nodes[0], "n99999", P(1, 20));
	expect(g, "t.yaml:1:3: error: dependency cycle of 100000 nodes: n0 -> n1 -> n2 -> "
		  "n3 -> n4 -> n5 -> n6 -> n7 -> n8 -> n9 -> n10 -> n11 -> n12 -> n13 -> "
		  "... -> n99998 -> n99999 -> n0\n");
	gdef_free(g);
}
END_TEST

/* Buffers ---------------------------------------------------------------- */

START_TEST(test_buffer_sizes)
{
	struct gdef *g = new_gdef();
	struct buffer *a = add_buffer(g, "a", ET_F32, 256, MEM_DEVICE, P(1, 3));
	struct buffer *b = add_buffer(g, "b", ET_F64, 0, MEM_HOST, P(2, 3));
	b->has_count = false;
	b->has_size = true;
	b->size = 4096;
	b->size_pos = P(2, 30);
	expect(g, "");
	ck_assert_uint_eq(g->buffers[0].size, 1024);
	ck_assert_uint_eq(g->buffers[1].count, 512);
	(void)a;
	gdef_free(g);

	g = new_gdef();
	b = add_buffer(g, "both", ET_U8, 4, MEM_DEVICE, P(1, 3));
	b->has_size = true;
	b->size = 4;
	b->size_pos = P(1, 30);
	b = add_buffer(g, "none", ET_U8, 0, MEM_DEVICE, P(2, 3));
	b->has_count = false;
	b = add_buffer(g, "odd", ET_F32, 0, MEM_DEVICE, P(3, 3));
	b->has_count = false;
	b->has_size = true;
	b->size = 10;
	b->size_pos = P(3, 30);
	add_buffer(g, "zero", ET_U8, 0, MEM_DEVICE, P(4, 3));
	add_buffer(g, "huge", ET_F32, 1ull << 62, MEM_DEVICE, P(5, 3));
	add_buffer(g, "big", ET_U8, (1ull << 40) + 1, MEM_DEVICE, P(6, 3));
	add_buffer(g, "tib", ET_U8, 1ull << 40, MEM_DEVICE, P(7, 3));
	expect(g, "t.yaml:1:30: error: buffer 'both' has both 'count' and 'size': give one "
		  "of them\n"
		  "t.yaml:2:3: error: buffer 'none' needs 'count' (elements) or 'size' (bytes)\n"
		  "t.yaml:3:30: error: size 10 of buffer 'odd' is not a multiple of 4 bytes, "
		  "the size of one f32\n"
		  "t.yaml:4:13: error: buffer 'zero' has count 0: a buffer needs at least one "
		  "element\n"
		  "t.yaml:5:13: error: buffer 'huge' of 4611686018427387904 f32 elements "
		  "overflows: that is more than 2^64 bytes\n"
		  "t.yaml:6:13: error: buffer 'big' is 1099511627777 B: a buffer may be at "
		  "most 1 TiB\n");
	ck_assert_uint_eq(g->buffers[6].size, 1ull << 40);
	gdef_free(g);
}
END_TEST

START_TEST(test_buffer_init)
{
	struct gdef *g = new_gdef();
	struct buffer *b = add_buffer(g, "s", ET_U8, 4, MEM_DEVICE, P(1, 3));
	b->init.kind = INIT_SCALAR;
	b->init.scalar = num_u(300, P(1, 40));
	b = add_buffer(g, "l", ET_I8, 4, MEM_DEVICE, P(2, 3));
	b->init.kind = INIT_LIST;
	*VEC_PUSH(b->init.list, b->init.nlist, b->init.caplist) = num_i(-128, P(2, 40));
	*VEC_PUSH(b->init.list, b->init.nlist, b->init.caplist) = num_f(1.5, P(2, 45));
	*VEC_PUSH(b->init.list, b->init.nlist, b->init.caplist) = num_i(-129, P(2, 50));
	b = add_buffer(g, "io", ET_U8, 300, MEM_DEVICE, P(3, 3));
	b->init.kind = INIT_IOTA;
	b->init.start = num_u(0, P(3, 40));
	b->init.step = num_u(1, P(3, 45));
	b = add_buffer(g, "rnd", ET_F16, 4, MEM_DEVICE, P(4, 3));
	b->init.kind = INIT_RANDOM;
	b->init.min = num_f(2, P(4, 40));
	b->init.max = num_f(1, P(4, 45));
	b = add_buffer(g, "rnd2", ET_F16, 4, MEM_DEVICE, P(5, 3));
	b->init.kind = INIT_RANDOM;
	b->init.min = num_f(0, P(5, 40));
	b->init.max = num_f(1e6, P(5, 45));
	b = add_buffer(g, "tmp", ET_F32, 4, MEM_GRAPH, P(6, 3));
	b->init.kind = INIT_SCALAR;
	b->init.scalar = num_u(1, P(6, 40));
	b = add_buffer(g, "f", ET_U8, 4, MEM_DEVICE, P(7, 3));
	b->init.kind = INIT_FILE;
	b->init.file = gdef_strdup(cur, "no-such-file.bin");
	b->init.file_pos = P(7, 40);
	b = add_buffer(g, "f2", ET_U8, 4, MEM_DEVICE, P(8, 3));
	b->init.kind = INIT_FILE;
	b->init.file = gdef_strdup(cur, MODULE_FILE);
	b->init.file_pos = P(8, 40);
	b = add_buffer(g, "ok", ET_I32, 2, MEM_DEVICE, P(9, 3));
	b->init.kind = INIT_IOTA;
	b->init.start = num_i(-5, P(9, 40));
	b->init.step = num_i(-1, P(9, 45));
	add_buffer(g, "a", ET_U8, 1, MEM_DEVICE, P(10, 3))->init.kind = INIT_ZERO;
	/* the dummy module file's size is whatever it is */
	FILE *mf = fopen(MODULE_FILE, "rb");
	ck_assert_ptr_nonnull(mf);
	fseek(mf, 0, SEEK_END);
	long msize = ftell(mf);
	fclose(mf);
	char *got = validate(g, NULL);
	char *want = xasprintf(
		"t.yaml:1:40: error: init of buffer 's': 300 does not fit u8 (0 to 255)\n"
		"t.yaml:2:23: error: init of buffer 'l' has 3 values for 4 elements: give "
		"exactly 4, or one number for all\n"
		"t.yaml:2:45: error: init of buffer 'l': 1.5 is not an integer, as i8 needs\n"
		"t.yaml:2:50: error: init of buffer 'l': -129 does not fit i8 (-128 to 127)\n"
		"t.yaml:3:23: error: iota of buffer 'io' reaches 299 at its last "
		"element, which does not fit u8 (0 to 255)\n"
		"t.yaml:4:23: error: random min 2 of buffer 'rnd' is greater than its max 1\n"
		"t.yaml:5:45: error: random max of buffer 'rnd2': 1000000 does not fit f16 (at "
		"most 65504 in magnitude)\n"
		"t.yaml:6:23: error: buffer 'tmp' has 'memory: graph' and so no 'init': its "
		"memory exists only between its alloc and free nodes\n"
		"t.yaml:7:40: error: cannot read init file 'no-such-file.bin': No such file or "
		"directory\n"
		"t.yaml:8:40: error: init file '%s' has %ld bytes; buffer 'f2' has 4 (4 u8)\n"
		"t.yaml:6:3: error: buffer 'tmp' has 'memory: graph' but is never allocated: "
		"add an alloc node for it\n"
		"t.yaml:6:3: error: buffer 'tmp' has 'memory: graph' but is never freed: add "
		"a free node after its last use\n",
		MODULE_FILE, msize);
	ck_assert_str_eq(got, want);
	free(got);
	free(want);
	gdef_free(g);
}
END_TEST

/* Kernels ---------------------------------------------------------------- */

START_TEST(test_kernel_function_and_module)
{
	struct gdef *g = new_gdef();
	add_module(g, "k", MODULE_FILE, P(1, 3));
	add_module(g, "gone", "no/such.ptx", P(2, 3));
	struct graph *r = g->root;
	struct node *ok = kernel(r, "ok", "k.add_one", P(4, 3));
	kernel(r, "nodot", "add_one", P(5, 3));
	kernel(r, "typo", "kk.add_one", P(6, 3));
	kernel(r, "empty", ".f", P(7, 3));
	expect(g, "t.yaml:2:6: error: cannot read module file 'no/such.ptx': No such file "
		  "or directory\n"
		  "t.yaml:5:4: error: kernel function 'add_one' is not of the form "
		  "module.function\n"
		  "t.yaml:6:4: error: unknown module 'kk' (did you mean 'k'?)\n"
		  "t.yaml:7:4: error: kernel function '.f' is not of the form module.function\n");
	ck_assert_str_eq(ok->u.kernel.module.name, "k");
	ck_assert_int_eq(ok->u.kernel.module.idx, 1);
	ck_assert_str_eq(ok->u.kernel.func, "add_one");
	ck_assert_int_eq(strmap_get(g->module_index, "builtin"), 0);
	gdef_free(g);

	/* with one module of the user's, the fix is suggested */
	g = new_gdef();
	add_module(g, "k", MODULE_FILE, P(1, 3));
	kernel(g->root, "nodot", "add_one", P(5, 3));
	expect(g, "t.yaml:5:4: error: kernel function 'add_one' is not of the form "
		  "module.function (did you mean 'k.add_one'?)\n");
	gdef_free(g);
}
END_TEST

START_TEST(test_kernel_launch_limits)
{
	struct gdef *g = new_gdef();
	add_module(g, "k", MODULE_FILE, P(1, 3));
	struct graph *r = g->root;
	struct node *n = kernel(r, "a", "k.f", P(3, 3));
	n->u.kernel.grid[1] = 0;
	n->u.kernel.block[0] = 2048;
	n = kernel(r, "b", "k.f", P(4, 3));
	n->u.kernel.grid[2] = 65536;
	n->u.kernel.block[0] = 512;
	n->u.kernel.block[1] = 4;
	n->u.kernel.block[2] = 1;
	n->u.kernel.shared = 228 * 1024;
	n = kernel(r, "c", "k.f", P(5, 3));
	n->u.kernel.grid[0] = 2147483647u;
	n->u.kernel.block[0] = 1024;
	n->u.kernel.shared = 227 * 1024;
	expect(g, "t.yaml:3:5: error: grid y must be at least 1, found 0\n"
		  "t.yaml:3:6: error: block x of 2048 exceeds 1024, the most the driver allows\n"
		  "t.yaml:4:5: error: grid z of 65536 exceeds 65535, the most the driver allows\n"
		  "t.yaml:4:6: error: block of 2048 threads (512x4x1) exceeds 1024, the most "
		  "threads per block\n"
		  "t.yaml:4:7: error: dynamic shared memory of 228 KiB exceeds 227 KiB, the most "
		  "one block may use on sm_90\n");
	gdef_free(g);
}
END_TEST

START_TEST(test_kernel_args)
{
	struct gdef *g = new_gdef();
	add_module(g, "k", MODULE_FILE, P(1, 3));
	add_buffer(g, "x", ET_F32, 16, MEM_DEVICE, P(2, 3));
	add_buffer(g, "tmp", ET_F32, 16, MEM_GRAPH, P(3, 3));
	struct graph *r = g->root;
	ref_node(r, NK_ALLOC, "a", "tmp", P(5, 3));
	struct node *n = kernel(r, "k1", "k.f", P(6, 3));
	after(n, "a", P(6, 50));
	arg_buffer(n, "x", P(6, 10))->offset = 15;
	arg_buffer(n, "tmp", P(6, 12));
	arg_buffer(n, "y", P(6, 14));
	arg_buffer(n, "x", P(6, 16))->offset = 16;
	arg_scalar(n, ET_U8, num_u(256, P(6, 18)), P(6, 18));
	arg_scalar(n, ET_F32, num_f(0.5, P(6, 20)), P(6, 20));
	arg_handle(n, "nope", P(6, 22));
	add_arg(n, ARG_BYTES, P(6, 24));
	add_arg(n, ARG_STRUCT, P(6, 26));
	arg_buffer(n, "7", P(6, 28));
	struct node *f = ref_node(r, NK_FREE, "f", "tmp", P(7, 3));
	after(f, "k1", P(7, 50));
	expect(g, "t.yaml:6:14: error: unknown buffer 'y'\n"
		  "t.yaml:6:16: error: argument 4: offset 16 is past the end of buffer 'x' "
		  "(16 elements)\n"
		  "t.yaml:6:18: error: argument 5: 256 does not fit u8 (0 to 255)\n"
		  "t.yaml:6:22: error: unknown condition 'nope': the file declares no "
		  "conditions\n"
		  "t.yaml:6:24: error: argument 8: empty 'bytes': give at least one byte in hex\n"
		  "t.yaml:6:26: error: argument 9: empty 'struct': give at least one field\n"
		  "t.yaml:6:28: error: untyped kernel argument 10 '7': give its type, e.g. "
		  "{i32: 7} or {f32: 7}\n");
	ck_assert_int_eq(n->u.kernel.args[0].ref.idx, 0);
	ck_assert_int_eq(n->u.kernel.args[1].ref.idx, 1);
	gdef_free(g);
}
END_TEST

START_TEST(test_builtin_kernels)
{
	struct gdef *g = new_gdef();
	add_condition(g, "c", P(1, 3));
	add_buffer(g, "ctr", ET_I32, 1, MEM_DEVICE, P(2, 3));
	add_buffer(g, "small", ET_U16, 2, MEM_DEVICE, P(3, 3));
	struct graph *r = g->root;
	struct node *w = cond_node(r, NK_WHILE, "w", "c", P(5, 3));
	struct graph *body = add_body(w);
	struct node *n = kernel(body, "ok1", "builtin.countdown", P(6, 3));
	arg_handle(n, "c", P(6, 10));
	arg_buffer(n, "ctr", P(6, 12));
	n = kernel(body, "ok2", "builtin.set", P(7, 3));
	arg_handle(n, "c", P(7, 10));
	arg_scalar(n, ET_U32, num_u(1, P(7, 12)), P(7, 12));
	n = kernel(body, "bad1", "builtin.sett", P(8, 3));
	n = kernel(body, "bad2", "builtin.set", P(9, 3));
	arg_handle(n, "c", P(9, 10));
	n = kernel(body, "bad3", "builtin.set", P(10, 3));
	arg_buffer(n, "ctr", P(10, 10));
	arg_scalar(n, ET_I32, num_u(1, P(10, 12)), P(10, 12));
	n = kernel(body, "bad4", "builtin.set_from", P(11, 3));
	arg_handle(n, "c", P(11, 10));
	arg_buffer(n, "small", P(11, 12))->offset = 1;
	n = kernel(body, "bad5", "builtin.countdown", P(12, 3));
	arg_handle(n, "c", P(12, 10));
	arg_scalar(n, ET_U32, num_u(1, P(12, 12)), P(12, 12));
	n = kernel(body, "bad6", "builtin.frobnicate", P(13, 3));
	expect(g, "t.yaml:8:4: error: unknown built-in kernel 'builtin.sett' (did you mean "
		  "'builtin.set'?)\n"
		  "t.yaml:9:8: error: 'builtin.set' takes 2 arguments, {handle: c}, {u32: v}; "
		  "found 1\n"
		  "t.yaml:10:10: error: argument 1 of 'builtin.set' must be {handle: c}, found "
		  "a buffer\n"
		  "t.yaml:10:12: error: argument 2 of 'builtin.set' must be {u32: v}, found "
		  "{i32: ...}\n"
		  "t.yaml:11:12: error: 'builtin.set_from' reads a u32 (4 bytes) from buffer "
		  "'small', which has 2 bytes from offset 1\n"
		  "t.yaml:12:12: error: argument 2 of 'builtin.countdown' must be a buffer, "
		  "found a scalar\n"
		  "t.yaml:13:4: error: unknown built-in kernel 'builtin.frobnicate': the "
		  "built-in kernels are set, set_from and countdown\n");
	gdef_free(g);
}
END_TEST

/* Memset and copy -------------------------------------------------------- */

START_TEST(test_memset)
{
	struct gdef *g = new_gdef();
	add_buffer(g, "d", ET_F64, 8, MEM_DEVICE, P(1, 3));
	add_buffer(g, "u", ET_U64, 8, MEM_DEVICE, P(2, 3));
	add_buffer(g, "h", ET_U16, 8, MEM_DEVICE, P(3, 3));
	struct graph *r = g->root;
	struct node *m0 = memset_node(r, "m0", "d", num_f(0.0, P(5, 20)), P(5, 3));
	struct node *m1 = memset_node(r, "m1", "u", num_u(0x0000000500000005ull, P(6, 20)),
				      P(6, 3));
	m1->u.memset.offset = 2;
	struct node *m2 = memset_node(r, "m2", "h", num_u(7, P(7, 20)), P(7, 3));
	m2->u.memset.offset = 3;
	m2->u.memset.has_count = true;
	m2->u.memset.count = 5;
	expect(g, "");
	ck_assert_uint_eq(m0->u.memset.count, 8);
	ck_assert_uint_eq(m1->u.memset.count, 6);
	ck_assert_uint_eq(m2->u.memset.count, 5);
	ck_assert_int_eq(m0->u.memset.buffer.idx, 0);
	gdef_free(g);

	g = new_gdef();
	add_buffer(g, "d", ET_F64, 8, MEM_DEVICE, P(1, 3));
	add_buffer(g, "h", ET_U16, 8, MEM_DEVICE, P(3, 3));
	r = g->root;
	memset_node(r, "m0", "d", num_f(1.5, P(5, 20)), P(5, 3));
	memset_node(r, "m1", "h", num_u(70000, P(6, 20)), P(6, 3));
	m2 = memset_node(r, "m2", "h", num_u(1, P(7, 20)), P(7, 3));
	m2->u.memset.offset = 8;
	struct node *m3 = memset_node(r, "m3", "h", num_u(1, P(8, 20)), P(8, 3));
	m3->u.memset.offset = 4;
	m3->u.memset.has_count = true;
	m3->u.memset.count = 5;
	memset_node(r, "m4", "hh", num_u(1, P(9, 20)), P(9, 3));
	expect(g, "t.yaml:5:20: error: memset of f64 buffer 'd' cannot write 1.5: memset "
		  "nodes write 1, 2 or 4-byte words, and its bits 0x3ff8000000000000 do not "
		  "repeat every 4 bytes\n"
		  "t.yaml:6:20: error: memset value for buffer 'h': 70000 does not fit u16 "
		  "(0 to 65535)\n"
		  "t.yaml:7:5: error: memset offset 8 is past the end of buffer 'h' (8 elements)\n"
		  "t.yaml:8:6: error: memset of 5 elements from offset 4 runs past the end of "
		  "buffer 'h' (8 elements) by 1 element\n"
		  "t.yaml:9:4: error: unknown buffer 'hh' (did you mean 'h'?)\n");
	gdef_free(g);
}
END_TEST

START_TEST(test_copy)
{
	struct gdef *g = new_gdef();
	add_buffer(g, "a", ET_F32, 16, MEM_DEVICE, P(1, 3));
	add_buffer(g, "b", ET_U8, 64, MEM_HOST, P(2, 3));
	add_buffer(g, "c", ET_F32, 8, MEM_DEVICE, P(3, 3));
	struct graph *r = g->root;
	struct node *c0 = copy_node(r, "c0", "a", "b", P(5, 3));
	struct node *c1 = copy_node(r, "c1", "a", "c", P(6, 3));
	c1->u.copy.from.offset = 8;
	struct node *c2 = copy_node(r, "c2", "a", "a", P(7, 3));
	c2->u.copy.to.offset = 8;
	c2->u.copy.has_count = true;
	c2->u.copy.count = 8;
	expect(g, "");
	ck_assert_uint_eq(c0->u.copy.count, 16);
	ck_assert_uint_eq(c0->u.copy.bytes, 64);
	ck_assert_uint_eq(c1->u.copy.count, 8);
	ck_assert_uint_eq(c1->u.copy.bytes, 32);
	ck_assert_int_eq(c1->u.copy.to.buffer.idx, 2);
	gdef_free(g);

	g = new_gdef();
	add_buffer(g, "a", ET_F32, 16, MEM_DEVICE, P(1, 3));
	add_buffer(g, "c", ET_F32, 8, MEM_DEVICE, P(3, 3));
	r = g->root;
	copy_node(r, "c0", "a", "c", P(5, 3));
	c1 = copy_node(r, "c1", "a", "c", P(6, 3));
	c1->u.copy.has_count = true;
	c1->u.copy.count = 20;
	c2 = copy_node(r, "c2", "a", "a", P(7, 3));
	c2->u.copy.to.offset = 4;
	c2->u.copy.has_count = true;
	c2->u.copy.count = 8;
	struct node *c3 = copy_node(r, "c3", "c", "a", P(8, 3));
	c3->u.copy.from.offset = 8;
	c3->u.copy.from.offset_pos = P(8, 30);
	copy_node(r, "c4", "x", "a", P(9, 3));
	expect(g, "t.yaml:5:5: error: copy of 64 bytes runs past the end of buffer 'c' by 32 "
		  "bytes (it has 32 bytes from offset 0)\n"
		  "t.yaml:6:6: error: copy of 20 elements from offset 0 runs past the end of "
		  "buffer 'a' (16 elements) by 4 elements\n"
		  "t.yaml:7:5: error: copy within buffer 'a' overlaps itself: bytes 0 to 31 go to "
		  "16 to 47; copy through a second buffer\n"
		  "t.yaml:8:30: error: copy offset 8 is past the end of buffer 'c' (8 elements)\n"
		  "t.yaml:9:4: error: unknown buffer 'x'\n");
	gdef_free(g);
}
END_TEST

/* Graph memory ----------------------------------------------------------- */

START_TEST(test_graph_memory_ok)
{
	struct gdef *g = new_gdef();
	add_condition(g, "c", P(1, 3));
	add_buffer(g, "tmp", ET_F32, 16, MEM_GRAPH, P(2, 3));
	struct graph *r = g->root;
	r->chain = true;
	ref_node(r, NK_ALLOC, "a", "tmp", P(4, 3));
	memset_node(r, "m", "tmp", num_u(0, P(5, 20)), P(5, 3));
	struct node *w = cond_node(r, NK_WHILE, "w", "c", P(6, 3));
	struct node *k = kernel(add_body(w), "k", "builtin.set_from", P(7, 5));
	arg_handle(k, "c", P(7, 20));
	arg_buffer(k, "tmp", P(7, 22));
	struct node *f = ref_node(r, NK_FREE, "f", "tmp", P(8, 3));
	expect(g, "");
	ck_assert_int_eq(f->u.buffer.idx, 0);
	ck_assert_int_eq(g->conditions[0].user, 2);
	gdef_free(g);
}
END_TEST

START_TEST(test_graph_memory_errors)
{
	struct gdef *g = new_gdef();
	add_condition(g, "c", P(1, 3));
	add_buffer(g, "tmp", ET_F32, 16, MEM_GRAPH, P(2, 3));
	add_buffer(g, "never", ET_F32, 16, MEM_GRAPH, P(3, 3));
	add_buffer(g, "dev", ET_F32, 16, MEM_DEVICE, P(4, 3));
	struct graph *r = g->root;
	memset_node(r, "early", "tmp", num_u(0, P(5, 20)), P(5, 3));
	struct node *a = ref_node(r, NK_ALLOC, "a", "tmp", P(6, 3));
	struct node *w = cond_node(r, NK_WHILE, "w", "c", P(7, 3));
	after(w, "a", P(7, 30));
	struct node *k = kernel(add_body(w), "k", "builtin.set_from", P(8, 5));
	arg_handle(k, "c", P(8, 20));
	arg_buffer(k, "tmp", P(8, 22));
	struct node *f = ref_node(r, NK_FREE, "f", "tmp", P(9, 3));
	after(f, "a", P(9, 30));
	struct node *late = memset_node(r, "late", "tmp", num_u(0, P(10, 20)), P(10, 3));
	after(late, "f", P(10, 30));
	ref_node(r, NK_ALLOC, "a2", "tmp", P(11, 3));
	ref_node(r, NK_FREE, "f2", "dev", P(12, 3));
	(void)a;
	expect(g, "t.yaml:11:4: error: buffer 'tmp' is allocated twice: by node 'a' and by "
		  "node 'a2'\n"
		  "t.yaml:6:3: note: 'a' allocates it first\n"
		  "t.yaml:12:4: error: free node 'f2' needs a 'memory: graph' buffer, but buffer "
		  "'dev' has memory 'device'\n"
		  "t.yaml:5:3: error: buffer 'tmp' is used by node 'early' before its alloc node "
		  "'a'\n"
		  "t.yaml:8:5: error: buffer 'tmp' is used by node 'k' (inside 'w') after its "
		  "free node 'f'\n"
		  "t.yaml:10:3: error: buffer 'tmp' is used by node 'late' after its free node "
		  "'f'\n"
		  "t.yaml:3:3: error: buffer 'never' has 'memory: graph' but is never allocated: "
		  "add an alloc node for it\n"
		  "t.yaml:3:3: error: buffer 'never' has 'memory: graph' but is never freed: add "
		  "a free node after its last use\n");
	gdef_free(g);

	/* a free not ordered after its alloc */
	g = new_gdef();
	add_buffer(g, "tmp", ET_F32, 16, MEM_GRAPH, P(2, 3));
	ref_node(g->root, NK_ALLOC, "a", "tmp", P(6, 3));
	ref_node(g->root, NK_FREE, "f", "tmp", P(7, 3));
	expect(g, "t.yaml:7:3: error: free node 'f' of buffer 'tmp' is not ordered after its "
		  "alloc node 'a': it must depend on 'a'\n");
	gdef_free(g);
}
END_TEST

/* Driver rules ------------------------------------------------------------ */

START_TEST(test_placement)
{
	struct gdef *g = new_gdef();
	add_condition(g, "c", P(1, 3));
	add_condition(g, "d", P(1, 10));
	add_event(g, "e", P(2, 3));
	add_buffer(g, "tmp", ET_F32, 4, MEM_GRAPH, P(3, 3));
	add_buffer(g, "h", ET_F32, 4, MEM_HOST, P(3, 30));
	struct graph *r = g->root;
	struct node *i = cond_node(r, NK_IF, "i", "c", P(5, 3));
	struct graph *then = add_body(i);
	struct node *h = node(then, NK_HOST, "h1", P(6, 5));
	h->u.host.action = HOST_DUMP;
	set_ref(&h->u.host.buffer, "h", P(6, 20));
	struct graph *els = add_body(i);
	ref_node(els, NK_EVENT_RECORD, "ev", "e", P(7, 5));
	struct node *cg = child_node(then, "inner", P(8, 5));
	ref_node(cg->u.child, NK_EVENT_WAIT, "wt", "e", P(9, 7));
	struct node *g1 = child_node(r, "g1", P(10, 3));
	cond_node(g1->u.child, NK_WHILE, "w", "d", P(11, 5));
	ref_node(g1->u.child, NK_ALLOC, "al", "tmp", P(12, 5));
	ref_node(g1->u.child, NK_FREE, "fr", "tmp", P(13, 5));
	expect(g, "t.yaml:6:5: error: node 'h1' (host) cannot be in the then branch of if node "
		  "'i': conditional bodies hold only kernel, empty, memset, copy, graph, "
		  "conditional, cublas and cufft nodes\n"
		  "t.yaml:9:7: error: node 'wt' (event_wait) cannot be in the then branch of if "
		  "node 'i': conditional bodies hold only kernel, empty, memset, copy, graph, "
		  "conditional, cublas and cufft nodes\n"
		  "t.yaml:7:5: error: node 'ev' (event_record) cannot be in the else branch of if "
		  "node 'i': conditional bodies hold only kernel, empty, memset, copy, graph, "
		  "conditional, cublas and cufft nodes\n"
		  "t.yaml:11:5: error: node 'w' (while) cannot be in child graph 'g1': child "
		  "graphs hold no if, while, switch, alloc or free nodes\n"
		  "t.yaml:11:5: error: while node 'w' needs one 'body' graph\n"
		  "t.yaml:12:5: error: node 'al' (alloc) cannot be in child graph 'g1': child "
		  "graphs hold no if, while, switch, alloc or free nodes\n"
		  "t.yaml:13:5: error: node 'fr' (free) cannot be in child graph 'g1': child "
		  "graphs hold no if, while, switch, alloc or free nodes\n");
	ck_assert_uint_eq(g->nall_nodes, 9);
	/* file order: i, h1, inner, wt, ev, g1, w, al, fr */
	ck_assert_str_eq(g->all_nodes[3]->id, "wt");
	ck_assert_str_eq(g->all_nodes[4]->id, "ev");
	gdef_free(g);
}
END_TEST

/* Conditions and events ------------------------------------------------- */

START_TEST(test_conditions)
{
	struct gdef *g = new_gdef();
	add_condition(g, "c", P(1, 3));
	add_condition(g, "unused", P(2, 3));
	struct graph *r = g->root;
	struct node *w = cond_node(r, NK_WHILE, "w1", "c", P(4, 3));
	add_body(w);
	struct node *s = cond_node(r, NK_SWITCH, "s", "c", P(5, 3));
	(void)s;
	cond_node(r, NK_IF, "i", "cc", P(6, 3));
	expect(g, "t.yaml:5:4: error: condition 'c' is used by two conditional nodes, 'w1' "
		  "and 's': each condition drives exactly one if, while or switch node\n"
		  "t.yaml:4:3: note: 'w1' uses 'c' first\n"
		  "t.yaml:5:3: error: switch node 's' needs at least one graph in 'cases'\n"
		  "t.yaml:6:4: error: unknown condition 'cc' (did you mean 'c'?)\n"
		  "t.yaml:6:3: error: if node 'i' needs a 'then' graph\n");
	ck_assert_int_eq(g->conditions[0].user, 0);
	gdef_free(g);

	/* unused: reported unless a conditional node names an unknown condition */
	g = new_gdef();
	add_condition(g, "c", P(1, 3));
	add_condition(g, "unused", P(2, 3));
	add_body(cond_node(g->root, NK_WHILE, "w1", "c", P(4, 3)));
	expect(g, "t.yaml:2:3: error: condition 'unused' is not used by any if, while or switch "
		  "node\n");
	gdef_free(g);
}
END_TEST

START_TEST(test_events)
{
	struct gdef *g = new_gdef();
	add_event(g, "done", P(1, 3));
	add_event(g, "idle", P(1, 10));
	add_event(g, "lost", P(1, 20));
	struct graph *r = g->root;
	ref_node(r, NK_EVENT_RECORD, "rec", "done", P(3, 3));
	struct node *w = ref_node(r, NK_EVENT_WAIT, "wt", "done", P(4, 3));
	after(w, "rec", P(4, 30));
	ref_node(r, NK_EVENT_WAIT, "wt2", "lost", P(5, 3));
	ref_node(r, NK_EVENT_WAIT, "wt3", "dne", P(6, 3));
	expect(g, "t.yaml:6:4: error: unknown event 'dne' (did you mean 'done'?)\n"
		  "t.yaml:5:4: error: node 'wt2' waits on event 'lost', which no event_record "
		  "node records\n"
		  "t.yaml:1:10: warning: event 'idle' is declared but never recorded\n");
	gdef_free(g);

	/* a warning alone leaves the file valid */
	g = new_gdef();
	add_event(g, "idle", P(1, 10));
	expect(g, "t.yaml:1:10: warning: event 'idle' is declared but never recorded\n");
	gdef_free(g);
}
END_TEST

START_TEST(test_host)
{
	struct gdef *g = new_gdef();
	add_buffer(g, "dev", ET_F32, 4, MEM_DEVICE, P(1, 3));
	add_buffer(g, "man", ET_F32, 4, MEM_MANAGED, P(2, 3));
	struct graph *r = g->root;
	struct node *h = node(r, NK_HOST, "d1", P(4, 3));
	h->u.host.action = HOST_DUMP;
	set_ref(&h->u.host.buffer, "dev", P(4, 20));
	h = node(r, NK_HOST, "d2", P(5, 3));
	h->u.host.action = HOST_DUMP;
	set_ref(&h->u.host.buffer, "man", P(5, 20));
	h = node(r, NK_HOST, "s0", P(6, 3));
	h->u.host.action = HOST_SLEEP;
	h = node(r, NK_HOST, "s1", P(7, 3));
	h->u.host.action = HOST_SLEEP;
	h->u.host.sleep_ns = 61000000000ull;
	h = node(r, NK_HOST, "s2", P(8, 3));
	h->u.host.action = HOST_SLEEP;
	h->u.host.sleep_ns = 60000000000ull;
	h = node(r, NK_HOST, "p", P(9, 3));
	h->u.host.action = HOST_PRINT;
	h->u.host.text = gdef_strdup(cur, "hello");
	expect(g, "t.yaml:4:20: error: host node 'd1' cannot dump buffer 'dev': its memory is "
		  "'device', and a host node can reach only 'host' or 'managed' memory\n"
		  "t.yaml:6:3: error: host sleep must be longer than 0\n"
		  "t.yaml:7:3: error: host sleep of 61.0 s is too long: a host node may sleep at "
		  "most 60 s\n");
	gdef_free(g);
}
END_TEST

/* Checks and run -------------------------------------------------------- */

static struct check *add_check(struct gdef *g, const char *buf, struct pos p)
{
	struct check *c = VEC_PUSH(g->checks, g->nchecks, g->capchecks);
	c->pos = p;
	set_ref(&c->buffer, buf, P(p.line, p.col + 1));
	c->expect_pos = P(p.line, p.col + 2);
	c->rtol_pos = P(p.line, p.col + 3);
	c->atol_pos = P(p.line, p.col + 4);
	return c;
}

START_TEST(test_checks_and_run)
{
	struct gdef *g = new_gdef();
	add_buffer(g, "x", ET_I32, 3, MEM_DEVICE, P(1, 3));
	add_buffer(g, "tmp", ET_I32, 3, MEM_GRAPH, P(2, 3));
	struct graph *r = g->root;
	r->chain = true;
	ref_node(r, NK_ALLOC, "a", "tmp", P(4, 3));
	ref_node(r, NK_FREE, "f", "tmp", P(5, 3));
	struct check *c = add_check(g, "x", P(7, 3));
	c->expect = EXPECT_SCALAR;
	c->scalar = num_u(3000000000u, P(7, 20));
	c = add_check(g, "x", P(8, 3));
	c->expect = EXPECT_LIST;
	*VEC_PUSH(c->list, c->nlist, c->caplist) = num_u(1, P(8, 20));
	c->rtol = -1;
	c->atol = INFINITY;
	c = add_check(g, "tmp", P(9, 3));
	c->expect = EXPECT_SCALAR;
	c = add_check(g, "y", P(10, 3));
	c = add_check(g, "x", P(11, 3));
	c->expect = EXPECT_FILE;
	c->file = gdef_strdup(cur, "missing.bin");
	g->run.has_instantiate = true;
	g->run.instantiate = INST_DEVICE_LAUNCH | INST_AUTO_FREE_ON_LAUNCH;
	g->run.pos = P(13, 1);
	g->run.has_repeat = true;
	g->run.repeat = 0;
	expect(g, "t.yaml:7:20: error: expected value for buffer 'x': 3000000000 does not fit "
		  "i32 (-2147483648 to 2147483647)\n"
		  "t.yaml:8:5: error: check of buffer 'x' expects 1 value for 3 elements: give "
		  "exactly 3, or one number for all\n"
		  "t.yaml:8:6: error: rtol must be a finite number of 0 or more, found -1\n"
		  "t.yaml:8:7: error: atol must be a finite number of 0 or more, found inf\n"
		  "t.yaml:9:4: error: cannot check buffer 'tmp': 'memory: graph' buffers no "
		  "longer exist after the launch\n"
		  "t.yaml:10:4: error: unknown buffer 'y'\n"
		  "t.yaml:11:5: error: cannot read expect file 'missing.bin': No such file or "
		  "directory\n"
		  "t.yaml:13:1: error: instantiate flags 'device_launch' and "
		  "'auto_free_on_launch' cannot be used together\n");
	gdef_free(g);

	/* the same GPU ordinal limit as the loader and --device */
	g = new_gdef();
	g->run.pos = P(2, 1);
	g->run.has_device = true;
	g->run.device = GDEF_MAX_DEVICE;
	expect(g, "");
	g->run.device = GDEF_MAX_DEVICE + 1;
	expect(g, "t.yaml:2:1: error: device 1025 is out of range: expected a GPU ordinal "
		  "from 0 to 1024\n");
	g->run.device = -1;
	expect(g, "t.yaml:2:1: error: device -1 is out of range: expected a GPU ordinal "
		  "from 0 to 1024\n");
	gdef_free(g);
}
END_TEST

/* The cap on printed errors, and validating twice ------------------------ */

START_TEST(test_error_cap)
{
	struct gdef *g = new_gdef();
	for (uint32_t i = 0; i < 25; i++) {
		char id[16];
		snprintf(id, sizeof id, "m%u", i);
		memset_node(g->root, id, "nope", num_u(0, P(i + 1, 20)), P(i + 1, 3));
	}
	bool ok;
	char *got = validate(g, &ok);
	ck_assert(!ok);
	size_t lines = 0;
	for (const char *p = got; *p; p++)
		lines += *p == '\n';
	ck_assert_uint_eq(lines, 21);
	ck_assert_ptr_nonnull(strstr(got, "t.yaml:20:4: error: unknown buffer 'nope': the "
					  "file declares no buffers\n"
					  "t.yaml: error: 5 more errors not shown\n"));
	free(got);
	gdef_free(g);
}
END_TEST

START_TEST(test_validate_twice)
{
	struct gdef *g = new_gdef();
	g->root->chain = true;
	node(g->root, NK_EMPTY, "a", P(1, 3));
	struct node *b = node(g->root, NK_EMPTY, "b", P(2, 3));
	after(b, "a", P(2, 10));
	expect(g, "");
	expect(g, "");
	ck_assert_uint_eq(b->ndeps, 1);
	ck_assert_uint_eq(g->nall_nodes, 2);
	gdef_free(g);
}
END_TEST

/* Through the loader: YAML text in, messages out -------------------------- */

/* Load text (must load cleanly), validate, return the messages; *gp keeps the model. */
static char *load_validate(const char *text, struct gdef **gp)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct diag d;
	diag_init(&d, "t.yaml", f);
	struct gdef *g = gdef_load_string("t.yaml", text, strlen(text), NULL, &d);
	ck_assert_ptr_nonnull(g);
	ck_assert_uint_eq(d.nerrors, 0);
	bool valid = gdef_validate(g, &d);
	ck_assert_int_eq(valid, d.nerrors == 0);
	diag_finish(&d);
	fclose(f);
	if (gp)
		*gp = g;
	else
		gdef_free(g);
	return buf;
}

START_TEST(test_yaml_countdown)
{
	struct gdef *g;
	char *got = load_validate(
		"cugraphrun: 1\n"
		"buffers:\n"
		"  ctr: {type: i32, count: 1, init: 50}\n"
		"  out: {type: f32, size: 4 KiB, memory: host}\n"
		"conditions:\n"
		"  again: {default: 1}\n"
		"nodes:\n"
		"  - id: clear\n"
		"    memset: {buffer: out, value: 0}\n"
		"  - id: loop\n"
		"    after: clear\n"
		"    while:\n"
		"      condition: again\n"
		"      body:\n"
		"        - id: tick\n"
		"          kernel: {function: builtin.countdown, args: [{handle: again}, ctr]}\n"
		"  - {id: show, host: {dump: out}, after: loop}\n"
		"checks:\n"
		"  - {buffer: ctr, expect: 0}\n", &g);
	ck_assert_str_eq(got, "");
	free(got);
	ck_assert_uint_eq(g->buffers[1].count, 1024);
	ck_assert_uint_eq(g->nall_nodes, 4);
	ck_assert_str_eq(g->all_nodes[2]->id, "tick");
	const struct graph *r = g->root;
	ck_assert_uint_eq(r->nodes[1]->ndeps, 1);
	ck_assert_uint_eq(r->nodes[1]->deps[0], 0);
	ck_assert_uint_eq(r->nodes[2]->deps[0], 1);
	ck_assert_uint_eq(r->topo[0], 0);
	ck_assert_uint_eq(r->topo[2], 2);
	const struct node *tick = g->all_nodes[2];
	ck_assert_int_eq(tick->u.kernel.module.idx, 0);
	ck_assert_int_eq(tick->u.kernel.args[0].ref.idx, 0);
	ck_assert_int_eq(tick->u.kernel.args[1].ref.idx, 0);
	ck_assert_ptr_eq(tick->graph, r->nodes[1]->u.cond.bodies[0]);
	ck_assert_uint_eq(tick->graph->topo[0], 0);
	ck_assert_int_eq(g->conditions[0].user, 1);
	ck_assert_uint_eq(r->nodes[0]->u.memset.count, 1024);
	ck_assert_int_eq(g->checks[0].buffer.idx, 0);
	ck_assert_int_eq(strmap_get(g->buffer_index, "out"), 1);
	ck_assert_int_eq(strmap_get(g->condition_index, "again"), 0);
	ck_assert_int_eq(strmap_get(g->node_index, "show"), 3);
	gdef_free(g);
}
END_TEST

/* Each node's device: its own, else its graph's; how many GPUs the file needs. */
START_TEST(test_yaml_devices)
{
	struct gdef *g;
	char *got = load_validate(
		"cugraphrun: 1\n"
		"buffers:\n"
		"  n: {type: i32, count: 1, init: 2}\n"
		"  far: {type: i32, count: 4, device: 3}\n"
		"conditions:\n"
		"  again: {default: 1}\n"
		"nodes:\n"
		"  - {id: here, memset: {buffer: n, value: 2}}\n"
		"  - id: away\n"
		"    device: 1\n"
		"    after: here\n"
		"    graph:\n"
		"      - {id: inside, memset: {buffer: far, value: 1}}\n"
		"      - {id: back, memset: {buffer: far, value: 2}, device: 0, after: inside}\n"
		"  - id: loop\n"
		"    device: 2\n"
		"    after: away\n"
		"    while:\n"
		"      condition: again\n"
		"      body:\n"
		"        - {id: tick, kernel: {function: builtin.countdown, args: [{handle: again}, n]}}\n",
		&g);
	ck_assert_str_eq(got, "");
	free(got);
	static const char *const ids[] = {"here", "away", "inside", "back", "loop", "tick"};
	static const unsigned devs[] = {0, 1, 1, 0, 2, 2};
	ck_assert_ptr_nonnull(g->device_of);
	ck_assert_uint_eq(g->nall_nodes, 6);
	for (size_t i = 0; i < 6; i++) {
		ck_assert_str_eq(g->all_nodes[i]->id, ids[i]);
		ck_assert_uint_eq(node_device(g, g->all_nodes[i]), devs[i]);
	}
	ck_assert_uint_eq(g->conditions[0].device, 2);
	/* the buffer on device 3 makes it four GPUs */
	ck_assert_uint_eq(g->ndevices, 4);
	gdef_free(g);
	/* a file that names no device needs one, and keeps no table */
	got = load_validate("cugraphrun: 1\nnodes: [{empty: }]\n", &g);
	ck_assert_str_eq(got, "");
	free(got);
	ck_assert_ptr_null(g->device_of);
	ck_assert_uint_eq(g->ndevices, 1);
	ck_assert_uint_eq(node_device(g, g->all_nodes[0]), 0);
	gdef_free(g);
}
END_TEST

START_TEST(test_yaml_errors)
{
	char *got = load_validate(
		"cugraphrun: 1\n"
		"buffers:\n"
		"  tmp: {type: f32, count: 16, memory: graph}\n"
		"nodes:\n"
		"  edges: [\"a -> f\", \"f -> use -> a\"]\n"
		"  nodes:\n"
		"    - {id: a, alloc: tmp}\n"
		"    - {id: use, memset: {buffer: tmp, value: 1.5}}\n"
		"    - {id: f, free: tmp}\n", NULL);
	ck_assert_str_eq(got,
		"t.yaml:7:7: error: dependency cycle: a -> f -> use -> a\n");
	free(got);

	got = load_validate(
		"cugraphrun: 1\n"
		"buffers:\n"
		"  tmp: {type: f32, count: 16, memory: graph}\n"
		"nodes:\n"
		"  chain: true\n"
		"  nodes:\n"
		"    - {id: use, memset: {buffer: tmp, value: 0}}\n"
		"    - {id: a, alloc: tmp}\n"
		"    - {id: f, free: tmp}\n", NULL);
	ck_assert_str_eq(got,
		"t.yaml:7:17: error: buffer 'tmp' is used by node 'use' before its alloc node 'a'\n");
	free(got);
}
END_TEST

static Suite *validate_suite(void)
{
	Suite *s = suite_create("validate");
	TCase *tc = tcase_create("deps");
	tcase_add_test(tc, test_deps_after_and_topo);
	tcase_add_test(tc, test_chain_and_edges);
	tcase_add_test(tc, test_cycle);
	tcase_add_test(tc, test_two_cycles);
	tcase_add_test(tc, test_self_and_unknown);
	tcase_add_test(tc, test_after_other_graph);
	tcase_add_test(tc, test_duplicate_ids);
	tcase_add_test(tc, test_duplicate_names);
	tcase_add_test(tc, test_large_chain);
	tcase_set_timeout(tc, 30);
	suite_add_tcase(s, tc);
	tc = tcase_create("buffers");
	tcase_add_test(tc, test_buffer_sizes);
	tcase_add_test(tc, test_buffer_init);
	suite_add_tcase(s, tc);
	tc = tcase_create("nodes");
	tcase_add_test(tc, test_kernel_function_and_module);
	tcase_add_test(tc, test_kernel_launch_limits);
	tcase_add_test(tc, test_kernel_args);
	tcase_add_test(tc, test_builtin_kernels);
	tcase_add_test(tc, test_memset);
	tcase_add_test(tc, test_copy);
	tcase_add_test(tc, test_host);
	suite_add_tcase(s, tc);
	tc = tcase_create("rules");
	tcase_add_test(tc, test_graph_memory_ok);
	tcase_add_test(tc, test_graph_memory_errors);
	tcase_add_test(tc, test_placement);
	tcase_add_test(tc, test_conditions);
	tcase_add_test(tc, test_events);
	tcase_add_test(tc, test_checks_and_run);
	tcase_add_test(tc, test_error_cap);
	tcase_add_test(tc, test_validate_twice);
	suite_add_tcase(s, tc);
	tc = tcase_create("yaml");
	tcase_add_test(tc, test_yaml_countdown);
	tcase_add_test(tc, test_yaml_errors);
	tcase_add_test(tc, test_yaml_devices);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_MAIN(validate_suite)
