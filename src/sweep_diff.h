/*
 * What differs between the models of two consecutive points of a sweep,
 * as the GPU's update path (gpu_update.c) needs it: whether the graph's
 * structure is the same, which buffers must be allocated again, which
 * modules loaded again, which nodes given new parameters, which
 * conditions' defaults changed, and whatever rules the in-place update
 * out (an alloc node's size, a node priority, an event or condition a
 * node names), with the YAML node or key that forced it.  No CUDA here.
 *
 * Both models must be validated (node.seq, deps, sizes are the
 * validator's).  Nodes pair by their index in all_nodes, buffers, events,
 * conditions and modules by their index, once the structure is the same.
 *
 * The loader works out what changed too (load_point.h, POINTS), and both
 * are needed: they answer different questions of different models.  The
 * loader compares a point with its base, the last point read in full,
 * before validation and in the file's terms: which scalars read a
 * different text, so which objects to read again and validate again
 * (a conservative answer: "0x10" for "16" is a change there); a point
 * read in full has no such answer at all.  This compares any two
 * consecutive validated models, derived or read in full, in the driver's
 * terms: which parameters differ after the validator filled in counts,
 * sizes and defaults, and which of the update's rules that breaks.  The
 * loader's answer cannot replace this one (it is against another point,
 * and missing where the structure changed), and this one cannot replace
 * the loader's (it needs both models whole, which is what deriving
 * avoids building).
 *
 * Ownership: a struct model_diff owns its arrays (model_diff_free).
 */
#ifndef CGR_SWEEP_DIFF_H
#define CGR_SWEEP_DIFF_H

#include <stdbool.h>
#include <stddef.h>

#include "model.h"

/* What differs between two points' models, and why the graph is built again. */
struct model_diff {
	/*
	 * The structure differs (nodes, kinds, ids, dependencies, nesting,
	 * or the lists of buffers, events, conditions, modules): nothing
	 * pairs, so the graph is built and instantiated again.  why says
	 * which YAML node or key, at which file:line:col.
	 */
	bool structural;
	/* ... because the lists of modules, buffers, events or conditions differ */
	bool lists_differ;
	/* The structure is the same but a rule of the update forbids it: rebuild. */
	bool rebuild;
	char why[320];
	/* per buffer: its size, type or memory kind changed (allocate it again) */
	bool *realloc;
	/* per module: its definition changed (load it again) */
	bool *reload;
	/* per node (all_nodes index): the first key whose value changed (a static string), or NULL */
	const char **changed;
	size_t nchanged;                /* nodes with a changed key */
	/* per condition: its default changed (the handles are made again) */
	bool *cond_default;
	bool any_cond_default;
	bool any_realloc, any_reload;
};

/*
 * Compare a (the point before) with b.  Always fills d (arrays sized for
 * b); d->structural or d->rebuild when the graph must be built again.
 */
void model_diff(const struct gdef *a, const struct gdef *b, struct model_diff *d);
void model_diff_free(struct model_diff *d);

/*
 * Does the graph hold device-updatable kernel nodes?  Such a graph may
 * have one executable graph at a time and never goes through
 * cuGraphExecUpdate.  The format has no way to ask for one yet: false
 * until the kernel node attribute that makes them lands (then this looks
 * at it, and the update path already follows).
 */
bool graph_has_device_updatable(const struct gdef *g);

/* Do two modules load the same thing (file, source, defines, options, includes, std)? */
bool module_same(const struct module *a, const struct module *b);

/* Does node n use buffer b (any of its uses in model_uses.h: an alloc and a free too)? */
bool node_uses_buffer(const struct node *n, long b);

#endif
