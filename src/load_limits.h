/*
 * What the loader accepts at most: its public limits (load.h takes them)
 * and the event source's (load_events.h enforces the depth and the alias
 * budget), in a header of their own so that neither includes the other.
 */
#ifndef CGR_LOAD_LIMITS_H
#define CGR_LOAD_LIMITS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * How deep graphs nest, in the format's own terms: a child graph or
 * conditional body in a node of the root graph is at depth 1.  Any file
 * within it stays within max_depth's 64 levels of YAML, whatever form each
 * graph takes (a switch's case in the mapping form costs 5 levels).
 */
#define LOAD_MAX_GRAPH_DEPTH 10

struct load_limits {
	unsigned max_depth;             /* nesting of YAML collections */
	size_t max_alias_events;        /* events replayed through aliases, in all */
	size_t max_file_size;           /* bytes */
	/* events a template's generators read again, per point (0: the default) */
	size_t max_generated_events;
	/*
	 * What a sweep's points expand to together (load_events.h: BUDGET):
	 * nodes, YAML events and bytes of text (0: SWEEP_MAX_NODES, _EVENTS,
	 * _TEXT).  Smaller in the fuzz target, which explores what a file
	 * means rather than how large it may grow.
	 */
	size_t max_nodes, max_events, max_text;
	/*
	 * Read every point of a template in full, none derived from the one
	 * before (load_point.h: POINTS): the reference the derived models are
	 * compared with in the tests.
	 */
	bool full_points;
};

/* The defaults: depth 64, 1,000,000 alias events, 1 GiB, 10,000,000 generated events. */
extern const struct load_limits load_default_limits;

#endif
