/*
 * cugraphrun host functions: the C interface of a host node that calls a
 * function of a shared library of your own (cugraphrun(5), Nodes, host:
 * {call: ...}).  Installed with cugraphrun as <cugraphrun/host.h>;
 * include it, write a function of type cugraphrun_host_fn, and build a
 * shared library:
 *
 *     #include <stdio.h>
 *     #include <cugraphrun/host.h>
 *
 *     cugraphrun_host_fn converged;       // the signature, checked
 *
 *     int converged(struct cugraphrun_call *call)
 *     {
 *         const float *r = call->buffers[0].data;
 *         if (r[0] <= 1e-6f)
 *             return 0;
 *         snprintf(call->message, call->message_size, "residual %g", r[0]);
 *         return 1;
 *     }
 *
 *     cc -shared -fPIC -o libconverge.so converge.c
 *
 * The rules:
 *
 *   - The function runs on a thread of the CUDA driver, in graph order,
 *     each time the node runs: it sees what the nodes it depends on wrote
 *     to its buffers, and the nodes that depend on it see what it writes.
 *   - It must not call CUDA, neither the runtime nor the driver API: the
 *     driver forbids any CUDA call in a host function (cuLaunchHostFunc,
 *     CUDA_HOST_NODE_PARAMS), which may fail or deadlock.
 *   - Its buffers are the node's, in the order the file lists them, each
 *     host or managed memory: data is the address, valid while the call
 *     lasts; count elements of elem_size bytes of type.
 *   - It returns 0 when all is well.  Any other value is a failure: it
 *     cannot stop the launch in flight, so cugraphrun reports it after the
 *     launch has finished, with the message the function wrote to message
 *     (at most message_size bytes with its NUL; empty when it wrote none),
 *     and the run fails as a failed check does (exit status 1).
 *   - The library is opened (dlopen, its constructors run) once, when the
 *     file runs: never by --validate, --describe or a stored report.
 *
 * A struct grows only at its end, and CUGRAPHRUN_HOST_ABI says which
 * fields it has; a function may check call->abi.
 */
#ifndef CUGRAPHRUN_HOST_H
#define CUGRAPHRUN_HOST_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CUGRAPHRUN_HOST_ABI 1

/* Element types, as cugraphrun(5) names them ("f32", ...), in this order. */
enum cugraphrun_type {
	CUGRAPHRUN_I8, CUGRAPHRUN_U8, CUGRAPHRUN_I16, CUGRAPHRUN_U16,
	CUGRAPHRUN_I32, CUGRAPHRUN_U32, CUGRAPHRUN_I64, CUGRAPHRUN_U64,
	CUGRAPHRUN_F16, CUGRAPHRUN_BF16, CUGRAPHRUN_F32, CUGRAPHRUN_F64
};

/* One buffer of the node. */
struct cugraphrun_buffer {
	const char *name;               /* the buffer's name in the file */
	void *data;                     /* its first element */
	int type;                       /* an enum cugraphrun_type */
	const char *type_name;          /* "f32", ... */
	size_t elem_size;               /* bytes per element */
	size_t count;                   /* elements */
};

/* One call of a host function. */
struct cugraphrun_call {
	unsigned abi;                   /* CUGRAPHRUN_HOST_ABI of the caller */
	const char *node;               /* the host node's id */
	const char *arg;                /* the node's arg: text, or NULL */
	unsigned long run;              /* 0 the node's first run, then 1, 2, ... */
	size_t nbuffers;
	const struct cugraphrun_buffer *buffers;
	char *message;                  /* a failure's message, NUL-terminated */
	size_t message_size;            /* bytes at message */
};

/* 0: all is well; anything else: a failure, said with call->message. */
typedef int cugraphrun_host_fn(struct cugraphrun_call *call);

#ifdef __cplusplus
}
#endif

#endif
