/*
 * Unit tests for a sweep's table, its CSV and throughput
 * (src/report_table.c), on point reports built by hand as the sweep's
 * core fills them: no GPU.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report_print.h"
#include "report_table.h"
#include "unit.h"
#include "xmalloc.h"

static char *captured(void (*print)(FILE *, const struct report *), const struct report *r)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	print(f, r);
	fclose(f);
	return buf;
}

static const double s1[] = {4.0e-6, 4.1e-6, 4.2e-6};
static const double s2[] = {8.0e-6, 8.2e-6, 8.4e-6};
static const double s3[] = {16.0e-6, 16.0e-6, 16.0e-6};
static const double s4[] = {1.5e-3, 1.6e-3, 1.7e-3};

static const struct axis_value ax[4][2] = {
	{{"n", "2^10"}, {"T", "f32"}},
	{{"n", "2^11"}, {"T", "f32"}},
	{{"n", "2^10"}, {"T", "f64"}},
	{{"n", "2^11"}, {"T", "f64"}},
};

/* Four points over n (first, fastest) and T, the way the core orders them. */
static void four_points(struct point_report p[4], bool tp)
{
	const double *samples[] = {s1, s2, s3, s4};
	const char *labels[] = {"n=2^10,T=f32", "n=2^11,T=f32", "n=2^10,T=f64", "n=2^11,T=f64"};
	for (int i = 0; i < 4; i++) {
		p[i] = (struct point_report){
			.label = labels[i], .axes = ax[i], .naxes = 2,
			.prep = i == 0 ? PREP_INSTANTIATE : i == 3 ? PREP_SAME : PREP_UPDATE,
			.prep_s = i == 0 ? 210e-6 : 0.9e-6,
			.updated_nodes = i == 0 ? 0 : 1,
			.first_launch_s = 20e-6,
			.samples = samples[i], .nsamples = 3,
			.checks_passed = 1,
			.bytes = tp ? 8.0 * (1024 << (i % 2)) : NAN,
			.items = tp ? 1024 << (i % 2) : NAN,
		};
	}
	p[2].checks_passed = 0;
	p[2].checks_failed = 1;
	p[2].exit_status = 1;
}

static struct report sweep_report(const struct point_report *p, size_t n, double peak)
{
	return (struct report){
		.file = "sweep.yaml", .points = p, .npoints = n, .peak_gb_per_s = peak,
		.bytes = NAN, .items = NAN,
	};
}

START_TEST(test_table_plain_columns)
{
	struct point_report p[4];
	four_points(p, false);
	struct report r = sweep_report(p, 4, 3352);
	char *out = captured(report_print_table, &r);
	ck_assert_str_eq(out,
		"  points       4 (1 instantiation, 3 updated or unchanged)\n"
		"     n  T     median      min      max  spread  prepare             checks\n"
		"  2^10  f32  4.10 us  4.00 us  4.20 us    2.4%  instantiate 210 us  1 passed\n"
		"  2^11  f32  8.20 us  8.00 us  8.40 us    2.4%  update 900 ns       1 passed\n"
		"  2^10  f64  16.0 us  16.0 us  16.0 us    0.0%  update 900 ns       1 of 1 failed\n"
		"  2^11  f64  1.60 ms  1.50 ms  1.70 ms    6.2%  same                1 passed\n"
		"  checks       1 of 4 failed\n");
	free(out);
}
END_TEST

START_TEST(test_table_throughput)
{
	struct point_report p[4];
	four_points(p, true);
	struct report r = sweep_report(p, 4, 3352);
	char *out = captured(report_print_table, &r);
	/* 8 KiB in 4.1 us is 2.00 GB/s, 0.06% of 3352; 1024 items in 4.1 us 250 M/s */
	ck_assert_ptr_nonnull(strstr(out, "  checks         GB/s  items/s  % peak\n"));
	ck_assert_ptr_nonnull(strstr(out, "instantiate 210 us  1 passed       2.00    250 M   0.06%\n"));
	ck_assert_ptr_nonnull(strstr(out, "  peak         3352 GB/s (2 x memory clock x bus width / 8)\n"));
	free(out);

	/* no peak from the driver: the percentage is "?" and the table says why */
	r.peak_gb_per_s = NAN;
	out = captured(report_print_table, &r);
	ck_assert_ptr_nonnull(strstr(out, "instantiate 210 us  1 passed       2.00    250 M       ?\n"));
	ck_assert_ptr_nonnull(strstr(out, "  peak         unknown: the driver reports no memory clock "
				     "or bus width for this device (% peak is ?)\n"));
	free(out);
}
END_TEST

START_TEST(test_table_words_left)
{
	/* an axis of words aligns left, one of numbers right; no samples: dashes */
	static const struct axis_value a[2][1] = {{{"mode", "fast"}}, {{"mode", "thorough"}}};
	struct point_report p[2] = {
		{.label = "mode=fast", .axes = a[0], .naxes = 1, .samples = s1, .nsamples = 3,
		 .bytes = NAN, .items = NAN},
		{.label = "mode=thorough", .axes = a[1], .naxes = 1, .prep = PREP_UPDATE,
		 .prep_s = 2e-6, .bytes = NAN, .items = NAN},
	};
	struct report r = sweep_report(p, 2, NAN);
	char *out = captured(report_print_table, &r);
	ck_assert_str_eq(out,
		"  points       2 (1 instantiation, 1 updated or unchanged)\n"
		"  mode       median      min      max  spread  prepare              checks\n"
		"  fast      4.10 us  4.00 us  4.20 us    2.4%  instantiate 0.00 ns  none\n"
		"  thorough        -        -        -       -  update 2.00 us       none\n"
		"  checks       none\n");
	free(out);
}
END_TEST

START_TEST(test_table_escaped)
{
	/* an axis's name and values are the user's: escaped, and aligned as printed */
	static const struct axis_value a[2][1] = {{{"m\nx", "a\033[2J"}}, {{"m\nx", "bb"}}};
	struct point_report p[2] = {
		{.label = "m\nx=a\033[2J", .axes = a[0], .naxes = 1, .bytes = NAN, .items = NAN},
		{.label = "m\nx=bb", .axes = a[1], .naxes = 1, .prep = PREP_SAME, .bytes = NAN,
		 .items = NAN},
	};
	struct report r = sweep_report(p, 2, NAN);
	char *out = captured(report_print_table, &r);
	ck_assert_str_eq(out,
		"  points       2 (1 instantiation, 1 updated or unchanged)\n"
		"  m\\nx      median  min  max  spread  prepare              checks\n"
		"  a\\x1b[2J       -    -    -       -  instantiate 0.00 ns  none\n"
		"  bb             -    -    -       -  same                 none\n"
		"  checks       none\n");
	free(out);
}
END_TEST

START_TEST(test_human_sweep)
{
	/* a sweep's report: the table in place of the first launch and launch lines */
	struct point_report p[4];
	four_points(p, false);
	struct report r = sweep_report(p, 4, 3352);
	r.name = "sweep";
	char *out = captured(report_print_human, &r);
	ck_assert_ptr_nonnull(strstr(out, "sweep  (sweep.yaml)\n  phases "));
	ck_assert_ptr_null(strstr(out, "first launch"));
	ck_assert_ptr_null(strstr(out, "launch   "));
	ck_assert_ptr_nonnull(strstr(out, "  points       4 "));
	free(out);
}
END_TEST

START_TEST(test_throughput_of)
{
	struct throughput t;
	throughput_of(3352e9, 1e6, 1.0, 3352, &t);
	ck_assert_double_eq_tol(t.gb_per_s, 3352, 1e-9);
	ck_assert_double_eq_tol(t.items_per_s, 1e6, 1e-9);
	ck_assert_double_eq_tol(t.peak_percent, 100, 1e-9);
	/* items only: no GB/s and so no percentage */
	throughput_of(NAN, 500, 2e-6, 3352, &t);
	ck_assert(isnan(t.gb_per_s) && isnan(t.peak_percent));
	ck_assert_double_eq_tol(t.items_per_s, 2.5e8, 1e-3);
	/* no timed launch: nothing, not infinity */
	throughput_of(1e9, 1e3, 0, 3352, &t);
	ck_assert(isnan(t.gb_per_s) && isnan(t.items_per_s) && isnan(t.peak_percent));
	ck_assert(throughput_declared(0, NAN));
	ck_assert(!throughput_declared(NAN, NAN));
}
END_TEST

START_TEST(test_format_si)
{
	static const struct { double v; const char *want; } cases[] = {
		{0, "0.00"}, {12.345, "12.3"}, {999.4, "999"}, {999.5, "1.00 k"},
		{2.5e8, "250 M"}, {1.234e9, "1.23 G"}, {5e15, "5.00 P"}, {5e18, "5000 P"},
		{NAN, "-"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char buf[32];
		format_si(cases[i].v, buf, sizeof buf);
		ck_assert_msg(strcmp(buf, cases[i].want) == 0, "%g: %s, want %s", cases[i].v,
			      buf, cases[i].want);
	}
}
END_TEST

static char *csv_of(const struct report *r)
{
	char path[] = "/tmp/check_report_table.XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(report_write_csv(path, r), 0);
	FILE *f = fopen(path, "r");
	char *buf = xcalloc(1, 8192);
	size_t n = fread(buf, 1, 8191, f);
	buf[n] = '\0';
	fclose(f);
	unlink(path);
	return buf;
}

START_TEST(test_csv_sweep)
{
	struct point_report p[4];
	four_points(p, true);
	struct report r = sweep_report(p, 4, 3352);
	char *csv = csv_of(&r);
	const char *want_head =
		"n,T,label,median_s,min_s,mean_s,max_s,stddev_s,spread_percent,samples,prepare,"
		"prepare_s,updated_nodes,first_launch_s,checks_passed,checks_failed,bytes,items,"
		"gb_per_s,items_per_s,peak_percent,exit_status\r\n";
	ck_assert_int_eq(strncmp(csv, want_head, strlen(want_head)), 0);
	/* the label holds a comma: quoted; figures at full precision */
	ck_assert_ptr_nonnull(strstr(csv,
		"\r\n2^10,f32,\"n=2^10,T=f32\",4.1e-06,4e-06,4.1e-06,4.2e-06,1e-07,2.43902439,3,"
		"instantiate,0.00021,0,2e-05,1,0,8192,1024,1.99804878,249756098,0.0596076605,0\r\n"));
	ck_assert_ptr_nonnull(strstr(csv,
		"\r\n2^10,f64,\"n=2^10,T=f64\",1.6e-05,1.6e-05,1.6e-05,1.6e-05,0,0,3,update,9e-07,1,"
		"2e-05,0,1,"));
	ck_assert_ptr_nonnull(strstr(csv, ",1\r\n2^11,f64,"));
	/* a header and four rows */
	int lines = 0;
	for (const char *q = csv; (q = strstr(q, "\r\n")); q += 2)
		lines++;
	ck_assert_int_eq(lines, 5);
	free(csv);
}
END_TEST

START_TEST(test_csv_plain_and_unknown)
{
	/* a plain file: one row, no axis columns, empty cells for what is unknown */
	static const double s[] = {1e-3, 3e-3};
	struct report r = {
		.file = "one.yaml", .samples = s, .nsamples = 2, .first_launch_s = 2e-3,
		.checks_passed = 2, .bytes = 4e6, .items = NAN, .peak_gb_per_s = NAN,
	};
	char *csv = csv_of(&r);
	ck_assert_str_eq(csv,
		"label,median_s,min_s,mean_s,max_s,stddev_s,spread_percent,samples,prepare,"
		"prepare_s,updated_nodes,first_launch_s,checks_passed,checks_failed,bytes,items,"
		"gb_per_s,items_per_s,peak_percent,exit_status\r\n"
		",0.002,0.001,0.002,0.003,0.00141421356,70.7106781,2,,,,0.002,2,0,4000000,,2,,,0\r\n");
	free(csv);
}
END_TEST

START_TEST(test_csv_quoting)
{
	static const struct axis_value a[1][1] = {{{"name, \"q\"", "a\"b"}}};
	struct point_report p = {.label = "x\ny", .axes = a[0], .naxes = 1,
				 .bytes = NAN, .items = NAN};
	struct report r = sweep_report(&p, 1, NAN);
	char *csv = csv_of(&r);
	ck_assert_int_eq(strncmp(csv, "\"name, \"\"q\"\"\",label,", 20), 0);
	ck_assert_ptr_nonnull(strstr(csv, "\r\n\"a\"\"b\",\"x\ny\",,,,,,,0,instantiate,"));
	free(csv);
}
END_TEST

START_TEST(test_csv_unwritable)
{
	struct report r = sweep_report(NULL, 0, NAN);
	ck_assert_int_eq(report_write_csv("/nonexistent/dir/x.csv", &r), 2);
}
END_TEST

static Suite *table_suite(void)
{
	Suite *s = suite_create("report_table");
	TCase *tc = tcase_create("table");
	tcase_add_test(tc, test_table_plain_columns);
	tcase_add_test(tc, test_table_throughput);
	tcase_add_test(tc, test_table_words_left);
	tcase_add_test(tc, test_table_escaped);
	tcase_add_test(tc, test_human_sweep);
	tcase_add_test(tc, test_throughput_of);
	tcase_add_test(tc, test_format_si);
	suite_add_tcase(s, tc);
	tc = tcase_create("csv");
	tcase_add_test(tc, test_csv_sweep);
	tcase_add_test(tc, test_csv_plain_and_unknown);
	tcase_add_test(tc, test_csv_quoting);
	tcase_add_test(tc, test_csv_unwritable);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_MAIN(table_suite)
