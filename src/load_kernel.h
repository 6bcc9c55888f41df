/*
 * The loader's kernel nodes (private to load*.c): a kernel's mapping
 * (function, grid, block, shared, args, priority) with its arguments in
 * every form and its launch attributes (struct kernel_attrs), into the
 * node that load_graph.c made of kind NK_KERNEL.
 */
#ifndef CGR_LOAD_KERNEL_H
#define CGR_LOAD_KERNEL_H

#include "load_map.h"

/* Kernel node n's mapping, the current event. */
void parse_kernel(struct ld *l, struct node *n);

#endif
