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

struct cmp_doc;
struct host_libs;

enum verbosity { VERB_QUIET = -1, VERB_NORMAL = 0, VERB_VERBOSE = 1 };

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
	const char *csv;                /* --csv: the rows ("-": standard output) */
	const char *plot;               /* --plot: gnuplot's SVG */
	const char *html;               /* --html: the page ("-": standard output) */
	/* --compare: the base, read and checked before the run; NULL when not asked for */
	const struct cmp_doc *compare;
	double compare_threshold;       /* --compare-threshold, a fraction (0.05) */
	/*
	 * --processes (suite_rounds.h): the file of this file's processes'
	 * records (proc_record.h), NULL for a run of one process; a sample
	 * process appends its records there and writes nothing else, the
	 * reporting one reports them all.
	 */
	const char *records;
	bool sample;
	bool stdout_taken;              /* an output is on standard output ("-"): no report there */
};

/*
 * --modules: how module images are loaded: cuModuleLoadDataEx into the
 * context (today's default), or cuLibraryLoadData as context-independent
 * libraries whose kernels (CUkernel) each context resolves for itself.
 */
enum module_api { MODULE_API_MODULE, MODULE_API_LIBRARY };
#define MODULE_API_DEFAULT MODULE_API_MODULE

struct run_settings {
	uint32_t repeat;                /* the timed launches, when repeat_given */
	/* -n or run.repeat gave the count; else the stopping rule decides (stop_rule.h) */
	bool repeat_given;
	uint32_t warmup;                /* default 3 */
	bool cold_l2;                   /* --cold-l2: an L2-sized memset before each launch */
	bool gpu_time;                  /* --gpu-time: each launch behind the blocking kernel */
	int device;                     /* default 0: the file's device 0 (cugraphrun(5), Devices) */
	/* the GPUs the file's other devices may be (--devices in a suite), bit i: GPU i; 0: all */
	uint64_t device_mask;
	bool no_peer;                   /* --no-peer: no peer access between the file's devices */
	uint64_t timeout_ns;            /* 0: none */
	bool timeout_from_file;         /* run.timeout set it, not --timeout */
	unsigned instantiate;           /* enum inst_flag bits */
	bool profile;                   /* --profile: launches with CUPTI after the timed ones */
	uint32_t profile_launches;
	bool no_cache;                  /* --no-cache: compile source modules afresh */
	bool expect_fail;               /* run.expect: fail (main.c applies it to the status) */
	/* run.verify_launches: the checks and dumps follow this many launches (1 or more) */
	uint32_t verify_launches;
	/* the host functions' libraries, opened by main for the run (host_lib.h); NULL: none */
	const struct host_libs *host_libs;
	enum module_api module_api;     /* --modules */
	enum verbosity verbosity;
	double frontend_s;              /* reading and validating the file */
	struct run_outputs out;
};

#endif
