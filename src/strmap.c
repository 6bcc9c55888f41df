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
	size_t cap;             /* power of two */
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
	/* Room for expected keys below the 3/4 load that put() keeps. */
	m->cap = 16;
	while (m->cap * 3 < expected * 4)
		m->cap *= 2;
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

static struct slot *find(const struct strmap *m, const char *key, uint32_t h)
{
	size_t mask = m->cap - 1;
	for (size_t i = h & mask;; i = (i + 1) & mask) {
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
