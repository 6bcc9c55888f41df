/*
 * The GPU back end's entry point.  It takes a validated definition and the
 * run's settings (run_settings.h: the whole contract with the front end),
 * loads the CUDA driver at run time, builds, instantiates, launches,
 * checks and times the graph, prints the report, and returns the process
 * exit status (0, 1, 3 or 124: see cugraphrun(1)).
 * Built without cuda.h, it says so and returns 3.
 */
#ifndef CGR_GPU_H
#define CGR_GPU_H

#include "diag.h"
#include "model.h"
#include "run_settings.h"

int gpu_run(struct gdef *g, const struct run_settings *s, struct diag *d);

struct sweep;
/*
 * A sweep (sweep.h): its points run one after another on one executable
 * graph, updated from point to point where the driver allows it
 * (gpu_update.h), each with its own checks and timings, and one report
 * with a row per point.  s holds each point's settings (npoints of them).
 */
int gpu_run_sweep(const struct sweep *sw, const struct run_settings *s, struct diag *d);

/*
 * A suite worker's start, before its first file (suite.h): load the
 * driver, cuInit, and hold the primary context of GPU device for the
 * process's life.  Returns the number of GPUs, or -1 without a driver or
 * device (each file then says why).  Never called in the parent.
 */
int gpu_worker_init(int device);

#endif
