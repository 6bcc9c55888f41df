/*
 * Suites: many graph files in one call (cugraphrun(1) SUITES).  The parent
 * expands the operands (a directory gives every *.yaml under it, sorted),
 * keeps its --shard, and hands the files one at a time to worker
 * processes, -j per GPU.  Workers are forked before any CUDA call and the
 * parent never calls CUDA: fork after cuInit breaks CUDA in the child.
 * Each worker starts the driver once, holds its GPU's primary context for
 * its whole life and runs file after file, its output captured per file;
 * a worker whose file ended in 3 or 124 (the context may be wedged, or a
 * launch never ends) leaves, and a fresh one takes the remaining files.
 * The parent prints each file's output whole, in file order, then the
 * summary line; writes --junit and --json; returns the worst status.
 */
#ifndef CGR_SUITE_H
#define CGR_SUITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cli.h"

/* What one file came to besides its exit status (run.skip, run.expect). */
struct file_outcome {
	bool skipped;                   /* run.skip: read and checked, not run */
	bool xfail;                     /* run.expect: fail, and a check failed */
	char note[256];                 /* the skip reason */
	uint32_t clashed;               /* the outputs that are files it reads (outputs.h) */
};

/*
 * Runs o->file as the single-file command does and returns its exit
 * status; fo is NULL for the single-file command.  (main's, handed in.)
 */
typedef int run_file_fn(const struct options *o, struct file_outcome *fo);

/* True when the command line asks for a suite rather than one file. */
bool suite_wanted(const struct options *o);

/* Runs the suite and returns the exit status: the worst of the files'. */
int suite_main(const struct options *o, run_file_fn *run_file);

#endif
