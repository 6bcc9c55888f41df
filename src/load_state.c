/*
 * The loader's state for one file (load_state.h).
 */
#include "config.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "load_state.h"
#include "strmap.h"

void ld_error(struct ld *l, struct pos pos, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ev_verror(&l->es, false, pos, fmt, ap);
	va_end(ap);
}

void ld_fatal(struct ld *l, struct pos pos, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ev_verror(&l->es, true, pos, fmt, ap);
	va_end(ap);
}

static void names_free(struct names *nm)
{
	strmap_free(nm->map);
	free(nm->info);
	memset(nm, 0, sizeof *nm);
}

void ld_model_free(struct ld *l)
{
	free(l->tmpl);
	l->tmpl = NULL;
	arena_free(&l->scratch);
	names_free(&l->modules);
	names_free(&l->buffers);
	names_free(&l->conditions);
	l->nested = false;
	l->nodes = NULL;
	l->nnodes = l->capnodes = 0;
	memset(l->auto_counts, 0, sizeof l->auto_counts);
	l->renumber = false;
	l->last_kernel = NULL;
	l->last_kernel_len = 0;
	l->last_ref = NULL;
	l->last_ref_len = 0;
	l->g = NULL;
}

void ld_free(struct ld *l)
{
	ld_model_free(l);
	ev_free(&l->es);
}

void ld_init(struct ld *l, const char *name, const struct load_limits *limits,
	     struct diag *d)
{
	memset(l, 0, sizeof *l);
	ev_init(&l->es, name, limits, d);
}
