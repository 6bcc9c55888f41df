/*
 * The JSON writer's primitives (json.h).
 */
#include "config.h"

#include <math.h>
#include <stdint.h>

#include "json.h"
#include "utf8.h"

/*
 * A JSON string: quotes, backslashes and control characters escaped,
 * UTF-8 passed through, and a byte that is no UTF-8 (a file name may hold
 * one) replaced by U+FFFD so that the document stays valid.
 */
void json_string(FILE *out, const char *s)
{
	static const char short_escapes[] = {
		['\b'] = 'b', ['\f'] = 'f', ['\n'] = 'n', ['\r'] = 'r', ['\t'] = 't',
		['"'] = '"', ['\\'] = '\\',
	};
	if (s == NULL) {
		fputs("null", out);
		return;
	}
	putc('"', out);
	const unsigned char *p = (const unsigned char *)s;
	while (*p) {
		unsigned c = *p;
		size_t len;
		/* a NUL ends a sequence too: no need to know the length left */
		if (utf8_next(p, SIZE_MAX, &len) < 0)
			len = 0;
		if (c < sizeof short_escapes && short_escapes[c]) {
			fprintf(out, "\\%c", short_escapes[c]);
		} else if (c < 0x20) {
			fprintf(out, "\\u%04x", c);
		} else if (len == 0) {
			fputs("\\ufffd", out);
			len = 1;
		} else {
			fwrite(p, 1, len, out);
		}
		p += len ? len : 1;
	}
	putc('"', out);
}

void json_number(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, "%.9g", v);
	else
		fputs("null", out);
}

void json_key(FILE *out, int depth, bool first, const char *key)
{
	fprintf(out, "%s\n%*s", first ? "" : ",", depth * 2, "");
	json_string(out, key);
	fputs(": ", out);
}
