/*
 * Allocation wrappers that never return NULL: running out of memory is
 * fatal here, once, so every other error path in cugraphrun is about input
 * or CUDA and never about malloc.
 */
#ifndef CGR_XMALLOC_H
#define CGR_XMALLOC_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/*
 * The exit status when memory runs out: 2, as for any input too big for
 * the machine (cugraphrun(1), EXIT STATUS), never 3, which is CUDA's.
 */
#define EXIT_NO_MEMORY 2

/* "cugraphrun: error: out of memory (allocating N bytes)", then exit(EXIT_NO_MEMORY). */
void xmalloc_failed(size_t size) __attribute__((noreturn, cold));

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

/* xgrow with the usual case, room left, inline: a push per node adds up. */
static inline void *vec_push(void *arr_ptr, size_t *n, size_t *cap, size_t elem)
{
	if (*n == *cap)
		return xgrow(arr_ptr, n, cap, elem);
	char *slot = *(char **)arr_ptr + *n * elem;
	memset(slot, 0, elem);
	(*n)++;
	return slot;
}
#define VEC_PUSH(arr, n, cap) ((__typeof__(arr))vec_push(&(arr), &(n), &(cap), sizeof *(arr)))

/*
 * An arena: many small allocations that live and die together (the
 * model's nodes and strings), carved from big zeroed chunks and released
 * at once.  No per-allocation header and no per-allocation free, which on
 * a 100,000-node file is most of the cost of the model.
 */
struct arena_chunk;
struct arena {
	struct arena_chunk *chunks;
	char *cur;
	size_t left;
	size_t total;           /* bytes in all chunks: sizes the next one */
	/*
	 * The current chunk came from malloc, not zeroed: each allocation
	 * is zeroed as it is carved, rather than the whole chunk up front
	 * (a sweep's point, a small model, used a tenth of its first 64 KiB
	 * and paid for zeroing all of it).  Mapped chunks come zeroed.
	 */
	bool dirty;
	/*
	 * The first chunk's size, before anything is allocated (0: 64 KiB);
	 * a small arena then grows to 64 KiB before it takes huge pages.  A
	 * derived model (model_derive.h) holds a few copies in one.
	 */
	size_t first;
};

/* size zeroed bytes, aligned for any type; never NULL. */
void *arena_alloc(struct arena *a, size_t size);
/* A NUL-terminated copy of s[0..n) in the arena. */
char *arena_strndup(struct arena *a, const char *s, size_t n);
char *arena_strdup(struct arena *a, const char *s);
char *arena_printf(struct arena *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/*
 * vec_push for an array in the arena (*arr NULL or from arena_grow): when
 * full, it moves to a new one twice as long, and the old one stays, unused,
 * until the arena goes.  For arrays of a file's size (a pointer per node)
 * that live as long as the arena: on its huge pages they cost no page
 * fault per 4 KiB, for at most their own size again in old copies.
 */
void *arena_grow(struct arena *a, void *arr_ptr, size_t *n, size_t *cap, size_t elem);

static inline void *arena_push(struct arena *a, void *arr_ptr, size_t *n, size_t *cap,
			       size_t elem)
{
	if (*n == *cap)
		return arena_grow(a, arr_ptr, n, cap, elem);
	char *slot = *(char **)arr_ptr + *n * elem;
	memset(slot, 0, elem);
	(*n)++;
	return slot;
}
#define ARENA_PUSH(a, arr, n, cap) \
	((__typeof__(arr))arena_push((a), &(arr), &(n), &(cap), sizeof *(arr)))

/* Release every allocation at once; the arena is empty and reusable after. */
void arena_free(struct arena *a);

#endif
