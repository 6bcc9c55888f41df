/*
 * What a run writes once its report is filled, in this order: the
 * comparison with --compare's base (computed first, so that every output
 * carries its verdicts), --csv and --plot, then the human report (a
 * sweep's table) with the comparison's table after it on standard output,
 * a line on standard error for each SLOWER match, and --json last, so
 * that its exit_status counts every output before it.  The back end calls
 * it with the report it filled; nothing here touches CUDA.
 *
 * Every report lists its processes (proc_record.h): this one's records
 * of its points, after the earlier processes' under --processes, read
 * from the file they appended to.  A sample process of --processes
 * (run_settings.h) writes nothing but its records to that file.
 *
 * Ownership: the report is borrowed; its comparison and processes are set
 * for the writing and cleared again before returning.
 */
#ifndef CGR_REPORT_EMIT_H
#define CGR_REPORT_EMIT_H

#include "report.h"
#include "run_settings.h"

/*
 * Write everything and return the run's exit status: the report's own
 * (which it updates), made worse by EXIT_SLOWER for a regression and 2
 * for an output that could not be written.
 */
int report_emit(struct report *r, const struct run_settings *s);

/*
 * --json (and --html) alone, for a run that stopped before its report (an
 * error, a timeout): the report as far as the run filled it (none from a sample
 * process of --processes).  0, or 2 after a message when it cannot be
 * written.
 */
int report_emit_json(struct report *r, const struct run_settings *s);

#endif
