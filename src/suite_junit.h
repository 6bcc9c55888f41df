/*
 * A suite's results as JUnit XML, the form GitLab, Jenkins and GitHub test
 * reporters read: <testsuites> holding one <testsuite>, a <testcase> per
 * file, or per point of a sweep ("file.yaml[n=4096]", read from the file's
 * JSON report, which the workers then always write), with <failure>
 * (failed checks; type="regression" for --compare's SLOWER), <error>
 * (invalid file, CUDA error, timeout) or <skipped>, and the file's output
 * as <system-out> and <system-err>.  Valid against the Jenkins xUnit plugin's junit-10.xsd
 * (tests/junit/junit-10.xsd).  Nothing here is owned.
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

/* The document; shard_n 0 when not sharded.  0, or -1 after a message. */
int junit_write_file(const char *path, const struct file_result *res, size_t n,
		     double seconds, unsigned shard_k, unsigned shard_n);

#endif
