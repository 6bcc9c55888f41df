/*
 * --compare's part of the HTML page (report_html.h): a report's
 * "comparison" object read back into a struct comparison (compare.h), and
 * that struct drawn as the page's table of verdicts, each match's ratio
 * and 95% interval drawn against the threshold.  Kept apart from the
 * rest of the page so that a change to the comparison (its verdicts, its
 * entries, its JSON) changes this file and no other of the page's.
 *
 * Ownership: a comparison read here lives in the page's arena, strings
 * and lists too: it is never comparison_free'd.
 */
#ifndef CGR_HTML_COMPARE_H
#define CGR_HTML_COMPARE_H

#include <stddef.h>
#include <stdio.h>

#include "compare.h"
#include "html_fields.h"

/*
 * A comparison as the page holds it: the struct, and each entry's reason
 * as the report wrote it ("why"; NULL, or a NULL entry: judgement_why's,
 * which lacks what the JSON does not hold).
 */
struct page_cmp {
	struct comparison c;
	const char **why;
};

/* The "comparison" value at the reader (an object, or null) into *(struct page_cmp **)slot. */
bool html_compare_read(struct hr *r, void *slot);

/* A suite document's comparison: its base, and the base's files the suite did not run. */
void html_compare_base(const struct page_cmp *pc, const char **base, const char ***only,
		       size_t *n);

/* The comparison's section body: a row a match, then what one side lacks. */
void html_comparison(FILE *out, const struct page_cmp *pc);

#endif
