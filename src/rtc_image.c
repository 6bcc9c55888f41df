/*
 * What a compile of a source module gave (rtc_image.h): its names, and
 * its form in the compile cache.
 */
#include "config.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "rtc_image.h"
#include "xmalloc.h"

void rtc_image_free(struct rtc_image *im)
{
	free(im->data);
	strlist_free(&im->exprs);
	strlist_free(&im->lowered);
	strlist_free(&im->bad);
	free(im->kernels);
	memset(im, 0, sizeof *im);
}

const char *rtc_lowered(const struct rtc_image *im, const char *expr)
{
	for (size_t i = 0; i < im->exprs.n; i++)
		if (strcmp(im->exprs.v[i], expr) == 0)
			return im->lowered.v[i];
	return NULL;
}

/* "cubin\n" or "ptx\n", the count, NUL-terminated pairs, then the image. */
void *rtc_image_pack(const struct rtc_image *im, size_t *len)
{
	size_t n = 64 + im->size;
	for (size_t i = 0; i < im->exprs.n; i++)
		n += strlen(im->exprs.v[i]) + strlen(im->lowered.v[i]) + 2;
	char *buf = xmalloc(n);
	size_t at = (size_t)snprintf(buf, n, "%s\n%zu\n", im->ptx ? "ptx" : "cubin", im->exprs.n);
	for (size_t i = 0; i < im->exprs.n; i++) {
		size_t a = strlen(im->exprs.v[i]) + 1, b = strlen(im->lowered.v[i]) + 1;
		memcpy(buf + at, im->exprs.v[i], a);
		memcpy(buf + at + a, im->lowered.v[i], b);
		at += a + b;
	}
	memcpy(buf + at, im->data, im->size);
	*len = at + im->size;
	return buf;
}

bool rtc_image_unpack(const void *data, size_t len, struct rtc_image *im)
{
	const char *p = data, *end = p + len;
	memset(im, 0, sizeof *im);
	/* "ptx\n" or "cubin\n", then the count and a newline, exactly */
	const char *nl = memchr(p, '\n', len < 8 ? len : 8);
	if (nl == NULL)
		return false;
	if (nl - p == 3 && memcmp(p, "ptx", 3) == 0)
		im->ptx = true;
	else if (!(nl - p == 5 && memcmp(p, "cubin", 5) == 0))
		return false;
	p = nl + 1;
	size_t count = 0;
	const char *digits = p;
	while (p < end && *p >= '0' && *p <= '9' && p - digits < 9)
		count = count * 10 + (size_t)(*p++ - '0');
	if (p == digits || p >= end || *p != '\n')
		return false;
	p++;
	for (size_t i = 0; i < count; i++) {
		const char *a = memchr(p, '\0', (size_t)(end - p));
		const char *b = a ? memchr(a + 1, '\0', (size_t)(end - a - 1)) : NULL;
		if (b == NULL) {
			rtc_image_free(im);
			return false;
		}
		strlist_add(&im->exprs, p);
		strlist_add(&im->lowered, a + 1);
		p = b + 1;
	}
	im->size = (size_t)(end - p);
	if (im->size == 0) {
		rtc_image_free(im);
		return false;
	}
	/* PTX is loaded as text: keep a NUL after it */
	im->data = xmalloc(im->size + 1);
	memcpy(im->data, p, im->size);
	((char *)im->data)[im->size] = '\0';
	return true;
}
