/*
 * The HTML page's readers' machinery (html_read.c reads a report by it,
 * html_compare.c its "comparison" object): a JSON object read into a
 * struct by a table of its keys, each with its type (enum hf_type), a
 * key the table does not name checked and passed over; what is kept is
 * charged to the reader's budget and lives in the page's arena.  Errors
 * go to the parser's diag as FILE:LINE:COL: error: /json/pointer: what,
 * and the reading function returns false (NULL).
 *
 * Ownership: the reader borrows its parser and page; what it reads is
 * the page's (its arena).
 */
#ifndef CGR_HTML_FIELDS_H
#define CGR_HTML_FIELDS_H

#include <stdbool.h>
#include <stddef.h>

#include "html_page.h"
#include "json_read.h"

/* The reader: its parser, the page it fills, the path of the value it reads, what it may keep. */
struct hr {
	struct jr *p;
	struct page *pg;
	struct jr_path path;    /* "/files/3/report/points/7/launch" */
	size_t budget;          /* bytes it may still keep */
};

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

/* The value at the reader, a t or null (*is_null says which); false after a message. */
bool hr_want(struct hr *r, enum jtype t, bool *is_null);
/* A string (null: NULL), kept in the arena. */
bool hr_str(struct hr *r, const char **out);
/* A number of kind t (HF_NUM, HF_TIME, HF_COUNT, HF_INT), null as NaN. */
bool hr_num(struct hr *r, enum hf_type t, double *out);
/* A struct of o's before it is read: every number NaN (not given), the rest zero. */
void hr_set_defaults(const struct hobj *o, char *obj);

#endif
