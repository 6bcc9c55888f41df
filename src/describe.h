/*
 * DOT output through Graphviz libcgraph (<graphviz/cgraph.h> is included
 * in the DOT modules, describe.c and gpu_dot.c, and nowhere else): the
 * description-level view of a validated definition, no GPU needed.
 */
#ifndef CGR_DESCRIBE_H
#define CGR_DESCRIBE_H

#include <stdbool.h>
#include <stdio.h>

#include "describe_render.h"
#include "model.h"

/* What an overlay lays over one node (a profile: its colour and time). */
struct describe_mark {
	const char *fill;   /* "#rrggbb": filled with it; NULL: as usual */
	const char *note;   /* one more label line, or NULL */
	bool bold;          /* drawn bold (on the critical path) */
};

/* Marks laid over the description by someone who knows more than the file. */
struct describe_overlay {
	/* Fill in the marks of n; false: none. */
	bool (*mark)(void *ctx, const struct node *n, struct describe_mark *out);
	/* Is the dependency from -> to drawn bold? */
	bool (*edge_bold)(void *ctx, const struct node *from, const struct node *to);
	void *ctx;
};

struct describe_opts {
	bool buffers;       /* buffers as a second kind of node, edges to users */
	enum describe_format format;    /* DOT text, or drawn (describe_render.h) */
	const struct describe_overlay *overlay;   /* NULL: none */
};

/* Write g as DOT (or drawn) to out; 0 on success, -1 (with a message) on failure. */
int describe_write(const struct gdef *g, const struct describe_opts *o, FILE *out);

#endif
