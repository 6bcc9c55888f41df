/*
 * Unit tests for the JUnit writer (src/suite_junit.c): escaping of text and
 * attributes, including what XML 1.0 cannot hold, and the document's
 * counts.  Schema validity is tests/suite.test's (xmllint --schema).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "suite_junit.h"
#include "unit.h"
#include "xmalloc.h"

/* junit_escape of len bytes of s, as a string to free. */
static char *escaped(const char *s, size_t len, int attr)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	junit_escape(f, s, len, attr);
	fclose(f);
	return buf;
}

#define ESC(s, attr, want)                                                  \
	do {                                                                \
		char *got_ = escaped(s, sizeof s - 1, attr);                \
		ck_assert_str_eq(got_, want);                               \
		free(got_);                                                 \
	} while (0)

START_TEST(test_markup)
{
	ESC("a<b>&\"c'", 0, "a&lt;b&gt;&amp;\"c'");
	ESC("a<b>&\"c'", 1, "a&lt;b&gt;&amp;&quot;c'");
	ESC("]]>", 0, "]]&gt;");
}
END_TEST

START_TEST(test_whitespace)
{
	/* text keeps line breaks and tabs; attributes would turn them into spaces */
	ESC("a\nb\tc", 0, "a\nb\tc");
	ESC("a\nb\tc", 1, "a&#10;b&#9;c");
	ESC("a\r\n", 0, "a&#13;\n");
}
END_TEST

START_TEST(test_forbidden)
{
	/* control bytes, NUL included, have no XML 1.0 form at all */
	ESC("a\001b\033c\000d", 0, "a\xef\xbf\xbd" "b\xef\xbf\xbd" "c\xef\xbf\xbd" "d");
	ESC("\x7f", 0, "\x7f");
	/* bytes that are not UTF-8: stray, cut short, overlong, surrogate */
	ESC("\xff", 1, "\xef\xbf\xbd");
	ESC("x\xc3", 0, "x\xef\xbf\xbd");
	ESC("\xc0\xaf", 0, "\xef\xbf\xbd\xef\xbf\xbd");
	ESC("\xed\xa0\x80", 0, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	/* U+FFFE and U+FFFF are not characters; good UTF-8 passes as it is */
	ESC("\xef\xbf\xbe", 0, "\xef\xbf\xbd");
	ESC("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80", 1, "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
}
END_TEST

START_TEST(test_document)
{
	struct file_result r[6];
	struct file_output fo[6];
	memset(r, 0, sizeof r);
	memset(fo, 0, sizeof fo);
	r[0] = (struct file_result){.file = "a.yaml", .kind = RES_PASSED, .seconds = 0.5};
	fo[0] = (struct file_output){.out = "report\n", .out_len = 7};
	r[1] = (struct file_result){.file = "b.yaml", .kind = RES_FAILED, .status = 1};
	fo[1] = (struct file_output){.err = "b.yaml:3:1: error: check failed\n", .err_len = 32};
	r[2] = (struct file_result){.file = "c<&>.yaml", .kind = RES_TIMEOUT, .status = 124};
	r[3] = (struct file_result){.file = "d.yaml", .kind = RES_SKIPPED, .note = "not \"now\""};
	/* a worker killed by a signal: status 3, but a crash, not a CUDA error */
	r[4] = (struct file_result){.file = "e.yaml", .kind = RES_ERROR, .status = 3, .signal = 11};
	/* listed with why it cannot be read: never run */
	r[5] = (struct file_result){.file = "f.yaml", .kind = RES_ERROR, .status = 2,
				    .unreadable = true, .note = "cannot read: not a regular file"};
	fo[5] = (struct file_output){.err = "cugraphrun: error: cannot read f.yaml: x\n",
				     .err_len = 41};
	/* the testcases go to a body as each file is printed, the document around it */
	FILE *body = tmpfile();
	ck_assert_ptr_nonnull(body);
	struct junit_counts counts = {0};
	for (size_t i = 0; i < 6; i++)
		junit_testcase(body, &r[i], &fo[i], &counts);
	/* counted as they are written, for the head the document gets at the end */
	ck_assert_uint_eq(counts.tests, 6);
	ck_assert_uint_eq(counts.failures, 1);
	ck_assert_uint_eq(counts.errors, 3);
	ck_assert_uint_eq(counts.skipped, 1);
	char path[] = "/tmp/check_junit.XXXXXX";
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(junit_write_file(path, body, &counts, 1.25, 2, 3), 0);
	fclose(body);
	FILE *f = fopen(path, "r");
	char doc[8192];
	size_t n = fread(doc, 1, sizeof doc - 1, f);
	doc[n] = '\0';
	fclose(f);
	unlink(path);
	ck_assert_ptr_nonnull(strstr(doc, "<testsuite name=\"cugraphrun shard 2 of 3\" tests=\"6\" "
				     "failures=\"1\" errors=\"3\" skipped=\"1\" time=\"1.250\""));
	ck_assert_ptr_nonnull(strstr(doc, "<system-out>report\n</system-out>"));
	ck_assert_ptr_nonnull(strstr(doc, "<failure message=\"b.yaml:3:1: error: check failed\" "
				     "type=\"check\">b.yaml:3:1: error: check failed\n</failure>"));
	ck_assert_ptr_nonnull(strstr(doc, "name=\"c&lt;&amp;&gt;.yaml\""));
	ck_assert_ptr_nonnull(strstr(doc, "<error message=\"exit status 124\" type=\"timeout\">"));
	ck_assert_ptr_nonnull(strstr(doc, "<skipped message=\"not &quot;now&quot;\"/>"));
	ck_assert_ptr_nonnull(strstr(doc, "<error message=\"the worker died of signal 11\" "
				     "type=\"crash\">"));
	ck_assert_ptr_nonnull(strstr(doc, "<error message=\"cugraphrun: error: cannot read f.yaml: "
				     "x\" type=\"unreadable\">"));
	/* the body whole, in order, and the document's end after it */
	ck_assert_ptr_nonnull(strstr(doc, "name=\"f.yaml\""));
	ck_assert(strstr(doc, "name=\"a.yaml\"") < strstr(doc, "name=\"f.yaml\""));
	ck_assert_ptr_nonnull(strstr(doc, "  </testsuite>\n</testsuites>\n"));
}
END_TEST

/*
 * The document of n results and what they printed, their testcases
 * streamed to a body as a suite does, read back (caller frees).
 */
static char *document(const struct file_result *r, const struct file_output *fo, size_t n,
		      char *path)
{
	FILE *body = tmpfile();
	ck_assert_ptr_nonnull(body);
	struct junit_counts counts = {0};
	for (size_t i = 0; i < n; i++)
		junit_testcase(body, &r[i], &fo[i], &counts);
	strcpy(path, "/tmp/check_junit.XXXXXX");
	int fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(junit_write_file(path, body, &counts, 2.0, 0, 0), 0);
	fclose(body);
	FILE *f = fopen(path, "r");
	char *doc = calloc(1, 16384);
	size_t len = fread(doc, 1, 16383, f);
	doc[len] = '\0';
	fclose(f);
	return doc;
}

/* A sweep's report as the workers write it: three points, one failing its check. */
static const char sweep_json[] =
	"{\"report_format\": 1, \"file\": \"s.yaml\", \"launch\": null,\n"
	" \"points\": [\n"
	"  {\"label\": \"n=2^10\", \"axes\": {\"n\": \"2^10\"}, \"prepare\": {\"kind\": \"instantiate\","
	" \"seconds\": 0.25, \"reason\": null, \"updated_nodes\": 0}, \"first_launch_s\": 0.5,"
	" \"launch\": {\"samples_s\": [0.125, 0.125]}, \"checks\": {\"passed\": 1, \"failed\": 0},"
	" \"throughput\": null, \"exit_status\": 0},\n"
	"  {\"label\": \"n=2^11\", \"axes\": {\"n\": \"2^11\"}, \"launch\": {\"samples_s\": []},"
	" \"checks\": {\"passed\": 1, \"failed\": 2}, \"exit_status\": 1},\n"
	"  {\"label\": \"n=2^12\", \"axes\": {\"n\": \"2^12\"}, \"launch\": {\"samples_s\": [1]},"
	" \"checks\": {\"passed\": 1, \"failed\": 0}, \"exit_status\": 0}],\n"
	" \"comparison\": {\"base\": \"base.json\", \"entries\": [\n"
	"  {\"file\": \"s.yaml\", \"point\": \"n=2^10\", \"verdict\": \"same\"},\n"
	"  {\"file\": \"s.yaml\", \"point\": \"n=2^12\", \"shift\": 1.25, \"processes\": 4,"
	" \"base_processes\": 13, \"p_value\": 0.00084, \"verdict\": \"slower\"}]},\n"
	" \"exit_status\": 1}\n";

START_TEST(test_points)
{
	/* every point a testcase: a failed check and a regression are failures of their own */
	struct file_result r[2];
	struct file_output fo[2];
	memset(r, 0, sizeof r);
	r[0] = (struct file_result){.file = "s.yaml", .kind = RES_FAILED, .status = 1};
	fo[0] = (struct file_output){.json = sweep_json, .json_len = sizeof sweep_json - 1,
				     .out = "table\n", .out_len = 6};
	r[1] = (struct file_result){.file = "p.yaml", .kind = RES_SLOWER, .status = 4};
	fo[1] = (struct file_output){.err = "cugraphrun: error: p.yaml: SLOWER than base.json\n",
				     .err_len = 49};
	char path[] = "/tmp/check_junit.XXXXXX";
	char *doc = document(r, fo, 2, path);
	ck_assert_ptr_nonnull(strstr(doc, "tests=\"4\" failures=\"3\" errors=\"0\" skipped=\"0\""));
	ck_assert_ptr_nonnull(strstr(doc, "<testcase classname=\"cugraphrun\" name=\"s.yaml[n=2^10]\" "
				     "time=\"1.000\">\n      <system-out>table\n</system-out>\n"
				     "    </testcase>"));
	ck_assert_ptr_nonnull(strstr(doc, "name=\"s.yaml[n=2^11]\" time=\"0.000\">\n      <failure "
				     "message=\"n=2^11: 2 of 3 checks failed\" type=\"check\">"));
	ck_assert_ptr_nonnull(strstr(doc, "name=\"s.yaml[n=2^12]\" time=\"1.000\">\n      <failure "
				     "message=\"n=2^12: SLOWER than base.json: x1.250 (4 processes "
				     "against 13, p = 0.00084)\" type=\"regression\">"));
	ck_assert_ptr_nonnull(strstr(doc, "name=\"p.yaml\" time=\"0.000\">\n      <failure "
				     "message=\"cugraphrun: error: p.yaml: SLOWER than base.json\" "
				     "type=\"regression\">"));
	ck_assert_ptr_null(strstr(doc, "name=\"s.yaml\""));
	/* valid against junit-10.xsd, when xmllint is here */
	if (system("command -v xmllint >/dev/null 2>&1") == 0) {
		char *cmd = xasprintf("xmllint --noout --schema '%s/tests/junit/junit-10.xsd' '%s' "
				      "2>/dev/null", TOP_SRCDIR, path);
		ck_assert_int_eq(system(cmd), 0);
		free(cmd);
	}
	unlink(path);
	free(doc);

	/* expected to fail: the points' failed checks are the pass */
	r[0].xfail = true;
	r[0].kind = RES_PASSED;
	doc = document(r, fo, 1, path);
	ck_assert_ptr_nonnull(strstr(doc, "tests=\"3\" failures=\"1\" errors=\"0\""));
	ck_assert_ptr_null(strstr(doc, "type=\"check\""));
	unlink(path);
	free(doc);

	/* a file that ended in an error outside its points gets a testcase of its own */
	r[0].xfail = false;
	r[0].kind = RES_ERROR;
	r[0].status = 3;
	doc = document(r, fo, 1, path);
	ck_assert_ptr_nonnull(strstr(doc, "tests=\"4\" failures=\"2\" errors=\"1\""));
	ck_assert_ptr_nonnull(strstr(doc, "name=\"s.yaml\" time=\"0.000\">\n      <error "
				     "message=\"exit status 3\" type=\"cuda\">"));
	unlink(path);
	free(doc);
}
END_TEST

static Suite *junit_suite(void)
{
	Suite *s = suite_create("junit");
	TCase *tc = tcase_create("escape");
	tcase_add_test(tc, test_markup);
	tcase_add_test(tc, test_whitespace);
	tcase_add_test(tc, test_forbidden);
	suite_add_tcase(s, tc);
	tc = tcase_create("document");
	tcase_add_test(tc, test_document);
	tcase_add_test(tc, test_points);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_MAIN(junit_suite)
