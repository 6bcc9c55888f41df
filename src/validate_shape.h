/*
 * The validator's rules for shapes, pitches and regions (cugraphrun(5),
 * Shapes): a buffer's shape and pitch against its count, its memory and
 * the driver's limits; every region of a memset, copy, check or host
 * dump against its buffers; and whether a memset or copy, region or flat
 * slice, is one operation of the driver's nodes (shape.h decides, so
 * that the back ends build exactly what was checked).  validate.c calls
 * these where it checks buffers, memsets, copies, host nodes and checks;
 * they fill in what the back ends read (a buffer's count, size and pitch,
 * a region's first elements and extent, the slice's count).
 *
 * Every error has its position and says what to write instead; each
 * function returns false after one.  Nothing is kept.
 */
#ifndef CGR_VALIDATE_SHAPE_H
#define CGR_VALIDATE_SHAPE_H

#include <stdbool.h>
#include <stdint.h>

#include "diag.h"
#include "model.h"

/* The largest pitch, in bytes: CU_DEVICE_ATTRIBUTE_MAX_PITCH of every GPU since sm_20. */
#define MAX_PITCH_BYTES 2147483647ull

/*
 * A buffer written with 'shape' or 'pitch': its count and size from the
 * shape (at most max bytes, the pitch's rows included), its pitch.
 */
bool shape_size_buffer(struct diag *d, struct buffer *b, uint64_t max);

/*
 * Region r of a memset, check or dump (what: "memset", "check", "host
 * dump") over b, whose flat offset is flat (written at flat_pos): its first element and extent
 * filled in, and *count, its elements.  at: the node or check, for errors
 * without a key of their own.
 */
bool shape_region(struct diag *d, struct region *r, const struct buffer *b, uint64_t flat,
		  struct pos flat_pos, struct pos at, const char *what, uint64_t *count);
/* A copy's region (from bf, to bt): both ends, c->count and c->bytes; what: "copy", "host copy". */
bool shape_copy_region(struct diag *d, struct copy_node *c, const struct buffer *bf,
		       const struct buffer *bt, struct pos at, const char *what);

/*
 * Is memset m (sized and in its buffer) one operation: for a node
 * (driver true) one 1-D or 2-D memset, for a host set one walk of rows?
 */
bool shape_memset_fits(struct diag *d, const struct memset_node *m, const struct buffer *b,
		       bool driver, struct pos at, const char *what);
/* Is copy c (sized and in its buffers) one copy of the driver's node? */
bool shape_copy_fits(struct diag *d, const struct copy_node *c, const struct buffer *bf,
		     const struct buffer *bt, struct pos at, const char *what);

#endif
