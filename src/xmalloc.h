/*
 * Allocation wrappers that never return NULL: running out of memory is
 * fatal here, once, so every other error path in cugraphrun is about input
 * or CUDA and never about malloc.
 */
#ifndef CGR_XMALLOC_H
#define CGR_XMALLOC_H

#include <stddef.h>

void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
/* Overflow-checked n * size reallocation. */
void *xreallocarray(void *p, size_t n, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* Formatted string, caller frees. */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Grow *arr (holding *n of *cap elements of size elem) so that one more
 * fits; returns a pointer to the new, zeroed element and increments *n.
 */
void *xgrow(void *arr_ptr, size_t *n, size_t *cap, size_t elem);
#define VEC_PUSH(arr, n, cap) ((__typeof__(arr))xgrow(&(arr), &(n), &(cap), sizeof *(arr)))

#endif
