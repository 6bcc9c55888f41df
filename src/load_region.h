/*
 * Shapes and regions in the loader (private to load*.c; model.h, "Shapes
 * and pitches"): a buffer's 'shape' and 'pitch', and the 'offset' and
 * 'shape' of memsets, copies, checks and host dumps, where an offset is
 * one number (a flat offset, as ever) or a list of indices (a region's
 * first element).  What a region must fit is the validator's
 * (validate_shape.h); here only the forms are read.
 */
#ifndef CGR_LOAD_REGION_H
#define CGR_LOAD_REGION_H

#include <stdbool.h>
#include <stdint.h>

#include "load_map.h"

/* buffers: shape: [h, w], pitch: SIZE or auto */
void key_buffer_shape(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos);
void key_buffer_pitch(struct ld *l, void *obj, const struct keydef *kd, struct pos kpos);

/*
 * An 'offset': one number into *flat (its position *flat_pos), or a list
 * of 1 to 3 indices into (*r)->at[end], the region made when missing.
 */
void read_offset(struct ld *l, const char *name, struct region **r, unsigned end,
		 uint64_t *flat, struct pos *flat_pos);
/* A region's 'shape': a list of 1 to 3 extents into (*r)->shape. */
void read_region_shape(struct ld *l, const char *name, struct region **r);
/*
 * Once the mapping (ctx: "in 'memset'") is read: a region takes no
 * 'count' (its shape is its size), and, unless packed_ok (a copy's ends
 * may be buffers without shape), a flat 'offset' beside its 'shape'.
 */
void region_forms(struct ld *l, const struct region *r, bool flat_offset, struct pos offset_pos,
		  bool has_count, struct pos count_pos, bool packed_ok, const char *ctx);

#endif
