/*
 * The readers of a run's shared state (gpu_state.h): verbose notes, a
 * buffer element's device address, a module's image and a kernel's
 * symbol in it.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "gpu_state.h"
#include "shape.h"

void gpu_verbose(const struct gpu *gp, const char *fmt, ...)
{
	if (gp->verbosity < VERB_VERBOSE)
		return;
	va_list ap;
	va_start(ap, fmt);
	fputs("cugraphrun: ", stderr);
	diag_vprint(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

CUdeviceptr gpu_buffer_addr(const struct gpu *gp, long b, uint64_t offset)
{
	/* flat elements skip the padding of pitched rows */
	return gp->dptr[b] + buffer_elem_at(&gp->g->buffers[b], gp->pitch[b], offset);
}

/* The node's function as the module names it: a source's through NVRTC. */
const char *gpu_kernel_symbol(const struct gpu *gp, const struct kernel_node *k)
{
	const struct rtc_image *im = &gp->images[k->module.idx];
	const char *low = gp->g->modules[k->module.idx].source ? rtc_lowered(im, k->func) : NULL;
	return low ? low : k->func;
}

/* The bytes a kernel's module was loaded from, during gpu_load (NULL: none kept). */
const void *gpu_module_image(const struct gpu *gp, long mi, size_t *len)
{
	const struct module *m = &gp->g->modules[mi];
	/* with the NUL after PTX text, which is then read in place */
	if (m->builtin) {
		*len = strlen(builtin_ptx) + 1;
		return builtin_ptx;
	}
	if (m->source) {
		*len = gp->images[mi].size;
		return gp->images[mi].data;
	}
	/* read_whole_file puts a NUL after the file's bytes */
	*len = gp->file_bytes[mi] ? gp->file_len[mi] + 1 : 0;
	return gp->file_bytes[mi];
}
