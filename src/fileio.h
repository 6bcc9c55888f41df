/*
 * Reading a whole file into memory, the one way every part of cugraphrun
 * does it (sources, PTX/cubin modules, a suite worker's output), whole
 * reads and writes on descriptors (suite pipes, cache entries), and the
 * one way a file the user named is written (output_open, output_close:
 * to a temporary file beside it, renamed into place when complete) and
 * checked before the run (outputs_prepare).
 *
 * Ownership: read_whole_file() returns malloc'd memory that the caller
 * frees.  An output_name borrows its strings.
 */
#ifndef CGR_FILEIO_H
#define CGR_FILEIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

/*
 * The whole file at path, with a NUL after its last byte (it may hold
 * NULs of its own), its length in *len when len is not NULL; NULL with
 * errno set, and *len 0, when it cannot be opened or read.
 */
char *read_whole_file(const char *path, size_t *len);

/* Does path end in ext (".json"), with a name before it?  Case counts. */
bool path_has_ext(const char *path, const char *ext);

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
 * The most a file that cugraphrun reads whole at run time may hold: a
 * module (PTX, cubin, fatbin), a CUDA C++ source and each file it
 * includes, as a graph file may (load.h).
 */
#define READ_MAX_BYTES ((size_t)1 << 30)

/*
 * The whole file at path, as read_whole_file, when it holds at most max
 * bytes; NULL with errno EFBIG when it holds more (a regular file's size
 * is known before reading, anything else is read no further than max + 1).
 */
char *read_whole_file_max(const char *path, size_t max, size_t *len);

/*
 * An output the user named (--json, --junit, --describe, --trace, --dot,
 * --dump): standard output when path is NULL or "-".  A regular file, or a new
 * one, is written to a temporary file in its folder (through a symbolic
 * link, the folder of the file it leads to), which output_close renames
 * into place once all of it was written: a run that fails or is killed
 * never leaves a truncated file where a good one was.  The file keeps its
 * mode; a new one gets 0666 less the umask.  A FIFO, a device and a path
 * under /dev or /proc (/dev/stdout) are opened and written directly.  NULL
 * after "cannot write PATH: why".
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
 * file closed and, when all of it was written, renamed into place (else
 * its temporary file removed and the file left as it was).  0 when all of
 * it was written, else 2, after "cannot write PATH: why" unless the
 * writer already said it.
 */
int output_close(FILE *f, const char *path, enum output_written w);

/*
 * A file named by an output option (cli.c's table of them puts one in
 * struct options for each).  path is NULL for standard output.
 * outputs_prepare fills in the rest.
 */
struct output_name {
	const char *option;             /* "--junit" */
	const char *path;
	const char *example;            /* the option's = form, for messages */
	bool exists;                    /* the file is there: dev and ino are its */
	dev_t dev;
	ino_t ino;
};

/*
 * Before anything runs: each output in v can be written, so that a
 * directory, a missing folder or a file that cannot be created is found
 * before the work and not after it.  An existing file must be writable
 * and not a directory, and the folder of a file (or of a new one) must
 * take a new file: one is made there and removed.  Two outputs may not be
 * one file.  Notes each existing file's identity for outputs_find.  0, or
 * 2 after a message.
 */
int outputs_prepare(struct output_name *v, size_t n);

/* The output among v that is the file (dev, ino), or NULL. */
const struct output_name *outputs_find(const struct output_name *v, size_t n, dev_t dev,
				       ino_t ino);

/*
 * A new empty file in $TMPDIR (else /tmp), for a writer that wants a path
 * of its own (the driver's DOT): its path, malloc'd, or NULL after
 * "cannot make a temporary file in DIR: why".  The caller unlinks it.
 */
char *scratch_file(void);

/* $TMPDIR when set and not empty, else /tmp. */
const char *tmp_dir(void);

#endif
