/*
 * A suite's per-file results (suite_result.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "fileio.h"
#include "json.h"
#include "suite_result.h"
#include "xmalloc.h"

const char *const result_words[RES_COUNT] = {
	[RES_PASSED] = "PASS", [RES_FAILED] = "FAIL", [RES_SKIPPED] = "SKIP",
	[RES_ERROR] = "ERROR", [RES_TIMEOUT] = "TIMEOUT", [RES_SLOWER] = "SLOWER",
};

const char *const result_names[RES_COUNT] = {
	[RES_PASSED] = "passed", [RES_FAILED] = "failed", [RES_SKIPPED] = "skipped",
	[RES_ERROR] = "error", [RES_TIMEOUT] = "timeout", [RES_SLOWER] = "slower",
};

enum result_kind result_kind_of(int status)
{
	switch (status) {
	case 0:
		return RES_PASSED;
	case 1:
		return RES_FAILED;
	case 124:
		return RES_TIMEOUT;
	case EXIT_SLOWER:
		return RES_SLOWER;
	default:
		return RES_ERROR;
	}
}

int status_worse(int a, int b)
{
	return status_rank(b) > status_rank(a) ? b : a;
}

int status_rank(int status)
{
	switch (status) {
	case 0:
		return 0;
	case EXIT_SLOWER:
		return 1;
	case 1:
		return 2;
	case 2:
		return 3;
	case 124:
		return 5;
	default:
		return 4;
	}
}

void result_first_error(const struct file_result *r, const struct file_output *fo, char *buf,
			size_t len)
{
	buf[0] = '\0';
	if (r->signal) {
		snprintf(buf, len, "the worker died of signal %d", r->signal);
		return;
	}
	const char *end = fo->err ? fo->err + fo->err_len : NULL;
	for (const char *p = fo->err; p && p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		if (memmem(p, n, ": error: ", 9)) {
			snprintf(buf, len, "%.*s", (int)n, p);
			return;
		}
		p += n + 1;
	}
	if (r->kind == RES_ERROR && r->note)
		snprintf(buf, len, "%s", r->note);
}

void result_set_note(struct file_result *r, const char *text)
{
	free(r->note);
	r->note = text ? xstrdup(text) : NULL;
}

void file_result_free(struct file_result *r)
{
	free(r->note);
	r->note = NULL;
}

void suite_json_entry(FILE *body, const struct file_result *r, const struct file_output *fo,
		      bool first)
{
	fprintf(body, "%s\n    {\"file\": ", first ? "" : ",");
	json_string(body, r->file);
	fprintf(body, ", \"result\": \"%s\", \"expected_failure\": %s, "
		"\"exit_status\": %d, \"seconds\": %.6f",
		result_names[r->kind], r->xfail ? "true" : "false", r->status, r->seconds);
	/* the GPU of the worker that took it: where a file that made no report ran */
	if (r->device >= 0)
		fprintf(body, ", \"device\": %d", r->device);
	else
		fputs(", \"device\": null", body);
	if (r->kind == RES_SKIPPED) {
		fputs(", \"skip_reason\": ", body);
		json_string(body, r->note ? r->note : "");
	}
	char msg[512];
	result_first_error(r, fo, msg, sizeof msg);
	if (msg[0]) {
		fputs(", \"message\": ", body);
		json_string(body, msg);
	}
	fputs(", \"report\": ", body);
	if (fo->json)
		fwrite(fo->json, 1, fo->json_len, body);
	else
		fputs("null", body);
	fputc('}', body);
}

bool copy_body(FILE *from, FILE *to)
{
	if (fflush(from) != 0 || fseek(from, 0, SEEK_SET) != 0)
		return false;
	char buf[1 << 16];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, from)) > 0)
		if (fwrite(buf, 1, n, to) != n)
			return false;
	return !ferror(from);
}

int suite_json_write(const char *path, FILE *body, const unsigned counts[RES_COUNT],
		     const struct suite_compare *cmp, int status)
{
	FILE *out = output_open(path);
	if (out == NULL)
		return 2;
	fputs("{\n  \"files\": [", out);
	if (body && !copy_body(body, out))
		return output_close(out, path, OUTPUT_FAILED);
	fprintf(out, "\n  ],\n  \"summary\": {\"passed\": %u, \"failed\": %u, \"skipped\": %u, "
		"\"errors\": %u, \"timeouts\": %u, \"slower\": %u},\n",
		counts[RES_PASSED], counts[RES_FAILED], counts[RES_SKIPPED], counts[RES_ERROR],
		counts[RES_TIMEOUT], counts[RES_SLOWER]);
	if (cmp) {
		/* each file's own comparison is in its report; here, what did not run */
		fputs("  \"comparison\": {\"base\": ", out);
		json_string(out, cmp->base);
		fputs(", \"only_in_base\": [", out);
		for (size_t i = 0; i < cmp->nonly_base; i++) {
			fputs(i ? ", " : "", out);
			json_string(out, cmp->only_base[i]);
		}
		fputs("]},\n", out);
	}
	fprintf(out, "  \"exit_status\": %d\n}\n", status);
	return output_close(out, path, OUTPUT_OK);
}
