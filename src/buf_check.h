/*
 * Checks after the verification launch, with no CUDA in sight: a buffer's
 * contents, copied to the host, against what a check of the file expects.
 * The GPU back end moves the bytes; their meaning is here (and the figures
 * of reductions in buf_reduce.h), so it is unit-tested without a GPU.
 * Nothing here keeps what it is given.
 */
#ifndef CGR_BUF_CHECK_H
#define CGR_BUF_CHECK_H

#include <stdbool.h>

#include "diag.h"
#include "model.h"

/*
 * The other buffers a check reads besides its own, as a check's run sees
 * them: buffers[i] and data[i], its host copy after the verification
 * launch (NULL when not read).  A check names them by index (name_ref.idx,
 * resolved by the validator).
 */
struct check_others {
	const struct buffer *buffers;
	const void *const *data;
};

/*
 * Run check c on data, buffer b's b->size bytes after the verification
 * launch; others holds the buffers the check compares with (expect:
 * {buffer: ...}, a bound that names a buffer), or is NULL when it names
 * none.  Only the check's slice is looked at.  On failure report through
 * d, at the check's position, what was expected, what was found and where
 * (the first differing index and how many differ; the figure and its
 * bounds).  Returns true when the check holds.
 */
bool check_buffer(const struct check *c, const struct buffer *b, const void *data,
		  const struct check_others *others, struct diag *d);

/* The indices of the other buffers check c reads, into idx[0..return). */
size_t check_others_used(const struct check *c, long idx[BOUND_COUNT + 1]);

#endif
