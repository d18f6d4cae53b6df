/* testutil.c - see testutil.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include <unistd.h>

#include "outputs/sink.h"
#include "testutil.h"

void tu_write_file(const char *dir, const char *name, const char *text)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	ck_assert_msg(f != NULL, "cannot create %s", path);
	ck_assert_int_ge(fputs(text, f), 0);
	ck_assert_int_eq(fclose(f), 0);
}

struct json_object *tu_jget(struct json_object *o, const char *path)
{
	char buf[256], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *k = strtok_r(buf, ".", &save); k && o;
	     k = strtok_r(NULL, ".", &save)) {
		if (json_object_is_type(o, json_type_array))
			o = json_object_array_get_idx(o, (size_t)atoi(k));
		else if (!json_object_object_get_ex(o, k, &o))
			return NULL;
	}
	return o;
}

bool tu_text_is_ours(const char *text)
{
	char path[] = "/tmp/ws-ours-XXXXXX";
	int fd = mkstemp(path);
	bool ours;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	ck_assert_int_eq(close(fd), 0);
	ours = sink_file_is_ours(path);
	unlink(path);
	return ours;
}
