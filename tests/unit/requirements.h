/* requirements.h - what some unit tests need from the machine, and the
 * skips that follow, through Check's own mechanism: test cases that need
 * something carry its name as a tag (tcase_set_tags), and the runner
 * excludes the tags whose need is not met, saying why.
 *
 *   root      euid 0 and /dev/loop-control (a loop device is made)
 *   blockdev  /sys/block, and /tmp or /var/tmp on a block device
 *   xattr     user extended attributes on /tmp's filesystem
 *
 * WS_REQUIRE (a comma-separated list of tags, or "all"; .ci/run sets it)
 * turns a skip of a listed tag into a failure.
 */
#ifndef WS_TEST_REQUIREMENTS_H
#define WS_TEST_REQUIREMENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Print a SKIP line to out for every unmet need, append its tag to
 * exclude (space-separated, as CK_EXCLUDE_TAGS), and return how many of
 * the unmet ones WS_REQUIRE asks for (each printed as a failure). */
int requirements_check(char *exclude, size_t len, FILE *out);

/* Is `what` in the comma-separated list (or is the list "all")? */
bool requirements_listed(const char *list, const char *what);

#endif
