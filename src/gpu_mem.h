/*
 * The device's graph memory, for the report of a graph with alloc nodes:
 * what graphs use and what their allocator reserves, now and at the
 * high-water marks (cuDeviceGetGraphMemAttribute).  The marks count per
 * device since their last reset, and a suite worker runs file after file
 * on one device: so they are reset before each such file
 * (cuDeviceSetGraphMemAttribute), else a file would report an earlier
 * one's peak.  gpu_run.c reads the figures after the upload and after
 * the launches.
 *
 * Ownership: nothing here holds memory; the gpu is borrowed.
 */
#ifndef CGR_GPU_MEM_H
#define CGR_GPU_MEM_H

#include <stdbool.h>

#include "gpu_build.h"
#include "report.h"

/* Does the graph allocate memory (an alloc node anywhere)? */
bool gpu_mem_wanted(const struct gpu *gp);
/* Reset the device's two high-water marks.  0, or 3 after a message. */
int gpu_mem_reset(struct gpu *gp);
/* The four figures now.  0, or 3 after a message. */
int gpu_mem_read(struct gpu *gp, struct graph_mem *out);

#endif
