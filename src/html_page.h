/*
 * The HTML page's model (report_html.h): what the page shows of a
 * report, read back from the --json document (html_read.h), so that the
 * page a run writes and the page made later from its stored report are
 * the same page.  Plain C, no JSON in it: a number the report wrote as
 * null, or did not write, is NaN; a string, NULL; an object, a NULL
 * pointer; a list, NULL and 0 (an empty one, 0 and a pointer to none).
 *
 * Ownership: a struct page owns everything in it, in its arena, its
 * files' comparisons too (page_free: never comparison_free one of
 * them); the model borrows nothing.
 */
#ifndef CGR_HTML_PAGE_H
#define CGR_HTML_PAGE_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "report.h"
#include "xmalloc.h"

struct page_cmp;

/* "launch": the timed launches' figures and samples. */
struct page_launch {
	double repeat, warmup, median_s, min_s, mean_s, max_s, stddev_s;
	double *samples;
	size_t nsamples;
};

/* One process's record (proc_record.h), as "processes" writes it. */
struct page_proc {
	double pid, launches;
	const char *stopped_by;
	double precision_percent, median_s, p10_s, iqr_s, sm_clock_mhz;
	double sm_clock_before_mhz, sm_clock_after_mhz;
	const char *gpu_uuid;
	double driver_version;
};

struct page_throughput {
	double bytes, items, gb_per_s, items_per_s, peak_percent;
};

struct page_checks {
	double passed, failed;
};

struct page_note {
	const char *file;
	double line, column;
	const char *message;
};

struct page_diag {
	const char *file;
	double line, column;
	const char *severity, *message;
	struct page_note *notes;
	size_t nnotes;
};

struct page_event {
	const char *from, *to;
	double seconds;
};

/* A sweep point's preparation: "instantiate", "update" or "same". */
struct page_prepare {
	const char *kind, *reason;
	double seconds, evaluate_s, updated_nodes;
};

struct page_point {
	const char *label;
	struct axis_value *axes;
	size_t naxes;
	struct page_prepare *prepare;
	double first_launch_s, exit_status;
	struct page_launch *launch;
	struct page_proc *procs;
	size_t nprocs;
	struct page_checks *checks;
	struct page_throughput *throughput;
};

/* One node of the profile ("profile": "nodes"). */
struct page_prof_node {
	const char *id, *kind;
	double device, executions, executions_total, median_s, min_s, max_s, per_launch_s, share;
	bool on_critical_path, disabled;
};

struct page_step {
	const char *id, *kind;
	double depth, time_s, iterations;
};

struct page_path {
	double total_s, launch_median_s, overhead_and_gaps_s;
	struct page_step *steps;
	size_t nsteps;
};

struct page_profile {
	double launches, median_s, plain_median_s, cost_ratio;
	double records, unmapped_records, dropped_records, incomplete_records;
	struct page_prof_node *nodes;
	size_t nnodes;
	struct page_path *path;
};

struct page_device {
	double ordinal, peak_bandwidth_gb_per_s;
	const char *name, *compute_capability, *sm, *driver;
};

/* A count of one node kind ("by_kind"). */
struct page_kind {
	const char *name;
	double count;
};

struct page_graph {
	double nodes;
	struct page_kind *by_kind;
	size_t nkinds;
};

struct page_phases {
	double load_s, build_s, instantiate_s, upload_s, compile_s;
};

/* "description": the DOT text (NULL: none) and where it is in the document. */
struct page_dot {
	const char *text;
	struct pos pos;
};

/* One file's report: a plain file's (launch) or a sweep's (points). */
struct page_report {
	const char *cugraphrun, *name, *file;
	double report_format, first_launch_s, exit_status;
	struct page_device *device;
	struct page_graph *graph;
	const char **disabled;
	size_t ndisabled;
	struct page_phases *phases;
	struct page_launch *launch;
	struct page_proc *procs;
	size_t nprocs;
	struct page_event *events;
	size_t nevents;
	struct page_throughput *throughput;
	struct page_checks *checks;
	struct page_diag *diags;
	size_t ndiags;
	struct page_profile *profile;
	struct page_point *points;
	size_t npoints;
	bool has_points;                /* a sweep's report (its points may be none) */
	struct page_cmp *comparison;    /* --compare's, read by html_compare.h; NULL: none */
	struct page_dot description;    /* the DOT of --describe */
};

/* A suite's file: its result and its report (NULL: it made none). */
struct page_entry {
	const char *file, *result, *skip_reason, *message;
	bool expected_failure;
	double exit_status, seconds, device;
	struct page_report *report;
};

struct page_summary {
	double passed, failed, skipped, errors, timeouts, slower;
};

struct page {
	const char *path;               /* what messages call the document */
	bool suite;
	struct page_report *report;     /* one file's document */
	struct page_entry *files;       /* a suite's */
	size_t nfiles;
	struct page_summary *summary;
	const char *compare_base;       /* a suite's --compare base, and its files not run */
	const char **only_in_base;
	size_t nonly_in_base;
	double exit_status;
	struct arena arena;
};

void page_free(struct page *pg);

#endif
