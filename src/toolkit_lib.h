/*
 * Where the CUDA toolkit's libraries that cugraphrun opens at run time
 * are looked for: NVRTC (rtc_nvrtc.c), CUPTI (prof_cupti.c), cuBLAS and
 * cuFFT (lib_api.c, for library nodes).  A library is
 * found as a file, without loading it, so that NVRTC's compile cache can
 * name the file a compile would load and a cache hit never loads NVRTC.
 * The loader's places are read as the loader reads them: LD_LIBRARY_PATH,
 * the folders of /etc/ld.so.conf (its include lines followed), the
 * system's folders; the toolkit's are folders below $CUDA_HOME,
 * $CUDA_PATH and /usr/local/cuda.  The places and their order are in
 * toolkit_lib.c, one table per library; cugraphrun(1), FILES, lists the
 * same.  The environment is read at each call.
 *
 * Ownership: toolkit_lib_find() returns malloc'd memory the caller frees.
 */
#ifndef CGR_TOOLKIT_LIB_H
#define CGR_TOOLKIT_LIB_H

#include <stdbool.h>

#include "strlist.h"

enum toolkit_lib {
	TOOLKIT_NVRTC,                  /* libnvrtc.so.N, N from 15 down to 12 */
	TOOLKIT_CUPTI,                  /* libcupti.so.13, then libcupti.so */
	/* the majors of the headers the GPU layer was built with (configure) */
	TOOLKIT_CUBLAS,                 /* libcublas.so.13 */
	TOOLKIT_CUFFT,                  /* libcufft.so.12 */
	TOOLKIT_COUNT
};

/*
 * A library by the name a file or a message gives it ("nvrtc", "cupti",
 * "cublas", "cufft"): true with *lib set.  The file it is first looked
 * for as, in toolkit_lib_file ("libcublas.so.13").  For what checks that
 * a library is there without loading it (toolkit_lib_find, take NULL).
 */
bool toolkit_lib_named(const char *name, enum toolkit_lib *lib);
const char *toolkit_lib_name(enum toolkit_lib lib);
const char *toolkit_lib_file(enum toolkit_lib lib);

/* Offered each file found in turn (its real path); true takes it and ends the search. */
typedef bool (*toolkit_lib_take)(const char *path, void *arg);

/*
 * The real path of the first file of lib found that take(path, arg)
 * accepts (take NULL: the first found), or NULL when none is.  Files that
 * do not exist are never offered; one reached twice is offered twice.
 */
char *toolkit_lib_find(enum toolkit_lib lib, toolkit_lib_take take, void *arg);

/* Append the folders named in ld.so.conf-style file `file`, its include lines followed. */
void toolkit_lib_conf_dirs(const char *file, struct strlist *dirs);

/*
 * Append the folders the dynamic loader searches for a name without a
 * '/', in its order: LD_LIBRARY_PATH, /etc/ld.so.conf's, the system's.
 */
void toolkit_lib_loader_dirs(struct strlist *dirs);

#endif
