/*
 * Checks after the verification launch, with no CUDA in sight: a buffer's
 * contents, copied to the host, against what a check of the file expects.
 * The GPU back end moves the bytes; their meaning is here, so it is
 * unit-tested without a GPU.
 */
#ifndef CGR_BUF_CHECK_H
#define CGR_BUF_CHECK_H

#include <stdbool.h>

#include "diag.h"
#include "model.h"

/*
 * Compare data (the buffer's b->size bytes after the verification launch)
 * with check c.  On failure report through d, at the check's position: the
 * buffer, the first differing index, expected and actual values, and how
 * many elements differ.  Returns true when the check holds.
 */
bool check_buffer(const struct check *c, const struct buffer *b, const void *data,
		  struct diag *d);

#endif
