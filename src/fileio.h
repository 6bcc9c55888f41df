/*
 * Reading a whole file into memory, the one way every part of cugraphrun
 * does it (sources, PTX/cubin modules, a suite worker's output).
 *
 * Ownership: read_whole_file() returns malloc'd memory that the caller
 * frees.
 */
#ifndef CGR_FILEIO_H
#define CGR_FILEIO_H

#include <stddef.h>

/*
 * The whole file at path, with a NUL after its last byte (it may hold
 * NULs of its own), its length in *len when len is not NULL; NULL with
 * errno set, and *len 0, when it cannot be opened or read.
 */
char *read_whole_file(const char *path, size_t *len);

#endif
