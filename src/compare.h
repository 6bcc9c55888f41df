/*
 * --compare: this run's launch times against earlier --json reports'.
 * Files match by path and points by axis values (an index of the base's,
 * so that two reports of N points cost N look-ups); each match gets a
 * verdict from the processes of both sides (compare_judge.h): the process
 * is the unit of sampling, and the base may be several reports, whose
 * processes are pooled (a history of runs of the main branch).
 *
 *   SAME       the processes' shift lies within the threshold
 *   SLOWER     the rank test is significant and the shift beyond it
 *   FASTER     the same, the other way
 *   UNCERTAIN  otherwise, with its reason
 *
 * A match whose processes hold fewer than COMPARE_MIN_LAUNCHES launches is
 * UNCERTAIN and counted apart (a file whose run.repeat asks for 3
 * launches can never be judged, and is no measure of the gate).
 * SLOWER fails the run with EXIT_SLOWER.  Files or points in one side
 * only are listed, not failed.
 *
 * The comparison works on cmp_docs (compare_read.h): the base read from
 * its files (cmp_docs_merge pools several), and this run's, made from its
 * struct report in memory (cmp_doc_of_report) or read from a file
 * (cugraphrun --compare=BASE REPORT.json, and the tests).
 *
 * Ownership: a struct comparison owns its entries and lists
 * (comparison_free); it borrows the two documents' strings, which must
 * outlive it.
 */
#ifndef CGR_COMPARE_H
#define CGR_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "compare_judge.h"
#include "compare_read.h"
#include "report.h"

/* The exit status of a run that some comparison found SLOWER (cugraphrun(1) EXIT STATUS). */
#define EXIT_SLOWER 4

/* One match: a plain file, or a point of a sweep. */
struct cmp_entry {
	const char *file;
	const char *label;              /* NULL for a plain file */
	struct judgement j;
	bool apart;                     /* too few launches to judge: counted apart */
};

struct comparison {
	const char *base;               /* the base as given (its first report or folder) */
	size_t nbases;                  /* the reports pooled into it */
	double threshold;
	struct cmp_entry *entries;
	size_t nentries, capentries;
	/* listed, not failed: "file" or "file[label]" */
	char **only_here, **only_base;
	size_t nonly_here, caponly_here, nonly_base, caponly_base;
	/* the base's only file matched a file of another path (one file each) */
	char *note;
	unsigned counts[VERDICT_COUNT]; /* the entries judged, apart ones not */
	unsigned apart;                 /* entries of too few launches */
};

/*
 * This run's report as a cmp_doc of one file (plain, or a sweep's points,
 * each with its processes' figures from r->procs); it borrows r's strings
 * and samples, and r must outlive it.
 */
struct cmp_doc *cmp_doc_of_report(const struct report *r);

/*
 * Several base reports as one: every file of any of them, every point of
 * those files, each point's processes the processes of all of them, in
 * the order the documents are given.  Owns its copies; the documents may
 * be freed after.  A document alone is returned as it is (no copy).
 */
struct cmp_doc *cmp_docs_merge(struct cmp_doc **docs, size_t n);

/*
 * Compare every file of cur with the base's file of the same path, and
 * its points with those of the same axis values, into out (zeroed
 * first).  list_base_files: list the base's files that cur lacks (a
 * suite or a document; not one file of a suite, whose base holds the
 * others).  A base of one file and a cur of one file are compared
 * whatever their paths, with a note.
 */
void compare_docs(const struct cmp_doc *base, const struct cmp_doc *cur, double threshold,
		  bool list_base_files, struct comparison *out);

/* EXIT_SLOWER when some entry is SLOWER, else 0. */
int comparison_status(const struct comparison *c);

/* The table after the report: one row per match, then what one side lacks. */
void comparison_print(FILE *out, const struct comparison *c);

/* The "comparison" object of the JSON report, at depth (its key already written). */
void comparison_json(FILE *out, const struct comparison *c, int depth);

/*
 * A "cugraphrun: error: FILE[POINT]: SLOWER than BASE: ..." line on
 * standard error per SLOWER match: for CI logs, and the message of the
 * suite's JUnit failure.
 */
void comparison_say_slower(const struct comparison *c);

/* An entry's name as the table and JUnit give it: "file", "label" or "file[label]" (malloc'd). */
char *comparison_entry_name(const struct cmp_entry *e, bool with_file);

void comparison_free(struct comparison *c);

/*
 * Axis values equal as the comparison matches them: integers exactly
 * ("2^20" is 1048576, "9007199254740993" is not "9007199254740992"),
 * other numbers by value ("1e3" is 1000.0), anything else as text.
 */
bool axis_values_equal(const char *a, const char *b);

#endif
