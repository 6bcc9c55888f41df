/*
 * The launches of one run, as a plain file's run (gpu_run.c) and each
 * point of a sweep (gpu_sweep.c) make them: the buffers initialised, the
 * verification launch with its checks and dumps, then the warm-up and
 * timed launches; and the report printed at the end.
 *
 * Ownership: a struct run owns its events, the timed launches' state and
 * the launcher's executable graph (run_teardown); the report's spans and
 * the point's samples that run_launches allocates are the caller's to
 * free.
 */
#ifndef CGR_GPU_RUN_H
#define CGR_GPU_RUN_H

#include <stddef.h>

#include "gpu_launch.h"
#include "gpu_timed.h"
#include "prof_run.h"
#include "report.h"

/* What the run needs besides the built graph. */
struct run {
	struct launcher ln;             /* the gpu, the settings, the executable graph */
	CUevent ev[2];                  /* the verification launch's start and end (the profiled ones') */
	struct timed timed;             /* the warm-up and timed launches' (gpu_timed.h) */
	struct prof_run profile;        /* --profile (prof_run.h) */
	bool reported;                  /* run_report or run_report_stopped wrote it */
};

/*
 * Point p (a plain file's one, or a sweep's) on the instantiated graph,
 * with rn->ln's settings: the buffers' contents, the verification launch
 * (p->first_launch_s, its checks; dumps; the report's events unless an
 * earlier point gave them), the warm-up and the timed launches
 * (p->samples, nsamples).  0, or the exit status of what failed.
 */
int run_launches(struct run *rn, struct report *rep, struct point_report *p);
/*
 * The report and everything written from it (report_emit.h): the exit
 * status, rep->exit_status made worse by a regression or an output that
 * could not be written.
 */
int run_report(struct run *rn, struct report *rep);
/*
 * A run that stopped before its report (an error, a timeout): --json is
 * written all the same, with the report as far as it goes and status as
 * its exit_status, unless the report was written already.
 */
void run_report_stopped(struct run *rn, struct report *rep, int status);
/*
 * Under run.expect: fail, a run whose checks all passed says so before its
 * report, so that --json's diagnostics hold why it fails (main.c's
 * expectation() says the same again, which the diag gives once).
 */
void run_expect_said(const struct run *rn, int status);
/*
 * A run's report before the GPU is touched (a plain file's, a sweep's):
 * rep and rn zeroed, what the report says of a run that stops early, and
 * the --dump names checked.  0, or 2 after the report (--json) said why.
 */
int run_begin(struct run *rn, struct report *rep, const struct gdef *g,
	      const struct run_settings *s, struct diag *d);
/* The device's part of the report once rn's GPU is open; name: its buffer. */
void run_report_device(const struct run *rn, struct report *rep, char *name, size_t len);
/* g's throughput flops, and the device's peak for their kind (flops.h). */
void run_flops(const struct run *rn, const struct gdef *g, struct flops_decl *f);
/*
 * The graph made ready to launch, each phase's time in rep: modules
 * loaded (source modules compiled), buffers allocated, the graph built
 * (--dot written), instantiated and uploaded.  0, or the exit status of
 * what failed.
 */
int run_prepare(struct run *rn, struct report *rep);
/* The buffer --dump=NAME=FILE names, or -1 after a message. */
long run_dump_buffer(const struct gdef *g, const struct dump_req *dr);
/* The events and the executable graph, unless a sticky error makes CUDA unusable. */
void run_teardown(struct run *rn);

#endif
