/*
 * Unit tests for the buffers a node uses and how (model_uses.h), the
 * access a kernel's module gives its arguments (kernel_access.h), and
 * the 'access:' key of a kernel argument that says it in the file, and
 * the kind table's entries that go with them (model_kinds.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "kernel_access.h"
#include "load.h"
#include "model_derive.h"
#include "model_kinds.h"
#include "model_uses.h"
#include "unit.h"
#include "validate.h"

/* The messages of the last load. */
static char *msgs;
static size_t msgs_len;

/* text loaded as a file in tests/describe (kernels/ resolves there), validated when valid. */
static struct gdef *load(const char *text, bool valid)
{
	free(msgs);
	msgs = NULL;
	FILE *out = open_memstream(&msgs, &msgs_len);
	ck_assert_ptr_nonnull(out);
	struct diag d;
	diag_init(&d, TOP_SRCDIR "/tests/describe/uses.yaml", out);
	struct gdef *g = gdef_load_string(TOP_SRCDIR "/tests/describe/uses.yaml", text,
					  strlen(text), NULL, &d);
	if (valid && g && d.nerrors == 0)
		gdef_validate(g, &d);
	diag_finish(&d);
	unsigned nerrors = d.nerrors;
	diag_free(&d);
	fclose(out);
	if (valid)
		ck_assert_msg(g != NULL && nerrors == 0, "invalid:\n%s\n%s", text, msgs);
	return g;
}

/* The top-level node id (the loader's list: validated or not). */
static const struct node *node_id(const struct gdef *g, const char *id)
{
	for (size_t i = 0; i < g->root->nnodes; i++)
		if (strcmp(g->root->nodes[i]->id, id) == 0)
			return g->root->nodes[i];
	ck_abort_msg("no node %s", id);
	return NULL;
}

/* Each use as "buffer access [role] [@param+offset]", joined by "; ". */
struct record {
	char text[512];
	size_t n, stop_after;
	struct kernel_access *ka;       /* resolve kernels' accesses, or NULL */
	const struct node *node;
};

static bool record(void *ctx, const struct buf_use *u)
{
	static const char *const roles[] = {"", " alloc", " free", " pitch"};
	struct record *r = ctx;
	size_t len = strlen(r->text);
	enum use_access a = r->ka ? kernel_access_of(r->ka, r->node, u) : u->access;
	snprintf(r->text + len, sizeof r->text - len, "%s%s %s%s", len ? "; " : "",
		 u->buffer->name, use_access_name(a), roles[u->role]);
	len = strlen(r->text);
	if (u->arg)
		snprintf(r->text + len, sizeof r->text - len, " @%zu+%zu", u->param, u->offset);
	return ++r->n != r->stop_after;
}

static const char *uses_of(const struct gdef *g, const char *id, struct kernel_access *ka)
{
	static struct record r;
	memset(&r, 0, sizeof r);
	r.ka = ka;
	r.node = node_id(g, id);
	ck_assert(node_buffer_uses(r.node, record, &r));
	return r.text;
}

static const char every_kind[] =
	"cugraphrun: 1\n"
	"buffers:\n"
	"  a: {type: u32, count: 16}\n"
	"  b: {type: u32, count: 16}\n"
	"  h: {type: u32, count: 16, memory: host}\n"
	"  t: {type: f32, count: 16, memory: graph}\n"
	"conditions:\n"
	"  again: {default: 1}\n"
	"events: [e]\n"
	"nodes:\n"
	"  chain: true\n"
	"  nodes:\n"
	"    - {id: ms, memset: {buffer: a, value: 1}}\n"
	"    - {id: cp, copy: {from: a, to: b}}\n"
	"    - {id: al, alloc: t}\n"
	"    - {id: dump, host: {dump: h}}\n"
	"    - {id: hset, host: {set: {buffer: h, value: 2}}}\n"
	"    - {id: hcopy, host: {copy: {from: h, to: {buffer: h, offset: 8}, count: 8}}}\n"
	"    - {id: mo, memop: [{write: a, value: 1}, {barrier: gpu},\n"
	"                       {wait: b, value: 1}]}\n"
	"    - {id: rec, event_record: e}\n"
	"    - id: k\n"
	"      kernel: {function: builtin.countdown,\n"
	"               args: [{handle: again}, {buffer: a, access: readwrite}]}\n"
	"    - id: ks\n"
	"      kernel: {function: builtin.countdown,\n"
	"               args: [{handle: again}, {struct: [{u8: 1}, {buffer: b, access: read},\n"
	"                                                {i32: 2}, {buffer: a}]}]}\n"
	"    - id: kp\n"
	"      kernel: {function: builtin.countdown,\n"
	"               args: [{handle: again}, {struct: [{pitch: a}, {buffer: b}]}]}\n"
	"    - {id: fr, free: t}\n";

START_TEST(test_every_kind)
{
	/* loaded, not validated: the built-in countdown takes no struct */
	struct gdef *g = load(every_kind, false);
	ck_assert_ptr_nonnull(g);
	ck_assert_str_eq(msgs, "");
	static const struct {
		const char *id, *want;
	} cases[] = {
		{"ms", "a write"},
		{"cp", "a read; b write"},
		{"al", "t none alloc"},
		{"fr", "t none free"},
		{"dump", "h read"},
		{"hset", "h write"},
		{"hcopy", "h read; h write"},
		{"mo", "a write; b read"},
		{"rec", ""},
		/* the file's word; the handle is no buffer */
		{"k", "a readwrite @1+0"},
		/* struct fields packed as C does: b after a u8 at 8, a after an i32 at 24 */
		{"ks", "b read @1+8; a unknown @1+24"},
		/* {pitch: a} passes a number about a, none of its contents: role pitch, 8 bytes */
		{"kp", "a none pitch @1+0; b unknown @1+8"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
		ck_assert_str_eq(uses_of(g, cases[i].id, NULL), cases[i].want);
	/* a walk stops when asked */
	struct record r = {.stop_after = 1};
	ck_assert(!node_buffer_uses(node_id(g, "cp"), record, &r));
	ck_assert_str_eq(r.text, "a read");
	gdef_free(g);
}
END_TEST

START_TEST(test_kernel_access)
{
	/* kernels nvcc made from tests/describe/kernels/access.cu, one way each */
	struct gdef *g = load(
		"cugraphrun: 1\n"
		"modules: {a: kernels/access.ptx}\n"
		"buffers:\n"
		"  in: {type: f32, count: 256}\n"
		"  out: {type: f32, count: 256}\n"
		"  hits: {type: u32, count: 1}\n"
		"  saved: {type: u64, count: 1}\n"
		"  spare: {type: f32, count: 256}\n"
		"nodes:\n"
		"  - {id: fill, memset: {buffer: in, value: 1}}\n"
		"  - {id: copy, kernel: {function: a.copy, args: [in, out, {i32: 256}]}}\n"
		"  - {id: scale, kernel: {function: a.scale, args: [out, {f32: 2}, {i32: 256}]}}\n"
		"  - {id: count, kernel: {function: a.count, args: [hits]}}\n"
		"  - {id: keep, kernel: {function: a.keep, args: [in, saved]}}\n"
		"  - {id: keep_said, kernel: {function: a.keep,\n"
		"                             args: [{buffer: in, access: read}, saved]}}\n"
		"  - {id: ignore, kernel: {function: a.ignore, args: [spare]}}\n"
		"  - {id: gather, kernel: {function: a.gather,\n"
		"      args: [{struct: [{buffer: out}, {buffer: spare}, {i32: 256}]}]}}\n"
		"  - {id: call, kernel: {function: a.call, args: [spare]}}\n"
		"  - {id: call_said, kernel: {function: a.call,\n"
		"                             args: [{buffer: spare, access: readwrite}]}}\n",
		true);
	struct kernel_access *ka = kernel_access_new(g);
	static const struct {
		const char *id, *want;
	} cases[] = {
		{"fill", "in write"},
		{"copy", "in read @0+0; out write @1+0"},
		{"scale", "out readwrite @0+0"},
		{"count", "hits readwrite @0+0"},
		{"keep", "in unknown @0+0; saved write @1+0"},
		{"keep_said", "in read @0+0; saved write @1+0"},
		{"ignore", "spare none @0+0"},
		{"gather", "out read @0+0; spare write @0+8"},
		{"call", "spare unknown @0+0"},
		{"call_said", "spare readwrite @0+0"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
		ck_assert_str_eq(uses_of(g, cases[i].id, ka), cases[i].want);
	kernel_access_free(ka);
	gdef_free(g);

	/* a CUDA C++ module is not compiled to tell, nor a module that is no PTX */
	g = load("cugraphrun: 1\n"
		 "modules:\n"
		 "  c: kernels/access.cu\n"
		 "  k: kernels/k.ptx\n"
		 "buffers: {x: {type: f32, count: 4}}\n"
		 "conditions: {c: {default: 0}}\n"
		 "nodes:\n"
		 "  - {id: src, kernel: {function: c.count, args: [x]}}\n"
		 "  - {id: stand_in, kernel: {function: k.f, args: [x]}}\n"
		 "  - {id: builtin, kernel: {function: builtin.set_from, args: [{handle: c}, x]}}\n"
		 "  - {id: when, after: builtin, if: {condition: c, then: [{empty: {}}]}}\n", true);
	ka = kernel_access_new(g);
	ck_assert_str_eq(uses_of(g, "src", ka), "x unknown @0+0");
	ck_assert_str_eq(uses_of(g, "stand_in", ka), "x unknown @0+0");
	ck_assert_str_eq(uses_of(g, "builtin", ka), "x read @1+0");
	kernel_access_free(ka);
	gdef_free(g);
}
END_TEST

START_TEST(test_access_key)
{
	static const char head[] =
		"cugraphrun: 1\n"
		"buffers: {x: {type: f32, count: 4}}\n"
		"conditions: {c: {default: 0}}\n"
		"nodes:\n"
		"  - {id: k, kernel: {function: builtin.set_from, args: [{handle: c}, %s]}}\n"
		"  - {id: when, after: k, if: {condition: c, then: [{empty: {}}]}}\n";
	static const struct {
		const char *arg, *msg;
		int access;
	} cases[] = {
		{"{buffer: x, access: read}", NULL, ARG_ACCESS_READ},
		{"{access: write, buffer: x}", NULL, ARG_ACCESS_WRITE},
		{"{buffer: x, offset: 1, access: readwrite}", NULL, ARG_ACCESS_READWRITE},
		{"x", NULL, ARG_ACCESS_UNSAID},
		{"{buffer: x, access: rw}", "unknown access 'rw'", 0},
		{"{buffer: x, access: red}", "(did you mean 'read'?)", 0},
		{"{u32: 1, access: read}", "'access' goes with 'buffer' in a kernel argument", 0},
		{"{pitch: x, access: read}", "'access' goes with 'buffer' in a kernel argument", 0},
		{"{buffer: x, access: [read]}", "an access (read, write or readwrite)", 0},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char text[512];
		snprintf(text, sizeof text, head, cases[i].arg);
		struct gdef *g = load(text, cases[i].msg == NULL);
		if (cases[i].msg) {
			ck_assert_msg(strstr(msgs, cases[i].msg) != NULL, "%s: no '%s' in:\n%s",
				      cases[i].arg, cases[i].msg, msgs);
		} else {
			const struct node *n = g->root->nodes[0];
			ck_assert_int_eq(n->u.kernel.args[1].access, cases[i].access);
		}
		gdef_free(g);
	}
}
END_TEST

/* The walks that ask "does this node name that buffer" go through node_buffer_uses. */
START_TEST(test_names_buffer)
{
	struct gdef *g = load(every_kind, false);
	ck_assert_ptr_nonnull(g);
	static const struct {
		const char *id, *buffer;
		bool names;
	} cases[] = {
		{"ms", "a", true}, {"ms", "b", false}, {"cp", "b", true},
		{"al", "t", true}, {"fr", "t", true}, {"hset", "h", true},
		{"hcopy", "h", true}, {"mo", "b", true}, {"mo", "h", false},
		{"rec", "a", false}, {"k", "b", false}, {"ks", "a", true},
		{"ks", "b", true}, {"ks", "again", false},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
		ck_assert_msg(derive_node_names_buffer(node_id(g, cases[i].id), cases[i].buffer) ==
			      cases[i].names, "%s names %s", cases[i].id, cases[i].buffer);
	gdef_free(g);
}
END_TEST

static bool unresolved(void *ctx, const struct buf_use *u)
{
	ck_assert_int_eq(u->buffer->idx, -1);
	++*(size_t *)ctx;
	return true;
}

/* A kind's init leaves every reference its walk gives unresolved; NK_COUNT has no entry. */
START_TEST(test_kind_table)
{
	size_t seen = 0;
	for (int k = 0; k < NK_COUNT; k++) {
		struct node n = {0};
		node_init_kind(&n, (enum node_kind)k);
		ck_assert_int_eq(n.kind, k);
		if (k == NK_HOST)
			n.u.host.action = HOST_DUMP;
		ck_assert(node_buffer_uses(&n, unresolved, &seen));
	}
	/* memset, copy's two ends, alloc, free, the host dump */
	ck_assert_uint_eq(seen, 6);
	struct node none = {.kind = NK_COUNT};
	ck_assert(node_buffer_uses(&none, unresolved, &seen));
	ck_assert_uint_eq(seen, 6);
	ck_assert_ptr_null(node_kind_info(NK_COUNT));
}
END_TEST

static Suite *model_uses_suite(void)
{
	Suite *s = suite_create("model_uses");
	TCase *tc = tcase_create("uses");
	tcase_add_test(tc, test_every_kind);
	tcase_add_test(tc, test_kernel_access);
	tcase_add_test(tc, test_access_key);
	tcase_add_test(tc, test_names_buffer);
	tcase_add_test(tc, test_kind_table);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_MAIN(model_uses_suite)
