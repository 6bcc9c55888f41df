/*
 * Unit tests for src/gpu_region.c without a GPU: memsets and copies of
 * files loaded and validated as cugraphrun reads them, put into the
 * driver's CUDA_MEMSET_NODE_PARAMS and CUDA_MEMCPY3D field by field.
 * Built where cuda.h is (no driver is opened).
 */
#include "config.h"

#include <string.h>

#include "gpu_region.h"
#include "load.h"
#include "unit.h"
#include "unit_model.h"
#include "unit_cap.h"
#include "validate.h"

#define BASE_T 0x100000ull
#define BASE_V 0x200000ull

static const char file[] =
	"cugraphrun: 1\n"
	"buffers:\n"
	"  t: {type: f32, shape: [4, 8], pitch: 64}\n"
	"  v: {type: f32, count: 40}\n"
	"  u: {type: u16, shape: [3, 4, 5], pitch: 16}\n"
	"  q: {type: u16, shape: [4, 6, 8]}\n"
	"nodes:\n"
	"  - memset: {buffer: t, value: 1.5, offset: [0, 2], shape: [4, 1]}\n"
	"  - memset: {buffer: v, value: 2, offset: 3, count: 5}\n"
	"  - copy: {from: {buffer: t, offset: [0, 3]}, to: {buffer: v, offset: 6}, shape: [4, 1]}\n"
	"  - copy: {from: {buffer: v, offset: 4}, to: {buffer: v, offset: 20}, count: 10}\n"
	"  - copy: {from: {buffer: u, offset: [1, 1, 2]}, to: {buffer: q, offset: [2, 3, 4]}, "
	"shape: [2, 3, 3]}\n";

static CUDA_MEMSET_NODE_PARAMS_v2 memset_of(const struct gdef *g, size_t i, CUdeviceptr base)
{
	const struct memset_node *m = &g->all_nodes[i]->u.memset;
	const struct buffer *b = &g->buffers[m->buffer.idx];
	struct memset_geom geom;
	ck_assert_int_eq(memset_geom(m, b, buffer_pitch(b), &geom), SPAN_OK);
	CUDA_MEMSET_NODE_PARAMS_v2 p;
	gpu_memset_params(&geom, base, (CUcontext)(uintptr_t)0x42, &p);
	return p;
}

static CUDA_MEMCPY3D copy_of(const struct gdef *g, size_t i, CUdeviceptr from, CUdeviceptr to)
{
	const struct copy_node *c = &g->all_nodes[i]->u.copy;
	const struct buffer *f = &g->buffers[c->from.buffer.idx], *t = &g->buffers[c->to.buffer.idx];
	struct span s;
	ck_assert_int_eq(copy_geom(c, f, buffer_pitch(f), t, buffer_pitch(t), &s), SPAN_OK);
	CUDA_MEMCPY3D p;
	gpu_copy_params(&s, from, to, &p);
	return p;
}

START_TEST(test_memset_params)
{
	struct gdef *g = unit_valid(file);
	/* a column of a pitched buffer: 4 rows of one 4-byte word, 64 bytes apart */
	CUDA_MEMSET_NODE_PARAMS_v2 p = memset_of(g, 0, BASE_T);
	ck_assert_uint_eq(p.dst, BASE_T + 8);
	ck_assert_uint_eq(p.pitch, 64);
	ck_assert_uint_eq(p.value, 0x3fc00000u);
	ck_assert_uint_eq(p.elementSize, 4);
	ck_assert_uint_eq(p.width, 1);
	ck_assert_uint_eq(p.height, 4);
	ck_assert_ptr_eq(p.ctx, (CUcontext)(uintptr_t)0x42);
	/* flat: as the tool always gave it, no pitch */
	p = memset_of(g, 1, BASE_V);
	ck_assert_uint_eq(p.dst, BASE_V + 12);
	ck_assert_uint_eq(p.pitch, 0);
	ck_assert_uint_eq(p.value, 0x40000000u);
	ck_assert_uint_eq(p.width, 5);
	ck_assert_uint_eq(p.height, 1);
	gdef_free(g);
}
END_TEST

START_TEST(test_copy_params)
{
	struct gdef *g = unit_valid(file);
	/* a column into packed elements of a flat buffer */
	CUDA_MEMCPY3D p = copy_of(g, 2, BASE_T, BASE_V);
	ck_assert_int_eq(p.srcMemoryType, CU_MEMORYTYPE_UNIFIED);
	ck_assert_int_eq(p.dstMemoryType, CU_MEMORYTYPE_UNIFIED);
	ck_assert_uint_eq(p.srcDevice, BASE_T);
	ck_assert_uint_eq(p.srcXInBytes, 12);
	ck_assert_uint_eq(p.srcY, 0);
	ck_assert_uint_eq(p.srcZ, 0);
	ck_assert_uint_eq(p.srcPitch, 64);
	ck_assert_uint_eq(p.srcHeight, 4);
	ck_assert_uint_eq(p.dstDevice, BASE_V + 24);
	ck_assert_uint_eq(p.dstXInBytes, 0);
	ck_assert_uint_eq(p.dstPitch, 4);
	ck_assert_uint_eq(p.dstHeight, 4);
	ck_assert_uint_eq(p.WidthInBytes, 4);
	ck_assert_uint_eq(p.Height, 4);
	ck_assert_uint_eq(p.Depth, 1);
	ck_assert_ptr_null(p.srcHost);
	ck_assert_ptr_null(p.reserved0);
	/* flat, as ever: both addresses at the first byte, no pitch, one row */
	p = copy_of(g, 3, BASE_V, BASE_V);
	ck_assert_uint_eq(p.srcDevice, BASE_V + 16);
	ck_assert_uint_eq(p.dstDevice, BASE_V + 80);
	ck_assert_uint_eq(p.srcPitch, 0);
	ck_assert_uint_eq(p.dstPitch, 0);
	ck_assert_uint_eq(p.srcHeight, 0);
	ck_assert_uint_eq(p.WidthInBytes, 40);
	ck_assert_uint_eq(p.Height, 1);
	ck_assert_uint_eq(p.Depth, 1);
	/* 3-D: offsets in three dimensions, each end's pitch and rows a slice */
	p = copy_of(g, 4, BASE_T, BASE_V);
	ck_assert_uint_eq(p.srcDevice, BASE_T);
	ck_assert_uint_eq(p.srcXInBytes, 4);
	ck_assert_uint_eq(p.srcY, 1);
	ck_assert_uint_eq(p.srcZ, 1);
	ck_assert_uint_eq(p.srcPitch, 16);
	ck_assert_uint_eq(p.srcHeight, 4);
	ck_assert_uint_eq(p.dstDevice, BASE_V);
	ck_assert_uint_eq(p.dstXInBytes, 8);
	ck_assert_uint_eq(p.dstY, 3);
	ck_assert_uint_eq(p.dstZ, 2);
	ck_assert_uint_eq(p.dstPitch, 16);
	ck_assert_uint_eq(p.dstHeight, 6);
	ck_assert_uint_eq(p.WidthInBytes, 6);
	ck_assert_uint_eq(p.Height, 3);
	ck_assert_uint_eq(p.Depth, 2);
	gdef_free(g);
}
END_TEST

static Suite *gpu_region_suite(void)
{
	Suite *s = suite_create("gpu_region");
	TCase *tc = tcase_create("params");
	tcase_add_test(tc, test_memset_params);
	tcase_add_test(tc, test_copy_params);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_MAIN(gpu_region_suite)
