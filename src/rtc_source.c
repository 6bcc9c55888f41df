/*
 * CUDA C++ source modules without CUDA: options, the include scan of the
 * cache key, the kernels a source declares (see rtc_source.h).
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fileio.h"
#include "rtc_source.h"
#include "strmap.h"
#include "xmalloc.h"

/* "-D" NAME ["=" VALUE] and the like, into the list. */
static void add_joined(struct strlist *l, const char *a, const char *b, const char *c,
		       const char *d)
{
	size_t n = strlen(a) + strlen(b) + (c ? strlen(c) : 0) + (d ? strlen(d) : 0) + 1;
	char *s = xmalloc(n);
	snprintf(s, n, "%s%s%s%s", a, b, c ? c : "", d ? d : "");
	*VEC_PUSH(l->v, l->n, l->cap) = s;
}

void source_options(const struct module *m, const char *extra_include, struct strlist *out)
{
	if (m->std)
		add_joined(out, "--std=", m->std, NULL, NULL);
	for (size_t i = 0; i < m->ndefines; i++)
		add_joined(out, "-D", m->defines[i].name, m->defines[i].value ? "=" : NULL,
			   m->defines[i].value);
	/* absolute: the same folder gives the same option, and key, from any cwd */
	for (size_t i = 0; i < m->nincludes; i++) {
		char *real = realpath(m->includes[i].path, NULL);
		add_joined(out, "-I", real ? real : m->includes[i].path, NULL, NULL);
		free(real);
	}
	for (size_t i = 0; i < m->noptions; i++)
		strlist_add(out, m->options[i].text);
	if (extra_include)
		add_joined(out, "-I", extra_include, NULL, NULL);
}

void source_include_dirs(const struct strlist *opts, struct strlist *dirs)
{
	for (size_t i = 0; i < opts->n; i++) {
		const char *o = opts->v[i];
		if (strcmp(o, "-I") == 0 || strcmp(o, "--include-path") == 0) {
			if (i + 1 < opts->n)
				strlist_add(dirs, opts->v[++i]);
		} else if (strncmp(o, "-I", 2) == 0) {
			strlist_add(dirs, o + 2);
		} else if (strncmp(o, "--include-path=", 15) == 0) {
			strlist_add(dirs, o + 15);
		}
	}
}

void source_pre_includes(const struct strlist *opts, struct strlist *files)
{
	for (size_t i = 0; i < opts->n; i++) {
		const char *o = opts->v[i];
		if (strcmp(o, "-include") == 0 || strcmp(o, "--pre-include") == 0) {
			if (i + 1 < opts->n)
				strlist_add(files, opts->v[++i]);
		} else if (strcmp(o, "-I") == 0 || strcmp(o, "--include-path") == 0) {
			i++;            /* a folder, whatever its name */
		} else if (strncmp(o, "-include=", 9) == 0) {
			strlist_add(files, o + 9);
		} else if (strncmp(o, "--pre-include=", 14) == 0) {
			strlist_add(files, o + 14);
		}
	}
}

static bool is_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	if (slash == NULL)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	char *d = xmalloc((size_t)(slash - path) + 1);
	memcpy(d, path, (size_t)(slash - path));
	d[slash - path] = '\0';
	return d;
}

/* The state of one scan: files to read, and every path looked at. */
struct scan {
	struct sha256 *h;
	struct strlist seen;            /* owns the strings seen_index borrows */
	struct strmap *seen_index;
	struct strlist todo;
	const char *srcdir;
	const struct strlist *dirs;
	bool computed;                  /* an #include by macro was met */
};

/* Hash one candidate path, once; a file that exists is scanned in turn. */
static void consider(struct scan *sc, const char *path)
{
	if (strmap_get(sc->seen_index, path) >= 0)
		return;
	strlist_add(&sc->seen, path);
	strmap_put(sc->seen_index, sc->seen.v[sc->seen.n - 1], 1, NULL);
	if (is_file(path)) {
		strlist_add(&sc->todo, path);
	} else {
		sha256_str(sc->h, "absent");
		sha256_str(sc->h, path);
	}
}

static void candidate(struct scan *sc, const char *dir, const char *name, size_t len)
{
	size_t n = strlen(dir) + len + 2;
	char *p = xmalloc(n);
	snprintf(p, n, "%s/%.*s", dir, (int)len, name);
	consider(sc, p);
	free(p);
}

/* Every place the compiler could find an included name. */
static void resolve(struct scan *sc, const char *from, const char *name, size_t len,
		    bool quoted)
{
	if (len == 0)
		return;
	if (name[0] == '/') {
		char *p = xmalloc(len + 1);
		memcpy(p, name, len);
		p[len] = '\0';
		consider(sc, p);
		free(p);
		return;
	}
	if (quoted) {
		char *d = dir_of(from);
		candidate(sc, d, name, len);
		free(d);
	}
	candidate(sc, sc->srcdir, name, len);
	for (size_t i = 0; i < sc->dirs->n; i++)
		candidate(sc, sc->dirs->v[i], name, len);
}

/* The name after an include keyword at p: "name", <name>, or a macro. */
static void include_at(struct scan *sc, const char *from, const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	char close = *p == '"' ? '"' : *p == '<' ? '>' : '\0';
	if (close == '\0') {
		sc->computed = true;
		return;
	}
	const char *name = p + 1;
	const char *end = name;
	while (*end && *end != close && *end != '\n')
		end++;
	if (*end == close)
		resolve(sc, from, name, (size_t)(end - name), close == '"');
}

/* Find the includes of one file's text: directives and __has_include. */
static void scan_text(struct scan *sc, const char *from, const char *text)
{
	for (const char *line = text; *line; ) {
		const char *p = line;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '#') {
			p++;
			while (*p == ' ' || *p == '\t')
				p++;
			if (strncmp(p, "include_next", 12) == 0)
				include_at(sc, from, p + 12);
			else if (strncmp(p, "include", 7) == 0)
				include_at(sc, from, p + 7);
		}
		const char *nl = strchr(line, '\n');
		line = nl ? nl + 1 : line + strlen(line);
	}
	for (const char *p = text; (p = strstr(p, "__has_include")) != NULL; ) {
		p += 13;
		if (strncmp(p, "_next", 5) == 0)
			p += 5;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '(')
			include_at(sc, from, p + 1);
	}
}

/* How far an include by macro makes the walk go (a source in $HOME...). */
enum { TREE_MAX_DEPTH = 8, TREE_MAX_FILES = 2000 };

/* A walk of folders for an include by macro: files hashed so far, and if it was cut. */
struct tree_walk {
	const char *toolkit;            /* a folder never walked, or NULL */
	size_t files;
	bool cut;
};

/*
 * Every regular file under dir, sorted, hashed.  lstat: a name that
 * cannot be read is passed over, and a symbolic link to a folder is not
 * followed (links make loops); one to a file is hashed as the file.
 */
static void hash_tree(struct sha256 *h, const char *dir, int depth, struct tree_walk *tw)
{
	if (tw->toolkit && strcmp(dir, tw->toolkit) == 0)
		return;
	if (depth > TREE_MAX_DEPTH) {
		tw->cut = true;
		return;
	}
	DIR *d = opendir(dir);
	if (d == NULL)
		return;
	struct strlist names = {0};
	struct dirent *e;
	while ((e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			strlist_add(&names, e->d_name);
	closedir(d);
	strlist_sort(&names);
	for (size_t i = 0; i < names.n && !tw->cut; i++) {
		size_t n = strlen(dir) + strlen(names.v[i]) + 2;
		char *p = xmalloc(n);
		snprintf(p, n, "%s/%s", dir, names.v[i]);
		struct stat st;
		bool ok = lstat(p, &st) == 0;
		if (ok && S_ISLNK(st.st_mode))
			ok = stat(p, &st) == 0 && S_ISREG(st.st_mode);
		else if (ok && S_ISDIR(st.st_mode))
			hash_tree(h, p, depth + 1, tw);
		if (ok && S_ISREG(st.st_mode)) {
			if (tw->files++ == TREE_MAX_FILES) {
				tw->cut = true;
			} else {
				size_t len;
				char *text = read_whole_file(p, &len);
				sha256_str(h, "tree-file");
				sha256_str(h, p);
				if (text)
					sha256_update(h, text, len);
				free(text);
			}
		}
		free(p);
	}
	strlist_free(&names);
}

char *source_hash_deps(struct sha256 *h, const char *path, struct source_deps *sd)
{
	const struct strlist *dirs = sd->dirs;
	sd->cut = false;
	size_t len;
	char *text = read_whole_file(path, &len);
	if (text == NULL)
		return NULL;
	struct scan sc = {.h = h, .dirs = dirs};
	sc.seen_index = strmap_new(64);
	char *srcdir = dir_of(path);
	sc.srcdir = srcdir;
	strlist_add(&sc.seen, path);
	strmap_put(sc.seen_index, sc.seen.v[0], 1, NULL);
	sha256_str(h, "source");
	sha256_str(h, path);
	sha256_update(h, text, len);
	/* pre-included files are found like a quoted include of the source */
	for (size_t i = 0; sd->pre && i < sd->pre->n; i++)
		resolve(&sc, path, sd->pre->v[i], strlen(sd->pre->v[i]), true);
	scan_text(&sc, path, text);
	/* a worklist, not recursion: header chains may be long */
	for (size_t i = 0; i < sc.todo.n; i++) {
		char *t = read_whole_file(sc.todo.v[i], &len);
		sha256_str(h, "file");
		sha256_str(h, sc.todo.v[i]);
		if (t == NULL) {
			sha256_str(h, "unreadable");
			continue;
		}
		sha256_update(h, t, len);
		scan_text(&sc, sc.todo.v[i], t);
		free(t);
	}
	if (sc.computed) {
		sha256_str(h, "computed includes");
		struct tree_walk tw = {.toolkit = sd->toolkit};
		hash_tree(h, srcdir, 0, &tw);
		for (size_t i = 0; i < dirs->n && !tw.cut; i++)
			hash_tree(h, dirs->v[i], 0, &tw);
		if (tw.cut)
			sha256_str(h, "tree cut");
		sd->cut = tw.cut;
	}
	free(srcdir);
	strmap_free(sc.seen_index);
	strlist_free(&sc.seen);
	strlist_free(&sc.todo);
	return text;
}

static bool ident_char(char c)
{
	return c == '_' || isalnum((unsigned char)c);
}

/* The text with comments and string literals blanked, so tokens read clean. */
static char *strip_comments(const char *text)
{
	char *out = xstrdup(text);
	for (char *p = out; *p; ) {
		if (p[0] == '/' && p[1] == '/') {
			while (*p && *p != '\n')
				*p++ = ' ';
		} else if (p[0] == '/' && p[1] == '*') {
			*p++ = ' ';
			*p++ = ' ';
			while (*p && !(p[0] == '*' && p[1] == '/')) {
				if (*p != '\n')
					*p = ' ';
				p++;
			}
			if (*p) {
				*p++ = ' ';
				*p++ = ' ';
			}
		} else if (*p == '"') {
			p++;
			while (*p && *p != '"' && *p != '\n') {
				if (*p == '\\' && p[1])
					*p++ = ' ';
				*p++ = ' ';
			}
			if (*p == '"')
				p++;
		} else if (*p == '\'' && (p == out || !ident_char(p[-1]))) {
			/* a character literal ('"' must not open a string) */
			p++;
			while (*p && *p != '\'' && *p != '\n') {
				if (*p == '\\' && p[1])
					*p++ = ' ';
				*p++ = ' ';
			}
			if (*p == '\'')
				p++;
		} else {
			p++;
		}
	}
	return out;
}


/* Attributes written between __global__ and the name, with an argument list. */
static bool is_attribute(const char *id, size_t n)
{
	static const char *const attrs[] = {
		"__launch_bounds__", "__maxnreg__", "__cluster_dims__", "__attribute__",
		"__declspec", "__align__",
	};
	for (size_t i = 0; i < sizeof attrs / sizeof *attrs; i++)
		if (strlen(attrs[i]) == n && strncmp(attrs[i], id, n) == 0)
			return true;
	return false;
}

char *source_kernels(const char *text)
{
	char *t = strip_comments(text);
	struct strlist names = {0};
	for (char *p = t; (p = strstr(p, "__global__")) != NULL; ) {
		bool whole = (p == t || !ident_char(p[-1])) && !ident_char(p[10]);
		/* a template: "template <...>" just before (a '>' then spaces) */
		const char *b = p;
		while (b > t && isspace((unsigned char)b[-1]))
			b--;
		bool templ = b > t && b[-1] == '>';
		/*
		 * "template __global__ void f<int>(int *);": an explicit
		 * instantiation names an instance of a template listed already
		 */
		bool instance = b - t >= 8 && strncmp(b - 8, "template", 8) == 0 &&
				(b - t == 8 || !ident_char(b[-9]));
		p += 10;
		if (!whole || instance)
			continue;
		const char *id = NULL;
		size_t idn = 0;
		const char *q = p;
		while (*q && *q != ';' && *q != '{') {
			if (ident_char(*q)) {
				id = q;
				while (ident_char(*q))
					q++;
				idn = (size_t)(q - id);
				continue;
			}
			if (*q == '(') {
				if (id && is_attribute(id, idn)) {
					int depth = 0;
					do {
						depth += *q == '(';
						depth -= *q == ')';
						q++;
					} while (*q && depth > 0);
					id = NULL;
					continue;
				}
				break;
			}
			q++;
		}
		if (*q != '(' || id == NULL)
			continue;
		char name[256];
		snprintf(name, sizeof name, "%.*s%s", (int)(idn < 200 ? idn : 200), id,
			 templ ? "<...>" : "");
		bool dup = false;
		for (size_t i = 0; i < names.n && !dup; i++)
			dup = strcmp(names.v[i], name) == 0;
		if (!dup)
			strlist_add(&names, name);
	}
	free(t);
	size_t len = 1;
	for (size_t i = 0; i < names.n; i++)
		len += strlen(names.v[i]) + 2;
	char *out = xmalloc(len);
	out[0] = '\0';
	for (size_t i = 0; i < names.n; i++) {
		if (i)
			strcat(out, ", ");
		strcat(out, names.v[i]);
	}
	strlist_free(&names);
	return out;
}
