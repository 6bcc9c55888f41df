/*
 * Unit tests for finding the toolkit's libraries (src/toolkit_lib.c) in a
 * fake tree: empty files named like the libraries, in temporary folders
 * that LD_LIBRARY_PATH, CUDA_HOME and CUDA_PATH name.  Whatever the
 * machine has of its own (/usr/local/cuda, ld.so.conf) is offered too,
 * so each test records every file offered and looks at the fake tree's,
 * in order.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rtc_source.h"
#include "toolkit_lib.h"
#include "unit.h"
#include "xmalloc.h"

static char top[] = "/tmp/check_toolkit_lib_XXXXXX";
static char *real_top;          /* top, resolved: the paths offered are real paths */

/* top/rel, its folders made. */
static char *path_of(const char *rel)
{
	size_t n = strlen(top) + strlen(rel) + 2;
	char *p = xmalloc(n);
	snprintf(p, n, "%s/%s", top, rel);
	for (char *s = p + strlen(top) + 1; (s = strchr(s, '/')) != NULL; s++) {
		*s = '\0';
		mkdir(p, 0755);
		*s = '/';
	}
	return p;
}

static void touch(const char *rel)
{
	char *p = path_of(rel);
	FILE *f = fopen(p, "w");
	ck_assert_ptr_nonnull(f);
	fclose(f);
	free(p);
}

static void setenv_top(const char *var, const char *rels)
{
	/* rels: ':'-separated, each below top */
	char buf[4096] = "";
	char *copy = xstrdup(rels), *save = NULL;
	for (char *r = strtok_r(copy, ":", &save); r; r = strtok_r(NULL, ":", &save)) {
		char *p = path_of(r);
		mkdir(p, 0755);
		snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", buf[0] ? ":" : "",
			 p);
		free(p);
	}
	free(copy);
	setenv(var, buf, 1);
}

/* Every file offered that lies in the fake tree, as "rel" lines; none taken. */
static bool record(const char *path, void *arg)
{
	struct strlist *seen = arg;
	size_t n = strlen(real_top);
	if (strncmp(path, real_top, n) == 0 && path[n] == '/')
		strlist_add(seen, path + n + 1);
	return false;
}

static void expect_offered(enum toolkit_lib lib, const char *const *want, size_t nwant)
{
	struct strlist seen = {0};
	ck_assert_ptr_null(toolkit_lib_find(lib, record, &seen));
	for (size_t i = 0; i < seen.n; i++)
		fprintf(stderr, "  offered %s\n", seen.v[i]);
	ck_assert_uint_eq(seen.n, nwant);
	for (size_t i = 0; i < nwant; i++)
		ck_assert_str_eq(seen.v[i], want[i]);
	strlist_free(&seen);
}

/* Take only what lies in the fake tree. */
static bool in_tree(const char *path, void *arg)
{
	(void)arg;
	return strncmp(path, real_top, strlen(real_top)) == 0;
}

static void setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(top));
	real_top = realpath(top, NULL);
	unsetenv("LD_LIBRARY_PATH");
	unsetenv("CUDA_HOME");
	unsetenv("CUDA_PATH");
}

static void teardown(void)
{
	char cmd[256];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", top);
	ck_assert_int_eq(system(cmd), 0);
	free(real_top);
	strcpy(top + strlen(top) - 6, "XXXXXX");
}

START_TEST(nvrtc_newest_major_first_then_loader_order)
{
	setenv_top("LD_LIBRARY_PATH", "ld1:ld2");
	setenv_top("CUDA_HOME", "home");
	setenv_top("CUDA_PATH", "path");
	touch("ld2/libnvrtc.so.12");
	touch("ld1/libnvrtc.so.12");
	touch("ld1/libnvrtc.so.13");
	touch("home/lib64/libnvrtc.so.12");
	touch("path/lib64/libnvrtc.so.14");
	touch("path/libnvrtc.so.15");           /* not lib64: never looked at */
	touch("ld1/libnvrtc.so");               /* no major: never looked at */
	static const char *const want[] = {
		"path/lib64/libnvrtc.so.14",   /* newest major wherever it is */
		"ld1/libnvrtc.so.13",
		"ld1/libnvrtc.so.12",          /* then LD_LIBRARY_PATH in order, */
		"ld2/libnvrtc.so.12",
		"home/lib64/libnvrtc.so.12",   /* then $CUDA_HOME, $CUDA_PATH */
	};
	expect_offered(TOOLKIT_NVRTC, want, sizeof want / sizeof *want);
}
END_TEST

START_TEST(nvrtc_found_as_real_path)
{
	setenv_top("LD_LIBRARY_PATH", "lib");
	touch("lib/libnvrtc.so.13.0.48");
	char *target = path_of("lib/libnvrtc.so.13.0.48"), *link = path_of("lib/libnvrtc.so.13");
	ck_assert_int_eq(symlink(target, link), 0);
	char *found = toolkit_lib_find(TOOLKIT_NVRTC, in_tree, NULL);
	ck_assert_ptr_nonnull(found);
	char *want = realpath(target, NULL);
	ck_assert_str_eq(found, want);
	free(want);
	free(found);
	free(target);
	free(link);
}
END_TEST

START_TEST(cupti_home_then_loader_then_any)
{
	setenv_top("LD_LIBRARY_PATH", "ld");
	setenv_top("CUDA_HOME", "home");
	setenv_top("CUDA_PATH", "path");
	touch("home/lib64/libcupti.so.13");
	touch("home/extras/CUPTI/lib64/libcupti.so.13");
	touch("ld/libcupti.so.13");
	touch("ld/libcupti.so");
	touch("home/lib64/libcupti.so");         /* any CUPTI: the loader's folders only */
	touch("path/lib64/libcupti.so.13");      /* CUPTI never looks in $CUDA_PATH */
	touch("ld/libcupti.so.12");
	static const char *const want[] = {
		"home/lib64/libcupti.so.13",
		"home/extras/CUPTI/lib64/libcupti.so.13",
		"ld/libcupti.so.13",
		"ld/libcupti.so",
	};
	expect_offered(TOOLKIT_CUPTI, want, sizeof want / sizeof *want);
}
END_TEST

/* cuBLAS and cuFFT: the major the build's headers name, where the loader looks, then the toolkit's */
START_TEST(cublas_cufft_loader_then_toolkit)
{
	setenv_top("LD_LIBRARY_PATH", "ld");
	setenv_top("CUDA_HOME", "home");
	setenv_top("CUDA_PATH", "path");
	char *name = xasprintf("home/lib64/%s", CUBLAS_LIB_NAME);
	touch(name);
	free(name);
	name = xasprintf("ld/%s", CUBLAS_LIB_NAME);
	touch(name);
	free(name);
	name = xasprintf("path/lib64/%s", CUFFT_LIB_NAME);
	touch(name);
	free(name);
	touch("ld/libcublas.so");               /* no major: never looked at */
	touch("ld/libcublas.so.11");            /* another major: never looked at */
	char *ld = xasprintf("ld/%s", CUBLAS_LIB_NAME), *home = xasprintf("home/lib64/%s",
									  CUBLAS_LIB_NAME);
	const char *const want[] = {ld, home};
	expect_offered(TOOLKIT_CUBLAS, want, 2);
	char *path = xasprintf("path/lib64/%s", CUFFT_LIB_NAME);
	const char *const want_fft[] = {path};
	expect_offered(TOOLKIT_CUFFT, want_fft, 1);
	enum toolkit_lib lib;
	ck_assert(toolkit_lib_named("cufft", &lib));
	ck_assert_int_eq(lib, TOOLKIT_CUFFT);
	ck_assert(!toolkit_lib_named("cusparse", &lib));
	ck_assert_str_eq(toolkit_lib_file(TOOLKIT_CUBLAS), CUBLAS_LIB_NAME);
	ck_assert_str_eq(toolkit_lib_name(TOOLKIT_CUBLAS), "cublas");
	free(ld);
	free(home);
	free(path);
}
END_TEST

START_TEST(empty_variables_are_no_place)
{
	setenv("CUDA_HOME", "", 1);
	setenv("CUDA_PATH", "", 1);
	/* "" would make "/lib64": a system folder the tree cannot see, so count offers */
	struct strlist with = {0}, without = {0};
	toolkit_lib_find(TOOLKIT_NVRTC, record, &with);
	unsetenv("CUDA_HOME");
	unsetenv("CUDA_PATH");
	toolkit_lib_find(TOOLKIT_NVRTC, record, &without);
	ck_assert_uint_eq(with.n, without.n);
	strlist_free(&with);
	strlist_free(&without);
	setenv_top("CUDA_HOME", "home");
	touch("home/lib64/libnvrtc.so.13");
	char *found = toolkit_lib_find(TOOLKIT_NVRTC, in_tree, NULL);
	ck_assert_ptr_nonnull(found);
	free(found);
}
END_TEST

START_TEST(ld_so_conf_includes_and_comments)
{
	touch("conf.d/b.conf");
	touch("conf.d/a.conf");
	char *conf = path_of("ld.so.conf"), *a = path_of("conf.d/a.conf"),
	     *b = path_of("conf.d/b.conf"), *self = path_of("self.conf");
	FILE *f = fopen(conf, "w");
	fprintf(f, "# a comment\n  /first/dir  \t\nrelative/ignored\n"
		"include %s/conf.d/*.conf\n/last # trailing comment\n", top);
	fclose(f);
	f = fopen(a, "w");
	fputs("/from/a\n", f);
	fclose(f);
	f = fopen(b, "w");
	fputs("\t/from/b\r\n", f);
	fclose(f);
	struct strlist dirs = {0};
	toolkit_lib_conf_dirs(conf, &dirs);
	ck_assert_uint_eq(dirs.n, 4);
	ck_assert_str_eq(dirs.v[0], "/first/dir");
	ck_assert_str_eq(dirs.v[1], "/from/a");
	ck_assert_str_eq(dirs.v[2], "/from/b");
	ck_assert_str_eq(dirs.v[3], "/last");
	strlist_free(&dirs);
	/* a file that includes itself ends (4 levels) */
	f = fopen(self, "w");
	fprintf(f, "/s\ninclude %s\n", self);
	fclose(f);
	toolkit_lib_conf_dirs(self, &dirs);
	ck_assert_uint_eq(dirs.n, 4);
	strlist_free(&dirs);
	toolkit_lib_conf_dirs("/nonexistent/ld.so.conf", &dirs);
	ck_assert_uint_eq(dirs.n, 0);
	free(conf);
	free(a);
	free(b);
	free(self);
}
END_TEST

static Suite *toolkit_lib_suite(void)
{
	Suite *s = suite_create("toolkit_lib");
	TCase *tc = tcase_create("find");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, nvrtc_newest_major_first_then_loader_order);
	tcase_add_test(tc, nvrtc_found_as_real_path);
	tcase_add_test(tc, cupti_home_then_loader_then_any);
	tcase_add_test(tc, cublas_cufft_loader_then_toolkit);
	tcase_add_test(tc, empty_variables_are_no_place);
	tcase_add_test(tc, ld_so_conf_includes_and_comments);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_MAIN(toolkit_lib_suite)
