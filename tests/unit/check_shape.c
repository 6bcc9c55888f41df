/*
 * Unit tests for shaped buffers without a GPU: where elements lie and
 * what one memset or copy is in the driver's terms (src/shape.c), from
 * files loaded and validated as cugraphrun reads them; regions walked on
 * the host (src/buf_region.c); checks of a region and their messages
 * (src/buf_check.c); host set, copy and dump of regions (src/buf_host.c).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf_check.h"
#include "buf_data.h"
#include "buf_host.h"
#include "buf_region.h"
#include "diag.h"
#include "fileio.h"
#include "load.h"
#include "load_sweep.h"
#include "model.h"
#include "shape.h"
#include "sweep.h"
#include "sweep_diff.h"
#include "unit.h"
#include "unit_model.h"
#include "unit_cap.h"
#include "validate.h"
#include "xmalloc.h"

/* A file whose validation says exactly want. */
static void invalid(const char *text, const char *want)
{
	struct cap c;
	cap_open(&c, "t.yaml");
	struct gdef *g = gdef_load_string("t.yaml", text, strlen(text), NULL, &c.d);
	ck_assert_ptr_nonnull(g);
	if (c.d.nerrors == 0)
		gdef_validate(g, &c.d);
	ck_assert_str_eq(cap_text(&c), want);
	cap_close(&c);
	gdef_free(g);
}

static const struct buffer *bufn(const struct gdef *g, const struct name_ref *r)
{
	ck_assert_int_ge(r->idx, 0);
	return &g->buffers[r->idx];
}

/* The geometry of node i, a memset, at the model's pitch. */
static struct memset_geom geom_of(const struct gdef *g, size_t i)
{
	const struct node *n = g->all_nodes[i];
	ck_assert_int_eq(n->kind, NK_MEMSET);
	struct memset_geom m;
	const struct buffer *b = bufn(g, &n->u.memset.buffer);
	ck_assert_int_eq(memset_geom(&n->u.memset, b, buffer_pitch(b), &m), SPAN_OK);
	return m;
}

static void geom_is(struct memset_geom m, uint64_t offset, uint64_t pitch, unsigned elem,
		    uint64_t width, uint64_t height)
{
	ck_assert_uint_eq(m.offset, offset);
	ck_assert_uint_eq(m.pitch, pitch);
	ck_assert_uint_eq(m.elem, elem);
	ck_assert_uint_eq(m.width, width);
	ck_assert_uint_eq(m.height, height);
}

static struct span copy_of(const struct gdef *g, size_t i)
{
	const struct node *n = g->all_nodes[i];
	ck_assert_int_eq(n->kind, NK_COPY);
	const struct buffer *f = bufn(g, &n->u.copy.from.buffer), *t = bufn(g, &n->u.copy.to.buffer);
	struct span s;
	ck_assert_int_eq(copy_geom(&n->u.copy, f, buffer_pitch(f), t, buffer_pitch(t), &s),
			 SPAN_OK);
	return s;
}

static void end_is(const struct span *s, unsigned e, uint64_t x, uint64_t y, uint64_t z,
		   uint64_t pitch, uint64_t slice_rows, bool packed, uint64_t at)
{
	const struct span_end *p = &s->end[e];
	ck_assert_uint_eq(p->x_bytes, x);
	ck_assert_uint_eq(p->y, y);
	ck_assert_uint_eq(p->z, z);
	ck_assert_uint_eq(p->pitch, pitch);
	ck_assert_uint_eq(p->slice_rows, slice_rows);
	ck_assert_int_eq(p->packed, packed);
	ck_assert_uint_eq(p->packed_at, at);
}

/* --- where elements lie --------------------------------------------------- */

START_TEST(test_extents)
{
	struct gdef *g = unit_valid("cugraphrun: 1\n"
			       "buffers:\n"
			       "  f: {type: f32, count: 10}\n"
			       "  m: {type: f32, shape: [4, 8], pitch: 64}\n"
			       "  c: {type: u16, shape: [2, 3, 5]}\n"
			       "  a: {type: f64, shape: [3, 5], pitch: auto}\n"
			       "nodes: [{empty: {}}]\n");
	const struct buffer *f = &g->buffers[0], *m = &g->buffers[1], *c = &g->buffers[2],
		*a = &g->buffers[3];
	ck_assert_uint_eq(buffer_extent(f, AXIS_X), 10);
	ck_assert_uint_eq(buffer_extent(f, AXIS_Y), 1);
	ck_assert_uint_eq(f->shape.pitch, 40);
	ck_assert(!buffer_padded(f));
	ck_assert_uint_eq(m->count, 32);
	ck_assert_uint_eq(m->size, 128);
	ck_assert_uint_eq(buffer_extent(m, AXIS_X), 8);
	ck_assert_uint_eq(buffer_extent(m, AXIS_Y), 4);
	ck_assert_uint_eq(buffer_extent(m, AXIS_Z), 1);
	ck_assert(buffer_padded(m));
	ck_assert_uint_eq(buffer_span(m, 64), 256);
	/* element 9: row 1, column 1 */
	ck_assert_uint_eq(buffer_elem_at(m, 64, 9), 68);
	ck_assert_uint_eq(c->count, 30);
	ck_assert_uint_eq(buffer_rows(c), 6);
	ck_assert_uint_eq(c->shape.pitch, 10);
	ck_assert(!buffer_padded(c));
	ck_assert_uint_eq(buffer_elem_at(c, 10, 17), 34);
	uint64_t xyz[3];
	buffer_coords(c, 17, xyz);
	ck_assert_uint_eq(xyz[AXIS_Z], 1);
	ck_assert_uint_eq(xyz[AXIS_Y], 0);
	ck_assert_uint_eq(xyz[AXIS_X], 2);
	char w[64];
	buffer_index_words(c, 17, w, sizeof w);
	ck_assert_str_eq(w, "[1, 0, 2]");
	buffer_index_words(f, 7, w, sizeof w);
	ck_assert_str_eq(w, "");
	shape_words(c, w, sizeof w);
	ck_assert_str_eq(w, "[2, 3, 5]");
	shape_words(f, w, sizeof w);
	ck_assert_str_eq(w, "[10]");
	/* pitch: auto: a row's bytes in the model, padded all the same */
	ck_assert(a->shape.pitch_auto);
	ck_assert_uint_eq(a->shape.pitch, 40);
	ck_assert(buffer_padded(a));
	ck_assert_uint_eq(buffer_span(a, 512), 1536);
	gdef_free(g);
}
END_TEST

START_TEST(test_pack)
{
	struct buffer b = {.name = "m", .type = ET_U8, .count = 6, .size = 6,
			   .shape = {.rank = 2, .dim = {2, 3}, .pitch = 5, .has_pitch = true}};
	const unsigned char packed[6] = {1, 2, 3, 4, 5, 6};
	unsigned char padded[10], back[6];
	memset(padded, 0xee, sizeof padded);
	buffer_unpack(&b, 5, packed, padded);
	const unsigned char want[10] = {1, 2, 3, 0, 0, 4, 5, 6, 0, 0};
	ck_assert_mem_eq(padded, want, sizeof want);
	buffer_pack(&b, 5, padded, back);
	ck_assert_mem_eq(back, packed, sizeof packed);
}
END_TEST

/* --- memsets ----------------------------------------------------------------- */

static const char memsets[] =
	"cugraphrun: 1\n"
	"buffers:\n"
	"  t: {type: f32, shape: [4, 8], pitch: 64}\n"
	"  d: {type: f32, shape: [4, 8]}\n"
	"  u: {type: f32, shape: [4, 8, 16], pitch: 128}\n"
	"  w: {type: u64, shape: [4, 8], pitch: 128}\n"
	"  a: {type: u8, shape: [4, 32], pitch: auto}\n"
	"  v: {type: i16, count: 100}\n"
	"nodes:\n"
	"  - memset: {buffer: t, value: 1}\n"                                   /* 0 */
	"  - memset: {buffer: t, value: 2, offset: [0, 2], shape: [4, 1]}\n"    /* 1 */
	"  - memset: {buffer: d, value: 3, offset: [1, 0], shape: [2, 8]}\n"    /* 2 */
	"  - memset: {buffer: u, value: 4, offset: [1, 0, 0], shape: [2, 8, 16]}\n" /* 3 */
	"  - memset: {buffer: u, value: 5, offset: [0, 2, 0], shape: [4, 1, 16]}\n" /* 4 */
	"  - memset: {buffer: w, value: 0x0000000700000007, offset: [1, 1], shape: [2, 3]}\n"
	"  - memset: {buffer: a, value: 6}\n"                                   /* 6 */
	"  - memset: {buffer: v, value: 7, offset: 10, count: 20}\n"            /* 7 */
	"  - memset: {buffer: t, value: 8, offset: 16, count: 16}\n"            /* 8 */
	"  - memset: {buffer: t, value: 9, offset: 9, count: 3}\n"              /* 9 */
	"  - memset: {buffer: d, value: 1, offset: [0, 0], shape: [4, 1]}\n";   /* 10 */

START_TEST(test_memset_geom)
{
	struct gdef *g = unit_valid(memsets);
	/* the whole padded buffer: 4 rows of 8 words, 64 bytes apart */
	geom_is(geom_of(g, 0), 0, 64, 4, 8, 4);
	/* a column: 4 rows of one word */
	geom_is(geom_of(g, 1), 8, 64, 4, 1, 4);
	/* whole rows of an unpadded buffer follow each other: one row */
	geom_is(geom_of(g, 2), 32, 64, 4, 16, 1);
	/* 3-D, whole slices: their 16 rows at the pitch, one 2-D memset */
	geom_is(geom_of(g, 3), 1024, 128, 4, 16, 16);
	/* 3-D, one row a slice: the rows step by a slice */
	geom_is(geom_of(g, 4), 256, 1024, 4, 16, 4);
	/* 8-byte elements: two 4-byte words each */
	struct memset_geom w = geom_of(g, 5);
	geom_is(w, 136, 128, 4, 6, 2);
	ck_assert_uint_eq(w.value, 7);
	/* the driver's pitch: never one row, though 32 bytes may be its pitch */
	geom_is(geom_of(g, 6), 0, 32, 1, 32, 4);
	/* flat, as the tool always made it: one row, no pitch */
	geom_is(geom_of(g, 7), 20, 40, 2, 20, 1);
	/* whole padded rows 2 and 3 */
	geom_is(geom_of(g, 8), 128, 64, 4, 8, 2);
	/* within row 1 */
	geom_is(geom_of(g, 9), 68, 12, 4, 3, 1);
	ck_assert(memset_is_2d(&g->all_nodes[1]->u.memset, &g->buffers[0]));
	ck_assert(!memset_is_2d(&g->all_nodes[2]->u.memset, &g->buffers[1]));
	ck_assert(!memset_is_2d(&g->all_nodes[7]->u.memset, &g->buffers[5]));
	/* a column of an unpadded buffer is 2-D too */
	geom_is(geom_of(g, 10), 0, 32, 4, 1, 4);
	ck_assert_uint_eq(g->all_nodes[1]->u.memset.count, 4);
	ck_assert_uint_eq(g->all_nodes[3]->u.memset.count, 256);
	gdef_free(g);
}
END_TEST

START_TEST(test_memset_refused)
{
	invalid("cugraphrun: 1\n"
		"buffers:\n"
		"  u: {type: f32, shape: [4, 8, 16], pitch: 128}\n"
		"  t: {type: f32, shape: [4, 8], pitch: 64}\n"
		"nodes:\n"
		"  - memset: {buffer: u, value: 1, offset: [0, 2, 0], shape: [4, 2, 16]}\n"
		"  - memset: {buffer: t, value: 1, offset: 3, count: 8}\n"
		"  - memset: {buffer: t, value: 1, offset: [0, 7], shape: [2, 2]}\n",
		"t.yaml:6:61: error: memset of region [0:4, 2:4, 0:16] of buffer 'u' is not one "
		"2-D memset: its 2 rows in each of 4 slices are not evenly spaced, and the driver's "
		"memset node has no depth; set whole slices' rows (8), one row a slice, or one "
		"memset per slice\n"
		"t.yaml:7:53: error: memset of elements 3 to 10 of buffer 't' is not one operation: "
		"its rows of 8 elements lie 64 bytes apart, and the slice is neither within one row "
		"nor whole rows; give a region (offset: [row, column], shape: [rows, columns])\n"
		"t.yaml:8:58: error: memset: region [0:2, 7:9] runs past the shape [4, 8] of buffer "
		"'t'\n");
}
END_TEST

/* --- copies ------------------------------------------------------------------ */

static const char copies[] =
	"cugraphrun: 1\n"
	"buffers:\n"
	"  t: {type: f32, shape: [4, 8], pitch: 64}\n"
	"  s: {type: f32, shape: [4, 8], pitch: 96}\n"
	"  v: {type: f32, count: 40}\n"
	"  x: {type: f32, count: 40}\n"
	"  p: {type: u16, shape: [3, 4, 5], pitch: 16}\n"
	"  q: {type: u16, shape: [4, 6, 8]}\n"
	"nodes:\n"
	"  - copy: {from: {buffer: t, offset: [0, 3]}, to: v, shape: [4, 1]}\n"            /* 0 */
	"  - copy: {from: {buffer: p, offset: [1, 1, 2]}, to: {buffer: q, offset: [2, 3, 4]}, "
	"shape: [2, 3, 3]}\n"                                                              /* 1 */
	"  - copy: {from: {buffer: v, offset: 4}, to: {buffer: x, offset: 8}, count: 10}\n" /* 2 */
	"  - copy: {from: t, to: v}\n"                                                     /* 3 */
	"  - copy: {from: t, to: s}\n"                                                     /* 4 */
	"  - copy: {from: {buffer: v, offset: 8}, to: {buffer: t, offset: [1, 2]}, "
	"shape: [2, 3]}\n";                                                                /* 5 */

START_TEST(test_copy_geom)
{
	struct gdef *g = unit_valid(copies);
	/* a column into a vector: 4 rows of 4 bytes, the vector's packed */
	struct span s = copy_of(g, 0);
	ck_assert_uint_eq(s.width, 4);
	ck_assert_uint_eq(s.height, 4);
	ck_assert_uint_eq(s.depth, 1);
	end_is(&s, END_FROM, 12, 0, 0, 64, 4, false, 0);
	end_is(&s, END_TO, 0, 0, 0, 4, 4, true, 0);
	ck_assert_uint_eq(g->all_nodes[0]->u.copy.bytes, 16);
	/* a 3-D box between two 3-D buffers, each with its own pitch and rows a slice */
	s = copy_of(g, 1);
	ck_assert_uint_eq(s.width, 6);
	ck_assert_uint_eq(s.height, 3);
	ck_assert_uint_eq(s.depth, 2);
	end_is(&s, END_FROM, 4, 1, 1, 16, 4, false, 0);
	end_is(&s, END_TO, 8, 3, 2, 16, 6, false, 0);
	ck_assert(copy_is_multidim(&g->all_nodes[1]->u.copy, &g->buffers[4], &g->buffers[5]));
	/* flat: one row from the first byte to the first byte, as ever */
	s = copy_of(g, 2);
	ck_assert_uint_eq(s.width, 40);
	ck_assert_uint_eq(s.height, 1);
	ck_assert_uint_eq(s.depth, 1);
	end_is(&s, END_FROM, 0, 0, 0, 40, 1, true, 16);
	end_is(&s, END_TO, 0, 0, 0, 40, 1, true, 32);
	ck_assert(!copy_is_multidim(&g->all_nodes[2]->u.copy, &g->buffers[2], &g->buffers[3]));
	/* a whole padded buffer to a flat one: its rows, packed at the other end */
	s = copy_of(g, 3);
	ck_assert_uint_eq(s.width, 32);
	ck_assert_uint_eq(s.height, 4);
	end_is(&s, END_FROM, 0, 0, 0, 64, 4, false, 0);
	end_is(&s, END_TO, 0, 0, 0, 32, 4, true, 0);
	/* between two pitches */
	s = copy_of(g, 4);
	end_is(&s, END_FROM, 0, 0, 0, 64, 4, false, 0);
	end_is(&s, END_TO, 0, 0, 0, 96, 4, false, 0);
	/* packed rows from a flat offset into a region */
	s = copy_of(g, 5);
	ck_assert_uint_eq(s.width, 12);
	ck_assert_uint_eq(s.height, 2);
	end_is(&s, END_FROM, 0, 0, 0, 12, 2, true, 32);
	end_is(&s, END_TO, 8, 1, 0, 64, 4, false, 0);
	gdef_free(g);
}
END_TEST

START_TEST(test_copy_collapse)
{
	/* rows that follow each other at both ends: one run of bytes */
	struct gdef *g = unit_valid("cugraphrun: 1\n"
			       "buffers:\n"
			       "  a: {type: i32, shape: [4, 8]}\n"
			       "  b: {type: i32, shape: [6, 8]}\n"
			       "nodes:\n"
			       "  - copy: {from: {buffer: a, offset: [1, 0]}, to: {buffer: b, offset: "
			       "[3, 0]}, shape: [2, 8]}\n");
	struct span s = copy_of(g, 0);
	ck_assert_uint_eq(s.width, 64);
	ck_assert_uint_eq(s.height, 1);
	ck_assert_uint_eq(s.depth, 1);
	end_is(&s, END_FROM, 0, 0, 0, 64, 1, true, 32);
	end_is(&s, END_TO, 0, 0, 0, 64, 1, true, 96);
	gdef_free(g);
}
END_TEST

/* --- regions on the host ------------------------------------------------------ */

START_TEST(test_span_walks)
{
	/* a 3 x 4 u8 buffer at pitch 6: the column [0:3, 1:2] and the box [1:3, 2:4] */
	struct gdef *g = unit_valid("cugraphrun: 1\n"
			       "buffers:\n"
			       "  m: {shape: [3, 4], pitch: 6, memory: host}\n"
			       "  n: {shape: [3, 4], memory: host}\n"
			       "nodes:\n"
			       "  - host: {set: {buffer: m, value: 9, offset: [0, 1], shape: [3, 1]}}\n"
			       "  - host: {copy: {from: {buffer: m, offset: [1, 2]}, to: {buffer: n, "
			       "offset: [0, 0]}, shape: [2, 2]}}\n"
			       "  - host: {dump: {buffer: m, offset: [1, 2], shape: [2, 2]}}\n");
	unsigned char m[18], n[12];
	for (int i = 0; i < 18; i++)
		m[i] = (unsigned char)i;
	memset(n, 0, sizeof n);
	void *host[2] = {m, n};
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);
	struct host_env env = {.g = g, .host = host, .out = f, .dump_armed = 1};
	for (size_t i = 0; i < 3; i++) {
		struct host_call call = {.env = &env, .n = g->all_nodes[i]};
		host_run(&call);
	}
	fclose(f);
	const unsigned char mw[18] = {0, 9, 2, 3, 4, 5, 6, 9, 8, 9, 10, 11, 12, 9, 14, 15, 16, 17};
	ck_assert_mem_eq(m, mw, sizeof mw);
	/* rows 1 and 2, columns 2 and 3: bytes 8, 9 and 14, 15 */
	const unsigned char nw[12] = {8, 9, 0, 0, 14, 15, 0, 0, 0, 0, 0, 0};
	ck_assert_mem_eq(n, nw, sizeof nw);
	ck_assert_str_eq(out, "m[1:3, 2:4] = [8, 9, 14, 15]\n");
	free(out);
	gdef_free(g);
}
END_TEST

START_TEST(test_check_region)
{
	struct gdef *g = unit_valid("cugraphrun: 1\n"
			       "buffers:\n"
			       "  t: {type: i32, shape: [3, 4], pitch: 32}\n"
			       "nodes: [{empty: {}}]\n"
			       "checks:\n"
			       "  - {buffer: t, offset: [0, 1], shape: [3, 1], expect: 5}\n"
			       "  - {buffer: t, offset: [1, 2], shape: [2, 2], sum: 22}\n"
			       "  - {buffer: t, offset: [1, 0], shape: [2, 4], max: {le: 6}}\n");
	/* packed, as the back end reads it back: column 1 holds 5, 5, 7 */
	const int32_t t[12] = {0, 5, 1, 1, 2, 5, 6, 5, 3, 7, 6, 5};
	struct cap c;
	cap_open(&c, "t.yaml");
	ck_assert_uint_eq(g->checks[0].count, 3);
	ck_assert(!check_buffer(&g->checks[0], &g->buffers[0], t, NULL, &c.d));
	ck_assert(check_buffer(&g->checks[1], &g->buffers[0], t, NULL, &c.d));
	ck_assert(!check_buffer(&g->checks[2], &g->buffers[0], t, NULL, &c.d));
	ck_assert_str_eq(cap_text(&c),
			 "t.yaml:6:5: error: check failed: buffer 't' differs at index 9 [2, 1]: "
			 "expected 5, got 7 (1 of 3 elements differ)\n"
			 "t.yaml:8:5: error: check failed: the max of region [1:3, 0:4] of buffer "
			 "'t' is 7 (at index 9 [2, 1]); expected <= 6\n");
	cap_close(&c);
	gdef_free(g);
}
END_TEST

/* Formulas index a shaped buffer by its axes (buf_formula.c formula_dims), regions too. */
START_TEST(test_formula_indices)
{
	struct gdef *g = unit_valid("cugraphrun: 1\n"
			       "buffers:\n"
			       "  t: {type: i32, shape: [3, 4], pitch: 32, init: {formula: \"i * 10 + j\"}}\n"
			       "nodes: [{empty: {}}]\n"
			       "checks:\n"
			       "  - {buffer: t, expect: {formula: \"i * 10 + j\"}}\n"
			       "  - {buffer: t, offset: [1, 2], shape: [2, 2], expect: {formula: \"i * 10 + j\"}}\n"
			       "  - {buffer: t, offset: [1, 1], shape: [2, 3], expect: {formula: \"i + j\"}}\n");
	const struct buffer *b = &g->buffers[0];
	int32_t t[12];
	struct cap c;
	cap_open(&c, "t.yaml");
	/* packed, as the back end stages it: row i, column j holds 10 i + j */
	ck_assert_int_eq(buffer_fill_init(b, t, &c.d), 0);
	const int32_t want[12] = {0, 1, 2, 3, 10, 11, 12, 13, 20, 21, 22, 23};
	ck_assert_mem_eq(t, want, sizeof want);
	ck_assert(check_buffer(&g->checks[0], b, t, NULL, &c.d));
	ck_assert(check_buffer(&g->checks[1], b, t, NULL, &c.d));
	t[11] = 5;
	ck_assert(!check_buffer(&g->checks[1], b, t, NULL, &c.d));
	ck_assert(!check_buffer(&g->checks[2], b, t, NULL, &c.d));
	ck_assert_str_eq(cap_text(&c),
			 "t.yaml:7:5: error: check failed: buffer 't' differs at index 11 [2, 3]: "
			 "expected 23, got 5 (1 of 4 elements differ)\n"
			 "t.yaml:8:5: error: check failed: buffer 't' differs at index 5 [1, 1]: "
			 "expected 2, got 11 (5 of 6 elements differ)\n");
	cap_close(&c);
	gdef_free(g);
	/* k indexes a third axis, which a 2-D buffer lacks */
	invalid("cugraphrun: 1\n"
		"buffers:\n"
		"  t: {type: i32, shape: [3, 4], init: {formula: \"i + k\"}}\n"
		"nodes: [{empty: {}}]\n",
		"t.yaml:3:54: error: init of buffer 't': 'k' indexes a third dimension, "
		"and buffer 't' has 2\n");
}
END_TEST

START_TEST(test_flat_index_words)
{
	/* a flat check of a shaped buffer names the element's place too */
	struct gdef *g = unit_valid("cugraphrun: 1\n"
			       "buffers:\n"
			       "  t: {type: u8, shape: [2, 3]}\n"
			       "nodes: [{empty: {}}]\n"
			       "checks: [{buffer: t, expect: 0}]\n");
	const unsigned char t[6] = {0, 0, 0, 0, 4, 0};
	struct cap c;
	cap_open(&c, "t.yaml");
	ck_assert(!check_buffer(&g->checks[0], &g->buffers[0], t, NULL, &c.d));
	ck_assert_str_eq(cap_text(&c), "t.yaml:5:10: error: check failed: buffer 't' differs at "
			 "index 4 [1, 1]: expected 0, got 4 (1 of 6 elements differ)\n");
	cap_close(&c);
	gdef_free(g);
}
END_TEST

/* --- sweeps: what the update path does with shaped operations ----------------- */

/* A file of the source tree as a sweep, every point validated. */
static struct sweep *sweep_file(const char *name)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", TOP_SRCDIR, name);
	struct cap c;
	cap_open(&c, path);
	struct sweep *sw = sweep_load(path, NULL, 0, &c.d);
	ck_assert_ptr_nonnull(sw);
	if (c.d.nerrors == 0)
		sweep_validate(sw, &c.d, &(struct mod_settings){0});
	ck_assert_msg(c.d.nerrors == 0, "errors:\n%s", cap_text(&c));
	cap_close(&c);
	return sw;
}

START_TEST(test_sweep_in_place)
{
	/*
	 * tests/gpu/cases/shape-sweep.yaml: the 2-D memset's value would update
	 * in place, but the copies of rows change, which the driver refuses
	 * either way (measured: sweep_diff.c): every point is built again, at
	 * the first copy
	 */
	struct sweep *sw = sweep_file("tests/gpu/cases/shape-sweep.yaml");
	ck_assert_uint_eq(sw->npoints, 3);
	for (size_t p = 1; p < 3; p++) {
		struct model_diff d;
		const struct gdef *b = sw->models[p];
		model_diff(sw->models[p - 1], b, &d);
		ck_assert(!d.structural && d.rebuild);
		size_t col = unit_node(b, "col")->seq, pick = unit_node(b, "pick")->seq,
			strip = unit_node(b, "strip")->seq;
		ck_assert_str_eq(d.changed[col], "value");
		ck_assert_str_eq(d.changed[pick], "from");
		ck_assert_str_eq(d.changed[strip], "shape");
		ck_assert_msg(strncmp(d.why, "copy node 'pick' of rows or slices changed, and the "
				      "driver updates such a copy in no way", 80) == 0, "%s", d.why);
		ck_assert(!d.any_realloc);
		model_diff_free(&d);
	}
	sweep_release(sw);
}
END_TEST

START_TEST(test_sweep_rebuild)
{
	/* tests/gpu/cases/shape-sweep-rebuild.yaml: new rows rebuild, a new value does not */
	struct sweep *sw = sweep_file("tests/gpu/cases/shape-sweep-rebuild.yaml");
	ck_assert_uint_eq(sw->npoints, 3);
	struct model_diff d;
	model_diff(sw->models[0], sw->models[1], &d);
	ck_assert(!d.structural && d.rebuild);
	ck_assert_str_eq(d.why, "the rows of 2-D memset node 'band' changed (3 of 2 4-byte "
			 "words, 32 bytes apart; they were 2 of 2 4-byte words, 32 bytes apart), "
			 "and the driver updates only a 2-D memset's address and value (" TOP_SRCDIR
			 "/tests/gpu/cases/shape-sweep-rebuild.yaml:14:5)");
	model_diff_free(&d);
	model_diff(sw->models[1], sw->models[2], &d);
	ck_assert(!d.structural && !d.rebuild);
	ck_assert_str_eq(d.changed[unit_node(sw->models[2], "band")->seq], "value");
	model_diff_free(&d);
	sweep_release(sw);
}
END_TEST

START_TEST(test_sweep_reshape)
{
	/* a buffer whose shape changes at its size is allocated again; its flat users follow */
	struct sweep *sw = sweep_file("tests/unit/shape-reshape.yaml");
	struct model_diff d;
	model_diff(sw->models[0], sw->models[1], &d);
	ck_assert(!d.structural);
	ck_assert(d.realloc[0] && d.any_realloc);
	/* the whole-buffer memset's rows changed: built again */
	ck_assert(d.rebuild);
	model_diff_free(&d);
	sweep_release(sw);
}
END_TEST

static Suite *shape_suite(void)
{
	Suite *s = suite_create("shape");
	TCase *tc = tcase_create("shape");
	tcase_add_test(tc, test_extents);
	tcase_add_test(tc, test_pack);
	tcase_add_test(tc, test_memset_geom);
	tcase_add_test(tc, test_memset_refused);
	tcase_add_test(tc, test_copy_geom);
	tcase_add_test(tc, test_copy_collapse);
	tcase_add_test(tc, test_span_walks);
	tcase_add_test(tc, test_check_region);
	tcase_add_test(tc, test_flat_index_words);
	tcase_add_test(tc, test_formula_indices);
	tcase_add_test(tc, test_sweep_in_place);
	tcase_add_test(tc, test_sweep_rebuild);
	tcase_add_test(tc, test_sweep_reshape);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_MAIN(shape_suite)
