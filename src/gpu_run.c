/*
 * Running the built graph: instantiate, upload, the verification launch
 * and its checks and dumps, then warm-up and timed launches queued back to
 * back, each between its own pair of events, and the report.  Launching
 * and waiting (with --timeout) are gpu_launch.c's; --profile's launches
 * and outputs are prof_run.c's, after the timed ones.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fileio.h"
#include "gpu.h"
#include "gpu_build.h"
#include "gpu_devices.h"
#include "gpu_dot.h"
#include "gpu_launch.h"
#include "gpu_mem.h"
#include "gpu_run.h"
#include "gpu_timed.h"
#include "monotime.h"
#include "prof_run.h"
#include "report.h"
#include "report_emit.h"
#include "buf_check.h"
#include "buf_data.h"
#include "buf_region.h"
#include "stop_rule.h"
#include "xmalloc.h"

/* The buffer --dump=NAME=FILE names, or -1 after a message. */
long run_dump_buffer(const struct gdef *g, const struct dump_req *dr)
{
	for (size_t i = 0; i < g->nbuffers; i++)
		if (strlen(g->buffers[i].name) == dr->buffer_len &&
		    memcmp(g->buffers[i].name, dr->buffer, dr->buffer_len) == 0) {
			if (g->buffers[i].memory == MEM_GRAPH) {
				errorx("--dump: buffer '%s' is graph memory, which has no "
				       "address outside the graph", g->buffers[i].name);
				return -1;
			}
			return (long)i;
		}
	errorx("--dump: no buffer '%.*s' in %s", (int)dr->buffer_len, dr->buffer, g->file);
	return -1;
}

/* Host copies of buffers after the verification launch, read on demand. */
struct readback {
	void **data;
	bool *owned;
};

static const void *read_buffer(struct run *rn, struct readback *rb, long b, int *rc)
{
	struct gpu *gp = rn->ln.gp;
	if (rb->data[b])
		return rb->data[b];
	/* never graph memory: the validator refuses checks and dump_buffer dumps of it */
	const struct buffer *buf = &gp->g->buffers[b];
	/* checks and dumps read the elements packed: pitched rows lose their padding */
	bool padded = buffer_padded(buf);
	if (buf->memory != MEM_DEVICE && !padded) {
		rb->data[b] = gp->host[b];
		return rb->data[b];
	}
	void *p = xmalloc(buf->size ? buf->size : 1);
	if (buf->memory != MEM_DEVICE) {
		buffer_pack(buf, gp->pitch[b], gp->host[b], p);
	} else {
		uint64_t span = buffer_span(buf, gp->pitch[b]);
		void *rows = padded ? xmalloc(span ? span : 1) : p;
		CUresult r = cu.MemcpyDtoH(rows, gp->dptr[b], span);
		if (r == CUDA_SUCCESS && padded)
			buffer_pack(buf, gp->pitch[b], rows, p);
		if (padded)
			free(rows);
		if (r != CUDA_SUCCESS) {
			free(p);
			diag_error(gp->d, buf->pos, "cannot read buffer '%s' back: %s", buf->name,
				   cu_strerror(r));
			*rc = 3;
			return NULL;
		}
	}
	rb->data[b] = p;
	rb->owned[b] = true;
	return p;
}

/* Checks and dumps after the verification launch; the checks count in p. */
static int verify(struct run *rn, struct point_report *p)
{
	struct gpu *gp = rn->ln.gp;
	struct gdef *g = gp->g;
	struct readback rb = {
		xcalloc(g->nbuffers ? g->nbuffers : 1, sizeof *rb.data),
		xcalloc(g->nbuffers ? g->nbuffers : 1, sizeof *rb.owned),
	};
	int rc = 0;
	double t = monotime();
	for (size_t i = 0; i < g->nchecks && rc == 0; i++) {
		const struct check *c = &g->checks[i];
		const void *data = read_buffer(rn, &rb, c->buffer.idx, &rc);
		if (data == NULL)
			break;
		/* a check against other buffers reads those too */
		long others[BOUND_COUNT + 1];
		size_t nothers = check_others_used(c, others);
		for (size_t k = 0; k < nothers && data; k++)
			if (read_buffer(rn, &rb, others[k], &rc) == NULL)
				data = NULL;
		if (data == NULL)
			break;
		const struct check_others o = {g->buffers, (const void *const *)rb.data};
		if (check_buffer(c, &g->buffers[c->buffer.idx], data, nothers ? &o : NULL, gp->d))
			p->checks_passed++;
		else
			p->checks_failed++;
	}
	if (g->nchecks && rc == 0)
		gpu_verbose(gp, "%zu check%s in %.3f s, the read-back included", g->nchecks,
			    g->nchecks == 1 ? "" : "s", monotime() - t);
	for (size_t i = 0; i < rn->ln.s->out.ndumps && rc == 0; i++) {
		const struct dump_req *dr = &rn->ln.s->out.dumps[i];
		long b = run_dump_buffer(g, dr);
		const void *data = read_buffer(rn, &rb, b, &rc);
		if (data == NULL)
			break;
		if (dump_write(dr->file, &g->buffers[b], data) != 0) {
			rc = 2;
		} else {
			gpu_verbose(gp, "wrote buffer '%s' to %s", g->buffers[b].name, dr->file);
		}
	}
	for (size_t i = 0; i < g->nbuffers; i++)
		if (rb.owned[i])
			free(rb.data[i]);
	free(rb.data);
	free(rb.owned);
	return rc;
}

/* Spans between consecutively listed events that both were recorded. */
static struct event_span *event_spans(struct run *rn, size_t *nspans)
{
	struct gpu *gp = rn->ln.gp;
	struct gdef *g = gp->g;
	struct event_span *spans = xcalloc(g->nevents ? g->nevents : 1, sizeof *spans);
	size_t n = 0;
	for (size_t i = 0; i + 1 < g->nevents; i++) {
		if (!gp->recorded[i] || !gp->recorded[i + 1])
			continue;
		float ms = 0;
		CUresult r = cu.EventElapsedTime(&ms, gp->events[i], gp->events[i + 1]);
		if (r != CUDA_SUCCESS) {
			diag_warning(gp->d, g->events[i + 1].pos, "no time between events '%s' "
				     "and '%s': %s", g->events[i].name, g->events[i + 1].name,
				     cu_strerror(r));
			continue;
		}
		spans[n].from = g->events[i].name;
		spans[n].to = g->events[i + 1].name;
		spans[n].seconds = ms * 1e-3;
		n++;
	}
	*nspans = n;
	return spans;
}

/* The verification launch's pair of events (the profiled launches' too).  0 or 3. */
static int make_events(struct run *rn)
{
	for (size_t i = 0; i < sizeof rn->ev / sizeof *rn->ev; i++) {
		if (rn->ev[i])
			continue;
		CUresult r = cu.EventCreate(&rn->ev[i], CU_EVENT_DEFAULT);
		if (r != CUDA_SUCCESS) {
			rn->ev[i] = NULL;
			errorx("cannot create an event: %s", cu_strerror(r));
			return 3;
		}
	}
	return 0;
}

/*
 * Host functions (host_lib.h), once launches have finished: the failures
 * since the last time ran in launch when, or are said (when NULL), each
 * node's a failed check.
 */
static void host_failures(struct run *rn, struct point_report *p, const char *when)
{
	struct gpu *gp = rn->ln.gp;
	for (size_t i = 0; i < gp->ncalls; i++) {
		struct host_fn_state *st = gp->calls[i]->fn;
		if (st && when)
			host_fn_when(st, when);
		else if (st)
			p->checks_failed += host_fn_told(st, gp->calls[i]->n, gp->d);
	}
}

/*
 * The verification: run.verify_launches launches one after another, each
 * waited for (they are not timed but the first), host dumps armed for the
 * last; the checks then see the state after it.  0 or the exit status.
 */
static int verification(struct run *rn, struct report *rep, struct point_report *p)
{
	struct gpu *gp = rn->ln.gp;
	uint32_t n = rn->ln.s->verify_launches ? rn->ln.s->verify_launches : 1;
	if (n == 1)
		gpu_verbose(gp, "verification launch");
	else
		gpu_verbose(gp, "%u verification launches", n);
	for (uint32_t m = 0; m < n; m++) {
		long k = -1 - (long)m;
		host_dump_arm(&gp->host_env, m + 1 == n);
		CUresult r = launcher_queue(&rn->ln, rn->ev[0], rn->ev[1]);
		if (r != CUDA_SUCCESS)
			return launcher_failed(&rn->ln, k, r);
		int rc = launcher_wait(&rn->ln, k, rn->ev[1], monotime());
		if (rc != 0)
			return rc;
		float ms = 0;
		if (m == 0 && cu.EventElapsedTime(&ms, rn->ev[0], rn->ev[1]) == CUDA_SUCCESS)
			p->first_launch_s = ms * 1e-3;
		rep->no_launch = false;
		char words[64];
		launcher_words(&rn->ln, k, words, sizeof words);
		host_failures(rn, p, words);
	}
	host_dump_arm(&gp->host_env, false);
	host_failures(rn, p, NULL);
	return 0;
}

int run_launches(struct run *rn, struct report *rep, struct point_report *p)
{
	struct gpu *gp = rn->ln.gp;
	const struct run_settings *s = rn->ln.s;
	int rc;
	if ((rc = gpu_init_buffers(gp)) != 0 || (rc = make_events(rn)) != 0)
		return rc;
	if ((rc = verification(rn, rep, p)) != 0)
		return rc;
	/* the first point's events stand for the report's */
	if (rep->spans == NULL)
		rep->spans = event_spans(rn, &rep->nspans);
	if ((rc = verify(rn, p)) != 0)
		return rc;

	if (s->repeat_given)
		gpu_verbose(gp, "%u warm-up and %u timed launches", rn->ln.warmup, s->repeat);
	else
		gpu_verbose(gp, "%u warm-up launches, then timed ones until the median is known "
			    "to %g%% or they add up to %g s", rn->ln.warmup, 100 * STOP_TARGET,
			    STOP_CAP_S);
	double *samples;
	size_t n;
	rc = timed_launches(&rn->timed, &rn->ln, p->first_launch_s, &samples, &n, &p->self);
	p->samples = samples;
	/* samples count in the report once they are all there */
	if (rc != 0)
		return rc;
	p->nsamples = n;
	p->timed = true;
	host_failures(rn, p, "the warm-up and timed launches");
	host_failures(rn, p, NULL);
	return 0;
}

void run_teardown(struct run *rn)
{
	struct gpu *gp = rn->ln.gp;
	bool usable = !gp->sticky && gp->ctx_retained;
	if (usable) {
		for (size_t i = 0; i < sizeof rn->ev / sizeof *rn->ev; i++)
			if (rn->ev[i])
				cu.EventDestroy(rn->ev[i]);
		launcher_drop(&rn->ln);
	}
	timed_free(&rn->timed, !usable);
	prof_run_free(&rn->profile);
	memset(rn->ev, 0, sizeof rn->ev);
}

/* The report and everything written from it (report_emit.h); the exit status. */
int run_report(struct run *rn, struct report *rep)
{
	rn->reported = true;
	return report_emit(rep, rn->ln.s);
}

void run_expect_said(const struct run *rn, int status)
{
	const struct gdef *g = rn->ln.gp->g;
	if (rn->ln.s->expect_fail && status == 0)
		diag_error(rn->ln.gp->d, g->run.pos, "every check passed, but run.expect is fail");
}

void run_report_stopped(struct run *rn, struct report *rep, int status)
{
	if (rn->reported)
		return;
	rn->reported = true;
	rep->exit_status = status;
	report_emit_json(rep, rn->ln.s);
}

/*
 * Each stage after gpu_open; returns the exit status.  The report's
 * phases: compile is NVRTC (or the cache) for source modules; load is
 * reading and checking the file (timed by main), then modules,
 * functions, the argument check, buffers and events; build is
 * the conditional handles and every node.
 */
static int run_stages(struct run *rn, struct report *rep, struct point_report *p)
{
	struct gpu *gp = rn->ln.gp;
	const struct run_settings *s = rn->ln.s;
	int rc;

	/* the device's marks count since their reset: this file's, not an earlier one's */
	rep->has_graph_mem = gpu_mem_wanted(gp);
	if (rep->has_graph_mem && (rc = gpu_mem_reset(gp)) != 0)
		return rc;
	if ((rc = run_prepare(rn, rep)) != 0)
		return rc;
	if (rep->has_graph_mem && (rc = gpu_mem_read(gp, &rep->mem_uploaded)) != 0)
		return rc;
	if ((rc = run_launches(rn, rep, p)) != 0)
		return rc;
	if (rep->has_graph_mem && (rc = gpu_mem_read(gp, &rep->mem_launched)) != 0)
		return rc;
	/* the verification launch's pair of events is free again */
	if (s->profile && (rc = prof_run_launches(&rn->profile, &rn->ln, rn->ev[0], rn->ev[1],
						 p, rep)) != 0)
		return rc;
	int status = p->exit_status = p->checks_failed ? 1 : 0;
	/* before the report, so that its exit_status counts a failed write */
	if ((rc = prof_run_outputs(&rn->profile, s, gp->g, rn->ln.gname, rep)) != 0)
		status = rc;
	/*
	 * The report's exit_status is the process's: under run.expect: fail,
	 * main.c's expectation() makes a failed check 0 and none failed 1.
	 * What the report adds (a comparison's SLOWER, a failed output) is
	 * returned as it is; otherwise the status before the expectation, which
	 * main applies.
	 */
	int reported = rep->exit_status = s->expect_fail && status <= 1 ? 1 - status : status;
	run_expect_said(rn, status);
	rc = run_report(rn, rep);
	return rc == reported ? status : rc;
}

int run_prepare(struct run *rn, struct report *rep)
{
	struct gpu *gp = rn->ln.gp;
	const struct run_settings *s = rn->ln.s;
	int rc;

	double t = monotime();
	gp->no_cache = s->no_cache;
	gp->module_api = s->module_api;
	gp->host_env.libs = s->host_libs;
	if ((rc = gpu_load(gp)) != 0 || (rc = gpu_alloc(gp)) != 0)
		return rc;
	/* compiling source modules is a phase of its own */
	rep->load_s = s->frontend_s + (monotime() - t) - gp->compile_s;
	rep->compile_modules = gp->nsources;
	rep->compile_cached = gp->ncached;
	rep->compile_s = gp->compile_s;
	t = monotime();
	if ((rc = gpu_build(gp)) != 0)
		return rc;
	rep->build_s = monotime() - t;
	if (s->out.dot) {
		if ((rc = gpu_dot_write(gp, s->out.dot, s->out.dot_flags)) != 0)
			return rc;
		gpu_verbose(gp, "wrote the driver's DOT to %s", s->out.dot);
	}
	return launcher_instantiate(&rn->ln, &rep->instantiate_s, &rep->upload_s);
}

int run_begin(struct run *rn, struct report *rep, const struct gdef *g,
	      const struct run_settings *s, struct diag *d)
{
	/* what a report of a run that stops early says too (run_report_stopped) */
	memset(rep, 0, sizeof *rep);
	rep->name = g->name;
	rep->file = g->file;
	rep->root = g->root;
	rep->model = g;
	rep->load_s = s->frontend_s;
	rep->no_launch = true;
	rep->diag = d;
	rep->peak_gb_per_s = NAN;
	memset(rn, 0, sizeof *rn);
	/* bad --dump names before any GPU work */
	for (size_t i = 0; i < s->out.ndumps; i++)
		if (run_dump_buffer(g, &s->out.dumps[i]) < 0) {
			rn->ln.s = s;
			run_report_stopped(rn, rep, 2);
			return 2;
		}
	return 0;
}

void run_report_device(const struct run *rn, struct report *rep, char *name, size_t len)
{
	const struct gpu *gp = rn->ln.gp;
	cu.DeviceGetName(name, (int)len, gp->dev);
	rep->device = rn->ln.s->device;
	rep->device_name = name;
	rep->cc_major = gp->cc_major;
	rep->cc_minor = gp->cc_minor;
	rep->driver_version = cu.driver_version;
	rep->peak_gb_per_s = gp->peak_gb_per_s;
	rep->warmup = rn->ln.warmup;
}

void run_flops(const struct run *rn, const struct gdef *g, struct flops_decl *f)
{
	const struct gpu *gp = rn->ln.gp;
	const struct throughput_decl *t = &g->throughput;
	memset(f, 0, sizeof *f);
	f->declared = t->has_flops;
	f->flops = t->flops;
	f->type = t->has_flops_type ? t->flops_type : -1;
	f->peak_tflops = NAN;
	if (!t->has_flops || !t->has_flops_type)
		return;
	int sms = 0, khz = 0;
	const char *why = NULL;
	if (cu.DeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, gp->dev) ||
	    cu.DeviceGetAttribute(&khz, CU_DEVICE_ATTRIBUTE_CLOCK_RATE, gp->dev))
		sms = khz = 0;
	f->peak_tflops = flops_peak(gp->cc_major, gp->cc_minor, sms, khz,
				    (enum flops_type)t->flops_type, &why);
	snprintf(f->why, sizeof f->why, "%s", why ? why : "");
}

int gpu_run(struct gdef *g, const struct run_settings *s, struct diag *d)
{
	struct report rep;
	struct run rn;
	if (run_begin(&rn, &rep, g, s, d) != 0)
		return 2;
	/* a plain file is one point without a label */
	struct point_report one = {.bytes = NAN, .items = NAN, .eval_s = NAN};
	rep.points = &one;
	rep.npoints = 1;
	struct gpu gp;
	int rc = gpu_open(&gp, g, s->device, s->verbosity, d);
	if (rc == 0)
		rc = gpu_devices_open(&gp, s);
	launcher_init(&rn.ln, &gp, s);
	/* a timeout writes the report as it stands, just before the process leaves */
	rn.ln.rep = &rep;
	char name[256] = "";
	if (rc == 0) {
		run_report_device(&rn, &rep, name, sizeof name);
		rep.devices = gpu_devices_report(&gp, &rep.ndevices);
		/* throughput: in the file, or NaN */
		one.bytes = g->throughput.has_bytes ? g->throughput.bytes : NAN;
		one.items = g->throughput.has_items ? g->throughput.items : NAN;
		run_flops(&rn, g, &one.flops);
		gpu_verbose(&gp, "device %d: %s (sm_%d%d)", s->device, name, gp.cc_major,
			    gp.cc_minor);
		rc = run_stages(&rn, &rep, &one);
	}
	/* --json whatever the status: a run that stopped early writes what it knows */
	run_report_stopped(&rn, &rep, rc);
	run_teardown(&rn);
	free((void *)rep.spans);
	free((void *)one.samples);
	free((void *)rep.devices);
	gpu_close(&gp);
	diag_finish(d);
	return rc;
}
