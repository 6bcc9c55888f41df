/*
 * Buffer contents through their shape, on the host, with no CUDA in
 * sight (shape.h says where the bytes lie): a pitched buffer's rows
 * packed (its elements in order, as checks and dumps read them) and
 * unpacked (as its init contents are written), and the rows of a span
 * walked one by one: gathered, set to one value, copied.  The GPU back
 * end moves the bytes; host nodes, checks, dumps and the back end's
 * staging use these.  Nothing here allocates or keeps what it is given.
 */
#ifndef CGR_BUF_REGION_H
#define CGR_BUF_REGION_H

#include <stdint.h>

#include "model.h"
#include "shape.h"

/* b's elements at pitch (buffer_span bytes) into packed (b->size bytes), in order. */
void buffer_pack(const struct buffer *b, uint64_t pitch, const void *padded, void *packed);
/* The reverse: packed elements into rows at pitch, the padding after each row zeroed. */
void buffer_unpack(const struct buffer *b, uint64_t pitch, const void *packed, void *padded);
/* The rows of end e of s in the buffer at data, one after another into out. */
void span_gather(const struct span *s, unsigned e, const void *data, void *out);
/* Every element of the rows of end 0 of s in data set to the es bytes at one. */
void span_fill(const struct span *s, const void *one, unsigned es, void *data);
/* The rows of s from the buffer at from (end 0) to the one at to (end 1), moved as memmove does. */
void span_copy(const struct span *s, const void *from, void *to);

#endif
