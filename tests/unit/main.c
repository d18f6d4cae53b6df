/* The unit-test runner: every suite listed in suites.h, in fork mode so a
 * crash is reported against its test.  CK_RUN_SUITE, CK_RUN_CASE and
 * CK_INCLUDE_TAGS (Check's own variables) select what runs; test cases
 * tagged with a need this machine does not meet (requirements.h) are
 * excluded, with a SKIP line saying why, on top of CK_EXCLUDE_TAGS. */
#include <stdio.h>
#include <stdlib.h>

#include "requirements.h"
#include "suites.h"

int main(void)
{
	SRunner *sr = srunner_create(NULL);
	const char *env = getenv("CK_EXCLUDE_TAGS");
	char exclude[256];
	int failed, unmet;

	snprintf(exclude, sizeof(exclude), "%s", env ? env : "");
	unmet = requirements_check(exclude, sizeof(exclude), stdout);

#define WS_ADD_SUITE(fn) srunner_add_suite(sr, fn());
	WS_TEST_SUITES(WS_ADD_SUITE)
#undef WS_ADD_SUITE

	srunner_run_tagged(sr, NULL, NULL, NULL, exclude, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed || unmet ? EXIT_FAILURE : EXIT_SUCCESS;
}
