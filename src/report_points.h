/*
 * The report's points (report.h) in JSON, read alike for a plain file
 * (one point without a label) and a sweep (a labelled point each;
 * report_shape.c answers which): the "launch" and "processes" of a plain
 * file and of each point, the "processes" line for people, and the
 * "points" list of a sweep's report, one object per point with its
 * samples (as cugraphrun(1) and schemas/report.schema.json give it;
 * report_table.h prints them for people).  No CUDA: the back end fills
 * the report's points.  Nothing is owned.
 *
 * Each point of "points":
 *
 *   label              "n=2^20,T=f32"
 *   axes               {name: value as labelled ("2^20", "f32", "0.5")}
 *   prepare            how the point was prepared:
 *     kind               "instantiate" (built, instantiated, uploaded),
 *                        "update" (in place) or "same" (nothing changed)
 *     seconds            that work: finding what changed and the driver's
 *                        calls, or building, instantiating and uploading
 *     evaluate_s         reading and validating the point's model, which
 *                        happens for every point before the GPU is touched
 *                        (null when not measured)
 *     reason             why it was built again, naming the YAML node or
 *                        key (file:line:col); null when it was not (and
 *                        for the first point)
 *     updated_nodes      nodes given new parameters
 *   first_launch_s     its verification launch
 *   launch             as the top-level launch of a plain file's report
 *   processes          as the top-level processes of a plain file's report
 *   checks             {passed, failed}
 *   throughput         null unless the file declares throughput:, else
 *                      {bytes, items (each null when not declared),
 *                      gb_per_s, items_per_s, peak_percent}
 *   exit_status        0, or 1 when one of its checks failed
 */
#ifndef CGR_REPORT_POINTS_H
#define CGR_REPORT_POINTS_H

#include <stdio.h>

#include "report.h"

/*
 * The "launch" object of a point (a plain file's at the top, depth 1; a
 * sweep's point's, depth 3): its timed launches and warmup, the launches
 * before them.
 */
void report_launch_json(FILE *out, const struct point_report *p, unsigned warmup, int depth);

/*
 * The "processes" array of point k (a plain file's: 0) from the report's
 * records, at depth.
 */
void report_processes_json(FILE *out, const struct report *r, size_t k, int depth);

/*
 * A plain file's "process" (one) or "processes" line after its launch
 * line: the clock and precision of one, the spread of several; nothing
 * without a record.  A sweep's line after its table: the processes a
 * point and their clocks.
 */
void report_print_processes(FILE *out, const struct report *r);

/*
 * "points": [...] as the value of a key already written, at depth 1;
 * peak_gb_per_s the device's peak DRAM bandwidth for peak_percent (NaN:
 * unknown, and peak_percent is null).
 */
void report_points_json(FILE *out, const struct report *r, double peak_gb_per_s);

#endif
