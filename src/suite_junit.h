/*
 * A suite's results as JUnit XML, the form GitLab, Jenkins and GitHub test
 * reporters read: <testsuites> holding one <testsuite>, a <testcase> per
 * file with <failure> (failed checks), <error> (invalid file, CUDA error,
 * timeout) or <skipped>, and the file's output as <system-out> and
 * <system-err>.  Valid against the Jenkins xUnit plugin's junit-10.xsd
 * (tests/junit/junit-10.xsd).  The testcases are written as each file is
 * printed (suite_result.h), the document around them at the end.
 * Nothing here is owned.
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

/* File r's <testcase>, with what it printed, to the end of body. */
void junit_testcase(FILE *body, const struct file_result *r, const struct file_output *fo);

/*
 * The document to path ("-": standard output): its head, from the counts
 * of the n files and the suite's time (shard_n 0 when not sharded), the
 * testcases in body (read from its start; NULL: none), its end.  0, or -1
 * after a message.
 */
int junit_write_file(const char *path, FILE *body, const unsigned counts[RES_COUNT], size_t n,
		     double seconds, unsigned shard_k, unsigned shard_n);

#endif
