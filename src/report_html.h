/*
 * --html=FILE: the report as one self-contained HTML page, for a plain
 * file, a sweep or a suite (cugraphrun(1), OUTPUT).  The page is made
 * from the --json document, read back (html_read.h), so that the page a
 * run writes and the page made later from its stored report are the same
 * page: the description drawn by Graphviz (describe_render.h) as inline
 * SVG, the timing table and charts (html_svg_plot.h), the processes, the
 * profile and its critical path, --compare's verdicts (html_compare.h),
 * the checks and the diagnostics; for a suite, a summary, an index and a
 * section per file, the failures first.
 *
 * Nothing on the page loads anything: no script, no font, no image but
 * its own SVG, under a Content-Security-Policy that forbids the rest; and
 * every text that came from a file goes through html_esc.h.
 *
 * Nothing is owned: the report, the page and the files named are
 * borrowed.
 */
#ifndef CGR_REPORT_HTML_H
#define CGR_REPORT_HTML_H

#include <stdio.h>

#include "html_page.h"
#include "report.h"
#include "suite_result.h"

/* The page of pg to out. */
void report_html_page(FILE *out, const struct page *pg);

/* pg's page into path (NULL or "-": standard output).  0, or 2 after a message. */
int report_html_write(const char *path, const struct page *pg);

/* A run's report r as its page into path: its JSON, read back.  0, or 2 after a message. */
int report_write_html(const char *path, const struct report *r);

/*
 * The stored report (or suite document) at report as its page into path:
 * no GPU.  cmp, when not NULL, is --compare's comparison of it with a
 * base, shown on a file's page in place of the one the report holds.  0,
 * or 2 after a message (it cannot be read, or is no report).
 */
int report_html_stored(const char *path, const char *report, const struct comparison *cmp);

/*
 * A suite's page into path: its JSON document (suite_result.h: the
 * entries in body, the counts, the base's files not run, the status)
 * written to a file in tmpdir and read back.  0, or 2 after a message.
 */
int suite_html_write(const char *path, FILE *body, const unsigned counts[RES_COUNT],
		     const struct suite_compare *cmp, int status, const char *tmpdir);

#endif
