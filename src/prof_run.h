/*
 * --profile's part of a run, after the timed launches: open CUPTI, drop
 * the timed instantiation and instantiate the graph afresh with CUPTI
 * attached, launch it one launch at a time with a flush of the records
 * between, summarize (prof_stat.h); then what is written from the
 * profile, --trace and the coloured --describe, before the report.  CUPTI
 * itself is prof_cupti.h's; launching, waiting and the words for a launch
 * are the launcher's (gpu_launch.h), the same as for the timed launches.
 *
 * Ownership: a struct prof_run owns the profiler, the profiled launch
 * times and the summary (the report borrows the summary);
 * prof_run_free() releases them and accepts a zeroed one.  It must be
 * freed after the run's executable graph and events are destroyed, before
 * the context is closed (gpu_close).
 */
#ifndef CGR_PROF_RUN_H
#define CGR_PROF_RUN_H

#include <stdint.h>

#include "cuda_api.h"
#include "gpu_build.h"
#include "gpu_launch.h"
#include "model.h"
#include "prof_cupti.h"
#include "prof_stat.h"
#include "report.h"
#include "run_settings.h"

/* What the profiled launches leave for the outputs and the report. */
struct prof_run {
	struct profiler *prof;          /* NULL until CUPTI was opened */
	double *samples;                /* each profiled launch, seconds */
	struct prof_summary *summary;
};

/*
 * The profiled launches: CUPTI opened (only now, after the timed
 * launches), ln's graph instantiated afresh, the settings' number of
 * launches one at a time, each between events start and end, the records
 * summarized into rep->profile with the timed samples of point timed (a
 * plain file's, or a sweep's one point) as the plain median.  0, or the
 * exit status after a message.
 */
int prof_run_launches(struct prof_run *pr, struct launcher *ln, CUevent start, CUevent end,
		     const struct point_report *timed, struct report *rep);

/*
 * --trace and the coloured --describe of s, when prof_run_launches took a
 * profile (else nothing); graph names the graph in the trace.  0 or 2.
 */
int prof_run_outputs(struct prof_run *pr, const struct run_settings *s,
		    const struct gdef *g, const char *graph, const struct report *rep);

void prof_run_free(struct prof_run *pr);

#endif
