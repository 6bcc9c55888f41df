/*
 * The run report: one run's figures, printed as the human-readable
 * report (stdout) and as JSON (json.h writes the primitives, stats.h
 * summarizes the samples).  No CUDA here: the GPU back
 * end fills a struct report and hands it over.  The report does not own the
 * strings and arrays it points to.
 */
#ifndef CGR_REPORT_H
#define CGR_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "diag.h"
#include "model.h"
#include "stats.h"

struct prof_summary;

/* Elapsed time between two recorded events, in seconds. */
struct event_span {
	const char *from, *to;
	double seconds;
};

struct report {
	const char *name;               /* the file's name:, or NULL */
	const char *file;
	int device;
	const char *device_name;
	int cc_major, cc_minor;
	int driver_version;             /* as cuDriverGetVersion: 13000 */
	const struct graph *root;       /* for node counts */
	double load_s, build_s, instantiate_s, upload_s;
	/* source modules compiled with NVRTC or found in the cache (0: none) */
	unsigned compile_modules, compile_cached;
	double compile_s;               /* that phase's wall time */
	double first_launch_s;
	uint32_t warmup;
	const double *samples;          /* timed launches, seconds */
	size_t nsamples;
	const struct event_span *spans;
	size_t nspans;
	unsigned checks_passed, checks_failed;
	int exit_status;
	const struct prof_summary *profile;     /* --profile, or NULL */
	/* the verification launch did not run (an invalid file, a CUDA error before it) */
	bool no_launch;
	/* diagnostics: what d printed, its log (diag_log), or NULL for none */
	const struct diag *diag;
};

void report_print_human(FILE *out, const struct report *r);
void report_print_json(FILE *out, const struct report *r);
/* report_print_json into path (NULL: standard output).  0, or 2 after a message. */
int report_write_json(const char *path, const struct report *r);

#endif
