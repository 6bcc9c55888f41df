#include "config.h"

#include <string.h>

#include "gpu.h"
#include "requires.h"

/* Built without cuda.h: the front end works, a run cannot. */
int gpu_run(struct gdef *g, const struct run_settings *s, struct diag *d)
{
	(void)g; (void)s; (void)d;
	errorx("this cugraphrun was built without the GPU back end "
	       "(configure found no CUDA 12.8+ headers; see --with-cuda)");
	return 3;
}

/* No driver to count GPUs with: gpu_run says why the file cannot run. */
bool gpu_too_few(const struct gdef *g, const struct run_settings *s, char *why, size_t len)
{
	(void)g; (void)s; (void)why; (void)len;
	return false;
}

/* No driver: every requirement of the device is unmet (requires.h). */
void gpu_device_facts(const struct run_settings *s, struct device_facts *f)
{
	memset(f, 0, sizeof *f);
	f->ordinal = s->device;
}

int gpu_run_sweep(const struct sweep *sw, const struct run_settings *s, struct diag *d)
{
	(void)sw;
	return gpu_run(NULL, s, d);
}

int gpu_driver_version_real(void)
{
	return 0;
}

int gpu_run_modes(const struct sweep *sw, const struct run_settings *s,
		  const struct mode_list *list, struct diag *d)
{
	(void)sw;
	(void)list;
	return gpu_run(NULL, s, d);
}

/* No driver to start: the suite says so once. */
int gpu_worker_init(int device)
{
	(void)device;
	errorx("this cugraphrun was built without the GPU back end "
	       "(configure found no CUDA 12.8+ headers; see --with-cuda)");
	return -1;
}
