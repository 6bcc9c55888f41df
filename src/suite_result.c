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

void result_first_error(const struct file_result *r, char *buf, size_t len)
{
	buf[0] = '\0';
	if (r->signal) {
		snprintf(buf, len, "the worker died of signal %d", r->signal);
		return;
	}
	for (const char *p = r->err; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		const char *e = memmem(p, n, ": error: ", 9);
		if (e) {
			snprintf(buf, len, "%.*s", (int)n, p);
			return;
		}
		p = nl ? nl + 1 : p + n;
	}
	if (r->kind == RES_ERROR && r->note[0])
		snprintf(buf, len, "%s", r->note);
}

void file_result_free(struct file_result *r)
{
	free(r->out);
	free(r->err);
	free(r->json);
	r->out = r->err = r->json = NULL;
	r->out_len = r->err_len = r->json_len = 0;
}

int suite_json_write(const char *path, const struct file_result *res, size_t n,
		     const unsigned counts[RES_COUNT], const struct suite_compare *cmp,
		     int status)
{
	FILE *out = output_open(path);
	if (out == NULL)
		return 2;
	fputs("{\n  \"files\": [", out);
	for (size_t i = 0; i < n; i++) {
		const struct file_result *r = &res[i];
		fprintf(out, "%s\n    {\"file\": ", i ? "," : "");
		json_string(out, r->file);
		fprintf(out, ", \"result\": \"%s\", \"expected_failure\": %s, "
			"\"exit_status\": %d, \"seconds\": %.6f",
			result_names[r->kind], r->xfail ? "true" : "false", r->status, r->seconds);
		if (r->kind == RES_SKIPPED) {
			fputs(", \"skip_reason\": ", out);
			json_string(out, r->note);
		}
		char msg[512];
		result_first_error(r, msg, sizeof msg);
		if (msg[0]) {
			fputs(", \"message\": ", out);
			json_string(out, msg);
		}
		fputs(", \"report\": ", out);
		if (r->json)
			fwrite(r->json, 1, r->json_len, out);
		else
			fputs("null", out);
		fputc('}', out);
	}
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
