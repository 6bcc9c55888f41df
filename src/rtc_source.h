/*
 * CUDA C++ source modules, the parts that need neither CUDA nor NVRTC:
 * the compiler options a module's keys make, the files a source may
 * include (for the cache key) and the kernels it defines (for messages).
 *
 * Ownership: every function returns malloc'd memory that the caller frees
 * (a struct strlist with strlist_free).
 */
#ifndef CGR_RTC_SOURCE_H
#define CGR_RTC_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

#include "model.h"
#include "rtc_cache.h"
#include "strlist.h"

/*
 * The NVRTC options of module m, in order: --std, -D for each define,
 * -I for each include directory (resolved against the YAML's folder, as
 * an absolute path),
 * the module's own options as written, then -I extra_include when not
 * NULL (the CUDA toolkit's headers).  The architecture is not among them.
 */
void source_options(const struct module *m, const char *extra_include, struct strlist *out);

/*
 * The include directories options name: each -I DIR, -IDIR and
 * --include-path=DIR of opts, in order.
 */
void source_include_dirs(const struct strlist *opts, struct strlist *dirs);

/*
 * The files options pre-include: each --pre-include=F, --pre-include F,
 * -include F and -include=F of opts, in order.
 */
void source_pre_includes(const struct strlist *opts, struct strlist *files);

/* What source_hash_deps() looks through, and what it found. */
struct source_deps {
	const struct strlist *dirs;     /* the include folders, in order */
	const struct strlist *pre;      /* files pre-included, or NULL */
	const char *toolkit;            /* a folder never walked (the CUDA headers), or NULL */
	bool cut;                       /* out: the walk for an include by macro stopped */
};

/*
 * Hash what the compilation of the file at path could read: the file,
 * then every file an #include (or __has_include) of it or a pre-included
 * file names, found the way the compiler looks (the including file's
 * folder for "...", the source's folder, then dirs), recursively.  Every candidate path is
 * hashed, as its contents or as absent, so a header that appears, changes
 * or goes away changes the hash.  Includes are found by text, whatever
 * #if around them (more is hashed, never less).  An include by macro
 * (#include NAME) cannot be followed: then every file under the source's
 * folder and dirs is hashed, except under toolkit (the CUDA headers: the
 * NVRTC library's identity, in the key, stands for them), symbolic links
 * to folders not followed, at most 8 folders deep and 2000 files in all;
 * cut says whether the walk stopped at those bounds, leaving files
 * unhashed.  Returns the text of path as hashed, which
 * the caller compiles and frees (reading it again could see another
 * text), or NULL with errno set when path cannot be read.
 */
char *source_hash_deps(struct sha256 *h, const char *path, struct source_deps *sd);

/*
 * The names of the __global__ functions the text declares, once each, in
 * order, a template's as "name<...>": "saxpy, scale<...>, step".  Found by
 * text (comments skipped), for messages; "" when there are none.
 */
char *source_kernels(const char *text);

#endif
