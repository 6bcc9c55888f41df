/*
 * --plot=FILE.svg: a sweep's median launch time (and, when the file
 * declares throughput, its GB/s in a second panel) against the first
 * axis, one line per combination of the other axes, drawn by gnuplot 5
 * (Debian: gnuplot-nox).  The x axis is logarithmic, labelled 2^k, when
 * every value of the first axis came from a power-of-two range; an axis
 * of words is drawn at evenly spaced places named by the words.  The time
 * axis is logarithmic when the largest median is more than
 * PLOT_LOG_Y_SPAN times the smallest.
 *
 * gnuplot is found at run time, $GNUPLOT (a path, or a name looked up on
 * PATH) or else gnuplot on PATH, and run as a child process without a
 * shell: the script, its data inline, on its standard input, the SVG from
 * its standard output straight into FILE.
 *
 * Nothing is owned: the report is borrowed.
 */
#ifndef CGR_REPORT_PLOT_H
#define CGR_REPORT_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "report.h"

/* Times further apart than this factor are drawn on a log scale (--plot and the --html page). */
#define PLOT_LOG_Y_SPAN 30.0

/* The gnuplot to run, in buf; false when there is none (nothing printed). */
bool plot_program(char *buf, size_t len);

/* --plot before the run: 0, or 2 after saying that gnuplot is missing. */
int report_plot_check(void);

/* The script for r, data included (what report_plot feeds gnuplot). */
void report_plot_script(FILE *out, const struct report *r);

/*
 * Draw r into path.  0, or 2 after a message: no gnuplot, a report
 * without points, or gnuplot failed (its own messages follow, and no
 * half-written file is left).
 */
int report_plot(const char *path, const struct report *r);

#endif
