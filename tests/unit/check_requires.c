/*
 * Unit tests for src/requires.c: a file's requires: judged against the
 * facts of a machine, without a GPU; where libraries are looked for.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "requires.h"
#include "unit.h"

static const struct device_facts h100 = {
	.driver = true, .driver_version = 12080, .gpus = 2, .device = true, .ordinal = 0,
	.name = "NVIDIA H100 80GB HBM3", .cc_major = 9, .cc_minor = 0,
	.memory = 85029158912ull,
};

static const char *unmet(const struct requirements *r, const struct device_facts *f)
{
	static char why[300];
	return requires_unmet(r, f, why, sizeof why) ? why : "";
}

START_TEST(test_met_and_unmet)
{
	struct requirements r = {.has_cc = true, .cc_major = 9, .cc_minor = 0};
	ck_assert_str_eq(unmet(&r, &h100), "");
	r.cc_major = 8;
	r.cc_minor = 6;
	ck_assert_str_eq(unmet(&r, &h100), "");
	r.cc_major = 10;
	r.cc_minor = 0;
	ck_assert_str_eq(unmet(&r, &h100), "requires compute capability 10.0, and GPU 0 "
			 "(NVIDIA H100 80GB HBM3) has 9.0");
	r = (struct requirements){.has_driver = true, .driver = 13000};
	ck_assert_str_eq(unmet(&r, &h100), "requires a CUDA 13.0 driver or newer, and this one is "
			 "CUDA 12.8");
	r.driver = 12080;
	ck_assert_str_eq(unmet(&r, &h100), "");
	r = (struct requirements){.has_gpus = true, .gpus = 4};
	ck_assert_str_eq(unmet(&r, &h100), "requires 4 GPUs, and the run has 2");
	r = (struct requirements){.has_memory = true, .memory = 96ull << 30};
	ck_assert_str_eq(unmet(&r, &h100), "requires 96 GiB of device memory, and GPU 0 "
			 "(NVIDIA H100 80GB HBM3) has 83036288 KiB");
	r.memory = 40ull << 30;
	ck_assert_str_eq(unmet(&r, &h100), "");
}
END_TEST

/* No driver: every requirement of the device unmet; one of libraries alone asks no GPU. */
START_TEST(test_no_driver)
{
	struct device_facts none = {.ordinal = 0};
	struct requirements r = {.has_memory = true, .memory = 1};
	ck_assert_str_eq(unmet(&r, &none), "requires a GPU, and no CUDA driver could be loaded");
	ck_assert_str_eq(unmet(&r, NULL), "requires a GPU, and no CUDA driver could be loaded");
	struct device_facts nogpu = h100;
	nogpu.device = false;
	nogpu.ordinal = 3;
	r = (struct requirements){.has_cc = true, .cc_major = 7};
	ck_assert_str_eq(unmet(&r, &nogpu), "requires a GPU 3, and there is none");
	r = (struct requirements){0};
	ck_assert(!requires_device(&r));
	ck_assert_str_eq(unmet(&r, NULL), "");
}
END_TEST

/* A library is looked for in the loader's folders first (LD_LIBRARY_PATH). */
START_TEST(test_library_search)
{
	char dir[] = "/tmp/cgr-req-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char path[256];
	snprintf(path, sizeof path, "%s/libcurand.so.10", dir);
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fclose(f);
	setenv("LD_LIBRARY_PATH", dir, 1);
	char *found = requires_library_path(REQ_CURAND);
	ck_assert_ptr_nonnull(found);
	ck_assert_str_eq(found, path);
	free(found);
	unlink(path);
	rmdir(dir);
}
END_TEST

static Suite *requires_suite(void)
{
	Suite *s = suite_create("requires");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_met_and_unmet);
	tcase_add_test(tc, test_no_driver);
	tcase_add_test(tc, test_library_search);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_MAIN(requires_suite)
