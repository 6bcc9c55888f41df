/*
 * The contract between the front end and the GPU back end: everything a
 * run needs besides the validated definition, settled before the GPU is
 * touched.  main.c fills it from the command line over the file's run:
 * section; gpu_run and the launches, checks and outputs under it read
 * nothing else.  The command line's struct options never reaches the back
 * end.
 *
 * Ownership: the settings borrow their strings and the dump list (argv's
 * and the options').
 */
#ifndef CGR_RUN_SETTINGS_H
#define CGR_RUN_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum verbosity { VERB_QUIET = -1, VERB_NORMAL = 0, VERB_VERBOSE = 1 };

struct report;

/* --dump=BUF=FILE */
struct dump_req {
	const char *buffer;
	const char *file;
	size_t buffer_len;
};

/* What a run writes besides its report on stdout; NULL or 0 when not asked for. */
struct run_outputs {
	const char *dot;                /* --dot: the driver's DOT */
	unsigned dot_flags;             /* CU_GRAPH_DEBUG_DOT_FLAGS_* bits */
	const struct dump_req *dumps;   /* --dump, after the verification launch */
	size_t ndumps;
	bool json;                      /* --json: the report as JSON */
	const char *json_file;          /* NULL: stdout */
	const char *trace;              /* --trace: the profiled launches */
	const char *describe;           /* --describe with --profile: coloured by it */
	bool describe_buffers;
};

struct run_settings {
	uint32_t repeat;                /* default 100 */
	uint32_t warmup;                /* default 3 */
	int device;                     /* default 0 */
	uint64_t timeout_ns;            /* 0: none */
	bool timeout_from_file;         /* run.timeout set it, not --timeout */
	unsigned instantiate;           /* enum inst_flag bits */
	bool profile;                   /* --profile: launches with CUPTI after the timed ones */
	uint32_t profile_launches;
	bool no_cache;                  /* --no-cache: compile source modules afresh */
	enum verbosity verbosity;
	double frontend_s;              /* reading and validating the file */
	struct run_outputs out;
	/*
	 * Called once as the run ends, whatever its status, with the report
	 * as far as the run filled it, also on a timeout just before the
	 * process leaves: the front end settles the status (run.expect) and
	 * writes --json there.  Returns the status the run ends with.  NULL:
	 * the status stands and no JSON is written.
	 */
	int (*finish)(struct report *rep, int status, void *arg);
	void *finish_arg;
};

#endif
