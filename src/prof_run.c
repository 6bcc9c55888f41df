/*
 * --profile's part of a run (see prof_run.h): the profiled launches
 * and the outputs written from the profile.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "describe.h"
#include "fileio.h"
#include "monotime.h"
#include "prof_run.h"
#include "prof_trace.h"
#include "stats.h"
#include "xmalloc.h"

/*
 * After the timed launches, a fresh instantiation with CUPTI attached (the
 * timed ones ran with no profiler at all), launched one at a time so that
 * each launch's records are told apart by a flush.  The timed
 * instantiation goes first: a graph with memory nodes allows one.
 */
int prof_run_launches(struct prof_run *pr, struct launcher *ln, CUevent start, CUevent end,
		     const struct point_report *timed, struct report *rep)
{
	struct gpu *gp = ln->gp;
	uint32_t n = ln->s->profile_launches;
	/* the run's number of the first profiled launch, after the warm-up and timed ones */
	long first = (long)ln->warmup + (long)ln->timed;
	/*
	 * CUPTI is opened only now: opened before the timed launches, it made
	 * a one-node graph's timed launches 2-3% faster on the H100 (measured).
	 */
	if ((pr->prof = profiler_open()) == NULL)
		return 3;
	launcher_drop(ln);
	gpu_verbose(gp, "%u profiled launches", n);
	int rc = profiler_start(pr->prof, gp);
	double inst_s, upload_s;
	if (rc != 0 || (rc = launcher_instantiate(ln, &inst_s, &upload_s)) != 0)
		return rc;
	pr->samples = xcalloc(n ? n : 1, sizeof *pr->samples);
	for (uint32_t k = 0; k < n; k++) {
		long word = first + (long)k;
		CUresult r = launcher_queue(ln, start, end);
		if (r != CUDA_SUCCESS)
			return launcher_failed(ln, word, r);
		if ((rc = launcher_wait(ln, word, end, monotime())) != 0)
			return rc;
		float ms = 0;
		if ((r = cu.EventElapsedTime(&ms, start, end)) != CUDA_SUCCESS) {
			errorx("cannot time profiled launch %u: %s", k + 1, cu_strerror(r));
			return 3;
		}
		pr->samples[k] = ms * 1e-3;
		if ((rc = profiler_flush(pr->prof, k)) != 0)
			return rc;
	}
	if ((rc = profiler_stop(pr->prof)) != 0)
		return rc;
	size_t nrecs;
	const struct prof_rec *recs = profiler_records(pr->prof, &nrecs);
	struct stats st;
	stats_compute(timed->samples, timed->nsamples, &st);
	pr->summary = prof_summarize(gp->g, recs, nrecs, n, pr->samples,
				     timed->nsamples > 0, st.median);
	pr->summary->dropped = profiler_dropped(pr->prof);
	if (pr->summary->dropped)
		diag_warning(gp->d, (struct pos){0}, "CUPTI dropped %llu activity records: "
			     "the profile is incomplete",
			     (unsigned long long)pr->summary->dropped);
	pr->summary->incomplete = profiler_incomplete(pr->prof);
	if (pr->summary->incomplete)
		diag_warning(gp->d, (struct pos){0}, "CUPTI delivered %llu activity records "
			     "without a start or an end; they are left out and the profile is "
			     "incomplete", (unsigned long long)pr->summary->incomplete);
	rep->profile = pr->summary;
	return 0;
}

/* --trace and the coloured --describe, before the report.  0 or 2. */
int prof_run_outputs(struct prof_run *pr, const struct run_settings *s,
		    const struct gdef *g, const char *graph, const struct report *rep)
{
	const struct run_outputs *o = &s->out;
	if (pr->prof == NULL)
		return 0;
	int rc = 0;
	if (o->trace) {
		size_t n;
		const struct prof_rec *recs = profiler_records(pr->prof, &n);
		struct trace_info ti = {graph, rep->device_name, rep->device, rep->devices,
					rep->ndevices};
		FILE *f = output_open(o->trace);
		if (f == NULL) {
			rc = 2;
		} else {
			errno = 0;
			int w = trace_write(f, recs, n, &ti);
			if (output_close(f, o->trace, w == 0 ? OUTPUT_OK : OUTPUT_FAILED) != 0)
				rc = 2;
		}
	}
	if (o->describe) {
		struct describe_overlay ov;
		prof_overlay(pr->summary, &ov);
		struct describe_opts dopts = {.buffers = o->describe_buffers, .overlay = &ov,
					      .format = describe_format_of(o->describe)};
		/* never "-": cli refuses it with --profile (the report is on stdout) */
		FILE *f = output_open(o->describe);
		if (f == NULL)
			return 2;
		/* describe_write says itself why it failed */
		int w = describe_write(g, &dopts, f);
		if (output_close(f, o->describe, w == 0 ? OUTPUT_OK : OUTPUT_REPORTED) != 0)
			rc = 2;
	}
	return rc;
}

void prof_run_free(struct prof_run *pr)
{
	prof_summary_free(pr->summary);
	profiler_free(pr->prof);
	free(pr->samples);
	pr->summary = NULL;
	pr->prof = NULL;
	pr->samples = NULL;
}
