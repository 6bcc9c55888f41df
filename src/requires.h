/*
 * A file's requires: judged on the machine that would run it
 * (cugraphrun(5), Requirements).  A requirement not met skips the file:
 * a plain run prints why and exits 77, a suite counts it as skipped (a
 * JUnit <skipped>), instead of an error when a module loads.
 *
 *   compute_capability  the run's GPU (device 0 of the file) has at
 *                       least this one (9.0 takes 9.0, 10.0, 12.1, ...)
 *   driver              the CUDA driver is at least this version
 *   gpus                the run may use at least this many GPUs: the
 *                       machine's, or a suite's --devices list's
 *   memory              the run's GPU has at least this much memory
 *   libraries           each library is found where cugraphrun would
 *                       open it (the loader's folders, then the
 *                       toolkit's), without loading it
 *
 * The GPU's facts come from the back end (gpu_device_facts, gpu.h), and
 * only when the file has a requirement of the device; where no CUDA
 * driver can be loaded, every one of them is unmet.  No CUDA here:
 * requires_unmet is a pure function of the facts, unit-tested without a
 * GPU.
 */
#ifndef CGR_REQUIRES_H
#define CGR_REQUIRES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model.h"

/* The exit status of a plain run skipped for a requirement (Automake's and Meson's SKIP). */
#define EXIT_SKIPPED 77

/* What the machine is, as far as a file's requirements ask. */
struct device_facts {
	bool driver;                    /* a CUDA driver was loaded */
	int driver_version;             /* cuDriverGetVersion's: 12080 */
	unsigned gpus;                  /* GPUs the run may use */
	bool device;                    /* the run's GPU is there (the rest below) */
	int ordinal;
	char name[128];
	int cc_major, cc_minor;
	uint64_t memory;                /* bytes */
};

/* Whether r asks anything of the device (so that its facts are needed). */
bool requires_device(const struct requirements *r);

/*
 * The first requirement of r that facts do not meet, in words for the
 * skip line ("requires compute capability 10.0, and GPU 0 (NVIDIA H100)
 * has 9.0"); false when all are met.  facts may be NULL when r asks
 * nothing of the device.
 */
bool requires_unmet(const struct requirements *r, const struct device_facts *facts,
		    char *why, size_t len);

/*
 * Where the library lib would be opened from (a malloc'd path), or NULL
 * when it is nowhere cugraphrun looks.
 */
char *requires_library_path(enum req_lib lib);

#endif
