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

/*
 * The cuGraphDebugDotPrint file at from, annotated, written to the --dot
 * file to (through output_open: whole or not at all).  0, or -1 after a
 * message.
 */
int gpu_dot_annotate(const char *from, const char *to, const struct gpu *gp);

/*
 * --dot=path of gp's built graph: the driver's DOT (flags: its
 * CU_GRAPH_DEBUG_DOT_FLAGS) into a scratch file of its own, annotated into
 * path.  0, or 2 after a message.
 */
int gpu_dot_write(const struct gpu *gp, const char *path, unsigned flags);

#endif
