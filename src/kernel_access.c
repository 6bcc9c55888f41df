#include "config.h"

#include <stdlib.h>

#include "builtin_ptx.h"
#include "fileio.h"
#include "kernel_access.h"
#include "ptx_access.h"
#include "strmap.h"
#include "xmalloc.h"

/* One module: its text when it is PTX, and the readings of its kernels. */
struct mod_reading {
	bool tried;                     /* text read (or found unreadable) */
	char *text;                     /* malloc'd file text; NULL: none to read */
	const char *ptx;                /* text, or the built-in module's, or NULL */
	struct strmap *index;           /* function -> readings index */
	struct ptx_access **readings;   /* NULL where the kernel cannot be read */
	size_t nreadings, capreadings;
};

struct kernel_access {
	const struct gdef *g;
	struct mod_reading *mods;       /* one per g->modules */
};

struct kernel_access *kernel_access_new(const struct gdef *g)
{
	struct kernel_access *ka = xcalloc(1, sizeof *ka);
	ka->g = g;
	ka->mods = xcalloc(g->nmodules ? g->nmodules : 1, sizeof *ka->mods);
	return ka;
}

void kernel_access_free(struct kernel_access *ka)
{
	if (ka == NULL)
		return;
	for (size_t i = 0; i < ka->g->nmodules; i++) {
		struct mod_reading *m = &ka->mods[i];
		for (size_t k = 0; k < m->nreadings; k++)
			ptx_access_free(m->readings[k]);
		free(m->readings);
		strmap_free(m->index);
		free(m->text);
	}
	free(ka->mods);
	free(ka);
}

/* The module's PTX, read on first use: NULL for CUDA C++ and unreadable files. */
static const char *module_ptx(struct mod_reading *mr, const struct module *m)
{
	if (mr->tried)
		return mr->ptx;
	mr->tried = true;
	mr->index = strmap_new(16);
	if (m->builtin) {
		mr->ptx = builtin_ptx;
	} else if (!m->source && m->path) {
		/* a cubin or fatbin is read too: ptx_access_new turns it away */
		mr->text = read_whole_file_max(m->path, READ_MAX_BYTES, NULL);
		mr->ptx = mr->text;
	}
	return mr->ptx;
}

/* The reading of function func of module mi, made once; NULL when none can be had. */
static const struct ptx_access *reading(struct kernel_access *ka, long mi, const char *func)
{
	if (mi < 0 || (size_t)mi >= ka->g->nmodules || func == NULL)
		return NULL;
	struct mod_reading *mr = &ka->mods[mi];
	const char *ptx = module_ptx(mr, &ka->g->modules[mi]);
	if (ptx == NULL)
		return NULL;
	long at = strmap_get(mr->index, func);
	if (at >= 0)
		return mr->readings[at];
	*VEC_PUSH(mr->readings, mr->nreadings, mr->capreadings) = ptx_access_new(ptx, func);
	/* the key is the model's string, which outlives the map */
	strmap_put(mr->index, func, (long)(mr->nreadings - 1), NULL);
	return mr->readings[mr->nreadings - 1];
}

enum use_access kernel_access_of(struct kernel_access *ka, const struct node *n,
				 const struct buf_use *u)
{
	if (u->access != USE_UNKNOWN || n->kind != NK_KERNEL || u->arg == NULL ||
	    u->arg->access != ARG_ACCESS_UNSAID)
		return u->access;
	const struct kernel_node *k = &n->u.kernel;
	const struct ptx_access *a = reading(ka, k->module.idx, k->func);
	if (a == NULL)
		return USE_UNKNOWN;
	/* a device address is 8 bytes (.address_size 64) */
	unsigned eff = ptx_access_at(a, u->param, u->offset, 8);
	if (eff & PTX_UNKNOWN)
		return USE_UNKNOWN;
	return (enum use_access)((eff & PTX_READ ? USE_READ : 0) | (eff & PTX_WRITE ? USE_WRITE : 0));
}
