/*
 * Suites: see suite.h.  The parent's loop polls the workers' result pipes;
 * a worker's death (EOF on its pipe) with a file in flight is that file's
 * result: exit 124 is the timeout path of gpu_run (it _exits without CUDA
 * teardown), a signal is an error.  Output goes through files in a private
 * temporary directory, one set per file, so that whatever a worker wrote
 * before it died is still there for the parent to print.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <unistd.h>

#include "compare.h"
#include "diag.h"
#include "fileio.h"
#include "gpu.h"
#include "load.h"
#include "monotime.h"
#include "suite.h"
#include "suite_files.h"
#include "suite_junit.h"
#include "suite_result.h"
#include "validate.h"
#include "xmalloc.h"

/* Worker to parent: a file's result or start, or (index -1) the worker's start. */
struct wmsg {
	int32_t index;
	int32_t status;                 /* hello: the GPU count, or -1 */
	uint8_t started;                /* the file is about to run: no result yet */
	uint8_t skipped, xfail;
	double seconds;
	char note[256];
};

struct worker {
	pid_t pid;                      /* 0: none */
	int device;                     /* -1: no GPU (--validate) */
	int to_fd, from_fd;             /* assignments out, results in */
	long file;                      /* in flight, or -1 */
	bool running;                   /* the worker said it started that file */
	double started;
	bool retiring;                  /* its last file ended in 3 or 124 */
	long last;                      /* the file it finished last, or -1 */
};

struct suite {
	const struct options *o;
	run_file_fn *run_file;
	struct file_list list;
	struct file_result *res;
	struct worker *w;
	size_t nw, capw;
	size_t next;                    /* the next file to hand out */
	size_t *again;                  /* files whose worker died before starting them */
	size_t nagain, capagain;
	char tmpdir[256];
	char why[200];                  /* why the loop stopped with files left (rc 3) */
	bool gpu;                       /* not --validate: workers start the driver */
	bool json_stdout;               /* --json to stdout: the reports are in it */
	bool stdout_taken;              /* stdout holds --json or --junit=-: the rest to stderr */
};

/* SIGINT, SIGTERM, or SIGPIPE (stdout's reader left): stop, clean up, die of it. */
static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

bool suite_wanted(const struct options *o)
{
	struct stat st;
	return o->nfiles > 1 || o->junit || o->shard_n || o->has_devices || o->jobs ||
		(stat(o->file, &st) == 0 && S_ISDIR(st.st_mode));
}

/* I/O helpers ------------------------------------------------------------- */

static void capture_path(const struct suite *st, size_t i, const char *ext, char *buf,
			 size_t len)
{
	snprintf(buf, len, "%s/%zu.%s", st->tmpdir, i, ext);
}

/* The whole file, NUL-terminated; NULL (len 0) when there is none. */
/* The worker ---------------------------------------------------------------- */

/* Point fd at path (created, truncated), or at /dev/null when path is NULL. */
static void redirect(int fd, const char *path)
{
	int f = path ? open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600) :
		open("/dev/null", O_WRONLY);
	if (f >= 0 && f != fd) {
		dup2(f, fd);
		close(f);
	}
}

/*
 * A worker: start the driver once (not under --validate), then run each
 * file the parent sends until it closes the pipe.  Leaves with _exit: the
 * driver's teardown may block on a wedged context, and the parent's stdio
 * buffers are not ours to flush.
 */
static _Noreturn void worker_main(struct suite *st, struct worker *me)
{
	struct wmsg m;
	if (me->device >= 0) {
		/* what the start says (no driver...), each file says again */
		redirect(STDERR_FILENO, NULL);
		memset(&m, 0, sizeof m);
		m.index = -1;
		m.status = gpu_worker_init(me->device);
		if (!write_full(me->from_fd, &m, sizeof m))
			_exit(0);
	}
	int32_t idx;
	while (read_full(me->to_fd, &idx, sizeof idx) && idx >= 0 &&
	       (size_t)idx < st->list.n) {
		char out[300], err[300], json[300];
		/* so that a death before the file starts is not the file's */
		memset(&m, 0, sizeof m);
		m.index = idx;
		m.started = 1;
		if (!write_full(me->from_fd, &m, sizeof m))
			_exit(0);
		capture_path(st, (size_t)idx, "out", out, sizeof out);
		capture_path(st, (size_t)idx, "err", err, sizeof err);
		capture_path(st, (size_t)idx, "json", json, sizeof json);
		fflush(stdout);
		fflush(stderr);
		redirect(STDOUT_FILENO, out);
		redirect(STDERR_FILENO, err);
		struct options o = *st->o;
		o.file = st->list.files[idx];
		if (me->device >= 0) {
			o.has_device = true;
			o.device = me->device;
		}
		/* the JUnit document reads each file's points from its report */
		if (o.json || o.junit) {
			o.json = true;
			o.json_file = json;
		}
		struct file_outcome fo;
		memset(&fo, 0, sizeof fo);
		double t = monotime();
		int status = st->run_file(&o, &fo);
		fflush(stdout);
		fflush(stderr);
		memset(&m, 0, sizeof m);
		m.index = idx;
		m.status = status;
		m.skipped = fo.skipped;
		m.xfail = fo.xfail;
		m.seconds = monotime() - t;
		memcpy(m.note, fo.note, sizeof m.note);
		m.note[sizeof m.note - 1] = '\0';
		if (!write_full(me->from_fd, &m, sizeof m))
			_exit(0);
		/* a CUDA error may have wedged the context; a timeout never returns here */
		if (status == 3 || status == 124)
			_exit(status);
	}
	_exit(0);
}

/* The parent ---------------------------------------------------------------- */

/* Hand file i to worker w. */
static void assign(struct suite *st, struct worker *w, size_t i)
{
	int32_t idx = (int32_t)i;
	w->file = (long)i;
	w->running = false;
	w->started = monotime();
	st->res[i].device = w->device;
	/* a worker that died already shows as EOF on its result pipe */
	write_full(w->to_fd, &idx, sizeof idx);
}

static bool files_left(const struct suite *st)
{
	return st->nagain > 0 || st->next < st->list.n;
}

/* The next file to hand out: one given back first, else the next in order. */
static size_t take_file(struct suite *st)
{
	return st->nagain > 0 ? st->again[--st->nagain] : st->next++;
}

/* Say why no worker could be started, and keep it for the files left over. */
static void worker_failed(struct suite *st, const char *why)
{
	errorx("cannot start a worker: %s", why);
	snprintf(st->why, sizeof st->why, "cannot start a worker: %s", why);
}

/* A fresh worker on device (-1: none) with the next file; NULL when none is left. */
static struct worker *spawn(struct suite *st, int device)
{
	if (!files_left(st))
		return NULL;
	int to[2], from[2];
	if (pipe(to) != 0) {
		worker_failed(st, strerror(errno));
		return NULL;
	}
	if (pipe(from) != 0) {
		worker_failed(st, strerror(errno));
		close(to[0]);
		close(to[1]);
		return NULL;
	}
	fflush(NULL);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		worker_failed(st, strerror(errno));
		close(to[0]);
		close(to[1]);
		close(from[0]);
		close(from[1]);
		return NULL;
	}
	if (pid == 0) {
		/* Ctrl-C ends a worker at once; the parent cleans up after both */
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
#ifdef __linux__
		/* a parent killed outright must not leave a worker holding a GPU */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(0);
#endif
		/* the other workers' pipes must not stay open here, or their EOF never comes */
		for (size_t i = 0; i < st->nw; i++)
			if (st->w[i].pid) {
				close(st->w[i].to_fd);
				close(st->w[i].from_fd);
			}
		close(to[1]);
		close(from[0]);
		struct worker me = {.device = device, .to_fd = to[0], .from_fd = from[1]};
		worker_main(st, &me);
	}
	close(to[0]);
	close(from[1]);
	struct worker *w = NULL;
	for (size_t i = 0; i < st->nw && w == NULL; i++)
		if (st->w[i].pid == 0)
			w = &st->w[i];
	if (w == NULL)
		w = VEC_PUSH(st->w, st->nw, st->capw);
	*w = (struct worker){.pid = pid, .device = device, .to_fd = to[1],
			     .from_fd = from[0], .file = -1, .last = -1};
	assign(st, w, take_file(st));
	return w;
}

/* File i is over: pick up what its worker wrote; reported: its result message came. */
static void finish(struct suite *st, size_t i, int status, double seconds, bool reported)
{
	struct file_result *r = &st->res[i];
	char path[300];
	r->done = true;
	r->status = status;
	r->seconds = seconds;
	if (r->kind != RES_SKIPPED)
		r->kind = result_kind_of(status);
	capture_path(st, i, "out", path, sizeof path);
	r->out = read_whole_file(path, &r->out_len);
	unlink(path);
	capture_path(st, i, "err", path, sizeof path);
	r->err = read_whole_file(path, &r->err_len);
	unlink(path);
	capture_path(st, i, "json", path, sizeof path);
	r->json = read_whole_file(path, &r->json_len);
	unlink(path);
	/*
	 * A worker that died mid-file (timeout, crash) may have written part of
	 * its report, even up to a '}': only one that reported the file whole
	 * wrote it whole.
	 */
	while (r->json_len > 0 && strchr(" \n\t\r", r->json[r->json_len - 1]))
		r->json[--r->json_len] = '\0';
	if (r->json && (!reported || r->json_len == 0)) {
		free(r->json);
		r->json = NULL;
		r->json_len = 0;
	}
}

/* The first worker's start says how many GPUs --devices=all means: one more set per GPU. */
static void on_hello(struct suite *st, const struct wmsg *m, bool *gpus_known)
{
	if (*gpus_known)
		return;
	*gpus_known = true;
	unsigned jobs = st->o->jobs ? st->o->jobs : 1;
	for (int dev = 1; dev < m->status && dev < 64; dev++)
		for (unsigned j = 0; j < jobs; j++)
			spawn(st, dev);
}

/* A file's result: record it, then the worker's next file, or its retirement. */
static void on_result(struct suite *st, struct worker *w, const struct wmsg *m)
{
	struct file_result *r = &st->res[m->index];
	if (m->skipped) {
		r->kind = RES_SKIPPED;
		memcpy(r->note, m->note, sizeof r->note);
		r->note[sizeof r->note - 1] = '\0';
	}
	r->xfail = m->xfail;
	finish(st, (size_t)m->index, m->status, m->seconds, true);
	w->file = -1;
	w->last = m->index;
	if (m->status == 3 || m->status == 124) {
		/* printed once its worker has gone and the note can say what followed */
		w->retiring = true;
		r->held = true;
	} else if (files_left(st)) {
		assign(st, w, take_file(st));
	} else {
		close(w->to_fd);
		w->to_fd = -1;
	}
}

/*
 * EOF: the worker is gone.  A file it was handed but had not started goes
 * back, once; one it was running ends with the worker (124 is gpu_run's
 * timeout _exit, anything else a crash).  A fresh worker takes over on
 * the same GPU, and the note of the restart goes with the file it stopped
 * on.
 */
static void on_exit_of(struct suite *st, struct worker *w)
{
	int ws = 0;
	while (waitpid(w->pid, &ws, 0) < 0 && errno == EINTR)
		;
	close(w->from_fd);
	if (w->to_fd >= 0)
		close(w->to_fd);
	long last = w->file;
	int device = w->device;
	bool again = last >= 0 && !w->running && !st->res[last].requeued;
	if (again) {
		st->res[last].requeued = true;
		*VEC_PUSH(st->again, st->nagain, st->capagain) = (size_t)last;
		if (device >= 0)
			warnx_("the worker on GPU %d ended before it started %s; a fresh one "
			       "runs it", device, st->list.files[last]);
		else
			warnx_("a worker ended before it started %s; a fresh one runs it",
			       st->list.files[last]);
		last = -1;
	} else if (last >= 0) {
		int status = WIFEXITED(ws) && WEXITSTATUS(ws) == 124 ? 124 : 3;
		if (WIFSIGNALED(ws))
			st->res[last].signal = WTERMSIG(ws);
		finish(st, (size_t)last, status, monotime() - w->started, false);
	}
	long after = last >= 0 ? last : w->retiring ? w->last : -1;
	w->pid = 0;
	if (after >= 0 && spawn(st, device))
		st->res[after].restarted = true;
	else if (after < 0 && again)
		spawn(st, device);
	if (after >= 0)
		st->res[after].held = false;
}

/* A worker's pipe said something: a result, its start, or its end. */
static void on_worker(struct suite *st, struct worker *w, bool *gpus_known)
{
	struct wmsg m;
	if (!read_full(w->from_fd, &m, sizeof m))
		on_exit_of(st, w);
	else if (m.index < 0)
		on_hello(st, &m, gpus_known);
	else if (m.index != w->file)
		return;
	else if (m.started)
		w->running = true;
	else
		on_result(st, w, &m);
}

/*
 * SIGPIPE is ignored for the workers' pipes' sake, so a reader of stdout
 * that left (cugraphrun dir | head) shows as EPIPE here: stop as SIGPIPE would.
 */
static void stdout_flush(void)
{
	if (fflush(stdout) == EOF && errno == EPIPE)
		stop_signal = SIGPIPE;
}

/* Every worker killed and waited for, every capture file and the directory removed. */
static void abandon(struct suite *st)
{
	for (size_t i = 0; i < st->nw; i++)
		if (st->w[i].pid) {
			kill(st->w[i].pid, SIGKILL);
			while (waitpid(st->w[i].pid, NULL, 0) < 0 && errno == EINTR)
				;
			st->w[i].pid = 0;
		}
	static const char *const exts[] = {"out", "err", "json"};
	char path[300];
	for (size_t i = 0; i < st->list.n; i++)
		for (size_t e = 0; e < 3; e++) {
			capture_path(st, i, exts[e], path, sizeof path);
			unlink(path);
		}
	rmdir(st->tmpdir);
}

/* File i's output, whole: its report, its messages, and a result line. */
static void print_result(const struct suite *st, size_t i)
{
	const struct file_result *r = &st->res[i];
	FILE *out = st->stdout_taken ? stderr : stdout;
	if (!st->json_stdout && r->out_len)
		fwrite(r->out, 1, r->out_len, out);
	stdout_flush();
	if (r->err_len)
		fwrite(r->err, 1, r->err_len, stderr);
	if (r->signal)
		errorx("the worker running %s died of signal %d (%s)", r->file, r->signal,
		       strsignal(r->signal));
	if (r->restarted && r->device >= 0)
		fprintf(stderr, "cugraphrun: note: the worker on GPU %d left after %s "
			"(status %d); a fresh one runs the remaining files\n", r->device,
			r->file, r->status);
	else if (r->restarted)
		fprintf(stderr, "cugraphrun: note: the worker left after %s (status %d); "
			"a fresh one runs the remaining files\n", r->file, r->status);
	fflush(stderr);
	bool quiet = st->o->verbosity == VERB_QUIET;
	if (quiet && (r->kind == RES_PASSED || r->kind == RES_SKIPPED))
		return;
	fprintf(out, "%s: %s", r->xfail ? "XFAIL" : result_words[r->kind], r->file);
	if (r->kind == RES_SKIPPED)
		fprintf(out, " (%s)", r->note);
	else if (r->xfail)
		fprintf(out, " (%.3f s; a check failed, as run.expect: fail wants)", r->seconds);
	else if (r->kind == RES_ERROR && r->note[0])
		fprintf(out, " (%s; exit %d)", r->note, r->status);
	else if (r->kind != RES_PASSED)
		fprintf(out, " (%.3f s; exit %d)", r->seconds, r->status);
	else
		fprintf(out, " (%.3f s)", r->seconds);
	fputc('\n', out);
	if (out == stdout)
		stdout_flush();
	else
		fflush(out);
}

/* Options that write one file of their own have no meaning for many; nor two for one stdout. */
static bool single_file_options(const struct options *o)
{
	const char *what = o->describe ? "--describe" : o->dot ? "--dot" :
		o->ndumps ? "--dump" : o->trace ? "--trace" : o->csv ? "--csv" :
		o->plot ? "--plot" : NULL;
	if (what == NULL && o->junit && strcmp(o->junit, "-") == 0 && o->json &&
	    o->json_file == NULL) {
		usage_error("--junit=- and --json both write to standard output: give one of "
			    "them a file");
		return false;
	}
	if (what == NULL)
		return true;
	/* say what made a suite of it: with one file named, an option did */
	char why[160];
	struct stat st;
	if (o->nfiles > 1)
		snprintf(why, sizeof why, "%zu files make a suite", o->nfiles);
	else if (stat(o->file, &st) == 0 && S_ISDIR(st.st_mode))
		snprintf(why, sizeof why, "a directory makes a suite of the files in it");
	else
		snprintf(why, sizeof why, "%s makes a suite, even of one file",
			 o->junit ? "--junit" : o->shard_n ? "--shard" :
			 o->has_devices ? "--devices" : "-j");
	usage_error("%s writes one file and needs one graph file run on its own, but %s",
		    what, why);
	return false;
}

/*
 * A lone file's run.device, as the single-file command would use it: read
 * and checked here (no CUDA), silently, since its worker says it all again.
 * 0 when the file has none or cannot be read.
 */
static int lone_file_device(const char *path)
{
	struct diag d;
	diag_init(&d, path, stderr);
	d.quiet = true;
	struct gdef *g = gdef_load(path, &d);
	/* the run: section alone: no module is read */
	bool valid = g != NULL && d.nerrors == 0 && gdef_validate_with(g, &d, NULL);
	int device = valid && g->run.has_device ? g->run.device : 0;
	gdef_free(g);
	return device;
}

/* Start the workers: -j per GPU, or -j in all under --validate. */
static bool start_workers(struct suite *st, bool *gpus_known)
{
	const struct options *o = st->o;
	unsigned jobs = o->jobs ? o->jobs : 1;
	*gpus_known = true;
	if (!st->gpu) {
		for (unsigned j = 0; j < jobs; j++)
			spawn(st, -1);
	} else if (o->has_devices && !o->devices_all) {
		for (unsigned j = 0; j < jobs; j++)
			for (int dev = 0; dev < 64; dev++)
				if (o->device_mask >> dev & 1)
					spawn(st, dev);
	} else if (o->has_device && !o->has_devices) {
		for (unsigned j = 0; j < jobs; j++)
			spawn(st, o->device);
	} else if (st->list.n == 1 && !o->has_devices) {
		/* one file: its run.device, as when it runs on its own */
		int device = lone_file_device(st->list.files[0]);
		for (unsigned j = 0; j < jobs; j++)
			spawn(st, device);
	} else {
		/* all: GPU 0 first; its worker's start counts the others (on_worker) */
		*gpus_known = false;
		for (unsigned j = 0; j < jobs; j++)
			spawn(st, 0);
	}
	return st->list.n == 0 || st->nw > 0;
}

/*
 * The suite's start: its files, their results, the temporary directory of
 * captures, and the signals it handles.  0, or the exit status.
 */
static int suite_start(struct suite *st, const struct options *o, run_file_fn *run_file)
{
	memset(st, 0, sizeof *st);
	st->o = o;
	st->run_file = run_file;
	st->gpu = !o->validate;
	st->json_stdout = o->json && o->json_file == NULL;
	st->stdout_taken = st->json_stdout || (o->junit && strcmp(o->junit, "-") == 0);
	file_list_collect(o, &st->list);
	st->res = xcalloc(st->list.n ? st->list.n : 1, sizeof *st->res);
	for (size_t i = 0; i < st->list.n; i++)
		st->res[i].file = st->list.files[i];

	const char *tmp = getenv("TMPDIR");
	snprintf(st->tmpdir, sizeof st->tmpdir, "%s/cugraphrun.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (mkdtemp(st->tmpdir) == NULL) {
		errorx("cannot make a temporary directory in %s: %s", tmp && *tmp ? tmp : "/tmp",
		       strerror(errno));
		return 3;
	}
	/* a worker that died leaves EOF on its pipe; writing to it must not kill us */
	signal(SIGPIPE, SIG_IGN);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	return 0;
}

/*
 * The workers' pool: hand out files, take results, print each file's
 * output whole and in order as soon as it and every file before it are
 * done.  Returns 0 when every file was printed, 3 when the pool stopped
 * with files left (st->why says why); a stop signal ends it early.
 */
static int run_pool(struct suite *st, size_t *printed)
{
	bool gpus_known;
	if (!start_workers(st, &gpus_known))
		return 3;
	int rc = 0;
	struct pollfd *pfd = NULL;
	while (*printed < st->list.n && !stop_signal) {
		pfd = xreallocarray(pfd, st->nw ? st->nw : 1, sizeof *pfd);
		bool live = false;
		for (size_t i = 0; i < st->nw; i++) {
			pfd[i] = (struct pollfd){.fd = st->w[i].pid ? st->w[i].from_fd : -1,
						 .events = POLLIN};
			live |= st->w[i].pid != 0;
		}
		if (!live) {
			errorx("no worker left to run the remaining files");
			if (st->why[0] == '\0')
				snprintf(st->why, sizeof st->why, "no worker left");
			rc = 3;
			break;
		}
		if (poll(pfd, st->nw, -1) < 0) {
			if (errno == EINTR)
				continue;    /* stop_signal, or nothing */
			errorx("poll: %s", strerror(errno));
			snprintf(st->why, sizeof st->why, "poll: %s", strerror(errno));
			rc = 3;
			break;
		}
		/* on_worker may add workers (st->w moves): only the polled ones are read */
		size_t np = st->nw;
		for (size_t i = 0; i < np; i++)
			if (pfd[i].revents && st->w[i].pid)
				on_worker(st, &st->w[i], &gpus_known);
		while (*printed < st->list.n && st->res[*printed].done &&
		       !st->res[*printed].held)
			print_result(st, (*printed)++);
	}
	free(pfd);
	return rc;
}

/* After the pool stopped with files left: each that never ran (or lost its worker) is no pass. */
static void mark_unrun(struct suite *st, size_t printed)
{
	for (size_t i = printed; i < st->list.n; i++) {
		struct file_result *r = &st->res[i];
		if (!r->done) {
			r->done = true;
			r->kind = RES_ERROR;
			r->status = 3;
			snprintf(r->note, sizeof r->note, "not run: %s",
				 st->why[0] ? st->why : "the suite stopped");
		}
		r->held = false;
		print_result(st, i);
	}
}

/* Every file is done: the workers see EOF and leave. */
static void stop_workers(struct suite *st)
{
	for (size_t i = 0; i < st->nw; i++)
		if (st->w[i].pid) {
			if (st->w[i].to_fd >= 0)
				close(st->w[i].to_fd);
			close(st->w[i].from_fd);
			while (waitpid(st->w[i].pid, NULL, 0) < 0 && errno == EINTR)
				;
		}
	rmdir(st->tmpdir);
}

/*
 * --compare: the base's files that this suite did not run, listed (not
 * failed) before the summary.  A share (--shard) leaves the other shares'
 * files out by design: it lists none.
 */
static void base_only_files(const struct suite *st, struct suite_compare *cmp, FILE *out)
{
	const struct cmp_doc *base = st->o->compare_doc;
	if (st->o->shard_n)
		return;
	for (size_t j = 0; j < base->nfiles; j++) {
		size_t i = 0;
		while (i < st->list.n && !compare_same_path(base->files[j].file, st->list.files[i]))
			i++;
		if (i < st->list.n)
			continue;
		const char **f = xreallocarray(cmp->only_base, cmp->nonly_base + 1,
					       sizeof *cmp->only_base);
		cmp->only_base = f;
		f[cmp->nonly_base++] = base->files[j].file;
		fprintf(out, "ONLY IN BASE: %s (in %s, not run here)\n", base->files[j].file,
			cmp->base);
	}
}

/*
 * The summary line, --junit and --json; returns the suite's exit status,
 * the worst of rc (the pool's), a listing error (2), the files' and a
 * failed write's.
 */
static int summarize(const struct suite *st, int rc, double seconds)
{
	const struct options *o = st->o;
	unsigned counts[RES_COUNT] = {0};
	int worst = rc ? rc : st->list.error ? 2 : 0;
	for (size_t i = 0; i < st->list.n; i++) {
		counts[st->res[i].kind]++;
		if (status_rank(st->res[i].status) > status_rank(worst))
			worst = st->res[i].status;
	}
	FILE *out = st->stdout_taken ? stderr : stdout;
	struct suite_compare cmp = {.base = o->compare};
	if (o->compare_doc)
		base_only_files(st, &cmp, out);
	fprintf(out, "%u passed, %u failed, %u skipped, %u errors, %u timeouts",
		counts[RES_PASSED], counts[RES_FAILED], counts[RES_SKIPPED], counts[RES_ERROR],
		counts[RES_TIMEOUT]);
	if (o->compare_doc)
		fprintf(out, ", %u slower", counts[RES_SLOWER]);
	fputc('\n', out);
	fflush(stdout);
	int wrc = 0;
	if (o->junit && junit_write_file(o->junit, st->res, st->list.n, seconds, o->shard_k,
					 o->shard_n) != 0)
		wrc = 2;
	if (o->json && suite_json_write(o->json_file, st->res, st->list.n, counts,
					o->compare_doc ? &cmp : NULL, worst) != 0)
		wrc = 2;
	free(cmp.only_base);
	return status_rank(wrc) > status_rank(worst) ? wrc : worst;
}

static void suite_free(struct suite *st)
{
	for (size_t i = 0; i < st->list.n; i++)
		file_result_free(&st->res[i]);
	file_list_free(&st->list);
	free(st->res);
	free(st->again);
	free(st->w);
}

int suite_main(const struct options *o, run_file_fn *run_file)
{
	if (!single_file_options(o))
		return 2;
	struct suite st;
	int rc = suite_start(&st, o, run_file);
	if (rc != 0) {
		suite_free(&st);
		return rc;
	}
	double t0 = monotime();
	size_t printed = 0;
	rc = run_pool(&st, &printed);
	if (stop_signal) {
		int sig = stop_signal;
		abandon(&st);
		signal(sig, SIG_DFL);
		raise(sig);
		return 128 + sig;
	}
	if (rc != 0)
		mark_unrun(&st, printed);
	stop_workers(&st);
	rc = summarize(&st, rc, monotime() - t0);
	suite_free(&st);
	return rc;
}
