#include "config.h"

#include "model_kinds.h"
#include "model_lib.h"
#include "model_uses.h"

const char *use_access_name(enum use_access a)
{
	static const char *const names[] = {"none", "read", "write", "readwrite", "unknown"};
	return (unsigned)a < sizeof names / sizeof *names ? names[a] : "?";
}

static bool give(buf_use_fn *fn, void *ctx, const struct name_ref *r, enum use_access a,
		 enum use_role role)
{
	struct buf_use u = {.buffer = r, .access = a, .role = role};
	return fn(ctx, &u);
}

/*
 * Arguments (or a struct's fields) starting at byte *off of parameter
 * param; *off advances past each as C packs them (model.h: arg_size,
 * arg_align), which is where the kernel finds a field's address.  A
 * {pitch: x} argument passes a number about x, none of its contents: a
 * use of role ROLE_PITCH and access USE_NONE.
 */
static bool arg_uses(const struct arg *args, size_t n, size_t param, size_t *off,
		     buf_use_fn *fn, void *ctx)
{
	for (size_t i = 0; i < n; i++) {
		const struct arg *a = &args[i];
		*off = align_up(*off, arg_align(a));
		if (a->kind == ARG_BUFFER) {
			struct buf_use u = {
				.buffer = &a->ref, .role = ROLE_DATA, .arg = a,
				.param = param, .offset = *off,
				.access = a->access ? (enum use_access)a->access : USE_UNKNOWN,
			};
			if (!fn(ctx, &u))
				return false;
		} else if (a->kind == ARG_PITCH) {
			struct buf_use u = {
				.buffer = &a->ref, .role = ROLE_PITCH, .arg = a,
				.param = param, .offset = *off, .access = USE_NONE,
			};
			if (!fn(ctx, &u))
				return false;
		} else if (a->kind == ARG_STRUCT) {
			size_t inner = *off;
			if (!arg_uses(a->fields, a->nfields, param, &inner, fn, ctx))
				return false;
		}
		*off += arg_size(a);
	}
	return true;
}

bool kernel_buffer_uses(const struct node *n, buf_use_fn *fn, void *ctx)
{
	const struct kernel_node *k = &n->u.kernel;
	for (size_t i = 0; i < k->nargs; i++) {
		size_t off = 0;
		if (!arg_uses(&k->args[i], 1, i, &off, fn, ctx))
			return false;
	}
	return true;
}

bool host_buffer_uses(const struct node *n, buf_use_fn *fn, void *ctx)
{
	const struct host_node *h = &n->u.host;
	switch (h->action) {
	case HOST_DUMP:
		return give(fn, ctx, &h->buffer, USE_READ, ROLE_DATA);
	case HOST_SET:
		/* (NULL only where the loader gave up on the node) */
		return h->set == NULL || give(fn, ctx, &h->set->buffer, USE_WRITE, ROLE_DATA);
	case HOST_COPY:
		return h->copy == NULL ||
		       (give(fn, ctx, &h->copy->from.buffer, USE_READ, ROLE_DATA) &&
			give(fn, ctx, &h->copy->to.buffer, USE_WRITE, ROLE_DATA));
	case HOST_CALL:
		/* the function may read and write each of them */
		for (size_t i = 0; h->fn && i < h->fn->nbuffers; i++)
			if (!give(fn, ctx, &h->fn->buffers[i], USE_READWRITE, ROLE_DATA))
				return false;
		break;
	case HOST_PRINT:
	case HOST_SLEEP:
		break;
	}
	return true;
}

bool memop_buffer_uses(const struct node *n, buf_use_fn *fn, void *ctx)
{
	const struct memop_node *m = &n->u.memop;
	for (size_t i = 0; i < m->nops; i++) {
		const struct memop *op = &m->ops[i];
		if (op->kind != MEMOP_WRITE && op->kind != MEMOP_WAIT)
			continue;
		if (!give(fn, ctx, &op->buffer, op->kind == MEMOP_WRITE ? USE_WRITE : USE_READ,
			  ROLE_DATA))
			return false;
	}
	return true;
}

/* A library call (model_lib.h) reads its operands and may read and write C, y, result. */
struct lib_give {
	buf_use_fn *fn;
	void *ctx;
	bool go;                        /* false once fn said stop */
};

static void lib_give_one(void *ctx, struct name_ref *ref, struct pos pos, bool writes)
{
	struct lib_give *lg = ctx;
	(void)pos;
	if (lg->go)
		lg->go = give(lg->fn, lg->ctx, ref, writes ? USE_READWRITE : USE_READ, ROLE_DATA);
}

bool lib_buffer_uses(const struct node *n, buf_use_fn *fn, void *ctx)
{
	struct lib_give lg = {fn, ctx, true};
	lib_node_uses(n, lib_give_one, &lg);
	return lg.go;
}

bool memset_buffer_uses(const struct node *n, buf_use_fn *fn, void *ctx)
{
	return give(fn, ctx, &n->u.memset.buffer, USE_WRITE, ROLE_DATA);
}

bool copy_buffer_uses(const struct node *n, buf_use_fn *fn, void *ctx)
{
	return give(fn, ctx, &n->u.copy.from.buffer, USE_READ, ROLE_DATA) &&
	       give(fn, ctx, &n->u.copy.to.buffer, USE_WRITE, ROLE_DATA);
}

bool alloc_buffer_uses(const struct node *n, buf_use_fn *fn, void *ctx)
{
	return give(fn, ctx, &n->u.buffer, USE_NONE, ROLE_ALLOC);
}

bool free_buffer_uses(const struct node *n, buf_use_fn *fn, void *ctx)
{
	return give(fn, ctx, &n->u.buffer, USE_NONE, ROLE_FREE);
}

bool node_buffer_uses(const struct node *n, buf_use_fn *fn, void *ctx)
{
	const struct node_kind_info *ki = node_kind_info(n->kind);
	return ki == NULL || ki->uses == NULL || ki->uses(n, fn, ctx);
}
