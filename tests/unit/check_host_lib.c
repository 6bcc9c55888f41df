/*
 * Unit tests for src/host_lib.c: host functions of a user library
 * (tests/unit/test_host.c, built as libcgr-test-host.so) opened for a
 * model, called with the node's buffers, their failures kept and said;
 * and what happens when a library or a function is not there.  No GPU:
 * the test calls what the driver's thread would.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf_host.h"
#include "host_lib.h"
#include "load.h"
#include "load_limits.h"
#include "unit.h"
#include "unit_model.h"
#include "unit_cap.h"
#include "validate.h"

#ifndef TEST_HOST_LIB
#define TEST_HOST_LIB "tests/unit/libcgr-test-host.so"
#endif

/* A model with host calls to the test library; NULL when it is not valid. */
static struct gdef *model(const char *calls, struct cap *k)
{
	char *text = NULL;
	int n = asprintf(&text,
			 "cugraphrun: 1\n"
			 "buffers:\n"
			 "  x: {type: i32, count: 4, memory: host}\n"
			 "  f: {type: f32, count: 3, memory: managed}\n"
			 "  o: {type: u64, count: 8, memory: host}\n"
			 "nodes:\n%s", calls);
	ck_assert_int_gt(n, 0);
	struct gdef *g = gdef_load_string("t.yaml", text, (size_t)n, &load_default_limits, &k->d);
	free(text);
	if (g && !gdef_validate(g, &k->d)) {
		gdef_free(g);
		g = NULL;
	}
	return g;
}

START_TEST(test_call_with_buffers)
{
	struct cap k;
	cap_open(&k, "t.yaml");
	struct gdef *g = model(
		"  - {id: s, host: {call: {library: " TEST_HOST_LIB ", function: scale, buffers: x, arg: '3'}}}\n"
		"  - {id: d, host: {call: {library: " TEST_HOST_LIB ", function: describe, buffers: [o, f, x]}}}\n",
		&k);
	ck_assert_msg(g != NULL, "%s", cap_text(&k));
	bool none = true;
	struct host_libs *libs = host_libs_open(&g, 1, &k.d, &none);
	ck_assert_msg(libs != NULL, "%s", cap_text(&k));
	ck_assert(!none);
	int32_t x[4] = {1, 2, 3, 4};
	float f[3] = {0};
	unsigned long long o[8] = {0};
	void *host[3] = {x, f, o};
	const struct node *s = unit_node(g, "s"), *d = unit_node(g, "d");
	struct host_fn_state *ss = host_fn_state_new(host_libs_find(libs, s->u.host.fn), 1);
	struct host_fn_state *ds = host_fn_state_new(host_libs_find(libs, d->u.host.fn), 3);
	ck_assert_ptr_nonnull(ss->fn);
	host_fn_call(ss, g, s, host, 0);
	host_fn_call(ss, g, s, host, 1);
	ck_assert_int_eq(x[0], 9);
	ck_assert_int_eq(x[3], 36);
	host_fn_call(ds, g, d, host, 0);
	/* abi 1, 3 buffers; o: u64 8 x 8; f: f32 4 x 3; x: i32 4 x 4 */
	static const unsigned long long want[8] = {1, 3, 7, 8, 8, 10, 4, 3};
	for (int i = 0; i < 8; i++)
		ck_assert_uint_eq(o[i], want[i]);
	ck_assert_uint_eq(ss->failed + ds->failed, 0);
	ck_assert_uint_eq(host_fn_told(ss, s, &k.d), 0);
	ck_assert_str_eq(cap_text(&k), "");
	host_fn_state_free(ss);
	host_fn_state_free(ds);
	host_libs_free(libs);
	gdef_free(g);
	cap_close(&k);
}
END_TEST

/* A failure is kept by the call and said afterwards, at the node, once. */
START_TEST(test_failure_said_after)
{
	struct cap k;
	cap_open(&k, "t.yaml");
	struct gdef *g = model(
		"  - {id: t, host: {call: {library: " TEST_HOST_LIB ", function: third_fails}}}\n"
		"  - {id: q, host: {call: {library: " TEST_HOST_LIB ", function: silent}}}\n"
		"  - {id: m, host: {call: {library: " TEST_HOST_LIB ", function: long_message}}}\n",
		&k);
	ck_assert_msg(g != NULL, "%s", cap_text(&k));
	bool none;
	struct host_libs *libs = host_libs_open(&g, 1, &k.d, &none);
	ck_assert_ptr_nonnull(libs);
	void *host[3] = {0};
	const struct node *t = unit_node(g, "t"), *q = unit_node(g, "q"), *m = unit_node(g, "m");
	struct host_fn_state *ts = host_fn_state_new(host_libs_find(libs, t->u.host.fn), 0);
	for (unsigned long r = 0; r < 5; r++)
		host_fn_call(ts, g, t, host, r);
	ck_assert_uint_eq(ts->failed, 1);
	ck_assert_str_eq(cap_text(&k), "");
	host_fn_when(ts, "verification launch 3 of 5");
	host_fn_when(ts, "verification launch 4 of 5");
	ck_assert_uint_eq(host_fn_told(ts, t, &k.d), 1);
	ck_assert_str_eq(cap_text(&k),
		"t.yaml:7:5: error: host function 'third_fails' of node 't' failed (it returned 7) "
		"on its run 3, during verification launch 3 of 5: run 3 of node 't' is the third\n");
	/* said once */
	ck_assert_uint_eq(host_fn_told(ts, t, &k.d), 0);
	struct host_fn_state *qs = host_fn_state_new(host_libs_find(libs, q->u.host.fn), 0);
	for (unsigned long r = 0; r < 3; r++)
		host_fn_call(qs, g, q, host, r);
	host_fn_when(qs, "the warm-up and timed launches");
	ck_assert_uint_eq(host_fn_told(qs, q, &k.d), 1);
	struct host_fn_state *ms = host_fn_state_new(host_libs_find(libs, m->u.host.fn), 0);
	host_fn_call(ms, g, m, host, 0);
	ck_assert_uint_eq(strlen(ms->first), HOST_FN_MESSAGE - 1);
	ck_assert(strstr(cap_text(&k), "t.yaml:8:5: error: host function 'silent' of node 'q' "
			 "failed (it returned -1) on its run 1, during the warm-up and timed "
			 "launches (and 2 more of its runs after it): (no message)\n"));
	host_fn_state_free(ts);
	host_fn_state_free(qs);
	host_fn_state_free(ms);
	host_libs_free(libs);
	gdef_free(g);
	cap_close(&k);
}
END_TEST

/* A library or a function that is not there: an error at the node, nothing opened. */
START_TEST(test_not_there)
{
	struct cap k;
	cap_open(&k, "t.yaml");
	struct gdef *g = model(
		"  - {id: t, host: {call: {library: " TEST_HOST_LIB ", function: nope}}}\n", &k);
	ck_assert_ptr_nonnull(g);
	bool none;
	ck_assert_ptr_null(host_libs_open(&g, 1, &k.d, &none));
	/* at the function's name (its column follows the library's path) */
	ck_assert(strncmp(cap_text(&k), "t.yaml:7:", 9) == 0);
	ck_assert(strstr(cap_text(&k), ": error: host library '" TEST_HOST_LIB
			 "' has no function 'nope'\n"));
	gdef_free(g);
	cap_close(&k);
	/* a file that is no shared library (the validator saw it exists) */
	cap_open(&k, "t.yaml");
	g = model("  - {id: t, host: {call: {library: " TOP_SRCDIR "/tests/unit/test_host.c, "
		  "function: scale}}}\n", &k);
	ck_assert_ptr_nonnull(g);
	ck_assert_ptr_null(host_libs_open(&g, 1, &k.d, &none));
	ck_assert(strstr(cap_text(&k), "error: cannot open host library '" TOP_SRCDIR
			 "/tests/unit/test_host.c': "));
	gdef_free(g);
	cap_close(&k);
	/* no host call at all: nothing to open, and no error */
	cap_open(&k, "t.yaml");
	g = model("  - {empty: }\n", &k);
	ck_assert_ptr_null(host_libs_open(&g, 1, &k.d, &none));
	ck_assert(none);
	ck_assert_str_eq(cap_text(&k), "");
	gdef_free(g);
	cap_close(&k);
}
END_TEST

/* A name alone is found where dlopen looks; else the validator says where it looked. */
START_TEST(test_name_alone)
{
	char *dir = strdup(TEST_HOST_LIB);
	*strrchr(dir, '/') = '\0';
	setenv("LD_LIBRARY_PATH", dir, 1);
	char *found = host_lib_search("libcgr-test-host.so");
	ck_assert_ptr_nonnull(found);
	ck_assert(strstr(found, "libcgr-test-host.so"));
	free(found);
	ck_assert_ptr_null(host_lib_search("libcgr-no-such-library.so"));
	struct cap k;
	cap_open(&k, "t.yaml");
	ck_assert_ptr_null(model("  - host: {call: {library: libcgr-no-such-library.so, "
				 "function: f}}\n", &k));
	ck_assert_msg(strstr(cap_text(&k), "t.yaml:7:28: error: cannot find host library "
			      "'libcgr-no-such-library.so' where dlopen looks"), "%s", cap_text(&k));
	cap_close(&k);
	free(dir);
}
END_TEST

static Suite *host_lib_suite(void)
{
	Suite *s = suite_create("host_lib");
	TCase *tc = tcase_create("core");
	tcase_add_test(tc, test_call_with_buffers);
	tcase_add_test(tc, test_failure_said_after);
	tcase_add_test(tc, test_not_there);
	tcase_add_test(tc, test_name_alone);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_MAIN(host_lib_suite)
