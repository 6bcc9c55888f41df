#include "config.h"

#include "model_kinds.h"

/* Unresolved references start at -1; the validator resolves them. */
static void init_kernel(struct node *n)
{
	for (int i = 0; i < 3; i++)
		n->u.kernel.grid[i] = n->u.kernel.block[i] = 1;
	n->u.kernel.module.idx = -1;
}

static void init_memset(struct node *n)
{
	n->u.memset.buffer.idx = -1;
}

static void init_copy(struct node *n)
{
	n->u.copy.from.buffer.idx = -1;
	n->u.copy.to.buffer.idx = -1;
}

static void init_buffer(struct node *n)
{
	n->u.buffer.idx = -1;
}

static void init_event(struct node *n)
{
	n->u.event.idx = -1;
}

static void init_host(struct node *n)
{
	n->u.host.buffer.idx = -1;
}

static void init_cond(struct node *n)
{
	n->u.cond.condition.idx = -1;
}

const struct node_kind_info node_kinds[NK_COUNT] = {
	[NK_KERNEL] = {.article = "a", .on_device = true, .own_fields = true,
		.init = init_kernel, .uses = kernel_buffer_uses},
	[NK_MEMSET] = {.article = "a", .on_device = true, .own_fields = true,
		.init = init_memset, .uses = memset_buffer_uses},
	[NK_COPY] = {.article = "a", .on_device = true, .own_fields = true,
		.init = init_copy, .uses = copy_buffer_uses},
	[NK_EMPTY] = {.article = "an"},
	[NK_GRAPH] = {.article = "a", .on_device = true},
	[NK_ALLOC] = {.article = "an", .on_device = true,
		.init = init_buffer, .uses = alloc_buffer_uses},
	[NK_FREE] = {.article = "a", .init = init_buffer, .uses = free_buffer_uses},
	[NK_EVENT_RECORD] = {.article = "an", .init = init_event},
	[NK_EVENT_WAIT] = {.article = "an", .init = init_event},
	[NK_HOST] = {.article = "a", .own_fields = true,
		.init = init_host, .uses = host_buffer_uses},
	[NK_IF] = {.article = "an", .on_device = true, .init = init_cond},
	[NK_WHILE] = {.article = "a", .on_device = true, .init = init_cond},
	[NK_SWITCH] = {.article = "a", .on_device = true, .init = init_cond},
	[NK_MEMOP] = {.article = "a", .on_device = true, .own_fields = true,
		.uses = memop_buffer_uses},
	[NK_CUBLAS] = {.article = "a", .on_device = true,
		.uses = lib_buffer_uses},
	[NK_CUFFT] = {.article = "a", .on_device = true,
		.uses = lib_buffer_uses},
};

void node_init_kind(struct node *n, enum node_kind k)
{
	const struct node_kind_info *ki = node_kind_info(k);
	n->kind = k;
	if (ki && ki->init)
		ki->init(n);
}
