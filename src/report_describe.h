/*
 * The report's "description": the DOT that --describe writes for the
 * run's model (its first point's, for a sweep), with its buffers under
 * --describe-buffers and coloured by the profile when --profile ran, so
 * that a stored report can be drawn later, on a machine without the
 * graph file or a GPU (report_html.h).  The text is the caller's.
 */
#ifndef CGR_REPORT_DESCRIBE_H
#define CGR_REPORT_DESCRIBE_H

#include "report.h"

/* r's description as DOT text (malloc'd), or NULL when r has no model or it cannot be written. */
char *report_description(const struct report *r);

#endif
