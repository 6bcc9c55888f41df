/*
 * Unit tests of the loader: YAML text through gdef_load_string into the
 * model (every node kind, init form, argument form, edge spelling,
 * anchors, aliases, merge keys, positions, automatic ids), the exact text
 * of its diagnostics, and hostile inputs under the limits.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "load.h"
#include "monotime.h"
#include "unit.h"
#include "validate.h"

/* Sanitizers slow everything down; timing bounds allow for it. */
#if defined(__SANITIZE_ADDRESS__)
#define SLOWDOWN 5
#else
#define SLOWDOWN 1
#endif

/* The result of loading one text: the model, and what was printed. */
struct res {
	struct gdef *g;
	char *msgs;
	size_t msgs_len;
	unsigned nerrors;
	double seconds;
};

static struct res load_with(const char *name, const char *text, size_t len,
			    const struct load_limits *lim)
{
	struct res r = {0};
	FILE *out = open_memstream(&r.msgs, &r.msgs_len);
	ck_assert_ptr_nonnull(out);
	struct diag d;
	diag_init(&d, name, out);
	d.max_errors = 1000;
	double t0 = monotime();
	r.g = gdef_load_string(name, text, len, lim, &d);
	r.seconds = monotime() - t0;
	r.nerrors = d.nerrors;
	fclose(out);
	return r;
}

static struct res load(const char *text)
{
	return load_with("t.yaml", text, strlen(text), NULL);
}

static void res_free(struct res *r)
{
	gdef_free(r->g);
	free(r->msgs);
}

/* A text that must load without a message. */
static struct gdef *load_ok(const char *text)
{
	struct res r = load(text);
	ck_assert_msg(r.nerrors == 0, "unexpected errors:\n%s", r.msgs);
	ck_assert_ptr_nonnull(r.g);
	ck_assert_str_eq(r.msgs, "");
	free(r.msgs);
	return r.g;
}

/* A text whose messages must be exactly want. */
static void expect_msgs(const char *text, const char *want)
{
	struct res r = load(text);
	ck_assert_str_eq(r.msgs, want);
	ck_assert_uint_gt(r.nerrors, 0);
	res_free(&r);
}

#define ck_pos(p, l, c)                                                     \
	do {                                                                \
		ck_assert_uint_eq((p).line, (l));                           \
		ck_assert_uint_eq((p).col, (c));                            \
	} while (0)

static const struct node *node_at(const struct graph *gr, size_t i)
{
	ck_assert_uint_lt(i, gr->nnodes);
	return gr->nodes[i];
}

/* ------------------------------------------------------------------ */

START_TEST(test_minimal)
{
	struct gdef *g = load_ok("cugraphrun: 1\n");
	ck_assert_int_eq(g->version, 1);
	ck_assert_uint_eq(g->nmodules, 1);
	ck_assert_str_eq(g->modules[0].name, "builtin");
	ck_assert(g->modules[0].builtin);
	ck_assert_ptr_null(g->modules[0].file);
	ck_assert_ptr_null(g->modules[0].path);
	ck_assert_ptr_nonnull(g->root);
	ck_assert_uint_eq(g->root->nnodes, 0);
	ck_assert_ptr_null(g->name);
	gdef_free(g);
}
END_TEST

START_TEST(test_top_and_modules)
{
	const char *text =
		"name: demo\n"
		"description: \"all the top-level keys\"\n"
		"cugraphrun: 1\n"
		"modules:\n"
		"  k: kernels/k.ptx\n"
		"  m: {file: /abs/m.cubin}\n";
	struct res r = load_with("dir/sub/t.yaml", text, strlen(text), NULL);
	ck_assert_str_eq(r.msgs, "");
	struct gdef *g = r.g;
	ck_assert_str_eq(g->name, "demo");
	ck_assert_str_eq(g->description, "all the top-level keys");
	ck_assert_uint_eq(g->nmodules, 3);
	ck_assert_str_eq(g->modules[1].name, "k");
	ck_assert_str_eq(g->modules[1].file, "kernels/k.ptx");
	ck_assert_str_eq(g->modules[1].path, "dir/sub/kernels/k.ptx");
	ck_assert(!g->modules[1].builtin);
	ck_pos(g->modules[1].pos, 5, 3);
	ck_pos(g->modules[1].file_pos, 5, 6);
	ck_assert_str_eq(g->modules[2].file, "/abs/m.cubin");
	ck_assert_str_eq(g->modules[2].path, "/abs/m.cubin");
	ck_pos(g->modules[2].file_pos, 6, 13);
	res_free(&r);
}
END_TEST

START_TEST(test_buffers)
{
	struct gdef *g = load_ok(
		"cugraphrun: 1\n"
		"buffers:\n"
		"  a: {count: 4}\n"
		"  b: {type: f32, size: 4 KiB, memory: host, init: 1.5}\n"
		"  c: {type: i32, count: 3, memory: managed, init: [1, -2, 0x10]}\n"
		"  d: {type: f64, count: 8, memory: graph}\n"
		"  e: {type: u32, count: 8, init: {iota: {start: 5, step: 2}}}\n"
		"  f: {type: f32, count: 8, init: {iota: {}}}\n"
		"  g: {type: f32, count: 8, init: {random: {seed: 42, min: -1, max: 1}}}\n"
		"  h: {type: f32, count: 8, init: {random: }}\n"
		"  i: {type: u8, size: \"64 B\", init: {file: data/i.bin}}\n");
	ck_assert_uint_eq(g->nbuffers, 9);
	const struct buffer *b = g->buffers;
	ck_assert_str_eq(b[0].name, "a");
	ck_pos(b[0].pos, 3, 3);
	ck_assert_int_eq(b[0].type, ET_U8);
	ck_assert(b[0].has_count && !b[0].has_size);
	ck_assert_uint_eq(b[0].count, 4);
	ck_pos(b[0].count_pos, 3, 14);
	ck_assert_int_eq(b[0].memory, MEM_DEVICE);
	ck_assert_int_eq(b[0].init.kind, INIT_ZERO);

	ck_assert_int_eq(b[1].type, ET_F32);
	ck_pos(b[1].type_pos, 4, 13);
	ck_assert(b[1].has_size && !b[1].has_count);
	ck_assert_uint_eq(b[1].size, 4096);
	ck_pos(b[1].size_pos, 4, 24);
	ck_assert_int_eq(b[1].memory, MEM_HOST);
	ck_pos(b[1].memory_pos, 4, 39);
	ck_assert_int_eq(b[1].init.kind, INIT_SCALAR);
	ck_assert_int_eq(b[1].init.scalar.kind, NUM_FLOAT);
	ck_assert_double_eq(b[1].init.scalar.f, 1.5);
	ck_pos(b[1].init.scalar.pos, 4, 51);

	ck_assert_int_eq(b[2].memory, MEM_MANAGED);
	ck_assert_int_eq(b[2].init.kind, INIT_LIST);
	ck_pos(b[2].init.pos, 5, 51);
	ck_assert_uint_eq(b[2].init.nlist, 3);
	ck_assert_int_eq(b[2].init.list[0].kind, NUM_UINT);
	ck_assert_uint_eq(b[2].init.list[0].u, 1);
	ck_assert_int_eq(b[2].init.list[1].kind, NUM_INT);
	ck_assert_int_eq(b[2].init.list[1].i, -2);
	ck_pos(b[2].init.list[1].pos, 5, 55);
	ck_assert_uint_eq(b[2].init.list[2].u, 16);

	ck_assert_int_eq(b[3].memory, MEM_GRAPH);

	ck_assert_int_eq(b[4].init.kind, INIT_IOTA);
	ck_assert_uint_eq(b[4].init.start.u, 5);
	ck_assert_uint_eq(b[4].init.step.u, 2);
	ck_assert_int_eq(b[5].init.kind, INIT_IOTA);
	ck_assert_uint_eq(b[5].init.start.u, 0);
	ck_assert_uint_eq(b[5].init.step.u, 1);

	ck_assert_int_eq(b[6].init.kind, INIT_RANDOM);
	ck_assert_uint_eq(b[6].init.seed, 42);
	ck_assert_int_eq(b[6].init.min.i, -1);
	ck_assert_uint_eq(b[6].init.max.u, 1);
	ck_assert_int_eq(b[7].init.kind, INIT_RANDOM);
	ck_assert_uint_eq(b[7].init.seed, 1);
	ck_assert_uint_eq(b[7].init.min.u, 0);
	ck_assert_uint_eq(b[7].init.max.u, 1);

	ck_assert_uint_eq(b[8].size, 64);
	ck_assert_int_eq(b[8].init.kind, INIT_FILE);
	ck_assert_str_eq(b[8].init.file, "data/i.bin");
	ck_assert_str_eq(b[8].init.path, "data/i.bin");
	ck_pos(b[8].init.file_pos, 11, 44);
	gdef_free(g);
}
END_TEST

START_TEST(test_events_conditions)
{
	struct gdef *g = load_ok(
		"cugraphrun: 1\n"
		"events: [start, stop]\n"
		"conditions:\n"
		"  a: {default: 7}\n"
		"  b:\n"
		"  c: {}\n");
	ck_assert_uint_eq(g->nevents, 2);
	ck_assert_str_eq(g->events[1].name, "stop");
	ck_pos(g->events[1].pos, 2, 17);
	ck_assert_uint_eq(g->nconditions, 3);
	ck_assert_str_eq(g->conditions[0].name, "a");
	ck_assert(g->conditions[0].has_default);
	ck_assert_uint_eq(g->conditions[0].default_value, 7);
	ck_pos(g->conditions[0].default_pos, 4, 16);
	ck_assert(!g->conditions[1].has_default);
	ck_assert(!g->conditions[2].has_default);
	ck_assert_int_eq(g->conditions[2].user, -1);
	gdef_free(g);
}
END_TEST

/* Kernels that repeat a function share its strings; each keeps its own position. */
START_TEST(test_kernel_repeated_function)
{
	struct gdef *g = load_ok(
		"cugraphrun: 1\n"
		"nodes:\n"
		"  - kernel: {function: m.f}\n"
		"  - kernel: {function: m.f}\n"
		"  - kernel: {function: m.g}\n"
		"  - kernel: {function: \"m.f\"}\n"
		"  - kernel: {function: m.f2}\n");
	static const char *const fn[] = {"f", "f", "g", "f", "f2"};
	for (size_t i = 0; i < 5; i++) {
		const struct kernel_node *k = &node_at(g->root, i)->u.kernel;
		ck_assert_str_eq(k->module.name, "m");
		ck_assert_str_eq(k->func, fn[i]);
		ck_pos(k->function_pos, (unsigned)i + 3, 24);
		ck_pos(k->module.pos, (unsigned)i + 3, 24);
	}
	ck_assert_ptr_eq(node_at(g->root, 1)->u.kernel.function,
			 node_at(g->root, 0)->u.kernel.function);
	ck_assert_str_eq(node_at(g->root, 4)->u.kernel.function, "m.f2");
	gdef_free(g);
}
END_TEST

START_TEST(test_kernel)
{
	struct gdef *g = load_ok(
		"cugraphrun: 1\n"
		"nodes:\n"
		"  - id: k1\n"
		"    kernel:\n"
		"      function: mod.fn\n"
		"      grid: [4, 2]\n"
		"      block: 256\n"
		"      shared: 2 KiB\n"
		"      priority: -3\n"
		"      args:\n"
		"        - x\n"
		"        - {buffer: y, offset: 16}\n"
		"        - {f32: 0.5}\n"
		"        - {u64: 0xffffffffffffffff}\n"
		"        - {i8: -128}\n"
		"        - {handle: c}\n"
		"        - {bytes: \"00ff10AB\"}\n"
		"        - {struct: [{f16: 1}, z, {struct: [{bf16: 2}]}]}\n"
		"  - kernel: {function: noformat}\n"
		"  - kernel: {function: a.b.c, grid: [1, 2, 3], block: [32]}\n");
	const struct node *n = node_at(g->root, 0);
	ck_assert_int_eq(n->kind, NK_KERNEL);
	const struct kernel_node *k = &n->u.kernel;
	ck_assert_str_eq(k->function, "mod.fn");
	ck_pos(k->function_pos, 5, 17);
	ck_assert_str_eq(k->module.name, "mod");
	ck_assert_int_eq(k->module.idx, -1);
	ck_pos(k->module.pos, 5, 17);
	ck_assert_str_eq(k->func, "fn");
	ck_assert_uint_eq(k->grid[0], 4);
	ck_assert_uint_eq(k->grid[1], 2);
	ck_assert_uint_eq(k->grid[2], 1);
	ck_pos(k->grid_pos, 6, 13);
	ck_assert_uint_eq(k->block[0], 256);
	ck_assert_uint_eq(k->block[1], 1);
	ck_assert_uint_eq(k->shared, 2048);
	ck_assert(k->has_priority);
	ck_assert_int_eq(k->priority, -3);
	ck_pos(k->args_pos, 11, 9);
	ck_assert_uint_eq(k->nargs, 8);
	const struct arg *a = k->args;
	ck_assert_int_eq(a[0].kind, ARG_BUFFER);
	ck_assert_str_eq(a[0].ref.name, "x");
	ck_assert_int_eq(a[0].ref.idx, -1);
	ck_assert_uint_eq(a[0].offset, 0);
	ck_pos(a[0].pos, 11, 11);
	ck_assert_int_eq(a[1].kind, ARG_BUFFER);
	ck_assert_str_eq(a[1].ref.name, "y");
	ck_pos(a[1].ref.pos, 12, 20);
	ck_assert_uint_eq(a[1].offset, 16);
	ck_assert_int_eq(a[2].kind, ARG_SCALAR);
	ck_assert_int_eq(a[2].type, ET_F32);
	ck_assert_double_eq(a[2].num.f, 0.5);
	ck_pos(a[2].num.pos, 13, 17);
	ck_assert_int_eq(a[3].type, ET_U64);
	ck_assert_uint_eq(a[3].num.u, UINT64_MAX);
	ck_assert_int_eq(a[4].type, ET_I8);
	ck_assert_int_eq(a[4].num.i, -128);
	ck_assert_int_eq(a[5].kind, ARG_HANDLE);
	ck_assert_str_eq(a[5].ref.name, "c");
	ck_assert_int_eq(a[6].kind, ARG_BYTES);
	ck_assert_uint_eq(a[6].nbytes, 4);
	ck_assert_mem_eq(a[6].bytes, "\x00\xff\x10\xab", 4);
	ck_assert_int_eq(a[7].kind, ARG_STRUCT);
	ck_assert_uint_eq(a[7].nfields, 3);
	ck_assert_int_eq(a[7].fields[0].type, ET_F16);
	ck_assert_int_eq(a[7].fields[1].kind, ARG_BUFFER);
	ck_assert_str_eq(a[7].fields[1].ref.name, "z");
	ck_assert_int_eq(a[7].fields[2].kind, ARG_STRUCT);
	ck_assert_int_eq(a[7].fields[2].fields[0].type, ET_BF16);

	/* Not module.function: the validator reports it, seeing module.name NULL. */
	k = &node_at(g->root, 1)->u.kernel;
	ck_assert_str_eq(k->function, "noformat");
	ck_assert_ptr_null(k->module.name);
	ck_assert_ptr_null(k->func);
	ck_assert(!k->has_priority);
	ck_assert_uint_eq(k->grid[0], 1);
	ck_assert_uint_eq(k->block[2], 1);

	k = &node_at(g->root, 2)->u.kernel;
	ck_assert_str_eq(k->module.name, "a");
	ck_assert_str_eq(k->func, "b.c");
	ck_assert_uint_eq(k->grid[2], 3);
	ck_assert_uint_eq(k->block[0], 32);
	ck_assert_uint_eq(k->block[1], 1);
	gdef_free(g);
}
END_TEST

START_TEST(test_memset_copy)
{
	struct gdef *g = load_ok(
		"cugraphrun: 1\n"
		"nodes:\n"
		"  - memset: {buffer: x, value: -1, offset: 2, count: 8}\n"
		"  - memset: {buffer: y, value: 0.25}\n"
		"  - copy: {from: x, to: y}\n"
		"  - copy: {from: {buffer: x, offset: 4}, to: {buffer: y, offset: 8}, count: 2}\n");
	const struct memset_node *m = &node_at(g->root, 0)->u.memset;
	ck_assert_str_eq(m->buffer.name, "x");
	ck_pos(m->buffer.pos, 3, 22);
	ck_assert_int_eq(m->value.i, -1);
	ck_pos(m->value.pos, 3, 32);
	ck_assert_uint_eq(m->offset, 2);
	ck_assert(m->has_count);
	ck_assert_uint_eq(m->count, 8);
	m = &node_at(g->root, 1)->u.memset;
	ck_assert_int_eq(m->value.kind, NUM_FLOAT);
	ck_assert(!m->has_count);
	const struct copy_node *c = &node_at(g->root, 2)->u.copy;
	ck_assert_str_eq(c->from.buffer.name, "x");
	ck_assert_str_eq(c->to.buffer.name, "y");
	ck_assert_uint_eq(c->from.offset, 0);
	ck_assert(!c->has_count);
	c = &node_at(g->root, 3)->u.copy;
	ck_assert_uint_eq(c->from.offset, 4);
	ck_assert_uint_eq(c->to.offset, 8);
	ck_pos(c->to.offset_pos, 6, 66);
	ck_assert(c->has_count);
	ck_assert_uint_eq(c->count, 2);
	gdef_free(g);
}
END_TEST

START_TEST(test_small_kinds)
{
	struct gdef *g = load_ok(
		"cugraphrun: 1\n"
		"nodes:\n"
		"  - empty:\n"
		"  - empty: {}\n"
		"  - alloc: tmp\n"
		"  - free: tmp\n"
		"  - event_record: e\n"
		"  - event_wait: e\n"
		"  - host: {print: \"hello: world\"}\n"
		"  - host: {sleep: 100 us}\n"
		"  - host: {sleep: \"2\"}\n"
		"  - host: {dump: out}\n");
	const struct graph *gr = g->root;
	ck_assert_uint_eq(gr->nnodes, 10);
	ck_assert_int_eq(node_at(gr, 0)->kind, NK_EMPTY);
	ck_assert_int_eq(node_at(gr, 1)->kind, NK_EMPTY);
	ck_assert_int_eq(node_at(gr, 2)->kind, NK_ALLOC);
	ck_assert_str_eq(node_at(gr, 2)->u.buffer.name, "tmp");
	ck_pos(node_at(gr, 2)->u.buffer.pos, 5, 12);
	ck_assert_int_eq(node_at(gr, 3)->kind, NK_FREE);
	ck_assert_int_eq(node_at(gr, 4)->kind, NK_EVENT_RECORD);
	ck_assert_str_eq(node_at(gr, 4)->u.event.name, "e");
	ck_assert_int_eq(node_at(gr, 5)->kind, NK_EVENT_WAIT);
	ck_assert_int_eq(node_at(gr, 6)->u.host.action, HOST_PRINT);
	ck_assert_str_eq(node_at(gr, 6)->u.host.text, "hello: world");
	ck_assert_int_eq(node_at(gr, 7)->u.host.action, HOST_SLEEP);
	ck_assert_uint_eq(node_at(gr, 7)->u.host.sleep_ns, 100000);
	ck_assert_uint_eq(node_at(gr, 8)->u.host.sleep_ns, 2000000000);
	ck_assert_int_eq(node_at(gr, 9)->u.host.action, HOST_DUMP);
	ck_assert_str_eq(node_at(gr, 9)->u.host.buffer.name, "out");
	gdef_free(g);
}
END_TEST

START_TEST(test_conditionals)
{
	struct gdef *g = load_ok(
		"cugraphrun: 1\n"
		"nodes:\n"
		"  - id: i\n"
		"    if:\n"
		"      else: [{empty: {}}]\n"
		"      condition: c1\n"
		"      then: [{empty: {}}, {empty: {}}]\n"
		"  - if: {condition: c2, then: {nodes: [{empty: {}}]}}\n"
		"  - while: {condition: c3, body: [{memset: {buffer: x, value: 0}}]}\n"
		"  - switch: {condition: c4, cases: [[{empty: {}}], [], {chain: true, nodes: []}]}\n");
	const struct node *n = node_at(g->root, 0);
	ck_assert_int_eq(n->kind, NK_IF);
	ck_assert_str_eq(n->u.cond.condition.name, "c1");
	ck_pos(n->u.cond.condition.pos, 6, 18);
	ck_assert_uint_eq(n->u.cond.nbodies, 2);
	const struct graph *then = n->u.cond.bodies[0], *els = n->u.cond.bodies[1];
	ck_assert_uint_eq(then->nnodes, 2);
	ck_assert_uint_eq(els->nnodes, 1);
	ck_assert_uint_eq(then->body_index, 0);
	ck_assert_uint_eq(els->body_index, 1);
	ck_assert_ptr_eq(then->parent, g->root);
	ck_assert_ptr_eq(then->owner, n);
	ck_assert_ptr_eq(node_at(then, 0)->graph, then);
	ck_pos(then->pos, 7, 13);

	n = node_at(g->root, 1);
	ck_assert_uint_eq(n->u.cond.nbodies, 1);
	ck_assert_uint_eq(n->u.cond.bodies[0]->nnodes, 1);

	n = node_at(g->root, 2);
	ck_assert_int_eq(n->kind, NK_WHILE);
	ck_assert_uint_eq(n->u.cond.nbodies, 1);
	ck_assert_int_eq(node_at(n->u.cond.bodies[0], 0)->kind, NK_MEMSET);

	n = node_at(g->root, 3);
	ck_assert_int_eq(n->kind, NK_SWITCH);
	ck_assert_uint_eq(n->u.cond.nbodies, 3);
	ck_assert_uint_eq(n->u.cond.bodies[0]->nnodes, 1);
	ck_assert_uint_eq(n->u.cond.bodies[1]->nnodes, 0);
	ck_assert_uint_eq(n->u.cond.bodies[2]->body_index, 2);
	ck_assert(n->u.cond.bodies[2]->chain);
	ck_assert_ptr_eq(n->u.cond.bodies[2]->owner, n);
	gdef_free(g);
}
END_TEST

START_TEST(test_graphs_and_edges)
{
	struct gdef *g = load_ok(
		"cugraphrun: 1\n"
		"nodes:\n"
		"  chain: true\n"
		"  nodes:\n"
		"    - {id: a, empty: {}}\n"
		"    - {id: b, empty: {}, after: a}\n"
		"    - {id: c, empty: {}, after: [a, b]}\n"
		"    - id: sub\n"
		"      graph:\n"
		"        edges: [\"p -> q\"]\n"
		"        nodes: [{id: p, empty: {}}, {id: q, empty: {}}]\n"
		"  edges:\n"
		"    - a -> b\n"
		"    - \"a->b -> c\"\n"
		"    - [b, c]\n"
		"edges:\n"
		"  - c  ->  sub\n");
	const struct graph *gr = g->root;
	ck_assert(gr->chain);
	ck_pos(gr->pos, 3, 3);
	const struct node *b = node_at(gr, 1), *c = node_at(gr, 2);
	ck_assert_uint_eq(b->nafter, 1);
	ck_assert_str_eq(b->after[0].name, "a");
	ck_assert_int_eq(b->after[0].idx, -1);
	ck_pos(b->after[0].pos, 6, 33);
	ck_assert_uint_eq(c->nafter, 2);
	ck_assert_str_eq(c->after[1].name, "b");
	ck_pos(c->after[1].pos, 7, 37);

	/* a -> b, a -> b, b -> c, [b, c], and the top level's c -> sub */
	ck_assert_uint_eq(gr->nedges, 5);
	const struct edge *e = gr->edges;
	ck_assert_str_eq(e[0].from.name, "a");
	ck_assert_str_eq(e[0].to.name, "b");
	ck_pos(e[0].from.pos, 13, 7);
	ck_pos(e[0].to.pos, 13, 12);
	ck_pos(e[0].pos, 13, 7);
	ck_assert_str_eq(e[1].from.name, "a");
	ck_assert_str_eq(e[1].to.name, "b");
	ck_pos(e[1].from.pos, 14, 8);
	ck_pos(e[1].to.pos, 14, 11);
	ck_assert_str_eq(e[2].from.name, "b");
	ck_assert_str_eq(e[2].to.name, "c");
	ck_pos(e[2].from.pos, 14, 11);
	ck_pos(e[2].to.pos, 14, 16);
	ck_assert_str_eq(e[3].from.name, "b");
	ck_assert_str_eq(e[3].to.name, "c");
	ck_pos(e[3].pos, 15, 7);
	ck_pos(e[3].to.pos, 15, 11);
	ck_assert_str_eq(e[4].from.name, "c");
	ck_assert_str_eq(e[4].to.name, "sub");
	ck_pos(e[4].to.pos, 17, 12);
	ck_assert_int_eq(e[4].to.idx, -1);

	const struct node *sub = node_at(gr, 3);
	ck_assert_int_eq(sub->kind, NK_GRAPH);
	const struct graph *child = sub->u.child;
	ck_assert_ptr_eq(child->parent, gr);
	ck_assert_ptr_eq(child->owner, sub);
	ck_assert(!child->chain);
	ck_assert_uint_eq(child->nnodes, 2);
	ck_assert_uint_eq(child->nedges, 1);
	ck_assert_str_eq(child->edges[0].to.name, "q");
	gdef_free(g);
}
END_TEST

START_TEST(test_auto_ids)
{
	struct gdef *g = load_ok(
		"cugraphrun: 1\n"
		"nodes:\n"
		"  - empty: {}\n"
		"  - {id: empty_2, empty: {}}\n"
		"  - graph: [{empty: {}}, {kernel: {function: k.f}}]\n"
		"  - empty: {}\n"
		"  - {kernel: {function: k.f}, id: mine}\n"
		"  - while: {condition: c, body: [{kernel: {function: k.f}}]}\n"
		"  - {id: kernel_3, empty: {}}\n"
		"  - kernel: {function: k.f}\n");
	const struct graph *gr = g->root;
	ck_assert_str_eq(node_at(gr, 0)->id, "empty_1");
	ck_assert(!node_at(gr, 0)->id_given);
	ck_pos(node_at(gr, 0)->id_pos, 3, 5);
	ck_assert_str_eq(node_at(gr, 1)->id, "empty_2");
	ck_assert(node_at(gr, 1)->id_given);
	ck_pos(node_at(gr, 1)->id_pos, 4, 10);
	ck_assert_str_eq(node_at(gr, 2)->id, "graph_1");
	/* File order: the child graph's nodes come before the next root node. */
	ck_assert_str_eq(node_at(node_at(gr, 2)->u.child, 0)->id, "empty_3");
	ck_assert_str_eq(node_at(node_at(gr, 2)->u.child, 1)->id, "kernel_1");
	ck_assert_str_eq(node_at(gr, 3)->id, "empty_4");
	ck_assert_str_eq(node_at(gr, 4)->id, "mine");
	ck_assert_str_eq(node_at(gr, 5)->id, "while_1");
	ck_assert_str_eq(node_at(node_at(gr, 5)->u.cond.bodies[0], 0)->id, "kernel_2");
	/* kernel_3 is taken by an explicit id (of another kind, even). */
	ck_assert_str_eq(node_at(gr, 7)->id, "kernel_4");
	gdef_free(g);
}
END_TEST

/*
 * Without ids that could clash, the loader numbers nodes as it meets
 * their kinds: still in file order, an else body written before its
 * then body included, and nodes inside bodies after their owner.
 */
START_TEST(test_auto_ids_in_order)
{
	struct gdef *g = load_ok(
		"cugraphrun: 1\n"
		"nodes:\n"
		"  - kernel: {function: k.f}\n"
		"  - if:\n"
		"      condition: c\n"
		"      else: [{kernel: {function: k.f}}]\n"
		"      then: [{if: {condition: d, then: [{kernel: {function: k.f}}]}}]\n"
		"  - {id: kernel_0, kernel: {function: k.f}}\n"
		"  - {id: kernel_07, kernel: {function: k.f}}\n"
		"  - {id: my_1, kernel: {function: k.f}}\n"
		"  - kernel: {function: k.f}\n");
	const struct graph *gr = g->root;
	const struct node *cond = node_at(gr, 1);
	ck_assert_str_eq(node_at(gr, 0)->id, "kernel_1");
	ck_assert_str_eq(cond->id, "if_1");
	ck_pos(cond->id_pos, 4, 5);
	ck_assert_str_eq(node_at(cond->u.cond.bodies[1], 0)->id, "kernel_2");
	const struct node *inner = node_at(cond->u.cond.bodies[0], 0);
	ck_assert_str_eq(inner->id, "if_2");
	ck_assert_str_eq(node_at(inner->u.cond.bodies[0], 0)->id, "kernel_3");
	/* Ids that only look automatic ("kernel_0", "kernel_07", "my_1") take no number. */
	ck_assert_str_eq(node_at(gr, 2)->id, "kernel_0");
	ck_assert(node_at(gr, 2)->id_given);
	ck_assert_str_eq(node_at(gr, 5)->id, "kernel_4");
	ck_assert(!node_at(gr, 5)->id_given);
	gdef_free(g);
}
END_TEST

/*
 * Numbered again (an id written in the file looks automatic) across a
 * nested graph that starts after the first nodes: file order throughout.
 */
START_TEST(test_auto_ids_renumber_nested)
{
	struct gdef *g = load_ok(
		"cugraphrun: 1\n"
		"nodes:\n"
		"  - kernel: {function: k.f}\n"
		"  - {id: kernel_2, kernel: {function: k.f}}\n"
		"  - graph:\n"
		"      nodes: [{kernel: {function: k.f}}, {empty: {}}]\n"
		"  - empty: {}\n"
		"  - kernel: {function: k.f}\n");
	const struct graph *gr = g->root;
	ck_assert_str_eq(node_at(gr, 0)->id, "kernel_1");
	ck_assert_str_eq(node_at(gr, 1)->id, "kernel_2");
	ck_assert_str_eq(node_at(gr, 2)->id, "graph_1");
	ck_assert_str_eq(node_at(node_at(gr, 2)->u.child, 0)->id, "kernel_3");
	ck_assert_str_eq(node_at(node_at(gr, 2)->u.child, 1)->id, "empty_1");
	ck_assert_str_eq(node_at(gr, 3)->id, "empty_2");
	ck_assert_str_eq(node_at(gr, 4)->id, "kernel_4");
	gdef_free(g);
}
END_TEST

/* An id written after the kind (or a broken one) gives back the number the node took. */
START_TEST(test_auto_ids_late_id)
{
	struct res r = load(
		"cugraphrun: 1\n"
		"nodes:\n"
		"  - {kernel: {function: k.f}, id: first}\n"
		"  - {empty: {}, id: [not, text]}\n"
		"  - kernel: {function: k.f}\n");
	ck_assert_uint_eq(r.nerrors, 1);
	ck_assert_ptr_nonnull(r.g);
	const struct graph *gr = r.g->root;
	ck_assert_str_eq(node_at(gr, 0)->id, "first");
	ck_assert_str_eq(node_at(gr, 1)->id, "empty_1");
	ck_assert(!node_at(gr, 1)->id_given);
	ck_assert_str_eq(node_at(gr, 2)->id, "kernel_1");
	res_free(&r);
}
END_TEST

START_TEST(test_checks_and_run)
{
	struct gdef *g = load_ok(
		"cugraphrun: 1\n"
		"checks:\n"
		"  - {buffer: x, expect: 50}\n"
		"  - {buffer: y, expect: [1.0, 2, -3], rtol: 1e-5, atol: 0}\n"
		"  - {buffer: z, expect: {file: want.bin}}\n"
		"run:\n"
		"  repeat: 100\n"
		"  warmup: 0\n"
		"  timeout: 10\n"
		"  device: 1\n"
		"  instantiate: [upload, device_launch]\n");
	ck_assert_uint_eq(g->nchecks, 3);
	const struct check *c = g->checks;
	ck_assert_str_eq(c[0].buffer.name, "x");
	ck_assert_int_eq(c[0].buffer.idx, -1);
	ck_pos(c[0].pos, 3, 5);
	ck_assert_int_eq(c[0].expect, EXPECT_SCALAR);
	ck_assert_uint_eq(c[0].scalar.u, 50);
	ck_pos(c[0].expect_pos, 3, 25);
	ck_assert_int_eq(c[1].expect, EXPECT_LIST);
	ck_assert_uint_eq(c[1].nlist, 3);
	ck_assert_int_eq(c[1].list[2].i, -3);
	ck_assert_double_eq(c[1].rtol, 1e-5);
	ck_assert_double_eq(c[1].atol, 0);
	ck_pos(c[1].rtol_pos, 4, 45);
	ck_assert_int_eq(c[2].expect, EXPECT_FILE);
	ck_assert_str_eq(c[2].file, "want.bin");
	ck_assert_str_eq(c[2].path, "want.bin");
	const struct run_defaults *r = &g->run;
	ck_pos(r->pos, 7, 3);
	ck_assert(r->has_repeat && r->has_warmup && r->has_timeout && r->has_device);
	ck_assert_uint_eq(r->repeat, 100);
	ck_assert_uint_eq(r->warmup, 0);
	ck_assert_uint_eq(r->timeout_ns, 10000000000ull);
	ck_assert_int_eq(r->device, 1);
	ck_assert(r->has_instantiate);
	ck_assert_uint_eq(r->instantiate, INST_UPLOAD | INST_DEVICE_LAUNCH);
	gdef_free(g);

	g = load_ok("cugraphrun: 1\nrun: {timeout: \"250 ms\", instantiate: use_node_priority}\n");
	ck_assert_uint_eq(g->run.timeout_ns, 250000000);
	ck_assert_uint_eq(g->run.instantiate, INST_USE_NODE_PRIORITY);
	ck_assert(!g->run.has_repeat);
	gdef_free(g);
}
END_TEST

START_TEST(test_scalar_styles)
{
	/* Quoted ids and names are strings; sizes and durations may be quoted. */
	struct gdef *g = load_ok(
		"cugraphrun: 1\n"
		"name: 42\n"
		"buffers:\n"
		"  '7': {size: '1 MiB', count: !!int \"3\"}\n"
		"nodes:\n"
		"  - {id: \"5\", host: {print: 12}}\n"
		"  - {id: !!str 6, empty: }\n");
	ck_assert_str_eq(g->name, "42");
	ck_assert_str_eq(g->buffers[0].name, "7");
	ck_assert_uint_eq(g->buffers[0].size, 1u << 20);
	ck_assert_uint_eq(g->buffers[0].count, 3);
	ck_assert_str_eq(node_at(g->root, 0)->id, "5");
	ck_assert_str_eq(node_at(g->root, 0)->u.host.text, "12");
	ck_assert_str_eq(node_at(g->root, 1)->id, "6");
	gdef_free(g);
}
END_TEST

/* ------------------------------------------------------------------ */

START_TEST(test_aliases)
{
	struct gdef *g = load_ok(
		"cugraphrun: 1\n"
		"buffers:\n"
		"  x: &vec {type: f32, count: &n 256}\n"
		"  y: *vec\n"
		"  z: {type: i32, count: *n}\n"
		"nodes:\n"
		"  - &scale {kernel: &kern {function: k.scale, grid: 2, args: [x, {f32: 2}]}}\n"
		"  - *scale\n"
		"  - {id: again, kernel: *kern}\n"
		"  - graph: &body [{empty: {}}, {memset: {buffer: x, value: 0}}]\n"
		"  - while: {condition: c, body: *body}\n");
	ck_assert_uint_eq(g->nbuffers, 3);
	ck_assert_int_eq(g->buffers[1].type, ET_F32);
	ck_assert_uint_eq(g->buffers[1].count, 256);
	ck_assert_uint_eq(g->buffers[2].count, 256);
	ck_assert_int_eq(g->buffers[2].type, ET_I32);
	/* A replayed value keeps the position of the text it came from (its anchor). */
	ck_pos(g->buffers[2].count_pos, 3, 30);
	const struct graph *gr = g->root;
	ck_assert_uint_eq(gr->nnodes, 5);
	ck_assert_str_eq(node_at(gr, 0)->id, "kernel_1");
	ck_assert_str_eq(node_at(gr, 1)->id, "kernel_2");
	ck_assert_str_eq(node_at(gr, 1)->u.kernel.function, "k.scale");
	ck_assert_uint_eq(node_at(gr, 1)->u.kernel.nargs, 2);
	ck_assert_str_eq(node_at(gr, 2)->id, "again");
	ck_assert_uint_eq(node_at(gr, 2)->u.kernel.grid[0], 2);
	const struct graph *body = node_at(gr, 4)->u.cond.bodies[0];
	ck_assert_uint_eq(body->nnodes, 2);
	ck_assert_ptr_eq(body->owner, node_at(gr, 4));
	ck_assert_str_eq(node_at(body, 0)->id, "empty_2");
	/* Each alias makes new nodes: the model shares nothing. */
	ck_assert_ptr_ne(node_at(body, 1), node_at(node_at(gr, 3)->u.child, 1));
	gdef_free(g);
}
END_TEST

START_TEST(test_merge_keys)
{
	struct gdef *g = load_ok(
		"cugraphrun: 1\n"
		"buffers:\n"
		"  base: &base {type: f32, count: 16, memory: host}\n"
		"  big: &big {count: 1024}\n"
		"  a: {<<: *base, count: 32}\n"
		"  b: {count: 64, <<: *base}\n"
		"  c: {<<: [*big, *base]}\n"
		"  e: &a2 {<<: *base, type: u8}\n"
		"  f: {<<: *a2}\n"
		"nodes:\n"
		"  - &k {kernel: {function: k.f, grid: 4}}\n"
		"  - {<<: *k, id: named}\n");
	const struct buffer *b = g->buffers;
	ck_assert_uint_eq(g->nbuffers, 7);
	/* Keys written in the mapping win, wherever they are. */
	ck_assert_uint_eq(b[2].count, 32);
	ck_assert_int_eq(b[2].type, ET_F32);
	ck_assert_int_eq(b[2].memory, MEM_HOST);
	ck_assert_uint_eq(b[3].count, 64);
	ck_assert_int_eq(b[3].memory, MEM_HOST);
	/* Of merged mappings, the first wins. */
	ck_assert_uint_eq(b[4].count, 1024);
	ck_assert_int_eq(b[4].type, ET_F32);
	/* Merges nest: f gets e's own keys over base's. */
	ck_assert_str_eq(b[6].name, "f");
	ck_assert_int_eq(b[6].type, ET_U8);
	ck_assert_uint_eq(b[6].count, 16);
	const struct node *n = node_at(g->root, 1);
	ck_assert_str_eq(n->id, "named");
	ck_assert_int_eq(n->kind, NK_KERNEL);
	ck_assert_uint_eq(n->u.kernel.grid[0], 4);
	gdef_free(g);
}
END_TEST

START_TEST(test_merge_errors)
{
	expect_msgs(
		"cugraphrun: 1\n"
		"buffers:\n"
		"  a: {type: f32, count: 2, init: &v [1, 2]}\n"
		"  b: {<<: *v}\n"
		"  c: {<<: [*v, {count: 1}]}\n"
		"  d: {<<: *nowhere}\n"
		"  e: {<<: 5}\n"
		"  f: {\"<<\": 1}\n",
		"t.yaml:4:11: error: merge key '<<' needs an alias of a mapping, but '*v' is a list\n"
		"t.yaml:5:12: error: merge key '<<' needs an alias of a mapping, but '*v' is a list\n"
		"t.yaml:5:16: error: expected an alias (*name) in the list of '<<', found a mapping\n"
		"t.yaml:6:11: error: unknown anchor in alias '*nowhere' (an anchor '&nowhere' must come before its aliases)\n"
		"t.yaml:7:11: error: expected an alias (<<: *name) or a list of aliases for '<<', found '5'\n"
		"t.yaml:8:7: error: unknown key '<<' in buffer 'f' (expected type, count, size, memory, init, device, shape or pitch)\n");
}
END_TEST

/* ------------------------------------------------------------------ */

START_TEST(test_shape_errors)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{"", "t.yaml:1:1: error: the file is empty (expected a mapping that starts with 'cugraphrun: 1')\n"},
		{"# nothing\n", "t.yaml:1:1: error: the file is empty (expected a mapping that starts with 'cugraphrun: 1')\n"},
		{"[1, 2]\n", "t.yaml:1:1: error: expected a mapping with 'cugraphrun: 1' at the top level, found a list\n"},
		{"hello\n", "t.yaml:1:1: error: expected a mapping with 'cugraphrun: 1' at the top level, found 'hello'\n"},
		{"name: x\n", "t.yaml:1:1: error: missing 'cugraphrun: 1' (the format version) at the top level\n"},
		{"cugraphrun: 2\nbogus: 1\n", "t.yaml:1:13: error: format version 2 is not supported; this build reads format 1\n"},
		{"cugraphrun: 1.0\n", "t.yaml:1:13: error: expected the format version 1 for 'cugraphrun', found '1.0'\n"},
		{"cugraphrun: 1\n---\ncugraphrun: 1\n", "t.yaml:2:1: error: a second YAML document (a cugraphrun file holds one; remove the '---' and what follows)\n"},
		{"cugraphrun: 1\nbuffers:\n  x: type: f32\n", "t.yaml:3:10: error: invalid YAML: mapping values are not allowed in this context\n"},
		{"cugraphrun: 1\nnodes: [\n", "t.yaml:3:1: error: invalid YAML: did not find expected node content (while parsing a flow node at 3:1)\n"},
		{"cugraphrun: 1\nname: a\x01" "b\n", "t.yaml:2:8: error: the file is not UTF-8 text: control characters are not allowed (0x1 at byte 21)\n"},
		{"cugraphrun: 1\nnode: []\n", "t.yaml:2:1: error: unknown key 'node' at the top level (did you mean 'nodes'?)\n"},
		{"cugraphrun: 1\nzzz: []\n", "t.yaml:2:1: error: unknown key 'zzz' at the top level (expected cugraphrun, name, description, modules, buffers, events, conditions, nodes, edges, checks, run, axes, throughput or requires)\n"},
		{"cugraphrun: 1\nname: a\nname: b\n", "t.yaml:3:1: error: duplicate key 'name' at the top level (first at 2:1)\n"},
		{"cugraphrun: 1\n? [a]\n: 1\n", "t.yaml:2:3: error: expected a key (a name), found a list\n"},
		{"cugraphrun: 1\nname: !x y\n", "t.yaml:2:7: error: unsupported YAML tag '!x' (cugraphrun files use no tags)\n"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct res r = load(cases[i].text);
		ck_assert_msg(strcmp(r.msgs, cases[i].want) == 0, "case %zu: got\n%swant\n%s", i,
			      r.msgs, cases[i].want);
		ck_assert_uint_eq(r.nerrors, 1);
		res_free(&r);
	}
}
END_TEST

START_TEST(test_value_errors)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{"buffers: {x: {cout: 1}}", "t.yaml:2:15: error: unknown key 'cout' in buffer 'x' (did you mean 'count'?)\n"},
		{"buffers: {x: {count: 1}, x: {count: 2}}", "t.yaml:2:26: error: duplicate buffer 'x' (first at 2:11)\n"},
		{"buffers: {x: {count: 1, count: 2}}", "t.yaml:2:25: error: duplicate key 'count' in buffer 'x' (first at 2:15)\n"},
		{"buffers: {x: {type: f31}}", "t.yaml:2:21: error: unknown element type 'f31' (did you mean 'f32'?)\n"},
		{"buffers: {x: {memory: devise}}", "t.yaml:2:23: error: unknown memory kind 'devise' (did you mean 'device'?)\n"},
		{"buffers: {x: {type: zzzzzz}}", "t.yaml:2:21: error: unknown element type 'zzzzzz' (expected i8, u8, i16, u16, i32, u32, i64, u64, f16, bf16, f32 or f64)\n"},
		{"buffers: {x: {type: [f32]}}", "t.yaml:2:21: error: expected an element type for 'type', found a list\n"},
		{"buffers: {x: {memory: zzzzzz}}", "t.yaml:2:23: error: unknown memory kind 'zzzzzz' (expected device, host, managed or graph)\n"},
		{"buffers: {x: {count: abc}}", "t.yaml:2:22: error: expected an integer for 'count', found 'abc'\n"},
		{"buffers: {x: {count: \"5\"}}", "t.yaml:2:22: error: expected an integer for 'count', found the string \"5\" (quotes make it a string)\n"},
		{"buffers: {x: {count: 1.5}}", "t.yaml:2:22: error: expected an integer for 'count', found '1.5'\n"},
		{"buffers: {x: {count: [1]}}", "t.yaml:2:22: error: expected an integer for 'count', found a list\n"},
		{"buffers: {x: {count: }}", "t.yaml:2:22: error: expected an integer for 'count', found null\n"},
		{"buffers: {x: {count: 18446744073709551616}}", "t.yaml:2:22: error: value '18446744073709551616' for 'count' is out of range (0 to 18446744073709551615)\n"},
		{"buffers: {x: {size: 16 EiB}}", "t.yaml:2:21: error: unknown unit in size '16 EiB' for 'size' (expected B, KiB, MiB, GiB, TiB, kB, MB, GB or TB)\n"},
		{"buffers: {x: {size: 16777216 TiB}}", "t.yaml:2:21: error: size '16777216 TiB' for 'size' is out of range (at most 18446744073709551615 bytes)\n"},
		{"buffers: {x: {size: big}}", "t.yaml:2:21: error: expected a size (bytes, or a number and a unit such as '64 KiB') for 'size', found 'big'\n"},
		{"buffers: {x: {init: \"1\"}}", "t.yaml:2:21: error: expected a number for 'init', found the string \"1\" (quotes make it a string)\n"},
		{"buffers: {x: {init: {iota: {start: 1}, file: f}}}", "t.yaml:2:40: error: 'init' takes one form, found 'iota' (at 2:22) and 'file'\n"},
		{"buffers: {x: {init: {}}}", "t.yaml:2:21: error: empty 'init' (expected a number, a list, {iota: ...}, {random: ...}, {file: ...} or {formula: ...})\n"},
		{"buffers: {x: {init: {iota: {stat: 1}}}}", "t.yaml:2:29: error: unknown key 'stat' in 'iota' (did you mean 'start'?)\n"},
		{"buffers: {x: {init: {random: {seed: -1}}}}", "t.yaml:2:37: error: value '-1' for 'seed' is out of range (0 to 18446744073709551615)\n"},
		{"buffers: {x: {init: 1e999}}", "t.yaml:2:21: error: value '1e999' for 'init' is out of range (integers have at most 64 bits; a float needs a '.' or an exponent)\n"},
		{"buffers: [x]", "t.yaml:2:10: error: expected a mapping of buffer names to buffers for 'buffers', found a list\n"},
		{"modules: {builtin: x.ptx}", "t.yaml:2:11: error: module name 'builtin' is reserved for the built-in kernels\n"},
		{"modules: {k: {file: a, path: b}}", "t.yaml:2:24: error: unknown key 'path' in module 'k' (expected file, source, options, defines, include or std)\n"},
		{"modules: {k: {}}", "t.yaml:2:14: error: missing key 'file' or 'source' in module 'k'\n"},
		{"modules: {k: [a]}", "t.yaml:2:14: error: expected a file name or a mapping {file: ...} for 'k', found a list\n"},
		{"events: x", "t.yaml:2:9: error: expected a list of event names for 'events', found 'x'\n"},
		{"events: [{a: 1}]", "t.yaml:2:10: error: expected an event name for 'events', found a mapping\n"},
		{"conditions: {c: {default: -1}}", "t.yaml:2:27: error: value '-1' for 'default' is out of range (0 to 4294967295)\n"},
		{"conditions: {c: 1}", "t.yaml:2:17: error: expected a mapping for 'c', found '1'\n"},
		{"checks: [{buffer: x, expect: {file: a, list: 1}}]", "t.yaml:2:40: error: unknown key 'list' in 'expect' (expected file, buffer, formula or offset)\n"},
		{"checks: [{buffer: x}]", "t.yaml:2:10: error: a check needs a test: expect, sum, min, max, norm2, nonzero, differ or finite\n"},
		{"checks: [x]", "t.yaml:2:10: error: expected a check {buffer, expect or sum, min, max, ...} for 'checks', found 'x'\n"},
		{"checks: [{buffer: x, expect: 1, atol: nan}]", "t.yaml:2:39: error: value 'nan' for 'atol' is out of range (0 or more)\n"},
		{"checks: [{buffer: x, expect: 1, atol: 1e999}]", "t.yaml:2:39: error: value '1e999' for 'atol' is out of range (0 or more)\n"},
		{"run: {repeat: 4294967296}", "t.yaml:2:15: error: value '4294967296' for 'repeat' is out of range (0 to 4294967295)\n"},
		{"run: {device: -1}", "t.yaml:2:15: error: value '-1' for 'device' is out of range (0 to 1024)\n"},
		{"run: {timeout: 5 h}", "t.yaml:2:16: error: unknown unit in duration '5 h' for 'timeout' (expected ns, us, ms, s or min)\n"},
		{"run: {timeout: soon}", "t.yaml:2:16: error: expected a duration (seconds, or a number and a unit such as '10 ms') for 'timeout', found 'soon'\n"},
		{"run: {instantiate: [upload, nope]}", "t.yaml:2:29: error: unknown instantiate flag 'nope' (expected upload, auto_free_on_launch, use_node_priority or device_launch)\n"},
		{"run: {instantiate: uplaod}", "t.yaml:2:20: error: unknown instantiate flag 'uplaod' (did you mean 'upload'?)\n"},
		{"run: {instantiate: [~]}", "t.yaml:2:21: error: expected an instantiate flag for 'instantiate', found null\n"},
		{"run: {warmpu: 1}", "t.yaml:2:7: error: unknown key 'warmpu' in 'run' (did you mean 'warmup'?)\n"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char text[512];
		snprintf(text, sizeof text, "cugraphrun: 1\n%s\n", cases[i].text);
		struct res r = load(text);
		ck_assert_msg(strcmp(r.msgs, cases[i].want) == 0, "case %zu: got\n%swant\n%s", i,
			      r.msgs, cases[i].want);
		ck_assert_uint_eq(r.nerrors, 1);
		/* A value error spoils one value; the rest of the file is read. */
		ck_assert_ptr_nonnull(r.g);
		res_free(&r);
	}
}
END_TEST

START_TEST(test_node_errors)
{
	static const struct {
		const char *text, *want;
	} cases[] = {
		{"- {id: a}", "t.yaml:3:3: error: a node needs a kind: one of kernel, memset, copy, empty, graph, alloc, free, event_record, event_wait, host, if, while, switch, memop, cublas or cufft\n"},
		{"- {kernal: {}}", "t.yaml:3:4: error: unknown key 'kernal' in a node (did you mean 'kernel'?)\n"},
		{"- {empty: {}, alloc: x}", "t.yaml:3:15: error: a node has one kind, found 'empty' (at 3:4) and 'alloc'\n"},
		{"- {empty: {}, empty: {}}", "t.yaml:3:15: error: duplicate key 'empty' in a node (first at 3:4)\n"},
		{"- x", "t.yaml:3:3: error: expected a node (a mapping with a kind such as 'kernel: {...}') for 'nodes', found 'x'\n"},
		{"- {id: [a], empty: {}}", "t.yaml:3:8: error: expected a node id for 'id', found a list\n"},
		{"- {empty: 1}", "t.yaml:3:11: error: expected {} or nothing for 'empty', found '1'\n"},
		{"- {empty: {x: 1}}", "t.yaml:3:12: error: unknown key 'x' in 'empty' (it takes no keys)\n"},
		{"- {kernel: {grid: 1}}", "t.yaml:3:12: error: missing key 'function' in 'kernel'\n"},
		{"- {kernel: k.f}", "t.yaml:3:12: error: expected a mapping {function, grid, block, shared, args} for 'kernel', found 'k.f'\n"},
		{"- {kernel: {function: k.f, grid: 0}}", "t.yaml:3:34: error: value '0' for 'grid' is out of range (1 to 2147483647)\n"},
		{"- {kernel: {function: k.f, block: []}}", "t.yaml:3:35: error: expected 1 to 3 sizes [x, y, z] for 'block', found 0\n"},
		{"- {kernel: {function: k.f, block: {x: 1}}}", "t.yaml:3:35: error: expected an integer or a list [x, y, z] for 'block', found a mapping\n"},
		{"- {kernel: {function: k.f, shared: 4 GiB}}", "t.yaml:3:36: error: size '4 GiB' for 'shared' is out of range (at most 4294967295 bytes)\n"},
		{"- {kernel: {function: k.f, priority: 2147483648}}", "t.yaml:3:38: error: value '2147483648' for 'priority' is out of range (-2147483648 to 2147483647)\n"},
		{"- {kernel: {function: k.f, args: x}}", "t.yaml:3:34: error: expected a list of kernel arguments for 'args', found 'x'\n"},
		{"- {kernel: {function: k.f, args: [5]}}", "t.yaml:3:35: error: untyped kernel argument 5: write {i32: 5}, {f32: 5} or another element type\n"},
		{"- {kernel: {function: k.f, args: [-0.5]}}", "t.yaml:3:35: error: untyped kernel argument -0.5: write {f32: -0.5}, {f64: -0.5} or another element type\n"},
		{"- {kernel: {function: k.f, args: [{}]}}", "t.yaml:3:35: error: a kernel argument needs a form: a buffer name, {buffer: x, offset: n}, {pitch: x}, {handle: c}, {bytes: \"...\"}, {struct: [...]} or a typed value such as {f32: 1.5}\n"},
		{"- {kernel: {function: k.f, args: [{offset: 1}]}}", "t.yaml:3:35: error: a kernel argument needs a form: a buffer name, {buffer: x, offset: n}, {pitch: x}, {handle: c}, {bytes: \"...\"}, {struct: [...]} or a typed value such as {f32: 1.5}\n"},
		{"- {kernel: {function: k.f, args: [{handle: c, offset: 1}]}}", "t.yaml:3:47: error: 'offset' goes with 'buffer' in a kernel argument ({buffer: x, offset: n})\n"},
		{"- {kernel: {function: k.f, args: [{f32: \"1\"}]}}", "t.yaml:3:41: error: expected a number for 'f32', found the string \"1\" (quotes make it a string)\n"},
		{"- {kernel: {function: k.f, args: [{bytes: xyz1}]}}", "t.yaml:3:43: error: expected hex digits, two per byte (such as \"00ff10ab\") for 'bytes', found 'xyz1'\n"},
		{"- {kernel: {function: k.f, args: [{struct: {a: 1}}]}}", "t.yaml:3:44: error: expected a list of fields for 'struct', found a mapping\n"},
		{"- {kernel: {function: k.f, args: [[x]]}}", "t.yaml:3:35: error: expected a kernel argument (a buffer name, or a mapping such as {f32: 1.5}) for 'args', found a list\n"},
		{"- {memset: {buffer: x}}", "t.yaml:3:12: error: missing key 'value' in 'memset'\n"},
		{"- {memset: {buffer: x, value: 1, count: -2}}", "t.yaml:3:41: error: value '-2' for 'count' is out of range (1 to 18446744073709551615)\n"},
		{"- {copy: {from: x}}", "t.yaml:3:10: error: missing key 'to' in 'copy'\n"},
		{"- {copy: {from: {offset: 1}, to: y}}", "t.yaml:3:17: error: missing key 'buffer' in 'from'\n"},
		{"- {alloc: [x]}", "t.yaml:3:11: error: expected a buffer name for 'alloc', found a list\n"},
		{"- {event_wait: }", "t.yaml:3:16: error: expected an event name for 'event_wait', found null\n"},
		{"- {host: {}}", "t.yaml:3:10: error: 'host' needs an action: {print: text}, {sleep: duration}, {dump: buffer}, {set: {buffer, value}}, {copy: {from, to}} or {call: {library, function}}\n"},
		{"- {host: {print: a, dump: b}}", "t.yaml:3:21: error: 'host' takes one action, found 'print' (at 3:11) and 'dump'\n"},
		{"- {host: {sleep: -1 s}}", "t.yaml:3:18: error: expected a duration (seconds, or a number and a unit such as '10 ms') for 'sleep', found '-1 s'\n"},
		{"- {if: {condition: c}}", "t.yaml:3:8: error: missing key 'then' in 'if'\n"},
		{"- {if: {condition: c, then: [], body: []}}", "t.yaml:3:33: error: unknown key 'body' in 'if' (expected condition, then or else)\n"},
		{"- {while: {body: []}}", "t.yaml:3:11: error: missing key 'condition' in 'while'\n"},
		{"- {while: {condition: c, body: x}}", "t.yaml:3:32: error: expected a graph (a list of nodes, or a mapping {nodes, edges, chain}) for 'body', found 'x'\n"},
		{"- {switch: {condition: c, cases: [x]}}", "t.yaml:3:35: error: expected a graph (a list of nodes, or a mapping {nodes, edges, chain}) for 'cases', found 'x'\n"},
		{"- {graph: {nodes: [], chain: 1}}", "t.yaml:3:30: error: expected true or false for 'chain', found '1'\n"},
		{"- {graph: {node: []}}", "t.yaml:3:12: error: unknown key 'node' in graph 'graph' (did you mean 'nodes'?)\n"},
		{"- {empty: {}, after: {a: 1}}", "t.yaml:3:23: error: unknown key 'a' in an after entry (expected node, port or type)\n"},
		{"- {empty: {}, after: [a, [b]]}", "t.yaml:3:26: error: expected a node id or {node: id, port: p, type: t} for 'after', found a list\n"},
		{"- {cublas: {gemmm: {}}}", "t.yaml:3:13: error: unknown cuBLAS routine 'gemmm' (did you mean 'gemm'?)\n"},
		{"- {cublas: {}}", "t.yaml:3:12: error: 'cublas' needs a routine: one of gemm, gemmStridedBatched, gemv, axpy, copy, dot, nrm2 or scal\n"},
		{"- {cublas: {axpy: {n: -1}}}", "t.yaml:3:23: error: value '-1' for 'n' is out of range (0 to 2147483647)\n"},
		{"- {cublas: {gemm: {transa: Q}}}", "t.yaml:3:28: error: unknown operation 'Q' for 'transa' (expected N, T or C, each with or without CUBLAS_OP_)\n"},
		{"- {cublas: {Sgemm: {A: {offset: 1}}}}", "t.yaml:3:24: error: missing key 'buffer' in 'A'\n"},
		{"- {cublas: {gemm: {}, dot: {}}}", "t.yaml:3:23: error: a cublas node makes one call, found 'gemm' (at 3:13) and 'dot'\n"},
		{"- {cufft: {type: C2C, n: 8}}", "t.yaml:3:11: error: missing key 'idata' in 'cufft'\n"},
		{"- {cufft: {n: [1, 2, 3, 4], type: C2C, idata: x}}", "t.yaml:3:25: error: 'n' has at most 3 dimensions (cuFFT plans are 1-D, 2-D or 3-D)\n"},
		{"- {cufft: {type: C2C, n: 8, idata: x, direction: sideways}}", "t.yaml:3:50: error: unknown direction 'sideways' for 'direction' (expected FORWARD or INVERSE, each with or without CUFFT_)\n"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char text[512];
		snprintf(text, sizeof text, "cugraphrun: 1\nnodes:\n%s\n", cases[i].text);
		struct res r = load(text);
		ck_assert_msg(strcmp(r.msgs, cases[i].want) == 0, "case %zu: got\n%swant\n%s", i,
			      r.msgs, cases[i].want);
		ck_assert_uint_eq(r.nerrors, 1);
		ck_assert_ptr_nonnull(r.g);
		res_free(&r);
	}
}
END_TEST

START_TEST(test_edge_errors)
{
	expect_msgs(
		"cugraphrun: 1\n"
		"edges:\n"
		"  - a\n"
		"  - a -> \n"
		"  - \"-> b\"\n"
		"  - a -> -> b\n"
		"  - [a]\n"
		"  - [a, b, c]\n"
		"  - {a: b}\n"
		"  - [a, [b]]\n"
		"  - a -> b\n",
		"t.yaml:3:5: error: expected an edge (\"a -> b\", \"a -> b -> c\", [a, b] or {from: a, to: b}) for 'edges', found 'a'\n"
		"t.yaml:4:5: error: expected an edge (\"a -> b\", \"a -> b -> c\", [a, b] or {from: a, to: b}) for 'edges', found 'a ->'\n"
		"t.yaml:5:5: error: expected an edge (\"a -> b\", \"a -> b -> c\", [a, b] or {from: a, to: b}) for 'edges', found the string \"-> b\"\n"
		"t.yaml:6:5: error: expected an edge (\"a -> b\", \"a -> b -> c\", [a, b] or {from: a, to: b}) for 'edges', found 'a -> -> b'\n"
		"t.yaml:7:5: error: an edge list names two nodes [from, to], found 1\n"
		"t.yaml:8:5: error: an edge list names two nodes [from, to], found 3\n"
		"t.yaml:9:6: error: unknown key 'a' in an edge (expected from, to, port or type)\n"
		"t.yaml:10:9: error: expected a node id for 'edges', found a list\n");
	/* The one good edge was kept. */
	struct res r = load("cugraphrun: 1\nedges: [x, a -> b]\n");
	ck_assert_uint_eq(r.g->root->nedges, 1);
	res_free(&r);
}
END_TEST

/* All errors are reported, and a file with value errors still loads. */
START_TEST(test_all_errors)
{
	struct res r = load(
		"cugraphrun: 1\n"
		"buffers:\n"
		"  x: {type: f31, count: -1}\n"
		"nodes:\n"
		"  - {kernel: {function: k.f, grid: 0}}\n"
		"  - empty: {}\n"
		"  - {bogus: 1}\n");
	ck_assert_uint_eq(r.nerrors, 4);
	ck_assert_ptr_nonnull(r.g);
	/* The node without a kind is dropped; the others stay, with their ids. */
	ck_assert_uint_eq(r.g->root->nnodes, 2);
	ck_assert_str_eq(r.g->root->nodes[1]->id, "empty_1");
	ck_assert_str_eq(r.msgs,
		"t.yaml:3:13: error: unknown element type 'f31' (did you mean 'f32'?)\n"
		"t.yaml:3:25: error: value '-1' for 'count' is out of range (0 to 18446744073709551615)\n"
		"t.yaml:5:36: error: value '0' for 'grid' is out of range (1 to 2147483647)\n"
		"t.yaml:7:6: error: unknown key 'bogus' in a node (expected kernel, id, after, memset, copy, empty, graph, alloc, free, event_record, event_wait, host, if, while, switch, memop, cublas, cufft, enabled or device)\n");
	res_free(&r);
}
END_TEST

/* ------------------------------------------------------------------ */

START_TEST(test_hostile_empty_and_binary)
{
	static const char garbage[] = "\x7f" "ELF\x02\x01\x01\x00\x00\x00\xff\xfe\x80";
	struct res r = load_with("bin.yaml", garbage, sizeof garbage - 1, NULL);
	ck_assert_ptr_null(r.g);
	ck_assert_str_eq(r.msgs, "bin.yaml:1:1: error: the file is not UTF-8 text: control characters are not allowed (0x7f at byte 0)\n");
	res_free(&r);

	static const char latin1[] = "cugraphrun: 1\nname: caf\xe9!\n";
	r = load_with("l.yaml", latin1, sizeof latin1 - 1, NULL);
	ck_assert_ptr_null(r.g);
	ck_assert_str_eq(r.msgs, "l.yaml:2:11: error: the file is not UTF-8 text: invalid trailing UTF-8 octet (0x21 at byte 24)\n");
	res_free(&r);

	/* Random bytes: whatever libyaml says, one error and no model. */
	char buf[4096];
	unsigned seed = 12345;
	for (size_t i = 0; i < sizeof buf; i++) {
		seed = seed * 1103515245 + 12345;
		buf[i] = (char)(seed >> 16);
	}
	r = load_with("rand.yaml", buf, sizeof buf, NULL);
	ck_assert_ptr_null(r.g);
	ck_assert_uint_eq(r.nerrors, 1);
	ck_assert(strncmp(r.msgs, "rand.yaml:", 10) == 0);
	res_free(&r);

	r = load_with("e.yaml", "", 0, NULL);
	ck_assert_ptr_null(r.g);
	ck_assert_uint_eq(r.nerrors, 1);
	res_free(&r);
}
END_TEST

/* Nine levels of ten aliases: 10^9 empty nodes, stopped by the budget. */
START_TEST(test_hostile_billion_laughs)
{
	char text[4096];
	size_t n = (size_t)snprintf(text, sizeof text, "cugraphrun: 1\nnodes:\n  - &l0 {empty: {}}\n");
	for (int i = 1; i <= 9; i++) {
		n += (size_t)snprintf(text + n, sizeof text - n, "  - &l%d {graph: [", i);
		for (int j = 0; j < 10; j++)
			n += (size_t)snprintf(text + n, sizeof text - n, "%s*l%d", j ? ", " : "", i - 1);
		n += (size_t)snprintf(text + n, sizeof text - n, "]}\n");
	}
	struct res r = load(text);
	ck_assert_ptr_null(r.g);
	ck_assert_str_eq(r.msgs, "t.yaml:9:18: error: alias '*l5' expands to 555555 YAML events; with the 617250 expanded before it, that passes the limit of 1000000 for all aliases together\n");
	ck_assert_msg(r.seconds < 2.0 * SLOWDOWN, "took %.2f s", r.seconds);
	res_free(&r);

	/* The classic form, its anchors under keys that are skipped unread. */
	n = (size_t)snprintf(text, sizeof text, "cugraphrun: 1\nx0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
	for (int i = 1; i <= 9; i++) {
		n += (size_t)snprintf(text + n, sizeof text - n, "x%d: &a%d [", i, i);
		for (int j = 0; j < 9; j++)
			n += (size_t)snprintf(text + n, sizeof text - n, "%s*a%d", j ? ", " : "", i - 1);
		n += (size_t)snprintf(text + n, sizeof text - n, "]\n");
	}
	n += (size_t)snprintf(text + n, sizeof text - n, "events: *a9\n");
	r = load(text);
	ck_assert_ptr_null(r.g);
	ck_assert_uint_eq(r.nerrors, 11);
	ck_assert_ptr_nonnull(strstr(r.msgs, "t.yaml:12:9: error: alias '*a9' expands to 4358480501 YAML events, more than the limit of 1000000 for all aliases together\n"));
	ck_assert_msg(r.seconds < 1.0 * SLOWDOWN, "took %.2f s", r.seconds);
	res_free(&r);
}
END_TEST

/* Ten million nodes through aliases: fails at once, at the alias. */
START_TEST(test_hostile_ten_million)
{
	/* Seven levels of ten under a key that is skipped: one alias of 10^7. */
	char text[4096];
	size_t n = (size_t)snprintf(text, sizeof text, "cugraphrun: 1\ndefs:\n  - &d0 {empty: {}}\n");
	for (int i = 1; i <= 7; i++) {
		n += (size_t)snprintf(text + n, sizeof text - n, "  - &d%d {graph: [", i);
		for (int j = 0; j < 10; j++)
			n += (size_t)snprintf(text + n, sizeof text - n, "%s*d%d", j ? ", " : "", i - 1);
		n += (size_t)snprintf(text + n, sizeof text - n, "]}\n");
	}
	n += (size_t)snprintf(text + n, sizeof text - n, "nodes:\n  - *d7\n");
	struct res r = load(text);
	ck_assert_ptr_null(r.g);
	ck_assert_str_eq(r.msgs,
		"t.yaml:2:1: error: unknown key 'defs' at the top level (expected cugraphrun, name, description, modules, buffers, events, conditions, nodes, edges, checks, run, axes, throughput or requires)\n"
		"t.yaml:12:5: error: alias '*d7' expands to 55555555 YAML events, more than the limit of 1000000 for all aliases together\n");
	ck_assert_msg(r.seconds < 0.5 * SLOWDOWN, "took %.2f s", r.seconds);
	res_free(&r);

	/* A graph of 1,000 nodes used 10,000 times: fails within the budget. */
	size_t cap = 1 << 20;
	char *big = malloc(cap);
	ck_assert_ptr_nonnull(big);
	n = (size_t)snprintf(big, cap, "cugraphrun: 1\nnodes:\n  - graph: &k\n");
	for (int i = 0; i < 1000; i++)
		n += (size_t)snprintf(big + n, cap - n, "      - empty: {}\n");
	n += (size_t)snprintf(big + n, cap - n, "  - graph: [");
	for (int i = 0; i < 10000; i++)
		n += (size_t)snprintf(big + n, cap - n, "%s{graph: *k}", i ? ", " : "");
	n += (size_t)snprintf(big + n, cap - n, "]\n");
	r = load_with("t.yaml", big, n, NULL);
	ck_assert_ptr_null(r.g);
	ck_assert_str_eq(r.msgs, "t.yaml:1004:2608: error: alias '*k' expands to 5002 YAML events; with the 995398 expanded before it, that passes the limit of 1000000 for all aliases together\n");
	ck_assert_msg(r.seconds < 2.0 * SLOWDOWN, "took %.2f s", r.seconds);
	res_free(&r);
	free(big);
}
END_TEST

START_TEST(test_hostile_nesting)
{
	/* 200 KB of '[' */
	size_t len = 200 * 1024;
	char *text = malloc(len + 32);
	ck_assert_ptr_nonnull(text);
	strcpy(text, "cugraphrun: 1\nnodes: ");
	size_t n = strlen(text);
	memset(text + n, '[', len);
	n += len;
	struct res r = load_with("t.yaml", text, n, NULL);
	ck_assert_ptr_null(r.g);
	ck_assert_str_eq(r.msgs,
		"t.yaml:2:9: error: expected a node (a mapping with a kind such as 'kernel: {...}') for 'nodes', found a list\n"
		"t.yaml:2:71: error: lists and mappings nested more than 64 deep (a limit of any file; graphs themselves nest at most 10 deep)\n");
	ck_assert_msg(r.seconds < 0.5 * SLOWDOWN, "took %.2f s", r.seconds);
	res_free(&r);

	/* 200 KB of '{': each mapping the key of the one before. */
	memset(text, '{', len);
	r = load_with("t.yaml", text, len, NULL);
	ck_assert_ptr_null(r.g);
	ck_assert_str_eq(r.msgs,
		"t.yaml:1:2: error: expected a key (a name), found a mapping\n"
		"t.yaml:1:65: error: lists and mappings nested more than 64 deep (a limit of any file; graphs themselves nest at most 10 deep)\n");
	res_free(&r);
	free(text);

	/* Block-style child graphs: each level is a list and a mapping. */
	char deep[8192];
	n = (size_t)snprintf(deep, sizeof deep, "cugraphrun: 1\nnodes:\n");
	for (int i = 0; i < 40; i++)
		n += (size_t)snprintf(deep + n, sizeof deep - n, "%*s- graph:\n", 2 + 4 * i, "");
	n += (size_t)snprintf(deep + n, sizeof deep - n, "%*s- empty: {}\n", 2 + 4 * 40, "");
	r = load(deep);
	ck_assert_ptr_null(r.g);
	/* the format's own limit is said first, at the graph past it */
	ck_assert_str_eq(r.msgs, "t.yaml:14:47: error: graph nested 11 deep: child graphs and "
			 "conditional bodies nest at most 10 deep (the root graph's nodes hold "
			 "graphs of depth 1)\n"
			 "t.yaml:34:129: error: lists and mappings nested more than 64 deep (a limit "
			 "of any file; graphs themselves nest at most 10 deep)\n");
	res_free(&r);

	/* Ten levels are fine; eleven are not, with no more than that said. */
	for (int levels = 10; levels <= 11; levels++) {
		n = (size_t)snprintf(deep, sizeof deep, "cugraphrun: 1\nnodes:\n");
		for (int i = 0; i < levels; i++)
			n += (size_t)snprintf(deep + n, sizeof deep - n, "%*s- graph:\n", 2 + 4 * i,
					      "");
		n += (size_t)snprintf(deep + n, sizeof deep - n, "%*s- empty: {}\n",
				      2 + 4 * levels, "");
		if (levels == 11) {
			expect_msgs(deep, "t.yaml:14:47: error: graph nested 11 deep: child graphs "
				    "and conditional bodies nest at most 10 deep (the root graph's "
				    "nodes hold graphs of depth 1)\n");
			break;
		}
		struct gdef *g = load_ok(deep);
		const struct graph *gr = g->root;
		for (int i = 0; i < levels; i++)
			gr = node_at(gr, 0)->u.child;
		ck_assert_int_eq(node_at(gr, 0)->kind, NK_EMPTY);
		gdef_free(g);
	}
}
END_TEST

START_TEST(test_hostile_numbers)
{
	expect_msgs("cugraphrun: 1\nbuffers:\n  x: {size: 1180591620717411303424}\n",
		    "t.yaml:3:13: error: size '1180591620717411303424' for 'size' is out of range (at most 18446744073709551615 bytes)\n");
	expect_msgs("cugraphrun: 1\nbuffers:\n  x: {size: 1073741824 TiB}\n",
		    "t.yaml:3:13: error: size '1073741824 TiB' for 'size' is out of range (at most 18446744073709551615 bytes)\n");
	expect_msgs("cugraphrun: 1\nbuffers:\n  x: {count: 0x1ffffffffffffffff}\n",
		    "t.yaml:3:14: error: value '0x1ffffffffffffffff' for 'count' is out of range (0 to 18446744073709551615)\n");
	expect_msgs("cugraphrun: 1\nnodes: [{kernel: {function: k.f, grid: [1, 99999999999999999999999999999]}}]\n",
		    "t.yaml:2:44: error: value '99999999999999999999999999999' for 'grid' is out of range (1 to 2147483647)\n");
	/* The largest values that fit do load. */
	struct gdef *g = load_ok("cugraphrun: 1\nbuffers:\n  x: {size: 18446744073709551615, count: 0xffffffffffffffff}\n");
	ck_assert_uint_eq(g->buffers[0].size, UINT64_MAX);
	ck_assert_uint_eq(g->buffers[0].count, UINT64_MAX);
	gdef_free(g);
}
END_TEST

/* Echoed text is clipped: a huge scalar does not make a huge message. */
START_TEST(test_hostile_long_text)
{
	size_t n = 100000;
	char *text = malloc(n + 64);
	ck_assert_ptr_nonnull(text);
	strcpy(text, "cugraphrun: 1\nbuffers: {x: {count: ");
	size_t at = strlen(text);
	memset(text + at, '9', n);
	strcpy(text + at + n, "}}\n");
	struct res r = load(text);
	char want[256];
	snprintf(want, sizeof want, "t.yaml:2:22: error: value '%.60s' for 'count' is out of range (0 to 18446744073709551615)\n",
		 text + at);
	ck_assert_str_eq(r.msgs, want);
	res_free(&r);

	/* YAML allows implicit keys of up to 1024 characters. */
	strcpy(text, "cugraphrun: 1\n");
	at = strlen(text);
	memset(text + at, 'k', 1000);
	strcpy(text + at + 1000, ": 1\n");
	r = load(text);
	ck_assert_uint_eq(r.nerrors, 1);
	ck_assert_uint_lt(r.msgs_len, 300);
	ck_assert(strncmp(r.msgs, "t.yaml:2:1: error: unknown key 'kkkk", 36) == 0);
	res_free(&r);
	free(text);
}
END_TEST

START_TEST(test_aliases_errors)
{
	expect_msgs("cugraphrun: 1\nbuffers:\n  x: *none\n",
		    "t.yaml:3:6: error: unknown anchor in alias '*none' (an anchor '&none' must come before its aliases)\n");
	expect_msgs("cugraphrun: 1\nnodes:\n  - &me {graph: [*me]}\n",
		    "t.yaml:3:18: error: alias '*me' is inside the node it refers to (recursive structures are not supported)\n");
	/* A broken alias stands for nothing and is reported once. */
	expect_msgs("cugraphrun: 1\nnodes: [{memset: {buffer: *b, value: *v}}]\n",
		    "t.yaml:2:27: error: unknown anchor in alias '*b' (an anchor '&b' must come before its aliases)\n"
		    "t.yaml:2:38: error: unknown anchor in alias '*v' (an anchor '&v' must come before its aliases)\n");
	/* Redefining an anchor is allowed: an alias takes the latest. */
	struct gdef *g = load_ok("cugraphrun: 1\nbuffers:\n  a: {count: &n 1}\n  b: {count: &n 2}\n  c: {count: *n}\n");
	ck_assert_uint_eq(g->buffers[2].count, 2);
	gdef_free(g);
}
END_TEST

START_TEST(test_limits)
{
	struct load_limits lim = load_default_limits;
	ck_assert_uint_eq(lim.max_depth, 64);
	ck_assert_uint_eq(lim.max_alias_events, 1000000);
	ck_assert_uint_eq(lim.max_file_size, (size_t)1 << 30);

	const char *text = "cugraphrun: 1\nnodes: [{graph: [{empty: {}}]}]\n";
	/* The mapping of 'empty' is the sixth collection down. */
	lim.max_depth = 6;
	struct res r = load_with("t.yaml", text, strlen(text), &lim);
	ck_assert_ptr_nonnull(r.g);
	ck_assert_uint_eq(r.nerrors, 0);
	res_free(&r);
	lim.max_depth = 5;
	r = load_with("t.yaml", text, strlen(text), &lim);
	ck_assert_ptr_null(r.g);
	ck_assert_str_eq(r.msgs, "t.yaml:2:26: error: lists and mappings nested more than 5 deep (a limit of any file; graphs themselves nest at most 10 deep)\n");
	res_free(&r);

	lim = load_default_limits;
	text = "cugraphrun: 1\nbuffers:\n  a: &a {count: 1}\n  b: *a\n  c: *a\n";
	lim.max_alias_events = 8;
	r = load_with("t.yaml", text, strlen(text), &lim);
	ck_assert_ptr_nonnull(r.g);
	ck_assert_uint_eq(r.nerrors, 0);
	res_free(&r);
	lim.max_alias_events = 7;
	r = load_with("t.yaml", text, strlen(text), &lim);
	ck_assert_ptr_null(r.g);
	ck_assert_str_eq(r.msgs, "t.yaml:5:6: error: alias '*a' expands to 4 YAML events; with the 4 expanded before it, that passes the limit of 7 for all aliases together\n");
	res_free(&r);

	lim = load_default_limits;
	lim.max_file_size = 10;
	r = load_with("t.yaml", text, strlen(text), &lim);
	ck_assert_ptr_null(r.g);
	ck_assert_str_eq(r.msgs, "t.yaml: error: t.yaml is too large (58 bytes; the limit is 10)\n");
	res_free(&r);
}
END_TEST

/* gdef_load reads files: the same model as from memory, or an error. */
START_TEST(test_load_file)
{
	char dir[] = "/tmp/check_load.XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char path[64];
	snprintf(path, sizeof path, "%s/g.yaml", dir);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs("cugraphrun: 1\nmodules: {k: k.ptx}\nnodes: [{kernel: {function: k.f}}]\n", f);
	fclose(f);

	char *msgs;
	size_t len;
	FILE *out = open_memstream(&msgs, &len);
	struct diag d;
	diag_init(&d, path, out);
	struct gdef *g = gdef_load(path, &d);
	fclose(out);
	ck_assert_ptr_nonnull(g);
	ck_assert_str_eq(msgs, "");
	ck_assert_str_eq(g->file, path);
	char want[256];
	snprintf(want, sizeof want, "%s/k.ptx", dir);
	ck_assert_str_eq(g->modules[1].path, want);
	ck_assert_str_eq(g->root->nodes[0]->id, "kernel_1");
	gdef_free(g);
	free(msgs);

	/* An empty file, a missing one and a directory. */
	f = fopen(path, "w");
	fclose(f);
	out = open_memstream(&msgs, &len);
	diag_init(&d, "g.yaml", out);
	ck_assert_ptr_null(gdef_load(path, &d));
	fclose(out);
	ck_assert_str_eq(msgs, "g.yaml:1:1: error: the file is empty (expected a mapping that starts with 'cugraphrun: 1')\n");
	free(msgs);
	unlink(path);

	out = open_memstream(&msgs, &len);
	diag_init(&d, "g.yaml", out);
	ck_assert_ptr_null(gdef_load(path, &d));
	fclose(out);
	snprintf(want, sizeof want, "g.yaml: error: cannot read %s: No such file or directory\n", path);
	ck_assert_str_eq(msgs, want);
	free(msgs);

	out = open_memstream(&msgs, &len);
	diag_init(&d, dir, out);
	ck_assert_ptr_null(gdef_load(dir, &d));
	fclose(out);
	ck_assert_ptr_nonnull(strstr(msgs, "Is a directory"));
	free(msgs);
	rmdir(dir);
}
END_TEST

/*
 * What CUDA 12 and 13 added, into the model and through the validator:
 * edge data, launch attributes, enabled: false, memop nodes, the
 * persisting-L2 key; then --disable.
 */
START_TEST(test_driver_features)
{
	char text[2048];
	snprintf(text, sizeof text,
		"cugraphrun: 1\n"
		"modules: {p: %s/tests/errors/kernels/pdl.ptx}\n"
		"buffers:\n"
		"  x: {type: f32, count: 64}\n"
		"  f: {type: u64, count: 4}\n"
		"nodes:\n"
		"  - {id: a, kernel: {function: p.produce, grid: 2, args: [x], cluster: [2, 1], cooperative: true}}\n"
		"  - id: b\n"
		"    kernel:\n"
		"      function: p.consume\n"
		"      args: [x]\n"
		"      grid: 4\n"
		"      access_policy: {buffer: x, offset: 8, hit_ratio: 0.25, miss: normal}\n"
		"      device_updatable: true\n"
		"      carveout: 30\n"
		"    after: [{node: a, port: launch_order, type: programmatic}]\n"
		"    enabled: false\n"
		"  - {id: m, memop: [{write: f, offset: 1, value: 7}, {wait: f, value: 7, compare: and, flush: true}, flush_remote_writes, {barrier: gpu}]}\n"
		"  - {id: c, memset: {buffer: x, value: 0}}\n"
		"edges:\n"
		"  - {from: b, to: m, port: default}\n"
		"  - a -> c\n"
		"run: {persisting_l2: 2 MiB}\n", TOP_SRCDIR);
	struct gdef *g = load_ok(text);
	/* edge data: the after entry of b, the edges entry b -> m */
	ck_assert_uint_eq(g->root->ntyped, 2);
	const struct typed_edge *t = &g->root->typed[0];
	ck_assert_ptr_eq(t->to, node_at(g->root, 1));
	ck_assert_uint_eq(t->index, 0);
	ck_assert_int_eq(t->port, PORT_LAUNCH_ORDER);
	ck_assert_int_eq(t->type, ETYPE_PROGRAMMATIC);
	ck_pos(t->pos, 16, 13);
	ck_pos(t->port_pos, 16, 29);
	t = &g->root->typed[1];
	ck_assert_ptr_null(t->to);
	ck_assert_uint_eq(t->index, 0);
	ck_assert_int_eq(t->port, PORT_DEFAULT);
	ck_assert_uint_eq(t->type_pos.line, 0);
	ck_assert_uint_eq(g->root->nedges, 2);
	/* launch attributes, beside the nodes */
	ck_assert_uint_eq(g->nkattrs, 2);
	const struct kernel_attrs *ka = g->kattrs[0], *kb = g->kattrs[1];
	ck_assert_ptr_eq(ka->node, node_at(g->root, 0));
	ck_assert(kattr_set(ka, KATTR_CLUSTER) && kattr_set(ka, KATTR_COOPERATIVE));
	ck_assert(!kattr_set(ka, KATTR_ACCESS_POLICY));
	ck_assert_uint_eq(ka->cluster[0], 2);
	ck_assert_uint_eq(ka->cluster[2], 1);
	ck_assert(ka->cooperative);
	ck_assert(kattr_set(kb, KATTR_ACCESS_POLICY) && kattr_set(kb, KATTR_CARVEOUT));
	ck_assert_str_eq(kb->window.buffer.name, "x");
	ck_assert_uint_eq(kb->window.offset, 8);
	ck_assert(!kb->window.has_count);
	ck_assert_double_eq(kb->window.hit_ratio, 0.25);
	ck_assert_int_eq(kb->window.hit, ACCESS_PERSISTING);
	ck_assert_int_eq(kb->window.miss, ACCESS_NORMAL);
	ck_assert_int_eq(kb->carveout, 30);
	ck_assert(node_at(g->root, 1)->u.kernel.device_updatable);
	ck_assert(!node_at(g->root, 0)->u.kernel.device_updatable);
	/* enabled: false, where */
	ck_assert_uint_eq(g->noff, 1);
	ck_assert_ptr_eq(g->off[0].node, node_at(g->root, 1));
	ck_pos(g->off[0].pos, 17, 5);
	/* memop */
	const struct memop_node *m = &node_at(g->root, 2)->u.memop;
	ck_assert_uint_eq(m->nops, 4);
	ck_assert_int_eq(m->ops[0].kind, MEMOP_WRITE);
	ck_assert_uint_eq(m->ops[0].offset, 1);
	ck_assert_uint_eq(m->ops[0].value.u, 7);
	ck_assert_int_eq(m->ops[1].kind, MEMOP_WAIT);
	ck_assert_int_eq(m->ops[1].compare, CMP_AND);
	ck_assert(m->ops[1].flush);
	ck_assert_int_eq(m->ops[2].kind, MEMOP_FLUSH);
	ck_assert_int_eq(m->ops[3].kind, MEMOP_BARRIER);
	ck_assert_int_eq(m->ops[3].scope, SCOPE_GPU);
	ck_assert(g->run.has_persisting_l2);
	ck_assert_uint_eq(g->run.persisting_l2, 2u << 20);

	/* the validator resolves and fills in */
	struct diag d;
	diag_init(&d, "t.yaml", stderr);
	ck_assert(gdef_validate(g, &d));
	t = &g->root->typed[0];
	ck_assert_int_eq(t->from_local, 0);
	ck_assert_int_eq(t->to_local, 1);
	ck_assert_int_eq(g->root->typed[1].from_local, 1);
	ck_assert_int_eq(g->root->typed[1].to_local, 2);
	ck_assert_ptr_eq(kernel_attrs_of(g, node_at(g->root, 1)), kb);
	ck_assert_ptr_null(kernel_attrs_of(g, node_at(g->root, 3)));
	ck_assert_uint_eq(kb->window.count, 56);
	ck_assert(node_at(g->root, 1)->disabled);
	ck_assert(!node_at(g->root, 0)->disabled);
	ck_assert_uint_eq(m->ops[0].bits, 64);

	/* --disable: known ids are switched off, an unknown one is an error */
	const char *ids[] = {"c"}, *bad[] = {"nope"}, *empty[] = {"m"};
	ck_assert(gdef_disable(g, ids, 1, &d));
	ck_assert(node_at(g->root, 3)->disabled);
	FILE *quiet = fopen("/dev/null", "w");
	d.out = quiet;
	ck_assert(!gdef_disable(g, bad, 1, &d));
	ck_assert(!gdef_disable(g, empty, 1, &d));
	ck_assert(!node_at(g->root, 2)->disabled);
	fclose(quiet);
	gdef_free(g);
}
END_TEST

static Suite *load_suite(void)
{
	Suite *s = suite_create("load");
	TCase *tc = tcase_create("model");
	tcase_add_test(tc, test_minimal);
	tcase_add_test(tc, test_driver_features);
	tcase_add_test(tc, test_kernel_repeated_function);
	tcase_add_test(tc, test_top_and_modules);
	tcase_add_test(tc, test_buffers);
	tcase_add_test(tc, test_events_conditions);
	tcase_add_test(tc, test_kernel);
	tcase_add_test(tc, test_memset_copy);
	tcase_add_test(tc, test_small_kinds);
	tcase_add_test(tc, test_conditionals);
	tcase_add_test(tc, test_graphs_and_edges);
	tcase_add_test(tc, test_auto_ids);
	tcase_add_test(tc, test_auto_ids_in_order);
	tcase_add_test(tc, test_auto_ids_renumber_nested);
	tcase_add_test(tc, test_auto_ids_late_id);
	tcase_add_test(tc, test_checks_and_run);
	tcase_add_test(tc, test_scalar_styles);
	tcase_add_test(tc, test_aliases);
	tcase_add_test(tc, test_merge_keys);
	tcase_add_test(tc, test_load_file);
	suite_add_tcase(s, tc);

	tc = tcase_create("diagnostics");
	tcase_add_test(tc, test_shape_errors);
	tcase_add_test(tc, test_value_errors);
	tcase_add_test(tc, test_node_errors);
	tcase_add_test(tc, test_edge_errors);
	tcase_add_test(tc, test_merge_errors);
	tcase_add_test(tc, test_aliases_errors);
	tcase_add_test(tc, test_all_errors);
	suite_add_tcase(s, tc);

	tc = tcase_create("hostile");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_hostile_empty_and_binary);
	tcase_add_test(tc, test_hostile_billion_laughs);
	tcase_add_test(tc, test_hostile_ten_million);
	tcase_add_test(tc, test_hostile_nesting);
	tcase_add_test(tc, test_hostile_numbers);
	tcase_add_test(tc, test_hostile_long_text);
	tcase_add_test(tc, test_limits);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_MAIN(load_suite)
