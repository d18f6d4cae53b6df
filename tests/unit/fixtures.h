/* fixtures.h - where the canned /sys and /proc trees are: tests/fixtures/fp,
 * found from the working directory, $WS_FIXTURES, or upwards from the test
 * binary (build/unit-tests, build/asan/unit-tests). */
#ifndef WS_TEST_FIXTURES_H
#define WS_TEST_FIXTURES_H

#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static inline const char *fixtures(void)
{
	static char dir[PATH_MAX + 32];
	char exe[PATH_MAX], probe[PATH_MAX + 32];
	const char *env = getenv("WS_FIXTURES");
	ssize_t n;

	if (dir[0])
		return dir;
	if (env && *env) {
		snprintf(dir, sizeof(dir), "%s/fp", env);
		return dir;
	}
	snprintf(dir, sizeof(dir), "tests/fixtures/fp");
	if (access(dir, F_OK) == 0)
		return dir;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		exe[n] = '\0';
		for (int up = 0; up < 4; up++) {
			char *slash = strrchr(exe, '/');

			if (!slash)
				break;
			*slash = '\0';
			snprintf(probe, sizeof(probe), "%s/tests/fixtures/fp", exe);
			if (access(probe, F_OK) == 0) {
				snprintf(dir, sizeof(dir), "%s", probe);
				return dir;
			}
		}
	}
	return dir;
}

/* The root of one canned tree ("nvme", "sata", ...). */
static inline const char *tree(const char *name)
{
	static char path[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/%s", fixtures(), name);
	ck_assert_msg(access(path, F_OK) == 0, "fixture %s not found", path);
	return path;
}

#endif
