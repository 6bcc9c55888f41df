/*
 * Models derived from another model: a sweep's point whose model differs
 * from an earlier point's (its base) only in values (a grid, an argument,
 * a count, a check's expected value: load_point.h, POINTS, says which) is that
 * model with the objects those values are in copied and read again, and
 * everything else shared.  A 100-node graph whose points change one grid
 * copies one node, its graph's list of nodes and the model's header.
 *
 * A derived model is built from its base before either is validated
 * (gdef_derive, derive_node, derive_buffer, ...: the loader reads the
 * changed objects again into the copies), and is validated after its
 * base was, without the validator's passes over the whole graph:
 * derive_refresh takes what the base's validation filled in (indices,
 * dependencies, orders, name lookups) for the copies, then the validator
 * checks again the objects whose values changed and those that depend on
 * them (validate.h: gdef_validate_derived).  The rules that make this the
 * same model as a full reading and validation give are in model_derive.c.
 *
 * Ownership: a derived model (gdef.derive set) owns its arena (the copied
 * nodes and graphs, its strings), its copies of the buffer, condition and
 * check arrays, and the lists read again into them (derive_own); the rest
 * is its base's, which must outlive it (a sweep frees all its models
 * together).  derive_free frees a derived model's own part only.
 */
#ifndef CGR_MODEL_DERIVE_H
#define CGR_MODEL_DERIVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"

struct ptrmap;

/* A node of the base and its copy in the derived model. */
struct derived_node {
	struct node *base, *own;
	/* its values changed, or depend on a buffer whose values did: checked again */
	bool dirty;
};

struct derived_graph {
	struct graph *base, *own;
	/*
	 * Per place in the list of nodes: 1 + the index in derive.nodes of
	 * the node copied there, or 0 (the base's still).  A node's place is
	 * its local, which the loader sets: a point that copies many nodes
	 * of one graph searches nothing.
	 */
	uint32_t *copy_at;
};

struct derive {
	struct gdef *base;
	struct derived_node *nodes;
	size_t nnodes, capnodes;
	struct derived_graph *graphs;
	size_t ngraphs, capgraphs;
	/* the base's graphs copied, by address: their index in graphs; the last one found */
	struct ptrmap *graph_of;
	size_t last_graph;
	/* per element of the derived model's own copy of the array (NULL: shared) */
	bool *buffer_dirty, *condition_dirty, *check_dirty;
	/* malloc'd blocks the derived model frees (lists read again) */
	void **owned;
	size_t nowned, capowned;
	bool refreshed;                 /* derive_refresh has run */
};

/* A model sharing everything with base (which it does not own). */
struct gdef *gdef_derive(struct gdef *base);
/*
 * Free a sweep's model, derived (what it owns, not what it shares with
 * its base) or read in full (gdef_free, which takes no derived model).
 */
void derive_free(struct gdef *g);
/* g frees block with itself. */
void derive_own(struct gdef *g, void *block);

/*
 * Base node n's copy in g (made on first asking, with the graphs that hold
 * it copied up to the root, so that g reaches its copy and the base its
 * own), marked dirty when dirty.
 */
struct node *derive_node(struct gdef *g, struct node *n, bool dirty);
/* Element i of g's own copy of the array, marked dirty. */
struct buffer *derive_buffer(struct gdef *g, size_t i);
struct condition *derive_condition(struct gdef *g, size_t i);
struct check *derive_check(struct gdef *g, size_t i);

/*
 * Once the base is validated: the copies take what the validator filled
 * in on the base (the model's lookups and node order, each copied node's
 * dependencies and indices, each graph's order, the elements not read
 * again), so that only the dirty objects' own rules remain to check.
 */
void derive_refresh(struct gdef *g);

/*
 * Do the objects a and b, as the loader read them (a from the base, b
 * read again), differ in values only: the same names, kinds, types, keys
 * and list lengths where the model's shape or the validator's other
 * passes depend on them?  Values (sizes, counts, offsets, numbers, texts)
 * may differ.
 */
bool derive_same_node(const struct node *a, const struct node *b);
bool derive_same_buffer(const struct buffer *a, const struct buffer *b);
bool derive_same_condition(const struct condition *a, const struct condition *b);
bool derive_same_check(const struct check *a, const struct check *b);
bool derive_same_run(const struct run_defaults *a, const struct run_defaults *b);

/* Does node n name buffer in any of its uses (model_uses.h)? */
bool derive_node_names_buffer(const struct node *n, const char *buffer);

#endif
