/*
 * Unit tests for the HTML page (src/html_esc.c, src/html_read.c,
 * src/report_html.c, describe_render.c's inline SVG): nothing from a
 * report becomes markup or script (names, paths, ids, diagnostics with <,
 * &, quotes, control bytes, stray bytes); the reader refuses a
 * description that is not one cugraphrun writes (a link, an image, an
 * HTML label) and a report it cannot read, at the place; the description
 * is drawn as an <svg> element alone.  tests/html.test makes whole pages
 * from the fixtures in tests/html/, and tests/html-browser.test opens
 * them in Chromium.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "describe_render.h"
#include "diag.h"
#include "html_esc.h"
#include "html_read.h"
#include "report_html.h"
#include "unit.h"
#include "xmalloc.h"

/* What f(out, s) writes, as a string to free. */
static char *written(void (*f)(FILE *, const char *), const char *s)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *out = open_memstream(&buf, &n);
	f(out, s);
	fclose(out);
	return buf;
}

static void id_of(FILE *out, const char *s)
{
	html_id(out, "f", s);
}

#define ESC(f, s, want)                                                     \
	do {                                                                \
		char *got_ = written(f, s);                                 \
		ck_assert_str_eq(got_, want);                               \
		free(got_);                                                 \
	} while (0)

START_TEST(test_markup)
{
	ESC(html_text, "<script>alert('x')</script>",
	    "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;");
	ESC(html_text, "a&b \"c\"", "a&amp;b &quot;c&quot;");
	ESC(html_text, "&amp;", "&amp;amp;");
	ESC(html_attr, "x\" onload=\"alert(1)", "x&quot; onload=&quot;alert(1)");
	ESC(html_attr, "a'b", "a&#39;b");
	ESC(html_text, NULL, "");
}
END_TEST

START_TEST(test_controls)
{
	/* controls made visible, as the text report shows them; line breaks kept in text only */
	ESC(html_text, "a\x01" "b\x1b[31m\x7f", "a\\x01b\\x1b[31m\\x7f");
	ESC(html_text, "a\nb\tc", "a\nb\tc");
	ESC(html_attr, "a\nb\tc", "a&#10;b&#9;c");
	/* U+0085 (a C1 control) and U+FFFE */
	ESC(html_text, "\xc2\x85|\xef\xbf\xbe", "\\x85|\xef\xbf\xbd");
	/* bytes that are no UTF-8: each a U+FFFD, and what follows kept */
	ESC(html_text, "a\xff\xc0<", "a\xef\xbf\xbd\xef\xbf\xbd&lt;");
	ESC(html_text, "\xe2\x82", "\xef\xbf\xbd\xef\xbf\xbd");
	/* a character that is not markup passes as it is */
	ESC(html_text, "\xc2\xb5s \xe2\x86\x92", "\xc2\xb5s \xe2\x86\x92");
}
END_TEST

START_TEST(test_ids)
{
	ESC(id_of, "a/b.yaml", "fa.2fb.2eyaml");
	ESC(id_of, "x\" onclick=\"y", "fx.22.20onclick.3d.22y");
	ESC(id_of, "<\xff", "f.3c.ff");
	ESC(id_of, "ok_name-1", "fok_name-1");
	/* two names that differ give two ids: "." is escaped too */
	ESC(id_of, ".2e", "f.2e2e");
}
END_TEST

START_TEST(test_time)
{
	char b[32];
	ck_assert_str_eq(html_time(20.14e-6, b, sizeof b), "20.14 \xc2\xb5s");
	ck_assert_str_eq(html_time(1.5021e-3, b, sizeof b), "1.502 ms");
	ck_assert_str_eq(html_time(0, b, sizeof b), "0");
	ck_assert_str_eq(html_time(0.0 / 0.0, b, sizeof b), "\xe2\x80\x93");
	ck_assert_str_eq(html_time(999.99e-6, b, sizeof b), "1.000 ms");
}
END_TEST

/* A report's text with its description as given (a C string literal's JSON). */
static char *report_with(const char *description_json)
{
	return xasprintf("{\"cugraphrun\": \"0.1.0\", \"report_format\": 2, \"name\": null, "
			 "\"file\": \"a.yaml\", \"launch\": null, \"description\": %s}",
			 description_json);
}

/* page_parse of text: the page, or NULL with the first message in msg. */
static struct page *parse(const char *text, char *msg, size_t len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *err = open_memstream(&buf, &n);
	struct diag d;
	diag_init(&d, "r.json", err);
	struct page *pg = page_parse("r.json", text, strlen(text), &d);
	diag_finish(&d);
	diag_free(&d);
	fclose(err);
	snprintf(msg, len, "%s", buf ? buf : "");
	free(buf);
	return pg;
}

#define REFUSED(desc, want)                                                 \
	do {                                                                \
		char msg_[512];                                             \
		char *t_ = report_with(desc);                               \
		struct page *pg_ = parse(t_, msg_, sizeof msg_);            \
		ck_assert_msg(pg_ == NULL, "read: %s", desc);               \
		ck_assert_msg(strstr(msg_, want) != NULL, "%s: said %s", desc, msg_); \
		free(t_);                                                   \
	} while (0)

START_TEST(test_description_refused)
{
	/* a link out, an image read from disk, a font name written raw, a stylesheet */
	REFUSED("\"digraph g { a [URL=\\\"javascript:alert(1)\\\"] }\"",
		"r.json:1:108: error: /description: not a description cugraphrun writes: it has "
		"the attribute 'URL'");
	REFUSED("\"digraph g { a [image=\\\"/etc/passwd\\\"] }\"", "the attribute 'image'");
	REFUSED("\"digraph g { a [fontname=\\\"x\\\\\\\" onload=\\\\\\\"y\\\"] }\"",
		"the attribute 'fontname'");
	REFUSED("\"digraph g { stylesheet=\\\"http://x/s.css\\\" a }\"",
		"the attribute 'stylesheet'");
	/* an HTML-like label may hold <IMG SRC=...> */
	REFUSED("\"digraph g { a [label=<<IMG SRC=\\\"/etc/passwd\\\"/>>] }\"",
		"a node has an HTML-like label");
	REFUSED("\"digraph g { subgraph cluster_x { label=<<B>x</B>> a } }\"",
		"a graph has an HTML-like label");
	REFUSED("\"not dot at all {\"", "it does not read as DOT");
	REFUSED("12", "a number, not a string or null");
}
END_TEST

START_TEST(test_report_refused)
{
	char msg[512];
	struct page *pg = parse("{\"report_format\": 3, \"file\": \"a\"}", msg, sizeof msg);
	ck_assert_ptr_null(pg);
	ck_assert_msg(strstr(msg, "r.json:1:19: error: /report_format: 3 is newer") != NULL, "%s",
		      msg);
	pg = parse("{\"report_format\": 2}", msg, sizeof msg);
	ck_assert_ptr_null(pg);
	ck_assert_msg(strstr(msg, "has no \"file\"") != NULL, "%s", msg);
	pg = parse("{\"report_format\": 2, \"file\": \"a\", \"launch\": {\"median_s\": -1}}", msg,
		   sizeof msg);
	ck_assert_ptr_null(pg);
	ck_assert_msg(strstr(msg, "/launch/median_s: -1 s is no time") != NULL, "%s", msg);
	pg = parse("{\"report_format\": 2, \"file\": \"a\", \"comparison\": {\"entries\": "
		   "[{\"verdict\": \"better\"}]}}", msg, sizeof msg);
	ck_assert_ptr_null(pg);
	ck_assert_msg(strstr(msg, "/comparison/entries/0/verdict: 'better' is no verdict") != NULL,
		      "%s", msg);
	pg = parse("{\"files\": [{\"result\": \"passed\"}]}", msg, sizeof msg);
	ck_assert_ptr_null(pg);
	ck_assert_msg(strstr(msg, "/files/0 has no \"file\"") != NULL, "%s", msg);
	pg = parse("{\"report_format\": 2, \"file\": \"a\", \"points\": [{}], \"x\": [1,]}", msg,
		   sizeof msg);
	ck_assert_ptr_null(pg);
}
END_TEST

START_TEST(test_svg_inline)
{
	char why[256], *svg;
	int rc = describe_svg_inline("digraph g { a -> b [label=\"x<y & \\\"z\\\"\"] }", &svg, why,
				     sizeof why);
	ck_assert_msg(rc == 0, "%s", why);
	/* the element alone: no prologue, no DOCTYPE, no comment */
	ck_assert_msg(strncmp(svg, "<svg", 4) == 0, "%.80s", svg);
	ck_assert_ptr_null(strstr(svg, "<!"));
	ck_assert_ptr_null(strstr(svg, "<?xml"));
	ck_assert_ptr_nonnull(strstr(svg, "x&lt;y &amp; &quot;z&quot;"));
	ck_assert_ptr_nonnull(strstr(svg, "</svg>"));
	free(svg);
	/* an unsafe one is refused here too, whoever asks */
	rc = describe_svg_inline("digraph g { a [href=\"x\"] }", &svg, why, sizeof why);
	ck_assert_int_eq(rc, -1);
	ck_assert_ptr_null(svg);
	/* past the bound, it is not laid out */
	size_t cap = 16 * (DESCRIBE_INLINE_MAX + 10), at = 0;
	char *text = xmalloc(cap);
	at += (size_t)snprintf(text, cap, "digraph g {");
	for (int i = 0; i <= DESCRIBE_INLINE_MAX; i++)
		at += (size_t)snprintf(text + at, cap - at, " n%d;", i);
	snprintf(text + at, cap - at, " }");
	rc = describe_svg_inline(text, &svg, why, sizeof why);
	ck_assert_int_eq(rc, 1);
	ck_assert_msg(strstr(why, "more than the page lays out") != NULL, "%s", why);
	free(text);
}
END_TEST

/* The page of the fixture tests/html/NAME, as a string to free. */
static char *page_of(const char *name)
{
	char *path = xasprintf("%s/tests/html/%s", TOP_SRCDIR, name);
	struct diag d;
	diag_init(&d, path, stderr);
	struct page *pg = page_read(path, &d);
	diag_finish(&d);
	diag_free(&d);
	ck_assert_msg(pg != NULL, "%s does not read", path);
	char *buf = NULL;
	size_t n = 0;
	FILE *out = open_memstream(&buf, &n);
	report_html_page(out, pg);
	fclose(out);
	page_free(pg);
	free(path);
	return buf;
}

START_TEST(test_hostile_page)
{
	char *html = page_of("hostile.json");
	/* the one element that holds no text is the CSS; no script, no event handler */
	ck_assert_ptr_null(strstr(html, "<script"));
	ck_assert_ptr_null(strstr(html, "</textarea"));
	ck_assert_ptr_null(strstr(html, "<!-- -->"));
	ck_assert_ptr_null(strstr(html, " onload="));
	ck_assert_ptr_null(strstr(html, "javascript:"));
	ck_assert_ptr_null(strchr(html, '\x01'));
	ck_assert_ptr_null(strchr(html, '\x1b'));
	ck_assert_ptr_null(strchr(html, '\x7f'));
	/* what it held is there, as text */
	ck_assert_ptr_nonnull(strstr(html, "&lt;script&gt;alert(1)&lt;/script&gt;&amp;amp;"));
	ck_assert_ptr_nonnull(strstr(html, "\\x01\\x1b[31m\\x7f\\x85"));
	ck_assert_ptr_nonnull(strstr(html, "Content-Security-Policy"));
	free(html);
}
END_TEST

START_TEST(test_suite_order)
{
	char *html = page_of("suite.json");
	/* failures first: the error, the timeout, the failure, then the pass and the skip */
	const char *order[] = {"id=\"fgraphs.2fbroken.2eyaml\"", "id=\"fgraphs.2fspin.2eyaml\"",
			       "id=\"fexamples.2fif-else.2eyaml\"", "id=\"fexamples.2fsaxpy.2eyaml\"",
			       "id=\"fexamples.2ftwo-gpus.2eyaml\""};
	const char *at = html;
	for (size_t i = 0; i < sizeof order / sizeof *order; i++) {
		const char *p = strstr(html, order[i]);
		ck_assert_msg(p != NULL, "no %s", order[i]);
		ck_assert_msg(p > at, "%s is out of order", order[i]);
		at = p;
	}
	free(html);
}
END_TEST

static Suite *html_suite(void)
{
	Suite *s = suite_create("html");
	TCase *tc = tcase_create("escape");
	tcase_add_test(tc, test_markup);
	tcase_add_test(tc, test_controls);
	tcase_add_test(tc, test_ids);
	tcase_add_test(tc, test_time);
	suite_add_tcase(s, tc);
	tc = tcase_create("read");
	tcase_add_test(tc, test_description_refused);
	tcase_add_test(tc, test_report_refused);
	suite_add_tcase(s, tc);
	tc = tcase_create("page");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_svg_inline);
	tcase_add_test(tc, test_hostile_page);
	tcase_add_test(tc, test_suite_order);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_MAIN(html_suite)
