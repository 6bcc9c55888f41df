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

/*
 * The most nodes and edges, together, that the HTML page lays out: dot
 * takes seconds past a few thousand, and a page of more says so instead.
 */
#define DESCRIBE_INLINE_MAX 4000

/*
 * Is dot a description cugraphrun writes, safe to draw on a page?  It
 * must read as DOT, use only the attributes the description uses (none
 * that reads a file, links out or names a font, as image, URL, href,
 * stylesheet and fontname do) and no HTML-like label.  False with the
 * reason in why.
 */
bool describe_dot_safe(const char *dot, char *why, size_t whylen);

/*
 * dot drawn as SVG for an HTML page (report_html.h): the <svg> element
 * alone, without the XML prologue, DOCTYPE and comments, a control
 * character a label held as U+FFFD, in *svg
 * (malloc'd, the caller's).  0; 1 when it is more than
 * DESCRIBE_INLINE_MAX nodes and edges, or -1 when it is not safe
 * (describe_dot_safe) or Graphviz fails: the reason in why, nothing
 * printed.
 */
int describe_svg_inline(const char *dot, char **svg, char *why, size_t whylen);

#endif
