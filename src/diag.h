/*
 * The one message printer.  Every diagnostic about an input file goes
 * through here and comes out as
 *
 *     FILE:LINE:COL: error: what is wrong, and what to do
 *
 * (the form compilers use, so editors jump to it).  The same error at the
 * same place is given once.  Errors are counted;
 * after DIAG_MAX_ERRORS further errors are counted but not printed, and
 * diag_finish() says how many were left out.  The diag does not own the
 * file name it is given.
 */
#ifndef CGR_DIAG_H
#define CGR_DIAG_H

#include <stdbool.h>
#include <stdint.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

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
	/*
	 * Said after "error: " (or the level) and before the text, as in
	 * "error: n=2^31: ...": a sweep's point whose model is being read.
	 * A repeat is judged on the text without it, so an error every point
	 * shares is given once, for the first.  Not owned; NULL: none.
	 */
	const char *prefix;
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

/* Print the "N more errors not shown" line, if any; true when no errors. */
bool diag_finish(struct diag *d);

/* A message about no file at all: "cugraphrun: error: ..." on stderr. */
void errorx(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void warnx_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * The closest of candidates[0..n) to word by edit distance, or NULL when
 * none is close enough to be a plausible typo ("did you mean").
 */
const char *diag_suggest(const char *word, const char *const *candidates, size_t n);

#endif
