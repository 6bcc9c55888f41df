/*
 * The shape of a report (report.h): a plain file is one point without a
 * label, a sweep has a labelled point each; the questions every writer
 * asks of it (the human report, the JSON, the CSV, the plot, --compare's
 * document) are answered here, below them all.
 */
#include "config.h"

#include <math.h>

#include "report.h"

bool report_is_sweep(const struct report *r)
{
	return r->npoints > 0 && r->points[0].label != NULL;
}

const struct point_report *report_plain_point(const struct report *r)
{
	/* a file that never ran: no samples, and no throughput to speak of */
	static const struct point_report none = {.bytes = NAN, .items = NAN, .eval_s = NAN};
	if (report_is_sweep(r))
		return NULL;
	return r->npoints ? &r->points[0] : &none;
}

const struct point_report *report_rows(const struct report *r, size_t *n)
{
	*n = r->npoints ? r->npoints : 1;
	return r->npoints ? r->points : report_plain_point(r);
}

void report_checks(const struct report *r, unsigned *passed, unsigned *failed)
{
	*passed = *failed = 0;
	for (size_t k = 0; k < r->npoints; k++) {
		*passed += r->points[k].checks_passed;
		*failed += r->points[k].checks_failed;
	}
}
