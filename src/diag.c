#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "utf8.h"
#include "xmalloc.h"

static const char *const level_names[] = {
	[DIAG_NOTE] = "note",
	[DIAG_WARNING] = "warning",
	[DIAG_ERROR] = "error",
};

void diag_init(struct diag *d, const char *file, FILE *out)
{
	memset(d, 0, sizeof *d);
	d->file = file;
	d->out = out ? out : stderr;
}

static unsigned max_errors(const struct diag *d)
{
	return d->max_errors ? d->max_errors : DIAG_MAX_ERRORS;
}

/* FNV-1a over the position and the message: its identity for repeats. */
static uint64_t msg_hash(struct pos pos, const char *text)
{
	uint64_t h = 14695981039346656037ull;
	const uint32_t where[2] = {pos.line, pos.col};
	const unsigned char *p = (const unsigned char *)where;
	for (size_t i = 0; i < sizeof where; i++)
		h = (h ^ p[i]) * 1099511628211ull;
	for (p = (const unsigned char *)text; *p; p++)
		h = (h ^ *p) * 1099511628211ull;
	return h | 1; /* 0 marks an empty slot */
}

/* True when this error was given before; remembers it otherwise. */
__attribute__((format(printf, 3, 0)))
static bool repeated(struct diag *d, struct pos pos, const char *fmt, va_list ap)
{
	char text[512];
	va_list copy;
	va_copy(copy, ap);
	vsnprintf(text, sizeof text, fmt, copy);
	va_end(copy);
	uint64_t h = msg_hash(pos, text);
	size_t cap = sizeof d->seen / sizeof *d->seen;
	for (size_t i = h % cap, k = 0; k < cap; i = (i + 1) % cap, k++) {
		if (d->seen[i] == h)
			return true;
		if (d->seen[i] == 0) {
			/* Keep a quarter free so probes stay short. */
			if (d->nseen < cap * 3 / 4) {
				d->seen[i] = h;
				d->nseen++;
			}
			return false;
		}
	}
	return false;
}

/*
 * The escape of the character at s (n > 0 bytes left) into esc (at least
 * 8 bytes), its length; 0 when it is printed as it is.  *used: its bytes.
 */
static size_t escape_one(const unsigned char *s, size_t n, bool block, char *esc,
			 size_t *used)
{
	*used = 1;
	if (s[0] >= 0x20 && s[0] < 0x7f)
		return 0;
	int32_t cp = utf8_next(s, n, used);
	if (cp < 0)
		return (size_t)sprintf(esc, "\\x%02x", s[0]);
	if ((cp >= 0x20 && cp < 0x7f) || cp > 0x9f || (block && (cp == '\n' || cp == '\t')))
		return 0;
	static const char named[][3] = {['\t'] = "\\t", ['\n'] = "\\n", ['\r'] = "\\r"};
	if (cp < (int32_t)(sizeof named / sizeof *named) && named[cp][0])
		return (size_t)sprintf(esc, "%s", named[cp]);
	return (size_t)sprintf(esc, cp < 0x80 ? "\\x%02x" : "\\u%04x", (unsigned)cp);
}

static void write_escaped(FILE *out, const char *text, size_t n, bool block)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t start = 0, i = 0;
	while (i < n) {
		char esc[16];
		size_t used, len = escape_one(s + i, n - i, block, esc, &used);
		if (len == 0) {
			i += used;
			continue;
		}
		fwrite(s + start, 1, i - start, out);
		fwrite(esc, 1, len, out);
		i += used;
		start = i;
	}
	fwrite(s + start, 1, n - start, out);
}

void diag_write_escaped(FILE *out, const char *s, size_t n)
{
	write_escaped(out, s, n, false);
}

void diag_write_block(FILE *out, const char *s, size_t n)
{
	write_escaped(out, s, n, true);
}

const char *diag_esc(const char *s)
{
	static char *ring[DIAG_ESC_RING];
	static unsigned next;
	size_t n = strlen(s), i = 0, used;
	char esc[16];
	while (i < n && escape_one((const unsigned char *)s + i, n - i, false, esc, &used) == 0)
		i += used;
	if (i == n)
		return s;
	char *buf;
	size_t size;
	FILE *f = open_memstream(&buf, &size);
	if (f == NULL)
		return "(out of memory)";
	diag_write_escaped(f, s, n);
	if (fclose(f) != 0)
		return "(out of memory)";
	free(ring[next]);
	ring[next] = buf;
	next = (next + 1) % DIAG_ESC_RING;
	return buf;
}

/* Where a message is cut: back from i to the start of a UTF-8 character. */
static size_t char_start(const char *text, size_t i)
{
	while (i > 0 && ((unsigned char)text[i] & 0xc0) == 0x80)
		i--;
	return i;
}

/*
 * The text of a message, its middle left out past MSG_KEEP bytes at each
 * end: a 10 MB id quoted in an error would otherwise be printed whole
 * (and once more in every note), which helps nobody.
 */
#define MSG_KEEP 480
void diag_vprint(FILE *out, const char *fmt, va_list ap)
{
	char small[2 * MSG_KEEP + 64];
	va_list copy;
	va_copy(copy, ap);
	int n = vsnprintf(small, sizeof small, fmt, copy);
	va_end(copy);
	if (n < 0)
		return;
	if ((size_t)n < sizeof small) {
		diag_write_escaped(out, small, (size_t)n);
		return;
	}
	char *text = xmalloc((size_t)n + 1);
	vsnprintf(text, (size_t)n + 1, fmt, ap);
	size_t head = char_start(text, MSG_KEEP);
	size_t tail = char_start(text, (size_t)n - MSG_KEEP);
	diag_write_escaped(out, text, head);
	fprintf(out, "[... %zu bytes left out ...]", tail - head);
	diag_write_escaped(out, text + tail, (size_t)n - tail);
	free(text);
}

void diag_vmsg(struct diag *d, enum diag_level level, struct pos pos,
	       const char *fmt, va_list ap)
{
	if (level == DIAG_ERROR) {
		d->repeat = repeated(d, pos, fmt, ap);
		if (d->repeat)
			return;
	} else if (level == DIAG_NOTE && d->repeat) {
		return;
	}
	if (level == DIAG_ERROR)
		d->nerrors++;
	else if (level == DIAG_WARNING)
		d->nwarnings++;
	/* Notes follow their error: shown exactly when it was. */
	if (d->quiet || d->nerrors > max_errors(d))
		return;
	diag_write_escaped(d->out, d->file, strlen(d->file));
	if (pos.line)
		fprintf(d->out, ":%u:%u: %s: ", pos.line, pos.col, level_names[level]);
	else
		fprintf(d->out, ": %s: ", level_names[level]);
	/* a point's label holds the user's axis values: escaped as the rest */
	if (d->prefix) {
		diag_write_escaped(d->out, d->prefix, strlen(d->prefix));
		fputs(": ", d->out);
	}
	diag_vprint(d->out, fmt, ap);
	fputc('\n', d->out);
}

#define DEFINE_LEVEL(fn, level)                                          \
	void fn(struct diag *d, struct pos pos, const char *fmt, ...)    \
	{                                                                \
		va_list ap;                                              \
		va_start(ap, fmt);                                       \
		diag_vmsg(d, level, pos, fmt, ap);                       \
		va_end(ap);                                              \
	}
DEFINE_LEVEL(diag_error, DIAG_ERROR)
DEFINE_LEVEL(diag_warning, DIAG_WARNING)
DEFINE_LEVEL(diag_note, DIAG_NOTE)

bool diag_finish(struct diag *d)
{
	unsigned max = max_errors(d);
	if (!d->quiet && d->nerrors > max)
		fprintf(d->out, "%s: error: %u more error%s not shown\n", diag_esc(d->file),
			d->nerrors - max, d->nerrors - max == 1 ? "" : "s");
	fflush(d->out);
	return d->nerrors == 0;
}

/* "cugraphrun: WHAT: message" on stderr. */
__attribute__((format(printf, 2, 0)))
static void vmsgx(const char *what, const char *fmt, va_list ap)
{
	fprintf(stderr, "cugraphrun: %s: ", what);
	diag_vprint(stderr, fmt, ap);
	fputc('\n', stderr);
}

#define DEFINE_X(fn, what)                         \
	void fn(const char *fmt, ...)              \
	{                                          \
		va_list ap;                        \
		va_start(ap, fmt);                 \
		vmsgx(what, fmt, ap);              \
		va_end(ap);                        \
	}
DEFINE_X(errorx, "error")
DEFINE_X(warnx_, "warning")
DEFINE_X(notex, "note")

/* Edit distance counting a swap of neighbours as one edit ("tpye"). */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 64 || lb > 64)
		return SIZE_MAX;
	size_t m[65][65];
	for (size_t i = 0; i <= la; i++)
		m[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		m[0][j] = j;
	for (size_t i = 1; i <= la; i++)
		for (size_t j = 1; j <= lb; j++) {
			size_t best = m[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
			if (m[i - 1][j] + 1 < best)
				best = m[i - 1][j] + 1;
			if (m[i][j - 1] + 1 < best)
				best = m[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    m[i - 2][j - 2] + 1 < best)
				best = m[i - 2][j - 2] + 1;
			m[i][j] = best;
		}
	return m[la][lb];
}

const char *diag_suggest(const char *word, const char *const *candidates, size_t n)
{
	const char *best = NULL;
	size_t best_d = SIZE_MAX;
	size_t len = strlen(word);
	/* Allow one edit for short words, about a third of the word otherwise. */
	size_t limit = len <= 4 ? 1 : len / 3 + 1;
	for (size_t i = 0; i < n; i++) {
		size_t dist = edit_distance(word, candidates[i]);
		if (dist < best_d) {
			best_d = dist;
			best = candidates[i];
		}
	}
	return best_d <= limit ? best : NULL;
}
