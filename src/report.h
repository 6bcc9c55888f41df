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
#include "flops.h"
#include "model.h"
#include "proc_record.h"
#include "stats.h"

/* The --json report's report_format: raised when a key changes meaning or goes away. */
#define REPORT_FORMAT 2

struct prof_summary;
struct comparison;
struct sweep;
struct mode_row;

/* Elapsed time between two recorded events, in seconds. */
struct event_span {
	const char *from, *to;
	double seconds;
};

struct axis_value { const char *name; const char *text; /* as labelled */ };

/*
 * One timed thing of a run: a point of a sweep, or a plain file's one
 * point, which has no label and no axes (a plain file is a sweep of one
 * unlabelled point).
 */
struct point_report {
	const char *label;              /* "n=2^20,T=f32"; NULL for a plain file */
	const struct axis_value *axes;
	size_t naxes;
	/* how the point was prepared (a sweep's; a plain file's phases are the report's) */
	enum prep_kind { PREP_INSTANTIATE, PREP_UPDATE, PREP_SAME } prep;
	double prep_s;                  /* update, or instantiate + upload */
	const char *rebuild_why;        /* "node 'k3': grid ... (file:L:C)" or NULL */
	unsigned updated_nodes;         /* nodes given new parameters */
	double first_launch_s;          /* its verification launch */
	const double *samples;          /* its timed launches, seconds */
	size_t nsamples;
	unsigned checks_passed, checks_failed;
	double bytes, items;            /* throughput declared: NaN when not */
	struct flops_decl flops;        /* and its flops (flops.h) */
	int exit_status;                /* 0, 1 (a check failed), ... */
	/*
	 * (core) reading and validating the point's model, before the GPU was
	 * touched: the evaluation part of its preparation; NaN: not measured
	 */
	double eval_s;
	/* this process's record of it (proc_record.h), once its timed launches are over */
	struct proc_record self;
	bool timed;
	const struct mode_row *mode;    /* a run in modes: its mode's figures (report_modes.h), else NULL */
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
	uint32_t warmup;
	/* the first point's events (a sweep's stand for all of its points) */
	const struct event_span *spans;
	size_t nspans;
	/* a graph with alloc nodes: graph memory after the upload and after the launches */
	bool has_graph_mem;
	struct graph_mem mem_uploaded, mem_launched;
	int exit_status;                /* the process's (a point's is its own) */
	const struct prof_summary *profile;     /* --profile, or NULL */
	/* the verification launch did not run (an invalid file, a CUDA error before it) */
	bool no_launch;
	/* diagnostics: what d printed, its log (diag_log), or NULL for none */
	const struct diag *diag;
	/*
	 * The points that ran (the one in progress too), in order: a plain
	 * file's one unlabelled point, or a sweep's labelled ones; none before
	 * the first launch of a sweep, or in a report of a file that never ran.
	 */
	const struct point_report *points;
	size_t npoints;
	/*
	 * Every process's records of every point, by point and then in the
	 * order the processes ran (this one's last): "processes".  Set while
	 * the report is written (report_emit.h); NULL, 0: none.
	 */
	const struct proc_record *procs;
	size_t nprocs;
	/* a sweep: launch is null whatever ran (each point has its own) */
	bool sweep;
	/* a sweep not run (--validate --json, --points --json): its points (sweep_list.h) */
	const struct sweep *listing;
	/*
	 * The device's peak DRAM bandwidth in GB/s, 2 x memory clock x bus
	 * width / 8 from the driver's attributes; NaN when it does not say.
	 */
	double peak_gb_per_s;
	const struct comparison *comparison;    /* --compare, or NULL */
	/* the model it ran (a sweep's first point's), for its "description"; NULL: none */
	const struct gdef *model;
	bool describe_buffers;          /* the description with buffers (--describe-buffers) */
};

/* A sweep's report (labelled points), not a plain file's (report_shape.c). */
bool report_is_sweep(const struct report *r);
/*
 * A plain file's one point: its own, or an empty one (no samples, no
 * throughput) when the report has none; NULL for a sweep.
 */
const struct point_report *report_plain_point(const struct report *r);
/* Its points, or a plain file's empty one when it has none: a row each (*n >= 1). */
const struct point_report *report_rows(const struct report *r, size_t *n);
/* The checks of every point, summed: the report's. */
void report_checks(const struct report *r, unsigned *passed, unsigned *failed);

#endif
