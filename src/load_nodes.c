/*
 * Memset, copy, empty, alloc, free, event, host and memop nodes (load_nodes.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load_nodes.h"
#include "load_region.h"
#include "xmalloc.h"

/* --- memset and copy --- */

/* offset: a flat offset, or a region's first element [y, x] */
static void key_memset_offset(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct memset_node *m = obj;
	read_offset(l, kd->name, &m->region, 0, &m->offset, &m->offset_pos);
}

static void key_memset_shape(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	read_region_shape(l, kd->name, &((struct memset_node *)obj)->region);
}

#define T struct memset_node
static const struct keydef memset_keys[] = {
	ROW_REF("buffer", T, buffer, "a buffer name"),
	ROW("value", FIELD_NUM, T, value),
	KEY("offset", key_memset_offset),
	ROW_UINT("count", T, count, 1, UINT64_MAX, POS(T, count_pos), HAS(T, has_count)),
	KEY("shape", key_memset_shape),
};
#undef T
static const struct keytab memset_tab = KEYTAB(memset_keys);

/* A memset's keys (a node's, or a host set's), ctx "in 'memset'". */
static void parse_memset_keys(struct ld *l, struct memset_node *m, const char *ctx)
{
	struct seen s;
	parse_keys(l, &memset_tab, m, ctx, &s);
	require_keys(l, &memset_tab, &s, 3, ctx);
	region_forms(l, m->region, m->offset_pos.line != 0, m->offset_pos, m->has_count,
		     m->count_pos, false, ctx);
}

void parse_memset(struct ld *l, struct node *n)
{
	if (!want_map(l, "a mapping {buffer, value, offset, count}", "memset"))
		return;
	parse_memset_keys(l, &n->u.memset, "in 'memset'");
}

/* One end of a copy being read: the end, and the copy that holds its region. */
struct end_ctx {
	struct copy_end e;
	struct copy_node *c;
	unsigned which;
};

/* offset: a flat offset, or the region's first element at this end [y, x] */
static void key_end_offset(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct end_ctx *x = obj;
	read_offset(l, kd->name, &x->c->region, x->which, &x->e.offset, &x->e.offset_pos);
}

static const struct keydef end_keys[] = {
	ROW_REF("buffer", struct end_ctx, e.buffer, "a buffer name"),
	KEY("offset", key_end_offset),
};
static const struct keytab end_tab = KEYTAB(end_keys);

/* from/to (end which of c): a buffer name or {buffer, offset}. */
static void parse_copy_end(struct ld *l, struct copy_node *c, unsigned which, const char *name)
{
	struct copy_end *e = which == END_TO ? &c->to : &c->from;
	e->offset_pos = l->es.ev.pos;
	if (l->es.ev.type == EV_MAP) {
		char ctx[96];
		struct seen s;
		struct end_ctx x = {*e, c, which};
		/* a flat offset's position says it was written */
		x.e.offset_pos = (struct pos){0};
		snprintf(ctx, sizeof ctx, "in '%.60s'", name);
		parse_keys(l, &end_tab, &x, ctx, &s);
		require_keys(l, &end_tab, &s, 1, ctx);
		*e = x.e;
		if (e->offset_pos.line == 0)
			e->offset_pos = s.pos;
		return;
	}
	get_ref(l, "a buffer name or {buffer, offset}", name, &e->buffer);
}

static void key_copy_from(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	parse_copy_end(l, obj, END_FROM, kd->name);
}

static void key_copy_to(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	parse_copy_end(l, obj, END_TO, kd->name);
}

static void key_copy_shape(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	read_region_shape(l, kd->name, &((struct copy_node *)obj)->region);
}

static const struct keydef copy_keys[] = {
	KEY("from", key_copy_from),
	KEY("to", key_copy_to),
	ROW_UINT("count", struct copy_node, count, 1, UINT64_MAX, POS(struct copy_node, count_pos),
		 HAS(struct copy_node, has_count)),
	KEY("shape", key_copy_shape),
};
static const struct keytab copy_tab = KEYTAB(copy_keys);

/* A copy's keys (a node's, or a host copy's). */
static void parse_copy_keys(struct ld *l, struct copy_node *c, const char *ctx)
{
	struct seen s;
	parse_keys(l, &copy_tab, c, ctx, &s);
	require_keys(l, &copy_tab, &s, 3, ctx);
	region_forms(l, c->region, false, (struct pos){0}, c->has_count, c->count_pos, true, ctx);
}

void parse_copy(struct ld *l, struct node *n)
{
	if (!want_map(l, "a mapping {from, to, count}", "copy"))
		return;
	parse_copy_keys(l, &n->u.copy, "in 'copy'");
}

/* --- the small kinds --- */

static const struct keytab no_keys = {NULL, 0, NULL};

void parse_empty(struct ld *l, struct node *n)
{
	struct seen s;
	if (ld_is_null(l))
		ld_next(l);
	else if (l->es.ev.type == EV_MAP)
		parse_keys(l, &no_keys, n, "in 'empty'", &s);
	else
		ld_expected(l, "{} or nothing", "empty");
}

void parse_alloc(struct ld *l, struct node *n)
{
	get_ref(l, "a buffer name", node_kind_names[n->kind], &n->u.buffer);
}

void parse_event_node(struct ld *l, struct node *n)
{
	get_ref(l, "an event name", node_kind_names[n->kind], &n->u.event);
}

static void key_host_print(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct host_node *h = obj;
	h->action = HOST_PRINT;
	get_text(l, "a text", kd->name, &h->text, NULL);
}

static void key_host_sleep(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct host_node *h = obj;
	h->action = HOST_SLEEP;
	get_duration(l, kd->name, &h->sleep_ns, NULL);
}

static void key_dump_offset(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct host_node *h = obj;
	read_offset(l, kd->name, &h->region, 0, &h->offset, &h->offset_pos);
}

static void key_dump_shape(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	read_region_shape(l, kd->name, &((struct host_node *)obj)->region);
}

#define T struct host_node
static const struct keydef dump_keys[] = {
	ROW_REF("buffer", T, buffer, "a buffer name"),
	KEY("offset", key_dump_offset),
	ROW_UINT("count", T, count, 1, UINT64_MAX, POS(T, count_pos), HAS(T, has_count)),
	ROW("every", FIELD_BOOL, T, every),
	KEY("shape", key_dump_shape),
};
#undef T
static const struct keytab dump_tab = KEYTAB(dump_keys);

/* dump: a buffer name, or {buffer, offset, count, every, shape}. */
static void key_host_dump(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct host_node *h = obj;
	h->action = HOST_DUMP;
	if (l->es.ev.type == EV_MAP) {
		struct seen s;
		parse_keys(l, &dump_tab, h, "in 'dump'", &s);
		require_keys(l, &dump_tab, &s, 1, "in 'dump'");
		region_forms(l, h->region, h->offset_pos.line != 0, h->offset_pos, h->has_count,
			     h->count_pos, false, "in 'dump'");
		return;
	}
	get_ref(l, "a buffer name or {buffer, offset, count, every}", kd->name, &h->buffer);
}

/* set: the keys of a memset, done by the host. */
static void key_host_set(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct host_node *h = obj;
	h->action = HOST_SET;
	h->set = arena_alloc(&l->g->arena, sizeof *h->set);
	memset(h->set, 0, sizeof *h->set);
	h->set->buffer.idx = -1;
	if (!want_map(l, "a mapping {buffer, value, offset, count}", kd->name))
		return;
	parse_memset_keys(l, h->set, "in 'set'");
}

/* copy: the keys of a copy node, done by the host. */
static void key_host_copy(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct host_node *h = obj;
	h->action = HOST_COPY;
	h->copy = arena_alloc(&l->g->arena, sizeof *h->copy);
	memset(h->copy, 0, sizeof *h->copy);
	h->copy->from.buffer.idx = h->copy->to.buffer.idx = -1;
	if (!want_map(l, "a mapping {from, to, count}", kd->name))
		return;
	parse_copy_keys(l, h->copy, "in 'copy'");
}

static void key_call_library(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct host_fn *f = obj;
	/* a path is the file's; a name alone is where dlopen finds it (host_lib.h) */
	if (get_text(l, "a shared library's file name", kd->name, &f->library, &f->library_pos))
		f->path = strchr(f->library, '/') ? gdef_resolve_path(l->g, f->library) : f->library;
}

/* buffers: a name, or a list of names, passed in that order. */
static void key_call_buffers(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct host_fn *f = obj;
	f->buffers_pos = l->es.ev.pos;
	if (l->es.ev.type != EV_SEQ) {
		f->buffers = arena_alloc(&l->g->arena, sizeof *f->buffers);
		f->nbuffers = get_ref(l, "a buffer name or a list of them", kd->name,
				      &f->buffers[0]) ? 1 : 0;
		return;
	}
	struct name_ref *v = NULL;
	size_t n = 0, cap = 0;
	ld_next(l);
	while (!l->es.fatal && l->es.ev.type != EV_SEQ_END) {
		struct name_ref r;
		if (get_ref(l, "a buffer name", kd->name, &r))
			*VEC_PUSH(v, n, cap) = r;
	}
	ld_next(l);
	if (n) {
		f->buffers = arena_alloc(&l->g->arena, n * sizeof *f->buffers);
		memcpy(f->buffers, v, n * sizeof *v);
	}
	f->nbuffers = n;
	free(v);
}

#define T struct host_fn
static const struct keydef call_keys[] = {
	KEY("library", key_call_library),
	ROW("function", FIELD_TEXT, T, function, POS(T, function_pos), .what = "a function's name"),
	KEY("buffers", key_call_buffers),
	ROW("arg", FIELD_TEXT, T, arg, .what = "a text for the function"),
};
#undef T
static const struct keytab call_tab = KEYTAB(call_keys);

/* call: {library, function, buffers, arg}: a function of the user's, by dlopen when it runs. */
static void key_host_call(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct host_node *h = obj;
	struct seen s;
	h->action = HOST_CALL;
	h->fn = arena_alloc(&l->g->arena, sizeof *h->fn);
	memset(h->fn, 0, sizeof *h->fn);
	if (!want_map(l, "a mapping {library, function, buffers, arg}", kd->name))
		return;
	parse_keys(l, &call_tab, h->fn, "in 'call'", &s);
	require_keys(l, &call_tab, &s, 3, "in 'call'");
}

static const struct keydef host_keys[] = {
	KEY("print", key_host_print),
	KEY("sleep", key_host_sleep),
	KEY("dump", key_host_dump),
	KEY("set", key_host_set),
	KEY("copy", key_host_copy),
	KEY("call", key_host_call),
};
static const struct keytab host_tab = KEYTAB(host_keys);
static const char host_actions[] = "{print: text}, {sleep: duration}, {dump: buffer}, "
	"{set: {buffer, value}}, {copy: {from, to}} or {call: {library, function}}";

void parse_host(struct ld *l, struct node *n)
{
	struct seen s;
	char what[160];
	snprintf(what, sizeof what, "a mapping %s", host_actions);
	if (!want_map(l, what, "host"))
		return;
	parse_keys(l, &host_tab, &n->u.host, "in 'host'", &s);
	if (s.mask == 0 && s.unknown == 0)
		ld_error(l, s.pos, "'host' needs an action: %s", host_actions);
	two_forms(l, &host_tab, &s, 63, "'host'", "action");
}

/* --- memory operations --- */

static void key_op_write(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct memop *op = obj;
	op->kind = (enum memop_kind)kd->arg;
	get_ref(l, "a buffer name", kd->name, &op->buffer);
}

static void key_op_flush(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct memop *op = obj;
	op->flush_pos = kpos;
	get_bool(l, kd->name, &op->flush);
}

static void key_op_barrier(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct memop *op = obj;
	op->kind = MEMOP_BARRIER;
	int i = get_choice(l, "a barrier scope (sys or gpu)", "barrier scope", kd->name,
			   memop_scope_names, SCOPE_COUNT, NULL);
	if (i >= 0)
		op->scope = (uint8_t)i;
}

static void key_op_flush_remote(struct ld *l, void *obj, const struct keydef *kd,
				struct pos kpos)
{
	struct memop *op = obj;
	op->kind = MEMOP_FLUSH;
	if (ld_is_null(l))
		ld_next(l);
	else
		ld_expected(l, "nothing (flush_remote_writes takes no value)", kd->name);
}

/* The forms' keys first: their bits are OP_FORMS. */
static const struct keydef op_keys[] = {
	KEY_ARG("write", key_op_write, MEMOP_WRITE),
	KEY_ARG("wait", key_op_write, MEMOP_WAIT),
	KEY("flush_remote_writes", key_op_flush_remote),
	KEY("barrier", key_op_barrier),
	ROW_UINT("offset", struct memop, offset, 0, UINT64_MAX, POS(struct memop, offset_pos)),
	ROW("value", FIELD_NUM, struct memop, value, HAS(struct memop, has_value)),
	ROW_CHOICE("compare", struct memop, compare, memop_compare_names, CMP_COUNT,
		   "a comparison (geq, eq, and or nor)", "comparison",
		   POS(struct memop, compare_pos)),
	KEY("flush", key_op_flush),
};
static const struct keytab op_tab = KEYTAB(op_keys);
#define OP_FORMS 0xfu
#define OP_VALUE_BIT (1u << 5)

static const char op_what[] = "a memory operation ({write: buffer, value: v}, {wait: buffer, value: v, compare: c}, flush_remote_writes or {barrier: sys|gpu})";

/* One operation: a mapping, or the word flush_remote_writes. */
static void parse_op(struct ld *l, struct memop *op)
{
	op->pos = l->es.ev.pos;
	op->buffer.idx = -1;
	if (ld_is_scalar(l) && !ld_is_null(l) && strcmp(l->es.ev.value, "flush_remote_writes") == 0) {
		op->kind = MEMOP_FLUSH;
		ld_next(l);
		return;
	}
	if (!want_map(l, op_what, "memop"))
		return;
	struct seen s;
	parse_keys(l, &op_tab, op, "in a memory operation", &s);
	uint32_t forms = s.mask & OP_FORMS;
	if (forms == 0 && s.unknown == 0)
		ld_error(l, s.pos, "a memory operation needs one of write, wait, flush_remote_writes or barrier");
	else if (forms & (forms - 1))
		two_forms(l, &op_tab, &s, OP_FORMS, "a memory operation", "form");
	else if ((forms & 3) && !(s.mask & OP_VALUE_BIT) && s.unknown == 0)
		ld_error(l, s.pos, "missing key 'value' in a memory operation (%s)",
			 forms & 1 ? "the value to write" : "the value to wait for");
}

/* memop: one operation, or a list of them, placed in the arena. */
void parse_memop(struct ld *l, struct node *n)
{
	struct memop_node *m = &n->u.memop;
	if (l->es.ev.type != EV_SEQ) {
		m->ops = arena_alloc(&l->g->arena, sizeof *m->ops);
		m->nops = 1;
		parse_op(l, &m->ops[0]);
		return;
	}
	struct memop *v = NULL;
	size_t count = 0, cap = 0;
	ld_next(l);
	while (!l->es.fatal && l->es.ev.type != EV_SEQ_END) {
		struct memop *op = VEC_PUSH(v, count, cap);
		parse_op(l, op);
	}
	ld_next(l);
	if (count) {
		m->ops = arena_alloc(&l->g->arena, count * sizeof *m->ops);
		memcpy(m->ops, v, count * sizeof *v);
	}
	m->nops = count;
	free(v);
}

