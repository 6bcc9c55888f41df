/*
 * --trace=FILE: the profiled launches as a Chrome trace-event JSON file,
 * the format Perfetto and chrome://tracing open.  No CUDA here: it writes
 * the records prof_cupti.c collected.  It borrows everything it is given.
 */
#ifndef CGR_PROF_TRACE_H
#define CGR_PROF_TRACE_H

#include <stddef.h>
#include <stdio.h>

#include "prof_stat.h"

/* What the trace calls its process: "GPU 0: NVIDIA H100 80GB HBM3". */
struct trace_info {
	const char *graph;              /* the file's name:, or its path */
	const char *device_name;
	int device;
};

/* The records (sorted by launch and start) as a trace to out.  0, or -1 on a write error. */
int trace_write(FILE *out, const struct prof_rec *recs, size_t n, const struct trace_info *ti);

#endif
