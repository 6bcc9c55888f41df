/*
 * The files of a suite: its operands in order, each directory expanded to
 * every *.yaml under it (depth first, names sorted, hidden entries
 * skipped, symbolic links followed but no directory listed twice), one
 * entry per file however many paths lead to it, then only the --shard's
 * share.  Errors reading a directory are printed here and remembered.
 *
 * Ownership: a struct file_list owns its paths; file_list_free releases
 * them and accepts a zeroed list.
 */
#ifndef CGR_SUITE_FILES_H
#define CGR_SUITE_FILES_H

#include <stdbool.h>
#include <stddef.h>

#include "cli.h"

struct file_list {
	char **files;
	size_t n, cap;
	bool error;                     /* a directory or entry could not be read */
};

/* The files o's operands name, after --shard. */
void file_list_collect(const struct options *o, struct file_list *l);
void file_list_free(struct file_list *l);

#endif
