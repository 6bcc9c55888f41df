#include "config.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xmalloc.h"

static void __attribute__((noreturn)) oom(size_t size)
{
	fprintf(stderr, "cugraphrun: out of memory (allocating %zu bytes)\n", size);
	exit(3);
}

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
