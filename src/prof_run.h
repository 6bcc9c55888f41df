/*
 * --profile's part of a run, after the timed launches: open CUPTI, drop
 * the timed instantiation and instantiate the graph afresh with CUPTI
 * attached, launch it one launch at a time with a flush of the records
 * between, summarize (profstat.h); then what is written from the profile,
 * --trace and the coloured --describe, before the report.  CUPTI itself is
 * profile.h's; the per-node figures are profstat.h's.
 *
 * The run (gpu_run.c) keeps the launching: it lends its helpers through a
 * struct profile_host, so that a profiled launch is queued, waited for
 * (with --timeout), named in messages and failed exactly like a timed one.
 *
 * Ownership: a struct profile_run owns the profiler, the profiled launch
 * times and the summary (the report borrows the summary);
 * profile_run_free() releases them and accepts a zeroed one.  It must be
 * freed after the run's executable graph and events are destroyed, before
 * the context is closed (gpu_close).
 */
#ifndef CGR_PROF_RUN_H
#define CGR_PROF_RUN_H

#include <stdint.h>

#include "cli.h"
#include "cuda_api.h"
#include "gpu_build.h"
#include "model.h"
#include "prof_cupti.h"
#include "prof_stat.h"
#include "report.h"

struct run;                             /* gpu_run.c's run, opaque here */

/*
 * What the profiled launches borrow from the run.  Launches are numbered
 * as the run numbers them in messages (launch_failed, timeouts): the
 * first profiled one is `first`, after the warm-up and timed ones.
 */
struct profile_host {
	struct run *run;                /* passed back to each helper */
	struct gpu *gp;
	uint32_t launches;              /* how many profiled launches (--profile-launches) */
	long first;                     /* the run's number of the first profiled launch */
	CUevent start, end;             /* the pair each profiled launch is timed with */
	/* Destroy the run's executable graph (the timed instantiation). */
	void (*drop_exec)(struct run *rn);
	/* Instantiate and upload the graph afresh; 0, or the exit status after a message. */
	int (*instantiate)(struct run *rn, double *inst_s, double *upload_s);
	/* Queue one launch between events start and end. */
	CUresult (*launch)(struct run *rn, CUevent start, CUevent end);
	/* Wait for launch k's end event from time start; 0, or the exit status (or _exit on timeout). */
	int (*wait_launch)(struct run *rn, long k, CUevent end, double start);
	/* Say launch k failed with r; the exit status (3). */
	int (*launch_failed)(struct run *rn, long k, CUresult r);
};

/* What the profiled launches leave for the outputs and the report. */
struct profile_run {
	struct profiler *prof;          /* NULL until CUPTI was opened */
	double *samples;                /* each profiled launch, seconds */
	struct prof_summary *summary;
};

/*
 * The profiled launches: CUPTI opened (only now, after the timed
 * launches), the graph instantiated afresh, h->launches launches one at a
 * time, the records summarized into rep->profile with rep's timed samples
 * as the plain median.  0, or the exit status after a message.
 */
int profile_launches(struct profile_run *pr, const struct profile_host *h,
		     struct report *rep);

/*
 * --trace and the coloured --describe of o, when profile_launches took a
 * profile (else nothing); graph names the graph in the trace.  0 or 2.
 */
int profile_outputs(struct profile_run *pr, const struct options *o, const struct gdef *g,
		    const char *graph, const struct report *rep);

void profile_run_free(struct profile_run *pr);

#endif
