/*
 * The JSON writer's three primitives, for every JSON document the tool
 * writes (the --json report, a suite's document, --trace): strings,
 * numbers and keys, pretty-printed two spaces a level.  Objects and lists
 * are opened and closed by their writers, which know their shape.
 * Nothing is owned.
 */
#ifndef CGR_JSON_H
#define CGR_JSON_H

#include <stdbool.h>
#include <stdio.h>

/*
 * s as a JSON string (null for NULL): escapes, UTF-8 passed through, a
 * byte that is no UTF-8 written as U+FFFD.
 */
void json_string(FILE *out, const char *s);
/* A number, %.9g, or null when it is not finite (NaN: unknown). */
void json_number(FILE *out, double v);
/* "key": on a new line indented depth levels; when not first, a comma before it. */
void json_key(FILE *out, int depth, bool first, const char *key);

#endif
