/*
 * What the model knows of each node kind, in one table indexed by enum
 * node_kind (tmux's cmd_entry is the model): adding a kind is one entry
 * here, one in each layer's table above it (load_graph.c's kind_parsers,
 * describe.c's kind_looks, sweep_diff.c's kind_updates) and the cases of
 * the switches that build, check and print its fields.
 *
 * The kinds' names (node_kind_names) and the two predicates
 * node_kind_is_conditional and node_kind_is_library stay in model.h:
 * model.c reads them, and model.c is below this table (the table reads
 * struct node), so holding them here would make a circle; the loader
 * lists and matches the names as a plain array of strings, and some
 * sixty messages read them there.  The table is constant; nothing is
 * owned.
 */
#ifndef CGR_MODEL_KINDS_H
#define CGR_MODEL_KINDS_H

#include <stdbool.h>

#include "model.h"
#include "model_uses.h"

struct node_kind_info {
	const char *article;            /* "a" or "an", before the name in messages */
	bool on_device;                 /* runs on a GPU of its own: takes 'device' */
	/*
	 * A sweep point's derived node keeps its own kind fields (values an
	 * axis may set); the other kinds take their base's whole once the
	 * point is validated (model_derive.c: refresh_dirty).
	 */
	bool own_fields;
	/* Sets what a new node of the kind starts with (references at -1), or NULL. */
	void (*init)(struct node *n);
	/* Each buffer use (model_uses.h), or NULL: it uses none. */
	node_uses_fn *uses;
};

/* Indexed by enum node_kind; NK_COUNT (a node whose kind was not read) has none. */
extern const struct node_kind_info node_kinds[NK_COUNT];

/* The entry of kind k, or NULL for NK_COUNT. */
static inline const struct node_kind_info *node_kind_info(enum node_kind k)
{
	return (unsigned)k < NK_COUNT ? &node_kinds[k] : NULL;
}

/* n becomes a node of kind k as the loader starts it (the kind's init). */
void node_init_kind(struct node *n, enum node_kind k);

#endif
