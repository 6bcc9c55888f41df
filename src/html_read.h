/*
 * A --json report read back as the HTML page's model (html_page.h): one
 * file's report (plain or sweep) or a suite's document, from a run's own
 * report in memory or a stored one given in place of a graph file.
 *
 * The text is read as strictly as --compare reads a base (json_read.h:
 * RFC 8259 and nothing more, no key twice), by tables of the keys the
 * page shows, each with its type: a string, a number (finite), a time in
 * seconds (0 to REPORT_TIME_MAX_S), a count (whole, 0 or more), a
 * boolean, an object or a list of them; any may be null, and a key the
 * page does not show is checked and passed over.  report_format must be
 * one this cugraphrun reads.  Lists are bounded (points, files,
 * processes) and everything kept is charged to a budget of a few times
 * the text's size, so that memory stays within it whatever the text
 * holds.  Errors go to a diag as FILE:LINE:COL: error: /json/pointer:
 * what, and the reader returns NULL.
 *
 * The tables' machinery is html_fields.h's, which html_compare.c reads
 * the "comparison" object by as well.
 *
 * Ownership: the page is the caller's (page_free).
 */
#ifndef CGR_HTML_READ_H
#define CGR_HTML_READ_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "html_page.h"
#include "json_read.h"

/* The document text[0..len) as a page; NULL after errors in d. */
struct page *page_parse(const char *name, const char *text, size_t len, struct diag *d);
/* The file at path (READ_MAX_BYTES at most) as a page; NULL after errors in d. */
struct page *page_read(const char *path, struct diag *d);

#endif
