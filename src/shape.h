/*
 * Where a shaped buffer's elements and regions lie (model.h, "Shapes and
 * pitches"): the arithmetic every reader of a shape shares, with no CUDA
 * in sight.  The validator checks memsets and copies with it, the GPU
 * layer maps them onto the driver's node parameters with it
 * (gpu_region.c), and host actions, checks and dumps walk regions with it
 * (buf_region.c), so that all of them agree on every byte.
 *
 * Pitches are passed in: a 'pitch: auto' buffer's is the driver's, known
 * only once allocated (the GPU layer's gp->pitch); elsewhere
 * buffer_pitch() is the pitch.  Whether an operation is one-dimensional
 * (collapsed) is decided from the model alone, never from the driver's
 * pitch, so that the model (sweep_diff.c) and the driver nodes agree.
 *
 * Nothing here allocates or keeps what it is given.
 */
#ifndef CGR_SHAPE_H
#define CGR_SHAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"

/* The axes of a buffer or region, from the last written: x (a row), y, z. */
enum { AXIS_X, AXIS_Y, AXIS_Z };

/*
 * Buffer b's extent along axis (AXIS_X: a row's elements, AXIS_Y: rows
 * of a slice, AXIS_Z: slices); 1 for an axis it does not have.  A buffer
 * without shape is one row of count elements.
 */
uint64_t buffer_extent(const struct buffer *b, unsigned axis);
/* Rows in all (height * depth). */
uint64_t buffer_rows(const struct buffer *b);
/* The bytes of one row, padding left out. */
uint64_t buffer_row_bytes(const struct buffer *b);
/* The pitch the model knows: as written, else a row's bytes (so for pitch: auto). */
uint64_t buffer_pitch(const struct buffer *b);
/* Do its rows lie further apart than they are long (a wider pitch, or pitch: auto)? */
bool buffer_padded(const struct buffer *b);
/* The bytes b takes at pitch: pitch * rows, its size when its rows are not padded. */
uint64_t buffer_span(const struct buffer *b, uint64_t pitch);
/* Where flat element i lies at pitch, in bytes from the start. */
uint64_t buffer_elem_at(const struct buffer *b, uint64_t pitch, uint64_t i);
/* Flat element i as [z, y, x] (xyz[AXIS_X] the x). */
void buffer_coords(const struct buffer *b, uint64_t i, uint64_t xyz[3]);

/*
 * "[2, 5]": the element of flat index i as the file indexes it (as many
 * indices as the shape has axes); "" for a buffer without shape.
 */
void buffer_index_words(const struct buffer *b, uint64_t i, char *buf, size_t len);
/* "[64, 64]": b's shape as written, or "[100]" (its count) for a buffer without. */
void shape_words(const struct buffer *b, char *buf, size_t len);
/*
 * "[0:64, 0:1]": a validated region over end e's buffer b, as half-open
 * ranges of the buffer's axes (a packed end: "[16:80]", its flat range).
 */
void region_words(const struct region *r, unsigned e, const struct buffer *b, char *buf,
		  size_t len);

/* One end of a region or slice, in bytes and rows. */
struct span_end {
	uint64_t x_bytes, y, z;         /* the first element: byte in its row, row, slice */
	uint64_t pitch;                 /* bytes from one row to the next */
	uint64_t slice_rows;            /* rows from one slice to the next */
	bool packed;                    /* on a buffer without shape: its rows follow each other */
	uint64_t packed_at;             /* packed: bytes from the buffer's start to x, y, z = 0 */
};

/* A box of bytes: width bytes a row, height rows a slice, depth slices; one end or two. */
struct span {
	uint64_t width, height, depth;
	struct span_end end[2];
};

/* Bytes from the start of end e's buffer to its row y, slice z of s, byte x. */
uint64_t span_at(const struct span *s, unsigned e, uint64_t x, uint64_t y, uint64_t z);
/* Is the span one run of bytes at end e (rows and slices follow each other)? */
bool span_contiguous(const struct span *s, unsigned e);

/* Why a memset or copy is not one driver operation (0: it is). */
enum span_err {
	SPAN_OK,
	SPAN_SCATTERED,         /* a flat slice of padded rows that is neither one row nor whole rows */
	SPAN_UNEVEN,            /* a 3-D memset whose rows are not evenly spaced */
	SPAN_ROWS_DIFFER,       /* a flat copy between padded rows of different lengths */
	SPAN_ELEM_SIZES,        /* a region copy between element sizes that differ */
};

/*
 * The span of memset m over b at pitch (validated: offsets, counts and
 * regions fit b), or why it is not one: a region, a flat slice within a
 * row or of a buffer whose rows are not padded (one row), or whole padded
 * rows (one row each).
 */
enum span_err memset_span(const struct memset_node *m, const struct buffer *b, uint64_t pitch,
			  struct span *out);
/* The same for copy c from bf (at pf) to bt (at pt). */
enum span_err copy_span(const struct copy_node *c, const struct buffer *bf, uint64_t pf,
			const struct buffer *bt, uint64_t pt, struct span *out);
/* A check's or a dump's region or flat slice over b at pitch (flat: one row of it). */
void slice_span(const struct region *r, uint64_t offset, uint64_t count, const struct buffer *b,
		uint64_t pitch, struct span *out);

/*
 * A memset as the driver's node takes it (CUDA_MEMSET_NODE_PARAMS, the
 * address aside): 1, 2 or 4-byte words, width of them per row, height
 * rows pitch bytes apart, from offset bytes into the buffer.  An 8-byte
 * element is two 4-byte words (the validator saw its pattern repeat).
 */
struct memset_geom {
	uint64_t offset;
	uint64_t pitch;                 /* height 1: the width's bytes */
	unsigned elem;
	uint64_t width, height;
	uint32_t value;
};

/*
 * Memset m over b at pitch as one 1-D or 2-D memset: a 3-D region is one
 * 2-D memset where its rows are evenly spaced (a region of whole slices'
 * height, or of one row a slice: the slices' rows then step by the slice),
 * SPAN_UNEVEN otherwise; rows that follow each other make one row, unless
 * the buffer's pitch is the driver's.
 */
enum span_err memset_geom(const struct memset_node *m, const struct buffer *b, uint64_t pitch,
			  struct memset_geom *out);

/*
 * Copy c as the driver's copy node takes it, its ends' 3-D offsets and
 * pitches in s: one run of bytes (height and depth 1) where both ends'
 * rows and slices follow each other and neither pitch is the driver's.
 */
enum span_err copy_geom(const struct copy_node *c, const struct buffer *bf, uint64_t pf,
			const struct buffer *bt, uint64_t pt, struct span *s);

/* Is the driver's operation of a validated memset or copy more than one row? */
bool memset_is_2d(const struct memset_node *m, const struct buffer *b);
bool copy_is_multidim(const struct copy_node *c, const struct buffer *bf,
		      const struct buffer *bt);

#endif
