/*
 * --dot: the driver's own view of the built graph (cuGraphDebugDotPrint)
 * rewritten through libcgraph, so that each driver node shows the YAML id
 * it was made for and each child-graph and conditional node points at its
 * body clusters.  <graphviz/cgraph.h> is included in the DOT modules,
 * describe.c and gpu_dot.c, and nowhere else.
 */
#ifndef CGR_GPU_DOT_H
#define CGR_GPU_DOT_H

#include "gpu_build.h"

/* Rewrite the cuGraphDebugDotPrint file at path in place.  0, or -1 after a message. */
int gpu_dot_annotate(const char *path, const struct gpu *gp);

#endif
