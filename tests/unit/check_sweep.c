/*
 * Unit tests of sweeps without a GPU: the points of axes (order, zip,
 * labels, the command line's -a and --set), templates through the loader
 * (expressions in scalars, generators, anchors beside them, the dynamic
 * marks, the restart from a plain load), and the comparison of two
 * points' models that the update path acts on (sweep_diff.h).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "load.h"
#include "monotime.h"
#include "load_sweep.h"
#include "sweep.h"
#include "sweep_diff.h"
#include "unit.h"
#include "unit_model.h"
#include "validate.h"

/* A sweep loaded from text with the command line's args, and what was printed. */
struct res {
	struct sweep *sw;
	char *msgs;
	size_t len;
	unsigned nerrors;
};

/* text loaded within lim (NULL: the defaults) with the arguments argv. */
static struct res load_lim(const char *text, const struct load_limits *lim,
			   const char *const *argv, size_t argc)
{
	struct res r = {0};
	struct axis_arg args[8];
	ck_assert_uint_le(argc, 8);
	for (size_t i = 0; i < argc; i++) {
		bool set = strncmp(argv[i], "set:", 4) == 0;
		const char *a = set ? argv[i] + 4 : argv[i];
		const char *eq = strchr(a, '=');
		args[i] = (struct axis_arg){a, (size_t)(eq - a), eq + 1, set};
	}
	FILE *out = open_memstream(&r.msgs, &r.len);
	struct diag d;
	diag_init(&d, "t.yaml", out);
	d.max_errors = 1000;
	r.sw = sweep_load_string("t.yaml", text, strlen(text), lim, args, argc, &d);
	if (r.sw && d.nerrors == 0)
		sweep_validate(r.sw, &d, &(struct mod_settings){0});
	r.nerrors = d.nerrors;
	fclose(out);
	return r;
}

static struct res load_args(const char *text, const char *const *argv, size_t argc)
{
	return load_lim(text, NULL, argv, argc);
}

static void res_free(struct res *r)
{
	sweep_release(r->sw);
	free(r->msgs);
}

/* A text that must load and validate at every point without a message. */
static struct sweep *load_ok(const char *text, const char *const *argv, size_t argc)
{
	struct res r = load_args(text, argv, argc);
	ck_assert_msg(r.nerrors == 0, "unexpected errors:\n%s", r.msgs);
	ck_assert_ptr_nonnull(r.sw);
	free(r.msgs);
	return r.sw;
}

static void expect_msgs(const char *text, const char *const *argv, size_t argc, const char *want)
{
	struct res r = load_args(text, argv, argc);
	ck_assert_str_eq(r.msgs, want);
	ck_assert_uint_gt(r.nerrors, 0);
	res_free(&r);
}

static const struct buffer *buf(const struct gdef *g, const char *name)
{
	for (size_t i = 0; i < g->nbuffers; i++)
		if (strcmp(g->buffers[i].name, name) == 0)
			return &g->buffers[i];
	ck_abort_msg("no buffer %s", name);
	return NULL;
}

/* ------------------------------------------------------------------ points */

START_TEST(test_points_order)
{
	struct sweep *sw = load_ok("cugraphrun: 1\n"
				   "axes:\n"
				   "  n: {pow2: [10, 12]}\n"
				   "  T: [f32, f64]\n"
				   "  x: {from: 0.5, to: 1.0, step: 0.5}\n"
				   "buffers:\n"
				   "  b: {type: \"${T}\", count: \"${n}\"}\n", NULL, 0);
	ck_assert_uint_eq(sw->naxes, 3);
	ck_assert_uint_eq(sw->npoints, 12);
	/* the first axis varies fastest */
	static const char *const want[] = {
		"n=2^10,T=f32,x=0.5", "n=2^11,T=f32,x=0.5", "n=2^12,T=f32,x=0.5",
		"n=2^10,T=f64,x=0.5", "n=2^11,T=f64,x=0.5", "n=2^12,T=f64,x=0.5",
		"n=2^10,T=f32,x=1.0", "n=2^11,T=f32,x=1.0", "n=2^12,T=f32,x=1.0",
		"n=2^10,T=f64,x=1.0", "n=2^11,T=f64,x=1.0", "n=2^12,T=f64,x=1.0",
	};
	for (size_t k = 0; k < 12; k++) {
		ck_assert_str_eq(sw->labels[k], want[k]);
		const struct buffer *b = buf(sw->models[k], "b");
		ck_assert_uint_eq(b->count, (uint64_t)1 << (10 + k % 3));
		ck_assert_int_eq(b->type, (k / 3) % 2 ? ET_F64 : ET_F32);
	}
	ck_assert_int_eq(sweep_value(sw, 7, 0)->type, EXPR_INT);
	ck_assert_int_eq(sweep_value(sw, 7, 0)->i, 2048);
	ck_assert_int_eq(sweep_value(sw, 7, 2)->type, EXPR_FLOAT);
	ck_assert(sweep_value(sw, 7, 2)->f == 1.0);
	sweep_release(sw);
}
END_TEST

START_TEST(test_points_zip)
{
	struct sweep *sw = load_ok("cugraphrun: 1\n"
				   "axes:\n"
				   "  n: [1, 2]\n"
				   "  zip:\n"
				   "    block: [32, 64, 128]\n"
				   "    grid: [8, 4, 2]\n"
				   "  w: hello\n"
				   "buffers:\n"
				   "  b: {count: \"${n * block * grid}\"}\n", NULL, 0);
	ck_assert_uint_eq(sw->npoints, 6);
	ck_assert_str_eq(sw->labels[0], "n=1,block=32,grid=8,w=hello");
	ck_assert_str_eq(sw->labels[1], "n=2,block=32,grid=8,w=hello");
	ck_assert_str_eq(sw->labels[2], "n=1,block=64,grid=4,w=hello");
	ck_assert_str_eq(sw->labels[5], "n=2,block=128,grid=2,w=hello");
	for (size_t k = 0; k < 6; k++)
		ck_assert_uint_eq(buf(sw->models[k], "b")->count, 256 * (k % 2 + 1));
	sweep_release(sw);
}
END_TEST

START_TEST(test_points_command_line)
{
	static const char text[] = "cugraphrun: 1\n"
				   "axes:\n"
				   "  n: [1, 2, 3]\n"
				   "  zip: {a: [1, 2], b: [10, 20]}\n"
				   "buffers:\n"
				   "  x: {count: \"${n + a + b + m}\"}\n";
	/* -a replaces n, adds m (an expression uses it, no axis has it); --set picks a's zip step */
	const char *const argv[] = {"n=5,2^3", "m=100", "set:a=2"};
	struct sweep *sw = load_ok(text, argv, 3);
	ck_assert_uint_eq(sw->npoints, 2);
	ck_assert_str_eq(sw->labels[0], "n=5,a=2,b=20,m=100");
	ck_assert_str_eq(sw->labels[1], "n=2^3,a=2,b=20,m=100");
	ck_assert_uint_eq(buf(sw->models[1], "x")->count, 8 + 2 + 20 + 100);
	sweep_release(sw);
	/* a value of the file's keeps its label: 2048 is the pow2 range's 2^11 */
	const char *const set[] = {"set:n=2048", "m=2^4,3"};
	sw = load_ok("cugraphrun: 1\naxes: {n: {pow2: [10, 12]}, m: [16]}\n"
		     "buffers: {x: {count: \"${n + m}\"}}\n", set, 2);
	ck_assert_uint_eq(sw->npoints, 2);
	ck_assert_str_eq(sw->labels[0], "n=2^11,m=16");
	ck_assert_str_eq(sw->labels[1], "n=2^11,m=3");
	sweep_release(sw);
	/* zipped axes replaced together, as many values each: walked in step */
	const char *const zip[] = {"a=7,8,9", "b=70,80,90", "n=1", "m=100"};
	sw = load_ok(text, zip, 4);
	ck_assert_uint_eq(sw->npoints, 3);
	ck_assert_str_eq(sw->labels[2], "n=1,a=9,b=90,m=100");
	sweep_release(sw);
	const char *const one[] = {"a=42", "b=1", "n=1", "m=100"};
	sw = load_ok(text, one, 4);
	ck_assert_uint_eq(sw->npoints, 1);
	ck_assert_str_eq(sw->labels[0], "n=1,a=42,b=1,m=100");
	sweep_release(sw);
	const char *const bad[] = {"q=1", "set:b=30", "a=1,2,3"};
	expect_msgs(text, bad, 3,
		    "t.yaml: error: -a q: the file has no axis 'q' and no expression uses that "
		    "name (its axes: n, a and b)\n"
		    "t.yaml: error: --set b=30: axis 'b' is zipped and has no such value\n"
		    "t.yaml: error: -a a gives 3 values to an axis zipped with 'b', which has 2: "
		    "give -a b=... as many too\n");
	const char *const unequal[] = {"a=1,2,3", "b=4"};
	expect_msgs(text, unequal, 2,
		    "t.yaml: error: -a a gives 3 values and -a b 1, but the axes are zipped: give "
		    "them as many values each\n");
}
END_TEST

START_TEST(test_points_plain)
{
	struct sweep *sw = load_ok("cugraphrun: 1\nbuffers: {x: {count: 4}}\n", NULL, 0);
	ck_assert_uint_eq(sw->naxes, 0);
	ck_assert_uint_eq(sw->npoints, 1);
	ck_assert_str_eq(sw->labels[0], "");
	ck_assert_ptr_null(sw->eval_s);
	sweep_release(sw);
	/* expressions without axes: one point */
	sw = load_ok("cugraphrun: 1\nbuffers: {x: {count: \"${2 * 3}\"}}\n", NULL, 0);
	ck_assert_uint_eq(sw->npoints, 1);
	ck_assert_uint_eq(buf(sw->models[0], "x")->count, 6);
	sweep_release(sw);
	expect_msgs("cugraphrun: 1\naxes: {n: {pow2: [0, 62]}, m: {from: 1, to: 200}}\n", NULL,
		    0, "t.yaml:2:8: error: the axes give more than 10000 points\n");
}
END_TEST

/* -------------------------------------------------------------- templates */

START_TEST(test_template_values)
{
	struct sweep *sw = load_ok(
		"cugraphrun: 1\n"
		"name: \"run at n=${n}\"\n"
		"axes: {n: [256, 1000]}\n"
		"modules:\n"
		"  k: {source: " TOP_SRCDIR "/examples/cuda/scale.cu, defines: {N: \"${n}\", TAG: \"t$${x}\"}}\n"
		"buffers:\n"
		"  x: {type: f32, count: \"${n}\", init: {iota: {start: \"${n / 2}\", step: 0.5}}}\n"
		"  y: {type: f32, count: 16}\n"
		"conditions: {c: {default: \"${n > 500}\"}}\n"
		"nodes:\n"
		"  - id: \"scale_${n}\"\n"
		"    kernel:\n"
		"      function: \"k.scale<${n > 500 ? 'double' : 'float'}>\"\n"
		"      grid: \"${ceil_div(n, 256)}\"\n"
		"      block: [\"${min(n, 256)}\", 1]\n"
		"      shared: \"${n * 4} B\"\n"
		"      args: [x, {f32: \"${n / 8.0}\"}, {i32: \"${n}\"}, {handle: c}]\n"
		"  - id: plain\n"
		"    memset: {buffer: y, value: 0}\n"
		"  - if: {condition: c, then: [{memset: {buffer: y, value: \"${n}\"}}]}\n"
		"checks:\n"
		"  - {buffer: x, expect: \"${n}\", rtol: \"${1.0 / n}\"}\n"
		"run: {repeat: \"${n / 10}\"}\n"
		"throughput: {bytes: \"${n * 4 * 2}\", items: \"${n}\"}\n", NULL, 0);
	ck_assert_uint_eq(sw->npoints, 2);
	for (size_t k = 0; k < 2; k++) {
		const struct gdef *g = sw->models[k];
		int64_t n = k ? 1000 : 256;
		char id[32];
		snprintf(id, sizeof id, "scale_%lld", (long long)n);
		ck_assert_str_eq(g->name, k ? "run at n=1000" : "run at n=256");
		ck_assert_str_eq(g->modules[1].defines[0].value, k ? "1000" : "256");
		/* the escape stays literal text */
		ck_assert_str_eq(g->modules[1].defines[1].value, "t${x}");
		ck_assert_uint_eq(buf(g, "x")->count, (uint64_t)n);
		ck_assert_uint_eq(buf(g, "x")->init.start.u, (uint64_t)n / 2);
		ck_assert_uint_eq(g->conditions[0].default_value, k);
		const struct kernel_node *kn = &unit_node(g, id)->u.kernel;
		ck_assert_str_eq(kn->func, k ? "scale<double>" : "scale<float>");
		ck_assert_uint_eq(kn->grid[0], k ? 4 : 1);
		ck_assert_uint_eq(kn->block[0], 256);
		ck_assert_uint_eq(kn->shared, (uint64_t)n * 4);
		ck_assert(kn->args[1].num.f == n / 8.0);
		ck_assert_int_eq(kn->args[1].num.kind, NUM_FLOAT);
		ck_assert(g->checks[0].rtol == 1.0 / n);
		ck_assert_uint_eq(g->run.repeat, (uint32_t)(n / 10));
		ck_assert(g->throughput.has_bytes && g->throughput.bytes == n * 8);
		ck_assert(g->throughput.has_items && g->throughput.items == n);
		/* what reads an axis is marked; the rest is not */
		ck_assert(unit_node(g, id)->dynamic);
		ck_assert(!unit_node(g, "plain")->dynamic);
		ck_assert(unit_node(g, "if_1")->dynamic);
		ck_assert(buf(g, "x")->dynamic);
		ck_assert(!buf(g, "y")->dynamic);
		ck_assert(g->conditions[0].dynamic);
		ck_assert(g->modules[1].dynamic);
		ck_assert(g->checks[0].dynamic);
	}
	sweep_release(sw);
}
END_TEST

START_TEST(test_template_generators)
{
	/* 3 chains of 4 with their first node outside the inner generator; anchors beside them */
	struct sweep *sw = load_ok(
		"cugraphrun: 1\n"
		"axes: {chains: [2, 3]}\n"
		"conditions: {c: }\n"
		"nodes:\n"
		"  - id: set\n"
		"    kernel: &k {function: builtin.set, args: [{handle: c}, {u32: 1}]}\n"
		"  - for: {c: {from: 0, to: \"${chains - 1}\"}}\n"
		"    nodes:\n"
		"      - {id: \"k${c}_0\", after: set, empty: }\n"
		"      - for: {i: [1, 2, 3]}\n"
		"        nodes:\n"
		"          - id: \"k${c}_${i}\"\n"
		"            after: \"k${c}_${i - 1}\"\n"
		"            empty: &e\n"
		"  - {id: tail, empty: *e}\n"
		"  - if: {condition: c, then: [{for: {j: [0, 1]}, nodes: [{id: \"b${j}\", empty: }]}]}\n",
		NULL, 0);
	ck_assert_uint_eq(sw->npoints, 2);
	for (size_t k = 0; k < 2; k++) {
		const struct gdef *g = sw->models[k];
		size_t chains = k + 2;
		/* set, chains x 4, tail, if, b0, b1 */
		ck_assert_uint_eq(g->nall_nodes, 1 + chains * 4 + 1 + 1 + 2);
		const struct node *n = unit_node(g, k ? "k2_3" : "k1_3");
		ck_assert_uint_eq(n->ndeps, 1);
		ck_assert_str_eq(n->graph->nodes[n->deps[0]]->id, k ? "k2_2" : "k1_2");
		ck_assert_str_eq(unit_node(g, "k0_0")->after[0].name, "set");
		ck_assert_int_eq(unit_node(g, "b1")->where, NODE_IN_BODY);
		/* only the nodes of the outer generator's range read the axis */
		ck_assert(!unit_node(g, "k0_1")->dynamic);
		ck_assert(!unit_node(g, "set")->dynamic);
	}
	sweep_release(sw);
}
END_TEST

/*
 * A generator is a loop: a range or list with no values writes no nodes,
 * its body read past (a chain's tail from 1 to length - 1 at length 1),
 * where an axis with none is an error (test_range_arithmetic).
 */
START_TEST(test_generator_no_values)
{
	struct sweep *sw = load_ok(
		"cugraphrun: 1\n"
		"axes: {length: [1, 3]}\n"
		"nodes:\n"
		"  - {id: k0, empty: }\n"
		"  - for: {i: {from: 1, to: \"${length - 1}\"}}\n"
		"    nodes: [{id: \"k${i}\", after: \"k${i - 1}\", empty: }]\n"
		"  - for: {j: []}\n"
		"    nodes: [{id: \"j${j}\", empty: }]\n"
		"  - for: {p: {pow2: [3, 2]}}\n"
		"    nodes: [{id: \"p${p}\", empty: }]\n"
		"  - for: {f: {from: 1.5, to: 0.5}}\n"
		"    nodes: [{id: \"f${f}\", empty: }]\n"
		"  - {id: tail, after: \"k${length - 1}\", empty: }\n",
		NULL, 0);
	ck_assert_uint_eq(sw->npoints, 2);
	ck_assert_uint_eq(sw->models[0]->nall_nodes, 2);	/* k0, tail */
	ck_assert_str_eq(unit_node(sw->models[0], "tail")->after[0].name, "k0");
	ck_assert_uint_eq(sw->models[1]->nall_nodes, 4);	/* k0, k1, k2, tail */
	ck_assert_str_eq(unit_node(sw->models[1], "k2")->after[0].name, "k1");
	sweep_release(sw);
	/* an anchor in one with no values has no values to repeat */
	expect_msgs("cugraphrun: 1\naxes: {n: [0]}\nnodes:\n  - for: {i: {from: 1, to: \"${n}\"}}\n"
		    "    nodes: [&a {id: \"e${i}\", empty: }]\n  - *a\n", NULL, 0,
		    "t.yaml:6:5: error: n=0: alias '*a' repeats a node of a generator that has no "
		    "values here, so its ${...} have none either (anchor it outside the generator)\n");
	/* a step of 0 is still refused: that loop would never end */
	expect_msgs("cugraphrun: 1\nnodes:\n  - for: {i: {from: 1, to: 0, step: 0}}\n"
		    "    nodes: [{id: \"e${i}\", empty: }]\n", NULL, 0,
		    "t.yaml:3:31: error: 'step' of 'i' is 0\n");
}
END_TEST

START_TEST(test_template_restart)
{
	/* a plain load stops at axes: (after nodes) and at a generator, and starts over */
	struct sweep *sw = load_ok("cugraphrun: 1\n"
				   "nodes:\n"
				   "  - {id: a, empty: }\n"
				   "axes: {n: [1, 2]}\n", NULL, 0);
	ck_assert_uint_eq(sw->npoints, 2);
	ck_assert_uint_eq(sw->models[1]->nall_nodes, 1);
	sweep_release(sw);
	sw = load_ok("cugraphrun: 1\n"
		     "nodes:\n"
		     "  - for: {i: {from: 1, to: 3}}\n"
		     "    nodes: [{empty: }]\n", NULL, 0);
	ck_assert_uint_eq(sw->npoints, 1);
	ck_assert_uint_eq(sw->models[0]->nall_nodes, 3);
	ck_assert_str_eq(sw->models[0]->all_nodes[2]->id, "empty_3");
	sweep_release(sw);
	/* an error before the restart is said once */
	expect_msgs("cugraphrun: 1\n"
		    "buffers: {x: {cuont: 4}}\n"
		    "axes: {n: [1, 2]}\n", NULL, 0,
		    "t.yaml:2:15: error: unknown key 'cuont' in buffer 'x' (did you mean 'count'?)\n");
}
END_TEST

START_TEST(test_template_errors)
{
	/*
	 * An expression's error at its column (past the quote of a quoted
	 * scalar); a value's at its scalar; every point's says which, the
	 * first's too.
	 */
	expect_msgs("cugraphrun: 1\n"
		    "axes: {n: [0, 1, 2]}\n"
		    "buffers:\n"
		    "  x: {count: \"${4 / (n - 1)}\"}\n"
		    "  y: {count: '${-n}'}\n", NULL, 0,
		    "t.yaml:4:14: error: n=0: value '-4' for 'count' is out of range (0 to "
		    "18446744073709551615)\n"
		    "t.yaml:4:19: error: n=1: division by zero in '/'\n"
		    "t.yaml:5:14: error: n=1: value '-1' for 'count' is out of range (0 to "
		    "18446744073709551615)\n"
		    "t.yaml:5:14: error: n=2: value '-2' for 'count' is out of range (0 to "
		    "18446744073709551615)\n");
}
END_TEST

START_TEST(test_template_generator_bomb)
{
	/* generators nested past the limit stop at it, once, without building it all */
	static const char text[] = "cugraphrun: 1\n"
				   "nodes:\n"
				   "  - for: {a: {from: 1, to: 1000}}\n"
				   "    nodes:\n"
				   "      - for: {b: {from: 1, to: 1000}}\n"
				   "        nodes: [{empty: }]\n";
	struct load_limits lim = load_default_limits;
	lim.max_generated_events = 5000;
	char *msgs = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&msgs, &len);
	struct diag d;
	diag_init(&d, "t.yaml", out);
	struct sweep *sw = sweep_load_string("t.yaml", text, strlen(text), &lim, NULL, 0, &d);
	fclose(out);
	ck_assert_ptr_null(sw);
	ck_assert_str_eq(msgs, "t.yaml:5:9: error: generators read more than 5000 YAML events "
			 "again (the limit for one point)\n");
	free(msgs);
}
END_TEST

/* Sanitizers slow everything down; timing bounds allow for it. */
#if defined(__SANITIZE_ADDRESS__)
#define SLOWDOWN 5
#else
#define SLOWDOWN 1
#endif

/* text is refused, its message starting with want, in well under a second. */
static void refused_fast(const char *text, const char *want)
{
	double t = monotime();
	struct res r = load_args(text, NULL, 0);
	t = monotime() - t;
	ck_assert_ptr_null(r.sw);
	ck_assert_msg(strncmp(r.msgs, want, strlen(want)) == 0, "got %s", r.msgs);
	ck_assert_msg(t < 0.5 * SLOWDOWN, "refused after %.3f s", t);
	res_free(&r);
}

/* The labels of the points of axis "n: RANGE" (one per line). */
static char *range_labels(const char *range)
{
	char text[512];
	snprintf(text, sizeof text, "cugraphrun: 1\naxes: {n: %s}\nname: \"${n}\"\n", range);
	struct sweep *sw = load_ok(text, NULL, 0);
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	for (size_t k = 0; k < sw->npoints; k++)
		fprintf(f, "%s\n", sw->labels[k]);
	fclose(f);
	sweep_release(sw);
	return out;
}

static void expect_range(const char *range, const char *want)
{
	char *got = range_labels(range);
	ck_assert_msg(strcmp(got, want) == 0, "%s: got\n%swant\n%s", range, got, want);
	free(got);
}

/*
 * Integer ranges are counted in integers: no value past 'to' (in doubles
 * 999999999999 / 1e12 rounded up to a second value), none that overflows
 * near INT64_MAX (signed overflow, and in release the fifth value wrapped
 * onto the first).  Float ranges round as cugraphrun(5) says.
 */
START_TEST(test_range_arithmetic)
{
	expect_range("{from: 0, to: 999999999999, step: 1000000000000}", "n=0\n");
	expect_range("{from: 9223372036854775800, to: 9223372036854775807, step: 2}",
		     "n=9223372036854775800\nn=9223372036854775802\nn=9223372036854775804\n"
		     "n=9223372036854775806\n");
	expect_range("{from: -9223372036854775807, to: 9223372036854775807, "
		     "step: 4611686018427387904}",
		     "n=-9223372036854775807\nn=-4611686018427387903\nn=1\n"
		     "n=4611686018427387905\n");
	expect_range("{from: 9223372036854775807, to: -9223372036854775807, "
		     "step: -9223372036854775807}",
		     "n=9223372036854775807\nn=0\nn=-9223372036854775807\n");
	expect_range("{from: 3, to: 3}", "n=3\n");
	expect_range("{from: 10, to: 1, step: -4}", "n=10\nn=6\nn=2\n");
	/* floats: from + k * step while it passes 'to' by less than a part in 10^12 */
	expect_range("{from: 0, to: 1, step: 0.25}", "n=0.0\nn=0.25\nn=0.5\nn=0.75\nn=1.0\n");
	char *tenths = range_labels("{from: 0, to: 1, step: 0.1}");
	ck_assert_msg(strncmp(tenths, "n=0.0\nn=0.1\n", 12) == 0, "%s", tenths);
	size_t lines = 0;
	for (const char *c = tenths; *c; c++)
		lines += *c == '\n';
	ck_assert_uint_eq(lines, 11);
	free(tenths);
	expect_msgs("cugraphrun: 1\naxes: {n: {from: 1, to: 10, step: -1}}\n", NULL, 0,
		    "t.yaml:2:11: error: the range of 'n' is empty: from 1, step -1 never reaches 10\n");
	expect_msgs("cugraphrun: 1\naxes: {n: {from: -9223372036854775807, to: "
		    "9223372036854775807}}\n", NULL, 0,
		    "t.yaml:2:11: error: the range of 'n' has 18446744073709551615 values, more "
		    "than 100000\n");
}
END_TEST

/*
 * Two values of an axis that are one value ([1, 1], [2^10, 1024]) would
 * make two points alike, and two points may not share a label (values
 * holding the commas that join a label's parts): both refused, at the
 * value.
 */
START_TEST(test_axis_duplicates)
{
	expect_msgs("cugraphrun: 1\naxes: {n: [1, 1]}\n", NULL, 0,
		    "t.yaml:2:15: error: value '1' of axis 'n' is given twice (first at 2:12)\n");
	expect_msgs("cugraphrun: 1\naxes: {n: [2^10, 4, 1024]}\n", NULL, 0,
		    "t.yaml:2:21: error: value '1024' of axis 'n' is given twice (first at 2:12, "
		    "as '2^10')\n");
	expect_msgs("cugraphrun: 1\naxes: {T: [float, \"float\"]}\n", NULL, 0,
		    "t.yaml:2:19: error: value 'float' of axis 'T' is given twice (first at 2:12)\n");
	expect_msgs("cugraphrun: 1\naxes:\n  x: [\"a,y=b\", a]\n  y: [c, \"b,y=c\"]\n", NULL, 0,
		    "t.yaml:3:7: error: points 1 and 4 have the same label 'x=a,y=b,y=c': value "
		    "'a,y=b' of axis 'x' holds a ',' (labels join NAME=VALUE with commas)\n");
	/* a zipped axis may repeat a value, not a step of its zip */
	expect_msgs("cugraphrun: 1\naxes:\n  zip: {b: [64, 128, 64], g: [1, 2, 2^0]}\n", NULL, 0,
		    "t.yaml:3:3: error: steps 1 and 3 of the zip of b, g give the same values\n");
	sweep_release(load_ok("cugraphrun: 1\naxes:\n  zip: {b: [64, 64, 128], g: [1, 2, 1]}\n",
			      NULL, 0));
	/* a comma alone is no clash */
	struct sweep *sw = load_ok("cugraphrun: 1\naxes: {T: [\"pair<int, int>\", int]}\n", NULL, 0);
	ck_assert_str_eq(sw->labels[0], "T=pair<int, int>");
	sweep_release(sw);
	/* -a gives a value twice */
	static const char *const argv[] = {"n=4,4"};
	expect_msgs("cugraphrun: 1\naxes: {n: [1, 2]}\n", argv, 1,
		    "t.yaml: error: -a n: value '4' is given twice\n");
}
END_TEST

/*
 * The expansion budget (load_point.h: BUDGET): the cases, each
 * refused at the first point, before the rest is expanded: a 10,000-value
 * axis times a 10,000-node generator (27 s and 8.8 GB before), with 1,000
 * values (accepted after 16 s and 4.4 GB), an 80 KB name template times
 * 10,000 points (7-13 s, 772 MB), nested generators.
 */
START_TEST(test_template_budget)
{
	refused_fast("cugraphrun: 1\naxes: {n: {from: 1, to: 10000}}\nnodes:\n"
		     "  - for: {i: {from: 1, to: 10000}}\n"
		     "    nodes: [{id: \"k${i}_${n}\", empty: {}}]\n",
		     "t.yaml:4:5: error: the sweep would expand too far: 10000 points (n: 10000 "
		     "values) x at least 10000 nodes a point = 100000000, more than the 1000000 ");
	refused_fast("cugraphrun: 1\naxes: {n: {from: 1, to: 1000}}\nnodes:\n"
		     "  - for: {i: {from: 1, to: 10000}}\n"
		     "    nodes: [{id: \"k${i}_${n}\", empty: {}}]\n",
		     "t.yaml:4:5: error: the sweep would expand too far: 1000 points (n: 1000 "
		     "values) x at least 10000 nodes a point = 10000000, ");
	refused_fast("cugraphrun: 1\nnodes:\n  - for: {i: {from: 1, to: 10000}}\n    nodes:\n"
		     "      - for: {j: {from: 1, to: 10000}}\n"
		     "        nodes: [{id: \"k${i}_${j}\", empty: {}}]\n",
		     "t.yaml:3:5: error: the file would expand too far: it would hold at least "
		     "100000000 nodes, more than the 1000000 a template may");
	/* an inner generator's values count, though its body is missing (8 s before) */
	double t = monotime();
	struct res r = load_args("cugraphrun: 1\nnodes:\n  - for: {i: {from: 1, to: 10000}}\n"
				 "    nodes:\n      - for: {j: {from: 1, to: 10000}}\n", NULL, 0);
	t = monotime() - t;
	ck_assert_ptr_null(r.sw);
	ck_assert_str_eq(r.msgs, "t.yaml:5:9: error: missing key 'nodes' in a generator ({for: {i: "
			 "...}, nodes: [...]})\n"
			 "t.yaml:3:5: error: the file would expand too far: it would read at least "
			 "100140020 YAML events, more than the 32000000 a template may (fewer nodes "
			 "or generated values)\n");
	ck_assert_msg(t < 0.5 * SLOWDOWN, "refused after %.3f s", t);
	res_free(&r);
	size_t pieces = 20480;
	char *text = malloc(pieces * 4 + 256);
	char *p = text + sprintf(text, "cugraphrun: 1\naxes: {n: {from: 1, to: 10000}}\nname: \"");
	for (size_t i = 0; i < pieces; i++)
		p += sprintf(p, "${n}");
	sprintf(p, "\"\nnodes: [{empty: {}}]\n");
	refused_fast(text, "t.yaml:3:7: error: the sweep would expand too far: 10000 points (n: "
		     "10000 values) x 81920 bytes of ${...} scalars = 819200000, more than the "
		     "268435456 ");
	free(text);
	/* within the budget: 4 points of 10,000 nodes */
	r = load_args("cugraphrun: 1\naxes: {n: {from: 1, to: 4}}\nnodes:\n"
		      "  - for: {i: {from: 1, to: 10000}}\n"
		      "    nodes: [{id: \"k${i}_${n}\", empty: {}}]\n", NULL, 0);
	ck_assert_msg(r.nerrors == 0, "%s", r.msgs);
	ck_assert_uint_eq(r.sw->models[3]->root->nnodes, 10000);
	res_free(&r);
}
END_TEST

/* text within lim: loaded without an error, or refused with a message holding want. */
static void within(const char *text, const struct load_limits *lim, const char *want)
{
	struct res r = load_lim(text, lim, NULL, 0);
	if (want == NULL) {
		ck_assert_msg(r.sw != NULL && r.nerrors == 0, "%s", r.msgs);
	} else {
		ck_assert_ptr_null(r.sw);
		ck_assert_msg(strstr(r.msgs, want), "want '%s', got %s", want, r.msgs);
	}
	res_free(&r);
}

/* The budgets as load_limits sets them: each spent to its last node, event or byte. */
START_TEST(test_template_budget_limits)
{
	/* two points of 50 nodes each (the generator's and one more) */
	static const char text[] = "cugraphrun: 1\naxes: {n: [1, 2]}\nnodes:\n"
				   "  - {id: \"a${n}\", empty: {}}\n"
				   "  - for: {i: {from: 1, to: 49}}\n"
				   "    nodes: [{id: \"k${i}_${n}\", empty: {}}]\n";
	struct load_limits lim = load_default_limits;
	lim.full_points = true;
	struct res r = load_lim(text, &lim, NULL, 0);
	ck_assert_msg(r.sw != NULL && r.nerrors == 0, "%s", r.msgs);
	ck_assert_uint_eq(r.sw->expanded_nodes, 100);
	struct {
		size_t *max, spent;
		const char *over;
	} b[] = {
		{&lim.max_nodes, r.sw->expanded_nodes,
		 "t.yaml:5:5: error: the sweep would expand too far: 2 points (n: 2 values) x at "
		 "least 50 nodes a point = 100, more than the 99 a sweep's points may hold "
		 "together (give fewer points with -a, or fewer nodes)\n"},
		{&lim.max_events, r.sw->expanded_events, " YAML events a point "},
		{&lim.max_text, r.sw->expanded_text, " bytes of text a point "},
	};
	res_free(&r);
	for (size_t i = 0; i < sizeof b / sizeof *b; i++) {
		*b[i].max = b[i].spent;
		within(text, &lim, NULL);
		*b[i].max = b[i].spent - 1;
		within(text, &lim, b[i].over);
		*b[i].max = 0;
	}
}
END_TEST

/* ------------------------------------------------------------ comparison */

/* Two points' models of one template, validated. */
static struct sweep *pair(const char *text)
{
	struct sweep *sw = load_ok(text, NULL, 0);
	ck_assert_uint_ge(sw->npoints, 2);
	return sw;
}

START_TEST(test_diff_params)
{
	struct sweep *sw = pair("cugraphrun: 1\n"
				"axes: {g: [1, 2]}\n"
				"buffers: {x: {type: u32, count: 64}, y: {type: u32, count: \"${64 * g}\"}}\n"
				"conditions: {c: }\n"
				"nodes:\n"
				"  chain: true\n"
				"  nodes:\n"
				"    - {id: a, kernel: {function: builtin.set, grid: \"${g}\", args: [{handle: c}, {u32: 1}]}}\n"
				"    - {id: b, kernel: {function: builtin.set, args: [{handle: c}, {u32: \"${g}\"}]}}\n"
				"    - {id: m, memset: {buffer: x, value: 0}}\n"
				"    - {id: z, memset: {buffer: y, value: 0}}\n"
				"    - {id: w, while: {condition: c, body: [{empty: }]}}\n");
	struct model_diff d;
	model_diff(sw->models[0], sw->models[1], &d);
	ck_assert(!d.structural && !d.rebuild);
	ck_assert_str_eq(d.changed[unit_node(sw->models[1], "a")->seq], "grid");
	ck_assert_str_eq(d.changed[unit_node(sw->models[1], "b")->seq], "args");
	ck_assert_ptr_null(d.changed[unit_node(sw->models[1], "m")->seq]);
	/* z's own parameters are the same; the buffer it sets is allocated again */
	ck_assert_ptr_null(d.changed[unit_node(sw->models[1], "z")->seq]);
	ck_assert_uint_eq(d.nchanged, 2);
	ck_assert(!d.realloc[0] && d.realloc[1] && d.any_realloc);
	ck_assert(node_uses_buffer(unit_node(sw->models[1], "z"), 1));
	ck_assert(!node_uses_buffer(unit_node(sw->models[1], "m"), 1));
	ck_assert(!d.any_cond_default && !d.any_reload);
	model_diff_free(&d);
	/* the same model: nothing */
	model_diff(sw->models[1], sw->models[1], &d);
	ck_assert(!d.structural && !d.rebuild && d.nchanged == 0 && !d.any_realloc);
	model_diff_free(&d);
	ck_assert(!graph_has_device_updatable(sw->models[0]));
	sweep_release(sw);
}
END_TEST

START_TEST(test_diff_structure)
{
	struct sweep *sw = pair("cugraphrun: 1\n"
				"axes: {n: [2, 3]}\n"
				"nodes:\n"
				"  - for: {i: {from: 1, to: \"${n}\"}}\n"
				"    nodes: [{id: \"e${i}\", empty: }]\n");
	struct model_diff d;
	model_diff(sw->models[0], sw->models[1], &d);
	ck_assert(d.structural && !d.lists_differ);
	ck_assert_str_eq(d.why, "the graph has 3 nodes now (it had 2)");
	model_diff_free(&d);
	sweep_release(sw);

	sw = pair("cugraphrun: 1\n"
		  "axes: {k: [0, 1]}\n"
		  "nodes:\n"
		  "  - {id: a, empty: }\n"
		  "  - {id: b, empty: }\n"
		  "  - {id: c, after: \"${k ? 'a' : 'b'}\", empty: }\n");
	model_diff(sw->models[0], sw->models[1], &d);
	ck_assert(d.structural);
	ck_assert_str_eq(d.why, "node 'c' depends on other nodes now (t.yaml:6:5)");
	model_diff_free(&d);
	sweep_release(sw);

	sw = pair("cugraphrun: 1\n"
		  "axes: {n: [64, 128]}\n"
		  "buffers: {x: {type: u32, count: \"${n}\", memory: graph}}\n"
		  "nodes:\n"
		  "  chain: true\n"
		  "  nodes:\n"
		  "    - {id: get, alloc: x}\n"
		  "    - {id: put, free: x}\n");
	model_diff(sw->models[0], sw->models[1], &d);
	ck_assert(!d.structural && d.rebuild);
	ck_assert_str_eq(d.why, "buffer 'x' is graph memory and its size, type or kind changed "
			 "(an alloc node cannot be updated) (t.yaml:3:11)");
	model_diff_free(&d);
	sweep_release(sw);
}
END_TEST

START_TEST(test_diff_moved_buffer)
{
	/* a buffer allocated again under a memop node or an access window: rebuilt */
	struct model_diff d;
	struct sweep *sw = pair("cugraphrun: 1\n"
		  "axes: {n: [64, 128]}\n"
		  "buffers: {f: {type: u32, count: \"${n}\"}}\n"
		  "nodes:\n"
		  "  - {id: w, memop: [{write: f, value: 7}]}\n");
	model_diff(sw->models[0], sw->models[1], &d);
	ck_assert(!d.structural && d.rebuild && d.realloc[0]);
	ck_assert_str_eq(d.why, "memop node 'w' names buffer 'f', allocated again (a memop "
			 "node's addresses cannot be updated) (t.yaml:5:5)");
	model_diff_free(&d);
	sweep_release(sw);
	sw = pair("cugraphrun: 1\n"
		  "axes: {n: [64, 128]}\n"
		  "modules: {k: " TOP_SRCDIR "/examples/kernels/empty.ptx}\n"
		  "buffers: {x: {type: u8, count: \"${n}\"}}\n"
		  "nodes:\n"
		  "  - {id: k, kernel: {function: k.empty, access_policy: {buffer: x, "
		  "hit: streaming}}}\n");
	model_diff(sw->models[0], sw->models[1], &d);
	ck_assert(!d.structural && d.rebuild);
	ck_assert_str_eq(d.why, "the access-policy window of kernel node 'k' is over buffer "
			 "'x', allocated again (a launch attribute is not updated) (t.yaml:6:5)");
	model_diff_free(&d);
	sweep_release(sw);
}
END_TEST

START_TEST(test_diff_conditions_modules)
{
	struct sweep *sw = pair("cugraphrun: 1\n"
				"axes: {v: [0, 1]}\n"
				"modules: {k: {source: " TOP_SRCDIR "/examples/cuda/scale.cu, defines: {V: \"${v}\"}}}\n"
				"conditions: {c: {default: \"${v}\"}}\n"
				"nodes:\n"
				"  - {id: i, if: {condition: c, then: [{empty: }]}}\n"
				"  - {id: p, kernel: {function: builtin.set, priority: \"${v}\", args: [{handle: c}, {u32: 1}]}}\n");
	struct model_diff d;
	model_diff(sw->models[0], sw->models[1], &d);
	ck_assert(d.any_cond_default && d.cond_default[0]);
	ck_assert(d.any_reload && d.reload[1] && !d.reload[0]);
	/* a node's priority is an attribute, set when the node is added */
	ck_assert(d.rebuild && !d.structural);
	ck_assert_str_eq(d.why, "the priority of kernel node 'p' changed (a node's attributes are "
			 "set when it is added) (t.yaml:7:55)");
	model_diff_free(&d);
	sweep_release(sw);
}
END_TEST

static Suite *sweep_suite(void)
{
	Suite *s = suite_create("sweep");
	TCase *tc = tcase_create("points");
	tcase_add_test(tc, test_points_order);
	tcase_add_test(tc, test_points_zip);
	tcase_add_test(tc, test_points_command_line);
	tcase_add_test(tc, test_points_plain);
	suite_add_tcase(s, tc);
	tc = tcase_create("templates");
	tcase_add_test(tc, test_template_values);
	tcase_add_test(tc, test_template_generators);
	tcase_add_test(tc, test_generator_no_values);
	tcase_add_test(tc, test_template_restart);
	tcase_add_test(tc, test_template_errors);
	tcase_add_test(tc, test_template_generator_bomb);
	tcase_add_test(tc, test_template_budget);
	tcase_add_test(tc, test_template_budget_limits);
	tcase_add_test(tc, test_range_arithmetic);
	tcase_add_test(tc, test_axis_duplicates);
	suite_add_tcase(s, tc);
	tc = tcase_create("comparison");
	tcase_add_test(tc, test_diff_params);
	tcase_add_test(tc, test_diff_structure);
	tcase_add_test(tc, test_diff_moved_buffer);
	tcase_add_test(tc, test_diff_conditions_modules);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_MAIN(sweep_suite)
