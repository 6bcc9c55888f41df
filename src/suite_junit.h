/*
 * A suite's results as JUnit XML, the form GitLab, Jenkins and GitHub test
 * reporters read: <testsuites> holding one <testsuite>, a <testcase> per
 * file, or per point of a sweep ("file.yaml[n=4096]", read from the file's
 * JSON report, which the workers then always write), with <failure>
 * (failed checks; type="regression" for --compare's SLOWER), <error>
 * (invalid file, CUDA error, timeout, unreadable) or <skipped>, and the
 * file's output as <system-out> and <system-err>.  Valid against the
 * Jenkins xUnit plugin's junit-10.xsd (tests/junit/junit-10.xsd).  The
 * testcases are written as each file is printed (suite_result.h), counted
 * as they are, and the document around them at the end.  Nothing here is
 * owned.
 */
#ifndef CGR_SUITE_JUNIT_H
#define CGR_SUITE_JUNIT_H

#include <stddef.h>
#include <stdio.h>

#include "suite_result.h"

/*
 * Text for XML 1.0 character data (attr false) or a quoted attribute value
 * (attr true): markup escaped, line breaks and tabs in attributes as
 * character references, and what XML 1.0 cannot hold at all (control
 * bytes, bytes that are not UTF-8, U+FFFE and U+FFFF) as U+FFFD.
 */
void junit_escape(FILE *out, const char *s, size_t len, int attr);

/*
 * The testcases written so far, by what they hold: the document's head
 * gives them, and a sweep's file is a testcase per point, so they are no
 * count of files.
 */
struct junit_counts {
	size_t tests, failures, errors, skipped;
};

/*
 * File r's testcases, with what it printed, to the end of body, counted
 * in *n: one per point when its JSON report (fo->json) holds points, and
 * one more for the file when it ended in an error outside them; else one.
 */
void junit_testcase(FILE *body, const struct file_result *r, const struct file_output *fo,
		    struct junit_counts *n);

/*
 * The document to path ("-": standard output): its head, from the counts
 * and the suite's time (shard_n 0 when not sharded), the testcases in body
 * (read from its start; NULL: none), its end.  0, or -1 after a message.
 */
int junit_write_file(const char *path, FILE *body, const struct junit_counts *n,
		     double seconds, unsigned shard_k, unsigned shard_n);

#endif
