/* The unit-test runner: every suite listed in suites.h, in fork mode so a
 * crash is reported against its test.  CK_RUN_SUITE, CK_INCLUDE_TAGS and
 * CK_EXCLUDE_TAGS (Check's own variables) select what runs. */
#include <stdlib.h>

#include "suites.h"

int main(void)
{
	SRunner *sr = srunner_create(NULL);
	int failed;

#define WS_ADD_SUITE(fn) srunner_add_suite(sr, fn());
	WS_TEST_SUITES(WS_ADD_SUITE)
#undef WS_ADD_SUITE

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
