/*
 * A JSON text as a tree of values (json_tree.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "json_tree.h"

/* The value at the parser's mark into v; its collections sized exactly (jr_count). */
static bool value(struct jr *p, struct arena *a, struct jv *v)
{
	enum jtype t;
	if (!jr_peek(p, &t))
		return false;
	v->type = t;
	v->pos = jr_pos_of(p, jr_here(p));
	if (t != JARR && t != JOBJ) {
		struct jscalar s;
		if (!jr_scalar(p, &s))
			return false;
		v->text = arena_strndup(a, s.text, s.len);
		v->num = s.num;
		v->b = s.b;
		return true;
	}
	size_t n;
	if (!jr_count(p, &n) || !jr_begin(p))
		return false;
	v->items = arena_alloc(a, (n ? n : 1) * sizeof *v->items);
	if (t == JOBJ)
		v->keys = arena_alloc(a, (n ? n : 1) * sizeof *v->keys);
	const char *key;
	size_t klen;
	while (t == JOBJ ? jr_next_key(p, &key, &klen) : jr_next_item(p)) {
		if (t == JOBJ)
			v->keys[v->n] = arena_strndup(a, key, klen);
		if (!value(p, a, &v->items[v->n++]))
			return false;
	}
	return !jr_failed(p);
}

struct jdoc *jdoc_parse(const char *name, const char *text, size_t len, struct diag *d)
{
	(void)name;
	struct jdoc *doc = xcalloc(1, sizeof *doc);
	struct jr p;
	jr_init(&p, text, len, d);
	doc->root = arena_alloc(&doc->arena, sizeof *doc->root);
	bool ok = value(&p, &doc->arena, doc->root) && jr_end(&p);
	jr_free(&p);
	if (!ok) {
		jdoc_free(doc);
		return NULL;
	}
	return doc;
}

void jdoc_free(struct jdoc *doc)
{
	if (doc == NULL)
		return;
	arena_free(&doc->arena);
	free(doc);
}

const struct jv *jv_get(const struct jv *obj, const char *key)
{
	if (obj == NULL || obj->type != JOBJ)
		return NULL;
	for (size_t i = 0; i < obj->n; i++)
		if (strcmp(obj->keys[i], key) == 0)
			return &obj->items[i];
	return NULL;
}
