/*
 * Listing a suite's files (suite_files.h).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "diag.h"
#include "suite_files.h"
#include "xmalloc.h"

/* A directory or file already listed, by identity: a second path to it adds nothing. */
struct seen {
	dev_t dev;
	ino_t ino;
	bool open;                      /* a directory being listed now */
};

/* One listing: the list it adds to, and every file and directory met so far. */
struct walk {
	struct file_list *l;
	struct seen *seen;
	size_t nseen, capseen;
};

static void add_file(struct walk *st, char *path)
{
	*VEC_PUSH(st->l->files, st->l->n, st->l->cap) = path;
}

/* The entry for what sb describes, or NULL when it was not met before. */
static struct seen *find_seen(struct walk *st, const struct stat *sb)
{
	for (size_t i = 0; i < st->nseen; i++)
		if (st->seen[i].dev == sb->st_dev && st->seen[i].ino == sb->st_ino)
			return &st->seen[i];
	return NULL;
}

/* A file that exists joins the list once, however many paths lead to it. */
static void add_found_file(struct walk *st, char *path, const struct stat *sb)
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
static void add_dir(struct walk *st, const char *dir, const struct stat *dsb)
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
		st->l->error = true;
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
		st->l->error = true;
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
				st->l->error = true;
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

void file_list_collect(const struct options *o, struct file_list *l)
{
	struct walk w = {.l = l};
	struct walk *st = &w;
	for (size_t i = 0; i < o->nfiles; i++) {
		struct stat sb;
		size_t before = st->l->n;
		/* what cannot be read is the file's own error, when its turn comes */
		if (stat(o->files[i], &sb) != 0) {
			add_file(st, xstrdup(o->files[i]));
		} else if (S_ISDIR(sb.st_mode)) {
			bool again = find_seen(st, &sb) != NULL;
			add_dir(st, o->files[i], &sb);
			if (st->l->n == before && !again)
				warnx_("no *.yaml files under %s", o->files[i]);
		} else {
			add_found_file(st, xstrdup(o->files[i]), &sb);
		}
	}
	free(w.seen);
	if (o->shard_n == 0)
		return;
	/* file i (from 0) is shard i mod N + 1: the same list gives the same shares */
	size_t kept = 0;
	for (size_t i = 0; i < l->n; i++) {
		if (i % o->shard_n == o->shard_k - 1)
			l->files[kept++] = l->files[i];
		else
			free(l->files[i]);
	}
	l->n = kept;
}

void file_list_free(struct file_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->files[i]);
	free(l->files);
	l->files = NULL;
	l->n = l->cap = 0;
}
