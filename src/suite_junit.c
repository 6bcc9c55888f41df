#include "config.h"

#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "diag.h"
#include "fileio.h"
#include "suite_junit.h"
#include "utf8.h"

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

void junit_testcase(FILE *out, const struct file_result *r, const struct file_output *fo)
{
	static const char *const error_type[] = {"", "check", "invalid", "cuda"};
	fprintf(out, "    <testcase");
	attr(out, "classname", "cugraphrun");
	attr(out, "name", r->file);
	fprintf(out, " time=\"%.3f\">\n", r->seconds);
	char msg[512];
	result_first_error(r, fo, msg, sizeof msg);
	switch (r->kind) {
	case RES_PASSED:
		break;
	case RES_SKIPPED:
		fprintf(out, "      <skipped");
		attr(out, "message", r->note ? r->note : "");
		fprintf(out, "/>\n");
		break;
	case RES_FAILED:
	case RES_ERROR:
	case RES_TIMEOUT: {
		const char *tag = r->kind == RES_FAILED ? "failure" : "error";
		/* a signal ends the worker with status 3, but it was no CUDA error */
		const char *type = r->kind == RES_TIMEOUT ? "timeout" :
			r->signal ? "crash" :
			r->unreadable ? "unreadable" :
			r->kind == RES_ERROR && r->note ? "not-run" :
			r->status >= 1 && r->status <= 3 ? error_type[r->status] : "crash";
		if (msg[0] == '\0')
			snprintf(msg, sizeof msg, "exit status %d", r->status);
		fprintf(out, "      <%s", tag);
		attr(out, "message", msg);
		attr(out, "type", type);
		fputc('>', out);
		junit_escape(out, fo->err ? fo->err : "", fo->err_len, 0);
		fprintf(out, "</%s>\n", tag);
		break;
	}
	}
	output(out, "system-out", fo->out, fo->out_len);
	if (r->kind == RES_PASSED || r->kind == RES_SKIPPED)
		output(out, "system-err", fo->err, fo->err_len);
	fprintf(out, "    </testcase>\n");
}

int junit_write_file(const char *path, FILE *body, const unsigned count[RES_COUNT], size_t n,
		     double seconds, unsigned shard_k, unsigned shard_n)
{
	const char *file = strcmp(path, "-") == 0 ? NULL : path;
	FILE *out = output_open(file);
	if (out == NULL)
		return -1;
	unsigned failures = count[RES_FAILED], errors = count[RES_ERROR] + count[RES_TIMEOUT];
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
	fprintf(out, " tests=\"%zu\" failures=\"%u\" errors=\"%u\" time=\"%.3f\">\n", n,
		failures, errors, seconds);
	fprintf(out, "  <testsuite");
	attr(out, "name", name);
	fprintf(out, " tests=\"%zu\" failures=\"%u\" errors=\"%u\" skipped=\"%u\" time=\"%.3f\"",
		n, failures, errors, count[RES_SKIPPED], seconds);
	attr(out, "timestamp", stamp);
	attr(out, "hostname", host);
	fprintf(out, ">\n");
	if (body && !copy_body(body, out))
		return output_close(out, file, OUTPUT_FAILED) == 0 ? 0 : -1;
	fprintf(out, "  </testsuite>\n</testsuites>\n");
	return output_close(out, file, OUTPUT_OK) == 0 ? 0 : -1;
}
