/*
 * Unit tests for reading JSON reports back (src/compare_read.c): every
 * shape of report (one file, a sweep, a suite; tests/compare holds them),
 * a report as report_print.c writes it read back whole, and every way a file
 * can fail to be a JSON report, each with its line:col.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_read.h"
#include "report_print.h"
#include "report.h"
#include "sweep.h"
#include "unit.h"
#include "unit_cap.h"
#include "xmalloc.h"

#define FIXTURE(name) TOP_SRCDIR "/tests/compare/" name

static struct cmp_doc *doc_of(const char *text, struct cap *c)
{
	cap_open(c, "r.json");
	return cmp_doc_parse("r.json", text, strlen(text), &c->d);
}

/* text must be refused with exactly the message want. */
static void refused(const char *text, const char *want)
{
	struct cap c;
	struct cmp_doc *doc = doc_of(text, &c);
	ck_assert_msg(doc == NULL, "accepted: %s", text);
	ck_assert_str_eq(cap_text(&c), want);
	cap_close(&c);
}

START_TEST(test_plain)
{
	struct cap c;
	cap_open(&c, "base-plain.json");
	struct cmp_doc *doc = cmp_doc_read(FIXTURE("base-plain.json"), &c.d);
	ck_assert_ptr_nonnull(doc);
	ck_assert_str_eq(cap_text(&c), "");
	ck_assert(!doc->suite);
	ck_assert_uint_eq(doc->nfiles, 1);
	ck_assert_str_eq(doc->files[0].file, "examples/spin.yaml");
	ck_assert(doc->files[0].has_report);
	ck_assert_uint_eq(doc->files[0].npoints, 1);
	const struct cmp_point *p = &doc->files[0].points[0];
	ck_assert_ptr_null(p->label);
	ck_assert_uint_eq(p->naxes, 0);
	ck_assert_uint_eq(p->nsamples, 20);
	/* its processes, each as its record gives it */
	ck_assert_uint_eq(p->nprocs, 13);
	ck_assert(p->procs[0].median_s > 99e-6 && p->procs[0].median_s < 101e-6);
	ck_assert_uint_eq(p->procs[0].launches, 100);
	ck_assert(p->procs[12].clock_mhz == 1980);
	for (size_t i = 0; i < p->nsamples; i++)
		ck_assert(p->samples[i] > 90e-6 && p->samples[i] < 110e-6);
	/* what --plot draws again: the name, the device's peak, the throughput */
	ck_assert_ptr_null(doc->files[0].name);
	ck_assert(doc->files[0].peak_gb_per_s == 3352);
	ck_assert(isnan(p->bytes) && isnan(p->items));
	cmp_doc_free(doc);
	cap_close(&c);
}
END_TEST

START_TEST(test_stored_sweep)
{
	/* an H100's sweep report (docs/): each point's declared throughput */
	struct cap c;
	cap_open(&c, "saxpy-sweep.json");
	struct cmp_doc *doc = cmp_doc_read(TOP_SRCDIR "/docs/saxpy-sweep.json", &c.d);
	ck_assert_ptr_nonnull(doc);
	const struct cmp_file *f = &doc->files[0];
	ck_assert_str_eq(f->name, "sweep-saxpy");
	ck_assert(f->peak_gb_per_s > 3000);
	ck_assert_uint_eq(f->npoints, 15);
	ck_assert_str_eq(f->points[14].label, "n=2^24");
	ck_assert(f->points[14].items == 16777216);
	ck_assert(f->points[14].bytes == 12.0 * 16777216);
	ck_assert_uint_eq(f->points[14].nsamples, 50);
	cmp_doc_free(doc);
	cap_close(&c);
}
END_TEST

START_TEST(test_sweep)
{
	struct cap c;
	cap_open(&c, "new-sweep.json");
	struct cmp_doc *doc = cmp_doc_read(FIXTURE("new-sweep.json"), &c.d);
	ck_assert_ptr_nonnull(doc);
	const struct cmp_file *f = &doc->files[0];
	ck_assert_uint_eq(f->npoints, 3);
	ck_assert_str_eq(f->points[0].label, "n=2^11");
	ck_assert_uint_eq(f->points[0].naxes, 1);
	ck_assert_str_eq(f->points[0].axes[0].name, "n");
	ck_assert_str_eq(f->points[0].axes[0].text, "2^11");
	/* a number keeps its text as written */
	ck_assert_str_eq(f->points[1].axes[0].text, "4096");
	ck_assert_uint_eq(f->points[2].nsamples, 20);
	ck_assert_uint_eq(f->points[2].nprocs, 4);
	cmp_doc_free(doc);
	cap_close(&c);
}
END_TEST

START_TEST(test_suite)
{
	struct cap c;
	cap_open(&c, "base-suite.json");
	struct cmp_doc *doc = cmp_doc_read(FIXTURE("base-suite.json"), &c.d);
	ck_assert_ptr_nonnull(doc);
	ck_assert(doc->suite);
	ck_assert_uint_eq(doc->nfiles, 4);
	ck_assert_str_eq(doc->files[2].file, "c.yaml");
	ck_assert(!doc->files[2].has_report);
	ck_assert(doc->files[3].has_report);
	ck_assert_uint_eq(doc->files[3].points[0].nsamples, 20);
	ck_assert_uint_eq(doc->files[3].points[0].nprocs, 13);
	/* its files found by path through its index, as the comparison writes paths */
	ck_assert_ptr_nonnull(doc->index);
	ck_assert_int_eq(cmp_doc_find(doc, "b.yaml"), 1);
	ck_assert_int_eq(cmp_doc_find(doc, "./d.yaml"), 3);
	ck_assert_int_eq(cmp_doc_find(doc, "e.yaml"), -1);
	cmp_doc_free(doc);
	cap_close(&c);
}
END_TEST

START_TEST(test_round_trip)
{
	/* what report_print.c writes reads back sample for sample; a null sample is left out */
	static const double samples[] = {1.25e-6, 0.1, NAN, 3e-9};
	struct point_report one = {.samples = samples, .nsamples = 4, .bytes = NAN, .items = NAN};
	struct report r = {
		.file = "dir/\"odd\" name.yaml", .points = &one, .npoints = 1, .peak_gb_per_s = NAN,
	};
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	report_print_json(f, &r);
	fclose(f);
	struct cap c;
	struct cmp_doc *doc = doc_of(text, &c);
	ck_assert_msg(doc != NULL, "%s", cap_text(&c));
	ck_assert_str_eq(doc->files[0].file, "dir/\"odd\" name.yaml");
	const struct cmp_point *p = &doc->files[0].points[0];
	ck_assert_uint_eq(p->nsamples, 3);
	ck_assert(p->samples[0] == 1.25e-6 && p->samples[1] == 0.1 && p->samples[2] == 3e-9);
	cmp_doc_free(doc);
	cap_close(&c);
	free(text);
}
END_TEST

START_TEST(test_values)
{
	struct cap c;
	cap_open(&c, "v.json");
	const char *text = "{\"a\": [null, true, false, -0.5e+3, \"x\\u00e9\\\"\"], \"b\": {}}";
	struct jdoc *j = jdoc_parse("v.json", text, strlen(text), &c.d);
	ck_assert_ptr_nonnull(j);
	const struct jv *a = jv_get(j->root, "a");
	ck_assert_int_eq(a->type, JARR);
	ck_assert_uint_eq(a->n, 5);
	ck_assert_int_eq(a->items[0].type, JNULL);
	ck_assert(a->items[1].type == JBOOL && a->items[1].b);
	ck_assert(a->items[2].type == JBOOL && !a->items[2].b);
	ck_assert(a->items[3].type == JNUM && a->items[3].num == -500);
	ck_assert_str_eq(a->items[4].text, "x\xc3\xa9\"");
	ck_assert_uint_eq(a->items[4].pos.line, 1);
	ck_assert_uint_eq(a->items[4].pos.col, 36);
	ck_assert_int_eq(jv_get(j->root, "b")->type, JOBJ);
	ck_assert_ptr_null(jv_get(j->root, "c"));
	ck_assert_ptr_null(jv_get(a, "a"));
	jdoc_free(j);
	cap_close(&c);
}
END_TEST

START_TEST(test_malformed)
{
	refused("", "r.json:1:1: error: invalid JSON: the text ends where a value was expected\n");
	refused("{\"files\": [\n  {\"file\": \"a\",\n",
		"r.json:3:1: error: invalid JSON: the end of the text where an object's key was "
		"expected (a key is a string in double quotes)\n");
	refused("{\"a\": 1", "r.json:1:8: error: invalid JSON: the end of the text where ',' "
		"or '}' was expected (the text ends too soon)\n");
	refused("{\"a\": nope}", "r.json:1:7: error: invalid JSON: no JSON value starts so "
		"(null, true and false are lower case, a string is in double quotes)\n");
	refused("{\"a\": 0x10}", "r.json:1:8: error: invalid JSON: 'x' where ',' or '}' was "
		"expected\n");
	refused("{\"a\": &x 1, \"b\": *x}", "r.json:1:7: error: invalid JSON: a YAML anchor is "
		"no JSON\n");
	refused("{\"a\": *x}", "r.json:1:7: error: invalid JSON: a YAML alias is no JSON\n");
	refused("{\"a\": !!str 1}", "r.json:1:7: error: invalid JSON: a YAML tag is no JSON\n");
	refused("cugraphrun: 1\nnodes: []\n", "r.json:1:1: error: not JSON but YAML or other "
		"text: not a cugraphrun report, which --json writes\n");
	refused("\n  nope", "r.json:2:3: error: not JSON but YAML or other text: not a cugraphrun "
		"report, which --json writes\n");
	refused("{a: 1}", "r.json:1:2: error: invalid JSON: 'a' where an object's key was "
		"expected (a key is a string in double quotes)\n");
	refused("{\"files\": []} {}", "r.json:1:15: error: invalid JSON: more than one value: only white "
		"space may follow the first\n");
	refused("{\"a\": \"x\\u0000y\"}", "r.json:1:9: error: invalid JSON: a string holds a "
		"NUL character (\\u0000): not read\n");
	char deep[200] = "{\"a\": ";
	for (int i = 0; i < 64; i++)
		strcat(deep, "[");
	refused(deep, "r.json:1:70: error: nested more than 64 levels deep: no cugraphrun "
		"report is\n");
}
END_TEST

/*
 * What the YAML parser under the old reader took for JSON, and JSON that
 * holds a key twice: each refused where it stops being JSON (issue 30,
 * item 4).
 */
START_TEST(test_strict)
{
	refused("{'report_format': 1}", "r.json:1:2: error: invalid JSON: a key is a string in "
		"double quotes, not single\n");
	refused("{\"a\": 'x'}", "r.json:1:7: error: invalid JSON: a string is in double "
		"quotes, not single\n");
	refused("# a comment\n{}", "r.json:1:1: error: invalid JSON: JSON has no comments\n");
	refused("{\"a\": 1 // c\n}", "r.json:1:9: error: invalid JSON: '/' where ',' or '}' was "
		"expected\n");
	refused("%YAML 1.1\n---\n{}", "r.json:1:1: error: invalid JSON: a YAML directive is no "
		"JSON\n");
	refused("{\"a\": [1, 2,]}", "r.json:1:13: error: invalid JSON: a comma before ']': JSON "
		"has no trailing comma\n");
	refused("{\"a\": 1,}", "r.json:1:9: error: invalid JSON: a comma before '}': JSON has no "
		"trailing comma\n");
	refused("{\"a\": 1, \"b\": 2, \"a\": 3}", "r.json:1:18: error: invalid JSON: the key "
		"\"a\" again: an object holds each key once (the first is at 1:2)\n");
	/* the same key written two ways is one key */
	refused("{\"ab\": 1, \"a\\u0062\": 2}", "r.json:1:11: error: invalid JSON: the key \"ab\" "
		"again: an object holds each key once (the first is at 1:2)\n");
	refused("{\"a\": NaN}", "r.json:1:7: error: invalid JSON: NaN is no JSON number (a report "
		"writes null)\n");
	refused("{\"a\": -Infinity}", "r.json:1:7: error: invalid JSON: '-' without digits\n");
	refused("{\"a\": 01}", "r.json:1:7: error: invalid JSON: a number with a leading zero\n");
	refused("{\"a\": 1.}", "r.json:1:7: error: invalid JSON: a number's '.' without digits "
		"after it\n");
	refused("{\"a\": \"tab\there\"}", "r.json:1:11: error: invalid JSON: a control character "
		"(byte 0x09) in a string: JSON writes it as an escape\n");
	refused("{\"a\": \"\\ud800\"}", "r.json:1:8: error: invalid JSON: \\ud800 is half of a "
		"surrogate pair, alone\n");
	refused("{\"a\": \"\xff\"}", "r.json:1:8: error: invalid JSON: byte 0xff in a string is "
		"not UTF-8\n");
	refused("{\"a\": \"\\x\"}", "r.json:1:8: error: invalid JSON: \\x is no JSON escape\n");
	/* a key past the 1,000th in one object: no report has such an object */
	size_t n = 0, cap = 16;
	char *big = xmalloc(cap);
	big[n++] = '{';
	for (int i = 0; i <= JSON_MAX_KEYS; i++) {
		char key[32];
		int k = snprintf(key, sizeof key, "%s\"k%d\": 0", i ? ", " : "", i);
		if (n + (size_t)k + 2 > cap)
			big = xreallocarray(big, cap *= 2, 1);
		memcpy(big + n, key, (size_t)k);
		n += (size_t)k;
	}
	big[n++] = '}';
	big[n] = '\0';
	struct cap c;
	ck_assert_ptr_null(doc_of(big, &c));
	ck_assert_msg(strstr(cap_text(&c), "an object of more than 1000 keys: no cugraphrun "
				   "report has one") != NULL, "%s", cap_text(&c));
	cap_close(&c);
	free(big);
}
END_TEST

START_TEST(test_not_a_report)
{
	refused("[1, 2]", "r.json:1:1: error: not a cugraphrun report: a list, not an object\n");
	refused("{\"a\": 1}", "r.json:1:1: error: not a cugraphrun report: no \"report_format\" "
		"(one file's report) or \"files\" (a suite's)\n");
	refused("{\"report_format\": 3, \"file\": \"x\", \"launch\": {\"samples_s\": []}}",
		"r.json:1:19: error: /report_format: 3 is newer than this cugraphrun reads (2): "
		"compare with the cugraphrun that wrote it\n");
	refused("{\"report_format\": 1, \"launch\": {\"samples_s\": []}}",
		"r.json:1:1: error: the report has no \"file\"\n");
	refused("{\"report_format\": 1, \"file\": \"x\", \"launch\": {\"samples_s\": \"no\"}}",
		"r.json:1:59: error: /launch/samples_s: a string, not a list\n");
	refused("{\"report_format\": 1, \"file\": \"x\", \"launch\": {\"samples_s\": [1, \"2\"]}}",
		"r.json:1:63: error: /launch/samples_s/1: a string, not a number or null\n");
	refused("{\"report_format\": 1, \"file\": \"x\", \"launch\": null}",
		"r.json:1:45: error: /: launch: null, not an object (a report without points has "
		"its launch)\n");
	refused("{\"report_format\": 1, \"file\": \"x\", \"points\": [{\"label\": \"n=1\", "
		"\"axes\": {\"n\": [1]}, \"launch\": {\"samples_s\": []}}]}",
		"r.json:1:77: error: /points/0/axes/n: a list, not a number or a string\n");
	refused("{\"report_format\": 1, \"file\": \"x\", \"points\": [{\"label\": \"n=1\"}]}",
		"r.json:1:46: error: /points/0 has no \"axes\"\n"
		"r.json:1:46: error: /points/0 has no \"launch\"\n");
	refused("{\"report_format\": 1, \"file\": \"x\", \"points\": 3}",
		"r.json:1:45: error: /points: a number, not a list or null\n");
	refused("{\"files\": [{\"report\": null}]}",
		"r.json:1:12: error: /files/0 has no \"file\"\n");
	refused("{\"files\": [3]}", "r.json:1:12: error: /files/0: a number, not an object\n");
	refused("{\"file\": \"x\", \"name\": 5}", "r.json:1:23: error: /name: a number, not a "
		"string or null\n");
}
END_TEST

/*
 * report_format is a number this release knows, wherever it comes in the
 * report: read ahead of the launch it says how to read (issue 30, item 4).
 */
START_TEST(test_format)
{
	static const char *const bad[] = {"0", "-1", "0.5", "1.5", "1e999", "\"1\""};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		char text[200], want[300];
		snprintf(text, sizeof text, "{\"report_format\": %s, \"file\": \"x\", \"launch\": "
			 "{\"samples_s\": [1e-6]}}", bad[i]);
		if (bad[i][0] == '"')
			snprintf(want, sizeof want, "r.json:1:19: error: /report_format: a string, "
				 "not a number\n");
		else
			snprintf(want, sizeof want, "r.json:1:19: error: /report_format: %s is no "
				 "report format: this cugraphrun reads 1 to 2\n", bad[i]);
		refused(text, want);
	}
	/* after the launch, still before it is read: the format's error, not the launch's */
	refused("{\"file\": \"x\", \"launch\": {\"samples_s\": [\"a time of format 3\"]}, "
		"\"report_format\": 3}", "r.json:1:81: error: /report_format: 3 is newer than this "
		"cugraphrun reads (2): compare with the cugraphrun that wrote it\n");
	refused("{\"file\": \"x\", \"points\": [], \"report_format\": 0}",
		"r.json:1:46: error: /report_format: 0 is no report format: this cugraphrun "
		"reads 1 to 2\n");
	refused("{\"file\": \"x\", \"launch\": {\"samples_s\": []}}",
		"r.json:1:1: error: the report has no \"report_format\"\n");
	/* in a suite's file, the path names it */
	refused("{\"files\": [{\"file\": \"a\", \"report\": {\"file\": \"a\", \"launch\": "
		"{\"samples_s\": []}, \"report_format\": 7}}]}", "r.json:1:96: error: "
		"/files/0/report/report_format: 7 is newer than this cugraphrun reads (2): compare "
		"with the cugraphrun that wrote it\n");
	struct cap c;
	struct cmp_doc *doc = doc_of("{\"file\": \"x\", \"launch\": {\"samples_s\": [2e-6]}, "
				     "\"report_format\": 1.0}", &c);
	ck_assert_msg(doc != NULL, "%s", cap_text(&c));
	cmp_doc_free(doc);
	cap_close(&c);
}
END_TEST

/*
 * Every time read is one a launch can take: above 0, at most a day, never
 * one that overflowed to infinity; null is a time that was not finite when
 * written (issue 30, item 2).
 */
START_TEST(test_times)
{
	static const char *const bad[] = {"0", "-0", "-1e-06", "1e999", "-1e999", "86400.5",
					  "1e30"};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		char text[200], want[300];
		snprintf(text, sizeof text, "{\"report_format\": 1, \"file\": \"x\", \"launch\": "
			 "{\"samples_s\": [1e-6, %s]}}", bad[i]);
		snprintf(want, sizeof want, "r.json:1:66: error: /launch/samples_s/1: %s s is no "
			 "time a launch takes: a report's times are above 0 and at most 86400 s "
			 "(a day)\n", bad[i]);
		refused(text, want);
	}
	refused("{\"report_format\": 1, \"file\": \"x\", \"points\": [{\"label\": \"n=1\", "
		"\"axes\": {}, \"launch\": {\"samples_s\": [1e30]}}]}", "r.json:1:100: error: "
		"/points/0/launch/samples_s/0: 1e30 s is no time a launch takes: a report's times "
		"are above 0 and at most 86400 s (a day)\n");
	refused("{\"report_format\": 1, \"file\": \"x\", \"points\": [{\"label\": \"n=1\", "
		"\"axes\": {}, \"launch\": {\"samples_s\": []}, \"throughput\": {\"bytes\": -1}}]}",
		"r.json:1:128: error: /points/0/throughput/bytes: -1 is no amount: it is 0 or "
		"more, and finite\n");
	refused("{\"report_format\": 1, \"file\": \"x\", \"device\": {\"peak_bandwidth_gb_per_s\": "
		"1e999}, \"launch\": {\"samples_s\": []}}", "r.json:1:73: error: "
		"/device/peak_bandwidth_gb_per_s: 1e999 is no amount: it is 0 or more, and "
		"finite\n");
	struct cap c;
	struct cmp_doc *doc = doc_of("{\"report_format\": 1, \"file\": \"x\", \"launch\": "
				     "{\"samples_s\": [null, 86400, 1e-300, null]}}", &c);
	ck_assert_msg(doc != NULL, "%s", cap_text(&c));
	ck_assert_uint_eq(doc->files[0].points[0].nsamples, 2);
	/* a report of format 1: its one process's median found in place, in no order */
	const double *v = doc->files[0].points[0].samples;
	ck_assert((v[0] == 86400 && v[1] == 1e-300) || (v[1] == 86400 && v[0] == 1e-300));
	ck_assert_uint_eq(doc->files[0].points[0].nprocs, 1);
	cmp_doc_free(doc);
	cap_close(&c);
}
END_TEST

/*
 * A run writes at most 10,000 points a file, and a suite's document holds
 * at most 100,000 files: a report of more is refused at the first one past
 * the limit, having read no further (issue 30, item 4).
 */
START_TEST(test_limits)
{
	size_t cap = 1 << 20, n = 0;
	char *t = xmalloc(cap);
	n += (size_t)sprintf(t, "{\"report_format\": 1, \"file\": \"x\", \"points\": [");
	for (int i = 0; i <= SWEEP_MAX_POINTS; i++) {
		if (n + 200 > cap)
			t = xreallocarray(t, cap *= 2, 1);
		n += (size_t)sprintf(t + n, "%s{\"label\": \"n=%d\", \"axes\": {\"n\": %d}, "
				     "\"launch\": {\"samples_s\": [1e-6]}}", i ? ",\n" : "", i, i);
	}
	strcpy(t + n, "]}");
	struct cap c;
	ck_assert_ptr_null(doc_of(t, &c));
	ck_assert_str_eq(cap_text(&c), "r.json:10001:1: error: /points/10000: more than 10000 "
			 "points: a run writes at most 10000 a file\n");
	cap_close(&c);
	/* 10,000 is the most, and is read */
	char *last = strrchr(t, '\n');
	strcpy(last - 1, "]}");
	struct cmp_doc *doc = doc_of(t, &c);
	ck_assert_msg(doc != NULL, "%s", cap_text(&c));
	ck_assert_uint_eq(doc->files[0].npoints, SWEEP_MAX_POINTS);
	cmp_doc_free(doc);
	cap_close(&c);

	n = (size_t)sprintf(t, "{\"files\": [");
	for (int i = 0; i <= CMP_MAX_FILES; i++) {
		if (n + 100 > cap)
			t = xreallocarray(t, cap *= 2, 1);
		n += (size_t)sprintf(t + n, "%s{\"file\": \"f%d.yaml\", \"report\": null}",
				     i ? ",\n" : "", i);
	}
	strcpy(t + n, "]}");
	ck_assert_ptr_null(doc_of(t, &c));
	ck_assert_str_eq(cap_text(&c), "r.json:100001:1: error: /files/100000: more than 100000 "
			 "files: a suite's report holds at most 100000\n");
	cap_close(&c);
	free(t);
}
END_TEST

START_TEST(test_unreadable)
{
	struct cap c;
	cap_open(&c, "/nonexistent/base.json");
	ck_assert_ptr_null(cmp_doc_read("/nonexistent/base.json", &c.d));
	ck_assert_str_eq(cap_text(&c), "/nonexistent/base.json: error: cannot read it: No such "
			 "file or directory\n");
	cap_close(&c);
}
END_TEST

static Suite *read_suite(void)
{
	Suite *s = suite_create("compare_read");
	TCase *tc = tcase_create("shapes");
	tcase_add_test(tc, test_plain);
	tcase_add_test(tc, test_sweep);
	tcase_add_test(tc, test_stored_sweep);
	tcase_add_test(tc, test_suite);
	tcase_add_test(tc, test_round_trip);
	tcase_add_test(tc, test_values);
	suite_add_tcase(s, tc);
	tc = tcase_create("errors");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_malformed);
	tcase_add_test(tc, test_strict);
	tcase_add_test(tc, test_not_a_report);
	tcase_add_test(tc, test_format);
	tcase_add_test(tc, test_times);
	tcase_add_test(tc, test_limits);
	tcase_add_test(tc, test_unreadable);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_MAIN(read_suite)
