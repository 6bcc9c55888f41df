/*
 * --compare on the command line: the base is read and checked once, by
 * the first process, before any file runs (a suite's workers inherit it),
 * so that a base that cannot be read is a usage error (2) and no GPU time
 * is spent first.  The base may be several reports (--compare repeated,
 * or a folder: every *.json directly in it, in name order), pooled into
 * one whose points hold the processes of all of them (cmp_docs_merge): a
 * history of runs on the main branch grows a base without one long run.
 *
 * Given a JSON report instead of a graph file (an operand ending in .json:
 * report_stored.h), --compare compares that report with the base and runs
 * nothing: two stored reports, from CI jobs or other machines, compared
 * without a GPU, through the same code as a run's comparison; --json and
 * --junit then write the comparison as documents a CI job can keep.
 *
 * Ownership: compare_open stores the base in o->compare_doc and the paths
 * of the reports read in o->compare_paths; compare_close frees the base.
 */
#ifndef CGR_COMPARE_CLI_H
#define CGR_COMPARE_CLI_H

#include <stdbool.h>

#include "cli.h"

/* The most reports a folder given as the base may hold. */
#define COMPARE_MAX_BASES 1000

/* Read --compare's base into o->compare_doc: 0, or 2 after its errors. */
int compare_open(struct options *o);
void compare_close(struct options *o);

/*
 * Compare the stored report o->file (report_stored.h: the command line's
 * one operand) with the base: the table on standard output (unless -q or
 * --json=-), SLOWER lines on standard error, the comparison as a JSON
 * document (--json) and as JUnit (--junit); 0, EXIT_SLOWER, or 2.
 */
int compare_offline_main(const struct options *o);

#endif
