/*
 * Running a sweep (gpu.h): the first point built and instantiated as a
 * plain file is, then each next point prepared from the one before by
 * the update path (gpu_update.h) and run as a plain file's launches are
 * (gpu_run.h): its buffers initialised, its verification launch and
 * checks, its warm-up and timed launches.  One report, a row per point.
 *
 * A CUDA error ends the sweep where it happened (the context may be
 * unusable); a failed check does not: the point says so and the next one
 * runs, as in a suite.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h"
#include "gpu_build.h"
#include "gpu_dot.h"
#include "gpu_run.h"
#include "gpu_update.h"
#include "monotime.h"
#include "report.h"
#include "sweep.h"
#include "term_progress.h"
#include "xmalloc.h"

/* What the sweep keeps besides the run: its points' rows (the report's points). */
struct sweep_run {
	const struct sweep *sw;
	const struct run_settings *ps;  /* per point */
	struct point_report *pts;       /* their samples are the sweep's to free */
	struct axis_value *axes;        /* npoints x naxes */
};

/* The point's settings on the launcher: its launches, its warm-up, its timeout. */
static void use_settings(struct run *rn, const struct run_settings *s)
{
	rn->ln.s = s;
	/* -n 0: the verification launch only, no warm-up either (launcher_init) */
	rn->ln.warmup = s->repeat_given && s->repeat == 0 ? 0 : s->warmup;
}

/*
 * Point k's launches into its row, which counts in the report from now
 * on (the points that ran, this one too).  0, or the exit status of a
 * CUDA error.
 */
static int run_point(struct sweep_run *sr, struct run *rn, struct report *rep, size_t k)
{
	struct point_report *p = &sr->pts[k];
	const struct gdef *g = sr->sw->models[k];
	use_settings(rn, &sr->ps[k]);
	rep->npoints = k + 1;
	int rc = run_launches(rn, rep, p);
	p->exit_status = rc ? rc : p->checks_failed ? 1 : 0;
	p->bytes = g->throughput.has_bytes ? g->throughput.bytes : NAN;
	p->items = g->throughput.has_items ? g->throughput.items : NAN;
	run_flops(rn, g, &p->flops);
	return rc;
}

/* Each stage, as run_stages for a plain file, then the points.  The exit status. */
static int sweep_stages(struct sweep_run *sr, struct run *rn, struct report *rep)
{
	const struct sweep *sw = sr->sw;
	struct gpu *gp = rn->ln.gp;
	const struct run_settings *s = &sr->ps[0];
	int rc;

	/* the first point's graph (--dot draws it: cugraphrun(1)) */
	if ((rc = run_prepare(rn, rep)) != 0)
		return rc;
	sr->pts[0].prep = PREP_INSTANTIATE;
	sr->pts[0].prep_s = rep->build_s + rep->instantiate_s + rep->upload_s;

	struct updater u = {.gp = gp, .ln = &rn->ln, .paired = true};
	const char *prefix = gp->d->prefix;
	int worst = 0;
	/* -v says each point itself */
	progress_start(sw->npoints, s->verbosity == VERB_NORMAL);
	for (size_t k = 0; k < sw->npoints; k++) {
		progress_update(k, sw->labels[k]);
		u.label = sw->labels[k];
		gp->d->prefix = sweep_point_prefix(sw, k);
		if (k > 0) {
			rc = gpu_update(&u, sw->models[k - 1], sw->models[k], &sr->pts[k]);
			/* the updater's reason is overwritten by the next point's */
			if (sr->pts[k].rebuild_why)
				sr->pts[k].rebuild_why = xstrdup(sr->pts[k].rebuild_why);
			if (rc)
				break;
		}
		gpu_verbose(gp, "point %zu of %zu: %s", k + 1, sw->npoints, sw->labels[k]);
		if ((rc = run_point(sr, rn, rep, k)) != 0)
			break;
		if (sr->pts[k].exit_status > worst)
			worst = sr->pts[k].exit_status;
	}
	progress_end();
	gp->d->prefix = prefix;
	/* --profile and --trace: main lets them through for one point (--set picks it) */
	if (rc == 0 && s->profile && sw->npoints == 1) {
		/* the point's timed launches are the median the profile is set against */
		rc = prof_run_launches(&rn->profile, &rn->ln, rn->ev[0], rn->ev[1], &sr->pts[0],
				       rep);
		int out = rc ? 0 : prof_run_outputs(&rn->profile, s, gp->g, rn->ln.gname, rep);
		if (out > worst)
			worst = out;
	}
	/* a CUDA error: said where it happened, and no report (as for a plain file) */
	if (rc)
		return rc;
	/* as run_stages (gpu_run.c): the report's exit_status is the process's, run.expect applied */
	int reported = rep->exit_status = s->expect_fail && worst <= 1 ? 1 - worst : worst;
	run_expect_said(rn, worst);
	rc = run_report(rn, rep);
	return rc == reported ? worst : rc;
}

int gpu_run_sweep(const struct sweep *sw, const struct run_settings *ps, struct diag *d)
{
	struct gdef *g = sw->models[0];
	const struct run_settings *s = &ps[0];
	struct report rep;
	struct run rn;
	if (run_begin(&rn, &rep, g, s, d) != 0)
		return 2;
	rep.sweep = true;
	struct sweep_run sr = {.sw = sw, .ps = ps};
	sr.pts = xcalloc(sw->npoints, sizeof *sr.pts);
	sr.axes = xcalloc(sw->npoints * (sw->naxes ? sw->naxes : 1), sizeof *sr.axes);
	for (size_t k = 0; k < sw->npoints; k++) {
		struct point_report *p = &sr.pts[k];
		p->label = sw->labels[k];
		p->axes = &sr.axes[k * sw->naxes];
		p->naxes = sw->naxes;
		for (size_t a = 0; a < sw->naxes; a++)
			sr.axes[k * sw->naxes + a] = (struct axis_value){
				sw->axes[a].name, sweep_value_label(sw, k, a),
			};
		p->bytes = p->items = NAN;
		p->eval_s = sw->eval_s ? sw->eval_s[k] : NAN;
	}
	/* none has run yet: they count as each begins (run_point) */
	rep.points = sr.pts;
	rep.npoints = 0;

	struct gpu gp;
	int rc = gpu_open(&gp, g, s->device, s->verbosity, d);
	gp.models = sw->models;
	gp.nmodels = sw->npoints;
	gp.labels = sw->labels;
	launcher_init(&rn.ln, &gp, s);
	/* a timeout writes the report as it stands, just before the process leaves */
	rn.ln.rep = &rep;
	char name[256] = "";
	if (rc == 0) {
		/* a sweep's throughput is each point's: the report's stays NaN */
		run_report_device(&rn, &rep, name, sizeof name);
		gpu_verbose(&gp, "device %d: %s (sm_%d%d); a sweep of %zu points", s->device, name,
			    gp.cc_major, gp.cc_minor, sw->npoints);
		rc = sweep_stages(&sr, &rn, &rep);
	}
	/* --json whatever the status: a sweep that stopped early writes what it knows */
	run_report_stopped(&rn, &rep, rc);
	run_teardown(&rn);
	free((void *)rep.spans);
	for (size_t k = 0; k < sw->npoints; k++) {
		free((void *)sr.pts[k].samples);
		free((void *)sr.pts[k].rebuild_why);
	}
	free(sr.pts);
	free(sr.axes);
	gpu_close(&gp);
	diag_finish(d);
	return rc;
}
