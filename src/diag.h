/*
 * The one message printer.  Every diagnostic about an input file goes
 * through here and comes out as
 *
 *     FILE:LINE:COL: error: what is wrong, and what to do
 *
 * (the form compilers use, so editors jump to it), coloured as gcc colours
 * it when the terminal is (term.h).  Every message, with the
 * file's name, is written with its control characters escaped (see
 * diag_write_escaped): a name or an id is the user's, and must neither
 * start a line of its own nor drive the terminal.  The same error at the
 * same place is given once.  Errors are counted;
 * after DIAG_MAX_ERRORS further errors are counted but not printed, and
 * diag_finish() says how many were left out.
 *
 * A round (diag_hold .. diag_release) keeps its messages and prints them
 * at its end sorted by position, so that what the loader and the
 * validator find in one file reads top to bottom.  With diag_log on,
 * every message printed is also kept, for the --json report's
 * diagnostics.
 *
 * Ownership: the diag does not own the file name it is given; it owns the
 * messages it keeps (diag_free releases them; nothing is kept unless a
 * round is open or the log is on).
 */
#ifndef CGR_DIAG_H
#define CGR_DIAG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include "diag_catalog.h"

/* A position in the YAML file, both 1-based; line 0 means "no position". */
struct pos {
	uint32_t line;
	uint32_t col;
};

enum diag_level { DIAG_NOTE, DIAG_WARNING, DIAG_ERROR };

#define DIAG_MAX_ERRORS 20

struct diag {
	const char *file;   /* as the user named it; not owned */
	FILE *out;          /* stderr unless a test redirects it */
	unsigned nerrors;   /* all errors, printed or not */
	unsigned nwarnings;
	unsigned max_errors; /* print at most this many; 0 means DIAG_MAX_ERRORS */
	bool quiet;          /* count but print nothing (benchmarks) */
	/*
	 * Errors already given, as hashes of position and text: an error in
	 * anchored YAML comes round again with every alias that replays it,
	 * and is worth saying once.  Open addressing; when full, no more
	 * repeats are caught.
	 */
	uint64_t seen[256];
	unsigned nseen;
	bool repeat;         /* the last error was a repeat: drop its notes */
	unsigned printed_errors;        /* errors printed so far (at most the cap) */
	unsigned more_told;             /* errors not shown, as diag_finish last said */
	unsigned dropped_warnings, warnings_told;
	/* a round: messages kept until diag_release (see diag_hold) */
	bool holding;
	struct diag_entry *held;
	size_t nheld, capheld;
	long last;                      /* the held entry the next note belongs to, or -1 */
	unsigned long seq;              /* arrival order, for a stable sort */
	/* diag_log: every message printed, in order (for --json) */
	bool logging;
	struct diag_entry *log;
	size_t nlog, caplog;
	/*
	 * Said after "error: " (or the level) and before the text, as in
	 * "error: n=2^31: ...": a sweep's point whose model is being read.
	 * A repeat is judged on the text without it, so an error every point
	 * shares is given once, for the first (diag_unlabel_shared then takes
	 * its label off).  Part of a message kept in a round or the log.  Not
	 * owned; NULL: none.
	 */
	const char *prefix;
};

/* A note of a message: its own position and text. */
struct diag_note {
	struct pos pos;
	char *text;
	const char *code;       /* its catalog code (diag_catalog.h); static */
};

/* A message as kept: in a round, and in the log. */
struct diag_entry {
	enum diag_level level;
	struct pos pos;
	/* the file it is about; NULL for a message about no file ("cugraphrun: error: ...") */
	const char *file;
	char *text;
	const char *code;       /* its catalog code (diag_catalog.h); static */
	struct diag_note *notes;
	size_t nnotes, capnotes;
	unsigned long seq;
	unsigned repeats;       /* in a round: how often other prefixes gave it again */
};

void diag_init(struct diag *d, const char *file, FILE *out);

/* Report at pos (line 0: the file as a whole). */
void diag_error(struct diag *d, struct pos pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), cold));
void diag_warning(struct diag *d, struct pos pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), cold));
/* A note attached to the previous error; printed only if that one was. */
void diag_note(struct diag *d, struct pos pos, const char *fmt, ...)
	__attribute__((format(printf, 3, 4), cold));
void diag_vmsg(struct diag *d, enum diag_level level, struct pos pos,
	       const char *fmt, va_list ap) __attribute__((format(printf, 4, 0), cold));

/*
 * End an open round (diag_release), then print the "N more errors not
 * shown" line, if any; true when no errors.
 */
bool diag_finish(struct diag *d);

/*
 * Open a round: messages from now on are kept, not printed, until
 * diag_release prints them sorted by position (those without one first;
 * the same position in the order they came), each error with its notes,
 * and the cap of DIAG_MAX_ERRORS applied to that order.  At most the cap
 * of errors and of warnings are kept: the ones furthest down the file
 * make room.
 */
void diag_hold(struct diag *d);
void diag_release(struct diag *d);

/*
 * Keep every message printed from now on in d->log, and the messages
 * about no file (errorx, warnx_) while d is the one logging.
 */
void diag_log(struct diag *d);

/* Release what d keeps: the round's messages, the log. */
void diag_free(struct diag *d);

/*
 * In a round, the errors said with prefix label that every one of n
 * prefixes gave alike (a sweep's n points: an error of the file, not of
 * one point) lose the label.
 */
void diag_unlabel_shared(struct diag *d, const char *label, unsigned n);

/*
 * Whether an error given now could be printed: a "did you mean" is worth
 * working out only then.  In a round, a later error may sort before the
 * ones already given, so it could be printed for longer.
 */
bool diag_may_print(const struct diag *d);

/* A message about no file at all: "cugraphrun: error: ..." on stderr. */
void errorx(const char *fmt, ...) __attribute__((format(printf, 1, 2), cold));
void warnx_(const char *fmt, ...) __attribute__((format(printf, 1, 2), cold));
void notex(const char *fmt, ...) __attribute__((format(printf, 1, 2), cold));

/*
 * "cugraphrun: LEVEL: ", the start of a message about no file, for a
 * caller that writes the rest itself (usage_error); coloured as every
 * message is when the terminal is (term.h).
 */
void diag_write_lead(FILE *out, enum diag_level level);

/*
 * fn (NULL: none) runs before every message is printed: a line that
 * holds the terminal's last row takes itself down there (the status line,
 * term_progress.h, sets progress_clear).  The diag, the ground floor,
 * calls up into no room of its own accord.  Set it before other threads
 * print.
 */
void diag_set_before_print(void (*fn)(void));

/*
 * s[0..n) without the colours that messages carry on a terminal (every
 * "\033[...m"), in place; the new length.  For text captured from a
 * message that goes on to a file or a document (a suite's JUnit and
 * JSON), not to the terminal.
 */
size_t diag_strip_color(char *s, size_t n);

/*
 * The text of a message to out, as every message above is written: its
 * middle left out when it is longer than about a kilobyte, its control
 * characters escaped.  No line break of its own.
 */
void diag_vprint(FILE *out, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));

/*
 * s[0..n) with every control character (C0, DEL and C1: line breaks, tabs,
 * escape sequences) and every byte that is not UTF-8 written as a visible
 * escape: \n, \t, \r, \x1b, \u009b, \xff.  Text from a file or a file
 * name then stays on its line: "a\nevil.yaml:9:1: error: forged" cannot
 * pass for a diagnostic of its own, nor "\x1b[2J" clear the screen.
 */
void diag_write_escaped(FILE *out, const char *s, size_t n);

/*
 * The same for text of several lines that is the user's to lay out (a
 * host node's print, NVRTC's log, the JIT's): line breaks and tabs kept.
 */
void diag_write_block(FILE *out, const char *s, size_t n);

/*
 * s, or an escaped copy of it (diag_write_escaped's escapes), for a "%s"
 * of a report line: the copy stays valid until DIAG_ESC_RING further calls
 * have made copies of their own.  Not for use from more than one thread.
 */
#define DIAG_ESC_RING 8
const char *diag_esc(const char *s);

/*
 * The closest of candidates[0..n) to word by edit distance, or NULL when
 * none is close enough to be a plausible typo ("did you mean").
 */
const char *diag_suggest(const char *word, const char *const *candidates, size_t n);

#endif
