/*
 * The one clock cugraphrun measures its own phases with: monotonic
 * seconds (CLOCK_MONOTONIC), whose differences are durations and whose
 * values mean nothing alone.  GPU times come from CUDA events, not from
 * here.
 */
#ifndef CGR_MONOTIME_H
#define CGR_MONOTIME_H

/* Monotonic seconds. */
double monotime(void);

#endif
