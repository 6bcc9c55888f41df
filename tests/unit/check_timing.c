/*
 * Unit tests of the timing's parts that need no GPU: the stopping rule
 * (stop_rule.h), the per-process record (proc_record.h: its figures, its
 * JSON, its file, merging processes' records) and the rounds of
 * --processes (suite_rounds.h: the order of the files, the role of each
 * run, what samples come to, the options of a sample).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "proc_record.h"
#include "rng.h"
#include "stats.h"
#include "stop_rule.h"
#include "suite_rounds.h"
#include "unit.h"
#include "xmalloc.h"

/* The stopping rule ------------------------------------------------------ */

START_TEST(test_interval_ranks)
{
	/* the textbook ranks (1-based 1-6, 2-9, 6-15, 40-61), 0-based here */
	static const struct {
		size_t n, lo, hi;
	} want[] = {{6, 0, 5}, {10, 1, 8}, {20, 5, 14}, {100, 39, 60}};
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		size_t lo, hi;
		ck_assert(median_interval_ranks(want[i].n, &lo, &hi));
		ck_assert_msg(lo == want[i].lo && hi == want[i].hi, "n=%zu: %zu-%zu", want[i].n,
			      lo, hi);
	}
	size_t lo = 7, hi = 7;
	/* 5 values: even the widest pair covers the median only 93.75% of the time */
	ck_assert(!median_interval_ranks(5, &lo, &hi));
	ck_assert(!median_interval_ranks(0, &lo, &hi));
	/* 100,000: the normal approximation, n/2 - 0.98 sqrt(n), within a rank */
	ck_assert(median_interval_ranks(100000, &lo, &hi));
	double approx = 50000 - 0.98 * sqrt(100000.0);
	ck_assert_msg(fabs((double)lo - approx) <= 1.5, "lo %zu, about %.1f", lo, approx);
	ck_assert_uint_eq(hi, 100000 - 1 - lo);
}
END_TEST

/* The interval holds the true median at least 95% of the time, whatever the distribution. */
START_TEST(test_interval_coverage)
{
	struct rng r;
	rng_seed(&r, 32);
	double v[30];
	unsigned held = 0, trials = 20000;
	size_t lo, hi;
	ck_assert(median_interval_ranks(30, &lo, &hi));
	for (unsigned t = 0; t < trials; t++) {
		/* exponential, whose median is ln 2: skewed, as launch times are */
		for (size_t i = 0; i < 30; i++)
			v[i] = -log(1 - (double)(rng_next(&r) >> 11) * 0x1p-53);
		stats_sort(v, 30);
		held += v[lo] <= log(2.0) && log(2.0) <= v[hi];
	}
	ck_assert_msg(held >= trials * 95 / 100, "covered %u of %u", held, trials);
}
END_TEST

START_TEST(test_precision)
{
	double v[20];
	for (int i = 0; i < 20; i++)
		v[i] = 100 + i;         /* median 109.5; 95% ranks 5 and 14: 105 and 114 */
	ck_assert_double_eq_tol(median_precision(v, 20), 4.5 / 109.5, 1e-12);
	ck_assert(isnan(median_precision(v, 5)));
	double zero[6] = {0};
	ck_assert(isnan(median_precision(zero, 6)));
}
END_TEST

START_TEST(test_first_batch)
{
	const struct stop_rule counted = {.counted = true, .count = 7}, open = {0};
	ck_assert_uint_eq(stop_first_batch(&counted, 1.0), 7);
	ck_assert_uint_eq(stop_first_batch(&open, 1e-6), STOP_FIRST_BATCH);
	ck_assert_uint_eq(stop_first_batch(&open, 0), STOP_FIRST_BATCH);
	/* 10 ms a launch: 20 fit in the cap of 0.2 s */
	ck_assert_uint_eq(stop_first_batch(&open, 0.01), 20);
	/* a second a launch: the minimum all the same */
	ck_assert_uint_eq(stop_first_batch(&open, 1.0), STOP_MIN_LAUNCHES);
}
END_TEST

/* n samples, sorted: 1 plus spread, evenly. */
static double *spread_samples(size_t n, double spread)
{
	double *v = xcalloc(n, sizeof *v);
	for (size_t i = 0; i < n; i++)
		v[i] = 1e-5 * (1 + spread * ((double)i / (double)(n - 1) - 0.5));
	return v;
}

START_TEST(test_stop_after_batch)
{
	const struct stop_rule counted = {.counted = true, .count = 50}, open = {0};
	enum stop_reason why;
	uint32_t next;
	double prec;
	double *tight = spread_samples(50, 0.001), *wide = spread_samples(50, 0.5);
	/* a count stops after its batch, however noisy */
	ck_assert(stop_after_batch(&counted, wide, 50, 1e-3, &why, &next, &prec));
	ck_assert_int_eq(why, STOP_COUNT);
	/* tight launches: precise enough at once */
	ck_assert(stop_after_batch(&open, tight, 50, 5e-4, &why, &next, &prec));
	ck_assert_int_eq(why, STOP_PRECISION);
	ck_assert(prec <= STOP_TARGET);
	/* 50% spread: not yet, and the next batch doubles the launches */
	ck_assert(!stop_after_batch(&open, wide, 50, 5e-4, &why, &next, &prec));
	ck_assert_uint_eq(next, 50);
	ck_assert(prec > STOP_TARGET);
	/* the time left holds fewer: 0.16 s over 50 is 3.2 ms each, 0.04 s left holds 13 */
	ck_assert(!stop_after_batch(&open, wide, 50, 0.16, &why, &next, &prec));
	ck_assert_uint_eq(next, 13);
	/* the cap passed */
	ck_assert(stop_after_batch(&open, wide, 50, STOP_CAP_S, &why, &next, &prec));
	ck_assert_int_eq(why, STOP_TIME);
	free(tight);
	free(wide);
	/* the most launches: two modes, whose median no count of launches pins down */
	double *many = spread_samples(STOP_MAX_LAUNCHES, 0.5);
	for (size_t i = 0; i < STOP_MAX_LAUNCHES; i++)
		many[i] = i < STOP_MAX_LAUNCHES / 2 ? 1e-5 : 2e-5;
	ck_assert(stop_after_batch(&open, many, STOP_MAX_LAUNCHES, STOP_CAP_S / 2, &why, &next,
				   &prec));
	ck_assert_int_eq(why, STOP_LIMIT);
	/* a batch is at most STOP_MAX_BATCH, and never past the most */
	ck_assert(!stop_after_batch(&open, many + STOP_MAX_LAUNCHES / 2 - 10000, 20000, 0.01,
				    &why, &next, &prec));
	ck_assert_uint_eq(next, STOP_MAX_BATCH);
	ck_assert(!stop_after_batch(&open, many + 50, STOP_MAX_LAUNCHES - 100, 0.01, &why, &next,
				    &prec));
	ck_assert_uint_eq(next, 100);
	free(many);
}
END_TEST

/* The per-process record ------------------------------------------------- */

static struct proc_record record(uint32_t point, int32_t pid, double median)
{
	struct proc_record r = {.point = point, .pid = pid, .launches = 50,
				.stopped_by = STOP_PRECISION, .driver_version = 13000,
				.median_s = median, .p10_s = median * 0.98, .iqr_s = median * 0.01,
				.precision = 0.0021, .clock_before_mhz = 1980,
				.clock_after_mhz = 1965};
	return r;
}

START_TEST(test_record_figures)
{
	static const double s[] = {5, 1, 4, 2, 3, 10, 6, 8, 7, 9};
	struct proc_record r;
	memset(&r, 0, sizeof r);
	proc_record_figures(&r, s, 10);
	ck_assert_uint_eq(r.launches, 10);
	ck_assert_double_eq(r.median_s, 5.5);
	/* 10th percentile between the 1st and 2nd values; quartiles 3.25 and 7.75 */
	ck_assert_double_eq_tol(r.p10_s, 1.9, 1e-12);
	ck_assert_double_eq_tol(r.iqr_s, 4.5, 1e-12);
	ck_assert_double_eq_tol(r.precision, (9.0 - 2.0) / 2 / 5.5, 1e-12);
	proc_record_figures(&r, NULL, 0);
	ck_assert(r.launches == 0 && isnan(r.median_s) && isnan(r.p10_s) && isnan(r.iqr_s) &&
		  isnan(r.precision));
	r.clock_before_mhz = NAN;
	r.clock_after_mhz = 1500;
	ck_assert_double_eq(proc_record_clock(&r), 1500);
	r.clock_after_mhz = NAN;
	ck_assert(isnan(proc_record_clock(&r)));
}
END_TEST

static char *captured_json(const struct proc_record *recs, size_t n, int depth)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	proc_records_json(f, recs, n, depth);
	fclose(f);
	return text;
}

START_TEST(test_record_json)
{
	struct proc_record r[2] = {record(0, 4242, 20e-6), record(0, 4243, 21e-6)};
	for (int i = 0; i < 16; i++)
		r[0].uuid[i] = (uint8_t)(0x10 * i + i);
	r[0].has_uuid = 1;
	r[1].stopped_by = STOP_TIME;
	r[1].precision = NAN;
	r[1].clock_after_mhz = NAN;
	char *text = captured_json(r, 2, 1);
	ck_assert_str_eq(text,
		"[\n"
		"    {\"pid\": 4242, \"launches\": 50, \"stopped_by\": \"precision\", "
		"\"precision_percent\": 0.21, \"median_s\": 2e-05, \"p10_s\": 1.96e-05, "
		"\"iqr_s\": 2e-07, \"sm_clock_mhz\": 1972.5, \"sm_clock_before_mhz\": 1980, "
		"\"sm_clock_after_mhz\": 1965, "
		"\"gpu_uuid\": \"GPU-00112233-4455-6677-8899-aabbccddeeff\", "
		"\"driver_version\": 13000},\n"
		"    {\"pid\": 4243, \"launches\": 50, \"stopped_by\": \"time\", "
		"\"precision_percent\": null, \"median_s\": 2.1e-05, \"p10_s\": 2.058e-05, "
		"\"iqr_s\": 2.1e-07, \"sm_clock_mhz\": 1980, \"sm_clock_before_mhz\": 1980, "
		"\"sm_clock_after_mhz\": null, \"gpu_uuid\": null, \"driver_version\": 13000}\n"
		"  ]");
	free(text);
	text = captured_json(r, 0, 3);
	ck_assert_str_eq(text, "[]");
	free(text);
}
END_TEST

START_TEST(test_records_merge)
{
	/* two earlier processes of a two-point sweep, and this one's */
	const struct proc_record prior[] = {
		record(0, 1, 1), record(1, 1, 2), record(0, 2, 3), record(1, 2, 4),
	};
	const struct proc_record own[] = {record(0, 3, 5), record(1, 3, 6)};
	size_t n;
	struct proc_record *all = proc_records_merge(prior, 4, own, 2, &n);
	ck_assert_uint_eq(n, 6);
	/* by point, then in the order the processes ran: this one last */
	static const int32_t pids[] = {1, 2, 3, 1, 2, 3};
	static const uint32_t points[] = {0, 0, 0, 1, 1, 1};
	for (size_t i = 0; i < n; i++)
		ck_assert(all[i].pid == pids[i] && all[i].point == points[i]);
	size_t k;
	const struct proc_record *p1 = proc_records_of(all, n, 1, &k);
	ck_assert_uint_eq(k, 3);
	ck_assert(p1 == all + 3);
	proc_records_of(all, n, 2, &k);
	ck_assert_uint_eq(k, 0);
	free(all);
	/* nothing earlier: this one's alone */
	all = proc_records_merge(NULL, 0, own, 2, &n);
	ck_assert(n == 2 && all[0].pid == 3 && all[1].point == 1);
	free(all);
}
END_TEST

START_TEST(test_records_file)
{
	char path[] = "/tmp/check_timing_procs_XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	unlink(path);
	struct proc_record *recs;
	size_t n;
	/* no file yet: no records, no error */
	ck_assert_int_eq(proc_records_read(path, &recs, &n), 0);
	ck_assert_uint_eq(n, 0);
	free(recs);
	/* two processes append, and every record reads back as written */
	const struct proc_record a[] = {record(0, 11, 1e-6), record(1, 11, 2e-6)};
	const struct proc_record b[] = {record(0, 12, 3e-6), record(1, 12, 4e-6)};
	ck_assert_int_eq(proc_records_append(path, a, 2), 0);
	ck_assert_int_eq(proc_records_append(path, b, 2), 0);
	ck_assert_int_eq(proc_records_read(path, &recs, &n), 0);
	ck_assert_uint_eq(n, 4);
	ck_assert(memcmp(&recs[0], &a[0], sizeof *recs) == 0);
	ck_assert(memcmp(&recs[3], &b[1], sizeof *recs) == 0);
	free(recs);
	/* a record cut short is an error, not a record of garbage */
	FILE *f = fopen(path, "ab");
	fputc('x', f);
	fclose(f);
	ck_assert_int_eq(proc_records_read(path, &recs, &n), -1);
	unlink(path);
	ck_assert_int_eq(proc_records_append("/nonexistent/dir/procs", a, 2), -1);
}
END_TEST

static char *printed(const struct proc_record *recs, size_t n)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	proc_records_print(f, recs, n);
	fclose(f);
	return text;
}

START_TEST(test_records_print)
{
	struct proc_record r[4] = {
		record(0, 1, 19.8e-6), record(0, 2, 20.6e-6), record(0, 3, 20.1e-6),
		record(0, 4, 20.1e-6),
	};
	char *text = printed(r, 1);
	ck_assert_str_eq(text, "SM clock 1980 MHz before, 1965 after, median within 0.21% (95%): "
			 "precise enough");
	free(text);
	r[0].clock_after_mhz = 1980;
	r[0].stopped_by = STOP_TIME;
	text = printed(r, 1);
	ck_assert_str_eq(text, "SM clock 1980 MHz, median within 0.21% (95%) when the launches' "
			 "time was up");
	free(text);
	/* several: the median of their medians, their range, their clocks */
	text = printed(r, 4);
	ck_assert_str_eq(text, "median 20.1 us (4 processes: 19.8-20.6 us), SM clock 1972-1980 MHz");
	free(text);
	char cell[32];
	proc_records_range(r, 0, cell, sizeof cell);
	ck_assert_str_eq(cell, "-");
	for (int i = 0; i < 4; i++)
		r[i].clock_before_mhz = r[i].clock_after_mhz = NAN;
	text = printed(r, 2);
	ck_assert_str_eq(text, "median 20.2 us (2 processes: 19.8-20.6 us), SM clock not measured");
	free(text);
}
END_TEST

/* The rounds of --processes ---------------------------------------------- */

START_TEST(test_rounds_order)
{
	size_t order[7];
	for (unsigned rounds = 1; rounds <= 6; rounds++) {
		size_t sum[7] = {0};
		for (unsigned r = 0; r < rounds; r++) {
			rounds_order(7, r, rounds, order);
			/* each round is every file once */
			bool seen[7] = {false};
			for (size_t p = 0; p < 7; p++) {
				ck_assert(order[p] < 7 && !seen[order[p]]);
				seen[order[p]] = true;
				sum[order[p]] += p;
			}
		}
		/* an even count of rounds puts every file in the middle on average */
		for (size_t i = 0; rounds % 2 == 0 && i < 7; i++)
			ck_assert_uint_eq(sum[i], rounds * 6 / 2);
	}
	/* round 0 is the files' order; round 1 the same backwards */
	rounds_order(7, 0, 4, order);
	for (size_t p = 0; p < 7; p++)
		ck_assert_uint_eq(order[p], p);
	rounds_order(7, 1, 4, order);
	for (size_t p = 0; p < 7; p++)
		ck_assert_uint_eq(order[p], 6 - p);
	/* round 2 starts half way down the list: every file has other neighbours */
	rounds_order(7, 2, 4, order);
	ck_assert_uint_eq(order[0], 3);
	rounds_order(0, 1, 4, order);
}
END_TEST

START_TEST(test_rounds_roles)
{
	struct rounds_file f;
	memset(&f, 0, sizeof f);
	ck_assert_int_eq(rounds_role(&f, 0, 1), ROLE_ONLY);
	ck_assert_int_eq(rounds_role(&f, 0, 3), ROLE_SAMPLE);
	ck_assert_int_eq(rounds_role(&f, 2, 3), ROLE_REPORT);
	/* a check that failed: worse, kept; the file goes on sampling */
	ck_assert(rounds_sample_ended(&f, 0, 1, false, 0.5));
	ck_assert(!f.early);
	ck_assert_int_eq(rounds_role(&f, 1, 3), ROLE_SAMPLE);
	/* the same again is not worse */
	ck_assert(!rounds_sample_ended(&f, 1, 1, false, 0.25));
	ck_assert_uint_eq(f.worst_round, 0);
	ck_assert_double_eq(f.seconds, 0.75);
	/* its report passes: the file fails all the same, and the sample's messages show */
	ck_assert_int_eq(rounds_reported(&f, 0), 1);
	ck_assert(rounds_show_sample(&f));
	ck_assert_int_eq(rounds_role(&f, 2, 3), ROLE_NONE);
	/* an error in a sample: reported in the next round, no more samples */
	memset(&f, 0, sizeof f);
	ck_assert(rounds_sample_ended(&f, 0, 3, false, 0.1));
	ck_assert(f.early);
	ck_assert_int_eq(rounds_role(&f, 1, 5), ROLE_REPORT);
	/* the report says the same: nothing more to show */
	ck_assert_int_eq(rounds_reported(&f, 3), 3);
	ck_assert(!rounds_show_sample(&f));
	/* a skip reports at once too, and a passing sample is nothing to keep */
	memset(&f, 0, sizeof f);
	ck_assert(!rounds_sample_ended(&f, 0, 0, true, 0));
	ck_assert(f.early);
	ck_assert(!rounds_sample_ended(&f, 0, 0, false, 0));
}
END_TEST

START_TEST(test_rounds_options)
{
	static struct dump_req dumps[1] = {{"x", "x.npy", 1}};
	struct options base;
	memset(&base, 0, sizeof base);
	base.json = true;
	base.json_file = "r.json";
	base.csv = "p.csv";
	base.plot = "p.svg";
	base.dot = "d.dot";
	base.dumps = dumps;
	base.ndumps = 1;
	base.trace = "t.json";
	base.profile = true;
	base.describe = "g.dot";
	base.compare = "base.json";
	base.compare_doc = (const struct cmp_doc *)&base;
	base.noutputs = 3;
	/* one process: as given */
	struct options o = base;
	rounds_options(&o, ROLE_ONLY, "f.procs");
	ck_assert(memcmp(&o, &base, sizeof o) == 0);
	/* the reporting run: everything asked, and the records */
	o = base;
	rounds_options(&o, ROLE_REPORT, "f.procs");
	ck_assert_str_eq(o.proc_records, "f.procs");
	ck_assert(!o.proc_sample && o.json && o.csv && o.dot && o.ndumps && o.profile &&
		  o.compare_doc);
	/* a sample writes nothing and compares with nothing */
	o = base;
	rounds_options(&o, ROLE_SAMPLE, "f.procs");
	ck_assert(o.proc_sample && o.proc_records);
	ck_assert(!o.json && !o.json_file && !o.csv && !o.plot && !o.dot && !o.ndumps &&
		  !o.trace && !o.profile && !o.describe && !o.compare && !o.compare_doc &&
		  !o.noutputs);
}
END_TEST

static Suite *timing_suite(void)
{
	Suite *s = suite_create("timing");
	TCase *tc = tcase_create("stop");
	tcase_add_test(tc, test_interval_ranks);
	tcase_add_test(tc, test_interval_coverage);
	tcase_add_test(tc, test_precision);
	tcase_add_test(tc, test_first_batch);
	tcase_add_test(tc, test_stop_after_batch);
	suite_add_tcase(s, tc);
	tc = tcase_create("record");
	tcase_add_test(tc, test_record_figures);
	tcase_add_test(tc, test_record_json);
	tcase_add_test(tc, test_records_merge);
	tcase_add_test(tc, test_records_file);
	tcase_add_test(tc, test_records_print);
	suite_add_tcase(s, tc);
	tc = tcase_create("rounds");
	tcase_add_test(tc, test_rounds_order);
	tcase_add_test(tc, test_rounds_roles);
	tcase_add_test(tc, test_rounds_options);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_MAIN(timing_suite)
