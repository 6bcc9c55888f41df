/*
 * Unit tests for --compare (src/compare.c): the bootstrap on samples whose
 * answer is known, its determinism, the verdicts and their boundaries,
 * the launches that would settle an UNCERTAIN one, matching files and
 * points (tests/compare's reports), and the table and JSON it writes.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "unit.h"
#include "xmalloc.h"

#define FIXTURE(name) TOP_SRCDIR "/tests/compare/" name

static double *constant(double v, size_t n)
{
	double *s = xmalloc(n * sizeof *s);
	for (size_t i = 0; i < n; i++)
		s[i] = v;
	return s;
}

/* n samples around median with relative noise, from a fixed LCG: the same on every machine. */
static double *noisy(double median, double noise, size_t n, uint64_t seed)
{
	double *s = xmalloc(n * sizeof *s);
	for (size_t i = 0; i < n; i++) {
		double u = 0;
		/* a sum of 12 uniforms, less 6: roughly a standard normal */
		for (int k = 0; k < 12; k++) {
			seed = seed * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
			u += (double)(seed >> 11) * 0x1.0p-53;
		}
		s[i] = median * (1 + noise * (u - 6));
	}
	return s;
}

static enum verdict verdict_for(const double *a, size_t na, const double *b, size_t nb,
				struct ratio_interval *iv)
{
	bootstrap_ratio(a, na, b, nb, COMPARE_RESAMPLES, COMPARE_SEED, iv);
	return verdict_of(iv, 0.05);
}

START_TEST(test_constant_samples)
{
	/* no spread at all: the interval is the ratio itself */
	double *a = constant(100e-6, 50), *b = constant(116e-6, 50);
	struct ratio_interval iv;
	ck_assert_int_eq(verdict_for(a, 50, b, 50, &iv), VERDICT_SLOWER);
	ck_assert_double_eq_tol(iv.ratio, 1.16, 1e-12);
	ck_assert_double_eq_tol(iv.low, 1.16, 1e-12);
	ck_assert_double_eq_tol(iv.high, 1.16, 1e-12);
	ck_assert_int_eq(verdict_for(b, 50, a, 50, &iv), VERDICT_FASTER);
	ck_assert_int_eq(verdict_for(a, 50, a, 50, &iv), VERDICT_SAME);
	ck_assert(iv.ratio == 1 && iv.low == 1 && iv.high == 1);
	free(a);
	free(b);
}
END_TEST

START_TEST(test_threshold_is_inclusive)
{
	/* exactly +5% is still SAME; a hair beyond is SLOWER (powers of two: exact) */
	double *a = constant(0.25, 8), *b = constant(0.25 * 1.0625, 8);
	struct ratio_interval iv;
	bootstrap_ratio(a, 8, b, 8, 1000, 1, &iv);
	ck_assert_int_eq(verdict_of(&iv, 0.0625), VERDICT_SAME);
	ck_assert_int_eq(verdict_of(&iv, 0.0624), VERDICT_SLOWER);
	free(a);
	free(b);
}
END_TEST

START_TEST(test_two_valued)
{
	/*
	 * 99 samples, 49 of 1 and 50 of 2: the median is 2, but a resample's
	 * is 1 about 46% of the time (Binomial(99, 49/99) >= 50), so the
	 * interval runs from 1 to 2 against a base of 1: UNCERTAIN, and no
	 * count of launches makes the median's jump go away.
	 */
	double *a = constant(1, 99), *b = constant(2, 99);
	for (int i = 0; i < 49; i++)
		b[i] = 1;
	struct ratio_interval iv;
	ck_assert_int_eq(verdict_for(a, 99, b, 99, &iv), VERDICT_UNCERTAIN);
	ck_assert(iv.ratio == 2 && iv.low == 1 && iv.high == 2);
	/* the even median averages the two middle values: 98 samples give 1.5 between */
	double *c = constant(2, 98);
	for (int i = 0; i < 49; i++)
		c[i] = 1;
	bootstrap_ratio(a, 99, c, 98, COMPARE_RESAMPLES, COMPARE_SEED, &iv);
	ck_assert(iv.ratio == 1.5 && iv.low == 1 && iv.high == 2);
	free(a);
	free(b);
	free(c);
}
END_TEST

START_TEST(test_deterministic)
{
	double *a = noisy(100e-6, 0.02, 100, 1), *b = noisy(103e-6, 0.02, 100, 2);
	struct ratio_interval x, y, z;
	bootstrap_ratio(a, 100, b, 100, COMPARE_RESAMPLES, COMPARE_SEED, &x);
	bootstrap_ratio(a, 100, b, 100, COMPARE_RESAMPLES, COMPARE_SEED, &y);
	ck_assert(x.ratio == y.ratio && x.low == y.low && x.high == y.high);
	/* another seed moves the ends a little, not the ratio */
	bootstrap_ratio(a, 100, b, 100, COMPARE_RESAMPLES, 7, &z);
	ck_assert(z.ratio == x.ratio);
	ck_assert(z.low != x.low || z.high != x.high);
	ck_assert_double_eq_tol(z.low, x.low, 0.01);
	ck_assert(x.low < x.ratio && x.ratio < x.high);
	free(a);
	free(b);
}
END_TEST

START_TEST(test_known_verdicts)
{
	/* 1% noise, 100 launches each: a 3% change is SAME, 15% SLOWER, x0.5 FASTER */
	double *base = noisy(100e-6, 0.01, 100, 11);
	static const struct {
		double median, noise;
		size_t n;
		enum verdict want;
	} cases[] = {
		{100e-6, 0.01, 100, VERDICT_SAME},
		{103e-6, 0.01, 100, VERDICT_SAME},
		{97e-6, 0.01, 100, VERDICT_SAME},
		{115e-6, 0.01, 100, VERDICT_SLOWER},
		{50e-6, 0.01, 100, VERDICT_FASTER},
		/* +5% exactly: the interval holds the threshold */
		{105e-6, 0.01, 100, VERDICT_UNCERTAIN},
		/* 30% noise over 10 launches: too few to tell +4% from +10% */
		{104e-6, 0.3, 10, VERDICT_UNCERTAIN},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		double *b = noisy(cases[i].median, cases[i].noise, cases[i].n, 100 + i);
		struct ratio_interval iv;
		enum verdict v = verdict_for(base, 100, b, cases[i].n, &iv);
		ck_assert_msg(v == cases[i].want, "case %zu: %s [%g, %g, %g], want %s", i,
			      verdict_words[v], iv.low, iv.ratio, iv.high,
			      verdict_words[cases[i].want]);
		free(b);
	}
	free(base);
}
END_TEST

START_TEST(test_same_most_of_the_time)
{
	/* the same distribution 40 times: never SLOWER or FASTER, SAME at least 36 times */
	double *base = noisy(50e-6, 0.02, 100, 5);
	int same = 0;
	for (int i = 0; i < 40; i++) {
		double *b = noisy(50e-6, 0.02, 100, 1000 + (uint64_t)i);
		struct ratio_interval iv;
		enum verdict v = verdict_for(base, 100, b, 100, &iv);
		ck_assert(v == VERDICT_SAME || v == VERDICT_UNCERTAIN);
		same += v == VERDICT_SAME;
		free(b);
	}
	ck_assert_int_ge(same, 36);
	free(base);
}
END_TEST

START_TEST(test_no_samples)
{
	double a = 1;
	struct ratio_interval iv;
	ck_assert_int_eq(verdict_for(&a, 1, NULL, 0, &iv), VERDICT_UNCERTAIN);
	ck_assert(isnan(iv.ratio) && isnan(iv.low) && isnan(iv.high));
	ck_assert_uint_eq(settle_launches(&iv, 0.05, 0), 0);
	/* a base median of 0 has no ratio */
	double z = 0;
	ck_assert_int_eq(verdict_for(&z, 1, &a, 1, &iv), VERDICT_UNCERTAIN);
	ck_assert(isnan(iv.ratio));
}
END_TEST

START_TEST(test_verdict_bounds)
{
	static const struct {
		struct ratio_interval iv;
		enum verdict want;
	} cases[] = {
		{{1.0, 0.95, 1.05}, VERDICT_SAME},
		{{1.0, 0.9499, 1.01}, VERDICT_UNCERTAIN},
		{{1.08, 1.051, 1.2}, VERDICT_SLOWER},
		{{1.08, 1.05, 1.2}, VERDICT_UNCERTAIN},
		{{0.9, 0.8, 0.9499}, VERDICT_FASTER},
		{{0.9, 0.8, 0.95}, VERDICT_UNCERTAIN},
		{{1.0, 0.9, 1.1}, VERDICT_UNCERTAIN},
		{{NAN, NAN, NAN}, VERDICT_UNCERTAIN},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
		ck_assert_msg(verdict_of(&cases[i].iv, 0.05) == cases[i].want, "case %zu", i);
}
END_TEST

START_TEST(test_judge)
{
	/* the interval's verdict, unless the launches are too few or the floors did not move */
	static const struct {
		struct ratio_interval iv;
		double floor;
		size_t nbase, n;
		enum verdict want;
		enum doubt why;
	} cases[] = {
		{{1.2, 1.15, 1.25}, 1.2, 100, 100, VERDICT_SLOWER, DOUBT_NONE},
		{{1.2, 1.15, 1.25}, 1.05, 100, 100, VERDICT_UNCERTAIN, DOUBT_FLOORS_AGREE},
		{{1.2, 1.15, 1.25}, 0.8, 100, 100, VERDICT_UNCERTAIN, DOUBT_FLOORS_AGREE},
		{{1.2, 1.15, 1.25}, NAN, 100, 100, VERDICT_UNCERTAIN, DOUBT_FLOORS_AGREE},
		{{0.5, 0.45, 0.55}, 0.5, 100, 100, VERDICT_FASTER, DOUBT_NONE},
		{{0.5, 0.45, 0.55}, 0.95, 100, 100, VERDICT_UNCERTAIN, DOUBT_FLOORS_AGREE},
		/* SAME does not ask the floors */
		{{1.0, 0.99, 1.01}, 1.3, 100, 100, VERDICT_SAME, DOUBT_NONE},
		{{1.0, 0.9, 1.1}, 1.0, 100, 100, VERDICT_UNCERTAIN, DOUBT_STRADDLES},
		/* fewer than 10 launches on either side, whatever the interval */
		{{1.2, 1.15, 1.25}, 1.2, 100, 9, VERDICT_UNCERTAIN, DOUBT_FEW_LAUNCHES},
		{{1.0, 0.99, 1.01}, 1.0, 9, 100, VERDICT_UNCERTAIN, DOUBT_FEW_LAUNCHES},
		{{1.2, 1.15, 1.25}, 1.2, 10, 10, VERDICT_SLOWER, DOUBT_NONE},
		{{NAN, NAN, NAN}, NAN, 100, 0, VERDICT_UNCERTAIN, DOUBT_NO_LAUNCHES},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		enum doubt why;
		enum verdict v = verdict_judge(&cases[i].iv, cases[i].floor, cases[i].nbase,
					       cases[i].n, 0.05, &why);
		ck_assert_msg(v == cases[i].want && why == cases[i].why, "case %zu: %d %d", i, v,
			      why);
	}
	/* the floor: the 10th percentile, nearest rank below, of unsorted samples */
	double v[20];
	for (int i = 0; i < 20; i++)
		v[i] = (double)((i * 7) % 20 + 1);
	ck_assert(compare_floor(v, 20) == 2);
	ck_assert(compare_floor(v, 1) == 1);
	ck_assert(isnan(compare_floor(v, 0)));
	ck_assert(v[1] == 8);           /* the samples left as they were */
}
END_TEST

START_TEST(test_settle)
{
	/* +8% with a half width of 12%: 4x narrower is 16x the launches, and a quarter more */
	struct ratio_interval iv = {1.08, 0.96, 1.15};
	ck_assert_uint_eq(settle_launches(&iv, 0.05, 20), 400);
	/* inside the threshold, the nearer end decides: (1.0 - 0.97) / (1.0 - 0.95) */
	iv = (struct ratio_interval){1.0, 0.97, 1.02};
	ck_assert_uint_eq(settle_launches(&iv, 0.05, 100), 101);
	iv = (struct ratio_interval){1.0, 0.9, 1.02};
	ck_assert_uint_eq(settle_launches(&iv, 0.05, 100), 500);
	/* at the threshold itself nothing settles it */
	iv = (struct ratio_interval){1.05, 1.0, 1.1};
	ck_assert_uint_eq(settle_launches(&iv, 0.05, 100), 0);
	/* a hair beyond it, only a count over 100 times n would */
	iv = (struct ratio_interval){1.051, 1.0, 1.1};
	ck_assert_uint_eq(settle_launches(&iv, 0.05, 100), 0);
	/* a faster one: 0.9 to clear 0.95 from a high end of 0.99 */
	iv = (struct ratio_interval){0.9, 0.85, 0.99};
	ck_assert_uint_eq(settle_launches(&iv, 0.05, 100), 410);
}
END_TEST

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
	ck_assert_int_eq(c.entries[0].verdict, VERDICT_SAME);
	/* 4096 matched 2^12 */
	ck_assert_str_eq(c.entries[1].label, "n=2^12");
	ck_assert_int_eq(c.entries[1].verdict, VERDICT_SLOWER);
	ck_assert_double_eq_tol(c.entries[1].iv.ratio, 1.2, 0.01);
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
	ck_assert_int_eq(c.entries[1].verdict, VERDICT_SAME);
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
	ck_assert_int_eq(c.entries[0].verdict, VERDICT_SAME);
	ck_assert_str_eq(c.entries[1].file, "b.yaml");
	ck_assert_int_eq(c.entries[1].verdict, VERDICT_SLOWER);
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

START_TEST(test_mode_and_few)
{
	/* the fixtures: a process in a slower mode, and three launches */
	struct cmp_doc *base = read_fixture(FIXTURE("base-plain.json"));
	static const char *const files[] = {FIXTURE("mode-plain.json"), FIXTURE("few-plain.json")};
	static const enum doubt why[] = {DOUBT_FLOORS_AGREE, DOUBT_FEW_LAUNCHES};
	for (int i = 0; i < 2; i++) {
		struct cmp_doc *cur = read_fixture(files[i]);
		struct comparison c;
		compare_docs(base, cur, 0.05, false, &c);
		ck_assert_uint_eq(c.nentries, 1);
		ck_assert_int_eq(c.entries[0].verdict, VERDICT_UNCERTAIN);
		ck_assert_int_eq(c.entries[0].doubt, why[i]);
		/* beyond the threshold by its interval alone */
		ck_assert_int_eq(verdict_of(&c.entries[0].iv, c.entries[0].threshold),
				 VERDICT_SLOWER);
		if (i == 0)
			ck_assert_double_eq_tol(c.entries[0].floor_ratio, 1.0, 0.02);
		else
			ck_assert_uint_eq(c.entries[0].settle, COMPARE_MIN_SAMPLES);
		comparison_free(&c);
		cmp_doc_free(cur);
	}
	cmp_doc_free(base);
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
	ck_assert_int_eq(c.entries[0].verdict, VERDICT_SLOWER);
	comparison_free(&c);
	cmp_doc_free(cur);
	/* one file each, of other paths: compared, and a note says so */
	cur = read_fixture(FIXTURE("other-plain.json"));
	compare_docs(base, cur, 0.05, true, &c);
	ck_assert_uint_eq(c.nentries, 1);
	ck_assert_str_eq(c.note, "elsewhere/spin.yaml is compared with the base's only file, "
			 "examples/spin.yaml");
	ck_assert_int_eq(c.entries[0].verdict, VERDICT_SAME);
	comparison_free(&c);
	cmp_doc_free(cur);
	cmp_doc_free(base);
}
END_TEST

START_TEST(test_report_doc)
{
	/* this run's report, plain and swept, against itself: every match SAME, ratio 1 */
	static const double s[12] = {1.5e-6, 1.5e-6, 1.5e-6, 1.5e-6, 1.5e-6, 1.5e-6,
				     1.5e-6, 1.5e-6, 1.5e-6, 1.5e-6, 1.5e-6, 1.5e-6};
	static const struct axis_value ax[2][1] = {{{"n", "2^4"}}, {{"n", "2^5"}}};
	struct point_report pts[2] = {
		{.label = "n=2^4", .axes = ax[0], .naxes = 1, .samples = s, .nsamples = 12},
		{.label = "n=2^5", .axes = ax[1], .naxes = 1, .samples = s, .nsamples = 10},
	};
	struct report r = {.file = "s.yaml", .points = pts, .npoints = 2};
	struct cmp_doc *doc = cmp_doc_of_report(&r);
	struct comparison c;
	compare_docs(doc, doc, 0.05, false, &c);
	ck_assert_uint_eq(c.nentries, 2);
	ck_assert_int_eq(c.counts[VERDICT_SAME], 2);
	ck_assert(c.entries[1].iv.ratio == 1);
	comparison_free(&c);
	cmp_doc_free(doc);
	/* a plain report is one point without axes, which no sweep point matches */
	struct point_report one = {.samples = s, .nsamples = 3};
	struct report plain = {.file = "s.yaml", .points = &one, .npoints = 1};
	struct cmp_doc *p = cmp_doc_of_report(&plain);
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
		"  comparison   with " FIXTURE("base-sweep.json") ": bootstrap 95% interval of "
		"the ratio of medians (this / base), threshold 5%\n"
		"  point        base       this   ratio  interval       verdict\n"
		"  n=2^11    20.0 us    20.0 us   1.001  1.000-1.003    SAME\n"
		"  n=2^12    40.0 us    48.0 us   1.198  1.196-1.200    SLOWER\n"
		"  only here    n=2^13\n"
		"  only in base n=2^10\n"
		"  verdicts     1 same, 0 faster, 1 slower, 0 uncertain\n");
	free(out);
	comparison_free(&c);
	cmp_doc_free(cur);

	cur = read_fixture(FIXTURE("noisy-plain.json"));
	cmp_doc_free(base);
	base = read_fixture(FIXTURE("base-plain.json"));
	compare_docs(base, cur, 0.05, true, &c);
	out = printed(&c, false);
	ck_assert_ptr_nonnull(strstr(out, "UNCERTAIN: about -n 340 in both runs would settle it\n"));
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
	ck_assert(jv_get(root, "threshold_percent")->num == 5);
	ck_assert_int_eq(jv_get(root, "note")->type, JNULL);
	const struct jv *m = jv_get(root, "method");
	ck_assert(jv_get(m, "resamples")->num == COMPARE_RESAMPLES);
	ck_assert(jv_get(m, "confidence")->num == 0.95);
	/* a string: 64 bits are more than a JSON reader's double holds */
	ck_assert_str_eq(jv_get(m, "seed")->text, "0x6375677261706872");
	const struct jv *e = jv_get(root, "entries");
	ck_assert_uint_eq(e->n, 2);
	ck_assert_str_eq(jv_get(&e->items[1], "file")->text, "b.yaml");
	ck_assert_int_eq(jv_get(&e->items[1], "point")->type, JNULL);
	ck_assert_str_eq(jv_get(&e->items[1], "verdict")->text, "slower");
	ck_assert(jv_get(&e->items[1], "ratio")->num > 1.15);
	ck_assert_uint_eq(jv_get(&e->items[1], "samples")->num, 100);
	ck_assert_int_eq(jv_get(&e->items[1], "settle_repeat")->type, JNULL);
	ck_assert_int_eq(jv_get(&e->items[1], "uncertain_because")->type, JNULL);
	ck_assert(jv_get(&e->items[1], "floor_ratio")->num > 1.15);
	ck_assert_str_eq(jv_get(root, "only_here")->items[0].text, "c.yaml");
	ck_assert_str_eq(jv_get(root, "only_in_base")->items[0].text, "d.yaml");
	ck_assert(jv_get(jv_get(root, "counts"), "slower")->num == 1);
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
	TCase *tc = tcase_create("bootstrap");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_constant_samples);
	tcase_add_test(tc, test_threshold_is_inclusive);
	tcase_add_test(tc, test_two_valued);
	tcase_add_test(tc, test_deterministic);
	tcase_add_test(tc, test_known_verdicts);
	tcase_add_test(tc, test_same_most_of_the_time);
	tcase_add_test(tc, test_no_samples);
	tcase_add_test(tc, test_verdict_bounds);
	tcase_add_test(tc, test_judge);
	tcase_add_test(tc, test_settle);
	suite_add_tcase(s, tc);
	tc = tcase_create("match");
	tcase_add_test(tc, test_axis_values);
	tcase_add_test(tc, test_compare_sweeps);
	tcase_add_test(tc, test_compare_suites);
	tcase_add_test(tc, test_compare_paths);
	tcase_add_test(tc, test_mode_and_few);
	tcase_add_test(tc, test_report_doc);
	tcase_add_test(tc, test_table);
	tcase_add_test(tc, test_json);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_MAIN(compare_suite)
