/*
 * Unit tests of the modes without a GPU: the plan of a stream issue
 * (stream_plan.h) over models read from YAML, in the words of
 * splan_dump, each test asserting the whole plan; --mode's list and the
 * rows of a run in modes (modes.h); what stream mode refuses
 * (validate_modes.h); the break-even of the modes' table
 * (report_modes.h).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "load.h"
#include "load_limits.h"
#include "model.h"
#include "modes.h"
#include "report_modes.h"
#include "stream_plan.h"
#include "sweep.h"
#include "validate.h"
#include "validate_modes.h"
#include "xmalloc.h"
#include "unit.h"

/* The file's model, validated (kernels not checked against modules: none are read). */
static struct gdef *model(const char *text)
{
	struct diag d;
	diag_init(&d, "t.yaml", stderr);
	struct gdef *g = gdef_load_string("t.yaml", text, strlen(text), &load_default_limits, &d);
	ck_assert_ptr_nonnull(g);
	ck_assert(gdef_validate_with(g, &d, NULL));
	ck_assert_uint_eq(d.nerrors, 0);
	diag_free(&d);
	return g;
}

/* The plan of text's root graph in words. */
static char *plan_of(const char *text, bool words, unsigned max_streams)
{
	struct gdef *g = model(text);
	struct splan_opts o = {.words = words, .max_streams = max_streams};
	struct splan *p = splan_make(g, g->root, &o);
	char *s = splan_dump(p);
	splan_free(p);
	gdef_free(g);
	return s;
}

static void plan_is(const char *text, bool words, unsigned max, const char *want)
{
	char *got = plan_of(text, words, max);
	if (strcmp(got, want) != 0)
		fprintf(stderr, "plan:\n%s--- wanted:\n%s", got, want);
	ck_assert_str_eq(got, want);
	free(got);
}

#define HEAD "cugraphrun: 1\nmodules: {k: '" TOP_SRCDIR "/tests/errors/kernels/k.ptx'}\n"

/* A chain: one stream, the launch's own, and no event at all. */
START_TEST(test_chain)
{
	plan_is(HEAD "nodes:\n"
		"  - {id: a, kernel: {function: k.f}}\n"
		"  - {id: b, after: a, kernel: {function: k.f}}\n"
		"  - {id: c, after: b, kernel: {function: k.f}}\n",
		false, 0,
		"0 begin s0\n"
		"1 node a s0\n"
		"2 node b s0\n"
		"3 node c s0\n"
		"4 end s0\n");
}
END_TEST

/* A fan of independent nodes: a stream each, forked from BEGIN and joined by END. */
START_TEST(test_fan)
{
	plan_is(HEAD "nodes:\n"
		"  - {id: a, kernel: {function: k.f}}\n"
		"  - {id: b, kernel: {function: k.f}}\n"
		"  - {id: c, kernel: {function: k.f}}\n",
		false, 0,
		"0 begin s0 gives done\n"
		"1 node a s0\n"
		"2 node b s1 wait 0:done gives done\n"
		"3 node c s2 wait 0:done gives done\n"
		"4 end s0 wait 3:done,2:done\n");
}
END_TEST

/* The width cap: beyond it, the stream whose last step came first (which orders them). */
START_TEST(test_fan_capped)
{
	plan_is(HEAD "nodes:\n"
		"  - {id: a, kernel: {function: k.f}}\n"
		"  - {id: b, kernel: {function: k.f}}\n"
		"  - {id: c, kernel: {function: k.f}}\n"
		"  - {id: d, kernel: {function: k.f}}\n",
		false, 2,
		"0 begin s0 gives done\n"
		"1 node a s0\n"
		"2 node b s1 wait 0:done\n"
		"3 node c s0\n"
		"4 node d s1 gives done\n"
		"5 end s0 wait 4:done\n");
}
END_TEST

/* Fork and join: one wait per branch, and the join takes the first branch's stream. */
START_TEST(test_diamond)
{
	plan_is(HEAD "nodes:\n"
		"  - {id: a, kernel: {function: k.f}}\n"
		"  - {id: b, after: a, kernel: {function: k.f}}\n"
		"  - {id: c, after: a, kernel: {function: k.f}}\n"
		"  - {id: d, after: [b, c], kernel: {function: k.f}}\n",
		false, 0,
		"0 begin s0\n"
		"1 node a s0 gives done\n"
		"2 node b s0\n"
		"3 node c s1 wait 1:done gives done\n"
		"4 node d s0 wait 3:done\n"
		"5 end s0\n");
}
END_TEST

/*
 * A fork after a join takes back the stream the join ended (its last step
 * is known done), and a transitive edge costs no wait.
 */
START_TEST(test_reuse_and_transitive)
{
	plan_is(HEAD "nodes:\n"
		"  - {id: a, kernel: {function: k.f}}\n"
		"  - {id: b, after: a, kernel: {function: k.f}}\n"
		"  - {id: c, after: a, kernel: {function: k.f}}\n"
		"  - {id: d, after: [b, c], kernel: {function: k.f}}\n"
		"  - {id: e, after: [d, a], kernel: {function: k.f}}\n"
		"  - {id: f, after: d, kernel: {function: k.f}}\n"
		"  - {id: g, after: [e, f, c], kernel: {function: k.f}}\n",
		false, 0,
		"0 begin s0\n"
		"1 node a s0 gives done\n"
		"2 node b s0\n"
		"3 node c s1 wait 1:done gives done\n"
		"4 node d s0 wait 3:done gives done\n"
		"5 node e s0\n"
		"6 node f s1 wait 4:done gives done\n"
		"7 node g s0 wait 6:done\n"
		"8 end s0\n");
}
END_TEST

/* Programmatic edges: the stream's serialisation when the kernel before is the stream's last. */
START_TEST(test_programmatic_same_stream)
{
	plan_is(HEAD "nodes:\n"
		"  - {id: a, kernel: {function: k.f}}\n"
		"  - {id: b, after: [{node: a, port: programmatic, type: programmatic}], "
		"kernel: {function: k.f}}\n",
		false, 0,
		"0 begin s0\n"
		"1 node a s0\n"
		"2 node b s0 serial\n"
		"3 end s0\n");
}
END_TEST

/*
 * Across streams, a programmatic event; a launch_order edge never shares a
 * stream: a programmatic event at block start (programmatic type) or a
 * launch completion event (default type).
 */
START_TEST(test_programmatic_events)
{
	plan_is(HEAD "nodes:\n"
		"  - {id: a, kernel: {function: k.f}}\n"
		"  - {id: b, after: a, kernel: {function: k.f}}\n"
		"  - {id: c, after: [{node: a, port: programmatic, type: programmatic}], "
		"kernel: {function: k.f}}\n"
		"  - {id: d, after: [{node: b, port: launch_order, type: programmatic}], "
		"kernel: {function: k.f}}\n"
		"  - {id: e, after: [{node: b, port: launch_order}], kernel: {function: k.f}}\n",
		false, 0,
		"0 begin s0\n"
		"1 node a s0 gives triggered\n"
		"2 node b s0 gives begun-prog+begun\n"
		"3 node c s1 wait 1:triggered gives done\n"
		"4 node d s2 wait 2:begun-prog gives done\n"
		"5 node e s3 wait 2:begun gives done\n"
		"6 end s0 wait 5:done,4:done,3:done\n");
}
END_TEST

/*
 * A programmatic wait does not make the kernel known done: a step after
 * it on that stream still waits for the kernel's end.
 */
START_TEST(test_programmatic_not_done)
{
	plan_is(HEAD "nodes:\n"
		"  - {id: a, kernel: {function: k.f}}\n"
		"  - {id: y, after: a, kernel: {function: k.f}}\n"
		"  - {id: b, after: [{node: a, port: programmatic, type: programmatic}], "
		"kernel: {function: k.f}}\n"
		"  - {id: c, after: [a, b], kernel: {function: k.f}}\n",
		false, 0,
		"0 begin s0\n"
		"1 node a s0 gives done+triggered\n"
		"2 node y s0\n"
		"3 node b s1 wait 1:triggered\n"
		"4 node c s1 wait 1:done gives done\n"
		"5 end s0 wait 4:done\n");
}
END_TEST

/* A stream's FIFO: a launch after a programmatic one starts after all before it on the stream. */
START_TEST(test_programmatic_fifo)
{
	plan_is(HEAD "nodes:\n"
		"  - {id: a, kernel: {function: k.f}}\n"
		"  - {id: x, kernel: {function: k.f}}\n"
		"  - {id: b, after: [{node: a, port: programmatic, type: programmatic}, x], "
		"kernel: {function: k.f}}\n"
		"  - {id: c, after: [a, b], kernel: {function: k.f}}\n",
		false, 0,
		"0 begin s0 gives done\n"
		"1 node a s0\n"
		"2 node x s1 wait 0:done gives done\n"
		"3 node b s0 wait 2:done serial\n"
		"4 node c s0\n"
		"5 end s0\n");
}
END_TEST

/* A disabled kernel issues nothing: its programmatic edge becomes a plain one. */
START_TEST(test_disabled)
{
	plan_is(HEAD "nodes:\n"
		"  - {id: a, enabled: false, kernel: {function: k.f}}\n"
		"  - {id: b, after: [{node: a, port: programmatic, type: programmatic}], "
		"kernel: {function: k.f}}\n"
		"  - {id: e, empty: {}}\n",
		false, 0,
		"0 begin s0 gives done\n"
		"1 empty a s0\n"
		"2 node b s0\n"
		"3 empty e s1 wait 0:done gives done\n"
		"4 end s0 wait 3:done\n");
}
END_TEST

/* A child graph's nodes in its place, between its entry and its exit. */
START_TEST(test_child)
{
	plan_is(HEAD "nodes:\n"
		"  - {id: a, kernel: {function: k.f}}\n"
		"  - id: g\n"
		"    after: a\n"
		"    graph:\n"
		"      - {id: x, kernel: {function: k.f}}\n"
		"      - {id: y, kernel: {function: k.f}}\n"
		"  - {id: b, after: g, kernel: {function: k.f}}\n",
		false, 0,
		"0 begin s0\n"
		"1 node a s0\n"
		"2 empty g s0 gives done\n"
		"3 node x s0\n"
		"4 node y s1 wait 2:done gives done\n"
		"5 empty g s0 wait 4:done\n"
		"6 node b s0\n"
		"7 end s0\n");
}
END_TEST

#define COND HEAD "buffers: {n: {type: i32, count: 1, init: 3}}\nconditions: {c: {default: 1}}\n"

/*
 * Stream mode: device 0's conditions' words reset at BEGIN, before the
 * fork; the conditional node after what else is ready (the host waits
 * there); its body a plan of its own.
 */
START_TEST(test_conditional_words)
{
	plan_is(COND "nodes:\n"
		"  - {id: a, kernel: {function: k.f}}\n"
		"  - id: w\n"
		"    after: a\n"
		"    while:\n"
		"      condition: c\n"
		"      body:\n"
		"        - {id: x, kernel: {function: k.f}}\n"
		"        - {id: y, kernel: {function: k.f}}\n"
		"        - {id: z, after: [x, y], kernel: {function: builtin.countdown, "
		"args: [{handle: c}, n]}}\n"
		"  - {id: b, kernel: {function: k.f}}\n",
		true, 0,
		"0 begin s0 reset gives done\n"
		"1 node a s0\n"
		"2 node b s1 wait 0:done gives done\n"
		"3 cond w s0\n"
		"  body 0:\n"
		"    0 begin s0 gives done\n"
		"    1 node x s0\n"
		"    2 node y s1 wait 0:done gives done\n"
		"    3 node z s0 wait 2:done\n"
		"    4 end s0\n"
		"4 end s0 wait 2:done\n");
}
END_TEST

/* Another device's conditions: a RESET step there, before the node that reads them. */
START_TEST(test_conditional_device)
{
	plan_is(COND "nodes:\n"
		"  - {id: a, kernel: {function: k.f}}\n"
		"  - id: w\n"
		"    device: 1\n"
		"    while:\n"
		"      condition: c\n"
		"      body: [{id: z, kernel: {function: builtin.countdown, args: [{handle: c}, n]}}]\n",
		true, 0,
		"0 begin s0 gives done\n"
		"1 reset d1 s1 wait 0:done\n"
		"2 node a s0\n"
		"3 cond w d1 s1 gives done\n"
		"  body 0:\n"
		"    0 begin d1 s0\n"
		"    1 node z d1 s0\n"
		"    2 end d1 s0\n"
		"4 end s0 wait 3:done\n");
}
END_TEST

/* Capture mode: no words, no RESET; a kernel that sets the condition before the node. */
START_TEST(test_conditional_capture)
{
	plan_is(COND "nodes:\n"
		"  - {id: s, kernel: {function: builtin.set, args: [{handle: c}, {u32: 0}]}}\n"
		"  - id: i\n"
		"    after: s\n"
		"    if:\n"
		"      condition: c\n"
		"      then: [{id: t, kernel: {function: k.f}}]\n"
		"      else: [{id: e, kernel: {function: k.f}}]\n",
		false, 0,
		"0 begin s0\n"
		"1 node s s0\n"
		"2 cond i s0\n"
		"  body 0:\n"
		"    0 begin s0\n"
		"    1 node t s0\n"
		"    2 end s0\n"
		"  body 1:\n"
		"    0 begin s0\n"
		"    1 node e s0\n"
		"    2 end s0\n"
		"3 end s0\n");
}
END_TEST

/* Each device's nodes on that device's streams, each forked from BEGIN and joined by END. */
START_TEST(test_devices)
{
	plan_is(HEAD "nodes:\n"
		"  - {id: a, kernel: {function: k.f}}\n"
		"  - {id: b, device: 1, after: a, kernel: {function: k.f}}\n"
		"  - {id: c, device: 1, after: b, kernel: {function: k.f}}\n"
		"  - {id: d, after: c, kernel: {function: k.f}}\n",
		false, 0,
		"0 begin s0\n"
		"1 node a s0 gives done\n"
		"2 node b d1 s1 wait 1:done\n"
		"3 node c d1 s1 gives done\n"
		"4 node d s0 wait 3:done\n"
		"5 end s0\n");
}
END_TEST

/* --mode's list ---------------------------------------------------------------- */

START_TEST(test_mode_list)
{
	struct mode_list l;
	char bad[32];
	ck_assert(mode_list_parse("stream,graph,stream", &l, bad, sizeof bad));
	ck_assert_uint_eq(l.n, 2);
	ck_assert_int_eq(l.v[0], MODE_STREAM);
	ck_assert_int_eq(l.v[1], MODE_GRAPH);
	/* all: the graph modes first, stream last (modes.h) */
	ck_assert(mode_list_parse("all", &l, bad, sizeof bad));
	ck_assert_uint_eq(l.n, 3);
	ck_assert_int_eq(l.v[0], MODE_GRAPH);
	ck_assert_int_eq(l.v[1], MODE_CAPTURE);
	ck_assert_int_eq(l.v[2], MODE_STREAM);
	ck_assert(!mode_list_parse("graph,streams", &l, bad, sizeof bad));
	ck_assert_str_eq(bad, "streams");
	ck_assert(!mode_list_parse("graph,", &l, bad, sizeof bad));
	ck_assert_str_eq(bad, "");
}
END_TEST

/* The rows: --mode's axis is the last, the points varying fastest; the file's own picks each point's. */
static struct sweep *sweep_of(const char *text, const struct axis_arg *args, size_t nargs)
{
	struct diag d;
	diag_init(&d, "t.yaml", stderr);
	struct sweep *sw = sweep_load_string("t.yaml", text, strlen(text), &load_default_limits,
					     args, nargs, &d);
	ck_assert_ptr_nonnull(sw);
	ck_assert_uint_eq(d.nerrors, 0);
	diag_free(&d);
	return sw;
}

START_TEST(test_rows)
{
	struct sweep *sw = sweep_of(HEAD "axes: {n: [1, 2]}\nnodes:\n"
				    "  - kernel: {function: k.f, grid: \"${n}\"}\n", NULL, 0);
	struct mode_list l;
	char bad[32];
	ck_assert(mode_list_parse("graph,stream", &l, bad, sizeof bad));
	struct mode_rows r;
	struct diag d;
	diag_init(&d, "t.yaml", stderr);
	ck_assert(mode_rows_make(sw, &l, &r, &d));
	ck_assert_uint_eq(r.n, 4);
	ck_assert_uint_eq(r.naxes, 2);
	ck_assert_str_eq(r.labels[0], "n=1,mode=graph");
	ck_assert_str_eq(r.labels[1], "n=2,mode=graph");
	ck_assert_str_eq(r.labels[3], "n=2,mode=stream");
	ck_assert_uint_eq(r.point[3], 1);
	ck_assert_int_eq(r.mode[3], MODE_STREAM);
	ck_assert_str_eq(r.axes[3 * 2 + 1].name, "mode");
	ck_assert_str_eq(r.axes[3 * 2 + 1].text, "stream");
	mode_rows_free(&r);
	/* given first, stream still runs last: the graph modes are not timed after it */
	ck_assert(mode_list_parse("stream,capture,graph", &l, bad, sizeof bad));
	ck_assert(mode_rows_make(sw, &l, &r, &d));
	ck_assert_uint_eq(r.n, 6);
	static const char *const want[] = {"n=1,mode=capture", "n=2,mode=capture", "n=1,mode=graph",
					   "n=2,mode=graph", "n=1,mode=stream", "n=2,mode=stream"};
	for (size_t i = 0; i < 6; i++) {
		ck_assert_str_eq(r.labels[i], want[i]);
		ck_assert_uint_eq(r.point[i], i % 2);
		ck_assert_str_eq(r.axes[i * 2 + 1].text, run_mode_names[r.mode[i]]);
	}
	mode_rows_free(&r);
	diag_free(&d);
	sweep_release(sw);
}
END_TEST

START_TEST(test_rows_plain)
{
	struct sweep *sw = sweep_of(HEAD "nodes:\n  - kernel: {function: k.f}\n", NULL, 0);
	struct mode_list l = {{MODE_CAPTURE}, 1};
	struct mode_rows r;
	struct diag d;
	diag_init(&d, "t.yaml", stderr);
	ck_assert(mode_rows_make(sw, &l, &r, &d));
	ck_assert_uint_eq(r.n, 1);
	ck_assert_str_eq(r.labels[0], "mode=capture");
	mode_rows_free(&r);
	diag_free(&d);
	sweep_release(sw);
}
END_TEST

START_TEST(test_rows_file_axis)
{
	const struct axis_arg a = {"mode=stream,capture", 4, "stream,capture", false};
	struct sweep *sw = sweep_of(HEAD "axes: {n: [1, 2], mode: [graph]}\nnodes:\n"
				    "  - kernel: {function: k.f, grid: \"${n}\"}\n", &a, 1);
	struct mode_list none = {{MODE_GRAPH}, 0};
	struct mode_rows r;
	struct diag d;
	diag_init(&d, "t.yaml", stderr);
	ck_assert(modes_wanted(sw, &none));
	ck_assert(mode_rows_make(sw, &none, &r, &d));
	ck_assert_uint_eq(r.n, 4);
	ck_assert_uint_eq(r.naxes, 2);
	/* the points' own modes, the stream rows last */
	ck_assert_str_eq(r.labels[0], "n=1,mode=capture");
	ck_assert_int_eq(r.mode[0], MODE_CAPTURE);
	ck_assert_str_eq(r.labels[1], "n=2,mode=capture");
	ck_assert_str_eq(r.labels[3], "n=2,mode=stream");
	ck_assert_int_eq(r.mode[3], MODE_STREAM);
	ck_assert_uint_eq(r.point[3], 1);
	mode_rows_free(&r);
	diag_free(&d);
	sweep_release(sw);
}
END_TEST

/* A value of the axis mode that is no mode: an error at the axis. */
START_TEST(test_rows_bad_value)
{
	struct sweep *sw = sweep_of(HEAD "axes: {mode: [graph, streams]}\nnodes:\n"
				    "  - kernel: {function: k.f}\n", NULL, 0);
	struct mode_list none = {{MODE_GRAPH}, 0};
	struct mode_rows r;
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	struct diag d;
	diag_init(&d, "t.yaml", out);
	ck_assert(!mode_rows_make(sw, &none, &r, &d));
	fclose(out);
	ck_assert_str_eq(text, "t.yaml:3:8: error: axis 'mode' gives each point its mode "
			 "(cugraphrun(1), MODES), and 'streams' is none: its values are graph, "
			 "stream and capture\n");
	free(text);
	diag_free(&d);
	sweep_release(sw);
}
END_TEST

/* What stream mode refuses ------------------------------------------------------- */

static char *refusals(const char *text, enum run_mode m, bool *ok)
{
	struct gdef *g = model(text);
	char *out_text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&out_text, &len);
	struct diag d;
	diag_init(&d, "t.yaml", out);
	*ok = mode_model_ok(g, m, &d);
	fclose(out);
	diag_free(&d);
	gdef_free(g);
	return out_text;
}

START_TEST(test_refuse_setter)
{
	const char *text = HEAD "conditions: {c: {}}\nnodes:\n"
		"  - {id: s, kernel: {function: k.set, args: [{handle: c}]}}\n"
		"  - {id: i, after: s, if: {condition: c, then: [{kernel: {function: k.f}}]}}\n";
	bool ok;
	char *got = refusals(text, MODE_STREAM, &ok);
	ck_assert(!ok);
	ck_assert_str_eq(got, "t.yaml:5:46: error: node 's' gives condition 'c' to kernel "
			 "'k.set', which sets it with cudaGraphSetConditional: a condition's "
			 "handle exists only in a graph, so stream mode cannot run this file "
			 "(graph and capture modes can)\n");
	free(got);
	got = refusals(text, MODE_CAPTURE, &ok);
	ck_assert(ok);
	ck_assert_str_eq(got, "");
	free(got);
}
END_TEST

START_TEST(test_builtin_setters_run)
{
	bool ok;
	char *got = refusals(COND "nodes:\n"
			     "  - {id: s, kernel: {function: builtin.set, args: [{handle: c}, {u32: 1}]}}\n"
			     "  - {id: w, after: s, while: {condition: c, body: [{kernel: "
			     "{function: builtin.countdown, args: [{handle: c}, n]}}]}}\n",
			     MODE_STREAM, &ok);
	ck_assert(ok);
	ck_assert_str_eq(got, "");
	free(got);
	ck_assert_str_eq(mode_builtin_variant("countdown"), "countdown_word");
	ck_assert_str_eq(mode_builtin_variant("set_from"), "set_from_word");
	ck_assert_ptr_null(mode_builtin_variant("fill"));
}
END_TEST

START_TEST(test_refuse_updatable)
{
	bool ok;
	char *got = refusals(HEAD "nodes:\n"
			     "  - {id: u, kernel: {function: k.f, device_updatable: true}}\n",
			     MODE_STREAM, &ok);
	ck_assert(!ok);
	ck_assert_str_eq(got, "t.yaml:4:37: error: node 'u' is a device-updatable kernel node, "
			 "which exists only in a graph (the device updates it in the executable "
			 "graph): stream mode launches kernels one by one and has no node to "
			 "update; graph and capture modes can run it\n");
	free(got);
}
END_TEST

/* The break-even ------------------------------------------------------------------ */

START_TEST(test_break_even)
{
	double gpu_graph[] = {10e-6, 10e-6}, gpu_stream[] = {40e-6, 40e-6};
	struct axis_value ax[3][2] = {
		{{"n", "10"}, {"mode", "graph"}},
		{{"n", "10"}, {"mode", "stream"}},
		{{"n", "10"}, {"mode", "capture"}},
	};
	struct mode_row m[3] = {
		{.mode = MODE_GRAPH, .prepare_s = 20e-6, .instantiate_s = 25e-6, .upload_s = 5e-6,
		 .loop_launches = 2, .wall_s = 12e-6},
		{.mode = MODE_STREAM, .prepare_s = 1e-6, .instantiate_s = NAN, .upload_s = NAN,
		 .loop_launches = 2, .wall_s = 41e-6},
		{.mode = MODE_CAPTURE, .prepare_s = 30e-6, .instantiate_s = 25e-6, .upload_s = 5e-6,
		 .loop_launches = 2, .wall_s = 45e-6},
	};
	struct point_report p[3];
	memset(p, 0, sizeof p);
	for (int i = 0; i < 3; i++) {
		p[i].axes = ax[i];
		p[i].naxes = 2;
		p[i].mode = &m[i];
		p[i].samples = i == 1 ? gpu_stream : gpu_graph;
		p[i].nsamples = 2;
	}
	struct report r = {.points = p, .npoints = 3};
	struct break_even be;
	/* graph: 50 us once, 29 us saved a launch (wall): 2 launches; 30 us saved (GPU): 2 */
	mode_break_even(&r, 0, false, &be);
	ck_assert_int_eq(be.kind, BE_AT);
	ck_assert(be.launches == 2);
	mode_break_even(&r, 0, true, &be);
	ck_assert_int_eq(be.kind, BE_AT);
	ck_assert(be.launches == 2);
	/* the stream row has none */
	mode_break_even(&r, 1, false, &be);
	ck_assert_int_eq(be.kind, BE_UNKNOWN);
	/* capture: slower than stream by the wall: never; faster on the GPU: 60 / 30 */
	mode_break_even(&r, 2, false, &be);
	ck_assert_int_eq(be.kind, BE_NEVER);
	mode_break_even(&r, 2, true, &be);
	ck_assert_int_eq(be.kind, BE_AT);
	ck_assert(be.launches == 2);
	/* 50 us once at 1 us saved: 50; 51 us: 51 (a launch short is not repaid) */
	m[1].wall_s = 13e-6;
	mode_break_even(&r, 0, false, &be);
	ck_assert(be.launches == 50);
	m[0].prepare_s = 21e-6;
	mode_break_even(&r, 0, false, &be);
	ck_assert(be.launches == 51);
	/* no stream row for the point: unknown */
	ax[1][0].text = "20";
	mode_break_even(&r, 0, true, &be);
	ck_assert_int_eq(be.kind, BE_UNKNOWN);
}
END_TEST

/* The table for people: a row per point and mode, figures right-aligned, the legend. */
START_TEST(test_print_table)
{
	double gpu_graph[] = {10e-6, 10e-6}, gpu_stream[] = {40e-6, 40e-6};
	struct axis_value ax[3][2] = {
		{{"n", "10"}, {"mode", "graph"}},
		{{"n", "10"}, {"mode", "stream"}},
		{{"n", "10"}, {"mode", "capture"}},
	};
	struct mode_row m[3] = {
		{.mode = MODE_GRAPH, .prepare_s = 20e-6, .instantiate_s = 25e-6, .upload_s = 5e-6,
		 .loop_launches = 2, .submit_s = 3e-6, .wall_s = 12e-6, .streams = 1},
		{.mode = MODE_STREAM, .prepare_s = 1e-6, .instantiate_s = NAN, .upload_s = NAN,
		 .loop_launches = 2, .submit_s = 40e-6, .wall_s = 41e-6, .streams = 1,
		 .host_waits = 2},
		{.mode = MODE_CAPTURE, .prepare_s = 30e-6, .instantiate_s = 25e-6, .upload_s = 5e-6,
		 .loop_launches = 2, .submit_s = 3e-6, .wall_s = 45e-6, .streams = 1},
	};
	struct point_report p[3];
	memset(p, 0, sizeof p);
	for (int i = 0; i < 3; i++) {
		p[i].label = i == 0 ? "n=10,mode=graph" : i == 1 ? "n=10,mode=stream" :
			"n=10,mode=capture";
		p[i].axes = ax[i];
		p[i].naxes = 2;
		p[i].mode = &m[i];
		p[i].samples = i == 1 ? gpu_stream : gpu_graph;
		p[i].nsamples = 2;
		p[i].first_launch_s = 50e-6;
		p[i].checks_passed = 1;
	}
	p[2].checks_failed = 1;
	struct report r = {.points = p, .npoints = 3};
	ck_assert(report_has_modes(&r));
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	report_print_modes(out, &r);
	fclose(out);
	ck_assert_str_eq(text,
		"  modes        3 (each point from scratch in its mode)\n"
		"   n  mode      median  prepare          instantiate   upload    first   submit     wall"
		"  streams  checks         even (wall)  even (GPU)\n"
		"  10  graph    10.0 us  build 20.0 us        25.0 us  5.00 us  50.0 us  3.00 us  12.0 us"
		"        1  1 passed                 2           2\n"
		"  10  stream   40.0 us  plan 1.00 us               -        -  50.0 us  40.0 us  41.0 us"
		"        1  1 passed                 -           -\n"
		"  10  capture  10.0 us  capture 30.0 us      25.0 us  5.00 us  50.0 us  3.00 us  45.0 us"
		"        1  1 of 2 failed        never           2\n"
		"  legend       median: the timed launches' median GPU time; submit, wall: per launch of\n"
		"               2 launches back to back; even: the launches that repay the graph's prepare,\n"
		"               instantiate and upload by its saving per launch over stream mode\n");
	free(text);
	/* and the JSON: one object per row */
	out = open_memstream(&text, &len);
	report_modes_json(out, &r);
	fclose(out);
	ck_assert_ptr_nonnull(strstr(text, "\"label\": \"n=10,mode=capture\",\n      \"mode\": "
				     "\"capture\""));
	ck_assert_ptr_nonnull(strstr(text, "\"host_waits\": 2,\n      \"break_even\": null"));
	ck_assert_ptr_nonnull(strstr(text, "\"break_even\": {\"wall\": \"never\", \"gpu\": 2}"));
	ck_assert_ptr_nonnull(strstr(text, "\"instantiate_s\": null"));
	free(text);
}
END_TEST

static Suite *modes_suite(void)
{
	Suite *s = suite_create("modes");
	TCase *tc = tcase_create("plan");
	tcase_add_test(tc, test_chain);
	tcase_add_test(tc, test_fan);
	tcase_add_test(tc, test_fan_capped);
	tcase_add_test(tc, test_diamond);
	tcase_add_test(tc, test_reuse_and_transitive);
	tcase_add_test(tc, test_programmatic_same_stream);
	tcase_add_test(tc, test_programmatic_events);
	tcase_add_test(tc, test_programmatic_not_done);
	tcase_add_test(tc, test_programmatic_fifo);
	tcase_add_test(tc, test_disabled);
	tcase_add_test(tc, test_child);
	tcase_add_test(tc, test_conditional_words);
	tcase_add_test(tc, test_conditional_device);
	tcase_add_test(tc, test_conditional_capture);
	tcase_add_test(tc, test_devices);
	suite_add_tcase(s, tc);
	tc = tcase_create("rows");
	tcase_add_test(tc, test_mode_list);
	tcase_add_test(tc, test_rows);
	tcase_add_test(tc, test_rows_plain);
	tcase_add_test(tc, test_rows_file_axis);
	tcase_add_test(tc, test_rows_bad_value);
	suite_add_tcase(s, tc);
	tc = tcase_create("refusals");
	tcase_add_test(tc, test_refuse_setter);
	tcase_add_test(tc, test_builtin_setters_run);
	tcase_add_test(tc, test_refuse_updatable);
	suite_add_tcase(s, tc);
	tc = tcase_create("break-even");
	tcase_add_test(tc, test_break_even);
	tcase_add_test(tc, test_print_table);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_MAIN(modes_suite)
