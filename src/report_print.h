/*
 * The run report's printers: a struct report (report.h) for people, in
 * the shape of cugraphrun(1)'s example, and as the --json document, whose
 * keys report_print.c lists.  They only read the report and what it
 * points to.
 */
#ifndef CGR_REPORT_PRINT_H
#define CGR_REPORT_PRINT_H

#include <stdio.h>

#include "report.h"

void report_print_human(FILE *out, const struct report *r);
void report_print_json(FILE *out, const struct report *r);
/* report_print_json into path (NULL: standard output).  0, or 2 after a message. */
int report_write_json(const char *path, const struct report *r);

#endif
