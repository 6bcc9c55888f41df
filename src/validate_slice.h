/*
 * The validator's rule on slices of a buffer, one for every node and
 * check that reaches part of one (memset, copy, host dump and set,
 * memop, checks, access policy windows): the offset within the buffer,
 * and the count, when given, not running past its end; a count left out
 * is the rest of the buffer.  A given count is at least 1: that is the
 * loader's range on every count key, not a rule here.
 */
#ifndef CGR_VALIDATE_SLICE_H
#define CGR_VALIDATE_SLICE_H

#include <stdbool.h>
#include <stdint.h>

#include "diag.h"
#include "model.h"

/*
 * The slice [offset, offset + *count) of buffer b (its count known) that
 * what ("memset", "host dump", ...) reaches: an offset past the end is
 * an error at offset_pos, a count that runs past it one at count_pos.
 * Without has_count, *count is set to the rest of the buffer.  count
 * NULL: the offset alone (a copy's destination, a memory operation's
 * word).  True when it fits.
 */
bool slice_fits(struct diag *d, const char *what, const struct buffer *b, uint64_t offset,
		struct pos offset_pos, bool has_count, uint64_t *count, struct pos count_pos);

#endif
