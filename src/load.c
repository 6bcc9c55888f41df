/*
 * The loader's entry points (load.h): a path, a descriptor or a string,
 * into a plain file's one model or a template's sweep.  The loader itself
 * is in layers, each a room of its own (load_state.h lists them): its
 * state, scalars, mappings, the format's sections, one file's document,
 * a template's points.  Here: the limits, reading the input (a regular
 * file streamed into libyaml; pipes and the like read whole, and a
 * binary refused early), and the choice between a plain load and a
 * template's.
 *
 * Errors inside a value skip the rest of that value and go on, so that
 * every error is reported; only YAML syntax errors, the limits and an
 * unsupported format version stop the load (and return NULL).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "load.h"
#include "load_file.h"
#include "load_point.h"
#include "load_state.h"
#include "sweep.h"
#include "utf8.h"
#include "xmalloc.h"

const struct load_limits load_default_limits = {
	.max_depth = 64,
	.max_alias_events = 1000000,
	.max_file_size = (size_t)1 << 30,
	.max_generated_events = 10000000,
};

static const struct pos nopos;

/* l's input is set: read it into a new definition named name, or NULL (and *restart). */
static struct gdef *load(struct ld *l, const char *name, bool *restart)
{
	struct gdef *g = load_model(l, name);
	*restart = l->es.restart;
	ld_free(l);
	return g;
}

/* A plain file's one model as a sweep of one point without axes. */
static struct sweep *one_point(struct gdef *g)
{
	if (g == NULL)
		return NULL;
	struct sweep *sw = sweep_new();
	sw->npoints = 1;
	sw->index = xcalloc(1, sizeof *sw->index);
	sw->labels = xcalloc(1, sizeof *sw->labels);
	sw->labels[0] = arena_strdup(&sw->arena, "");
	sw->models = xcalloc(1, sizeof *sw->models);
	sw->models[0] = g;
	return sw;
}

__attribute__((cold)) void sweep_release(struct sweep *sw)
{
	template_sweep_free(sw);
}

__attribute__((cold)) struct gdef *sweep_reload(struct sweep *sw, size_t k, struct diag *d)
{
	return point_reread(sw, k, d);
}

/* Is there "${" in text? */
static bool has_expr(const char *text, size_t len)
{
	return len >= 2 && memmem(text, len, "${", 2) != NULL;
}

/* sweep_load_string, or with first_only the first point's model alone (gdef_load_string). */
static struct sweep *load_string(const char *name, const char *text, size_t len,
				 const struct load_limits *limits, const struct axis_arg *args,
				 size_t nargs, bool first_only, struct diag *d)
{
	if (limits == NULL)
		limits = &load_default_limits;
	if (len > limits->max_file_size) {
		diag_error(d, nopos, "%s is too large (%zu bytes; the limit is %zu)", name, len,
			   limits->max_file_size);
		return NULL;
	}
	if (nargs == 0 && !has_expr(text, len)) {
		struct ld l;
		bool restart;
		ld_init(&l, name, limits, d);
		ev_input_string(&l.es, text, len);
		struct gdef *g = load(&l, name, &restart);
		if (!restart)
			return one_point(g);
	}
	return load_template(name, text, len, limits, args, nargs, first_only, d);
}

struct sweep *sweep_load_string(const char *name, const char *text, size_t len,
				const struct load_limits *limits, const struct axis_arg *args,
				size_t nargs, struct diag *d)
{
	return load_string(name, text, len, limits, args, nargs, false, d);
}

struct gdef *gdef_load_string(const char *name, const char *text, size_t len,
			      const struct load_limits *limits, struct diag *d)
{
	return sweep_first(load_string(name, text, len, limits, NULL, 0, true, d));
}

struct gdef *sweep_first(struct sweep *sw)
{
	if (sw == NULL)
		return NULL;
	struct gdef *g = sw->models[0];
	sw->models[0] = NULL;
	sweep_release(sw);
	return g;
}

/* len bytes of fd from its start, or NULL with errno. */
static char *read_from_start(int fd, size_t len)
{
	char *buf = xmalloc(len ? len : 1);
	for (size_t done = 0; done < len;) {
		ssize_t n = pread(fd, buf + done, len - done, (off_t)done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			free(buf);
			return NULL;
		}
		done += (size_t)n;
	}
	return buf;
}

/*
 * Where in s[*from..len) the first character is that libyaml refuses in a
 * UTF-8 stream (a byte that is no UTF-8, or a character outside YAML's
 * printable set: NUL, most C0 controls, surrogates...), or len when there
 * is none yet.  *from moves past what was checked, stopping before a
 * sequence that the end of what was read so far cuts short.
 */
static size_t first_refused(const char *text, size_t *from, size_t len)
{
	const unsigned char *s = (const unsigned char *)text;
	size_t i = *from, n;
	while (i < len) {
		if (s[i] >= 0x20 && s[i] < 0x7f) {
			i++;
			continue;
		}
		int32_t c = utf8_next(s + i, len - i, &n);
		if (c == '\t' || c == '\n' || c == '\r' || c == 0x85 ||
		    (c >= 0xa0 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd) || c >= 0x10000) {
			i += n;
			continue;
		}
		/* a lead byte whose continuation bytes are still to come */
		size_t need = s[i] >= 0xc2 && s[i] <= 0xdf ? 2 : s[i] >= 0xe0 && s[i] <= 0xef ? 3 :
			s[i] >= 0xf0 && s[i] <= 0xf4 ? 4 : 0;
		size_t k = 1;
		while (i + k < len && k < need && (s[i + k] & 0xc0) == 0x80)
			k++;
		if (c < 0 && need && i + k == len)
			break;
		*from = i;
		return i;
	}
	*from = i;
	return len;
}

/*
 * The rest of fd into a buffer, for what cannot be streamed by size (pipes,
 * procfs).  A UTF-8 stream stops being read a few bytes past the first
 * character libyaml refuses: standard input or /dev/urandom holding a
 * binary is rejected at once rather than after the 1 GiB limit, and what
 * was read gives the same error, at the same place, as the whole would.
 * (A UTF-16 stream, which starts with its byte order mark, is libyaml's
 * to decode.)
 */
static char *read_all(int fd, size_t max, size_t *lenp, bool *too_large)
{
	size_t cap = max < 65536 ? max : 65536, len = 0;
	char *buf = xmalloc(cap ? cap : 1);
	size_t checked = 0, stop = SIZE_MAX;
	bool utf16 = false;
	*too_large = false;
	for (;;) {
		if (len == cap && cap < max) {
			/* Never more than max bytes, however long the pipe. */
			cap = cap > max / 2 ? max : cap * 2;
			buf = xreallocarray(buf, cap, 1);
		}
		char probe;
		ssize_t n = len < cap ? read(fd, buf + len, cap - len) : read(fd, &probe, 1);
		if (n > 0 && len == cap) {
			*too_large = true;
			free(buf);
			return NULL;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			free(buf);
			return NULL;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len < 2)
			continue;
		if (checked == 0 && ((unsigned char)buf[0] == 0xff || (unsigned char)buf[0] == 0xfe) &&
		    ((unsigned char)buf[1] ^ (unsigned char)buf[0]) == 1)
			utf16 = true;
		if (!utf16 && stop == SIZE_MAX) {
			size_t bad = first_refused(buf, &checked, len);
			if (bad < len)
				stop = bad + 4;
		}
		if (len >= stop)
			break;
	}
	*lenp = len;
	return buf;
}

/*
 * fd, open on path, which it closes.  A regular file is streamed into
 * libyaml (see ev_input_fd); the rest are read whole.  A template is read
 * whole too, once it is known to be one.  With first_only, the first
 * point's model alone (gdef_load).
 */
static struct sweep *load_fd(const char *path, int fd, const struct axis_arg *args, size_t nargs,
			     bool first_only, struct diag *d)
{
	const struct load_limits *lim = &load_default_limits;
	struct stat st;
	if (fstat(fd, &st) != 0) {
		diag_error(d, nopos, "cannot read %s: %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	if (S_ISREG(st.st_mode) && (uintmax_t)st.st_size > lim->max_file_size) {
		diag_error(d, nopos, "%s is too large (%jd bytes; the limit is %zu)", path,
			   (intmax_t)st.st_size, lim->max_file_size);
		close(fd);
		return NULL;
	}
	/* (procfs and the like say 0 bytes, and are read to their end below) */
	if (S_ISREG(st.st_mode) && st.st_size > 0) {
		size_t size = (size_t)st.st_size;
		bool restart = nargs > 0;
		struct sweep *sw = NULL;
		if (!restart) {
			struct ld l;
			ld_init(&l, path, lim, d);
			ev_input_fd(&l.es, fd, size);
			sw = one_point(load(&l, path, &restart));
		}
		if (restart) {
			char *text = read_from_start(fd, size);
			if (text == NULL)
				diag_error(d, nopos, "cannot read %s: %s", path, strerror(errno));
			else
				sw = load_template(path, text, size, lim, args, nargs, first_only,
						   d);
			free(text);
		}
		close(fd);
		return sw;
	}
	size_t len = 0;
	bool too_large;
	char *buf = read_all(fd, lim->max_file_size, &len, &too_large);
	int e = errno;
	close(fd);
	if (buf == NULL) {
		if (too_large)
			diag_error(d, nopos, "%s is too large (the limit is %zu bytes)", path,
				   lim->max_file_size);
		else
			diag_error(d, nopos, "cannot read %s: %s", path, strerror(e));
		return NULL;
	}
	struct sweep *sw = load_string(path, buf, len, lim, args, nargs, first_only, d);
	free(buf);
	return sw;
}

/* sweep_load, or with first_only the first point's model alone (gdef_load). */
static struct sweep *load_path(const char *path, const struct axis_arg *args, size_t nargs,
			       bool first_only, struct diag *d)
{
	/* "-" is standard input (a copy of the descriptor, closed like any). */
	int fd = strcmp(path, "-") == 0 ? fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0)
				       : open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		diag_error(d, nopos, "cannot read %s: %s", path, strerror(errno));
		return NULL;
	}
	return load_fd(path, fd, args, nargs, first_only, d);
}

struct sweep *sweep_load(const char *path, const struct axis_arg *args, size_t nargs,
			 struct diag *d)
{
	return load_path(path, args, nargs, false, d);
}

struct gdef *gdef_load(const char *path, struct diag *d)
{
	return sweep_first(load_path(path, NULL, 0, true, d));
}

struct sweep *sweep_load_fd(const char *path, int fd, const struct axis_arg *args,
			    size_t nargs, struct diag *d)
{
	return load_fd(path, fd, args, nargs, false, d);
}

struct gdef *gdef_load_fd(const char *path, int fd, struct diag *d)
{
	return sweep_first(load_fd(path, fd, NULL, 0, true, d));
}
