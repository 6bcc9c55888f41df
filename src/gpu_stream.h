/*
 * Stream mode (cugraphrun(1), MODES): the plan of the file's graph
 * (stream_plan.h) made real on the driver, its streams on each device,
 * its events and every step's parameters ready, then issued at every
 * launch as a hand-written program issues its work:
 *
 *   kernel        cuLaunchKernelEx, with the node's launch attributes
 *                 (gpu_attr.h) and the programmatic ones of the plan
 *   memset        cuMemsetD8Async, D16 or D32 by the element's width
 *   copy          cuMemcpyAsync
 *   alloc, free   cuMemAllocFromPoolAsync from the device's default pool
 *                 (release threshold raised while the run lasts, the
 *                 alloc node's peers given access), cuMemFreeAsync
 *   event_record, event_wait   cuEventRecord, cuStreamWaitEvent
 *   host          cuLaunchHostFunc
 *   memop         cuStreamBatchMemOp
 *   empty, a disabled node, a child graph's ends   their waits alone
 *   if, while, switch   the condition's word read back
 *                 (cuMemcpyDtoHAsync, an event the host waits for), then
 *                 the body chosen issued in place, a while's again after
 *                 each read that is not 0
 *
 * A condition lives in a word of device memory on its device, set to its
 * default at each launch (RESET) and written by the built-in kernels'
 * stream variants (builtin.cu), which take the word where the originals
 * take the handle.  Capture mode (gpu_capture.h) issues the same steps
 * once under stream capture, conditional nodes added to the capture.
 *
 * Ownership: a struct gstream owns its plan, the streams and events it
 * made, the copies of the steps' parameters, the conditions' words and
 * the host copies, and puts back the pools' thresholds it raised
 * (gstream_close, which releases host memory only after a sticky
 * error).  It borrows the gpu and the launcher; gp->handles it sets
 * (stream mode: each condition's word) are gp's, freed with it.
 */
#ifndef CGR_GPU_STREAM_H
#define CGR_GPU_STREAM_H

#include <stdbool.h>

#include "gpu_launch.h"
#include "gpu_state.h"
#include "stream_plan.h"

struct gstream;

/*
 * The plan of gp->g's graph made real, for stream mode (capture false:
 * every step's parameters ready, the words of the conditions allocated)
 * or capture mode (parameters readied as they are issued).  0, or 3
 * after a message.
 */
int gstream_open(struct gpu *gp, struct launcher *ln, bool capture, struct gstream **out);

/* One launch's issue on the launch's stream (launcher.issue). */
CUresult gstream_issue(void *gs);

/* The next launch's number, as the launcher numbers them (-1: the verification launch). */
void gstream_number(struct gstream *gs, long k);

/* Streams one launch uses, bodies' included; host waits of the last launch. */
unsigned gstream_streams(const struct gstream *gs);
unsigned gstream_host_waits(const struct gstream *gs);

void gstream_close(struct gstream *gs);

/*
 * Capture mode (gpu_capture.c): the issue of gs once under capture on the
 * launch's stream, into gp->root, the conditions' handles created in it
 * first (gp->handles).  0, or 3 after a message.
 */
int gstream_capture(struct gstream *gs);

/* --- what gpu_stream.c and gpu_capture.c share --- */

#include "gpu_attr.h"

/* A step made real. */
struct gstep {
	CUgraphNodeParams p;            /* a node's parameters (gpu_node_params), copies owned */
	CUfunction f;                   /* a kernel's (a library's kernel cast, as cuLaunchKernelEx takes it) */
	CUlaunchAttribute attrs[GPU_ATTR_MAX + 3];
	unsigned nattrs;
	bool ready;                     /* p, f and attrs are set */
	bool repack;                    /* it uses graph memory: readied again at each issue */
	CUevent ev[PEV_COUNT];          /* the events it gives */
	CUevent poll;                   /* stream mode, a conditional node: the host waits for it */
	struct gplan **bodies;          /* a conditional node's */
};

/* A plan made real. */
struct gplan {
	const struct splan *sp;
	struct gstep *steps;
	CUstream *streams;              /* per plan stream; [0] the home, set at issue for a body in stream mode */
	bool *own;                      /* per plan stream: made here */
};

struct gstream {
	struct gpu *gp;                 /* borrowed */
	struct launcher *ln;            /* borrowed */
	bool capture;
	struct splan *plan;
	struct gplan *root;
	unsigned nstreams;              /* streams one launch uses */
	CUdeviceptr *word;              /* stream mode: per condition, its word */
	CUdeviceptr *blocks;            /* per device: the words' allocation, or 0 */
	uint32_t *host_words;           /* per condition: its word read back (pinned) */
	unsigned cur_device;            /* whose context is current while issuing */
	long launch;                    /* the launch being issued, as the launcher numbers it */
	double launch_start;            /* monotime at its first host wait; NaN before */
	unsigned waits, last_waits;     /* host waits of this launch, of the last one */
	CUmemoryPool *pools;            /* per device: the default pool whose threshold was raised */
	cuuint64_t *threshold;          /* its threshold before */
	const struct node *failed;      /* the node whose issue failed */
	const char *failed_call;
	/*
	 * A conditional step i of p, on s: stream mode's read back and body
	 * issued in place (gstream_open sets it), capture mode's node added to
	 * the capture (gstream_capture sets it; NULL until then).
	 */
	CUresult (*cond)(struct gstream *gs, struct gplan *p, size_t i, CUstream s);
};

/* Issue plan p, its stream 0 being home (NULL: its own). */
CUresult gstream_issue_plan(struct gstream *gs, struct gplan *p, CUstream home);
/* Make the context of device k current while issuing. */
void gstream_device(struct gstream *gs, unsigned k);

#endif
