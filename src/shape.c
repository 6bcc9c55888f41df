/*
 * Shaped buffers' arithmetic (shape.h).
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "shape.h"

static unsigned elem_size(const struct buffer *b)
{
	return elem_infos[b->type].size;
}

uint64_t buffer_extent(const struct buffer *b, unsigned axis)
{
	const struct buffer_shape *s = &b->shape;
	if (s->rank == 0)
		return axis == AXIS_X ? b->count : 1;
	return axis < s->rank ? s->dim[s->rank - 1 - axis] : 1;
}

uint64_t buffer_rows(const struct buffer *b)
{
	return buffer_extent(b, AXIS_Y) * buffer_extent(b, AXIS_Z);
}

uint64_t buffer_row_bytes(const struct buffer *b)
{
	return buffer_extent(b, AXIS_X) * elem_size(b);
}

uint64_t buffer_pitch(const struct buffer *b)
{
	return b->shape.pitch ? b->shape.pitch : buffer_row_bytes(b);
}

bool buffer_padded(const struct buffer *b)
{
	return b->shape.pitch_auto || buffer_pitch(b) > buffer_row_bytes(b);
}

uint64_t buffer_span(const struct buffer *b, uint64_t pitch)
{
	return buffer_padded(b) ? pitch * buffer_rows(b) : b->size;
}

uint64_t buffer_elem_at(const struct buffer *b, uint64_t pitch, uint64_t i)
{
	if (!buffer_padded(b))
		return i * elem_size(b);
	uint64_t w = buffer_extent(b, AXIS_X);
	return i / w * pitch + i % w * elem_size(b);
}

void buffer_coords(const struct buffer *b, uint64_t i, uint64_t xyz[3])
{
	uint64_t w = buffer_extent(b, AXIS_X), h = buffer_extent(b, AXIS_Y);
	xyz[AXIS_X] = i % w;
	xyz[AXIS_Y] = i / w % h;
	xyz[AXIS_Z] = i / w / h;
}

void buffer_index_words(const struct buffer *b, uint64_t i, char *buf, size_t len)
{
	unsigned rank = b->shape.rank;
	uint64_t xyz[3];
	size_t used = 0;
	buf[0] = '\0';
	if (rank == 0 || len == 0)
		return;
	buffer_coords(b, i, xyz);
	for (unsigned k = 0; k < rank && used < len; k++) {
		int w = snprintf(buf + used, len - used, "%s%" PRIu64, k ? ", " : "[",
				 xyz[rank - 1 - k]);
		if (w > 0)
			used += (size_t)w;
	}
	if (used < len)
		snprintf(buf + used, len - used, "]");
}

void shape_words(const struct buffer *b, char *buf, size_t len)
{
	unsigned rank = b->shape.rank;
	size_t used = 0;
	if (len == 0)
		return;
	if (rank == 0) {
		snprintf(buf, len, "[%" PRIu64 "]", b->count);
		return;
	}
	buf[0] = '\0';
	for (unsigned k = 0; k < rank && used < len; k++) {
		int w = snprintf(buf + used, len - used, "%s%" PRIu64, k ? ", " : "[",
				 b->shape.dim[k]);
		if (w > 0)
			used += (size_t)w;
	}
	if (used < len)
		snprintf(buf + used, len - used, "]");
}

void region_words(const struct region *r, unsigned e, const struct buffer *b, char *buf,
		  size_t len)
{
	unsigned rank = b->shape.rank;
	size_t used = 0;
	if (len == 0)
		return;
	if (rank == 0) {
		uint64_t n = r->ext[AXIS_X] * r->ext[AXIS_Y] * r->ext[AXIS_Z];
		snprintf(buf, len, "[%" PRIu64 ":%" PRIu64 "]", r->first[e][AXIS_X],
			 r->first[e][AXIS_X] + n);
		return;
	}
	buf[0] = '\0';
	for (unsigned k = 0; k < rank && used < len; k++) {
		unsigned a = rank - 1 - k;
		uint64_t lo = r->first[e][a];
		int w = snprintf(buf + used, len - used, "%s%" PRIu64 ":%" PRIu64, k ? ", " : "[",
				 lo, lo + r->ext[a]);
		if (w > 0)
			used += (size_t)w;
	}
	if (used < len)
		snprintf(buf + used, len - used, "]");
}

uint64_t span_at(const struct span *s, unsigned e, uint64_t x, uint64_t y, uint64_t z)
{
	const struct span_end *p = &s->end[e];
	uint64_t slice = p->slice_rows * p->pitch;
	return p->packed_at + (p->z + z) * slice + (p->y + y) * p->pitch + p->x_bytes + x;
}

bool span_contiguous(const struct span *s, unsigned e)
{
	const struct span_end *p = &s->end[e];
	bool rows = s->height == 1 || p->pitch == s->width;
	bool slices = s->depth == 1 || p->slice_rows * p->pitch == s->height * s->width;
	return rows && slices;
}

/* End e of validated region r, over b at pitch. */
static void region_end(const struct region *r, unsigned e, const struct buffer *b,
		       uint64_t pitch, struct span_end *out)
{
	unsigned es = elem_size(b);
	memset(out, 0, sizeof *out);
	if (b->shape.rank == 0) {
		/* packed: the region's rows follow each other from the flat offset */
		out->packed = true;
		out->packed_at = r->first[e][AXIS_X] * es;
		out->pitch = r->ext[AXIS_X] * es;
		out->slice_rows = r->ext[AXIS_Y];
		return;
	}
	out->x_bytes = r->first[e][AXIS_X] * es;
	out->y = r->first[e][AXIS_Y];
	out->z = r->first[e][AXIS_Z];
	out->pitch = pitch;
	out->slice_rows = buffer_extent(b, AXIS_Y);
}

/* One row of n bytes at byte at (a packed end). */
static void one_row(uint64_t at, uint64_t n, struct span_end *e, struct span *s)
{
	memset(e, 0, sizeof *e);
	e->packed = true;
	e->packed_at = at;
	e->pitch = n;
	e->slice_rows = 1;
	s->width = n;
	s->height = s->depth = 1;
}

/*
 * A flat slice of count elements from offset as end e of s: one row when
 * it lies in one (or the rows are not padded), else whole rows (from the
 * start of one), else SPAN_SCATTERED.
 */
static enum span_err flat_end(const struct buffer *b, uint64_t pitch, uint64_t offset,
			      uint64_t count, unsigned e, struct span *s)
{
	uint64_t w = buffer_extent(b, AXIS_X);
	unsigned es = elem_size(b);
	if (!buffer_padded(b) || count == 0 || offset / w == (offset + count - 1) / w) {
		one_row(buffer_elem_at(b, pitch, offset), count * es, &s->end[e], s);
		return SPAN_OK;
	}
	if (offset % w != 0 || count % w != 0)
		return SPAN_SCATTERED;
	/* rows of a 3-D buffer step by the pitch across slices too: one tall slice */
	struct span_end *p = &s->end[e];
	memset(p, 0, sizeof *p);
	p->y = offset / w;
	p->pitch = pitch;
	p->slice_rows = buffer_rows(b);
	s->width = w * es;
	s->height = count / w;
	s->depth = 1;
	return SPAN_OK;
}

/* A region's span over one end (memset, check, dump). */
static void region_span(const struct region *r, const struct buffer *b, uint64_t pitch,
			struct span *out)
{
	memset(out, 0, sizeof *out);
	region_end(r, 0, b, pitch, &out->end[0]);
	out->width = r->ext[AXIS_X] * elem_size(b);
	out->height = r->ext[AXIS_Y];
	out->depth = r->ext[AXIS_Z];
}

enum span_err memset_span(const struct memset_node *m, const struct buffer *b, uint64_t pitch,
			  struct span *out)
{
	memset(out, 0, sizeof *out);
	if (m->region) {
		region_span(m->region, b, pitch, out);
		return SPAN_OK;
	}
	return flat_end(b, pitch, m->offset, m->count, 0, out);
}

void slice_span(const struct region *r, uint64_t offset, uint64_t count, const struct buffer *b,
		uint64_t pitch, struct span *out)
{
	memset(out, 0, sizeof *out);
	if (r)
		region_span(r, b, pitch, out);
	else
		one_row(buffer_elem_at(b, pitch, offset), count * elem_size(b), &out->end[0], out);
}

/* A one-row end as packed rows of s's width (the other end's rows). */
static void as_rows(const struct span *row, struct span_end *e, const struct span *s)
{
	*e = row->end[0];
	e->pitch = s->width;
	e->slice_rows = s->height;
}

enum span_err copy_span(const struct copy_node *c, const struct buffer *bf, uint64_t pf,
			const struct buffer *bt, uint64_t pt, struct span *out)
{
	memset(out, 0, sizeof *out);
	if (c->region) {
		if (elem_size(bf) != elem_size(bt))
			return SPAN_ELEM_SIZES;
		region_span(c->region, bf, pf, out);
		region_end(c->region, END_TO, bt, pt, &out->end[END_TO]);
		return SPAN_OK;
	}
	struct span f, t;
	enum span_err err = flat_end(bf, pf, c->from.offset, c->count, 0, &f);
	if (err != SPAN_OK)
		return err;
	unsigned tes = elem_size(bt);
	if (!buffer_padded(bt)) {
		one_row(c->to.offset * tes, c->bytes, &t.end[0], &t);
	} else {
		if (c->bytes % tes != 0)
			return SPAN_SCATTERED;
		err = flat_end(bt, pt, c->to.offset, c->bytes / tes, 0, &t);
		if (err != SPAN_OK)
			return err;
	}
	if (f.height == 1 && t.height == 1) {
		*out = f;
		out->end[END_TO] = t.end[0];
	} else if (f.height == 1) {
		*out = t;
		out->end[END_TO] = t.end[0];
		as_rows(&f, &out->end[END_FROM], &t);
	} else if (t.height == 1) {
		*out = f;
		as_rows(&t, &out->end[END_TO], &f);
	} else if (f.width != t.width) {
		return SPAN_ROWS_DIFFER;
	} else {
		*out = f;
		out->end[END_TO] = t.end[0];
	}
	return SPAN_OK;
}

/* The driver's word for an element of es bytes: 1, 2 or 4 bytes. */
static unsigned memset_word(unsigned es)
{
	return es < 4 ? es : 4;
}

enum span_err memset_geom(const struct memset_node *m, const struct buffer *b, uint64_t pitch,
			  struct memset_geom *out)
{
	struct span s;
	memset(out, 0, sizeof *out);
	enum span_err err = memset_span(m, b, pitch, &s);
	if (err != SPAN_OK)
		return err;
	const struct span_end *e = &s.end[0];
	uint64_t stride = e->pitch, rows = s.height;
	if (s.depth > 1) {
		if (s.height == e->slice_rows)
			rows = s.height * s.depth;      /* whole slices: every row at the pitch */
		else if (s.height == 1) {
			/* one row a slice: the rows step by a slice */
			stride = e->slice_rows * e->pitch;
			rows = s.depth;
		}
		else
			return SPAN_UNEVEN;
	}
	unsigned es = elem_size(b), word = memset_word(es);
	unsigned char raw[8] = {0};
	char why[64];
	num_encode(&m->value, b->type, raw, why, sizeof why);
	if (word == 1) {
		out->value = raw[0];
	} else if (word == 2) {
		uint16_t v;
		memcpy(&v, raw, 2);
		out->value = v;
	} else {
		/* 8 bytes: the validator made sure the pattern repeats in 4 */
		uint32_t v;
		memcpy(&v, raw, 4);
		out->value = v;
	}
	out->offset = span_at(&s, 0, 0, 0, 0);
	out->elem = word;
	out->width = s.width / word;
	out->height = rows;
	out->pitch = rows > 1 ? stride : s.width;
	/* rows that follow each other are one row; a pitch the driver chose is not known here */
	if (rows > 1 && stride == s.width && !b->shape.pitch_auto) {
		out->width *= rows;
		out->height = 1;
		out->pitch = s.width * rows;
	}
	return SPAN_OK;
}

enum span_err copy_geom(const struct copy_node *c, const struct buffer *bf, uint64_t pf,
			const struct buffer *bt, uint64_t pt, struct span *s)
{
	enum span_err err = copy_span(c, bf, pf, bt, pt, s);
	if (err != SPAN_OK)
		return err;
	if (bf->shape.pitch_auto || bt->shape.pitch_auto || !span_contiguous(s, END_FROM) ||
	    !span_contiguous(s, END_TO) || (s->height == 1 && s->depth == 1))
		return SPAN_OK;
	uint64_t n = s->width * s->height * s->depth;
	uint64_t from = span_at(s, END_FROM, 0, 0, 0), to = span_at(s, END_TO, 0, 0, 0);
	one_row(from, n, &s->end[END_FROM], s);
	one_row(to, n, &s->end[END_TO], s);
	return SPAN_OK;
}

bool memset_is_2d(const struct memset_node *m, const struct buffer *b)
{
	struct memset_geom g;
	return memset_geom(m, b, buffer_pitch(b), &g) == SPAN_OK && g.height > 1;
}

bool copy_is_multidim(const struct copy_node *c, const struct buffer *bf,
		      const struct buffer *bt)
{
	struct span s;
	return copy_geom(c, bf, buffer_pitch(bf), bt, buffer_pitch(bt), &s) == SPAN_OK &&
	       (s.height > 1 || s.depth > 1);
}
