/*
 * A string-keyed hash map to indices (0 to INT32_MAX), for name lookups.  Keys are not
 * copied: the caller keeps them alive as long as the map (they are the
 * model's own strings).  strmap_free accepts NULL.
 */
#ifndef CGR_STRMAP_H
#define CGR_STRMAP_H

#include <stdbool.h>
#include <stddef.h>

struct strmap;

struct strmap *strmap_new(size_t expected);
void strmap_free(struct strmap *m);
/* Insert key; false (and *old set to the existing value) when present. */
bool strmap_put(struct strmap *m, const char *key, long value, long *old);
/* The value of key, or -1 when absent. */
long strmap_get(const struct strmap *m, const char *key);
size_t strmap_size(const struct strmap *m);

#endif
