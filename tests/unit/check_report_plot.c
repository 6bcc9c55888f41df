/*
 * --plot (src/report_plot.c) on point reports built by hand: the script
 * it gives gnuplot, and a real rendering by gnuplot, checked as XML with
 * python3 (well-formed, an <svg> root, a title per series).  Exit 77
 * (skipped) without gnuplot or python3, which renders need.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "report.h"
#include "report_plot.h"
#include "unit.h"
#include "xmalloc.h"

static const double t1[] = {10e-6, 11e-6, 12e-6}, t2[] = {20e-6, 21e-6, 22e-6},
	t3[] = {40e-6, 41e-6, 42e-6}, t4[] = {80e-6};

static const struct axis_value ax[6][2] = {
	{{"n", "2^10"}, {"T", "f32"}}, {{"n", "2^11"}, {"T", "f32"}}, {{"n", "2^12"}, {"T", "f32"}},
	{{"n", "2^10"}, {"T", "f64"}}, {{"n", "2^11"}, {"T", "f64"}}, {{"n", "2^12"}, {"T", "f64"}},
};

/* Six points over n (pow2, first) and T; throughput declared when tp. */
static struct report sweep(struct point_report p[6], bool tp)
{
	const double *s[] = {t1, t2, t3, t2, t3, t4};
	for (int i = 0; i < 6; i++)
		p[i] = (struct point_report){
			.label = "", .axes = ax[i], .naxes = 2, .samples = s[i],
			.nsamples = s[i] == t4 ? 1 : 3,
			.bytes = tp ? 4096.0 * (1 << (i % 3)) : NAN, .items = NAN,
		};
	return (struct report){.name = "saxpy", .file = "saxpy.yaml", .points = p, .npoints = 6,
			       .peak_gb_per_s = 3352};
}

static char *script_of(const struct report *r)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	report_plot_script(f, r);
	fclose(f);
	return buf;
}

/*
 * This process's CPU time, in seconds: what a bound on work measures,
 * whatever else the machine runs (wall time on a busy one is not).
 */
static double cpu_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

START_TEST(test_script_pow2)
{
	struct point_report p[6];
	struct report r = sweep(p, false);
	char *s = script_of(&r);
	ck_assert_ptr_nonnull(strstr(s, "set terminal svg size 800,460 "));
	ck_assert_ptr_nonnull(strstr(s, "set xlabel 'n'\n"));
	ck_assert_ptr_nonnull(strstr(s, "set logscale x 2\nset format x '2^%L'\n"));
	ck_assert_ptr_nonnull(strstr(s, "set title 'saxpy (saxpy.yaml)'\n"));
	ck_assert_ptr_nonnull(strstr(s, "set ylabel 'median launch time (us)'\n"));
	/* a line per T, its points in n's order, medians in us */
	ck_assert_ptr_nonnull(strstr(s, "$t0 << EOD\n1024 11\n2048 21\n4096 41\nEOD\n"));
	ck_assert_ptr_nonnull(strstr(s, "$t1 << EOD\n1024 21\n2048 41\n4096 80\nEOD\n"));
	ck_assert_ptr_nonnull(strstr(s, "plot $t0 using 1:2 with linespoints pointtype 7 title "
				     "'T=f32', \\\n     $t1 using 1:2 with linespoints pointtype 7 "
				     "title 'T=f64'\n"));
	ck_assert_ptr_null(strstr(s, "multiplot"));
	/* medians 8 times apart: the time axis from 0, not a log scale */
	ck_assert_ptr_nonnull(strstr(s, "set yrange [0:*]\n"));
	ck_assert_ptr_null(strstr(s, "logscale y"));
	free(s);
}
END_TEST

/*
 * Medians more than 30 times apart (a graph's 13 us against stream
 * launches' 5 ms) on a log scale, the lower line not flattened onto the
 * axis; the GB/s panel below it linear again, from 0.
 */
START_TEST(test_script_log_y)
{
	static const double fast[] = {10e-6}, slow[] = {5e-3};
	static const struct axis_value m[2][1] = {{{"mode", "graph"}}, {{"mode", "stream"}}};
	struct point_report q[2] = {
		{.label = "mode=graph", .axes = m[0], .naxes = 1, .samples = fast, .nsamples = 1,
		 .bytes = 4096, .items = NAN},
		{.label = "mode=stream", .axes = m[1], .naxes = 1, .samples = slow, .nsamples = 1,
		 .bytes = 4096, .items = NAN},
	};
	struct report r = {.file = "m.yaml", .points = q, .npoints = 2, .peak_gb_per_s = 3352};
	char *s = script_of(&r);
	const char *log = strstr(s, "set logscale y 10\nset yrange [*:*]\n");
	const char *lin = strstr(s, "unset logscale y\nset yrange [0:*]\nset title 'throughput'\n");
	ck_assert_ptr_nonnull(log);
	ck_assert_ptr_nonnull(lin);
	ck_assert(log < strstr(s, "$t0 << EOD\n0 0.01\n"));
	ck_assert(lin < strstr(s, "$g0 << EOD\n"));
	free(s);
	/* 29 times stays linear */
	static const double near[] = {290e-6};
	q[1].samples = near;
	s = script_of(&r);
	ck_assert_ptr_null(strstr(s, "logscale y"));
	free(s);
}
END_TEST

START_TEST(test_script_throughput_words)
{
	/* throughput: a second panel of GB/s */
	struct point_report p[6];
	struct report r = sweep(p, true);
	char *s = script_of(&r);
	ck_assert_ptr_nonnull(strstr(s, "set multiplot layout 2,1\n"));
	ck_assert_ptr_nonnull(strstr(s, "set ylabel 'GB/s'\n$g0 << EOD\n1024 0.372363636\n"));
	ck_assert_ptr_nonnull(strstr(s, "unset multiplot\n"));
	free(s);

	/* an axis of words: evenly spaced, named; one axis only: one line named "median" */
	static const struct axis_value w[2][1] = {{{"mode", "fast 'x'"}}, {{"mode", "slow"}}};
	struct point_report q[2] = {
		{.label = "mode=fast 'x'", .axes = w[0], .naxes = 1, .samples = t1, .nsamples = 3,
		 .bytes = NAN, .items = NAN},
		{.label = "mode=slow", .axes = w[1], .naxes = 1, .samples = t2, .nsamples = 3,
		 .bytes = NAN, .items = NAN},
	};
	struct report r2 = {.file = "m.yaml", .points = q, .npoints = 2};
	s = script_of(&r2);
	ck_assert_ptr_nonnull(strstr(s, "set xtics ('fast ''x''' 0, 'slow' 1)\n"
				     "set xrange [-0.5:1.5]\n"));
	ck_assert_ptr_null(strstr(s, "logscale"));
	ck_assert_ptr_nonnull(strstr(s, "$t0 << EOD\n0 11\n1 21\nEOD\n"));
	ck_assert_ptr_nonnull(strstr(s, "title 'median'\n"));
	free(s);
}
END_TEST

/*
 * Medians too long for the unit's text: 1e30 s made the axis's unit 33
 * bytes, cut to 31 without its space, and the script read address 0x1
 * (issue 30, item 2).  Every size of median gets its unit.
 */
START_TEST(test_huge_median)
{
	static const double huge[][2] = {{1e30, 1e30}, {1.7e308, 1.7e308}, {1e-300, 1e-300}};
	static const char *const units[] = {"s", "s", "ns"};
	static const struct axis_value a[] = {{"n", "1"}};
	for (size_t i = 0; i < sizeof huge / sizeof *huge; i++) {
		struct point_report p = {.axes = a, .naxes = 1, .samples = huge[i], .nsamples = 2,
					 .bytes = NAN, .items = NAN};
		struct report r = {.file = "h.yaml", .points = &p, .npoints = 1};
		char *s = script_of(&r);
		char want[64];
		snprintf(want, sizeof want, "set ylabel 'median launch time (%s)'\n", units[i]);
		ck_assert_msg(strstr(s, want) != NULL, "%s", s);
		free(s);
	}
}
END_TEST

/*
 * Words and lines in the order they first come, whatever order the points
 * take; each line's rows in the points' order.
 */
START_TEST(test_layout_order)
{
	static const struct axis_value a[4][2] = {
		{{"m", "b"}, {"T", "1"}}, {{"m", "a"}, {"T", "2"}},
		{{"m", "b"}, {"T", "2"}}, {{"m", "a"}, {"T", "1"}},
	};
	const double *s[] = {t1, t2, t3, t4};
	struct point_report p[4];
	for (int i = 0; i < 4; i++)
		p[i] = (struct point_report){.axes = a[i], .naxes = 2, .samples = s[i],
					     .nsamples = s[i] == t4 ? 1 : 3, .bytes = NAN,
					     .items = NAN};
	struct report r = {.file = "o.yaml", .points = p, .npoints = 4};
	char *sc = script_of(&r);
	ck_assert_msg(strstr(sc, "set xtics ('b' 0, 'a' 1)\n") != NULL, "%s", sc);
	ck_assert_msg(strstr(sc, "$t0 << EOD\n0 11\n1 80\nEOD\n$t1 << EOD\n1 21\n0 41\nEOD\n")
		      != NULL, "%s", sc);
	ck_assert_ptr_nonnull(strstr(sc, "title 'T=1', \\\n     $t1 using 1:2 with linespoints "
				     "pointtype 7 title 'T=2'\n"));
	free(sc);
}
END_TEST

/*
 * The layout in O(n log n): 50,000 points, each a word of its own on a
 * line of its own, were looked up among the words and lines so far, 11.7 s
 * (issue 30, item 5).  Now well under a second of CPU; the bound leaves
 * room for the sanitizers.
 */
START_TEST(test_layout_large)
{
	size_t n = 50000;
	struct point_report *p = xcalloc(n, sizeof *p);
	struct axis_value *a = xcalloc(2 * n, sizeof *a);
	char **text = xcalloc(2 * n, sizeof *text);
	for (size_t i = 0; i < n; i++) {
		text[2 * i] = xasprintf("w%zu", i);
		text[2 * i + 1] = xasprintf("%zu", i);
		a[2 * i] = (struct axis_value){"m", text[2 * i]};
		a[2 * i + 1] = (struct axis_value){"v", text[2 * i + 1]};
		p[i] = (struct point_report){.axes = &a[2 * i], .naxes = 2, .samples = t1,
					     .nsamples = 3, .bytes = NAN, .items = NAN};
	}
	struct report r = {.file = "l.yaml", .points = p, .npoints = n};
	double t0 = cpu_seconds();
	char *sc = script_of(&r);
	double secs = cpu_seconds() - t0;
	ck_assert_msg(secs < 3, "%.2f s of CPU for %zu points", secs, n);
	ck_assert_ptr_nonnull(strstr(sc, "$t49999 << EOD\n49999 11\nEOD\n"));
	free(sc);
	for (size_t i = 0; i < 2 * n; i++)
		free(text[i]);
	free(text);
	free(a);
	free(p);
}
END_TEST

START_TEST(test_no_points)
{
	/* a plain file: one point without a label, or none at all */
	static const double t[] = {1e-6};
	struct point_report one = {.samples = t, .nsamples = 1, .bytes = NAN, .items = NAN};
	struct report r = {.file = "plain.yaml", .points = &one, .npoints = 1};
	ck_assert_int_eq(report_plot("/tmp/never.svg", &r), 2);
	r.npoints = 0;
	ck_assert_int_eq(report_plot("/tmp/never.svg", &r), 2);
	ck_assert_int_ne(access("/tmp/never.svg", F_OK), 0);
}
END_TEST

START_TEST(test_missing_gnuplot)
{
	/* GNUPLOT naming nothing that runs: a clear 2, no file */
	struct point_report p[6];
	struct report r = sweep(p, false);
	setenv("GNUPLOT", "/nonexistent/gnuplot", 1);
	ck_assert_int_eq(report_plot_check(), 2);
	ck_assert_int_eq(report_plot("/tmp/check_plot_missing.svg", &r), 2);
	ck_assert_int_ne(access("/tmp/check_plot_missing.svg", F_OK), 0);
	/* a gnuplot that fails: no half-written file is left */
	setenv("GNUPLOT", "false", 1);
	ck_assert_int_eq(report_plot_check(), 0);
	ck_assert_int_eq(report_plot("/tmp/check_plot_false.svg", &r), 2);
	ck_assert_int_ne(access("/tmp/check_plot_false.svg", F_OK), 0);
	/* nor is an older plot lost, nor a temporary file left beside it */
	char dir[] = "/tmp/check_plot.XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char *svg = xasprintf("%s/old.svg", dir);
	FILE *f = fopen(svg, "w");
	ck_assert_ptr_nonnull(f);
	fputs("<svg>old</svg>\n", f);
	fclose(f);
	ck_assert_int_eq(report_plot(svg, &r), 2);
	char got[64] = "";
	f = fopen(svg, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(fgets(got, sizeof got, f));
	fclose(f);
	ck_assert_str_eq(got, "<svg>old</svg>\n");
	unlink(svg);
	ck_assert_int_eq(rmdir(dir), 0);
	free(svg);
	unsetenv("GNUPLOT");
}
END_TEST

static bool can_render(void)
{
	char prog[4096];
	return plot_program(prog, sizeof prog) &&
		system("command -v \"${PYTHON3:-python3}\" >/dev/null 2>&1") == 0;
}

/* python3 on the SVG: an <svg> root and each series' title, or it exits 1. */
static int svg_check(const char *path, const char *titles)
{
	char *cmd = xasprintf(
		"\"${PYTHON3:-python3}\" -c '\n"
		"import sys, xml.etree.ElementTree as ET\n"
		"root = ET.parse(sys.argv[1]).getroot()\n"
		"assert root.tag == \"{http://www.w3.org/2000/svg}svg\", root.tag\n"
		"text = \" \".join(\" \".join(e.itertext()) for e in root.iter())\n"
		"for t in sys.argv[2].split(\"|\"):\n"
		"    assert t in text, t\n"
		"' '%s' '%s'", path, titles);
	int rc = system(cmd);
	free(cmd);
	return rc;
}

START_TEST(test_render)
{
	if (!can_render())
		return;
	struct point_report p[6];
	struct report r = sweep(p, true);
	char path[] = "/tmp/check_plot.XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(report_plot(path, &r), 0);
	ck_assert_int_eq(svg_check(path, "T=f32|T=f64|saxpy (saxpy.yaml)|throughput|GB/s|"
				   "median launch time (us)|2^10|2^12"), 0);
	/* the check itself can fail: a title that is not there */
	ck_assert_int_ne(svg_check(path, "T=f16"), 0);
	unlink(path);
}
END_TEST

/*
 * Names, paths and axis values from a graph file or a stored report that
 * would run commands in a gnuplot double-quoted string (`...`), expand
 * macros (@x), call system(), or break out of their quotes and lines.
 * MARK is where the commands would leave a file.
 */
#define MARK "/tmp/check_plot_pwned"
static const struct axis_value evil_ax[2][2] = {
	{{"a`touch " MARK "1`", "v`touch " MARK "2`"}, {"b\"@x", "'; system(\"touch " MARK "3\") #"}},
	{{"a`touch " MARK "1`", "w\nset output '/tmp/x'"}, {"b\"@x", "\\`touch " MARK "4`"}},
};

static struct report evil(struct point_report q[2])
{
	for (int i = 0; i < 2; i++)
		q[i] = (struct point_report){.label = "evil", .axes = evil_ax[i], .naxes = 2,
					     .samples = t1, .nsamples = 3, .bytes = NAN, .items = NAN};
	return (struct report){.name = "n`touch " MARK "5` it's \"q\" \x1b[2J\nx",
			       .file = "f`touch " MARK "6`.yaml", .points = q, .npoints = 2};
}

/*
 * The first byte of script s that gnuplot would read as live outside a
 * single-quoted string (a double quote, a backtick, a macro's @), or a
 * string running over its line; NULL when every string is inert.
 */
static const char *live_at(const char *s)
{
	bool in = false;
	for (const char *c = s; *c; c++) {
		if (in && *c == '\n')
			return c;
		if (in && *c == '\'' && c[1] == '\'')
			c++;
		else if (*c == '\'')
			in = !in;
		else if (!in && (*c == '"' || *c == '`' || *c == '@'))
			return c;
	}
	return NULL;
}

START_TEST(test_hostile_script)
{
	struct point_report q[2];
	struct report r = evil(q);
	char *s = script_of(&r);
	const char *at = live_at(s);
	ck_assert_msg(at == NULL, "live text at offset %td of:\n%s", at - s, s);
	/* drawn as written: quotes doubled, control bytes as visible escapes */
	ck_assert_ptr_nonnull(strstr(s, "set title 'n`touch " MARK "5` it''s \"q\" \\x1b[2J\\nx "
				     "(f`touch " MARK "6`.yaml)'\n"));
	ck_assert_ptr_nonnull(strstr(s, "'w\\nset output ''/tmp/x''' 1"));
	ck_assert_ptr_nonnull(strstr(s, "set xlabel 'a`touch " MARK "1`'\n"));
	/* the check can fail: what the double-quoted strings of old gave */
	ck_assert_ptr_nonnull(live_at("set title \"n`touch x`\"\n"));
	ck_assert_ptr_nonnull(live_at("set title 'a\nb'\n"));
	free(s);
}
END_TEST

START_TEST(test_hostile_render)
{
	if (!can_render())
		return;
	char m[64];
	for (char i = '1'; i <= '6'; i++) {
		snprintf(m, sizeof m, MARK "%c", i);
		unlink(m);
	}
	struct point_report q[2];
	struct report r = evil(q);
	char path[] = "/tmp/check_plot.XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(report_plot(path, &r), 0);
	for (char i = '1'; i <= '6'; i++) {
		snprintf(m, sizeof m, MARK "%c", i);
		ck_assert_msg(access(m, F_OK) != 0, "gnuplot ran a command from a label: %s", m);
	}
	ck_assert_int_eq(svg_check(path, "f`touch " MARK "6`.yaml|a`touch " MARK "1`|"
				   "v`touch " MARK "2`"), 0);
	unlink(path);
}
END_TEST

static Suite *plot_suite(void)
{
	Suite *s = suite_create("report_plot");
	TCase *tc = tcase_create("plot");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_script_pow2);
	tcase_add_test(tc, test_script_throughput_words);
	tcase_add_test(tc, test_script_log_y);
	tcase_add_test(tc, test_huge_median);
	tcase_add_test(tc, test_layout_order);
	tcase_add_test(tc, test_layout_large);
	tcase_add_test(tc, test_no_points);
	tcase_add_test(tc, test_missing_gnuplot);
	tcase_add_test(tc, test_render);
	tcase_add_test(tc, test_hostile_script);
	tcase_add_test(tc, test_hostile_render);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(plot_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	if (failed)
		return EXIT_FAILURE;
	/* the script is checked everywhere; without gnuplot no SVG was: say so */
	if (!can_render()) {
		printf("SKIP: no gnuplot (Debian: gnuplot-nox) or python3: no SVG rendered\n");
		return 77;
	}
	return EXIT_SUCCESS;
}
