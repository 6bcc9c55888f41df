/*
 * Kernel launch attributes and what the device must allow for them: the
 * function attributes a kernel needs (the non-portable cluster size
 * opt-in, the shared memory carveout), the checks only the device can
 * make (a cooperative grid must be co-resident, a cluster shape must be
 * schedulable, device attributes for clusters, cooperative launches,
 * memory operations, windows and domains), the persisting-L2 set-aside of
 * run.persisting_l2, and each kernel node's launch attributes
 * (cuGraphKernelNodeSetAttribute), priority included.
 *
 * Every message points at the key that asked for the attribute; a device
 * that cannot is a CUDA-side error (exit 3).  For tests, the environment
 * variable CUGRAPHRUN_TEST_NO_DEVICE_ATTR=N,... (CUdevice_attribute
 * numbers) makes those device attributes read 0, as on a device without
 * them.
 *
 * Ownership: nothing of its own; the persisting-L2 limit it set is put
 * back by gpu_attr_close.
 */
#ifndef CGR_GPU_ATTR_H
#define CGR_GPU_ATTR_H

#include "gpu_state.h"

/* Before the first node: function attributes, device checks, the L2 set-aside.  0 or 3. */
int gpu_attr_prepare(struct gpu *gp);
/* Kernel node n, just added as h: its launch attributes.  0 or 3. */
int gpu_attr_set(struct gpu *gp, const struct node *n, CUgraphNode h);
/*
 * Kernel node n's launch attributes for a launch of its own
 * (cuLaunchKernelEx: stream and capture modes, gpu_stream.c), the same
 * ones gpu_attr_set gives its graph node, into out; how many (at most
 * GPU_ATTR_MAX).
 */
#define GPU_ATTR_MAX 12
unsigned gpu_attr_launch(const struct gpu *gp, const struct node *n, CUlaunchAttribute *out);
/* Put back the context's persisting-L2 limit (the primary context outlives a file). */
void gpu_attr_close(struct gpu *gp);
/* A device attribute of gp's device (0 where the test variable says so, or on error). */
int gpu_device_attr(const struct gpu *gp, CUdevice_attribute a);

#endif
