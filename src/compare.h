/*
 * --compare: this run's launch times against an earlier --json report's.
 * Files match by path and points by axis values; each match gets a
 * verdict from both runs' samples: a bootstrap 95% interval of the ratio
 * of medians (this / base; 10,000 resamples of each run's samples, with a
 * fixed seed, so the same samples always give the same verdict), against
 * a threshold t (--compare-threshold, default 5%):
 *
 *   SAME       the interval lies within [1 - t, 1 + t]
 *   SLOWER     it lies wholly above 1 + t
 *   FASTER     it lies wholly below 1 - t
 *   UNCERTAIN  it straddles 1 - t or 1 + t; more launches narrow it
 *
 * Two more rules keep a difference between processes, not graphs, from
 * being called (measured on the H100, bench/README.md): a run of fewer
 * than COMPARE_MIN_SAMPLES launches gives UNCERTAIN, whatever its
 * interval (three launches resample into a narrow interval that means
 * nothing); and SLOWER or FASTER also needs the fastest tenth of the
 * launches (the 10th percentile, each run's floor) to have moved beyond t
 * the same way.  A graph whose work changed moves its floor with its
 * median; a process that lands in a slower mode (the stencil example's
 * launches settled at 15 us in some processes and 23 us in others, from
 * the same floor of 14 us) moves the median alone, and is UNCERTAIN.
 *
 * SLOWER fails the run with EXIT_SLOWER.  Files or points in one of the
 * two reports only are listed, not failed.
 *
 * The comparison works on two cmp_docs (compare_read.h): the base read
 * from its file, and this run's, made from its struct report in memory
 * (cmp_doc_of_report) or read from a file (cugraphrun --compare=BASE
 * REPORT.json, and the tests).
 *
 * Ownership: a struct comparison owns its entries and lists
 * (comparison_free); it borrows the two documents' strings, which must
 * outlive it.
 */
#ifndef CGR_COMPARE_H
#define CGR_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "compare_read.h"
#include "report.h"

/* The exit status of a run that some comparison found SLOWER (cugraphrun(1) EXIT STATUS). */
#define EXIT_SLOWER 4

#define COMPARE_RESAMPLES 10000
#define COMPARE_SEED UINT64_C(0x6375677261706872)      /* "cugraphr" */
#define COMPARE_MIN_SAMPLES 10

/* Best first, worst last: a file's or a suite's verdict is its worst. */
enum verdict { VERDICT_SAME, VERDICT_FASTER, VERDICT_UNCERTAIN, VERDICT_SLOWER };
enum { VERDICT_COUNT = VERDICT_SLOWER + 1 };

/* "SAME", "FASTER", ...: the table's word; lower case in the JSON. */
extern const char *const verdict_words[VERDICT_COUNT];
extern const char *const verdict_names[VERDICT_COUNT];

/* The ratio of medians (this / base) and its 95% interval; NaN without samples. */
struct ratio_interval {
	double ratio, low, high;
};

/*
 * The bootstrap: resamples times, draw each run's samples afresh with
 * replacement (as many as it has), take the ratio of the two medians;
 * the interval is the 2.5th and 97.5th percentiles of those ratios.
 * Deterministic for a seed.
 */
void bootstrap_ratio(const double *base, size_t nbase, const double *cur, size_t ncur,
		     unsigned resamples, uint64_t seed, struct ratio_interval *out);

/* The verdict of an interval against threshold t (0.05 for 5%). */
enum verdict verdict_of(const struct ratio_interval *iv, double t);

/* Why an entry is UNCERTAIN ("uncertain_because" in the JSON). */
enum doubt {
	DOUBT_NONE,             /* not uncertain */
	DOUBT_NO_LAUNCHES,      /* a run has no timed launches */
	DOUBT_FEW_LAUNCHES,     /* a run has fewer than COMPARE_MIN_SAMPLES */
	DOUBT_STRADDLES,        /* the interval straddles the threshold */
	DOUBT_FLOORS_AGREE,     /* beyond it, but the runs' floors are not */
};
enum { DOUBT_COUNT = DOUBT_FLOORS_AGREE + 1 };
extern const char *const doubt_names[DOUBT_COUNT];

/*
 * The verdict with the two rules above: iv and the floor ratio (this
 * run's 10th percentile over the base's) of runs of nbase and n launches,
 * against t; why it is UNCERTAIN in *why.
 */
enum verdict verdict_judge(const struct ratio_interval *iv, double floor_ratio, size_t nbase,
			   size_t n, double t, enum doubt *why);

/* The 10th percentile of v[0..n) (nearest rank below); NaN when n is 0. */
double compare_floor(const double *v, size_t n);

/*
 * For an UNCERTAIN interval from n launches a run: about how many would
 * settle it, taking the interval's width to shrink as 1/sqrt(n) around
 * the same ratio; 0 when the ratio sits so close to the threshold that
 * no practical count would (more than 100 times n).
 */
uint32_t settle_launches(const struct ratio_interval *iv, double t, size_t n);

/* One match: a plain file, or a point of a sweep. */
struct cmp_entry {
	const char *file;
	const char *label;              /* NULL for a plain file */
	double base_median, median;     /* seconds; NaN without samples */
	size_t nbase, n;                /* samples */
	struct ratio_interval iv;
	/*
	 * The threshold this entry was judged by: the comparison's, or the
	 * runs' own noise when that is larger (the relative standard
	 * deviation of the noisier run's samples): a difference the runs
	 * themselves vary by is not called.
	 */
	double threshold;
	double floor_ratio;             /* 10th percentiles, this / base; NaN without samples */
	enum verdict verdict;
	enum doubt doubt;
	uint32_t settle;                /* UNCERTAIN: launches that would settle it (0: none) */
};

struct comparison {
	const char *base;               /* the base's path, as given */
	double threshold;
	struct cmp_entry *entries;
	size_t nentries, capentries;
	/* listed, not failed: "file" or "file[label]" */
	char **only_here, **only_base;
	size_t nonly_here, caponly_here, nonly_base, caponly_base;
	/* the base's only file matched a file of another path (one file each) */
	char *note;
	unsigned counts[VERDICT_COUNT];
};

/*
 * This run's report as a cmp_doc of one file (plain, or a sweep's
 * points); it borrows r's strings and samples, and r must outlive it.
 */
struct cmp_doc *cmp_doc_of_report(const struct report *r);

/*
 * Compare every file of cur with the base's file of the same path, and
 * its points with those of the same axis values, into out (zeroed
 * first).  list_base_files: list the base's files that cur lacks (a
 * suite or a document; not one file of a suite, whose base holds the
 * others).  A base of one file and a cur of one file are compared
 * whatever their paths, with a note.
 */
void compare_docs(const struct cmp_doc *base, const struct cmp_doc *cur, double threshold,
		  bool list_base_files, struct comparison *out);

/* EXIT_SLOWER when some entry is SLOWER, else 0. */
int comparison_status(const struct comparison *c);

/* The table after the report: one row per match, then what one side lacks. */
void comparison_print(FILE *out, const struct comparison *c);

/* The "comparison" object of the JSON report, at depth (its key already written). */
void comparison_json(FILE *out, const struct comparison *c, int depth);

/*
 * A "cugraphrun: error: FILE[POINT]: SLOWER than BASE: ..." line on
 * standard error per SLOWER match: for CI logs, and the message of the
 * suite's JUnit failure.
 */
void comparison_say_slower(const struct comparison *c);

void comparison_free(struct comparison *c);


/*
 * Axis values equal as the comparison matches them: as numbers when both
 * read as numbers ("2^20" is 1048576, "1e3" is 1000), else as text.
 */
bool axis_values_equal(const char *a, const char *b);

#endif
