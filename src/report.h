/*
 * The run report: one run's figures, printed as the human-readable
 * report (stdout) and as JSON by report_print.h (json.h writes the
 * primitives, stats.h summarizes the samples).  No CUDA here: the GPU back
 * end fills a struct report and hands it over.  The report does not own the
 * strings and arrays it points to.
 */
#ifndef CGR_REPORT_H
#define CGR_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "diag.h"
#include "model.h"
#include "stats.h"

/* The --json report's report_format: raised when a key changes meaning or goes away. */
#define REPORT_FORMAT 1

struct prof_summary;
struct comparison;

/* Elapsed time between two recorded events, in seconds. */
struct event_span {
	const char *from, *to;
	double seconds;
};

struct axis_value { const char *name; const char *text; /* as labelled */ };
struct point_report {
    const char *label;            /* "n=2^20,T=f32" */
    const struct axis_value *axes; size_t naxes;
    /* how the point was prepared */
    enum prep_kind { PREP_INSTANTIATE, PREP_UPDATE, PREP_SAME } prep;
    double prep_s;                 /* update, or instantiate + upload */
    const char *rebuild_why;       /* "node 'k3': grid ... (file:L:C)" or NULL */
    unsigned updated_nodes;        /* nodes given new parameters */
    double first_launch_s;
    const double *samples; size_t nsamples;
    unsigned checks_passed, checks_failed;
    double bytes, items;           /* throughput declared: NaN when not */
    int exit_status;               /* 0, 1 (a check failed), ... */
    /*
     * (core) reading and validating the point's model, before the GPU was
     * touched: the evaluation part of its preparation; NaN: not measured
     */
    double eval_s;
};

/* One of a file's devices (cugraphrun(5), Devices): the GPU it was. */
struct report_device {
	int ordinal;
	const char *name;               /* as the driver reports it */
	/* bit k: it reached device k's memory with peer access (itself included) */
	unsigned long long peers;
};

/*
 * The device's memory for graph allocations at one moment, in bytes, as
 * cuDeviceGetGraphMemAttribute counts it: in use by graphs and reserved
 * by their allocator, now and at the high-water marks.
 */
struct graph_mem {
	uint64_t used, used_high, reserved, reserved_high;
};

struct report {
	const char *name;               /* the file's name:, or NULL */
	const char *file;
	int device;
	const char *device_name;
	/* a file on several devices: each one's GPU, device 0 first (NULL, 0: one device) */
	const struct report_device *devices;
	size_t ndevices;
	int cc_major, cc_minor;
	int driver_version;             /* as cuDriverGetVersion: 13000 */
	const struct graph *root;       /* for node counts */
	double load_s, build_s, instantiate_s, upload_s;
	/* source modules compiled with NVRTC or found in the cache (0: none) */
	unsigned compile_modules, compile_cached;
	double compile_s;               /* that phase's wall time */
	double first_launch_s;
	uint32_t warmup;
	const double *samples;          /* timed launches, seconds */
	size_t nsamples;
	const struct event_span *spans;
	size_t nspans;
	/* a graph with alloc nodes: graph memory after the upload and after the launches */
	bool has_graph_mem;
	struct graph_mem mem_uploaded, mem_launched;
	unsigned checks_passed, checks_failed;
	int exit_status;
	const struct prof_summary *profile;     /* --profile, or NULL */
	/* the verification launch did not run (an invalid file, a CUDA error before it) */
	bool no_launch;
	/* diagnostics: what d printed, its log (diag_log), or NULL for none */
	const struct diag *diag;
	const struct point_report *points; size_t npoints;
	/*
	 * The device's peak DRAM bandwidth in GB/s, 2 x memory clock x bus
	 * width / 8 from the driver's attributes; NaN when it does not say.
	 */
	double peak_gb_per_s;
	/* A plain file's declared throughput (a sweep's is per point): NaN when not. */
	double bytes, items;
	const struct comparison *comparison;    /* --compare, or NULL */
};

#endif
