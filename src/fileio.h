/*
 * Reading a whole file into memory, the one way every part of cugraphrun
 * does it (sources, PTX/cubin modules, a suite worker's output), and
 * whole reads and writes on descriptors (suite pipes, cache entries).
 *
 * Ownership: read_whole_file() returns malloc'd memory that the caller
 * frees.
 */
#ifndef CGR_FILEIO_H
#define CGR_FILEIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * The whole file at path, with a NUL after its last byte (it may hold
 * NULs of its own), its length in *len when len is not NULL; NULL with
 * errno set, and *len 0, when it cannot be opened or read.
 */
char *read_whole_file(const char *path, size_t *len);

/*
 * Exactly size bytes of path into out (an init or expect file, whose size
 * the file format fixes).  0 on success; -1 when the file cannot be read
 * (errno set); 1 when its size differs (*actual set).
 */
int read_file_exact(const char *path, void *out, uint64_t size, uint64_t *actual);

/* All len bytes to fd, through short writes and EINTR; false on an error. */
bool write_full(int fd, const void *buf, size_t len);

/* Exactly len bytes from fd, through short reads and EINTR; false at EOF or an error first. */
bool read_full(int fd, void *buf, size_t len);

/*
 * An output the user named (--json, --junit, --describe, --trace):
 * standard output when path is NULL, else the file, created or
 * truncated.  NULL after "cannot write PATH: why".
 */
FILE *output_open(const char *path);

/* How writing an output went, for output_close. */
enum output_written {
	OUTPUT_OK,
	OUTPUT_FAILED,          /* a write failed; errno says why (0: unknown) */
	OUTPUT_REPORTED,        /* a write failed and the writer said why */
};

/*
 * Finish an output of output_open, always: standard output is flushed, a
 * file closed.  0 when all of it was written, else 2, after "cannot write
 * PATH: why" unless the writer already said it.
 */
int output_close(FILE *f, const char *path, enum output_written w);

#endif
