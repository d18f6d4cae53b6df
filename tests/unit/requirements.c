/* requirements.c - the unit tests' needs, checked once (see requirements.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "requirements.h"

bool requirements_listed(const char *list, const char *what)
{
	size_t n = strlen(what);

	if (!list)
		return false;
	while (*list) {
		size_t len = strcspn(list, ",");

		/* "all": every need but the kernel's and the build's */
		if ((len == 3 && !strncmp(list, "all", 3) &&
		     strcmp(what, "kernel") && strcmp(what, "sanitizer")) ||
		    (len == n && !strncmp(list, what, n)))
			return true;
		list += len;
		list += *list == ',';
	}
	return false;
}

static bool have_root(char *why, size_t len)
{
	int fd;

	if (geteuid() != 0) {
		snprintf(why, len, "not root");
		return false;
	}
	fd = open("/dev/loop-control", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, len, "no /dev/loop-control: %s", strerror(errno));
		return false;
	}
	close(fd);
	return true;
}

/* A block device's directory in /sys for the filesystem of dir. */
static bool on_block_device(const char *dir)
{
	struct stat st;
	char path[96];

	if (stat(dir, &st) || !major(st.st_dev))
		return false;
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", major(st.st_dev),
		 minor(st.st_dev));
	return access(path, F_OK) == 0;
}

static bool have_blockdev(char *why, size_t len)
{
	if (access("/sys/block", F_OK)) {
		snprintf(why, len, "no /sys/block");
		return false;
	}
	if (!on_block_device("/tmp") && !on_block_device("/var/tmp")) {
		snprintf(why, len, "/tmp and /var/tmp are on no block device");
		return false;
	}
	return true;
}

static bool have_xattr(char *why, size_t len)
{
	char path[] = "/tmp/ws-xattr-XXXXXX";
	int fd = mkstemp(path), ret;

	if (fd < 0) {
		snprintf(why, len, "cannot create a file in /tmp: %s", strerror(errno));
		return false;
	}
	ret = fsetxattr(fd, "user.writestress-test", "1", 1, 0);
	if (ret)
		snprintf(why, len, "/tmp's filesystem keeps no user xattrs: %s",
			 strerror(errno));
	close(fd);
	unlink(path);
	return ret == 0;
}

static const struct {
	const char *tag;
	bool (*met)(char *why, size_t len);
} needs[] = {
	{ "root", have_root },
	{ "blockdev", have_blockdev },
	{ "xattr", have_xattr },
};

int requirements_check(char *exclude, size_t len, FILE *out)
{
	const char *required = getenv("WS_REQUIRE");
	int failed = 0;

	for (size_t i = 0; i < sizeof(needs) / sizeof(needs[0]); i++) {
		char why[160];
		size_t used = strlen(exclude);

		if (needs[i].met(why, sizeof(why)))
			continue;
		snprintf(exclude + used, len - used, "%s%s", used ? " " : "",
			 needs[i].tag);
		if (requirements_listed(required, needs[i].tag)) {
			fprintf(out, "FAIL unit tests tagged '%s' cannot run: %s (WS_REQUIRE=%s)\n",
				needs[i].tag, why, required);
			failed++;
		} else {
			fprintf(out, "SKIP unit tests tagged '%s': %s\n", needs[i].tag, why);
		}
	}
	return failed;
}
