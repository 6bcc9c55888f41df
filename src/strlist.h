/*
 * A growable list of owned strings: compiler options, include folders,
 * library folders.  A zeroed struct strlist is an empty list; strlist_free
 * releases every string and leaves it empty again.
 */
#ifndef CGR_STRLIST_H
#define CGR_STRLIST_H

#include <stddef.h>

struct strlist {
	char **v;
	size_t n, cap;
};

/* Append a copy of s. */
void strlist_add(struct strlist *l, const char *s);
void strlist_free(struct strlist *l);
/* Sort the strings in strcmp order. */
void strlist_sort(struct strlist *l);

#endif
