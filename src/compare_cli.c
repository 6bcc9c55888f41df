/*
 * --compare on the command line (compare_cli.h).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compare.h"
#include "compare_cli.h"
#include "diag.h"
#include "fileio.h"
#include "json.h"
#include "report.h"
#include "suite_junit.h"
#include "xmalloc.h"

static int by_text(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The reports of one --compare value into paths: itself, or the *.json
 * directly in a folder, in name order.  0, or 2 after a message.
 */
static int base_paths(const char *given, char ***paths, size_t *n, size_t *cap)
{
	struct stat st;
	if (stat(given, &st) != 0 || !S_ISDIR(st.st_mode)) {
		*VEC_PUSH(*paths, *n, *cap) = xstrdup(given);
		return 0;
	}
	DIR *dir = opendir(given);
	if (dir == NULL) {
		errorx("--compare=%s: cannot read the folder: %s", given, strerror(errno));
		return 2;
	}
	size_t first = *n;
	const struct dirent *e;
	while ((e = readdir(dir)) != NULL) {
		if (e->d_name[0] == '.' || !path_has_ext(e->d_name, ".json"))
			continue;
		if (*n - first == COMPARE_MAX_BASES) {
			closedir(dir);
			errorx("--compare=%s: more than %d reports in the folder", given,
			       COMPARE_MAX_BASES);
			return 2;
		}
		size_t len = strlen(given);
		*VEC_PUSH(*paths, *n, *cap) = xasprintf("%s%s%s", given,
							len && given[len - 1] == '/' ? "" : "/",
							e->d_name);
	}
	closedir(dir);
	if (*n == first) {
		errorx("--compare=%s: the folder holds no *.json report", given);
		return 2;
	}
	qsort(*paths + first, *n - first, sizeof **paths, by_text);
	return 0;
}

int compare_open(struct options *o)
{
	if (o->compare == NULL || o->validate)
		return 0;
	char **paths = NULL;
	size_t n = 0, cap = 0;
	int rc = 0;
	for (size_t i = 0; i < o->ncompares && rc == 0; i++)
		rc = base_paths(o->compares[i], &paths, &n, &cap);
	struct cmp_doc **docs = xcalloc(n ? n : 1, sizeof *docs);
	for (size_t i = 0; i < n && rc == 0; i++) {
		struct diag d;
		diag_init(&d, paths[i], stderr);
		docs[i] = cmp_doc_read(paths[i], &d);
		diag_finish(&d);
		if (docs[i] == NULL)
			rc = 2;
	}
	if (rc == 0) {
		struct cmp_doc *base = cmp_docs_merge(docs, n);
		/* a folder is named as given; several reports by the first */
		if (n > 1 && o->ncompares == 1)
			base->path = o->compare;
		o->compare_doc = base;
		/* merged, the documents are copied and no longer needed */
		for (size_t i = 0; n > 1 && i < n; i++)
			cmp_doc_free(docs[i]);
	} else {
		for (size_t i = 0; i < n; i++)
			cmp_doc_free(docs[i]);
	}
	free(docs);
	o->compare_paths = paths;
	o->ncompare_paths = n;
	return rc;
}

void compare_close(struct options *o)
{
	cmp_doc_free((struct cmp_doc *)o->compare_doc);
	o->compare_doc = NULL;
}

/* The comparison as a document of its own: {"cugraphrun", "report_format", "comparison"}. */
static int write_json(const char *path, const struct comparison *c)
{
	FILE *out = output_open(path);
	if (out == NULL)
		return 2;
	fprintf(out, "{\n  \"cugraphrun\": \"%s\",\n  \"report_format\": %d,\n  \"comparison\": ",
		PACKAGE_VERSION, REPORT_FORMAT);
	comparison_json(out, c, 1);
	fputs("\n}\n", out);
	return output_close(out, path, OUTPUT_OK) == 0 ? 0 : 2;
}

/*
 * The comparison as JUnit: a testcase a match, SLOWER a <failure
 * type="regression">, UNCERTAIN a <skipped> with its reason (the gate did
 * not judge it), what one side lacks nothing.
 */
static int write_junit(const char *path, const struct comparison *c)
{
	FILE *body = tmpfile();
	if (body == NULL) {
		errorx("--junit: cannot make a temporary file: %s", strerror(errno));
		return 2;
	}
	struct junit_counts n = {0};
	bool with_file = false;
	for (size_t i = 1; i < c->nentries; i++)
		with_file |= strcmp(c->entries[i].file, c->entries[0].file) != 0;
	for (size_t i = 0; i < c->nentries; i++) {
		const struct cmp_entry *e = &c->entries[i];
		char *name = comparison_entry_name(e, with_file), why[600];
		judgement_why(&e->j, why, sizeof why);
		fputs("    <testcase classname=\"cugraphrun.compare\" name=\"", body);
		junit_escape(body, name, strlen(name), 1);
		fputs("\" time=\"0\">\n", body);
		n.tests++;
		if (e->j.verdict == VERDICT_SLOWER || e->j.verdict == VERDICT_UNCERTAIN) {
			bool slower = e->j.verdict == VERDICT_SLOWER;
			char *msg = slower ? xasprintf("SLOWER than %s: x%.3f (%zu processes against "
						       "%zu, p = %.2g)", c->base, e->j.shift,
						       e->j.n, e->j.nbase, e->j.p) :
				xasprintf("UNCERTAIN: %s", why);
			fprintf(body, "      <%s message=\"", slower ? "failure" : "skipped");
			junit_escape(body, msg, strlen(msg), 1);
			fprintf(body, "\"%s/>\n", slower ? " type=\"regression\"" : "");
			n.failures += slower;
			n.skipped += !slower;
			free(msg);
		}
		fprintf(body, "      <system-out>%s", verdict_words[e->j.verdict]);
		if (e->j.doubt == DOUBT_NONE)
			fprintf(body, ": x%.3f, p = %.2g", e->j.shift, e->j.p);
		fputs("</system-out>\n    </testcase>\n", body);
		free(name);
	}
	int rc = junit_write_file(path, body, &n, 0, 0, 0) == 0 ? 0 : 2;
	fclose(body);
	return rc;
}

int compare_offline_main(const struct options *o)
{
	struct diag d;
	diag_init(&d, o->file, stderr);
	struct cmp_doc *cur = cmp_doc_read(o->file, &d);
	diag_finish(&d);
	if (cur == NULL)
		return 2;
	struct comparison c;
	compare_docs(o->compare_doc, cur, o->compare_threshold, true, &c);
	if (o->verbosity > VERB_QUIET && !o->stdout_output) {
		printf("%s\n", diag_esc(o->file));
		comparison_print(stdout, &c);
		fflush(stdout);
	}
	comparison_say_slower(&c);
	int status = comparison_status(&c);
	if (o->json && write_json(o->json_file, &c) != 0)
		status = 2;
	if (o->junit && write_junit(o->junit, &c) != 0)
		status = 2;
	comparison_free(&c);
	cmp_doc_free(cur);
	return status;
}
