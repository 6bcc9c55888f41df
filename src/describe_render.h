/*
 * The description drawn in-process by Graphviz's layout library (libgvc,
 * the Graphviz whose libcgraph describe.c builds with): SVG, PNG or PDF
 * when the output's name asks for it, so that no separate dot(1) step is
 * needed; DOT text otherwise.  <graphviz/gvc.h> is included here and
 * nowhere else.  Which formats render depends on the plugins installed
 * with Graphviz (PNG and PDF come from its cairo plugin, SVG from its
 * core); a missing one is said before anything is drawn.
 */
#ifndef CGR_DESCRIBE_RENDER_H
#define CGR_DESCRIBE_RENDER_H

#include <stdbool.h>
#include <stdio.h>

enum describe_format { DESCRIBE_DOT, DESCRIBE_SVG, DESCRIBE_PNG, DESCRIBE_PDF, DESCRIBE_FORMAT_COUNT };

/*
 * The format a --describe output's name asks for: .svg, .png or .pdf
 * (case counts); DOT for any other name, and for NULL (standard output).
 */
enum describe_format describe_format_of(const char *path);

/*
 * Can the --describe output path (NULL or "-": standard output) be
 * written as its name asks?  False after a message saying what is missing.
 */
bool describe_can_draw(const char *path);

/*
 * The DOT text dot laid out with dot and written to out as f (not
 * DESCRIBE_DOT); 0, or -1 after a message (what Graphviz said, as its own
 * errors).  The text is read back rather than the graph built taken as it
 * is: dot's layout follows the order it reads nodes in, so this draws what
 * `dot -Tf` draws of the --describe=- output, no other picture.
 */
int describe_render(const char *dot, enum describe_format f, FILE *out);

#endif
