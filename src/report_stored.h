/*
 * A stored --json report given in place of a graph file (an operand
 * ending in .json): nothing runs, and no GPU is needed.  With --compare
 * the report is compared with the base, through the same code as a run's
 * comparison (compare_cli.h); with --plot a sweep's report is drawn again
 * from its points' samples and declared throughput (report_plot.h), as
 * the run would have drawn it: a sweep run on a GPU machine without
 * gnuplot, drawn on another machine; with --html the report (or a
 * suite's document) is made the run's HTML page again (report_html.h).  The report is read alone: a graph
 * file or a second report beside it is a usage error.
 *
 * Nothing is owned past a call, but report_of_stored's points.
 */
#ifndef CGR_REPORT_STORED_H
#define CGR_REPORT_STORED_H

#include <stdbool.h>

#include "cli.h"
#include "report.h"

struct cmp_file;

/*
 * A stored file's report as a run's struct report of points, as --plot
 * draws it (a plain file's has none): r borrows f's strings and samples,
 * and owns r->points, which the caller frees.
 */
void report_of_stored(const struct cmp_file *f, struct report *r);

/* Does the command line name a stored report for --compare, --plot or --html? */
bool report_stored_wanted(const struct options *o);

/*
 * Compare and/or draw the report o->file: 0, EXIT_SLOWER (compare.h), or
 * 2 after a message (a usage error, a report that cannot be read, a plot
 * that failed).
 */
int report_stored_main(const struct options *o);

#endif
