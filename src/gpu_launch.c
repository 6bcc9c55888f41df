/*
 * Launching the instantiated graph (gpu_launch.h).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gpu_launch.h"
#include "report_emit.h"
#include "monotime.h"

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

void launcher_init(struct launcher *ln, struct gpu *gp, const struct run_settings *s)
{
	const struct gdef *g = gp->g;
	*ln = (struct launcher){
		.gp = gp, .s = s,
		.gname = g->name ? g->name : g->file,
		/* -n 0: the verification launch only, no warm-up either */
		.warmup = s->repeat_given && s->repeat == 0 ? 0 : s->warmup,
		.timed = UINT32_MAX,
	};
}

void launcher_words(const struct launcher *ln, long k, char *buf, size_t len)
{
	uint32_t verify = ln->s->verify_launches;
	if (k < 0 && verify > 1)
		snprintf(buf, len, "verification launch %ld of %u", -k, verify);
	else if (k < 0)
		snprintf(buf, len, "the verification launch");
	else if ((uint64_t)k < ln->warmup)
		snprintf(buf, len, "warm-up launch %ld of %u", k + 1, ln->warmup);
	else if (ln->timed != UINT32_MAX && (uint64_t)k >= (uint64_t)ln->warmup + ln->timed)
		snprintf(buf, len, "profiled launch %ld of %u",
			 k + 1 - (long)ln->warmup - (long)ln->timed, ln->s->profile_launches);
	else if (ln->s->repeat_given)
		snprintf(buf, len, "timed launch %ld of %u", k + 1 - (long)ln->warmup,
			 ln->s->repeat);
	else
		snprintf(buf, len, "timed launch %ld", k + 1 - (long)ln->warmup);
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
static _Noreturn void timed_out(const struct launcher *ln, long k)
{
	char words[64], limit[32];
	launcher_words(ln, k, words, sizeof words);
	format_limit(ln->s->timeout_ns, limit, sizeof limit);
	/* the limit came from the command line, else from the file's run: */
	bool from_file = ln->s->timeout_from_file;
	diag_error(ln->gp->d, from_file ? ln->gp->g->run.pos : (struct pos){0},
		   "%s of graph '%s' did not finish within %s (%s); stopping without CUDA "
		   "teardown", words, ln->gname, limit, from_file ? "run.timeout" : "--timeout");
	/* the report of a run that hangs is written too: --json always has one */
	if (ln->rep) {
		ln->rep->exit_status = 124;
		report_emit_json(ln->rep, ln->s);
	}
	fflush(stdout);
	fflush(stderr);
	_exit(124);
}

void launcher_timed_out(const struct launcher *ln, long k)
{
	timed_out(ln, k);
}

int launcher_failed(struct launcher *ln, long k, CUresult r)
{
	char words[64];
	launcher_words(ln, k, words, sizeof words);
	diag_error(ln->gp->d, (struct pos){0}, "%s of graph '%s' failed: %s", words,
		   ln->gname, cu_strerror(r));
	ln->gp->sticky = true;
	return 3;
}

/* How long a wait polls without sleeping: a nap costs 50 us and more of the kernel's timer slack. */
#define POLL_SPIN_S 100e-6

/*
 * Poll until query() says done, or the deadline (0: none) passes.
 * Returns CUDA_SUCCESS, an error, or CUDA_ERROR_TIMEOUT.  The first
 * POLL_SPIN_S it asks again at once: most launches end within it, and a
 * sweep of many short points waits for one launch at a time.
 */
static CUresult poll_until(CUresult (*query)(void *), void *arg, double deadline)
{
	struct timespec nap = {0, 20000};
	double spin_end = monotime() + POLL_SPIN_S;
	for (;;) {
		CUresult r = query(arg);
		if (r != CUDA_ERROR_NOT_READY)
			return r;
		double now = monotime();
		if (deadline > 0 && now > deadline)
			return CUDA_ERROR_TIMEOUT;
		if (now > spin_end)
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

CUresult launcher_poll(CUevent ev)
{
	return poll_until(query_event, ev, 0);
}

int launcher_wait(struct launcher *ln, long k, CUevent end, double start)
{
	double deadline = ln->s->timeout_ns ? start + (double)ln->s->timeout_ns * 1e-9 : 0;
	CUresult r = poll_until(query_event, end, deadline);
	if (r == CUDA_ERROR_TIMEOUT)
		timed_out(ln, k);
	if (r != CUDA_SUCCESS)
		return launcher_failed(ln, k, r);
	return 0;
}

/*
 * enabled: false and --disable: the nodes switched off on the executable
 * graph, before its upload, for every launch of it.  0 or 3.
 */
static int switch_off(struct launcher *ln)
{
	struct gpu *gp = ln->gp;
	for (size_t i = 0; i < gp->nnodes; i++) {
		const struct node *n = gp->nodes[i].n;
		if (!n->disabled)
			continue;
		CUresult r = cu.GraphNodeSetEnabled(ln->exec, gp->nodes[i].h, 0);
		if (r != CUDA_SUCCESS) {
			diag_error(gp->d, n->pos, "cannot switch off node '%s': %s", n->id,
				   cu_strerror(r));
			return 3;
		}
		gpu_verbose(gp, "switched off node '%s'", n->id);
	}
	return 0;
}

int launcher_instantiate(struct launcher *ln, double *inst_s, double *upload_s)
{
	struct gpu *gp = ln->gp;
	CUDA_GRAPH_INSTANTIATE_PARAMS ip;
	memset(&ip, 0, sizeof ip);
	for (size_t i = 0; i < sizeof inst_flags / sizeof *inst_flags; i++)
		if (ln->s->instantiate & inst_flags[i].ours)
			ip.flags |= inst_flags[i].cuda;
	ip.hUploadStream = gp->stream;
	gpu_verbose(gp, "instantiating (flags 0x%llx)", (unsigned long long)ip.flags);
	double t = monotime();
	CUresult r = cu.GraphInstantiateWithParams(&ln->exec, gp->root, &ip);
	if (r != CUDA_SUCCESS || ip.result_out != CUDA_GRAPH_INSTANTIATE_SUCCESS) {
		ln->exec = NULL;
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
	if (switch_off(ln) != 0)
		return 3;
	t = monotime();
	/* with INST_UPLOAD instantiate queued the upload: its time is the wait */
	if (!(ln->s->instantiate & INST_UPLOAD))
		r = cu.GraphUpload(ln->exec, gp->stream);
	if (r == CUDA_SUCCESS)
		r = poll_until(query_stream, gp->stream, 0);
	if (r != CUDA_SUCCESS) {
		errorx("cannot upload the graph: %s", cu_strerror(r));
		return 3;
	}
	*upload_s = monotime() - t;
	return 0;
}

void launcher_drop(struct launcher *ln)
{
	if (ln->exec)
		cu.GraphExecDestroy(ln->exec);
	ln->exec = NULL;
}

CUresult launcher_queue(struct launcher *ln, CUevent start, CUevent end)
{
	struct gpu *gp = ln->gp;
	CUresult r = cu.EventRecord(start, gp->stream);
	if (r == CUDA_SUCCESS)
		r = ln->issue ? ln->issue(ln->issue_arg) : cu.GraphLaunch(ln->exec, gp->stream);
	if (r == CUDA_SUCCESS)
		r = cu.EventRecord(end, gp->stream);
	return r;
}
