/*
 * Built without the CUDA toolkit's headers: no NVRTC to load.  A run never
 * gets here (it cannot start without the GPU back end); --validate notes,
 * under -v, that CUDA C++ modules were not compiled.
 */
#include "config.h"

#include <string.h>

#include "rtc_nvrtc.h"

int rtc_compile(const struct module *m, const char *const *names, size_t n, int major,
		int minor, const struct rtc_settings *s, struct rtc_image *out, struct diag *d)
{
	(void)names; (void)n; (void)major; (void)minor;
	memset(out, 0, sizeof *out);
	out->no_nvrtc = s->if_available;
	if (!s->if_available)
		diag_error(d, m->file_pos, "module '%s' ('%s') is CUDA C++ to compile at run time, "
			   "but %s", m->name, m->file, rtc_why());
	return 3;
}

bool rtc_available(void)
{
	return false;
}

int rtc_version(void)
{
	return 0;
}

const char *rtc_why(void)
{
	return "this cugraphrun was built without the CUDA toolkit (see --with-cuda)";
}
