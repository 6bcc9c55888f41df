/*
 * Pointer-keyed hash map (ptrmap.h): open addressing with linear probing,
 * a power-of-two table kept at most half full.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>

#include "ptrmap.h"
#include "xmalloc.h"

struct pslot {
	const void *key;        /* NULL: empty */
	size_t value;
};

struct ptrmap {
	struct pslot *slots;
	size_t mask;            /* capacity - 1 */
	unsigned shift;         /* 64 - log2(capacity) */
	size_t n;
};

/*
 * Fibonacci hashing: the product's top bits, in which every bit of the
 * address is mixed (its low bits are alignment, the same for all).
 */
static size_t home(const struct ptrmap *m, const void *key)
{
	uint64_t h = (uint64_t)(uintptr_t)key * UINT64_C(0x9e3779b97f4a7c15);
	return (size_t)(h >> m->shift);
}

static void alloc_slots(struct ptrmap *m, size_t cap)
{
	m->slots = xcalloc(cap, sizeof *m->slots);
	m->mask = cap - 1;
	m->shift = 64;
	for (size_t c = cap; c > 1; c /= 2)
		m->shift--;
}

struct ptrmap *ptrmap_new(size_t expected)
{
	struct ptrmap *m = xcalloc(1, sizeof *m);
	size_t cap = 16;
	while (cap / 2 < expected)
		cap *= 2;
	alloc_slots(m, cap);
	return m;
}

void ptrmap_free(struct ptrmap *m)
{
	if (m == NULL)
		return;
	free(m->slots);
	free(m);
}

static void grow(struct ptrmap *m)
{
	struct pslot *old = m->slots;
	size_t cap = m->mask + 1;
	alloc_slots(m, cap * 2);
	m->n = 0;
	for (size_t i = 0; i < cap; i++)
		if (old[i].key)
			ptrmap_put(m, old[i].key, old[i].value);
	free(old);
}

void ptrmap_put(struct ptrmap *m, const void *key, size_t value)
{
	if ((m->n + 1) * 2 > m->mask + 1)
		grow(m);
	size_t i = home(m, key);
	while (m->slots[i].key && m->slots[i].key != key)
		i = (i + 1) & m->mask;
	if (m->slots[i].key == NULL)
		m->n++;
	m->slots[i].key = key;
	m->slots[i].value = value;
}

long ptrmap_get(const struct ptrmap *m, const void *key)
{
	for (size_t i = home(m, key); m->slots[i].key; i = (i + 1) & m->mask)
		if (m->slots[i].key == key)
			return (long)m->slots[i].value;
	return -1;
}
