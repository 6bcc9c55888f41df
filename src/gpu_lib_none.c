/*
 * Library nodes in a build without cuBLAS's and cuFFT's headers
 * (configure found no cublas_api.h or cufft.h): a file with cublas or
 * cufft nodes validates and describes as anywhere, and a run stops
 * before its graph is built, saying why (gpu_lib.h).
 */
#include "config.h"

#include "gpu_lib.h"

bool gpu_lib_check_driver(const struct gdef *g, struct diag *d)
{
	return true;
}

int gpu_lib_prepare(struct gpu *gp)
{
	for (size_t i = 0; i < gp->g->nall_nodes; i++) {
		const struct node *n = gp->g->all_nodes[i];
		if (node_kind_is_library(n->kind)) {
			diag_error(gp->d, n->kind_pos, "%s node '%s' cannot run: this cugraphrun was "
				   "built without cuBLAS's and cuFFT's headers (cublas_api.h, cufft.h); "
				   "configure it with --with-cuda=DIR of a toolkit that has them",
				   node_kind_names[n->kind], n->id);
			return 3;
		}
	}
	return 0;
}

int gpu_lib_capture(struct gpu *gp, struct node *n, CUgraph h, const CUgraphNode *deps,
		    const CUgraphEdgeData *data, size_t ndeps, CUgraphNode **made,
		    size_t *nmade, CUgraphNode *out)
{
	*made = NULL;
	*nmade = 0;
	return 3;
}

int gpu_lib_issue(struct gpu *gp, const struct node *n, CUstream s)
{
	return 3;
}

int gpu_lib_warm_up(struct gpu *gp)
{
	return 0;
}

void gpu_lib_close(struct gpu *gp, bool cuda)
{
}
