/*
 * The modes' table of a run in modes (modes.h, cugraphrun(1) MODES): per
 * point and mode, the one-time work (building the graph, capturing it,
 * or planning the streams), instantiate and upload, the first launch,
 * the timed launches' GPU time, the host's submission time and the wall
 * time per launch of a back-to-back loop, and the break-even of each
 * graph (graph and capture modes) against stream launches of the same
 * point: how many launches repay the graph's one-time cost (build or
 * capture, instantiate and upload; loading modules is the same for all
 * modes and left out) with its saving per launch,
 *
 *     ceil(once / (per launch in stream mode - per launch as the graph)),
 *
 * from the wall time per launch and from the median GPU time, and
 * "never" when the graph is not faster.  Printed for people in place of
 * a sweep's table, and as the JSON report's "modes" list, one object per
 * row in the points' order:
 *
 *   label              the point's label, mode included
 *   mode               "graph", "stream" or "capture"
 *   prepare_s          the one-time work: building the graph, capturing
 *                      the stream issue into one, or (stream) planning
 *                      the streams and readying every step's parameters
 *   instantiate_s, upload_s   null in stream mode
 *   first_launch_s     the verification launch (GPU time)
 *   gpu_s              the timed launches' median GPU time (null: none)
 *   submit_s           host time to submit one launch, the mean over the
 *                      back-to-back loop (null: not run, -n 0)
 *   wall_s             wall time per launch of that loop: from its first
 *                      submission to its last launch's end, over its
 *                      launches (null: not run)
 *   loop_launches      that loop's launches
 *   streams            streams one launch uses (1 for graph mode)
 *   host_waits         stream mode: the times one launch waited on the
 *                      host for a condition (the last timed launch's); 0
 *                      elsewhere
 *   break_even         null for a stream row, else {wall, gpu}: each a
 *                      count of launches, "never", or null when the point
 *                      has no stream row or no figure to compare
 *
 * No CUDA here.  Nothing is owned.
 */
#ifndef CGR_REPORT_MODES_H
#define CGR_REPORT_MODES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "modes.h"
#include "report.h"

/* A row's mode and the figures only a run in modes has. */
struct mode_row {
	enum run_mode mode;
	double prepare_s;               /* build, capture, or plan */
	double instantiate_s, upload_s; /* NaN in stream mode */
	unsigned streams;
	unsigned host_waits;
	size_t loop_launches;           /* 0: the loop did not run */
	double submit_s, wall_s;        /* per launch of the loop; NaN when it did not run */
};

/* The break-even of a graph against stream launches (ceil, at least 1). */
struct break_even {
	enum { BE_UNKNOWN, BE_NEVER, BE_AT } kind;
	double launches;                /* BE_AT */
};

/* Does the report hold a run in modes (a point with a mode row)? */
bool report_has_modes(const struct report *r);

/*
 * Point k's break-even against the stream row of the same point (the same
 * axis values but mode), from the wall time per launch (gpu false) or
 * the median GPU time.  BE_UNKNOWN for a stream row, a point without a
 * stream row, and a figure that is missing.
 */
void mode_break_even(const struct report *r, size_t k, bool gpu, struct break_even *be);

/* The table for people, in place of a sweep's (report_table.h), with its legend. */
void report_print_modes(FILE *out, const struct report *r);

/* "modes": [...] as the value of a key already written, at depth 1. */
void report_modes_json(FILE *out, const struct report *r);

#endif
