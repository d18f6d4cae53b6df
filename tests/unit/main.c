/* The unit-test runner: every suite listed in suites.h, in fork mode so a
 * crash is reported against its test.  CK_RUN_SUITE, CK_RUN_CASE and
 * CK_INCLUDE_TAGS (Check's own variables) select what runs; test cases
 * tagged with a need this machine does not meet (requirements.h) are
 * excluded, with a SKIP line saying why, on top of CK_EXCLUDE_TAGS.
 * `unit-tests --list` prints the suites' names, one a line ("fork-only"
 * after those that need fork mode), for tests/unit/run.sh, which runs
 * them side by side; `--update-expected` rewrites the golden files
 * (`make update-expected`). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record_fixture.h"
#include "requirements.h"
#include "suites.h"

static void list_suite(const char *fn, size_t len)
{
	static const char *const fork_only[] = { WS_FORK_ONLY_SUITES };
	const char *mark = "";

	for (size_t i = 0; i < sizeof(fork_only) / sizeof(fork_only[0]); i++)
		if (strlen(fork_only[i]) == len && !strncmp(fork_only[i], fn, len))
			mark = " fork-only";
	printf("%.*s%s\n", (int)len, fn, mark);
}

/* A suite made by name_suite() is named "name" (the rule of suites.h). */
static int list_suites(void)
{
#define WS_LIST_SUITE(fn) list_suite(#fn, sizeof(#fn) - sizeof("_suite"));
	WS_TEST_SUITES(WS_LIST_SUITE)
#undef WS_LIST_SUITE
	return EXIT_SUCCESS;
}

int main(int argc, char **argv)
{
	SRunner *sr;
	const char *env = getenv("CK_EXCLUDE_TAGS");
	char exclude[256];
	int failed, unmet;

	if (argc == 2 && !strcmp(argv[1], "--list"))
		return list_suites();
	if (argc == 2 && !strcmp(argv[1], "--update-expected"))
		golden_update = true;	/* make update-expected: on purpose */
	else if (argc > 1) {
		fprintf(stderr, "usage: unit-tests [--list | --update-expected]\n");
		return 2;
	}
	sr = srunner_create(NULL);

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
