/*
 * Reading cugraphrun's JSON reports back: --compare's base (a file's
 * report, a sweep's, or a suite document), and the reports a suite's
 * workers wrote, for the per-point JUnit testcases.
 *
 * JSON is YAML (a flow collection of double-quoted strings and plain
 * numbers), so the text is parsed with libyaml's event API into a small
 * tree of values, each with its line:col for messages; an alias or a tag
 * is no JSON and is refused, and so are nesting deeper than 64 levels and
 * more than one document.  <yaml.h> is included here and in the loader
 * (load.c, load_events.c), nowhere else: see load.h.
 *
 * Then the tree is read as a report: cmp_doc_read gives, for every file,
 * the samples of its timed launches (a plain file's, or each point's with
 * its axis values), which is all a comparison needs.  Errors go to a diag
 * as FILE:LINE:COL: error: ..., and the reader returns NULL.
 *
 * Ownership: a struct jdoc owns its values and their strings (jdoc_free);
 * a struct cmp_doc owns its files, points and samples, and its jdoc
 * (cmp_doc_free).
 */
#ifndef CGR_COMPARE_READ_H
#define CGR_COMPARE_READ_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "report.h"
#include "xmalloc.h"

enum jtype { JNULL, JBOOL, JNUM, JSTR, JARR, JOBJ };

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

/* The deepest nesting read: a report is 5 levels deep, a suite's 7. */
#define JSON_MAX_DEPTH 64

/* Parse text (name: what messages call it).  NULL after errors in d. */
struct jdoc *jdoc_parse(const char *name, const char *text, size_t len, struct diag *d);
void jdoc_free(struct jdoc *doc);

/* obj's value for key, or NULL when obj is no object or has no such key. */
const struct jv *jv_get(const struct jv *obj, const char *key);

/* One timed thing of a report: a plain file's launches, or one point of a sweep. */
struct cmp_point {
	const char *label;              /* "n=2^20,T=f32"; NULL for a plain file */
	const struct axis_value *axes;
	size_t naxes;
	const double *samples;          /* seconds, the samples that were numbers */
	size_t nsamples;
	double bytes, items;            /* its throughput's, for --plot; NaN: none */
};

struct cmp_file {
	const char *file;               /* as the report names it */
	bool has_report;                /* false: a suite's file that made no report */
	struct cmp_point *points;       /* one without a label for a plain file */
	size_t npoints;
	const char *name;               /* the file's name: key, or NULL */
	double peak_gb_per_s;           /* its device's peak DRAM bandwidth; NaN: none */
};

struct strmap;

struct cmp_doc {
	const char *path;               /* what messages call it */
	bool suite;                     /* a suite document, not one file's report */
	struct cmp_file *files;
	size_t nfiles;
	struct strmap *index;           /* a suite's files by normal path (cmp_doc_find) */
	struct jdoc *json;
	struct arena arena;
};

/*
 * The newest report_format this reader knows (report.h: REPORT_FORMAT,
 * what this cugraphrun writes): a report that says more is refused
 * rather than misread.
 */
#define REPORT_FORMAT_READ REPORT_FORMAT

/* The same file, as the comparison matches them: "./a//b.yaml" is "a/b.yaml". */
bool compare_same_path(const char *a, const char *b);
/*
 * p as compare_same_path compares it (no "./" steps, no doubled slashes),
 * into out[len]: for a caller that matches many paths by hashing them.
 */
void compare_normal_path(const char *p, char *out, size_t len);
/*
 * The index in doc->files of the first file that is path (compare_same_path),
 * or -1: a look-up in a suite's index, so that a suite of N files compared
 * file by file costs N look-ups, not N^2 path comparisons.
 */
long cmp_doc_find(const struct cmp_doc *doc, const char *path);

/* A report (any shape) as a cmp_doc; NULL after errors in d. */
struct cmp_doc *cmp_doc_from_json(const char *name, const struct jdoc *json, struct diag *d);
/* The file at path read and parsed; NULL after errors in d. */
struct cmp_doc *cmp_doc_read(const char *path, struct diag *d);
void cmp_doc_free(struct cmp_doc *doc);

#endif
