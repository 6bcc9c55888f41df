/*
 * A JSON text as a tree of values, each with its line:col, for a reader
 * that looks keys up in any order (a suite's JUnit writer reads a
 * worker's report so): the text is read by json_read.h, as strictly.  A
 * reader of a file a user gives keeps only what it needs as it reads
 * (compare_read.h) rather than the whole tree.
 *
 * Ownership: a struct jdoc owns its values and their strings (jdoc_free).
 */
#ifndef CGR_JSON_TREE_H
#define CGR_JSON_TREE_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "json_read.h"
#include "xmalloc.h"

struct jv {
	enum jtype type;
	struct pos pos;
	const char *text;       /* a scalar as written (a string unescaped); NULL for collections */
	double num;             /* JNUM */
	bool b;                 /* JBOOL */
	size_t n;               /* JARR, JOBJ: how many items */
	struct jv *items;       /* JARR: the values; JOBJ: the values of keys[] */
	const char **keys;      /* JOBJ */
};

struct jdoc {
	struct jv *root;
	struct arena arena;
};

/* Parse text (name: what messages call it).  NULL after errors in d. */
struct jdoc *jdoc_parse(const char *name, const char *text, size_t len, struct diag *d);
void jdoc_free(struct jdoc *doc);

/* obj's value for key, or NULL when obj is no object or has no such key. */
const struct jv *jv_get(const struct jv *obj, const char *key);

#endif
