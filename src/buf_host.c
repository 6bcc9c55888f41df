/*
 * Host nodes' actions (buf_host.h).
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <time.h>

#include "buf_data.h"
#include "buf_host.h"
#include "diag.h"
#include "term_progress.h"

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

/* Fill the slice with the value (validated: it fits the type, the slice the buffer). */
static void host_set(const struct host_env *env, const struct memset_node *m)
{
	const struct buffer *b = &env->g->buffers[m->buffer.idx];
	unsigned es = elem_infos[b->type].size;
	unsigned char one[8], *p = (unsigned char *)env->host[m->buffer.idx] + m->offset * es;
	char why[64];
	num_encode(&m->value, b->type, one, why, sizeof why);
	for (uint64_t i = 0; i < m->count; i++)
		memcpy(p + i * es, one, es);
}

static void host_copy(const struct host_env *env, const struct copy_node *c)
{
	const struct buffer *f = &env->g->buffers[c->from.buffer.idx];
	const struct buffer *t = &env->g->buffers[c->to.buffer.idx];
	const unsigned char *src = (const unsigned char *)env->host[c->from.buffer.idx] +
		c->from.offset * elem_infos[f->type].size;
	unsigned char *dst = (unsigned char *)env->host[c->to.buffer.idx] +
		c->to.offset * elem_infos[t->type].size;
	/* the validator refuses overlap, as for copy nodes; memmove costs nothing more */
	memmove(dst, src, c->bytes);
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
		if (env->quiet || (run > 0 && !h->every))
			break;
		long b = h->buffer.idx;
		size_t shown = h->has_count ? (size_t)h->count : DUMP_SHOWN;
		progress_clear();
		buffer_print_range(env->out, &env->g->buffers[b], env->host[b], h->offset, h->count,
				   shown);
		fflush(env->out);
		break;
	}
	case HOST_SET:
		host_set(env, h->set);
		break;
	case HOST_COPY:
		host_copy(env, h->copy);
		break;
	}
}
