/*
 * The reference programs' driver and helpers (ref_driver.h).
 */
#include "config.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda.h>
#include <cudaTypedefs.h>

#include "ref_driver.h"

void ref_load_driver(const char *prog, void *table, const struct ref_entry *e, size_t n)
{
	void *lib = dlopen("libcuda.so.1", RTLD_NOW);
	if (lib == NULL) {
		fprintf(stderr, "%s: no CUDA driver found (%s)\n", prog, dlerror());
		exit(3);
	}
	PFN_cuGetProcAddress_v12000 gpa =
		(PFN_cuGetProcAddress_v12000)dlsym(lib, "cuGetProcAddress_v2");
	if (gpa == NULL) {
		fprintf(stderr, "%s: driver older than CUDA 12.0\n", prog);
		exit(3);
	}
	for (size_t i = 0; i < n; i++) {
		void *fn = NULL;
		CUdriverProcAddressQueryResult found;
		if (gpa(e[i].name, &fn, e[i].version, CU_GET_PROC_ADDRESS_DEFAULT, &found) !=
		    CUDA_SUCCESS || fn == NULL) {
			fprintf(stderr, "%s: %s not found\n", prog, e[i].name);
			exit(3);
		}
		memcpy((char *)table + e[i].offset, &fn, sizeof fn);
	}
}

char *ref_read_file(const char *prog, const char *path)
{
	FILE *f = fopen(path, "rb");
	if (f == NULL) {
		fprintf(stderr, "%s: %s: cannot open it\n", prog, path);
		exit(2);
	}
	fseek(f, 0, SEEK_END);
	long len = ftell(f);
	rewind(f);
	char *buf = len >= 0 ? malloc((size_t)len + 1) : NULL;
	if (buf == NULL || fread(buf, 1, (size_t)len, f) != (size_t)len) {
		fprintf(stderr, "%s: %s: cannot read it\n", prog, path);
		exit(2);
	}
	buf[len] = '\0';
	fclose(f);
	return buf;
}

double ref_now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int ref_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}
