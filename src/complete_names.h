/*
 * --complete=WHAT FILE, an option --help does not list: what the shells'
 * completions (complete_script.h) ask of the graph file already on the
 * command line, one name a line on standard output:
 *
 *     axes   the file's axis names, for -a and --set
 *     ids    the ids of its top-level kernel, memset and copy nodes (the
 *            nodes --disable can switch off), for --disable
 *
 * No GPU and no module is touched: the file is loaded as --validate
 * starts to, quietly (a file being written has errors, and a completion
 * says none), and what was read is listed.  Whatever the file, the answer
 * comes at once: only a regular file is read (never a FIFO, a device or
 * standard input), of at most COMPLETE_MAX_BYTES, and the process ends
 * after COMPLETE_SECONDS whatever it is doing.  Only names a shell takes
 * as they are are listed (complete_shell_safe).
 */
#ifndef CGR_COMPLETE_NAMES_H
#define CGR_COMPLETE_NAMES_H

#include <stdbool.h>

#include "cli.h"

#define COMPLETE_MAX_BYTES (16u << 20)
#define COMPLETE_SECONDS 2

/* The exit status: 0 (whatever the file held), 2 for a WHAT that is neither. */
int complete_names_main(const struct options *o);

/*
 * name can be put on a command line as it is: letters, digits, UTF-8
 * text and "._+-@%^/", nothing the shell reads (blanks, quotes, '$',
 * globs, '~'), nor ',' (--disable's separator), '=' or ':' (where bash
 * splits a word for completion).
 */
bool complete_shell_safe(const char *name);

#endif
