/*
 * cugraphrun: read a YAML description of a CUDA graph, check it, and then
 * describe it (DOT), or build, run, check and time it on the GPU.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "compare_cli.h"
#include "describe.h"
#include "diag.h"
#include "fileio.h"
#include "gpu.h"
#include "load.h"
#include "load_sweep.h"
#include "model.h"
#include "monotime.h"
#include "outputs.h"
#include "report_print.h"
#include "report_plot.h"
#include "report_stored.h"
#include "suite.h"
#include "sweep.h"
#include "validate.h"
#include "validate_devices.h"
#include "xmalloc.h"

/* --describe=FILE: "-" is stdout. */
static int write_description(const struct gdef *g, const struct options *o)
{
	struct describe_opts dopts = {.buffers = o->describe_buffers};
	const char *path = strcmp(o->describe, "-") == 0 ? NULL : o->describe;
	FILE *out = output_open(path);
	if (out == NULL)
		return 2;
	/* describe_write says itself why it failed */
	int rc = describe_write(g, &dopts, out);
	return output_close(out, path, rc == 0 ? OUTPUT_OK : OUTPUT_REPORTED);
}

/*
 * run.expect: fail, after the file ran: a failed check is the pass (0)
 * and no failed check the failure (1), as the report's exit_status already
 * says.  The back end said why a run without a failed check fails, before
 * its report, so that --json holds it (gpu_run.h: run_expect_said).
 */
static int expectation(const struct gdef *g, const struct options *o, int status,
		       struct file_outcome *fo)
{
	if (!g->run.expect_fail || o->validate)
		return status;
	if (status == 1) {
		if (fo)
			fo->xfail = true;
		else if (o->verbosity > VERB_QUIET)
			fprintf(stderr, "cugraphrun: %s: note: a check failed, as run.expect: "
				"fail wants\n", diag_esc(o->file));
		return 0;
	}
	return status == 0 ? 1 : status;
}

/* The run's settings: the command line over the file's run: section, over the defaults. */
static void settings_from(struct run_settings *s, const struct gdef *g,
			  const struct options *o)
{
	const struct run_defaults *r = &g->run;
	memset(s, 0, sizeof *s);
	s->repeat = o->has_repeat ? o->repeat : r->has_repeat ? r->repeat : 100;
	s->warmup = o->has_warmup ? o->warmup : r->has_warmup ? r->warmup : 3;
	s->device = o->has_device ? o->device : r->has_device ? r->device : 0;
	s->device_mask = o->has_devices && !o->devices_all ? o->device_mask : 0;
	s->no_peer = o->no_peer;
	s->timeout_ns = o->has_timeout ? o->timeout_ns : r->has_timeout ? r->timeout_ns : 0;
	s->timeout_from_file = !o->has_timeout && r->has_timeout;
	s->instantiate = o->has_instantiate ? o->instantiate :
		r->has_instantiate ? r->instantiate : 0;
	s->profile = o->profile;
	s->profile_launches = o->profile_launches;
	s->no_cache = o->no_cache;
	s->expect_fail = r->expect_fail;
	s->module_api = o->module_api;
	s->verbosity = o->verbosity;
	s->out = (struct run_outputs){
		.dot = o->dot, .dot_flags = o->has_dot_flags ? o->dot_flags : 0,
		.dumps = o->dumps, .ndumps = o->ndumps,
		.json = o->json, .json_file = o->json_capture ? o->json_capture : o->json_file,
		.trace = o->trace,
		/* alone, --describe draws the file before any run (write_description) */
		.describe = o->profile ? o->describe : NULL,
		.describe_buffers = o->describe_buffers,
		.csv = o->csv, .plot = o->plot,
		.compare = o->compare_doc, .compare_threshold = o->compare_threshold,
	};
}

/*
 * --json when the back end wrote none (it writes one whatever its own
 * status: report_emit.h): an invalid, validated, skipped or described
 * file's, or one refused before a run.  The report as far as it goes, the
 * status the process ends with and every message printed; the status, or
 * 2 when the report cannot be written.
 */
static int write_json(const struct options *o, struct report *rep, int status, struct diag *d)
{
	if (!o->json)
		return status;
	diag_finish(d);
	rep->exit_status = status;
	rep->diag = d;
	/* a suite worker's capture, else --json's own (NULL: stdout) */
	const char *path = o->json_capture ? o->json_capture : o->json_file;
	return report_write_json(path, rep) == 0 ? status : 2;
}

/*
 * Outputs of one run that a sweep of several points would write once per
 * point over the same file: refused, naming --set, which picks a point.
 * (--describe and --dot draw the first point: the graph a sweep builds.)
 */
static bool one_point_outputs(const struct sweep *sw, const struct options *o)
{
	const char *what = o->ndumps ? "--dump" : o->trace ? "--trace" :
		o->profile ? "--profile" : NULL;
	if (what == NULL || o->validate || sw->npoints < 2)
		return true;
	usage_error("%s is for one point, and %s sweeps %zu: pick one with --set NAME=VALUE "
		    "(its axes: %s)", what, o->file, sw->npoints, sw->labels[0]);
	return false;
}

/* A sweep: its points' settings, each from its own run: section (gpu.h). */
static int run_sweep(const struct sweep *sw, const struct options *o, double frontend_s,
		     struct diag *d)
{
	struct run_settings *ps = xcalloc(sw->npoints, sizeof *ps);
	for (size_t k = 0; k < sw->npoints; k++) {
		settings_from(&ps[k], sw->models[k], o);
		ps[k].frontend_s = frontend_s;
	}
	int status = gpu_run_sweep(sw, ps, d);
	free(ps);
	return status;
}

/* One file: what the single-file command does, and what a suite's worker runs. */
static int run_file(const struct options *o, struct file_outcome *fo)
{
	struct diag d;
	diag_init(&d, o->file, stderr);
	/* --json holds every message printed */
	if (o->json)
		diag_log(&d);
	double t0 = monotime();
	/*
	 * Kernels are checked against their modules: for any device in a run
	 * (the GPU run checks the rest against its driver), for --arch's under
	 * --validate, which also compiles CUDA C++ modules when it can.
	 */
	struct mod_settings ms = {
		.sm = !o->validate ? 0 : o->has_arch ? o->arch_sm : MOD_DEFAULT_SM,
		.compile_sources = o->validate,
		.use_cache = !o->no_cache,
		.verbose = o->verbosity >= VERB_VERBOSE,
	};
	/*
	 * One round: the loader's errors and the validator's, sorted by
	 * position.  The validator looks at everything the loader's errors
	 * left meaningful (see the model's bad and lost).
	 */
	diag_hold(&d);
	/* a template is one model per point (sweep.h); any other file one */
	struct sweep *sw = o->file_fd >= 0 ?
		sweep_load_fd(o->file, o->file_fd, o->axis_args, o->naxis_args, &d) :
		sweep_load(o->file, o->axis_args, o->naxis_args, &d);
	bool valid = sw != NULL && sweep_validate(sw, &d, &ms) && d.nerrors == 0;
	/* a sweep's points are updated in one context (validate_devices.h) */
	for (size_t k = 0; valid && sw->naxes > 0 && k < sw->npoints; k++)
		valid = validate_one_device(sw->models[k], &d);
	/* --disable names nodes of this file: an id it lacks is an error about it */
	for (size_t k = 0; valid && o->ndisable && k < sw->npoints; k++)
		valid = gdef_disable(sw->models[k], (const char *const *)o->disable,
				     o->ndisable, &d);
	/* --profile instantiates a second time, which cuda.h forbids such a graph */
	const struct node *upd = valid && o->profile && !o->validate ?
		gdef_device_updatable(sw->models[0]) : NULL;
	if (upd) {
		diag_error(&d, kernel_attrs_of(sw->models[0], upd)->pos[KATTR_DEVICE_UPDATABLE],
			   "--profile instantiates the graph a second time, which a graph with a "
			   "device-updatable node ('%s') does not allow", upd->id);
		valid = false;
	}
	/*
	 * The outputs, before anything runs: each can be written (a suite's
	 * parent saw to that for all, and to the --compare base), and none is
	 * a file this one reads, at any of its points.
	 */
	uint32_t clashed = 0;
	bool outputs_ok = fo != NULL || (outputs_prepare(o->outputs, o->noutputs) == 0 &&
					 (o->compare_doc == NULL ||
					  outputs_vs_input(o, "--compare base", o->compare)));
	/* an invalid file's report is written too (--json): never over what it reads */
	if (outputs_ok && sw == NULL && strcmp(o->file, "-") != 0)
		outputs_ok = outputs_vs_file(o, o->file);
	if (outputs_ok && sw && !outputs_vs_sweep(o, sw, &d, &clashed)) {
		outputs_ok = false;
		if (fo)
			fo->clashed = clashed;
	}
	if (!outputs_ok)
		valid = false;
	diag_finish(&d);
	struct gdef *g = sw ? sw->models[0] : NULL;
	/* a file with axes is a sweep, even of one point (--set): its report has points */
	bool sweep = valid && sw->naxes > 0;
	int status = 0;
	bool ran = false;
	if (valid && !one_point_outputs(sw, o))
		valid = false;
	/* --describe alone draws the file; with --profile it colours a run's figures */
	bool describe_only = o->describe && !(o->profile && !o->validate);
	bool skip = valid && g->run.skip && !describe_only;
	if (valid && o->validate && o->verbosity >= VERB_VERBOSE) {
		/* -v --validate says what it checked, not nothing */
		char what[512];
		gdef_summary(g, what, sizeof what);
		fprintf(stderr, "cugraphrun: %s is valid: %s; not run (--validate)\n", o->file,
			what);
	}
	if (!valid) {
		status = 2;
	} else if (skip && fo) {
		fo->skipped = true;
		snprintf(fo->note, sizeof fo->note, "%s", g->run.skip);
	} else if (skip) {
		if (o->verbosity > VERB_QUIET)
			printf("%s: skipped: %s\n", diag_esc(o->file), diag_esc(g->run.skip));
	} else if (describe_only) {
		status = write_description(g, o);
	}
	/* with --profile, --describe is written after the run, coloured by it */
	if (status == 0 && !skip && !o->validate && !describe_only) {
		struct run_settings s;
		settings_from(&s, g, o);
		s.frontend_s = monotime() - t0;
		/* in a suite, a file that needs more GPUs than it has is skipped */
		if (fo && gpu_too_few(g, &s, fo->note, sizeof fo->note)) {
			fo->skipped = true;
		} else {
			/* the back end writes --json itself, whatever its status (report_emit.h) */
			status = sweep ? run_sweep(sw, o, s.frontend_s, &d) : gpu_run(g, &s, &d);
			ran = true;
			status = expectation(g, o, status, fo);
		}
	}
	if (!ran && outputs_ok) {
		/* no run: the report says what there is */
		struct report rep;
		memset(&rep, 0, sizeof rep);
		rep.file = o->file;
		rep.name = g ? g->name : NULL;
		rep.root = valid ? g->root : NULL;
		rep.load_s = monotime() - t0;
		rep.no_launch = true;
		status = write_json(o, &rep, status, &d);
	}
	diag_finish(&d);
	diag_free(&d);
	sweep_release(sw);
	return status;
}

/*
 * Descriptors 0 to 2 closed at the start (cugraphrun >&-) would be handed
 * out by the first open or pipe: a suite's result pipe as descriptor 1,
 * and every printf of the report into it.  Each is opened on /dev/null,
 * the way round that makes using it fail as a closed one does (standard
 * input write-only, the others read-only), as gnulib's stdopen does.
 */
static void std_fds_open(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		/* the lowest free descriptor: fd itself */
		if (open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY) != fd)
			_exit(2);
	}
}

/*
 * A report that could not be written is no success: standard output is
 * flushed and closed here, and a failure (>/dev/full, a closed standard
 * output) makes the status at least 2.
 */
static int stdout_status(int status)
{
	bool failed = ferror(stdout) != 0;
	errno = 0;
	if (fclose(stdout) != 0)
		failed = true;
	if (!failed)
		return status;
	errorx("cannot write standard output%s%s", errno ? ": " : "",
	       errno ? strerror(errno) : "");
	return status == 0 || status == 1 ? 2 : status;
}

int main(int argc, char **argv)
{
	std_fds_open();
	struct options o;
	int status = 0;
	switch (cli_parse(argc, argv, &o)) {
	case CLI_OK:
		/* what a run needs from outside, settled before any file runs */
		status = compare_open(&o);
		if (status == 0 && o.plot && !o.validate)
			status = report_plot_check();
		if (status == 0 && report_stored_wanted(&o))
			status = report_stored_main(&o);
		else if (status == 0)
			status = suite_wanted(&o) ? suite_main(&o, run_file) : run_file(&o, NULL);
		compare_close(&o);
		break;
	case CLI_EXIT_OK:
		break;
	case CLI_USAGE:
		status = 2;
		break;
	}
	cli_free(&o);
	return stdout_status(status);
}
