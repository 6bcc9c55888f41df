#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
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
__attribute__((format(printf, 2, 0)))
static void print_text(FILE *out, const char *fmt, va_list ap)
{
	char small[2 * MSG_KEEP + 64];
	va_list copy;
	va_copy(copy, ap);
	int n = vsnprintf(small, sizeof small, fmt, copy);
	va_end(copy);
	if (n < 0)
		return;
	if ((size_t)n < sizeof small) {
		fputs(small, out);
		return;
	}
	char *text = xmalloc((size_t)n + 1);
	vsnprintf(text, (size_t)n + 1, fmt, ap);
	size_t head = char_start(text, MSG_KEEP);
	size_t tail = char_start(text, (size_t)n - MSG_KEEP);
	fprintf(out, "%.*s[... %zu bytes left out ...]%s", (int)head, text, tail - head,
		text + tail);
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
	if (pos.line)
		fprintf(d->out, "%s:%u:%u: %s: ", d->file, pos.line, pos.col,
			level_names[level]);
	else
		fprintf(d->out, "%s: %s: ", d->file, level_names[level]);
	if (d->prefix)
		fprintf(d->out, "%s: ", d->prefix);
	print_text(d->out, fmt, ap);
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
		fprintf(d->out, "%s: error: %u more error%s not shown\n", d->file,
			d->nerrors - max, d->nerrors - max == 1 ? "" : "s");
	fflush(d->out);
	return d->nerrors == 0;
}

void errorx(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("cugraphrun: error: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

void warnx_(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fputs("cugraphrun: warning: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

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
