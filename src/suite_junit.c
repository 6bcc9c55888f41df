#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "compare_read.h"
#include "diag.h"
#include "fileio.h"
#include "suite_junit.h"
#include "utf8.h"
#include "xmalloc.h"

void junit_escape(FILE *out, const char *s, size_t len, int attr)
{
	const unsigned char *p = (const unsigned char *)s;
	while (len > 0) {
		size_t n;
		int32_t cp = utf8_next(p, len, &n);
		switch (cp) {
		case '&':
			fputs("&amp;", out);
			break;
		case '<':
			fputs("&lt;", out);
			break;
		case '>':
			fputs("&gt;", out);
			break;
		case '"':
			fputs(attr ? "&quot;" : "\"", out);
			break;
		case '\n':
		case '\t':
		case '\r':
			/* an attribute's value would have them turned into spaces */
			if (attr || cp == '\r')
				fprintf(out, "&#%d;", (int)cp);
			else
				fputc((int)cp, out);
			break;
		default:
			if (cp < 0x20 || cp == 0xfffe || cp == 0xffff)
				fputs("\xef\xbf\xbd", out); /* U+FFFD: XML 1.0 has no such character */
			else
				fwrite(p, 1, n, out);
			break;
		}
		p += n;
		len -= n;
	}
}

static void attr(FILE *out, const char *name, const char *value)
{
	fprintf(out, " %s=\"", name);
	junit_escape(out, value, strlen(value), 1);
	fputc('"', out);
}

/* <system-out> or <system-err> with the text, when there is any. */
static void output(FILE *out, const char *tag, const char *s, size_t len)
{
	if (len == 0)
		return;
	fprintf(out, "      <%s>", tag);
	junit_escape(out, s, len, 0);
	fprintf(out, "</%s>\n", tag);
}

/*
 * One <testcase>, for a file or for one point of a sweep.  tag NULL is a
 * pass; text is the failure's or error's body; out and err the file's
 * captured output, given to one testcase of the file only.
 */
struct jcase {
	char *name;
	double time;
	const char *tag;                /* NULL, "failure", "error" or "skipped" */
	const char *type;
	char message[512];
	const char *text, *out, *err;
	size_t text_len, out_len, err_len;
};

static void testcase(FILE *out, const struct jcase *c)
{
	fprintf(out, "    <testcase");
	attr(out, "classname", "cugraphrun");
	attr(out, "name", c->name);
	fprintf(out, " time=\"%.3f\">\n", c->time);
	if (c->tag && strcmp(c->tag, "skipped") == 0) {
		fprintf(out, "      <skipped");
		attr(out, "message", c->message);
		fprintf(out, "/>\n");
	} else if (c->tag) {
		fprintf(out, "      <%s", c->tag);
		attr(out, "message", c->message);
		attr(out, "type", c->type);
		fputc('>', out);
		junit_escape(out, c->text ? c->text : "", c->text_len, 0);
		fprintf(out, "</%s>\n", c->tag);
	}
	output(out, "system-out", c->out, c->out_len);
	output(out, "system-err", c->err, c->err_len);
	fprintf(out, "    </testcase>\n");
}

/* A file as one testcase, from its result. */
static void file_case(const struct file_result *r, struct jcase *c)
{
	static const char *const error_type[] = {"", "check", "invalid", "cuda"};
	memset(c, 0, sizeof *c);
	c->name = xstrdup(r->file);
	c->time = r->seconds;
	c->out = r->out;
	c->out_len = r->out_len;
	result_first_error(r, c->message, sizeof c->message);
	switch (r->kind) {
	case RES_PASSED:
	case RES_SKIPPED:
		c->err = r->err;
		c->err_len = r->err_len;
		if (r->kind == RES_SKIPPED) {
			c->tag = "skipped";
			snprintf(c->message, sizeof c->message, "%s", r->note);
		}
		return;
	case RES_FAILED:
	case RES_ERROR:
	case RES_TIMEOUT:
	case RES_SLOWER:
		c->tag = r->kind == RES_FAILED || r->kind == RES_SLOWER ? "failure" : "error";
		/* a signal ends the worker with status 3, but it was no CUDA error */
		c->type = r->kind == RES_SLOWER ? "regression" :
			r->kind == RES_TIMEOUT ? "timeout" : r->signal ? "crash" :
			r->kind == RES_ERROR && r->note[0] ? "not-run" :
			r->status >= 1 && r->status <= 3 ? error_type[r->status] : "crash";
		if (c->message[0] == '\0')
			snprintf(c->message, sizeof c->message, "exit status %d", r->status);
		c->text = r->err;
		c->text_len = r->err_len;
		return;
	}
}

static double num_or(const struct jv *v, double dflt)
{
	return v && v->type == JNUM ? v->num : dflt;
}

/* The comparison's entry for a point (by its label), or NULL. */
static const struct jv *entry_of(const struct jv *report, const char *label)
{
	const struct jv *e = jv_get(jv_get(report, "comparison"), "entries");
	for (size_t i = 0; e && e->type == JARR && i < e->n; i++) {
		const struct jv *pt = jv_get(&e->items[i], "point");
		if (pt && pt->type == JSTR && strcmp(pt->text, label) == 0)
			return &e->items[i];
	}
	return NULL;
}

/* A point of a sweep as a testcase named file[label], from the file's report. */
static void point_case(const struct file_result *r, const struct jv *report,
		       const struct jv *p, struct jcase *c)
{
	memset(c, 0, sizeof *c);
	const struct jv *label = jv_get(p, "label");
	const char *l = label && label->type == JSTR ? label->text : "?";
	c->name = xasprintf("%s[%s]", r->file, l);
	/* the point's own time: preparing it, its first launch and its timed ones */
	c->time = num_or(jv_get(jv_get(p, "prepare"), "seconds"), 0) +
		num_or(jv_get(p, "first_launch_s"), 0);
	const struct jv *s = jv_get(jv_get(p, "launch"), "samples_s");
	for (size_t i = 0; s && s->type == JARR && i < s->n; i++)
		c->time += num_or(&s->items[i], 0);
	int status = (int)num_or(jv_get(p, "exit_status"), 0);
	const struct jv *checks = jv_get(p, "checks");
	unsigned failed = (unsigned)num_or(jv_get(checks, "failed"), 0);
	unsigned passed = (unsigned)num_or(jv_get(checks, "passed"), 0);
	const struct jv *e = entry_of(report, l);
	const struct jv *verdict = jv_get(e, "verdict");
	if (status == 1 && !r->xfail) {
		c->tag = "failure";
		c->type = "check";
		snprintf(c->message, sizeof c->message, "%s: %u of %u checks failed", l, failed,
			 passed + failed);
	} else if (status != 0 && status != 1) {
		c->tag = "error";
		c->type = status == 2 ? "invalid" : status == 124 ? "timeout" : "cuda";
		snprintf(c->message, sizeof c->message, "%s: exit status %d", l, status);
	} else if (verdict && verdict->type == JSTR && strcmp(verdict->text, "slower") == 0) {
		c->tag = "failure";
		c->type = "regression";
		const struct jv *base = jv_get(jv_get(report, "comparison"), "base");
		snprintf(c->message, sizeof c->message, "%s: SLOWER than %s: median x%.3f "
			 "(95%% interval %.3f-%.3f)", l, base && base->text ? base->text : "the base",
			 num_or(jv_get(e, "ratio"), NAN), num_or(jv_get(e, "low"), NAN),
			 num_or(jv_get(e, "high"), NAN));
	}
	if (c->tag) {
		c->text = r->err;
		c->text_len = r->err_len;
	}
}

/*
 * The testcases of file r: one per point when its report holds points (and
 * one more for the file when it ended in an error outside them), else one.
 */
static void file_cases(const struct file_result *r, struct jcase **cases, size_t *n,
		       size_t *cap)
{
	struct diag d;
	diag_init(&d, r->file, stderr);
	d.quiet = true;
	struct jdoc *j = r->json ? jdoc_parse(r->file, r->json, r->json_len, &d) : NULL;
	const struct jv *points = j ? jv_get(j->root, "points") : NULL;
	if (points == NULL || points->type != JARR || points->n == 0) {
		file_case(r, VEC_PUSH(*cases, *n, *cap));
		jdoc_free(j);
		return;
	}
	for (size_t i = 0; i < points->n; i++) {
		struct jcase *c = VEC_PUSH(*cases, *n, *cap);
		point_case(r, j->root, &points->items[i], c);
		if (i == 0) {
			c->out = r->out;
			c->out_len = r->out_len;
			c->err = c->tag ? NULL : r->err;
			c->err_len = c->tag ? 0 : r->err_len;
		}
	}
	if (r->kind == RES_ERROR || r->kind == RES_TIMEOUT) {
		struct jcase *c = VEC_PUSH(*cases, *n, *cap);
		file_case(r, c);
		c->out = NULL;
		c->out_len = 0;
	}
	jdoc_free(j);
}

int junit_write_file(const char *path, const struct file_result *res, size_t n,
		     double seconds, unsigned shard_k, unsigned shard_n)
{
	const char *file = strcmp(path, "-") == 0 ? NULL : path;
	FILE *out = output_open(file);
	if (out == NULL)
		return -1;
	struct jcase *cases = NULL;
	size_t ncases = 0, cap = 0;
	for (size_t i = 0; i < n; i++)
		file_cases(&res[i], &cases, &ncases, &cap);
	unsigned failures = 0, errors = 0, skipped = 0;
	for (size_t i = 0; i < ncases; i++) {
		const char *tag = cases[i].tag ? cases[i].tag : "";
		failures += strcmp(tag, "failure") == 0;
		errors += strcmp(tag, "error") == 0;
		skipped += strcmp(tag, "skipped") == 0;
	}
	char name[64] = "cugraphrun", stamp[32] = "", host[256] = "localhost";
	if (shard_n)
		snprintf(name, sizeof name, "cugraphrun shard %u of %u", shard_k, shard_n);
	time_t t = time(NULL);
	struct tm tm;
	if (gmtime_r(&t, &tm))
		strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm);
	if (gethostname(host, sizeof host) != 0)
		strcpy(host, "localhost");
	host[sizeof host - 1] = '\0';

	fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites");
	attr(out, "name", name);
	fprintf(out, " tests=\"%zu\" failures=\"%u\" errors=\"%u\" time=\"%.3f\">\n", ncases,
		failures, errors, seconds);
	fprintf(out, "  <testsuite");
	attr(out, "name", name);
	fprintf(out, " tests=\"%zu\" failures=\"%u\" errors=\"%u\" skipped=\"%u\" time=\"%.3f\"",
		ncases, failures, errors, skipped, seconds);
	attr(out, "timestamp", stamp);
	attr(out, "hostname", host);
	fprintf(out, ">\n");
	for (size_t i = 0; i < ncases; i++) {
		testcase(out, &cases[i]);
		free(cases[i].name);
	}
	free(cases);
	fprintf(out, "  </testsuite>\n</testsuites>\n");
	return output_close(out, file, OUTPUT_OK) == 0 ? 0 : -1;
}
