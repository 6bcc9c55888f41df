/*
 * The GPU back end's entry point.  It takes a validated definition and the
 * effective run settings, loads the CUDA driver at run time, builds,
 * instantiates, launches, checks and times the graph, prints the report,
 * and returns the process exit status (0, 1, 3 or 124: see cugraphrun(1)).
 * Built without cuda.h, it says so and returns 3.
 */
#ifndef CGR_GPU_H
#define CGR_GPU_H

#include "cli.h"
#include "diag.h"
#include "model.h"

/* Settings after merging the command line over the file's run: section. */
struct run_settings {
	uint32_t repeat;                /* default 100 */
	uint32_t warmup;                /* default 3 */
	int device;                     /* default 0 */
	uint64_t timeout_ns;            /* 0: none */
	unsigned instantiate;           /* enum inst_flag bits */
	double frontend_s;              /* reading and validating the file (main) */
};

void run_settings_merge(struct run_settings *s, const struct gdef *g,
			const struct options *o);

int gpu_run(struct gdef *g, const struct run_settings *s, const struct options *o,
	    struct diag *d);

/*
 * A suite worker's start, before its first file (suite.h): load the
 * driver, cuInit, and hold the primary context of GPU device for the
 * process's life.  Returns the number of GPUs, or -1 without a driver or
 * device (each file then says why).  Never called in the parent.
 */
int gpu_worker_init(int device);

#endif
