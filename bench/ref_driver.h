/*
 * The hand-written driver-API programs of bench/ (gpu_ref, sweep_ref,
 * update_rules): libcuda opened and each program's own table of entry
 * points filled through cuGetProcAddress, and the few helpers they share.
 * None of cugraphrun's code: a reference stays independent of the tool it
 * measures.  Every failure prints "PROG: why" and exits (3 for the
 * driver, 2 for a file).
 */
#ifndef CGR_BENCH_REF_DRIVER_H
#define CGR_BENCH_REF_DRIVER_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

/* One entry point: its name, its ABI version, where it goes in the table. */
struct ref_entry {
	const char *name;
	int version;
	size_t offset;
};
/* An entry of table (a struct of PFN_cu* members named without "cu"). */
#define REF_ENTRY(table, name, ver) {"cu" #name, ver, offsetof(__typeof__(table), name)}

/* A driver call that must succeed: else prog says which failed, and exits 3. */
#define REF_CK(prog, call)                                                      \
	do {                                                                    \
		int r_ = (int)(call);                                           \
		if (r_ != 0) {                                                  \
			fprintf(stderr, "%s: %s failed: %d\n", prog, #call, r_);  \
			exit(3);                                                \
		}                                                               \
	} while (0)

/* Fill table from the driver's entry points e[0..n). */
void ref_load_driver(const char *prog, void *table, const struct ref_entry *e, size_t n);

/* The whole file, NUL-terminated, malloc'd. */
char *ref_read_file(const char *prog, const char *path);

/* CLOCK_MONOTONIC in seconds. */
double ref_now_s(void);

/* For qsort: ascending doubles. */
int ref_cmp_double(const void *a, const void *b);

#endif
