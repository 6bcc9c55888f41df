/*
 * The status line: while a suite or a sweep runs on a terminal, one line
 * on standard error that rewrites itself, as ninja's does:
 *
 *     [37/200] graphs/fft.yaml  0:42 elapsed, about 1:10 left
 *
 * the items finished of all of them, the item running now (a file, a
 * point's label), the time since the start and, once one has finished,
 * the time left at the pace so far.  It is drawn only where standard
 * error is a terminal that takes escape sequences (term.h) and the caller
 * wants it (not with -q), fitted to the terminal's width so that it never
 * wraps.
 *
 * One line per process, and only in the process that prints: a suite's
 * workers never draw one (progress_forbid), their parent does.  Anything
 * else written to the terminal while the line is up must take it down
 * first (progress_clear): diag.c does so for every message (progress_start
 * sets it as diag's hook, diag_set_before_print), suite.c before a file's
 * output; the line comes back at the next progress_update.
 * progress_clear may be called from another thread (a host node's print
 * runs on the driver's): the line is drawn and cleared under its stream's
 * lock.
 */
#ifndef CGR_TERM_PROGRESS_H
#define CGR_TERM_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * total items from now on, on standard error when wanted and it is a
 * smart terminal; otherwise nothing is ever drawn (until the next start).
 */
void progress_start(size_t total, bool wanted);

/* done items finished, name running (NULL: none named): the line, redrawn. */
void progress_update(size_t done, const char *name);

/* Milliseconds until the clock on the line next changes; -1 when no line is up. */
int progress_tick_ms(void);

/* Take the line down, if it is up, before other output. */
void progress_clear(void);

/* Take the line down for good: the run is over. */
void progress_end(void);

/* This process never draws one (a suite's worker), nor takes down its parent's. */
void progress_forbid(void);

/* For tests: draw on out, width columns wide, with now() as the clock. */
void progress_start_on(FILE *out, unsigned width, double (*now)(void), size_t total);

/*
 * The line's text for these figures, fitted into width - 1 columns (the
 * last column of a terminal wraps): the name is escaped as diagnostics
 * escape it (diag.h), and shortened in its middle, then the estimate and
 * the clock left out, as far as the width needs.  Its length in bytes.
 */
size_t progress_format(char *buf, size_t len, size_t done, size_t total, double elapsed,
		       const char *name, unsigned width);

#endif
