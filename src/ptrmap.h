/*
 * A pointer-keyed hash map to indices, for lookups of the model's own
 * objects by their address (a derived model's copies of its base's nodes
 * and graphs: model_derive.c).  Keys are compared as addresses and never
 * followed.  ptrmap_free accepts NULL.
 */
#ifndef CGR_PTRMAP_H
#define CGR_PTRMAP_H

#include <stddef.h>

struct ptrmap;

struct ptrmap *ptrmap_new(size_t expected);
void ptrmap_free(struct ptrmap *m);
/* Map key (not NULL) to value, replacing what it mapped to. */
void ptrmap_put(struct ptrmap *m, const void *key, size_t value);
/* The value of key, or -1 when absent. */
long ptrmap_get(const struct ptrmap *m, const void *key);

#endif
