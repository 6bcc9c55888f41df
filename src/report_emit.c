/*
 * A run's outputs, once its report is filled (report_emit.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "fileio.h"
#include "report_emit.h"
#include "report_html.h"
#include "report_plot.h"
#include "report_print.h"
#include "report_table.h"
#include "suite_result.h"
#include "xmalloc.h"

/* This process's records of the points that were timed, each with its point's index. */
static struct proc_record *own_records(const struct report *r, size_t *n)
{
	struct proc_record *own = xcalloc(r->npoints ? r->npoints : 1, sizeof *own);
	*n = 0;
	for (size_t k = 0; k < r->npoints; k++)
		if (r->points[k].timed) {
			own[*n] = r->points[k].self;
			own[(*n)++].point = (uint32_t)k;
		}
	return own;
}

/*
 * The report's "processes": the earlier processes' records (--processes,
 * from the file they appended to) and this one's, by point.  0, or 2
 * after a message when the earlier ones cannot be read (the report then
 * has this one's alone).
 */
static int procs_attach(struct report *r, const struct run_settings *s)
{
	size_t nown, nprior = 0, n;
	struct proc_record *own = own_records(r, &nown), *prior = NULL;
	int rc = 0;
	if (s->out.records && proc_records_read(s->out.records, &prior, &nprior) != 0)
		rc = 2;
	r->procs = proc_records_merge(prior, nprior, own, nown, &n);
	r->nprocs = n;
	free(own);
	free(prior);
	return rc;
}

static void procs_detach(struct report *r)
{
	free((void *)r->procs);
	r->procs = NULL;
	r->nprocs = 0;
}

/*
 * A sample process of --processes: its records appended for the
 * reporting process, nothing written.  The report's status, or 2 when
 * they cannot be kept.
 */
static int emit_sample(const struct report *r, const struct run_settings *s)
{
	size_t n;
	struct proc_record *own = own_records(r, &n);
	int rc = proc_records_append(s->out.records, own, n) == 0 ? r->exit_status : 2;
	free(own);
	return status_worse(r->exit_status, rc);
}

int report_emit(struct report *r, const struct run_settings *s)
{
	const struct run_outputs *o = &s->out;
	if (o->sample)
		return emit_sample(r, s);
	r->describe_buffers = o->describe_buffers;
	if (procs_attach(r, s) != 0)
		r->exit_status = status_worse(r->exit_status, 2);
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
	/* an output given "-" (--json without a file too) is on standard output in its place */
	if (s->verbosity > VERB_QUIET && !o->stdout_taken) {
		report_print_human(stdout, r);
		if (r->comparison)
			comparison_print(stdout, r->comparison);
	}
	fflush(stdout);
	if (r->comparison)
		comparison_say_slower(r->comparison);
	/* the page before --json, whose exit_status counts it */
	if (o->html && report_write_html(o->html, r) != 0)
		r->exit_status = status_worse(r->exit_status, 2);
	/* json_file is NULL for standard output */
	int rc = o->json ? report_write_json(o->json_file, r) : 0;
	if (r->comparison) {
		r->comparison = NULL;
		comparison_free(&cmp);
	}
	procs_detach(r);
	return status_worse(r->exit_status, rc);
}

int report_emit_json(struct report *r, const struct run_settings *s)
{
	/* a sample that stopped is no sample: its run reports again, and says why */
	if ((!s->out.json && !s->out.html) || s->out.sample)
		return 0;
	r->describe_buffers = s->out.describe_buffers;
	int rc = procs_attach(r, s);
	if (s->out.html && report_write_html(s->out.html, r) != 0)
		rc = 2;
	if (s->out.json && report_write_json(s->out.json_file, r) != 0)
		rc = 2;
	procs_detach(r);
	return rc;
}
