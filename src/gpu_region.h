/*
 * Memsets and copies, regions and flat slices alike, as the driver's node
 * parameters: the geometry shape.h worked out (memset_geom, copy_geom)
 * put into CUDA_MEMSET_NODE_PARAMS and CUDA_MEMCPY3D.  Pure functions of
 * their arguments, with no driver call, so that tests check every field
 * without a GPU (tests/unit/check_gpu_region.c).
 */
#ifndef CGR_GPU_REGION_H
#define CGR_GPU_REGION_H

#include "cuda_api.h"
#include "shape.h"

/* A memset of geometry g into the buffer at base (its element 0), run in ctx. */
void gpu_memset_params(const struct memset_geom *g, CUdeviceptr base, CUcontext ctx,
		       CUDA_MEMSET_NODE_PARAMS_v2 *out);

/*
 * A copy of span s (copy_geom) between the buffers at from and to (their
 * element 0), through unified addressing.  One row (height and depth 1) is
 * the 1-D copy the tool always made: both addresses at the first byte, no
 * pitch; a multidimensional one gives each end its pitch, its rows per
 * slice and its offsets in three dimensions (a packed end's address moves
 * to its first byte instead, the offsets 0).
 */
void gpu_copy_params(const struct span *s, CUdeviceptr from, CUdeviceptr to, CUDA_MEMCPY3D *out);

#endif
