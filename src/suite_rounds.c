/*
 * The rounds of --processes (suite_rounds.h).
 */
#include "config.h"

#include "suite_result.h"
#include "suite_rounds.h"

void rounds_order(size_t n, unsigned r, unsigned rounds, size_t *order)
{
	unsigned pairs = (rounds + 1) / 2;
	size_t shift = n ? (size_t)((unsigned long long)(r / 2) * n / pairs) % n : 0;
	for (size_t pos = 0; pos < n; pos++) {
		size_t at = r % 2 ? n - 1 - pos : pos;
		order[pos] = (at + shift) % n;
	}
}

enum run_role rounds_role(const struct rounds_file *f, unsigned r, unsigned rounds)
{
	if (rounds <= 1)
		return ROLE_ONLY;
	if (f->reported)
		return ROLE_NONE;
	return f->early || r + 1 >= rounds ? ROLE_REPORT : ROLE_SAMPLE;
}

bool rounds_sample_ended(struct rounds_file *f, unsigned r, int status, bool skipped,
			 double seconds)
{
	f->samples++;
	f->seconds += seconds;
	/* an error, a timeout or a skip will be the same again: report it now */
	if (skipped || status == 2 || status == 3 || status == 124)
		f->early = true;
	if (status == 0 || status_worse(f->worst, status) == f->worst)
		return false;
	f->worst = status;
	f->worst_round = r;
	return true;
}

int rounds_reported(struct rounds_file *f, int report_status)
{
	f->reported = true;
	f->report_status = report_status;
	return status_worse(report_status, f->worst);
}

bool rounds_show_sample(const struct rounds_file *f)
{
	return f->worst != 0 && status_worse(f->report_status, f->worst) != f->report_status;
}

void rounds_options(struct options *o, enum run_role role, const char *records)
{
	if (role == ROLE_ONLY || role == ROLE_NONE)
		return;
	o->proc_records = records;
	o->proc_sample = role == ROLE_SAMPLE;
	if (role != ROLE_SAMPLE)
		return;
	/* a sample times the file; what is written of it, the reporting run writes */
	o->json = false;
	o->json_file = NULL;
	o->json_capture = NULL;
	o->junit = NULL;
	o->csv = NULL;
	o->plot = NULL;
	o->dot = NULL;
	o->dumps = NULL;
	o->ndumps = 0;
	o->trace = NULL;
	o->describe = NULL;
	o->profile = false;
	o->compare = NULL;
	o->compare_doc = NULL;
	o->outputs = NULL;
	o->noutputs = 0;
}
