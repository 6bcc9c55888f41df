/*
 * Unit tests for --compare (src/compare.c): matching files and points
 * (tests/compare's reports; integer axis values exactly, an index in
 * place of a scan), pooling several base reports, this run's report as a
 * document with its processes, the verdicts on processes end to end, and
 * the table, JSON and SLOWER lines it writes.  The verdict's statistics
 * have their own tests (check_compare_judge.c).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compare.h"
#include "json_tree.h"
#include "proc_record.h"
#include "unit.h"
#include "xmalloc.h"

#define FIXTURE(name) TOP_SRCDIR "/tests/compare/" name

START_TEST(test_axis_values)
{
	ck_assert(axis_values_equal("2^10", "1024"));
	ck_assert(axis_values_equal("1e3", "1000"));
	ck_assert(axis_values_equal("0.5", "0.50"));
	ck_assert(axis_values_equal("f32", "f32"));
	ck_assert(!axis_values_equal("f32", "f64"));
	ck_assert(!axis_values_equal("2^10", "2^11"));
	ck_assert(!axis_values_equal("2^10", "2^10x"));
	ck_assert(!axis_values_equal("1024", "fast"));
	/* integers exactly: a double would take these two for one (issue 30, item 6) */
	ck_assert(!axis_values_equal("9007199254740993", "9007199254740992"));
	ck_assert(axis_values_equal("9007199254740993", "9007199254740993"));
	ck_assert(axis_values_equal("18446744073709551615", "0xffffffffffffffff"));
	ck_assert(axis_values_equal("2^63", "9223372036854775808"));
	ck_assert(axis_values_equal("-5", "-5"));
	ck_assert(!axis_values_equal("-5", "5"));
}
END_TEST

static struct cmp_doc *read_fixture(const char *path)
{
	struct diag d;
	diag_init(&d, path, stderr);
	struct cmp_doc *doc = cmp_doc_read(path, &d);
	ck_assert_msg(doc != NULL, "%s", path);
	return doc;
}

START_TEST(test_compare_sweeps)
{
	struct cmp_doc *base = read_fixture(FIXTURE("base-sweep.json"));
	struct cmp_doc *cur = read_fixture(FIXTURE("new-sweep.json"));
	struct comparison c;
	compare_docs(base, cur, 0.05, true, &c);
	ck_assert_uint_eq(c.nentries, 2);
	ck_assert_str_eq(c.entries[0].label, "n=2^11");
	ck_assert_int_eq(c.entries[0].j.verdict, VERDICT_SAME);
	/* 4096 matched 2^12 */
	ck_assert_str_eq(c.entries[1].label, "n=2^12");
	ck_assert_int_eq(c.entries[1].j.verdict, VERDICT_SLOWER);
	ck_assert_double_eq_tol(c.entries[1].j.shift, 1.2, 0.01);
	ck_assert_uint_eq(c.entries[1].j.nbase, 13);
	ck_assert_uint_eq(c.entries[1].j.n, 4);
	ck_assert_uint_eq(c.nonly_here, 1);
	ck_assert_str_eq(c.only_here[0], "n=2^13");
	ck_assert_uint_eq(c.nonly_base, 1);
	ck_assert_str_eq(c.only_base[0], "n=2^10");
	ck_assert_int_eq(comparison_status(&c), EXIT_SLOWER);
	ck_assert_uint_eq(c.counts[VERDICT_SAME], 1);
	ck_assert_uint_eq(c.counts[VERDICT_SLOWER], 1);
	comparison_free(&c);
	/* a threshold of 25% lets the 20% pass */
	compare_docs(base, cur, 0.25, true, &c);
	ck_assert_int_eq(c.entries[1].j.verdict, VERDICT_SAME);
	ck_assert_int_eq(comparison_status(&c), 0);
	comparison_free(&c);
	cmp_doc_free(base);
	cmp_doc_free(cur);
}
END_TEST

START_TEST(test_compare_suites)
{
	struct cmp_doc *base = read_fixture(FIXTURE("base-suite.json"));
	struct cmp_doc *cur = read_fixture(FIXTURE("new-suite.json"));
	struct comparison c;
	compare_docs(base, cur, 0.05, true, &c);
	ck_assert_uint_eq(c.nentries, 2);
	ck_assert_str_eq(c.entries[0].file, "a.yaml");
	ck_assert_int_eq(c.entries[0].j.verdict, VERDICT_SAME);
	ck_assert_str_eq(c.entries[1].file, "b.yaml");
	ck_assert_int_eq(c.entries[1].j.verdict, VERDICT_SLOWER);
	/* c.yaml made no report in the base; d.yaml did not run now */
	ck_assert_uint_eq(c.nonly_here, 1);
	ck_assert_str_eq(c.only_here[0], "c.yaml");
	ck_assert_uint_eq(c.nonly_base, 1);
	ck_assert_str_eq(c.only_base[0], "d.yaml");
	comparison_free(&c);
	/* one file of the suite against the suite: the others are not listed */
	struct cmp_doc one = *cur;
	one.suite = false;
	one.nfiles = 1;
	compare_docs(base, &one, 0.05, false, &c);
	ck_assert_uint_eq(c.nentries, 1);
	ck_assert_uint_eq(c.nonly_base, 0);
	comparison_free(&c);
	cmp_doc_free(base);
	cmp_doc_free(cur);
}
END_TEST

START_TEST(test_reasons)
{
	/* the fixtures, each against its base: the verdict and why */
	static const struct {
		const char *base, *cur;
		enum verdict v;
		enum doubt why;
		bool apart;
	} cases[] = {
		{FIXTURE("base-plain.json"), FIXTURE("same-plain.json"), VERDICT_SAME, DOUBT_NONE, false},
		{FIXTURE("base-plain.json"), FIXTURE("faster-plain.json"), VERDICT_FASTER, DOUBT_NONE,
		 false},
		{FIXTURE("base-plain.json"), FIXTURE("noisy-plain.json"), VERDICT_UNCERTAIN,
		 DOUBT_NEW_MODE, false},
		{FIXTURE("base-plain.json"), FIXTURE("few-plain.json"), VERDICT_UNCERTAIN,
		 DOUBT_FEW_LAUNCHES, true},
		{FIXTURE("base-plain.json"), FIXTURE("clock-plain.json"), VERDICT_UNCERTAIN,
		 DOUBT_CLOCK, false},
		{FIXTURE("wide-base-plain.json"), FIXTURE("wide-plain.json"), VERDICT_SAME, DOUBT_NONE,
		 false},
		/* a base of format 1 is one process: it can never reach the level */
		{FIXTURE("v1-base-plain.json"), FIXTURE("slower-plain.json"), VERDICT_UNCERTAIN,
		 DOUBT_FEW_PROCESSES, false},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		struct cmp_doc *base = read_fixture(cases[i].base), *cur = read_fixture(cases[i].cur);
		struct comparison c;
		compare_docs(base, cur, 0.05, false, &c);
		ck_assert_uint_eq(c.nentries, 1);
		ck_assert_msg(c.entries[0].j.verdict == cases[i].v && c.entries[0].j.doubt ==
			      cases[i].why, "%s: verdict %d, doubt %d", cases[i].cur,
			      c.entries[0].j.verdict, c.entries[0].j.doubt);
		ck_assert_int_eq(c.entries[0].apart, cases[i].apart);
		/* what is apart is not among the verdicts' counts */
		ck_assert_uint_eq(c.apart, cases[i].apart);
		ck_assert_uint_eq(c.counts[cases[i].v], !cases[i].apart);
		comparison_free(&c);
		cmp_doc_free(cur);
		cmp_doc_free(base);
	}
	/* the wide base's spread set the threshold */
	struct cmp_doc *base = read_fixture(FIXTURE("wide-base-plain.json"));
	struct cmp_doc *cur = read_fixture(FIXTURE("wide-plain.json"));
	struct comparison c;
	compare_docs(base, cur, 0.05, false, &c);
	ck_assert(c.entries[0].j.threshold > 0.1);
	ck_assert(c.entries[0].j.shift > 1.05);
	comparison_free(&c);
	cmp_doc_free(cur);
	cmp_doc_free(base);
}
END_TEST

START_TEST(test_merge)
{
	/* 7 and 6 processes, pooled: 13, and SLOWER as the 13 of one report say */
	struct cmp_doc *docs[2] = {read_fixture(FIXTURE("base-plain-a.json")),
				   read_fixture(FIXTURE("base-plain-b.json"))};
	ck_assert_uint_eq(docs[0]->files[0].points[0].nprocs, 7);
	struct cmp_doc *base = cmp_docs_merge(docs, 2);
	cmp_doc_free(docs[0]);
	cmp_doc_free(docs[1]);
	ck_assert_uint_eq(base->nfiles, 1);
	ck_assert_uint_eq(base->files[0].points[0].nprocs, 13);
	ck_assert_uint_eq(base->nmerged, 2);
	struct cmp_doc *cur = read_fixture(FIXTURE("slower-plain.json"));
	struct comparison c;
	compare_docs(base, cur, 0.05, true, &c);
	ck_assert_uint_eq(c.nbases, 2);
	ck_assert_int_eq(c.entries[0].j.verdict, VERDICT_SLOWER);
	comparison_free(&c);
	cmp_doc_free(cur);
	cmp_doc_free(base);
	/* sweeps and suites pool by file and point; one document stays itself */
	struct cmp_doc *s[3] = {read_fixture(FIXTURE("base-sweep.json")),
				read_fixture(FIXTURE("new-sweep.json")),
				read_fixture(FIXTURE("base-suite.json"))};
	ck_assert_ptr_eq(cmp_docs_merge(s, 1), s[0]);
	base = cmp_docs_merge(s, 3);
	/* sweep.yaml: 2^10, 2^11, 2^12 (4096 is 2^12), 2^13; a, b, d of the suite */
	ck_assert_uint_eq(base->nfiles, 4);
	ck_assert_uint_eq(base->files[0].npoints, 4);
	ck_assert_uint_eq(base->files[0].points[1].nprocs, 17);
	ck_assert_int_ge(cmp_doc_find(base, "./d.yaml"), 0);
	for (int i = 0; i < 3; i++)
		cmp_doc_free(s[i]);
	cmp_doc_free(base);
}
END_TEST

/* A sweep of n points, each with n_procs processes at a median of us microseconds. */
static struct cmp_doc *big_sweep(size_t n, size_t nprocs, double us)
{
	struct cmp_doc *doc = xcalloc(1, sizeof *doc);
	doc->path = "big.json";
	doc->nfiles = 1;
	doc->files = arena_alloc(&doc->arena, sizeof *doc->files);
	struct cmp_file *f = doc->files;
	*f = (struct cmp_file){.file = "big.yaml", .has_report = true, .npoints = n};
	f->points = arena_alloc(&doc->arena, n * sizeof *f->points);
	struct proc_fig *procs = arena_alloc(&doc->arena, nprocs * sizeof *procs);
	for (size_t k = 0; k < nprocs; k++)
		procs[k] = (struct proc_fig){(us + 0.001 * (double)k) * 1e-6, 1980, 100};
	for (size_t i = 0; i < n; i++) {
		struct axis_value *a = arena_alloc(&doc->arena, 2 * sizeof *a);
		/* in the base in reverse: each look-up of a scan would be long */
		char *v = arena_alloc(&doc->arena, 24);
		snprintf(v, 24, "%zu", nprocs == 4 ? i : n - 1 - i);
		a[0] = (struct axis_value){"i", v};
		a[1] = (struct axis_value){"t", "f32"};
		f->points[i] = (struct cmp_point){.label = v, .axes = a, .naxes = 2, .procs = procs,
						  .nprocs = nprocs};
	}
	return doc;
}

START_TEST(test_many_points)
{
	/* two reports of 20,000 points: an index, not a scan (10.5 s before: issue 30, item 5) */
	struct cmp_doc *base = big_sweep(20000, 13, 10), *cur = big_sweep(20000, 4, 10);
	clock_t t0 = clock();
	struct comparison c;
	compare_docs(base, cur, 0.05, true, &c);
	double cpu = (double)(clock() - t0) / CLOCKS_PER_SEC;
	ck_assert_uint_eq(c.nentries, 20000);
	ck_assert_uint_eq(c.counts[VERDICT_SAME], 20000);
	ck_assert_uint_eq(c.nonly_here + c.nonly_base, 0);
	/* under the sanitizers too; the scan took seconds here */
	ck_assert_msg(cpu < 2.0, "20,000 points compared in %.2f s of CPU", cpu);
	comparison_free(&c);
	cmp_doc_free(base);
	cmp_doc_free(cur);
}
END_TEST

START_TEST(test_compare_paths)
{
	/* "./examples//spin.yaml" is "examples/spin.yaml" */
	struct cmp_doc *base = read_fixture(FIXTURE("base-plain.json"));
	struct cmp_doc *cur = read_fixture(FIXTURE("slower-plain.json"));
	struct comparison c;
	compare_docs(base, cur, 0.05, true, &c);
	ck_assert_uint_eq(c.nentries, 1);
	ck_assert_ptr_null(c.note);
	ck_assert_int_eq(c.entries[0].j.verdict, VERDICT_SLOWER);
	comparison_free(&c);
	cmp_doc_free(cur);
	/* one file each, of other paths: compared, and a note says so */
	cur = read_fixture(FIXTURE("other-plain.json"));
	compare_docs(base, cur, 0.05, true, &c);
	ck_assert_uint_eq(c.nentries, 1);
	ck_assert_str_eq(c.note, "elsewhere/spin.yaml is compared with the base's only file, "
			 "examples/spin.yaml");
	ck_assert_int_eq(c.entries[0].j.verdict, VERDICT_SAME);
	comparison_free(&c);
	cmp_doc_free(cur);
	cmp_doc_free(base);
}
END_TEST

START_TEST(test_report_doc)
{
	/* this run's report: each point's processes from the records, by point */
	static const double s[12] = {1.5e-6, 1.5e-6, 1.5e-6, 1.5e-6, 1.5e-6, 1.5e-6,
				     1.5e-6, 1.5e-6, 1.5e-6, 1.5e-6, 1.5e-6, 1.5e-6};
	static const struct axis_value ax[2][1] = {{{"n", "2^4"}}, {{"n", "2^5"}}};
	struct point_report pts[2] = {
		{.label = "n=2^4", .axes = ax[0], .naxes = 1, .samples = s, .nsamples = 12},
		{.label = "n=2^5", .axes = ax[1], .naxes = 1, .samples = s, .nsamples = 10},
	};
	struct proc_record recs[34];
	for (size_t i = 0; i < 34; i++)
		recs[i] = (struct proc_record){.point = i < 17 ? 0 : 1, .launches = 50,
					       .median_s = (1.5 + 0.001 * (double)(i % 17)) * 1e-6,
					       .clock_before_mhz = 1980, .clock_after_mhz = NAN};
	/* a process of no launches is none */
	recs[33].launches = 0;
	struct report r = {.file = "s.yaml", .points = pts, .npoints = 2, .procs = recs,
			   .nprocs = 34};
	struct cmp_doc *doc = cmp_doc_of_report(&r);
	ck_assert_uint_eq(doc->files[0].npoints, 2);
	ck_assert_uint_eq(doc->files[0].points[0].nprocs, 17);
	ck_assert_uint_eq(doc->files[0].points[1].nprocs, 16);
	ck_assert_double_eq_tol(doc->files[0].points[0].procs[3].median_s, 1.503e-6, 1e-12);
	ck_assert_double_eq_tol(doc->files[0].points[0].procs[3].clock_mhz, 1980, 1e-9);
	struct comparison c;
	compare_docs(doc, doc, 0.05, false, &c);
	ck_assert_uint_eq(c.nentries, 2);
	ck_assert_int_eq(c.counts[VERDICT_SAME], 2);
	ck_assert(c.entries[1].j.shift == 1);
	comparison_free(&c);
	cmp_doc_free(doc);
	/* a plain report is one point without axes, which no sweep point matches */
	struct point_report one = {.samples = s, .nsamples = 3};
	struct report plain = {.file = "s.yaml", .points = &one, .npoints = 1};
	struct cmp_doc *p = cmp_doc_of_report(&plain);
	ck_assert_uint_eq(p->files[0].points[0].nprocs, 0);
	doc = cmp_doc_of_report(&r);
	compare_docs(doc, p, 0.05, false, &c);
	ck_assert_uint_eq(c.nentries, 0);
	ck_assert_uint_eq(c.nonly_here, 1);
	ck_assert_str_eq(c.only_here[0], "s.yaml");
	ck_assert_uint_eq(c.nonly_base, 2);
	comparison_free(&c);
	cmp_doc_free(doc);
	cmp_doc_free(p);
}
END_TEST

static char *printed(const struct comparison *c, bool json)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	if (json)
		comparison_json(f, c, 0);
	else
		comparison_print(f, c);
	fclose(f);
	return buf;
}

START_TEST(test_table)
{
	struct cmp_doc *base = read_fixture(FIXTURE("base-sweep.json"));
	struct cmp_doc *cur = read_fixture(FIXTURE("new-sweep.json"));
	struct comparison c;
	compare_docs(base, cur, 0.05, true, &c);
	char *out = printed(&c, false);
	ck_assert_str_eq(out,
		"  comparison   with " FIXTURE("base-sweep.json") ": processes' median launch "
		"times, this / base (Hodges-Lehmann), rank test at p < 0.001, threshold 5%\n"
		"  point        base       this   shift        p    procs  verdict\n"
		"  n=2^11    20.0 us    20.0 us   1.000     0.87     13/4  SAME\n"
		"  n=2^12    40.0 us    48.0 us   1.199  0.00084     13/4  SLOWER\n"
		"  only here    n=2^13\n"
		"  only in base n=2^10\n"
		"  verdicts     1 same, 0 faster, 1 slower, 0 uncertain\n");
	free(out);
	comparison_free(&c);
	cmp_doc_free(cur);
	cmp_doc_free(base);

	/* UNCERTAIN says why; a base of one process says how to grow it */
	base = read_fixture(FIXTURE("v1-base-plain.json"));
	cur = read_fixture(FIXTURE("same-plain.json"));
	compare_docs(base, cur, 0.05, true, &c);
	out = printed(&c, false);
	ck_assert_ptr_nonnull(strstr(out, "1/4  UNCERTAIN: 1 base process and 4 here can reach "
				     "p = 0.4 at best, above the test's level 0.001: grow the "
				     "base to 13 processes"));
	ck_assert_ptr_nonnull(strstr(out, "a gate needs at least 13 base processes: record the "
				     "base with --processes=13, or give several base reports"));
	free(out);
	comparison_free(&c);
	cmp_doc_free(cur);
	cmp_doc_free(base);

	/* what is apart is said apart */
	base = read_fixture(FIXTURE("base-plain.json"));
	cur = read_fixture(FIXTURE("few-plain.json"));
	compare_docs(base, cur, 0.05, true, &c);
	out = printed(&c, false);
	ck_assert_ptr_nonnull(strstr(out, "  verdicts     0 same, 0 faster, 0 slower, 0 uncertain; "
				     "1 apart, too few launches to judge\n"));
	free(out);
	comparison_free(&c);
	cmp_doc_free(cur);
	cmp_doc_free(base);
}
END_TEST

START_TEST(test_json)
{
	/* the comparison's JSON reads back with the reader, every key in place */
	struct cmp_doc *base = read_fixture(FIXTURE("base-suite.json"));
	struct cmp_doc *cur = read_fixture(FIXTURE("new-suite.json"));
	struct comparison c;
	compare_docs(base, cur, 0.05, true, &c);
	char *out = printed(&c, true);
	struct diag d;
	diag_init(&d, "cmp.json", stderr);
	struct jdoc *j = jdoc_parse("cmp.json", out, strlen(out), &d);
	ck_assert_ptr_nonnull(j);
	const struct jv *root = j->root;
	ck_assert_str_eq(jv_get(root, "base")->text, FIXTURE("base-suite.json"));
	ck_assert(jv_get(root, "base_reports")->num == 1);
	ck_assert(jv_get(root, "threshold_percent")->num == 5);
	ck_assert_int_eq(jv_get(root, "note")->type, JNULL);
	const struct jv *m = jv_get(root, "method");
	ck_assert_str_eq(jv_get(m, "unit")->text, "process");
	ck_assert(jv_get(m, "alpha")->num == COMPARE_ALPHA);
	ck_assert(jv_get(m, "min_launches")->num == COMPARE_MIN_LAUNCHES);
	const struct jv *e = jv_get(root, "entries");
	ck_assert_uint_eq(e->n, 2);
	const struct jv *b = &e->items[1];
	ck_assert_str_eq(jv_get(b, "file")->text, "b.yaml");
	ck_assert_int_eq(jv_get(b, "point")->type, JNULL);
	ck_assert_str_eq(jv_get(b, "verdict")->text, "slower");
	ck_assert(jv_get(b, "shift")->num > 1.15);
	ck_assert(jv_get(b, "base_processes")->num == 13);
	ck_assert(jv_get(b, "processes")->num == 4);
	ck_assert_double_eq_tol(jv_get(b, "p_value")->num, 2.0 / 2380, 1e-9);
	ck_assert_double_eq_tol(jv_get(b, "p_min")->num, 2.0 / 2380, 1e-9);
	ck_assert(jv_get(b, "spread_percent")->num < 2);
	/* the clocks agree: no cycles */
	ck_assert_int_eq(jv_get(b, "shift_cycles")->type, JNULL);
	ck_assert_double_eq_tol(jv_get(b, "clock_ratio")->num, 1, 1e-9);
	ck_assert_int_eq(jv_get(b, "uncertain_because")->type, JNULL);
	ck_assert_int_eq(jv_get(b, "why")->type, JNULL);
	ck_assert_int_eq(jv_get(b, "apart")->type, JBOOL);
	ck_assert_str_eq(jv_get(root, "only_here")->items[0].text, "c.yaml");
	ck_assert_str_eq(jv_get(root, "only_in_base")->items[0].text, "d.yaml");
	ck_assert(jv_get(jv_get(root, "counts"), "slower")->num == 1);
	ck_assert(jv_get(jv_get(root, "counts"), "apart")->num == 0);
	jdoc_free(j);
	free(out);
	comparison_free(&c);
	cmp_doc_free(base);
	cmp_doc_free(cur);
}
END_TEST

static Suite *compare_suite(void)
{
	Suite *s = suite_create("compare");
	TCase *tc = tcase_create("match");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_axis_values);
	tcase_add_test(tc, test_compare_sweeps);
	tcase_add_test(tc, test_compare_suites);
	tcase_add_test(tc, test_compare_paths);
	tcase_add_test(tc, test_reasons);
	tcase_add_test(tc, test_merge);
	tcase_add_test(tc, test_many_points);
	tcase_add_test(tc, test_report_doc);
	tcase_add_test(tc, test_table);
	tcase_add_test(tc, test_json);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_MAIN(compare_suite)
