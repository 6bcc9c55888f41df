/*
 * Unit tests for the host side of a run: statistics and reports
 * (src/report.c), and buffer init, checks, dumps and printing
 * (src/buf_data.c).  Models are built by hand, without the loader.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare.h"
#include "diag.h"
#include "model.h"
#include "report_print.h"
#include "report.h"
#include "stop_rule.h"
#include "scalar.h"
#include "unit.h"
#include "unit_cap.h"
#include "buf_check.h"
#include "buf_data.h"
#include "xmalloc.h"

/* The definition being built, whose arena holds the helpers' strings. */
static struct gdef *cur;

static struct gdef *new_def(const char *file)
{
	return cur = gdef_new(file);
}

static struct pos P(uint32_t line, uint32_t col)
{
	return (struct pos){line, col};
}

static struct num U(uint64_t u)
{
	return (struct num){.kind = NUM_UINT, .u = u};
}

static struct num I(int64_t i)
{
	return i < 0 ? (struct num){.kind = NUM_INT, .i = i} : U((uint64_t)i);
}

static struct num F(double f)
{
	return (struct num){.kind = NUM_FLOAT, .f = f};
}

/* A buffer of g (which owns it); the pointer is valid until the next one. */
static struct buffer *add_buffer(struct gdef *g, const char *name, enum elem_type t,
				 uint64_t count)
{
	struct buffer *b = VEC_PUSH(g->buffers, g->nbuffers, g->capbuffers);
	b->name = gdef_strdup(cur, name);
	b->pos = P(3, 3);
	b->type = t;
	b->count = count;
	b->size = count * elem_infos[t].size;
	b->init.pos = P(3, 10);
	b->init.start = U(0);
	b->init.step = U(1);
	b->init.seed = 1;
	b->init.min = U(0);
	b->init.max = U(1);
	return b;
}

static void init_list(struct buffer *b, const struct num *v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		*VEC_PUSH(b->init.list, b->init.nlist, b->init.caplist) = v[i];
	b->init.kind = INIT_LIST;
}

static char tmp_dir[64];

/* Remove the temporary directory and what the tests left in it. */
static void tmp_cleanup(void)
{
	char *cmd = xasprintf("rm -rf '%s'", tmp_dir);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", tmp_dir);
	free(cmd);
}

/* name in a temporary directory made on first use; caller frees. */
static char *tmp_path(const char *name)
{
	if (tmp_dir[0] == '\0') {
		strcpy(tmp_dir, "/tmp/check_report.XXXXXX");
		ck_assert_ptr_nonnull(mkdtemp(tmp_dir));
		atexit(tmp_cleanup);
	}
	return xasprintf("%s/%s", tmp_dir, name);
}

static void write_file(const char *path, const void *data, size_t n)
{
	FILE *f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(data, 1, n, f), n);
	ck_assert_int_eq(fclose(f), 0);
}

/* The whole of a file, NUL-terminated; *n its size. */
static unsigned char *read_file(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	ck_assert_ptr_nonnull(f);
	unsigned char *buf = NULL;
	size_t len = 0, cap = 0;
	int c;
	while ((c = getc(f)) != EOF)
		*VEC_PUSH(buf, len, cap) = (unsigned char)c;
	fclose(f);
	*VEC_PUSH(buf, len, cap) = '\0'; /* for strstr, not counted */
	*n = len - 1;
	return buf;
}

/*
 * tests/report.test validates the JSON reports the tests write against
 * schemas/report.schema.json: with CGR_REPORT_OUT naming a directory, each
 * is also written there as NAME.json.
 */
static void keep_report(const char *name, const struct report *r)
{
	const char *dir = getenv("CGR_REPORT_OUT");
	if (dir == NULL || *dir == '\0')
		return;
	char *path = xasprintf("%s/%s.json", dir, name);
	FILE *f = fopen(path, "w");
	ck_assert_msg(f != NULL, "cannot write %s", path);
	report_print_json(f, r);
	ck_assert_int_eq(fclose(f), 0);
	free(path);
}

/* Statistics ------------------------------------------------------------- */

START_TEST(test_stats_empty)
{
	struct stats st;
	memset(&st, 0xff, sizeof st);
	stats_compute(NULL, 0, &st);
	ck_assert(st.median == 0 && st.min == 0 && st.mean == 0 && st.max == 0 &&
		  st.stddev == 0);
}
END_TEST

START_TEST(test_stats_one)
{
	double s[] = {2.5e-6};
	struct stats st;
	stats_compute(s, 1, &st);
	ck_assert(st.median == 2.5e-6 && st.min == 2.5e-6 && st.max == 2.5e-6);
	ck_assert(st.mean == 2.5e-6);
	ck_assert(st.stddev == 0);
}
END_TEST

START_TEST(test_stats_odd)
{
	double s[] = {5, 1, 3};
	struct stats st;
	stats_compute(s, 3, &st);
	ck_assert(st.median == 3 && st.min == 1 && st.max == 5 && st.mean == 3);
	/* sample deviation: sqrt((4 + 4 + 0) / 2) */
	ck_assert_double_eq_tol(st.stddev, 2.0, 1e-12);
	/* The samples themselves are left as they were. */
	ck_assert(s[0] == 5 && s[1] == 1 && s[2] == 3);
}
END_TEST

START_TEST(test_stats_even)
{
	double s[] = {4, 1, 3, 2};
	struct stats st;
	stats_compute(s, 4, &st);
	ck_assert(st.median == 2.5 && st.min == 1 && st.max == 4 && st.mean == 2.5);
	ck_assert_double_eq_tol(st.stddev, sqrt(5.0 / 3.0), 1e-12);
}
END_TEST

/* Reports ---------------------------------------------------------------- */

/* The graph of cli.md's example: a WHILE with two kernels, and a memset. */
static struct gdef *example_graph(void)
{
	struct gdef *g = new_def("examples/while.yaml");
	struct node *loop = graph_add_node(g->root, NK_WHILE);
	struct graph *body = graph_new(g->root, loop);
	*VEC_PUSH(loop->u.cond.bodies, loop->u.cond.nbodies, loop->u.cond.capbodies) = body;
	graph_add_node(body, NK_KERNEL);
	graph_add_node(body, NK_KERNEL);
	graph_add_node(g->root, NK_MEMSET);
	return g;
}

static const double example_samples[] = {57.6e-6, 63.0e-6, 58.1e-6};
static const struct event_span example_spans[] = {{"start", "stop", 12.3e-6}};

/* A plain file's one point: the tests' reports point here, and change it through pt(). */
static struct point_report example_point;

static struct point_report *pt(struct report *r)
{
	return (struct point_report *)r->points;
}

static struct report example_report(const struct gdef *g)
{
	example_point = (struct point_report){
		.first_launch_s = 61.2e-6,
		.samples = example_samples,
		.nsamples = 3,
		.checks_passed = 1,
		.bytes = NAN,
		.items = NAN,
		.eval_s = NAN,
	};
	return (struct report){
		.name = "countdown",
		.file = "examples/while.yaml",
		.device = 0,
		.device_name = "NVIDIA H100 80GB HBM3",
		.cc_major = 9,
		.cc_minor = 0,
		.driver_version = 13000,
		.root = g->root,
		.load_s = 0.31e-3,
		.build_s = 0.08e-3,
		.instantiate_s = 0.41e-3,
		.upload_s = 0.02e-3,
		.warmup = 3,
		.spans = example_spans,
		.nspans = 1,
		.exit_status = 0,
		.peak_gb_per_s = 3352,
		.points = &example_point,
		.npoints = 1,
	};
}

START_TEST(test_human_example)
{
	struct gdef *g = example_graph();
	struct report r = example_report(g);
	struct cap c;
	cap_open(&c, "t.yaml");
	report_print_human(c.f, &r);
	ck_assert_str_eq(cap_text(&c),
		"countdown  (examples/while.yaml)\n"
		"  device       0: NVIDIA H100 80GB HBM3 (sm_90), driver 13.0\n"
		"  graph        4 nodes: 1 while (body: 2 kernel), 1 memset\n"
		"  phases       load 310 us  build 80.0 us  instantiate 410 us  upload 20.0 us\n"
		"  first launch 61.2 us\n"
		"  launch       3 x (3 warm-up): median 58.1 us  min 57.6  mean 59.6  max 63.0  stddev 3.0 (5.0%)\n"
		"  events       start -> stop 12.3 us\n"
		"  checks       1 passed\n");
	cap_close(&c);
	gdef_free(g);
}
END_TEST

/* Switched-off nodes of the root graph: a line of their ids, and the JSON list. */
START_TEST(test_disabled)
{
	struct gdef *g = example_graph();
	struct node *k1 = graph_add_node(g->root, NK_KERNEL), *k2 = graph_add_node(g->root, NK_COPY);
	g->root->nodes[1]->id = "reset";
	k1->id = "scale";
	k2->id = "back";
	g->root->nodes[1]->disabled = true;
	k2->disabled = true;
	struct report r = example_report(g);
	struct cap c;
	cap_open(&c, "t.yaml");
	report_print_human(c.f, &r);
	const char *text = cap_text(&c);
	ck_assert_ptr_nonnull(strstr(text, "  graph        6 nodes: 1 while (body: 2 kernel), "
				     "1 memset, 1 kernel, 1 copy\n  disabled     reset, back\n  phases"));
	cap_close(&c);
	cap_open(&c, "t.yaml");
	report_print_json(c.f, &r);
	ck_assert_ptr_nonnull(strstr(cap_text(&c), "\n  \"disabled\": [\"reset\", \"back\"],\n"));
	cap_close(&c);
	/* an id is the user's: its control characters escaped, the line kept one */
	k2->id = "back\nevil.yaml:1:1: error: forged\033[2J";
	cap_open(&c, "t.yaml");
	report_print_human(c.f, &r);
	ck_assert_ptr_nonnull(strstr(cap_text(&c), "\n  disabled     reset, back\\nevil.yaml:1:1: "
				     "error: forged\\x1b[2J\n  phases"));
	cap_close(&c);
	gdef_free(g);
}
END_TEST

/* A file on two devices: which GPU each was, and where peer access was on. */
START_TEST(test_devices)
{
	struct gdef *g = example_graph();
	struct report r = example_report(g);
	const struct report_device devs[] = {
		{1, "NVIDIA H100 80GB HBM3", 0x3},
		{0, "NVIDIA H100 \"SXM\"", 0x3},
	};
	r.device = 1;
	r.devices = devs;
	r.ndevices = 2;
	struct cap c;
	cap_open(&c, "t.yaml");
	report_print_human(c.f, &r);
	ck_assert_ptr_nonnull(strstr(cap_text(&c), "driver 13.0\n  devices      0: GPU 1, 1: GPU 0; "
				     "peer access 0 <-> 1\n  graph "));
	cap_close(&c);
	cap_open(&c, "t.yaml");
	report_print_json(c.f, &r);
	ck_assert_ptr_nonnull(strstr(cap_text(&c), "  },\n  \"devices\": [\n"
		"    {\"device\": 0, \"ordinal\": 1, \"name\": \"NVIDIA H100 80GB HBM3\", \"peers\": [1]},\n"
		"    {\"device\": 1, \"ordinal\": 0, \"name\": \"NVIDIA H100 \\\"SXM\\\"\", \"peers\": [0]}\n"
		"  ],\n  \"graph\": "));
	cap_close(&c);
	keep_report("devices", &r);
	/* one way only, and none at all (--no-peer) */
	const struct report_device one_way[] = {{0, "a", 0x3}, {1, "b", 0x2}, {2, "c", 0x4}};
	r.devices = one_way;
	r.ndevices = 3;
	cap_open(&c, "t.yaml");
	report_print_human(c.f, &r);
	ck_assert_ptr_nonnull(strstr(cap_text(&c), "  devices      0: GPU 0, 1: GPU 1, 2: GPU 2; "
				     "peer access 0 -> 1\n"));
	cap_close(&c);
	const struct report_device none[] = {{0, "a", 0x1}, {1, "b", 0x2}};
	r.devices = none;
	r.ndevices = 2;
	cap_open(&c, "t.yaml");
	report_print_human(c.f, &r);
	ck_assert_ptr_nonnull(strstr(cap_text(&c), "1: GPU 1; peer access none\n"));
	cap_close(&c);
	cap_open(&c, "t.yaml");
	report_print_json(c.f, &r);
	ck_assert_ptr_nonnull(strstr(cap_text(&c), "\"peers\": []}"));
	cap_close(&c);
	keep_report("devices-no-peer", &r);
	gdef_free(g);
}
END_TEST

/* Source modules add a compile phase: its time, or "cached" when every one was. */
START_TEST(test_human_compile)
{
	struct gdef *g = example_graph();
	struct report r = example_report(g);
	struct cap c;
	r.compile_modules = 2;
	r.compile_cached = 1;
	r.compile_s = 0.412;
	cap_open(&c, "t.yaml");
	report_print_human(c.f, &r);
	ck_assert_ptr_nonnull(strstr(cap_text(&c),
		"  phases       compile 412 ms  load 310 us  build 80.0 us  instantiate 410 us  upload 20.0 us\n"));
	cap_close(&c);
	keep_report("compile-one-compiled", &r);
	r.compile_cached = 2;
	r.compile_s = 0.0004;
	cap_open(&c, "t.yaml");
	report_print_human(c.f, &r);
	ck_assert_ptr_nonnull(strstr(cap_text(&c),
		"  phases       compile cached  load 310 us  build 80.0 us  instantiate 410 us  upload 20.0 us\n"));
	cap_close(&c);
	keep_report("compile-cached", &r);
	cap_open(&c, "t.yaml");
	report_print_json(c.f, &r);
	ck_assert_ptr_nonnull(strstr(cap_text(&c), "    \"compile_s\": 0.0004\n"));
	ck_assert_ptr_nonnull(strstr(cap_text(&c),
		"  \"compile\": {\"modules\": 2, \"compiled\": 0, \"cached\": 2},\n"));
	cap_close(&c);
	gdef_free(g);
}
END_TEST

/* A graph with alloc nodes: the device's graph memory, after the upload and the launches. */
START_TEST(test_graph_memory)
{
	struct gdef *g = example_graph();
	struct report r = example_report(g);
	struct cap c;
	r.has_graph_mem = true;
	r.mem_uploaded = (struct graph_mem){64u << 20, 64u << 20, 64u << 20, 64u << 20};
	r.mem_launched = (struct graph_mem){0, 96u << 20, 1536u << 20, (3u << 30) / 2 + 1000};
	cap_open(&c, "t.yaml");
	report_print_human(c.f, &r);
	ck_assert_ptr_nonnull(strstr(cap_text(&c),
		"  launch       3 x (3 warm-up): median 58.1 us  min 57.6  mean 59.6  max 63.0  stddev 3.0 (5.0%)\n"
		"  graph memory after upload: used 64 MiB (high 64 MiB), reserved 64 MiB (high 64 MiB)\n"
		"               after launches: used 0 B (high 96 MiB), reserved 1.50 GiB (high 1.50 GiB)\n"
		"  events       start -> stop 12.3 us\n"));
	cap_close(&c);
	cap_open(&c, "t.yaml");
	report_print_json(c.f, &r);
	ck_assert_ptr_nonnull(strstr(cap_text(&c),
		"  \"graph_memory\": {\n"
		"    \"after_upload\": {\"used_bytes\": 67108864, \"used_high_bytes\": 67108864, "
		"\"reserved_bytes\": 67108864, \"reserved_high_bytes\": 67108864},\n"
		"    \"after_launches\": {\"used_bytes\": 0, \"used_high_bytes\": 100663296, "
		"\"reserved_bytes\": 1610612736, \"reserved_high_bytes\": 1610613736}\n"
		"  },\n"
		"  \"events\": [\n"));
	cap_close(&c);
	keep_report("graph-memory", &r);
	/* none without alloc nodes: no line, and null */
	r.has_graph_mem = false;
	cap_open(&c, "t.yaml");
	report_print_human(c.f, &r);
	ck_assert_ptr_null(strstr(cap_text(&c), "graph memory"));
	cap_close(&c);
	gdef_free(g);
}
END_TEST

static struct graph *add_body(struct node *n)
{
	struct graph *body = graph_new(n->graph, n);
	body->body_index = (unsigned)n->u.cond.nbodies;
	*VEC_PUSH(n->u.cond.bodies, n->u.cond.nbodies, n->u.cond.capbodies) = body;
	return body;
}

START_TEST(test_human_nested)
{
	struct gdef *g = new_def("deep.yaml");
	graph_add_node(g->root, NK_KERNEL);
	struct node *cond = graph_add_node(g->root, NK_IF);
	graph_add_node(add_body(cond), NK_KERNEL);
	struct graph *els = add_body(cond);
	graph_add_node(els, NK_MEMSET);
	graph_add_node(els, NK_EMPTY);
	struct node *sw = graph_add_node(g->root, NK_SWITCH);
	graph_add_node(add_body(sw), NK_KERNEL);
	add_body(sw);
	graph_add_node(add_body(sw), NK_COPY);
	struct node *child = graph_add_node(g->root, NK_GRAPH);
	child->u.child = graph_new(g->root, child);
	graph_add_node(child->u.child, NK_KERNEL);
	struct node *loop = graph_add_node(g->root, NK_WHILE);
	struct graph *body = add_body(loop);
	graph_add_node(body, NK_KERNEL);
	struct node *inner = graph_add_node(body, NK_IF);
	graph_add_node(add_body(inner), NK_MEMSET);
	graph_add_node(g->root, NK_KERNEL);

	double one = 1.5e-3;
	struct point_report p = {
		.first_launch_s = 2.25e-3,
		.samples = &one,
		.nsamples = 1,
		.checks_passed = 2,
		.checks_failed = 1,
		.bytes = NAN,
		.items = NAN,
	};
	struct report r = {
		.file = "deep.yaml",
		.root = g->root,
		.load_s = 1.5,
		.build_s = 2e-9,
		.warmup = 0,
		.exit_status = 1,
		.peak_gb_per_s = NAN,
		.points = &p,
		.npoints = 1,
	};
	struct cap c;
	cap_open(&c, "t.yaml");
	report_print_human(c.f, &r);
	ck_assert_str_eq(cap_text(&c),
		"deep.yaml\n"
		"  graph        15 nodes: 2 kernel, 1 if (then: 1 kernel; else: 1 memset, 1 empty), "
		"1 switch (3 cases: 1 kernel, 1 copy), 1 graph (1 kernel), "
		"1 while (body: 1 kernel, 1 if, 1 memset)\n"
		"  phases       load 1.50 s  build 2.00 ns  instantiate 0.00 ns  upload 0.00 ns\n"
		"  first launch 2.25 ms\n"
		"  launch       1 x (0 warm-up): median 1.50 ms  min 1.50  mean 1.50  max 1.50  stddev 0.00 (0.0%)\n"
		"  checks       2 passed, 1 failed\n");
	cap_close(&c);
	keep_report("nested-no-device-failed", &r);

	/* A spread far below the median's last digit still shows (not "stddev 0"). */
	const double tight[] = {238.6e-6, 239.0e-6, 239.4e-6};
	p.samples = tight;
	p.nsamples = 3;
	r.root = NULL;
	cap_open(&c, "t.yaml");
	report_print_human(c.f, &r);
	ck_assert_ptr_nonnull(strstr(cap_text(&c),
		"median 239 us  min 239  mean 239  max 239  stddev 0.4 (0.2%)\n"));
	cap_close(&c);

	/* No samples: no launch line; no checks: "none". */
	p.nsamples = 0;
	p.checks_passed = p.checks_failed = 0;
	r.root = NULL;
	cap_open(&c, "t.yaml");
	report_print_human(c.f, &r);
	ck_assert_str_eq(cap_text(&c),
		"deep.yaml\n"
		"  phases       load 1.50 s  build 2.00 ns  instantiate 0.00 ns  upload 0.00 ns\n"
		"  first launch 2.25 ms\n"
		"  checks       none\n");
	cap_close(&c);
	keep_report("no-graph-no-samples", &r);
	gdef_free(g);
}
END_TEST

static const char example_json[] =
	"{\n"
	"  \"cugraphrun\": \"" PACKAGE_VERSION "\",\n"
	"  \"report_format\": 2,\n"
	"  \"name\": \"countdown\",\n"
	"  \"file\": \"examples/while.yaml\",\n"
	"  \"device\": {\n"
	"    \"ordinal\": 0,\n"
	"    \"name\": \"NVIDIA H100 80GB HBM3\",\n"
	"    \"compute_capability\": \"9.0\",\n"
	"    \"sm\": \"sm_90\",\n"
	"    \"driver_version\": 13000,\n"
	"    \"driver\": \"13.0\",\n"
	"    \"peak_bandwidth_gb_per_s\": 3352\n"
	"  },\n"
	"  \"graph\": {\n"
	"    \"nodes\": 4,\n"
	"    \"by_kind\": {\n"
	"      \"kernel\": 2,\n"
	"      \"memset\": 1,\n"
	"      \"copy\": 0,\n"
	"      \"empty\": 0,\n"
	"      \"graph\": 0,\n"
	"      \"alloc\": 0,\n"
	"      \"free\": 0,\n"
	"      \"event_record\": 0,\n"
	"      \"event_wait\": 0,\n"
	"      \"host\": 0,\n"
	"      \"if\": 0,\n"
	"      \"while\": 1,\n"
	"      \"switch\": 0,\n"
	"      \"memop\": 0,\n"
	"      \"cublas\": 0,\n"
	"      \"cufft\": 0\n"
	"    },\n"
	"    \"root_by_kind\": {\n"
	"      \"kernel\": 0,\n"
	"      \"memset\": 1,\n"
	"      \"copy\": 0,\n"
	"      \"empty\": 0,\n"
	"      \"graph\": 0,\n"
	"      \"alloc\": 0,\n"
	"      \"free\": 0,\n"
	"      \"event_record\": 0,\n"
	"      \"event_wait\": 0,\n"
	"      \"host\": 0,\n"
	"      \"if\": 0,\n"
	"      \"while\": 1,\n"
	"      \"switch\": 0,\n"
	"      \"memop\": 0,\n"
	"      \"cublas\": 0,\n"
	"      \"cufft\": 0\n"
	"    }\n"
	"  },\n"
	"  \"disabled\": [],\n"
	"  \"phases\": {\n"
	"    \"load_s\": 0.00031,\n"
	"    \"build_s\": 8e-05,\n"
	"    \"instantiate_s\": 0.00041,\n"
	"    \"upload_s\": 2e-05,\n"
	"    \"compile_s\": null\n"
	"  },\n"
	"  \"compile\": null,\n"
	"  \"first_launch_s\": 6.12e-05,\n"
	"  \"launch\": {\n"
	"    \"repeat\": 3,\n"
	"    \"warmup\": 3,\n"
	"    \"median_s\": 5.81e-05,\n"
	"    \"min_s\": 5.76e-05,\n"
	"    \"mean_s\": 5.95666667e-05,\n"
	"    \"max_s\": 6.3e-05,\n"
	"    \"stddev_s\": 2.98384539e-06,\n"
	"    \"samples_s\": [5.76e-05, 6.3e-05, 5.81e-05]\n"
	"  },\n"
	"  \"processes\": [],\n"
	"  \"graph_memory\": null,\n"
	"  \"events\": [\n"
	"    {\"from\": \"start\", \"to\": \"stop\", \"seconds\": 1.23e-05}\n"
	"  ],\n"
	"  \"throughput\": null,\n"
	"  \"flops\": null,\n"
	"  \"checks\": {\"passed\": 1, \"failed\": 0},\n"
	"  \"exit_status\": 0,\n"
	"  \"diagnostics\": [],\n"
	"  \"description\": null\n"
	"}\n";

/* A plain file that declares throughput, compared with a base: both parts in the JSON. */
START_TEST(test_json_throughput_comparison)
{
	struct gdef *g = example_graph();
	struct report r = example_report(g);
	pt(&r)->bytes = 8.0 * 1024 * 1024;
	pt(&r)->items = NAN;
	/* ten launches at least, or the comparison says too few (compare.h) */
	static const double ten[] = {57.6e-6, 63e-6, 58.1e-6, 58e-6, 58.2e-6,
				     57.9e-6, 58.1e-6, 58.3e-6, 58.1e-6, 58e-6};
	pt(&r)->samples = ten;
	pt(&r)->nsamples = 10;
	/* four processes, as --compare runs a file: the comparison judges them */
	struct proc_record four[4];
	for (int i = 0; i < 4; i++)
		four[i] = (struct proc_record){.launches = 10, .median_s = (58.1 + 0.1 * i) * 1e-6,
					       .clock_before_mhz = 1980, .clock_after_mhz = NAN};
	r.procs = four;
	r.nprocs = 4;
	struct diag d;
	diag_init(&d, "base", stderr);
	struct cmp_doc *base = cmp_doc_read(TOP_SRCDIR "/tests/compare/base-plain.json", &d);
	ck_assert_ptr_nonnull(base);
	struct cmp_doc *run = cmp_doc_of_report(&r);
	struct comparison c;
	compare_docs(base, run, 0.05, false, &c);
	r.comparison = &c;
	struct cap cp;
	cap_open(&cp, "t.yaml");
	report_print_json(cp.f, &r);
	const char *text = cap_text(&cp);
	/* 8 MiB in 58.1 us: 144 GB/s, 4.31% of 3352 */
	ck_assert_ptr_nonnull(strstr(text, "  \"throughput\": {\n    \"bytes\": 8388608,\n"
				     "    \"items\": null,\n    \"gb_per_s\": 144.382238,\n"
				     "    \"items_per_s\": null,\n    \"peak_percent\": 4.30734599\n  },\n"));
	/* a base of about 100 us: this run's 58.1 us is FASTER; the paths differ, so a note */
	ck_assert_ptr_nonnull(strstr(text, "\"verdict\": \"faster\""));
	ck_assert_ptr_nonnull(strstr(text, "\"note\": \"examples/while.yaml is compared with the "
				     "base's only file, examples/spin.yaml\""));
	cap_close(&cp);
	keep_report("throughput-comparison", &r);
	comparison_free(&c);
	cmp_doc_free(run);
	cmp_doc_free(base);
	gdef_free(g);
}
END_TEST

/* A sweep: launch null at the top, each point with its preparation, samples and throughput. */
START_TEST(test_json_points)
{
	struct gdef *g = example_graph();
	struct report r = example_report(g);
	static const double s0[] = {10e-6, 12e-6}, s1[] = {20e-6, 22e-6};
	static const struct axis_value a0[] = {{"n", "2^10"}, {"T", "f32"}};
	static const struct axis_value a1[] = {{"n", "2^11"}, {"T", "f32"}};
	const struct point_report pts[] = {
		{.label = "n=2^10,T=f32", .axes = a0, .naxes = 2, .prep = PREP_INSTANTIATE,
		 .prep_s = 250e-6, .first_launch_s = 15e-6, .samples = s0, .nsamples = 2,
		 .checks_passed = 1, .bytes = 12288, .items = 1024, .eval_s = 30e-6},
		{.label = "n=2^11,T=f32", .axes = a1, .naxes = 2, .prep = PREP_UPDATE,
		 .prep_s = 1.5e-6, .updated_nodes = 1, .first_launch_s = 25e-6, .samples = s1,
		 .nsamples = 2, .checks_failed = 1, .bytes = NAN, .items = NAN, .exit_status = 1,
		 .eval_s = NAN,
		 .rebuild_why = "node 'k' \"quoted\" (t.yaml:3:5)"},
	};
	r.points = pts;
	r.npoints = 2;
	struct cap c;
	cap_open(&c, "t.yaml");
	report_print_json(c.f, &r);
	const char *text = cap_text(&c);
	ck_assert_ptr_nonnull(strstr(text, "  \"launch\": null,\n"));
	/* the report's checks are its points', summed; its throughput is theirs */
	ck_assert_ptr_nonnull(strstr(text, "  \"throughput\": null,\n"
				     "  \"flops\": null,\n"
				     "  \"checks\": {\"passed\": 1, \"failed\": 1},\n"));
	ck_assert_ptr_nonnull(strstr(text,
		"  \"points\": [\n"
		"    {\n"
		"      \"label\": \"n=2^10,T=f32\",\n"
		"      \"axes\": {\n"
		"        \"n\": \"2^10\",\n"
		"        \"T\": \"f32\"\n"
		"      },\n"
		"      \"prepare\": {\n"
		"        \"kind\": \"instantiate\",\n"
		"        \"seconds\": 0.00025,\n"
		"        \"evaluate_s\": 3e-05,\n"
		"        \"reason\": null,\n"
		"        \"updated_nodes\": 0\n"
		"      },\n"
		"      \"first_launch_s\": 1.5e-05,\n"
		"      \"launch\": {\n"
		"        \"repeat\": 2,\n"
		"        \"warmup\": 3,\n"
		"        \"median_s\": 1.1e-05,\n"));
	/* 12288 bytes in 11 us: 1.117 GB/s; 1024 items: 93.1 M/s */
	ck_assert_ptr_nonnull(strstr(text,
		"      \"throughput\": {\n"
		"        \"bytes\": 12288,\n"
		"        \"items\": 1024,\n"
		"        \"gb_per_s\": 1.11709091,\n"
		"        \"items_per_s\": 93090909.1,\n"
		"        \"peak_percent\": 0.0333261011\n"
		"      },\n"
		"      \"flops\": null,\n"
		"      \"exit_status\": 0\n"
		"    },\n"));
	ck_assert_ptr_nonnull(strstr(text,
		"        \"kind\": \"update\",\n"
		"        \"seconds\": 1.5e-06,\n"
		"        \"evaluate_s\": null,\n"
		"        \"reason\": \"node 'k' \\\"quoted\\\" (t.yaml:3:5)\",\n"
		"        \"updated_nodes\": 1\n"));
	ck_assert_ptr_nonnull(strstr(text, "      \"throughput\": null,\n"
				     "      \"flops\": null,\n"
				     "      \"exit_status\": 1\n    }\n  ]"));
	cap_close(&c);
	keep_report("sweep", &r);
	gdef_free(g);
}
END_TEST

/* Three processes' records of a plain file, as the reporting one lists them. */
static void three_processes(struct proc_record recs[3])
{
	static const double medians[] = {58.3e-6, 57.9e-6, 58.1e-6};
	for (int i = 0; i < 3; i++) {
		recs[i] = (struct proc_record){
			.pid = 100 + i, .launches = 50, .stopped_by = STOP_PRECISION,
			.driver_version = 13000, .median_s = medians[i], .p10_s = 57.6e-6,
			.iqr_s = 0.4e-6, .precision = 0.003, .clock_before_mhz = 1980,
			.clock_after_mhz = 1980, .has_uuid = 1,
		};
		memset(recs[i].uuid, 0xab, sizeof recs[i].uuid);
	}
}

/* --processes: every process's record in "processes", their spread for people. */
START_TEST(test_processes_plain)
{
	struct gdef *g = example_graph();
	struct report r = example_report(g);
	struct proc_record recs[3];
	three_processes(recs);
	r.procs = recs;
	r.nprocs = 3;
	struct cap c;
	cap_open(&c, "t.yaml");
	report_print_json(c.f, &r);
	const char *text = cap_text(&c);
	ck_assert_msg(strstr(text,
		"  },\n"
		"  \"processes\": [\n"
		"    {\"pid\": 100, \"launches\": 50, \"stopped_by\": \"precision\", "
		"\"precision_percent\": 0.3, \"median_s\": 5.83e-05, \"p10_s\": 5.76e-05, "
		"\"iqr_s\": 4e-07, \"sm_clock_mhz\": 1980, \"sm_clock_before_mhz\": 1980, "
		"\"sm_clock_after_mhz\": 1980, "
		"\"gpu_uuid\": \"GPU-abababab-abab-abab-abab-abababababab\", "
		"\"driver_version\": 13000},\n") != NULL, "%s", text);
	ck_assert_ptr_nonnull(strstr(text, "\"driver_version\": 13000}\n  ],\n"
				     "  \"graph_memory\": null,\n"));
	cap_close(&c);
	keep_report("processes", &r);
	cap_open(&c, "t.yaml");
	report_print_human(c.f, &r);
	ck_assert_ptr_nonnull(strstr(cap_text(&c),
		"  launch       3 x (3 warm-up): median 58.1 us  min 57.6  mean 59.6  max 63.0  stddev 3.0 (5.0%)\n"
		"  processes    median 58.1 us (3 processes: 57.9-58.3 us), SM clock 1980 MHz\n"));
	cap_close(&c);
	/* one process: its clock and how well its median is known */
	r.nprocs = 1;
	recs[0].clock_after_mhz = 1410;
	cap_open(&c, "t.yaml");
	report_print_human(c.f, &r);
	ck_assert_ptr_nonnull(strstr(cap_text(&c),
		"  process      SM clock 1980 MHz before, 1410 after, median within 0.30% (95%): "
		"precise enough\n"));
	cap_close(&c);
	gdef_free(g);
}
END_TEST

/* A sweep's points each list their processes; the table adds their medians' range. */
START_TEST(test_processes_sweep)
{
	struct gdef *g = example_graph();
	struct report r = example_report(g);
	static const double s0[] = {10e-6, 12e-6}, s1[] = {20e-6, 22e-6};
	static const struct axis_value a0[] = {{"n", "2^10"}}, a1[] = {{"n", "2^11"}};
	const struct point_report pts[] = {
		{.label = "n=2^10", .axes = a0, .naxes = 1, .samples = s0, .nsamples = 2,
		 .bytes = NAN, .items = NAN, .eval_s = NAN},
		{.label = "n=2^11", .axes = a1, .naxes = 1, .prep = PREP_UPDATE, .samples = s1,
		 .nsamples = 2, .bytes = NAN, .items = NAN, .eval_s = NAN},
	};
	r.points = pts;
	r.npoints = 2;
	struct proc_record recs[4];
	three_processes(recs);
	recs[3] = recs[2];
	recs[0].median_s = 11e-6;
	recs[1].median_s = 11.5e-6;
	recs[2].median_s = 21e-6;
	recs[3].median_s = 22e-6;
	recs[2].point = recs[3].point = 1;
	r.procs = recs;
	r.nprocs = 4;
	struct cap c;
	cap_open(&c, "t.yaml");
	report_print_json(c.f, &r);
	const char *text = cap_text(&c);
	ck_assert_ptr_nonnull(strstr(text, "  \"launch\": null,\n  \"processes\": null,\n"));
	ck_assert_ptr_nonnull(strstr(text, "      \"processes\": [\n        {\"pid\": 100, "));
	ck_assert_ptr_nonnull(strstr(text, "\"driver_version\": 13000}\n      ],\n"
				     "      \"checks\""));
	cap_close(&c);
	keep_report("processes-sweep", &r);
	cap_open(&c, "t.yaml");
	report_print_human(c.f, &r);
	text = cap_text(&c);
	ck_assert_msg(strstr(text, "checks     processes\n") != NULL, "%s", text);
	ck_assert_msg(strstr(text, "11.0-11.5 us\n") != NULL, "%s", text);
	ck_assert_msg(strstr(text, "21.0-22.0 us\n") != NULL, "%s", text);
	ck_assert_ptr_nonnull(strstr(text, "  processes    2 a point, SM clock 1980 MHz\n"));
	cap_close(&c);
	gdef_free(g);
}
END_TEST

START_TEST(test_json_example)
{
	struct gdef *g = example_graph();
	struct report r = example_report(g);
	struct cap c;
	cap_open(&c, "t.yaml");
	report_print_json(c.f, &r);
	ck_assert_str_eq(cap_text(&c), example_json);
	keep_report("example", &r);
	cap_close(&c);
	gdef_free(g);
}
END_TEST

/*
 * Run python3 on a JSON file with a script that prints what it read;
 * returns its output, or NULL when there is no python3.
 */
static char *python_reads(const char *path, const char *script)
{
	const char *py = getenv("PYTHON3");
	if (py == NULL)
		py = "python3";
	if (*py == '\0')
		return NULL;
	char *probe = xasprintf("command -v '%s' >/dev/null 2>&1", py);
	int found = system(probe);
	free(probe);
	if (found != 0)
		return NULL;
	char *cmd = xasprintf("'%s' -c '%s' '%s'", py, script, path);
	FILE *p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	char *out = NULL;
	size_t len = 0, cap = 0;
	int ch;
	while ((ch = getc(p)) != EOF)
		*VEC_PUSH(out, len, cap) = (char)ch;
	*VEC_PUSH(out, len, cap) = '\0';
	ck_assert_int_eq(pclose(p), 0);
	free(cmd);
	return out;
}

START_TEST(test_json_python)
{
	/* Names with quotes, backslashes, control characters, UTF-8 and a stray byte. */
	struct gdef *g = example_graph();
	struct report r = example_report(g);
	r.name = "a \"q\" \\ b\n\t\x01 caf\xc3\xa9 \xff end";
	r.file = "dir/\x7f.yaml";
	r.device_name = NULL;
	double nan_sample[] = {1e-6, NAN, 3e-6};
	pt(&r)->samples = nan_sample;
	char *path = tmp_path("report.json");
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	report_print_json(f, &r);
	ck_assert_int_eq(fclose(f), 0);
	keep_report("odd-strings-nan-sample", &r);

	size_t n;
	unsigned char *text = read_file(path, &n);
	ck_assert_ptr_nonnull(strstr((char *)text,
		"\"name\": \"a \\\"q\\\" \\\\ b\\n\\t\\u0001 caf\xc3\xa9 \\ufffd end\""));
	ck_assert_ptr_nonnull(strstr((char *)text, "\"device\": null"));
	ck_assert_ptr_nonnull(strstr((char *)text, "\"samples_s\": [1e-06, null, 3e-06]"));
	free(text);

	char *out = python_reads(path,
		"import json, sys\n"
		"d = json.load(open(sys.argv[1], encoding=\"utf-8\"))\n"
		"print(ascii(d[\"name\"]), ascii(d[\"file\"]), d[\"device\"])\n"
		"print(d[\"graph\"][\"nodes\"], d[\"graph\"][\"by_kind\"][\"kernel\"], d[\"launch\"][\"samples_s\"])\n"
		"print(d[\"events\"][0][\"seconds\"], d[\"checks\"][\"passed\"], d[\"exit_status\"])\n");
	if (out) {
		ck_assert_str_eq(out,
			"'a \"q\" \\\\ b\\n\\t\\x01 caf\\xe9 \\ufffd end' 'dir/\\x7f.yaml' None\n"
			"4 2 [1e-06, None, 3e-06]\n"
			"1.23e-05 1 0\n");
		free(out);
	}
	free(path);
	gdef_free(g);
}
END_TEST

START_TEST(test_json_tool)
{
	/* The full example, through python3 -m json.tool, keeps every sample. */
	struct gdef *g = example_graph();
	struct report r = example_report(g);
	r.nspans = 0;
	pt(&r)->nsamples = 0;
	char *path = tmp_path("tool.json");
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	report_print_json(f, &r);
	ck_assert_int_eq(fclose(f), 0);
	keep_report("no-samples-no-events", &r);
	char *out = python_reads(path,
		"import json, sys, subprocess\n"
		"subprocess.run([sys.executable, \"-m\", \"json.tool\", sys.argv[1]], check=True, stdout=subprocess.DEVNULL)\n"
		"d = json.load(open(sys.argv[1]))\n"
		"print(d[\"launch\"], d[\"events\"])\n");
	if (out) {
		ck_assert_str_eq(out,
			"{'repeat': 0, 'warmup': 3, 'median_s': None, 'min_s': None, 'mean_s': None, "
			"'max_s': None, 'stddev_s': None, 'samples_s': []} []\n");
		free(out);
	}
	free(path);
	gdef_free(g);
}
END_TEST

/*
 * Every figure that is not finite is written as null, never as nan or inf
 * (which no JSON reader takes); an event span may be negative (the graph
 * recorded the later event of the file's list first).
 */
START_TEST(test_json_not_finite)
{
	struct gdef *g = example_graph();
	struct report r = example_report(g);
	static const struct event_span spans[] = {{"a", "b", -2.5e-6}, {"b", "c", NAN}};
	const double samples[] = {INFINITY, NAN};
	r.load_s = NAN;
	r.build_s = INFINITY;
	r.instantiate_s = -INFINITY;
	r.upload_s = NAN;
	r.compile_modules = 1;
	r.compile_s = INFINITY;
	pt(&r)->first_launch_s = NAN;
	pt(&r)->samples = samples;
	pt(&r)->nsamples = 2;
	r.spans = spans;
	r.nspans = 2;
	r.exit_status = 2;
	struct cap c;
	cap_open(&c, "t.yaml");
	report_print_json(c.f, &r);
	const char *text = cap_text(&c);
	static const char *const want[] = {
		"\"load_s\": null,", "\"build_s\": null,", "\"instantiate_s\": null,",
		"\"upload_s\": null,", "\"compile_s\": null\n", "\"first_launch_s\": null,",
		"\"samples_s\": [null, null]",
		"{\"from\": \"a\", \"to\": \"b\", \"seconds\": -2.5e-06}",
		"{\"from\": \"b\", \"to\": \"c\", \"seconds\": null}",
		"\"compile\": {\"modules\": 1, \"compiled\": 1, \"cached\": 0},",
		"\"exit_status\": 2,\n",
	};
	for (size_t i = 0; i < sizeof want / sizeof *want; i++)
		ck_assert_msg(strstr(text, want[i]) != NULL, "no %s in\n%s", want[i], text);
	ck_assert_msg(strstr(text, "nan") == NULL && strstr(text, "inf") == NULL, "%s", text);
	keep_report("not-finite", &r);
	cap_close(&c);
	gdef_free(g);
}
END_TEST

/*
 * A report of a file that did not run: its diagnostics, as printed, each
 * with its notes, those about no file with a null file, and positions
 * null where a message has none.
 */
START_TEST(test_json_diagnostics)
{
	struct cap c, msgs;
	cap_open(&msgs, "t.yaml");
	struct diag *d = &msgs.d;
	diag_log(d);
	diag_hold(d);
	/* the formats of the program's own messages: each has its catalog code */
	diag_error(d, (struct pos){9, 5}, "unknown buffer '%s'", "z");
	diag_warning(d, (struct pos){0, 0}, "event '%s' is declared but never recorded", "e");
	diag_error(d, (struct pos){4, 3}, "duplicate node id '%s'", "a");
	diag_note(d, (struct pos){2, 7}, "'%s' was first used here", "a");
	diag_release(d);
	errorx("no CUDA driver found (%s)", "\"libcuda.so.1\"");
	diag_finish(d);
	ck_assert_str_eq(cap_text(&msgs),
		"t.yaml: warning: event 'e' is declared but never recorded\n"
		"t.yaml:4:3: error: duplicate node id 'a'\n"
		"t.yaml:2:7: note: 'a' was first used here\n"
		"t.yaml:9:5: error: unknown buffer 'z'\n");
	struct report r;
	memset(&r, 0, sizeof r);
	r.file = "t.yaml";
	r.no_launch = true;
	r.exit_status = 2;
	r.diag = d;
	cap_open(&c, "t.yaml");
	report_print_json(c.f, &r);
	const char *text = cap_text(&c);
	static const char want[] =
		"  \"first_launch_s\": null,\n"
		"  \"launch\": {\n";
	ck_assert_msg(strstr(text, want) != NULL, "%s", text);
	/* a file that never ran declares no throughput it could be measured by */
	ck_assert_msg(strstr(text, "  \"throughput\": null,\n") != NULL, "%s", text);
	static const char want_diags[] =
		"  \"exit_status\": 2,\n"
		"  \"diagnostics\": [\n"
		"    {\"file\": \"t.yaml\", \"line\": null, \"column\": null, \"severity\": "
		"\"warning\", \"code\": \"valid-event-declared-never\", "
		"\"message\": \"event 'e' is declared but never recorded\", \"notes\": []},\n"
		"    {\"file\": \"t.yaml\", \"line\": 4, \"column\": 3, \"severity\": \"error\", "
		"\"code\": \"valid-duplicate-node-id\", "
		"\"message\": \"duplicate node id 'a'\", \"notes\": [{\"file\": \"t.yaml\", "
		"\"line\": 2, \"column\": 7, \"code\": \"valid-was-first-used\", "
		"\"message\": \"'a' was first used here\"}]},\n"
		"    {\"file\": \"t.yaml\", \"line\": 9, \"column\": 5, \"severity\": \"error\", "
		"\"code\": \"valid-unknown-buffer\", \"message\": \"unknown buffer 'z'\", "
		"\"notes\": []},\n"
		"    {\"file\": null, \"line\": null, \"column\": null, \"severity\": \"error\", "
		"\"code\": \"cuda-no-cuda-driver\", "
		"\"message\": \"no CUDA driver found (\\\"libcuda.so.1\\\")\", \"notes\": []}\n"
		"  ],\n"
		"  \"description\": null\n"
		"}\n";
	ck_assert_msg(strstr(text, want_diags) != NULL, "%s", text);
	keep_report("diagnostics-not-run", &r);
	cap_close(&c);
	diag_free(d);
	cap_close(&msgs);
}
END_TEST

/* Init ------------------------------------------------------------------- */

/* Fill b into a buffer first painted 0xa5; returns it (caller frees). */
static unsigned char *fill(const struct buffer *b, struct cap *c, int expect_rc)
{
	unsigned char *out = xmalloc(b->size + 1);
	memset(out, 0xa5, b->size + 1);
	ck_assert_int_eq(buffer_fill_init(b, out, &c->d), expect_rc);
	ck_assert_uint_eq(out[b->size], 0xa5); /* nothing written past the end */
	return out;
}

START_TEST(test_init_zero_scalar)
{
	struct gdef *g = new_def("t.yaml");
	struct cap c;
	cap_open(&c, "t.yaml");
	struct buffer *b = add_buffer(g, "z", ET_F64, 5);
	unsigned char *out = fill(b, &c, 0);
	for (size_t i = 0; i < b->size; i++)
		ck_assert_uint_eq(out[i], 0);
	free(out);

	b = add_buffer(g, "s", ET_I32, 3);
	b->init.kind = INIT_SCALAR;
	b->init.scalar = I(-5);
	out = fill(b, &c, 0);
	int32_t i32[3];
	memcpy(i32, out, sizeof i32);
	ck_assert(i32[0] == -5 && i32[1] == -5 && i32[2] == -5);
	free(out);

	b = add_buffer(g, "h", ET_F16, 2);
	b->init.kind = INIT_SCALAR;
	b->init.scalar = F(1.5);
	out = fill(b, &c, 0);
	uint16_t h[2];
	memcpy(h, out, sizeof h);
	ck_assert_uint_eq(h[0], 0x3e00);
	ck_assert_uint_eq(h[1], 0x3e00);
	free(out);

	b = add_buffer(g, "bf", ET_BF16, 2);
	b->init.kind = INIT_SCALAR;
	b->init.scalar = F(-2.0);
	out = fill(b, &c, 0);
	memcpy(h, out, sizeof h);
	ck_assert_uint_eq(h[0], 0xc000);
	ck_assert_uint_eq(h[1], 0xc000);
	free(out);

	b = add_buffer(g, "lo", ET_I64, 2);
	b->init.kind = INIT_SCALAR;
	b->init.scalar = I(INT64_MIN);
	out = fill(b, &c, 0);
	int64_t i64[2];
	memcpy(i64, out, sizeof i64);
	ck_assert(i64[0] == INT64_MIN && i64[1] == INT64_MIN);
	free(out);

	b = add_buffer(g, "hi", ET_U64, 1);
	b->init.kind = INIT_SCALAR;
	b->init.scalar = U(UINT64_MAX);
	out = fill(b, &c, 0);
	uint64_t u64;
	memcpy(&u64, out, 8);
	ck_assert(u64 == UINT64_MAX);
	free(out);
	ck_assert_str_eq(cap_text(&c), "");

	/* A value that does not fit, at its own position. */
	b = add_buffer(g, "small", ET_U8, 4);
	b->init.kind = INIT_SCALAR;
	b->init.scalar = U(300);
	b->init.scalar.pos = P(7, 20);
	out = fill(b, &c, -1);
	free(out);
	ck_assert_str_eq(cap_text(&c), "t.yaml:7:20: error: init of buffer 'small': 300 does not fit u8\n");
	cap_close(&c);
	gdef_free(g);
}
END_TEST

START_TEST(test_init_list)
{
	struct gdef *g = new_def("t.yaml");
	struct cap c;
	cap_open(&c, "t.yaml");
	struct buffer *b = add_buffer(g, "f", ET_F32, 3);
	init_list(b, (struct num[]){U(1), F(2.5), I(-3)}, 3);
	unsigned char *out = fill(b, &c, 0);
	float f[3];
	memcpy(f, out, sizeof f);
	ck_assert(f[0] == 1.0f && f[1] == 2.5f && f[2] == -3.0f);
	free(out);

	b = add_buffer(g, "e", ET_I64, 3);
	init_list(b, (struct num[]){I(INT64_MIN), I(INT64_MAX), I(-1)}, 3);
	out = fill(b, &c, 0);
	int64_t e[3];
	memcpy(e, out, sizeof e);
	ck_assert(e[0] == INT64_MIN && e[1] == INT64_MAX && e[2] == -1);
	free(out);

	b = add_buffer(g, "h", ET_F16, 3);
	init_list(b, (struct num[]){F(65504), F(-0.0), F(INFINITY)}, 3);
	out = fill(b, &c, 0);
	uint16_t h[3];
	memcpy(h, out, sizeof h);
	ck_assert_uint_eq(h[0], 0x7bff);
	ck_assert_uint_eq(h[1], 0x8000);
	ck_assert_uint_eq(h[2], 0x7c00);
	free(out);
	ck_assert_str_eq(cap_text(&c), "");

	b = add_buffer(g, "short", ET_U16, 4);
	init_list(b, (struct num[]){U(1), U(2)}, 2);
	out = fill(b, &c, -1);
	free(out);
	ck_assert_str_eq(cap_text(&c),
		"t.yaml:3:10: error: init of buffer 'short' has 2 values, expected 4 (one per element)\n");
	cap_close(&c);
	gdef_free(g);
}
END_TEST

START_TEST(test_init_iota)
{
	struct gdef *g = new_def("t.yaml");
	struct cap c;
	cap_open(&c, "t.yaml");
	struct buffer *b = add_buffer(g, "i", ET_I32, 4);
	b->init.kind = INIT_IOTA;
	b->init.start = U(5);
	b->init.step = I(-2);
	unsigned char *out = fill(b, &c, 0);
	int32_t i32[4];
	memcpy(i32, out, sizeof i32);
	ck_assert(i32[0] == 5 && i32[1] == 3 && i32[2] == 1 && i32[3] == -1);
	free(out);

	/* Integers wrap as the element type does. */
	b = add_buffer(g, "w", ET_U8, 4);
	b->init.kind = INIT_IOTA;
	b->init.start = U(250);
	b->init.step = U(3);
	out = fill(b, &c, 0);
	ck_assert(out[0] == 250 && out[1] == 253 && out[2] == 0 && out[3] == 3);
	free(out);

	b = add_buffer(g, "big", ET_I64, 3);
	b->init.kind = INIT_IOTA;
	b->init.start = I(INT64_MAX - 1);
	out = fill(b, &c, 0);
	int64_t i64[3];
	memcpy(i64, out, sizeof i64);
	ck_assert(i64[0] == INT64_MAX - 1 && i64[1] == INT64_MAX && i64[2] == INT64_MIN);
	free(out);

	/* Floats: start + i * step per element, so no drift after many steps. */
	b = add_buffer(g, "f", ET_F32, 100000);
	b->init.kind = INIT_IOTA;
	b->init.step = F(0.1);
	out = fill(b, &c, 0);
	float *f = (float *)out;
	ck_assert(f[0] == 0.0f);
	ck_assert(f[10] == 1.0f);
	ck_assert(f[99999] == 9999.90039f);
	free(out);

	b = add_buffer(g, "h", ET_F16, 5);
	b->init.kind = INIT_IOTA;
	b->init.step = F(0.5);
	out = fill(b, &c, 0);
	uint16_t h[5];
	memcpy(h, out, sizeof h);
	ck_assert(h[0] == 0 && h[1] == 0x3800 && h[2] == 0x3c00 && h[3] == 0x3e00 && h[4] == 0x4000);
	free(out);

	b = add_buffer(g, "bf", ET_BF16, 4);
	b->init.kind = INIT_IOTA;
	b->init.start = I(-1);
	out = fill(b, &c, 0);
	memcpy(h, out, 8);
	ck_assert(h[0] == 0xbf80 && h[1] == 0 && h[2] == 0x3f80 && h[3] == 0x4000);
	free(out);

	b = add_buffer(g, "d", ET_F64, 3);
	b->init.kind = INIT_IOTA;
	b->init.start = F(0.25);
	b->init.step = F(-0.5);
	out = fill(b, &c, 0);
	double dv[3];
	memcpy(dv, out, sizeof dv);
	ck_assert(dv[0] == 0.25 && dv[1] == -0.25 && dv[2] == -0.75);
	free(out);
	ck_assert_str_eq(cap_text(&c), "");

	b = add_buffer(g, "over", ET_F16, 3);
	b->init.kind = INIT_IOTA;
	b->init.start = U(65000);
	b->init.step = U(1000);
	out = fill(b, &c, -1);
	free(out);
	ck_assert_str_eq(cap_text(&c),
		"t.yaml:3:10: error: iota of buffer 'over' reaches 66000 at index 1, beyond the range of f16\n");
	cap_close(&c);
	gdef_free(g);
}
END_TEST

/*
 * The random init form's definition, written again here from the
 * description in buf_data.c (splitmix64 seeding xoshiro256**).
 */
static uint64_t ref_splitmix(uint64_t *x)
{
	*x += 0x9e3779b97f4a7c15u;
	uint64_t z = *x;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
	return z ^ (z >> 31);
}

struct ref_rng {
	uint64_t s[4];
};

static void ref_seed(struct ref_rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = ref_splitmix(&seed);
}

static uint64_t ref_next(struct ref_rng *r)
{
	uint64_t x = r->s[1] * 5;
	uint64_t result = ((x << 7) | (x >> 57)) * 9;
	uint64_t t = r->s[1] << 17;
	r->s[2] ^= r->s[0];
	r->s[3] ^= r->s[1];
	r->s[1] ^= r->s[2];
	r->s[0] ^= r->s[3];
	r->s[2] ^= t;
	r->s[3] = (r->s[3] << 45) | (r->s[3] >> 19);
	return result;
}

START_TEST(test_random_reference)
{
	/* The reference generator against published values (splitmix64, seed 0). */
	uint64_t x = 0;
	ck_assert(ref_splitmix(&x) == 0xe220a8397b1dcdafu);

	struct gdef *g = new_def("t.yaml");
	struct cap c;
	cap_open(&c, "t.yaml");
	/* Full u64 range: the generator's raw outputs for seed 1. */
	struct buffer *b = add_buffer(g, "raw", ET_U64, 4);
	b->init.kind = INIT_RANDOM;
	b->init.min = U(0);
	b->init.max = U(UINT64_MAX);
	unsigned char *out = fill(b, &c, 0);
	uint64_t raw[4];
	memcpy(raw, out, sizeof raw);
	/* Computed independently (Python) from the algorithm's definition. */
	ck_assert(raw[0] == 0xb3f2af6d0fc710c5u);
	ck_assert(raw[1] == 0x853b559647364ceau);
	ck_assert(raw[2] == 0x92f89756082a4514u);
	ck_assert(raw[3] == 0x642e1c7bc266a3a7u);
	free(out);

	b = add_buffer(g, "d", ET_F64, 4);
	b->init.kind = INIT_RANDOM;
	out = fill(b, &c, 0);
	double dv[4];
	memcpy(dv, out, sizeof dv);
	ck_assert(dv[0] == 0.7029218331588506);
	ck_assert(dv[1] == 0.520436619938857);
	ck_assert(dv[2] == 0.5741057000197226);
	ck_assert(dv[3] == 0.3913286020419045);
	free(out);

	b = add_buffer(g, "f", ET_F32, 4);
	b->init.kind = INIT_RANDOM;
	b->init.min = I(-1);
	b->init.max = U(1);
	out = fill(b, &c, 0);
	float fv[4];
	memcpy(fv, out, sizeof fv);
	ck_assert(fv[0] == 0.40584367513656616f);
	ck_assert(fv[1] == 0.04087324067950249f);
	ck_assert(fv[2] == 0.14821140468120575f);
	ck_assert(fv[3] == -0.2173427939414978f);
	free(out);

	/* Integers in [-10, 10]: outputs below 2^64 mod 21 are skipped (none here). */
	b = add_buffer(g, "i", ET_I32, 6);
	b->init.kind = INIT_RANDOM;
	b->init.min = I(-10);
	b->init.max = U(10);
	out = fill(b, &c, 0);
	int32_t iv[6];
	memcpy(iv, out, sizeof iv);
	ck_assert(iv[0] == 0 && iv[1] == 3 && iv[2] == 1 && iv[3] == 10 && iv[4] == -2 && iv[5] == 3);
	free(out);

	/* Longer runs against the reference written above. */
	b = add_buffer(g, "many", ET_I16, 5000);
	b->init.kind = INIT_RANDOM;
	b->init.seed = 42;
	b->init.min = I(-300);
	b->init.max = U(1000);
	out = fill(b, &c, 0);
	struct ref_rng r;
	ref_seed(&r, 42);
	uint64_t n = 1301, threshold = (UINT64_MAX - n + 1) % n;
	for (size_t i = 0; i < 5000; i++) {
		uint64_t v;
		do
			v = ref_next(&r);
		while (v < threshold);
		int16_t got;
		memcpy(&got, out + 2 * i, 2);
		ck_assert_int_eq(got, -300 + (int64_t)(v % n));
	}
	free(out);

	/* A range of 2^63 + 1 values: about half the outputs are skipped. */
	b = add_buffer(g, "half", ET_I64, 200);
	b->init.kind = INIT_RANDOM;
	b->init.seed = 3;
	b->init.min = I(INT64_MIN);
	b->init.max = U(0);
	out = fill(b, &c, 0);
	ref_seed(&r, 3);
	n = (1ull << 63) + 1;
	threshold = (UINT64_MAX - n + 1) % n;
	size_t skipped = 0;
	for (size_t i = 0; i < 200; i++) {
		uint64_t v;
		while ((v = ref_next(&r)) < threshold)
			skipped++;
		int64_t got;
		memcpy(&got, out + 8 * i, 8);
		ck_assert(got == (int64_t)((uint64_t)INT64_MIN + v % n));
		ck_assert(got <= 0);
	}
	ck_assert_uint_gt(skipped, 50);
	free(out);
	ck_assert_str_eq(cap_text(&c), "");
	cap_close(&c);
	gdef_free(g);
}
END_TEST

START_TEST(test_random_ranges)
{
	struct gdef *g = new_def("t.yaml");
	struct cap c;
	cap_open(&c, "t.yaml");
	/* Same seed, same bytes; another seed, other bytes. */
	struct buffer *b = add_buffer(g, "a", ET_F32, 1000);
	b->init.kind = INIT_RANDOM;
	b->init.seed = 7;
	unsigned char *one = fill(b, &c, 0);
	unsigned char *two = fill(b, &c, 0);
	ck_assert(memcmp(one, two, b->size) == 0);
	b->init.seed = 8;
	unsigned char *three = fill(b, &c, 0);
	ck_assert(memcmp(one, three, b->size) != 0);
	float *f = (float *)one;
	for (size_t i = 0; i < 1000; i++)
		ck_assert(f[i] >= 0.0f && f[i] <= 1.0f);
	free(one);
	free(two);
	free(three);

	/* Every i8 value appears, extremes included, and nothing else. */
	b = add_buffer(g, "all", ET_I8, 20000);
	b->init.kind = INIT_RANDOM;
	b->init.min = I(-128);
	b->init.max = U(127);
	one = fill(b, &c, 0);
	unsigned seen[256] = {0};
	for (size_t i = 0; i < 20000; i++)
		seen[one[i]]++;
	for (size_t v = 0; v < 256; v++)
		ck_assert_uint_gt(seen[v], 0);
	free(one);

	b = add_buffer(g, "few", ET_U8, 3000);
	b->init.kind = INIT_RANDOM;
	b->init.min = U(3);
	b->init.max = U(5);
	one = fill(b, &c, 0);
	unsigned counts[6] = {0};
	for (size_t i = 0; i < 3000; i++) {
		ck_assert(one[i] >= 3 && one[i] <= 5);
		counts[one[i]]++;
	}
	ck_assert(counts[3] > 800 && counts[4] > 800 && counts[5] > 800);
	free(one);

	/* u64 and i64 ends: the whole range is allowed. */
	b = add_buffer(g, "ends", ET_I64, 64);
	b->init.kind = INIT_RANDOM;
	b->init.min = I(INT64_MIN);
	b->init.max = I(INT64_MIN + 1);
	one = fill(b, &c, 0);
	bool lo = false, hi = false;
	for (size_t i = 0; i < 64; i++) {
		int64_t v;
		memcpy(&v, one + 8 * i, 8);
		ck_assert(v == INT64_MIN || v == INT64_MIN + 1);
		lo |= v == INT64_MIN;
		hi |= v == INT64_MIN + 1;
	}
	ck_assert(lo && hi);
	free(one);

	/* f16 and bf16 stay within [min, max]. */
	b = add_buffer(g, "h", ET_F16, 500);
	b->init.kind = INIT_RANDOM;
	b->init.min = I(-2);
	b->init.max = U(2);
	one = fill(b, &c, 0);
	for (size_t i = 0; i < 500; i++) {
		uint16_t h;
		memcpy(&h, one + 2 * i, 2);
		ck_assert(fabsf(f16_to_f32(h)) <= 2.0f);
	}
	free(one);
	b = add_buffer(g, "bh", ET_BF16, 500);
	b->init.kind = INIT_RANDOM;
	b->init.min = U(10);
	b->init.max = U(20);
	one = fill(b, &c, 0);
	for (size_t i = 0; i < 500; i++) {
		uint16_t h;
		memcpy(&h, one + 2 * i, 2);
		ck_assert(bf16_to_f32(h) >= 10.0f && bf16_to_f32(h) <= 20.0f);
	}
	free(one);
	ck_assert_str_eq(cap_text(&c), "");

	b = add_buffer(g, "bad", ET_I32, 2);
	b->init.kind = INIT_RANDOM;
	b->init.min = U(5);
	b->init.max = I(-5);
	one = fill(b, &c, -1);
	free(one);
	ck_assert_str_eq(cap_text(&c),
		"t.yaml:3:10: error: random min 5 of buffer 'bad' is greater than its max -5\n");
	cap_close(&c);
	gdef_free(g);
}
END_TEST

START_TEST(test_init_file)
{
	struct gdef *g = new_def("t.yaml");
	struct cap c;
	cap_open(&c, "t.yaml");
	char *path = tmp_path("init.bin");
	const int32_t data[4] = {1, -2, 3, INT32_MIN};
	write_file(path, data, sizeof data);
	struct buffer *b = add_buffer(g, "x", ET_I32, 4);
	b->init.kind = INIT_FILE;
	b->init.file = gdef_strdup(cur, "init.bin");
	b->init.path = gdef_strdup(cur, path);
	b->init.file_pos = P(4, 17);
	unsigned char *out = fill(b, &c, 0);
	ck_assert(memcmp(out, data, sizeof data) == 0);
	free(out);
	ck_assert_str_eq(cap_text(&c), "");

	/* The file changed since validation. */
	write_file(path, data, 12);
	out = fill(b, &c, -1);
	free(out);
	ck_assert_str_eq(cap_text(&c),
		"t.yaml:4:17: error: init file 'init.bin' of buffer 'x' now has 12 bytes, "
		"expected 16 (it changed since it was checked)\n");
	unlink(path);
	out = fill(b, &c, -1);
	free(out);
	ck_assert_str_eq(cap_text(&c) + strcspn(cap_text(&c), "\n") + 1,
		"t.yaml:4:17: error: cannot read init file 'init.bin' of buffer 'x': "
		"No such file or directory\n");
	free(path);
	cap_close(&c);
	gdef_free(g);
}
END_TEST

/* Checks ----------------------------------------------------------------- */

static struct check scalar_check(struct num v)
{
	return (struct check){.pos = P(12, 5), .expect = EXPECT_SCALAR, .scalar = v,
			      .expect_pos = P(12, 30)};
}

START_TEST(test_check_scalar)
{
	struct gdef *g = new_def("t.yaml");
	struct buffer *b = add_buffer(g, "x", ET_I32, 4);
	struct cap c;
	cap_open(&c, "t.yaml");
	int32_t data[4] = {50, 50, 50, 50};
	struct check ck = scalar_check(U(50));
	ck_assert(check_buffer(&ck, b, data, NULL, &c.d));
	ck_assert_str_eq(cap_text(&c), "");
	data[2] = 49;
	data[3] = -7;
	ck_assert(!check_buffer(&ck, b, data, NULL, &c.d));
	ck_assert_str_eq(cap_text(&c),
		"t.yaml:12:5: error: check failed: buffer 'x' differs at index 2: "
		"expected 50, got 49 (2 of 4 elements differ)\n");
	ck_assert_uint_eq(c.d.nerrors, 1);
	cap_close(&c);
	gdef_free(g);
}
END_TEST

START_TEST(test_check_many)
{
	/* The message of the brief: many elements, the first one named. */
	struct gdef *g = new_def("t.yaml");
	struct buffer *b = add_buffer(g, "out", ET_I32, 1024);
	int32_t *data = xmalloc(b->size);
	struct check ck = {.pos = P(20, 5), .expect = EXPECT_LIST};
	for (int32_t i = 0; i < 1024; i++) {
		data[i] = 2 * i;
		*VEC_PUSH(ck.list, ck.nlist, ck.caplist) = U(2 * (uint64_t)i);
	}
	for (int i = 17; i < 17 + 12 * 50; i += 50)
		data[i]--;
	struct cap c;
	cap_open(&c, "t.yaml");
	ck_assert(!check_buffer(&ck, b, data, NULL, &c.d));
	ck_assert_str_eq(cap_text(&c),
		"t.yaml:20:5: error: check failed: buffer 'out' differs at index 17: "
		"expected 34, got 33 (12 of 1024 elements differ)\n");
	cap_close(&c);

	/* A list of the wrong length is an error of its own. */
	ck.nlist = 1000;
	ck.expect_pos = P(20, 25);
	cap_open(&c, "t.yaml");
	ck_assert(!check_buffer(&ck, b, data, NULL, &c.d));
	ck_assert_str_eq(cap_text(&c),
		"t.yaml:20:25: error: check of buffer 'out' lists 1000 values, expected 1024 (one per element)\n");
	cap_close(&c);
	free(ck.list);
	free(data);
	gdef_free(g);
}
END_TEST

START_TEST(test_check_float)
{
	struct gdef *g = new_def("t.yaml");
	struct buffer *b = add_buffer(g, "f", ET_F32, 2);
	struct cap c;
	cap_open(&c, "t.yaml");
	float data[2] = {1.0f, 2.0001f};
	struct check ck = {.pos = P(9, 5), .expect = EXPECT_LIST, .rtol = 1e-3};
	*VEC_PUSH(ck.list, ck.nlist, ck.caplist) = U(1);
	*VEC_PUSH(ck.list, ck.nlist, ck.caplist) = F(2.0);
	ck_assert(check_buffer(&ck, b, data, NULL, &c.d));
	ck.rtol = 1e-6;
	ck_assert(!check_buffer(&ck, b, data, NULL, &c.d));
	ck_assert_str_eq(cap_text(&c),
		"t.yaml:9:5: error: check failed: buffer 'f' differs at index 1: "
		"expected 2, got 2.0000999 (1 of 2 elements differ)\n");
	/* atol alone: |a - e| <= atol. */
	ck.rtol = 0;
	ck.atol = 2e-4;
	ck_assert(check_buffer(&ck, b, data, NULL, &c.d));
	ck.atol = 5e-5;
	ck_assert(!check_buffer(&ck, b, data, NULL, &c.d));
	free(ck.list);
	cap_close(&c);

	/* A value the type cannot hold exactly matches its nearest element. */
	cap_open(&c, "t.yaml");
	data[0] = data[1] = 0.1f;
	struct check tenth = scalar_check(F(0.1));
	ck_assert(check_buffer(&tenth, b, data, NULL, &c.d));

	/* NaN equals NaN only. */
	data[0] = data[1] = NAN;
	struct check nan = scalar_check(F(NAN));
	ck_assert(check_buffer(&nan, b, data, NULL, &c.d));
	nan.rtol = 1;
	nan.atol = 1e30;
	data[1] = 1.0f;
	ck_assert(!check_buffer(&nan, b, data, NULL, &c.d));
	struct check one = scalar_check(U(1));
	one.atol = 1e30;
	ck_assert(!check_buffer(&one, b, data, NULL, &c.d));
	ck_assert_str_eq(cap_text(&c),
		"t.yaml:12:5: error: check failed: buffer 'f' differs at index 1: "
		"expected nan, got 1 (1 of 2 elements differ)\n"
		"t.yaml:12:5: error: check failed: buffer 'f' differs at index 0: "
		"expected 1, got nan (1 of 2 elements differ)\n");
	/* Infinities equal themselves. */
	data[0] = data[1] = -INFINITY;
	struct check inf = scalar_check(F(-INFINITY));
	ck_assert(check_buffer(&inf, b, data, NULL, &c.d));
	cap_close(&c);

	/* ... and nothing else, whatever the tolerance (rtol * inf is inf). */
	cap_open(&c, "t.yaml");
	inf.rtol = 1e-5;
	ck_assert(check_buffer(&inf, b, data, NULL, &c.d));
	data[1] = 5.0f;
	ck_assert(!check_buffer(&inf, b, data, NULL, &c.d));
	data[1] = INFINITY;
	ck_assert(!check_buffer(&inf, b, data, NULL, &c.d));
	struct check five = scalar_check(F(5.0));
	five.rtol = 1e-5;
	five.atol = 1e3;
	ck_assert(!check_buffer(&five, b, data, NULL, &c.d));
	ck_assert_str_eq(cap_text(&c),
		"t.yaml:12:5: error: check failed: buffer 'f' differs at index 1: "
		"expected -inf, got 5 (1 of 2 elements differ)\n"
		"t.yaml:12:5: error: check failed: buffer 'f' differs at index 1: "
		"expected -inf, got inf (1 of 2 elements differ)\n"
		"t.yaml:12:5: error: check failed: buffer 'f' differs at index 0: "
		"expected 5, got -inf (2 of 2 elements differ)\n");
	cap_close(&c);

	/* f16 and bf16 compare their values. */
	cap_open(&c, "t.yaml");
	struct buffer *h = add_buffer(g, "h", ET_F16, 2);
	uint16_t hv[2] = {0x3c00, 0x3c01}; /* 1 and 1.000977 */
	struct check hc = scalar_check(U(1));
	ck_assert(!check_buffer(&hc, h, hv, NULL, &c.d));
	hc.rtol = 1e-3;
	ck_assert(check_buffer(&hc, h, hv, NULL, &c.d));
	struct buffer *bf = add_buffer(g, "bf", ET_BF16, 2);
	uint16_t bv[2] = {0x4049, 0x4049}; /* 3.140625 */
	struct check bc = scalar_check(F(3.14159));
	ck_assert(check_buffer(&bc, bf, bv, NULL, &c.d));
	ck_assert_str_eq(cap_text(&c),
		"t.yaml:12:5: error: check failed: buffer 'h' differs at index 1: "
		"expected 1, got 1.001 (1 of 2 elements differ)\n");
	cap_close(&c);
	gdef_free(g);
}
END_TEST

START_TEST(test_check_integers)
{
	struct gdef *g = new_def("t.yaml");
	struct buffer *b = add_buffer(g, "e", ET_I64, 2);
	struct cap c;
	cap_open(&c, "t.yaml");
	/* Exact even where a double could not tell the values apart. */
	int64_t data[2] = {INT64_MAX, INT64_MAX - 1};
	struct check ck = scalar_check(I(INT64_MAX));
	ck_assert(!check_buffer(&ck, b, data, NULL, &c.d));
	ck_assert_str_eq(cap_text(&c),
		"t.yaml:12:5: error: check failed: buffer 'e' differs at index 1: "
		"expected 9223372036854775807, got 9223372036854775806 (1 of 2 elements differ)\n");
	ck.atol = 1;
	ck_assert(check_buffer(&ck, b, data, NULL, &c.d));
	data[0] = INT64_MIN;
	data[1] = INT64_MIN;
	struct check lo = scalar_check(I(INT64_MIN));
	ck_assert(check_buffer(&lo, b, data, NULL, &c.d));
	cap_close(&c);

	cap_open(&c, "t.yaml");
	struct buffer *u = add_buffer(g, "u", ET_U8, 3);
	uint8_t uv[3] = {10, 12, 14};
	struct check uc = scalar_check(U(12));
	uc.atol = 2;
	ck_assert(check_buffer(&uc, u, uv, NULL, &c.d));
	uc.atol = 1;
	ck_assert(!check_buffer(&uc, u, uv, NULL, &c.d));
	/* rtol on integers: |10 - 12| <= 0.2 * 12 */
	uc.atol = 0;
	uc.rtol = 0.2;
	ck_assert(check_buffer(&uc, u, uv, NULL, &c.d));
	ck_assert_str_eq(cap_text(&c),
		"t.yaml:12:5: error: check failed: buffer 'u' differs at index 0: "
		"expected 12, got 10 (2 of 3 elements differ)\n");
	/* An expected value the type cannot hold. */
	struct check big = scalar_check(U(256));
	big.scalar.pos = P(12, 30);
	ck_assert(!check_buffer(&big, u, uv, NULL, &c.d));
	ck_assert_str_eq(cap_text(&c) + strcspn(cap_text(&c), "\n") + 1,
		"t.yaml:12:30: error: check of buffer 'u': 256 does not fit u8\n");
	cap_close(&c);
	gdef_free(g);
}
END_TEST

START_TEST(test_check_file)
{
	struct gdef *g = new_def("t.yaml");
	struct buffer *b = add_buffer(g, "out", ET_U16, 3);
	char *path = tmp_path("expected.bin");
	const uint16_t want[3] = {1, 2, 65535};
	write_file(path, want, sizeof want);
	struct check ck = {.pos = P(14, 5), .expect = EXPECT_FILE, .expect_pos = P(14, 28),
			   .file = gdef_strdup(cur, "expected.bin"), .path = gdef_strdup(cur, path)};
	struct cap c;
	cap_open(&c, "t.yaml");
	uint16_t data[3] = {1, 2, 65535};
	ck_assert(check_buffer(&ck, b, data, NULL, &c.d));
	data[2] = 65534;
	ck_assert(!check_buffer(&ck, b, data, NULL, &c.d));
	ck_assert_str_eq(cap_text(&c),
		"t.yaml:14:5: error: check failed: buffer 'out' differs at index 2: "
		"expected 65535, got 65534 (1 of 3 elements differ)\n");
	cap_close(&c);

	cap_open(&c, "t.yaml");
	write_file(path, want, 4);
	ck_assert(!check_buffer(&ck, b, data, NULL, &c.d));
	ck_assert_str_eq(cap_text(&c),
		"t.yaml:14:28: error: expected file 'expected.bin' has 4 bytes, the check of buffer 'out' needs 6\n");
	cap_close(&c);
	unlink(path);
	free(path);
	gdef_free(g);
}
END_TEST

/* Dumps and printing ----------------------------------------------------- */

START_TEST(test_dump_raw_txt)
{
	struct gdef *g = new_def("t.yaml");
	struct buffer *b = add_buffer(g, "x", ET_I32, 3);
	const int32_t data[3] = {1, -2, INT32_MAX};
	char *path = tmp_path("x.bin");
	ck_assert_int_eq(dump_write(path, b, data), 0);
	size_t n;
	unsigned char *got = read_file(path, &n);
	ck_assert_uint_eq(n, sizeof data);
	ck_assert(memcmp(got, data, n) == 0);
	free(got);
	free(path);

	path = tmp_path("x.txt");
	ck_assert_int_eq(dump_write(path, b, data), 0);
	got = read_file(path, &n);
	ck_assert_uint_eq(n, strlen("1\n-2\n2147483647\n"));
	ck_assert(memcmp(got, "1\n-2\n2147483647\n", n) == 0);
	free(got);
	free(path);

	/* Floats exactly, as elem_format writes them. */
	struct buffer *f = add_buffer(g, "f", ET_F32, 3);
	const float fdata[3] = {0.1f, -1.5f, INFINITY};
	path = tmp_path("f.txt");
	ck_assert_int_eq(dump_write(path, f, fdata), 0);
	got = read_file(path, &n);
	ck_assert_uint_eq(n, strlen("0.100000001\n-1.5\ninf\n"));
	ck_assert(memcmp(got, "0.100000001\n-1.5\ninf\n", n) == 0);
	free(got);
	free(path);

	struct buffer *u = add_buffer(g, "u", ET_U64, 1);
	const uint64_t udata = UINT64_MAX;
	path = tmp_path("u.txt");
	ck_assert_int_eq(dump_write(path, u, &udata), 0);
	got = read_file(path, &n);
	ck_assert_uint_eq(n, strlen("18446744073709551615\n"));
	ck_assert(memcmp(got, "18446744073709551615\n", n) == 0);
	free(got);
	free(path);

	/* An unwritable path fails with errno set. */
	errno = 0;
	ck_assert_int_eq(dump_write("/nonexistent-dir/x.bin", b, data), -1);
	ck_assert_int_eq(errno, ENOENT);
	gdef_free(g);
}
END_TEST

/* Parse a .npy file's header; returns the dict text, *data_off the data. */
static char *npy_header(const unsigned char *buf, size_t n, size_t *data_off)
{
	ck_assert_uint_ge(n, 10);
	ck_assert(memcmp(buf, "\x93NUMPY", 6) == 0);
	ck_assert_uint_eq(buf[6], 1);
	ck_assert_uint_eq(buf[7], 0);
	size_t hlen = buf[8] | (size_t)buf[9] << 8;
	*data_off = 10 + hlen;
	ck_assert_uint_eq(*data_off % 64, 0);
	ck_assert_uint_le(*data_off, n);
	ck_assert_uint_eq(buf[*data_off - 1], '\n');
	return xstrndup((const char *)buf + 10, hlen);
}

static void check_npy(enum elem_type t, uint64_t count, const char *descr)
{
	struct gdef *g = new_def("t.yaml");
	struct buffer *b = add_buffer(g, "v", t, count);
	unsigned char *data = xmalloc(b->size);
	for (size_t i = 0; i < b->size; i++)
		data[i] = (unsigned char)(i * 7 + 1);
	char *path = tmp_path("v.npy");
	ck_assert_int_eq(dump_write(path, b, data), 0);
	size_t n, off;
	unsigned char *got = read_file(path, &n);
	char *dict = npy_header(got, n, &off);
	char *want = xasprintf("{'descr': '%s', 'fortran_order': False, 'shape': (%" PRIu64 ",), }",
			       descr, count);
	ck_assert_msg(strncmp(dict, want, strlen(want)) == 0, "header %s", dict);
	ck_assert_uint_eq(strspn(dict + strlen(want), " "), strlen(dict) - strlen(want) - 1);
	ck_assert_uint_eq(n - off, b->size);
	ck_assert(memcmp(got + off, data, b->size) == 0);
	free(want);
	free(dict);
	free(got);
	free(path);
	free(data);
	gdef_free(g);
}

START_TEST(test_dump_npy)
{
	check_npy(ET_I32, 3, "<i4");
	check_npy(ET_F32, 1024, "<f4");
	check_npy(ET_F16, 5, "<f2");
	check_npy(ET_BF16, 5, "<u2");
	check_npy(ET_U64, 1, "<u8");
	check_npy(ET_I8, 100, "|i1");
	check_npy(ET_U8, 7, "|u1");
	check_npy(ET_I16, 2, "<i2");
	check_npy(ET_U16, 2, "<u2");
	check_npy(ET_U32, 2, "<u4");
	check_npy(ET_I64, 2, "<i8");
	check_npy(ET_F64, 9, "<f8");
}
END_TEST

START_TEST(test_dump_npy_python)
{
	/* Python reads the header as NumPy would: a dict literal. */
	struct gdef *g = new_def("t.yaml");
	struct buffer *b = add_buffer(g, "v", ET_F64, 3);
	const double data[3] = {1.5, -2.25, 1e300};
	char *path = tmp_path("py.npy");
	ck_assert_int_eq(dump_write(path, b, data), 0);
	char *out = python_reads(path,
		"import ast, struct, sys\n"
		"b = open(sys.argv[1], \"rb\").read()\n"
		"n = struct.unpack(\"<H\", b[8:10])[0]\n"
		"h = ast.literal_eval(b[10:10 + n].decode(\"latin1\"))\n"
		"print(h[\"descr\"], h[\"shape\"], struct.unpack(\"<3d\", b[10 + n:]))\n");
	if (out) {
		ck_assert_str_eq(out, "<f8 (3,) (1.5, -2.25, 1e+300)\n");
		free(out);
	}
	free(path);
	gdef_free(g);
}
END_TEST

START_TEST(test_buffer_print)
{
	struct gdef *g = new_def("t.yaml");
	struct buffer *b = add_buffer(g, "x", ET_I16, 5);
	const int16_t data[5] = {1, -2, 3, 4, 5};
	struct cap c;
	cap_open(&c, "t.yaml");
	buffer_print(c.f, b, data, 3);
	buffer_print(c.f, b, data, 5);
	buffer_print(c.f, b, data, 100);
	buffer_print(c.f, b, data, 0);
	struct buffer *h = add_buffer(g, "h", ET_F16, 2);
	const uint16_t hv[2] = {0x3555, 0xfc00}; /* 0.333 and -inf */
	buffer_print(c.f, h, hv, 8);
	ck_assert_str_eq(cap_text(&c),
		"x[0..5) = [1, -2, 3, ... (2 more)]\n"
		"x[0..5) = [1, -2, 3, 4, 5]\n"
		"x[0..5) = [1, -2, 3, 4, 5]\n"
		"x[0..5) = [... (5 more)]\n"
		"h[0..2) = [0.33325, -inf]\n");
	cap_close(&c);
	gdef_free(g);
}
END_TEST

static Suite *report_suite(void)
{
	Suite *s = suite_create("report");
	TCase *tc = tcase_create("stats");
	tcase_add_test(tc, test_stats_empty);
	tcase_add_test(tc, test_stats_one);
	tcase_add_test(tc, test_stats_odd);
	tcase_add_test(tc, test_stats_even);
	suite_add_tcase(s, tc);

	tc = tcase_create("report");
	tcase_add_test(tc, test_human_example);
	tcase_add_test(tc, test_human_nested);
	tcase_add_test(tc, test_json_example);
	tcase_add_test(tc, test_json_points);
	tcase_add_test(tc, test_processes_plain);
	tcase_add_test(tc, test_processes_sweep);
	tcase_add_test(tc, test_json_throughput_comparison);
	tcase_add_test(tc, test_graph_memory);
	tcase_add_test(tc, test_json_python);
	tcase_add_test(tc, test_json_tool);
	tcase_add_test(tc, test_json_not_finite);
	tcase_add_test(tc, test_json_diagnostics);
	tcase_add_test(tc, test_human_compile);
	tcase_add_test(tc, test_disabled);
	tcase_add_test(tc, test_devices);
	suite_add_tcase(s, tc);

	tc = tcase_create("init");
	tcase_add_test(tc, test_init_zero_scalar);
	tcase_add_test(tc, test_init_list);
	tcase_add_test(tc, test_init_iota);
	tcase_add_test(tc, test_random_reference);
	tcase_add_test(tc, test_random_ranges);
	tcase_add_test(tc, test_init_file);
	suite_add_tcase(s, tc);

	tc = tcase_create("check");
	tcase_add_test(tc, test_check_scalar);
	tcase_add_test(tc, test_check_many);
	tcase_add_test(tc, test_check_float);
	tcase_add_test(tc, test_check_integers);
	tcase_add_test(tc, test_check_file);
	suite_add_tcase(s, tc);

	tc = tcase_create("dump");
	tcase_add_test(tc, test_dump_raw_txt);
	tcase_add_test(tc, test_dump_npy);
	tcase_add_test(tc, test_dump_npy_python);
	tcase_add_test(tc, test_buffer_print);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_MAIN(report_suite)
