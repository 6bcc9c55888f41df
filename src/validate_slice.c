/*
 * Slices of a buffer (validate_slice.h).
 */
#include "config.h"

#include <inttypes.h>

#include "validate_slice.h"

bool slice_fits(struct diag *d, const char *what, const struct buffer *b, uint64_t offset,
		struct pos offset_pos, bool has_count, uint64_t *count, struct pos count_pos)
{
	if (offset >= b->count) {
		diag_error(d, offset_pos, "%s offset %" PRIu64 " is past the end of buffer '%s' "
			   "(%" PRIu64 " elements)", what, offset, b->name, b->count);
		return false;
	}
	uint64_t room = b->count - offset;
	if (count == NULL)
		return true;
	if (!has_count) {
		*count = room;
		return true;
	}
	if (*count <= room)
		return true;
	uint64_t over = *count - room;
	diag_error(d, count_pos, "%s of %" PRIu64 " elements from offset %" PRIu64 " runs past "
		   "the end of buffer '%s' (%" PRIu64 " elements) by %" PRIu64 " element%s", what,
		   *count, offset, b->name, b->count, over, over == 1 ? "" : "s");
	return false;
}
