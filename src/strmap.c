#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "strmap.h"
#include "xmalloc.h"

/* 16 bytes: values are indices into the model's arrays, well under 2^31. */
struct slot {
	const char *key;        /* NULL: empty */
	uint32_t hash;
	int32_t value;
};

struct strmap {
	struct slot *slots;
	size_t cap;             /* any size: see home() */
	size_t n;
};

/* FNV-1a: short keys, no adversary worth a keyed hash here. */
static uint32_t fnv1a(const char *s)
{
	uint32_t h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

struct strmap *strmap_new(size_t expected)
{
	struct strmap *m = xcalloc(1, sizeof *m);
	/*
	 * Room for expected keys within the 3/4 load that put() keeps, and
	 * no more: rounded up to a power of two, 100,000 node ids took
	 * 262,144 slots (4 MB, touched at random) where 133,334 do.
	 */
	m->cap = expected / 3 * 4 + expected % 3 * 4 / 3 + 1;
	if (m->cap < 16)
		m->cap = 16;
	m->slots = xcalloc(m->cap, sizeof *m->slots);
	return m;
}

void strmap_free(struct strmap *m)
{
	if (m == NULL)
		return;
	free(m->slots);
	free(m);
}

/*
 * Where h's probe starts: h scaled to [0, cap) by a multiply, so that cap
 * need not be a power of two (and the hash's high bits, FNV's best mixed,
 * choose the slot).
 */
static size_t home(const struct strmap *m, uint32_t h)
{
	return (size_t)(((uint64_t)h * m->cap) >> 32);
}

static struct slot *find(const struct strmap *m, const char *key, uint32_t h)
{
	for (size_t i = home(m, h);; i = i + 1 == m->cap ? 0 : i + 1) {
		struct slot *s = &m->slots[i];
		if (s->key == NULL || (s->hash == h && strcmp(s->key, key) == 0))
			return s;
	}
}

static void grow(struct strmap *m)
{
	struct slot *old = m->slots;
	size_t oldcap = m->cap;
	m->cap *= 2;
	m->slots = xcalloc(m->cap, sizeof *m->slots);
	for (size_t i = 0; i < oldcap; i++)
		if (old[i].key)
			*find(m, old[i].key, old[i].hash) = old[i];
	free(old);
}

bool strmap_put(struct strmap *m, const char *key, long value, long *old)
{
	if ((m->n + 1) * 4 > m->cap * 3)
		grow(m);
	uint32_t h = fnv1a(key);
	struct slot *s = find(m, key, h);
	if (s->key) {
		if (old)
			*old = s->value;
		return false;
	}
	s->key = key;
	s->hash = h;
	s->value = (int32_t)value;
	m->n++;
	return true;
}

long strmap_get(const struct strmap *m, const char *key)
{
	if (m == NULL)
		return -1;
	const struct slot *s = find(m, key, fnv1a(key));
	return s->key ? s->value : -1;
}

size_t strmap_size(const struct strmap *m)
{
	return m ? m->n : 0;
}
