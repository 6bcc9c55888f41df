/*
 * What a suite knows of each file once it ran, read by everything that
 * reports a suite: the parent's printing and summary (suite.c), the suite
 * JSON document (here) and JUnit XML (suite_junit.c).  A file's exit
 * status gives its kind; the suite's exit status is the worst of its
 * files' by status_rank.
 *
 * Ownership: a struct file_result owns its captured out, err and json
 * (file_result_free); it borrows file.
 */
#ifndef CGR_SUITE_RESULT_H
#define CGR_SUITE_RESULT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* RES_SLOWER: every check passed, but --compare found a time SLOWER (exit 4). */
enum result_kind { RES_PASSED, RES_FAILED, RES_SKIPPED, RES_ERROR, RES_TIMEOUT, RES_SLOWER };
enum { RES_COUNT = RES_SLOWER + 1 };

/* "PASS", "FAIL", ...: the result line's word. */
extern const char *const result_words[RES_COUNT];
/* "passed", "failed", ...: the JSON document's word and the summary's. */
extern const char *const result_names[RES_COUNT];

/* One file's result in the parent. */
struct file_result {
	const char *file;               /* as given or found under a directory */
	enum result_kind kind;
	int status;                     /* the file's exit status */
	bool xfail;
	bool done;
	bool held;                      /* done, but its worker's end not yet seen */
	bool restarted;                 /* its worker left after it; a fresh one took over */
	bool requeued;                  /* handed back once: a worker died before starting it */
	int signal;                     /* its worker died of this signal (0: none) */
	int device;                     /* the GPU it ran on (-1: none) */
	double seconds;
	char *out, *err, *json;         /* captured stdout, stderr, JSON report */
	size_t out_len, err_len, json_len;
	char note[256];                 /* the skip reason, or why it never ran */
};

/* The kind an exit status gives a file that was not skipped. */
enum result_kind result_kind_of(int status);

/*
 * 124 > 3 > 2 > 1 > 4 > 0: the order in which a suite's exit status takes
 * its files' (a regression, 4, is less than a wrong answer, 1).
 */
int status_rank(int status);

/* The first "error:" line of a file's stderr (its failure message), copied. */
void result_first_error(const struct file_result *r, char *buf, size_t len);

/* The captured output; the struct itself is the caller's. */
void file_result_free(struct file_result *r);

/* --compare in a suite: the base, and its files that this suite did not run. */
struct suite_compare {
	const char *base;
	const char **only_base;
	size_t nonly_base;
};

/*
 * --json in a suite: one document, each file's report in a list, the
 * counts by kind, with --compare (cmp not NULL) the base's files that did
 * not run, and the suite's exit status ($defs/suite of
 * schemas/report.schema.json: keep in step).  0, or 2 after a message.
 */
int suite_json_write(const char *path, const struct file_result *res, size_t n,
		     const unsigned counts[RES_COUNT], const struct suite_compare *cmp,
		     int status);

#endif
