/*
 * The device's graph memory (gpu_mem.h).
 */
#include "config.h"

#include <stddef.h>
#include <string.h>

#include "gpu_mem.h"

/* The attributes, and where each goes in a struct graph_mem. */
static const struct {
	CUgraphMem_attribute attr;
	size_t offset;
	const char *what;
} figures[] = {
	{CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT, offsetof(struct graph_mem, used), "in use"},
	{CU_GRAPH_MEM_ATTR_USED_MEM_HIGH, offsetof(struct graph_mem, used_high),
	 "in use at the high-water mark"},
	{CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT, offsetof(struct graph_mem, reserved),
	 "reserved"},
	{CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH, offsetof(struct graph_mem, reserved_high),
	 "reserved at the high-water mark"},
};
#define NFIGURES (sizeof figures / sizeof *figures)

bool gpu_mem_wanted(const struct gpu *gp)
{
	for (size_t i = 0; i < gp->g->nall_nodes; i++)
		if (gp->g->all_nodes[i]->kind == NK_ALLOC)
			return true;
	return false;
}

int gpu_mem_reset(struct gpu *gp)
{
	static const CUgraphMem_attribute marks[] = {
		CU_GRAPH_MEM_ATTR_USED_MEM_HIGH, CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH,
	};
	for (size_t i = 0; i < sizeof marks / sizeof *marks; i++) {
		/* a mark can only be reset to zero */
		cuuint64_t zero = 0;
		CUresult r = cu.DeviceSetGraphMemAttribute(gp->dev, marks[i], &zero);
		if (r != CUDA_SUCCESS) {
			errorx("cannot reset the device's graph memory high-water marks: %s",
			       cu_strerror(r));
			return 3;
		}
	}
	return 0;
}

int gpu_mem_read(struct gpu *gp, struct graph_mem *out)
{
	memset(out, 0, sizeof *out);
	for (size_t i = 0; i < NFIGURES; i++) {
		cuuint64_t v = 0;
		CUresult r = cu.DeviceGetGraphMemAttribute(gp->dev, figures[i].attr, &v);
		if (r != CUDA_SUCCESS) {
			errorx("cannot read the device's graph memory %s: %s", figures[i].what,
			       cu_strerror(r));
			return 3;
		}
		uint64_t u = v;
		memcpy((char *)out + figures[i].offset, &u, sizeof u);
	}
	return 0;
}
