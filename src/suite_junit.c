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

/* A file as one testcase, from its result and what it printed. */
static void file_case(const struct file_result *r, const struct file_output *fo,
		      struct jcase *c)
{
	static const char *const error_type[] = {"", "check", "invalid", "cuda"};
	memset(c, 0, sizeof *c);
	c->name = xstrdup(r->file);
	c->time = r->seconds;
	c->out = fo->out;
	c->out_len = fo->out_len;
	result_first_error(r, fo, c->message, sizeof c->message);
	switch (r->kind) {
	case RES_PASSED:
	case RES_SKIPPED:
		c->err = fo->err;
		c->err_len = fo->err_len;
		if (r->kind == RES_SKIPPED) {
			c->tag = "skipped";
			snprintf(c->message, sizeof c->message, "%s", r->note ? r->note : "");
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
			r->unreadable ? "unreadable" :
			r->kind == RES_ERROR && r->note ? "not-run" :
			r->status >= 1 && r->status <= 3 ? error_type[r->status] : "crash";
		if (c->message[0] == '\0')
			snprintf(c->message, sizeof c->message, "exit status %d", r->status);
		c->text = fo->err;
		c->text_len = fo->err_len;
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
static void point_case(const struct file_result *r, const struct file_output *fo,
		       const struct jv *report, const struct jv *p, struct jcase *c)
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
		snprintf(c->message, sizeof c->message, "%s: SLOWER than %s: x%.3f (%.0f processes "
			 "against %.0f, p = %.2g)", l, base && base->text ? base->text : "the base",
			 num_or(jv_get(e, "shift"), NAN), num_or(jv_get(e, "processes"), NAN),
			 num_or(jv_get(e, "base_processes"), NAN), num_or(jv_get(e, "p_value"), NAN));
	}
	if (c->tag) {
		c->text = fo->err;
		c->text_len = fo->err_len;
	}
}

/* One testcase written to body and counted, its name freed. */
static void put_case(FILE *body, struct jcase *c, struct junit_counts *n)
{
	const char *tag = c->tag ? c->tag : "";
	n->tests++;
	n->failures += strcmp(tag, "failure") == 0;
	n->errors += strcmp(tag, "error") == 0;
	n->skipped += strcmp(tag, "skipped") == 0;
	testcase(body, c);
	free(c->name);
}

void junit_testcase(FILE *body, const struct file_result *r, const struct file_output *fo,
		    struct junit_counts *n)
{
	struct jcase c;
	struct diag d;
	diag_init(&d, r->file, stderr);
	d.quiet = true;
	struct jdoc *j = fo->json ? jdoc_parse(r->file, fo->json, fo->json_len, &d) : NULL;
	const struct jv *points = j ? jv_get(j->root, "points") : NULL;
	if (points == NULL || points->type != JARR || points->n == 0) {
		file_case(r, fo, &c);
		put_case(body, &c, n);
		jdoc_free(j);
		return;
	}
	/* one per point, and one more for the file when it ended in an error outside them */
	for (size_t i = 0; i < points->n; i++) {
		point_case(r, fo, j->root, &points->items[i], &c);
		if (i == 0) {
			c.out = fo->out;
			c.out_len = fo->out_len;
			c.err = c.tag ? NULL : fo->err;
			c.err_len = c.tag ? 0 : fo->err_len;
		}
		put_case(body, &c, n);
	}
	if (r->kind == RES_ERROR || r->kind == RES_TIMEOUT) {
		file_case(r, fo, &c);
		c.out = NULL;
		c.out_len = 0;
		put_case(body, &c, n);
	}
	jdoc_free(j);
}

int junit_write_file(const char *path, FILE *body, const struct junit_counts *n,
		     double seconds, unsigned shard_k, unsigned shard_n)
{
	const char *file = strcmp(path, "-") == 0 ? NULL : path;
	FILE *out = output_open(file);
	if (out == NULL)
		return -1;
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
	fprintf(out, " tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" time=\"%.3f\">\n",
		n->tests, n->failures, n->errors, seconds);
	fprintf(out, "  <testsuite");
	attr(out, "name", name);
	fprintf(out, " tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\" "
		"time=\"%.3f\"", n->tests, n->failures, n->errors, n->skipped, seconds);
	attr(out, "timestamp", stamp);
	attr(out, "hostname", host);
	fprintf(out, ">\n");
	if (body && !copy_body(body, out))
		return output_close(out, file, OUTPUT_FAILED) == 0 ? 0 : -1;
	fprintf(out, "  </testsuite>\n</testsuites>\n");
	return output_close(out, file, OUTPUT_OK) == 0 ? 0 : -1;
}
