/*
 * Running the built graph: instantiate, upload, the verification launch
 * and its checks and dumps, then warm-up and timed launches queued back to
 * back, each between its own pair of events, and the report.  Every wait
 * polls against the --timeout deadline: a WHILE that never ends blocks
 * cuStreamSynchronize and context teardown forever, so on timeout we
 * report, flush and _exit(124) without touching CUDA again.  --profile's
 * launches and outputs are profile_run.c's, through the helpers this file
 * lends in a struct profile_host (profile_run.h).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "fileio.h"
#include "gpu.h"
#include "gpu_build.h"
#include "monotime.h"
#include "prof_run.h"
#include "report.h"
#include "buf_data.h"
#include "xmalloc.h"

/* enum inst_flag bits to the driver's, in one table. */
static const struct {
	unsigned ours;
	cuuint64_t cuda;
} inst_flags[] = {
	{INST_UPLOAD, CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD},
	{INST_AUTO_FREE_ON_LAUNCH, CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH},
	{INST_USE_NODE_PRIORITY, CUDA_GRAPH_INSTANTIATE_FLAG_USE_NODE_PRIORITY},
	{INST_DEVICE_LAUNCH, CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH},
};

/* What the run needs besides the built graph. */
struct run {
	struct gpu *gp;
	const struct run_settings *s;
	const struct options *o;
	const char *gname;              /* the graph's name: or file, for messages */
	uint32_t warmup;                /* s->warmup, or 0 when nothing is timed */
	CUgraphExec exec;
	CUevent *ev;                    /* start and end per launch */
	size_t nev;
	struct profile_run profile;     /* --profile (profile_run.h) */
};

/* Launch k of the run in words: "the verification launch", "timed launch 3 of 100". */
static void launch_words(const struct run *rn, long k, char *buf, size_t len)
{
	if (k < 0)
		snprintf(buf, len, "the verification launch");
	else if ((uint64_t)k < rn->warmup)
		snprintf(buf, len, "warm-up launch %ld of %u", k + 1, rn->warmup);
	else if ((uint64_t)k >= (uint64_t)rn->warmup + rn->s->repeat)
		snprintf(buf, len, "profiled launch %ld of %u",
			 k + 1 - (long)rn->warmup - (long)rn->s->repeat, rn->o->profile_launches);
	else
		snprintf(buf, len, "timed launch %ld of %u", k + 1 - (long)rn->warmup,
			 rn->s->repeat);
}

/* A limit as people write it: "1 s", "500 ms", "1.5 min". */
static void format_limit(uint64_t ns, char *buf, size_t len)
{
	static const struct {
		const char *unit;
		double ns;
	} units[] = {{"min", 60e9}, {"s", 1e9}, {"ms", 1e6}, {"us", 1e3}, {"ns", 1}};
	for (size_t i = 0; i < sizeof units / sizeof *units; i++)
		if ((double)ns >= units[i].ns || units[i].ns == 1) {
			snprintf(buf, len, "%g %s", (double)ns / units[i].ns, units[i].unit);
			return;
		}
}

/* The launch did not end in time: report and leave without CUDA teardown. */
static _Noreturn void timed_out(const struct run *rn, long k)
{
	char words[64], limit[32];
	launch_words(rn, k, words, sizeof words);
	format_limit(rn->s->timeout_ns, limit, sizeof limit);
	/* the limit came from the command line, else from the file's run: */
	const struct run_defaults *r = &rn->gp->g->run;
	bool from_file = !rn->o->has_timeout && r->has_timeout;
	diag_error(rn->gp->d, from_file ? r->pos : (struct pos){0}, "%s of graph '%s' did not "
		   "finish within %s (%s); stopping without CUDA teardown", words, rn->gname,
		   limit, from_file ? "run.timeout" : "--timeout");
	fflush(stdout);
	fflush(stderr);
	_exit(124);
}

/* A launch failed: the context is unusable from here on. */
static int launch_failed(struct run *rn, long k, CUresult r)
{
	char words[64];
	launch_words(rn, k, words, sizeof words);
	diag_error(rn->gp->d, (struct pos){0}, "%s of graph '%s' failed: %s", words,
		   rn->gname, cu_strerror(r));
	rn->gp->sticky = true;
	return 3;
}

/*
 * Poll until query() says done, or the deadline (0: none) passes.
 * Returns CUDA_SUCCESS, an error, or CUDA_ERROR_TIMEOUT.
 */
static CUresult poll_until(CUresult (*query)(void *), void *arg, double deadline)
{
	struct timespec nap = {0, 20000};
	for (;;) {
		CUresult r = query(arg);
		if (r != CUDA_ERROR_NOT_READY)
			return r;
		if (deadline > 0 && monotime() > deadline)
			return CUDA_ERROR_TIMEOUT;
		nanosleep(&nap, NULL);
	}
}

static CUresult query_event(void *ev)
{
	return cu.EventQuery(ev);
}

static CUresult query_stream(void *st)
{
	return cu.StreamQuery(st);
}

static double deadline_from(const struct run *rn, double t)
{
	return rn->s->timeout_ns ? t + (double)rn->s->timeout_ns * 1e-9 : 0;
}

/* Wait for launch k's end event (k < 0: verification) with its deadline. */
static int wait_launch(struct run *rn, long k, CUevent end, double start)
{
	CUresult r = poll_until(query_event, end, deadline_from(rn, start));
	if (r == CUDA_ERROR_TIMEOUT)
		timed_out(rn, k);
	if (r != CUDA_SUCCESS)
		return launch_failed(rn, k, r);
	return 0;
}

static int instantiate(struct run *rn, double *inst_s, double *upload_s)
{
	struct gpu *gp = rn->gp;
	CUDA_GRAPH_INSTANTIATE_PARAMS ip;
	memset(&ip, 0, sizeof ip);
	for (size_t i = 0; i < sizeof inst_flags / sizeof *inst_flags; i++)
		if (rn->s->instantiate & inst_flags[i].ours)
			ip.flags |= inst_flags[i].cuda;
	ip.hUploadStream = gp->stream;
	gpu_verbose(gp, "instantiating (flags 0x%llx)", (unsigned long long)ip.flags);
	double t = monotime();
	CUresult r = cu.GraphInstantiateWithParams(&rn->exec, gp->root, &ip);
	if (r != CUDA_SUCCESS || ip.result_out != CUDA_GRAPH_INSTANTIATE_SUCCESS) {
		rn->exec = NULL;
		const struct node *n = ip.hErrNode_out ? gpu_node_of(gp, ip.hErrNode_out) : NULL;
		const char *why = ip.result_out == CUDA_GRAPH_INSTANTIATE_ERROR ||
			ip.result_out == CUDA_GRAPH_INSTANTIATE_SUCCESS ?
			cu_strerror(r) : cu_inst_result_str(ip.result_out);
		if (n)
			diag_error(gp->d, n->pos, "the driver refused to instantiate the graph "
				   "at node '%s': %s", n->id, why);
		else
			diag_error(gp->d, (struct pos){0}, "the driver refused to instantiate "
				   "the graph: %s", why);
		return 3;
	}
	*inst_s = monotime() - t;
	t = monotime();
	/* with INST_UPLOAD instantiate queued the upload: its time is the wait */
	if (!(rn->s->instantiate & INST_UPLOAD))
		r = cu.GraphUpload(rn->exec, gp->stream);
	if (r == CUDA_SUCCESS)
		r = poll_until(query_stream, gp->stream, 0);
	if (r != CUDA_SUCCESS) {
		errorx("cannot upload the graph: %s", cu_strerror(r));
		return 3;
	}
	*upload_s = monotime() - t;
	return 0;
}

/* The buffer --dump=NAME=FILE names, or -1 after a message. */
static long dump_buffer(const struct gdef *g, const struct dump_req *dr)
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
	struct gpu *gp = rn->gp;
	if (rb->data[b])
		return rb->data[b];
	/* never graph memory: the validator refuses checks and dump_buffer dumps of it */
	const struct buffer *buf = &gp->g->buffers[b];
	if (buf->memory != MEM_DEVICE) {
		rb->data[b] = gp->host[b];
		return rb->data[b];
	}
	void *p = xmalloc(buf->size ? buf->size : 1);
	CUresult r = cu.MemcpyDtoH(p, gp->dptr[b], buf->size);
	if (r != CUDA_SUCCESS) {
		free(p);
		diag_error(gp->d, buf->pos, "cannot read buffer '%s' back: %s", buf->name,
			   cu_strerror(r));
		*rc = 3;
		return NULL;
	}
	rb->data[b] = p;
	rb->owned[b] = true;
	return p;
}

/* Checks and dumps after the verification launch. */
static int verify(struct run *rn, struct report *rep)
{
	struct gpu *gp = rn->gp;
	struct gdef *g = gp->g;
	struct readback rb = {
		xcalloc(g->nbuffers ? g->nbuffers : 1, sizeof *rb.data),
		xcalloc(g->nbuffers ? g->nbuffers : 1, sizeof *rb.owned),
	};
	int rc = 0;
	for (size_t i = 0; i < g->nchecks && rc == 0; i++) {
		const struct check *c = &g->checks[i];
		const void *data = read_buffer(rn, &rb, c->buffer.idx, &rc);
		if (data == NULL)
			break;
		if (check_run(c, &g->buffers[c->buffer.idx], data, gp->d))
			rep->checks_passed++;
		else
			rep->checks_failed++;
	}
	for (size_t i = 0; i < rn->o->ndumps && rc == 0; i++) {
		const struct dump_req *dr = &rn->o->dumps[i];
		long b = dump_buffer(g, dr);
		const void *data = read_buffer(rn, &rb, b, &rc);
		if (data == NULL)
			break;
		if (dump_write(dr->file, &g->buffers[b], data) != 0) {
			errorx("cannot write %s: %s", dr->file, strerror(errno));
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
	struct gpu *gp = rn->gp;
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

/* Destroy the executable graph: --profile instantiates afresh. */
static void drop_exec(struct run *rn)
{
	cu.GraphExecDestroy(rn->exec);
	rn->exec = NULL;
}

/* Queue one launch between events start and end. */
static CUresult launch(struct run *rn, CUevent start, CUevent end)
{
	struct gpu *gp = rn->gp;
	CUresult r = cu.EventRecord(start, gp->stream);
	if (r == CUDA_SUCCESS)
		r = cu.GraphLaunch(rn->exec, gp->stream);
	if (r == CUDA_SUCCESS)
		r = cu.EventRecord(end, gp->stream);
	return r;
}

/*
 * For tests: CUGRAPHRUN_TEST_FAIL_LAUNCH=K makes queueing warm-up or timed
 * launch K (from 0) fail as if the driver had refused it; -1 when unset.
 */
static long test_fail_launch(void)
{
	const char *e = getenv("CUGRAPHRUN_TEST_FAIL_LAUNCH");
	return e && *e ? strtol(e, NULL, 10) : -1;
}

/* Warm-up and timed launches, back to back; samples in seconds. */
static int timed_launches(struct run *rn, double *samples)
{
	size_t n = (size_t)rn->warmup + rn->s->repeat, queued = n;
	long fail_at = test_fail_launch();
	int failed = 0;
	for (size_t k = 0; k < n; k++) {
		CUresult r = (long)k == fail_at ? CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES
						: launch(rn, rn->ev[2 + 2 * k], rn->ev[3 + 2 * k]);
		if (r != CUDA_SUCCESS) {
			failed = launch_failed(rn, (long)k, r);
			queued = k;
			break;
		}
	}
	/*
	 * each launch starts when the one before ends: its deadline follows.
	 * After a refused launch, those queued before it are still waited
	 * for: one that hangs would block the driver's teardown at exit, so
	 * it must end in timed_out's _exit like any other.
	 */
	double t = monotime();
	for (size_t k = 0; k < queued; k++) {
		int rc = wait_launch(rn, (long)k, rn->ev[3 + 2 * k], t);
		if (rc)
			return rc;
		t = monotime();
	}
	if (failed)
		return failed;
	for (size_t k = rn->warmup; k < n; k++) {
		float ms = 0;
		CUresult r = cu.EventElapsedTime(&ms, rn->ev[2 + 2 * k], rn->ev[3 + 2 * k]);
		if (r != CUDA_SUCCESS) {
			char words[64];
			launch_words(rn, (long)k, words, sizeof words);
			errorx("cannot time %s: %s", words, cu_strerror(r));
			return 3;
		}
		samples[k - rn->warmup] = ms * 1e-3;
	}
	return 0;
}

/* The report on stdout (unless quiet or JSON goes there) and as JSON. */
static int print_report(const struct run *rn, const struct report *rep)
{
	const struct options *o = rn->o;
	bool json_stdout = o->json && o->json_file == NULL;
	if (o->verbosity > VERB_QUIET && !json_stdout)
		report_print_human(stdout, rep);
	if (!o->json)
		return 0;
	/* json_file is NULL for standard output */
	FILE *out = output_open(o->json_file);
	if (out == NULL)
		return 2;
	report_print_json(out, rep);
	if (output_close(out, o->json_file, OUTPUT_OK) != 0)
		return 2;
	fflush(stdout);
	return 0;
}

/*
 * Each stage after gpu_open; returns the exit status.  The report's
 * phases: compile is NVRTC (or the cache) for source modules; load is
 * reading and checking the file (timed by main), then modules,
 * functions, the argument check, buffers and events; build is
 * the conditional handles and every node.
 */
static int run_stages(struct run *rn, struct report *rep)
{
	struct gpu *gp = rn->gp;
	const struct run_settings *s = rn->s;
	int rc;

	double t = monotime();
	gp->no_cache = rn->o->no_cache;
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
	if (rn->o->dot) {
		CUresult r = cu.GraphDebugDotPrint(gp->root, rn->o->dot,
						   rn->o->has_dot_flags ? rn->o->dot_flags : 0);
		if (r != CUDA_SUCCESS) {
			errorx("cannot write %s: %s", rn->o->dot, cu_strerror(r));
			return 2;
		}
		if (driver_dot_annotate(rn->o->dot, gp) != 0)
			return 2;
		gpu_verbose(gp, "wrote the driver's DOT to %s", rn->o->dot);
	}
	if ((rc = instantiate(rn, &rep->instantiate_s, &rep->upload_s)) != 0)
		return rc;
	if ((rc = gpu_init_buffers(gp)) != 0)
		return rc;

	/* two events per launch: the verification launch, then warm-up + timed */
	rn->nev = 2 * (1 + (size_t)rn->warmup + s->repeat);
	rn->ev = xcalloc(rn->nev, sizeof *rn->ev);
	for (size_t i = 0; i < rn->nev; i++) {
		CUresult r = cu.EventCreate(&rn->ev[i], CU_EVENT_DEFAULT);
		if (r != CUDA_SUCCESS) {
			rn->ev[i] = NULL;
			errorx("cannot create an event: %s", cu_strerror(r));
			return 3;
		}
	}

	gpu_verbose(gp, "verification launch");
	CUresult r = launch(rn, rn->ev[0], rn->ev[1]);
	if (r != CUDA_SUCCESS)
		return launch_failed(rn, -1, r);
	if ((rc = wait_launch(rn, -1, rn->ev[1], monotime())) != 0)
		return rc;
	float ms = 0;
	if ((r = cu.EventElapsedTime(&ms, rn->ev[0], rn->ev[1])) == CUDA_SUCCESS)
		rep->first_launch_s = ms * 1e-3;
	struct event_span *spans = event_spans(rn, &rep->nspans);
	rep->spans = spans;
	if ((rc = verify(rn, rep)) != 0)
		return rc;

	gpu_verbose(gp, "%u warm-up and %u timed launches", rn->warmup, s->repeat);
	double *samples = xcalloc(s->repeat ? s->repeat : 1, sizeof *samples);
	rep->samples = samples;
	rep->nsamples = s->repeat;
	if ((rc = timed_launches(rn, samples)) != 0)
		return rc;
	if (rn->o->profile) {
		struct profile_host h = {
			.run = rn, .gp = gp, .launches = rn->o->profile_launches,
			.first = (long)rn->warmup + (long)s->repeat,
			/* the verification launch's pair, free again */
			.start = rn->ev[0], .end = rn->ev[1],
			.drop_exec = drop_exec, .instantiate = instantiate, .launch = launch,
			.wait_launch = wait_launch, .launch_failed = launch_failed,
		};
		if ((rc = profile_launches(&rn->profile, &h, rep)) != 0)
			return rc;
	}
	rep->exit_status = rep->checks_failed ? 1 : 0;
	/* before the report, so that its exit_status counts a failed write */
	if ((rc = profile_outputs(&rn->profile, rn->o, gp->g, rn->gname, rep)) != 0)
		rep->exit_status = rc;
	rc = print_report(rn, rep);
	return rc ? rc : rep->exit_status;
}

int gpu_run(struct gdef *g, const struct run_settings *s, const struct options *o,
	    struct diag *d)
{
	/* bad --dump names before any GPU work */
	for (size_t i = 0; i < o->ndumps; i++)
		if (dump_buffer(g, &o->dumps[i]) < 0)
			return 2;
	struct gpu gp;
	int rc = gpu_open(&gp, g, s->device, o->verbosity, d);
	struct report rep;
	memset(&rep, 0, sizeof rep);
	struct run rn = {
		.gp = &gp, .s = s, .o = o,
		.gname = g->name ? g->name : g->file,
		/* -n 0: the verification launch only, no warm-up either */
		.warmup = s->repeat ? s->warmup : 0,
	};
	if (rc == 0) {
		char name[256] = "";
		cu.DeviceGetName(name, sizeof name, gp.dev);
		rep.name = g->name;
		rep.file = g->file;
		rep.device = s->device;
		rep.device_name = name;
		rep.cc_major = gp.cc_major;
		rep.cc_minor = gp.cc_minor;
		rep.driver_version = cu.driver_version;
		rep.root = g->root;
		rep.warmup = rn.warmup;
		gpu_verbose(&gp, "device %d: %s (sm_%d%d)", s->device, name, gp.cc_major,
			    gp.cc_minor);
		rc = run_stages(&rn, &rep);
	}
	if (!gp.sticky && gp.ctx_retained) {
		for (size_t i = 0; i < rn.nev; i++)
			if (rn.ev[i])
				cu.EventDestroy(rn.ev[i]);
		if (rn.exec)
			cu.GraphExecDestroy(rn.exec);
	}
	profile_run_free(&rn.profile);
	free(rn.ev);
	free((void *)rep.spans);
	free((void *)rep.samples);
	gpu_close(&gp);
	diag_finish(d);
	return rc;
}
