/* Whole files and whole reads and writes (see fileio.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diag.h"
#include "fileio.h"
#include "xmalloc.h"

char *read_whole_file(const char *path, size_t *len)
{
	if (len)
		*len = 0;
	FILE *f = fopen(path, "rb");
	if (f == NULL)
		return NULL;
	size_t cap = 1 << 14, n = 0, got;
	char *buf = xmalloc(cap);
	while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += got;
		if (cap - n - 1 == 0)
			buf = xreallocarray(buf, cap *= 2, 1);
	}
	int err = ferror(f) ? (errno ? errno : EIO) : 0;
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

FILE *output_open(const char *path)
{
	if (path == NULL)
		return stdout;
	FILE *f = fopen(path, "w");
	if (f == NULL)
		errorx("cannot write %s: %s", path, strerror(errno));
	return f;
}

int output_close(FILE *f, const char *path, enum output_written w)
{
	int err = w == OUTPUT_FAILED ? errno : 0;
	if ((path ? fclose(f) : fflush(f)) != 0 && w == OUTPUT_OK) {
		err = errno;
		w = OUTPUT_FAILED;
	}
	if (w == OUTPUT_OK)
		return 0;
	if (w == OUTPUT_FAILED)
		errorx("cannot write %s: %s", path ? path : "standard output",
		       err ? strerror(err) : "write error");
	return 2;
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
