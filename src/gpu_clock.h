/*
 * What the timed launches (gpu_timed.h) run on the GPU besides the graph:
 * a small module of hand-written PTX of their own, not the user's
 * builtin one, loaded into the run's context when first needed, with
 *
 *   - the SM clock probe: one thread reads %clock64 and %globaltimer,
 *     spins CLOCK_PROBE_CYCLES cycles (about 1 ms at an H100's 1,980 MHz),
 *     reads both again and stores the two differences, from which the
 *     clock the SM ran at is cycles / ns (nvbench's measure, not the
 *     nominal clock the driver reports);
 *   - the blocking kernel of --gpu-time: it holds the stream until the
 *     host releases it through a host-mapped word, so that the start
 *     event, the graph's launch and the end event are all queued before
 *     the GPU reaches the first of them (nvbench's blocking kernel);
 *
 * and the GPU's UUID (cuDeviceGetUuid), which the process's record names.
 *
 * Ownership: a struct gpu_clock owns its module and its host-mapped
 * words; gpu_clock_close releases them (before the context goes) and
 * accepts a zeroed one.
 */
#ifndef CGR_GPU_CLOCK_H
#define CGR_GPU_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

#include "cuda_api.h"

/* The probe's spin: about 1 ms at 1,980 MHz, 5.8 ms at the 345 MHz of an idle H100. */
#define CLOCK_PROBE_CYCLES 2000000

/* How long the blocking kernel waits for its release at most, then lets the stream go. */
#define CLOCK_BLOCK_TIMEOUT_NS 10000000000ull

struct gpu_clock {
	CUmodule mod;                   /* NULL until opened */
	CUfunction probe, block;
	/*
	 * Host-mapped words: [0] the blocking kernel's release (a sequence
	 * number), [1] set when one gave up waiting, [4..11] two probes'
	 * cycles and nanoseconds as 64-bit pairs.
	 */
	volatile uint32_t *host;
	CUdeviceptr dev;                /* the same words, as the GPU reads them */
	uint32_t seq;                   /* the last blocking kernel queued */
};

/*
 * The module and the words, in the current context (nothing when they are
 * there already); on failure *what says what could not be done.
 */
CUresult gpu_clock_open(struct gpu_clock *c, const char **what);
void gpu_clock_close(struct gpu_clock *c);

/* Queue probe slot (0 or 1) on stream st, its result cleared first. */
CUresult gpu_clock_probe(struct gpu_clock *c, CUstream st, int slot);
/* Once st has passed probe slot: the SM clock in MHz; NaN when it did not run. */
double gpu_clock_mhz(const struct gpu_clock *c, int slot);

/* Queue a blocking kernel on st, which holds it until gpu_clock_release(c, *seq). */
CUresult gpu_clock_block(struct gpu_clock *c, CUstream st, uint32_t *seq);
/* Let the blocking kernel seq (and every one before it) go. */
void gpu_clock_release(struct gpu_clock *c, uint32_t seq);
/*
 * Did a blocking kernel give up waiting since the last call (the host was
 * slower than CLOCK_BLOCK_TIMEOUT_NS to queue its launch)?
 */
bool gpu_clock_gave_up(struct gpu_clock *c);

/* The UUID of dev into uuid; false when the driver gives none. */
bool gpu_uuid(CUdevice dev, uint8_t uuid[16]);

#endif
