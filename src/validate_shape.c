/*
 * Shapes, pitches and regions, validated (validate_shape.h).
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "shape.h"
#include "validate_shape.h"

/* Buffers ---------------------------------------------------------------- */

/* The pitch: as written, checked; a row's bytes when none is (or auto). */
static bool shape_pitch(struct diag *d, struct buffer *b, uint64_t row)
{
	struct buffer_shape *s = &b->shape;
	unsigned es = elem_infos[b->type].size;
	struct pos at = pos_or(s->pitch_pos, b->pos);
	if (s->has_pitch && s->rank < 2) {
		diag_error(d, at, "buffer '%s' has a 'pitch' and %s: a pitch is the distance "
			   "between rows, for a shape of 2 or 3 axes ([rows, columns])", b->name,
			   s->rank ? "one axis" : "no 'shape'");
		return false;
	}
	if (row > MAX_PITCH_BYTES && (s->has_pitch || s->rank >= 2)) {
		diag_error(d, pos_or(s->pos, b->pos), "the rows of buffer '%s' are %" PRIu64 " bytes: "
			   "a row of 2 or 3 axes is at most %llu bytes (the driver's largest pitch)",
			   b->name, row, MAX_PITCH_BYTES);
		return false;
	}
	if (s->pitch_auto && b->memory != MEM_DEVICE) {
		diag_error(d, at, "buffer '%s' is %s memory: 'pitch: auto' is the driver's choice for "
			   "device memory (cuMemAllocPitch); give the pitch in bytes", b->name,
			   mem_kind_names[b->memory]);
		return false;
	}
	if (!s->has_pitch || s->pitch_auto) {
		s->pitch = row;
		return true;
	}
	if (s->pitch < row) {
		diag_error(d, at, "pitch %" PRIu64 " of buffer '%s' is smaller than its rows of %"
			   PRIu64 " bytes (%" PRIu64 " %s): the pitch is the bytes from the start "
			   "of one row to the next", s->pitch, b->name, row, row / es,
			   elem_names[b->type]);
		return false;
	}
	if (s->pitch % es != 0) {
		diag_error(d, at, "pitch %" PRIu64 " of buffer '%s' is not a multiple of %u bytes, "
			   "the size of one %s: every row starts at an element", s->pitch, b->name,
			   es, elem_names[b->type]);
		return false;
	}
	if (s->pitch > MAX_PITCH_BYTES) {
		diag_error(d, at, "pitch %" PRIu64 " of buffer '%s' is more than %llu bytes, the "
			   "driver's largest", s->pitch, b->name, MAX_PITCH_BYTES);
		return false;
	}
	return true;
}

bool shape_size_buffer(struct diag *d, struct buffer *b, uint64_t max)
{
	struct buffer_shape *s = &b->shape;
	unsigned es = elem_infos[b->type].size;
	struct pos at = pos_or(s->pos, b->pos);
	if (s->rank == 0)
		return shape_pitch(d, b, 0);
	if (b->has_count || b->has_size) {
		diag_error(d, pos_or(b->has_count ? b->count_pos : b->size_pos, at), "buffer '%s' "
			   "has 'shape' and '%s': give one of them (a shape's count is the product "
			   "of its extents)", b->name, b->has_count ? "count" : "size");
		return false;
	}
	uint64_t n = 1;
	for (unsigned k = 0; k < s->rank; k++) {
		if (s->dim[k] > UINT64_MAX / es / n) {
			diag_error(d, at, "buffer '%s' of shape with %" PRIu64 " elements and more "
				   "overflows: that is more than 2^64 bytes", b->name, n);
			return false;
		}
		n *= s->dim[k];
	}
	b->count = n;
	b->size = n * es;
	uint64_t row = s->dim[s->rank - 1] * es;
	if (!shape_pitch(d, b, row))
		return false;
	uint64_t rows = n / s->dim[s->rank - 1];
	char sz[48];
	if (b->size > max) {
		format_size(b->size, sz, sizeof sz);
		diag_error(d, at, "buffer '%s' is %s: a buffer may be at most 1 TiB", b->name, sz);
		return false;
	}
	if (rows > max / s->pitch) {
		format_size(s->pitch, sz, sizeof sz);
		diag_error(d, pos_or(s->pitch_pos, at), "buffer '%s' takes %" PRIu64 " rows of %s "
			   "(its pitch), more than 1 TiB: a buffer may be at most 1 TiB", b->name,
			   rows, sz);
		return false;
	}
	return true;
}

/* Regions ------------------------------------------------------------------ */

/*
 * End e's first element from its offset: a list, or flat (written at
 * flat_pos) on a buffer without shape.
 */
static bool region_first(struct diag *d, struct region *r, unsigned e, const struct buffer *b,
			 uint64_t flat, struct pos flat_pos, struct pos at, const char *what)
{
	const struct axes *a = &r->at[e];
	unsigned rank = b->shape.rank;
	struct pos pos = pos_or(a->pos, pos_or(flat_pos, at));
	memset(r->first[e], 0, sizeof r->first[e]);
	if (rank == 0) {
		if (a->n) {
			diag_error(d, pos, "%s: buffer '%s' has no shape, so its offset is one "
				   "number (in elements), not a list", what, b->name);
			return false;
		}
		r->first[e][0] = flat;
		return true;
	}
	if (a->n == 0 && flat != 0) {
		diag_error(d, pos, "%s: buffer '%s' has a shape, so beside 'shape' its offset is a "
			   "list of %u indices, slowest axis first", what, b->name, rank);
		return false;
	}
	if (a->n && a->n != rank) {
		char sh[96];
		shape_words(b, sh, sizeof sh);
		diag_error(d, pos, "%s: buffer '%s' has %u ax%s (shape %s), so its offset is %u "
			   "ind%s, found %u", what, b->name, rank, rank == 1 ? "is" : "es", sh,
			   rank, rank == 1 ? "ex" : "ices", a->n);
		return false;
	}
	for (unsigned k = 0; k < a->n; k++)
		r->first[e][a->n - 1 - k] = a->v[k];
	return true;
}

/* The extent: as written, else the rest of the first shaped end's buffer from its offset. */
static void region_extent(struct region *r, unsigned nends, const struct buffer *const *b)
{
	for (unsigned k = 0; k < 3; k++)
		r->ext[k] = 1;
	if (r->shape.n) {
		for (unsigned k = 0; k < r->shape.n; k++)
			r->ext[r->shape.n - 1 - k] = r->shape.v[k];
		return;
	}
	for (unsigned e = 0; e < nends; e++) {
		if (b[e]->shape.rank == 0)
			continue;
		for (unsigned k = 0; k < 3; k++) {
			uint64_t n = buffer_extent(b[e], k);
			r->ext[k] = r->first[e][k] < n ? n - r->first[e][k] : 0;
		}
		return;
	}
}

/* Does end e lie in its buffer? */
static bool region_inside(struct diag *d, const struct region *r, unsigned e,
			  const struct buffer *b, struct pos at, const char *what)
{
	struct pos pos = pos_or(r->shape.pos, pos_or(r->at[e].pos, at));
	uint64_t n = r->ext[0] * r->ext[1] * r->ext[2];
	if (b->shape.rank == 0) {
		if (r->first[e][0] < b->count && n <= b->count - r->first[e][0])
			return true;
		diag_error(d, pos, "%s: %" PRIu64 " elements from offset %" PRIu64 " run past the "
			   "end of buffer '%s' (%" PRIu64 " elements)", what, n, r->first[e][0],
			   b->name, b->count);
		return false;
	}
	bool in = n > 0;
	for (unsigned k = 0; k < 3 && in; k++) {
		uint64_t size = buffer_extent(b, k);
		in = r->first[e][k] < size && r->ext[k] <= size - r->first[e][k];
	}
	if (in)
		return true;
	char sh[96], reg[160];
	shape_words(b, sh, sizeof sh);
	region_words(r, e, b, reg, sizeof reg);
	if (n == 0) {
		/* the rest of an axis from an offset past it: the offset, as written */
		size_t used = 0;
		for (unsigned k = 0; k < b->shape.rank && used < sizeof reg; k++) {
			int w = snprintf(reg + used, sizeof reg - used, "%s%" PRIu64, k ? ", " : "[",
					 r->first[e][b->shape.rank - 1 - k]);
			used += w > 0 ? (size_t)w : 0;
		}
		if (used < sizeof reg)
			snprintf(reg + used, sizeof reg - used, "]");
		diag_error(d, pos, "%s: offset %s is past the shape %s of buffer '%s'", what, reg,
			   sh, b->name);
	} else
		diag_error(d, pos, "%s: region %s runs past the shape %s of buffer '%s'%s", what,
			   reg, sh, b->name, r->shape.n > b->shape.rank ?
			   " (a region's leading axes line up with the buffer's, from the last)" : "");
	return false;
}

/* Region r over ends b[0..nends) with their flat offsets: first, ext.  Count in *count. */
static bool resolve(struct diag *d, struct region *r, unsigned nends,
		    const struct buffer *const *b, const uint64_t *flat, const struct pos *flat_pos,
		    struct pos at, const char *what, uint64_t *count)
{
	bool ok = true;
	for (unsigned e = 0; e < nends; e++)
		ok &= region_first(d, r, e, b[e], flat[e], flat_pos[e], at, what);
	if (!ok)
		return false;
	region_extent(r, nends, b);
	for (unsigned e = 0; e < nends; e++)
		ok &= region_inside(d, r, e, b[e], at, what);
	*count = r->ext[0] * r->ext[1] * r->ext[2];
	return ok;
}

bool shape_region(struct diag *d, struct region *r, const struct buffer *b, uint64_t flat,
		  struct pos flat_pos, struct pos at, const char *what, uint64_t *count)
{
	if (b->shape.rank == 0) {
		diag_error(d, pos_or(r->shape.pos, pos_or(r->at[0].pos, at)), "%s: a region needs "
			   "a buffer with a shape, and buffer '%s' has none: give 'offset' and "
			   "'count' in elements, or give the buffer a 'shape'", what, b->name);
		return false;
	}
	const struct buffer *const ends[1] = {b};
	return resolve(d, r, 1, ends, &flat, &flat_pos, at, what, count);
}

/* Do the two ends of a region copy within one buffer share an element? */
static bool boxes_meet(const struct region *r)
{
	for (unsigned k = 0; k < 3; k++) {
		uint64_t a = r->first[END_FROM][k], b = r->first[END_TO][k];
		if (a + r->ext[k] <= b || b + r->ext[k] <= a)
			return false;
	}
	return true;
}

bool shape_copy_region(struct diag *d, struct copy_node *c, const struct buffer *bf,
		       const struct buffer *bt, struct pos at, const char *what)
{
	struct region *r = c->region;
	unsigned fes = elem_infos[bf->type].size, tes = elem_infos[bt->type].size;
	if (bf->shape.rank == 0 && bt->shape.rank == 0 && r->shape.n == 0) {
		diag_error(d, at, "%s: neither buffer '%s' nor '%s' has a shape: give the region's "
			   "'shape', or a flat offset and 'count'", what, bf->name, bt->name);
		return false;
	}
	if (fes != tes) {
		diag_error(d, pos_or(r->shape.pos, at), "%s of a region moves whole elements: buffer "
			   "'%s' has %s (%u bytes) and buffer '%s' %s (%u bytes); give both one "
			   "element size", what, bf->name, elem_names[bf->type], fes, bt->name,
			   elem_names[bt->type], tes);
		return false;
	}
	const struct buffer *const ends[2] = {bf, bt};
	const uint64_t flat[2] = {c->from.offset, c->to.offset};
	const struct pos flat_pos[2] = {c->from.offset_pos, c->to.offset_pos};
	if (!resolve(d, r, 2, ends, flat, flat_pos, at, what, &c->count))
		return false;
	c->bytes = c->count * fes;
	bool same = c->from.buffer.idx == c->to.buffer.idx && c->from.buffer.idx >= 0;
	if (same && bf->shape.rank == 0) {
		uint64_t a = r->first[END_FROM][0], b = r->first[END_TO][0];
		if (a < b + c->count && b < a + c->count)
			goto overlap;
	} else if (same && boxes_meet(r)) {
		goto overlap;
	}
	return true;
overlap:;
	char reg[2][160];
	region_words(r, END_FROM, bf, reg[0], sizeof reg[0]);
	region_words(r, END_TO, bt, reg[1], sizeof reg[1]);
	diag_error(d, pos_or(c->to.buffer.pos, at), "%s within buffer '%s' overlaps itself: %s "
		   "goes to %s; copy through a second buffer", what, bf->name, reg[0], reg[1]);
	return false;
}

/* Operations ---------------------------------------------------------------- */

/* "rows of 100 elements 512 bytes apart" for a padded buffer's messages. */
static void rows_words(const struct buffer *b, char *buf, size_t len)
{
	uint64_t w = buffer_extent(b, AXIS_X);
	if (b->shape.pitch_auto)
		snprintf(buf, len, "rows of %" PRIu64 " element%s lie at the driver's pitch", w,
			 w == 1 ? "" : "s");
	else
		snprintf(buf, len, "rows of %" PRIu64 " element%s lie %" PRIu64 " bytes apart", w,
			 w == 1 ? "" : "s", buffer_pitch(b));
}

/* A flat slice of padded rows that is neither in one row nor whole rows. */
static void scattered(struct diag *d, const struct buffer *b, uint64_t offset, uint64_t count,
		      struct pos at, const char *what)
{
	char rows[96];
	rows_words(b, rows, sizeof rows);
	diag_error(d, at, "%s of elements %" PRIu64 " to %" PRIu64 " of buffer '%s' is not one "
		   "operation: its %s, and the slice is neither within one row nor whole rows; "
		   "give a region (offset: [row, column], shape: [rows, columns])", what, offset,
		   offset + count - 1, b->name, rows);
}

bool shape_memset_fits(struct diag *d, const struct memset_node *m, const struct buffer *b,
		       bool driver, struct pos at, const char *what)
{
	struct memset_geom g;
	struct span s;
	enum span_err err = driver ? memset_geom(m, b, buffer_pitch(b), &g) :
		memset_span(m, b, buffer_pitch(b), &s);
	if (err == SPAN_SCATTERED) {
		scattered(d, b, m->offset, m->count, pos_or(m->count_pos, pos_or(m->offset_pos, at)),
			  what);
	} else if (err == SPAN_UNEVEN) {
		const struct region *r = m->region;
		char reg[160];
		region_words(r, 0, b, reg, sizeof reg);
		diag_error(d, pos_or(r->shape.pos, at), "%s of region %s of buffer '%s' is not one "
			   "2-D memset: its %" PRIu64 " rows in each of %" PRIu64 " slices are not "
			   "evenly spaced, and the driver's memset node has no depth; set whole "
			   "slices' rows (%" PRIu64 "), one row a slice, or one memset per slice",
			   what, reg, b->name, r->ext[AXIS_Y], r->ext[AXIS_Z],
			   buffer_extent(b, AXIS_Y));
	} else if (driver && g.height > 1 && g.pitch > MAX_PITCH_BYTES) {
		/* one row a slice: the rows step by a slice, which may pass the largest pitch */
		diag_error(d, pos_or(m->region ? m->region->shape.pos : m->count_pos, at), "%s of "
			   "buffer '%s' is not one 2-D memset: its rows lie %" PRIu64 " bytes apart, "
			   "more than the driver's largest pitch (%llu bytes); give each slice its "
			   "own memset", what, b->name, g.pitch, MAX_PITCH_BYTES);
		return false;
	}
	return err == SPAN_OK;
}

bool shape_copy_fits(struct diag *d, const struct copy_node *c, const struct buffer *bf,
		     const struct buffer *bt, struct pos at, const char *what)
{
	struct span s;
	enum span_err err = copy_span(c, bf, buffer_pitch(bf), bt, buffer_pitch(bt), &s);
	char rows[2][96];
	switch (err) {
	case SPAN_OK:
	case SPAN_UNEVEN:
		return true;
	case SPAN_SCATTERED: {
		/* which end: the from end scatters when its own slice does */
		struct memset_node probe = {.offset = c->from.offset, .count = c->count};
		struct span t;
		if (memset_span(&probe, bf, buffer_pitch(bf), &t) == SPAN_SCATTERED) {
			scattered(d, bf, c->from.offset, c->count, pos_or(c->from.offset_pos, at), what);
		} else {
			uint64_t tes = elem_infos[bt->type].size;
			if (c->bytes % tes != 0)
				diag_error(d, pos_or(c->to.buffer.pos, at), "%s of %" PRIu64 " bytes "
					   "into buffer '%s' of padded rows is not whole %s elements",
					   what, c->bytes, bt->name, elem_names[bt->type]);
			else
				scattered(d, bt, c->to.offset, c->bytes / tes,
					  pos_or(c->to.offset_pos, at), what);
		}
		return false;
	}
	case SPAN_ROWS_DIFFER:
		rows_words(bf, rows[0], sizeof rows[0]);
		rows_words(bt, rows[1], sizeof rows[1]);
		diag_error(d, pos_or(c->count_pos, at), "%s from buffer '%s' (%s) to buffer '%s' "
			   "(%s) is not one copy: the rows differ in length; give a region "
			   "(shape: [rows, columns])", what, bf->name, rows[0], bt->name, rows[1]);
		return false;
	case SPAN_ELEM_SIZES:
		/* shape_copy_region said so */
		return false;
	}
	return false;
}
