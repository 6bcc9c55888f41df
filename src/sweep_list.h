/*
 * What a sweep will do, without a GPU (--points, and the points of
 * --validate --json): each point's label, its axis values, and the values
 * its model took from them, for the objects whose scalars read an axis
 * (their dynamic flag): buffers (type, count, memory, init), kernel
 * nodes (function, grid, block, shared memory, arguments), memset, copy
 * and host nodes (buffers, values, offsets, counts), conditions'
 * defaults, checks (their slice, expected values or bounds, tolerances);
 * and for every point its run: values and declared throughput.  A wrong
 * expected value (an integer division where a float was meant) shows
 * here, before the GPU is reached.
 *
 * Text: one line per point, then one indented line per value:
 *
 *     n=1024,T=f32
 *       buffer x: f32, 1024 elements (4 KiB), device
 *       kernel 'scale' (graph.yaml:14:5): k.scale<float>, grid 4, block 256,
 *         args (x, y, {i32: 1024}, {f32: 2})
 *       check 1 (graph.yaml:20:5): buffer y, expect 3.5, rtol 1e-06
 *       throughput: 12288 bytes, 1024 items
 *
 * JSON: a list of objects, one per point, as cugraphrun(1) gives them
 * (label, axes, buffers, nodes, conditions, checks, run, throughput).
 * Nothing here is owned: the sweep is read.
 */
#ifndef CGR_SWEEP_LIST_H
#define CGR_SWEEP_LIST_H

#include <stdio.h>

#include "sweep.h"

/* The points of sw (validated) as text on out. */
void sweep_list_text(FILE *out, const struct sweep *sw);

/* As the value of a key already written at depth: a JSON list of the points. */
void sweep_list_json(FILE *out, const struct sweep *sw, int depth);

#endif
