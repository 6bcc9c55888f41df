/*
 * What a compile of a source module gave (rtc_nvrtc.h compiles): the
 * image, the symbols its name expressions were lowered to, and its form
 * in the compile cache.  No NVRTC here, so that the validator
 * (mod_check.c) and the back end read images in a build without the
 * CUDA toolkit too.
 *
 * Ownership: a struct rtc_image owns its image and names; rtc_image_free
 * releases them and accepts a zeroed one.
 */
#ifndef CGR_RTC_IMAGE_H
#define CGR_RTC_IMAGE_H

#include <stdbool.h>
#include <stddef.h>

#include "strlist.h"

/* What a source module compiled to. */
struct rtc_image {
	void *data;                     /* cubin, or PTX (NUL-terminated) */
	size_t size;
	bool ptx;
	struct strlist exprs, lowered;  /* name expression i -> its symbol */
	bool cached;                    /* read from the cache, not compiled */
	double seconds;                 /* compiling it (0 when cached) */
	/* after an unknown name: those names, and the kernels the source declares */
	struct strlist bad;
	char *kernels;
	/* rtc_settings.if_available: NVRTC could not be loaded (rtc_why says why) */
	bool no_nvrtc;
};

/* The symbol of a name expression of the image, or NULL. */
const char *rtc_lowered(const struct rtc_image *im, const char *expr);

void rtc_image_free(struct rtc_image *im);

/* Serialize an image for the cache, and back (false: not an image). */
void *rtc_image_pack(const struct rtc_image *im, size_t *len);
bool rtc_image_unpack(const void *data, size_t len, struct rtc_image *im);

#endif
