/*
 * A file's requirements (requires.h).
 */
#include "config.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "requires.h"
#include "scalar.h"
#include "strlist.h"
#include "toolkit_lib.h"
#include "xmalloc.h"

bool requires_device(const struct requirements *r)
{
	return r->has_cc || r->has_driver || r->has_gpus || r->has_memory;
}

/* "GPU 0 (NVIDIA H100 80GB HBM3)" */
static void gpu_words(const struct device_facts *f, char *buf, size_t len)
{
	snprintf(buf, len, "GPU %d (%s)", f->ordinal, f->name[0] ? f->name : "unnamed");
}

bool requires_unmet(const struct requirements *r, const struct device_facts *f, char *why,
		    size_t len)
{
	char gpu[200], a[48], b[48];
	if (requires_device(r) && (f == NULL || !f->driver)) {
		snprintf(why, len, "requires a GPU, and no CUDA driver could be loaded");
		return true;
	}
	if (r->has_driver && f->driver_version < r->driver) {
		snprintf(why, len, "requires a CUDA %d.%d driver or newer, and this one is CUDA %d.%d",
			 r->driver / 1000, r->driver % 1000 / 10, f->driver_version / 1000,
			 f->driver_version % 1000 / 10);
		return true;
	}
	if (r->has_gpus && f->gpus < r->gpus) {
		snprintf(why, len, "requires %" PRIu32 " GPUs, and the run has %u", r->gpus, f->gpus);
		return true;
	}
	if ((r->has_cc || r->has_memory) && !f->device) {
		snprintf(why, len, "requires a GPU %d, and there is none", f->ordinal);
		return true;
	}
	if (f)
		gpu_words(f, gpu, sizeof gpu);
	if (r->has_cc && (f->cc_major < r->cc_major ||
			  (f->cc_major == r->cc_major && f->cc_minor < r->cc_minor))) {
		snprintf(why, len, "requires compute capability %u.%u, and %s has %d.%d",
			 r->cc_major, r->cc_minor, gpu, f->cc_major, f->cc_minor);
		return true;
	}
	if (r->has_memory && f->memory < r->memory) {
		format_size(r->memory, a, sizeof a);
		format_size(f->memory, b, sizeof b);
		snprintf(why, len, "requires %s of device memory, and %s has %s", a, gpu, b);
		return true;
	}
	for (int i = 0; i < REQ_LIB_COUNT; i++) {
		if (!(r->libraries & (1u << i)))
			continue;
		char *path = requires_library_path((enum req_lib)i);
		free(path);
		if (path == NULL) {
			snprintf(why, len, "requires %s, which is nowhere cugraphrun looks for it "
				 "(LD_LIBRARY_PATH, the system's folders, $CUDA_HOME/lib64, "
				 "/usr/local/cuda/lib64)", req_lib_names[i]);
			return true;
		}
	}
	return false;
}

/* Each library's file names, the newest first. */
static const char *const lib_files[REQ_LIB_COUNT][4] = {
	[REQ_CUBLAS] = {"libcublas.so.13", "libcublas.so.12"},
	[REQ_CUBLASLT] = {"libcublasLt.so.13", "libcublasLt.so.12"},
	[REQ_CUFFT] = {"libcufft.so.12", "libcufft.so.11"},
	[REQ_CUSPARSE] = {"libcusparse.so.12"},
	[REQ_CURAND] = {"libcurand.so.10"},
};

/* The toolkit's folders after the loader's, as for NVRTC (toolkit_lib.c). */
static const char *const toolkit_dirs[] = {"CUDA_HOME", "CUDA_PATH"};

char *requires_library_path(enum req_lib lib)
{
	/* NVRTC and CUPTI are found as their own users find them */
	if (lib == REQ_NVRTC)
		return toolkit_lib_find(TOOLKIT_NVRTC, NULL, NULL);
	if (lib == REQ_CUPTI)
		return toolkit_lib_find(TOOLKIT_CUPTI, NULL, NULL);
	struct strlist dirs = {0};
	toolkit_lib_loader_dirs(&dirs);
	for (size_t i = 0; i < sizeof toolkit_dirs / sizeof *toolkit_dirs; i++) {
		const char *root = getenv(toolkit_dirs[i]);
		if (root && *root) {
			char *d = xasprintf("%s/lib64", root);
			strlist_add(&dirs, d);
			free(d);
		}
	}
	strlist_add(&dirs, "/usr/local/cuda/lib64");
	char *found = NULL;
	for (size_t k = 0; k < 4 && lib_files[lib][k] && found == NULL; k++)
		for (size_t i = 0; i < dirs.n && found == NULL; i++) {
			char *p = xasprintf("%s/%s", dirs.v[i], lib_files[lib][k]);
			found = realpath(p, NULL);
			free(p);
		}
	strlist_free(&dirs);
	return found;
}
