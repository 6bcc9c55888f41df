/*
 * Checks, run: and throughput: (load_checks.h).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "load_checks.h"
#include "xmalloc.h"

static void key_check_buffer(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	get_ref(l, "a buffer name", kd->name, &((struct check *)obj)->buffer);
}

static void key_check_offset(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct check *c = obj;
	get_u64(l, kd->name, 0, UINT64_MAX, &c->offset, &c->offset_pos);
}

static void key_check_count(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct check *c = obj;
	c->has_count = get_u64(l, kd->name, 1, UINT64_MAX, &c->count, &c->count_pos);
}

static void key_expect_file(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct check *c = obj;
	c->expect = EXPECT_FILE;
	if (get_text(l, "a file name", kd->name, &c->file, NULL))
		c->path = gdef_resolve_path(l->g, c->file);
}

static void key_expect_buffer(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct check *c = obj;
	c->expect = EXPECT_BUFFER;
	get_ref(l, "a buffer name", kd->name, &c->ref);
}

static void key_expect_offset(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct check *c = obj;
	get_u64(l, kd->name, 0, UINT64_MAX, &c->ref_offset, &c->ref_offset_pos);
}

static const struct keydef expect_keys[] = {
	{"file", key_expect_file, 0},
	{"buffer", key_expect_buffer, 0},
	{"offset", key_expect_offset, 0},
};
static const struct keytab expect_tab = KEYTAB(expect_keys);
static const char expect_what[] = "a number, a list of numbers, {file: ...} or {buffer: ...}";

static void key_check_expect(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct check *c = obj;
	c->kind = CHECK_EXPECT;
	c->kind_pos = kpos;
	c->expect_pos = l->es.ev.pos;
	if (l->es.ev.type == EV_SEQ) {
		c->expect = EXPECT_LIST;
		parse_num_list(l, kd->name, &c->list, &c->nlist, &c->caplist);
	} else if (l->es.ev.type == EV_MAP) {
		struct seen s;
		c->expect = EXPECT_FILE;
		parse_keys(l, &expect_tab, c, "in 'expect'", &s);
		if (s.mask == 0 && s.unknown == 0)
			ld_error(l, s.pos, "empty 'expect' (expected %s)", expect_what);
		two_forms(l, &expect_tab, &s, 3, "'expect'", "form");
		if ((s.mask & 4) && !(s.mask & 2))
			ld_error(l, s.at[2], "'offset' goes with 'buffer' in 'expect' ({buffer: x, offset: n})");
	} else if (ld_is_scalar(l) && !ld_is_null(l)) {
		c->expect = EXPECT_SCALAR;
		get_num(l, kd->name, &c->scalar);
	} else {
		ld_expected(l, expect_what, kd->name);
	}
}

static void key_check_rtol(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct check *c = obj;
	get_nonneg(l, kd->name, &c->rtol, &c->rtol_pos);
}

static void key_check_atol(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct check *c = obj;
	get_nonneg(l, kd->name, &c->atol, &c->atol_pos);
}

static void key_bound_buffer(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	get_ref(l, "a buffer name", kd->name, &((struct bound *)obj)->ref);
}

static void key_bound_offset(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct bound *b = obj;
	get_u64(l, kd->name, 0, UINT64_MAX, &b->offset, &b->offset_pos);
}

static const struct keydef bound_keys[] = {
	{"buffer", key_bound_buffer, 0},
	{"offset", key_bound_offset, 0},
};
static const struct keytab bound_tab = KEYTAB(bound_keys);

/*
 * One bound of a reduction ({eq: v}, {le: v}, {near: v, ...}): a number,
 * or an element of another buffer, by name (element 0) or as {buffer: x,
 * offset: n}.
 */
static void key_cmp_op(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct check *c = obj;
	struct bound *b = &c->cmp.bound[kd->arg];
	struct num n;
	b->ref.idx = -1;
	if (l->es.ev.type == EV_MAP) {
		char ctx[64];
		struct seen s;
		snprintf(ctx, sizeof ctx, "in '%s'", kd->name);
		b->ref.pos = l->es.ev.pos;
		parse_keys(l, &bound_tab, b, ctx, &s);
		require_keys(l, &bound_tab, &s, 1, ctx);
	} else if (ld_is_scalar(l) && !ld_is_null(l) && (l->es.ev.quoted ||
		   parse_number(l->es.ev.value, &n) == SCALAR_SYNTAX)) {
		/* not a number: a buffer's name (quotes keep a number-like name a name) */
		get_ref(l, "a number or a buffer name", kd->name, &b->ref);
	} else if (!get_num(l, kd->name, &b->value)) {
		return;
	}
	c->cmp.ops |= 1u << kd->arg;
}

static void key_cmp_rtol(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct check *c = obj;
	get_nonneg(l, kd->name, &c->cmp.rtol, &c->cmp.rtol_pos);
}

static void key_cmp_atol(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct check *c = obj;
	get_nonneg(l, kd->name, &c->cmp.atol, &c->cmp.atol_pos);
}

static void key_cmp_from(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct check *c = obj;
	get_num(l, kd->name, &c->differ_from);
}

/* The order of enum bound_op first: key i is op i. */
static const struct keydef cmp_keys[] = {
	{"eq", key_cmp_op, BOUND_EQ},
	{"lt", key_cmp_op, BOUND_LT},
	{"le", key_cmp_op, BOUND_LE},
	{"gt", key_cmp_op, BOUND_GT},
	{"ge", key_cmp_op, BOUND_GE},
	{"near", key_cmp_op, BOUND_NEAR},
	{"rtol", key_cmp_rtol, 0},
	{"atol", key_cmp_atol, 0},
	{"from", key_cmp_from, 0},
};
static const struct keytab cmp_tab = KEYTAB(cmp_keys);
#define CMP_OPS ((1u << BOUND_COUNT) - 1)
#define CMP_TOL_BITS (3u << BOUND_COUNT)
#define CMP_FROM_BIT (1u << (BOUND_COUNT + 2))
static const char cmp_what[] =
	"{eq: v}, {lt: v}, {le: v}, {gt: v}, {ge: v} or {near: v, rtol: r, atol: a}";

/* sum, min, max, norm2, nonzero, differ: a number (== it) or a mapping of bounds. */
static void key_check_reduce(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct check *c = obj;
	bool differ = kd->arg == RED_DIFFER;
	c->kind = CHECK_REDUCE;
	c->reduce = (enum reduce_kind)kd->arg;
	c->kind_pos = kpos;
	c->cmp.pos = l->es.ev.pos;
	if (l->es.ev.type != EV_MAP) {
		if (differ) {
			ld_expected(l, "a mapping {from: value, eq: count, ...}", kd->name);
			return;
		}
		/* a bare number: the figure equals it */
		if (ld_is_scalar(l) && !ld_is_null(l)) {
			c->cmp.bound[BOUND_EQ].ref.idx = -1;
			if (get_num(l, kd->name, &c->cmp.bound[BOUND_EQ].value))
				c->cmp.ops = 1u << BOUND_EQ;
			return;
		}
		char what[200];
		snprintf(what, sizeof what, "a number or bounds %s", cmp_what);
		ld_expected(l, what, kd->name);
		return;
	}
	char ctx[64];
	struct seen s;
	snprintf(ctx, sizeof ctx, "in '%s'", kd->name);
	parse_keys(l, &cmp_tab, c, ctx, &s);
	if (s.unknown)
		return;
	if (!(s.mask & CMP_OPS))
		ld_error(l, s.pos, "'%s' needs a bound: %s", kd->name, cmp_what);
	for (int i = BOUND_COUNT; i < BOUND_COUNT + 2; i++)
		if ((s.mask & (1u << i)) && !(s.mask & (1u << BOUND_NEAR)))
			ld_error(l, s.at[i], "'%s' goes with 'near' in '%s' ({near: v, %s: t})",
				 cmp_keys[i].name, kd->name, cmp_keys[i].name);
	if ((s.mask & CMP_FROM_BIT) && !differ)
		ld_error(l, s.at[BOUND_COUNT + 2], "'from' goes with 'differ' ({differ: {from: v, eq: 0}})");
	else if (differ && !(s.mask & CMP_FROM_BIT))
		ld_error(l, s.pos, "missing key 'from' in 'differ' (the value the elements are "
			 "compared with)");
}

static void key_check_finite(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct check *c = obj;
	bool yes;
	c->kind = CHECK_FINITE;
	c->kind_pos = kpos;
	struct pos at = l->es.ev.pos;
	if (get_bool(l, kd->name, &yes) && !yes)
		ld_error(l, at, "'finite: false' asks nothing: write 'finite: true' (no NaN or "
			 "infinity in the slice), or leave it out");
}

static const struct keydef check_keys[] = {
	{"buffer", key_check_buffer, 0},
	{"offset", key_check_offset, 0},
	{"count", key_check_count, 0},
	{"expect", key_check_expect, 0},
	{"rtol", key_check_rtol, 0},
	{"atol", key_check_atol, 0},
	{"sum", key_check_reduce, RED_SUM},
	{"min", key_check_reduce, RED_MIN},
	{"max", key_check_reduce, RED_MAX},
	{"norm2", key_check_reduce, RED_NORM2},
	{"nonzero", key_check_reduce, RED_NONZERO},
	{"differ", key_check_reduce, RED_DIFFER},
	{"finite", key_check_finite, 0},
};
static const struct keytab check_tab = KEYTAB(check_keys);
/* expect, sum, ..., finite: what a check tests, one of them */
#define CHECK_TESTS (0x1fc0u | 0x8u)

void parse_check(struct ld *l, struct check *c, size_t index)
{
	struct seen s;
	size_t errors = l->es.nerrs;
	long o = ld_obj_open(l, CTX_CHECK, NULL, index, NULL, l->es.ev.pos);
	c->pos = l->es.ev.pos;
	c->buffer.idx = -1;
	c->ref.idx = -1;
	parse_keys(l, &check_tab, c, "in a check", &s);
	require_keys(l, &check_tab, &s, 1, "in a check");
	if (s.unknown == 0 && !(s.mask & CHECK_TESTS))
		ld_error(l, s.pos, "a check needs a test: expect, sum, min, max, norm2, nonzero, "
			 "differ or finite");
	two_forms(l, &check_tab, &s, CHECK_TESTS, "a check", "test");
	c->bad = l->es.nerrs != errors;
	ld_obj_close(l, o);
}

void key_checks(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct gdef *g = obj;
	if (ld_is_null(l)) {
		ld_next(l);
		return;
	}
	if (!want_seq(l, "a list of checks", kd->name))
		return;
	ld_next(l);
	while (!l->es.fatal && l->es.ev.type != EV_SEQ_END) {
		if (!want_map(l, "a check {buffer, expect or sum, min, max, ...}", kd->name))
			continue;
		struct check *c = VEC_PUSH(g->checks, g->nchecks, g->capchecks);
		size_t evals = l->es.axis_evals;
		parse_check(l, c, g->nchecks - 1);
		c->dynamic = l->es.axis_evals != evals;
	}
	ld_next(l);
}

static void key_run_repeat(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct run_defaults *r = obj;
	uint64_t v;
	if ((r->has_repeat = get_u64(l, kd->name, 0, UINT32_MAX, &v, NULL)))
		r->repeat = (uint32_t)v;
}

static void key_run_warmup(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct run_defaults *r = obj;
	uint64_t v;
	if ((r->has_warmup = get_u64(l, kd->name, 0, UINT32_MAX, &v, NULL)))
		r->warmup = (uint32_t)v;
}

static void key_run_timeout(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct run_defaults *r = obj;
	r->has_timeout = get_duration(l, kd->name, &r->timeout_ns, NULL);
}

static void key_run_device(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct run_defaults *r = obj;
	int64_t v;
	if ((r->has_device = get_i64(l, kd->name, 0, GDEF_MAX_DEVICE, &v, NULL)))
		r->device = (int)v;
}

static void inst_flag(struct ld *l, struct run_defaults *r, const char *name)
{
	int i = get_choice(l, "an instantiate flag", "instantiate flag", name, inst_flag_names,
			   INST_FLAG_COUNT, NULL);
	if (i >= 0)
		r->instantiate |= 1u << i;
}

static void key_run_instantiate(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct run_defaults *r = obj;
	r->has_instantiate = true;
	if (l->es.ev.type != EV_SEQ) {
		if (l->es.ev.type == EV_MAP)
			ld_expected(l, "a list of instantiate flags", kd->name);
		else
			inst_flag(l, r, kd->name);
		return;
	}
	ld_next(l);
	while (!l->es.fatal && l->es.ev.type != EV_SEQ_END)
		inst_flag(l, r, kd->name);
	ld_next(l);
}

/* run.expect: pass (the default) or fail: for CI suites, see cugraphrun(1). */
static void key_run_expect(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	static const char *const expect_names[] = {"pass", "fail"};
	int i = get_choice(l, "pass or fail", "expectation", kd->name, expect_names, 2, NULL);
	if (i >= 0)
		((struct run_defaults *)obj)->expect_fail = i == 1;
}

/* run.skip: "reason": the file is read and checked but not run. */
static void key_run_skip(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	get_text(l, "a reason for skipping", kd->name, &((struct run_defaults *)obj)->skip, NULL);
}

static void key_run_persisting(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct run_defaults *r = obj;
	r->has_persisting_l2 = get_size(l, kd->name, UINT64_MAX, &r->persisting_l2,
					&r->persisting_l2_pos);
}

static const struct keydef run_keys[] = {
	{"repeat", key_run_repeat, 0},
	{"warmup", key_run_warmup, 0},
	{"timeout", key_run_timeout, 0},
	{"device", key_run_device, 0},
	{"instantiate", key_run_instantiate, 0},
	{"expect", key_run_expect, 0},
	{"skip", key_run_skip, 0},
	{"persisting_l2", key_run_persisting, 0},
};
static const struct keytab run_tab = KEYTAB(run_keys);

void key_run(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct gdef *g = obj;
	long o = ld_obj_open(l, CTX_RUN, NULL, 0, kd, kpos);
	g->run.pos = l->es.ev.pos;
	parse_optional_map(l, &run_tab, &g->run, kd->name, "in 'run'");
	ld_obj_close(l, o);
}
static void key_tp_bytes(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct throughput_decl *t = obj;
	struct pos pos;
	t->has_bytes = get_nonneg(l, kd->name, &t->bytes, &pos);
}

static void key_tp_items(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct throughput_decl *t = obj;
	struct pos pos;
	t->has_items = get_nonneg(l, kd->name, &t->items, &pos);
}

static const struct keydef throughput_keys[] = {
	{"bytes", key_tp_bytes, 0},
	{"items", key_tp_items, 0},
};
static const struct keytab throughput_tab = KEYTAB(throughput_keys);

/* throughput: {bytes: N, items: N}, one of them at least. */
void key_throughput(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct gdef *g = obj;
	struct seen s;
	g->throughput.pos = kpos;
	if (!want_map(l, "a mapping {bytes: N, items: N}", kd->name))
		return;
	long o = ld_obj_open(l, CTX_THROUGHPUT, NULL, 0, kd, kpos);
	parse_keys(l, &throughput_tab, &g->throughput, "in 'throughput'", &s);
	if (s.mask == 0 && s.unknown == 0)
		ld_error(l, s.pos, "empty 'throughput' (expected bytes, items or both: what one launch "
			 "moves and processes)");
	ld_obj_close(l, o);
}

