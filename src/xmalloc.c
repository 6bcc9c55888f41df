#include "config.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "xmalloc.h"

void xmalloc_failed(size_t size)
{
	/* no formatting that allocates: the message is all there is room for */
	fprintf(stderr, "cugraphrun: error: out of memory (allocating %zu bytes)\n", size);
	exit(EXIT_NO_MEMORY);
}

#define oom xmalloc_failed

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);
	if (p == NULL)
		oom(size);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (p == NULL)
		oom(n * size);
	return p;
}

void *xreallocarray(void *p, size_t n, size_t size)
{
	if (size != 0 && n > SIZE_MAX / size)
		oom(SIZE_MAX);
	void *q = realloc(p, n * size != 0 ? n * size : 1);
	if (q == NULL)
		oom(n * size);
	return q;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (len < 0)
		oom(0);
	char *s = xmalloc((size_t)len + 1);
	va_start(ap, fmt);
	vsnprintf(s, (size_t)len + 1, fmt, ap);
	va_end(ap);
	return s;
}

void *xgrow(void *arr_ptr, size_t *n, size_t *cap, size_t elem)
{
	char **arr = arr_ptr;
	if (*n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 4;
		*arr = xreallocarray(*arr, ncap, elem);
		*cap = ncap;
	}
	char *slot = *arr + *n * elem;
	memset(slot, 0, elem);
	(*n)++;
	return slot;
}

struct arena_chunk {
	struct arena_chunk *next;
	size_t mapped;          /* bytes mmap'd (huge-page chunks), or 0: calloc'd */
	/* the allocations follow, max_align_t-aligned */
};

/*
 * Chunks of a huge page or more are mapped on huge-page boundaries and
 * offered to transparent huge pages: on a 100,000-node file the model is
 * some 30 MB, and faulting it in 4 KiB pages (one trap and one zeroed page
 * each, ~8,000 of them) cost more than building it.
 */
#define ARENA_HUGE ((size_t)2 << 20)

static struct arena_chunk *chunk_new(size_t size)
{
	struct arena_chunk *c;
#if defined(MADV_HUGEPAGE) && defined(MAP_ANONYMOUS)
	if (size >= ARENA_HUGE) {
		size = (size + ARENA_HUGE - 1) / ARENA_HUGE * ARENA_HUGE;
		/* Map one huge page more, then trim to an aligned size bytes. */
		char *p = mmap(NULL, size + ARENA_HUGE, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (p == MAP_FAILED)
			oom(size);
		size_t head = (size_t)(-(uintptr_t)p) & (ARENA_HUGE - 1);
		if (head)
			munmap(p, head);
		munmap(p + head + size, ARENA_HUGE - head);
		c = (struct arena_chunk *)(p + head);
		/* Advice only: without huge pages the chunk works the same. */
		madvise(c, size, MADV_HUGEPAGE);
		c->mapped = size;
		return c;
	}
#endif
	/* not zeroed here: carve zeroes what it hands out (see struct arena's dirty) */
	c = xmalloc(size);
	c->mapped = 0;
	return c;
}

#define ARENA_ALIGN _Alignof(max_align_t)
#define ARENA_HEADER ((sizeof(struct arena_chunk) + ARENA_ALIGN - 1) / ARENA_ALIGN * ARENA_ALIGN)

/*
 * size bytes at a multiple of align (a power of two), from a new chunk if
 * need be; zeroed with zero (strings are written whole at once).
 */
static inline void *carve(struct arena *a, size_t size, size_t align, bool zero)
{
	size_t pad = (size_t)(-(uintptr_t)a->cur) & (align - 1);
	if (a->cur == NULL || pad + size > a->left) {
		/*
		 * A small file fits in the first chunk, of 64 KiB.  Past it the
		 * chunks are huge pages (here a 2 MiB page costs the time of
		 * some twenty 4 KiB page faults, for 512 times the bytes),
		 * growing with the arena up to 4 MiB; all come zeroed (chunk_new).
		 */
		size_t chunk = a->total == 0 ? (a->first ? a->first : 64u << 10) :
			a->total < (64u << 10) ? (64u << 10) :
			a->total < ARENA_HUGE ? ARENA_HUGE :
			a->total > (4u << 20) ? (4u << 20) : a->total;
		if (chunk < size + ARENA_HEADER)
			chunk = size + ARENA_HEADER;
		struct arena_chunk *c = chunk_new(chunk);
		c->next = a->chunks;
		a->chunks = c;
		a->cur = (char *)c + ARENA_HEADER;
		a->left = chunk - ARENA_HEADER;
		a->total += chunk;
		a->dirty = c->mapped == 0;
		pad = 0;
	}
	void *p = a->cur + pad;
	a->cur += pad + size;
	a->left -= pad + size;
	if (zero && a->dirty)
		memset(p, 0, size);
	return p;
}

void *arena_alloc(struct arena *a, size_t size)
{
	return carve(a, size ? size : 1, ARENA_ALIGN, true);
}

char *arena_strndup(struct arena *a, const char *s, size_t n)
{
	/* Strings need no alignment, so they pack byte to byte. */
	char *p = carve(a, n + 1, 1, false);
	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *arena_strdup(struct arena *a, const char *s)
{
	return arena_strndup(a, s, strlen(s));
}

char *arena_printf(struct arena *a, const char *fmt, ...)
{
	char small[64];
	va_list ap;
	va_start(ap, fmt);
	int len = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (len < 0)
		oom(0);
	char *p = carve(a, (size_t)len + 1, 1, false);
	if ((size_t)len < sizeof small) {
		memcpy(p, small, (size_t)len + 1);
	} else {
		va_start(ap, fmt);
		vsnprintf(p, (size_t)len + 1, fmt, ap);
		va_end(ap);
	}
	return p;
}

void *arena_grow(struct arena *a, void *arr_ptr, size_t *n, size_t *cap, size_t elem)
{
	char **arr = arr_ptr;
	if (*n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 16;
		if (ncap > SIZE_MAX / elem)
			oom(SIZE_MAX);
		char *grown = carve(a, ncap * elem, ARENA_ALIGN, false);
		if (*n)
			memcpy(grown, *arr, *n * elem);
		*arr = grown;
		*cap = ncap;
	}
	/* Each slot is zeroed as it is taken (the array's tail is not, until then). */
	char *slot = *arr + *n * elem;
	memset(slot, 0, elem);
	(*n)++;
	return slot;
}

void arena_free(struct arena *a)
{
	struct arena_chunk *c = a->chunks;
	while (c) {
		struct arena_chunk *next = c->next;
		if (c->mapped)
			munmap(c, c->mapped);
		else
			free(c);
		c = next;
	}
	size_t first = a->first;
	memset(a, 0, sizeof *a);
	a->first = first;
}
