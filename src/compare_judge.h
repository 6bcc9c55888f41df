/*
 * --compare's verdict on one match (a plain file, or a point of a sweep):
 * the base's processes against this run's, each process one value, its
 * median launch time (cugraphrun(1), COMPARING).  A graph's launches
 * within one process are tight, but processes differ (a mode that lasts
 * the process, drift, a slow clock), so the process is the unit of
 * sampling: however many launches a process holds, it is one sample.
 *
 * The test: Mann-Whitney's U over the processes' medians, two-sided, at
 * level COMPARE_ALPHA, beside the Hodges-Lehmann shift (the median of
 * every this/base ratio of process medians), which must lie beyond the
 * threshold t: the larger of --compare-threshold and the base's own
 * process-to-process spread (its processes' 10th to 90th percentile over
 * their median), so that a difference the base's processes show among
 * themselves is never called.  When the processes ran at different SM
 * clocks the same test runs in cycles too (median x clock), and both
 * must agree.
 *
 *   SLOWER     p < alpha and the shift > 1 + t (and in cycles)
 *   FASTER     p < alpha and the shift < 1 - t (and in cycles)
 *   SAME       the shift within 1 +- t
 *   UNCERTAIN  otherwise, always with a reason (enum doubt)
 *
 * Under no change every ordering of the m + n processes is equally
 * likely, so SLOWER or FASTER comes at most alpha of the time, whatever
 * the graph's timings look like; with 13 base processes and 4 new ones
 * the smallest p is 2 / C(17, 4) = 0.00084, under alpha = 0.001: every
 * new process must then lie beyond every base process.  Counts that can
 * never reach alpha give UNCERTAIN (few_processes), so that a gate
 * against a base of one process never passes silently.
 *
 * Nothing here reads or owns a report: compare.c hands the figures in.
 */
#ifndef CGR_COMPARE_JUDGE_H
#define CGR_COMPARE_JUDGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The rank test's level, two-sided. */
#define COMPARE_ALPHA 0.001
/* A process of fewer timed launches has no median worth a rank. */
#define COMPARE_MIN_LAUNCHES 10
/* Clocks this far apart (relative) have the test run in cycles too. */
#define COMPARE_CLOCK_APART 0.02
/* A new process below this share of the base's clock is a clock drop. */
#define COMPARE_CLOCK_DROP 0.9
/*
 * The most processes a point's side may hold: what one run takes
 * (--processes) and what a pooled base keeps of a point (its last ones),
 * so that a comparison costs at most a million ratios a point.
 */
#define COMPARE_MAX_PROCESSES 1000
/* The counts cugraphrun(1) recommends: a stored base of 13, 4 new. */
#define COMPARE_BASE_PROCESSES 13
#define COMPARE_NEW_PROCESSES 4

/* Best first, worst last: a file's or a suite's verdict is its worst. */
enum verdict { VERDICT_SAME, VERDICT_FASTER, VERDICT_UNCERTAIN, VERDICT_SLOWER };
enum { VERDICT_COUNT = VERDICT_SLOWER + 1 };

/* "SAME", "FASTER", ...: the table's word; lower case in the JSON. */
extern const char *const verdict_words[VERDICT_COUNT];
extern const char *const verdict_names[VERDICT_COUNT];

/* Why a match is UNCERTAIN ("uncertain_because" in the JSON). */
enum doubt {
	DOUBT_NONE,             /* not uncertain */
	DOUBT_NO_LAUNCHES,      /* a side has no process with timed launches */
	DOUBT_FEW_LAUNCHES,     /* a process has fewer than COMPARE_MIN_LAUNCHES */
	DOUBT_FEW_PROCESSES,    /* the counts cannot reach COMPARE_ALPHA */
	DOUBT_CLOCK,            /* a clock drop, or time and cycles disagree */
	DOUBT_OUTLIER,          /* one new process beyond the base, the others within */
	DOUBT_NEW_MODE,         /* several new processes beyond the base, others within */
	DOUBT_SPREAD,           /* shifted beyond t, yet within the base's own range */
};
enum { DOUBT_COUNT = DOUBT_SPREAD + 1 };
extern const char *const doubt_names[DOUBT_COUNT];

/* One process's figures, as its report's processes[] record gives them. */
struct proc_fig {
	double median_s;
	double clock_mhz;       /* measured SM clock; NaN: not known (format 1) */
	uint32_t launches;
};

struct judgement {
	enum verdict verdict;
	enum doubt doubt;
	size_t nbase, n;        /* processes with launches */
	double base_median, median; /* the medians of the processes' medians, s */
	double shift;           /* Hodges-Lehmann, this / base; NaN without both */
	double shift_cycles;    /* the same in cycles; NaN unless the clocks differ */
	double p;               /* the rank test's two-sided p; NaN without both */
	double p_min;           /* the smallest p these counts can give */
	double spread;          /* the base's processes' 10-90% range over their median */
	double threshold;       /* the t judged by: max(--compare-threshold, spread) */
	size_t outlier;         /* DOUBT_OUTLIER: which new process (0-based) */
	double clock_ratio;     /* this / base, median clocks; NaN: not known */
	double clock_low;       /* the slowest clock here over the base's median; NaN */
};

/* Judge the new processes against the base's, threshold t (0.05 for 5%). */
void compare_judge(const struct proc_fig *base, size_t nbase, const struct proc_fig *cur,
		   size_t n, double t, struct judgement *out);

/* The reason in words, for the table and the SLOWER line: "1 base process and 4 here ...". */
void judgement_why(const struct judgement *j, char *buf, size_t len);

#endif
