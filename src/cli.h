/*
 * The command line: one option table, parsed with getopt_long into a
 * struct options.  Parsing returns a code; main decides what to do with
 * it.  The options struct borrows argv's strings; cli_free releases what
 * it allocated itself.
 */
#ifndef CGR_CLI_H
#define CGR_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "compare_judge.h"
#include "fileio.h"
#include "modes.h"
#include "run_settings.h"
#include "sweep.h"

struct cmp_doc;

/* The most --processes: a base of 21 and a few new ones is what --compare wants. */
#define PROCESSES_MAX COMPARE_MAX_PROCESSES

/* --compare-threshold when not given: 5% */
#define COMPARE_THRESHOLD_DEFAULT 0.05

struct options {
	const char *file;               /* the YAML file */
	bool validate;
	bool has_arch;                  /* --arch=sm_XY, with --validate */
	int arch_sm;                    /* 90 for sm_90 */
	int driver;                     /* --driver=12.8, with --validate: 12080; 0: not given */
	const char *describe;           /* --describe=FILE ("-" for stdout) */
	bool points;                    /* --points: list the sweep's points (sweep_list.h) */
	bool describe_buffers;
	const char *dot;                /* --dot=FILE */
	unsigned dot_flags;             /* CU_GRAPH_DEBUG_DOT_FLAGS_* bits */
	bool has_dot_flags;
	struct dump_req *dumps;
	size_t ndumps, ndumps_cap;
	bool json;
	const char *json_file;          /* NULL: stdout (--json, --json=-) */
	/* Overrides of the file's run: section; has_* says given. */
	bool has_repeat, has_warmup, has_device, has_timeout, has_instantiate;
	uint32_t repeat, warmup;
	int device;
	uint64_t timeout_ns;
	unsigned instantiate;           /* enum inst_flag bits */
	enum verbosity verbosity;
	/* Suite mode (cugraphrun(1) SUITES).  files: every operand, from argv. */
	char **files;
	size_t nfiles;
	const char *junit;              /* --junit=FILE */
	bool has_devices, devices_all;  /* --devices=all, or the ordinals in: */
	uint64_t device_mask;           /* bit i: GPU i */
	unsigned jobs;                  /* -j: workers per GPU (0: not given) */
	unsigned shard_k, shard_n;      /* --shard=K/N (0/0: not given) */
	/* --profile[=N] (also set by --trace): N launches with CUPTI after the timed ones */
	bool profile;
	uint32_t profile_launches;      /* default 20 */
	const char *trace;              /* --trace=FILE */
	bool no_cache;                  /* --no-cache: compile source modules afresh */
	bool no_peer;                   /* --no-peer: no peer access between a file's GPUs */
	uint32_t processes;             /* --processes: fresh processes per file (default 1) */
	bool has_processes;             /* --processes was given */
	bool cold_l2, gpu_time;         /* --cold-l2, --gpu-time (run_settings.h) */
	/* -a/--axis NAME=V1,... and --set NAME=V, in order (sweep.h) */
	struct axis_arg *axis_args;
	size_t naxis_args, axis_args_cap;
	const char *csv;                /* --csv=FILE ("-": standard output) */
	const char *plot;               /* --plot=FILE */
	const char *html;               /* --html=FILE ("-": standard output) */
	const char *compare;            /* --compare=BASE: the first base given */
	/* every --compare given, in order: reports or folders of them (compare_cli.h) */
	const char **compares;
	size_t ncompares, capcompares;
	/* the reports read as the base, folders' too (compare_open): no output may replace one */
	char **compare_paths;
	size_t ncompare_paths;
	bool self_check;                /* --self-check: the A/A check of a stored report */
	double compare_threshold;       /* --compare-threshold, a fraction */
	bool has_compare_threshold;
	const struct cmp_doc *compare_doc; /* the base, read by main before any run */
	/* --disable=ID,...: node ids to switch off (repeatable; malloc'd, strings too) */
	char **disable;
	size_t ndisable, capdisable;
	enum module_api module_api;     /* --modules (MODULE_API_DEFAULT when not given) */
	struct mode_list modes;         /* --mode (modes.h); n 0: not given */
	/*
	 * Every file an output option names (cli.c's table of them), in the
	 * order given; an option given twice counts once, as its value does,
	 * except --dump.  Standard output is not in it.
	 */
	struct output_name *outputs;
	size_t noutputs, capoutputs;
	const char *complete;           /* --complete=WHAT (hidden: complete_names.h) */
	unsigned given;                 /* bit k: cli.c's output option k was given */
	unsigned stdout_opts;           /* bit k: ... given as "-" (--json without a file) */
	size_t nstdout;                 /* --dump=BUF=- given how many times */
	/* the option whose output is standard output, in place of the report, or NULL */
	const char *stdout_output;
	const char *json_capture;       /* a suite worker's: this file's JSON report (not --json's) */
	int file_fd;                    /* a suite worker's: file open already (-1: not) */
	/* a suite worker's under --processes: its records' file, and whether it is a sample (run_settings.h) */
	const char *proc_records;
	bool proc_sample;
};

enum cli_result {
	CLI_OK,          /* run with the options */
	CLI_EXIT_OK,     /* --help or --version printed: exit 0 */
	CLI_USAGE,       /* misuse, message printed: exit 2 */
};

/*
 * A row of the option table: getopt's view, the value's name in the help
 * ("N", "[=FILE]"; NULL: none) and the help text (NULL: a hidden option).
 */
struct cli_opt {
	struct option opt;
	const char *arg;
	const char *help;
};
/* The table, in --help's order, hidden rows too: for the completion scripts (complete_script.h). */
const struct cli_opt *cli_options(size_t *n);

/* --modules' words, by enum module_api */
extern const char *const module_api_names[2];
/* What an output option may not go with (cli.c's table of them). */
enum output_flag {
	OUT_RUN = 1,            /* made by a run: a usage error under --validate */
	OUT_ONE_FILE = 2,       /* one file of its own: not for a suite */
	OUT_ONE_POINT = 4,      /* one point's: not for a sweep of several */
	OUT_NOT_STORED = 8,     /* no stored report gives it: not beside one */
	OUT_STORED_DOC = 16,    /* beside a stored report, the comparison's document only */
};

/* The first output option given that has flag ("--dump"), or NULL. */
const char *cli_output_given(const struct options *o, unsigned flag);

enum cli_result cli_parse(int argc, char **argv, struct options *o);
void cli_free(struct options *o);
void cli_usage(FILE *out);
/*
 * A misuse of the command line: "cugraphrun: what", then the line that
 * points at --help, on stderr.  Returns CLI_USAGE (exit 2).
 */
enum cli_result usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * CU_GRAPH_DEBUG_DOT_FLAGS_* by name: name i is the driver's bit i (the
 * ABI is stable), written out so that the front end needs no cuda.h.
 */
#define DOT_FLAG_COUNT 16
extern const char *const dot_flag_names[DOT_FLAG_COUNT];
/* Parse "verbose,handles" or "0x3"; NULL on success, else the bad word. */
const char *parse_dot_flags(const char *s, unsigned *out, char *bad, size_t badlen);

/* "upload,device_launch" into enum inst_flag bits; false on a bad word. */
bool parse_inst_flags(const char *s, unsigned *out, char *bad, size_t badlen);

#endif
