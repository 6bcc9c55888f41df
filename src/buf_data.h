/*
 * Buffer contents on the host side, with no CUDA in sight: the initial
 * contents of a buffer (every init form), dumps to files (raw, .npy,
 * .txt) and the host `dump` action's printing; buf_check.h compares them
 * with checks.
 * The GPU back end moves the bytes; everything about their meaning is here
 * so it is unit-tested without a GPU.
 */
#ifndef CGR_BUF_DATA_H
#define CGR_BUF_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "diag.h"
#include "model.h"

/*
 * Fill out (b->size bytes) with b's initial contents.  0 on success; -1
 * after reporting through d (an init file that changed since validation).
 */
int buffer_fill_init(const struct buffer *b, void *out, struct diag *d);

/*
 * Write data (b->size bytes) to path: .npy, .txt, else raw, through
 * output_open (whole or not at all).  0, or -1 after "cannot write PATH".
 */
int dump_write(const char *path, const struct buffer *b, const void *data);

/* Print up to max elements of data as the host dump action does. */
void buffer_print(FILE *out, const struct buffer *b, const void *data, size_t max);
/* count elements of type at data, the first max of them: "[1, 2, ... (6 more)]" and a newline. */
void buffer_print_elems(FILE *out, enum elem_type type, const void *data, uint64_t count,
			size_t max);
/* The same for count elements from element offset: "x[4..8) = [...]". */
void buffer_print_range(FILE *out, const struct buffer *b, const void *data, uint64_t offset,
			uint64_t count, size_t max);

#endif
