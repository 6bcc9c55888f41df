/*
 * Host nodes' actions, run by the CUDA driver on its own thread each time
 * the node runs, with no CUDA in sight: print a line, sleep, print a
 * buffer's elements, set them, copy between buffers, call a function of
 * the user's (host_lib.h).  The back end
 * (gpu_build.c) makes one struct host_call per host node and hands it to
 * the driver; what the actions mean is here, so it is unit-tested without
 * a GPU.
 *
 * A dump prints once, on the node's first run during the launch whose
 * state the checks see (the last of the verification launches: the back
 * end arms the env for it), unless it asks for every launch; under -q
 * (quiet) print and dump print nothing, while set, copy and sleep still
 * act.
 *
 * Ownership: a host_env borrows the definition, the buffers' host
 * addresses and the stream; a host_call borrows its env and node.
 */
#ifndef CGR_BUF_HOST_H
#define CGR_BUF_HOST_H

#include <stdbool.h>
#include <stdio.h>

#include "host_lib.h"
#include "model.h"

/* What every host node of one run shares. */
struct host_env {
	const struct gdef *g;
	/* each buffer's host address (host and managed memory), else NULL */
	void *const *host;
	FILE *out;                      /* print and dump: standard error */
	bool quiet;                     /* -q: print and dump say nothing */
	/*
	 * Nonzero while the launch the checks see runs (host_dump_arm): a
	 * dump prints then.  Read by the driver's thread.
	 */
	int dump_armed;
	const struct host_libs *libs;   /* the run's host functions (borrowed) */
};

/* One host node, as the driver calls it. */
struct host_call {
	const struct host_env *env;
	const struct node *n;           /* an NK_HOST node, validated */
	unsigned long runs;             /* how many times it ran so far */
	bool dumped;                    /* HOST_DUMP: printed while armed */
	struct host_fn_state *fn;       /* HOST_CALL: the user's function (host_lib.h), owned */
};

/* A host call and what it owns (NULL is fine). */
void host_call_free(struct host_call *call);

/* Arm (or disarm) env's dumps for the launch about to be queued; the back end's thread. */
static inline void host_dump_arm(struct host_env *env, bool armed)
{
	__atomic_store_n(&env->dump_armed, armed, __ATOMIC_RELEASE);
}

/* Run the node's action once (the driver's host function calls this). */
void host_run(struct host_call *call);

#endif
