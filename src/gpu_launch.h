/*
 * Launching the instantiated graph, the one way the timed run (gpu_run.c)
 * and the profiled run (prof_run.c) both do it: instantiate and upload,
 * queue one launch between two events, wait for it against the
 * --timeout deadline, and say in words which launch failed or hung.
 * Every wait polls: a WHILE that never ends blocks cuStreamSynchronize
 * and context teardown forever, so on timeout the launcher reports,
 * flushes and _exit(124)s without touching CUDA again.
 *
 * Launches are numbered as messages name them: -1 the verification
 * launch (-1 to -N for run.verify_launches: N), then the warm-up, the
 * timed and the profiled ones from 0.
 *
 * Ownership: a struct launcher owns its executable graph
 * (launcher_drop); it borrows the gpu and the settings.
 */
#ifndef CGR_GPU_LAUNCH_H
#define CGR_GPU_LAUNCH_H

#include <stddef.h>
#include <stdint.h>

#include "cuda_api.h"
#include "gpu_build.h"
#include "run_settings.h"

struct launcher {
	struct gpu *gp;                 /* borrowed */
	const struct run_settings *s;   /* borrowed */
	const char *gname;              /* the graph's name: or file, for messages */
	uint32_t warmup;                /* s->warmup, or 0 when nothing is timed */
	/* the timed launches made, once they are over (the profiled ones follow); UINT32_MAX before */
	uint32_t timed;
	CUgraphExec exec;               /* NULL until instantiated */
	struct report *rep;             /* borrowed: written as --json on a timeout */
	/* stream mode (gpu_stream.h): one launch's issue, in place of cuGraphLaunch; NULL: the graph */
	CUresult (*issue)(void *arg);
	void *issue_arg;
};

void launcher_init(struct launcher *ln, struct gpu *gp, const struct run_settings *s);
/* Instantiate gp->root with the settings' flags and upload it.  0, or 3 after a message. */
int launcher_instantiate(struct launcher *ln, double *inst_s, double *upload_s);
/* Destroy the executable graph (safe when there is none). */
void launcher_drop(struct launcher *ln);
/* Queue one launch between events start and end. */
CUresult launcher_queue(struct launcher *ln, CUevent start, CUevent end);
/* Wait for launch k's end event, its deadline counted from start; 0, or 3 (or _exit(124)). */
int launcher_wait(struct launcher *ln, long k, CUevent end, double start);
/* Wait for event ev, with no deadline (work of a bounded length), as launcher_wait polls. */
CUresult launcher_poll(CUevent ev);
/*
 * Launch k did not finish within the run's --timeout: say so, write the
 * report (--json), and _exit(124) without CUDA teardown.  For waits of
 * the launcher's user (stream mode's host loop, gpu_stream.c).
 */
_Noreturn void launcher_timed_out(const struct launcher *ln, long k);
/* Say launch k failed with r; the context is unusable from here on.  Returns 3. */
int launcher_failed(struct launcher *ln, long k, CUresult r);
/* Launch k in words: "the verification launch", "timed launch 3 of 100" ("timed launch 3" without a count). */
void launcher_words(const struct launcher *ln, long k, char *buf, size_t len);

#endif
