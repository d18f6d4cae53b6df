/* json_literal.h - a json-c tree from JSON written in a C string with
 * single quotes for double ones ("{'a': 1}"), for the suites that feed
 * result files to compare and report. */
#ifndef WS_TEST_JSON_LITERAL_H
#define WS_TEST_JSON_LITERAL_H

struct json_object;

/* The tree (the caller puts it); the test fails if it does not parse. */
struct json_object *json(const char *single_quoted);

#endif
