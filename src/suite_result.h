/*
 * What a suite knows of each file once it ran, read by everything that
 * reports a suite: the parent's printing and summary (suite.c), the suite
 * JSON document (here) and JUnit XML (suite_junit.c).  A file's exit
 * status gives its kind; the suite's exit status is the worst of its
 * files' by status_rank.
 *
 * A result is small and kept for every file; what the file printed
 * (struct file_output) is held only while the file is printed, when its
 * JSON entry and JUnit testcase are written to the end of a body file of
 * their own; the documents are those bodies between a head and an end
 * once every file is in, so that a suite's memory does not grow with what
 * its files print.
 *
 * Ownership: a struct file_result owns its note (file_result_free); it
 * borrows file.  A struct file_output borrows its texts.
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
	char *note;                     /* the skip reason, or why it never ran (NULL: none) */
	double seconds;
	int status;                     /* the file's exit status */
	int signal;                     /* its worker died of this signal (0: none) */
	int device;                     /* the GPU it ran on (-1: none) */
	enum result_kind kind;
	bool xfail;
	bool done;
	bool held;                      /* done, but its worker's end not yet seen */
	bool restarted;                 /* its worker left after it; a fresh one took over */
	bool requeued;                  /* handed back once: a worker died before starting it */
	bool reported;                  /* its worker sent its result: its JSON report is whole */
	bool unreadable;                /* listed with why it cannot be read (note): never run */
	bool unrun;                     /* the suite stopped before it ran (note says why) */
};

/* What a file printed: its report, its messages, its JSON report (NULL, 0: none). */
struct file_output {
	const char *out, *err, *json;
	size_t out_len, err_len, json_len;
};

/* The kind an exit status gives a file that was not skipped. */
enum result_kind result_kind_of(int status);

/*
 * 124 > 3 > 2 > 1 > 4 > 0: the order in which a suite's exit status takes
 * its files' (a regression, 4, is less than a wrong answer, 1).
 */
int status_rank(int status);
/* The worse of two exit statuses by status_rank (a when they rank alike). */
int status_worse(int a, int b);

/* The first "error:" line of a file's messages (its failure message), copied. */
void result_first_error(const struct file_result *r, const struct file_output *fo, char *buf,
			size_t len);

/* Set r's note to a copy of text (NULL: none). */
void result_set_note(struct file_result *r, const char *text);

/* The note; the struct itself is the caller's. */
void file_result_free(struct file_result *r);

/* --compare in a suite: the base, and its files that this suite did not run. */
struct suite_compare {
	const char *base;
	const char **only_base;
	size_t nonly_base;
};

/*
 * --json in a suite: one document, each file's entry (its result and its
 * own report) in a list, the counts by kind, with --compare (cmp not
 * NULL) the base's files that did not run, and the suite's exit status
 * ($defs/suite of schemas/report.schema.json: keep in step).
 * suite_json_entry writes file r's entry to the end of body (first: the
 * list's first); suite_json_write the document around body, read from its
 * start.  0, or 2 after a message.
 */
void suite_json_entry(FILE *body, const struct file_result *r, const struct file_output *fo,
		      bool first);
int suite_json_write(const char *path, FILE *body, const unsigned counts[RES_COUNT],
		     const struct suite_compare *cmp, int status);

/* The rest of from (from its start) onto to; false when either fails. */
bool copy_body(FILE *from, FILE *to);

#endif
