/*
 * Unit tests for the profile's analysis (src/prof_stat.c) and the Chrome
 * trace writer (src/prof_trace.c), with synthetic activity records over
 * definitions loaded from YAML text: per-node statistics, executions of
 * conditional bodies, the critical path, the colour scale, the report's
 * profile section, and the coloured description read back by agread.
 * With CGR_REPORT_OUT naming a directory, the whole report around each
 * summary is written there too, for tests/report.test to validate against
 * schemas/report.schema.json.
 */
#include "config.h"

#include <graphviz/cgraph.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "describe.h"
#include "diag.h"
#include "load.h"
#include "model.h"
#include "prof_stat.h"
#include "prof_trace.h"
#include "report_print.h"
#include "unit.h"
#include "unit_model.h"
#include "validate.h"

/* A validated definition from YAML text (written to a temporary file). */
static struct gdef *load_text(const char *yaml)
{
	char path[] = "/tmp/check_prof_stat_XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	FILE *f = fdopen(fd, "w");
	fputs(yaml, f);
	fclose(f);
	struct diag d;
	diag_init(&d, path, stderr);
	struct gdef *g = gdef_load(path, &d);
	ck_assert_msg(g != NULL && d.nerrors == 0 && gdef_validate(g, &d), "invalid:\n%s", yaml);
	diag_finish(&d);
	unlink(path);
	return g;
}

/* The report around summary s as gpu_run makes it, kept in $CGR_REPORT_OUT/profile-NAME.json. */
static void keep_report(const char *name, const struct gdef *g, const struct prof_summary *s)
{
	const char *dir = getenv("CGR_REPORT_OUT");
	if (dir == NULL || *dir == '\0')
		return;
	static const double samples[] = {51e-6, 50e-6, 53e-6};
	const struct point_report one = {
		.first_launch_s = 60e-6, .samples = samples, .nsamples = 3,
		.bytes = NAN, .items = NAN,
	};
	struct report r = {
		.name = g->name,
		.file = g->file,
		.device = 0,
		.device_name = "NVIDIA H100 80GB HBM3",
		.cc_major = 9,
		.driver_version = 13000,
		.root = g->root,
		.load_s = 1e-3,
		.warmup = 1,
		.points = &one,
		.npoints = 1,
		.profile = s,
	};
	char path[512];
	snprintf(path, sizeof path, "%s/profile-%s.json", dir, name);
	FILE *f = fopen(path, "w");
	ck_assert_msg(f != NULL, "cannot write %s", path);
	report_print_json(f, &r);
	ck_assert_int_eq(fclose(f), 0);
}

/* Records are added in time order per launch: start, duration in us. */
struct recs {
	struct prof_rec r[256];
	size_t n;
};

static void rec(struct recs *rs, const struct gdef *g, const char *id, uint32_t launch,
		double start_us, double dur_us, uint32_t stream)
{
	ck_assert(rs->n < 256);
	struct prof_rec *r = &rs->r[rs->n++];
	memset(r, 0, sizeof *r);
	r->node = id ? unit_node(g, id) : NULL;
	r->launch = launch;
	r->kind = r->node && r->node->kind == NK_COPY ? PROF_MEMCPY :
		r->node && r->node->kind == NK_MEMSET ? PROF_MEMSET : PROF_KERNEL;
	r->start_ns = (uint64_t)llround(1e6 + start_us * 1e3);
	r->end_ns = r->start_ns + (uint64_t)llround(dur_us * 1e3);
	r->stream = stream;
	r->name = r->kind == PROF_KERNEL ? "set" : NULL;
	r->grid[0] = r->grid[1] = r->grid[2] = 1;
	r->block[0] = r->block[1] = r->block[2] = 1;
	r->bytes = 64;
}

static char *path_text(const struct prof_summary *s)
{
	static char buf[512];
	buf[0] = '\0';
	for (size_t j = 0; j < s->npath; j++) {
		size_t len = strlen(buf);
		snprintf(buf + len, sizeof buf - len, "%s%u:%s", j ? " " : "", s->path[j].depth,
			 s->nodes[s->path[j].node].node->id);
	}
	return buf;
}

#define FAN_YAML \
	"cugraphrun: 1\n" \
	"buffers: {x: {type: i32, count: 16}, y: {type: i32, count: 16}}\n" \
	"nodes:\n" \
	"  - {id: fork, empty: }\n" \
	"  - {id: b10, after: fork, memset: {buffer: x, value: 1}}\n" \
	"  - {id: b20, after: fork, memset: {buffer: y, value: 2}}\n" \
	"  - {id: b40, after: fork, copy: {from: x, to: y}}\n" \
	"  - {id: join, after: [b10, b20, b40], empty: }\n"

START_TEST(fan_statistics_and_path)
{
	struct gdef *g = load_text(FAN_YAML);
	struct recs rs = {.n = 0};
	/* two launches; b40 takes 40 or 42 us, the others overlap it */
	for (uint32_t l = 0; l < 2; l++) {
		double t = l * 100.0;
		rec(&rs, g, "b10", l, t, 10, 7);
		rec(&rs, g, "b20", l, t + 1, 20, 8);
		rec(&rs, g, "b40", l, t + 2, l ? 42 : 40, 9);
	}
	double launch_s[2] = {50e-6, 52e-6};
	struct prof_summary *s = prof_summarize(g, rs.r, rs.n, 2, launch_s, true, 50e-6);
	const struct prof_node *b40 = prof_node_of(s, unit_node(g, "b40"));
	ck_assert_uint_eq(b40->nexec, 2);
	ck_assert_double_eq_tol(b40->median, 41e-6, 1e-12);
	ck_assert_double_eq_tol(b40->min, 40e-6, 1e-12);
	ck_assert_double_eq_tol(b40->max, 42e-6, 1e-12);
	ck_assert_double_eq_tol(b40->execs_per_launch, 1, 1e-12);
	ck_assert_double_eq_tol(s->launch_median, 51e-6, 1e-12);
	ck_assert_double_eq_tol(b40->share, 41.0 / 50, 1e-9);
	ck_assert_str_eq(path_text(s), "0:fork 0:b40 0:join");
	ck_assert_double_eq_tol(s->path_s, 41e-6, 1e-12);
	ck_assert(prof_path_edge(s, unit_node(g, "fork"), unit_node(g, "b40")));
	ck_assert(prof_path_edge(s, unit_node(g, "b40"), unit_node(g, "join")));
	ck_assert(!prof_path_edge(s, unit_node(g, "b10"), unit_node(g, "join")));
	ck_assert(!prof_path_edge(s, unit_node(g, "fork"), unit_node(g, "join")));
	ck_assert_uint_eq(s->unmapped, 0);
	keep_report("fan", g, s);
	prof_summary_free(s);
	gdef_free(g);
}
END_TEST

#define COND_YAML \
	"cugraphrun: 1\n" \
	"buffers: {x: {type: i32, count: 16}, y: {type: i32, count: 16}}\n" \
	"conditions: {loop: {default: 0}, no: {default: 0}}\n" \
	"nodes:\n" \
	"  chain: true\n" \
	"  nodes:\n" \
	"    - {id: first, memset: {buffer: x, value: 1}}\n" \
	"    - id: w\n" \
	"      while:\n" \
	"        condition: loop\n" \
	"        body:\n" \
	"          chain: true\n" \
	"          nodes:\n" \
	"            - {id: tick, memset: {buffer: y, value: 1}}\n" \
	"            - {id: cd, kernel: {function: builtin.countdown, args: [{handle: loop}, x]}}\n" \
	"    - id: maybe\n" \
	"      if: {condition: no, then: [{id: never, copy: {from: x, to: y}}]}\n" \
	"    - id: sub\n" \
	"      graph: [{id: inner, copy: {from: y, to: x}}]\n"

/* A switched-off node runs "off" in the table, and says so in the JSON. */
START_TEST(switched_off_node)
{
	struct gdef *g = load_text(
		"cugraphrun: 1\n"
		"buffers: {x: {type: i32, count: 16}, y: {type: i32, count: 16}}\n"
		"nodes:\n"
		"  - {id: on, memset: {buffer: x, value: 1}}\n"
		"  - {id: skipped, memset: {buffer: y, value: 2}, enabled: false, after: on}\n");
	ck_assert(unit_node(g, "skipped")->disabled);
	struct recs rs = {.n = 0};
	rec(&rs, g, "on", 0, 0, 2, 7);
	double launch_s[1] = {10e-6};
	struct prof_summary *s = prof_summarize(g, rs.r, rs.n, 1, launch_s, false, 0);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	prof_print_human(f, s);
	fclose(f);
	ck_assert_msg(strstr(text, "    skipped  memset    off         -") != NULL, "%s", text);
	ck_assert_msg(strstr(text, "    on       memset      1") != NULL, "%s", text);
	free(text);
	f = open_memstream(&text, &len);
	prof_print_json(f, s, 1);
	fclose(f);
	ck_assert_msg(strstr(text, "\"executions_total\": 0, \"median_s\": null") != NULL &&
		      strstr(text, "\"disabled\": true, \"durations_s\": []") != NULL, "%s", text);
	ck_assert_msg(strstr(text, "\"on_critical_path\": true, \"disabled\": false") != NULL,
		      "%s", text);
	free(text);
	prof_summary_free(s);
	gdef_free(g);
}
END_TEST

START_TEST(bodies_executions_and_path)
{
	struct gdef *g = load_text(COND_YAML);
	struct recs rs = {.n = 0};
	rec(&rs, g, "first", 0, 0, 2, 7);
	for (int i = 0; i < 3; i++) {
		rec(&rs, g, "tick", 0, 3 + i * 10, 4, 7);
		rec(&rs, g, "cd", 0, 8 + i * 10, 1, 7);
	}
	rec(&rs, g, "inner", 0, 40, 6, 7);
	rec(&rs, g, NULL, 0, 50, 1, 7);
	double launch_s[1] = {60e-6};
	struct prof_summary *s = prof_summarize(g, rs.r, rs.n, 1, launch_s, false, 0);
	ck_assert_double_eq_tol(prof_node_of(s, unit_node(g, "tick"))->execs_per_launch, 3, 1e-12);
	ck_assert_double_eq_tol(prof_node_of(s, unit_node(g, "never"))->execs_per_launch, 0, 1e-12);
	ck_assert_uint_eq(s->unmapped, 1);
	/* the loop weighs 3 x (4 + 1) us, the child 6, the IF nothing */
	ck_assert_double_eq_tol(prof_node_of(s, unit_node(g, "w"))->weight, 15e-6, 1e-12);
	ck_assert_double_eq_tol(s->path_s, 23e-6, 1e-12);
	ck_assert_str_eq(path_text(s), "0:first 0:w 1:tick 1:cd 0:maybe 0:sub 1:inner");
	ck_assert(prof_path_edge(s, unit_node(g, "w"), unit_node(g, "maybe")));
	ck_assert(prof_path_edge(s, unit_node(g, "tick"), unit_node(g, "cd")));
	s->incomplete = 2;

	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	prof_print_human(f, s);
	fclose(f);
	ck_assert_msg(strstr(text, "  critical     first -> w [3 x: tick -> cd] -> maybe -> "
			     "sub [graph: inner]\n") != NULL, "%s", text);
	ck_assert_msg(strstr(text, "    never  copy        0         -") != NULL, "%s", text);
	ck_assert_msg(strstr(text, "23.0 us of GPU time on it, 60.0 us median launch (profiled): "
			     "37.0 us launch overhead and idle gaps") != NULL, "%s", text);
	ck_assert_msg(strstr(text, "1 records of no node") != NULL, "%s", text);
	ck_assert_msg(strstr(text, "  incomplete   2 records without a start or an end left "
			     "out") != NULL, "%s", text);
	free(text);

	f = open_memstream(&text, &len);
	prof_print_json(f, s, 1);
	fclose(f);
	ck_assert_msg(strstr(text, "\"id\": \"w\", \"kind\": \"while\", \"depth\": 0, "
			     "\"time_s\": 1.5e-05, \"iterations\": 3}") != NULL, "%s", text);
	ck_assert_msg(strstr(text, "\"id\": \"tick\", \"kind\": \"memset\", \"executions\": 3, "
			     "\"executions_total\": 3") != NULL, "%s", text);
	ck_assert_msg(strstr(text, "\"plain_median_s\": null") != NULL, "%s", text);
	ck_assert_msg(strstr(text, "\"dropped_records\": 0,\n    \"incomplete_records\": 2,")
		      != NULL, "%s", text);
	free(text);
	keep_report("cond", g, s);
	prof_summary_free(s);
	gdef_free(g);
}
END_TEST

#define NESTED_YAML \
	"cugraphrun: 1\n" \
	"buffers: {x: {type: i32, count: 16}, y: {type: i32, count: 16}}\n" \
	"conditions: {outer: {default: 2}, inner: {default: 3}}\n" \
	"nodes:\n" \
	"  - id: wo\n" \
	"    while:\n" \
	"      condition: outer\n" \
	"      body:\n" \
	"        chain: true\n" \
	"        nodes:\n" \
	"          - {id: a, kernel: {function: builtin.countdown, args: [{handle: outer}, x]}}\n" \
	"          - id: wi\n" \
	"            while:\n" \
	"              condition: inner\n" \
	"              body:\n" \
	"                - {id: b, kernel: {function: builtin.countdown, args: [{handle: inner}, y]}}\n"

/* A WHILE in a WHILE: the outer's iterations are its own body's, not outer x inner. */
START_TEST(nested_while_iterations)
{
	struct gdef *g = load_text(NESTED_YAML);
	struct recs rs = {.n = 0};
	double t = 0;
	for (int i = 0; i < 2; i++) {
		rec(&rs, g, "a", 0, t, 1, 7);
		for (int k = 0; k < 3; k++)
			rec(&rs, g, "b", 0, t + 2 + k * 3, 2, 7);
		t += 20;
	}
	double launch_s[1] = {60e-6};
	struct prof_summary *s = prof_summarize(g, rs.r, rs.n, 1, launch_s, false, 0);
	ck_assert_str_eq(path_text(s), "0:wo 1:a 1:wi 2:b");
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	prof_print_human(f, s);
	fclose(f);
	ck_assert_msg(strstr(text, "  critical     wo [2 x: a -> wi [6 x: b]]\n") != NULL,
		      "%s", text);
	free(text);
	f = open_memstream(&text, &len);
	prof_print_json(f, s, 1);
	fclose(f);
	ck_assert_msg(strstr(text, "\"id\": \"wo\", \"kind\": \"while\", \"depth\": 0, "
			     "\"time_s\": 1.4e-05, \"iterations\": 2}") != NULL, "%s", text);
	free(text);
	keep_report("nested-while", g, s);
	prof_summary_free(s);
	gdef_free(g);
}
END_TEST

/*
 * Node times come from the profiled launches, the median from the plain
 * ones: the path may weigh more than the median launch, never a negative gap.
 */
START_TEST(path_exceeds_median)
{
	struct gdef *g = load_text(FAN_YAML);
	struct recs rs = {.n = 0};
	rec(&rs, g, "b10", 0, 0, 10, 7);
	rec(&rs, g, "b40", 0, 1, 40, 8);
	double launch_s[1] = {60e-6};
	struct prof_summary *s = prof_summarize(g, rs.r, rs.n, 1, launch_s, true, 30e-6);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	prof_print_human(f, s);
	fclose(f);
	ck_assert_msg(strstr(text, "40.0 us of GPU time on it, 30.0 us median launch: GPU time "
			     "on the path exceeds the median launch by 10.0 us\n") != NULL,
		      "%s", text);
	ck_assert_msg(strstr(text, "-10") == NULL, "%s", text);
	free(text);
	f = open_memstream(&text, &len);
	prof_print_json(f, s, 1);
	fclose(f);
	ck_assert_msg(strstr(text, "\"overhead_and_gaps_s\": 0,") != NULL, "%s", text);
	free(text);
	keep_report("path-exceeds-median", g, s);
	prof_summary_free(s);
	gdef_free(g);
}
END_TEST

START_TEST(colour_scale)
{
	char c[8];
	prof_colour(0, c);
	ck_assert_str_eq(c, "#ffffcc");
	prof_colour(1, c);
	ck_assert_str_eq(c, "#800026");
	prof_colour(7, c);
	ck_assert_str_eq(c, "#800026");
	prof_colour(-1, c);
	ck_assert_str_eq(c, "#ffffcc");
	prof_colour(NAN, c);
	ck_assert_str_eq(c, "#ffffcc");
	prof_colour(0.5, c);
	ck_assert_str_eq(c, "#fd8d3c");
}
END_TEST

START_TEST(coloured_description_reads_back)
{
	struct gdef *g = load_text(FAN_YAML);
	struct recs rs = {.n = 0};
	rec(&rs, g, "b10", 0, 0, 10, 7);
	rec(&rs, g, "b20", 0, 0, 20, 8);
	rec(&rs, g, "b40", 0, 0, 40, 9);
	double launch_s[1] = {45e-6};
	struct prof_summary *s = prof_summarize(g, rs.r, rs.n, 1, launch_s, true, 44e-6);
	struct describe_overlay ov;
	prof_overlay(s, &ov);
	struct describe_opts o = {.overlay = &ov};
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	ck_assert_int_eq(describe_write(g, &o, f), 0);
	fclose(f);
	f = fmemopen(text, len, "r");
	Agraph_t *dot = agread(f, NULL);
	fclose(f);
	ck_assert_msg(dot != NULL, "agread failed on:\n%s", text);
	Agnode_t *b40 = agnode(dot, (char *)"b40", 0), *b10 = agnode(dot, (char *)"b10", 0);
	ck_assert(b40 && b10);
	ck_assert_str_eq(agget(b40, (char *)"style"), "filled,bold");
	ck_assert_str_eq(agget(b40, (char *)"penwidth"), "3");
	ck_assert_str_eq(agget(b10, (char *)"style"), "filled");
	ck_assert_msg(strstr(agget(b40, (char *)"label"), "40.0 us") != NULL, "%s",
		      agget(b40, (char *)"label"));
	char want[8];
	prof_colour(40.0 / 44, want);
	ck_assert_str_eq(agget(b40, (char *)"fillcolor"), want);
	Agnode_t *fork = agnode(dot, (char *)"fork", 0);
	Agedge_t *e = agedge(dot, fork, b40, NULL, 0);
	ck_assert(e != NULL);
	ck_assert_str_eq(agget(e, (char *)"style"), "bold");
	e = agedge(dot, fork, b10, NULL, 0);
	ck_assert(e != NULL);
	ck_assert_str_eq(agget(e, (char *)"style"), "");
	agclose(dot);
	free(text);
	prof_summary_free(s);
	gdef_free(g);
}
END_TEST

START_TEST(trace_lanes_and_json)
{
	struct gdef *g = load_text(FAN_YAML);
	struct recs rs = {.n = 0};
	/* all three on one stream, overlapping: three lanes */
	rec(&rs, g, "b10", 0, 0, 10, 7);
	rec(&rs, g, "b20", 0, 1, 20, 7);
	rec(&rs, g, "b40", 0, 2, 40, 7);
	rec(&rs, g, NULL, 0, 50, 1, 7);
	struct trace_info ti = {"fan \"1\"", "GPU\n", 0, NULL, 0};
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	ck_assert_int_eq(trace_write(f, rs.r, rs.n, &ti), 0);
	fclose(f);
	/* tests/trace.test hands this trace to a real trace-event parser */
	const char *keep = getenv("CGR_TRACE_OUT");
	if (keep) {
		FILE *k = fopen(keep, "w");
		ck_assert_msg(k != NULL, "cannot write %s", keep);
		fputs(text, k);
		ck_assert_int_eq(fclose(k), 0);
	}
	ck_assert_msg(strstr(text, "\"name\": \"stream 7 (3)\"") != NULL, "%s", text);
	ck_assert_msg(strstr(text, "{\"ph\": \"M\", \"cat\": \"__metadata\", \"name\": "
			     "\"thread_name\", \"pid\": 1, \"tid\": 0,") != NULL, "%s", text);
	ck_assert_msg(strstr(text, "\"graph\": \"fan \\\"1\\\"\"") != NULL, "%s", text);
	ck_assert_msg(strstr(text, "\"name\": \"b40\", \"cat\": \"memcpy\", \"pid\": 1, "
			     "\"tid\": 3, \"ts\": 2.000, \"dur\": 40.000") != NULL, "%s", text);
	ck_assert_msg(strstr(text, "\"name\": \"set\", \"cat\": \"kernel\", \"pid\": 1, "
			     "\"tid\": 1, \"ts\": 50.000") != NULL, "%s", text);
	ck_assert_msg(strstr(text, "\"name\": \"launch 1\", \"cat\": \"launch\", \"pid\": 1, "
			     "\"tid\": 0, \"ts\": 0.000, \"dur\": 51.000") != NULL, "%s", text);
	free(text);
	gdef_free(g);
}
END_TEST

#define TWO_YAML \
	"cugraphrun: 1\n" \
	"buffers: {x: {type: i32, count: 16}, y: {type: i32, count: 16, device: 1}}\n" \
	"nodes:\n" \
	"  - {id: here, memset: {buffer: x, value: 1}}\n" \
	"  - {id: there, memset: {buffer: y, value: 2}, device: 1}\n" \
	"  - {id: back, after: [here, there], copy: {from: y, to: x}}\n"

/*
 * A file on two devices, run from GPU 1: device 0 is GPU 1 (process 1),
 * device 1 is GPU 0 (process 2), each with its own tracks even where
 * CUPTI's stream ids are the same; the launches track stays in process 1.
 * The profile's table and JSON say each node's device.
 */
START_TEST(trace_two_devices)
{
	struct gdef *g = load_text(TWO_YAML);
	struct recs rs = {.n = 0};
	rec(&rs, g, "here", 0, 0, 10, 7);
	rs.r[rs.n - 1].device = 1;
	rec(&rs, g, "there", 0, 1, 10, 7);
	rs.r[rs.n - 1].device = 0;
	rec(&rs, g, "back", 0, 20, 5, 7);
	rs.r[rs.n - 1].device = 1;
	const struct report_device devs[] = {{1, "H100 a", 0x3}, {0, "H100 b", 0x3}};
	struct trace_info ti = {"two", "H100 a", 1, devs, 2};
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	ck_assert_int_eq(trace_write(f, rs.r, rs.n, &ti), 0);
	fclose(f);
	const char *keep = getenv("CGR_TRACE_OUT2");
	if (keep) {
		FILE *k = fopen(keep, "w");
		ck_assert_msg(k != NULL, "cannot write %s", keep);
		fputs(text, k);
		ck_assert_int_eq(fclose(k), 0);
	}
	static const char *const want[] = {
		"\"name\": \"process_name\", \"pid\": 1, \"tid\": 0, \"args\": {\"name\": "
		"\"GPU 1: H100 a (device 0)\"}}",
		"\"name\": \"process_name\", \"pid\": 2, \"tid\": 0, \"args\": {\"name\": "
		"\"GPU 0: H100 b (device 1)\"}}",
		"\"name\": \"process_sort_index\", \"pid\": 2, \"tid\": 0, \"args\": {\"sort_index\": 2}}",
		"\"name\": \"thread_name\", \"pid\": 1, \"tid\": 1, \"args\": {\"name\": \"stream 7\"}}",
		"\"name\": \"thread_name\", \"pid\": 2, \"tid\": 2, \"args\": {\"name\": \"stream 7\"}}",
		"\"name\": \"here\", \"cat\": \"memset\", \"pid\": 1, \"tid\": 1, \"ts\": 0.000",
		"\"name\": \"there\", \"cat\": \"memset\", \"pid\": 2, \"tid\": 2, \"ts\": 1.000",
		"\"name\": \"back\", \"cat\": \"memcpy\", \"pid\": 1, \"tid\": 1, \"ts\": 20.000",
		"\"stream\": 7, \"gpu\": 0, \"bytes\": 64}}",
		"\"name\": \"launch 1\", \"cat\": \"launch\", \"pid\": 1, \"tid\": 0, \"ts\": 0.000, "
		"\"dur\": 25.000",
	};
	for (size_t i = 0; i < sizeof want / sizeof *want; i++)
		ck_assert_msg(strstr(text, want[i]) != NULL, "lacks %s in:\n%s", want[i], text);
	free(text);
	double launch_s[1] = {25e-6};
	struct prof_summary *s = prof_summarize(g, rs.r, rs.n, 1, launch_s, true, 25e-6);
	text = NULL;
	f = open_memstream(&text, &len);
	prof_print_human(f, s);
	fclose(f);
	ck_assert_msg(strstr(text, "    id     kind   dev   runs") != NULL, "%s", text);
	ck_assert_msg(strstr(text, "    there  memset   1      1") != NULL, "%s", text);
	ck_assert_msg(strstr(text, "    back   copy     0      1") != NULL, "%s", text);
	free(text);
	text = NULL;
	f = open_memstream(&text, &len);
	prof_print_json(f, s, 1);
	fclose(f);
	ck_assert_msg(strstr(text, "{\"id\": \"there\", \"kind\": \"memset\", \"device\": 1, "
			     "\"executions\": 1,") != NULL, "%s", text);
	free(text);
	prof_summary_free(s);
	gdef_free(g);
}
END_TEST

static Suite *prof_stat_suite(void)
{
	Suite *s = suite_create("prof_stat");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, fan_statistics_and_path);
	tcase_add_test(tc, bodies_executions_and_path);
	tcase_add_test(tc, switched_off_node);
	tcase_add_test(tc, nested_while_iterations);
	tcase_add_test(tc, path_exceeds_median);
	tcase_add_test(tc, colour_scale);
	tcase_add_test(tc, coloured_description_reads_back);
	tcase_add_test(tc, trace_lanes_and_json);
	tcase_add_test(tc, trace_two_devices);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_MAIN(prof_stat_suite)
