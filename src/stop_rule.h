/*
 * How many timed launches a process makes of a file or a sweep's point
 * (cugraphrun(1), TIMING).  A count given (-n, the file's run.repeat) is
 * launched whole, in one batch, as it always was.  Otherwise the launches
 * come in batches, each queued back to back like a counted run's, and
 * between two batches the rule looks at every sample so far: it stops
 * once the median is known to STOP_TARGET (the half-width of its 95%
 * confidence interval over the median), or once the timed launches have
 * taken STOP_CAP_S, or at STOP_MAX_LAUNCHES; never before
 * STOP_MIN_LAUNCHES.  The interval is distribution-free: two order
 * statistics whose ranks the binomial distribution gives, so a skewed or
 * two-moded graph is judged as fairly as a tight one.
 *
 * No CUDA and no clock: the caller times the batches and hands the
 * samples in.  Nothing is owned.
 */
#ifndef CGR_STOP_RULE_H
#define CGR_STOP_RULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Never fewer timed launches: --compare judges no run of fewer than 10. */
#define STOP_MIN_LAUNCHES 10
/* The first batch, unless the cap leaves room for fewer of a slow graph. */
#define STOP_FIRST_BATCH 50
/* The most launches in one batch: each needs a pair of events until it is read. */
#define STOP_MAX_BATCH 4096
/*
 * Enough: the median's 95% interval within 1% of it either side.  The
 * processes of a graph differ by more than that (cugraphrun(1), TIMING),
 * so a finer median only spends time: --compare judges processes.
 */
#define STOP_TARGET 0.01
/* The timed launches' wall time after which the process stops with what it has. */
#define STOP_CAP_S 0.2
/* The most timed launches a process makes without a count. */
#define STOP_MAX_LAUNCHES 100000

/* What ended the timed launches ("stopped_by" in the JSON). */
enum stop_reason {
	STOP_COUNT,             /* the count given (-n, run.repeat) */
	STOP_PRECISION,         /* the median known to STOP_TARGET */
	STOP_TIME,              /* STOP_CAP_S passed first */
	STOP_LIMIT,             /* STOP_MAX_LAUNCHES reached first */
};
enum { STOP_REASON_COUNT = STOP_LIMIT + 1 };
extern const char *const stop_reason_names[STOP_REASON_COUNT];

/*
 * The ranks (0-based, into n sorted values) of the median's 95% interval
 * [lo, hi], the narrowest pair of order statistics symmetric about the
 * middle whose coverage is at least 95% for any continuous distribution;
 * false when n is too small to have one (fewer than 6).
 */
bool median_interval_ranks(size_t n, size_t *lo, size_t *hi);

/*
 * The median's relative 95% half-width over n sorted values: half the
 * interval's width over the median; NaN without an interval or a
 * positive median.
 */
double median_precision(const double *sorted, size_t n);

/* The rule for one run of launches. */
struct stop_rule {
	bool counted;                   /* a count was given: one batch of it */
	uint32_t count;                 /* that count */
};

/*
 * The first batch: the count given, or STOP_FIRST_BATCH, fewer when
 * first_s (the verification launch's time) says that many would pass
 * STOP_CAP_S, but never fewer than STOP_MIN_LAUNCHES.
 */
uint32_t stop_first_batch(const struct stop_rule *r, double first_s);

/*
 * After a batch: n samples so far, sorted, over elapsed_s of wall time.
 * True, with why, when the launches stop; else false with the next
 * batch's size in *next (the launches so far again, within
 * STOP_MAX_BATCH, the cap's time at the rate so far and
 * STOP_MAX_LAUNCHES).  *precision: median_precision of the samples.
 */
bool stop_after_batch(const struct stop_rule *r, const double *sorted, size_t n,
		      double elapsed_s, enum stop_reason *why, uint32_t *next, double *precision);

#endif
