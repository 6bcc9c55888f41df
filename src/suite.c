/*
 * Suites: see suite.h.  The parent's loop polls the workers' result pipes;
 * a worker's death (EOF on its pipe) with a file in flight is that file's
 * result: exit 124 is the timeout path of gpu_run (it _exits without CUDA
 * teardown), a signal is an error.  Output goes through files in a private
 * temporary directory, one set per file, so that whatever a worker wrote
 * before it died is still there for the parent to print.
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

#include "diag.h"
#include "fileio.h"
#include "gpu.h"
#include "suite_junit.h"
#include "load.h"
#include "monotime.h"
#include "json.h"
#include "suite.h"
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

/* A directory or file already listed, by identity: a second path to it adds nothing. */
struct seen {
	dev_t dev;
	ino_t ino;
	bool open;                      /* a directory being listed now */
};

struct suite {
	const struct options *o;
	run_file_fn *run_file;
	char **files;
	size_t nfiles, capfiles;
	struct seen *seen;
	size_t nseen, capseen;
	bool list_error;                /* a directory or entry could not be read */
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

/* Files ------------------------------------------------------------------ */

static void add_file(struct suite *st, char *path)
{
	*VEC_PUSH(st->files, st->nfiles, st->capfiles) = path;
}

/* The entry for what sb describes, or NULL when it was not met before. */
static struct seen *find_seen(struct suite *st, const struct stat *sb)
{
	for (size_t i = 0; i < st->nseen; i++)
		if (st->seen[i].dev == sb->st_dev && st->seen[i].ino == sb->st_ino)
			return &st->seen[i];
	return NULL;
}

/* A file that exists joins the list once, however many paths lead to it. */
static void add_found_file(struct suite *st, char *path, const struct stat *sb)
{
	if (find_seen(st, sb)) {
		free(path);
		return;
	}
	*VEC_PUSH(st->seen, st->nseen, st->capseen) =
		(struct seen){.dev = sb->st_dev, .ino = sb->st_ino};
	add_file(st, path);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool is_yaml(const char *name)
{
	size_t n = strlen(name);
	return n > 5 && strcmp(name + n - 5, ".yaml") == 0;
}

/*
 * Every *.yaml under dir, depth first, names sorted; hidden entries skipped.
 * Symbolic links are followed, but a directory already listed is not listed
 * again: a link back up the tree would otherwise list it until ELOOP.
 */
static void add_dir(struct suite *st, const char *dir, const struct stat *dsb)
{
	struct seen *was = find_seen(st, dsb);
	if (was) {
		if (was->open)
			warnx_("%s leads back to a directory being listed (a symbolic link "
			       "loop): not listed again", dir);
		return;
	}
	size_t me = st->nseen;
	*VEC_PUSH(st->seen, st->nseen, st->capseen) =
		(struct seen){.dev = dsb->st_dev, .ino = dsb->st_ino, .open = true};
	DIR *d = opendir(dir);
	if (d == NULL) {
		errorx("cannot read directory %s: %s", dir, strerror(errno));
		st->list_error = true;
		st->seen[me].open = false;
		return;
	}
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	for (;;) {
		errno = 0;
		if ((e = readdir(d)) == NULL)
			break;
		if (e->d_name[0] != '.')
			*VEC_PUSH(names, n, cap) = xstrdup(e->d_name);
	}
	if (errno != 0) {
		errorx("cannot read directory %s: %s", dir, strerror(errno));
		st->list_error = true;
	}
	closedir(d);
	if (n > 1)
		qsort(names, n, sizeof *names, cmp_names);
	size_t dlen = strlen(dir);
	bool slash = dlen > 0 && dir[dlen - 1] == '/';
	for (size_t i = 0; i < n; i++) {
		char *path = xmalloc(dlen + strlen(names[i]) + 2);
		sprintf(path, "%s%s%s", dir, slash ? "" : "/", names[i]);
		struct stat sb;
		if (stat(path, &sb) != 0) {
			/* a dangling link: the file's own error when its turn comes */
			if (errno == ELOOP) {
				errorx("cannot read %s: %s", path, strerror(errno));
				st->list_error = true;
			}
			if (is_yaml(names[i]) && errno != ELOOP)
				add_file(st, path);
			else
				free(path);
		} else if (S_ISDIR(sb.st_mode)) {
			add_dir(st, path, &sb);
			free(path);
		} else if (is_yaml(names[i])) {
			add_found_file(st, path, &sb);
		} else {
			free(path);
		}
		free(names[i]);
	}
	free(names);
	st->seen[me].open = false;
}

/* The operands in order, directories expanded; then only the --shard. */
static void collect(struct suite *st)
{
	const struct options *o = st->o;
	for (size_t i = 0; i < o->nfiles; i++) {
		struct stat sb;
		size_t before = st->nfiles;
		/* what cannot be read is the file's own error, when its turn comes */
		if (stat(o->files[i], &sb) != 0) {
			add_file(st, xstrdup(o->files[i]));
		} else if (S_ISDIR(sb.st_mode)) {
			bool again = find_seen(st, &sb) != NULL;
			add_dir(st, o->files[i], &sb);
			if (st->nfiles == before && !again)
				warnx_("no *.yaml files under %s", o->files[i]);
		} else {
			add_found_file(st, xstrdup(o->files[i]), &sb);
		}
	}
	free(st->seen);
	st->seen = NULL;
	st->nseen = st->capseen = 0;
	if (o->shard_n == 0)
		return;
	/* file i (from 0) is shard i mod N + 1: the same list gives the same shares */
	size_t kept = 0;
	for (size_t i = 0; i < st->nfiles; i++) {
		if (i % o->shard_n == o->shard_k - 1)
			st->files[kept++] = st->files[i];
		else
			free(st->files[i]);
	}
	st->nfiles = kept;
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
	       (size_t)idx < st->nfiles) {
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
		o.file = st->files[idx];
		if (me->device >= 0) {
			o.has_device = true;
			o.device = me->device;
		}
		if (o.json)
			o.json_file = json;
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
	return st->nagain > 0 || st->next < st->nfiles;
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

static enum result_kind kind_of(int status)
{
	switch (status) {
	case 0:
		return RES_PASSED;
	case 1:
		return RES_FAILED;
	case 124:
		return RES_TIMEOUT;
	default:
		return RES_ERROR;
	}
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
		r->kind = kind_of(status);
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

/* A worker's pipe said something: a result, its start, or its end. */
static void on_worker(struct suite *st, struct worker *w, bool *gpus_known)
{
	struct wmsg m;
	if (read_full(w->from_fd, &m, sizeof m)) {
		if (m.index < 0) {
			/* the first worker's start says how many GPUs --devices=all means */
			if (!*gpus_known) {
				*gpus_known = true;
				unsigned jobs = st->o->jobs ? st->o->jobs : 1;
				for (int dev = 1; dev < m.status && dev < 64; dev++)
					for (unsigned j = 0; j < jobs; j++)
						spawn(st, dev);
			}
			return;
		}
		if (m.index != w->file)
			return;
		if (m.started) {
			w->running = true;
			return;
		}
		struct file_result *r = &st->res[m.index];
		if (m.skipped) {
			r->kind = RES_SKIPPED;
			memcpy(r->note, m.note, sizeof r->note);
			r->note[sizeof r->note - 1] = '\0';
		}
		r->xfail = m.xfail;
		finish(st, (size_t)m.index, m.status, m.seconds, true);
		w->file = -1;
		w->last = m.index;
		if (m.status == 3 || m.status == 124) {
			/* printed once its worker has gone and the note can say what followed */
			w->retiring = true;
			r->held = true;
		}
		else if (files_left(st))
			assign(st, w, take_file(st));
		else {
			close(w->to_fd);
			w->to_fd = -1;
		}
		return;
	}
	/* EOF: the worker is gone */
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
		/* it died between files: the file it was handed goes back, once */
		st->res[last].requeued = true;
		*VEC_PUSH(st->again, st->nagain, st->capagain) = (size_t)last;
		if (device >= 0)
			warnx_("the worker on GPU %d ended before it started %s; a fresh one "
			       "runs it", device, st->files[last]);
		else
			warnx_("a worker ended before it started %s; a fresh one runs it",
			       st->files[last]);
		last = -1;
	} else if (last >= 0) {
		/* 124: gpu_run's timeout _exit; any other end mid-file is a crash, so 3 */
		int status = WIFEXITED(ws) && WEXITSTATUS(ws) == 124 ? 124 : 3;
		if (WIFSIGNALED(ws))
			st->res[last].signal = WTERMSIG(ws);
		finish(st, (size_t)last, status, monotime() - w->started, false);
	}
	long after = last >= 0 ? last : w->retiring ? w->last : -1;
	w->pid = 0;
	/* a fresh worker for the rest; the note goes with the file it stopped on */
	if (after >= 0 && spawn(st, device))
		st->res[after].restarted = true;
	else if (after < 0 && again)
		spawn(st, device);
	if (after >= 0)
		st->res[after].held = false;
}

static const char *const kind_words[] = {
	[RES_PASSED] = "PASS", [RES_FAILED] = "FAIL", [RES_SKIPPED] = "SKIP",
	[RES_ERROR] = "ERROR", [RES_TIMEOUT] = "TIMEOUT",
};

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
	for (size_t i = 0; i < st->nfiles; i++)
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
	fprintf(out, "%s: %s", r->xfail ? "XFAIL" : kind_words[r->kind], r->file);
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

/* 124 > 3 > 2 > 1 > 0: what a suite's exit status takes from its files. */
static int status_rank(int status)
{
	switch (status) {
	case 0:
		return 0;
	case 1:
		return 1;
	case 2:
		return 2;
	case 124:
		return 4;
	default:
		return 3;
	}
}

static const char *const kind_names[] = {
	[RES_PASSED] = "passed", [RES_FAILED] = "failed", [RES_SKIPPED] = "skipped",
	[RES_ERROR] = "error", [RES_TIMEOUT] = "timeout",
};

/* --json in a suite: one document, the per-file reports in a list. */
static int write_json(const struct suite *st, const unsigned counts[5], int worst)
{
	const char *path = st->o->json_file;
	FILE *out = output_open(path);
	if (out == NULL)
		return 2;
	fputs("{\n  \"files\": [", out);
	for (size_t i = 0; i < st->nfiles; i++) {
		const struct file_result *r = &st->res[i];
		fprintf(out, "%s\n    {\"file\": ", i ? "," : "");
		json_string(out, r->file);
		fprintf(out, ", \"result\": \"%s\", \"expected_failure\": %s, "
			"\"exit_status\": %d, \"seconds\": %.6f",
			kind_names[r->kind], r->xfail ? "true" : "false", r->status, r->seconds);
		if (r->kind == RES_SKIPPED) {
			fputs(", \"skip_reason\": ", out);
			json_string(out, r->note);
		}
		char msg[512];
		suite_first_error(r, msg, sizeof msg);
		if (msg[0]) {
			fputs(", \"message\": ", out);
			json_string(out, msg);
		}
		fputs(", \"report\": ", out);
		if (r->json)
			fwrite(r->json, 1, r->json_len, out);
		else
			fputs("null", out);
		fputc('}', out);
	}
	fprintf(out, "\n  ],\n  \"summary\": {\"passed\": %u, \"failed\": %u, \"skipped\": %u, "
		"\"errors\": %u, \"timeouts\": %u},\n  \"exit_status\": %d\n}\n",
		counts[RES_PASSED], counts[RES_FAILED], counts[RES_SKIPPED], counts[RES_ERROR],
		counts[RES_TIMEOUT], worst);
	return output_close(out, path, OUTPUT_OK);
}

void suite_first_error(const struct file_result *r, char *buf, size_t len)
{
	buf[0] = '\0';
	if (r->signal) {
		snprintf(buf, len, "the worker died of signal %d", r->signal);
		return;
	}
	for (const char *p = r->err; p && *p;) {
		const char *nl = strchr(p, '\n');
		size_t n = nl ? (size_t)(nl - p) : strlen(p);
		const char *e = memmem(p, n, ": error: ", 9);
		if (e) {
			snprintf(buf, len, "%.*s", (int)n, p);
			return;
		}
		p = nl ? nl + 1 : p + n;
	}
	if (r->kind == RES_ERROR && r->note[0])
		snprintf(buf, len, "%s", r->note);
}

/* Options that write one file of their own have no meaning for many; nor two for one stdout. */
static bool single_file_options(const struct options *o)
{
	const char *what = o->describe ? "--describe" : o->dot ? "--dot" :
		o->ndumps ? "--dump" : o->trace ? "--trace" : NULL;
	if (what == NULL && o->junit && strcmp(o->junit, "-") == 0 && o->json &&
	    o->json_file == NULL) {
		fprintf(stderr, "cugraphrun: --junit=- and --json both write to standard output: "
			"give one of them a file\nTry 'cugraphrun --help' for more information.\n");
		return false;
	}
	if (what == NULL)
		return true;
	fprintf(stderr, "cugraphrun: %s writes one file: it needs a single graph file, "
		"not a suite\nTry 'cugraphrun --help' for more information.\n", what);
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
	bool valid = g != NULL && d.nerrors == 0 && gdef_validate(g, &d);
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
	} else if (st->nfiles == 1 && !o->has_devices) {
		/* one file: its run.device, as when it runs on its own */
		int device = lone_file_device(st->files[0]);
		for (unsigned j = 0; j < jobs; j++)
			spawn(st, device);
	} else {
		/* all: GPU 0 first; its worker's start counts the others (on_worker) */
		*gpus_known = false;
		for (unsigned j = 0; j < jobs; j++)
			spawn(st, 0);
	}
	return st->nfiles == 0 || st->nw > 0;
}

int suite_main(const struct options *o, run_file_fn *run_file)
{
	if (!single_file_options(o))
		return 2;
	struct suite st;
	memset(&st, 0, sizeof st);
	st.o = o;
	st.run_file = run_file;
	st.gpu = !o->validate;
	st.json_stdout = o->json && o->json_file == NULL;
	st.stdout_taken = st.json_stdout || (o->junit && strcmp(o->junit, "-") == 0);
	collect(&st);
	st.res = xcalloc(st.nfiles ? st.nfiles : 1, sizeof *st.res);
	for (size_t i = 0; i < st.nfiles; i++)
		st.res[i].file = st.files[i];

	const char *tmp = getenv("TMPDIR");
	snprintf(st.tmpdir, sizeof st.tmpdir, "%s/cugraphrun.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (mkdtemp(st.tmpdir) == NULL) {
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
	double t0 = monotime();
	bool gpus_known;
	int rc = 0;
	if (!start_workers(&st, &gpus_known))
		rc = 3;
	size_t printed = 0;
	struct pollfd *pfd = NULL;
	while (rc == 0 && printed < st.nfiles && !stop_signal) {
		pfd = xreallocarray(pfd, st.nw ? st.nw : 1, sizeof *pfd);
		size_t np = 0;
		for (size_t i = 0; i < st.nw; i++)
			pfd[np++] = (struct pollfd){.fd = st.w[i].pid ? st.w[i].from_fd : -1,
						    .events = POLLIN};
		bool live = false;
		for (size_t i = 0; i < st.nw; i++)
			live |= st.w[i].pid != 0;
		if (!live) {
			errorx("no worker left to run the remaining files");
			if (st.why[0] == '\0')
				snprintf(st.why, sizeof st.why, "no worker left");
			rc = 3;
			break;
		}
		if (poll(pfd, np, -1) < 0) {
			if (errno == EINTR)
				continue;    /* stop_signal, or nothing */
			errorx("poll: %s", strerror(errno));
			snprintf(st.why, sizeof st.why, "poll: %s", strerror(errno));
			rc = 3;
			break;
		}
		for (size_t i = 0; i < np; i++)
			if (pfd[i].revents && st.w[i].pid)
				on_worker(&st, &st.w[i], &gpus_known);
		while (printed < st.nfiles && st.res[printed].done && !st.res[printed].held)
			print_result(&st, printed++);
	}
	free(pfd);
	if (stop_signal) {
		int sig = stop_signal;
		abandon(&st);
		signal(sig, SIG_DFL);
		raise(sig);
		return 128 + sig;
	}
	if (rc != 0) {
		/* a file that never ran (or whose worker was lost with it) is no pass */
		for (size_t i = printed; i < st.nfiles; i++) {
			struct file_result *r = &st.res[i];
			if (!r->done) {
				r->done = true;
				r->kind = RES_ERROR;
				r->status = 3;
				snprintf(r->note, sizeof r->note, "not run: %s",
					 st.why[0] ? st.why : "the suite stopped");
			}
			r->held = false;
			print_result(&st, i);
		}
		printed = st.nfiles;
	}
	/* every file is done: the workers see EOF and leave */
	for (size_t i = 0; i < st.nw; i++)
		if (st.w[i].pid) {
			if (st.w[i].to_fd >= 0)
				close(st.w[i].to_fd);
			close(st.w[i].from_fd);
			while (waitpid(st.w[i].pid, NULL, 0) < 0 && errno == EINTR)
				;
		}
	rmdir(st.tmpdir);
	double total = monotime() - t0;

	unsigned counts[5] = {0};
	/* a directory that could not be read is a file (or more) not run: at least 2 */
	int worst = rc ? rc : st.list_error ? 2 : 0;
	for (size_t i = 0; i < st.nfiles; i++) {
		counts[st.res[i].kind]++;
		if (status_rank(st.res[i].status) > status_rank(worst))
			worst = st.res[i].status;
	}
	fprintf(st.stdout_taken ? stderr : stdout,
		"%u passed, %u failed, %u skipped, %u errors, %u timeouts\n",
		counts[RES_PASSED], counts[RES_FAILED], counts[RES_SKIPPED], counts[RES_ERROR],
		counts[RES_TIMEOUT]);
	fflush(stdout);
	int wrc = 0;
	if (o->junit && junit_write_file(o->junit, st.res, st.nfiles, total, o->shard_k,
					 o->shard_n) != 0)
		wrc = 2;
	if (o->json && write_json(&st, counts, worst) != 0)
		wrc = 2;
	if (status_rank(wrc) > status_rank(worst))
		worst = wrc;
	for (size_t i = 0; i < st.nfiles; i++) {
		free(st.res[i].out);
		free(st.res[i].err);
		free(st.res[i].json);
		free(st.files[i]);
	}
	free(st.res);
	free(st.files);
	free(st.again);
	free(st.w);
	return worst;
}
