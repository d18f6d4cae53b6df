/* version.c - WS_BUILD_* come from gen/build_info.h, which make includes
 * on this file's command line (scripts/build-info.sh). */
#include <stdio.h>

#include <json-c/json.h>
#include <sqlite3.h>

#include "version.h"

void version_print(FILE *out)
{
	fprintf(out, "writestress %s\n", WS_VERSION);
	fprintf(out, "commit: %s\n", WS_BUILD_COMMIT);
	fprintf(out, "features: io_uring sqlite tracing\n");
	fprintf(out, "libraries: liburing %s, SQLite %s, libtracefs %s, libtraceevent %s, json-c %s\n",
		WS_BUILD_URING, sqlite3_libversion(), WS_BUILD_TRACEFS,
		WS_BUILD_TRACEEVENT, json_c_version());
}
