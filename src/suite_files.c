/*
 * Listing a suite's files (suite_files.h).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "diag.h"
#include "fileio.h"
#include "suite_files.h"
#include "xmalloc.h"

/*
 * A place met: an entry name in a folder (by the folder's device and
 * inode), or a directory itself (name NULL), by its own.
 */
struct place {
	uint64_t hash;                  /* 0: an empty slot */
	dev_t dev;
	ino_t ino;
	const char *name;               /* borrowed from the list's path; NULL: a directory */
	size_t len;
	bool open;                      /* a directory being listed now */
};

/* One listing: the list it adds to, and an open-addressing table of the places met. */
struct walk {
	struct file_list *l;
	struct place *t;
	size_t cap, n;                  /* cap a power of two, kept at most half full */
};

static uint64_t place_hash(dev_t dev, ino_t ino, const char *name, size_t len)
{
	uint64_t h = 14695981039346656037ull;
	uint64_t k[2] = {(uint64_t)dev, (uint64_t)ino};
	const unsigned char *p = (const unsigned char *)k;
	for (size_t i = 0; i < sizeof k; i++)
		h = (h ^ p[i]) * 1099511628211ull;
	h = (h ^ (name != NULL)) * 1099511628211ull;
	for (size_t i = 0; name && i < len; i++)
		h = (h ^ (unsigned char)name[i]) * 1099511628211ull;
	return h | 1;
}

static bool place_eq(const struct place *p, dev_t dev, ino_t ino, const char *name, size_t len)
{
	return p->dev == dev && p->ino == ino && (p->name == NULL) == (name == NULL) &&
		(name == NULL || (p->len == len && memcmp(p->name, name, len) == 0));
}

/* The slot of the place when it was met, else NULL. */
static struct place *place_find(struct walk *w, dev_t dev, ino_t ino, const char *name,
				size_t len)
{
	if (w->cap == 0)
		return NULL;
	uint64_t h = place_hash(dev, ino, name, len);
	for (size_t j = h & (w->cap - 1); w->t[j].hash; j = (j + 1) & (w->cap - 1))
		if (w->t[j].hash == h && place_eq(&w->t[j], dev, ino, name, len))
			return &w->t[j];
	return NULL;
}

/* The slot of the place, met before (*added false) or added now. */
static struct place *place_meet(struct walk *w, dev_t dev, ino_t ino, const char *name,
				size_t len, bool *added)
{
	if (2 * (w->n + 1) > w->cap) {
		size_t cap = w->cap ? 2 * w->cap : 1024;
		struct place *t = xcalloc(cap, sizeof *t);
		for (size_t i = 0; i < w->cap; i++)
			if (w->t[i].hash) {
				size_t j = w->t[i].hash & (cap - 1);
				while (t[j].hash)
					j = (j + 1) & (cap - 1);
				t[j] = w->t[i];
			}
		free(w->t);
		w->t = t;
		w->cap = cap;
	}
	struct place *p = place_find(w, dev, ino, name, len);
	*added = p == NULL;
	if (p)
		return p;
	uint64_t h = place_hash(dev, ino, name, len);
	size_t j = h & (w->cap - 1);
	while (w->t[j].hash)
		j = (j + 1) & (w->cap - 1);
	w->t[j] = (struct place){h, dev, ino, name, len, false};
	w->n++;
	*added = true;
	return &w->t[j];
}

static struct listed *add(struct walk *w, char *path)
{
	struct listed *e = VEC_PUSH(w->l->v, w->l->n, w->l->cap);
	*e = (struct listed){.path = path};
	return e;
}

/* An entry that cannot be read: listed with why (errno e, or text). */
static void add_error(struct walk *w, char *path, bool dir, int e, const char *text)
{
	struct listed *l = add(w, path);
	l->why = xstrdup(text ? text : strerror(e));
	l->dir = dir;
}

/*
 * A file at path, whose name (within path) is an entry of the folder
 * (dev, ino): listed unless that entry was listed before.
 */
static void add_file(struct walk *w, char *path, const char *name, dev_t dev, ino_t ino,
		     bool walked)
{
	bool added;
	place_meet(w, dev, ino, name, strlen(name), &added);
	if (!added) {
		free(path);
		return;
	}
	add(w, path)->walked = walked;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool is_yaml(const char *name)
{
	return path_has_ext(name, ".yaml");
}

/* What a file that is not a regular one is, for the error that refuses it. */
static const char *not_regular(mode_t mode)
{
	return S_ISFIFO(mode) ? "not a regular file (a FIFO)" :
		S_ISCHR(mode) ? "not a regular file (a character device)" :
		S_ISBLK(mode) ? "not a regular file (a block device)" :
		S_ISSOCK(mode) ? "not a regular file (a socket)" : "not a regular file";
}

/* A directory's entries: names (malloc'd, each with its d_type after its NUL). */
static char **list_dir(struct walk *w, const char *dir, size_t *np)
{
	*np = 0;
	DIR *d = opendir(dir);
	if (d == NULL) {
		add_error(w, xstrdup(dir), true, errno, NULL);
		return NULL;
	}
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	for (;;) {
		errno = 0;
		if ((e = readdir(d)) == NULL)
			break;
		if (e->d_name[0] == '.')
			continue;
		size_t len = strlen(e->d_name);
		char *s = xmalloc(len + 2);
		memcpy(s, e->d_name, len + 1);
		s[len + 1] = (char)e->d_type;
		*VEC_PUSH(names, n, cap) = s;
	}
	/* what was read is still listed; the directory is an error besides */
	if (errno != 0)
		add_error(w, xstrdup(dir), true, errno, NULL);
	closedir(d);
	if (n > 1)
		qsort(names, n, sizeof *names, cmp_names);
	*np = n;
	return names;
}

/*
 * Every *.yaml under dir, depth first, names sorted; hidden entries skipped.
 * Symbolic links are followed, but a directory already listed is not listed
 * again: a link back up the tree would otherwise list it until ELOOP.
 */
static void add_dir(struct walk *w, const char *dir, const struct stat *dsb)
{
	bool added;
	struct place *me = place_meet(w, dsb->st_dev, dsb->st_ino, NULL, 0, &added);
	if (!added) {
		if (me->open)
			warnx_("%s leads back to a directory being listed (a symbolic link "
			       "loop): not listed again", dir);
		return;
	}
	me->open = true;
	size_t n;
	char **names = list_dir(w, dir, &n);
	size_t dlen = strlen(dir);
	bool slash = dlen > 0 && dir[dlen - 1] == '/';
	for (size_t i = 0; i < n; i++) {
		const char *name = names[i];
		size_t nlen = strlen(name);
		unsigned char type = (unsigned char)name[nlen + 1];
		bool yaml = is_yaml(name);
		/* a file that is no directory and no *.yaml: nothing to look at */
		if (!yaml && (type == DT_REG || type == DT_FIFO || type == DT_CHR ||
			      type == DT_BLK || type == DT_SOCK)) {
			free(names[i]);
			continue;
		}
		char *path = xasprintf("%s%s%s", dir, slash ? "" : "/", name);
		struct stat sb;
		if (stat(path, &sb) != 0) {
			/* a link to nothing that no name makes a graph file: nothing there */
			if (!yaml && errno == ENOENT)
				free(path);
			else
				add_error(w, path, false, errno, NULL);
		} else if (S_ISDIR(sb.st_mode)) {
			add_dir(w, path, &sb);
			free(path);
		} else if (!yaml) {
			free(path);
		} else if (!S_ISREG(sb.st_mode)) {
			add_error(w, path, false, 0, not_regular(sb.st_mode));
		} else {
			add_file(w, path, path + strlen(path) - nlen, dsb->st_dev, dsb->st_ino, true);
		}
		free(names[i]);
	}
	free(names);
	/* the table may have moved */
	place_meet(w, dsb->st_dev, dsb->st_ino, NULL, 0, &added)->open = false;
}

/*
 * An operand that is no directory: a file, by the entry it names in its
 * folder when that folder is there, else by its text.
 */
static void add_operand_file(struct walk *w, const char *arg)
{
	char *path = xstrdup(arg);
	if (strcmp(arg, "-") == 0) {
		add(w, path);
		return;
	}
	size_t len = strlen(path);
	while (len > 1 && path[len - 1] == '/')
		len--;
	const char *slash = NULL;
	for (size_t i = 0; i < len; i++)
		if (path[i] == '/')
			slash = path + i;
	const char *name = slash ? slash + 1 : path;
	char *folder = slash == NULL ? xstrdup(".") : slash == path ? xstrdup("/") :
		xstrndup(path, (size_t)(slash - path));
	struct stat fsb;
	bool have = stat(folder, &fsb) == 0;
	free(folder);
	bool added;
	if (have)
		place_meet(w, fsb.st_dev, fsb.st_ino, name, len - (size_t)(name - path), &added);
	else
		place_meet(w, 0, 0, path, len, &added);
	if (added)
		add(w, path);
	else
		free(path);
}

void file_list_collect(const struct options *o, struct file_list *l)
{
	struct walk w = {.l = l};
	for (size_t i = 0; i < o->nfiles; i++) {
		struct stat sb;
		size_t before = l->n;
		/* what cannot be looked at is the file's own error, when its turn comes */
		if (strcmp(o->files[i], "-") != 0 && stat(o->files[i], &sb) == 0 &&
		    S_ISDIR(sb.st_mode)) {
			bool again = place_find(&w, sb.st_dev, sb.st_ino, NULL, 0) != NULL;
			add_dir(&w, o->files[i], &sb);
			if (l->n == before && !again)
				warnx_("no *.yaml files under %s", o->files[i]);
		} else {
			add_operand_file(&w, o->files[i]);
		}
	}
	free(w.t);
	if (o->shard_n == 0)
		return;
	/* entry i (from 0) is shard i mod N + 1: the same list gives the same shares */
	size_t kept = 0;
	for (size_t i = 0; i < l->n; i++) {
		if (i % o->shard_n == o->shard_k - 1) {
			l->v[kept++] = l->v[i];
		} else {
			free(l->v[i].path);
			free(l->v[i].why);
		}
	}
	l->n = kept;
}

void file_list_free(struct file_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].path);
		free(l->v[i].why);
	}
	free(l->v);
	l->v = NULL;
	l->n = l->cap = 0;
}
