#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "strbuf.h"
#include "xmalloc.h"

void strbuf_grow(struct strbuf *sb, size_t more)
{
	if (sb->cap - sb->len > more)
		return;
	size_t need;
	if (__builtin_add_overflow(sb->len + 1, more, &need))
		need = SIZE_MAX; /* no such memory: xreallocarray says so */
	/* Doubling, from 64 bytes: an id or a kernel name fits the first. */
	size_t cap = sb->cap ? sb->cap : 64;
	while (cap < need)
		cap = cap > SIZE_MAX / 2 ? need : cap * 2;
	sb->buf = xreallocarray(sb->buf, cap, 1);
	sb->cap = cap;
}

void strbuf_add_grow(struct strbuf *sb, const void *p, size_t n)
{
	/* as integers: comparing pointers into different objects is undefined */
	uintptr_t at = (uintptr_t)p - (uintptr_t)sb->buf;
	bool inside = sb->buf != NULL && (uintptr_t)p >= (uintptr_t)sb->buf && at < sb->len;
	strbuf_grow(sb, n);
	if (inside)
		p = sb->buf + at;
	memcpy(sb->buf + sb->len, p, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void strbuf_printf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char tmp[1];
	int n = vsnprintf(sb->buf ? sb->buf + sb->len : tmp,
			  sb->buf ? sb->cap - sb->len : sizeof tmp, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sb->cap - sb->len) {
		strbuf_grow(sb, (size_t)n);
		va_start(ap, fmt);
		vsnprintf(sb->buf + sb->len, sb->cap - sb->len, fmt, ap);
		va_end(ap);
	}
	sb->len += (size_t)n;
}

void strbuf_free(struct strbuf *sb)
{
	free(sb->buf);
	sb->buf = NULL;
	sb->len = sb->cap = 0;
}
