/*
 * Opening cuBLAS and cuFFT (lib_api.h).
 */
#include "config.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib_api.h"
#include "model_lib.h"
#include "toolkit_lib.h"
#include "xmalloc.h"

/* The model's numbers are the headers' (model_lib.c keeps no CUDA headers). */
_Static_assert(CUBLAS_COMPUTE_32F_FAST_TF32 == 77 && CUBLAS_COMPUTE_16F == 64 &&
	       CUBLAS_COMPUTE_64F_PEDANTIC == 71 && CUBLAS_COMPUTE_32F_FAST_16BF == 75,
	       "cublasComputeType_t as model_lib.c numbers it");
_Static_assert(CUBLAS_TF32_TENSOR_OP_MATH == 3 && CUBLAS_PEDANTIC_MATH == 2,
	       "cublasMath_t as model_lib.c numbers it");
_Static_assert((int)CUBLAS_OP_N == (int)TRANS_N && (int)CUBLAS_OP_T == (int)TRANS_T &&
	       (int)CUBLAS_OP_C == (int)TRANS_C,
	       "cublasOperation_t in the model's order");
_Static_assert(CUFFT_C2C == 0x29 && CUFFT_R2C == 0x2a && CUFFT_C2R == 0x2c &&
	       CUFFT_Z2Z == 0x69 && CUFFT_D2Z == 0x6a && CUFFT_Z2D == 0x6c,
	       "cufftType as model_lib.c numbers it");

struct cublas_api cublas;
struct cufft_api cufft;

static const enum toolkit_lib which_lib[LIB_COUNT] = {
	[LIB_CUBLAS] = TOOLKIT_CUBLAS, [LIB_CUFFT] = TOOLKIT_CUFFT,
};
static const char *const forced_env[LIB_COUNT] = {
	[LIB_CUBLAS] = "CUGRAPHRUN_CUBLAS", [LIB_CUFFT] = "CUGRAPHRUN_CUFFT",
};

/* Each library's state: tried once, and why it failed. */
static struct {
	bool tried, ok;
	char why[512];
} state[LIB_COUNT];

const char *lib_file(enum lib_which w)
{
	return toolkit_lib_file(which_lib[w]);
}

/* A file being tried: the handle once one opens, else the first error. */
struct lib_try {
	void *h;
	char *why;
	size_t len;
};

static bool try_open(const char *path, void *arg)
{
	struct lib_try *t = arg;
	t->h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (t->h == NULL && t->why[0] == '\0')
		snprintf(t->why, t->len, "%s", dlerror());
	return t->h != NULL;
}

/*
 * The forced file, else the first found that opens, else the loader's own
 * search by name (its cache may know a folder ld.so.conf does not say);
 * *path the file opened.
 */
static void *find_open(enum lib_which w, char **path, char *why, size_t len)
{
	const char *forced = getenv(forced_env[w]);
	why[0] = '\0';
	if (forced && *forced) {
		void *h = dlopen(forced, RTLD_NOW | RTLD_LOCAL);
		if (h == NULL)
			snprintf(why, len, "%s", dlerror());
		*path = xstrdup(forced);
		return h;
	}
	struct lib_try t = {NULL, why, len};
	*path = toolkit_lib_find(which_lib[w], try_open, &t);
	if (t.h)
		return t.h;
	void *h = dlopen(lib_file(w), RTLD_NOW | RTLD_LOCAL);
	if (h) {
		*path = xstrdup(lib_file(w));
		return h;
	}
	if (why[0] == '\0')
		snprintf(why, len, "%s", dlerror());
	return NULL;
}

#define LIB_SYM(table, field, sym)                                              \
	if ((*(void **)&table.field = dlsym(h, #sym)) == NULL) {                \
		snprintf(why, len, "%s has no %s", path, #sym);                 \
		return false;                                                   \
	}

static bool fill_cublas(void *h, const char *path, char *why, size_t len)
{
#define X(field, sym) LIB_SYM(cublas, field, sym)
	CUBLAS_TABLE(X)
#undef X
	if (cublas.GetProperty(MAJOR_VERSION, &cublas.major) != CUBLAS_STATUS_SUCCESS ||
	    cublas.GetProperty(MINOR_VERSION, &cublas.minor) != CUBLAS_STATUS_SUCCESS ||
	    cublas.GetProperty(PATCH_LEVEL, &cublas.patch) != CUBLAS_STATUS_SUCCESS) {
		snprintf(why, len, "%s does not say its version", path);
		return false;
	}
	if (cublas.major != CUBLAS_VER_MAJOR) {
		snprintf(why, len, "%s is cuBLAS %d.%d, and this cugraphrun calls cuBLAS %d", path,
			 cublas.major, cublas.minor, CUBLAS_VER_MAJOR);
		return false;
	}
	return true;
}

static bool fill_cufft(void *h, const char *path, char *why, size_t len)
{
#define X(field, sym) LIB_SYM(cufft, field, sym)
	CUFFT_TABLE(X)
#undef X
	if (cufft.GetVersion(&cufft.version) != CUFFT_SUCCESS) {
		snprintf(why, len, "%s does not say its version", path);
		return false;
	}
	if (cufft.version / 1000 != CUFFT_VER_MAJOR) {
		snprintf(why, len, "%s is cuFFT %d.%d, and this cugraphrun calls cuFFT %d", path,
			 cufft.version / 1000, cufft.version % 1000 / 100, CUFFT_VER_MAJOR);
		return false;
	}
	return true;
}

bool lib_open(enum lib_which w, char *why, size_t len)
{
	if (state[w].tried) {
		snprintf(why, len, "%s", state[w].why);
		return state[w].ok;
	}
	state[w].tried = true;
	char *path = NULL;
	void *h = find_open(w, &path, state[w].why, sizeof state[w].why);
	bool ok = h != NULL;
	if (ok && w == LIB_CUBLAS)
		ok = fill_cublas(h, path, state[w].why, sizeof state[w].why);
	else if (ok)
		ok = fill_cufft(h, path, state[w].why, sizeof state[w].why);
	/* a library that opened but will not do stays loaded: unloading one is no saving */
	if (ok && w == LIB_CUBLAS)
		cublas.path = path;
	else if (ok)
		cufft.path = path;
	else
		free(path);
	state[w].ok = ok;
	snprintf(why, len, "%s", state[w].why);
	return ok;
}

const char *lib_blas_status(cublasStatus_t s)
{
	static char buf[256];
	const char *name = cublas.GetStatusName ? cublas.GetStatusName(s) : NULL;
	const char *text = cublas.GetStatusString ? cublas.GetStatusString(s) : NULL;
	if (name && text)
		snprintf(buf, sizeof buf, "%s (%s)", name, text);
	else
		snprintf(buf, sizeof buf, "cuBLAS status %d", (int)s);
	return buf;
}

/* cufftResult in words: cuFFT has no call for them. */
static const struct {
	cufftResult r;
	const char *name, *text;
} fft_results[] = {
	{CUFFT_SUCCESS, "CUFFT_SUCCESS", "success"},
	{CUFFT_INVALID_PLAN, "CUFFT_INVALID_PLAN", "the plan is not valid"},
	{CUFFT_ALLOC_FAILED, "CUFFT_ALLOC_FAILED", "cuFFT could not allocate GPU memory"},
	{CUFFT_INVALID_TYPE, "CUFFT_INVALID_TYPE", "the transform type is not valid"},
	{CUFFT_INVALID_VALUE, "CUFFT_INVALID_VALUE", "a value is not valid"},
	{CUFFT_INTERNAL_ERROR, "CUFFT_INTERNAL_ERROR", "a driver or internal error"},
	{CUFFT_EXEC_FAILED, "CUFFT_EXEC_FAILED", "the transform failed to execute"},
	{CUFFT_SETUP_FAILED, "CUFFT_SETUP_FAILED", "cuFFT failed to initialise"},
	{CUFFT_INVALID_SIZE, "CUFFT_INVALID_SIZE", "the transform size is not supported"},
	{CUFFT_UNALIGNED_DATA, "CUFFT_UNALIGNED_DATA", "the data is not aligned"},
	{CUFFT_INVALID_DEVICE, "CUFFT_INVALID_DEVICE", "the plan belongs to another GPU"},
	{CUFFT_NO_WORKSPACE, "CUFFT_NO_WORKSPACE", "no work area was given"},
	{CUFFT_NOT_IMPLEMENTED, "CUFFT_NOT_IMPLEMENTED", "not implemented"},
	{CUFFT_NOT_SUPPORTED, "CUFFT_NOT_SUPPORTED", "not supported"},
};

const char *lib_fft_status(cufftResult r)
{
	static char buf[160];
	for (size_t i = 0; i < sizeof fft_results / sizeof *fft_results; i++)
		if (fft_results[i].r == r) {
			snprintf(buf, sizeof buf, "%s (%s)", fft_results[i].name, fft_results[i].text);
			return buf;
		}
	snprintf(buf, sizeof buf, "cuFFT result %d", (int)r);
	return buf;
}

cudaDataType lib_data_type(enum elem_type t)
{
	switch (t) {
	case ET_F16:
		return CUDA_R_16F;
	case ET_BF16:
		return CUDA_R_16BF;
	case ET_F64:
		return CUDA_R_64F;
	default:
		return CUDA_R_32F;
	}
}
