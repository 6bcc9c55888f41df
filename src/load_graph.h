/*
 * The loader's graphs (private to load*.c): a graph as a list of nodes or
 * {nodes, edges, chain}, its edges in every spelling, its nodes (kind,
 * id, after, enabled, device; each kind's value by its own room:
 * load_kernel.h, load_nodes.h, and here the kinds that hold graphs),
 * their automatic ids, and generators ({for: {i: RANGE}, nodes: [...]}),
 * whose nodes are read again from the file once per value.
 */
#ifndef CGR_LOAD_GRAPH_H
#define CGR_LOAD_GRAPH_H

#include "load_map.h"

/* Graph gr, the current event: a list of nodes, or {nodes, edges, chain}; name for messages. */
void parse_graph(struct ld *l, struct graph *gr, const char *name);
/* An edges: list of gr's, the current event. */
void parse_edges(struct ld *l, struct graph *gr, const char *name);
/*
 * Node n's kind value, the current event, read as kind k from a clean
 * slate (its kind's fields zeroed, its references unresolved): for a
 * point that reads a node's value again alone (load_point.c).
 */
void parse_kind(struct ld *l, struct node *n, enum node_kind k);
/*
 * KIND_N for nodes without an id, N counting per kind in file order and
 * skipping the ids written in the file, once the model is read.
 */
void assign_ids(struct ld *l);

#endif
