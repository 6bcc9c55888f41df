/*
 * The plan of a stream issue (cugraphrun(1), MODES): the nodes of a
 * validated graph in the order a careful program issues them at every
 * launch, each on a stream, with the events it waits for first.  Worked
 * out from the model alone, so that it is tested without a GPU;
 * gpu_stream.c makes it real and issues it (stream mode), or issues it
 * once under stream capture (capture mode).
 *
 * Steps.  A node is a step, issued as its kind says (gpu_stream.c); an
 * empty or disabled node is a step that issues nothing but its waits; a
 * child graph's nodes stand in its place between two such steps (its
 * entry, which its first nodes wait for, and its exit, which waits for
 * its last ones); a conditional node is a step with a plan per body.
 * Every plan starts with BEGIN and ends with END on its stream 0 (the
 * launch's stream, or the conditional node's for a body).  In stream
 * mode the conditions live in words the host reads (gpu_stream.c), set
 * to their defaults at each launch: device 0's at the root's BEGIN,
 * before anything else; another device's in a RESET step, which every
 * kernel that sets one of its conditions, and every conditional node
 * that reads one, comes after.
 *
 * Order: Kahn's, over the steps in the graphs' topological order, a
 * conditional node taken only when nothing else is ready, since in stream
 * mode the host waits there for its condition: what does not depend on
 * it is issued first.
 *
 * Streams.  A step continues the stream of a step it depends on that is
 * that stream's last (the first such, a programmatic edge's before the
 * others'), except across a launch_order edge; else it takes a stream of
 * its device whose last step is known to be done before it starts;
 * else a new stream, up to SPLAN_MAX_STREAMS per device; beyond that the
 * stream whose last step came first, which then orders the two (never
 * wrongly, as every step comes after what it waits for, but it may
 * serialise what a graph runs side by side).  So a chain takes one
 * stream, a fan of N independent nodes N streams, and a fork after a join
 * takes back the streams the join ended.
 *
 * Waits.  A step waits for a dependency on another stream unless what it
 * knows is done already covers it: each step carries, per stream, the
 * last position there known to be done when it starts (a vector clock:
 * its stream's order and its waits; a wait for a step's completion
 * covers what that step knew, and that step's stream up to it).  So a
 * join waits once per branch, and transitive edges cost nothing.  Every
 * step on a stream other than 0 waits for BEGIN unless it knows BEGIN is
 * done; END waits for the last step of every other stream.
 *
 * Edge data (cugraphrun(5), Edge data): a programmatic edge whose kernels
 * share a stream (the dependent directly after) is the dependent's
 * PROGRAMMATIC_STREAM_SERIALIZATION; across streams it is a wait for the
 * kernel's PROGRAMMATIC_EVENT (every block triggered or ended); a
 * launch_order edge never shares a stream: with the programmatic type a
 * wait for a PROGRAMMATIC_EVENT triggered at each block's start (so that
 * griddepcontrol.wait still waits for the kernel, as in the graph), with
 * the default type for its LAUNCH_COMPLETION_EVENT.  Neither of these
 * waits makes the kernel known to be done.
 *
 * Ownership: a struct splan owns its steps, their waits and the plans of
 * their bodies (splan_free, which accepts NULL); it borrows the model's
 * nodes, which must outlive it.
 */
#ifndef CGR_STREAM_PLAN_H
#define CGR_STREAM_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"

/* Streams per device and plan, at most. */
#define SPLAN_MAX_STREAMS 128

enum pstep_kind {
	PS_BEGIN,       /* the plan starts (stream 0): what the other streams wait for first */
	PS_NODE,        /* a node issued: kernel, memset, copy, alloc, free, event, host, memop */
	PS_EMPTY,       /* its waits alone: an empty or disabled node, a child graph's entry or exit */
	PS_COND,        /* an if, while or switch node: a plan per body */
	PS_RESET,       /* stream mode: the words of a device's conditions (not 0's) set to their defaults */
	PS_END,         /* the plan ends (stream 0), after every other stream's last step */
	PS_COUNT
};
extern const char *const pstep_kind_names[PS_COUNT];

/* What of a step another waits for. */
enum pev {
	PEV_DONE,       /* it is done: an event recorded after it */
	PEV_TRIGGERED,  /* every block triggered or ended: PROGRAMMATIC_EVENT */
	PEV_BEGUN_PROG, /* every block began, seen by griddepcontrol.wait: PROGRAMMATIC_EVENT at block start */
	PEV_BEGUN,      /* every block began: LAUNCH_COMPLETION_EVENT */
	PEV_COUNT
};
extern const char *const pev_names[PEV_COUNT];

struct pwait {
	uint32_t step;                  /* an earlier step of the same plan */
	uint8_t ev;                     /* enum pev */
};

struct splan;

struct pstep {
	uint8_t kind;                   /* enum pstep_kind */
	uint8_t device;                 /* the file's device it runs on */
	uint8_t gives;                  /* bit 1 << enum pev: some later step waits for that */
	bool serial;                    /* PROGRAMMATIC_STREAM_SERIALIZATION on its launch */
	uint32_t stream;                /* index in the plan's streams */
	const struct node *n;           /* PS_NODE, PS_COND; PS_EMPTY: its node; else NULL */
	struct pwait *waits;            /* before it, in this order */
	uint32_t nwaits;
	struct splan **bodies;          /* PS_COND: a plan per body, in the node's order */
	size_t nbodies;
};

struct splan {
	struct pstep *steps;
	size_t nsteps;
	uint8_t *stream_device;         /* per stream: its device (stream 0: the plan's own) */
	size_t nstreams;
	/* stream mode, the root: BEGIN sets device 0's conditions' words to their defaults */
	bool reset_at_begin;
};

struct splan_opts {
	/* stream mode: conditions live in words (RESET steps); capture mode: in handles */
	bool words;
	unsigned max_streams;           /* per device; 0: SPLAN_MAX_STREAMS */
};

/*
 * The plan of graph gr of validated g (g->root, or a conditional body
 * with its own plan), and recursively of the bodies in it.
 */
struct splan *splan_make(const struct gdef *g, const struct graph *gr, const struct splan_opts *o);
void splan_free(struct splan *p);

/*
 * The plan in words, one line per step, for tests and -v: "3 node k2 s1
 * wait 1:done serial gives done" (index, kind, id, device unless 0,
 * stream, "reset" on a BEGIN that resets, waits as step:event, serial,
 * the events it gives), bodies
 * indented under "body N:".  Malloc'd.
 */
char *splan_dump(const struct splan *p);

#endif
