/*
 * The files of a suite (cugraphrun(1) SUITES): its operands in order, each
 * directory expanded to every *.yaml under it (depth first, names sorted,
 * hidden entries skipped, symbolic links followed but no directory listed
 * twice), then only the --shard's share.
 *
 * A path named twice runs once: two paths are the same when they name the
 * same entry of the same folder (by the folder's device and inode, so
 * "a.yaml", "./a.yaml" and "d/../a.yaml" are one).  Two entries that lead
 * to one file (hard links, symbolic links in other folders, whose module
 * paths resolve from elsewhere) are two files.  Nothing is opened while
 * listing: what is found under a directory is looked at with stat, and
 * must be a regular file; one that is not, an entry that cannot be looked
 * at, and a directory that cannot be read are listed with why, as errors
 * of their own (never run, counted, in JUnit).  An operand that names no
 * directory is listed as it is: a FIFO or "-" runs, and a missing file is
 * that file's error when it runs.  The walk takes time and memory linear
 * in the entries (a hash of the places met).
 *
 * Ownership: a struct file_list owns its paths and reasons; file_list_free
 * releases them and accepts a zeroed list.
 */
#ifndef CGR_SUITE_FILES_H
#define CGR_SUITE_FILES_H

#include <stdbool.h>
#include <stddef.h>

#include "cli.h"

struct listed {
	char *path;                     /* as given, or found under a directory */
	char *why;                      /* NULL, or why it cannot be read: never run */
	bool dir;                       /* why is about this directory */
	bool walked;                    /* found under a directory: a regular file */
};

struct file_list {
	struct listed *v;
	size_t n, cap;
};

/* The files o's operands name, after --shard. */
void file_list_collect(const struct options *o, struct file_list *l);
void file_list_free(struct file_list *l);

#endif
