/*
 * cugraphrun: read a YAML description of a CUDA graph, check it, and then
 * describe it (DOT), or build, run, check and time it on the GPU.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "describe.h"
#include "diag.h"
#include "fileio.h"
#include "gpu.h"
#include "load.h"
#include "model.h"
#include "monotime.h"
#include "report.h"
#include "suite.h"
#include "validate.h"

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
 * run.skip and run.expect: fail, after the file ran (or would have).  A
 * skipped file is read and checked, then not run; with expect: fail a
 * failed check is the pass (0) and no failed check the failure (1).
 */
static int expectation(const struct gdef *g, const struct options *o, int status,
		       struct diag *d, struct file_outcome *fo)
{
	if (!g->run.expect_fail || o->validate)
		return status;
	if (status == 1) {
		if (fo)
			fo->xfail = true;
		else if (o->verbosity > VERB_QUIET)
			fprintf(stderr, "cugraphrun: %s: note: a check failed, as run.expect: "
				"fail wants\n", o->file);
		return 0;
	}
	if (status == 0) {
		diag_error(d, g->run.pos, "every check passed, but run.expect is fail");
		return 1;
	}
	return status;
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
	s->timeout_ns = o->has_timeout ? o->timeout_ns : r->has_timeout ? r->timeout_ns : 0;
	s->timeout_from_file = !o->has_timeout && r->has_timeout;
	s->instantiate = o->has_instantiate ? o->instantiate :
		r->has_instantiate ? r->instantiate : 0;
	s->profile = o->profile;
	s->profile_launches = o->profile_launches;
	s->no_cache = o->no_cache;
	s->verbosity = o->verbosity;
	s->out = (struct run_outputs){
		.dot = o->dot, .dot_flags = o->has_dot_flags ? o->dot_flags : 0,
		.dumps = o->dumps, .ndumps = o->ndumps,
		.json = o->json, .json_file = o->json_file,
		.trace = o->trace,
		/* alone, --describe draws the file before any run (write_description) */
		.describe = o->profile ? o->describe : NULL,
		.describe_buffers = o->describe_buffers,
	};
}

/* What the end of a file's run needs: settings_from's finish, and run_file's fallback. */
struct ending {
	const struct options *o;
	const struct gdef *g;
	struct diag *d;
	struct file_outcome *fo;
	bool done;                      /* finish ran: the status is settled, the JSON written */
};

/*
 * --json, whatever the status: the report as far as it goes, the status
 * the process ends with and every message printed.  The status, or 2 when
 * the report cannot be written.
 */
static int write_json(const struct options *o, struct report *rep, int status, struct diag *d)
{
	if (!o->json)
		return status;
	diag_finish(d);
	rep->exit_status = status;
	rep->diag = d;
	return report_write_json(o->json_file, rep) == 0 ? status : 2;
}

/* The run's end (run_settings.finish): run.expect settles the status, then --json. */
static int finish_run(struct report *rep, int status, void *arg)
{
	struct ending *e = arg;
	e->done = true;
	status = expectation(e->g, e->o, status, e->d, e->fo);
	return write_json(e->o, rep, status, e->d);
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
	 * One round: the loader's errors and the validator's, sorted by
	 * position.  The validator looks at everything the loader's errors
	 * left meaningful (see the model's bad and lost).
	 */
	diag_hold(&d);
	struct gdef *g = gdef_load(o->file, &d);
	bool valid = g != NULL && gdef_validate(g, &d) && d.nerrors == 0;
	diag_finish(&d);
	int status = 0;
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
			printf("%s: skipped: %s\n", o->file, g->run.skip);
	} else if (describe_only) {
		status = write_description(g, o);
	}
	/* with --profile, --describe is written after the run, coloured by it */
	struct ending end = {o, g, &d, fo, false};
	if (status == 0 && !skip && !o->validate && !describe_only) {
		struct run_settings s;
		settings_from(&s, g, o);
		s.frontend_s = monotime() - t0;
		s.finish = finish_run;
		s.finish_arg = &end;
		status = gpu_run(g, &s, &d);
		/* (a back end that never started calls no finish) */
		if (!end.done)
			status = expectation(g, o, status, &d, fo);
	}
	if (!end.done) {
		/* no run, or none that got far: the report says what there is */
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
	gdef_free(g);
	return status;
}

int main(int argc, char **argv)
{
	struct options o;
	switch (cli_parse(argc, argv, &o)) {
	case CLI_OK:
		break;
	case CLI_EXIT_OK:
		cli_free(&o);
		return 0;
	case CLI_USAGE:
		cli_free(&o);
		return 2;
	}
	int status = suite_wanted(&o) ? suite_main(&o, run_file) : run_file(&o, NULL);
	cli_free(&o);
	return status;
}
