/*
 * Suites: see suite.h.  The parent's loop polls the workers' result pipes;
 * a worker's death (EOF on its pipe) with a file in flight is that file's
 * result: exit 124 is the timeout path of gpu_run (it _exits without CUDA
 * teardown), a signal is an error.  Output goes through files in a private
 * temporary directory, one set per file, so that whatever a worker wrote
 * before it died is still there for the parent to print; they stay on
 * disk until the file is printed, and a printed file's JUnit testcase and
 * JSON entry go to body files there (suite_result.h): the parent's memory
 * holds a small result per file and one file's output at a time.
 */
#include "config.h"

#include <dirent.h>
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
#include "outputs.h"
#include "strlist.h"
#include "strmap.h"
#include "suite.h"
#include "suite_files.h"
#include "suite_junit.h"
#include "report_html.h"
#include "suite_result.h"
#include "term_progress.h"
#include "suite_rounds.h"
#include "validate.h"
#include "xmalloc.h"

/* A worker's start (index -1): the GPU count, or why there is no GPU to run on. */
enum {
	HELLO_NO_DRIVER = -1,           /* no driver, or it does not start: no worker can run */
	HELLO_NO_DEVICE = -2,           /* no such GPU: no worker on it can run */
};

/* Worker to parent: a file's result or start, or (index -1) the worker's start. */
struct wmsg {
	int32_t index;
	int32_t status;                 /* hello: the GPU count, or HELLO_* */
	uint8_t started;                /* the file is about to run: no result yet */
	uint8_t skipped, xfail;
	uint32_t clashed;               /* outputs that are files it reads (outputs.h) */
	double seconds;
	char note[256];                 /* the skip reason; a hello's or a failure's message */
};

/* Parent to worker: a file to run, and what for (suite_rounds.h). */
struct wjob {
	int32_t index;
	int32_t role;                   /* enum run_role */
};

struct worker {
	pid_t pid;                      /* 0: none */
	int device;                     /* -1: no GPU (--validate) */
	int to_fd, from_fd;             /* assignments out, results in */
	long file;                      /* in flight, or -1 */
	enum run_role role;             /* its last file's run's */
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
	size_t next;                    /* the next position in order to hand out */
	size_t finished;                /* files done, for the status line (term_progress.h) */
	/* --processes (suite_rounds.h): this round of rounds, its order, each file's runs */
	unsigned round, rounds;
	size_t *order;
	struct rounds_file *rf;
	bool lone;                      /* one file, no suite asked for: its own output */
	size_t *again;                  /* files whose worker died before starting them */
	size_t nagain, capagain;
	char *tmpdir;                   /* NULL until made */
	char why[256];                  /* why the loop stopped with files left (rc 3) */
	struct strlist said;            /* the causes said once (no worker, no driver, no GPU) */
	uint64_t dead_devices;          /* GPUs that a worker found missing: none started there */
	bool device_missing;            /* one was: the suite exits 3, whatever its files did */
	bool stop;                      /* the pool stops: no file left can run (why) */
	bool gpu;                       /* not --validate: workers start the driver */
	bool json_stdout;               /* --json to stdout: the reports are in it */
	bool stdout_taken;              /* stdout holds --json or --junit=-: the rest to stderr */
	uint32_t clashed;               /* outputs that a file found to be a file it reads */
	FILE *junit_body, *json_body;   /* each printed file's testcase and entry */
	struct junit_counts junit_counts; /* the testcases in junit_body (a sweep's: per point) */
	size_t json_entries;
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

/* Where file i's captured ext ("out", "err", "json") goes (malloc'd). */
static char *capture_path(const struct suite *st, size_t i, const char *ext)
{
	return xasprintf("%s/%zu.%s", st->tmpdir, i, ext);
}

/* The capture, whole (NULL, 0 when there is none), and the file removed. */
static char *take_capture(const struct suite *st, size_t i, const char *ext, size_t *len)
{
	char *path = capture_path(st, i, ext);
	char *text = read_whole_file(path, len);
	unlink(path);
	free(path);
	if (text && *len == 0) {
		free(text);
		text = NULL;
	}
	return text;
}

/* Say a cause of failure once, however many workers or files meet it; code: its catalog code. */
static void say_once(struct suite *st, const char *code, const char *text)
{
	for (size_t i = 0; i < st->said.n; i++)
		if (strcmp(st->said.v[i], text) == 0)
			return;
	strlist_add(&st->said, text);
	diag_code(code);
	errorx("%s", text);
}

/* The worker ---------------------------------------------------------------- */

/* Point fd at path (created, truncated), or at /dev/null when path is NULL; false when it cannot be. */
static bool redirect(int fd, const char *path)
{
	int f = path ? open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600) :
		open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (f < 0)
		return false;
	if (f != fd) {
		bool ok = dup2(f, fd) == fd;
		close(f);
		return ok;
	}
	return true;
}

/* The first line of the file at path (its message), into buf, without "cugraphrun: error: ". */
static void first_line(const char *path, char *buf, size_t len)
{
	size_t n;
	char *text = read_whole_file(path, &n);
	buf[0] = '\0';
	if (text) {
		text[diag_strip_color(text, n)] = '\0';
		const char *p = text;
		static const char prefix[] = "cugraphrun: error: ";
		if (strncmp(p, prefix, sizeof prefix - 1) == 0)
			p += sizeof prefix - 1;
		snprintf(buf, len, "%.*s", (int)strcspn(p, "\n"), p);
	}
	free(text);
}

/*
 * A worker's start on its GPU: the driver once, its messages kept to be
 * said in the hello (by the parent, once for all workers).
 */
static void worker_hello(struct suite *st, struct worker *me)
{
	struct wmsg m;
	memset(&m, 0, sizeof m);
	m.index = -1;
	char *path = xasprintf("%s/hello-%d.err", st->tmpdir, (int)getpid());
	if (!redirect(STDERR_FILENO, path))
		redirect(STDERR_FILENO, NULL);
	m.status = gpu_worker_init(me->device);
	fflush(stderr);
	if (m.status < 0)
		first_line(path, m.note, sizeof m.note);
	unlink(path);
	free(path);
	/* a worker that cannot run a file runs none: the parent says why, once */
	if (!write_full(me->from_fd, &m, sizeof m) || m.status < 0)
		_exit(0);
}

/*
 * A file found under a directory, opened without blocking (a FIFO put
 * there after the listing must not hang the worker) and run only when it
 * is a regular file.  Its descriptor, blocking again, or -1 after the
 * file's error.
 */
static int open_walked(const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat sb;
	const char *why = NULL;
	if (fd < 0 || fstat(fd, &sb) != 0)
		why = strerror(errno);
	else if (!S_ISREG(sb.st_mode))
		why = "not a regular file";
	if (why == NULL && fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) == 0)
		return fd;
	struct diag d;
	diag_init(&d, path, stderr);
	diag_error(&d, (struct pos){0, 0}, "cannot read %s: %s", path, why ? why : strerror(errno));
	diag_finish(&d);
	if (fd >= 0)
		close(fd);
	return -1;
}

/*
 * One file in a worker, its output kept in the suite's captures (a
 * sample's apart: the parent keeps them only when they say more than the
 * report); its result into m.
 */
static void worker_run(struct suite *st, const struct worker *me, const struct wjob *job,
		       struct wmsg *m)
{
	size_t i = (size_t)job->index;
	const struct listed *f = &st->list.v[i];
	bool sample = job->role == ROLE_SAMPLE;
	char *out = capture_path(st, i, sample ? "sout" : "out");
	char *err = capture_path(st, i, sample ? "serr" : "err");
	char *json = capture_path(st, i, "json");
	char *records = capture_path(st, i, "procs");
	fflush(stdout);
	fflush(stderr);
	memset(m, 0, sizeof *m);
	m->index = job->index;
	double t = monotime();
	if (!redirect(STDOUT_FILENO, out) || !redirect(STDERR_FILENO, err)) {
		m->status = 2;
		snprintf(m->note, sizeof m->note, "not run: cannot keep its output in %s: %s",
			 st->tmpdir, strerror(errno));
		redirect(STDOUT_FILENO, NULL);
		redirect(STDERR_FILENO, NULL);
	} else {
		struct options o = *st->o;
		o.file = f->path;
		o.file_fd = -1;
		if (me->device >= 0) {
			o.has_device = true;
			o.device = me->device;
		}
		/* the JUnit document and the page read each file's report; the suite writes the page */
		if (!st->lone && (o.json || o.junit || o.html)) {
			o.json = true;
			o.json_capture = json;
			o.html = NULL;
		}
		rounds_options(&o, (enum run_role)job->role, records);
		struct file_outcome fo;
		memset(&fo, 0, sizeof fo);
		/* a lone file reports as the single-file command does (main's run_file) */
		bool lone = st->lone && job->role == ROLE_REPORT;
		if (f->walked && (o.file_fd = open_walked(f->path)) < 0) {
			m->status = 2;
		} else {
			m->status = st->run_file(&o, lone ? NULL : &fo);
			m->skipped = fo.skipped;
			m->xfail = fo.xfail;
			m->clashed = fo.clashed;
			memcpy(m->note, fo.note, sizeof m->note);
			m->note[sizeof m->note - 1] = '\0';
		}
	}
	fflush(stdout);
	fflush(stderr);
	free(out);
	free(err);
	free(json);
	free(records);
	m->seconds = monotime() - t;
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
	/*
	 * A lone file's worker runs it once and starts the driver in the run,
	 * as the single-file command does: a driver that does not start is
	 * then that run's error, in its report.
	 */
	if (me->device >= 0 && !st->lone)
		worker_hello(st, me);
	struct wjob job;
	while (read_full(me->to_fd, &job, sizeof job) && job.index >= 0 &&
	       (size_t)job.index < st->list.n) {
		/* so that a death before the file starts is not the file's */
		memset(&m, 0, sizeof m);
		m.index = job.index;
		m.started = 1;
		if (!write_full(me->from_fd, &m, sizeof m))
			_exit(0);
		worker_run(st, me, &job, &m);
		if (!write_full(me->from_fd, &m, sizeof m))
			_exit(0);
		/* a CUDA error may have wedged the context; a timeout never returns here */
		if (m.status == 3 || m.status == 124)
			_exit(m.status);
	}
	_exit(0);
}

/* The parent ---------------------------------------------------------------- */

/* Hand file i to worker w, as its run in this round is. */
static void assign(struct suite *st, struct worker *w, size_t i)
{
	struct wjob job = {(int32_t)i, rounds_role(&st->rf[i], st->round, st->rounds)};
	w->file = (long)i;
	w->role = (enum run_role)job.role;
	w->running = false;
	w->started = monotime();
	st->res[i].device = w->device;
	/* a worker that died already shows as EOF on its result pipe */
	write_full(w->to_fd, &job, sizeof job);
}

/* Does file i run in this round?  Not once it is done (or listed as unreadable). */
static bool runs_now(const struct suite *st, size_t i)
{
	return !st->res[i].done && rounds_role(&st->rf[i], st->round, st->rounds) != ROLE_NONE;
}

/* Past the files that do not run in this round. */
static void skip_done(struct suite *st)
{
	while (st->next < st->list.n && !runs_now(st, st->order[st->next]))
		st->next++;
}

static bool files_left(struct suite *st)
{
	skip_done(st);
	return st->nagain > 0 || st->next < st->list.n;
}

/* The next file to hand out (files_left said there is one): one given back first. */
static size_t take_file(struct suite *st)
{
	skip_done(st);
	return st->nagain > 0 ? st->again[--st->nagain] : st->order[st->next++];
}

/* Say why no worker could be started (once a cause), and keep it for the files left over. */
static void worker_failed(struct suite *st, const char *why)
{
	char text[sizeof st->why];
	snprintf(text, sizeof text, "cannot start a worker: %s", why);
	say_once(st, "suite-worker-start", text);
	memcpy(st->why, text, sizeof st->why);
}

/* A fresh worker on device (-1: none) with the next file; NULL when none is left. */
static struct worker *spawn(struct suite *st, int device)
{
	if (!files_left(st) || st->stop || (device >= 0 && st->dead_devices >> device & 1))
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
		/* the status line is the parent's, which prints */
		progress_forbid();
#ifdef __linux__
		/* a parent killed outright must not leave a worker holding a GPU */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(0);
#endif
		/* the other workers' pipes must not stay open here, or their EOF never comes */
		for (size_t i = 0; i < st->nw; i++)
			if (st->w[i].pid) {
				if (st->w[i].to_fd >= 0)
					close(st->w[i].to_fd);
				close(st->w[i].from_fd);
			}
		if (st->junit_body)
			close(fileno(st->junit_body));
		if (st->json_body)
			close(fileno(st->json_body));
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

/*
 * File i is over: its report run (or only run) ended with status;
 * reported: its result message came (its JSON report is whole).  Its
 * status and time count its samples' too (--processes).
 */
static void finish(struct suite *st, size_t i, int status, double seconds, bool reported)
{
	struct file_result *r = &st->res[i];
	r->done = true;
	st->finished++;
	r->status = rounds_reported(&st->rf[i], status);
	r->seconds = seconds + st->rf[i].seconds;
	r->reported = reported;
	if (r->kind != RES_SKIPPED)
		r->kind = result_kind_of(status);
}

/* A worker killed and waited for; its file, not begun by it, back to the list. */
static void drop_worker(struct suite *st, struct worker *w)
{
	kill(w->pid, SIGKILL);
	while (waitpid(w->pid, NULL, 0) < 0 && errno == EINTR)
		;
	close(w->from_fd);
	if (w->to_fd >= 0)
		close(w->to_fd);
	if (w->file >= 0 && !st->res[w->file].done)
		*VEC_PUSH(st->again, st->nagain, st->capagain) = (size_t)w->file;
	w->pid = 0;
}

/*
 * A worker's start.  The first says how many GPUs --devices=all means: one
 * more set per GPU.  One that found no driver ends the pool, said once:
 * no worker can run anything (the files left are not run, each marked so).
 * One that found no such GPU ends the workers there; the others run on.
 */
static void on_hello(struct suite *st, struct worker *w, const struct wmsg *m,
		     bool *gpus_known)
{
	if (m->status == HELLO_NO_DRIVER || m->status == HELLO_NO_DEVICE) {
		const char *why = m->note[0] ? m->note : m->status == HELLO_NO_DRIVER ?
			"the CUDA driver does not start" : "no such CUDA device";
		say_once(st, m->status == HELLO_NO_DRIVER ? "suite-no-driver" : "suite-no-device", why);
		snprintf(st->why, sizeof st->why, "%s", why);
		if (m->status == HELLO_NO_DRIVER) {
			st->stop = true;
			return;
		}
		int device = w->device;
		st->dead_devices |= 1ull << device;
		st->device_missing = true;
		int live = -1;
		for (size_t i = 0; i < st->nw; i++)
			if (st->w[i].pid && st->w[i].device == device)
				drop_worker(st, &st->w[i]);
			else if (st->w[i].pid)
				live = st->w[i].device;
		/* their files go to a fresh worker where one runs: the others may be done */
		for (size_t n = st->nagain; n > 0 && live >= 0 && spawn(st, live); n--)
			;
		return;
	}
	if (*gpus_known)
		return;
	*gpus_known = true;
	unsigned jobs = st->o->jobs ? st->o->jobs : 1;
	for (int dev = 1; dev < m->status && dev < 64; dev++)
		for (unsigned j = 0; j < jobs; j++)
			spawn(st, dev);
}

/*
 * A sample run of file i ended (--processes): counted, and its messages
 * kept while they are the worst of its samples' (with the signal its
 * worker died of, when it did); its report is nothing.
 */
static void sample_ended(struct suite *st, size_t i, int status, bool skipped, double seconds,
			 int signal)
{
	char *out = capture_path(st, i, "sout"), *err = capture_path(st, i, "serr");
	st->finished++;
	if (rounds_sample_ended(&st->rf[i], st->round, status, skipped, seconds)) {
		char *kept = capture_path(st, i, "werr");
		FILE *f = rename(err, kept) == 0 && signal ? fopen(kept, "a") : NULL;
		if (f) {
			fprintf(f, "cugraphrun: error: the worker running %s died of signal %d "
				"(%s)\n", diag_esc(st->list.v[i].path), signal, strsignal(signal));
			fclose(f);
		}
		free(kept);
	}
	unlink(err);
	unlink(out);
	free(out);
	free(err);
}

/* A file's report (or only) run ended: its result. */
static void report_ended(struct suite *st, const struct wmsg *m)
{
	struct file_result *r = &st->res[m->index];
	if (m->skipped) {
		r->kind = RES_SKIPPED;
		result_set_note(r, m->note);
	} else if (m->note[0]) {
		result_set_note(r, m->note);
	}
	r->xfail = m->xfail;
	st->clashed |= m->clashed;
	finish(st, (size_t)m->index, m->status, m->seconds, true);
}

/* A file's result: record it, then the worker's next file, or its retirement. */
static void on_result(struct suite *st, struct worker *w, const struct wmsg *m)
{
	bool sample = w->role == ROLE_SAMPLE;
	if (sample)
		sample_ended(st, (size_t)m->index, m->status, m->skipped, m->seconds, 0);
	else
		report_ended(st, m);
	w->file = -1;
	w->last = m->index;
	if (m->status == 3 || m->status == 124) {
		/* a report is printed once its worker has gone and the note can say what followed */
		w->retiring = true;
		st->res[m->index].held = !sample;
	} else if (files_left(st) && !st->stop) {
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
			       "runs it", device, st->list.v[last].path);
		else
			warnx_("a worker ended before it started %s; a fresh one runs it",
			       st->list.v[last].path);
		last = -1;
	} else if (last >= 0 && w->role == ROLE_SAMPLE) {
		int status = WIFEXITED(ws) && WEXITSTATUS(ws) == 124 ? 124 : 3;
		sample_ended(st, (size_t)last, status, false, monotime() - w->started,
			     WIFSIGNALED(ws) ? WTERMSIG(ws) : 0);
	} else if (last >= 0) {
		int status = WIFEXITED(ws) && WEXITSTATUS(ws) == 124 ? 124 : 3;
		if (WIFSIGNALED(ws))
			st->res[last].signal = WTERMSIG(ws);
		finish(st, (size_t)last, status, monotime() - w->started, false);
	}
	long after = last >= 0 ? last : w->retiring ? w->last : -1;
	/* after a sample, the note of the restart would name a file whose run went on */
	bool note = w->role != ROLE_SAMPLE;
	w->pid = 0;
	bool spawned = (after >= 0 || again) && spawn(st, device);
	if (after >= 0 && spawned && note)
		st->res[after].restarted = true;
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
		on_hello(st, w, &m, gpus_known);
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

/* Every file in the temporary directory, and the directory, removed. */
static void remove_tmpdir(struct suite *st)
{
	if (st->tmpdir == NULL)
		return;
	DIR *d = opendir(st->tmpdir);
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		char *p = xasprintf("%s/%s", st->tmpdir, e->d_name);
		unlink(p);
		free(p);
	}
	if (d)
		closedir(d);
	rmdir(st->tmpdir);
	free(st->tmpdir);
	st->tmpdir = NULL;
}

/* Every worker killed and waited for. */
static void kill_workers(struct suite *st)
{
	for (size_t i = 0; i < st->nw; i++)
		if (st->w[i].pid)
			drop_worker(st, &st->w[i]);
}

/* A file's messages when it was never run: why it cannot be read, as its error. */
static char *unreadable_message(const struct file_result *r, const struct listed *l,
				size_t *len)
{
	char *text;
	size_t n;
	FILE *f = open_memstream(&text, &n);
	if (f == NULL)
		return NULL;
	diag_write_lead(f, DIAG_ERROR);
	diag_write_escaped(f, l->dir ? "cannot read directory " : "cannot read ",
			   strlen(l->dir ? "cannot read directory " : "cannot read "));
	diag_write_escaped(f, r->file, strlen(r->file));
	fputs(": ", f);
	diag_write_escaped(f, l->why, strlen(l->why));
	fputc('\n', f);
	if (fclose(f) != 0)
		return NULL;
	*len = n;
	return text;
}

/*
 * --processes: the messages of file i's worst sample, when it ended worse
 * than the report (a check that failed once, a crash), with a note that
 * says so, before the report's own (malloc'd, *len bytes; NULL, 0 when
 * there are none to show).  They are the file's messages as its JUnit
 * failure reads them, too.
 */
static char *with_sample_messages(struct suite *st, size_t i, char *err, size_t *len)
{
	const struct rounds_file *f = &st->rf[i];
	size_t n = 0;
	char *kept = take_capture(st, i, "werr", &n);
	if (!rounds_show_sample(f)) {
		free(kept);
		return err;
	}
	char *text = NULL;
	size_t tlen = 0;
	FILE *m = open_memstream(&text, &tlen);
	if (m == NULL) {
		free(kept);
		return err;
	}
	if (kept)
		fwrite(kept, 1, n, m);
	fprintf(m, "cugraphrun: note: %s: process %u of %u ended with status %d (its messages "
		"above), and the reporting process with %d\n", diag_esc(st->res[i].file),
		f->worst_round + 1, st->rounds, f->worst, f->report_status);
	if (err)
		fwrite(err, 1, *len, m);
	fclose(m);
	free(kept);
	free(err);
	*len = tlen;
	return text;
}

/*
 * File i's output, whole: its report, its messages, and a result line
 * (none for a lone file of --processes, which prints as a single file
 * does); then its JUnit testcase and JSON entry to their bodies, and its
 * captured output gone.
 */
static void print_result(struct suite *st, size_t i)
{
	const struct file_result *r = &st->res[i];
	struct file_output fo;
	memset(&fo, 0, sizeof fo);
	progress_clear();
	char *out = take_capture(st, i, "out", &fo.out_len);
	char *err = r->unreadable ? unreadable_message(r, &st->list.v[i], &fo.err_len) :
		take_capture(st, i, "err", &fo.err_len);
	err = with_sample_messages(st, i, err, &fo.err_len);
	char *json = take_capture(st, i, "json", &fo.json_len);
	if (r->unrun) {
		/* whatever a worker stopped in it wrote is not the file's run */
		free(out);
		free(err);
		out = err = NULL;
		fo.out_len = fo.err_len = 0;
	}
	fo.out = out;
	fo.err = err;
	/*
	 * A worker that died mid-file (timeout, crash) may have written part of
	 * its report, even up to a '}': only one that reported the file whole
	 * wrote it whole.
	 */
	while (json && fo.json_len > 0 && strchr(" \n\t\r", json[fo.json_len - 1]))
		json[--fo.json_len] = '\0';
	if (json && r->reported && fo.json_len > 0)
		fo.json = json;
	else
		fo.json_len = 0;

	FILE *o = st->stdout_taken ? stderr : stdout;
	if (!st->json_stdout && fo.out_len)
		fwrite(fo.out, 1, fo.out_len, o);
	stdout_flush();
	if (fo.err_len)
		fwrite(fo.err, 1, fo.err_len, stderr);
	/* the messages' colours were for the terminal, not for --junit and --json */
	if (err)
		fo.err_len = diag_strip_color(err, fo.err_len);
	if (r->signal)
		errorx("the worker running %s died of signal %d (%s)", r->file, r->signal,
		       strsignal(r->signal));
	if (r->restarted && r->device >= 0)
		notex("the worker on GPU %d left after %s (status %d); a fresh one runs the "
		      "remaining files", r->device, r->file, r->status);
	else if (r->restarted)
		notex("the worker left after %s (status %d); a fresh one runs the remaining "
		      "files", r->file, r->status);
	fflush(stderr);
	bool quiet = st->o->verbosity == VERB_QUIET;
	if (!st->lone && (!quiet || (r->kind != RES_PASSED && r->kind != RES_SKIPPED))) {
		fprintf(o, "%s: %s", r->xfail ? "XFAIL" : result_words[r->kind],
			diag_esc(r->file));
		if (r->kind == RES_SKIPPED)
			fprintf(o, " (%s)", diag_esc(r->note ? r->note : ""));
		else if (r->xfail)
			fprintf(o, " (%.3f s; a check failed, as run.expect: fail wants)",
				r->seconds);
		else if (r->kind == RES_ERROR && r->note)
			fprintf(o, " (%s; exit %d)", diag_esc(r->note), r->status);
		else if (r->kind != RES_PASSED)
			fprintf(o, " (%.3f s; exit %d)", r->seconds, r->status);
		else
			fprintf(o, " (%.3f s)", r->seconds);
		fputc('\n', o);
		if (o == stdout)
			stdout_flush();
		else
			fflush(o);
	}
	if (st->junit_body)
		junit_testcase(st->junit_body, r, &fo, &st->junit_counts);
	if (st->json_body)
		suite_json_entry(st->json_body, r, &fo, st->json_entries++ == 0);
	free(out);
	free(err);
	free(json);
}

/* Options that write one file of their own have no meaning for many; nor two for one stdout. */
static bool single_file_options(const struct options *o)
{
	const char *what = cli_output_given(o, OUT_ONE_FILE);
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
 * 0 when the file has none or cannot be read, and for anything but a
 * regular file, which the parent must not read: a FIFO or standard input
 * is read once, by its worker.
 */
static int lone_file_device(const char *path)
{
	int fd = strcmp(path, "-") == 0 ? -1 : open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	struct stat sb;
	if (fd < 0 || fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	struct diag d;
	diag_init(&d, path, stderr);
	d.quiet = true;
	struct gdef *g = gdef_load_fd(path, fd, &d);
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
		int device = lone_file_device(st->list.v[0].path);
		for (unsigned j = 0; j < jobs; j++)
			spawn(st, device);
	} else {
		/* all: GPU 0 first; its worker's start counts the others (on_worker) */
		*gpus_known = false;
		for (unsigned j = 0; j < jobs; j++)
			spawn(st, 0);
	}
	return !files_left(st) || st->nw > 0;
}

/*
 * The temporary directory of captures, in $TMPDIR, and proof that the
 * longest name the suite makes there fits: a TMPDIR too long for it is
 * said now, not found out by every worker.  0, or 2 after a message.
 */
static int make_tmpdir(struct suite *st)
{
	char *dir = xasprintf("%s/cugraphrun.XXXXXX", tmp_dir());
	if (mkdtemp(dir) == NULL) {
		errorx("cannot make a temporary directory in %s: %s", tmp_dir(), strerror(errno));
		free(dir);
		return 2;
	}
	st->tmpdir = dir;
	/* a capture of the largest index, or output_open's temporary file, whichever is longer */
	char *probe = xasprintf("%s/%zu.json.cugraphrun-XXXXXX", dir, (size_t)SIZE_MAX);
	int fd = mkstemp(probe);
	int e = errno;
	if (fd >= 0) {
		close(fd);
		unlink(probe);
	}
	free(probe);
	if (fd < 0) {
		errorx("cannot keep the suite's files in %s: %s", tmp_dir(), strerror(e));
		return 2;
	}
	return 0;
}

/* A body file in the temporary directory, gone from it at once (fileio.h). */
static FILE *body_file(struct suite *st, const char *name)
{
	char *path = xasprintf("%s/%s", st->tmpdir, name);
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	int e = errno;
	if (fd >= 0)
		unlink(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w+") : NULL;
	if (f == NULL) {
		errorx("cannot write %s: %s", path, strerror(fd >= 0 ? errno : e));
		if (fd >= 0)
			close(fd);
	}
	free(path);
	return f;
}

/*
 * The suite's start: its files, their results, the outputs' checks, the
 * temporary directory of captures, and the signals it handles.  0, or the
 * exit status.
 */
static int suite_start(struct suite *st, const struct options *o, run_file_fn *run_file)
{
	memset(st, 0, sizeof *st);
	st->o = o;
	st->run_file = run_file;
	st->gpu = !o->validate;
	/* one file timed in several processes prints as one file run alone (suite_rounds.h) */
	st->lone = !suite_wanted(o);
	st->json_stdout = !st->lone && o->json && o->json_file == NULL;
	st->stdout_taken = st->json_stdout || (o->junit && strcmp(o->junit, "-") == 0) ||
		(o->html && strcmp(o->html, "-") == 0);
	file_list_collect(o, &st->list);
	st->res = xcalloc(st->list.n ? st->list.n : 1, sizeof *st->res);
	st->rounds = o->processes ? o->processes : 1;
	st->rf = xcalloc(st->list.n ? st->list.n : 1, sizeof *st->rf);
	st->order = xcalloc(st->list.n ? st->list.n : 1, sizeof *st->order);
	rounds_order(st->list.n, 0, st->rounds, st->order);
	for (size_t i = 0; i < st->list.n; i++) {
		struct file_result *r = &st->res[i];
		const struct listed *l = &st->list.v[i];
		r->file = l->path;
		r->device = -1;
		if (l->why) {
			/* never handed out: the pool skips what is done */
			r->unreadable = r->done = true;
			st->finished++;
			r->kind = RES_ERROR;
			r->status = 2;
			char *note = xasprintf("%s: %s", l->dir ? "cannot read directory" :
					       "cannot read", l->why);
			result_set_note(r, note);
			free(note);
		}
	}
	/* every output writable, and none a graph file, before any file runs */
	if (outputs_prepare(o->outputs, o->noutputs) != 0)
		return 2;
	/* the --compare base was read before anything: no output may replace it either */
	bool clash = o->noutputs && !outputs_vs_bases(o);
	for (size_t i = 0; i < st->list.n && o->noutputs; i++)
		if (!st->list.v[i].why)
			clash |= !outputs_vs_file(o, st->list.v[i].path);
	if (clash)
		return 2;
	int rc = make_tmpdir(st);
	if (rc != 0)
		return rc;
	if (!st->lone && ((o->junit && (st->junit_body = body_file(st, "junit.body")) == NULL) ||
			  ((o->json || o->html) &&
			   (st->json_body = body_file(st, "json.body")) == NULL)))
		return 2;
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

/* The status line: files done, and the first of those running (its output comes next). */
static void show_progress(const struct suite *st)
{
	long first = -1;
	for (size_t i = 0; i < st->nw; i++)
		if (st->w[i].pid && st->w[i].file >= 0 && (first < 0 || st->w[i].file < first))
			first = st->w[i].file;
	progress_update(st->finished, first >= 0 ? st->list.v[first].path : NULL);
}

/* Every file is done (or its round is): the workers see EOF and leave. */
static void stop_workers(struct suite *st)
{
	for (size_t i = 0; i < st->nw; i++)
		if (st->w[i].pid) {
			if (st->w[i].to_fd >= 0)
				close(st->w[i].to_fd);
			close(st->w[i].from_fd);
			while (waitpid(st->w[i].pid, NULL, 0) < 0 && errno == EINTR)
				;
			st->w[i].pid = 0;
		}
}

/*
 * Is this round of --processes over: nothing left to hand out, and every
 * worker gone (each leaves once told there is nothing more, and its end
 * is seen, which may restart it or let a held file print)?
 */
static bool round_over(struct suite *st)
{
	if (st->rounds <= 1 || files_left(st))
		return false;
	for (size_t i = 0; i < st->nw; i++)
		if (st->w[i].pid)
			return false;
	return true;
}

/*
 * The next round of --processes with fresh workers, its files in their
 * new order: the old round's workers leave first, so that no driver
 * context outlives its round.  False when the pool cannot go on.
 */
static bool next_round(struct suite *st, bool *gpus_known)
{
	stop_workers(st);
	while (++st->round < st->rounds) {
		rounds_order(st->list.n, st->round, st->rounds, st->order);
		st->next = 0;
		if (files_left(st))
			return start_workers(st, gpus_known);
	}
	return false;
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
	for (;;) {
		while (*printed < st->list.n && st->res[*printed].done &&
		       !st->res[*printed].held)
			print_result(st, (*printed)++);
		if (*printed == st->list.n || stop_signal)
			break;
		show_progress(st);
		if (st->stop) {
			rc = 3;
			break;
		}
		if (round_over(st) && !next_round(st, &gpus_known)) {
			snprintf(st->why, sizeof st->why, "no worker left");
			rc = 3;
			break;
		}
		pfd = xreallocarray(pfd, st->nw ? st->nw : 1, sizeof *pfd);
		bool live = false;
		for (size_t i = 0; i < st->nw; i++) {
			pfd[i] = (struct pollfd){.fd = st->w[i].pid ? st->w[i].from_fd : -1,
						 .events = POLLIN};
			live |= st->w[i].pid != 0;
		}
		if (!live) {
			if (st->why[0] == '\0')
				snprintf(st->why, sizeof st->why, "no worker left");
			say_once(st, "suite-no-worker-left", "no worker left to run the remaining files");
			rc = 3;
			break;
		}
		/* the status line's clock ticks while the files run */
		if (poll(pfd, st->nw, progress_tick_ms()) < 0) {
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
	}
	free(pfd);
	return rc;
}

/* After the pool stopped with files left: each that never ran (or lost its worker) is no pass. */
static void mark_unrun(struct suite *st, size_t printed)
{
	char *note = xasprintf("not run: %s", st->why[0] ? st->why : "the suite stopped");
	for (size_t i = printed; i < st->list.n; i++) {
		struct file_result *r = &st->res[i];
		if (!r->done) {
			r->done = r->unrun = true;
			r->kind = RES_ERROR;
			r->status = 3;
			result_set_note(r, note);
		}
		r->held = false;
		print_result(st, i);
	}
	free(note);
}

/*
 * Whether the output of option may be written: false, after a message,
 * when a file's run found it to be a file that file reads.
 */
static bool output_kept(const struct suite *st, const char *option)
{
	const struct options *o = st->o;
	for (size_t i = 0; i < o->noutputs && i < 32; i++)
		if (strcmp(o->outputs[i].option, option) == 0 && st->clashed >> i & 1) {
			errorx("%s=%s not written: it is a file the suite reads (see above)",
			       option, o->outputs[i].path);
			return false;
		}
	return true;
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
	/*
	 * The suite's files by their normal paths: a look-up per base file,
	 * not a scan of the suite's (100,000 files against a base of as many
	 * were 10^10 path comparisons).
	 */
	struct strmap *ran = strmap_new(st->list.n);
	char **keys = xcalloc(st->list.n ? st->list.n : 1, sizeof *keys);
	char path[4096];
	for (size_t i = 0; i < st->list.n; i++) {
		compare_normal_path(st->list.v[i].path, path, sizeof path);
		keys[i] = xstrdup(path);
		strmap_put(ran, keys[i], (long)i, NULL);
	}
	for (size_t j = 0; j < base->nfiles; j++) {
		compare_normal_path(base->files[j].file, path, sizeof path);
		if (strmap_get(ran, path) >= 0)
			continue;
		const char **f = xreallocarray(cmp->only_base, cmp->nonly_base + 1,
					       sizeof *cmp->only_base);
		cmp->only_base = f;
		f[cmp->nonly_base++] = base->files[j].file;
		fprintf(out, "ONLY IN BASE: %s (in %s, not run here)\n",
			diag_esc(base->files[j].file), diag_esc(cmp->base));
	}
	strmap_free(ran);
	for (size_t i = 0; i < st->list.n; i++)
		free(keys[i]);
	free(keys);
}

/*
 * The summary line, --junit and --json; returns the suite's exit status,
 * the worst of rc (the pool's), the files' and a failed write's.
 */
static int summarize(const struct suite *st, int rc, double seconds)
{
	const struct options *o = st->o;
	unsigned counts[RES_COUNT] = {0};
	int worst = rc == 0 && st->device_missing ? 3 : rc;
	for (size_t i = 0; i < st->list.n; i++) {
		counts[st->res[i].kind]++;
		worst = status_worse(worst, st->res[i].status);
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
	if (o->junit && !output_kept(st, "--junit"))
		wrc = 2;
	else if (o->junit && junit_write_file(o->junit, st->junit_body, &st->junit_counts,
					      seconds, o->shard_k, o->shard_n) != 0)
		wrc = 2;
	if (o->json && !output_kept(st, "--json"))
		wrc = 2;
	else if (o->json && suite_json_write(o->json_file, st->json_body, counts,
					     o->compare_doc ? &cmp : NULL, worst) != 0)
		wrc = 2;
	/* the page is the JSON document's, read back (report_html.h) */
	if (o->html && !st->lone && (!output_kept(st, "--html") ||
				     suite_html_write(o->html, st->json_body, counts,
						      o->compare_doc ? &cmp : NULL, worst,
						      st->tmpdir) != 0))
		wrc = 2;
	free(cmp.only_base);
	return status_worse(worst, wrc);
}

static void suite_free(struct suite *st)
{
	for (size_t i = 0; i < st->list.n; i++)
		file_result_free(&st->res[i]);
	file_list_free(&st->list);
	if (st->junit_body)
		fclose(st->junit_body);
	if (st->json_body)
		fclose(st->json_body);
	remove_tmpdir(st);
	strlist_free(&st->said);
	free(st->res);
	free(st->rf);
	free(st->order);
	free(st->again);
	free(st->w);
}

int suite_main(const struct options *o, run_file_fn *run_file)
{
	if (suite_wanted(o) && !single_file_options(o))
		return 2;
	struct suite st;
	int rc = suite_start(&st, o, run_file);
	if (rc != 0) {
		suite_free(&st);
		return rc;
	}
	double t0 = monotime();
	size_t printed = 0;
	progress_start(st.list.n * st.rounds, o->verbosity != VERB_QUIET);
	rc = run_pool(&st, &printed);
	progress_end();
	if (stop_signal) {
		int sig = stop_signal;
		kill_workers(&st);
		remove_tmpdir(&st);
		signal(sig, SIG_DFL);
		raise(sig);
		return 128 + sig;
	}
	if (rc != 0) {
		/* their files will not run: a worker still at one is stopped, not waited for */
		kill_workers(&st);
		mark_unrun(&st, printed);
	}
	stop_workers(&st);
	/* a lone file's status is its own, as when it runs alone */
	if (st.lone && st.list.n == 1)
		rc = status_worse(rc, st.res[0].status);
	else
		rc = summarize(&st, rc, monotime() - t0);
	suite_free(&st);
	return rc;
}
