/*
 * CUPTI, opened at run time like the driver (never linked): the profiled
 * launches' activity records (kernels, memsets, memcpys, copies between
 * GPUs), each mapped back
 * to the YAML node it ran for through its graph node id.  <cupti*.h> is
 * included in prof_cupti.c and nowhere else.
 *
 * Use, after the timed launches (so that they run with no CUPTI even
 * loaded): profiler_open(), profiler_start() before
 * the profiled graph is instantiated (its node clones are announced to the
 * resource callback then), profiler_flush() after each profiled launch,
 * profiler_stop(), and profiler_records().
 *
 * Ownership: a struct profiler owns its records and their kernel names;
 * profiler_free() releases them and accepts NULL.  CUPTI allows one
 * subscriber and one set of buffer callbacks per process: one profiler at
 * a time.
 */
#ifndef CGR_PROF_CUPTI_H
#define CGR_PROF_CUPTI_H

#include <stddef.h>
#include <stdint.h>

#include "gpu_build.h"
#include "prof_stat.h"

struct profiler;

/* Find and open libcupti; NULL after a message saying what is missing. */
struct profiler *profiler_open(void);
/* Subscribe, learn the ids of gp's nodes, turn activity on.  0 or 3. */
int profiler_start(struct profiler *p, const struct gpu *gp);
/* Deliver every record so far, tagged as launch `launch`.  0 or 3. */
int profiler_flush(struct profiler *p, uint32_t launch);
/* Activity off, unsubscribe.  0 or 3. */
int profiler_stop(struct profiler *p);
/* The records, each mapped to its node (or NULL), sorted by launch and start. */
const struct prof_rec *profiler_records(struct profiler *p, size_t *n);
/* Records CUPTI reported as dropped. */
uint64_t profiler_dropped(const struct profiler *p);
/* Records left out for want of a start or an end (work a forced flush caught). */
uint64_t profiler_incomplete(const struct profiler *p);
void profiler_free(struct profiler *p);

#endif
