/*
 * Unit tests for --compare's verdict over processes (src/compare_judge.c)
 * and the rank statistics under it (src/stats_rank.c): p-values whose
 * answer is known (R's wilcox.test gives the same), the smallest p of a
 * count of processes, the Hodges-Lehmann shift, and each verdict and
 * each reason for UNCERTAIN on processes built to show it.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "compare_judge.h"
#include "stats_rank.h"
#include "unit.h"

START_TEST(test_rank_p)
{
	/* R: wilcox.test(c(4,5,6), c(1,2,3))$p.value == 0.1 */
	double x3[] = {1, 2, 3}, y3[] = {4, 5, 6};
	ck_assert_double_eq_tol(rank_u(x3, 3, y3, 3), 9, 1e-12);
	ck_assert_double_eq_tol(rank_p(9, 3, 3), 0.1, 1e-12);
	ck_assert_double_eq_tol(rank_p(0, 3, 3), 0.1, 1e-12);
	/* R: wilcox.test(c(1.5,2.5,3.5,4.5,5.5), 1:5)$p.value == 0.6905 */
	double x5[] = {1, 2, 3, 4, 5}, y5[] = {1.5, 2.5, 3.5, 4.5, 5.5};
	ck_assert_double_eq_tol(rank_p(rank_u(x5, 5, y5, 5), 5, 5), 0.690476, 1e-6);
	/* the middle of the distribution is 1, never more */
	ck_assert_double_eq_tol(rank_p(7.5, 5, 3), 1, 1e-12);
	/* ties count a half */
	double a[] = {1, 1}, b[] = {1, 1};
	ck_assert_double_eq_tol(rank_u(a, 2, b, 2), 2, 1e-12);
	ck_assert(isnan(rank_p(0, 0, 3)));
}
END_TEST

START_TEST(test_rank_p_min)
{
	/* 2 / C(m + n, n), as cugraphrun(1) quotes them */
	ck_assert_double_eq_tol(rank_p_min(3, 3), 0.1, 1e-12);
	ck_assert_double_eq_tol(rank_p_min(5, 5), 2.0 / 252, 1e-12);
	ck_assert_double_eq_tol(rank_p_min(7, 7), 2.0 / 3432, 1e-12);
	ck_assert_double_eq_tol(rank_p_min(13, 4), 2.0 / 2380, 1e-12);
	ck_assert_double_eq_tol(rank_p_min(1, 4), 0.4, 1e-12);
	/* the extreme U gives exactly the smallest p */
	double x[13], y[4];
	for (int i = 0; i < 13; i++)
		x[i] = i;
	for (int i = 0; i < 4; i++)
		y[i] = 100 + i;
	ck_assert_double_eq_tol(rank_p(rank_u(x, 13, y, 4), 13, 4), rank_p_min(13, 4), 1e-15);
	/* large counts: the normal approximation, close to the exact where both are cheap */
	double exact = rank_p(200.0 * 100 / 2 + 1000, 200, 100);
	double normal = erfc((1000 - 0.5) / sqrt(200.0 * 100 * 301 / 12) / sqrt(2.0));
	ck_assert_double_eq_tol(exact, normal, 0.005);
	ck_assert(rank_p(1000.0 * 1000 / 2 + 15000, 1000, 1000) > 0.2);
	ck_assert(rank_p(1000.0 * 1000 / 2 + 150000, 1000, 1000) < 1e-20);
	ck_assert_double_eq_tol(rank_p(1000.0 * 1000 / 2, 1000, 1000), 1, 1e-12);
	/* U of y over x is the mirror of x over y: the same p either way round */
	ck_assert_double_eq_tol(rank_p(10, 13, 4), rank_p(13 * 4 - 10, 4, 13), 1e-12);
	/* many processes: no overflow, no NaN */
	ck_assert(rank_p(150.0 * 150 / 2, 150, 150) > 0.9);
	ck_assert(rank_p_min(300, 300) < 1e-100);
}
END_TEST

START_TEST(test_rank_shift)
{
	double x[] = {1, 2, 3, 4, 5}, y[] = {1.5, 2.5, 3.5, 4.5, 5.5};
	/* median of the 25 ratios y/x */
	ck_assert_double_eq_tol(rank_shift(x, 5, y, 5), 7.0 / 6, 1e-12);
	double c[] = {2, 2, 2}, d[] = {3, 3};
	ck_assert_double_eq_tol(rank_shift(c, 3, d, 2), 1.5, 1e-12);
	ck_assert(isnan(rank_shift(c, 0, d, 2)));
}
END_TEST

/* n processes at values v[] (microseconds), each of 100 launches, at clock MHz. */
static void procs(struct proc_fig *p, const double *v, size_t n, double mhz)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (struct proc_fig){.median_s = v[i] * 1e-6, .clock_mhz = mhz, .launches = 100};
}

static const double tight[13] = {100, 100.2, 99.8, 100.1, 99.9, 100.3, 99.7,
				 100.05, 99.95, 100.15, 99.85, 100.25, 99.75};

static void judge(const double *bv, size_t nb, const double *cv, size_t n, double t,
		  struct judgement *j)
{
	struct proc_fig b[32], c[32];
	procs(b, bv, nb, 1980);
	procs(c, cv, n, 1980);
	compare_judge(b, nb, c, n, t, j);
}

START_TEST(test_verdicts)
{
	struct judgement j;
	double same[] = {100.1, 99.9, 100.2, 100};
	judge(tight, 13, same, 4, 0.05, &j);
	ck_assert_int_eq(j.verdict, VERDICT_SAME);
	ck_assert_int_eq(j.doubt, DOUBT_NONE);
	ck_assert_uint_eq(j.nbase, 13);
	ck_assert_uint_eq(j.n, 4);

	double slower[] = {115, 115.2, 114.9, 115.1};
	judge(tight, 13, slower, 4, 0.05, &j);
	ck_assert_int_eq(j.verdict, VERDICT_SLOWER);
	ck_assert_double_eq_tol(j.p, 2.0 / 2380, 1e-12);
	ck_assert_double_eq_tol(j.shift, 1.15, 0.005);

	double faster[] = {50, 50.1, 49.9, 50.2};
	judge(tight, 13, faster, 4, 0.05, &j);
	ck_assert_int_eq(j.verdict, VERDICT_FASTER);

	/* 5% longer against a threshold of 2%: the base's spread is under 1% */
	double five[] = {105, 105.1, 104.9, 105.2};
	judge(tight, 13, five, 4, 0.02, &j);
	ck_assert_int_eq(j.verdict, VERDICT_SLOWER);
	ck_assert(j.spread < 0.01);
	/* the same 5% at the default 5% threshold: within it */
	double four[] = {104, 104.1, 103.9, 104.2};
	judge(tight, 13, four, 4, 0.05, &j);
	ck_assert_int_eq(j.verdict, VERDICT_SAME);
}
END_TEST

START_TEST(test_spread_sets_threshold)
{
	/* a bimodal base (15.07 us or 23.26 us per process): its spread is the threshold */
	double base[13] = {15.07, 15.07, 23.26, 15.07, 15.04, 15.10, 15.07, 23.26, 15.07,
			   15.07, 23.26, 15.07, 15.07};
	double cur[] = {23.26, 23.26, 15.07, 23.26};
	struct judgement j;
	judge(base, 13, cur, 4, 0.05, &j);
	ck_assert(j.threshold > 0.5);
	ck_assert_int_eq(j.verdict, VERDICT_SAME);
}
END_TEST

START_TEST(test_few)
{
	struct judgement j;
	/* one base process (a report of format 1) can never reach the level */
	double one[] = {100}, slower[] = {150, 151, 149, 150};
	judge(one, 1, slower, 4, 0.05, &j);
	ck_assert_int_eq(j.verdict, VERDICT_UNCERTAIN);
	ck_assert_int_eq(j.doubt, DOUBT_FEW_PROCESSES);
	ck_assert_double_eq_tol(j.p_min, 0.4, 1e-12);
	char why[512];
	judgement_why(&j, why, sizeof why);
	ck_assert_ptr_nonnull(strstr(why, "1 base process and 4 here can reach p = 0.4 at best"));
	ck_assert_ptr_nonnull(strstr(why, "--processes=13"));
	/* nor can it pass as the same */
	double same[] = {100, 100, 100, 100};
	judge(one, 1, same, 4, 0.05, &j);
	ck_assert_int_eq(j.verdict, VERDICT_UNCERTAIN);
	ck_assert_int_eq(j.doubt, DOUBT_FEW_PROCESSES);

	/* a process of 3 launches */
	struct proc_fig b[13], c[4];
	procs(b, tight, 13, 1980);
	procs(c, slower, 4, 1980);
	c[2].launches = 3;
	compare_judge(b, 13, c, 4, 0.05, &j);
	ck_assert_int_eq(j.verdict, VERDICT_UNCERTAIN);
	ck_assert_int_eq(j.doubt, DOUBT_FEW_LAUNCHES);

	/* no launches at all here */
	for (int i = 0; i < 4; i++)
		c[i].launches = 0;
	compare_judge(b, 13, c, 4, 0.05, &j);
	ck_assert_int_eq(j.doubt, DOUBT_NO_LAUNCHES);
	ck_assert_uint_eq(j.n, 1e-12);
}
END_TEST

START_TEST(test_clock)
{
	struct proc_fig b[13], c[4];
	struct judgement j;
	/* 10% slower in time because the clock ran 10% slower: the same in cycles */
	double slow[] = {111.1, 111.2, 111.0, 111.15};
	procs(b, tight, 13, 1980);
	procs(c, slow, 4, 1782);
	compare_judge(b, 13, c, 4, 0.05, &j);
	ck_assert_int_eq(j.verdict, VERDICT_UNCERTAIN);
	ck_assert_int_eq(j.doubt, DOUBT_CLOCK);
	ck_assert_double_eq_tol(j.clock_ratio, 0.9, 1e-9);
	ck_assert_double_eq_tol(j.shift_cycles, 1.0, 0.01);
	/* one process throttled below 90%: a clock drop, whatever the times say */
	double same[] = {100, 100.1, 99.9, 100.05};
	procs(c, same, 4, 1980);
	c[1].clock_mhz = 1500;
	compare_judge(b, 13, c, 4, 0.05, &j);
	ck_assert_int_eq(j.doubt, DOUBT_CLOCK);
	/* clocks not known (format 1 reports): judged in time alone */
	procs(b, tight, 13, NAN);
	procs(c, slow, 4, NAN);
	compare_judge(b, 13, c, 4, 0.05, &j);
	ck_assert_int_eq(j.verdict, VERDICT_SLOWER);
	ck_assert(isnan(j.clock_ratio));
}
END_TEST

START_TEST(test_reasons)
{
	struct judgement j;
	/* two of four beyond the base, two within: a new mode */
	double mode[] = {100, 100.1, 140, 150};
	judge(tight, 13, mode, 4, 0.05, &j);
	ck_assert_int_eq(j.verdict, VERDICT_UNCERTAIN);
	ck_assert_int_eq(j.doubt, DOUBT_NEW_MODE);
	/* one beyond, three within the base's wider range */
	double b2[13] = {91.9, 92.4, 93.8, 94.1, 95.1, 95.7, 95.9, 97.0, 97.3, 97.4, 99.5,
			 103.4, 108.7};
	double one[] = {113.1, 108.4, 86.5, 106.8};
	judge(b2, 13, one, 4, 0.05, &j);
	ck_assert_int_eq(j.verdict, VERDICT_UNCERTAIN);
	ck_assert_int_eq(j.doubt, DOUBT_OUTLIER);
	ck_assert_uint_eq(j.outlier, 1e-12);
	/* shifted beyond t, yet no process beyond the base's slowest */
	double b3[13] = {100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 200};
	double mid[] = {150, 150, 150, 150};
	judge(b3, 13, mid, 4, 0.05, &j);
	ck_assert_int_eq(j.verdict, VERDICT_UNCERTAIN);
	ck_assert_int_eq(j.doubt, DOUBT_SPREAD);
	/* an outlier among processes otherwise the same: the shift is robust, SAME */
	double out[] = {100.1, 99.9, 100, 150};
	judge(tight, 13, out, 4, 0.05, &j);
	ck_assert_int_eq(j.verdict, VERDICT_SAME);
}
END_TEST

static Suite *judge_suite(void)
{
	Suite *s = suite_create("compare_judge");
	TCase *tc = tcase_create("judge");
	tcase_add_test(tc, test_rank_p);
	tcase_add_test(tc, test_rank_p_min);
	tcase_add_test(tc, test_rank_shift);
	tcase_add_test(tc, test_verdicts);
	tcase_add_test(tc, test_spread_sets_threshold);
	tcase_add_test(tc, test_few);
	tcase_add_test(tc, test_clock);
	tcase_add_test(tc, test_reasons);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_MAIN(judge_suite)
