/*
 * Buffer contents through their shape (buf_region.h).
 */
#include "config.h"

#include <string.h>

#include "buf_region.h"

void buffer_pack(const struct buffer *b, uint64_t pitch, const void *padded, void *packed)
{
	uint64_t row = buffer_row_bytes(b), rows = buffer_rows(b);
	if (!buffer_padded(b)) {
		memcpy(packed, padded, b->size);
		return;
	}
	for (uint64_t r = 0; r < rows; r++)
		memcpy((unsigned char *)packed + r * row, (const unsigned char *)padded + r * pitch,
		       row);
}

void buffer_unpack(const struct buffer *b, uint64_t pitch, const void *packed, void *padded)
{
	uint64_t row = buffer_row_bytes(b), rows = buffer_rows(b);
	if (!buffer_padded(b)) {
		memcpy(padded, packed, b->size);
		return;
	}
	for (uint64_t r = 0; r < rows; r++) {
		unsigned char *to = (unsigned char *)padded + r * pitch;
		memcpy(to, (const unsigned char *)packed + r * row, row);
		memset(to + row, 0, pitch - row);
	}
}

void span_gather(const struct span *s, unsigned e, const void *data, void *out)
{
	unsigned char *o = out;
	for (uint64_t z = 0; z < s->depth; z++)
		for (uint64_t y = 0; y < s->height; y++) {
			memcpy(o, (const unsigned char *)data + span_at(s, e, 0, y, z), s->width);
			o += s->width;
		}
}

void span_fill(const struct span *s, const void *one, unsigned es, void *data)
{
	for (uint64_t z = 0; z < s->depth; z++)
		for (uint64_t y = 0; y < s->height; y++) {
			unsigned char *p = (unsigned char *)data + span_at(s, 0, 0, y, z);
			for (uint64_t x = 0; x + es <= s->width; x += es)
				memcpy(p + x, one, es);
		}
}

void span_copy(const struct span *s, const void *from, void *to)
{
	for (uint64_t z = 0; z < s->depth; z++)
		for (uint64_t y = 0; y < s->height; y++)
			memmove((unsigned char *)to + span_at(s, END_TO, 0, y, z),
				(const unsigned char *)from + span_at(s, END_FROM, 0, y, z), s->width);
}
