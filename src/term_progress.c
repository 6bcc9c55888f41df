/*
 * The status line (see term_progress.h).  Drawn as "\r", the text, then
 * "\033[K" (erase to the end of the line) so that a shorter line leaves
 * nothing of a longer one; taken down as "\r\033[K".  The same text is
 * not drawn twice in a row: a suite of 100,000 files redraws only when a
 * figure on the line changes.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "monotime.h"
#include "term.h"
#include "term_progress.h"
#include "utf8.h"
#include "xmalloc.h"

static struct {
	FILE *out;                      /* NULL: no line in this process now */
	unsigned width;                 /* 0: the terminal's, asked at each draw */
	double (*now)(void);
	double t0;
	size_t total, done;
	char *name;                     /* the item running (malloc'd), or NULL */
	char *shown;                    /* the text drawn last (malloc'd), or NULL */
	bool drawn;                     /* the line is up (read under out's lock) */
	bool forbidden;                 /* a suite's worker: never a line */
} pg;

/* Columns of UTF-8 text with no control characters in it; wide forms count two, to be safe. */
static size_t text_cols(const char *s, size_t n)
{
	size_t cols = 0;
	for (size_t i = 0, used; i < n; i += used) {
		int32_t cp = utf8_next((const unsigned char *)s + i, n - i, &used);
		cols += cp >= 0x1100 ? 2 : 1;
	}
	return cols;
}

/* The bytes of s's first cols columns (at most), ending on a character's end. */
static size_t head_bytes(const char *s, size_t n, size_t cols)
{
	size_t i = 0, used;
	while (i < n) {
		int32_t cp = utf8_next((const unsigned char *)s + i, n - i, &used);
		size_t w = cp >= 0x1100 ? 2 : 1;
		if (w > cols)
			break;
		cols -= w;
		i += used;
	}
	return i;
}

/* Where s's last cols columns (at most) start, on a character's start. */
static size_t tail_start(const char *s, size_t n, size_t cols)
{
	size_t i = n;
	while (i > 0) {
		size_t j = i - 1;
		while (j > 0 && ((unsigned char)s[j] & 0xc0) == 0x80)
			j--;
		size_t w = text_cols(s + j, i - j);
		if (w > cols)
			break;
		cols -= w;
		i = j;
	}
	return i;
}

/* "0:42", or "1:02:03" past an hour. */
static void clock_text(char *buf, size_t len, double s)
{
	unsigned long t = s > 0 && s < 1e9 ? (unsigned long)s : 0;
	if (t >= 3600)
		snprintf(buf, len, "%lu:%02lu:%02lu", t / 3600, t / 60 % 60, t % 60);
	else
		snprintf(buf, len, "%lu:%02lu", t / 60, t % 60);
}

size_t progress_format(char *buf, size_t len, size_t done, size_t total, double elapsed,
		       const char *name, unsigned width)
{
	size_t cols = width > 1 ? width - 1 : 1;
	char head[48], took[32], left[32], tails[2][96];
	snprintf(head, sizeof head, "[%zu/%zu]", done, total);
	clock_text(took, sizeof took, elapsed);
	/* the pace so far, once something has finished */
	bool eta = done > 0 && done < total;
	clock_text(left, sizeof left, eta ? elapsed / (double)done * (double)(total - done) + 0.5 : 0);
	snprintf(tails[0], sizeof tails[0], eta ? "  %s elapsed, about %s left" : "  %s elapsed",
		 took, left);
	snprintf(tails[1], sizeof tails[1], "  %s elapsed", took);
	const char *esc = name ? diag_esc(name) : "";
	size_t nlen = strlen(esc), ncols = text_cols(esc, nlen);
	size_t hcols = strlen(head) + (nlen ? 1 : 0);
	/* the longest tail that leaves the name its width, or a dozen columns */
	size_t want = ncols < 12 ? ncols : 12;
	const char *tail = "";
	for (int i = 0; i < 2 && tail[0] == '\0'; i++)
		if (hcols + want + strlen(tails[i]) <= cols)
			tail = tails[i];
	size_t room = cols > hcols + strlen(tail) ? cols - hcols - strlen(tail) : 0;
	FILE *f = fmemopen(buf, len, "w");
	if (f == NULL) {
		buf[0] = '\0';
		return 0;
	}
	fputs(head, f);
	if (nlen && ncols <= room) {
		fprintf(f, " %s", esc);
	} else if (nlen && room >= 5) {
		/* ninja's way: the middle goes, both ends stay */
		size_t a = head_bytes(esc, nlen, (room - 3) / 2);
		size_t b = tail_start(esc, nlen, room - 3 - text_cols(esc, a));
		fprintf(f, " %.*s...%s", (int)a, esc, esc + b);
	}
	fputs(tail, f);
	fclose(f);
	size_t n = strlen(buf);
	/* a terminal narrower than the count itself: the count, cut */
	if (n > cols)
		buf[n = head_bytes(buf, n, cols)] = '\0';
	return n;
}

/* The line as the figures give it now, drawn unless it is up already. */
static void draw(void)
{
	if (pg.out == NULL)
		return;
	/* up to 3 bytes a column, and room for the rest */
	char line[2048];
	unsigned width = pg.width ? pg.width : term_width(fileno(pg.out));
	if (width > 500)
		width = 500;
	progress_format(line, sizeof line, pg.done, pg.total, pg.now() - pg.t0, pg.name, width);
	flockfile(pg.out);
	if (!pg.drawn || pg.shown == NULL || strcmp(pg.shown, line) != 0) {
		fprintf(pg.out, "\r%s\033[K", line);
		fflush(pg.out);
		free(pg.shown);
		pg.shown = xstrdup(line);
		__atomic_store_n(&pg.drawn, true, __ATOMIC_RELEASE);
	}
	funlockfile(pg.out);
}

static void reset(void)
{
	free(pg.name);
	free(pg.shown);
	pg.name = pg.shown = NULL;
	pg.out = NULL;
	pg.drawn = false;
}

void progress_start_on(FILE *out, unsigned width, double (*now)(void), size_t total)
{
	reset();
	pg.out = out;
	pg.width = width;
	pg.now = now;
	pg.t0 = now();
	pg.total = total;
	pg.done = 0;
	/* every diagnostic takes the line down first */
	diag_set_before_print(progress_clear);
}

void progress_start(size_t total, bool wanted)
{
	reset();
	if (pg.forbidden || !wanted || !term_smart(STDERR_FILENO))
		return;
	progress_start_on(stderr, 0, monotime, total);
}

void progress_update(size_t done, const char *name)
{
	if (pg.out == NULL)
		return;
	pg.done = done;
	if (name == NULL || pg.name == NULL || strcmp(name, pg.name) != 0) {
		free(pg.name);
		pg.name = name ? xstrdup(name) : NULL;
	}
	draw();
}

int progress_tick_ms(void)
{
	if (pg.out == NULL)
		return -1;
	double e = pg.now() - pg.t0;
	int ms = 1000 - (int)(fmod(e > 0 ? e : 0, 1.0) * 1000);
	return ms < 1 ? 1 : ms;
}

void progress_clear(void)
{
	/* the common case, no line up, without the stream's lock */
	if (!__atomic_load_n(&pg.drawn, __ATOMIC_ACQUIRE))
		return;
	FILE *out = pg.out;
	if (out == NULL)
		return;
	flockfile(out);
	if (pg.drawn) {
		fputs("\r\033[K", out);
		fflush(out);
		__atomic_store_n(&pg.drawn, false, __ATOMIC_RELEASE);
	}
	funlockfile(out);
}

void progress_end(void)
{
	progress_clear();
	reset();
}

void progress_forbid(void)
{
	/* the parent's line is the parent's: nothing of it is written from here */
	pg.forbidden = true;
	pg.drawn = false;
	reset();
}
