/*
 * The terminal: whether a descriptor is one that takes escape sequences
 * (a terminal whose TERM is set and not "dumb"), how wide it is, and
 * whether diagnostics are coloured (--color, NO_COLOR).
 *
 * The colour is chosen once, by the process that parses the command line
 * and before it forks: a suite's workers write their messages to files
 * that the parent copies to the terminal (suite.c), so they colour as the
 * parent would, whatever their own standard error is.
 */
#ifndef CGR_TERM_H
#define CGR_TERM_H

#include <stdbool.h>

/* --color=WHEN */
enum color_when { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER };
#define COLOR_WHEN_COUNT 3
/* "auto", "always", "never": the option's words, by enum color_when */
extern const char *const color_when_names[COLOR_WHEN_COUNT];

/* fd is a terminal that takes escape sequences. */
bool term_smart(int fd);

/* fd's width in columns: the terminal's, else $COLUMNS, else 80. */
unsigned term_width(int fd);

/*
 * Colour the diagnostics or not: always, never, or (auto) when standard
 * error is a smart terminal and NO_COLOR is unset or empty.
 */
void term_color_choose(enum color_when when);

/* The choice (false until one is made). */
bool term_color(void);

#endif
