/*
 * The loader's node kinds that hold no graph (private to load*.c):
 * memset, copy, empty, alloc and free, event_record and event_wait, host
 * (print, sleep, dump, set, copy) and memop, each kind's value into the
 * node that load_graph.c made of that kind.  Kernels are load_kernel.h's;
 * the kinds that hold graphs (graph, if, while, switch) load_graph.c's.
 */
#ifndef CGR_LOAD_NODES_H
#define CGR_LOAD_NODES_H

#include "load_map.h"

/* Node n's kind value, the current event: parse_ + the kind. */
void parse_memset(struct ld *l, struct node *n);
void parse_copy(struct ld *l, struct node *n);
void parse_empty(struct ld *l, struct node *n);
/* alloc and free: the buffer's name */
void parse_alloc(struct ld *l, struct node *n);
/* event_record and event_wait: the event's name */
void parse_event_node(struct ld *l, struct node *n);
void parse_host(struct ld *l, struct node *n);
void parse_memop(struct ld *l, struct node *n);

#endif
