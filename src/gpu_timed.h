/*
 * The warm-up and timed launches of one run or sweep point, after its
 * verification launch (gpu_run.h), and this process's record of them
 * (proc_record.h):
 *
 *   - launches come in batches queued back to back, each between its own
 *     pair of events, and the batch is waited for and read before the
 *     next; a count given (-n, run.repeat) is one batch, as it always was,
 *     and otherwise stop_rule.h says how big the next is and when to stop;
 *   - each launch is queued plainly (the default: the loop of a
 *     hand-written driver-API program, nothing added), after an L2-sized
 *     memset (--cold-l2), behind the blocking kernel (--gpu-time), or both,
 *     always outside the events;
 *   - the SM clock is probed (gpu_clock.h) after the warm-up, before the
 *     first timed launch, and after the last, outside the timed window.
 *
 * Ownership: a struct timed owns its events, the timing module and the
 * L2 buffer, kept from point to point of a sweep; timed_free releases
 * them before the context goes (not after a sticky error: then only the
 * host side) and accepts a zeroed one.
 */
#ifndef CGR_GPU_TIMED_H
#define CGR_GPU_TIMED_H

#include <stddef.h>
#include <stdint.h>

#include "gpu_clock.h"
#include "gpu_launch.h"
#include "proc_record.h"

struct timed {
	CUevent *ev;                    /* a pair per launch of the largest batch */
	size_t nev;
	struct gpu_clock clock;
	CUdeviceptr l2;                 /* --cold-l2: the buffer written before each launch */
	size_t l2_size;
	unsigned char fill;             /* the byte it is written with next */
	bool clock_failed;              /* no probe: said once, the clock is NaN */
	/*
	 * The probe before the timed launches runs on a stream of its own:
	 * a kernel launched on the launches' stream before them made every
	 * graph launch after it slower on the H200 (a fan of 100 empty
	 * kernels: 1.07 ms a launch against 0.09 ms, bench/README.md).
	 */
	CUstream side;
	CUevent side_done;
};

/*
 * Warm-up and timed launches on ln's instantiated graph, with its
 * settings; first_s is the verification launch's time (the first batch's
 * size for a slow graph).  The samples (seconds, malloc'd, the caller's)
 * in *samples and *n as far as they came; rec filled with this process's
 * figures.  0, or the exit status after a message (3, or _exit(124) on a
 * timeout).
 */
int timed_launches(struct timed *t, struct launcher *ln, double first_s, double **samples,
		   size_t *n, struct proc_record *rec);

void timed_free(struct timed *t, bool sticky);

#endif
