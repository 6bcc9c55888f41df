/*
 * A run's outputs, once its report is filled (report_emit.h).
 */
#include "config.h"

#include <string.h>

#include "compare.h"
#include "fileio.h"
#include "report_emit.h"
#include "report_plot.h"
#include "report_print.h"
#include "report_table.h"
#include "suite_result.h"

/* The worse of two exit statuses, in the suite's order. */
int report_emit(struct report *r, const struct run_settings *s)
{
	const struct run_outputs *o = &s->out;
	struct comparison cmp;
	if (o->compare) {
		struct cmp_doc *cur = cmp_doc_of_report(r);
		compare_docs(o->compare, cur, o->compare_threshold, false, &cmp);
		/* the entries name the report's own strings, not the document's */
		cmp_doc_free(cur);
		r->comparison = &cmp;
		r->exit_status = status_worse(r->exit_status, comparison_status(&cmp));
	}
	bool csv_stdout = o->csv && strcmp(o->csv, "-") == 0;
	if (o->csv && report_write_csv(csv_stdout ? NULL : o->csv, r) != 0)
		r->exit_status = status_worse(r->exit_status, 2);
	if (o->plot && report_plot(o->plot, r) != 0)
		r->exit_status = status_worse(r->exit_status, 2);
	bool json_stdout = o->json && o->json_file == NULL;
	if (s->verbosity > VERB_QUIET && !json_stdout && !csv_stdout) {
		report_print_human(stdout, r);
		if (r->comparison)
			comparison_print(stdout, r->comparison);
	}
	fflush(stdout);
	if (r->comparison)
		comparison_say_slower(r->comparison);
	int rc = report_emit_json(r, s);
	if (r->comparison) {
		r->comparison = NULL;
		comparison_free(&cmp);
	}
	return status_worse(r->exit_status, rc);
}

int report_emit_json(const struct report *r, const struct run_settings *s)
{
	/* json_file is NULL for standard output */
	return s->out.json ? report_write_json(s->out.json_file, r) : 0;
}
