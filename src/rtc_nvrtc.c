/*
 * NVRTC at run time and the compile cache (see rtc_nvrtc.h).
 *
 * The cache key is a SHA-256 over: this key's format; the NVRTC library
 * file a compile would load (real path, size, modification time: that
 * file decides NVRTC's version and whether sm_XY gives a cubin or PTX);
 * the device's sm_XY; every option in order (the toolkit's include folder
 * among them); the name expressions, sorted (each list after its count);
 * and what source_hash_deps() hashes: the source and every file its
 * includes and pre-includes could reach.  Finding
 * the library file takes no dlopen, so a cache hit never loads NVRTC
 * (loading it costs tens of milliseconds).  An entry holds the image and
 * each name expression's symbol.
 */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* nvrtc.h tests macros it never defines (NVRTC_GET_TYPE_NAME) */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wundef"
#include <nvrtc.h>
#pragma GCC diagnostic pop

#include "rtc_cache.h"
#include "monotime.h"
#include "rtc_nvrtc.h"
#include "toolkit_lib.h"
#include "xmalloc.h"

#define RTC_TABLE(X)                    \
	X(Version)                      \
	X(GetErrorString)               \
	X(GetNumSupportedArchs)         \
	X(GetSupportedArchs)            \
	X(CreateProgram)                \
	X(DestroyProgram)               \
	X(CompileProgram)               \
	X(GetProgramLogSize)            \
	X(GetProgramLog)                \
	X(GetCUBINSize)                 \
	X(GetCUBIN)                     \
	X(GetPTXSize)                   \
	X(GetPTX)                       \
	X(AddNameExpression)            \
	X(GetLoweredName)

#define RTC_FIELD(name) __typeof__(nvrtc##name) *name;
static struct {
	RTC_TABLE(RTC_FIELD)
	int major, minor;
	char *lib;                      /* the library file (real path), for the key */
	char *ident;                    /* its identity: path, size, modification time */
	char *include;                  /* the toolkit's headers, or NULL */
} nv;
static bool nv_located, nv_tried, nv_ok;
static char nv_why[512];

/* "A/include" when A/include/cuda_runtime_api.h is there. */
static char *toolkit_include(const char *root)
{
	size_t n = strlen(root) + sizeof "/include/cuda_runtime_api.h";
	char *p = xmalloc(n);
	snprintf(p, n, "%s/include/cuda_runtime_api.h", root);
	struct stat st;
	if (stat(p, &st) == 0) {
		p[strlen(root) + sizeof "/include" - 1] = '\0';
		return p;
	}
	free(p);
	return NULL;
}

/*
 * The toolkit's include folder, for kernels that include its headers:
 * $CUDA_HOME or $CUDA_PATH, else the folder above the library's.
 */
static char *find_include(const char *lib)
{
	const char *envs[] = {"CUDA_HOME", "CUDA_PATH"};
	for (size_t i = 0; i < 2; i++) {
		const char *e = getenv(envs[i]);
		char *inc = e && *e ? toolkit_include(e) : NULL;
		if (inc)
			return inc;
	}
	if (lib == NULL)
		return NULL;
	char *root = xstrdup(lib);
	char *inc = NULL;
	char *slash = strrchr(root, '/');
	if (slash) {
		*slash = '\0';
		slash = strrchr(root, '/');
		if (slash) {
			*slash = '\0';
			inc = toolkit_include(root[0] ? root : "/");
		}
	}
	free(root);
	return inc;
}

/*
 * The library file a compile would load (toolkit_lib.h: where the loader
 * would find libnvrtc.so.N, newest N first, then beside the toolkit),
 * found without loading it.  Loading that very file later keeps the cache
 * key and the compiler in step; finding it costs no dlopen (tens of ms) on
 * a hit.
 */
static char *find_lib(void)
{
	const char *forced = getenv("CUGRAPHRUN_NVRTC");
	if (forced && *forced)
		return realpath(forced, NULL);
	return toolkit_lib_find(TOOLKIT_NVRTC, NULL, NULL);
}

/* Which library a compile would use, and its identity for the key. */
static void locate(void)
{
	if (nv_located)
		return;
	nv_located = true;
	nv.lib = find_lib();
	struct stat st;
	if (nv.lib && stat(nv.lib, &st) == 0)
		nv.ident = xasprintf("%s %lld %lld.%09ld", nv.lib, (long long)st.st_size,
				     (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
	nv.include = find_include(nv.lib);
}

static void *try_open(const char *name)
{
	void *lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
	if (lib == NULL && nv_why[0] == '\0')
		snprintf(nv_why, sizeof nv_why, "%s", dlerror());
	return lib;
}

/* The first libnvrtc that opens, newest major first. */
static void *open_lib(void)
{
	const char *forced = getenv("CUGRAPHRUN_NVRTC");
	if (forced && *forced)
		return try_open(forced);
	if (nv.lib)
		return try_open(nv.lib);
	void *lib;
	char name[32];
	for (int major = 15; major >= 12; major--) {
		snprintf(name, sizeof name, "libnvrtc.so.%d", major);
		if ((lib = try_open(name)) != NULL)
			return lib;
	}
	const char *roots[] = {getenv("CUDA_HOME"), getenv("CUDA_PATH"), "/usr/local/cuda"};
	for (size_t r = 0; r < sizeof roots / sizeof *roots; r++) {
		if (roots[r] == NULL || !*roots[r])
			continue;
		for (int major = 15; major >= 12; major--) {
			/* built to its length: a long CUDA_HOME must not open a cut path */
			char *path = xasprintf("%s/lib64/libnvrtc.so.%d", roots[r], major);
			lib = try_open(path);
			free(path);
			if (lib != NULL)
				return lib;
		}
	}
	return NULL;
}

static bool rtc_open(void)
{
	if (nv_tried)
		return nv_ok;
	nv_tried = true;
	locate();
	void *lib = open_lib();
	if (lib == NULL)
		return false;
#define RTC_SYM(name)                                                           \
	if ((*(void **)&nv.name = dlsym(lib, "nvrtc" #name)) == NULL) {         \
		snprintf(nv_why, sizeof nv_why, "the library has no nvrtc" #name); \
		return false;                                                   \
	}
	RTC_TABLE(RTC_SYM)
#undef RTC_SYM
	if (nv.Version(&nv.major, &nv.minor) != NVRTC_SUCCESS || nv.major * 1000 < RTC_MIN_CUDA) {
		snprintf(nv_why, sizeof nv_why, "NVRTC %d.%d is too old (12.0 or newer is needed)",
			 nv.major, nv.minor);
		return false;
	}
	nv_ok = true;
	return true;
}

bool rtc_available(void)
{
	return rtc_open();
}

int rtc_version(void)
{
	return rtc_open() ? nv.major * 1000 + nv.minor * 10 : 0;
}

const char *rtc_why(void)
{
	return nv_why[0] ? nv_why : "not found";
}

/* The target: sm_XY when NVRTC knows the device, else the newest older compute_XY. */
static bool pick_arch(int cc, char *arch, size_t len, bool *ptx)
{
	int n = 0;
	if (nv.GetNumSupportedArchs(&n) != NVRTC_SUCCESS || n <= 0) {
		snprintf(arch, len, "-arch=sm_%d", cc);
		*ptx = false;
		return true;
	}
	int *archs = xcalloc((size_t)n, sizeof *archs);
	nv.GetSupportedArchs(archs);
	int best = -1;
	for (int i = 0; i < n; i++)
		if (archs[i] <= cc && archs[i] > best)
			best = archs[i];
	free(archs);
	if (best < 0)
		return false;
	*ptx = best != cc;
	snprintf(arch, len, "-arch=%s_%d", *ptx ? "compute" : "sm", best);
	return true;
}

/* The options in one line, for messages: "-arch=sm_90 -DN=256". */
static char *join(const struct strlist *l)
{
	size_t n = 1;
	for (size_t i = 0; i < l->n; i++)
		n += strlen(l->v[i]) + 1;
	char *s = xmalloc(n);
	s[0] = '\0';
	for (size_t i = 0; i < l->n; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, l->v[i]);
	}
	return s;
}

/*
 * Errors only in the name-expression map NVRTC appends: the names it
 * could not find ("#pragma nv_mangled_name NAME" under each error).
 */
static bool only_name_errors(const char *log, struct strlist *bad)
{
	bool any = false, other = false, in_map = false;
	for (const char *line = log; *line; ) {
		const char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		if (len > 0 && line[0] != ' ' && strstr(line, ": error") &&
		    (size_t)(strstr(line, ": error") - line) < len) {
			in_map = strncmp(line, "__nv_name_map(", 14) == 0;
			if (in_map)
				any = true;
			else
				other = true;
		} else if (in_map) {
			const char *p = line;
			while (p < line + len && *p == ' ')
				p++;
			static const char pragma[] = "#pragma nv_mangled_name ";
			if (strncmp(p, pragma, sizeof pragma - 1) == 0) {
				p += sizeof pragma - 1;
				char *name = xmalloc(len + 1);
				size_t n = (size_t)(line + len - p);
				memcpy(name, p, n);
				name[n] = '\0';
				bool dup = false;
				for (size_t i = 0; i < bad->n && !dup; i++)
					dup = strcmp(bad->v[i], name) == 0;
				if (!dup)
					strlist_add(bad, name);
				free(name);
				in_map = false;
			}
		}
		line += len + (nl != NULL);
	}
	return any && !other && bad->n > 0;
}

/* The log with every real, absolute name of the source as the file wrote it. */
static void print_log(FILE *out, const char *log, const char *real, const char *path)
{
	size_t rl = strlen(real);
	for (const char *p = log; *p; ) {
		const char *hit = strstr(p, real);
		if (hit == NULL) {
			diag_write_block(out, p, strlen(p));
			break;
		}
		diag_write_block(out, p, (size_t)(hit - p));
		diag_write_block(out, path, strlen(path));
		p = hit + rl;
	}
	if (log[0] && log[strlen(log) - 1] != '\n')
		fputc('\n', out);
}

/*
 * Compile with NVRTC into out; 0, 2 or 3 as rtc_compile.  The program is
 * named by the source's real path, so that the image and the key do not
 * depend on the working directory; messages show the path as written.
 */
static int compile(const struct module *m, const char *real, const char *text,
		   const struct strlist *names, const struct strlist *opts, bool ptx,
		   struct rtc_image *out, struct diag *d)
{
	nvrtcProgram prog;
	nvrtcResult r = nv.CreateProgram(&prog, text, real, 0, NULL, NULL);
	if (r != NVRTC_SUCCESS) {
		diag_error(d, m->file_pos, "NVRTC cannot take module '%s' ('%s'): %s", m->name,
			   m->file, nv.GetErrorString(r));
		return 3;
	}
	for (size_t i = 0; i < names->n; i++)
		nv.AddNameExpression(prog, names->v[i]);
	double t = monotime();
	r = nv.CompileProgram(prog, (int)opts->n, (const char *const *)opts->v);
	out->seconds = monotime() - t;
	size_t loglen = 0;
	char *log = NULL;
	if (nv.GetProgramLogSize(prog, &loglen) == NVRTC_SUCCESS && loglen > 1) {
		log = xmalloc(loglen + 1);
		if (nv.GetProgramLog(prog, log) != NVRTC_SUCCESS)
			log[0] = '\0';
		log[loglen] = '\0';
	}
	int rc = 0;
	if (r == NVRTC_ERROR_COMPILATION && log && only_name_errors(log, &out->bad)) {
		out->kernels = source_kernels(text);
		rc = 2;
	} else if (r != NVRTC_SUCCESS) {
		char *o = join(opts);
		if (r == NVRTC_ERROR_COMPILATION)
			diag_error(d, m->file_pos, "module '%s' ('%s') does not compile (NVRTC "
				   "%d.%d, %s):", m->name, m->file, nv.major, nv.minor, o);
		else
			diag_error(d, m->file_pos, "cannot compile module '%s' ('%s') with NVRTC "
				   "%d.%d (%s): %s", m->name, m->file, nv.major, nv.minor, o,
				   nv.GetErrorString(r));
		free(o);
		if (log)
			print_log(d->out, log, real, m->path);
		rc = r == NVRTC_ERROR_COMPILATION || r == NVRTC_ERROR_INVALID_OPTION ? 2 : 3;
	}
	free(log);
	if (rc) {
		nv.DestroyProgram(&prog);
		return rc;
	}
	size_t size = 0;
	r = ptx ? nv.GetPTXSize(prog, &size) : nv.GetCUBINSize(prog, &size);
	if (r == NVRTC_SUCCESS && size > 0) {
		out->data = xmalloc(size + 1);
		r = ptx ? nv.GetPTX(prog, out->data) : nv.GetCUBIN(prog, out->data);
		((char *)out->data)[size] = '\0';
		out->size = size;
		out->ptx = ptx;
	}
	for (size_t i = 0; r == NVRTC_SUCCESS && i < names->n; i++) {
		const char *low = NULL;
		r = nv.GetLoweredName(prog, names->v[i], &low);
		if (r == NVRTC_SUCCESS) {
			strlist_add(&out->exprs, names->v[i]);
			strlist_add(&out->lowered, low);
		}
	}
	nv.DestroyProgram(&prog);
	if (r != NVRTC_SUCCESS || out->size == 0) {
		diag_error(d, m->file_pos, "NVRTC compiled module '%s' ('%s') but gave no %s: %s",
			   m->name, m->file, ptx ? "PTX" : "cubin", nv.GetErrorString(r));
		return 3;
	}
	return 0;
}

/* NVRTC cannot be had: the run needs it (exit 3). */
static int no_nvrtc(const struct module *m, struct diag *d)
{
	diag_error(d, m->file_pos, "module '%s' ('%s') is CUDA C++ to compile at run "
		   "time, but NVRTC cannot be loaded (%s); install the CUDA toolkit's "
		   "NVRTC (libnvrtc.so.12 or newer) or add its folder to LD_LIBRARY_PATH",
		   m->name, m->file, rtc_why());
	return 3;
}

int rtc_compile(const struct module *m, const char *const *names, size_t n, int major,
		int minor, const struct rtc_settings *s, struct rtc_image *out, struct diag *d)
{
	memset(out, 0, sizeof *out);
	/* the key needs only the library's identity: NVRTC is loaded on a miss */
	locate();
	struct strlist opts = {0}, dirs = {0}, pre = {0}, sorted = {0};
	source_options(m, nv.include, &opts);
	source_include_dirs(&opts, &dirs);
	source_pre_includes(&opts, &pre);
	for (size_t i = 0; i < n; i++)
		strlist_add(&sorted, names[i]);
	strlist_sort(&sorted);

	struct sha256 h;
	char key[HASH_HEX_LEN + 1];
	char buf[64];
	sha256_init(&h);
	sha256_str(&h, "cugraphrun nvrtc key 3");
	/* the library file decides the version and how sm_XY is compiled */
	sha256_str(&h, nv.ident ? nv.ident : "no library found");
	snprintf(buf, sizeof buf, "device sm_%d%d", major, minor);
	sha256_str(&h, buf);
	/* each list after its count: where one ends and the next begins is unambiguous */
	snprintf(buf, sizeof buf, "options %zu", opts.n);
	sha256_str(&h, buf);
	for (size_t i = 0; i < opts.n; i++)
		sha256_str(&h, opts.v[i]);
	snprintf(buf, sizeof buf, "names %zu", sorted.n);
	sha256_str(&h, buf);
	for (size_t i = 0; i < sorted.n; i++)
		sha256_str(&h, sorted.v[i]);
	int rc = 0;
	char *text = NULL, *dir = NULL;
	char *real = realpath(m->path, NULL);
	/* compile the very text that was hashed: a second read could see an edit */
	struct source_deps sd = {.dirs = &dirs, .pre = &pre, .toolkit = nv.include};
	if (real == NULL || (text = source_hash_deps(&h, real, &sd)) == NULL) {
		diag_error(d, m->file_pos, "cannot read module source '%s': %s", m->file,
			   strerror(errno));
		rc = 2;
		goto done;
	}
	sha256_final(&h, key);
	if (sd.cut)
		diag_note(d, m->file_pos, "module '%s' includes a file named by a macro, so the "
			  "compile cache key hashes every file under its folders; that walk "
			  "stopped at 8 folders deep or 2000 files, and a change beyond goes "
			  "unseen (after one, use --no-cache)", m->name);

	dir = s->use_cache && nv.ident ? cache_dir() : NULL;
	if (s->use_cache && nv.ident == NULL && s->verbose) {
		/* no library file to name in the key: a compile could not be told apart */
		const char *forced = getenv("CUGRAPHRUN_NVRTC");
		if (forced && *forced)
			fprintf(stderr, "cugraphrun: module '%s': note: not cached: "
				"CUGRAPHRUN_NVRTC='%s' names no file (give a path, not a "
				"library name)\n", diag_esc(m->name), diag_esc(forced));
		else
			fprintf(stderr, "cugraphrun: module '%s': note: not cached: no NVRTC "
				"library file found\n", diag_esc(m->name));
	}
	if (dir) {
		void *data;
		size_t len;
		enum cache_status cs = cache_get(dir, key, &data, &len);
		if (cs == CACHE_HIT && rtc_image_unpack(data, len, out)) {
			free(data);
			out->cached = true;
			if (s->verbose)
				fprintf(stderr, "cugraphrun: module '%s': compile cached (%s/%s)\n",
					diag_esc(m->name), diag_esc(dir), key);
			goto done;
		}
		if (cs == CACHE_HIT) {
			free(data);
			cs = CACHE_CORRUPT;
		}
		if (cs == CACHE_CORRUPT)
			diag_warning(d, m->file_pos, "module '%s': the cache entry %s/%s is "
				     "damaged; compiling again", m->name, dir, key);
	}
	if (!rtc_open()) {
		out->no_nvrtc = s->if_available;
		rc = s->if_available ? 3 : no_nvrtc(m, d);
		goto done;
	}
	char arch[32];
	bool ptx;
	if (!pick_arch(major * 10 + minor, arch, sizeof arch, &ptx)) {
		diag_error(d, m->file_pos, "NVRTC %d.%d cannot compile module '%s' for sm_%d%d: "
			   "it supports no architecture that old", nv.major, nv.minor, m->name,
			   major, minor);
		rc = 3;
		goto done;
	}
	strlist_add(&opts, arch);
	rc = compile(m, real, text, &sorted, &opts, ptx, out, d);
	if (rc == 0 && s->verbose) {
		char *o = join(&opts);
		fprintf(stderr, "cugraphrun: module '%s': compiled with NVRTC %d.%d in %.0f ms (%s)\n",
			diag_esc(m->name), nv.major, nv.minor, out->seconds * 1e3, diag_esc(o));
		free(o);
	}
	if (rc == 0 && dir) {
		size_t len;
		void *data = rtc_image_pack(out, &len);
		char err[600];
		if (!cache_put(dir, key, data, len, err, sizeof err))
			diag_warning(d, m->file_pos, "module '%s': not cached: %s", m->name, err);
		free(data);
	}
done:
	free(real);
	free(dir);
	free(text);
	strlist_free(&opts);
	strlist_free(&dirs);
	strlist_free(&pre);
	strlist_free(&sorted);
	return rc;
}
