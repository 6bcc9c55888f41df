/*
 * A run in modes (gpu.h: gpu_run_modes; modes.h, cugraphrun(1) MODES):
 * each point of the file in each of its modes, each row from scratch, so
 * that its one-time cost is its own: the graph built, instantiated and
 * uploaded (graph), the streams planned and every step readied (stream,
 * gpu_stream.h), or the stream issue captured, instantiated and uploaded
 * (capture, gpu_capture.c).  Then the row runs as a sweep's point does
 * (gpu_run.h: buffers initialised, the verification launch and checks,
 * warm-up and timed launches, each between its own events), and then a
 * back-to-back loop of as many launches, without events between them,
 * gives the wall time per launch and the host's time to submit one.  The
 * rows run in the report's order (modes.h), a point's model loaded when
 * the row before was another point's; the report has the modes' table
 * (report_modes.h).
 *
 * A CUDA error ends the run where it happened; a failed check does not.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gpu.h"
#include "gpu_build.h"
#include "gpu_devices.h"
#include "gpu_run.h"
#include "gpu_stream.h"
#include "modes.h"
#include "monotime.h"
#include "report_modes.h"
#include "sweep.h"
#include "term_progress.h"
#include "xmalloc.h"

/* What the run keeps besides the run: its rows and their figures. */
struct modes_run {
	const struct sweep *sw;
	const struct run_settings *ps;  /* per point */
	struct mode_rows rows;
	struct point_report *pts;       /* per row */
	struct mode_row *mrows;         /* per row */
	struct gstream *gs;             /* the row's, in stream and capture modes */
};

/* The point's settings on the launcher, as gpu_sweep.c gives a point its own. */
static void use_settings(struct run *rn, const struct run_settings *s)
{
	rn->ln.s = s;
	/* -n 0: the verification launch only, no warm-up either (launcher_init) */
	rn->ln.warmup = s->repeat_given && s->repeat == 0 ? 0 : s->warmup;
}

/* Point k's model in place of the one loaded: buffers, modules, functions.  0, 2 or 3. */
static int load_point(struct gpu *gp, struct gdef *next)
{
	gpu_release(gp);
	gp->g = next;
	int rc = gpu_load(gp);
	return rc ? rc : gpu_alloc(gp);
}

/* The row's one-time work, by its mode, into m and p.  0, or an exit status after a message. */
static int row_prepare(struct modes_run *mr, struct run *rn, struct mode_row *m,
		       struct point_report *p)
{
	struct gpu *gp = rn->ln.gp;
	int rc = 0;
	m->instantiate_s = m->upload_s = NAN;
	m->streams = 1;
	double t = monotime();
	switch (m->mode) {
	case MODE_GRAPH:
		if ((rc = gpu_build(gp)) != 0)
			return rc;
		m->prepare_s = monotime() - t;
		rc = launcher_instantiate(&rn->ln, &m->instantiate_s, &m->upload_s);
		break;
	case MODE_STREAM:
		if ((rc = gstream_open(gp, &rn->ln, false, &mr->gs)) != 0)
			return rc;
		m->prepare_s = monotime() - t;
		m->streams = gstream_streams(mr->gs);
		rn->ln.issue = gstream_issue;
		rn->ln.issue_arg = mr->gs;
		break;
	case MODE_CAPTURE:
		/* the plan is the program: what is timed is its capture */
		if ((rc = gstream_open(gp, &rn->ln, true, &mr->gs)) != 0)
			return rc;
		t = monotime();
		if ((rc = gstream_capture(mr->gs)) != 0)
			return rc;
		m->prepare_s = monotime() - t;
		m->streams = gstream_streams(mr->gs);
		rc = launcher_instantiate(&rn->ln, &m->instantiate_s, &m->upload_s);
		break;
	case MODE_COUNT:
		return 3;
	}
	/* a stream row has no graph to instantiate: "same", its seconds the plan's */
	p->prep = m->mode == MODE_STREAM ? PREP_SAME : PREP_INSTANTIATE;
	p->prep_s = m->prepare_s + (isnan(m->instantiate_s) ? 0 : m->instantiate_s + m->upload_s);
	return rc;
}

/* The row's graph, executable graph and streams gone (host memory only after a sticky error). */
static void row_teardown(struct modes_run *mr, struct run *rn)
{
	struct gpu *gp = rn->ln.gp;
	if (!gp->sticky)
		launcher_drop(&rn->ln);
	rn->ln.issue = NULL;
	rn->ln.issue_arg = NULL;
	gstream_close(mr->gs);
	mr->gs = NULL;
	struct gpu_graph_state st;
	gpu_detach_graph(gp, &st);
	if (gp->sticky)
		st.root = NULL;
	gpu_free_graph_state(&st);
}

/*
 * The back-to-back loop: as many launches as were timed (n), submitted one
 * after another with no event between them, then one event; the host's
 * time in the submitting calls, and the wall time from the first
 * submission to the end seen (a spin, not a nap: the end is the figure).
 * 0, or 3 (124: _exit) as a launch that fails or hangs.
 */
static int loop(struct modes_run *mr, struct run *rn, struct mode_row *m, size_t n)
{
	const struct run_settings *s = rn->ln.s;
	struct gpu *gp = rn->ln.gp;
	if (n == 0)
		return 0;
	/* numbered as the timed launches they repeat */
	long first = (long)rn->ln.warmup;
	if (mr->gs)
		gstream_number(mr->gs, first);
	double host = 0, t0 = monotime();
	CUresult r = CUDA_SUCCESS;
	for (size_t i = 0; i < n && r == CUDA_SUCCESS; i++) {
		double a = monotime();
		r = rn->ln.issue ? rn->ln.issue(rn->ln.issue_arg) :
			cu.GraphLaunch(rn->ln.exec, gp->stream);
		host += monotime() - a;
		if (r != CUDA_SUCCESS)
			return launcher_failed(&rn->ln, first + (long)i, r);
	}
	long last = first + (long)n - 1;
	CUevent end = rn->ev[1];
	if ((r = cu.EventRecord(end, gp->stream)) != CUDA_SUCCESS)
		return launcher_failed(&rn->ln, last, r);
	/* every launch may take the timeout, one after another */
	double limit = s->timeout_ns ? (double)s->timeout_ns * 1e-9 * (double)n : 0;
	while ((r = cu.EventQuery(end)) == CUDA_ERROR_NOT_READY)
		if (limit > 0 && monotime() - t0 > limit)
			launcher_timed_out(&rn->ln, last);
	double wall = monotime() - t0;
	if (r != CUDA_SUCCESS)
		return launcher_failed(&rn->ln, last, r);
	m->loop_launches = n;
	m->submit_s = host / (double)n;
	m->wall_s = wall / (double)n;
	return 0;
}

/*
 * Row i: prepared, run, looped, torn down; its figures in its point,
 * which counts in the report from now on (the rows that ran, this one
 * too).  0, or the status of a CUDA error.
 */
static int run_row(struct modes_run *mr, struct run *rn, struct report *rep, size_t i)
{
	struct point_report *p = &mr->pts[i];
	struct mode_row *m = &mr->mrows[i];
	const struct gdef *g = mr->sw->models[mr->rows.point[i]];
	rep->npoints = i + 1;
	p->bytes = g->throughput.has_bytes ? g->throughput.bytes : NAN;
	p->items = g->throughput.has_items ? g->throughput.items : NAN;
	/* the first row's events stand for the run's (run_launches gives the report's spans once) */
	int rc = row_prepare(mr, rn, m, p);
	if (rc == 0)
		rc = run_launches(rn, rep, p);
	if (rc == 0)
		rc = loop(mr, rn, m, p->nsamples);
	if (mr->gs && m->mode == MODE_STREAM)
		m->host_waits = gstream_host_waits(mr->gs);
	p->exit_status = rc ? rc : p->checks_failed ? 1 : 0;
	row_teardown(mr, rn);
	return rc;
}

/* The report's top-level phases: the first row's, as a sweep's are its first point's. */
static void top_phases(struct report *rep, const struct mode_row *m)
{
	rep->build_s = m->prepare_s;
	rep->instantiate_s = isnan(m->instantiate_s) ? 0 : m->instantiate_s;
	rep->upload_s = isnan(m->upload_s) ? 0 : m->upload_s;
}

/*
 * The first point's model loaded (the report's load and compile phases,
 * as run_prepare gives a plain file's), then the rows in order, each
 * point's model loaded as its row comes; the report.  The exit status.
 */
static int modes_stages(struct modes_run *mr, struct run *rn, struct report *rep)
{
	struct gpu *gp = rn->ln.gp;
	const struct sweep *sw = mr->sw;
	const struct run_settings *s = &mr->ps[0];
	double t = monotime();
	gp->no_cache = s->no_cache;
	gp->module_api = s->module_api;
	/* the host functions' libraries (host_lib.h), opened by main for every point */
	gp->host_env.libs = s->host_libs;
	int rc = gpu_load(gp);
	if (rc == 0)
		rc = gpu_alloc(gp);
	if (rc != 0)
		return rc;
	rep->load_s = s->frontend_s + (monotime() - t) - gp->compile_s;
	rep->compile_modules = gp->nsources;
	rep->compile_cached = gp->ncached;
	rep->compile_s = gp->compile_s;
	const char *prefix = gp->d->prefix;
	size_t loaded = 0;
	int worst = 0;
	/* the status line, as a sweep's (-v says each row itself) */
	progress_start(mr->rows.n, s->verbosity == VERB_NORMAL);
	/*
	 * In the rows' order (modes.h), so that the report's rows are those
	 * that ran: a point's model is loaded again when the row before was
	 * another point's (--mode over a sweep: the points, once per mode).
	 */
	for (size_t i = 0; i < mr->rows.n && rc == 0; i++) {
		size_t k = mr->rows.point[i];
		progress_update(i, mr->rows.labels[i]);
		if (k != loaded && (rc = load_point(gp, sw->models[k])) != 0)
			break;
		loaded = k;
		gp->d->prefix = i ? mr->rows.labels[i] : NULL;
		use_settings(rn, &mr->ps[k]);
		gpu_verbose(gp, "row %zu of %zu: %s", i + 1, mr->rows.n, mr->rows.labels[i]);
		rc = run_row(mr, rn, rep, i);
		if (mr->pts[i].exit_status > worst)
			worst = mr->pts[i].exit_status;
	}
	progress_end();
	gp->d->prefix = prefix;
	/* a CUDA error: said where it happened, and no report (as for a sweep) */
	if (rc)
		return rc;
	top_phases(rep, &mr->mrows[0]);
	int reported = rep->exit_status = s->expect_fail && worst <= 1 ? 1 - worst : worst;
	run_expect_said(rn, worst);
	rc = run_report(rn, rep);
	return rc == reported ? worst : rc;
}

/* The rows' points for the report: labels, axes, NaN where nothing is known yet. */
static void rows_points(struct modes_run *mr)
{
	const struct mode_rows *r = &mr->rows;
	mr->pts = xcalloc(r->n ? r->n : 1, sizeof *mr->pts);
	mr->mrows = xcalloc(r->n ? r->n : 1, sizeof *mr->mrows);
	for (size_t i = 0; i < r->n; i++) {
		struct point_report *p = &mr->pts[i];
		struct mode_row *m = &mr->mrows[i];
		p->label = r->labels[i];
		p->axes = &r->axes[i * r->naxes];
		p->naxes = r->naxes;
		p->bytes = p->items = NAN;
		p->eval_s = mr->sw->eval_s ? mr->sw->eval_s[r->point[i]] : NAN;
		p->mode = m;
		m->mode = r->mode[i];
		m->prepare_s = m->instantiate_s = m->upload_s = NAN;
		m->submit_s = m->wall_s = NAN;
	}
}

int gpu_run_modes(const struct sweep *sw, const struct run_settings *ps,
		  const struct mode_list *list, struct diag *d)
{
	struct modes_run mr = {.sw = sw, .ps = ps};
	/* validated before (validate_modes.h): it says why if it cannot */
	if (!mode_rows_make(sw, list, &mr.rows, d))
		return 2;
	struct gdef *g = sw->models[0];
	const struct run_settings *s = &ps[0];
	struct report rep;
	struct run rn;
	if (run_begin(&rn, &rep, g, s, d) != 0) {
		mode_rows_free(&mr.rows);
		return 2;
	}
	rows_points(&mr);
	/* none has run yet: they count as each begins (run_row) */
	rep.points = mr.pts;
	rep.npoints = 0;
	struct gpu gp;
	int rc = gpu_open(&gp, g, s->device, s->verbosity, d);
	if (rc == 0)
		rc = gpu_devices_open(&gp, s);
	gp.models = sw->models;
	gp.nmodels = sw->npoints;
	gp.labels = sw->labels;
	launcher_init(&rn.ln, &gp, s);
	/* a timeout writes the report as it stands, just before the process leaves */
	rn.ln.rep = &rep;
	char name[256] = "";
	if (rc == 0) {
		run_report_device(&rn, &rep, name, sizeof name);
		rep.devices = gpu_devices_report(&gp, &rep.ndevices);
		gpu_verbose(&gp, "device %d: %s (sm_%d%d); %zu rows in modes", s->device, name,
			    gp.cc_major, gp.cc_minor, mr.rows.n);
		rc = modes_stages(&mr, &rn, &rep);
	}
	/* --json whatever the status: a run that stopped early writes what it knows */
	run_report_stopped(&rn, &rep, rc);
	run_teardown(&rn);
	gstream_close(mr.gs);
	free((void *)rep.spans);
	free((void *)rep.devices);
	for (size_t i = 0; i < mr.rows.n; i++)
		free((void *)mr.pts[i].samples);
	free(mr.pts);
	free(mr.mrows);
	mode_rows_free(&mr.rows);
	gpu_close(&gp);
	diag_finish(d);
	return rc;
}
