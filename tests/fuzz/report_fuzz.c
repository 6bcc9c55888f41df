/*
 * The stored report's fuzz target: the input is a --json report (a
 * file's, a sweep's or a suite's), read as --compare and --plot read one
 * (cmp_doc_parse), then, when it reads, every file's points laid out as
 * the table, the CSV and the plot script, and the report compared with
 * itself; and read as --html reads one (page_parse), its page written.
 * Output goes to /dev/null.  Built as tests/fuzz/report_fuzz
 * with libFuzzer (--enable-fuzzing) and as tests/fuzz/report_replay with
 * replay.c, which `make check` runs over tests/fuzz/regress-report/.
 *
 * The comparison costs each point its processes squared at most (the
 * rank test and the shift over every pair, compare_judge.h), which the
 * input's bytes bound: every report is compared.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli.h"
#include "compare.h"
#include "compare_read.h"
#include "diag.h"
#include "html_read.h"
#include "report_html.h"
#include "report_plot.h"
#include "report_stored.h"
#include "report_table.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

static FILE *sink;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	sink = fopen("/dev/null", "w");
	if (sink == NULL) {
		perror("/dev/null");
		exit(1);
	}
	return 0;
}

/* One file's report as the plot and the table see it. */
static void lay_out(const struct cmp_file *f)
{
	if (!f->has_report)
		return;
	struct report r;
	report_of_stored(f, &r);
	if (r.npoints > 0) {
		report_plot_script(sink, &r);
		report_print_table(sink, &r);
		report_write_csv("/dev/null", &r);
	}
	free((struct point_report *)r.points);
}

/* The text as --html reads it, and its page. */
static void page_of(const uint8_t *data, size_t size)
{
	struct diag d;
	diag_init(&d, "report.json", sink);
	struct page *pg = page_parse("report.json", (const char *)data, size, &d);
	diag_finish(&d);
	diag_free(&d);
	if (pg)
		report_html_page(sink, pg);
	page_free(pg);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (sink == NULL)
		LLVMFuzzerInitialize(NULL, NULL);
	page_of(data, size);
	struct diag d;
	diag_init(&d, "report.json", sink);
	struct cmp_doc *doc = cmp_doc_parse("report.json", (const char *)data, size, &d);
	diag_finish(&d);
	diag_free(&d);
	if (doc == NULL)
		return 0;
	for (size_t i = 0; i < doc->nfiles; i++)
		lay_out(&doc->files[i]);
	struct comparison c;
	compare_docs(doc, doc, COMPARE_THRESHOLD_DEFAULT, true, &c);
	comparison_print(sink, &c);
	comparison_json(sink, &c, 0);
	comparison_free(&c);
	cmp_doc_free(doc);
	return 0;
}
