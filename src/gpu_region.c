/*
 * Memsets and copies as node parameters (gpu_region.h).
 */
#include "config.h"

#include <string.h>

#include "gpu_region.h"

void gpu_memset_params(const struct memset_geom *g, CUdeviceptr base, CUcontext ctx,
		       CUDA_MEMSET_NODE_PARAMS_v2 *out)
{
	memset(out, 0, sizeof *out);
	out->dst = base + g->offset;
	out->value = g->value;
	out->elementSize = g->elem;
	out->width = g->width;
	out->height = g->height;
	/* unused for one row: 0 there, as the tool always gave (and bench/update_rules measured) */
	out->pitch = g->height > 1 ? g->pitch : 0;
	out->ctx = ctx;
}

/* One end: its address, and its offsets and pitch when the copy has several rows. */
static void copy_end(const struct span *s, unsigned e, CUdeviceptr base, bool rows,
		     CUdeviceptr *dev, size_t *x, size_t *y, size_t *z, size_t *pitch,
		     size_t *height)
{
	const struct span_end *p = &s->end[e];
	if (!rows) {
		*dev = base + span_at(s, e, 0, 0, 0);
		return;
	}
	*dev = base + p->packed_at;
	*x = p->x_bytes;
	*y = p->y;
	*z = p->z;
	*pitch = p->pitch;
	*height = p->slice_rows;
}

void gpu_copy_params(const struct span *s, CUdeviceptr from, CUdeviceptr to, CUDA_MEMCPY3D *out)
{
	memset(out, 0, sizeof *out);
	bool rows = s->height > 1 || s->depth > 1;
	out->srcMemoryType = CU_MEMORYTYPE_UNIFIED;
	out->dstMemoryType = CU_MEMORYTYPE_UNIFIED;
	copy_end(s, END_FROM, from, rows, &out->srcDevice, &out->srcXInBytes, &out->srcY,
		 &out->srcZ, &out->srcPitch, &out->srcHeight);
	copy_end(s, END_TO, to, rows, &out->dstDevice, &out->dstXInBytes, &out->dstY,
		 &out->dstZ, &out->dstPitch, &out->dstHeight);
	out->WidthInBytes = s->width;
	out->Height = s->height;
	out->Depth = s->depth;
}
