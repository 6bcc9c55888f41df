#include "config.h"

#include "gpu.h"

/* Built without cuda.h: the front end works, a run cannot. */
int gpu_run(struct gdef *g, const struct run_settings *s, struct diag *d)
{
	(void)g; (void)s; (void)d;
	errorx("this cugraphrun was built without the GPU back end "
	       "(configure found no CUDA 12.8+ headers; see --with-cuda)");
	return 3;
}

int gpu_run_sweep(const struct sweep *sw, const struct run_settings *s, struct diag *d)
{
	(void)sw;
	return gpu_run(NULL, s, d);
}

/* No driver to start: each file of a suite says so itself. */
int gpu_worker_init(int device)
{
	(void)device;
	return -1;
}
