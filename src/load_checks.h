/*
 * The loader's checks and run settings (private to load*.c): the
 * top-level sections checks: (what to compare a buffer with after a
 * launch: expected values, reductions and their bounds, finite), run:
 * (repeat, warmup, timeout, device, instantiate flags, expect, skip,
 * persisting_l2, verify_launches) and throughput: (bytes, items), read into the model by
 * the top-level table (load_file.c).  A later point of a template reads a
 * check, run: or throughput: again alone (load_point.c).
 */
#ifndef CGR_LOAD_CHECKS_H
#define CGR_LOAD_CHECKS_H

#include <stddef.h>

#include "load_map.h"

/* The sections' handlers, for the top-level table: obj is the model. */
key_fn key_checks, key_run, key_throughput;

/* Check c's mapping, the current event (c is element index of the model's checks). */
void parse_check(struct ld *l, struct check *c, size_t index);

#endif
