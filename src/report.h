/*
 * The run report: statistics over launch times, and their printing as the
 * human-readable report (stdout) and as JSON.  No CUDA here: the GPU back
 * end fills a struct report and hands it over.  The report does not own the
 * strings and arrays it points to.
 */
#ifndef CGR_REPORT_H
#define CGR_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "model.h"

struct prof_summary;

struct stats {
	double median, min, mean, max, stddev; /* seconds */
};

/* Statistics over n samples (seconds); zeros when n is 0. */
void stats_compute(const double *samples, size_t n, struct stats *out);

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
};

void report_print_human(FILE *out, const struct report *r);
void report_print_json(FILE *out, const struct report *r);

/*
 * s as a JSON string (null for NULL): escapes, UTF-8 passed through, a
 * byte that is no UTF-8 written as U+FFFD; for every JSON the tool writes.
 */
void report_json_string(FILE *out, const char *s);

#endif
