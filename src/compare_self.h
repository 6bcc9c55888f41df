/*
 * --self-check: what the --compare gate is worth on the user's own files
 * and machine, before anyone trusts it (cugraphrun(1), COMPARING).  Given
 * one stored report whose files were run in many processes
 * (--processes=P), each point's processes are cut, in the order they ran,
 * into disjoint groups of COMPARE_BASE_PROCESSES + COMPARE_NEW_PROCESSES,
 * and each group's first processes are compared, as a base, with its last,
 * as a run: nothing changed between them, so every SLOWER or FASTER is a
 * false verdict.  Disjoint groups keep one odd process from tainting more
 * than one comparison of its point.  The rate of false verdicts is given
 * with its 95% upper bound (Clopper-Pearson), SAME and UNCERTAIN with
 * their shares and UNCERTAIN's reasons, and the points whose processes
 * hold too few launches to judge apart.  Nothing is owned past a call.
 */
#ifndef CGR_COMPARE_SELF_H
#define CGR_COMPARE_SELF_H

#include <stddef.h>

#include "cli.h"

/*
 * The one-sided 95% upper bound of a rate from k events in n trials
 * (Clopper-Pearson): 1 - 0.05^(1/n) for k = 0; NaN for n = 0.
 */
double rate_upper_95(size_t k, size_t n);

/* Self-check the stored report o->file; the table, and --json's document.  0, or 2. */
int compare_self_main(const struct options *o);

#endif
