/* json_literal.c - see json_literal.h. */
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <json-c/json.h>

#include "json_literal.h"

struct json_object *json(const char *single_quoted)
{
	char *s = strdup(single_quoted);
	struct json_object *o;

	ck_assert_ptr_nonnull(s);
	for (char *p = s; *p; p++)
		if (*p == '\'')
			*p = '"';
	o = json_tokener_parse(s);
	ck_assert_msg(o, "test JSON does not parse: %s", s);
	free(s);
	return o;
}
