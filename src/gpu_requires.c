/*
 * The machine's facts for a file's requires: (gpu.h: gpu_device_facts;
 * requires.h judges them).  The driver is opened only when it is there:
 * a machine without one gets facts that meet no requirement of the
 * device, and no error message, since the file is then skipped.  And the
 * driver's own version, which the test-only CUGRAPHRUN_TEST_DRIVER_VERSION
 * does not change (gpu_driver_version_real).
 */
#include "config.h"

#include <dlfcn.h>
#include <string.h>

#include "cuda_api.h"
#include "gpu.h"
#include "requires.h"

void gpu_device_facts(const struct run_settings *s, struct device_facts *f)
{
	memset(f, 0, sizeof *f);
	f->ordinal = s->device;
	/* is there a driver at all?  (cu_open would say "no CUDA driver found") */
	void *probe = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
	if (probe == NULL)
		return;
	dlclose(probe);
	int count = 0;
	if (!cu_open() || cu.Init(0) != CUDA_SUCCESS || cu.DeviceGetCount(&count) != CUDA_SUCCESS)
		return;
	f->driver = true;
	f->driver_version = cu.driver_version;
	unsigned usable = 0;
	for (int i = 0; i < count && i < 64; i++)
		usable += s->device_mask == 0 || (s->device_mask & (1ull << i));
	f->gpus = s->device_mask ? usable : (unsigned)count;
	CUdevice dev;
	if (s->device >= count || cu.DeviceGet(&dev, s->device) != CUDA_SUCCESS)
		return;
	f->device = true;
	cu.DeviceGetName(f->name, (int)sizeof f->name, dev);
	cu.DeviceGetAttribute(&f->cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
	cu.DeviceGetAttribute(&f->cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
	size_t bytes = 0;
	if (cu.DeviceTotalMem && cu.DeviceTotalMem(&bytes, dev) == CUDA_SUCCESS)
		f->memory = bytes;
}

int gpu_driver_version_real(void)
{
	int v = 0;
	void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
	if (lib == NULL)
		return cu.driver_version;
	int (*get)(int *) = NULL;
	void *sym = dlsym(lib, "cuDriverGetVersion");
	memcpy(&get, &sym, sizeof get);
	if (get == NULL || get(&v) != 0)
		v = cu.driver_version;
	dlclose(lib);
	return v;
}
