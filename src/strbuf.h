/*
 * A growable byte string: what an interpolated template is written into.
 * The strbuf owns buf; a zeroed strbuf is empty and strbuf_free releases
 * it (and leaves it empty, reusable).  buf[len] is always '\0' once
 * anything was added, so the text is also a C string (when it holds no
 * NUL of its own).  Appends are inline: the usual case, room left, is a
 * compare and a memcpy.
 */
#ifndef CGR_STRBUF_H
#define CGR_STRBUF_H

#include <stdarg.h>
#include <stddef.h>
#include <string.h>

struct strbuf {
	char *buf;          /* NULL until the first append */
	size_t len;         /* bytes held, not counting the '\0' */
	size_t cap;         /* bytes allocated, the '\0' included */
};

/* Make room for more bytes and the '\0' after them; never fails. */
void strbuf_grow(struct strbuf *sb, size_t more);
/* strbuf_add when there is no room: grows, even when p points into sb. */
void strbuf_add_grow(struct strbuf *sb, const void *p, size_t n);
void strbuf_printf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void strbuf_free(struct strbuf *sb);

/*
 * Append p[0..n).  p may point into sb's own text (an interpolated result
 * appended to the buffer it lives in): the copy follows it when the
 * buffer moves.
 */
static inline void strbuf_add(struct strbuf *sb, const void *p, size_t n)
{
	if (sb->cap - sb->len <= n) {
		strbuf_add_grow(sb, p, n);
		return;
	}
	memcpy(sb->buf + sb->len, p, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

static inline void strbuf_addc(struct strbuf *sb, char c)
{
	if (sb->cap - sb->len <= 1)
		strbuf_grow(sb, 1);
	sb->buf[sb->len++] = c;
	sb->buf[sb->len] = '\0';
}

/* Cut back to the first len bytes (len at most sb->len). */
static inline void strbuf_truncate(struct strbuf *sb, size_t len)
{
	sb->len = len;
	if (sb->buf)
		sb->buf[len] = '\0';
}

#endif
