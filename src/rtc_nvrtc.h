/*
 * NVRTC, opened at run time, and the compilation of CUDA C++ source
 * modules through the compile cache.  cugraphrun never links libnvrtc: it
 * looks for libnvrtc.so.N, N from 15 down to 12, where the loader would
 * (LD_LIBRARY_PATH, /etc/ld.so.conf, the system's folders), then beside
 * $CUDA_HOME, $CUDA_PATH and /usr/local/cuda (toolkit_lib.h;
 * CUGRAPHRUN_NVRTC names one library file instead), and dlopen()s that
 * file when a module must be compiled, not when the cache has it; so the
 * program starts, validates and describes without NVRTC.  <nvrtc.h> is
 * included in rtc_nvrtc.c and nowhere else.  The library stays loaded until
 * exit; nothing owns it.
 *
 * What a compile gives, an image (its names, the cache's form), is
 * rtc_image.h's, without NVRTC; a build without the CUDA toolkit has
 * rtc_nvrtc_none.c in place of rtc_nvrtc.c, where NVRTC cannot be had.
 */
#ifndef CGR_RTC_NVRTC_H
#define CGR_RTC_NVRTC_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "model.h"
#include "rtc_image.h"
#include "rtc_source.h"

struct rtc_settings {
	bool use_cache;                 /* false: --no-cache */
	bool verbose;
	/*
	 * --validate, which compiles only to check: without NVRTC (and no
	 * cache entry) return 3 with out->no_nvrtc set and nothing printed.
	 */
	bool if_available;
};

/*
 * Compile module m (a source) for compute capability major.minor with
 * names[0..n) as name expressions, or take it from the cache.  Returns 0;
 * 2 after a compile error (printed at the module with the options and
 * the compiler's log) or when some names are unknown (out->bad, not
 * printed: the caller reports them at its kernel nodes); 3 when NVRTC
 * cannot be had or fails.
 */
int rtc_compile(const struct module *m, const char *const *names, size_t n, int major,
		int minor, const struct rtc_settings *s, struct rtc_image *out, struct diag *d);

/* Whether NVRTC can be loaded (opens it on the first call). */
bool rtc_available(void);
/* Its version as a CUDA version (12080 for 12.8), or 0 when it cannot be loaded. */
int rtc_version(void);

/* The oldest NVRTC cugraphrun loads, as cuDriverGetVersion counts (12.0). */
#define RTC_MIN_CUDA 12000
/* Why it cannot be, after rtc_available() or rtc_compile() found so. */
const char *rtc_why(void);

#endif
