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
 * The tables' machinery is declared here for html_compare.c, which reads
 * the "comparison" object by tables of its own.
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

/* The reader's state (html_read.c). */
struct hr;

/* What a key's value is read as. */
enum hf_type {
	HF_STR,         /* const char *: a string */
	HF_NUM,         /* double: a finite number */
	HF_TIME,        /* double: seconds, 0 to REPORT_TIME_MAX_S */
	HF_COUNT,       /* double: a whole number, 0 or more */
	HF_INT,         /* double: a whole number */
	HF_BOOL,        /* bool */
	HF_OBJ,         /* a pointer to a struct of sub's, allocated */
	HF_LIST,        /* a pointer to an array of sub's structs, its count at count_off */
	HF_TIMES,       /* double *: a list of times, its count at count_off */
	HF_STRS,        /* const char **: a list of strings, its count at count_off */
	HF_CUSTOM,      /* read(r, slot) */
};

struct hobj;

struct hfield {
	const char *key;
	enum hf_type type;
	size_t off;                     /* in the struct being read */
	size_t count_off;               /* HF_LIST, HF_TIMES, HF_STRS */
	const struct hobj *sub;         /* HF_OBJ, HF_LIST */
	bool (*read)(struct hr *r, void *slot); /* HF_CUSTOM */
};

/* A struct read from an object: its size, its keys, and how many a list may hold. */
struct hobj {
	size_t size;
	const struct hfield *fields;
	size_t nfields;
	size_t max_items;               /* in a list of them (0: the budget alone) */
	const char *items;              /* what they are, for that message: "points" */
};

/* An object of o's keys into a new struct in the page's arena; NULL (after a message) on failure. */
void *hr_object(struct hr *r, const struct hobj *o);
/* The value at the reader as o's struct into obj (already set to its defaults). */
bool hr_fill(struct hr *r, const struct hobj *o, void *obj);
/* Is the next value null?  It is then passed over.  False with *failed after a message. */
bool hr_null(struct hr *r, bool *failed);
/* Memory for what is kept, charged to the budget; NULL after a message when it is spent. */
void *hr_alloc(struct hr *r, size_t size);
/* An error at the value that comes next, after its path; false. */
bool hr_fail(struct hr *r, const char *fmt, ...) __attribute__((format(printf, 2, 3), cold));
/* The same at m (jr_here before the value was read). */
bool hr_fail_at(struct hr *r, struct jr_mark m, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), cold));
/* The parser: a custom reader reads its value with it (json_read.h). */
struct jr *hr_parser(struct hr *r);

#endif
