/*
 * The loader's reading of value ranges (private to load*.c): a sweep's
 * axes: section and a generator's for: range, from the event source into
 * the axes of a struct sweep (sweep.h).  The forms, as cugraphrun(5)
 * gives them:
 *
 *     n: [1024, 4096]              a list: integers, 2^K, floats, words
 *     n: 1024                      one value
 *     n: {pow2: [10, 24]}          2^10 to 2^24, each labelled "2^K"
 *     i: {from: 0, to: 15}         0 to 15 (to is included), step 1
 *     x: {from: 1, to: 0, step: -0.25}
 *     zip: {a: [...], b: [...]}    axes walked in step (axes: only)
 *
 * Errors go where the event source's go, at the value's position.
 */
#ifndef CGR_LOAD_AXES_H
#define CGR_LOAD_AXES_H

#include <stdbool.h>

#include "load_events.h"
#include "sweep.h"

/* The axes: value at the current event into sw's axes (values written out, no ${...}). */
void load_axes(struct evsrc *es, struct sweep *sw);

/*
 * A generator's range at the current event (its expressions already
 * evaluated) into a, an axis not in sw's list whose values live in sw's
 * arena; false after an error (the value is then read past).  Unlike an
 * axis's, it may have no values (a loop of no turns: {from: 1, to:
 * "${length - 1}"} at length 1).
 */
bool load_range(struct evsrc *es, struct sweep *sw, struct axis *a, const char *name);


#endif
