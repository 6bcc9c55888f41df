#include "config.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "diag.h"
#include "term.h"
#include "utf8.h"
#include "xmalloc.h"

/* diag_set_before_print's hook */
static void (*before_print)(void);

void diag_set_before_print(void (*fn)(void))
{
	before_print = fn;
}

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
	d->last = -1;
	diag_catalog_init();
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
	/* per thread: host nodes print from the driver's thread */
	static _Thread_local char *ring[DIAG_ESC_RING];
	static _Thread_local unsigned next;
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
 * (and once more in every note), which helps nobody.  Allocated.
 */
#define MSG_KEEP 480
__attribute__((format(printf, 1, 0)))
static char *format_text(const char *fmt, va_list ap)
{
	char small[2 * MSG_KEEP + 64];
	va_list copy;
	va_copy(copy, ap);
	int n = vsnprintf(small, sizeof small, fmt, copy);
	va_end(copy);
	if (n < 0)
		return xstrdup("");
	if ((size_t)n < sizeof small)
		return xstrdup(small);
	char *text = xmalloc((size_t)n + 1);
	vsnprintf(text, (size_t)n + 1, fmt, ap);
	size_t head = char_start(text, MSG_KEEP);
	size_t tail = char_start(text, (size_t)n - MSG_KEEP);
	char *out = xasprintf("%.*s[... %zu bytes left out ...]%s", (int)head, text, tail - head,
			      text + tail);
	free(text);
	return out;
}

void diag_vprint(FILE *out, const char *fmt, va_list ap)
{
	char *text = format_text(fmt, ap);
	diag_write_escaped(out, text, strlen(text));
	free(text);
}

static void entry_free(struct diag_entry *e)
{
	free(e->text);
	for (size_t i = 0; i < e->nnotes; i++)
		free(e->notes[i].text);
	free(e->notes);
}

static void add_note(struct diag_entry *e, struct pos pos, char *text, const char *code)
{
	struct diag_note *n = VEC_PUSH(e->notes, e->nnotes, e->capnotes);
	n->pos = pos;
	n->text = text;
	n->code = code;
}

/*
 * gcc's colours (its GCC_COLORS defaults): the place bold, the level bold
 * and coloured.  Only these are written, and only around what diag.c
 * writes itself: the user's text is escaped before it comes here, so no
 * escape sequence in a message is the file's (diag_strip_color).
 */
#define SGR_BOLD "\033[01m"
#define SGR_RESET "\033[m"
static const char *const level_colors[] = {
	[DIAG_NOTE] = "\033[01;36m",
	[DIAG_WARNING] = "\033[01;35m",
	[DIAG_ERROR] = "\033[01;31m",
};

/* " LEVEL: " after a place that ends in ':', coloured when the terminal is. */
static void write_level(FILE *out, enum diag_level level, bool color)
{
	if (color)
		fprintf(out, SGR_RESET " %s%s:" SGR_RESET " ", level_colors[level],
			level_names[level]);
	else
		fprintf(out, " %s: ", level_names[level]);
}

void diag_write_lead(FILE *out, enum diag_level level)
{
	bool color = term_color();
	fputs(color ? SGR_BOLD "cugraphrun:" : "cugraphrun:", out);
	write_level(out, level, color);
}

size_t diag_strip_color(char *s, size_t n)
{
	size_t j = 0;
	for (size_t i = 0; i < n; i++) {
		size_t k = i + 2;
		if (s[i] == '\033' && i + 1 < n && s[i + 1] == '[') {
			while (k < n && ((s[k] >= '0' && s[k] <= '9') || s[k] == ';'))
				k++;
			if (k < n && s[k] == 'm') {
				i = k;
				continue;
			}
		}
		s[j++] = s[i];
	}
	return j;
}

/* One line: "FILE:LINE:COL: LEVEL: TEXT" (or "cugraphrun: LEVEL: TEXT" for no file). */
static void print_line(FILE *out, const char *file, enum diag_level level, struct pos pos,
		       const char *text)
{
	/* the status line, if one is up, goes before the message (diag_set_before_print) */
	if (before_print)
		before_print();
	bool color = term_color();
	/* the file's name and the text are the user's: nothing in them may pass for a line */
	if (file == NULL) {
		diag_write_lead(out, level);
	} else {
		fputs(color ? SGR_BOLD : "", out);
		diag_write_escaped(out, file, strlen(file));
		if (pos.line)
			fprintf(out, ":%u:%u:", pos.line, pos.col);
		else
			fputc(':', out);
		write_level(out, level, color);
	}
	diag_write_escaped(out, text, strlen(text));
	fputc('\n', out);
}

/* The logging diag, for messages about no file (errorx, warnx_). */
static struct diag *logging_diag;

static struct diag_entry *log_push(struct diag *d, enum diag_level level, const char *file,
				   struct pos pos, const char *text, const char *code)
{
	struct diag_entry *e = VEC_PUSH(d->log, d->nlog, d->caplog);
	memset(e, 0, sizeof *e);
	e->level = level;
	e->file = file;
	e->pos = pos;
	e->text = xstrdup(text);
	e->code = code;
	return e;
}

/*
 * Print an error or warning now (or leave it out past the cap: then its
 * notes go too, d->repeat says so) and log it.  Takes text.
 */
static void emit(struct diag *d, enum diag_level level, struct pos pos, char *text,
		 const char *code)
{
	unsigned max = max_errors(d);
	if (d->printed_errors >= max) {
		if (level == DIAG_WARNING)
			d->dropped_warnings++;
		d->repeat = true;
		free(text);
		return;
	}
	d->repeat = false;
	if (level == DIAG_ERROR)
		d->printed_errors++;
	print_line(d->out, d->file, level, pos, text);
	if (d->logging)
		log_push(d, level, d->file, pos, text, code);
	free(text);
}

static void emit_note(struct diag *d, struct pos pos, char *text, const char *code)
{
	if (d->repeat) {
		free(text);
		return;
	}
	print_line(d->out, d->file, DIAG_NOTE, pos, text);
	if (d->logging) {
		if (d->nlog)
			add_note(&d->log[d->nlog - 1], pos, xstrdup(text), code);
		else
			log_push(d, DIAG_NOTE, d->file, pos, text, code);
	}
	free(text);
}

static int pos_cmp(struct pos a, struct pos b)
{
	if (a.line != b.line)
		return a.line < b.line ? -1 : 1;
	return (a.col > b.col) - (a.col < b.col);
}

/* Sort order of a round: position, then arrival. */
static int entry_cmp(const void *pa, const void *pb)
{
	const struct diag_entry *a = pa, *b = pb;
	int c = pos_cmp(a->pos, b->pos);
	return c ? c : (a->seq > b->seq) - (a->seq < b->seq);
}

/*
 * Keep an error or warning of a round.  Past the cap of its level, the
 * one furthest down the file goes (it would not be printed): the new one,
 * or a kept one that it displaces.
 */
static void hold(struct diag *d, enum diag_level level, struct pos pos, char *text,
		 const char *code)
{
	unsigned max = max_errors(d), kept = 0;
	long worst = -1;
	for (size_t i = 0; i < d->nheld; i++) {
		if (d->held[i].level != level)
			continue;
		kept++;
		if (worst < 0 || entry_cmp(&d->held[i], &d->held[worst]) > 0)
			worst = (long)i;
	}
	struct diag_entry e = {.level = level, .pos = pos, .file = d->file, .text = text,
			       .code = code, .seq = d->seq++};
	if (kept >= max) {
		if (level == DIAG_WARNING)
			d->dropped_warnings++;
		if (entry_cmp(&e, &d->held[worst]) > 0) {
			d->last = -1;
			free(text);
			return;
		}
		entry_free(&d->held[worst]);
		memmove(&d->held[worst], &d->held[worst + 1],
			(d->nheld - (size_t)worst - 1) * sizeof *d->held);
		d->nheld--;
	}
	*VEC_PUSH(d->held, d->nheld, d->capheld) = e;
	d->last = (long)d->nheld - 1;
}

/* A repeat under another prefix: the held error it repeats is counted (diag_unlabel_shared). */
__attribute__((format(printf, 3, 0)))
static void count_repeat(struct diag *d, struct pos pos, const char *fmt, va_list ap)
{
	char *text = format_text(fmt, ap);
	size_t n = strlen(text);
	for (size_t i = 0; i < d->nheld; i++) {
		struct diag_entry *e = &d->held[i];
		size_t m = strlen(e->text);
		if (e->level == DIAG_ERROR && e->pos.line == pos.line && e->pos.col == pos.col &&
		    m >= n + 2 && strcmp(e->text + m - n, text) == 0 &&
		    memcmp(e->text + m - n - 2, ": ", 2) == 0) {
			e->repeats++;
			break;
		}
	}
	free(text);
}

void diag_unlabel_shared(struct diag *d, const char *label, unsigned n)
{
	size_t len = strlen(label);
	for (size_t i = 0; i < d->nheld; i++) {
		struct diag_entry *e = &d->held[i];
		if (e->repeats + 1 >= n && strncmp(e->text, label, len) == 0 &&
		    strncmp(e->text + len, ": ", 2) == 0)
			memmove(e->text, e->text + len + 2, strlen(e->text + len + 2) + 1);
	}
}

void diag_vmsg(struct diag *d, enum diag_level level, struct pos pos,
	       const char *fmt, va_list ap)
{
	const char *code = diag_code_take(fmt, ap);
	if (level == DIAG_ERROR) {
		d->repeat = repeated(d, pos, fmt, ap);
		if (d->repeat) {
			if (d->prefix && d->holding) {
				va_list copy;
				va_copy(copy, ap);
				count_repeat(d, pos, fmt, copy);
				va_end(copy);
			}
			d->last = -1;
			return;
		}
	} else if (level == DIAG_NOTE && d->repeat) {
		return;
	} else if (level == DIAG_WARNING) {
		d->repeat = false;
	}
	if (level == DIAG_ERROR)
		d->nerrors++;
	else if (level == DIAG_WARNING)
		d->nwarnings++;
	if (d->quiet)
		return;
	char *text = format_text(fmt, ap);
	if (d->prefix) {
		/* a sweep's point: part of the message, kept or printed now */
		char *with = xasprintf("%s: %s", d->prefix, text);
		free(text);
		text = with;
	}
	if (d->holding && level == DIAG_NOTE) {
		/* Notes follow their error: kept exactly when it was. */
		if (d->last >= 0)
			add_note(&d->held[d->last], pos, text, code);
		else
			free(text);
	} else if (d->holding) {
		hold(d, level, pos, text, code);
	} else if (level == DIAG_NOTE) {
		emit_note(d, pos, text, code);
	} else {
		emit(d, level, pos, text, code);
	}
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

void diag_hold(struct diag *d)
{
	d->holding = true;
	d->last = -1;
}

void diag_release(struct diag *d)
{
	if (!d->holding)
		return;
	d->holding = false;
	if (d->nheld)
		qsort(d->held, d->nheld, sizeof *d->held, entry_cmp);
	for (size_t i = 0; i < d->nheld; i++) {
		struct diag_entry *e = &d->held[i];
		emit(d, e->level, e->pos, e->text, e->code);
		for (size_t k = 0; k < e->nnotes; k++)
			emit_note(d, e->notes[k].pos, e->notes[k].text, e->notes[k].code);
		free(e->notes);
	}
	free(d->held);
	d->held = NULL;
	d->nheld = d->capheld = 0;
	d->last = -1;
	d->repeat = false;
}

void diag_log(struct diag *d)
{
	d->logging = true;
	logging_diag = d;
}

void diag_free(struct diag *d)
{
	for (size_t i = 0; i < d->nheld; i++)
		entry_free(&d->held[i]);
	free(d->held);
	for (size_t i = 0; i < d->nlog; i++)
		entry_free(&d->log[i]);
	free(d->log);
	d->held = d->log = NULL;
	d->nheld = d->capheld = d->nlog = d->caplog = 0;
	if (logging_diag == d)
		logging_diag = NULL;
	d->logging = false;
}

bool diag_may_print(const struct diag *d)
{
	unsigned max = max_errors(d);
	if (d->quiet)
		return false;
	/* (twice the cap: a suggestion may cost a pass over every node of a graph) */
	return d->holding ? d->nerrors < 2 * max : d->nerrors < max;
}

bool diag_finish(struct diag *d)
{
	diag_release(d);
	unsigned more = d->nerrors - d->printed_errors;
	if (!d->quiet && more > d->more_told) {
		char *text = xasprintf("%u more error%s not shown", more, more == 1 ? "" : "s");
		print_line(d->out, d->file, DIAG_ERROR, (struct pos){0}, text);
		if (d->logging)
			log_push(d, DIAG_ERROR, d->file, (struct pos){0}, text, "diag-more-errors");
		free(text);
		d->more_told = more;
	}
	if (!d->quiet && d->dropped_warnings > d->warnings_told) {
		unsigned w = d->dropped_warnings;
		char *text = xasprintf("%u more warning%s not shown", w, w == 1 ? "" : "s");
		print_line(d->out, d->file, DIAG_WARNING, (struct pos){0}, text);
		if (d->logging)
			log_push(d, DIAG_WARNING, d->file, (struct pos){0}, text,
				 "diag-more-warnings");
		free(text);
		d->warnings_told = w;
	}
	fflush(d->out);
	return d->nerrors == 0;
}

/* A message about no file, printed and (while a diag logs) kept. */
__attribute__((format(printf, 2, 0)))
static void program_msg(enum diag_level level, const char *fmt, va_list ap)
{
	const char *code = diag_code_take(fmt, ap);
	char *text = format_text(fmt, ap);
	print_line(stderr, NULL, level, (struct pos){0}, text);
	if (logging_diag)
		log_push(logging_diag, level, NULL, (struct pos){0}, text, code);
	free(text);
}

void errorx(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	program_msg(DIAG_ERROR, fmt, ap);
	va_end(ap);
}

void warnx_(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	program_msg(DIAG_WARNING, fmt, ap);
	va_end(ap);
}

void notex(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	program_msg(DIAG_NOTE, fmt, ap);
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
	/*
	 * A typo keeps something of the word: 'c' is no typo of 'a' (one
	 * edit, but nothing left of either), while 'hh' may be of 'h'.
	 */
	if (best == NULL || best_d == 0 || best_d > limit)
		return NULL;
	size_t longer = strlen(best) > len ? strlen(best) : len;
	return best_d < longer ? best : NULL;
}
