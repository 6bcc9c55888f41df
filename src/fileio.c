/* Whole files and whole reads and writes (see fileio.h). */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "fileio.h"
#include "xmalloc.h"

char *read_whole_file_max(const char *path, size_t max, size_t *len)
{
	if (len)
		*len = 0;
	FILE *f = fopen(path, "rb");
	if (f == NULL)
		return NULL;
	struct stat st;
	if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) && (uintmax_t)st.st_size > max) {
		fclose(f);
		errno = EFBIG;
		return NULL;
	}
	size_t cap = 1 << 14, n = 0, got;
	char *buf = xmalloc(cap);
	int err = 0;
	while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += got;
		if (n > max) {
			err = EFBIG;
			break;
		}
		if (cap - n - 1 == 0)
			buf = xreallocarray(buf, cap *= 2, 1);
	}
	if (err == 0 && ferror(f))
		err = errno ? errno : EIO;
	fclose(f);
	if (err) {
		free(buf);
		errno = err;
		return NULL;
	}
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

bool path_has_ext(const char *path, const char *ext)
{
	size_t lp = strlen(path), le = strlen(ext);
	return lp > le && strcmp(path + lp - le, ext) == 0;
}

char *read_whole_file(const char *path, size_t *len)
{
	return read_whole_file_max(path, SIZE_MAX - 1, len);
}

bool write_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		p += n;
		len -= (size_t)n;
	}
	return true;
}

bool read_full(int fd, void *buf, size_t len)
{
	char *p = buf;
	while (len > 0) {
		ssize_t n = read(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		p += n;
		len -= (size_t)n;
	}
	return true;
}

/* The outputs written now: each one's temporary file, renamed onto its file at its close. */
static struct pending {
	FILE *f;
	char *tmp, *final;
} *pending;
static size_t npending, cappending;

/*
 * A signal that ends the process while outputs are being written (Ctrl-C,
 * SIGTERM, SIGHUP, SIGXFSZ past ulimit -f) takes their temporary files
 * with it, then ends it as it would have.  Only signals whose action was
 * the default are caught (a suite's parent has its own), and only while
 * an output is pending.
 */
static const int cleanup_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGXFSZ};
#define NCLEANUP (sizeof cleanup_signals / sizeof *cleanup_signals)
static bool caught[NCLEANUP];

static void on_signal(int sig)
{
	for (size_t i = 0; i < npending; i++)
		unlink(pending[i].tmp);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void catch_signals(bool on)
{
	for (size_t i = 0; i < NCLEANUP; i++) {
		struct sigaction sa, old;
		if (on == caught[i])
			continue;
		memset(&sa, 0, sizeof sa);
		sa.sa_handler = on ? on_signal : SIG_DFL;
		sigemptyset(&sa.sa_mask);
		if (!on) {
			sigaction(cleanup_signals[i], &sa, NULL);
			caught[i] = false;
		} else if (sigaction(cleanup_signals[i], NULL, &old) == 0 &&
			   old.sa_handler == SIG_DFL) {
			sigaction(cleanup_signals[i], &sa, NULL);
			caught[i] = true;
		}
	}
}

/* The process's umask, read once (reading it sets it). */
static mode_t file_umask(void)
{
	static bool known;
	static mode_t mask;
	if (!known) {
		mask = umask(077);
		umask(mask);
		known = true;
	}
	return mask;
}

/* A new file's place in dir, its name "dir/.cugraphrun-XXXXXX" (malloc'd). */
static char *temp_name(const char *dir)
{
	return xasprintf("%s/.cugraphrun-XXXXXX", dir);
}

/* The folder of path (malloc'd): "." for a bare name. */
static char *folder_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (slash == NULL)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

/*
 * The file that writing path replaces: path itself, or the file a symbolic
 * link leads to (renaming onto the link would put a file in its place).
 */
static char *final_of(const char *path)
{
	struct stat lst;
	if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
		char *real = realpath(path, NULL);
		if (real)
			return real;
	}
	return xstrdup(path);
}

/*
 * A path that names a descriptor or a device however it is reached
 * (/dev/stdout, /dev/fd/3, /proc/self/fd/1): written directly, never
 * replaced, even when what it leads to is a regular file.
 */
static bool direct_path(const char *path)
{
	return strncmp(path, "/dev/", 5) == 0 || strncmp(path, "/proc/", 6) == 0;
}

/* "-" names standard output for every output option (cugraphrun(1), OUTPUT FILES). */
static bool is_stdout(const char *path)
{
	return path == NULL || strcmp(path, "-") == 0;
}

FILE *output_open(const char *path)
{
	if (is_stdout(path))
		return stdout;
	struct stat st;
	bool exists = stat(path, &st) == 0;
	if (exists && S_ISDIR(st.st_mode)) {
		errorx("cannot write %s: %s", path, strerror(EISDIR));
		return NULL;
	}
	if ((exists && !S_ISREG(st.st_mode)) || direct_path(path)) {
		/* a FIFO or a device: what is written is gone at once, nothing to replace */
		FILE *f = fopen(path, "w");
		if (f == NULL)
			errorx("cannot write %s: %s", path, strerror(errno));
		return f;
	}
	if (exists && access(path, W_OK) != 0) {
		errorx("cannot write %s: %s", path, strerror(errno));
		return NULL;
	}
	char *final = final_of(path);
	char *dir = folder_of(final);
	char *tmp = temp_name(dir);
	free(dir);
	int fd = mkstemp(tmp);
	if (fd < 0 && exists && (errno == EACCES || errno == EPERM)) {
		/* a folder that takes no new file: the file itself, in place */
		free(tmp);
		free(final);
		FILE *f = fopen(path, "w");
		if (f == NULL)
			errorx("cannot write %s: %s", path, strerror(errno));
		return f;
	}
	FILE *f = NULL;
	if (fd >= 0) {
		if (exists) {
			/* as the file was: its mode, and its owner where we may give it */
			fchmod(fd, st.st_mode & 07777);
			if (fchown(fd, st.st_uid, st.st_gid) != 0)
				errno = 0;
		} else {
			fchmod(fd, 0666 & ~file_umask());
		}
		f = fdopen(fd, "w");
	}
	if (f == NULL) {
		errorx("cannot write %s: %s", path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		free(tmp);
		free(final);
		return NULL;
	}
	/* the handler reads the list: no signal while it grows */
	sigset_t all, was;
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &was);
	*VEC_PUSH(pending, npending, cappending) = (struct pending){f, tmp, final};
	catch_signals(true);
	sigprocmask(SIG_SETMASK, &was, NULL);
	return f;
}

int output_close(FILE *f, const char *path, enum output_written w)
{
	int err = w == OUTPUT_FAILED ? errno : 0;
	struct pending p = {NULL, NULL, NULL};
	size_t at = npending;
	for (size_t i = 0; i < npending; i++)
		if (pending[i].f == f)
			at = i;
	if (at < npending)
		p = pending[at];
	if ((is_stdout(path) ? fflush(f) : fclose(f)) != 0 && w == OUTPUT_OK) {
		err = errno;
		w = OUTPUT_FAILED;
	}
	if (p.tmp && w == OUTPUT_OK && rename(p.tmp, p.final) != 0) {
		err = errno;
		w = OUTPUT_FAILED;
	}
	if (p.tmp && w != OUTPUT_OK)
		unlink(p.tmp);
	if (at < npending) {
		sigset_t all, was;
		sigfillset(&all);
		sigprocmask(SIG_BLOCK, &all, &was);
		pending[at] = pending[--npending];
		if (npending == 0) {
			catch_signals(false);
			free(pending);
			pending = NULL;
			cappending = 0;
		}
		sigprocmask(SIG_SETMASK, &was, NULL);
	}
	free(p.tmp);
	free(p.final);
	if (w == OUTPUT_OK)
		return 0;
	if (w == OUTPUT_FAILED)
		errorx("cannot write %s: %s", is_stdout(path) ? "standard output" : path,
		       err ? strerror(err) : "write error");
	return 2;
}

/* Whether dir takes a new file: one is made there and removed.  errno set when not. */
static bool folder_takes_file(const char *dir)
{
	char *tmp = temp_name(dir);
	int fd = mkstemp(tmp);
	if (fd >= 0) {
		close(fd);
		unlink(tmp);
	}
	free(tmp);
	return fd >= 0;
}

/* One output's check (outputs_prepare); false after its message. */
static bool output_prepare(struct output_name *o)
{
	struct stat st;
	o->exists = false;
	if (stat(o->path, &st) == 0) {
		o->exists = true;
		o->dev = st.st_dev;
		o->ino = st.st_ino;
		if (S_ISDIR(st.st_mode)) {
			errno = EISDIR;
			goto fail;
		}
		if (access(o->path, W_OK) != 0)
			goto fail;
		if (!S_ISREG(st.st_mode) || direct_path(o->path))
			return true;
	} else if (errno != ENOENT) {
		goto fail;
	}
	char *final = final_of(o->path);
	char *dir = folder_of(final);
	bool ok = folder_takes_file(dir);
	free(dir);
	free(final);
	/* an existing file whose folder takes no new file is written in place */
	if (ok || (o->exists && (errno == EACCES || errno == EPERM)))
		return true;
fail:
	errorx("cannot write %s: %s", o->path, strerror(errno));
	return false;
}

int outputs_prepare(struct output_name *v, size_t n)
{
	file_umask();
	for (size_t i = 0; i < n; i++) {
		if (v[i].path == NULL)
			continue;
		if (!output_prepare(&v[i]))
			return 2;
		const struct output_name *o = v[i].exists ?
			outputs_find(v, i, v[i].dev, v[i].ino) : NULL;
		if (o) {
			errorx("%s and %s both write %s: give them different files", o->option,
			       v[i].option, v[i].path);
			return 2;
		}
	}
	return 0;
}

const struct output_name *outputs_find(const struct output_name *v, size_t n, dev_t dev,
				       ino_t ino)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].path && v[i].exists && v[i].dev == dev && v[i].ino == ino)
			return &v[i];
	return NULL;
}

const char *tmp_dir(void)
{
	const char *t = getenv("TMPDIR");
	return t && *t ? t : "/tmp";
}

char *scratch_file(void)
{
	char *path = xasprintf("%s/cugraphrun-XXXXXX", tmp_dir());
	int fd = mkstemp(path);
	if (fd < 0) {
		errorx("cannot make a temporary file in %s: %s", tmp_dir(), strerror(errno));
		free(path);
		return NULL;
	}
	close(fd);
	return path;
}

int read_file_exact(const char *path, void *out, uint64_t size, uint64_t *actual)
{
	FILE *f = fopen(path, "rb");
	if (f == NULL)
		return -1;
	struct stat st;
	int rc = 0;
	if (fstat(fileno(f), &st) == 0 && S_ISREG(st.st_mode) &&
	    (uint64_t)st.st_size != size) {
		*actual = (uint64_t)st.st_size;
		rc = 1;
	} else if (fread(out, 1, size, f) != size) {
		rc = ferror(f) ? -1 : 1;
		*actual = 0;
	} else if (getc(f) != EOF) {
		*actual = size + 1;
		rc = 1;
	}
	int saved = errno;
	fclose(f);
	errno = saved;
	return rc;
}
