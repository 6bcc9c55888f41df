/*
 * Reading JSON text strictly (RFC 8259), as a pull parser: the caller
 * looks at the next value's type (jr_peek), then reads it (a string, a
 * number, a literal), steps into it (an object's keys, an array's items)
 * or skips it whole, checked all the same.  What the caller keeps is its
 * own; the parser holds only its position, the last string and key read,
 * and per level of nesting the keys of the object open there, so reading
 * a file costs the text and what the caller keeps of it, whatever the
 * text holds.
 *
 * Only JSON is read: no comments, no single quotes, no trailing commas,
 * no NaN or Infinity, no leading zeros, no control characters or bytes
 * that are not UTF-8, no key twice in one object, nothing but white space
 * after the value.  Nesting deeper than JSON_MAX_DEPTH levels and objects
 * of more than JSON_MAX_KEYS keys are refused: no cugraphrun report comes
 * near either, and both keep the checks' own memory and time bounded.
 *
 * Errors go to a diag as FILE:LINE:COL: error: invalid JSON: ..., the
 * column counted in characters; after the first, every call fails.
 *
 * Ownership: the text is borrowed, and must outlive the parser; a string
 * or key read is the parser's, valid until the next of its kind is read.
 * jr_free releases the parser's buffers.
 */
#ifndef CGR_JSON_READ_H
#define CGR_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diag.h"

enum jtype { JNULL, JBOOL, JNUM, JSTR, JARR, JOBJ };

/* "null", "a boolean", "a number", "a string", "a list", "an object": for messages. */
extern const char *const jtype_names[];

/* The deepest nesting read: a report is 5 levels deep, a suite's 7. */
#define JSON_MAX_DEPTH 64
/* The most keys one object may hold: a point's axes are the most a report has. */
#define JSON_MAX_KEYS 1000

/* Where a token starts, cheap to keep: jr_pos_of makes it a line:col. */
struct jr_mark {
	size_t at;              /* byte offset */
	size_t line;            /* 1-based */
	size_t line_at;         /* the offset where that line starts */
};

struct jr_keys;

struct jr_frame {
	bool object;
	bool want_value;        /* a key was read: its value comes next */
	size_t n;               /* items or keys so far */
};

struct jr {
	const char *s;
	size_t len;
	struct jr_mark m;       /* the next byte not read */
	struct diag *d;
	bool failed;
	unsigned depth;
	struct jr_frame frames[JSON_MAX_DEPTH];
	struct jr_keys *keys[JSON_MAX_DEPTH]; /* the keys of the object open at each level */
	uint32_t generation;    /* which object's keys a slot holds */
	char *sbuf, *kbuf;      /* the last string and the last key, unescaped */
	size_t scap, kcap;
};

/* A scalar value as read. */
struct jscalar {
	enum jtype type;        /* JNULL, JBOOL, JNUM or JSTR */
	bool b;
	double num;             /* JNUM: strtod's value (1e999 is HUGE_VAL) */
	const char *text;       /* JNUM: as written; JSTR: unescaped (NUL-terminated) */
	size_t len;
};

void jr_init(struct jr *p, const char *text, size_t len, struct diag *d);
void jr_free(struct jr *p);

/* The type of the value that comes next; false after a message (or failed before). */
bool jr_peek(struct jr *p, enum jtype *t);
/* Where the next token starts (after white space): call it after jr_peek. */
struct jr_mark jr_here(const struct jr *p);
/* A mark as FILE:LINE:COL's line and column (the column in characters). */
struct pos jr_pos_of(const struct jr *p, struct jr_mark m);

/* A scalar (null, a boolean, a number, a string); false after a message. */
bool jr_scalar(struct jr *p, struct jscalar *out);
/* Step into the object or array jr_peek saw; false after a message. */
bool jr_begin(struct jr *p);
/*
 * The next key of the object stepped into, unescaped and NUL-terminated,
 * its value to be read next (key may be NULL to ignore it); false at the
 * object's end, which is stepped out of, or after a message (jr_failed).
 */
bool jr_next_key(struct jr *p, const char **key, size_t *len);
/* True when the array stepped into has another item, to be read next; as jr_next_key. */
bool jr_next_item(struct jr *p);
/* The next value, whatever it is, checked and passed over; false after a message. */
bool jr_skip(struct jr *p);
/*
 * The number of items of the array (or keys of the object) that comes
 * next, without reading it: the caller can then size what it keeps
 * exactly.  The array is checked as jr_skip checks it; false after a
 * message.
 */
bool jr_count(struct jr *p, size_t *n);
/*
 * A second parser q at p's place inside the object p is reading, its value
 * next: to look ahead among the object's later keys (for a key that says
 * how to read the others) without moving p.  q reports to p's diag; an
 * error it finds, p finds again at the same place (said once).  jr_free(q).
 */
void jr_fork(const struct jr *p, struct jr *q);
/*
 * At most how many items the list at the parser holds, found fast (its
 * commas up to the first ']'), for a caller that reads numbers and null
 * alone: the bound holds until the first item that is neither, which such
 * a caller refuses.  Nothing is checked or read; false when no list is next.
 */
bool jr_numbers_bound(struct jr *p, size_t *n);
/* Only white space left: true, else false after a message. */
bool jr_end(struct jr *p);

static inline bool jr_failed(const struct jr *p)
{
	return p->failed;
}

/*
 * Where a reader is in the document, as a JSON Pointer
 * ("/points/3/launch/samples_s/7") for its messages: a key longer than 40
 * bytes is cut short with "...", the whole at 252 bytes.
 */
struct jr_path {
	char s[256];
	size_t len;
};

/* Append "/" and what to p; the length to go back to (jr_path_pop). */
size_t jr_path_push(struct jr_path *p, const char *what);
/* Append "/" and the index i; the length to go back to. */
size_t jr_path_index(struct jr_path *p, size_t i);
void jr_path_pop(struct jr_path *p, size_t len);
/* The path, or "/" for the document itself. */
const char *jr_path_text(const struct jr_path *p);

/* An error at m about the text's meaning (not its syntax): the parser fails from then on. */
void jr_error(struct jr *p, struct jr_mark m, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), cold));

#endif
