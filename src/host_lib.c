/*
 * Host functions of the user's own (host_lib.h).
 */
#include "config.h"

#include <dlfcn.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "host_lib.h"
#include "strlist.h"
#include "toolkit_lib.h"
#include "xmalloc.h"

/* The format's element types are <cugraphrun/host.h>'s, in one order. */
_Static_assert((int)CUGRAPHRUN_I8 == (int)ET_I8 && (int)CUGRAPHRUN_U64 == (int)ET_U64 &&
	       (int)CUGRAPHRUN_F16 == (int)ET_F16 && (int)CUGRAPHRUN_BF16 == (int)ET_BF16 &&
	       (int)CUGRAPHRUN_F32 == (int)ET_F32 && (int)CUGRAPHRUN_F64 == (int)ET_F64,
	       "enum cugraphrun_type follows enum elem_type");

char *host_lib_search(const char *name)
{
	struct strlist dirs = {0};
	toolkit_lib_loader_dirs(&dirs);
	char *found = NULL;
	for (size_t i = 0; i < dirs.n && found == NULL; i++) {
		char *p = xasprintf("%s/%s", dirs.v[i], name);
		found = realpath(p, NULL);
		free(p);
	}
	strlist_free(&dirs);
	return found;
}

struct opened {
	const char *path;               /* the model's */
	void *handle;
};

struct found {
	const char *path, *function;    /* the model's */
	cugraphrun_host_fn *fn;
};

struct host_libs {
	struct opened *libs;
	size_t nlibs, caplibs;
	struct found *fns;
	size_t nfns, capfns;
};

static void *open_lib(struct host_libs *L, const struct host_fn *f, struct diag *d)
{
	for (size_t i = 0; i < L->nlibs; i++)
		if (strcmp(L->libs[i].path, f->path) == 0)
			return L->libs[i].handle;
	dlerror();
	/* RTLD_LOCAL: two libraries may each have a function of one name */
	void *h = dlopen(f->path, RTLD_NOW | RTLD_LOCAL);
	if (h == NULL) {
		const char *why = dlerror();
		diag_error(d, f->library_pos, "cannot open host library '%s': %s", f->library,
			   why ? why : "dlopen failed");
		return NULL;
	}
	*VEC_PUSH(L->libs, L->nlibs, L->caplibs) = (struct opened){f->path, h};
	return h;
}

static bool find_fn(struct host_libs *L, const struct host_fn *f, struct diag *d)
{
	if (host_libs_find(L, f))
		return true;
	void *h = open_lib(L, f, d);
	if (h == NULL)
		return false;
	dlerror();
	void *sym = dlsym(h, f->function);
	if (sym == NULL) {
		diag_error(d, f->function_pos.line ? f->function_pos : f->library_pos,
			   "host library '%s' has no function '%s'", f->library, f->function);
		return false;
	}
	/* POSIX: a function's address is the symbol's (dlsym returns data pointers) */
	cugraphrun_host_fn *fn;
	memcpy(&fn, &sym, sizeof fn);
	*VEC_PUSH(L->fns, L->nfns, L->capfns) = (struct found){f->path, f->function, fn};
	return true;
}

static void visit(struct host_libs *L, const struct graph *gr, struct diag *d, bool *ok,
		  bool *any)
{
	for (size_t i = 0; i < gr->nnodes; i++) {
		const struct node *n = gr->nodes[i];
		if (n->kind == NK_HOST && n->u.host.action == HOST_CALL) {
			*any = true;
			*ok &= find_fn(L, n->u.host.fn, d);
		} else if (n->kind == NK_GRAPH) {
			visit(L, n->u.child, d, ok, any);
		} else if (node_kind_is_conditional(n->kind)) {
			for (size_t b = 0; b < n->u.cond.nbodies; b++)
				visit(L, n->u.cond.bodies[b], d, ok, any);
		}
	}
}

struct host_libs *host_libs_open(struct gdef *const *models, size_t n, struct diag *d,
				 bool *none)
{
	struct host_libs *L = xcalloc(1, sizeof *L);
	bool ok = true, any = false;
	for (size_t k = 0; k < n; k++)
		if (models[k])
			visit(L, models[k]->root, d, &ok, &any);
	*none = !any;
	if (!ok || !any) {
		host_libs_free(L);
		return NULL;
	}
	return L;
}

void host_libs_free(struct host_libs *L)
{
	if (L == NULL)
		return;
	for (size_t i = 0; i < L->nlibs; i++)
		dlclose(L->libs[i].handle);
	free(L->libs);
	free(L->fns);
	free(L);
}

cugraphrun_host_fn *host_libs_find(const struct host_libs *L, const struct host_fn *f)
{
	for (size_t i = 0; L && i < L->nfns; i++)
		if (strcmp(L->fns[i].path, f->path) == 0 && strcmp(L->fns[i].function, f->function) == 0)
			return L->fns[i].fn;
	return NULL;
}

struct host_fn_state *host_fn_state_new(cugraphrun_host_fn *fn, size_t nbuffers)
{
	struct host_fn_state *st = xcalloc(1, sizeof *st);
	st->fn = fn;
	st->nbufs = nbuffers;
	st->bufs = xcalloc(nbuffers ? nbuffers : 1, sizeof *st->bufs);
	return st;
}

void host_fn_state_free(struct host_fn_state *st)
{
	if (st == NULL)
		return;
	free(st->bufs);
	free(st);
}

void host_fn_call(struct host_fn_state *st, const struct gdef *g, const struct node *n,
		  void *const *host, unsigned long run)
{
	const struct host_fn *f = n->u.host.fn;
	/* the point's buffers: their addresses and sizes may change from point to point */
	for (size_t i = 0; i < st->nbufs && i < f->nbuffers; i++) {
		const struct buffer *b = &g->buffers[f->buffers[i].idx];
		st->bufs[i] = (struct cugraphrun_buffer){
			.name = b->name, .data = host[f->buffers[i].idx], .type = (int)b->type,
			.type_name = elem_infos[b->type].name, .elem_size = elem_infos[b->type].size,
			.count = b->count,
		};
	}
	st->message[0] = '\0';
	struct cugraphrun_call call = {
		.abi = CUGRAPHRUN_HOST_ABI, .node = n->id, .arg = f->arg, .run = run,
		.nbuffers = st->nbufs, .buffers = st->bufs,
		.message = st->message, .message_size = sizeof st->message,
	};
	int rc = st->fn(&call);
	if (rc == 0)
		return;
	/* the driver's thread: kept, said by the back end once the launch is over */
	if (st->failed++ == st->told) {
		st->first_run = run;
		st->first_status = rc;
		st->message[sizeof st->message - 1] = '\0';
		memcpy(st->first, st->message, sizeof st->first);
	}
}

void host_fn_when(struct host_fn_state *st, const char *when)
{
	if (st->failed > st->told && st->when[0] == '\0')
		snprintf(st->when, sizeof st->when, "%s", when);
}

unsigned host_fn_told(struct host_fn_state *st, const struct node *n, struct diag *d)
{
	unsigned long news = st->failed - st->told;
	if (news == 0)
		return 0;
	const char *when = st->when[0] ? st->when : "a launch";
	const struct host_fn *f = n->u.host.fn;
	char more[96] = "";
	if (news > 1)
		snprintf(more, sizeof more, " (and %lu more of its runs after it)", news - 1);
	diag_error(d, n->pos, "host function '%s' of node '%s' failed (it returned %d) on its run "
		   "%lu, during %s%s: %s", f->function, n->id, st->first_status, st->first_run + 1,
		   when, more, st->first[0] ? st->first : "(no message)");
	st->told = st->failed;
	st->when[0] = '\0';
	return 1;
}
