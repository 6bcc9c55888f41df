/*
 * The run's devices in GPU ordinals (gpu_devmap.h): relative to the run's
 * GPU, in the run's list of GPUs, wrapping at its end.
 */
#include "config.h"

#include <string.h>

#include "gpu_devmap.h"
#include "unit.h"

START_TEST(all_gpus_from_zero)
{
	int o[4] = {-1, -1, -1, -1};
	unsigned have = 0;
	ck_assert(devmap(0, 0, 4, 4, o, &have));
	ck_assert_uint_eq(have, 4);
	for (int k = 0; k < 4; k++)
		ck_assert_int_eq(o[k], k);
}
END_TEST

/* -d 2 on four GPUs: devices 0 to 3 are GPUs 2, 3, 0, 1. */
START_TEST(wraps_at_the_end)
{
	int o[4];
	unsigned have = 0;
	ck_assert(devmap(2, 0, 4, 4, o, &have));
	ck_assert_int_eq(o[0], 2);
	ck_assert_int_eq(o[1], 3);
	ck_assert_int_eq(o[2], 0);
	ck_assert_int_eq(o[3], 1);
	/* a worker on GPU 1 of two: its device 1 is GPU 0 */
	ck_assert(devmap(1, 0, 2, 2, o, &have));
	ck_assert_int_eq(o[0], 1);
	ck_assert_int_eq(o[1], 0);
}
END_TEST

/* --devices=1,3 of four: the run's list is GPUs 1 and 3. */
START_TEST(mask_is_the_list)
{
	int o[2];
	unsigned have = 0;
	ck_assert(devmap(3, 0xa, 4, 2, o, &have));
	ck_assert_uint_eq(have, 2);
	ck_assert_int_eq(o[0], 3);
	ck_assert_int_eq(o[1], 1);
	ck_assert(!devmap(3, 0xa, 4, 3, o, &have));
	ck_assert_uint_eq(have, 2);
	/* GPUs of the mask the machine lacks are not on the list */
	ck_assert(!devmap(1, 0x6, 2, 2, o, &have));
	ck_assert_uint_eq(have, 1);
}
END_TEST

/* --devices=1 alone: a file that needs two is short of one. */
START_TEST(too_few)
{
	int o[2] = {-1, -1};
	unsigned have = 9;
	ck_assert(!devmap(1, 0x2, 2, 2, o, &have));
	ck_assert_uint_eq(have, 1);
	ck_assert(!devmap(0, 0, 1, 2, o, &have));
	ck_assert_uint_eq(have, 1);
	ck_assert(devmap(0, 0, 1, 1, o, &have));
	ck_assert_int_eq(o[0], 0);
}
END_TEST

START_TEST(words)
{
	char buf[64];
	ck_assert_str_eq(devmap_words(1, 0x2, 2, buf, sizeof buf), "GPU 1");
	ck_assert_str_eq(devmap_words(0, 0, 2, buf, sizeof buf), "GPUs 0 and 1");
	ck_assert_str_eq(devmap_words(3, 0xb, 8, buf, sizeof buf), "GPUs 0, 1 and 3");
	ck_assert_str_eq(devmap_words(0, 0, 1, buf, sizeof buf), "GPU 0");
	/* cut short, still a string */
	ck_assert_str_eq(devmap_words(0, 0, 4, buf, 8), "GPUs 0,");
}
END_TEST

static Suite *devmap_suite(void)
{
	Suite *s = suite_create("devmap");
	TCase *tc = tcase_create("devmap");
	tcase_add_test(tc, all_gpus_from_zero);
	tcase_add_test(tc, wraps_at_the_end);
	tcase_add_test(tc, mask_is_the_list);
	tcase_add_test(tc, too_few);
	tcase_add_test(tc, words);
	suite_add_tcase(s, tc);
	return s;
}

UNIT_MAIN(devmap_suite)
