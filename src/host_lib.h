/*
 * Host functions of the user's own (host: {call: ...}; cugraphrun(5),
 * Nodes): their shared libraries opened when the file runs, each once,
 * their functions found; one call of a node's function with its buffers
 * as <cugraphrun/host.h> describes them; and the failures the calls
 * returned, kept by the driver's thread and said by the back end after
 * the launch that made them has finished.  No CUDA here: the back end
 * (gpu_build.c, gpu_run.c) hands the calls to the driver and asks for the
 * failures; the unit tests call a library of their own directly.
 *
 * The libraries are opened only to run the file: main opens them after
 * the file was found valid and runnable here (never for --validate,
 * --describe or a stored report, since dlopen runs a library's
 * constructors), for every point of a sweep at once, so that a library or
 * a function that is not there is an error (exit status 2) before the
 * GPU is touched.
 *
 * Ownership: a struct host_libs owns its handles (dlclose'd by
 * host_libs_free, which accepts NULL) and borrows the paths and names of
 * the models it was opened for; a struct host_fn_state owns its buffer
 * descriptions and its messages, and borrows its library's function.
 */
#ifndef CGR_HOST_LIB_H
#define CGR_HOST_LIB_H

#include <stdbool.h>
#include <stddef.h>

#include <cugraphrun/host.h>

#include "diag.h"
#include "model.h"

/* The longest message a host function may leave, its NUL included. */
#define HOST_FN_MESSAGE 512

struct host_libs;

/*
 * Where dlopen will find library name, a name without a '/' (the
 * loader's folders: toolkit_lib.h), as a malloc'd path; NULL when it is
 * in none of them.
 */
char *host_lib_search(const char *name);

/*
 * Open every library the host calls of models[0..n) name and find each
 * function; errors at the node's library or function (d).  NULL when a
 * library does not open or lacks a function, or when no model calls any
 * (*none then says so).
 */
struct host_libs *host_libs_open(struct gdef *const *models, size_t n, struct diag *d,
				 bool *none);
void host_libs_free(struct host_libs *libs);

/* The function f names, opened by host_libs_open; NULL when it was not. */
cugraphrun_host_fn *host_libs_find(const struct host_libs *libs, const struct host_fn *f);

/* One node's calls: what the driver's thread keeps between them. */
struct host_fn_state {
	cugraphrun_host_fn *fn;
	struct cugraphrun_buffer *bufs;         /* nbufs, filled at each call */
	size_t nbufs;
	char message[HOST_FN_MESSAGE];          /* the call's own */
	/* failures: how many, and the first since the back end last asked */
	unsigned long failed, told;
	unsigned long first_run;
	int first_status;
	char first[HOST_FN_MESSAGE];
	char when[64];                  /* the launch the first ran in (host_fn_when) */
};

struct host_fn_state *host_fn_state_new(cugraphrun_host_fn *fn, size_t nbuffers);
void host_fn_state_free(struct host_fn_state *st);

/*
 * Node n's function (n->u.host.fn, validated), on its run-th run, with
 * the buffers' host addresses host[] of model g: a failure is kept.
 */
void host_fn_call(struct host_fn_state *st, const struct gdef *g, const struct node *n,
		  void *const *host, unsigned long run);

/*
 * After launch when ("verification launch 2 of 3") has finished: the
 * failures since the last time that no launch was named for yet ran in
 * that one.
 */
void host_fn_when(struct host_fn_state *st, const char *when);

/*
 * The failures of node n's function since the last time, as one error at
 * the node ("host function 'f' of node 'n' failed (it returned 1) on its
 * run 3, during WHEN (and 2 more of its runs after it): message"), and
 * how many nodes had some (0 or 1).
 */
unsigned host_fn_told(struct host_fn_state *st, const struct node *n, struct diag *d);

#endif
