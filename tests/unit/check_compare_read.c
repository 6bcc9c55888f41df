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
#include "unit.h"
#include "unit_cap.h"
#include "xmalloc.h"

#define FIXTURE(name) TOP_SRCDIR "/tests/compare/" name

static struct cmp_doc *doc_of(const char *text, struct cap *c)
{
	cap_open(c, "r.json");
	struct jdoc *j = jdoc_parse("r.json", text, strlen(text), &c->d);
	if (j == NULL)
		return NULL;
	struct cmp_doc *doc = cmp_doc_from_json("r.json", j, &c->d);
	if (doc == NULL) {
		jdoc_free(j);
		return NULL;
	}
	doc->json = j;
	return doc;
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
	ck_assert_uint_eq(p->nsamples, 100);
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
	ck_assert_uint_eq(f->points[2].nsamples, 100);
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
	ck_assert_uint_eq(doc->files[3].points[0].nsamples, 100);
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
	struct report r = {
		.file = "dir/\"odd\" name.yaml", .samples = samples, .nsamples = 4,
		.peak_gb_per_s = NAN, .bytes = NAN, .items = NAN,
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

START_TEST(test_overflow)
{
	/* 1e999 is JSON, but no time: left out like a null */
	struct cap c;
	struct cmp_doc *doc = doc_of("{\"report_format\": 1, \"file\": \"x\", \"launch\": "
				     "{\"samples_s\": [1e999, 2e-6, -1e999]}}", &c);
	ck_assert_ptr_nonnull(doc);
	ck_assert_uint_eq(doc->files[0].points[0].nsamples, 1);
	ck_assert(doc->files[0].points[0].samples[0] == 2e-6);
	cmp_doc_free(doc);
	cap_close(&c);
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
	refused("", "r.json:1:1: error: empty: no JSON value\n");
	refused("{\"files\": [\n  {\"file\": \"a\",\n",
		"r.json:3:1: error: invalid JSON: did not find expected node content "
		"(while parsing a flow node at 3:1)\n");
	/* libyaml's mark for the end of the text is the next line's start */
	refused("{\"a\": 1", "r.json:2:1: error: invalid JSON: did not find expected ',' or '}' "
		"(while parsing a flow mapping at 1:1)\n");
	refused("{\"a\": nope}", "r.json:1:7: error: not JSON: 'nope' is no number, true, false "
		"or null (a string is in double quotes)\n");
	refused("{\"a\": 0x10}", "r.json:1:7: error: not JSON: '0x10' is no number, true, false "
		"or null (a string is in double quotes)\n");
	refused("{\"a\": &x 1, \"b\": *x}", "r.json:1:7: error: not JSON: a YAML anchor or tag\n");
	refused("[*x]", "r.json:1:2: error: not JSON: a YAML alias (*name)\n");
	refused("{\"a\": !!str 1}", "r.json:1:7: error: not JSON: a YAML anchor or tag\n");
	refused("cugraphrun: 1\nnodes: []\n", "r.json:1:1: error: not JSON but YAML in block "
		"style: not a cugraphrun report, which --json writes\n");
	refused("{a: 1}", "r.json:1:2: error: not JSON: an object's key must be a string in double "
		"quotes\n");
	refused("{} {}", "r.json:1:4: error: invalid JSON: did not find expected <document start>\n");
	refused("{\"a\": \"x\\u0000y\"}", "r.json:1:7: error: a string holds a NUL character "
		"(\\u0000): not read\n");
	char deep[200] = "";
	for (int i = 0; i < 65; i++)
		strcat(deep, "[");
	refused(deep, "r.json:1:65: error: nested more than 64 levels deep: no cugraphrun "
		"report is\n");
}
END_TEST

START_TEST(test_not_a_report)
{
	refused("[1, 2]", "r.json:1:1: error: not a cugraphrun report: a list, not an object\n");
	refused("{\"a\": 1}", "r.json:1:1: error: not a cugraphrun report: no \"report_format\" "
		"(one file's report) or \"files\" (a suite's)\n");
	refused("{\"report_format\": 2, \"file\": \"x\", \"launch\": {\"samples_s\": []}}",
		"r.json:1:19: error: report_format 2 is newer than this cugraphrun reads (1): "
		"compare with the cugraphrun that wrote it\n");
	refused("{\"report_format\": 1, \"launch\": {\"samples_s\": []}}",
		"r.json:1:1: error: the report has no \"file\"\n");
	refused("{\"report_format\": 1, \"file\": \"x\", \"launch\": {\"samples_s\": \"no\"}}",
		"r.json:1:59: error: the report's launch: \"samples_s\" is a string, not a list\n");
	refused("{\"report_format\": 1, \"file\": \"x\", \"launch\": {\"samples_s\": [1, \"2\"]}}",
		"r.json:1:63: error: the report's launch: a sample is a string, not a number\n");
	refused("{\"report_format\": 1, \"file\": \"x\", \"launch\": null}",
		"r.json:1:45: error: the report: \"launch\" is null, not an object\n");
	refused("{\"report_format\": 1, \"file\": \"x\", \"points\": [{\"label\": \"n=1\", "
		"\"axes\": {\"n\": [1]}, \"launch\": {\"samples_s\": []}}]}",
		"r.json:1:77: error: point 'n=1': axis 'n' is a list, not a number or a string\n");
	refused("{\"report_format\": 1, \"file\": \"x\", \"points\": [{\"label\": \"n=1\"}]}",
		"r.json:1:46: error: a point has no \"axes\"\n"
		"r.json:1:46: error: a point has no \"launch\"\n");
	refused("{\"report_format\": 1, \"file\": \"x\", \"points\": 3}",
		"r.json:1:45: error: the report: \"points\" is a number, not a list\n");
	refused("{\"files\": [{\"report\": null}]}",
		"r.json:1:12: error: a suite's file has no \"file\"\n");
	refused("{\"files\": [3]}", "r.json:1:12: error: a suite's file is a number, not an object\n");
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
	tcase_add_test(tc, test_overflow);
	suite_add_tcase(s, tc);
	tc = tcase_create("errors");
	tcase_add_test(tc, test_malformed);
	tcase_add_test(tc, test_not_a_report);
	tcase_add_test(tc, test_unreadable);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_MAIN(read_suite)
