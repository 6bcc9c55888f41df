/*
 * Checks, run: and throughput: (load_checks.h).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "flops.h"
#include "load_checks.h"
#include "load_region.h"
#include "xmalloc.h"

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

static void key_expect_formula(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct check *c = obj;
	c->expect = EXPECT_FORMULA;
	get_formula(l, kd->name, &c->formula);
}

/* The forms first (their bits are EXPECT_FORMS), then offset. */
static const struct keydef expect_keys[] = {
	KEY("file", key_expect_file),
	KEY("buffer", key_expect_buffer),
	KEY("formula", key_expect_formula),
	ROW_UINT("offset", struct check, ref_offset, 0, UINT64_MAX,
		 POS(struct check, ref_offset_pos)),
};
static const struct keytab expect_tab = KEYTAB(expect_keys);
#define EXPECT_FORMS 7u
#define EXPECT_OFFSET_BIT 8u
static const char expect_what[] =
	"a number, a list of numbers, {file: ...}, {buffer: ...} or {formula: ...}";

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
		two_forms(l, &expect_tab, &s, EXPECT_FORMS, "'expect'", "form");
		if ((s.mask & EXPECT_OFFSET_BIT) && !(s.mask & 2))
			ld_error(l, s.at[3], "'offset' goes with 'buffer' in 'expect' ({buffer: x, offset: n})");
	} else if (ld_is_scalar(l) && !ld_is_null(l)) {
		c->expect = EXPECT_SCALAR;
		get_num(l, kd->name, &c->scalar);
	} else {
		ld_expected(l, expect_what, kd->name);
	}
}

static const struct keydef bound_keys[] = {
	ROW_REF("buffer", struct bound, ref, "a buffer name"),
	ROW_UINT("offset", struct bound, offset, 0, UINT64_MAX, POS(struct bound, offset_pos)),
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

/* The order of enum bound_op first: key i is op i. */
static const struct keydef cmp_keys[] = {
	KEY_ARG("eq", key_cmp_op, BOUND_EQ),
	KEY_ARG("lt", key_cmp_op, BOUND_LT),
	KEY_ARG("le", key_cmp_op, BOUND_LE),
	KEY_ARG("gt", key_cmp_op, BOUND_GT),
	KEY_ARG("ge", key_cmp_op, BOUND_GE),
	KEY_ARG("near", key_cmp_op, BOUND_NEAR),
	ROW("rtol", FIELD_NONNEG, struct check, cmp.rtol, POS(struct check, cmp.rtol_pos)),
	ROW("atol", FIELD_NONNEG, struct check, cmp.atol, POS(struct check, cmp.atol_pos)),
	ROW("from", FIELD_NUM, struct check, differ_from),
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

/* offset: a flat offset, or a region's first element [y, x] */
static void key_check_offset(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct check *c = obj;
	read_offset(l, kd->name, &c->region, 0, &c->offset, &c->offset_pos);
}

static void key_check_shape(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	read_region_shape(l, kd->name, &((struct check *)obj)->region);
}

#define T struct check
static const struct keydef check_keys[] = {
	ROW_REF("buffer", T, buffer, "a buffer name"),
	KEY("offset", key_check_offset),
	ROW_UINT("count", T, count, 1, UINT64_MAX, POS(T, count_pos), HAS(T, has_count)),
	KEY("expect", key_check_expect),
	ROW("rtol", FIELD_NONNEG, T, rtol, POS(T, rtol_pos)),
	ROW("atol", FIELD_NONNEG, T, atol, POS(T, atol_pos)),
	KEY_ARG("sum", key_check_reduce, RED_SUM),
	KEY_ARG("min", key_check_reduce, RED_MIN),
	KEY_ARG("max", key_check_reduce, RED_MAX),
	KEY_ARG("norm2", key_check_reduce, RED_NORM2),
	KEY_ARG("nonzero", key_check_reduce, RED_NONZERO),
	KEY_ARG("differ", key_check_reduce, RED_DIFFER),
	KEY("finite", key_check_finite),
	KEY("shape", key_check_shape),
};
#undef T
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
	region_forms(l, c->region, c->offset_pos.line != 0, c->offset_pos, c->has_count,
		     c->count_pos, false, "in a check");
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
static const char *const expect_names[] = {"pass", "fail"};

#define T struct run_defaults
static const struct keydef run_keys[] = {
	ROW_UINT("repeat", T, repeat, 0, UINT32_MAX, HAS(T, has_repeat)),
	ROW_UINT("warmup", T, warmup, 0, UINT32_MAX, HAS(T, has_warmup)),
	ROW("timeout", FIELD_DURATION, T, timeout_ns, HAS(T, has_timeout)),
	ROW_INT("device", T, device, 0, GDEF_MAX_DEVICE, HAS(T, has_device)),
	KEY("instantiate", key_run_instantiate),
	ROW_CHOICE("expect", T, expect_fail, expect_names, 2, "pass or fail", "expectation"),
	/* run.skip: "reason": the file is read and checked but not run */
	ROW("skip", FIELD_TEXT, T, skip, .what = "a reason for skipping"),
	ROW_SIZE("persisting_l2", T, persisting_l2, UINT64_MAX, POS(T, persisting_l2_pos),
		 HAS(T, has_persisting_l2)),
	/* run.verify_launches: the checks see the state after this many launches */
	ROW_UINT("verify_launches", T, verify_launches, 1, RUN_MAX_VERIFY_LAUNCHES,
		 POS(T, verify_launches_pos), HAS(T, has_verify_launches)),
};
#undef T
static const struct keytab run_tab = KEYTAB(run_keys);

void key_run(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct gdef *g = obj;
	long o = ld_obj_open(l, CTX_RUN, NULL, 0, kd, kpos);
	g->run.pos = l->es.ev.pos;
	parse_optional_map(l, &run_tab, &g->run, kd->name, "in 'run'");
	ld_obj_close(l, o);
}
static const struct keydef throughput_keys[] = {
	ROW("bytes", FIELD_NONNEG, struct throughput_decl, bytes,
	    HAS(struct throughput_decl, has_bytes)),
	ROW("items", FIELD_NONNEG, struct throughput_decl, items,
	    HAS(struct throughput_decl, has_items)),
	ROW("flops", FIELD_NONNEG, struct throughput_decl, flops,
	    HAS(struct throughput_decl, has_flops)),
	ROW_CHOICE("flops_type", struct throughput_decl, flops_type, flops_type_names, FT_COUNT,
		   "a kind of arithmetic (f64, f32, tf32, f16, bf16 or i8)", "kind of arithmetic",
		   POS(struct throughput_decl, flops_type_pos),
		   HAS(struct throughput_decl, has_flops_type)),
};
static const struct keytab throughput_tab = KEYTAB(throughput_keys);

/* throughput: {bytes: N, items: N, flops: N, flops_type: T}, bytes, items or flops at least. */
void key_throughput(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos)
{
	struct gdef *g = obj;
	struct seen s;
	g->throughput.pos = kpos;
	if (!want_map(l, "a mapping {bytes: N, items: N, flops: N}", kd->name))
		return;
	long o = ld_obj_open(l, CTX_THROUGHPUT, NULL, 0, kd, kpos);
	parse_keys(l, &throughput_tab, &g->throughput, "in 'throughput'", &s);
	if ((s.mask & 7) == 0 && s.unknown == 0)
		ld_error(l, s.pos, "empty 'throughput' (expected bytes, items or flops: what one launch "
			 "moves, processes and computes)");
	else if (g->throughput.has_flops_type && !g->throughput.has_flops)
		ld_error(l, g->throughput.flops_type_pos, "'flops_type' goes with 'flops': the kind "
			 "of arithmetic of the operations one launch does");
	ld_obj_close(l, o);
}

