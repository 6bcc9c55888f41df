/*
 * Finding the toolkit's libraries without loading them (see
 * toolkit_lib.h).
 *
 * A library's search is one or more steps; a step tries each of its names
 * in turn (the outer loop: NVRTC's newest major first, wherever it is) in
 * each of its places in turn.  A place is a folder, "$VAR/sub" (skipped
 * when VAR is unset or empty), or LOADER: the loader's folders, in the
 * loader's order.  A file is found when realpath() resolves it.
 */
#include "config.h"

#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "toolkit_lib.h"
#include "xmalloc.h"

#define LOADER NULL                     /* a place: the loader's folders */
#define COUNT(a) (sizeof (a) / sizeof *(a))

struct step {
	const char *const *names;
	size_t nnames;
	const char *const *places;
	size_t nplaces;
};

/* NVRTC: where the loader would find it, then beside the toolkit. */
static const char *const nvrtc_names[] = {
	"libnvrtc.so.15", "libnvrtc.so.14", "libnvrtc.so.13", "libnvrtc.so.12",
};
static const char *const nvrtc_places[] = {
	LOADER, "$CUDA_HOME/lib64", "$CUDA_PATH/lib64", "/usr/local/cuda/lib64",
};
static const struct step nvrtc_steps[] = {
	{nvrtc_names, COUNT(nvrtc_names), nvrtc_places, COUNT(nvrtc_places)},
};

/* CUPTI 13: $CUDA_HOME's first, then the loader, then the usual toolkit; any CUPTI last. */
static const char *const cupti13_names[] = {"libcupti.so.13"};
static const char *const cupti13_places[] = {
	"$CUDA_HOME/lib64",
	"$CUDA_HOME/extras/CUPTI/lib64",
	LOADER,
	"/usr/local/cuda/lib64",
	"/usr/local/cuda/extras/CUPTI/lib64",
	"/usr/local/cuda/targets/x86_64-linux/lib",
};
static const char *const cupti_any_names[] = {"libcupti.so"};
static const char *const loader_only[] = {LOADER};
static const struct step cupti_steps[] = {
	{cupti13_names, COUNT(cupti13_names), cupti13_places, COUNT(cupti13_places)},
	{cupti_any_names, COUNT(cupti_any_names), loader_only, COUNT(loader_only)},
};

/* cuBLAS and cuFFT: as NVRTC, the major the GPU layer was built for (config.h) */
static const char *const cublas_names[] = {CUBLAS_LIB_NAME};
static const char *const cufft_names[] = {CUFFT_LIB_NAME};
static const struct step cublas_steps[] = {
	{cublas_names, COUNT(cublas_names), nvrtc_places, COUNT(nvrtc_places)},
};
static const struct step cufft_steps[] = {
	{cufft_names, COUNT(cufft_names), nvrtc_places, COUNT(nvrtc_places)},
};

static const struct {
	const char *name;
	const struct step *steps;
	size_t nsteps;
} libs[TOOLKIT_COUNT] = {
	[TOOLKIT_NVRTC] = {"nvrtc", nvrtc_steps, COUNT(nvrtc_steps)},
	[TOOLKIT_CUPTI] = {"cupti", cupti_steps, COUNT(cupti_steps)},
	[TOOLKIT_CUBLAS] = {"cublas", cublas_steps, COUNT(cublas_steps)},
	[TOOLKIT_CUFFT] = {"cufft", cufft_steps, COUNT(cufft_steps)},
};

bool toolkit_lib_named(const char *name, enum toolkit_lib *lib)
{
	for (int i = 0; i < TOOLKIT_COUNT; i++)
		if (strcmp(name, libs[i].name) == 0) {
			*lib = (enum toolkit_lib)i;
			return true;
		}
	return false;
}

const char *toolkit_lib_name(enum toolkit_lib lib)
{
	return libs[lib].name;
}

const char *toolkit_lib_file(enum toolkit_lib lib)
{
	return libs[lib].steps[0].names[0];
}

/* The folders of an ld.so.conf file, with its include lines followed. */
static void conf_dirs(const char *file, struct strlist *dirs, int depth)
{
	FILE *f = depth < 4 ? fopen(file, "r") : NULL;
	if (f == NULL)
		return;
	char line[1024];
	while (fgets(line, sizeof line, f)) {
		char *p = line + strspn(line, " \t");
		p[strcspn(p, "#\r\n")] = '\0';
		size_t n = strlen(p);
		while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\t'))
			p[--n] = '\0';
		if (strncmp(p, "include", 7) == 0 && (p[7] == ' ' || p[7] == '\t')) {
			glob_t g;
			char *pat = p + 8 + strspn(p + 8, " \t");
			if (glob(pat, 0, NULL, &g) == 0) {
				for (size_t i = 0; i < g.gl_pathc; i++)
					conf_dirs(g.gl_pathv[i], dirs, depth + 1);
				globfree(&g);
			}
		} else if (p[0] == '/') {
			strlist_add(dirs, p);
		}
	}
	fclose(f);
}

void toolkit_lib_conf_dirs(const char *file, struct strlist *dirs)
{
	conf_dirs(file, dirs, 0);
}

/* The loader's folders: LD_LIBRARY_PATH, /etc/ld.so.conf, the system's. */
static void loader_dirs(struct strlist *dirs)
{
	const char *ld = getenv("LD_LIBRARY_PATH");
	if (ld) {
		char *copy = xstrdup(ld), *save = NULL;
		for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save))
			strlist_add(dirs, d);
		free(copy);
	}
	conf_dirs("/etc/ld.so.conf", dirs, 0);
	static const char *const sys[] = {
		"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib/aarch64-linux-gnu",
		"/usr/lib/aarch64-linux-gnu", "/lib64", "/usr/lib64", "/lib", "/usr/lib",
	};
	for (size_t i = 0; i < COUNT(sys); i++)
		strlist_add(dirs, sys[i]);
}

void toolkit_lib_loader_dirs(struct strlist *dirs)
{
	loader_dirs(dirs);
}

/* A place as folders: "$VAR/sub" expanded (none when VAR is unset or empty). */
static void place_dirs(const char *place, struct strlist *dirs)
{
	if (place == LOADER) {
		loader_dirs(dirs);
		return;
	}
	if (place[0] != '$') {
		strlist_add(dirs, place);
		return;
	}
	size_t len = strcspn(place + 1, "/");
	const char *sub = place + 1 + len;
	char *var = xstrndup(place + 1, len);
	const char *root = getenv(var);
	free(var);
	if (root == NULL || !*root)
		return;
	size_t n = strlen(root) + strlen(sub) + 1;
	char *d = xmalloc(n);
	snprintf(d, n, "%s%s", root, sub);
	strlist_add(dirs, d);
	free(d);
}

char *toolkit_lib_find(enum toolkit_lib lib, toolkit_lib_take take, void *arg)
{
	char *found = NULL;
	for (size_t s = 0; s < libs[lib].nsteps && !found; s++) {
		const struct step *st = &libs[lib].steps[s];
		struct strlist dirs = {0};
		for (size_t i = 0; i < st->nplaces; i++)
			place_dirs(st->places[i], &dirs);
		for (size_t k = 0; k < st->nnames && !found; k++)
			for (size_t i = 0; i < dirs.n && !found; i++) {
				size_t n = strlen(dirs.v[i]) + strlen(st->names[k]) + 2;
				char *p = xmalloc(n);
				snprintf(p, n, "%s/%s", dirs.v[i], st->names[k]);
				found = realpath(p, NULL);
				free(p);
				if (found && take && !take(found, arg)) {
					free(found);
					found = NULL;
				}
			}
		strlist_free(&dirs);
	}
	return found;
}
