/*
 * Host nodes' actions (buf_host.h).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "buf_data.h"
#include "buf_host.h"
#include "buf_region.h"
#include "diag.h"
#include "term_progress.h"
#include "xmalloc.h"

/* A dump's elements, unless its count says more. */
#define DUMP_SHOWN 64

static void host_sleep(uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ns / 1000000000u),
		.tv_nsec = (long)(ns % 1000000000u),
	};
	while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
		;
}

/*
 * Fill the slice or region with the value (validated: it fits the type,
 * the slice the buffer, and it is rows shape.h can walk).  Host and
 * managed memory have the pitch the file gives.
 */
static void host_set(const struct host_env *env, const struct memset_node *m)
{
	const struct buffer *b = &env->g->buffers[m->buffer.idx];
	unsigned char one[8];
	char why[64];
	struct span s;
	num_encode(&m->value, b->type, one, why, sizeof why);
	if (memset_span(m, b, buffer_pitch(b), &s) == SPAN_OK)
		span_fill(&s, one, elem_infos[b->type].size, env->host[m->buffer.idx]);
}

static void host_copy(const struct host_env *env, const struct copy_node *c)
{
	const struct buffer *f = &env->g->buffers[c->from.buffer.idx];
	const struct buffer *t = &env->g->buffers[c->to.buffer.idx];
	struct span s;
	/* the validator refuses overlap, as for copy nodes; memmove costs nothing more */
	if (copy_span(c, f, buffer_pitch(f), t, buffer_pitch(t), &s) == SPAN_OK)
		span_copy(&s, env->host[c->from.buffer.idx], env->host[c->to.buffer.idx]);
}

/* "T[0:4, 2:3] = [...]": a region's elements in order, the first max of them. */
static void print_region(FILE *out, const struct buffer *b, const struct region *r,
			 const void *packed, size_t max)
{
	struct span s;
	uint64_t n = r->ext[0] * r->ext[1] * r->ext[2];
	char where[160];
	unsigned char *p = xmalloc(n * elem_infos[b->type].size);
	slice_span(r, 0, 0, b, buffer_row_bytes(b), &s);
	span_gather(&s, 0, packed, p);
	region_words(r, 0, b, where, sizeof where);
	fprintf(out, "%s%s = ", diag_esc(b->name), where);
	buffer_print_elems(out, b->type, p, n, max);
	free(p);
}

/* A dump's slice or region, from its elements packed (pitched rows: a packed copy). */
static void host_dump(const struct host_env *env, const struct host_node *h)
{
	long bi = h->buffer.idx;
	const struct buffer *b = &env->g->buffers[bi];
	size_t shown = h->has_count ? (size_t)h->count : DUMP_SHOWN;
	void *packed = NULL;
	const void *data = env->host[bi];
	if (buffer_padded(b)) {
		packed = xmalloc(b->size);
		buffer_pack(b, buffer_pitch(b), data, packed);
		data = packed;
	}
	if (h->region)
		print_region(env->out, b, h->region, data, DUMP_SHOWN);
	else
		buffer_print_range(env->out, b, data, h->offset, h->count, shown);
	free(packed);
}

void host_run(struct host_call *call)
{
	const struct host_env *env = call->env;
	const struct host_node *h = &call->n->u.host;
	unsigned long run = __atomic_fetch_add(&call->runs, 1, __ATOMIC_RELAXED);
	switch (h->action) {
	case HOST_PRINT:
		if (!env->quiet) {
			progress_clear();
			/* the driver's thread: escaped a block at a time, no diag_esc ring */
			flockfile(env->out);
			diag_write_block(env->out, h->text, strlen(h->text));
			fputc('\n', env->out);
			funlockfile(env->out);
			fflush(env->out);
		}
		break;
	case HOST_SLEEP:
		host_sleep(h->sleep_ns);
		break;
	case HOST_DUMP: {
		(void)run;
		if (env->quiet)
			break;
		if (!h->every && (!__atomic_load_n(&env->dump_armed, __ATOMIC_ACQUIRE) ||
				  __atomic_exchange_n(&call->dumped, true, __ATOMIC_RELAXED)))
			break;
		progress_clear();
		host_dump(env, h);
		fflush(env->out);
		break;
	}
	case HOST_SET:
		host_set(env, h->set);
		break;
	case HOST_COPY:
		host_copy(env, h->copy);
		break;
	case HOST_CALL:
		if (call->fn)
			host_fn_call(call->fn, env->g, call->n, env->host, run);
		break;
	}
}

void host_call_free(struct host_call *call)
{
	if (call == NULL)
		return;
	host_fn_state_free(call->fn);
	free(call);
}
