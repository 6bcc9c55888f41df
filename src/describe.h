/*
 * DOT output through Graphviz libcgraph (<graphviz/cgraph.h> is included
 * in the DOT modules, describe.c and driver_dot.c, and nowhere else): the
 * description-level view of a validated definition, no GPU needed.
 */
#ifndef CGR_DESCRIBE_H
#define CGR_DESCRIBE_H

#include <stdbool.h>
#include <stdio.h>

#include "model.h"

struct describe_opts {
	bool buffers;       /* buffers as a second kind of node, edges to users */
};

/* Write g as DOT to out; 0 on success, -1 (with a message) on failure. */
int describe_write(const struct gdef *g, const struct describe_opts *o, FILE *out);

#endif
