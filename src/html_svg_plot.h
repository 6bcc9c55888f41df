/*
 * The HTML page's charts, drawn as inline SVG with no program outside
 * (report_html.h; --plot draws with gnuplot, the page needs none):
 *
 *   - a sweep's median launch time against its first axis, one line per
 *     combination of the other axes, each point's min-max range as a
 *     whisker, and its GB/s beside it when the file declares throughput;
 *     the x axis logarithmic (2^k) when every value of the first axis is a
 *     power of two, by value for numbers, evenly spaced for words; the y
 *     axis logarithmic when the whiskers (fastest to slowest launch, or
 *     GB/s) span more than PLOT_LOG_Y_SPAN (report_plot.h: the factor
 *     --plot takes over its medians);
 *   - a plain file's timed launches: their histogram with the median
 *     marked, and the launches in order (drift, a slow first launch).
 *
 * Every label goes through html_esc.h.  Nothing is owned: the page's
 * model is borrowed.
 */
#ifndef CGR_HTML_SVG_PLOT_H
#define CGR_HTML_SVG_PLOT_H

#include <stddef.h>
#include <stdio.h>

#include "html_page.h"

/* The sweep's charts of r's points (none: nothing is written). */
void html_plot_sweep(FILE *out, const struct page_report *r);

/* The charts of n launch times (seconds; none, or all the same: nothing is written). */
void html_plot_samples(FILE *out, const double *samples, size_t n);

#endif
