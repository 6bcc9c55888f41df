/*
 * The warm-up and timed launches of one run or point (gpu_timed.h).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "gpu_timed.h"
#include "monotime.h"
#include "stats.h"
#include "stop_rule.h"
#include "xmalloc.h"

/* How one launch is queued: between its events start and end, with what goes before. */
typedef CUresult queue_fn(struct timed *t, struct launcher *ln, CUevent start, CUevent end);

/* The default: the launch alone, as a hand-written driver-API loop queues it. */
static CUresult queue_plain(struct timed *t, struct launcher *ln, CUevent start, CUevent end)
{
	(void)t;
	return launcher_queue(ln, start, end);
}

/*
 * --cold-l2 and --gpu-time: the L2 written over, then the stream held by
 * the blocking kernel while the start event, the launch and the end event
 * are queued, then let go; all of it outside the events.  A blocking
 * kernel queued is released whatever follows, so that no stream waits
 * for ever.
 */
static CUresult queue_prepared(struct timed *t, struct launcher *ln, CUevent start, CUevent end)
{
	CUstream st = ln->gp->stream;
	CUresult r = CUDA_SUCCESS;
	if (t->l2)
		r = cu.MemsetD8Async(t->l2, t->fill++, t->l2_size, st);
	uint32_t seq = 0;
	if (r == CUDA_SUCCESS && ln->s->gpu_time)
		r = gpu_clock_block(&t->clock, st, &seq);
	if (r == CUDA_SUCCESS)
		r = launcher_queue(ln, start, end);
	if (seq)
		gpu_clock_release(&t->clock, seq);
	return r;
}

/* Events for npairs launches at least.  0 or 3. */
static int ensure_events(struct timed *t, size_t npairs)
{
	if (2 * npairs <= t->nev)
		return 0;
	t->ev = xreallocarray(t->ev, 2 * npairs, sizeof *t->ev);
	for (size_t i = t->nev; i < 2 * npairs; i++) {
		CUresult r = cu.EventCreate(&t->ev[i], CU_EVENT_DEFAULT);
		if (r != CUDA_SUCCESS) {
			t->nev = i;
			errorx("cannot create an event: %s", cu_strerror(r));
			return 3;
		}
	}
	t->nev = 2 * npairs;
	return 0;
}

/*
 * What the settings need before the first launch: the timing module (for
 * the clock, which is only noted when it fails, and for --gpu-time, which
 * needs it) and --cold-l2's buffer.  0 or 3.
 */
static int prepare(struct timed *t, struct launcher *ln)
{
	struct gpu *gp = ln->gp;
	const char *what = NULL;
	CUresult r = t->clock_failed ? CUDA_SUCCESS : gpu_clock_open(&t->clock, &what);
	if (r != CUDA_SUCCESS && ln->s->gpu_time) {
		errorx("--gpu-time: the blocking kernel %s: %s", what, cu_strerror(r));
		return 3;
	}
	if (r != CUDA_SUCCESS) {
		t->clock_failed = true;
		diag_warning(gp->d, (struct pos){0}, "the SM clock is not measured: its kernel %s: "
			     "%s", what, cu_strerror(r));
	}
	if (ln->s->cold_l2 && !t->l2) {
		int size = 0;
		r = cu.DeviceGetAttribute(&size, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, gp->dev);
		t->l2_size = size > 0 ? (size_t)size : 1;
		if (r == CUDA_SUCCESS)
			r = cu.MemAlloc(&t->l2, t->l2_size);
		if (r != CUDA_SUCCESS) {
			t->l2 = 0;
			errorx("--cold-l2: cannot allocate a buffer of the L2's %zu bytes: %s",
			       t->l2_size, cu_strerror(r));
			return 3;
		}
	}
	return 0;
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

/* One batch: launches base.. (the run's numbering) of which the first warm are warm-up. */
struct batch {
	long base;
	uint32_t warm, count;
};

/*
 * Queue the batch back to back (the clock probed after its warm-up when
 * probe), wait for every launch queued, and read the timed ones into out.
 * 0, or the exit status after a message.
 */
/*
 * Queue launches from .. to of the batch back to back (the loop of a
 * hand-written program: nothing else in it); *k is where it stopped.
 */
static CUresult queue_range(struct timed *t, struct launcher *ln, queue_fn *queue,
			    const struct batch *b, size_t *k, size_t to)
{
	long fail_at = test_fail_launch() - b->base;
	for (; *k < to; ++*k) {
		CUresult r = (long)*k == fail_at ? CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES :
			queue(t, ln, t->ev[2 * *k], t->ev[2 * *k + 1]);
		if (r != CUDA_SUCCESS)
			return r;
	}
	return CUDA_SUCCESS;
}

/*
 * The clock before the timed launches: the probe on the side stream once
 * the warm-up launches (up to the event after, if any) have run, so that
 * the timed launches follow it on an idle GPU and their stream holds
 * graph launches alone.  The host waits for each warm-up launch in turn,
 * as for any launch (its deadline, --timeout, from the end of the one
 * before: a warm-up that hangs ends the run as a timed launch would),
 * then for the probe, a spin of a bounded length, polling as every wait
 * does: at once for the first 100 us, then in short naps.  0, or the
 * exit status after a message.
 */
static int probe_before(struct timed *t, struct launcher *ln, const struct batch *b)
{
	CUevent after = b->warm ? t->ev[2 * (size_t)b->warm - 1] : NULL;
	CUresult r = CUDA_SUCCESS;
	if (t->side == NULL && (r = cu.StreamCreate(&t->side, CU_STREAM_NON_BLOCKING)) != CUDA_SUCCESS)
		t->side = NULL;
	if (r == CUDA_SUCCESS && t->side_done == NULL &&
	    (r = cu.EventCreate(&t->side_done, CU_EVENT_DISABLE_TIMING)) != CUDA_SUCCESS)
		t->side_done = NULL;
	if (r == CUDA_SUCCESS && after)
		r = cu.StreamWaitEvent ? cu.StreamWaitEvent(t->side, after, 0) : CUDA_ERROR_NOT_SUPPORTED;
	if (r == CUDA_SUCCESS)
		r = gpu_clock_probe(&t->clock, t->side, 0);
	if (r == CUDA_SUCCESS)
		r = cu.EventRecord(t->side_done, t->side);
	/* waited for even when the probe could not be queued: one that hangs must end in _exit */
	double start = monotime();
	for (size_t k = 0; k < (size_t)b->warm; k++) {
		int rc = launcher_wait(ln, b->base + (long)k, t->ev[2 * k + 1], start);
		if (rc)
			return rc;
		start = monotime();
	}
	if (r == CUDA_SUCCESS)
		r = launcher_poll(t->side_done);
	return r == CUDA_SUCCESS ? 0 : launcher_failed(ln, b->base + (long)b->warm, r);
}

static int run_batch(struct timed *t, struct launcher *ln, queue_fn *queue,
		     const struct batch *b, bool probe, double *out)
{
	size_t n = (size_t)b->warm + b->count, queued = 0, waited = 0;
	int failed = 0;
	CUresult r = queue_range(t, ln, queue, b, &queued, b->warm);
	if (r == CUDA_SUCCESS && probe) {
		int rc = probe_before(t, ln, b);
		if (rc)
			return rc;
		waited = (size_t)b->warm;	/* probe_before waited for each */
	}
	if (r == CUDA_SUCCESS)
		r = queue_range(t, ln, queue, b, &queued, n);
	if (r != CUDA_SUCCESS)
		failed = launcher_failed(ln, b->base + (long)queued, r);
	/*
	 * each launch starts when the one before ends: its deadline follows.
	 * After a refused launch, those queued before it are still waited
	 * for: one that hangs would block the driver's teardown at exit, so
	 * it must end in timed_out's _exit like any other.
	 */
	double start = monotime();
	for (size_t k = waited; k < queued; k++) {
		int rc = launcher_wait(ln, b->base + (long)k, t->ev[2 * k + 1], start);
		if (rc)
			return rc;
		start = monotime();
	}
	if (failed)
		return failed;
	for (size_t k = b->warm; k < n; k++) {
		float ms = 0;
		r = cu.EventElapsedTime(&ms, t->ev[2 * k], t->ev[2 * k + 1]);
		if (r != CUDA_SUCCESS) {
			char words[64];
			launcher_words(ln, b->base + (long)k, words, sizeof words);
			errorx("cannot time %s: %s", words, cu_strerror(r));
			return 3;
		}
		out[k - b->warm] = ms * 1e-3;
	}
	return 0;
}

/*
 * add[0..m) merged into v[0..n), sorted ascending, where v has room for
 * both: the stopping rule reads every sample sorted after each batch, and
 * a merge costs O(n) where sorting all again would cost O(n log n).
 */
static void merge_sorted(double *v, size_t n, const double *add, size_t m)
{
	double *b = stats_sorted(add, m);
	size_t i = n, j = m, k = n + m;
	while (j > 0)
		v[--k] = i > 0 && v[i - 1] > b[j - 1] ? v[--i] : b[--j];
	free(b);
}

/* The last probe, after the last timed launch, waited for; the clock readings into rec. */
static void probe_after(struct timed *t, struct launcher *ln, struct proc_record *rec)
{
	if (t->clock.mod == NULL || t->clock_failed)
		return;
	CUstream st = ln->gp->stream;
	CUresult r = gpu_clock_probe(&t->clock, st, 1);
	if (r == CUDA_SUCCESS)
		r = cu.EventRecord(t->ev[0], st);
	/* about a millisecond: polled, as every wait here is */
	if (r == CUDA_SUCCESS)
		r = launcher_poll(t->ev[0]);
	rec->clock_before_mhz = gpu_clock_mhz(&t->clock, 0);
	rec->clock_after_mhz = r == CUDA_SUCCESS ? gpu_clock_mhz(&t->clock, 1) : NAN;
	if (isnan(rec->clock_after_mhz))
		diag_warning(ln->gp->d, (struct pos){0}, "the SM clock after the timed launches is "
			     "not measured: %s", r == CUDA_SUCCESS ? "its probe read no time" :
			     cu_strerror(r));
}

/* The process's part of the record: who ran it, where. */
static void record_begin(struct proc_record *rec, const struct launcher *ln)
{
	memset(rec, 0, sizeof *rec);
	rec->pid = (int32_t)getpid();
	rec->driver_version = cu.driver_version;
	rec->has_uuid = gpu_uuid(ln->gp->dev, rec->uuid);
	rec->clock_before_mhz = rec->clock_after_mhz = NAN;
	proc_record_figures(rec, NULL, 0);
}

/*
 * Batch after batch from b until the rule stops them: the samples into
 * *samples and *n, what stopped them in *why.  0, or the exit status.
 */
static int batches(struct timed *t, struct launcher *ln, const struct stop_rule *rule,
		   struct batch b, double **samples, size_t *n, enum stop_reason *why)
{
	queue_fn *queue = ln->s->cold_l2 || ln->s->gpu_time ? queue_prepared : queue_plain;
	bool probe = !t->clock_failed;
	double *sorted = NULL, sum = 0, precision;
	int rc = 0;
	for (;;) {
		*samples = xreallocarray(*samples, *n + b.count, sizeof **samples);
		sorted = xreallocarray(sorted, *n + b.count, sizeof *sorted);
		if ((rc = ensure_events(t, (size_t)b.warm + b.count)) != 0 ||
		    (rc = run_batch(t, ln, queue, &b, probe, *samples + *n)) != 0)
			break;
		for (uint32_t k = 0; k < b.count; k++)
			sum += (*samples)[*n + k];
		merge_sorted(sorted, *n, *samples + *n, b.count);
		*n += b.count;
		uint32_t next;
		if (stop_after_batch(rule, sorted, *n, sum, why, &next, &precision))
			break;
		b = (struct batch){(long)ln->warmup + (long)*n, 0, next};
		probe = false;
	}
	free(sorted);
	return rc;
}

int timed_launches(struct timed *t, struct launcher *ln, double first_s, double **samples,
		   size_t *n, struct proc_record *rec)
{
	const struct run_settings *s = ln->s;
	const struct stop_rule rule = {.counted = s->repeat_given, .count = s->repeat};
	struct batch b = {0, ln->warmup, stop_first_batch(&rule, first_s)};
	enum stop_reason why = STOP_COUNT;
	record_begin(rec, ln);
	*samples = NULL;
	*n = 0;
	ln->timed = UINT32_MAX;
	int rc = b.count ? prepare(t, ln) : 0;
	if (rc == 0 && b.count)
		rc = batches(t, ln, &rule, b, samples, n, &why);
	if (rc == 0 && *n > 0)
		probe_after(t, ln, rec);
	if (rc == 0 && gpu_clock_gave_up(&t->clock))
		diag_warning(ln->gp->d, (struct pos){0}, "--gpu-time: a launch waited longer than "
			     "%.0f s to be queued, and its time holds the host's part",
			     CLOCK_BLOCK_TIMEOUT_NS * 1e-9);
	ln->timed = (uint32_t)*n;
	proc_record_figures(rec, *samples, *n);
	rec->stopped_by = (uint8_t)why;
	return rc;
}

void timed_free(struct timed *t, bool sticky)
{
	if (!sticky) {
		for (size_t i = 0; i < t->nev; i++)
			cu.EventDestroy(t->ev[i]);
		if (t->side_done)
			cu.EventDestroy(t->side_done);
		if (t->side)
			cu.StreamDestroy(t->side);
		if (t->l2)
			cu.MemFree(t->l2);
		gpu_clock_close(&t->clock);
	}
	free(t->ev);
	memset(t, 0, sizeof *t);
}
