/*
 * Module listings shared by the points of a sweep (mod_cache.h).  A
 * sweep uses a module file or two: a list searched from the newest entry
 * serves.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "mod_cache.h"
#include "xmalloc.h"

struct entry {
	char *path;
	int sm;
	dev_t dev;
	ino_t ino;
	off_t size;
	struct timespec mtime;
	struct mod_listing l;
};

struct note {
	char *name, *path;
};

struct mod_cache {
	struct entry **v;               /* each its own block: mod_cache_add's answers stay put */
	size_t n, cap;
	struct note *notes;
	size_t nnotes, capnotes;
};

void mod_listing_index(struct mod_listing *l)
{
	const struct image_listing *il = &l->list;
	if (!il->complete || il->no_code || l->index)
		return;
	l->index = strmap_new(il->n);
	l->names = xcalloc(il->n ? il->n : 1, sizeof *l->names);
	for (size_t i = 0; i < il->n; i++) {
		strmap_put(l->index, il->v[i].name, (long)i, NULL);
		l->names[i] = il->v[i].name;
	}
}

void mod_listing_free(struct mod_listing *l)
{
	image_listing_free(&l->list);
	strmap_free(l->index);
	free(l->names);
	memset(l, 0, sizeof *l);
}

struct mod_cache *mod_cache_new(void)
{
	return xcalloc(1, sizeof(struct mod_cache));
}

void mod_cache_free(struct mod_cache *c)
{
	if (c == NULL)
		return;
	for (size_t i = 0; i < c->n; i++) {
		free(c->v[i]->path);
		mod_listing_free(&c->v[i]->l);
		free(c->v[i]);
	}
	free(c->v);
	for (size_t i = 0; i < c->nnotes; i++) {
		free(c->notes[i].name);
		free(c->notes[i].path);
	}
	free(c->notes);
	free(c);
}

static bool same_file(const struct entry *e, const char *path, int sm, const struct stat *st)
{
	return e->sm == sm && e->dev == st->st_dev && e->ino == st->st_ino &&
	       e->size == st->st_size && e->mtime.tv_sec == st->st_mtim.tv_sec &&
	       e->mtime.tv_nsec == st->st_mtim.tv_nsec && strcmp(e->path, path) == 0;
}

const struct mod_listing *mod_cache_find(const struct mod_cache *c, const char *path, int sm,
					 const struct stat *st)
{
	for (size_t i = c->n; i-- > 0;)
		if (same_file(c->v[i], path, sm, st))
			return &c->v[i]->l;
	return NULL;
}

const struct mod_listing *mod_cache_add(struct mod_cache *c, const char *path, int sm,
					const struct stat *st, struct mod_listing *l)
{
	struct entry *e = xcalloc(1, sizeof *e);
	*VEC_PUSH(c->v, c->n, c->cap) = e;
	e->path = xstrdup(path);
	e->sm = sm;
	e->dev = st->st_dev;
	e->ino = st->st_ino;
	e->size = st->st_size;
	e->mtime = st->st_mtim;
	e->l = *l;
	memset(l, 0, sizeof *l);
	return &e->l;
}

bool mod_cache_first_note(struct mod_cache *c, const char *name, const char *path)
{
	for (size_t i = 0; i < c->nnotes; i++)
		if (strcmp(c->notes[i].name, name) == 0 &&
		    strcmp(c->notes[i].path ? c->notes[i].path : "", path ? path : "") == 0)
			return false;
	struct note *nt = VEC_PUSH(c->notes, c->nnotes, c->capnotes);
	nt->name = xstrdup(name);
	nt->path = path ? xstrdup(path) : NULL;
	return true;
}
