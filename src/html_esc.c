/* Text for the HTML page (html_esc.h). */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "html_esc.h"
#include "utf8.h"

/* One code point cp (its n bytes at p) as text, or as an attribute's value. */
static void put_char(FILE *out, const unsigned char *p, size_t n, int32_t cp, bool attr)
{
	switch (cp) {
	case '&':
		fputs("&amp;", out);
		return;
	case '<':
		fputs("&lt;", out);
		return;
	case '>':
		fputs("&gt;", out);
		return;
	case '"':
		fputs("&quot;", out);
		return;
	case '\'':
		fputs("&#39;", out);
		return;
	case '\n':
	case '\t':
		if (attr)
			fprintf(out, "&#%d;", (int)cp);
		else
			fputc((int)cp, out);
		return;
	default:
		break;
	}
	if (cp < 0)
		fputs("\xef\xbf\xbd", out);             /* U+FFFD: no UTF-8 */
	else if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0))
		fprintf(out, "\\x%02x", (unsigned)cp);  /* a control, shown as the report shows it */
	else if (cp == 0xfffe || cp == 0xffff)
		fputs("\xef\xbf\xbd", out);
	else
		fwrite(p, 1, n, out);
}

static void put_text(FILE *out, const char *s, size_t len, bool attr)
{
	const unsigned char *p = (const unsigned char *)s;
	while (len > 0) {
		size_t n;
		int32_t cp = utf8_next(p, len, &n);
		put_char(out, p, n, cp, attr);
		p += n;
		len -= n;
	}
}

void html_textn(FILE *out, const char *s, size_t len)
{
	put_text(out, s, len, false);
}

void html_text(FILE *out, const char *s)
{
	if (s)
		put_text(out, s, strlen(s), false);
}

void html_attr(FILE *out, const char *s)
{
	if (s)
		put_text(out, s, strlen(s), true);
}

void html_id(FILE *out, const char *prefix, const char *s)
{
	fputs(prefix, out);
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		bool plain = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
			(*p >= '0' && *p <= '9') || *p == '_' || *p == '-';
		if (plain)
			fputc(*p, out);
		else
			fprintf(out, ".%02x", *p);
	}
}

const char *html_time(double s, char *buf, size_t len)
{
	static const struct { double scale; const char *unit; } units[] = {
		{1e-9, "ns"}, {1e-6, "\xc2\xb5s"}, {1e-3, "ms"}, {1, "s"},
	};
	if (isnan(s)) {
		snprintf(buf, len, "\xe2\x80\x93");
		return buf;
	}
	if (s == 0) {
		snprintf(buf, len, "0");
		return buf;
	}
	size_t u = 0;
	while (u + 1 < sizeof units / sizeof *units && fabs(s) >= units[u + 1].scale * 0.9995)
		u++;
	double v = s / units[u].scale;
	snprintf(buf, len, "%.*f %s", fabs(v) >= 99.95 ? 1 : fabs(v) >= 9.995 ? 2 : 3, v,
		 units[u].unit);
	return buf;
}
