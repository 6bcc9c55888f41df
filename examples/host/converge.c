/*
 * Host functions for examples/host-converge.yaml (cugraphrun(5), Nodes,
 * host: {call: ...}), built by make check as libcgr-converge.so.  They
 * read the node's buffers, which the graph's kernels wrote, on the CUDA
 * driver's thread; they call no CUDA (the driver forbids it there).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cugraphrun/host.h>

/* Declared with the header's type: a wrong signature does not compile. */
cugraphrun_host_fn converged, host_sum, log_run;

/* The node's buffer k as floats, or NULL after a message saying why not. */
static const float *floats(struct cugraphrun_call *call, size_t k, size_t *n)
{
	if (k >= call->nbuffers || call->buffers[k].type != CUGRAPHRUN_F32) {
		snprintf(call->message, call->message_size, "buffer %zu of node '%s' is not an f32 "
			 "buffer", k + 1, call->node);
		return NULL;
	}
	*n = call->buffers[k].count;
	return call->buffers[k].data;
}

/*
 * A convergence test, every launch: from the node's run AFTER on (arg
 * "TOL AFTER"), no element of the update (buffer 1) may be larger than
 * TOL.  It fails with the largest update, and where it is.
 */
int converged(struct cugraphrun_call *call)
{
	double tol = 1e-5;
	unsigned long after = 1;
	if (call->arg && sscanf(call->arg, "%lf %lu", &tol, &after) < 1) {
		snprintf(call->message, call->message_size, "arg '%s' is not \"TOL AFTER\"",
			 call->arg);
		return 2;
	}
	size_t n;
	const float *delta = floats(call, 0, &n);
	if (delta == NULL)
		return 2;
	double worst = 0;
	size_t at = 0;
	for (size_t i = 0; i < n; i++)
		if (fabs(delta[i]) > worst) {
			worst = fabs(delta[i]);
			at = i;
		}
	if (call->run + 1 < after || worst <= tol)
		return 0;
	snprintf(call->message, call->message_size, "%s[%zu] moved by %g on this run, more than "
		 "%g", call->buffers[0].name, at, worst, tol);
	return 1;
}

/*
 * A host reference computation: the sum of buffer 1, computed here in
 * double, into element 0 of buffer 2, for a check to compare with what
 * the GPU found.
 */
int host_sum(struct cugraphrun_call *call)
{
	size_t n, m;
	const float *x = floats(call, 0, &n);
	const float *out = x ? floats(call, 1, &m) : NULL;
	if (out == NULL)
		return 2;
	double s = 0;
	for (size_t i = 0; i < n; i++)
		s += x[i];
	((float *)call->buffers[1].data)[0] = (float)s;
	return 0;
}

/* A log line per run, on the standard error output, when arg says "log". */
int log_run(struct cugraphrun_call *call)
{
	if (call->arg && strcmp(call->arg, "log") == 0)
		fprintf(stderr, "%s: run %lu\n", call->node, call->run + 1);
	return 0;
}
