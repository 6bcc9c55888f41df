/*
 * Shared scaffolding for the Check unit tests: each test program builds
 * one suite and runs it with UNIT_MAIN(suite_function).
 */
#ifndef CGR_UNIT_H
#define CGR_UNIT_H

#include <check.h>
#include <stdlib.h>

#define UNIT_MAIN(make_suite)                                              \
	int main(void)                                                     \
	{                                                                  \
		SRunner *sr = srunner_create(make_suite());                \
		srunner_run_all(sr, CK_NORMAL);                            \
		int failed = srunner_ntests_failed(sr);                    \
		srunner_free(sr);                                          \
		return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;          \
	}

#endif
