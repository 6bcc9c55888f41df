/*
 * Unit tests of compiling source modules with NVRTC through the cache
 * (src/rtc_nvrtc.c), for sm_90, with no GPU: NVRTC runs on any machine with the
 * toolkit.  Exit 77 (skip) where libnvrtc cannot be loaded.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rtc_cache.h"
#include "cubin.h"
#include "diag.h"
#include "model.h"
#include "rtc_nvrtc.h"
#include "unit.h"
#include "unit_cap.h"
#include "xmalloc.h"

static char *top;               /* a temporary folder: sources and the cache */

static void write_src(const char *name, const char *text)
{
	char path[512];
	snprintf(path, sizeof path, "%s/%s", top, name);
	FILE *f = fopen(path, "wb");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	fclose(f);
}

static struct module source_module(const char *name, char *path)
{
	struct module m;
	memset(&m, 0, sizeof m);
	m.name = "k";
	m.file = (char *)name;
	m.path = path;
	m.source = true;
	m.pos = (struct pos){3, 3};
	m.file_pos = (struct pos){3, 6};
	return m;
}

static const char kernels[] =
	"extern \"C\" __global__ void saxpy(float *y, const float *x, float a, int n)\n"
	"{ int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] += a * x[i]; }\n"
	"template <typename T, int N> __global__ void scale(T *p, T f)\n"
	"{ for (int k = 0; k < N; k++) p[threadIdx.x * N + k] *= f; }\n"
	"namespace ns { __global__ void step(int *x) { x[0] += VALUE; } }\n";

/* The kernels' parameters, read from the image as gpu_build.c reads them. */
static void assert_params(const struct rtc_image *im)
{
	static const struct {
		const char *name;
		long n;
		size_t sizes[4];
	} want[] = {
		{"saxpy", 4, {8, 8, 4, 4}},
		{"scale<float, 4>", 2, {8, 4}},
		{"ns::step", 1, {8}},
	};
	for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
		size_t *sizes;
		long n = image_entry_params(im->data, im->size, rtc_lowered(im, want[i].name), 90,
					    &sizes);
		ck_assert_int_eq(n, want[i].n);
		ck_assert_ptr_nonnull(sizes);
		for (long j = 0; j < n; j++)
			ck_assert_uint_eq(sizes[j], want[i].sizes[j]);
		free(sizes);
	}
}

static int compile_k(struct module *m, const char *const *names, size_t n, bool cache,
		     struct rtc_image *im, struct cap *c)
{
	struct rtc_settings s = {.use_cache = cache};
	return rtc_compile(m, names, n, 9, 0, &s, im, &c->d);
}

START_TEST(test_compile_and_cache)
{
	char path[512];
	snprintf(path, sizeof path, "%s/k.cu", top);
	write_src("k.cu", kernels);
	struct module m = source_module("k.cu", path);
	struct module_define def = {"VALUE", "3", {4, 5}};
	m.defines = &def;
	m.ndefines = 1;
	const char *names[] = {"saxpy", "scale<float, 4>", "ns::step"};
	struct rtc_image im;
	struct cap c;
	cap_open(&c, "g.yaml");
	ck_assert_int_eq(compile_k(&m, names, 3, true, &im, &c), 0);
	ck_assert_str_eq(cap_text(&c), "");
	ck_assert(!im.cached);
	ck_assert(!im.ptx);
	ck_assert_uint_gt(im.size, 4);
	ck_assert(memcmp(im.data, "\x7f" "ELF", 4) == 0);
	ck_assert_str_eq(rtc_lowered(&im, "saxpy"), "saxpy");
	ck_assert_str_eq(rtc_lowered(&im, "scale<float, 4>"), "_Z5scaleIfLi4EEvPT_S0_");
	ck_assert_str_eq(rtc_lowered(&im, "ns::step"), "_ZN2ns4stepEPi");
	assert_params(&im);
	size_t size = im.size;
	rtc_image_free(&im);

	/* again: from the cache, the same image and names */
	ck_assert_int_eq(compile_k(&m, names, 3, true, &im, &c), 0);
	ck_assert(im.cached);
	ck_assert_uint_eq(im.size, size);
	ck_assert_str_eq(rtc_lowered(&im, "scale<float, 4>"), "_Z5scaleIfLi4EEvPT_S0_");
	assert_params(&im);
	rtc_image_free(&im);

	/* --no-cache compiles */
	ck_assert_int_eq(compile_k(&m, names, 3, false, &im, &c), 0);
	ck_assert(!im.cached);
	rtc_image_free(&im);

	/* another define, another key */
	def.value = "4";
	ck_assert_int_eq(compile_k(&m, names, 3, true, &im, &c), 0);
	ck_assert(!im.cached);
	rtc_image_free(&im);
	/* a new name expression, another key */
	const char *more[] = {"saxpy", "scale<double, 2>"};
	ck_assert_int_eq(compile_k(&m, more, 2, true, &im, &c), 0);
	ck_assert(!im.cached);
	ck_assert_ptr_nonnull(rtc_lowered(&im, "scale<double, 2>"));
	rtc_image_free(&im);

	/* a damaged entry: a warning, compiled again, then cached again */
	char *dir = cache_dir();
	char cmd[1200];
	snprintf(cmd, sizeof cmd, "for f in '%s'/*; do head -c 300 \"$f\" >\"$f.t\" && mv \"$f.t\" \"$f\"; done",
		 dir);
	ck_assert_int_eq(system(cmd), 0);
	ck_assert_int_eq(compile_k(&m, more, 2, true, &im, &c), 0);
	ck_assert(!im.cached);
	ck_assert_ptr_nonnull(strstr(cap_text(&c), "g.yaml:3:6: warning: module 'k': the cache entry "));
	ck_assert_ptr_nonnull(strstr(cap_text(&c), " is damaged; compiling again\n"));
	rtc_image_free(&im);
	ck_assert_int_eq(compile_k(&m, more, 2, true, &im, &c), 0);
	ck_assert(im.cached);
	rtc_image_free(&im);
	free(dir);
	cap_close(&c);
}
END_TEST

START_TEST(test_header_changes_key)
{
	char path[512], inc[512];
	snprintf(inc, sizeof inc, "%s/inc", top);
	mkdir(inc, 0755);
	write_src("inc/v.cuh", "#define V 1\n");
	write_src("h.cu", "#include \"v.cuh\"\nextern \"C\" __global__ void f(int *x) { x[0] = V; }\n");
	snprintf(path, sizeof path, "%s/h.cu", top);
	struct module m = source_module("h.cu", path);
	struct module_include in = {"inc", inc, {5, 5}};
	m.includes = &in;
	m.nincludes = 1;
	const char *names[] = {"f"};
	struct rtc_image im;
	struct cap c;
	cap_open(&c, "g.yaml");
	ck_assert_int_eq(compile_k(&m, names, 1, true, &im, &c), 0);
	rtc_image_free(&im);
	ck_assert_int_eq(compile_k(&m, names, 1, true, &im, &c), 0);
	ck_assert_msg(im.cached, "%s", cap_text(&c));
	rtc_image_free(&im);
	write_src("inc/v.cuh", "#define V 2\n");
	ck_assert_int_eq(compile_k(&m, names, 1, true, &im, &c), 0);
	ck_assert(!im.cached);
	rtc_image_free(&im);
	cap_close(&c);
}
END_TEST

/* The key does not depend on the working directory: a relative path hits too. */
START_TEST(test_key_cwd_independent)
{
	char path[512];
	snprintf(path, sizeof path, "%s/w.cu", top);
	write_src("w.cu", "#include \"v.cuh\"\nextern \"C\" __global__ void g(int *x) { x[0] = V; }\n");
	char inc[512];
	snprintf(inc, sizeof inc, "%s/inc", top);
	struct module m = source_module("w.cu", path);
	struct module_include in = {"inc", inc, {5, 5}};
	m.includes = &in;
	m.nincludes = 1;
	const char *names[] = {"g"};
	struct rtc_image im;
	struct cap c;
	cap_open(&c, "g.yaml");
	ck_assert_int_eq(compile_k(&m, names, 1, true, &im, &c), 0);
	rtc_image_free(&im);
	char cwd[4096];
	ck_assert_ptr_nonnull(getcwd(cwd, sizeof cwd));
	ck_assert_int_eq(chdir(top), 0);
	m.path = "./w.cu";
	in.path = "inc/../inc";
	ck_assert_int_eq(compile_k(&m, names, 1, true, &im, &c), 0);
	ck_assert_int_eq(chdir(cwd), 0);
	ck_assert_msg(im.cached, "%s", cap_text(&c));
	rtc_image_free(&im);
	cap_close(&c);
}
END_TEST

START_TEST(test_compile_error)
{
	char path[512];
	snprintf(path, sizeof path, "%s/bad.cu", top);
	write_src("bad.cu", "extern \"C\" __global__ void f(int *x)\n{\n\tx[0] = y;\n}\n");
	struct module m = source_module("bad.cu", path);
	const char *names[] = {"f"};
	struct rtc_image im;
	struct cap c;
	cap_open(&c, "g.yaml");
	ck_assert_int_eq(compile_k(&m, names, 1, true, &im, &c), 2);
	const char *t = cap_text(&c);
	static const char head[] = "g.yaml:3:6: error: module 'k' ('bad.cu') does not compile (NVRTC ";
	ck_assert_msg(strncmp(t, head, sizeof head - 1) == 0, "%s", t);
	ck_assert_ptr_nonnull(strstr(t, "-arch=sm_90):\n"));
	char want[600];
	snprintf(want, sizeof want, "\n%s(3): error: identifier \"y\" is undefined\n", path);
	ck_assert_msg(strstr(t, want) != NULL, "%s", t);
	rtc_image_free(&im);
	cap_close(&c);
}
END_TEST

START_TEST(test_unknown_names)
{
	char path[512];
	snprintf(path, sizeof path, "%s/n.cu", top);
	write_src("n.cu", kernels);
	struct module m = source_module("n.cu", path);
	struct module_define def = {"VALUE", "1", {4, 5}};
	m.defines = &def;
	m.ndefines = 1;
	const char *names[] = {"saxpy", "saxpyy", "nope<int>"};
	struct rtc_image im;
	struct cap c;
	cap_open(&c, "g.yaml");
	ck_assert_int_eq(compile_k(&m, names, 3, true, &im, &c), 2);
	/* nothing printed: the caller reports at each node */
	ck_assert_str_eq(cap_text(&c), "");
	ck_assert_uint_eq(im.bad.n, 2);
	ck_assert(strcmp(im.bad.v[0], "saxpyy") == 0 || strcmp(im.bad.v[1], "saxpyy") == 0);
	ck_assert(strcmp(im.bad.v[0], "nope<int>") == 0 || strcmp(im.bad.v[1], "nope<int>") == 0);
	ck_assert_str_eq(im.kernels, "saxpy, scale<...>, step");
	rtc_image_free(&im);
	cap_close(&c);
}
END_TEST

START_TEST(test_pack_roundtrip)
{
	struct rtc_image a, b;
	memset(&a, 0, sizeof a);
	a.data = xstrdup("PTX text");
	a.size = 8;
	a.ptx = true;
	strlist_add(&a.exprs, "f<int>");
	strlist_add(&a.lowered, "_Z1fIiEvv");
	size_t len;
	void *p = rtc_image_pack(&a, &len);
	ck_assert(rtc_image_unpack(p, len, &b));
	ck_assert(b.ptx);
	ck_assert_uint_eq(b.size, 8);
	ck_assert_str_eq(b.data, "PTX text");
	ck_assert_str_eq(rtc_lowered(&b, "f<int>"), "_Z1fIiEvv");
	rtc_image_free(&b);
	ck_assert(!rtc_image_unpack(p, 5, &b));
	free(p);
	rtc_image_free(&a);
}
END_TEST

static Suite *rtc_suite(void)
{
	Suite *s = suite_create("rtc");
	TCase *tc = tcase_create("nvrtc");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_compile_and_cache);
	tcase_add_test(tc, test_header_changes_key);
	tcase_add_test(tc, test_key_cwd_independent);
	tcase_add_test(tc, test_compile_error);
	tcase_add_test(tc, test_unknown_names);
	tcase_add_test(tc, test_pack_roundtrip);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	if (!rtc_available()) {
		puts("SKIP: NVRTC cannot be loaded");
		return 77;
	}
	char tmpl[] = "/tmp/check-rtc.XXXXXX";
	top = mkdtemp(tmpl);
	if (top == NULL)
		return 1;
	char cache[600];
	snprintf(cache, sizeof cache, "%s/xdg", top);
	setenv("XDG_CACHE_HOME", cache, 1);
	SRunner *sr = srunner_create(rtc_suite());
	/* one process: the cache state carries from one step to the next */
	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	char cmd[700];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", top);
	if (system(cmd) != 0)
		failed++;
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
