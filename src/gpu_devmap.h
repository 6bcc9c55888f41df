/*
 * Which GPU each of a file's devices is (cugraphrun(5), Devices), worked
 * out with no CUDA in it so that it is unit-tested without a GPU and
 * shared by the single run and the suite's workers.  A file's device
 * numbers are relative to the run: the GPUs the run may use are those of
 * a mask (bit i: GPU i; --devices in a suite) or else every GPU the
 * driver sees, in ascending order; the file's device 0 is the run's GPU
 * (-d, run.device, or its suite worker's), device k the k-th GPU after it
 * in that list, wrapping at its end.  So a file that needs two GPUs runs
 * on any machine with two, from any worker, and never names the same GPU
 * twice.
 *
 * Ownership: the caller's buffers only.
 */
#ifndef CGR_GPU_DEVMAP_H
#define CGR_GPU_DEVMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The GPUs the run's devices 0 to need - 1 are, into ordinals[0..need),
 * for a run on GPU base with the GPUs of mask (0: all count of them).
 * false when the list holds fewer than need GPUs; *have is how many it
 * holds (base among them: a base off the list counts as one more).
 */
bool devmap(int base, uint64_t mask, int count, unsigned need, int *ordinals, unsigned *have);

/*
 * The GPUs the run may use, in words, into buf: "GPU 1", "GPUs 0 and 1",
 * "GPUs 0, 1 and 3".  Returns buf.
 */
const char *devmap_words(int base, uint64_t mask, int count, char *buf, size_t len);

#endif
