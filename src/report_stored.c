/*
 * A stored --json report in place of a graph file (report_stored.h).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "compare_cli.h"
#include "compare_read.h"
#include "compare_self.h"
#include "diag.h"
#include "fileio.h"
#include "outputs.h"
#include "report.h"
#include "report_html.h"
#include "report_plot.h"
#include "report_stored.h"
#include "xmalloc.h"

static bool is_json(const char *path)
{
	return path_has_ext(path, ".json");
}

bool report_stored_wanted(const struct options *o)
{
	if (o->self_check)
		return true;
	if (o->compare_doc == NULL && o->html == NULL && (o->plot == NULL || o->validate))
		return false;
	for (size_t i = 0; i < o->nfiles; i++)
		if (is_json(o->files[i]))
			return true;
	return false;
}

/* The report's sweep as a struct report of points, drawn into o->plot. */
static int plot_stored(const struct options *o)
{
	struct diag d;
	diag_init(&d, o->file, stderr);
	struct cmp_doc *doc = cmp_doc_read(o->file, &d);
	diag_finish(&d);
	if (doc == NULL)
		return 2;
	if (doc->suite) {
		errorx("--plot: %s is a suite's report: a plot draws one file's sweep (a suite "
		       "run with --plot draws none)", o->file);
		cmp_doc_free(doc);
		return 2;
	}
	struct report r;
	report_of_stored(&doc->files[0], &r);
	int status = report_plot(o->plot, &r);
	free((struct point_report *)r.points);
	cmp_doc_free(doc);
	return status;
}

/* The report's page into o->html, with --compare's verdicts when it is compared. */
static int html_stored(const struct options *o)
{
	if (o->compare_doc == NULL)
		return report_html_stored(o->html, o->file, NULL);
	struct diag d;
	diag_init(&d, o->file, stderr);
	struct cmp_doc *cur = cmp_doc_read(o->file, &d);
	diag_finish(&d);
	if (cur == NULL)
		return 2;
	struct comparison c;
	compare_docs(o->compare_doc, cur, o->compare_threshold, true, &c);
	int rc = report_html_stored(o->html, o->file, &c);
	comparison_free(&c);
	cmp_doc_free(cur);
	return rc;
}

void report_of_stored(const struct cmp_file *f, struct report *r)
{
	*r = (struct report){.name = f->name, .file = f->file, .peak_gb_per_s = f->peak_gb_per_s};
	/* its points as they are: a plain file's one, unlabelled, has nothing to draw */
	struct point_report *pts = xcalloc(f->npoints ? f->npoints : 1, sizeof *pts);
	for (size_t i = 0; i < f->npoints; i++) {
		const struct cmp_point *p = &f->points[i];
		pts[i] = (struct point_report){
			.label = p->label, .axes = p->axes, .naxes = p->naxes,
			.samples = p->samples, .nsamples = p->nsamples,
			.bytes = p->bytes, .items = p->items, .eval_s = NAN,
		};
	}
	r->points = pts;
	r->npoints = f->npoints;
}

int report_stored_main(const struct options *o)
{
	if (o->nfiles != 1) {
		usage_error("a JSON report in place of a graph file is read alone (for --compare, "
			    "--plot or --html): give it without %s", is_json(o->files[0]) ? o->files[1] :
			    o->files[0]);
		return 2;
	}
	const char *opt = cli_output_given(o, OUT_NOT_STORED);
	if (opt) {
		usage_error("%s writes what a run makes, and %s is a stored report: nothing runs "
			    "(a stored report is compared, --compare, drawn, --plot, or made a "
			    "page, --html)", opt,
			    o->file);
		return 2;
	}
	opt = o->compare_doc || o->self_check ? NULL : cli_output_given(o, OUT_STORED_DOC);
	if (opt == NULL && o->self_check && o->junit)
		opt = "--junit";
	if (opt) {
		usage_error("%s writes what a run makes%s, and %s is a stored report: nothing runs "
			    "(--json writes a stored report's comparison, --compare, or "
			    "self-check, --self-check)", opt,
			    o->self_check ? " or a comparison" : "", o->file);
		return 2;
	}
	if (o->stdout_output && strcmp(o->stdout_output, "--plot") == 0 && o->compare_doc) {
		usage_error("%s=- and --compare's table both write to standard output: give the "
			    "plot a file", o->stdout_output);
		return 2;
	}
	/* the plot never replaces the report or the base it reads (OUTPUT FILES) */
	if (outputs_prepare(o->outputs, o->noutputs) != 0 || !outputs_vs_file(o, o->file) ||
	    !outputs_vs_bases(o))
		return 2;
	if (o->self_check)
		return compare_self_main(o);
	int status = 0;
	if (o->compare_doc)
		status = compare_offline_main(o);
	if (o->plot && status != 2 && plot_stored(o) != 0)
		status = 2;
	if (o->html && status != 2 && html_stored(o) != 0)
		status = 2;
	return status;
}
