/*
 * Reading cugraphrun's JSON reports back: --compare's base (a file's
 * report, a sweep's, or a suite document), and a report given in place of
 * a graph file (--compare, --plot).
 *
 * The text is read strictly as JSON (json_read.h: no YAML, comments,
 * single quotes or trailing commas, no key twice) and kept only as far as
 * a comparison or a plot needs it, as it is read: for every file, the
 * samples of its timed launches (a plain file's, or each point's with its
 * axis values), each process's figures (its launches, median and SM
 * clock), its declared throughput and its device's peak.  What is
 * kept is checked: report_format is one this cugraphrun knows, every
 * sample a time a launch can take (REPORT_TIME_MAX_S), at most
 * SWEEP_MAX_POINTS points a file and CMP_MAX_FILES files a suite, each
 * error at its line:col with the key's path ("/points/3/launch/samples_s/7").
 * Memory stays within the text and a few times its size: arrays are
 * counted before they are kept, and nothing that is not kept is stored.
 * Errors go to a diag as FILE:LINE:COL: error: ..., and the reader returns
 * NULL.
 *
 * Ownership: a struct cmp_doc owns its files, points and samples
 * (cmp_doc_free).
 */
#ifndef CGR_COMPARE_READ_H
#define CGR_COMPARE_READ_H

#include <stdbool.h>
#include <stddef.h>

#include "compare_judge.h"
#include "diag.h"
#include "json_tree.h"
#include "report.h"
#include "xmalloc.h"

/* The most files a suite's document may hold. */
#define CMP_MAX_FILES 100000
/*
 * The longest launch a stored report may say it timed, in seconds (a
 * day): a time of zero or less, or past this, is no launch of a graph,
 * and would only feed the comparison and the plot nonsense.
 */
#define REPORT_TIME_MAX_S 86400.0

/* One timed thing of a report: a plain file's launches, or one point of a sweep. */
struct cmp_point {
	const char *label;              /* "n=2^20,T=f32"; NULL for a plain file */
	const struct axis_value *axes;
	size_t naxes;
	const double *samples;          /* seconds, the samples that were numbers */
	size_t nsamples;
	double bytes, items;            /* its throughput's, for --plot; NaN: none */
	/*
	 * Its processes (report_format 2's "processes"), the unit the
	 * comparison judges by; a report of format 1, or one without them,
	 * has one process made from its samples (its clock not known).
	 */
	const struct proc_fig *procs;
	size_t nprocs;
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
	size_t nmerged;                 /* the reports pooled into it (cmp_docs_merge); 0: one */
	struct arena arena;
};

/*
 * The report_formats this reader knows, 1 to REPORT_FORMAT_READ (report.h:
 * REPORT_FORMAT, what this cugraphrun writes): a report that says more is
 * refused rather than misread, and one that says 0, -1 or 0.5 is no report.
 */
#define REPORT_FORMAT_FIRST 1
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
/* Index doc's files by normal path for cmp_doc_find (a document built by hand, merged). */
void cmp_doc_index(struct cmp_doc *doc);

/* The report (any shape) text[0..len) as a cmp_doc; NULL after errors in d. */
struct cmp_doc *cmp_doc_parse(const char *name, const char *text, size_t len, struct diag *d);
/*
 * The file at path read and parsed; NULL after errors in d.  A regular
 * file larger than READ_MAX_BYTES is refused unread; a stream (a FIFO, a
 * device) is read only a few bytes past its first byte that JSON text
 * cannot hold (/dev/zero's first NUL), and to READ_MAX_BYTES at most.
 */
struct cmp_doc *cmp_doc_read(const char *path, struct diag *d);
void cmp_doc_free(struct cmp_doc *doc);

#endif
