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

#include <stdbool.h>
#include <stddef.h>

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

struct mode_list;
/*
 * A run in modes (modes.h, cugraphrun(1) MODES), validated
 * (validate_modes.h): each point of sw (a plain file is one) in each of
 * its modes, from scratch, with its checks and timings, a back-to-back
 * loop for the wall time per launch, and one report whose points are the
 * rows, with the modes' table and break-even.  s: each point's settings.
 */
int gpu_run_modes(const struct sweep *sw, const struct run_settings *s,
		  const struct mode_list *list, struct diag *d);

/*
 * A suite's file that needs more GPUs than the suite has (from s->device,
 * among s->device_mask's): true, with the reason for the SKIPPED line in
 * why ("needs 2 GPUs, and the suite has 1 (GPU 1)").  A single run says
 * so itself, as an error (exit 3).
 */
bool gpu_too_few(const struct gdef *g, const struct run_settings *s, char *why, size_t len);

struct device_facts;
/*
 * The machine as a file's requires: asks it (requires.h): the driver,
 * the GPUs the run may use (s->device_mask's in a suite), the run's GPU
 * (s->device) and its compute capability, name and memory.  Loads the
 * driver when it is there, saying nothing when it is not (f->driver
 * false).
 */
void gpu_device_facts(const struct run_settings *s, struct device_facts *f);

/*
 * The version of the driver loaded, as it says it: the one whose JIT
 * compiles PTX, whatever CUGRAPHRUN_TEST_DRIVER_VERSION makes the rest of
 * the back end believe.
 */
int gpu_driver_version_real(void);

/*
 * A suite worker's start, before its first file (suite.h): load the
 * driver, cuInit, and hold the primary context of GPU device for the
 * process's life.  Returns the number of GPUs; -1, after a message, when
 * the driver is missing or does not start (no worker can run); -2, after
 * one, when device is not there.  Never called in the parent.
 */
int gpu_worker_init(int device);

#endif
