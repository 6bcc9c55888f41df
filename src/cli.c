#include "config.h"

#include <getopt.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "compare_judge.h"
#include "diag.h"
#include "fileio.h"
#include "mod_check.h"
#include "model.h"
#include "scalar.h"
#include "term.h"
#include "xmalloc.h"

/* CU_GRAPH_DEBUG_DOT_FLAGS_*: name i is bit i, as in the driver's enum. */
const char *const dot_flag_names[DOT_FLAG_COUNT] = {
	"verbose", "runtime-types", "kernel-params", "memcpy-params", "memset-params",
	"host-params", "event-params", "ext-semas-signal-params", "ext-semas-wait-params",
	"kernel-attributes", "handles", "mem-alloc-params", "mem-free-params",
	"batch-mem-op-params", "extra-topo-info", "conditional-params",
};

enum {
	OPT_VALIDATE = 256, OPT_DESCRIBE, OPT_DESCRIBE_BUFFERS, OPT_DOT, OPT_DOT_FLAGS,
	OPT_DUMP, OPT_JSON, OPT_TIMEOUT, OPT_INSTANTIATE,
	OPT_DEVICES, OPT_JUNIT, OPT_SHARD, OPT_PROFILE, OPT_TRACE, OPT_NO_CACHE, OPT_SET,
	OPT_CSV, OPT_PLOT, OPT_COMPARE, OPT_COMPARE_THRESHOLD, OPT_DISABLE, OPT_ARCH,
	OPT_MODULES, OPT_NO_PEER, OPT_COLOR, OPT_COMPLETE, OPT_PROCESSES, OPT_COLD_L2,
	OPT_GPU_TIME, OPT_SELF_CHECK, OPT_DRIVER, OPT_POINTS, OPT_MODE, OPT_HTML,
};

/*
 * Every option that names a file cugraphrun writes, and the two that make
 * what only a run makes without naming one (--profile's table, --compare's
 * comparison).  cli_parse lists each file given in o->outputs, and every
 * rule of cugraphrun(1) OUTPUT FILES holds for all of them alike: a value
 * that is a file name and no YAML name (here), "-" for standard output,
 * in place of the report and for one option at most (here), no two naming
 * one file, none a file the run reads, each writable before anything
 * runs (outputs_prepare, outputs.c), and each written whole or not at all
 * (output_open and output_close).  Where an option may not go is its
 * flags (cli.h: OUT_*), which main, the stored report and the suite ask
 * through cli_output_given.  A new output option is one entry here, and
 * a writer that goes through output_open and output_close.  (--compare's
 * BASE is read, not written: an input, which no output may replace;
 * outputs.h.)
 */
static const struct output_opt {
	int val;                        /* the option's getopt value */
	const char *name;
	const char *example;            /* its = form, for messages */
	char after;                     /* the file follows this in the value ("BUF=FILE") */
	bool repeatable;                /* each one a file; else the last one counts */
	bool file;                      /* names a file written; else only flags */
	unsigned flags;                 /* OUT_* */
} output_opts[] = {
	{OPT_CSV, "--csv", "--csv=points.csv", 0, false, true,
	 OUT_RUN | OUT_ONE_FILE | OUT_NOT_STORED},
	{OPT_DESCRIBE, "--describe", "--describe=graph.dot", 0, false, true,
	 OUT_ONE_FILE | OUT_NOT_STORED},
	{OPT_DOT, "--dot", "--dot=driver.dot", 0, false, true,
	 OUT_RUN | OUT_ONE_FILE | OUT_NOT_STORED},
	{OPT_DUMP, "--dump", "--dump=BUFFER=out.npy", '=', true, true,
	 OUT_RUN | OUT_ONE_FILE | OUT_ONE_POINT | OUT_NOT_STORED},
	{OPT_JSON, "--json", "--json=report.json", 0, false, true, OUT_STORED_DOC},
	{OPT_JUNIT, "--junit", "--junit=junit.xml", 0, false, true, OUT_STORED_DOC},
	{OPT_PLOT, "--plot", "--plot=times.svg", 0, false, true, OUT_RUN | OUT_ONE_FILE},
	{OPT_PROFILE, "--profile", "--profile", 0, false, false,
	 OUT_RUN | OUT_ONE_POINT | OUT_NOT_STORED},
	{OPT_TRACE, "--trace", "--trace=trace.json", 0, false, true,
	 OUT_RUN | OUT_ONE_FILE | OUT_ONE_POINT | OUT_NOT_STORED},
	{OPT_COMPARE, "--compare", "--compare=base.json", 0, false, false, OUT_RUN},
	{OPT_HTML, "--html", "--html=report.html", 0, false, true, OUT_RUN},
};
#define NOUTPUT_OPTS (sizeof output_opts / sizeof *output_opts)

/* --modules' words, by enum module_api */
const char *const module_api_names[2] = {
	[MODULE_API_MODULE] = "module", [MODULE_API_LIBRARY] = "library",
};

/* The one option table: getopt's view and the help text side by side (cli.h). */
static const struct cli_opt opts[] = {
	{{"repeat", required_argument, NULL, 'n'}, "N", "timed launches (default: run.repeat, else until\n                                the median is known to 1%, 0.2 s at most)"},
	{{"warmup", required_argument, NULL, 'w'}, "N", "untimed launches before them (default: run.warmup,\n                                else 3)"},
	{{"device", required_argument, NULL, 'd'}, "N", "GPU ordinal (default: run.device, else 0); in a\n                                suite, the one GPU unless --devices is given"},
	{{"processes", required_argument, NULL, OPT_PROCESSES}, "P", "time each file in P fresh processes, the files\n                                in a new order each round (default 1)"},
	{{"cold-l2", no_argument, NULL, OPT_COLD_L2}, NULL, "write an L2-sized buffer before each timed launch,\n                                outside its time"},
	{{"gpu-time", no_argument, NULL, OPT_GPU_TIME}, NULL, "time the GPU's work only: hold the stream until\n                                each launch is queued whole (blocking kernel)"},
	{{"timeout", required_argument, NULL, OPT_TIMEOUT}, "DURATION", "abort when one launch takes longer (\"10 s\", \"500ms\")"},
	{{"instantiate", required_argument, NULL, OPT_INSTANTIATE}, "LIST", "instantiate flags: upload, auto_free_on_launch,\n                                use_node_priority, device_launch (or \"none\")"},
	{{"axis", required_argument, NULL, 'a'}, "NAME=V1,V2,...", "sweep axis NAME over these values (replacing the\n                                file's, or adding one its expressions use);\n                                repeatable"},
	{{"set", required_argument, NULL, OPT_SET}, "NAME=VALUE", "fix axis NAME to one value; repeatable"},
	{{"disable", required_argument, NULL, OPT_DISABLE}, "IDS", "switch these nodes off at every launch (kernel,\n                                memset and copy nodes of the top-level graph);\n                                comma-separated, repeatable"},
	{{"validate", no_argument, NULL, OPT_VALIDATE}, NULL, "parse and check FILE only, its kernels against their\n                                modules too; no driver is loaded"},
	{{"arch", required_argument, NULL, OPT_ARCH}, "sm_XY", "with --validate: the GPU architecture to check\n                                fatbins and compile CUDA C++ for (default sm_90)"},
	{{"driver", required_argument, NULL, OPT_DRIVER}, "VERSION", "with --validate: the CUDA driver (12.8) that PTX\n                                modules' .version must suit (default: NVRTC's)"},
	{{"describe", required_argument, NULL, OPT_DESCRIBE}, "FILE", "write the description as DOT (- for stdout), or drawn\n                                as FILE.svg, .png or .pdf; no GPU unless --profile"},
	{{"describe-buffers", no_argument, NULL, OPT_DESCRIBE_BUFFERS}, NULL, "with --describe, --html or --json: buffers\n                                too, each read and write an arrow the way\n                                the data goes"},
	{{"points", no_argument, NULL, OPT_POINTS}, NULL, "list a sweep's points, with the values its axes give\n                                (with --json: in the report); no GPU"},
	{{"dot", required_argument, NULL, OPT_DOT}, "FILE", "write the driver's DOT of the built graph"},
	{{"dot-flags", required_argument, NULL, OPT_DOT_FLAGS}, "LIST", "flags for --dot: names (verbose, kernel-params,\n                                handles, ...) or a number"},
	{{"dump", required_argument, NULL, OPT_DUMP}, "BUF=FILE", "after the verification launch, write a buffer\n                                (raw; .npy or .txt by extension); repeatable"},
	{{"json", optional_argument, NULL, OPT_JSON}, "[=FILE]", "the report as JSON (stdout without FILE, or -)"},
	{{"csv", required_argument, NULL, OPT_CSV}, "FILE", "write the report's rows (a sweep's points) as CSV\n                                (- for stdout, in place of the report)"},
	{{"plot", required_argument, NULL, OPT_PLOT}, "FILE", "draw a sweep's median times (and GB/s) against its\n                                first axis as SVG, with gnuplot; a sweep's --json\n                                report named for FILE.yaml is drawn again (no GPU)"},
	{{"html", required_argument, NULL, OPT_HTML}, "FILE", "write the report as one HTML page (- for\n                                stdout): the graph drawn, timings, charts,\n                                profile, comparison, checks; a --json report\n                                named for FILE.yaml makes it again (no GPU)"},
	{{"compare", required_argument, NULL, OPT_COMPARE}, "BASE", "compare the times with earlier --json reports (a\n                                report or a folder of them; repeatable: their\n                                processes pooled), process against process: SAME,\n                                FASTER, SLOWER (exit 4) or UNCERTAIN; runs each\n                                file in 4 processes unless --processes says"},
	{{"compare-threshold", required_argument, NULL, OPT_COMPARE_THRESHOLD}, "PCT", "what --compare calls a change (default 5%)"},
	{{"self-check", no_argument, NULL, OPT_SELF_CHECK}, NULL, "given a stored report of many processes: how often\n                                --compare would call unchanged files SLOWER or\n                                FASTER (A/A comparisons of disjoint processes)"},
	{{"devices", required_argument, NULL, OPT_DEVICES}, "LIST", "suites: the GPUs to spread files over: \"all\"\n                                or ordinals such as 0,1 (default: -d's GPU, else\n                                all; for one file, its run.device, else 0);\n                                wins over -d; a file's other devices are GPUs\n                                of this list too"},
	{{"no-peer", no_argument, NULL, OPT_NO_PEER}, NULL, "files on several GPUs: no peer access between\n                                them (the driver stages copies)"},
	{{"jobs", required_argument, NULL, 'j'}, "N", "suites: worker processes per GPU (default 1)"},
	{{"junit", required_argument, NULL, OPT_JUNIT}, "FILE", "write the results as JUnit XML (a suite of one\n                                file too)"},
	{{"shard", required_argument, NULL, OPT_SHARD}, "K/N", "run only the K-th of N shares of the files"},
	{{"profile", optional_argument, NULL, OPT_PROFILE}, "[=N]", "after the timed launches, N more (default 20) with\n                                CUPTI: per-node GPU times and the critical path"},
	{{"trace", required_argument, NULL, OPT_TRACE}, "FILE", "write the profiled launches as a Chrome trace\n                                (Perfetto); implies --profile"},
	{{"mode", required_argument, NULL, OPT_MODE}, "LIST", "run as the explicit graph (graph), as stream launches\n                                (stream), as a captured graph (capture), or in\n                                several (\"all\"): an axis \"mode\" with break-even"},
	{{"modules", required_argument, NULL, OPT_MODULES}, "API", "load modules as modules (module: cuModuleLoadDataEx,\n                                the default) or as libraries (library:\n                                cuLibraryLoadData)"},
	{{"no-cache", no_argument, NULL, OPT_NO_CACHE}, NULL, "compile CUDA C++ modules afresh; neither read nor\n                                write the compile cache"},
	{{"quiet", no_argument, NULL, 'q'}, NULL, "print only errors and failed checks"},
	{{"verbose", no_argument, NULL, 'v'}, NULL, "print each phase and each node as it is added"},
	{{"color", required_argument, NULL, OPT_COLOR}, "WHEN", "colour the diagnostics as gcc does (auto: on a\n                                terminal, unless NO_COLOR is set; always; never)"},
	/* hidden: what the shells' completions ask of a file (complete_names.h) */
	{{"complete", required_argument, NULL, OPT_COMPLETE}, "WHAT", NULL},
	{{"help", no_argument, NULL, 'h'}, NULL, "show this help and exit"},
	{{"version", no_argument, NULL, 'V'}, NULL, "show the version and exit"},
};
#define NOPTS (sizeof opts / sizeof *opts)

void cli_usage(FILE *out)
{
	fputs("Usage: cugraphrun [OPTION]... FILE.yaml\n"
	      "  or:  cugraphrun [OPTION]... FILE|DIR...\n"
	      "Build, run, check and time the CUDA graph described in FILE.yaml.\n"
	      "Several files, or every *.yaml under DIR, run as a suite: worker processes\n"
	      "on each GPU, one report per file, a summary line, the worst exit status.\n\n",
	      out);
	for (size_t i = 0; i < NOPTS; i++) {
		const struct option *o = &opts[i].opt;
		char left[64];
		int n;
		if (opts[i].help == NULL)
			continue;
		if (o->val < 256)
			n = snprintf(left, sizeof left, "  -%c, --%s", o->val, o->name);
		else
			n = snprintf(left, sizeof left, "      --%s", o->name);
		if (opts[i].arg)
			snprintf(left + n, sizeof left - (size_t)n, "%s%s",
				 opts[i].arg[0] == '[' ? "" : "=", opts[i].arg);
		fprintf(out, "%-32s%s\n", left, opts[i].help);
	}
	fputs("\nExit status: 0 ran and every check passed (or valid with --validate),\n"
	      "1 a check failed, 2 usage error, invalid file or out of memory,\n"
	      "3 CUDA error, 4 --compare found a time SLOWER than the base's,\n"
	      "77 skipped: the machine lacks what the file's requires: asks,\n"
	      "124 a launch did not finish within --timeout.  A suite exits with the\n"
	      "worst of its files' statuses, in the order 124, 3, 2, 1, 4, 0.\n"
	      "The file format is described in cugraphrun(5), the command in cugraphrun(1).\n",
	      out);
}

static bool parse_count(const char *s, uint32_t *out)
{
	uint64_t v;
	if (parse_u64(s, &v) != SCALAR_OK || v > UINT32_MAX)
		return false;
	*out = (uint32_t)v;
	return true;
}

/* "12.8": a CUDA version, as cuDriverGetVersion counts it (12080). */
static bool parse_cuda_version(const char *s, int *out)
{
	char *end;
	unsigned long major = strtoul(s, &end, 10);
	if (end == s || *end != '.' || major < 1 || major > 99 || end[1] < '0' || end[1] > '9' ||
	    end[2] != '\0')
		return false;
	*out = (int)(major * 1000 + (unsigned long)(end[1] - '0') * 10);
	return true;
}

/* "5", "2.5" or "5%": a percentage above 0 and below 100, as a fraction. */
static bool parse_percent(const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);
	if (end == s)
		return false;
	end += *end == '%';
	if (*end != '\0')
		return false;
	if (!(v > 0 && v < 100))
		return false;
	*out = v / 100;
	return true;
}

/*
 * The next word of a comma list at *p, in *word and *len, and *p past it
 * and its comma; false at the end.  "a,,b" has an empty word, "a," none
 * after a.
 */
static bool next_word(const char **p, const char **word, size_t *len)
{
	if (**p == '\0')
		return false;
	*word = *p;
	*len = strcspn(*p, ",");
	*p += *len;
	*p += **p == ',';
	return true;
}

/*
 * "a,b,c" with each word one of names[0..n): bit i for names[i].  False,
 * with the word in bad, at the first word that is none of them.
 */
static bool parse_name_bits(const char *s, const char *const *names, unsigned n,
			    unsigned *out, char *bad, size_t badlen)
{
	unsigned flags = 0;
	const char *p = s, *w;
	size_t len;
	while (next_word(&p, &w, &len)) {
		unsigned i = 0;
		while (i < n && !(strlen(names[i]) == len && strncmp(names[i], w, len) == 0))
			i++;
		if (i == n) {
			snprintf(bad, badlen, "%.*s", (int)len, w);
			return false;
		}
		flags |= 1u << i;
	}
	*out = flags;
	return true;
}

const char *parse_dot_flags(const char *s, unsigned *out, char *bad, size_t badlen)
{
	uint64_t v;
	if (parse_u64(s, &v) == SCALAR_OK) {
		if (v >= 1u << DOT_FLAG_COUNT) {
			snprintf(bad, badlen, "%s", s);
			return bad;
		}
		*out = (unsigned)v;
		return NULL;
	}
	return parse_name_bits(s, dot_flag_names, DOT_FLAG_COUNT, out, bad, badlen) ? NULL : bad;
}

bool parse_inst_flags(const char *s, unsigned *out, char *bad, size_t badlen)
{
	if (strcmp(s, "none") == 0) {
		*out = 0;
		return true;
	}
	return parse_name_bits(s, inst_flag_names, INST_FLAG_COUNT, out, bad, badlen);
}

/* Which of names[0..n) s is, into *out; false when none. */
static bool word_of(const char *s, const char *const *names, unsigned n, unsigned *out)
{
	for (unsigned i = 0; i < n; i++)
		if (strcmp(s, names[i]) == 0) {
			*out = i;
			return true;
		}
	return false;
}

/* --devices: "all", or ordinals "0,1,3" (each below 64) into a bit mask. */
static bool parse_devices(const char *s, struct options *o)
{
	o->has_devices = true;
	o->device_mask = 0;
	if ((o->devices_all = strcmp(s, "all") == 0))
		return true;
	const char *p = s, *w;
	size_t len;
	while (next_word(&p, &w, &len)) {
		char word[16];
		uint32_t dev;
		if (len == 0 || len >= sizeof word)
			return false;
		memcpy(word, w, len);
		word[len] = '\0';
		if (!parse_count(word, &dev) || dev > 63)
			return false;
		o->device_mask |= 1ull << dev;
	}
	return o->device_mask != 0;
}

/* --shard=K/N, 1 <= K <= N. */
static bool parse_shard(const char *s, struct options *o)
{
	const char *slash = strchr(s, '/');
	char word[16];
	uint32_t k, n;
	if (slash == NULL || (size_t)(slash - s) >= sizeof word)
		return false;
	memcpy(word, s, (size_t)(slash - s));
	word[slash - s] = '\0';
	if (!parse_count(word, &k) || !parse_count(slash + 1, &n) || k < 1 || k > n)
		return false;
	o->shard_k = k;
	o->shard_n = n;
	return true;
}

/*
 * Option c with value arg, if it is one of output_opts: its bit in
 * o->given, its file in o->outputs (the last one's, unless repeatable);
 * "-", standard output, is no file and goes in o->stdout_opts.
 */
static void note_output(struct options *o, int c, const char *arg)
{
	size_t k = 0;
	while (k < NOUTPUT_OPTS && output_opts[k].val != c)
		k++;
	if (k == NOUTPUT_OPTS)
		return;
	const struct output_opt *oo = &output_opts[k];
	o->given |= 1u << k;
	for (size_t i = 0; i < o->noutputs && !oo->repeatable; i++)
		if (o->outputs[i].option == oo->name) {
			memmove(&o->outputs[i], &o->outputs[i + 1],
				(o->noutputs - i - 1) * sizeof *o->outputs);
			o->noutputs--;
			break;
		}
	/* --json without a file is standard output too */
	const char *path = arg && oo->after ? strchr(arg, oo->after) + 1 : arg;
	bool to_stdout = oo->file && (path == NULL || strcmp(path, "-") == 0);
	if (!oo->repeatable)
		o->stdout_opts &= ~(1u << k);
	if (to_stdout) {
		o->stdout_opts |= 1u << k;
		o->nstdout += oo->repeatable;
	}
	if (!oo->file || to_stdout)
		return;
	*VEC_PUSH(o->outputs, o->noutputs, o->capoutputs) =
		(struct output_name){.option = oo->name, .path = path, .example = oo->example};
}

const char *cli_output_given(const struct options *o, unsigned flag)
{
	for (size_t k = 0; k < NOUTPUT_OPTS; k++)
		if ((output_opts[k].flags & flag) && (o->given & 1u << k))
			return output_opts[k].name;
	return NULL;
}

/*
 * Standard output takes one output at most, in place of the report: the
 * one that takes it in o->stdout_output, or a usage error naming two.
 */
static enum cli_result check_stdout(struct options *o)
{
	const char *on[2] = {NULL, NULL};
	size_t n = 0;
	for (size_t k = 0; k < NOUTPUT_OPTS; k++) {
		if (!(o->stdout_opts & 1u << k))
			continue;
		for (size_t times = output_opts[k].repeatable ? o->nstdout : 1; times > 0;
		     times--, n++)
			if (n < 2)
				on[n] = output_opts[k].name;
	}
	if (n > 1) {
		/* --json goes there without a file: named second, as it was given */
		bool swap = strcmp(on[0], "--json") == 0;
		const char *second = on[!swap];
		return usage_error("%s=- and %s%s both write to standard output: give one of them "
				   "a file", on[swap], second, strcmp(second, "--json") ? "=-" : "");
	}
	o->stdout_output = on[0];
	return CLI_OK;
}

/* Whether name ends in .yaml or .yml, in any case. */
static bool yaml_name(const char *name)
{
	size_t n = strlen(name);
	return (n >= 5 && strcasecmp(name + n - 5, ".yaml") == 0) ||
		(n >= 4 && strcasecmp(name + n - 4, ".yml") == 0);
}

/*
 * The outputs' names: a file name each, none YAML (nothing cugraphrun
 * writes is; "--describe a.yaml b.yaml" took a.yaml for the output), no
 * two the same.
 */
static enum cli_result check_output_names(const struct options *o)
{
	for (size_t i = 0; i < o->noutputs; i++) {
		const struct output_name *v = &o->outputs[i];
		if (v->path[0] == '\0')
			return usage_error("%s needs a file name, as in %s", v->option, v->example);
		if (yaml_name(v->path))
			return usage_error("%s would write '%s', but cugraphrun writes no YAML (was "
					   "it meant as a graph file?): name the output with '=', "
					   "as in %s", v->option, v->path, v->example);
		for (size_t j = 0; j < i; j++)
			if (strcmp(o->outputs[j].path, v->path) == 0)
				return usage_error("%s and %s both write '%s': give them different "
						   "files", o->outputs[j].option, v->option, v->path);
	}
	return CLI_OK;
}

/* What a usage message keeps of each end when it is longer: an option's value may be 100 KB. */
#define USAGE_KEEP 120

enum cli_result usage_error(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	diag_code_take(fmt, ap); /* printed, not kept: taken so that it waits for no other */
	char *text = NULL;
	int n = vasprintf(&text, fmt, ap);
	va_end(ap);
	/* the one form of every error without a file: "cugraphrun: error: ..." */
	diag_write_lead(stderr, DIAG_ERROR);
	if (n < 0) {
		fputs("usage", stderr);
	} else if ((size_t)n <= 2 * USAGE_KEEP + 40) {
		diag_write_escaped(stderr, text, (size_t)n);
	} else {
		size_t head = USAGE_KEEP, tail = (size_t)n - USAGE_KEEP;
		while (head > 0 && ((unsigned char)text[head] & 0xc0) == 0x80)
			head--;
		while (tail < (size_t)n && ((unsigned char)text[tail] & 0xc0) == 0x80)
			tail++;
		/* an option's value is the user's: escaped, as every message is */
		diag_write_escaped(stderr, text, head);
		fprintf(stderr, "[... %zu bytes left out ...]", tail - head);
		diag_write_escaped(stderr, text + tail, (size_t)n - tail);
	}
	free(text);
	fputs("\nTry 'cugraphrun --help' for more information.\n", stderr);
	return CLI_USAGE;
}

/*
 * getopt_long's '?' and ':' as a message naming the option as written.
 * optopt is the short option, the val of a long one that was given an
 * argument it does not take, or 0 for an unknown or ambiguous long one.
 * argv[optind - 1] is the option only when it is a long one: an unknown
 * short option inside "-xv" leaves optind where it was.
 */
static enum cli_result bad_option(int c, char **argv)
{
	const char *arg = argv[optind - 1];
	bool is_long = strncmp(arg, "--", 2) == 0 && arg[2] != '\0';
	int len = (int)strcspn(arg, "=");
	if (c == ':' && is_long)
		return usage_error("option '%.*s' needs an argument", len, arg);
	if (c == ':')
		return usage_error("option '-%c' needs an argument", optopt);
	if (optopt == 0) {
		size_t matches = 0;
		for (size_t i = 0; is_long && i < NOPTS; i++)
			matches += strncmp(opts[i].opt.name, arg + 2, (size_t)len - 2) == 0;
		if (matches > 1)
			return usage_error("ambiguous option '%.*s'", len, arg);
		return usage_error("unknown option '%.*s'", len, arg);
	}
	for (size_t i = 0; i < NOPTS; i++)
		if (opts[i].opt.val == optopt)
			return usage_error("option '%.*s' takes no argument", len, arg);
	return usage_error("unknown option '-%c'", optopt);
}

enum cli_result cli_parse(int argc, char **argv, struct options *o)
{
	struct option longopts[NOPTS + 1];
	for (size_t i = 0; i < NOPTS; i++)
		longopts[i] = opts[i].opt;
	memset(&longopts[NOPTS], 0, sizeof longopts[NOPTS]);
	memset(o, 0, sizeof *o);
	o->file_fd = -1;
	o->profile_launches = 20;
	o->compare_threshold = COMPARE_THRESHOLD_DEFAULT;
	o->module_api = MODULE_API_DEFAULT;
	o->processes = 1;
	char bad[128];
	/* decided now, before any fork, and again if --color says otherwise (term.h) */
	term_color_choose(COLOR_AUTO);

	opterr = 0;
	/* 0, not 1: glibc then also forgets a "-xv" an earlier call left half read. */
	optind = 0;
	int c;
	while ((c = getopt_long(argc, argv, ":n:w:d:j:a:qvhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'a':
		case OPT_SET: {
			/* NAME=VALUES: the sweep (sweep.h) reads the values with the file's axes */
			const char *opt = c == 'a' ? "--axis" : "--set";
			const char *eq = strchr(optarg, '=');
			if (eq == NULL || eq == optarg || eq[1] == '\0')
				return usage_error("invalid %s '%s': expected NAME=%s", opt, optarg,
						   c == 'a' ? "V1,V2,..." : "VALUE");
			struct axis_arg *aa = VEC_PUSH(o->axis_args, o->naxis_args,
						       o->axis_args_cap);
			aa->name = optarg;
			aa->name_len = (size_t)(eq - optarg);
			aa->values = eq + 1;
			aa->set = c == OPT_SET;
			break;
		}
		case 'n':
			if (!parse_count(optarg, &o->repeat))
				return usage_error("invalid --repeat '%s': expected a count", optarg);
			o->has_repeat = true;
			break;
		case 'w':
			if (!parse_count(optarg, &o->warmup))
				return usage_error("invalid --warmup '%s': expected a count", optarg);
			o->has_warmup = true;
			break;
		case 'd': {
			uint32_t dev;
			if (!parse_count(optarg, &dev) || dev > GDEF_MAX_DEVICE)
				return usage_error("invalid --device '%s': expected a GPU ordinal", optarg);
			o->device = (int)dev;
			o->has_device = true;
			break;
		}
		case OPT_TIMEOUT:
			if (parse_duration(optarg, &o->timeout_ns) != SCALAR_OK)
				return usage_error("invalid --timeout '%s': expected a duration such as \"10 s\" or \"500 ms\"", optarg);
			o->has_timeout = true;
			break;
		case OPT_INSTANTIATE:
			if (!parse_inst_flags(optarg, &o->instantiate, bad, sizeof bad))
				return usage_error("invalid --instantiate flag '%s': expected upload, auto_free_on_launch, use_node_priority, device_launch or none", bad);
			o->has_instantiate = true;
			break;
		case OPT_VALIDATE:
			o->validate = true;
			break;
		case OPT_ARCH:
			if (!mod_parse_arch(optarg, &o->arch_sm))
				return usage_error("invalid --arch '%s': expected sm_ and the compute capability, such as sm_90 or sm_120", optarg);
			o->has_arch = true;
			break;
		case OPT_DRIVER:
			if (!parse_cuda_version(optarg, &o->driver))
				return usage_error("invalid --driver '%s': expected a CUDA version such as 12.8 or 13.0", optarg);
			break;
		case OPT_DESCRIBE:
			o->describe = optarg;
			break;
		case OPT_DESCRIBE_BUFFERS:
			o->describe_buffers = true;
			break;
		case OPT_POINTS:
			o->points = true;
			break;
		case OPT_DOT:
			o->dot = optarg;
			break;
		case OPT_DOT_FLAGS:
			if (parse_dot_flags(optarg, &o->dot_flags, bad, sizeof bad))
				return usage_error("invalid --dot-flags word '%s': see cugraphrun(1) for the names", bad);
			o->has_dot_flags = true;
			break;
		case OPT_DUMP: {
			const char *eq = strchr(optarg, '=');
			if (eq == NULL || eq == optarg || eq[1] == '\0')
				return usage_error("invalid --dump '%s': expected BUFFER=FILE", optarg);
			struct dump_req *r = VEC_PUSH(o->dumps, o->ndumps, o->ndumps_cap);
			r->buffer = optarg;
			r->buffer_len = (size_t)(eq - optarg);
			r->file = eq + 1;
			break;
		}
		case OPT_JSON:
			o->json = true;
			o->json_file = optarg && strcmp(optarg, "-") != 0 ? optarg : NULL;
			break;
		case OPT_DEVICES:
			if (!parse_devices(optarg, o))
				return usage_error("invalid --devices '%s': expected \"all\" or GPU ordinals such as 0,1 (up to 63)", optarg);
			break;
		case 'j': {
			uint32_t n;
			if (!parse_count(optarg, &n) || n == 0 || n > 64)
				return usage_error("invalid --jobs '%s': expected 1 to 64 workers per GPU", optarg);
			o->jobs = n;
			break;
		}
		case OPT_JUNIT:
			o->junit = optarg;
			break;
		case OPT_SHARD:
			if (!parse_shard(optarg, o))
				return usage_error("invalid --shard '%s': expected K/N with 1 <= K <= N, such as 2/4", optarg);
			break;
		case OPT_PROFILE:
			if (optarg && (!parse_count(optarg, &o->profile_launches) ||
				       o->profile_launches == 0))
				return usage_error("invalid --profile '%s': expected a count of launches above 0", optarg);
			o->profile = true;
			break;
		case OPT_TRACE:
			o->trace = optarg;
			o->profile = true;
			break;
		case OPT_NO_CACHE:
			o->no_cache = true;
			break;
		case OPT_NO_PEER:
			o->no_peer = true;
			break;
		case OPT_PROCESSES:
			o->has_processes = true;
			if (!parse_count(optarg, &o->processes) || o->processes == 0 ||
			    o->processes > PROCESSES_MAX)
				return usage_error("invalid --processes '%s': expected a count of "
						   "processes from 1 to %d", optarg, PROCESSES_MAX);
			break;
		case OPT_COLD_L2:
			o->cold_l2 = true;
			break;
		case OPT_GPU_TIME:
			o->gpu_time = true;
			break;
		case OPT_CSV:
			o->csv = optarg;
			break;
		case OPT_PLOT:
			o->plot = optarg;
			break;
		case OPT_COMPARE:
			if (o->compare == NULL)
				o->compare = optarg;
			*VEC_PUSH(o->compares, o->ncompares, o->capcompares) = optarg;
			break;
		case OPT_SELF_CHECK:
			o->self_check = true;
			break;
		case OPT_HTML:
			o->html = optarg;
			break;
		case OPT_COMPARE_THRESHOLD:
			if (!parse_percent(optarg, &o->compare_threshold))
				return usage_error("invalid --compare-threshold '%s': expected a percentage above 0 and below 100, such as 5 or 2.5%%", optarg);
			o->has_compare_threshold = true;
			break;
		case OPT_DISABLE: {
			const char *p = optarg, *w;
			size_t len;
			while (next_word(&p, &w, &len)) {
				if (len == 0)
					return usage_error("invalid --disable '%s': expected node ids "
							   "separated by commas", optarg);
				*VEC_PUSH(o->disable, o->ndisable, o->capdisable) = xstrndup(w, len);
			}
			break;
		}
		case OPT_MODE:
			if (!mode_list_parse(optarg, &o->modes, bad, sizeof bad))
				return usage_error("invalid --mode '%s': expected graph, stream, capture, a list of them or all", bad);
			break;
		case OPT_MODULES: {
			unsigned api;
			if (!word_of(optarg, module_api_names, 2, &api))
				return usage_error("invalid --modules '%s': expected module or library", optarg);
			o->module_api = (enum module_api)api;
			break;
		}
		case OPT_COLOR: {
			unsigned when;
			if (!word_of(optarg, color_when_names, COLOR_WHEN_COUNT, &when))
				return usage_error("invalid --color '%s': expected auto, always or never", optarg);
			term_color_choose((enum color_when)when);
			break;
		}
		case OPT_COMPLETE:
			o->complete = optarg;
			break;
		case 'q':
			o->verbosity = VERB_QUIET;
			break;
		case 'v':
			o->verbosity = VERB_VERBOSE;
			break;
		case 'h':
			cli_usage(stdout);
			return CLI_EXIT_OK;
		case 'V':
			printf("cugraphrun %s (file format %d)\n", PACKAGE_VERSION,
			       GDEF_FORMAT_VERSION);
			return CLI_EXIT_OK;
		default:
			return bad_option(c, argv);
		}
		note_output(o, c, optarg);
	}
	if (check_output_names(o) != CLI_OK)
		return CLI_USAGE;
	if (optind == argc)
		return usage_error("%s", "no graph file given");
	o->file = argv[optind];
	o->files = argv + optind;
	o->nfiles = (size_t)(argc - optind);
	size_t stdins = 0;
	for (size_t i = 0; i < o->nfiles; i++)
		stdins += strcmp(o->files[i], "-") == 0;
	if (stdins > 1)
		return usage_error("%s", "standard input ('-') is named more than once: it can be "
				   "read only once");
	if (o->has_dot_flags && o->dot == NULL)
		return usage_error("%s", "--dot-flags needs --dot=FILE");
	if (o->has_compare_threshold && o->compare == NULL && !o->self_check)
		return usage_error("%s", "--compare-threshold needs --compare=BASE.json");
	if (o->self_check && o->compare)
		return usage_error("%s", "--self-check compares a report's processes among "
				   "themselves: give it without --compare");
	if (o->self_check && (o->nfiles != 1 || !path_has_ext(o->file, ".json")))
		return usage_error("%s", "--self-check reads one stored --json report of many "
				   "processes (--processes=240 records ten comparisons a point)");
	if (o->has_arch && !o->validate)
		return usage_error("%s", "--arch goes with --validate: a run checks and compiles for its device");
	/* the processes are a run's: nothing else would be repeated */
	if (o->processes > 1 && (o->validate || (o->describe && !o->profile)))
		return usage_error("--processes times a run in several processes, and %s runs "
				   "nothing", o->validate ? "--validate" : "--describe alone");
	if (o->processes > 1 && stdins)
		return usage_error("%s", "--processes reads each file once a process, and standard "
				   "input ('-') can be read only once: give a file");
	if (o->driver && !o->validate)
		return usage_error("%s", "--driver goes with --validate: a run checks against its driver");
	/* the buffers are drawn by --describe, and in the report's description */
	if (o->describe_buffers && o->describe == NULL && o->html == NULL && !o->json)
		return usage_error("%s", "--describe-buffers needs --describe=FILE, --html or --json");
	/* what only a run makes, where nothing runs: it would write nothing, and say nothing */
	const char *run_only = o->validate ? cli_output_given(o, OUT_RUN) : NULL;
	if (run_only)
		return usage_error("%s needs a run, and --validate runs nothing: drop one of them",
				   run_only);
	/* the comparison judges processes: a run to compare times 4 unless told */
	if (o->compare && !o->has_processes && !stdins)
		o->processes = COMPARE_NEW_PROCESSES;
	return check_stdout(o);
}

void cli_free(struct options *o)
{
	for (size_t i = 0; i < o->ndisable; i++)
		free(o->disable[i]);
	free(o->disable);
	o->disable = NULL;
	o->ndisable = 0;
	free(o->axis_args);
	o->axis_args = NULL;
	o->naxis_args = 0;
	free(o->dumps);
	o->dumps = NULL;
	o->ndumps = 0;
	free(o->compares);
	o->compares = NULL;
	o->ncompares = 0;
	for (size_t i = 0; i < o->ncompare_paths; i++)
		free(o->compare_paths[i]);
	free(o->compare_paths);
	o->compare_paths = NULL;
	o->ncompare_paths = 0;
	free(o->outputs);
	o->outputs = NULL;
	o->noutputs = o->capoutputs = 0;
}

const struct cli_opt *cli_options(size_t *n)
{
	*n = NOPTS;
	return opts;
}
