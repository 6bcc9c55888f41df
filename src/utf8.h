/*
 * UTF-8 decoding, the one check of well-formedness that every text the
 * tool writes for other programs goes through (JSON strings, JUnit XML).
 */
#ifndef CGR_UTF8_H
#define CGR_UTF8_H

#include <stddef.h>
#include <stdint.h>

/*
 * The code point of the UTF-8 sequence at s (len bytes left) and its
 * length in *n; -1 (with *n 1) for a byte that starts no well-formed
 * sequence: stray continuation bytes, overlong forms, surrogates, beyond
 * U+10FFFF, or cut short.
 */
static inline int32_t utf8_next(const unsigned char *s, size_t len, size_t *n)
{
	*n = 1;
	if (s[0] < 0x80)
		return s[0];
	size_t need;
	int32_t cp, min;
	if ((s[0] & 0xe0) == 0xc0) {
		need = 2, cp = s[0] & 0x1f, min = 0x80;
	} else if ((s[0] & 0xf0) == 0xe0) {
		need = 3, cp = s[0] & 0x0f, min = 0x800;
	} else if ((s[0] & 0xf8) == 0xf0) {
		need = 4, cp = s[0] & 0x07, min = 0x10000;
	} else {
		return -1;
	}
	if (len < need)
		return -1;
	for (size_t i = 1; i < need; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return -1;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return -1;
	*n = need;
	return cp;
}

#endif
