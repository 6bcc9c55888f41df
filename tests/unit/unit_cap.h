/*
 * Unit tests: diagnostics and reports written to memory, for the tests to
 * read back.  cap_open names the file the messages are about.
 */
#ifndef CGR_UNIT_CAP_H
#define CGR_UNIT_CAP_H

#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include "diag.h"

struct cap {
	char *buf;
	size_t len;
	FILE *f;
	struct diag d;
};

static inline void cap_open(struct cap *c, const char *file)
{
	c->buf = NULL;
	c->len = 0;
	c->f = open_memstream(&c->buf, &c->len);
	ck_assert_ptr_nonnull(c->f);
	diag_init(&c->d, file, c->f);
}

/* What was written so far ("" for nothing). */
static inline const char *cap_text(struct cap *c)
{
	fflush(c->f);
	return c->buf ? c->buf : "";
}

static inline void cap_close(struct cap *c)
{
	fclose(c->f);
	free(c->buf);
}

#endif
