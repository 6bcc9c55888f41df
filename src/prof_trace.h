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

struct report_device;

/*
 * What the trace calls its process: "GPU 0: NVIDIA H100 80GB HBM3".  A file
 * on several devices (cugraphrun(5), Devices) has a process per device,
 * device 0 first: "GPU 1: NVIDIA H100 80GB HBM3 (device 1)", each holding
 * the tracks of the records CUPTI reported on that GPU.
 */
struct trace_info {
	const char *graph;              /* the file's name:, or its path */
	const char *device_name;
	int device;
	const struct report_device *devices;    /* NULL, or ndevices of them (report.h) */
	size_t ndevices;
};

/* The records (sorted by launch and start) as a trace to out.  0, or -1 on a write error. */
int trace_write(FILE *out, const struct prof_rec *recs, size_t n, const struct trace_info *ti);

#endif
