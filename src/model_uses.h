/*
 * The buffers a node uses, and how: one walk over a node's kind-specific
 * fields that every pass needing "which buffers does this node touch"
 * can share (issue 31, item 3: describe.c draws them; sweep_diff.c,
 * model_derive.c and gpu_devices.c list them today each in their own way).
 *
 * What the model knows is given: a memset, a host set and the destination
 * of a copy write; the source of a copy, a host dump and a memop wait read;
 * a memop write writes; an alloc makes its buffer and a free ends it
 * (neither reads nor writes what is in it).  A kernel's buffer argument is
 * what its 'access:' says, else USE_UNKNOWN: the module may know more
 * (kernel_access.h asks it), and the use carries where the address sits
 * in the kernel's parameters for that.
 *
 * Works on a model before validation too (references by name: idx may be
 * -1).  Nothing is allocated; nothing is owned.
 */
#ifndef CGR_MODEL_USES_H
#define CGR_MODEL_USES_H

#include <stdbool.h>
#include <stddef.h>

#include "model.h"

/* How a node touches a buffer's contents, as bits (read 1, write 2). */
enum use_access {
	USE_NONE = 0,           /* not its contents: an alloc, a free, an unused argument */
	USE_READ = 1,
	USE_WRITE = 2,
	USE_READWRITE = 3,
	USE_UNKNOWN = 4,        /* perhaps read, perhaps written */
};
/* "none", "read", "write", "readwrite", "unknown", for messages and tests. */
const char *use_access_name(enum use_access a);

/*
 * What part the buffer plays: data, the allocation of a graph-memory
 * node, or a kernel's {pitch: x} argument (the bytes between x's rows:
 * a number about the buffer, none of its contents; access USE_NONE).
 */
enum use_role { ROLE_DATA, ROLE_ALLOC, ROLE_FREE, ROLE_PITCH };

struct buf_use {
	const struct name_ref *buffer;
	enum use_access access;
	enum use_role role;
	/*
	 * A kernel argument: the argument (a struct's field for a field), the
	 * kernel parameter it is passed in (the index of the top-level
	 * argument) and its byte offset there (0, or the field's offset as
	 * struct fields are packed).  arg NULL for the other kinds.
	 */
	const struct arg *arg;
	size_t param, offset;
};

/* Called for each use; return false to stop the walk. */
typedef bool buf_use_fn(void *ctx, const struct buf_use *u);

/*
 * Each buffer use of node n in the order its fields are written (a
 * kernel's arguments in order, a copy's from before its to, a memop's
 * operations in order); a buffer used twice is given twice.  Nested
 * graphs are not entered: their nodes are nodes of their own.  False when
 * fn stopped the walk.
 */
bool node_buffer_uses(const struct node *n, buf_use_fn *fn, void *ctx);

/* One kind's walk, as model_kinds.c's table holds it (n of that kind). */
typedef bool node_uses_fn(const struct node *n, buf_use_fn *fn, void *ctx);
node_uses_fn kernel_buffer_uses, memset_buffer_uses, copy_buffer_uses, alloc_buffer_uses,
	free_buffer_uses, host_buffer_uses, memop_buffer_uses, lib_buffer_uses;

#endif
