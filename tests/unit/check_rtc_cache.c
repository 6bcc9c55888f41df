/*
 * Unit tests for the compile cache (src/rtc_cache.c) and the CUDA-free parts
 * of source modules (src/rtc_source.c): SHA-256, the atomic entries and their
 * integrity check, the cache folder, what the key covers (includes,
 * headers appearing, includes by macro), options and the kernel list.
 * No CUDA and no NVRTC: these run everywhere.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rtc_cache.h"
#include "fileio.h"
#include "model.h"
#include "rtc_source.h"
#include "unit.h"
#include "xmalloc.h"

static void sha_hex(const void *data, size_t len, char hex[HASH_HEX_LEN + 1])
{
	struct sha256 h;
	sha256_init(&h);
	sha256_update(&h, data, len);
	sha256_final(&h, hex);
}

START_TEST(test_sha256_vectors)
{
	char hex[HASH_HEX_LEN + 1];
	sha_hex("", 0, hex);
	ck_assert_str_eq(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	sha_hex("abc", 3, hex);
	ck_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	sha_hex(two, strlen(two), hex);
	ck_assert_str_eq(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
	/* a million 'a', fed in uneven pieces */
	struct sha256 h;
	char a[997];
	memset(a, 'a', sizeof a);
	sha256_init(&h);
	size_t left = 1000000;
	for (size_t piece = 1; left > 0; piece = (piece * 7 + 3) % sizeof a + 1) {
		size_t n = piece < left ? piece : left;
		sha256_update(&h, a, n);
		left -= n;
	}
	sha256_final(&h, hex);
	ck_assert_str_eq(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}
END_TEST

START_TEST(test_hash_str_separates)
{
	struct sha256 h;
	char x[HASH_HEX_LEN + 1], y[HASH_HEX_LEN + 1];
	sha256_init(&h);
	sha256_str(&h, "ab");
	sha256_str(&h, "c");
	sha256_final(&h, x);
	sha256_init(&h);
	sha256_str(&h, "a");
	sha256_str(&h, "bc");
	sha256_final(&h, y);
	ck_assert_str_ne(x, y);
}
END_TEST

static char *temp_dir(void)
{
	char *d = xstrdup("/tmp/check-cache.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(d));
	return d;
}

static void remove_tree(const char *dir)
{
	char cmd[512];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

static void write_file(const char *dir, const char *name, const char *text)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

static size_t count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	size_t n = 0;
	struct dirent *e;
	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)) != NULL)
		n += e->d_name[0] != '.' || strncmp(e->d_name, ".tmp", 4) == 0;
	closedir(d);
	return n;
}

static const char key1[] = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

START_TEST(test_put_get)
{
	char *top = temp_dir();
	char dir[512];
	snprintf(dir, sizeof dir, "%s/a/b/cugraphrun", top);
	void *data;
	size_t len;
	char err[256];
	ck_assert_int_eq(cache_get(dir, key1, &data, &len), CACHE_MISS);
	/* binary payload with NULs and newlines */
	const char payload[] = "cubin\n\0\x7f" "ELF\n\n\0tail";
	ck_assert(cache_put(dir, key1, payload, sizeof payload, err, sizeof err));
	ck_assert_int_eq(cache_get(dir, key1, &data, &len), CACHE_HIT);
	ck_assert_uint_eq(len, sizeof payload);
	ck_assert(memcmp(data, payload, len) == 0);
	free(data);
	/* a second write of the key replaces the entry; no temporary file stays */
	ck_assert(cache_put(dir, key1, "new", 3, err, sizeof err));
	ck_assert_int_eq(cache_get(dir, key1, &data, &len), CACHE_HIT);
	ck_assert_uint_eq(len, 3);
	ck_assert(memcmp(data, "new", 3) == 0);
	free(data);
	ck_assert_uint_eq(count_entries(dir), 1);
	/* an empty payload is an entry too */
	const char key2[] = "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210";
	ck_assert(cache_put(dir, key2, "", 0, err, sizeof err));
	ck_assert_int_eq(cache_get(dir, key2, &data, &len), CACHE_HIT);
	ck_assert_uint_eq(len, 0);
	free(data);
	/* a payload starting with white space keeps it (the header parse must not eat it) */
	static const char *const spaced[] = {"\nPTX", " PTX", "\t\n x", "\n"};
	for (size_t i = 0; i < sizeof spaced / sizeof spaced[0]; i++) {
		size_t n = strlen(spaced[i]);
		ck_assert(cache_put(dir, key2, spaced[i], n, err, sizeof err));
		ck_assert_int_eq(cache_get(dir, key2, &data, &len), CACHE_HIT);
		ck_assert_uint_eq(len, n);
		ck_assert(memcmp(data, spaced[i], n) == 0);
		free(data);
	}
	/* a key that is not 64 hex digits names no file */
	ck_assert(!cache_put(dir, "../x", "a", 1, err, sizeof err));
	ck_assert_int_eq(cache_get(dir, "../x", &data, &len), CACHE_MISS);
	remove_tree(top);
	free(top);
}
END_TEST

/*
 * Writers racing on one key while a reader reads: the reader sees a whole
 * entry or none, never a torn one, and no temporary file is left.
 */
START_TEST(test_concurrent_writers)
{
	char *dir = temp_dir();
	char big[20000];
	for (size_t i = 0; i < sizeof big; i++)
		big[i] = (char)(i * 31 + 7);
	pid_t kids[4];
	for (int k = 0; k < 4; k++) {
		kids[k] = fork();
		ck_assert_int_ge(kids[k], 0);
		if (kids[k] == 0) {
			char err[256];
			for (int i = 0; i < 40; i++)
				if (!cache_put(dir, key1, big, sizeof big, err, sizeof err))
					_exit(1);
			_exit(0);
		}
	}
	unsigned hits = 0;
	for (int i = 0; i < 400; i++) {
		void *data;
		size_t len;
		enum cache_status st = cache_get(dir, key1, &data, &len);
		ck_assert_int_ne(st, CACHE_CORRUPT);
		if (st == CACHE_HIT) {
			ck_assert_uint_eq(len, sizeof big);
			ck_assert(memcmp(data, big, len) == 0);
			free(data);
			hits++;
		}
	}
	for (int k = 0; k < 4; k++) {
		int status;
		ck_assert_int_eq(waitpid(kids[k], &status, 0), kids[k]);
		ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	}
	ck_assert_uint_eq(count_entries(dir), 1);
	remove_tree(dir);
	free(dir);
}
END_TEST

/* Rewrite the entry with f applied to its bytes. */
static void damage(const char *dir, const char *key, void (*f)(char *buf, size_t *len))
{
	char *path = cache_entry_path(dir, key);
	FILE *in = fopen(path, "rb");
	ck_assert_ptr_nonnull(in);
	char buf[4096];
	size_t len = fread(buf, 1, sizeof buf, in);
	fclose(in);
	f(buf, &len);
	FILE *out = fopen(path, "wb");
	ck_assert_ptr_nonnull(out);
	fwrite(buf, 1, len, out);
	fclose(out);
	free(path);
}

static void truncate_last(char *buf, size_t *len)
{
	(void)buf;
	*len -= 1;
}

static void truncate_header(char *buf, size_t *len)
{
	(void)buf;
	*len = 30;
}

static void flip_payload(char *buf, size_t *len)
{
	buf[*len - 2] ^= 1;
}

static void append_byte(char *buf, size_t *len)
{
	buf[(*len)++] = 'x';
}

static void wrong_length(char *buf, size_t *len)
{
	/* the length line follows the magic and the key */
	char *p = strchr(strchr(buf, '\n') + 1, '\n') + 1;
	*p = *p == '9' ? '1' : (char)(*p + 1);
	(void)len;
}

static void empty(char *buf, size_t *len)
{
	(void)buf;
	*len = 0;
}

START_TEST(test_corrupt_entries)
{
	void (*const damages[])(char *, size_t *) = {
		truncate_last, truncate_header, flip_payload, append_byte, wrong_length, empty,
	};
	char *dir = temp_dir();
	char err[256];
	const char payload[] = "a cubin, say, of some length";
	for (size_t i = 0; i < sizeof damages / sizeof *damages; i++) {
		void *data = NULL;
		size_t len;
		ck_assert(cache_put(dir, key1, payload, sizeof payload, err, sizeof err));
		damage(dir, key1, damages[i]);
		ck_assert_msg(cache_get(dir, key1, &data, &len) == CACHE_CORRUPT, "damage %zu", i);
		/* written again, it reads back whole */
		ck_assert(cache_put(dir, key1, payload, sizeof payload, err, sizeof err));
		ck_assert_int_eq(cache_get(dir, key1, &data, &len), CACHE_HIT);
		free(data);
	}
	/* an entry stored under another key is not this key's */
	char *a = cache_entry_path(dir, key1);
	char *b = cache_entry_path(dir, "1111111111111111111111111111111111111111111111111111111111111111");
	ck_assert_int_eq(rename(a, b), 0);
	void *data;
	size_t len;
	ck_assert_int_eq(cache_get(dir, "1111111111111111111111111111111111111111111111111111111111111111",
				   &data, &len), CACHE_CORRUPT);
	free(a);
	free(b);
	remove_tree(dir);
	free(dir);
}
END_TEST

START_TEST(test_put_unwritable)
{
	char *dir = temp_dir();
	char sub[512], err[256];
	snprintf(sub, sizeof sub, "%s/file", dir);
	write_file(dir, "file", "not a folder");
	ck_assert(!cache_put(sub, key1, "x", 1, err, sizeof err));
	ck_assert(strstr(err, "cannot") != NULL);
	remove_tree(dir);
	free(dir);
}
END_TEST

START_TEST(test_cache_dir)
{
	char *old_xdg = getenv("XDG_CACHE_HOME") ? xstrdup(getenv("XDG_CACHE_HOME")) : NULL;
	char *old_home = getenv("HOME") ? xstrdup(getenv("HOME")) : NULL;
	setenv("XDG_CACHE_HOME", "/x/cache", 1);
	char *d = cache_dir();
	ck_assert_str_eq(d, "/x/cache/cugraphrun");
	free(d);
	/* relative: ignored, as the XDG spec says */
	setenv("XDG_CACHE_HOME", "rel", 1);
	setenv("HOME", "/home/u", 1);
	d = cache_dir();
	ck_assert_str_eq(d, "/home/u/.cache/cugraphrun");
	free(d);
	unsetenv("XDG_CACHE_HOME");
	d = cache_dir();
	ck_assert_str_eq(d, "/home/u/.cache/cugraphrun");
	free(d);
	unsetenv("HOME");
	ck_assert_ptr_null(cache_dir());
	if (old_xdg)
		setenv("XDG_CACHE_HOME", old_xdg, 1);
	if (old_home)
		setenv("HOME", old_home, 1);
	free(old_xdg);
	free(old_home);
}
END_TEST

/* The dependency hash of dir/main.cu with include dirs. */
/* The hash of dir/main.cu's deps; *cut as source_hash_deps (NULL: must be false). */
static void deps_hex_tk(const char *dir, const struct strlist *dirs, const char *toolkit,
			bool *cutp, char hex[HASH_HEX_LEN + 1])
{
	char path[512];
	snprintf(path, sizeof path, "%s/main.cu", dir);
	struct sha256 h;
	sha256_init(&h);
	struct source_deps sd = {.dirs = dirs, .toolkit = toolkit, .cut = true};
	char *text = source_hash_deps(&h, path, &sd);
	if (cutp)
		*cutp = sd.cut;
	else
		ck_assert(!sd.cut);
	ck_assert_ptr_nonnull(text);
	free(text);
	sha256_final(&h, hex);
}

static void deps_hex(const char *dir, const struct strlist *dirs, char hex[HASH_HEX_LEN + 1])
{
	deps_hex_tk(dir, dirs, NULL, NULL, hex);
}

START_TEST(test_key_follows_includes)
{
	char *dir = temp_dir();
	char inc[512];
	snprintf(inc, sizeof inc, "%s/inc", dir);
	ck_assert_int_eq(mkdir(inc, 0755), 0);
	struct strlist dirs = {0};
	strlist_add(&dirs, inc);
	write_file(dir, "main.cu", "#include \"a.cuh\"\n  #  include <b.cuh>\n"
		   "#if __has_include(\"opt.cuh\")\n#endif\n__global__ void k() {}\n");
	write_file(dir, "a.cuh", "#include \"c.cuh\"\n");
	write_file(inc, "b.cuh", "// b\n");
	write_file(inc, "c.cuh", "// c, found from a.cuh through inc/\n");
	write_file(dir, "unrelated.txt", "x");
	char h0[HASH_HEX_LEN + 1], h[HASH_HEX_LEN + 1];
	deps_hex(dir, &dirs, h0);
	deps_hex(dir, &dirs, h);
	ck_assert_str_eq(h0, h);
	/* a file nothing includes changes nothing */
	write_file(dir, "unrelated.txt", "y");
	deps_hex(dir, &dirs, h);
	ck_assert_str_eq(h0, h);
	/* a header two levels down does */
	write_file(inc, "c.cuh", "// c changed\n");
	deps_hex(dir, &dirs, h);
	ck_assert_str_ne(h0, h);
	write_file(inc, "c.cuh", "// c, found from a.cuh through inc/\n");
	deps_hex(dir, &dirs, h);
	ck_assert_str_eq(h0, h);
	/* a header that appears earlier on the path (or a __has_include one) does */
	write_file(dir, "b.cuh", "// shadows inc/b.cuh\n");
	deps_hex(dir, &dirs, h);
	ck_assert_str_ne(h0, h);
	char p[600];
	snprintf(p, sizeof p, "%s/b.cuh", dir);
	unlink(p);
	deps_hex(dir, &dirs, h);
	ck_assert_str_eq(h0, h);
	write_file(inc, "opt.cuh", "");
	deps_hex(dir, &dirs, h);
	ck_assert_str_ne(h0, h);
	snprintf(p, sizeof p, "%s/opt.cuh", inc);
	unlink(p);
	/* another include folder is another key */
	struct strlist none = {0};
	deps_hex(dir, &none, h);
	ck_assert_str_ne(h0, h);
	/* an include by macro: every file under the folders counts */
	write_file(dir, "main.cu", "#define H \"a.cuh\"\n#include H\n");
	deps_hex(dir, &dirs, h0);
	write_file(dir, "unrelated.txt", "z");
	deps_hex(dir, &dirs, h);
	ck_assert_str_ne(h0, h);
	/* a missing source */
	struct sha256 hs;
	sha256_init(&hs);
	struct source_deps sd = {.dirs = &dirs};
	ck_assert_ptr_null(source_hash_deps(&hs, "/nonexistent/main.cu", &sd));
	strlist_free(&dirs);
	remove_tree(dir);
	free(dir);
}
END_TEST

/*
 * An include by macro walks the folders: not into symbolic links to
 * folders (a loop), past names that cannot be stat'ed, not under the
 * toolkit's folder, and not without bound.
 */
START_TEST(test_macro_include_walk)
{
	char *dir = temp_dir();
	char sub[512], tk[512], p[600];
	snprintf(sub, sizeof sub, "%s/sub", dir);
	snprintf(tk, sizeof tk, "%s/toolkit", dir);
	ck_assert_int_eq(mkdir(sub, 0755), 0);
	ck_assert_int_eq(mkdir(tk, 0755), 0);
	write_file(dir, "main.cu", "#define H <cuda_fp16.h>\n#include H\n");
	write_file(sub, "x.cuh", "x\n");
	write_file(tk, "cuda_fp16.h", "v1\n");
	/* a loop: sub/up -> .. ; and a link that leads nowhere */
	snprintf(p, sizeof p, "%s/up", sub);
	ck_assert_int_eq(symlink("..", p), 0);
	snprintf(p, sizeof p, "%s/dangling", sub);
	ck_assert_int_eq(symlink("/nonexistent/nowhere", p), 0);
	struct strlist dirs = {0};
	strlist_add(&dirs, tk);
	char h0[HASH_HEX_LEN + 1], h[HASH_HEX_LEN + 1];
	bool cut = true;
	deps_hex_tk(dir, &dirs, tk, &cut, h0);
	ck_assert(!cut);
	/* the toolkit's headers are left to the library's identity... */
	write_file(tk, "cuda_fp16.h", "v2\n");
	deps_hex_tk(dir, &dirs, tk, NULL, h);
	ck_assert_str_eq(h0, h);
	/* ...but another include folder's files count */
	deps_hex_tk(dir, &dirs, NULL, NULL, h0);
	write_file(tk, "cuda_fp16.h", "v3\n");
	deps_hex_tk(dir, &dirs, NULL, NULL, h);
	ck_assert_str_ne(h0, h);
	/* a file under the source's folder, reached without the link, counts */
	deps_hex_tk(dir, &dirs, tk, NULL, h0);
	write_file(sub, "x.cuh", "changed\n");
	deps_hex_tk(dir, &dirs, tk, NULL, h);
	ck_assert_str_ne(h0, h);
	/* too many files: the walk stops and says so */
	char many[512];
	snprintf(many, sizeof many, "%s/many", dir);
	ck_assert_int_eq(mkdir(many, 0755), 0);
	for (int i = 0; i < 2100; i++) {
		char name[32];
		snprintf(name, sizeof name, "f%04d", i);
		write_file(many, name, "");
	}
	deps_hex_tk(dir, &dirs, tk, &cut, h);
	ck_assert(cut);
	strlist_free(&dirs);
	remove_tree(dir);
	free(dir);
}
END_TEST

/* Files named by --pre-include and -include are followed like includes. */
START_TEST(test_pre_include)
{
	struct strlist o = {0}, pre = {0};
	const char *opts[] = {"--pre-include=a.h", "-include", "b.h", "--pre-include", "c.h",
			      "-include=d.h", "-I", "-include", "--use_fast_math"};
	for (size_t i = 0; i < sizeof opts / sizeof *opts; i++)
		strlist_add(&o, opts[i]);
	source_pre_includes(&o, &pre);
	const char *want[] = {"a.h", "b.h", "c.h", "d.h"};
	ck_assert_uint_eq(pre.n, 4);
	for (size_t i = 0; i < pre.n; i++)
		ck_assert_str_eq(pre.v[i], want[i]);
	strlist_free(&o);
	strlist_free(&pre);

	char *dir = temp_dir();
	char inc[512], path[600];
	snprintf(inc, sizeof inc, "%s/inc", dir);
	ck_assert_int_eq(mkdir(inc, 0755), 0);
	snprintf(path, sizeof path, "%s/main.cu", dir);
	write_file(dir, "main.cu", "__global__ void k() {}\n");
	write_file(inc, "pre.h", "#include \"deep.h\"\n");
	write_file(inc, "deep.h", "// v1\n");
	struct strlist dirs = {0};
	strlist_add(&dirs, inc);
	strlist_add(&pre, "pre.h");
	struct source_deps sd = {.dirs = &dirs, .pre = &pre};
	char h0[HASH_HEX_LEN + 1], h[HASH_HEX_LEN + 1];
	struct sha256 hs;
	sha256_init(&hs);
	free(source_hash_deps(&hs, path, &sd));
	sha256_final(&hs, h0);
	/* a header the pre-included file includes changes the key */
	write_file(inc, "deep.h", "// v2\n");
	sha256_init(&hs);
	free(source_hash_deps(&hs, path, &sd));
	sha256_final(&hs, h);
	ck_assert_str_ne(h0, h);
	strlist_free(&dirs);
	strlist_free(&pre);
	remove_tree(dir);
	free(dir);
}
END_TEST

/* The one whole-file reader: NULs kept, NUL after the end, errno on failure. */
START_TEST(test_read_whole_file)
{
	char *dir = temp_dir();
	char path[600];
	snprintf(path, sizeof path, "%s/blob", dir);
	FILE *f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	for (int i = 0; i < 40000; i++)
		fputc(i % 7 ? 'a' + i % 26 : '\0', f);
	ck_assert_int_eq(fclose(f), 0);
	size_t len = 1;
	char *text = read_whole_file(path, &len);
	ck_assert_ptr_nonnull(text);
	ck_assert_uint_eq(len, 40000);
	ck_assert_int_eq(text[0], '\0');
	ck_assert_int_eq(text[39999], 'a' + 39999 % 26);
	ck_assert_int_eq(text[40000], '\0');
	free(text);
	write_file(dir, "empty", "");
	snprintf(path, sizeof path, "%s/empty", dir);
	text = read_whole_file(path, NULL);
	ck_assert_ptr_nonnull(text);
	ck_assert_str_eq(text, "");
	free(text);
	snprintf(path, sizeof path, "%s/absent", dir);
	len = 5;
	errno = 0;
	ck_assert_ptr_null(read_whole_file(path, &len));
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_uint_eq(len, 0);
	remove_tree(dir);
	free(dir);
}
END_TEST

START_TEST(test_include_cycle)
{
	char *dir = temp_dir();
	struct strlist dirs = {0};
	write_file(dir, "main.cu", "#include \"a.cuh\"\n");
	write_file(dir, "a.cuh", "#pragma once\n#include \"b.cuh\"\n");
	write_file(dir, "b.cuh", "#pragma once\n#include \"a.cuh\"\n#include \"main.cu\"\n");
	char h[HASH_HEX_LEN + 1];
	deps_hex(dir, &dirs, h);
	ck_assert_uint_eq(strlen(h), HASH_HEX_LEN);
	remove_tree(dir);
	free(dir);
}
END_TEST

START_TEST(test_options)
{
	struct module m;
	memset(&m, 0, sizeof m);
	struct module_define defs[] = {{"N", "256", {1, 1}}, {"DEBUG", NULL, {1, 1}}};
	struct module_include incs[] = {{"inc", "/y/inc", {1, 1}}};
	struct module_option opts[] = {{"--use_fast_math", {1, 1}}, {"-I", {1, 1}}, {"rel", {1, 1}}};
	m.defines = defs;
	m.ndefines = 2;
	m.includes = incs;
	m.nincludes = 1;
	m.options = opts;
	m.noptions = 3;
	m.std = "c++17";
	struct strlist o = {0}, dirs = {0};
	source_options(&m, "/cuda/include", &o);
	const char *want[] = {"--std=c++17", "-DN=256", "-DDEBUG", "-I/y/inc", "--use_fast_math",
			      "-I", "rel", "-I/cuda/include"};
	ck_assert_uint_eq(o.n, sizeof want / sizeof *want);
	for (size_t i = 0; i < o.n; i++)
		ck_assert_str_eq(o.v[i], want[i]);
	strlist_add(&o, "--include-path=/z");
	source_include_dirs(&o, &dirs);
	const char *wdirs[] = {"/y/inc", "rel", "/cuda/include", "/z"};
	ck_assert_uint_eq(dirs.n, 4);
	for (size_t i = 0; i < dirs.n; i++)
		ck_assert_str_eq(dirs.v[i], wdirs[i]);
	strlist_free(&o);
	strlist_free(&dirs);
}
END_TEST

START_TEST(test_kernel_list)
{
	char *k = source_kernels(
		"// __global__ void commented(int *x)\n"
		"/* __global__ void also_not(); */\n"
		"extern \"C\" __global__ void saxpy(int n, float *x) {}\n"
		"template <typename T, int N>\n__global__ void scale(T *p) {}\n"
		"template __global__ void scale<float, 4>(float *);\n"
		"template\t__global__ void scale<int, 2>(int *);\n"
		"namespace ns { __global__ void __launch_bounds__(256, 2) step(int *x); }\n"
		"__global__ void __launch_bounds__(256, 2) step(int *x) {}\n"
		"const char *s = \"__global__ void in_string()\";\n"
		"char q = '\"'; __global__ void after_quote(void) {}\n"
		"__device__ int not_a_kernel(int x) { return x; }\n"
		"int my__global__x(int);\n");
	ck_assert_str_eq(k, "saxpy, scale<...>, step, after_quote");
	free(k);
	k = source_kernels("int x;\n");
	ck_assert_str_eq(k, "");
	free(k);
}
END_TEST

static Suite *cache_suite(void)
{
	Suite *s = suite_create("cache");
	TCase *tc = tcase_create("hash");
	tcase_add_test(tc, test_sha256_vectors);
	tcase_add_test(tc, test_hash_str_separates);
	suite_add_tcase(s, tc);

	tc = tcase_create("store");
	tcase_add_test(tc, test_put_get);
	tcase_add_test(tc, test_corrupt_entries);
	tcase_add_test(tc, test_put_unwritable);
	tcase_add_test(tc, test_concurrent_writers);
	tcase_add_test(tc, test_cache_dir);
	suite_add_tcase(s, tc);

	tc = tcase_create("source");
	tcase_add_test(tc, test_key_follows_includes);
	tcase_add_test(tc, test_include_cycle);
	tcase_add_test(tc, test_macro_include_walk);
	tcase_add_test(tc, test_pre_include);
	tcase_add_test(tc, test_read_whole_file);
	tcase_add_test(tc, test_options);
	tcase_add_test(tc, test_kernel_list);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_MAIN(cache_suite)
