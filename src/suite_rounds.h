/*
 * --processes=P (cugraphrun(1), TIMING): every file timed in P fresh
 * processes, because launches within one process agree far better than
 * processes do.  The suite's workers (suite.h) are the vehicle: the run
 * goes in P rounds, each with fresh workers (their own driver context,
 * none kept from the round before), every file once a round, in an order
 * that changes from round to round (rounds_order) so that drift over the
 * run's time touches every file alike.  The rounds before the last run
 * each file as a sample: it times the file and appends its records
 * (proc_record.h) to the file's records file, and writes nothing else;
 * the last round's run reports the file, with every process's records.
 * A file whose sample ends in an error, a timeout or a skip is reported
 * in the next round at once, and runs no more samples.  A single file
 * with --processes still gives a single file's output (the lone mode).
 *
 * This room is the rounds' rules, without fork or CUDA: the order of a
 * round, the role of a file's next run, what its samples came to, and the
 * options a run of each role takes; suite.c runs them.  Nothing is owned.
 */
#ifndef CGR_SUITE_ROUNDS_H
#define CGR_SUITE_ROUNDS_H

#include <stdbool.h>
#include <stddef.h>

#include "cli.h"

/* What a file's run is for. */
enum run_role {
	ROLE_NONE,                      /* it does not run (reported already) */
	ROLE_ONLY,                      /* one process (P = 1): the run as it always was */
	ROLE_SAMPLE,                    /* a sample: records appended, nothing written */
	ROLE_REPORT,                    /* the last: reports every process's records */
};

/* What a file's runs came to so far, in the parent. */
struct rounds_file {
	unsigned samples;               /* sample runs that ended */
	int worst;                      /* the worst status among them (0: none) */
	unsigned worst_round;           /* the round of that one */
	bool early;                     /* one ended in an error or a skip: report it next */
	bool reported;                  /* its report run ended */
	int report_status;              /* with that status */
	double seconds;                 /* the samples' wall time */
};

/*
 * The order of n files in round r of rounds (order[pos] is the file
 * run pos-th): round 0 in file order; round 2m rotated by m/(rounds/2) of
 * the list; round 2m+1 that order backwards, so that over each pair of
 * rounds every file's mean position is the middle of the list.
 */
void rounds_order(size_t n, unsigned r, unsigned rounds, size_t *order);

/* The role of file f's run in round r of rounds. */
enum run_role rounds_role(const struct rounds_file *f, unsigned r, unsigned rounds);

/*
 * A sample run of the file in round r ended with status (skipped: run.skip
 * or too few GPUs).  True when it ended worse than every sample before
 * (and not 0): its messages are the ones to keep.
 */
bool rounds_sample_ended(struct rounds_file *f, unsigned r, int status, bool skipped,
			 double seconds);

/* Its report run ended with report_status: the file's status, made worse by its samples'. */
int rounds_reported(struct rounds_file *f, int report_status);

/* Do the worst sample's messages go before the report's output?  When it ended worse. */
bool rounds_show_sample(const struct rounds_file *f);

/*
 * o as a run of role takes it: records is the file of the file's
 * processes' records (ROLE_SAMPLE and ROLE_REPORT); a sample writes no
 * output and compares with nothing, the reporting run everything asked.
 */
void rounds_options(struct options *o, enum run_role role, const char *records);

#endif
