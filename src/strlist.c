/*
 * Lists of owned strings (strlist.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "strlist.h"
#include "xmalloc.h"

void strlist_add(struct strlist *l, const char *s)
{
	*VEC_PUSH(l->v, l->n, l->cap) = xstrdup(s);
}

void strlist_free(struct strlist *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void strlist_sort(struct strlist *l)
{
	if (l->n)
		qsort(l->v, l->n, sizeof *l->v, cmp_str);
}
